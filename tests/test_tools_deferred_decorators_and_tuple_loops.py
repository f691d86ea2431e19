"""`smullyan tools` (issue 28, session 36, batch 9): fastmcp-extensions' deferred ``@mcp_tool``, a server built by a
``from_*`` classmethod (``FastMCP.from_openapi``), a tool decorator applied to each function of a tuple a ``for``
loop iterates (``for tool in CORE_TOOLS: server.tool(...)(tool)``), and a ``match`` on the called name whose cases
only build the call's arguments (no case runs anything: not a dispatch)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

# fastmcp-extensions: ``@mcp_tool(...)`` (keywords only) records the function; ``register_mcp_tools(app)`` hands it to
# fastmcp's ``app.tool``, whose ``call_tool`` turns what it raises into an error result
DEFERRED = {
    "opsmcp/__init__.py": "",
    "opsmcp/connections.py": """
        from fastmcp import FastMCP
        from fastmcp_extensions import mcp_tool, register_mcp_tools

        @mcp_tool(read_only=True, idempotent=True, open_world=True)
        def get_connection_state(connection_id: str) -> dict:
            '''The connection's state.'''
            return {"id": connection_id}

        @mcp_tool(destructive=True)
        def reset_stream_state(connection_id: str, stream: str) -> None:
            raise ValueError(stream)

        def helper(x: int) -> int:
            return x

        def register_connection_tools(app: FastMCP) -> None:
            register_mcp_tools(app, mcp_module=__name__)
    """,
    "opsmcp/other.py": """
        from fastmcp_extensions.decorators import mcp_tool

        @mcp_tool()
        def list_releases() -> list:
            return []
    """,
}


def test_fastmcp_extensions_mcp_tool(tmp_path: Path) -> None:
    from smullyan.linter import tools
    from smullyan.linter.config import Config

    files = write_tree(tmp_path, DEFERRED)
    assert tool_rows(files) == [
        ("connections.py", "get_connection_state", "fastmcp", "@mcp_tool"),
        ("connections.py", "reset_stream_state", "fastmcp", "@mcp_tool"),
        ("other.py", "list_releases", "fastmcp", "@mcp_tool"),
    ]
    rows = {t.name: t for t in tools.run(files, Config()).tools}
    assert rows["reset_stream_state"].failures_by == "fastmcp.server.server.FastMCP.call_tool"


# the server a factory builds with FastMCP's alternative constructor, its tools decorated inside the factory
FROM_OPENAPI = {
    "rootmcp/__init__.py": "",
    "rootmcp/server.py": """
        from fastmcp import FastMCP

        def create_server(spec: dict, client) -> FastMCP:
            mcp = FastMCP.from_openapi(openapi_spec=spec, client=client, name="rootly")

            @mcp.tool()
            def list_endpoints() -> list:
                return []

            @mcp.tool(name="version")
            def get_server_version() -> dict:
                return {}

            return mcp
    """,
    # an alternative constructor of a class that is no server: its ``tool`` method makes nothing
    "rootmcp/other.py": """
        class Hammer:
            @classmethod
            def from_config(cls, config):
                return cls()

            def tool(self):
                return lambda fn: fn

        def build(config):
            h = Hammer.from_config(config)

            @h.tool()
            def nail() -> None:
                pass
    """,
}


def test_a_server_built_by_a_from_classmethod(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, FROM_OPENAPI)) == [
        ("server.py", "list_endpoints", "mcp", "@mcp.tool"),
        ("server.py", "version", "mcp", "@mcp.tool"),
    ]


# each function of a module-level tuple registered by applying the server's decorator in a loop (one loop over a
# literal tuple, one over a name bound to a list); a loop that calls the functions does not register them
LOOPED = {
    "prefmcp/__init__.py": "",
    "prefmcp/server.py": """
        from fastmcp import FastMCP

        async def get_flows() -> list:
            return []

        async def get_deployments(limit: int = 10) -> list:
            return []

        async def review_rate_limits() -> dict:
            return {}

        async def read_events() -> list:
            return []

        def not_a_tool() -> None:
            pass

        CORE_TOOLS = (get_flows, get_deployments)
        CLOUD_TOOLS = [review_rate_limits]

        def build(cloud: bool) -> FastMCP:
            server = FastMCP("prefect")
            for tool in CORE_TOOLS:
                server.tool(annotations={"readOnlyHint": True})(tool)
            if cloud:
                for tool in CLOUD_TOOLS:
                    server.tool()(tool)
            for fn in (read_events,):
                server.tool(name="events")(fn)
            for call in (not_a_tool,):
                call()
            return server
    """,
}


def test_a_decorator_applied_to_each_function_a_loop_iterates(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, LOOPED)) == [
        ("server.py", "events", "mcp", "server.tool(...)"),
        ("server.py", "get_deployments", "mcp", "server.tool(...)"),
        ("server.py", "get_flows", "mcp", "server.tool(...)"),
        ("server.py", "review_rate_limits", "mcp", "server.tool(...)"),
    ]


# a ``match`` on the called tool's name whose cases only turn the model's arguments into keyword arguments (builtins,
# reads of the values, a raised error): it prepares a call, no case runs a tool; beside a real dispatcher
PREPARES = {
    "actuate/__init__.py": "",
    "actuate/args.py": """
        def prepare_kwargs(tool_name: str, args: list) -> dict:
            match tool_name:
                case "agentClick":
                    if len(args) < 1:
                        raise ValueError(f"bad arguments for {tool_name}")
                    kwargs = {"box": args[0]}
                    if len(args) > 1 and isinstance(args[1], dict):
                        kwargs["click_type"] = args[1].get("clickType")
                    return kwargs
                case "wait":
                    return {"seconds": float(args[0])}
                case "takeObservation":
                    return {}
            raise ValueError(tool_name)

        class Runner:
            def run(self, tool_name: str, args: list) -> object:
                match tool_name:
                    case "agentClick":
                        return self.actuator.click(**prepare_kwargs(tool_name, args))
                    case "wait":
                        return {"seconds": float(args[0])}
    """,
}


def test_a_match_that_only_prepares_arguments_is_no_dispatch(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, PREPARES))
    # the runner's cases run the tools (one calls the actuator: the match dispatches); the preparer's make none
    assert rows == [("args.py", "agentClick", "dispatch", "match on the called name"),
                    ("args.py", "wait", "dispatch", "match on the called name")]
    from smullyan.linter import tools
    from smullyan.linter.config import Config

    found = tools.run(write_tree(tmp_path, PREPARES), Config()).tools
    assert {t.qualname.rsplit(".", 1)[-1] for t in found} == {"run"}


# a low-level server listing module constants built by ``types.Tool(...)``; its dispatcher hands each name to a module
# function in a branch that does nothing else (that function runs the tool), or runs a name's code itself
LOW_LEVEL = {
    "dcode/__init__.py": "",
    "dcode/server.py": """
        from mcp import types
        from mcp.server import Server

        _RUN_TOOL = types.Tool(name="deepcode", description="Run.", inputSchema={})
        _REPLY_TOOL = types.Tool(name="deepcode-reply", description="Reply.", inputSchema={})
        _STATUS_TOOL = types.Tool(name="status", description="Status.", inputSchema={})

        async def _handle_run(arguments: dict) -> list:
            return []

        def _handle_reply(arguments: dict) -> list:
            return []

        def build_server() -> Server:
            server = Server("deepcode")

            @server.list_tools()
            async def _list_tools() -> list:
                return [_RUN_TOOL, _REPLY_TOOL, _STATUS_TOOL]

            @server.call_tool()
            async def _call_tool(name: str, arguments: dict):
                if name == "deepcode":
                    return await _handle_run(arguments)
                if name == "deepcode-reply":
                    return _handle_reply(arguments)
                if name == "status":
                    print(name)
                    return _handle_reply(arguments)
                raise ValueError(name)

            return server
    """,
}


def test_a_low_level_servers_constants_and_branch_handlers(tmp_path: Path) -> None:
    from smullyan.linter import tools
    from smullyan.linter.config import Config

    found = tools.run(write_tree(tmp_path, LOW_LEVEL), Config()).tools
    assert sorted((t.name, t.line, t.qualname.rsplit(".", 1)[-1]) for t in found) == [
        ("deepcode", 9, "_handle_run"),
        ("deepcode-reply", 12, "_handle_reply"),
        ("status", 22, "_call_tool"),  # a branch doing more than hand the call on: the dispatcher runs it
    ]


# a project's tool base with two tools, and a class that re-exposes a given tool under another name, handing each run
# on to it: no row of its own (a class that keeps a tool but runs code of its own is still a row)
ALIASED = {
    "rt/__init__.py": "",
    "rt/base.py": """
        from abc import ABC, abstractmethod

        class Tool(ABC):
            '''A tool the agent can call.'''

            @abstractmethod
            async def execute(self, **kwargs): ...
    """,
    "rt/tools.py": """
        import subprocess
        from rt.base import Tool

        class ReadTool(Tool):
            async def execute(self, **kwargs):
                return open(kwargs["path"]).read()

        class BashTool(Tool):
            async def execute(self, **kwargs):
                return subprocess.run(kwargs["cmd"], shell=True, timeout=30).stdout

        class AliasedTool(Tool):
            '''A tool re-exposed under a different name.'''

            def __init__(self, inner: Tool, alias: str):
                self._inner = inner
                self._alias = alias

            async def execute(self, **kwargs):
                return await self._inner.execute(**kwargs)

        class CountingTool(Tool):
            def __init__(self, inner: Tool):
                self._inner = inner
                self.calls = 0

            async def execute(self, **kwargs):
                self.calls += 1
                return await self._inner.execute(**kwargs)
    """,
}


def test_a_tool_class_that_only_delegates_to_a_given_tool_is_no_row(tmp_path: Path) -> None:
    assert [r[1] for r in tool_rows(write_tree(tmp_path, ALIASED))] == ["BashTool", "CountingTool", "ReadTool"]


# babyagi's functionz: functions registered in the framework's function database, which its packs offer to the model as
# tools; ``func`` imported as the package names it, from below ``babyagi/``, or ``babyagi.register_function``; a pack
# whose ``func`` is only injected by the loader names nothing Python can resolve (no row)
FUNCTIONZ = {
    "mypacks/__init__.py": "",
    "mypacks/search.py": """
        from babyagi.functionz.core.framework import func

        @func.register_function(metadata={"description": "Search the web."}, imports=["requests"])
        def web_search(query: str) -> list:
            import requests
            return requests.get("https://example.com", params={"q": query}, timeout=10).json()
    """,
    "mypacks/short.py": """
        from functionz import func

        @func.register_function(key_dependencies=["api_key"])
        def lookup(name: str) -> dict:
            return {}
    """,
    "mypacks/top.py": """
        import babyagi

        @babyagi.register_function()
        def world() -> str:
            return "world"
    """,
    "mypacks/injected.py": """
        @func.register_function()
        def unresolved() -> None:
            pass
    """,
}


def test_babyagi_functionz_register_function(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, FUNCTIONZ)) == [
        ("search.py", "web_search", "babyagi", "@func.register_function"),
        ("short.py", "lookup", "babyagi", "@func.register_function"),
        ("top.py", "world", "babyagi", "@babyagi.register_function"),
    ]
