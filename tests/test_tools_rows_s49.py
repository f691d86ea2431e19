"""`smullyan tools` rows (issue 28, session 49, after batch 21's blind rows): failures, calls, class and retry columns.

- A project registry decorator in another module that hands the function to FastMCP (``def guarded(mcp: FastMCP):
  ... mcp.tool(name=...)(wrapper)``, termix) or stores it in a registry its module mounts with ``mcp.add_tool(
  entry.wrapper)`` (evolution): the server answers what the tool raises with text (``failures_by``). A registry its
  module mounts nowhere keeps ``raised``.
- A client class the tables do not know, built with an explicit ``timeout=`` (``httpx2.AsyncClient(timeout=
  httpx2.Timeout(90, connect=5))``): its calls' timeout is a value; built without one it stays unknown.
- A request helper that first asks a sign-in helper for a token (``self._auth.get_token()``, whose refresh POSTs):
  the tool's class comes from its own method (GET: read-safe), not from the token POST, and the sign-in helper's
  handlers are no failure mode of the tool; a tool named for the token itself keeps the POST.
- A helper calling itself again from an ``if`` testing the response's status (``if r.status_code == 401 and _retry:
  return await self._request(..., _retry=False)``): a retry; a recursion under no status test is none.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_GUARDED = {
    "pkg/__init__.py": "",
    "pkg/policy.py": '''
        import functools
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError


        def guarded(mcp: FastMCP, *, read_only: bool):
            def decorator(fn):
                @functools.wraps(fn)
                async def wrapper(*args, **kwargs):
                    if not read_only:
                        raise ToolError("read-only mode")
                    return await fn(*args, **kwargs)

                mcp.tool(name=fn.__name__)(wrapper)
                return wrapper

            return decorator
    ''',
    "pkg/tunnels.py": '''
        from fastmcp import FastMCP
        from pkg.policy import guarded


        def register(mcp: FastMCP, client) -> None:
            @guarded(mcp, read_only=True)
            async def list_tunnels() -> dict:
                """List the tunnels."""
                return await client.tunnel.get_status()
    ''',
}


def test_a_registry_of_another_module_handing_to_fastmcp(tmp_path: Path) -> None:
    tool = tools_by_name(tmp_path, _GUARDED)["list_tunnels"]
    assert tool.failures == ["text"]
    assert tool.failures_by == "fastmcp.server.server.FastMCP.call_tool"


_MOUNTED = '''
    import functools
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from mcp.server import MCPServer

    _REGISTRY = {}


    def tool(*, kind: str):
        def decorate(fn):
            @functools.wraps(fn)
            async def wrapper(*args, **kwargs):
                return await fn(*args, **kwargs)

            _REGISTRY[fn.__name__] = (wrapper, fn)
            return wrapper

        return decorate


    def register_all(mcp: "MCPServer") -> None:
        for name, (wrapper, fn) in _REGISTRY.items():
            mcp.add_tool(wrapper, name=name)
'''
_SENDING = '''
    from pkg import registry


    @registry.tool(kind="write")
    async def send_sticker(number: str, sticker: str) -> str:
        """Send a sticker."""
        return await registry_client().post("/message/sendSticker", json={"number": number})
'''


def test_a_stored_registry_its_module_mounts_with_add_tool(tmp_path: Path) -> None:
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/registry.py": _MOUNTED, "pkg/messaging.py": _SENDING})
    assert tools["send_sticker"].failures == ["text"]
    assert tools["send_sticker"].failures_by == "mcp.server.mcpserver.server.MCPServer._handle_call_tool"


def test_a_stored_registry_mounted_nowhere_keeps_raised(tmp_path: Path) -> None:
    unmounted = _MOUNTED.split("def register_all")[0]
    tools = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/registry.py": unmounted, "pkg/messaging.py": _SENDING})
    assert tools["send_sticker"].failures == ["raised"]
    assert tools["send_sticker"].failures_by is None


_CLIENT = '''
    import httpx2


    class EvolutionClient:
        def __init__(self, url: str, timeout: float = 90.0) -> None:
            self._http = httpx2.AsyncClient(base_url=url{timeout})

        async def request(self, method: str, path: str) -> object:
            response = await self._http.request(method, path)
            return response.json()
'''
_INSTANCES = '''
    from mcp.server.fastmcp import FastMCP
    from pkg.client import EvolutionClient

    mcp = FastMCP("evo")
    client = EvolutionClient("http://localhost:8080")


    @mcp.tool()
    async def fetch_instances() -> object:
        """The instances."""
        return await client.request("GET", "/instance/fetchInstances")
'''


def _request_timeouts(tmp_path: Path, timeout: str) -> list[str]:
    files = {"pkg/__init__.py": "", "pkg/client.py": _CLIENT.replace("{timeout}", timeout), "pkg/tools.py": _INSTANCES}
    return [c.timeout for c in tools_by_name(tmp_path, files)["fetch_instances"].calls if "request" in c.what]


def test_an_unknown_client_built_with_a_timeout(tmp_path: Path) -> None:
    assert _request_timeouts(tmp_path, ", timeout=httpx2.Timeout(timeout, connect=5)") == ["value"]


def test_an_unknown_client_built_without_one(tmp_path: Path) -> None:
    assert _request_timeouts(tmp_path, "") == ["unknown"]


def test_an_unknown_client_built_with_timeout_none(tmp_path: Path) -> None:
    assert _request_timeouts(tmp_path, ", timeout=None") == ["unknown"]


_AUTH = '''
    import json
    import httpx


    class AuthManager:
        def __init__(self) -> None:
            self._http = httpx.AsyncClient(timeout=30.0)
            self._token = None
            self._token_url = "https://example.com/connect"

        async def get_token(self) -> str:
            if self._token is None:
                await self._refresh_token_flow()
            return self._token

        async def _refresh_token_flow(self) -> None:
            try:
                cached = json.loads(open("/tmp/token.json").read())
            except OSError:
                cached = None
            response = await self._http.post(self._token_url, data={"grant_type": "refresh"})
            self._token = response.json()["access_token"] if cached is None else cached
'''
_API = '''
    import asyncio
    import httpx
    from pkg.auth import AuthManager


    class ApiClient:
        def __init__(self, auth: AuthManager) -> None:
            self._auth = auth
            self._http = httpx.AsyncClient(timeout=30.0)

        async def _request(self, method: str, path: str, _retry: bool = True) -> dict:
            token = await self._auth.get_token()
            response = await self._http.request(method, path, headers={"Authorization": f"Bearer {token}"})
            if response.status_code == 401 and _retry:
                self._auth._token = None
                return await self._request(method, path, _retry=False)
            if response.status_code >= 500 and _retry:
                await asyncio.sleep(1)
                return await self._request(method, path, _retry=False)
            return response.json()

        async def get(self, path: str) -> dict:
            return await self._request("GET", path)

        async def post(self, path: str) -> dict:
            return await self._request("POST", path)
'''
_SERVER = '''
    from mcp.server.fastmcp import FastMCP
    from pkg.api import ApiClient
    from pkg.auth import AuthManager

    server = FastMCP("api")
    auth = AuthManager()
    client = ApiClient(auth)


    @server.tool()
    async def list_resources(kind: str) -> dict:
        """List resources."""
        return await client.get(f"/{kind}")


    @server.tool()
    async def refresh_access_token() -> dict:
        """Refresh the token."""
        return await auth.get_token()
'''


def _auth_tools(tmp_path: Path, api: str = _API) -> dict:
    return tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/auth.py": _AUTH, "pkg/api.py": api,
                                    "pkg/server.py": _SERVER})


def test_a_sign_in_helper_is_not_the_tools_class_nor_its_failure(tmp_path: Path) -> None:
    tool = _auth_tools(tmp_path)["list_resources"]
    assert (tool.classification, tool.key) == ("read-safe", "not-needed")
    assert "swallowed" not in tool.failures and "fallback" not in tool.failures


def test_a_tool_named_for_the_token_keeps_its_post(tmp_path: Path) -> None:
    tool = _auth_tools(tmp_path)["refresh_access_token"]
    assert tool.classification == "non-idempotent-write"


def test_a_status_tested_self_recursion_is_a_retry(tmp_path: Path) -> None:
    retries = _auth_tools(tmp_path)["list_resources"].retries
    assert sorted((r.kind, r.stop, r.wait, r.condition) for r in retries) == [
        ("recursion", "once", "none", "status 401"), ("recursion", "once", "yes", "status 500")]


def test_a_recursion_under_no_status_test_is_none(tmp_path: Path) -> None:
    api = _API.replace("if response.status_code == 401 and _retry:", "if _retry and path.endswith('/'):").replace(
        "if response.status_code >= 500 and _retry:", "if _retry and not path:")
    assert _auth_tools(tmp_path, api)["list_resources"].retries == []
