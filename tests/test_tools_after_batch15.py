"""`smullyan tools` (issue 28, session 43): the discovery forms batch 15 left (tuned on it, not blind). A helper that
registers each of its ``*args`` on a server (yougile's MCP Apps ``add_screens(mcp, *fns)``), called in its own module
with a starred module tuple and from other modules with their functions."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_SCREENS = """
    from typing import Any

    from fastmcp import FastMCP
    from fastmcp.tools import Tool


    def show_task(task_id: str) -> str:
        return task_id


    def show_tasks() -> list[str]:
        return []


    SCREEN_TOOLS = (show_task, show_tasks)


    def add_screens(mcp: FastMCP, *fns: Any) -> None:
        for fn in fns:
            mcp.add_tool(Tool.from_function(fn, meta={"ui": {"visibility": ["model"]}}))


    def register(mcp: FastMCP) -> None:
        add_screens(mcp, *SCREEN_TOOLS)
    """


def test_a_helper_registering_each_of_its_star_args(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/apps/__init__.py": "",
        "app/apps/screens.py": _SCREENS,
        "app/apps/board.py": """
            from .screens import add_screens


            def show_board(board: str) -> str:
                return board


            def board_title(board: str) -> str:
                return board.title()


            def register(mcp):
                add_screens(mcp, show_board)
                print(board_title("x"))
            """,
        "app/server.py": """
            from fastmcp import FastMCP

            from .apps import board, screens

            mcp = FastMCP("x")
            board.register(mcp)
            screens.register(mcp)
            """,
    })
    assert [(f, n) for f, n, _fw, _form in tool_rows(files)] == [
        ("board.py", "show_board"), ("screens.py", "show_task"), ("screens.py", "show_tasks")]


def test_a_star_args_helper_that_registers_nothing_makes_no_tool(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/hooks.py": """
            def run_all(ctx, *fns):
                for fn in fns:
                    fn(ctx)
            """,
        "app/main.py": """
            from .hooks import run_all


            def setup(ctx):
                return ctx


            run_all({}, setup)
            """,
    })
    assert tool_rows(files) == []
