"""`smullyan tools` rows (issue 28, session 54; the rows of batches 20-26 read column by column): a by-name
dispatcher's tools are run by the function whose ``try`` answers their exceptions with text, when that function is not
the one discovery read the names from.

- a hand-written server's ``if name == ...`` dispatcher called by its JSON-RPC handler inside a ``try`` whose broad
  handler returns a text helper of the exception (mosaic-sandbox's ``handle()``: ``_error_result(error)``): failures
  ``text`` by that handler, and its TFH401 in the rows' findings;
- a class running ``getattr(self, f"_tool_{name}")(**args)`` in such a ``try`` (sail's ``WorkerTools.dispatch``);
- a dispatch dict at module level that a method reaches through an attribute (``self._handlers =
  handlers_for(...)``) and calls as ``self._handlers[name](...)`` in such a ``try`` (clauster's ``_on_tools_call``).

Negatives: a caller whose ``try`` answers a fixed sentence, and a module with two such lookup runners (which runs
the dict is not known), keep ``raised``."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

IF_DISPATCH = """
    import json
    import urllib.request

    TOOLS = [
        {"name": "kill_process", "description": "Kill a process.", "inputSchema": {"type": "object"}},
        {"name": "list_processes", "description": "List processes.", "inputSchema": {"type": "object"}},
    ]


    def _http(method, path):
        req = urllib.request.Request("https://api.example.com" + path, method=method)
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.loads(resp.read())


    def call_tool(name, args):
        if name == "kill_process":
            return _http("DELETE", f"/v1/processes/{args['id']}")
        if name == "list_processes":
            return _http("GET", "/v1/processes")
        raise ValueError(f"unknown tool: {name}")


    def _error_result(error):
        payload = {"error": "tool_failed", "message": str(error)}
        return {"isError": True, "content": [{"type": "text", "text": json.dumps(payload)}]}


    def handle(message):
        request_id = message.get("id")
        if message.get("method") == "tools/call":
            try:
                params = message.get("params", {})
                return {"jsonrpc": "2.0", "id": request_id, "result": call_tool(params["name"], params.get("arguments", {}))}
            except Exception as error:
                return {"jsonrpc": "2.0", "id": request_id, "result": _error_result(error)}
        return None
"""


def test_an_if_dispatchers_caller_answering_a_text_helper_is_the_rows_runner(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": IF_DISPATCH})
    for name in ("kill_process", "list_processes"):
        assert rows[name].failures == ["text"], name
        assert rows[name].failures_by == "x.server.handle", name


def test_a_caller_answering_a_fixed_sentence_is_no_runner(tmp_path: Path) -> None:
    fixed = IF_DISPATCH.replace("_error_result(error)}", '{"isError": True, "content": "the tool failed"}}')
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": fixed})
    assert rows["kill_process"].failures_by is None and "text" not in rows["kill_process"].failures


GETATTR_DISPATCH = """
    import json
    from pathlib import Path


    def _err(message):
        return json.dumps({"error": message})


    class WorkerTools:
        def __init__(self, root: Path) -> None:
            self.root = root

        def dispatch(self, name: str, arguments: str) -> str:
            args = json.loads(arguments) if arguments else {}
            try:
                return getattr(self, f"_tool_{name}")(**args)
            except TypeError as exc:
                return _err(f"bad arguments for {name}: {exc}")
            except Exception as exc:
                return _err(f"{type(exc).__name__}: {exc}")

        def _tool_read_file(self, path: str) -> str:
            return (self.root / path).read_text()

        def _tool_list_dir(self, path: str) -> str:
            return "\\n".join(p.name for p in (self.root / path).iterdir())

        def _tool_write_file(self, path: str, text: str) -> str:
            (self.root / path).write_text(text)
            return "ok"
