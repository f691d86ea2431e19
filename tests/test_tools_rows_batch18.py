"""`smullyan tools` rows (issue 28, session 46; batch 18's rows read column by column): a handler handing the caught
exception to a helper that never returns (``except ApiError as e: raise_tool_error(e)``, the helper ``-> NoReturn`` or
ending in ``raise ToolError(...)`` on every path) gives the model what that helper raises, not silence."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

ERRORS = """
    from typing import NoReturn

    from fastmcp.exceptions import ToolError


    def format_error(err):
        return f"{type(err).__name__}: {err}"


    def raise_tool_error(err) -> NoReturn:
        raise ToolError(format_error(err)) from err


    def fail(err):
        if isinstance(err, TimeoutError):
            raise ToolError("timed out") from err
        else:
            raise ToolError(format_error(err)) from err


    def reraise(err) -> NoReturn:
        raise RuntimeError(str(err))


    def note(err):
        print(err)
"""

SERVER = """
    import httpx
    from fastmcp import FastMCP

    from .errors import fail, note, raise_tool_error, reraise

    mcp = FastMCP("x")


    @mcp.tool()
    def get_item(item_id: str) -> str:
        try:
            return httpx.get(f"https://api.example.com/items/{item_id}", timeout=10).text
        except httpx.HTTPError as e:
            raise_tool_error(e)


    @mcp.tool()
    def put_item(item_id: str, body: str) -> str:
        try:
            return httpx.put(f"https://api.example.com/items/{item_id}", content=body, timeout=10).text
        except httpx.HTTPError as e:
            fail(e)


    @mcp.tool()
    def del_item(item_id: str) -> str:
        try:
            return httpx.delete(f"https://api.example.com/items/{item_id}", timeout=10).text
        except httpx.HTTPError as e:
            reraise(e)


    @mcp.tool()
    def head_item(item_id: str) -> str:
        try:
            return httpx.head(f"https://api.example.com/items/{item_id}", timeout=10).text
        except httpx.HTTPError as e:
            note(e)
"""


def test_a_handler_handing_the_exception_to_a_helper_that_always_raises_is_no_swallow(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/errors.py": ERRORS, "x/server.py": SERVER})
    # ``-> NoReturn`` raising a ToolError, and a helper whose every branch raises one: the model reads a typed error
    assert rows["get_item"].failures == ["typed"]
    assert rows["put_item"].failures == ["typed"]
    # a helper raising anything else: the framework gets the exception (FastMCP renders it as text)
    assert "swallowed" not in rows["del_item"].failures and rows["del_item"].failures in (["raised"], ["text"])
    # a helper that returns (prints the error): the handler still swallows it
    assert rows["head_item"].failures == ["swallowed"]


def test_a_same_module_helper_that_always_raises(tmp_path: Path) -> None:
    server = ERRORS + SERVER.replace("from .errors import fail, note, raise_tool_error, reraise\n", "")
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": server})
    assert rows["get_item"].failures == ["typed"]
    assert rows["put_item"].failures == ["typed"]
    assert "swallowed" not in rows["del_item"].failures
    assert rows["head_item"].failures == ["swallowed"]
