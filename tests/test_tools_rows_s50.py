"""`smullyan tools` rows (issue 28, session 50, after batch 22's blind rows): the failures and calls columns.

- A tool registered on an untyped receiver (``def register(mcp, ctx): @mcp.tool def run_cmd(...)``, the module handed
  the server through a loop the run cannot follow, ``for mod in MODULES: mod.register(mcp, ctx)``): the server is one
  of the MCP server classes the run imports, and when every one of those answers what a tool raises with text
  (``knowledge.TOOL_DECORATOR_TEXT``: the standalone ``fastmcp``'s ``FastMCP.call_tool``, the official ``FastMCP``/
  ``MCPServer``'s ``_handle_call_tool``, the low-level ``Server.call_tool``) in the same wrapper, the row's raised
  failures are that wrapper's text. A run importing no MCP server, or two whose wrappers differ, keeps ``raised``.
- The ``if name == "...":`` branches of a low-level ``@server.call_tool()`` dispatcher (rows ``if on the called
  name``) are run by that dispatcher, which answers what they raise with ``str(exc)``: text, as its own row says. A
  plain function branching on the name keeps ``raised``.
- A discovery resource's request sent in a worker thread (``await asyncio.to_thread(service.users().messages()
  .trash(userId="me", id=i).execute)``: the bound ``execute`` handed uncalled): a call out, as ``.execute()`` is.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_SERVER = '''
    from fastmcp import FastMCP
    from pkg.tools import register_all


    def build_server():
        mcp = FastMCP("boxes")
        ctx = object()
        register_all(mcp, ctx)
        return mcp
'''
_TOOLS_INIT = '''
    from pkg.tools import system

    MODULES = [system]


    def register_all(mcp, ctx) -> None:
        for mod in MODULES:
            mod.register(mcp, ctx)
'''
_SYSTEM = '''
    def register(mcp, ctx) -> None:
        @mcp.tool
        def run_cmd(command: str) -> dict:
            """Run a command on the box."""
            transport = ctx.transport_for(None)
            return transport.run_cmd(command)
'''


def _untyped(tmp_path: Path, server: str) -> object:
    files = {"pkg/__init__.py": "", "pkg/server.py": server, "pkg/tools/__init__.py": _TOOLS_INIT,
             "pkg/tools/system.py": _SYSTEM}
    return tools_by_name(tmp_path, files)["run_cmd"]


def test_an_untyped_receiver_of_the_runs_one_mcp_server(tmp_path: Path) -> None:
    tool = _untyped(tmp_path, _SERVER)
    assert tool.failures == ["text"]  # type: ignore[attr-defined]
    assert tool.failures_by == "fastmcp.server.server.FastMCP.call_tool"  # type: ignore[attr-defined]


def test_an_untyped_receiver_of_the_official_fastmcp(tmp_path: Path) -> None:
    tool = _untyped(tmp_path, _SERVER.replace("from fastmcp import", "from mcp.server.fastmcp import"))
    assert tool.failures == ["text"]  # type: ignore[attr-defined]
    assert tool.failures_by == "mcp.server.mcpserver.server.MCPServer._handle_call_tool"  # type: ignore[attr-defined]


def test_an_untyped_receiver_with_no_mcp_server_in_the_run_keeps_raised(tmp_path: Path) -> None:
    tool = _untyped(tmp_path, _SERVER.replace("from fastmcp import FastMCP", "from pkg.own import FastMCP"))
    assert tool.failures == ["raised"]  # type: ignore[attr-defined]
    assert tool.failures_by is None  # type: ignore[attr-defined]


def test_an_untyped_receiver_of_two_kinds_of_server_keeps_raised(tmp_path: Path) -> None:
    both = _SERVER.replace("from fastmcp import FastMCP", "from fastmcp import FastMCP\nfrom mcp.server import Server")
    tool = _untyped(tmp_path, both)
    assert tool.failures == ["raised"]  # type: ignore[attr-defined]


_CONTEXT = '''
    from dataclasses import dataclass
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from mcp.server.mcpserver import MCPServer


    @dataclass
    class RegisterContext:
        server: "MCPServer"
        client: object
'''
_FILES = '''
    from pkg.modules import RegisterContext


    def register(ctx: RegisterContext) -> None:
        server = ctx.server

        @server.tool(name="list_files")
        async def tool_list_files(path: str) -> str:
            """List a shared folder."""
            return await ctx.client.list(path)
'''


def test_a_local_receiver_of_the_runs_one_mcp_server(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/modules.py": _CONTEXT, "pkg/files.py": _FILES}
    tool = tools_by_name(tmp_path, files)["list_files"]
    assert tool.failures == ["text"]
    assert tool.failures_by == "mcp.server.mcpserver.server.MCPServer._handle_call_tool"


_LOWLEVEL = '''
    import mcp.types as types
    from mcp.server import Server


    def make(service):
        server = Server("mail")

        def all_tools() -> list[types.Tool]:
            return [types.Tool(name="delete-filter", description="Delete a filter", inputSchema={}),
                    types.Tool(name="delete-label", description="Delete a label", inputSchema={})]

        @server.list_tools()
        async def handle_list_tools() -> list[types.Tool]:
            return all_tools()

        @server.call_tool()
        async def handle_call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            if name == "delete-filter":
                msg = service.delete_filter(arguments["filter_id"])
                return [types.TextContent(type="text", text=str(msg))]
            elif name == "delete-label":
                msg = service.delete_label(arguments["label_id"])
                return [types.TextContent(type="text", text=str(msg))]
            raise ValueError(f"Unknown tool: {name}")

        return server
'''


def test_the_branches_of_a_low_level_dispatcher_are_answered_with_text(tmp_path: Path) -> None:
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": _LOWLEVEL})
    assert tools["delete-filter"].failures == ["text"]
    assert tools["delete-filter"].failures_by == "mcp.server.lowlevel.server.Server.call_tool"
    assert tools["delete-label"].failures == ["text"]


def test_the_branches_of_a_plain_runner_keep_raised(tmp_path: Path) -> None:
    code = _LOWLEVEL.replace("        @server.call_tool()\n", "").replace("async def handle_call_tool", "async def run_tool")
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": code})
    assert "delete-filter" not in tools or tools["delete-filter"].failures_by is None


_GMAIL = '''
    import asyncio
    from googleapiclient.discovery import build
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("gmail")


    class GmailService:
        def __init__(self, creds) -> None:
            self.service = build("gmail", "v1", credentials=creds)

        async def trash_email(self, email_id: str) -> str:
            await asyncio.to_thread(self.service.users().messages().trash(userId="me", id=email_id).execute)
            return "trashed"

        async def list_labels(self) -> list:
            result = await asyncio.to_thread(self.service.users().labels().list(userId="me").execute)
            return result.get("labels", [])


    gmail = GmailService(None)


    @mcp.tool()
    async def trash_email(email_id: str) -> str:
        """Move a message to the trash."""
        return await gmail.trash_email(email_id)


    @mcp.tool()
    async def list_labels() -> list:
        """The mailbox's labels."""
        return await gmail.list_labels()
