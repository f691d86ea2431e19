"""Session 55 (issue 23, batch 27 dashtro): a retry wrapper handed the callable it retries (``_retry_async(func,
*args)`` looping around ``await func(*args)``): what the module's calls hand it is the retried work -- a def nested in
the caller, a module function, a lambda, a ``partial``, a method of the same class. Each beside the silence it keeps."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def findings(src: str) -> list[tuple[int, str]]:
    cfg = Config.default().only("TFH101")
    return [(f.line, f.message) for f in lint_source(textwrap.dedent(src), "mod.py", cfg)]


WRAPPER = '''\
import asyncio, functools, httpx

async def _retry_async(func, *args, max_retries=3, **kwargs):
    for attempt in range(max_retries + 1):
        try:
            return await func(*args, **kwargs)
        except (httpx.TimeoutException, httpx.NetworkError):
            if attempt == max_retries:
                raise
        await asyncio.sleep(2 ** attempt)

async def _create(url, body):
    async with httpx.AsyncClient(timeout=30) as client:
        return (await client.post(url, json=body)).json()

async def _read(url):
    async with httpx.AsyncClient(timeout=30) as client:
        return (await client.get(url)).json()

{caller}
'''


def test_a_nested_def_handed_to_the_wrapper_is_its_work() -> None:
    caller = """\
async def create(url, body):
    async def _do_request():
        async with httpx.AsyncClient(timeout=30) as client:
            return (await client.post(url, json=body)).json()
    return await _retry_async(_do_request)
"""
    found = findings(WRAPPER.format(caller=caller))
    assert [line for line, _ in found] == [4]
    assert "in _do_request()" in found[0][1]


def test_a_module_function_a_lambda_or_a_partial_handed_over() -> None:
    for caller in (
        "async def create(url, body):\n    return await _retry_async(_create, url, body)\n",
        "async def create(url, body):\n    return await _retry_async(lambda: _create(url, body))\n",
        "async def create(url, body):\n    return await _retry_async(functools.partial(_create, url, body))\n",
        "async def create(url, body):\n    return await _retry_async(func=_create)\n",
    ):
        assert [line for line, _ in findings(WRAPPER.format(caller=caller))] == [4], caller


def test_a_read_handed_to_the_wrapper_is_not_reported() -> None:
    caller = "async def read(url):\n    return await _retry_async(_read, url)\n"
    assert findings(WRAPPER.format(caller=caller)) == []
    # a wrapper nothing in the module calls: its work is unknown, nothing to say
    assert findings(WRAPPER.format(caller="")) == []


def test_a_method_handed_to_the_class_retry_wrapper() -> None:
    src = '''\
    import time, requests

    class Client:
        def _with_retry(self, fn, *args):
            for attempt in range(3):
                try:
                    return fn(*args)
                except requests.Timeout:
                    time.sleep(1)
            raise RuntimeError("gave up")

        def _create(self, body):
            return requests.post("https://api.example/items", json=body, timeout=10)

        def _list(self):
            return requests.get("https://api.example/items", timeout=10)

        def create(self, body):
            return self._with_retry(self._create, body)

        def items(self):
            return self._with_retry(self._list)
    '''
    assert [line for line, _ in findings(src)] == [5]
    assert findings(src.replace("self._with_retry(self._create, body)", "self._create(body)")) == []


def test_a_wrapper_that_retries_only_when_the_call_asks() -> None:
    # s55 (ankaloop `_bot_api_call`): `attempts = 2 if retry else 1`; the POSTs leave `retry` at False
    src = '''\
    import asyncio, httpx

    async def _call(factory, *, retry=False):
        attempts = 2 if retry else 1
        for attempt in range(attempts):
            try:
                return await factory()
            except httpx.TransportError:
                if attempt + 1 >= attempts:
                    raise
            await asyncio.sleep(1)

    async def send(client: httpx.AsyncClient, url, body):
        return await _call(lambda: client.post(url, json=body))

    async def poll(client: httpx.AsyncClient, url):
        return await _call(lambda: client.get(url), retry=True)
    '''
    assert findings(src) == []
    assert [line for line, _ in findings(src.replace("json=body))", "json=body), retry=True)"))] == [5]
