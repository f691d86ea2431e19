"""`smullyan tools` (issue 28): following the run's helpers reads the timeouts of a followed helper's own same-module
calls (``self.session.get(..., timeout=30)`` in a method another method calls), carries its retries, and follows the
methods of an object a tool hands a same-module function as an argument (``run(searcher, q)`` running
``searcher.search``), only the class each call site hands over."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import write_tree

SEARCHERS = {
    "pkg/__init__.py": "",
    "pkg/alpha.py": """
        import time
        import requests

        class AlphaSearcher:
            def __init__(self):
                self.session = requests.Session()

            def search(self, query):
                for attempt in range(3):
                    try:
                        response = self.session.get("https://alpha.example/api", params={"q": query}, timeout=30)
                        response.raise_for_status()
                        return response.json()["items"]
                    except requests.RequestException:
                        time.sleep(1.5 * (attempt + 1))
                return []

            def read(self, item_id):
                hits = self.search(item_id)
                return hits[0] if hits else "not found"
    """,
    "pkg/beta.py": """
        import requests

        class BetaSearcher:
            def search(self, query):
                try:
                    return requests.post("https://beta.example/q", json={"q": query}).json()
                except Exception:
                    return []
    """,
}


def _run(tmp_path: Path, server: str) -> dict[str, tools.Tool]:
    paths = write_tree(tmp_path, {**SEARCHERS, "pkg/server.py": server})
    return {t.name: t for t in tools.run(paths, Config()).tools}


def test_a_followed_methods_own_helper_keeps_its_literal_timeout(tmp_path: Path) -> None:
    rows = _run(tmp_path, """
        from mcp.server.fastmcp import FastMCP
        from .alpha import AlphaSearcher

        mcp = FastMCP("papers")
        alpha = AlphaSearcher()

        @mcp.tool()
        def read_alpha(item_id: str) -> str:
            return str(alpha.read(item_id))
    """)
    row = rows["read_alpha"]
    assert [(c.what, c.timeout, c.timeout_value, c.helper) for c in row.calls] == [
        ("GET to 'https://alpha.example/api'", "value", "30", "search")]
    assert row.classification == "read-safe" and row.key == "not-needed"
    assert [(r.stop, r.helper) for r in row.retries] == [("3 attempts", "search")]


def test_an_object_handed_to_a_same_module_function_is_followed_per_call_site(tmp_path: Path) -> None:
    rows = _run(tmp_path, """
        import asyncio
        from mcp.server.fastmcp import FastMCP
        from .alpha import AlphaSearcher
        from .beta import BetaSearcher

        mcp = FastMCP("papers")
        alpha = AlphaSearcher()

        async def run_search(searcher, query):
            found = await asyncio.to_thread(searcher.search, query)
            return list(found)

        @mcp.tool()
        async def search_alpha(query: str) -> list:
            return await run_search(alpha, query)

        @mcp.tool()
        async def search_beta(query: str) -> list:
            return await run_search(BetaSearcher(), query)

        @mcp.tool()
        async def search_unknown(query: str, searcher=None) -> list:
            return await run_search(searcher, query)
    """)
    a, b, unknown = rows["search_alpha"], rows["search_beta"], rows["search_unknown"]
    assert [(c.what, c.timeout_value, c.helper) for c in a.calls] == [("GET to 'https://alpha.example/api'", "30", "search")]
    assert a.classification == "read-safe" and [(r.stop, r.helper) for r in a.retries] == [("3 attempts", "search")]
    assert "swallowed" not in a.failures and "text" in a.failures  # the loop's handler sends the call round
    # the other call site hands another class: only its method, a write without a timeout
    assert [(c.what.split(" ")[0], c.timeout, c.helper) for c in b.calls] == [("POST", "missing", "search")]
    # a POST sent by a method named ``search``: a query sent as POST (``knowledge.READ_POST_FUNCTION_PREFIXES``)
    assert b.classification == "read-safe" and b.retries == []
    assert "TFH201" in b.findings and "swallowed" in b.failures
    # a parameter of the tool itself: no class known, nothing followed
    assert unknown.calls == [] and unknown.evidence == "by name (search)"  # no class from calls: its name's


def test_a_rebound_parameter_is_not_followed(tmp_path: Path) -> None:
    rows = _run(tmp_path, """
        from mcp.server.fastmcp import FastMCP
        from .alpha import AlphaSearcher
        from .beta import BetaSearcher

        mcp = FastMCP("papers")

        def run_search(searcher, query):
            searcher = BetaSearcher()
            return searcher.search(query)

        @mcp.tool()
        def search_alpha(query: str) -> list:
            return run_search(AlphaSearcher(), query)
    """)
    assert all(c.helper != "search" or c.what.startswith("POST") for c in rows["search_alpha"].calls)
    assert not any("Session.get" in c.what for c in rows["search_alpha"].calls)


def test_a_super_call_to_the_runs_base_class_is_followed(tmp_path: Path) -> None:
    paths = write_tree(tmp_path, {**SEARCHERS, "pkg/gamma.py": """
        from .alpha import AlphaSearcher

        class GammaSearcher(AlphaSearcher):
            def search(self, query):
                return [hit for hit in super().search(query) if hit]
    """, "pkg/server.py": """
        from mcp.server.fastmcp import FastMCP
        from .gamma import GammaSearcher

        mcp = FastMCP("papers")
        gamma = GammaSearcher()

        @mcp.tool()
        def search_gamma(query: str) -> list:
            return gamma.search(query)
    """})
    row = {t.name: t for t in tools.run(paths, Config()).tools}["search_gamma"]
    assert [(c.timeout_value, c.helper) for c in row.calls] == [("30", "search")]
    assert row.classification == "read-safe"


def test_a_tool_whose_followed_calls_all_read_is_read_safe(tmp_path: Path) -> None:
    paths = write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/store.py": """
            import httpx

            class Store:
                def __init__(self):
                    self.http = httpx.Client(base_url="https://store.example", timeout=10)

                def items(self, name):
                    first = self.http.get("/items", params={"q": name})
                    return [self.http.get(f"/items/{i}").json() for i in first.json()]

                def add(self, item):
                    return self.http.post("/items", json=item).json()
        """,
        "pkg/server.py": """
            from mcp.server.fastmcp import FastMCP
            from .store import Store

            mcp = FastMCP("store")
            store = Store()

            @mcp.tool()
            def show_items(name: str) -> list:
                return store.items(name)

            @mcp.tool()
            def add_item(item: dict) -> dict:
                return store.add(item)
        """,
    })
    rows = {t.name: t for t in tools.run(paths, Config()).tools}
    show, add = rows["show_items"], rows["add_item"]
    assert show.calls and all(c.helper == "items" and c.cls == "read-safe" for c in show.calls)
    assert (show.classification, show.source, show.key) == ("read-safe", "inferred", "not-needed")
    assert add.classification not in ("read-safe", "unknown") and add.key == "missing"


def test_a_timeout_set_in_the_kwargs_a_call_unpacks(tmp_path: Path) -> None:
    paths = write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": """
        import requests
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("feeds")
        session = requests.Session()

        def fetch(url, **kwargs):
            kwargs.setdefault("timeout", 30)
            return session.get(url, **kwargs)

        def fetch_any(url, **kwargs):
            kwargs.setdefault("verify", False)
            return session.get(url, **kwargs)

        @mcp.tool()
        def feed(url: str) -> str:
            return fetch(url).text

        @mcp.tool()
        def other(url: str) -> str:
            return fetch_any(url).text
    """})
    rows = {t.name: t for t in tools.run(paths, Config()).tools}
    assert [(c.timeout, c.timeout_value) for c in rows["feed"].calls] == [("value", "30")]
    assert [(c.timeout, c.timeout_value) for c in rows["other"].calls] == [("unknown", None)]


def test_kwargs_built_from_literal_keys_leave_the_clients_default(tmp_path: Path) -> None:
    """arcade-asana: ``client.get(**kwargs)`` on ``httpx.AsyncClient()`` in a client class's method, ``kwargs`` a dict
    of literal keys built there without ``timeout``: httpx's 5 s default, not unknown; a key set in the literal is
    the value; a dict changed otherwise (``update``) or handed in stays unknown."""
    paths = write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": """
        import httpx

        class Client:
            async def get(self, endpoint, params=None):
                kwargs = {"url": "https://app.example/api" + endpoint, "headers": {"Accept": "application/json"}}
                if params:
                    kwargs["params"] = params
                async with httpx.AsyncClient() as client:
                    response = await client.get(**kwargs)
                return response.json()

            async def post(self, endpoint, body):
                kwargs = {"url": "https://app.example/api" + endpoint, "json": body, "timeout": 20}
                async with httpx.AsyncClient() as client:
                    response = await client.post(**kwargs)
                return response.json()

            async def put(self, endpoint, extra):
                kwargs = {"url": "https://app.example/api" + endpoint}
                kwargs.update(extra)
                async with httpx.AsyncClient() as client:
                    response = await client.put(**kwargs)
                return response.json()
    """, "pkg/server.py": """
        from mcp.server.fastmcp import FastMCP
        from .client import Client

        mcp = FastMCP("tags")

        @mcp.tool()
        async def get_tag(tag_id: str) -> dict:
            client = Client()
            return await client.get(f"/tags/{tag_id}")

        @mcp.tool()
        async def add_tag(name: str) -> dict:
            client = Client()
            return await client.post("/tags", {"name": name})

        @mcp.tool()
        async def set_tag(tag_id: str, extra: dict) -> dict:
            client = Client()
            return await client.put(f"/tags/{tag_id}", extra)
    """})
    rows = {t.name: t for t in tools.run(paths, Config()).tools}
    assert [(c.timeout, c.timeout_value) for c in rows["get_tag"].calls] == [("default", "5 seconds")]
    assert [(c.timeout, c.timeout_value) for c in rows["add_tag"].calls] == [("value", "20")]
    assert [(c.timeout, c.timeout_value) for c in rows["set_tag"].calls] == [("unknown", None)]
