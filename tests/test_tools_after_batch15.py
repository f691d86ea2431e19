"""`smullyan tools` (issue 28, session 43): the discovery forms batch 15 left (tuned on it, not blind). A helper that
registers each of its ``*args`` on a server (yougile's MCP Apps ``add_screens(mcp, *fns)``), called in its own module
with a starred module tuple and from other modules with their functions; a module-level table named for tools mapping
each tool's name to its function (faradayai's ``SEARCH_TOOL_DICT.update({...})`` of imported functions), not one
named for what shows or describes a tool (``TOOL_FORMATTERS``); the tools of a server its tests start (askui's
``FastMCP("Test StdIO MCP App")``) left out as demo code is."""

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


def test_a_tool_named_table_filled_by_update_with_imported_functions(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "fa/__init__.py": "",
        "fa/search/web/__init__.py": "",
        "fa/search/web/search.py": """
            import requests


            def general_web_search(query: str) -> str:
                return requests.get("https://search.example", params={"q": query}, timeout=5).text


            def read_webpage(url: str) -> str:
                return requests.get(url, timeout=5).text
            """,
        "fa/search/__init__.py": """
            SEARCH_TOOL_DICT = {}
            try:
                from fa.search.web.search import general_web_search, read_webpage
            except ModuleNotFoundError:
                pass
            else:
                SEARCH_TOOL_DICT.update(
                    {
                        "general_web_search": general_web_search,
                        "read_webpage": read_webpage,
                    }
                )
            """,
    })
    assert tool_rows(files) == [("search.py", "general_web_search", "dispatch", "SEARCH_TOOL_DICT[name]"),
                                ("search.py", "read_webpage", "dispatch", "SEARCH_TOOL_DICT[name]")]


def test_a_written_out_tool_table_of_this_module_and_what_is_no_such_table(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "lo/__init__.py": "",
        "lo/agent.py": """
            import json


            def search(query: str) -> str:
                return query


            def fetch(url: str) -> str:
                return url


            def show(result: str) -> str:
                return result


            TOOL_HANDLERS = {"search": search, "fetch": fetch}
            TOOL_FORMATTERS = {"search": show, "fetch": show}  # what shows a call: no tool
            TOOLS_ONE = {"show": show}  # one entry: no table to dispatch over
            HANDLERS = {"show": show, "echo": show}  # not named for tools


            def dispatch(name: str, args: str) -> str:
                return TOOL_HANDLERS[name](**json.loads(args))
            """,
    })
    assert [(n, form) for _f, n, _fw, form in tool_rows(files)] == [
        ("fetch", "TOOL_HANDLERS[name]"), ("search", "TOOL_HANDLERS[name]")]


def test_tools_of_a_server_named_for_tests_are_left_out(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/servers/stdio.py": """
            from typing import Any

            from fastmcp import FastMCP

            mcp: FastMCP[Any] = FastMCP("Test StdIO MCP App")


            @mcp.tool
            def test_stdio_tool() -> str:
                return "I am a test stdio tool"
            """,
        "pkg/server.py": """
            from fastmcp import FastMCP

            mcp = FastMCP("Testing lab")  # a name that says testing is no test server


            @mcp.tool
            def run_assay(sample: str) -> str:
                return sample
            """,
    })
    assert [(f, n) for f, n, _fw, _form in tool_rows(files)] == [("server.py", "run_assay")]
