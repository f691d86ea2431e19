"""`smullyan tools` (issue 28, session 40): calls and retries a tool reaches behind the run's own helpers and SDK
clients (batch 12's rows): an XML-RPC proxy's remote procedures, a helper's same-module helpers read in its own summary
(a shared token request's timeout and TFH201), a method called on what another module's helper returns (annotated,
a tuple or a union), a function run in a worker thread, the run's own retry decorator, a loop's sleep before its next
attempt, and a row classed from every helper's calls at once."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name as _rows

CLIENT = """
    import time
    import xmlrpc.client
    from typing import Any

    import requests


    class OdooClient:
        def __init__(self, url: str) -> None:
            self.url = url
            self.connect()

        def connect(self) -> None:
            self._models = xmlrpc.client.ServerProxy(f"{self.url}/xmlrpc/2/object")

        def _execute(self, model: str, method: str, *args: Any) -> Any:
            last = None
            for attempt in range(3):
                if attempt:
                    time.sleep(0.5 * 2 ** (attempt - 1))
                try:
                    return self._execute_once(model, method, args)
                except (ConnectionError, TimeoutError) as exc:
                    last = exc
            raise last

        def _execute_once(self, model: str, method: str, args: tuple) -> Any:
            return self._models.execute_kw("db", 1, "pw", model, method, list(args))

        def fields(self, model: str) -> dict:
            return self._execute(model, "fields_get")


    class TokenApi:
        def _token(self) -> str:
            return requests.post("https://auth.example.com/token", data={"grant_type": "client_credentials"}).json()["t"]

        def _headers(self) -> dict:
            return {"Authorization": f"Bearer {self._token()}"}

        def remove(self, name: str) -> dict:
            return requests.delete(f"https://api.example.com/items/{name}", headers=self._headers(), timeout=10).json()

        def show(self, name: str) -> dict:
            return requests.get(f"https://api.example.com/items/{name}", headers=self._headers(), timeout=10).json()
"""

CONTEXT = """
    from .client import OdooClient, TokenApi

    _CLIENT = OdooClient("http://odoo")
    _API = TokenApi()


    def resolve(instance: str) -> tuple[str, OdooClient]:
        return instance, _CLIENT


    def api() -> TokenApi | None:
        return _API
"""


def test_a_method_on_a_returned_client_reaches_its_xmlrpc_call_and_retry(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "srv/__init__.py": "",
        "srv/client.py": CLIENT,
        "srv/context.py": CONTEXT,
        "srv/server.py": """
            from mcp.server.fastmcp import FastMCP
            from .context import resolve

            mcp = FastMCP("odoo")

            @mcp.tool()
            def model_fields(model: str, instance: str = "") -> dict:
                name, odoo = resolve(instance)
                return odoo.fields(model)
        """,
    })
    row = rows["model_fields"]
    # ``name, odoo = resolve(...)`` with ``-> tuple[str, OdooClient]``: OdooClient.fields -> _execute -> _execute_once
    assert [(c.what, c.helper) for c in row.calls] == [("ServerProxy.execute_kw", "_execute_once")]
    # the loop sleeps before each next attempt: a known wait
    assert [(r.kind, r.wait, r.condition, r.helper) for r in row.retries] == [
        ("loop", "yes", "ConnectionError, TimeoutError", "_execute")]


def test_a_helpers_same_module_token_request_gives_its_timeout_and_finding_once(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "srv/__init__.py": "",
        "srv/client.py": CLIENT,
        "srv/context.py": CONTEXT,
        "srv/server.py": """
            from mcp.server.fastmcp import FastMCP
            from .context import api

            mcp = FastMCP("items")

            @mcp.tool()
            def delete_item(name: str) -> dict:
                client = api()
                return client.remove(name)

            @mcp.tool()
            def show_item(name: str) -> dict:
                return api().show(name) if api() else {}
        """,
    })
    row = rows["delete_item"]
    # ``-> TokenApi | None``; remove -> _headers -> _token: two same-module calls below, read in remove's summary
    assert {(c.what.split()[0], c.timeout, c.helper) for c in row.calls} == {
        ("DELETE", "value", "remove"), ("POST", "missing", "_token")}
    assert row.findings == {"TFH201": 1}  # the token POST's, once
    # an HTTP DELETE is idempotent; the name says what it removes stays removed
    assert row.classification == "irreversible" and row.key == "not-needed"


def test_a_function_run_in_a_worker_thread_and_a_union_of_clients(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "sp/__init__.py": "",
        "sp/retry.py": """
            from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential

            def sp_retry(func):
                @retry(retry=retry_if_exception_type((ConnectionError, TimeoutError)), stop=stop_after_attempt(3),
                       wait=wait_exponential(multiplier=2, min=2, max=30), reraise=True)
                def wrapper(*args, **kwargs):
                    return func(*args, **kwargs)
                return wrapper
        """,
        "sp/clients.py": """
            import requests

            class GraphClient:
                def get(self, endpoint: str) -> dict:
                    return requests.get(f"https://graph.example.com/{endpoint}", timeout=30).json()

                def delete(self, endpoint: str) -> bool:
                    return requests.delete(f"https://graph.example.com/{endpoint}", timeout=30).ok

            class RestClient:
                def get(self, endpoint: str) -> dict:
                    return requests.get(f"https://rest.example.com/{endpoint}", timeout=20).json()

            def context() -> GraphClient | RestClient:
                return GraphClient()
        """,
        "sp/service.py": """
            from .clients import context
            from .retry import sp_retry

            @sp_retry
            def list_folders(parent: str) -> list:
                client = context()
                return client.get(f"{parent}/children")["value"]

            @sp_retry
            def remove_folder(path: str) -> dict:
                client = context()
                client.get(path)
                return {"deleted": client.delete(path)}
        """,
        "sp/server.py": """
            import asyncio

            from mcp.server.fastmcp import FastMCP
            from .service import list_folders as _list_folders, remove_folder as _remove_folder

            mcp = FastMCP("sp")

            @mcp.tool(name="List_Folders")
            async def list_folders_tool(parent: str = "") -> list:
                return await asyncio.to_thread(_list_folders, parent)

            @mcp.tool(name="Remove_Folder")
            async def remove_folder_tool(path: str) -> dict:
                return await asyncio.to_thread(_remove_folder, path)
        """,
    })
    listed = rows["List_Folders"]
    # both classes' ``get``: the union says either may answer
    assert {(c.what, c.timeout_value) for c in listed.calls} == {("GET to 'https://graph.example.com/'", "30"),
                                                                  ("GET to 'https://rest.example.com/'", "20")}
    assert listed.classification == "read-safe"
    # ``@sp_retry``: the run's decorator, its wrapper retried by tenacity
    assert [(r.kind, r.stop, r.wait, r.helper) for r in listed.retries] == [("tenacity", "3 attempts", "yes", "sp_retry")]
    removed = rows["Remove_Folder"]
    # classed from every helper's calls at once (the GET first would have classed it read-safe)
    assert removed.classification == "irreversible" and removed.evidence.startswith("DELETE ")


def test_an_xmlrpc_proxy_private_attribute_is_no_procedure(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {
        "x/__init__.py": "",
        "x/server.py": """
            import xmlrpc.client
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("x")

            @mcp.tool()
            def procs() -> list:
                proxy = xmlrpc.client.ServerProxy("http://localhost:9001/RPC2")
                proxy._ServerProxy__close()
                return proxy.system.listMethods()
        """,
    })
    assert [c.what for c in rows["procs"].calls] == []  # ``proxy.system.listMethods``: not a method of the proxy
