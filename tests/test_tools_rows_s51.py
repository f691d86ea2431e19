"""`smullyan tools` rows (issue 28, session 51, after batch 23's blind rows): calls and retries made through the
project's own client class.

- A method called on an object of one of the run's classes built in the call (``ActionstepClient().list_users()``)
  or returned by an unannotated getter that builds it (``def _c(): return FileVineClient()``; ``_c().delete_task(t)``)
  is that class's method (in another module too): the row lists the HTTP call the method makes
  (``self.session.request(method, url, timeout=REQUEST_TIMEOUT)``) and the retry the method's request helper makes
  (a recursion on the response's status, ``if resp.status_code == 429 and _rate_retries < 3: ... return
  self._request(..., _rate_retries=_rate_retries + 1)``). A getter returning something else lists nothing.
- The statuses of such a retry are the HTTP statuses its test names (100-599): not the attempt bound ``3``.
- A request's timeout from the client a getter builds lazily and returns (``if self._client is None: self._client =
  httpx.AsyncClient(timeout=30.0)``; ``return self._client``; ``client = await self._get_client()``), alone or in a
  tuple (``return _client, _limit``; ``client, limit = _get_client()``), or from the constructor an attribute is set to
  in ``__init__`` (``self._http = httpx.Client(timeout=60)``): that value, not the library's default.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_CLIENT = '''
    import time

    import requests

    REQUEST_TIMEOUT = 30


    class ApiClient:
        def __init__(self):
            self.session = requests.Session()

        def _request(self, method, path, _rate_retries=0):
            resp = self.session.request(method, "https://api.example.com" + path, timeout=REQUEST_TIMEOUT)
            if resp.status_code == 429 and _rate_retries < 3:
                time.sleep(int(resp.headers.get("Retry-After", "1")))
                return self._request(method, path, _rate_retries=_rate_retries + 1)
            resp.raise_for_status()
            return resp.json()

        def delete_task(self, task_id):
            return self._request("DELETE", f"/tasks/{task_id}")

        def list_users(self):
            return self._request("GET", "/users")
'''
_SERVER = '''
    import json

    from mcp.server.fastmcp import FastMCP

    from pkg.client import ApiClient

    mcp = FastMCP("api")


    def _c():
        return ApiClient()


    @mcp.tool()
    def delete_task(task_id: str) -> str:
        """Delete a task."""
        return json.dumps(_c().delete_task(task_id))


    @mcp.tool()
    def list_users() -> str:
        """List the users."""
        return json.dumps(ApiClient().list_users())
'''


def _rows(tmp_path: Path, server: str = _SERVER) -> dict[str, object]:
    return tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": _CLIENT, "pkg/server.py": server})


def test_a_method_of_the_runs_class_built_by_an_unannotated_getter(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["delete_task"]
    calls = tool.calls  # type: ignore[attr-defined]
    assert [(c.what, c.timeout, c.timeout_value) for c in calls] == [
        ("requests.Session.request", "value", "REQUEST_TIMEOUT")]
    retries = tool.retries  # type: ignore[attr-defined]
    assert [(r.kind, r.wait, r.condition) for r in retries] == [("recursion", "yes", "status 429")]


def test_a_method_of_the_runs_class_built_in_the_call(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["list_users"]
    assert [c.what for c in tool.calls] == ["requests.Session.request"]  # type: ignore[attr-defined]
    assert [r.condition for r in tool.retries] == ["status 429"]  # type: ignore[attr-defined]


def test_a_getter_returning_something_else_lists_nothing(tmp_path: Path) -> None:
    server = _SERVER.replace("return ApiClient()", "return ApiClient().session").replace("ApiClient().list_users()", "[]")
    rows = _rows(tmp_path, server)
    assert rows["delete_task"].calls == []  # type: ignore[attr-defined]
    assert rows["delete_task"].retries == []  # type: ignore[attr-defined]
    assert rows["list_users"].calls == []  # type: ignore[attr-defined]


_LAZY_ATTRIBUTE = '''
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("rt")


    class Client:
        def __init__(self):
            self._client = None

        async def _get_client(self):
            if self._client is None:
                self._client = httpx.AsyncClient(timeout=30.0)
            return self._client

        async def request(self, endpoint, data):
            client = await self._get_client()
            response = await client.post("https://rt.example.com/" + endpoint, data=data)
            return response.text


    @mcp.tool()
    async def add_comment(ticket: str, text: str) -> str:
        """Comment on a ticket."""
        return await CLIENT.request(f"ticket/{ticket}/comment", {"content": text})


    CLIENT = Client()
'''
_LAZY_GLOBAL = '''
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("pay")
    _client: httpx.AsyncClient | None = None
    _limit = None


    def _get_client() -> tuple[httpx.AsyncClient, int]:
        global _client, _limit
        if _client is None:
            _client = httpx.AsyncClient(timeout=30, trust_env=False)
            _limit = 4
        return _client, _limit


    async def call(method, path):
        client, limit = _get_client()
        r = await client.request(method, "https://pay.example.com" + path)
        return r.json()


    @mcp.tool()
    async def list_products() -> dict:
        """List the products."""
        return await call("GET", "/products")
'''
_IN_INIT = '''
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("nas")


    class Nas:
        def __init__(self):
            self._http = httpx.Client(timeout=60)

        def close(self):
            self._http.close()

        def mkdir(self, parent, name):
            return self._http.post("http://nas.local/mkdir", json={"parent": parent, "name": name}).json()


    @mcp.tool()
    def make_folder(parent: str, name: str) -> dict:
        """Create a folder."""
        return NAS.mkdir(parent, name)


    NAS = Nas()
'''


def _one_call(tmp_path: Path, source: str, name: str) -> tuple[str, str | None]:
    tool = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": source})[name]
    calls = tool.calls  # type: ignore[attr-defined]
    assert len(calls) == 1
    return calls[0].timeout, calls[0].timeout_value


def test_a_client_a_getter_builds_on_an_attribute(tmp_path: Path) -> None:
    assert _one_call(tmp_path, _LAZY_ATTRIBUTE, "add_comment") == ("value", "30.0")


def test_a_client_a_getter_builds_on_a_global_and_returns_in_a_tuple(tmp_path: Path) -> None:
    assert _one_call(tmp_path, _LAZY_GLOBAL, "list_products") == ("value", "30")


def test_a_client_built_in_init(tmp_path: Path) -> None:
    assert _one_call(tmp_path, _IN_INIT, "make_folder") == ("value", "60")


def test_a_client_built_without_a_timeout_keeps_the_default(tmp_path: Path) -> None:
    assert _one_call(tmp_path, _LAZY_ATTRIBUTE.replace("timeout=30.0", "follow_redirects=True"), "add_comment")[0] \
        == "default"
    assert _one_call(tmp_path, _IN_INIT.replace("timeout=60", "base_url='http://nas.local'"), "make_folder")[0] \
        == "default"


def test_an_attribute_handed_in_is_not_read_as_built(tmp_path: Path) -> None:
    handed = _IN_INIT.replace("def __init__(self):", "def __init__(self, http=None):").replace(
        "self._http = httpx.Client(timeout=60)", "self._http = http or httpx.Client(timeout=60)")
    assert _one_call(tmp_path, handed, "make_folder")[0] == "default"


_NAS = '''
    import httpx


    class Nas:
        def __init__(self):
            self._http = httpx.Client(timeout=60)

        def mkdir(self, parent, name):
            return self._http.post("http://nas.local/mkdir", json={"parent": parent, "name": name}).json()
'''
_NAS_SERVER = '''
    from mcp.server.fastmcp import FastMCP

    from pkg.nas import Nas

    mcp = FastMCP("nas")
    NAS = Nas()


    @mcp.tool()
    def make_folder(parent: str, name: str) -> dict:
        """Create a folder."""
        return NAS.mkdir(parent, name)
'''


def test_a_client_built_in_init_of_a_class_in_another_module(tmp_path: Path) -> None:
    tool = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/nas.py": _NAS, "pkg/server.py": _NAS_SERVER})["make_folder"]
    calls = tool.calls  # type: ignore[attr-defined]
    assert [(c.timeout, c.timeout_value) for c in calls] == [("value", "60")]