"""


def test_a_getattr_dispatch_in_a_try_answering_text_is_the_rows_runner(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/worker.py": GETATTR_DISPATCH})
    for name in ("read_file", "list_dir", "write_file"):
        assert rows[name].failures == ["text"], name
        assert rows[name].failures_by == "x.worker.WorkerTools.dispatch", name
        assert rows[name].findings.get("TFH401"), name


TABLE_DISPATCH = """
    import json
    from typing import Any

    _TOOLS: list[dict[str, Any]] = [
        {"name": "list_sessions", "description": "List.", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "session_status", "description": "Status.", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "stop_session", "description": "Stop.", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "spawn_session", "description": "Spawn.", "inputSchema": {"type": "object", "properties": {}}},
    ]


    async def _tool_list_sessions(config, args):
        return {"sessions": sorted(config.sessions)}


    async def _tool_session_status(config, args):
        return {"status": config.sessions[args["name"]]}


    async def _tool_spawn_session(config, args):
        config.sessions.add(args["name"])
        return {"spawned": args["name"]}


    async def _tool_stop_session(config, args):
        config.sessions.remove(args["name"])
        return {"stopped": args["name"]}


    _READ_TOOL_HANDLERS = {"list_sessions": _tool_list_sessions, "session_status": _tool_session_status}
    _WRITE_TOOL_HANDLERS = {"stop_session": _tool_stop_session, "spawn_session": _tool_spawn_session}


    def handlers_for(*, allow_writes: bool) -> dict[str, Any]:
        return {**_READ_TOOL_HANDLERS, **_WRITE_TOOL_HANDLERS} if allow_writes else dict(_READ_TOOL_HANDLERS)


    def _tool_error(message):
        return {"content": [{"type": "text", "text": message}], "isError": True}


    class MCPServer:
        def __init__(self, config, allow_writes: bool) -> None:
            self._config = config
            self._handlers = handlers_for(allow_writes=allow_writes)

        async def _on_tools_call(self, msg_id, params):
            name = params.get("name")
            arguments = params.get("arguments") or {}
            try:
                payload = await self._handlers[name](self._config, arguments)
            except Exception as exc:
                return {"id": msg_id, "result": _tool_error(f"{name} failed: {exc}")}
            return {"id": msg_id, "result": {"content": [{"type": "text", "text": json.dumps(payload)}]}}
"""

SECOND_RUNNER = """

    async def run_one(table, name, args):
        try:
            return await table[name](None, args)
        except Exception as exc:
            return f"{name}: {exc}"
"""


def test_a_dispatch_dicts_one_lookup_runner_in_the_module_is_the_rows_runner(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/mcp_server.py": TABLE_DISPATCH})
    for name in ("list_sessions", "stop_session"):
        assert rows[name].failures == ["text"], name
        assert rows[name].failures_by == "x.mcp_server.MCPServer._on_tools_call", name
    # two functions of the module look a callable up by name in a ``try`` answering text: which runs the dict is not
    # known, and the rows keep what the tools raise
    rows = tools_by_name(tmp_path / "two", {"x/__init__.py": "", "x/mcp_server.py": TABLE_DISPATCH + SECOND_RUNNER})
    assert rows["list_sessions"].failures_by is None


REGISTRY = """
    from collections.abc import Callable
    from typing import Any

    TOOLS: list[tuple[Callable[..., Any], str]] = []


    def tool(title: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            TOOLS.append((fn, title))
            return fn

        return register
"""

SHOP = """
    import httpx

    from .registry import tool


    @tool("List products")
    async def list_products() -> dict:
        async with httpx.AsyncClient(timeout=30) as client:
            return (await client.get("https://api.example.com/v1/product")).json()
"""

SERVER = """
    from mcp.server import MCPServer

    from . import shop  # noqa: F401  (registers the tools)
    from .registry import TOOLS

    mcp = MCPServer("shop")

    for fn, title in TOOLS:
        mcp.add_tool(fn, title=title)
"""


def test_a_registry_list_another_module_mounts_on_mcp_server_answers_with_its_text(tmp_path: Path) -> None:
    files = {"x/__init__.py": "", "x/registry.py": REGISTRY, "x/shop.py": SHOP, "x/server.py": SERVER}
    row = tools_by_name(tmp_path, files)["list_products"]
    assert row.failures == ["text"] and row.failures_by == "mcp.server.mcpserver.server.MCPServer._handle_call_tool"
    # the list mounted by no framework registration: what the tool raises stays raised
    unmounted = {**files, "x/server.py": SERVER.replace("mcp.add_tool(fn, title=title)", "print(fn, title)")}
    assert tools_by_name(tmp_path / "none", unmounted)["list_products"].failures_by is None


NESTED_TOOL = """
    from mcp.server.mcpserver import MCPServer
    import httpx


    def register_tools(mcp: MCPServer, *, prefix: str = "") -> None:
        def tool():
            def decorator(func):
                if prefix:
                    func.__name__ = f"{prefix}_{func.__name__}"
                return mcp.tool()(func)

            return decorator

        @tool()
        async def file_write(sandbox_id: str, path: str, content: str) -> str:
            async with httpx.AsyncClient(timeout=30) as client:
                await client.put(f"https://sandbox.example.com/{sandbox_id}/files/{path}", content=content)
            return "ok"


    def create_server() -> MCPServer:
        mcp = MCPServer("sandbox")
        register_tools(mcp)
        return mcp
"""


def test_a_nested_tool_factory_handing_to_a_parameter_mcp_answers_with_the_servers_text(tmp_path: Path) -> None:
    row = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": NESTED_TOOL})["file_write"]
    assert row.framework == "mcp"
    assert row.failures == ["text"] and row.failures_by == "mcp.server.mcpserver.server.MCPServer._handle_call_tool"
