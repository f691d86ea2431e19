"""`smullyan tools` (issue 28, session 55): a proxy, a function handing the model's tool calls on to a remote MCP
server (``session.call_tool(name, arguments)`` on an MCP client session, ``name`` no literal), is one row
``mcp:<tool>`` at that function, form ``proxy: <client>.call_tool``, as the reading tables of batches 10-27 give it
(sage-agent b15, logicore b17, agentkit b12, lightagent b11, andromity b21: the row at the forwarding function).
"""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import tools_by_name, write_tree

_SELF_SESSION = '''
    from contextlib import AsyncExitStack
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client


    class MCPClient:
        def __init__(self):
            self._session: ClientSession | None = None
            self.stack = AsyncExitStack()

        async def connect(self, params):
            read, write = await self.stack.enter_async_context(stdio_client(params))
            self._session = await self.stack.enter_async_context(ClientSession(read, write))
            await self._session.initialize()

        async def call_tool(self, name: str, arguments: dict) -> str:
            result = await self._session.call_tool(name, arguments=arguments)
            return "\\n".join(c.text for c in result.content)

        async def ping(self) -> None:
            await self._session.call_tool("ping", {})
'''


def test_a_session_held_on_self_forwarding_a_name_is_one_proxy_row(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"client.py": _SELF_SESSION})
    assert list(found) == ["mcp:<tool>"]
    row = found["mcp:<tool>"]
    assert row.qualname == "client.MCPClient.call_tool"
    assert row.line == 17
    assert row.framework == "proxy"
    assert row.form == "proxy: ClientSession.call_tool"
    assert [c.what for c in row.calls] == ["mcp.ClientSession.call_tool"]  # the forwarding call, as other rows give calls


_SESSIONS_TABLE = '''
    from typing import Any, Dict
    from fastmcp import Client


    class Manager:
        sessions: Dict[str, Client]

        async def execute_tool(self, tool_name: str, arguments: Dict[str, Any]) -> Any:
            session = self.sessions.get(self.server_of(tool_name))
            return await session.call_tool(tool_name, arguments)

        def server_of(self, tool_name: str) -> str:
            return "x"
'''


def test_a_session_taken_from_a_typed_table_forwarding_a_name_is_a_proxy_row(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"manager.py": _SESSIONS_TABLE})
    assert list(found) == ["mcp:<tool>"]
    assert found["mcp:<tool>"].qualname == "manager.Manager.execute_tool"
    assert found["mcp:<tool>"].form == "proxy: Client.call_tool"


_WITH_SESSION = '''
    from mcp import ClientSession


    async def forward(read, write, name, args):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await session.call_tool(name, args)
'''


def test_a_session_opened_by_with_is_a_proxy_row(tmp_path: Path) -> None:
    assert list(tools_by_name(tmp_path, {"fwd.py": _WITH_SESSION})) == ["mcp:<tool>"]


_NOT_A_PROXY = '''
    from mcp import ClientSession


    class Game:
        async def call_tool(self, name, args):
            return name

        async def play(self, name, args):
            return await self.engine.call_tool(name, args)  # not a session the module binds

        async def check(self, session: ClientSession):
            return await session.call_tool("health", {})  # a literal name: one remote tool, no proxy
'''


def test_a_literal_name_or_an_untyped_receiver_is_no_proxy(tmp_path: Path) -> None:
    assert tools_by_name(tmp_path, {"game.py": _NOT_A_PROXY}) == {}


_STDIO = '''
    from mcp import ClientSession


    class StdioClient:
        session: ClientSession

        async def call_tool(self, name, args):
            return await self.session.call_tool(name, args)
'''


def test_the_sessions_of_several_transports_are_one_proxy_row_in_the_run(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/sse_client.py": _STDIO.replace("Stdio", "Sse"), "pkg/stdio_client.py": _STDIO}
    rows = tools.run(write_tree(tmp_path, files), Config()).tools
    assert [t.qualname for t in rows] == ["pkg.sse_client.SseClient.call_tool"]  # the first module of the run


_HANDED_SESSION = '''
    from mcp import ClientSession


    class McpTool:
        def __init__(self, name):
            self.name = name
            self._session = None

        async def execute(self, **kwargs):
            return await self._session.call_tool(self.name, kwargs)


    async def attach(read, write, names):
        async with ClientSession(read, write) as session:
            listed = await session.list_tools()
            for name in names:
                tool = McpTool(name)
                tool._session = session
'''


def test_a_session_set_on_a_tool_object_by_the_module_is_its_self_session(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"client.py": _HANDED_SESSION})
    assert [t.qualname for t in found.values() if t.framework == "proxy"] == ["client.McpTool.execute"]


def test_a_command_lines_forwarder_is_no_proxy(tmp_path: Path) -> None:
    """A CLI calling a server's tool for its user (fastmcp's ``fastmcp/cli/client.py``, b1; ``cli_call.py``, b22)."""
    assert tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/cli_call.py": _WITH_SESSION}) == {}
