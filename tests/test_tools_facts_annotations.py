"""`smullyan tools` (issue 28): MCP tool annotations built by the project's own helper
(``@mcp.tool(annotations=read_only())``) declare the tool's class as literal ``ToolAnnotations`` do, wherever the
helper is defined in the run (``linter/tools/annotations.py``); a hint passed as a parameter states nothing."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import write_tree

HELPERS = """
    from mcp.types import ToolAnnotations

    def read_only(title=None) -> ToolAnnotations:
        return ToolAnnotations(title=title, readOnlyHint=True, destructiveHint=False)

    def write(title=None, *, destructive=True, idempotent=False) -> ToolAnnotations:
        return ToolAnnotations(title=title, readOnlyHint=False, destructiveHint=destructive, idempotentHint=idempotent)

    def delete() -> dict:
        return {"destructiveHint": True}

    def not_annotations():
        return dict(readOnlyHint=True)
"""


def _run(tmp_path: Path, files: dict[str, str]) -> dict[str, tools.Tool]:
    paths = write_tree(tmp_path, files)
    return {t.name: t for t in tools.run(paths, Config()).tools}


def test_an_annotation_helper_of_another_module_declares_the_class(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/annotations.py": HELPERS,
        "pkg/server.py": """
            import httpx
            from mcp.server.fastmcp import FastMCP
            from pkg.annotations import read_only, write, delete, not_annotations

            mcp = FastMCP("x")

            @mcp.tool(annotations=read_only())
            def get_task(task_id: str) -> str:
                return httpx.post("https://api.example.com/tasks/query", json={"id": task_id}, timeout=5).text

            @mcp.tool(annotations=write())
            def pause(task_id: str) -> str:
                return "ok"

            @mcp.tool(annotations=delete())
            def remove(task_id: str) -> str:
                return "ok"

            @mcp.tool(annotations=not_annotations())
            def other(task_id: str) -> str:
                return "ok"
        """,
    })
    got = rows["get_task"]
    # declared read-only: the POST's inferred class gives way to it, and no key is needed
    assert (got.classification, got.source, got.evidence, got.key) == ("read-safe", "declared", "MCP annotations",
                                                                       "not-needed")
    assert "annotated" not in got.as_json()
    # hints passed as parameters state nothing: only the literal ``readOnlyHint=False`` is left, which states no class
    assert rows["pause"].source != "declared"
    # a dict literal with the hints: destructive
    assert (rows["remove"].classification, rows["remove"].source) == ("irreversible", "declared")
    # ``dict(...)`` is not a ToolAnnotations call or a dict literal: nothing declared
    assert rows["other"].source != "declared"


def test_a_same_module_annotation_helper_declares_the_class(tmp_path: Path) -> None:
    rows = _run(tmp_path, {
        "server.py": """
            from mcp.server.fastmcp import FastMCP
            from mcp.types import ToolAnnotations

            mcp = FastMCP("x")

            def idempotent() -> ToolAnnotations:
                return ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True)

            def maybe(flag: bool) -> ToolAnnotations:
                if flag:
                    return ToolAnnotations(readOnlyHint=True)
                return ToolAnnotations(destructiveHint=True)

            @mcp.tool(annotations=idempotent())
            def put(key: str, value: str) -> str:
                return "ok"

            @mcp.tool(annotations=maybe(True))
            def either(key: str) -> str:
                return "ok"
        """,
    })
    assert (rows["put"].classification, rows["put"].source, rows["put"].key) == ("idempotent-write", "declared",
                                                                                 "not-needed")
    assert rows["either"].source != "declared"  # returns that disagree declare nothing


def test_hints_given_as_the_decorators_own_keywords_declare_the_class(tmp_path: Path) -> None:
    # fastmcp-extensions' @mcp_tool sends every hint, a hint not given being False: read_only wins, then destructive,
    # then idempotent; idempotent not given (False) is a non-idempotent write; a hint given by a variable states nothing
    src = """
        from fastmcp import FastMCP
        from fastmcp_extensions import mcp_tool, register_mcp_tools

        @mcp_tool(read_only=True, idempotent=True)
        def list_rollouts() -> str:
            \"\"\"Read.\"\"\"
            return "x"

        @mcp_tool(destructive=False, idempotent=True, open_world=True)
        def pause_rollout(rollout_id: str) -> str:
            \"\"\"Pause.\"\"\"
            return rollout_id

        @mcp_tool(destructive=True)
        def yank(version: str) -> str:
            \"\"\"Yank.\"\"\"
            return version

        @mcp_tool(open_world=True)
        def send(text: str) -> str:
            \"\"\"Send.\"\"\"
            return text

        @mcp_tool(read_only=False, idempotent=False)
        def start_job(name: str) -> str:
            \"\"\"Start.\"\"\"
            return name

        IDEMPOTENT = True

        @mcp_tool(idempotent=IDEMPOTENT)
        def maybe(name: str) -> str:
            \"\"\"A hint by a variable.\"\"\"
            return name
    """
    rows = _run(tmp_path, {"pkg/__init__.py": "", "pkg/ops.py": src})
    got = {n: (t.classification, t.source) for n, t in rows.items()}
    assert got["list_rollouts"] == ("read-safe", "declared")
    assert got["pause_rollout"] == ("idempotent-write", "declared")
    assert got["yank"] == ("irreversible", "declared")
    assert got["start_job"] == ("non-idempotent-write", "declared")
    assert got["send"][1] != "declared"  # no class hint given: nothing declared
    assert got["maybe"][1] != "declared"
