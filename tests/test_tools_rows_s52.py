"""`smullyan tools` rows (issue 28, session 52, after batch 24's blind rows): calls and retries through a project's
own client reached by a getter the earlier sessions did not read.

- A method called on an awaited call of one of the run's functions (``(await get_client()).get_report(id)``) is a
  method of what that function returns, as ``get_client().get_report(id)`` already was.
- A function that only hands on what another function of the run returns (``async def resolve_client(ctx) -> Any:
  from pkg import server; return await server.get_client(ctx)``, the import inside it breaking an import cycle)
  returns that function's value: a method called on its value is the method of the class the other is annotated
  to return.
- A getter nested in the function that registers the tools, caching what one of the run's functions returns
  (``_gh = None; def _get_gh(): nonlocal _gh; if _gh is None: _gh = get_client(); return _gh``): a method called on
  its value (``_get_gh().post(...)``) is that class's method; its request helper's retry loop is the row's retry.
- A client a module's getter builds and returns, bound by ``async with _client() as client`` (not only by an
  assignment), gives a request on ``client`` the constructor's timeout (``httpx.AsyncClient(timeout=TIMEOUT)``).
- A best-effort clean-up with a ``finally`` of the same kind (a kill sequence on a timeout: ``try:
  process.communicate(timeout=2) except TimeoutExpired: pass finally: os.killpg(...)``) is a side step, not a
  swallowed failure; so is the probe of a cached client in an ``if`` before the code that rebuilds it.
- A PATCH alone gives way to a name whose verb says an idempotent write, as a POST already did (``update_issue``
  sending ``PATCH /issues/1``: idempotent-write; ``add_label`` stays a non-idempotent write).
- A call listed under a sign-in helper (the request helper's ``_get_token``, in its own summary) does not class the
  tool: a tool named for deleting stays classed by its name.

Negative examples: a function handing on two different functions' values, a nested getter defined twice, a
getter returning something no function of the run builds, and a ``with`` over a call that is no getter stay as they
were.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_CLIENT = '''
    import asyncio

    import httpx


    class ApiClient:
        def __init__(self):
            self._http = httpx.AsyncClient(timeout=60.0)

        async def _get_token(self):
            r = await self._http.post("https://api.example.com/v2/auth/token", data={"grant_type": "x"})
            return r.json()["access_token"]

        async def _request(self, method, path, retries=3):
            token = await self._get_token()
            for attempt in range(retries):
                try:
                    resp = await self._http.request(method, "https://api.example.com" + path,
                                                    headers={"Authorization": token})
                except httpx.TransportError:
                    if attempt < retries - 1:
                        await asyncio.sleep(2 ** attempt)
                        continue
                    raise
                if resp.status_code >= 500 and attempt < retries - 1:
                    await asyncio.sleep(2 ** attempt)
                    continue
                return resp.json()

        async def get(self, path):
            return await self._request("GET", path)

        async def delete(self, path):
            return await self._request("DELETE", path)

        async def get_report(self, report_id):
            return await self.get(f"/v2/reports/{report_id}")

        async def delete_schedule(self, schedule_id):
            return await self.delete(f"/v2/schedules/{schedule_id}")


    _client = None


    def get_client() -> ApiClient:
        global _client
        if _client is None:
            _client = ApiClient()
        return _client
'''

_COMMON = '''
    from typing import Any


    async def resolve_client(ctx: Any = None) -> Any:
        from pkg import client

        return client.get_client()
'''

_AWAITED = '''
    import json

    from mcp.server.fastmcp import FastMCP

    from pkg.common import resolve_client as get_client

    mcp = FastMCP("api")


    @mcp.tool()
    async def get_report(report_id: str) -> str:
        """Get a report."""
        return json.dumps(await (await get_client()).get_report(report_id))


    @mcp.tool()
    async def delete_report_schedule(schedule_id: str) -> str:
        """Delete a report schedule."""
        return json.dumps(await (await get_client()).delete_schedule(schedule_id))
'''

_NESTED = '''
    import json

    from pkg.client import get_client


    def register(server):
        _gh = None

        def _get_gh():
            nonlocal _gh
            if _gh is None:
                _gh = get_client()
            return _gh

        @server.tool()
        async def fetch_report(report_id: str) -> str:
            """Fetch a report."""
            return json.dumps(await _get_gh().get(f"/v2/reports/{report_id}"))
'''

_SERVER = '''
    from mcp.server.fastmcp import FastMCP

    from pkg import nested

    mcp = FastMCP("api")
    nested.register(mcp)
'''


def _rows(tmp_path: Path, **files: str) -> dict[str, object]:
    tree = {"pkg/__init__.py": "", "pkg/client.py": _CLIENT, "pkg/common.py": _COMMON, "pkg/tools.py": _AWAITED,
            "pkg/nested.py": _NESTED, "pkg/server.py": _SERVER}
    tree.update({f"pkg/{k}.py": v for k, v in files.items()})
    return tools_by_name(tmp_path, tree)


def _whats(tool: object) -> list[tuple[str, str | None]]:
    return sorted((c.what, c.helper) for c in tool.calls)  # type: ignore[attr-defined]


def test_a_method_on_an_awaited_getter_through_a_function_handing_on_anothers_value(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    tool = rows["get_report"]
    assert ("httpx.AsyncClient.request", "_request") in _whats(tool)
    assert [c.timeout for c in tool.calls if c.what == "httpx.AsyncClient.request"] == ["value"]  # type: ignore[attr-defined]
    assert [r.condition for r in tool.retries] != []  # type: ignore[attr-defined]
    assert tool.classification == "read-safe"  # type: ignore[attr-defined]


def test_a_sign_in_helpers_request_does_not_class_the_tool(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["delete_report_schedule"]
    assert ("httpx.AsyncClient.request", "_request") in _whats(tool)
    assert tool.classification == "irreversible"  # type: ignore[attr-defined]
    assert tool.evidence == "by name (delete)"  # type: ignore[attr-defined]


def test_a_method_on_a_nested_caching_getter(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["fetch_report"]
    assert ("httpx.AsyncClient.request", "_request") in _whats(tool)
    assert tool.retries  # type: ignore[attr-defined]


def test_a_function_handing_on_two_functions_values_is_not_followed(tmp_path: Path) -> None:
    common = _COMMON.replace("return client.get_client()",
                             "if ctx:\n            return client.get_client()\n        return client.other()")
    rows = _rows(tmp_path, common=common)
    assert rows["get_report"].calls == []  # type: ignore[attr-defined]


def test_a_nested_getter_defined_twice_is_not_followed(tmp_path: Path) -> None:
    nested = _NESTED + '''

    def register_more(server):
        def _get_gh():
            return None
    '''
    rows = _rows(tmp_path, nested=nested)
    assert rows["fetch_report"].calls == []  # type: ignore[attr-defined]


_WITH_GETTER = '''
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("gov")
    TIMEOUT = 30.0


    def _client() -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url="https://api.example.com", timeout=TIMEOUT)


    async def _get(path):
        async with _client() as client:
            r = await client.get(path)
        return r.json()


    @mcp.tool()
    async def get_rates(code: str) -> str:
        """Get the rates."""
        return str(await _get(f"/rates/{code}"))


    @mcp.tool()
    async def get_plain(code: str) -> str:
        """Get without the getter."""
        async with httpx.AsyncClient() as client:
            r = await client.get(f"https://api.example.com/plain/{code}")
        return r.text
'''


def test_a_getters_client_bound_by_with(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"gov/__init__.py": "", "gov/server.py": _WITH_GETTER})
    calls = rows["get_rates"].calls  # type: ignore[attr-defined]
    assert [(c.timeout, c.timeout_value) for c in calls] == [("value", "TIMEOUT")]
    plain = rows["get_plain"].calls  # type: ignore[attr-defined]
    assert [c.timeout for c in plain] == ["default"]


_SDK_CONNECTION = '''
    from typing import Optional

    from openstack import connection

    _conn: Optional[connection.Connection] = None


    def get_connection():
        global _conn
        if _conn is not None:
            try:
                _conn.identity.get_token()
                return _conn
            except Exception:
                _conn = None
        _conn = connection.Connection(auth_url="https://keystone.example.com", timeout=10)
        return _conn
'''
_SDK_SERVICES = '''
    from pkg.conn import get_connection


    def list_amphorae(lb_id):
        conn = get_connection()
        return [a.id for a in conn.load_balancer.amphorae(loadbalancer_id=lb_id)]


    def list_other(lb_id):
        other = make_other()
        return other.load_balancer.amphorae(loadbalancer_id=lb_id)


    def make_other():
        return object()
'''
_SDK_TOOLS = '''
    from mcp.server.fastmcp import FastMCP

    from pkg.services import list_amphorae, list_other

    mcp = FastMCP("os")


    @mcp.tool()
    def get_amphorae(lb_id: str) -> str:
        """The amphorae of a load balancer."""
        return str(list_amphorae(lb_id))


    @mcp.tool()
    def get_other(lb_id: str) -> str:
        """Through a getter returning no SDK client."""
        return str(list_other(lb_id))
'''


def test_an_sdk_connection_a_getter_caches_in_a_global(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/conn.py": _SDK_CONNECTION,
                                    "pkg/services.py": _SDK_SERVICES, "pkg/tools.py": _SDK_TOOLS})
    calls = rows["get_amphorae"].calls  # type: ignore[attr-defined]
    assert sorted((c.what, c.timeout) for c in calls) == [("Connection.identity.get_token", "value"),
                                                          ("Connection.load_balancer.amphorae", "value")]
    assert rows["get_other"].calls == []  # type: ignore[attr-defined]
    # the cached connection's probe (its handler resets the cache, and the connection is rebuilt): no swallowing
    assert "swallowed" not in rows["get_amphorae"].failures  # type: ignore[attr-defined]


_KILL_SEQUENCE = '''
    import json
    import os
    import signal
    import subprocess

    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("tk")


    @mcp.tool()
    def run_status(name: str) -> str:
        """Run the status command."""
        try:
            process = subprocess.Popen(["tk", "status", name], stdout=subprocess.PIPE, text=True,
                                       start_new_session=True)
            try:
                out, _ = process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    process.communicate(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
                finally:
                    try:
                        os.killpg(process.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    process.communicate()
                raise
            return out
        except subprocess.TimeoutExpired:
            return json.dumps({"error_code": "timeout", "message": "timed out"})


    @mcp.tool()
    def run_quiet(name: str) -> str:
        """A handler that swallows the command's failure."""
        try:
            return subprocess.run(["tk", "quiet", name], capture_output=True, text=True, timeout=10).stdout
        except subprocess.TimeoutExpired:
            pass
        return ""
'''


def test_a_kill_sequence_on_the_way_out_is_no_swallowing(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"tk/__init__.py": "", "tk/server.py": _KILL_SEQUENCE})
    assert "swallowed" not in rows["run_status"].failures  # type: ignore[attr-defined]
    assert "swallowed" in rows["run_quiet"].failures  # type: ignore[attr-defined]


_PATCHES = '''
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("gh")
    _http = httpx.Client(timeout=10)


    @mcp.tool()
    def update_issue(number: int) -> str:
        """Update an issue."""
        return _http.patch(f"https://api.example.com/issues/{number}").text


    @mcp.tool()
    def add_label(number: int) -> str:
        """Add a label."""
        return _http.patch(f"https://api.example.com/issues/{number}/labels").text
'''


def test_a_patch_alone_gives_way_to_an_idempotent_verb(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"gh/__init__.py": "", "gh/server.py": _PATCHES})
    assert rows["update_issue"].classification == "idempotent-write"  # type: ignore[attr-defined]
    assert rows["add_label"].classification == "non-idempotent-write"  # type: ignore[attr-defined]
