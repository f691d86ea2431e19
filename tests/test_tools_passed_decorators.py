"""`smullyan tools` (issue 28, session 49, batch 22's mcp-gee-sweet): a project's tool decorator factory that registers
a wrapper of the function (``timed = _timed(func)``; ``mcp.tool(...)(timed)``) is a registry decorator, and it counts
where the run hands it on by name: ``register_all(tool)`` in ``server.py``, ``calendar.register(tool)`` in
``def register_all(tool)``, and ``@tool(...)`` in ``def register(tool)``. The parameter holds what the callers hand
it, as Python binds it. A decorator that only wraps (nothing registers the wrapper) makes nothing, handed or not, and
a parameter the run's callers hand no registry decorator makes nothing."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_SERVER = """
    import functools

    from mcp.server.mcpserver import MCPServer

    mcp = MCPServer("gee")


    def _timed(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            return await func(*args, **kwargs)

        return wrapper


    def tool(annotations=None):
        def decorator(func):
            timed = _timed(func)
            if annotations:
                mcp.tool(annotations=annotations)(timed)
            else:
                mcp.tool()(timed)
            return timed

        return decorator


    from .tools import register_all  # noqa: E402

    register_all(tool)
"""

_TOOLS = {
    "gee/tools/__init__.py": """
        from . import calendar


        def register_all(tool):
            calendar.register(tool)
    """,
    "gee/tools/calendar.py": """
        def register(tool):
            @tool(annotations=None)
            async def list_calendars() -> list[str]:
                return []
    """,
}


def _rows(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str]]:
    return [(f, n) for f, n, _fw, _form in tool_rows(write_tree(tmp_path, files))]


def test_a_registering_decorator_handed_through_two_calls_makes_tools(tmp_path: Path) -> None:
    files = {"gee/__init__.py": "", "gee/server.py": _SERVER, **_TOOLS}
    assert _rows(tmp_path, files) == [("calendar.py", "list_calendars")]


def test_a_decorator_registering_a_wrapper_made_by_a_module_function_makes_tools(tmp_path: Path) -> None:
    files = {"gee/__init__.py": "", "gee/server.py": _SERVER.split("from .tools")[0], "gee/direct.py": """
        from .server import tool


        @tool()
        async def ping() -> str:
            return "pong"
    """}
    assert _rows(tmp_path, files) == [("direct.py", "ping")]


def test_a_handed_decorator_that_only_wraps_makes_no_tools(tmp_path: Path) -> None:
    # nothing hands the wrapper to the server: a timing decorator, handed on as the registering one is
    server = _SERVER.replace("""            if annotations:
                mcp.tool(annotations=annotations)(timed)
            else:
                mcp.tool()(timed)
""", "")
    assert "mcp.tool" not in server
    assert _rows(tmp_path, {"gee/__init__.py": "", "gee/server.py": server, **_TOOLS}) == []


def test_a_parameter_handed_no_registry_decorator_makes_no_tools(tmp_path: Path) -> None:
    # the caller hands ``register_all`` a plain function: ``@tool(...)`` applies it, nothing registers
    server = _SERVER.replace("register_all(tool)", "register_all(_timed)")
    assert _rows(tmp_path, {"gee/__init__.py": "", "gee/server.py": server, **_TOOLS}) == []
