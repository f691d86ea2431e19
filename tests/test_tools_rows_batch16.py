"""`smullyan tools` rows (issue 28, session 44; batch 16's rows read column by column): a client a project helper
returns in a tuple (``client, acc = await self._get_session()`` with ``-> tuple[httpx.AsyncClient, dict]``), a status
answered with the status (``typed``), a best-effort step the function goes past (no ``swallowed``), a GraphQL POST
behind a tool whose name says a state set (``like_tweet``, ``update_list``), and a shared request helper's retry
(TFH101) attributed to the tools that hand it a POST only."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

WRITER = """
    import httpx


    class Writer:
        async def _get_session(self) -> tuple[httpx.AsyncClient, dict]:
            return httpx.AsyncClient(timeout=30), {"username": "me"}

        async def _post(self, operation: str, variables: dict) -> dict:
            client, account = await self._get_session()
            try:
                try:
                    txn = await self._transaction_id(operation)
                    client.headers["x-transaction-id"] = txn
                except Exception as e:
                    print(f"no transaction id: {e}")
                resp = await client.post("https://x.example.com/api/" + operation, json=variables)
                if resp.status_code != 200:
                    return {"error": f"HTTP {resp.status_code}", "detail": resp.text, "account": account["username"]}
                return resp.json()
            finally:
                await client.aclose()

        async def _transaction_id(self, operation: str) -> str:
            return operation

        async def like(self, tweet_id: int) -> dict:
            return await self._post("FavoriteTweet", {"tweet_id": tweet_id})

        async def create(self, text: str) -> dict:
            return await self._post("CreateTweet", {"text": text})
"""

SERVER = """
    import json
    from typing import Optional

    from mcp.server.fastmcp import FastMCP

    from .writer import Writer

    mcp = FastMCP("x")
    _writer: Optional[Writer] = None


    def _get_writer() -> Writer:
        global _writer
        if _writer is None:
            _writer = Writer()
        return _writer


    @mcp.tool()
    async def like_tweet(tweet_id: int) -> str:
        writer = _get_writer()
        return json.dumps(await writer.like(tweet_id))


    @mcp.tool()
    async def create_tweet(text: str) -> str:
        writer = _get_writer()
        return json.dumps(await writer.create(text))
"""


def test_a_client_returned_in_a_tuple_is_followed_and_its_status_answer_is_typed(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/writer.py": WRITER, "x/server.py": SERVER})
    like, create = rows["like_tweet"], rows["create_tweet"]
    # the POST is listed (client: the first of the tuple _get_session is annotated to return)
    for row in (like, create):
        assert [(c.what, c.helper) for c in row.calls] == [("POST to 'https://x.example.com/api/{}'", "_post")]
        # the status answered with the status: typed; the transaction id's logged failure is a step the function
        # goes past to the POST (no "swallowed"); the POST's own failure raised into FastMCP's text
        assert sorted(row.failures) == ["text", "typed"]
    # a POST is every GraphQL call's method: ``like`` says a state set twice is set once; ``create`` a new item
    assert (like.classification, like.key) == ("idempotent-write", "not-needed")
    assert (create.classification, create.key) == ("non-idempotent-write", "missing")


def test_a_tuple_without_positions_or_a_count_that_differs_binds_nothing(tmp_path: Path) -> None:
    writer = WRITER.replace("tuple[httpx.AsyncClient, dict]", "tuple[httpx.AsyncClient, ...]")
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/writer.py": writer, "x/server.py": SERVER})
    assert rows["like_tweet"].calls == []


def test_a_status_answer_without_the_status_is_no_typed_failure(tmp_path: Path) -> None:
    writer = WRITER.replace('{"error": f"HTTP {resp.status_code}", "detail": resp.text, "account": account["username"]}',
                            '{"error": "request failed"}')
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/writer.py": writer, "x/server.py": SERVER})
    assert rows["like_tweet"].failures == ["text"]


def test_a_swallowed_step_with_nothing_called_after_it_is_the_tools_answer(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": """
        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        def get_page(url: str) -> str:
            text = ""
            try:
                text = httpx.get(url, timeout=10).text
            except Exception:
                pass
            return text
    """})
    assert rows["get_page"].failures == ["swallowed"]


CLIENT = """
    import time

    import httpx


    class ShopClient:
        def __init__(self) -> None:
            self._http = httpx.Client(timeout=30)

        def request(self, method: str, path: str, json: dict | None = None) -> dict:
            for attempt in range(3):
                try:
                    resp = self._http.request(method, "https://shop.example.com/" + path, json=json)
                except httpx.TransportError:
                    time.sleep(2 ** attempt)
                    continue
                return resp.json()
            raise RuntimeError("exhausted retries")
"""

TOOLS = """
    from .client import ShopClient


    def register(mcp, client: ShopClient) -> None:
        @mcp.tool()
        def shop_get_product(product_id: str) -> dict:
            return client.request("GET", f"products/{product_id}")

        @mcp.tool()
        def shop_delete_product(product_id: str) -> dict:
            before = None
            try:
                before = client.request("GET", f"products/{product_id}")
            except Exception:
                pass
            client.request("DELETE", f"products/{product_id}")
            return {"deleted": product_id, "before": before}

        @mcp.tool()
        def shop_insert_product(product: dict) -> dict:
            return client.request("POST", "products", json=product)
