"""`smullyan tools` (issue 28, session 38, batch 10's leftovers): a project class that owns a tool server in an
attribute (``self.mcp = FastMCP(...)``) and offers its own ``tool(**options)`` decorator, which wraps the function it
is given and hands the wrapper to the server (``return self.mcp.tool(**options)(observed)``). Its methods decorate
with it through a local bound to the object (``mcp = self``; ``@mcp.tool(...)``), and other modules through an object
of the class. The decorated functions are the tools (FastMCP turns what they raise into text); the wrapper is not."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import tool_rows, write_tree

_SERVER = """
    import functools

    from mcp.server.fastmcp import FastMCP


    class ProjectServer:
        def __init__(self, app) -> None:
            self.app = app
            self.mcp = FastMCP(name="project")
            self._register_tools()

        def _register_tools(self) -> None:
            app = self.app
            mcp = self

            @mcp.tool(description="List the bots.")
            async def list_bots() -> str:
                return str(await app.bots.list())

            @mcp.tool(description="Delete a bot.")
            async def delete_bot(uuid: str) -> str:
                return str(await app.bots.delete(uuid))

        def tool(self, **options):
            def register(fn):
                @functools.wraps(fn)
                async def observed(*args, **kwargs):
                    with app_scope(self.app):
                        return await fn(*args, **kwargs)

                return self.mcp.tool(**options)(observed)

            return register
"""

FORWARDING = {"proj/__init__.py": "", "proj/server.py": _SERVER}


def test_a_class_forwarding_its_tool_decorator_to_a_held_server_makes_tools(tmp_path: Path) -> None:
    files = write_tree(tmp_path, FORWARDING)
    rows = tool_rows(files)
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("server.py", "delete_bot", "mcp"), ("server.py", "list_bots", "mcp")]
    # the wrapper the decorator hands to the server is not a tool of its own
    assert all(n != "observed" for _, n, _, _ in rows)
    # FastMCP turns what the decorated function raises into text, as for ``@mcp.tool()`` on the server itself
    for tool in tools.run(files, Config()).tools:
        assert tool.failures_by is not None and "MCPServer" in tool.failures_by
        assert "text" in tool.failures


def test_an_object_of_the_class_in_another_module_makes_tools(tmp_path: Path) -> None:
    files = dict(FORWARDING, **{"proj/extra.py": """
        from proj.server import ProjectServer

        server = ProjectServer(app=None)

        @server.tool(description="Ping.")
        async def ping() -> str:
            return "pong"
    """})
    rows = tool_rows(write_tree(tmp_path, files))
    assert ("extra.py", "ping", "mcp") in [(f, n, fw) for f, n, fw, _ in rows]


def test_a_tool_method_forwarding_to_a_tracer_makes_no_tools(tmp_path: Path) -> None:
    # the held object is no tool server: its decorator names a span, so the methods it wraps are no tools
    server = _SERVER.replace("from mcp.server.fastmcp import FastMCP", "from opentelemetry.trace import Tracer") \
        .replace('FastMCP(name="project")', "Tracer()").replace("self.mcp.tool(**options)", "self.mcp.span(**options)")
    assert tool_rows(write_tree(tmp_path, {"proj/__init__.py": "", "proj/server.py": server})) == []


def test_a_tool_method_that_does_not_hand_on_its_wrapper_makes_no_tools(tmp_path: Path) -> None:
    # the wrapper is returned to the caller, never handed to the server: nothing registers the functions
    server = _SERVER.replace("return self.mcp.tool(**options)(observed)", "return observed")
    assert tool_rows(write_tree(tmp_path, {"proj/__init__.py": "", "proj/server.py": server})) == []


def test_self_bound_to_a_local_in_a_server_subclass_resolves_its_tool_decorator(tmp_path: Path) -> None:
    # ``mcp = self`` in a method of a FastMCP subclass: ``@mcp.tool()`` is the server's own decorator
    files = {"srv/__init__.py": "", "srv/app.py": """
        from mcp.server.fastmcp import FastMCP

        class AppServer(FastMCP):
            def setup(self) -> None:
                mcp = self

                @mcp.tool()
                def status() -> str:
                    return "ok"
    """}
    assert [(f, n, fw) for f, n, fw, _ in tool_rows(write_tree(tmp_path, files))] == [("app.py", "status", "mcp")]
