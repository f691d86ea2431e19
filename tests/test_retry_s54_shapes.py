"""Session 54 (issue 23, batch 26's retry rows): an attempt count that is one unless a local name or a method test
says the request is safe to repeat; a verb chosen by ``getattr`` bound with an annotation, and a call turning the
retry off with ``retries=0``. Each silence beside the shape that keeps its finding."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def findings(src: str) -> list[tuple[str, str]]:
    cfg = Config.default().only("TFH101")
    return [(f.code, f.message) for f in lint_source(textwrap.dedent(src), "mod.py", cfg)]


COUNTED = '''\
import asyncio, httpx
class Client:
    def __init__(self):
        self._http = httpx.AsyncClient(timeout=10)
    async def request(self, method, path, *, json=None, idempotent=False):
        {bind}
        attempts = {count}
        for attempt in range(1, attempts + 1):
            try:
                resp = await self._http.request(method, path, json=json)
            except httpx.TransportError:
                if attempt < attempts:
                    await asyncio.sleep(0.2)
                    continue
                raise
            if resp.status_code in (502, 503) and attempt < attempts:
                await asyncio.sleep(0.5)
                continue
            return resp.json()
    async def create(self, body):
        return await self.request("POST", "/items", json=body)
'''


def test_a_count_of_one_unless_a_local_name_says_safe() -> None:
    assert findings(COUNTED.format(bind='safe = idempotent or method == "GET"', count="2 if safe else 1")) == []


def test_a_count_of_one_unless_the_method_is_safe() -> None:
    assert findings(COUNTED.format(bind="pass", count='3 if method == "GET" else 1')) == []
    assert findings(COUNTED.format(bind="pass", count='3 if method.upper() in ("GET", "HEAD") else 1')) == []
    assert findings(COUNTED.format(bind="pass", count="3 if method in READ_ONLY_METHODS else 1")) == []


def test_a_count_whose_test_lets_a_write_through_keeps_the_finding() -> None:
    # a local name bound to something that is not a safety test, POST among the methods, a name with no safety word
    assert [c for c, _ in findings(COUNTED.format(bind='safe = method == "GET" or big', count="2 if safe else 1"))] == ["TFH101"]
    assert [c for c, _ in findings(COUNTED.format(bind="pass", count='3 if method in ("GET", "POST") else 1'))] == ["TFH101"]
    assert [c for c, _ in findings(COUNTED.format(bind="pass", count="3 if method in METHODS else 1"))] == ["TFH101"]
    assert [c for c, _ in findings(COUNTED.format(bind="pass", count="3"))] == ["TFH101"]


GETATTR = '''\
import asyncio, httpx
from typing import Any, Callable
class Gateway:
    def __init__(self):
        self._session = httpx.AsyncClient(timeout=30)
    async def _request(self, method, endpoint, json=None, retries: int = 3):
        send: Callable[..., Any] = getattr(self._session, method.lower())
        attempt = 0
        while True:
            try:
                resp = await send(endpoint, json=json)
                resp.raise_for_status()
                return resp.json()
            except httpx.TimeoutException:
                if attempt == retries:
                    raise
                attempt += 1
                await asyncio.sleep(2 ** attempt)
    async def create(self, payload):
        return await self._request("POST", "sandboxes", json=payload{extra})
'''


def test_an_annotated_getattr_binding_sends_the_callers_post() -> None:
    assert [c for c, _ in findings(GETATTR.format(extra=""))] == ["TFH101"]


def test_a_call_giving_the_retry_count_zero_opts_out() -> None:
    assert findings(GETATTR.format(extra=", retries=0")) == []
    assert [c for c, _ in findings(GETATTR.format(extra=", retries=1"))] == ["TFH101"]