"""


def test_a_shared_request_helpers_write_retry_is_attributed_to_the_tools_handing_it_a_post(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"shop/__init__.py": "", "shop/client.py": CLIENT, "shop/tools.py": TOOLS})
    assert rows["shop_insert_product"].findings.get("TFH101") == 1
    # a GET, or a DELETE (sent twice, it deletes once), repeats safely: the loop's TFH101 is the POSTing tools'
    assert "TFH101" not in rows["shop_get_product"].findings
    assert "TFH101" not in rows["shop_delete_product"].findings
    # the pre-read's swallowed failure is a step the tool goes past to the DELETE, whose failure is raised
    assert "swallowed" not in rows["shop_delete_product"].failures


KEYCLOAK = """
    import time

    import httpx


    class AdminClient:
        def __init__(self) -> None:
            self._http = httpx.Client(timeout=30)

        def _send(self, method: str, path: str, json: dict | None = None) -> httpx.Response:
            for attempt in range(3):
                try:
                    return self._http.request(method, "https://kc.example.com" + path, json=json)
                except httpx.TransportError:
                    time.sleep(2 ** attempt)
            raise RuntimeError("exhausted retries")

        def _get(self, path: str) -> dict:
            return self._send("GET", path).json()

        def _post(self, path: str, json: dict) -> int:
            return self._send("POST", path, json=json).status_code

        def get_session_stats(self) -> list:
            return self._get("/client-session-stats")

        def add_user(self, user: dict) -> int:
            return self._post("/users", user)
"""

KC_SERVER = """
    from mcp.server.fastmcp import FastMCP

    from .client import AdminClient

    mcp = FastMCP("kc")


    def _kc() -> AdminClient:
        return AdminClient()


    @mcp.tool()
    def session_stats() -> str:
        return str(_kc().get_session_stats())


    @mcp.tool()
    def add_user(name: str) -> str:
        return str(_kc().add_user({"username": name}))
"""


def test_the_write_another_caller_hands_a_shared_request_helper_is_not_a_read_tools(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"kc/__init__.py": "", "kc/client.py": KEYCLOAK, "kc/server.py": KC_SERVER})
    stats, add = rows["session_stats"], rows["add_user"]
    # _send's retry re-sends the POST _post asks for (TFH101): add_user's, not session_stats' (its chain sends GET)
    assert add.findings.get("TFH101") == 1 and add.classification == "non-idempotent-write"
    assert "TFH101" not in stats.findings
    assert stats.classification == "read-safe"  # its GET (or its name), not the POST another caller asks for
    assert all(c.cls is None for c in stats.calls)


def test_a_discovery_resources_standard_method_classes_the_call(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"yt/__init__.py": "", "yt/server.py": """
        from googleapiclient.discovery import build
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("yt")


        def _client():
            return build("youtube", "v3", developerKey="k")


        @mcp.tool()
        async def youtube_trending(region: str = "US") -> str:
            youtube = _client()
            return str(youtube.videos().list(part="snippet", chart="mostPopular", regionCode=region).execute())


        @mcp.tool()
        async def youtube_playlist_create(title: str) -> str:
            youtube = _client()
            return str(youtube.playlists().insert(part="snippet", body={"snippet": {"title": title}}).execute())


        @mcp.tool()
        async def youtube_draft_out(draft_id: str) -> str:
            gmail = _client()
            return str(gmail.users().drafts().send(userId="me", body={"id": draft_id}).execute())
    """})
    got = {n: (t.classification, [(c.what, c.cls) for c in t.calls]) for n, t in rows.items()}
    assert got["youtube_trending"] == ("read-safe", [("list().execute", "read-safe")])
    assert got["youtube_playlist_create"] == ("non-idempotent-write", [("insert().execute", "non-idempotent-write")])
    assert got["youtube_draft_out"] == ("unknown", [("send().execute", None)])  # a custom method: unclassified


def test_a_dispatch_tables_runner_answering_text_makes_what_the_tools_raise_text(tmp_path: Path) -> None:
    table = """
        TOOLS = [
            {"name": "read_note", "description": "Read a note.", "input_schema": {"type": "object"}},
            {"name": "drop_note", "description": "Drop a note.", "input_schema": {"type": "object"}},
        ]


        def tool_read_note(path: str) -> str:
            with open(path) as f:
                return f.read()


        def tool_drop_note(path: str) -> str:
            import os
            os.remove(path)
            return "dropped"


        TOOL_FUNCS = {
            "read_note": tool_read_note,
            "drop_note": tool_drop_note,
        }
    """
    runner = """

        def run_tool(name: str, tool_input: dict) -> tuple[str, bool]:
            func = TOOL_FUNCS.get(name)
            if func is None:
                return f"Unknown tool: {name}", True
            try:
                return func(**tool_input), False
            except Exception as e:
                return f"Error running {name}: {e}", True
    """
    rows = tools_by_name(tmp_path, {"notes/__init__.py": "", "notes/tools.py": table + runner})
    for name in ("read_note", "drop_note"):
        assert (rows[name].failures, rows[name].failures_by) == (["text"], "notes.tools.run_tool"), name
    # a runner that lets the failure through (or none) leaves it raised
    rows = tools_by_name(tmp_path / "b", {"notes/__init__.py": "", "notes/tools.py": table + runner.replace(
        'return f"Error running {name}: {e}", True', "raise")})
    assert rows["read_note"].failures == ["raised"]
