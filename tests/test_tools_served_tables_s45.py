"""`smullyan tools` (issue 28, session 45): a low-level MCP server whose ``@server.call_tool()`` dispatcher looks the
called name up in a table of handlers other modules define (testmind's ``_ALL_TOOLS = [(NAME, DEFINITION, handle),
...]`` of imported triples, grown from an imported ``HANDLERS`` dict): each handler is a tool at its ``def``; the
dispatcher, which only hands the call on, is none."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_TREE = {
    "pkg/__init__.py": "",
    "pkg/tools/fetch.py": '''
        from mcp import types

        TOOL_NAME = "fetch_url"
        TOOL_DEF = types.Tool(name=TOOL_NAME, description="Fetch", inputSchema={"type": "object"})

        async def handle(arguments: dict) -> dict:
            return {"url": arguments["url"]}
    ''',
    "pkg/tools/save.py": '''
        from mcp import types

        TOOL_NAME = "save_case"
        TOOL_DEF = types.Tool(name=TOOL_NAME, description="Save", inputSchema={"type": "object"})

        async def handle(arguments: dict) -> dict:
            return {"saved": True}
    ''',
    "pkg/tools/project.py": '''
        from mcp import types

        INIT = "init_project"
        TOOLS = [(INIT, types.Tool(name=INIT, description="Init", inputSchema={}))]

        async def handle_init(arguments: dict) -> dict:
            return {}

        async def handle_config(arguments: dict) -> dict:
            return {}

        HANDLERS = {INIT: handle_init, "get_config": handle_config}
    ''',
    "pkg/tools/__init__.py": '''
        from mcp.server import Server

        from pkg.tools.fetch import TOOL_DEF as _fetch_def, TOOL_NAME as _fetch_name, handle as _fetch
        from pkg.tools.save import TOOL_DEF as _save_def, TOOL_NAME as _save_name, handle as _save
        from pkg.tools.project import TOOLS as _project_tools, HANDLERS as _project_handlers

        _ALL_TOOLS = [
            (_fetch_name, _fetch_def, _fetch),
            (_save_name, _save_def, _save),
        ]
        for _name, _definition in _project_tools:
            _ALL_TOOLS.append((_name, _definition, _project_handlers[_name]))


        def register_all(server: Server) -> None:
            handler_map = {name: h for name, _, h in _ALL_TOOLS}

            @server.list_tools()
            async def list_all_tools():
                return [d for _, d, _ in _ALL_TOOLS]

            @server.call_tool()
            async def call_all_tools(name: str, arguments: dict) -> dict:
                handler = handler_map.get(name)
                if handler is None:
                    raise ValueError(f"Unknown tool: {name}")
                return await handler(arguments)
    ''',
}


def test_the_handlers_a_call_tool_table_holds_are_the_tools(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _TREE))
    assert rows == [("fetch.py", "handle", "mcp", "call_tool table"),
                    ("project.py", "handle_config", "mcp", "call_tool table"),
                    ("project.py", "handle_init", "mcp", "call_tool table"),
                    ("save.py", "handle", "mcp", "call_tool table")]


def test_without_a_call_tool_dispatcher_the_table_makes_no_tools(tmp_path: Path) -> None:
    files = dict(_TREE)
    files["pkg/tools/__init__.py"] = files["pkg/tools/__init__.py"].split("def register_all")[0]
    assert tool_rows(write_tree(tmp_path, files)) == []


def test_a_dispatcher_running_its_own_code_stays_a_tool(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {"srv.py": '''
        from mcp.server import Server

        server = Server("x")

        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list:
            return [{"type": "text", "text": name.upper()}]
    '''}))
    assert [(n, form) for _f, n, _fw, form in rows] == [("call_tool", "@server.call_tool")]


_HANDLER_TABLES = {
    "sel/__init__.py": "",
    "sel/browser.py": '''
        from mcp import types

        TOOLS = [
            types.Tool(name="navigate", description="Go to a URL", inputSchema={"type": "object"}),
            types.Tool(name="go_back", description="Go back", inputSchema={"type": "object"}),
        ]

        class BrowserTools:
            def get_handlers(self):
                return {"navigate": self._navigate, "go_back": self._go_back}

            def _navigate(self, arguments):
                return arguments["url"]

            def _go_back(self, arguments):
                return "back"
    ''',
    "sel/server.py": '''
        from mcp.server import Server
        from sel.browser import BrowserTools

        server = Server("sel")
        browser = BrowserTools()
        TOOL_HANDLERS = {**browser.get_handlers()}

        @server.call_tool()
        async def call_tool(name, arguments):
            handler = TOOL_HANDLERS.get(name)
            return handler(arguments)
    ''',
}


def test_a_returned_handler_table_beside_schema_calls_is_one_row_per_tool(tmp_path: Path) -> None:
    """The schemas built by ``types.Tool(name=...)`` calls make the returned dict a schema dispatch dict too: one row."""
    rows = tool_rows(write_tree(tmp_path, _HANDLER_TABLES))
    assert sorted(n for _f, n, _fw, _form in rows) == ["go_back", "navigate"]