'''


def test_a_discovery_request_sent_in_a_worker_thread(tmp_path: Path) -> None:
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/gmail.py": _GMAIL})
    assert any("trash().execute" in c.what for c in tools["trash_email"].calls)
    assert tools["list_labels"].classification == "read-safe"


def test_a_bound_execute_outside_a_discovery_module_is_no_call(tmp_path: Path) -> None:
    code = _GMAIL.replace("from googleapiclient.discovery import build", "from pkg.local import build")
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/gmail.py": code})
    assert not any("execute" in c.what for c in tools["trash_email"].calls)


_TUNNELS = '''
    from fastmcp import FastMCP
    from termix_sdk import AsyncTermixClient


    def register_tunnels_tools(mcp: FastMCP, client: AsyncTermixClient) -> None:
        @mcp.tool()
        async def termix_list_tunnels() -> dict:
            """The SSH tunnels' status."""
            return await client.tunnel.get_status()
'''


def test_a_parameter_annotated_with_an_sdk_client(tmp_path: Path) -> None:
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tunnels.py": _TUNNELS})
    assert [(c.what, c.timeout) for c in tools["termix_list_tunnels"].calls] == [
        ("AsyncTermixClient.tunnel.get_status", "unknown")]


def test_an_unannotated_parameter_lists_no_call(tmp_path: Path) -> None:
    code = _TUNNELS.replace("client: AsyncTermixClient", "client")
    assert tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tunnels.py": code})["termix_list_tunnels"].calls == []
