"""`smullyan tools` rows (issue 28, session 53, after batches 24-25's rows): retry, calls and failures.

- A counted loop that goes round on a status is a retry of the row, whatever the statuses: a 429-only loop written
  "leave unless" (``if r.status_code != 429: ... return r``, then the bound's ``raise`` under an ``if`` and a sleep;
  batch 24 sigma's ``_request``). Not a job's state polled (``if job["state"] == "done": return job``), nor a loop
  with no wait after its test.
- python-plexapi's ``PlexServer`` is an SDK client: a getter annotated to return one gives the tool its calls.
- A cached connection's probe one ``if`` further in (``if _conn is not None: if recent: try: ...; return _conn
  except: _conn = None``, the connection rebuilt after it; plex-mcp-server's ``connect_to_plex``) is a best-effort
  step, as one ``if`` in already was.
- A ``try`` under an ``if`` binding a name that the answer then reports unguarded (``available = []``, ``try:
  available = list(conn.image.images()) except: pass``, ``len(available)`` in the result) swallows a failure: the
  default is what the model reads. Read only under a test of the name (``if diff: result["diff"] = diff``), or tested later at
  all (``if not hits: hits = other_search()``), or when the handler does more than pass, log or bind an empty value
  (miosa's ``_add_doctor_check(checks, ..., False, f"...: {exc}")``), it stays best-effort.
- ``refresh`` and ``restore`` in a tool's name are idempotent writes for the rows (a row nothing else classes), not
  for the rules' write verbs.
- A header parsed best-effort with the standard library (``email.utils.parsedate_to_datetime``, ``dt.replace``,
  ``max(0.0, (dt - now).total_seconds())``) and a body decoded with a named codec are local work: their handlers
  hide no failure of the tool.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_CLIENT = '''
    import asyncio
    import datetime
    import email.utils

    import httpx


    def _parse_retry_after(value):
        if not value:
            return None
        try:
            dt = email.utils.parsedate_to_datetime(value)
            if dt is not None:
                if dt.tzinfo is None:
                    dt = dt.replace(tzinfo=datetime.timezone.utc)
                now = datetime.datetime.now(datetime.timezone.utc)
                return max(0.0, (dt - now).total_seconds())
        except Exception:
            pass
        return None


    class ApiClient:
        def __init__(self, max_retries=3):
            self.max_retries = max_retries
            self._http = httpx.AsyncClient(timeout=60.0)

        async def _request(self, method, path):
            for attempt in range(self.max_retries + 1):
                r = await self._http.request(method, "https://api.example.com" + path)
                if r.status_code != 429:
                    if r.status_code >= 400:
                        try:
                            detail = r.content.decode("utf-8")
                        except Exception:
                            detail = None
                        raise RuntimeError(f"HTTP {r.status_code}: {detail}")
                    return r.json()
                delay = _parse_retry_after(r.headers.get("Retry-After"))
                if attempt == self.max_retries:
                    raise RuntimeError("rate limited")
                await asyncio.sleep(delay or 2 ** attempt)

        async def _poll(self, path):
            for attempt in range(30):
                r = await self._http.get("https://api.example.com" + path)
                if r.json()["state"] == "done":
                    return r.json()
                await asyncio.sleep(2)

        async def _no_wait(self, path):
            for attempt in range(3):
                r = await self._http.get("https://api.example.com" + path)
                if r.status_code != 429:
                    return r.json()
                print("rate limited")

        async def get_report(self, report_id):
            return await self._request("GET", f"/v2/reports/{report_id}")

        async def wait_export(self, export_id):
            return await self._poll(f"/v2/exports/{export_id}")

        async def get_page(self, page):
            return await self._no_wait(f"/v2/pages/{page}")


    def get_client() -> ApiClient:
        return ApiClient()
'''

_TOOLS = '''
    import json

    from mcp.server.fastmcp import FastMCP

    from pkg.client import get_client

    mcp = FastMCP("api")


    @mcp.tool()
    async def get_report(report_id: str) -> str:
        """Get a report."""
        return json.dumps(await get_client().get_report(report_id))


    @mcp.tool()
    async def wait_export(export_id: str) -> str:
        """Wait for an export."""
        return json.dumps(await get_client().wait_export(export_id))


    @mcp.tool()
    async def get_page(page: int) -> str:
        """Get a page."""
        return json.dumps(await get_client().get_page(page))
'''

_PLEX = '''
    import json

    from mcp.server.fastmcp import FastMCP
    from plexapi.server import PlexServer

    mcp = FastMCP("plex")


    def connect_to_plex() -> PlexServer:
        return PlexServer("http://plex:32400", "token", timeout=30)


    @mcp.tool()
    def library_refresh() -> str:
        """Refresh every library."""
        plex = connect_to_plex()
        plex.library.refresh()
        return json.dumps({"success": True})
'''

_CLOUD = '''
    import json
    import time

    import openstack
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("cloud")
    _conn = None
    _last = 0.0


    def get_connection():
        global _conn, _last
        now = time.time()
        if _conn is not None:
            if now - _last < 600:
                try:
                    _conn.identity.get_token()
                    _last = now
                    return _conn
                except Exception:
                    _conn = None
        _conn = openstack.connection.Connection(auth_url="https://keystone", timeout=10)
        _last = now
        return _conn


    @mcp.tool()
    def list_servers() -> str:
        """List the servers."""
        conn = get_connection()
        return json.dumps([s.name for s in conn.compute.servers()])


    @mcp.tool()
    def server_images(server_id: str) -> str:
        """Get a server and the images it may use."""
        try:
            conn = get_connection()
            server = conn.compute.get_server(server_id)
            available = []
            if server.image:
                try:
                    available = list(conn.image.images())
                except Exception:
                    pass
            return json.dumps({"name": server.name, "images_available": len(available)})
        except Exception as e:
            return json.dumps({"error": str(e)})


    @mcp.tool()
    def server_note(server_id: str) -> str:
        """Get a server and its console note."""
        try:
            conn = get_connection()
            server = conn.compute.get_server(server_id)
            result = {"name": server.name}
            note = None
            if server.status:
                try:
                    note = conn.compute.get_server_console_output(server)
                except Exception:
                    pass
            conn.compute.wait_for_server(server)
            if note:
                result["note"] = note
            return json.dumps(result)
        except Exception as e:
            return json.dumps({"error": str(e)})


    def _add_check(checks, name, ok, detail):
        checks.append({"name": name, "ok": ok, "detail": detail})


    @mcp.tool()
    def server_checks(server_id: str) -> str:
        """Check a server."""
        conn = get_connection()
        checks = []
        image = None
        if server_id:
            try:
                image = conn.image.get_image(server_id)
                _add_check(checks, "image", True, "The image is there.")
            except Exception as exc:
                _add_check(checks, "image", False, f"Could not fetch the image: {exc}")
        conn.compute.wait_for_server(server_id)
        return json.dumps({"checks": checks, "image": image})


    @mcp.tool()
    def find_servers(name: str, exact: bool = False) -> str:
        """Find servers by name."""
        conn = get_connection()
        hits = []
        if not exact:
            try:
                hits = list(conn.compute.servers(name=name))
            except Exception:
                hits = []
        if not hits:
            hits = list(conn.compute.servers(name=name, all_projects=True))
        return json.dumps([s.name for s in hits])
'''


def _rows(tmp_path: Path) -> dict[str, object]:
    return tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": _CLIENT, "pkg/tools.py": _TOOLS,
                                    "pkg/plex.py": _PLEX, "pkg/cloud.py": _CLOUD})


def test_a_429_loop_leaving_unless_rate_limited_is_the_rows_retry(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["get_report"]
    assert [(r.kind, r.condition, r.wait, r.helper) for r in tool.retries] == [  # type: ignore[attr-defined]
        ("status-loop", "status 429", "yes", "_request")]


def test_a_polled_state_and_a_loop_without_a_wait_are_no_retry(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    assert rows["wait_export"].retries == []  # type: ignore[attr-defined]
    assert rows["get_page"].retries == []  # type: ignore[attr-defined]


def test_a_header_parsed_and_a_body_decoded_best_effort_hide_no_failure(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["get_report"]
    assert "swallowed" not in tool.failures  # type: ignore[attr-defined]
    assert "fallback" not in tool.failures  # type: ignore[attr-defined]


def test_a_plexserver_getter_lists_the_tools_calls(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["library_refresh"]
    assert any("PlexServer" in c.what for c in tool.calls)  # type: ignore[attr-defined]


def test_a_cached_connections_probe_two_ifs_in_is_best_effort(tmp_path: Path) -> None:
    tool = _rows(tmp_path)["list_servers"]
    assert tool.calls  # type: ignore[attr-defined]
    assert "swallowed" not in tool.failures  # type: ignore[attr-defined]


def test_a_default_the_answer_reports_after_a_failed_step_is_swallowed(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    assert "swallowed" in rows["server_images"].failures  # type: ignore[attr-defined]
    assert "swallowed" not in rows["server_note"].failures  # type: ignore[attr-defined]
    assert "swallowed" not in rows["find_servers"].failures  # type: ignore[attr-defined]  # ``if not hits:`` after it
    assert "swallowed" not in rows["server_checks"].failures  # type: ignore[attr-defined]  # the handler records it


def test_a_refresh_and_a_restore_are_idempotent_writes_by_name_for_the_rows_alone(tmp_path: Path) -> None:
    from smullyan.linter import knowledge as kb
    from smullyan.linter.tools.verbs import name_verb

    assert (name_verb("library_refresh"), name_verb("restore_agent")) == ("refresh", "restore")
    assert "refresh" not in kb.TOOL_NAME_VERBS  # TFH402's write flag: a token refresh answering False stays a read
    tool = _rows(tmp_path)["library_refresh"]
    assert (tool.classification, tool.key) == ("idempotent-write", "not-needed")  # type: ignore[attr-defined]
