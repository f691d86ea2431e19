"""`smullyan tools`' failures column (issue 28, session 41): every registration form of a framework carries the
framework's turning of what a tool raises into text (``mcp.tool()(fn)`` in another module, ``add_tool(fn)``, the
low-level ``@server.call_tool()`` dispatcher); a helper of another module that logs a failure and returns ``None`` makes
it ``swallowed`` (the model reads "nothing"), not the framework's text; a best-effort step inside a ``try`` whose own
handler answers the failure is no failure mode of the tool."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name as _rows

_MCP_TEXT = "mcp.server.mcpserver.server.MCPServer._handle_call_tool"


def test_a_decorator_applied_by_a_call_in_another_module_carries_its_text(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/users.py": """
            import httpx


            async def unblock_user(user_id: int) -> str:
                httpx.post("https://api.example.com/unblock", json={"id": user_id}, timeout=10)
                return "unblocked"
        """,
        "pkg/server.py": """
            from mcp.server.fastmcp import FastMCP

            from pkg.users import unblock_user

            mcp = FastMCP("telegram")
            mcp.tool()(unblock_user)
        """,
    })
    row = rows["unblock_user"]
    assert row.failures == ["text"] and row.failures_by == _MCP_TEXT  # as ``@mcp.tool()`` on it would


def test_add_tool_and_the_low_level_dispatcher_carry_the_servers_text(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "srv/__init__.py": "",
        "srv/fast.py": """
            import httpx
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("x")


            def lookup(q: str) -> str:
                return httpx.get("https://api.example.com/q", params={"q": q}, timeout=5).text


            mcp.add_tool(lookup)
        """,
        "srv/low.py": """
            import httpx
            from mcp import types
            from mcp.server.lowlevel import Server

            server = Server("low")


            @server.list_tools()
            async def list_tools() -> list[types.Tool]:
                return [types.Tool(name="fetch_page", description="Fetch a page", inputSchema={})]


            @server.call_tool()
            async def call_tool(name: str, arguments: dict) -> list:
                if name == "fetch_page":
                    return [httpx.get(arguments["url"], timeout=5).text]
                raise ValueError(name)
        """,
    })
    assert rows["lookup"].failures == ["text"] and rows["lookup"].failures_by == _MCP_TEXT
    assert rows["fetch_page"].failures == ["text"]
    assert rows["fetch_page"].failures_by == "mcp.server.lowlevel.server.Server.call_tool"


def test_a_helper_of_another_module_logging_and_returning_none_is_swallowed(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "cad/__init__.py": "",
        "cad/client.py": """
            import logging

            import httpx

            logger = logging.getLogger(__name__)


            class Client:
                def action(self, api: str, params: dict) -> dict | None:
                    try:
                        return httpx.post("http://localhost:9000/" + api, json=params, timeout=30).json()
                    except Exception as e:
                        logger.error(f"Failed to call {api}: {e}")
                        return None
        """,
        "cad/tools.py": """
            from mcp.server.fastmcp import FastMCP

            from cad.client import Client

            mcp = FastMCP("cad")
            CLIENT = Client()


            @mcp.tool()
            def toggle_panel() -> dict | None:
                return CLIENT.action("propertyPanel", {})
        """,
    })
    row = rows["toggle_panel"]
    # the model reads ``null``: it cannot tell the failed request from an empty answer (docs/cli.md)
    assert row.failures == ["swallowed"] and row.failures_by is None


def test_a_best_effort_step_inside_an_answered_try_is_no_failure_mode(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "web/__init__.py": "",
        "web/server.py": """
            from mcp.server.fastmcp import FastMCP

            from web.browser import page

            mcp = FastMCP("web")


            @mcp.tool()
            async def fill(selector: str, value: str) -> str:
                try:
                    el = await page.query_selector(selector)
                    try:
                        await el.clear_input()
                    except Exception:
                        pass
                    await el.send_keys(value)
                    return "filled"
                except Exception as e:
                    return f"error: {e}"


            @mcp.tool()
            async def clear(selector: str) -> str:
                el = await page.query_selector(selector)
                try:
                    await el.clear_input()
                except Exception:
                    pass
                return "cleared"
        """,
        "web/browser.py": "page = None\n",
    })
    assert rows["fill"].failures == ["text"]
    # the same handler as the tool's only answer to the step's failure: the model reads "cleared" either way
    assert "swallowed" in rows["clear"].failures
