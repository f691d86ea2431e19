"""`smullyan tools` rows (issue 28, session 45; batch 17's rows read column by column): a runner of the run that
answers what every tool raises with text (a base ``run``, a registry's ``execute_tool``) shows in each tool's failures
(``text``, ``failures_by``) and in its findings (the runner's TFH401) and retry columns alike."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

BASE = """
    import time


    class BaseTool:
        \"\"\"Base class for the tools the agent calls.\"\"\"

        name = "base"

        def run(self, **kwargs):
            for attempt in range(3):
                try:
                    return self._run(**kwargs)
                except ConnectionError:
                    time.sleep(2 ** attempt)
                except Exception as e:
                    return f"Error: {e}"
            return "gave up"

        def _run(self, **kwargs):
            raise NotImplementedError
"""

TOOLS = """
    import httpx

    from .base import BaseTool


    class Fetch(BaseTool):
        name = "fetch"

        def _run(self, url):
            return httpx.get(url, timeout=10).text


    class Store(BaseTool):
        name = "store"

        def _run(self, url, body):
            try:
                return httpx.put(url, json=body, timeout=10).text
            except httpx.HTTPError:
                return "not stored"
"""


def test_a_runner_answering_text_gives_each_tool_it_runs_its_findings_and_retries(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/base.py": BASE, "x/tools.py": TOOLS})
    fetch, store = rows["fetch"], rows["store"]
    # what fetch raises reaches the model as the runner's text: the runner's TFH401 is the row's, and so is its retry
    assert fetch.failures == ["text"] and fetch.failures_by == "x.base.BaseTool.run"
    assert fetch.findings.get("TFH401") == 1
    assert fetch.retries
    # store answers its own HTTP failures: what is left to raise still reaches the runner
    assert "fallback" in store.failures


def test_a_tool_whose_failures_the_runner_never_sees_keeps_its_own_findings(tmp_path: Path) -> None:
    tools = TOOLS.replace("return httpx.get(url, timeout=10).text",
                          "try:\n                return httpx.get(url, timeout=10).text\n"
                          "            except Exception:\n                return None")
    base = BASE.replace("class BaseTool:", "class BaseTool:  # noqa")
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/base.py": base, "x/tools.py": tools})
    fetch = rows["fetch"]
    assert fetch.failures_by is None and "TFH401" not in fetch.findings


def test_sdk_clients_built_from_known_constructors_are_calls_out(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/server.py": """
        from dataclasses import dataclass

        from aiogram import Bot
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        bot = Bot(token="t")


        @dataclass
        class Ctx:
            bot: Bot


        @mcp.tool()
        def web_search(q: str) -> list:
            from ddgs import DDGS
            with DDGS() as ddgs:
                return list(ddgs.text(q, max_results=5))


        @mcp.tool()
        async def send_photo(chat_id: int, url: str) -> str:
            m = await bot.send_photo(chat_id=chat_id, photo=url)
            return str(m.message_id)


        def register(mcp: FastMCP, ctx: Ctx) -> None:
            @mcp.tool()
            async def post_document(chat_id: int, url: str) -> str:
                m = await ctx.bot.send_document(chat_id=chat_id, document=url)
                return str(m.message_id)
    """, "x/media.py": """
        from aiogram.exceptions import TelegramBadRequest
        from fastmcp import FastMCP

        from .context import BotContext


        def register_media(mcp: FastMCP, ctx: BotContext) -> None:
            @mcp.tool
            async def post_voice(chat_id: int, url: str) -> str:
                try:
                    m = await ctx.bot.send_voice(chat_id=chat_id, voice=url)
                except TelegramBadRequest as exc:
                    return f"failed: {exc}"
                return str(m.message_id)
    """, "x/context.py": """
        from dataclasses import dataclass

        from aiogram import Bot


        @dataclass
        class BotContext:
            bot: Bot
    """})
    # DuckDuckGo's client: a search, read-safe
    assert [(c.what, c.cls) for c in rows["web_search"].calls] == [("DDGS.text", "read-safe")]
    assert rows["web_search"].classification == "read-safe"
    # aiogram's Bot, built here or a field of a context another function is handed: the Bot API's send posts a message
    assert [(c.what, c.cls) for c in rows["send_photo"].calls] == [("Bot.send_photo", "non-idempotent-write")]
    doc = rows["post_document"]
    assert [c.what for c in doc.calls] == ["ctx.bot.send_document()"]
    assert (doc.classification, doc.key) == ("non-idempotent-write", "missing")
    # the context's class in another module of the run (the receiver typed as the project's own): read by the method
    assert [c.what for c in rows["post_voice"].calls] == ["ctx.bot.send_voice()"]


CLIENT = """
    import asyncio

    import httpx


    class Client:
        def __init__(self, token: str) -> None:
            self._http = httpx.AsyncClient(timeout=30)

        async def request(self, method: str, path: str, json: dict | None = None) -> dict:
            for attempt in range(4):
                try:
                    resp = await self._http.request(method, "https://api.example.com" + path, json=json)
                except httpx.TransportError:
                    await asyncio.sleep(1.5 * (attempt + 1))
                    continue
                return resp.json()
            raise RuntimeError("gave up")

        async def get(self, path: str) -> dict:
            return await self.request("GET", path)

        async def post(self, path: str, body: dict) -> dict:
            return await self.request("POST", path, json=body)
"""

SENDERS = """
    from mcp.server.fastmcp import FastMCP

    from .client import Client

    mcp = FastMCP("x")
    client = Client("t")


    @mcp.tool()
    async def show_action(action_id: int) -> dict:
        return await client.get(f"/actions/{action_id}")


    @mcp.tool()
    async def power_on(server_id: int) -> dict:
        return await client.post(f"/servers/{server_id}/actions/poweron", {})
"""


def test_a_request_helpers_method_is_the_one_each_tool_hands_it(tmp_path: Path) -> None:
    rows = tools_by_name(tmp_path, {"x/__init__.py": "", "x/client.py": CLIENT, "x/tools.py": SENDERS})
    show, power = rows["show_action"], rows["power_on"]
    # the helper's retry loop lists the POST another tool asks for (TFH101's reading): a read lists the GET it hands it
    assert [(c.what, c.cls) for c in show.calls] == [("GET through httpx.AsyncClient.request", "read-safe")]
    assert any(c.what.startswith("POST through httpx.AsyncClient.request") for c in power.calls)
    assert power.classification == "non-idempotent-write"
