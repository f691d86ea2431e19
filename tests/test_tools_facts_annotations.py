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
