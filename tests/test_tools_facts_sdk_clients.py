"""`smullyan tools` (issue 28, s42): a method called on a third-party SDK client built elsewhere in the module (a
module global set by a ``global`` function or built at the top, ``self.x`` set in ``__post_init__`` with the class
imported there, a local) is a call out, unclassified; its timeout the constructor's when the timeout tables know the
class, a finding at that constructor (TFH201) is the tool's, and so is a retry wrapper put on one of the client's
methods there (``client.request = _with_retry(client.request)``); the run's own classes, the standard library's, web
apps (``FastAPI``) and local embedded stores (``chromadb.PersistentClient``) are none."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name as _rows


HETZNER = """
    from typing import Optional

    import time

    from hcloud import APIException, Client
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("hetzner")
    client: Optional[Client] = None

    def _with_retry(func):
        def wrapper(*args, **kwargs):
            attempt = 0
            while True:
                try:
                    return func(*args, **kwargs)
                except APIException:
                    if attempt >= 5:
                        raise
                    attempt += 1
                    time.sleep(2 ** attempt)
        return wrapper

    def resolve_client(token):
        global client
        client = Client(token=token)
        client.request = _with_retry(client.request)
        return client

    @mcp.tool()
    def delete_ssh_key(key_id: int) -> dict:
        key = client.ssh_keys.get_by_id(key_id)
        return {"success": client.ssh_keys.delete(key)}

    @mcp.tool()
    def shadowed(client) -> dict:
        return {"servers": client.servers.get_all()}
"""

TAVILY = """
    from typing import Any, Optional

    from langchain_core.tools import BaseTool, tool
    from pkg.mine import OwnClient

    class Search(BaseTool):
        name: str = "web_search"
        description: str = "Search the web."
        client: Optional[Any] = None

        def __init__(self):
            super().__init__()
            from tavily import TavilyClient
            self.client = TavilyClient(api_key="k")
            self.own = OwnClient()

        def _run(self, query: str) -> str:
            self.client.close()
            self.own.lookup(query)
            return str(self.client.search(query=query))

    @tool
    def local_search(query: str) -> str:
        \"\"\"Search a local store.\"\"\"
        import chromadb
        store = chromadb.PersistentClient(path="db")
        return str(store.get_collection("docs").query(query))
"""


def test_a_module_global_client_set_by_a_global_function_lists_its_calls(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": HETZNER})
    t = rows["delete_ssh_key"]
    assert [(c.what, c.cls, c.timeout) for c in t.calls] == [("Client.ssh_keys.get_by_id", None, "missing"),
                                                              ("Client.ssh_keys.delete", None, "missing")]
    assert t.findings.get("TFH201") == 1  # the client built without a timeout: every call through it waits unbounded
    assert rows["shadowed"].calls == []  # a parameter of that name is not the global
    # the retry wrapper put on the client's request method where it is built retries every call through it
    assert [(r.kind, r.helper) for r in t.retries] == [("loop", "_with_retry")]
    assert rows["shadowed"].retries == []


def test_a_client_set_on_self_in_init_with_the_class_imported_there(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/mine.py": "class OwnClient:\n    def lookup(self, q): return q\n",
                            "pkg/search.py": TAVILY})
    # the run's own client is followed as the run's code, not listed as an SDK call; closing reaches nothing
    assert [(c.what, c.cls, c.timeout) for c in rows["web_search"].calls] == [("TavilyClient.search", None, "unknown")]
    assert rows["local_search"].calls == []  # an embedded store on local disk is no call out


ARXIV = """
    try:
        import arxiv
    except ImportError:
        arxiv = None
    from langchain_core.tools import tool

    @tool
    def arxiv_search(query: str) -> str:
        \"\"\"Search arXiv.\"\"\"
        search = arxiv.Search(query=query, max_results=3)
        return str([p.title for p in search.results()])
"""


def test_an_arxiv_search_pages_through_the_api(tmp_path: Path) -> None:
    t = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/r.py": ARXIV})["arxiv_search"]
    assert [(c.what, c.cls, c.timeout) for c in t.calls] == [("arxiv.Search.results", "read-safe", "unknown")]
    assert t.classification == "read-safe"
