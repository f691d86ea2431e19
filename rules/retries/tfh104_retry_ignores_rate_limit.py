"""TFH104 retry-ignores-rate-limit."""

from __future__ import annotations

import libcst as cst

from typing import TYPE_CHECKING, Sequence, Union

from . import status_loops
from .base import RetryRule
from .model import Condition, RetryModel
from .screen import screen_lines

if TYPE_CHECKING:
    from ...linter.api import Knowledge, Screen

class RetryIgnoresRateLimit(RetryRule):
    code = "TFH104"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "retry-ignores-rate-limit"
    summary = "A retry retries server errors but never a 429."
    message = "{what}, so a 429 (rate limited) is never retried: retry 429 too, and wait as long as its Retry-After says"
    docs = """\
## What it does
Finds a literal retry condition that lists 5xx statuses (500/502/503/504, or
a test such as `status >= 500`) but not 429, and a status test in a retry
that treats the whole 4xx range as permanent (`400 <= status < 500`,
`status // 100 == 4`, as backoff's `giveup=` or as `if ...: raise` in a
hand-written retry loop; also the range an earlier test leaves to it: `if
status < 400: return`, then `if status < 500 or attempt > n: return`) so a
429 is never retried, and a hand-written loop
whose `if` on a 5xx status (`status >= 500`) ends in `continue` while
nothing in the loop names 429. Silent when the same
condition also names a rate-limit exception (`RateLimitError`,
`TooManyRequests`), and for urllib3 `Retry`, which retries a 429 that carries
`Retry-After` on its own (unless `respect_retry_after_header=False`).

## Why is this bad?
429 is the most transient failure there is: the server says exactly when to
come back. An agent that gives up on it fails a task that would have worked a
second later, and one that classifies it as permanent never learns to slow down.

## Example
```python
from tenacity import retry, retry_if_result, stop_after_attempt, wait_exponential_jitter
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (500, 502, 503, 504)), stop=stop_after_attempt(4),
       wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url)
```

## Use instead
```python
from tenacity import retry, retry_if_result, stop_after_attempt, wait_exponential_jitter
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (429, 500, 502, 503, 504)), stop=stop_after_attempt(4),
       wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url)
```

## How to suppress
`# noqa: TFH104` on the reported line (say where 429 is handled instead).
"""
    VALID = [
        # s38: the same shape that goes round on 429 before giving up on the other 4xx
        """\
import time, requests
def deliver(url, body, max_retries=3):
    for attempt in range(1, max_retries + 1):
        try:
            resp = requests.post(url, data=body, timeout=10)
            if resp.status_code < 400:
                return True
            if resp.status_code == 429 and attempt < max_retries:
                time.sleep(float(resp.headers.get("Retry-After", 2 ** attempt)))
                continue
            if resp.status_code < 500 or attempt == max_retries:
                return False
        except requests.ConnectionError:
            pass
        time.sleep(2 ** attempt)
    return False
""",
        """\
from tenacity import retry, retry_if_result, stop_after_attempt
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (429, 500, 502, 503, 504)), stop=stop_after_attempt(4))
def fetch(url):
    return httpx.get(url)
""",
        # urllib3 honours Retry-After on 429 by itself
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

s = requests.Session()
s.mount("https://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[500, 502, 503, 504])))
""",
        """\
import backoff, requests

@backoff.on_exception(backoff.expo, requests.HTTPError, giveup=lambda e: e.response.status_code < 500 and e.response.status_code != 429, max_tries=3)
def fetch(url):
    return requests.get(url, timeout=5)
""",
        # a rate-limit exception is retried alongside
        """\
import openai
from tenacity import retry, retry_if_exception_type, retry_if_result, stop_after_attempt

@retry(retry=retry_if_exception_type(openai.RateLimitError) | retry_if_result(lambda r: r.status >= 500), stop=stop_after_attempt(3))
def ask(client):
    return client.get("/x")
""",
        # statuses held in a variable
        """\
from tenacity import retry, retry_if_result, stop_after_attempt

CODES = load()

@retry(retry=retry_if_result(lambda r: r.status_code in CODES), stop=stop_after_attempt(3))
def fetch(client):
    return client.get("/x")
""",
        # a hand loop that handles 429 before the 4xx test
        """\
import time, requests

def fetch(url):
    for attempt in range(5):
        try:
            r = requests.get(url, timeout=5)
            if r.status_code == 429:
                time.sleep(int(r.headers.get("Retry-After", "1")))
                continue
            if 400 <= r.status_code < 500:
                raise ValueError(r.text)
            return r
        except requests.ConnectionError:
            time.sleep(attempt)
""",
        """\
import stamina, httpx

def transient(exc):
    return isinstance(exc, httpx.HTTPStatusError) and (exc.response.status_code >= 500 or exc.response.status_code == 429)

@stamina.retry(on=transient, attempts=3)
def fetch(url):
    return httpx.get(url)
""",
        # a 4xx test outside any retry is not this rule's business
        """\
def is_client_error(status):
    return 400 <= status < 500
""",
        """\
from tenacity import retry, retry_if_exception_type, stop_after_attempt
import httpx

@retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(3))
def fetch(url):
    return httpx.get(url)
""",
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3 import Retry

a = HTTPAdapter(max_retries=Retry(total=5, status_forcelist=(429, 502, 503), backoff_factor=1))
""",
        # found in real code: the 4xx test is an elif after a branch that retries 429 (a constant set)
        """\
import time, requests

RETRYABLE = {408, 429}

def send(url, body):
    for attempt in range(3):
        try:
            r = requests.get(url, timeout=5)
            if r.status_code in RETRYABLE:
                time.sleep(1)
            elif 400 <= r.status_code < 500:
                break
            else:
                return r
        except requests.ConnectionError:
            time.sleep(1)
""",
        # s35 post: a status loop that handles 429 on its own branch
        """\
import time, requests

def search(session, url):
    for attempt in range(3):
        r = session.get(url, timeout=30)
        if r.status_code == 429:
            time.sleep(float(r.headers.get("Retry-After", 5)))
            continue
        if r.status_code >= 500:
            time.sleep(attempt + 1)
            continue
        return r.raise_for_status()
""",
    ]
    INVALID = [
        # s38: in the handler of a status error, `< 500` is the whole 4xx range: the caught error's status is >= 400
        """\
import asyncio
import httpx
async def embed(client, text):
    for attempt in range(3):
        try:
            r = await client.post("/embeddings", json={"input": text})
            r.raise_for_status()
            return r.json()["data"][0]["embedding"]
        except httpx.HTTPStatusError as e:
            if e.response is not None and e.response.status_code < 500:  # error: TFH104
                break
            await asyncio.sleep(1 + attempt)
        except Exception:
            await asyncio.sleep(1 + attempt)
    return None
""",
        # s38: the success test leaves the 2xx/3xx, so the give-up test that follows takes every 4xx
        """\
import time, requests
def deliver(url, body, max_retries=3):
    for attempt in range(1, max_retries + 1):
        try:
            resp = requests.post(url, data=body, timeout=10)
            if resp.status_code < 400:
                return True
            if resp.status_code < 500 or attempt == max_retries:  # error: TFH104 "every 4xx"
                return False
        except requests.ConnectionError:
            pass
        time.sleep(2 ** attempt)
    return False
""",
        # s35 post: a hand-written loop that goes round on a 5xx test only
        """\
import time, requests

def search(session, url):
    for attempt in range(3):
        r = session.get(url, timeout=30)
        if r.status_code == 200:
            return r
        if r.status_code >= 500 and attempt < 2:  # error: TFH104 "this status test retries 500/502/503/504 but not 429"
            time.sleep(attempt + 1)
            continue
        r.raise_for_status()
""",
        """\
import asyncio, httpx

async def call(client, method, url):
    for attempt, delay in enumerate([0.5, 1, 2]):
        try:
            response = await client.request(method, url)
            response.raise_for_status()
            return response
        except httpx.HTTPStatusError as e:
            if e.response.status_code >= 500:  # error: TFH104
                await asyncio.sleep(delay)
                continue
            raise
""",
        """\
from tenacity import retry, retry_if_result, stop_after_attempt
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (500, 502, 503, 504)), stop=stop_after_attempt(4))  # error: TFH104
def fetch(url):
    return httpx.get(url)
""",
        """\
import tenacity as t

@t.retry(retry=t.retry_if_result(lambda r: r.status >= 500), stop=t.stop_after_attempt(3))  # error: TFH104
async def fetch(session, url):
    return await session.get(url)
""",
        """\
import backoff, requests

@backoff.on_exception(backoff.expo, requests.HTTPError, giveup=lambda e: 400 <= e.response.status_code < 500, max_tries=3)  # error: TFH104
def fetch(url):
    return requests.get(url, timeout=5)
""",
        """\
import backoff, requests

@backoff.on_exception(backoff.expo, requests.HTTPError, giveup=lambda e: e.response.status_code // 100 == 4, max_tries=3)  # error: TFH104
def fetch(url):
    return requests.get(url, timeout=5)
""",
        # urllib3 told not to honour Retry-After
        """\
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

a = HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[502, 503], respect_retry_after_header=False))  # error: TFH104
""",
        """\
import time, requests

def fetch(url):
    for attempt in range(5):
        try:
            r = requests.get(url, timeout=5)
            if 400 <= r.status_code < 500:  # error: TFH104
                raise ValueError(r.text)
            return r
        except requests.ConnectionError:
            time.sleep(attempt)
""",
        """\
import asyncio, aiohttp

async def fetch(session, url):
    while True:
        try:
            async with session.get(url) as r:
                if r.status // 100 == 4:  # error: TFH104
                    return None
                return await r.json()
        except aiohttp.ClientError:
            await asyncio.sleep(1)
""",
        # a small same-module predicate
        """\
from tenacity import retry, retry_if_result, stop_after_attempt

def server_error(resp):
    return resp.status_code in {500, 502, 503}

@retry(retry=retry_if_result(server_error), stop=stop_after_attempt(3))  # error: TFH104
def fetch(client, url):
    return client.get(url)
""",
        """\
import stamina, httpx

def transient(exc):
    return isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code >= 500

@stamina.retry(on=transient, attempts=3)  # error: TFH104
def fetch(url):
    return httpx.get(url)
""",
        """\
import httpx
from tenacity import retry, retry_if_exception, stop_after_attempt

@retry(retry=retry_if_exception(lambda e: isinstance(e, httpx.HTTPStatusError) and str(e.response.status_code).startswith("5")), stop=stop_after_attempt(3))  # error: TFH104
def fetch(url):
    return httpx.get(url).raise_for_status()
""",
        """\
import requests
from tenacity import retry_if_result, Retrying, stop_after_attempt

def fetch(url):
    for attempt in Retrying(retry=retry_if_result(lambda r: r.status_code == 503), stop=stop_after_attempt(3)):  # error: TFH104
        with attempt:
            return requests.get(url, timeout=5)
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: "Screen", knowledge: "Knowledge") -> Sequence[int]:
        # s35 post: also the loops that go round on a 5xx status test (no retry construct of their own)
        return [*screen_lines(screen, knowledge)[0], *status_loops.candidate_lines(screen)]

    def visit_For(self, node: cst.For) -> None:
        self._status_loops().append(node)

    def visit_While(self, node: cst.While) -> None:
        self._status_loops().append(node)

    def _status_loops(self) -> list[Union[cst.For, cst.While]]:
        found: list[Union[cst.For, cst.While]] = self.__dict__.setdefault("_loops", [])
        return found

    def check(self, model: RetryModel) -> None:
        modelled = {id(r.anchor) for r in model.retries if isinstance(r.condition, Condition)}
        for loop in self._status_loops():
            if id(loop) in modelled:
                continue  # its condition is read below
            for test, fives in status_loops.five_xx_only_tests(loop):
                self.report(test, what="this status test retries " + "/".join(map(str, fives)) + " but not 429")
        for retry in model.retries:
            cond = retry.condition
            if retry.kind == "own-decorator" or not isinstance(cond, Condition):
                continue
            if any(w in t.lower().replace("_", "") for t in cond.exceptions for w in self.knowledge.rate_limit_words):
                continue
            if cond.permanent_4xx is not None:
                self.report(cond.permanent_4xx, what="this status test treats every 4xx, 429 included, as permanent")
                continue
            statuses = cond.statuses
            if not statuses or self.knowledge.rate_limit_status in statuses:
                continue
            fives = sorted(statuses & self.knowledge.server_error_statuses)
            if not fives or (retry.kind in self.knowledge.retries_429_implicitly and retry.honours_retry_after):
                continue
            where: cst.CSTNode = cond.node if cond.node is not None else retry.anchor
            self.report(where, what="the retry condition retries " + "/".join(map(str, fives)) + " but not 429")
