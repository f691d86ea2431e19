"""`smullyan tools`' ``local`` class through an attribute its class declares (issue 28, session 48; tinyharness'
``TeamMessage``): ``self.board.post(...)`` with ``def __init__(self, board: Board): self.board, self.sender = board,
sender`` is ``Board.post``, judged where it is defined; a class field annotated ``dict[...]`` keeps its value methods
(``self.inboxes.setdefault(k, [])``) on the machine. An attribute another method sets, or one annotated with a
third-party class, decides nothing.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

TEAM = """
    from dataclasses import dataclass, field

    import httpx


    class Tool:
        name = ""

        async def run(self, args, ctx):
            raise NotImplementedError


    @dataclass
    class Board:
        tasks: dict[str, str]
        messages: list[tuple[str, str]] = field(default_factory=list)
        inboxes: dict[str, list[str]] = field(default_factory=dict)

        def post(self, sender: str, to: str, text: str) -> str:
            self.messages.append((sender, text))
            self.inboxes.setdefault(to, []).append(text)
            return "sent"


    class TeamMessageTool(Tool):
        name = "TeamMessage"

        def __init__(self, board: Board, sender: str) -> None:
            self.board, self.sender = board, sender

        async def run(self, args, ctx) -> str:
            return self.board.post(self.sender, args.to, args.text)


    class TeamNoteTool(Tool):
        name = "TeamNote"

        def __init__(self, goal: str) -> None:
            self.board = Board({"lead": goal})

        async def run(self, args, ctx) -> str:
            return self.board.post("lead", "all", args.text)


    class RebindTool(Tool):
        name = "Rebind"

        def __init__(self, board: Board) -> None:
            self.board = board

        def connect(self, client) -> None:
            self.board = client

        async def run(self, args, ctx) -> str:
            return self.board.post("lead", "all", args.text)


    class RemoteTool(Tool):
        name = "Remote"

        def __init__(self, client: httpx.Client) -> None:
            self.client = client

        async def run(self, args, ctx) -> str:
            return self.client.post("/notes", json={"text": args.text}).text
"""


def test_a_method_of_the_class_an_attribute_is_declared_is_followed(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"team/__init__.py": "", "team/tools.py": TEAM})
    got = {n: (rows[n].classification, rows[n].key) for n in ("TeamMessage", "TeamNote")}
    assert got == {"TeamMessage": ("local", "not-needed"), "TeamNote": ("local", "not-needed")}


def test_an_attribute_another_method_sets_or_a_library_object_is_not_local(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"team/__init__.py": "", "team/tools.py": TEAM})
    assert rows["Rebind"].classification != "local" and rows["Remote"].classification != "local"
