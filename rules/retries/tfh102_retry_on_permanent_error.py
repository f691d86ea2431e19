"""TFH102 retry-on-permanent-error."""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, dotted, last_name, lexical_children
from . import handlers, paths, repairs
from .base import RetryRule
from .data import Loop
from .loops import _narrows
from .model import Condition, Retry, RetryModel
from .paths import is_sleep
from .success_status import raised_on_error_status, success_status_exit


def _reprompts(retry: Retry, knowledge: Knowledge) -> bool:
    """The retried work asks a model or a person again: a parse error there can go away."""
    for name in retry.calls:
        words = set(name.lower().strip("_").split("_"))
        if words & knowledge.reprompt_call_words:
            return True
    return False


_RECONNECT_WORDS = ("reconnect", "reopen", "restart", "recreate", "reinit")


def _reconnects(retry: Retry, bad: list[str]) -> bool:
    """Each handler that catches one of ``bad`` sets up again what the attempt reads before going round
    (``await self._reconnect()``): a desynced stream's ``ValueError`` is not the same failure on a fresh
    connection (s35, ``desync-reconnect``)."""
    loop = retry.loop
    if loop is None:
        return False
    names = {b.rsplit(".", 1)[-1] for b in bad}
    catching = [h for h in loop.handlers if h.type is not None and names & _type_names(h.type)]
    return bool(catching) and all(_calls_word(h.body, _RECONNECT_WORDS) for h in catching)


def _type_names(node: cst.BaseExpression) -> set[str]:
    elements = [e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List)) else [node]
    return {e.value if isinstance(e, cst.Name) else e.attr.value for e in elements if isinstance(e, (cst.Name, cst.Attribute))}


def _calls_word(node: cst.CSTNode, words: tuple[str, ...]) -> bool:
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            last = last_name(n.func) or ""
            if any(w in last.lower() for w in words):
                return True
        stack.extend(lexical_children(n))
    return False


def _blind_status_handler(
    retry: Retry, model: RetryModel, status_types: list[str], sdk_raised: frozenset[str] = frozenset(),
    bases: frozenset[str] = frozenset(),
) -> cst.ExceptHandler | None:
    """A hand loop's handler that catches a status error the attempt raises (``raise_for_status()`` in it,
    or an SDK's own base status error, ``sdk_raised``: s37) and goes round without deciding on the status
    (it may read it for a message: ``"Access forbidden" if e.response.status_code == 403 else ...``): a
    401/403/404 is retried like a 503 (s35)."""
    loop = retry.loop
    if loop is None:
        return None
    if "raise_for_status" not in retry.calls:
        status_types = [t for t in status_types if t in sdk_raised or t in bases]
    for handler in loop.handlers:
        if handler.type is not None and set(model.exception_names(handler.type) or ()) & set(status_types):
            return None if _narrows(handler) or _tests_status(handler) else handler
    return None


def _raised_status_bases(retry: Retry, exceptions: tuple[str, ...], knowledge: Knowledge) -> list[str]:
    """s38 (issue 23, ``base-catches-status-error``): the caught bases of a status error the attempt
    raises (``except aiohttp.ClientError`` around ``resp.raise_for_status()`` on an aiohttp response,
    or around ``raise aiohttp.ClientResponseError(...)``): the base catches the 401 with the 503."""
    if retry.loop is None or not paths.leaves_on_success(retry.loop):
        return []  # no exit on success: a readiness poll that runs its rounds out, not a retry of a request
    if "head" in retry.calls:
        return []  # a HEAD asks whether something exists yet: its 404 is the "not yet" a poll waits out
    libraries = {qn.split(".", 1)[0] for qn in retry.qualnames if qn in knowledge.status_error_exceptions}
    if "raise_for_status" in retry.calls:
        libraries |= {qn.split(".", 1)[0] for qn in retry.qualnames}
    return [t for t in exceptions if knowledge.status_error_bases.get(t) in libraries]


# builtin errors of reading a reply that is not complete yet (no field, no item, no JSON)
_NOT_READY_YET = frozenset({"KeyError", "IndexError", "ValueError"})


def _deadline_poll(loop: Loop) -> bool:
    """s36: ``while time.time() - start < timeout:`` (the loop's own test reads the clock or a deadline)
    and every handler that goes round waits: a poll of something that changes with time (a server
    starting), not a count of attempts at the same failure."""
    if not isinstance(loop.node, cst.While) or not _reads_time(loop.node.test):
        return False
    going = [h for h in loop.handlers if h.type is not None]
    return bool(going) and all(any(is_sleep(n) for n in _walk_nodes(h.body)) for h in going)


def _reads_time(test: cst.BaseExpression) -> bool:
    for n in _walk_nodes(test):
        name = dotted(n) if isinstance(n, (cst.Name, cst.Attribute)) else None
        if name and any(w in name.rsplit(".", 1)[-1].lower() for w in ("time", "monotonic", "deadline", "elapsed", "clock")):
            return True
    return False


def _tests_status(handler: cst.ExceptHandler) -> bool:
    """An ``if`` in the handler tests a status (``response.status_code not in {429, 503}``, the response
    kept from the attempt) and leaves or raises under it: the handler decides on the status."""
    for n in _walk_nodes(handler.body):
        if isinstance(n, cst.If) and any(
            isinstance(a, cst.Attribute) and a.attr.value in ("status_code", "status") for a in _walk_nodes(n.test)
        ):
            if any(isinstance(m, (cst.Raise, cst.Return, cst.Break)) for m in _walk_nodes(n)):
                return True
    return False


def _walk_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(lexical_children(n))
    return out


class RetryOnPermanentError(RetryRule):
    code = "TFH102"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "retry-on-permanent-error"
    summary = "A retry condition includes failures that retrying cannot fix."
    message = "the retry condition includes {what}, which fails the same way every time: {advice}"
    docs = """\
## What it does
Finds a literal retry condition that includes a permanent failure: an HTTP
status 400, 401, 403, 404, 405, 409, 410 or 422 (in a status list, in a
status predicate written as a lambda or a small function of the same module,
or in a range test such as `status >= 400` that retries 4xx other than
408/425/429); the runtime's `InvalidArgs`/`Denied` tags; the exception types
`ValueError`, `TypeError`, `KeyError`, `PermissionError` (and the OpenAI and
Anthropic SDKs' 400/401/403/404/422 errors; a class named through the SDK's
private module, `openai._exceptions.APIStatusError`, is its public one). The exception types are read only
when the retried work is in the file and asks no model or person again
(an LLM call whose answer did not parse may well parse next time). A condition
held in a variable is not read. `PermissionError` is not permanent around a
local file operation (`open`, `os.replace`, `os.rename`, `os.remove`, a method
named `remove`/`unlink`/`rename`/`rmtree`/`rmdir` of any object,
`shutil.move`, ...): on Windows another process (an editor, an antivirus
scanner) holding the file a moment raises it, and a short retry is the cure.
Nor is a hand loop whose attempt works in memory (builtins and in-memory
standard-library calls only) and draws a fresh value each time (a clock read,
a uuid, a random number): `heapq.heappush(q, (prio, time.perf_counter_ns(),
item))` retried on the `TypeError` of a tie is a different push each time.
Nor one whose attempt only parses, in memory, a value the loop binds afresh
outside the `try` each round (a model's answer fetched before it; `value =
decoded` after it, peeling nested envelopes): the next round parses a new
value. In memory includes a method of a parameter annotated as a builtin
value (`choices: Sequence[str]`, then `choices.index(answer)`). Nor a builtin error (`ValueError`) caught by a handler that sets up
again what the attempt reads before going round (`await self._reconnect()`):
a desynced stream's `ValueError` does not recur on a fresh connection; an
SDK's 400/401 still does, and is still reported. Nor a type caught by a
handler that changes what the next attempt reads (`except TypeError: payload
= plain_payload`, a smaller context, another file name): the next attempt is
different work, a fallback rather than the same failure repeated. Nor (s53)
one a loop of two rounds catches by name and repairs before its one more
attempt (`except PermissionError: if attempt == 1 and
_restore_execute_bit(program): continue`, TFH303's repair-once): the cause
is answered. Nor one
whose handler makes by a call of its own the value the attempt stores and
the rest of the iteration reads it (`try: page = api.get_assets(only_active=False)`,
`except TypeError: page = api.get_assets()`): the failed call is not made
again, the loop goes on (a page loop to its next page). Nor a
`KeyError`/`IndexError`/`ValueError` in a `while` loop whose test reads the
clock (`while time.time() - start < timeout:`) with every handler waiting: a
poll until a server is up, where a missing field means "not ready yet". Click's
errors of a command's own use (`click.ClickException`, `UsageError`,
`BadParameter`, ...) are permanent. A status error alone
(`requests.HTTPError`, httpx `HTTPStatusError`) is raised for a 401 or a 404
as for a 503: a hand loop whose handler catches it from a `raise_for_status()`
in the attempt and goes round without testing the status is reported at the
handler; one that tests it (`if e.response.status_code < 500: raise`) is not.
So is an SDK's base error, which the SDK raises itself for every error status
(OpenAI's and Anthropic's `APIError`/`APIStatusError`, google-api-core's
`GoogleAPIError`, mistralai's `SDKError`, the standard library's XML-RPC
`ProtocolError`), caught by a hand loop that goes round without testing the
status. Also a hand loop whose attempt raises its own exception for every
error status (`if r.status_code >= 400: raise RuntimeError(...)`, `!= 200`)
and catches that class, and one that leaves only on a 2xx (`if status ==
201: return`) around a request with nothing that tells a 4xx from a 5xx:
either way a 401 goes round like a 503.

## Why is this bad?
A 401 stays a 401 and a `TypeError` stays a `TypeError`: retrying multiplies
the load, delays the error by the whole backoff schedule, and can lock an
account (repeated 401s) or hit a rate limit that then hides the real cause.

## Example
```python
from tenacity import retry, retry_if_result, stop_after_attempt, wait_exponential_jitter
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (404, 429, 500, 502, 503)), stop=stop_after_attempt(4),
       wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url)
```

## Use instead
```python
from tenacity import retry, retry_if_result, stop_after_attempt, wait_exponential_jitter
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (429, 500, 502, 503)), stop=stop_after_attempt(4),
       wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url)
```

## How to suppress
`# noqa: TFH102` on the reported line (say which permanent failure is in
fact transient for this service, e.g. a 404 during eventual consistency).
"""
    VALID = [
        # s53 (batch 25 runinfra-cli): the PermissionError is repaired (the execute bit restored) before the one more attempt
        """\
import os
from typing import NoReturn
def _fail(program) -> NoReturn:
    raise SystemExit(f"cannot run {program}")
def launch(program, argv, restore_execute_bit):
    for attempt in (1, 2):
        try:
            os.execv(program, argv)
        except PermissionError:
            if attempt == 1 and restore_execute_bit(program):
                continue
            _fail(program)
        except OSError:
            _fail(program)
""",
        # s40: a health poll until a local server answers 200 waits for "ready"; a span export that tells the
        # statuses apart through a named set
        """\
import time
import requests
NON_RETRYABLE = {400, 401, 403, 404}
def wait_healthy(url, max_retries=30):
    for attempt in range(max_retries):
        try:
            if requests.get(url, timeout=3).status_code == 200:
                return True
        except requests.RequestException:
            pass
        time.sleep(1)
    return False
def export(client, url, payload, max_retries=4):
    for attempt in range(max_retries):
        try:
            response = client.post(url, json=payload, headers={"Idempotency-Key": "k"})
            if response.status_code == 200:
                return True
            if response.status_code in NON_RETRYABLE:
                return False
        except Exception:
            pass
        time.sleep(1.5 ** attempt)
    return False
""",
        # s40: the same, but a 5xx only raises the error that goes round
        """\
import json, time
class Transient(Exception): ...
def query(http, request, retries=3):
    for attempt in range(retries):
        try:
            response = http.send(request)
            if response.status_code >= 500:
                raise Transient(response.status_code)
            if response.status_code >= 400:
                raise RuntimeError(response.content)
            return json.loads(response.content)["data"]
        except (Transient, ConnectionError):
            time.sleep(2 ** attempt)
    raise RuntimeError("failed")
""",
        # s40: the same loop, but it tells the statuses apart (only a 5xx goes round)
        """\
import time
import requests
def send_messages(url, payload, attempts=5):
    for attempt in range(attempts):
        try:
            r = requests.post(url, json=payload, timeout=10, headers={"Idempotency-Key": "k"})
            if r.status_code == 201:
                return
            if r.status_code < 500:
                raise RuntimeError(r.text)
        except requests.ConnectionError:
            pass
        time.sleep(2 ** attempt)
""",
        # s38: a HEAD polled until the upload appears: its 404 means "not yet", which the next round may change
        """\
import time
import httpx
def wait_for_media(url, rounds=24, interval=5):
    for attempt in range(rounds):
        try:
            httpx.head(url, timeout=10).raise_for_status()
            return True
        except httpx.HTTPError:
            pass
        time.sleep(interval)
    return False
""",
        # s38: the base caught, but nothing in the attempt raises a status error (no raise_for_status()):
        # only transport failures reach the handler
        """\
import time
import requests
def fetch(url):
    for attempt in range(3):
        try:
            r = requests.get(url, timeout=10)
            return r.status_code, r.text
        except requests.RequestException:
            time.sleep(2 ** attempt)
    return None
""",
        # s36: a readiness poll under a deadline: the field appears once the process is up
        """\
import time
import requests
def debugger_url(port, timeout=15.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            return requests.get(f"http://127.0.0.1:{port}/json/version", timeout=2).json()["webSocketDebuggerUrl"]
        except (requests.RequestException, KeyError):
            time.sleep(0.5)
    raise RuntimeError("browser did not come up")
""",
        # s36: the handler replaces the input: the next attempt serialises something else
        """\
import json
def render(payload, attempts=2):
    for _ in range(attempts):
        try:
            return json.dumps(payload)
        except (TypeError, ValueError):
            payload = {"summary": [str(payload)[:200]]}
    raise RuntimeError("could not render")
""",
        # s45 (batch 18, signature-fallback): the handler makes the fallback call itself and the iteration uses
        # its value: an older client's TypeError for the keyword is not met again; the loop goes on to a new page
        """\
def find_asset(api, uri):
    offset = 0
    for _ in range(50):
        kwargs = {"uri_pattern": uri, "limit": 100, "offset": offset}
        try:
            page = api.get_assets(only_active=False, **kwargs)
        except TypeError:
            page = api.get_assets(**kwargs)
        for asset in page.assets:
            if asset.uri == uri:
                return asset.id
        offset += 100
    return None
""",
        # issue 23 (changed-request): each attempt takes a new timestamp, so a tie that made the tuples
        # compare their unorderable last items cannot repeat: the TypeError is not a permanent failure here
        """\
import heapq, time
class Timers:
    def add(self, due, callback):
        while True:
            try:
                heapq.heappush(self.heap, (due, time.monotonic_ns(), callback))
                return
            except TypeError:
                continue
""",
        # LangChain's factory on transient google-api-core errors only
        """\
import google.api_core.exceptions
from langchain_core.language_models.llms import create_base_retry_decorator
errors = (google.api_core.exceptions.ResourceExhausted, google.api_core.exceptions.ServiceUnavailable)
def create_retry_decorator(max_retries=1):
    return create_base_retry_decorator(error_types=errors, max_retries=max_retries)
""",
        """\
from tenacity import retry, retry_if_result, stop_after_attempt
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (429, 500, 502, 503)), stop=stop_after_attempt(4))
def fetch(url):
    return httpx.get(url)
""",
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

s = requests.Session()
s.mount("https://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[408, 429, 500, 502, 503, 504])))
""",
        # a parse error of a model's answer is retried by asking again
        """\
import json
from tenacity import retry, retry_if_exception_type, stop_after_attempt

@retry(retry=retry_if_exception_type((ValueError, json.JSONDecodeError)), stop=stop_after_attempt(3))
def extract(llm, prompt):
    return json.loads(llm.invoke(prompt))
""",
        """\
import backoff, requests

@backoff.on_exception(backoff.expo, requests.RequestException, giveup=lambda e: e.response is not None and e.response.status_code < 500, max_tries=3)
def fetch(url):
    return requests.get(url, timeout=5)
""",
        # the condition lives in a variable
        """\
from tenacity import retry, retry_if_result, stop_after_attempt

RETRY_STATUSES = load()

@retry(retry=retry_if_result(lambda r: r.status_code in RETRY_STATUSES), stop=stop_after_attempt(3))
def fetch(url):
    return url
""",
        """\
from smullyan import runtime as tool

clock = tool.with_clock(lambda ms: None)
stage = clock.retrying(tool.retrying_when(lambda e: isinstance(e, (tool.RateLimited, tool.Unavailable))), tool.up_to(3).attempts)
""",
        # a small same-module predicate that retries 5xx and 429
        """\
from tenacity import retry, retry_if_result, stop_after_attempt

def transient(resp):
    if resp.status_code == 429:
        return True
    return resp.status_code >= 500

@retry(retry=retry_if_result(transient), stop=stop_after_attempt(3))
def fetch(client, url):
    return client.get(url)
""",
        """\
import time, requests

def fetch(url):
    for _ in range(3):
        try:
            return requests.get(url, timeout=5)
        except (requests.Timeout, ConnectionError):
            time.sleep(1)
""",
        # ValueError from an input() re-prompt loop
        """\
def ask():
    while True:
        try:
            return int(input("number? "))
        except ValueError:
            print("try again")
""",
        """\
import stamina, httpx

def retriable(exc):
    return isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code >= 500

@stamina.retry(on=retriable, attempts=3)
def fetch(url):
    return httpx.get(url)
""",
        # found in real code: a TypeError caught with a parse error while reading stored JSON
        """\
import json

def pop(rows):
    for attempt in range(3):
        try:
            return json.loads(rows.pop()[0])
        except (json.JSONDecodeError, TypeError):
            continue
""",
        # negations mean the opposite of their literal: these do not retry the codes they name
        """\
import backoff, requests
from tenacity import retry, retry_if_not_exception_type, stop_after_attempt, wait_exponential
class AuthError(Exception): ...
@retry(retry=retry_if_not_exception_type((AuthError, ValueError, KeyError)), stop=stop_after_attempt(3), wait=wait_exponential())
def a(c):
    return c.get("x")
def fatal(e):
    return e.response is not None and e.response.status_code in (400, 401, 403, 404)
@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3, giveup=fatal)
def b(url):
    return requests.get(url, timeout=5)
""",
        # PermissionError around a file operation: a Windows sharing violation (an editor, an antivirus
        # scanner holds the file a moment), transient by nature
        """\
import os, time
def replace_with_retry(src, dst, attempts=10):
    for attempt in range(attempts):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05)
""",
        # issue 23: the same through a storage object's method (a file handle still held by a closing connection)
        """\
import asyncio, gc
async def drop_database_file(storage, name):
    for attempt in range(5):
        try:
            await storage.remove(name)
            return
        except (PermissionError, OSError):
            gc.collect()
            await asyncio.sleep(0.5)
""",
        # s35: a hand loop that tests the status before going round (a 4xx raised at once)
        """\
import time
import requests
def fetch(url):
    for attempt in range(3):
        try:
            r = requests.get(url, timeout=10)
            r.raise_for_status()
            return r.json()
        except requests.HTTPError as e:
            if e.response.status_code < 500:
                raise
            time.sleep(2 ** attempt)
def manifest(url):
    for attempt in range(3):
        response = None
        try:
            response = requests.get(url, timeout=(10, 60))
            response.raise_for_status()
            return response.content
        except requests.HTTPError:
            if response is None or response.status_code not in {429, 500, 502, 503} or attempt == 2:
                raise
        time.sleep(2 ** attempt)
""",
        # s35: a desynced stream's ValueError, the connection set up again before the next attempt;
        # a loop peeling nested JSON envelopes (each round parses the value the last one decoded)
        """\
import json
class Viewer:
    async def frame(self):
        for attempt in range(3):
            try:
                return decode_frame(await self._conn.read_frame())
            except (ValueError, ConnectionError) as exc:
                if attempt == 2:
                    raise
                await self._reconnect()
def unwrap(value):
    for _ in range(5):
        if not isinstance(value, str):
            return value
        try:
            decoded = json.loads(value)
        except ValueError:
            return value
        value = decoded
    return value
""",
        # s38: a multiple-choice re-sample: the model is asked before the `try`, which only looks its
        # fresh answer up in the choices given (a parameter annotated as a sequence of strings)
        """\
from typing import Sequence
class Model:
    def choose(self, prompt: str, choices: Sequence[str], tries: int = 10):
        answer = ""
        for attempt in range(tries):
            answer = self.sample_text(prompt, temperature=min(1.0, 0.2 * attempt)).strip()
            try:
                return choices.index(answer)
            except ValueError:
                continue
        raise RuntimeError(f"no valid choice after {tries} tries: {answer!r}")
""",
        # s37: a hand loop on the SDK's base error whose handler gives up on a 4xx other than 429
        """\
import time
import openai
def complete(client, messages, tries=5):
    errors: tuple = (openai.RateLimitError, openai.APIStatusError)
    for attempt in range(tries):
        try:
            return client.chat.completions.create(model="m", messages=messages)
        except errors as e:
            if e.status_code < 500 and e.status_code != 429:
                raise
            time.sleep(2 ** attempt)
    raise RuntimeError("gave up")
""",
    ]
    INVALID = [
        # s45: a handler that only clears the value (`page = None`) supplies no fallback: the same call goes round
        """\
def find_asset(api, uri):
    for _ in range(3):
        try:
            page = api.get_assets(only_active=False, uri_pattern=uri)
        except TypeError:  # error: TFH102
            page = None
        if page is not None:
            return page
    return None
""",
        # s40 (odoo-mcp): xmlrpc's ProtocolError is raised for a 401/403/404 as for a 502
        """\
import socket, time, xmlrpc.client
def execute(models, db, uid, password, model, method, args, attempts=3):
    for attempt in range(attempts):
        try:
            return models.execute_kw(db, uid, password, model, method, args)
        except (ConnectionError, socket.timeout, xmlrpc.client.ProtocolError):  # error: TFH102
            time.sleep(2 ** attempt)
    raise RuntimeError("failed")
""",
        # s40 (healthomics): the attempt raises its own RuntimeError for every status >= 400 and goes round on it
        """\
import json, time
def query(http, request, retries=3):
    for attempt in range(retries):
        try:
            response = http.send(request)
            data = json.loads(response.content)
            if response.status_code >= 400:
                raise RuntimeError(f"HTTP {response.status_code}: {data.get('error', '')[:500]}")
            return data["data"]
        except (RuntimeError, ConnectionError) as e:  # error: TFH102
            time.sleep(2 ** attempt)
    raise RuntimeError("failed")
""",
        # s40 (memorisdk): the attempt leaves only on a 201; a 400/401/422 goes round like a 503
        """\
import time
import requests
def send_messages(url, payload, attempts=5):
    last_status = None
    for attempt in range(attempts):  # error: TFH102
        try:
            last_status = requests.post(url, json=payload, timeout=10).status_code
            if last_status == 201:
                return
        except Exception:
            pass
        time.sleep(2 ** attempt)
    raise RuntimeError(f"expected 201, got {last_status}")
""",
        # s38: the handler catches the base of the status error the attempt raises: aiohttp's ClientError
        # covers the ClientResponseError of raise_for_status(), so a 401 is sent again like a 503
        """\
import asyncio
import aiohttp
async def register(url, record, attempts=5):
    async with aiohttp.ClientSession() as session:
        for attempt in range(attempts):
            try:
                async with session.put(url, json=record, timeout=aiohttp.ClientTimeout(total=10)) as resp:
                    resp.raise_for_status()
                    return True
            except (aiohttp.ClientError, asyncio.TimeoutError):  # error: TFH102 "aiohttp.ClientError"
                await asyncio.sleep(2 ** attempt)
    return False
""",
        # s38: the same, with the status error built and raised by the attempt itself, under two `with` blocks
        """\
import asyncio
import aiohttp
async def stream_answer(url, payload, tries=3):
    n = 0
    while n < tries:
        try:
            async with aiohttp.ClientSession() as session:
                async with session.get(url, params=payload) as resp:
                    if resp.status != 200:
                        raise aiohttp.ClientResponseError(resp.request_info, resp.history, status=resp.status)
                    return await resp.text()
        except aiohttp.ClientError:  # error: TFH102 "aiohttp.ClientError"
            n += 1
            await asyncio.sleep(2 ** n)
    return None
""",
        # s38: the value looked up is the same each round (an unannotated parameter's method may do I/O)
        """\
import time
def pick(store, key, tries=3):
    for attempt in range(tries):
        name = key.strip()
        try:
            return store.index(name)
        except ValueError:  # error: TFH102 "ValueError"
            time.sleep(1)
    return None
""",
        # s36: the handler only advances a counter the attempt logs: the same request goes again
        """\
import logging, time
import requests
log = logging.getLogger(__name__)
def fetch_series(url, token, tries=3):
    n = 0
    while n < tries:
        try:
            log.debug(f"attempt {n + 1}")
            if not token:
                raise ValueError("no credentials")
            return requests.get(url, headers={"Authorization": token}, timeout=10).json()
        except (requests.ConnectionError, ValueError):  # error: TFH102
            n += 1
            time.sleep(2 ** n)
    return None
""",
        # s36: a CLI command retried on its own usage errors: a bad option fails the same way each run
        """\
import subprocess
import backoff
import click
@click.command()
@click.option("--region", required=True)
@backoff.on_exception(backoff.expo, (subprocess.CalledProcessError, click.UsageError), max_tries=3)  # error: TFH102
def deploy(region):
    if region not in ("eu", "us"):
        raise click.UsageError(f"unknown region {region}")
    subprocess.run(["terraform", "apply", f"-var=region={region}"], check=True)
""",
        # s35: a hand loop retrying every HTTPError raise_for_status() raises; the status read only for a message
        """\
import time
import requests
def fetch(url, headers, retries=3):
    for attempt in range(retries):
        try:
            response = requests.get(url, headers=headers, timeout=10)
            response.raise_for_status()
            return response.json()
        except requests.HTTPError as e:  # error: TFH102 "requests.HTTPError"
            message = "forbidden: check the key" if e.response.status_code == 403 else str(e)
            if attempt < retries - 1:
                time.sleep(2 ** attempt)
                continue
            return message
""",
        # LangChain's factory, its error list held in a variable, returned for other modules to apply
        """\
import google.api_core.exceptions
from langchain_core.language_models.llms import create_base_retry_decorator
def create_retry_decorator(max_retries=1, run_manager=None):
    errors = [  # error: TFH102 "GoogleAPIError"
        google.api_core.exceptions.ResourceExhausted,
        google.api_core.exceptions.ServiceUnavailable,
        google.api_core.exceptions.GoogleAPIError,
    ]
    decorator = create_base_retry_decorator(error_types=errors, max_retries=max_retries, run_manager=run_manager)
    return decorator
""",
        """\
from tenacity import retry, retry_if_result, stop_after_attempt
import httpx

@retry(retry=retry_if_result(lambda r: r.status_code in (404, 429, 500, 502, 503)), stop=stop_after_attempt(4))  # error: TFH102
def fetch(url):
    return httpx.get(url)
""",
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

s = requests.Session()
s.mount("https://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[401, 429, 500, 503])))  # error: TFH102
""",
        # a range test that retries 4xx
        """\
import tenacity as t

@t.retry(retry=t.retry_if_result(lambda r: r.status >= 400), stop=t.stop_after_attempt(3))  # error: TFH102
async def fetch(session, url):
    return await session.get(url)
""",
        """\
import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt

@retry(retry=retry_if_exception_type((requests.Timeout, ValueError)), stop=stop_after_attempt(3))  # error: TFH102
def fetch(url):
    return requests.get(url, timeout=5).json()
""",
        """\
import backoff, requests

@backoff.on_exception(backoff.expo, (requests.ConnectionError, KeyError), max_tries=3)  # error: TFH102
def fetch(url):
    return requests.get(url, timeout=5).json()["data"]
""",
        """\
import stamina, requests

@stamina.retry(on=(requests.Timeout, PermissionError), attempts=3)  # error: TFH102
def fetch(url):
    return requests.get(url, timeout=5)
""",
        """\
import time, requests

def fetch(url):
    for attempt in range(3):
        try:
            return requests.get(url, timeout=5).json()
        except (requests.Timeout, TypeError):  # error: TFH102
            time.sleep(attempt)
""",
        """\
from smullyan import runtime as tool

clock = tool.with_clock(lambda ms: None)
stage = clock.retrying(tool.retrying_when(lambda e: isinstance(e, (tool.Denied, tool.Unavailable))), tool.up_to(3).attempts)  # error: TFH102
again = tool.terse.retry(times=3, retry_on=lambda e: e.tag in ("InvalidArgs", "Timeout"))  # error: TFH102
""",
        # a small same-module predicate
        """\
from tenacity import retry, retry_if_result, stop_after_attempt

def should_retry(resp):
    return resp.status_code in (409, 429, 503)

@retry(retry=retry_if_result(should_retry), stop=stop_after_attempt(3))  # error: TFH102
def fetch(client, url):
    return client.get(url)
""",
        """\
import openai
from tenacity import retry, retry_if_exception_type, stop_after_attempt

@retry(retry=retry_if_exception_type((openai.RateLimitError, openai.AuthenticationError)), stop=stop_after_attempt(3))  # error: TFH102
def embed(client, text):
    return client.embeddings.create(input=text, model="m")
""",
        """\
import httpx
from tenacity import retry, retry_if_exception, stop_after_attempt

@retry(retry=retry_if_exception(lambda e: isinstance(e, httpx.HTTPStatusError) and e.response.status_code != 200), stop=stop_after_attempt(3))  # error: TFH102
def fetch(url):
    return httpx.get(url).raise_for_status()
""",
        # a status error alone is raised for 4xx too; programming errors and the runtime's permanent variants
        """\
import httpx, requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential
@retry(retry=retry_if_exception_type(httpx.HTTPStatusError), stop=stop_after_attempt(3), wait=wait_exponential())  # error: TFH102 "httpx.HTTPStatusError (raised for 400/401/403/404"
def a(url):
    r = httpx.get(url)
    r.raise_for_status()
    return r
@retry(retry=retry_if_exception_type((requests.ConnectionError, AttributeError)), stop=stop_after_attempt(3), wait=wait_exponential())  # error: TFH102 "AttributeError"
def b(url):
    return requests.get(url, timeout=5).json()["x"]
""",
        # issue 23: an SDK's exception named through its private module is the public class
        """\
import openai
from tenacity import retry, retry_if_exception_type, stop_after_attempt

@retry(retry=retry_if_exception_type(openai._exceptions.APIStatusError), stop=stop_after_attempt(3))  # error: TFH102
def draw(client, prompt):
    return client.images.generate(prompt=prompt, model="dall-e-3")
""",
        # s37: an SDK raises its base error itself for every error status (no raise_for_status() needed);
        # the types held in an annotated tuple, the wait read from the message
        """\
import random, re, time
import openai
def complete(client, max_retries=10, **kwargs):
    errors: tuple = (openai.RateLimitError, openai.APIError, openai.APIConnectionError)
    retries, delay = 0, 1.0
    while True:
        try:
            return client.chat.completions.create(**kwargs)
        except errors as e:  # error: TFH102 "openai.APIError"
            retries += 1
            if retries > max_retries:
                raise RuntimeError("too many retries") from e
            delay *= 2 * (1 + random.random())
            match = re.search(r"retry after (\\d+) seconds", str(e.args[0]))
            if match:
                delay = int(match.group(1))
            time.sleep(min(delay, 60))
""",
        """\
import time
import mistralai
def fim(client, prompt, suffix):
    for _ in range(20):
        try:
            return client.fim.complete(model="codestral-latest", prompt=prompt, suffix=suffix)
        except mistralai.models.sdkerror.SDKError:  # error: TFH102 "SDKError"
            time.sleep(10)
    raise RuntimeError("no answer")
""",
    ]

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            cond = retry.condition
            if retry.kind == "own-decorator" or not isinstance(cond, Condition):
                continue
            if retry.loop is not None and (retry.loop.fresh_attempt or retry.loop.reparses):
                continue  # in-memory work on a fresh value each attempt: the next one is not the same (issue 23)
            what: list[str] = []
            if cond.statuses is not None:
                bad = sorted(cond.statuses & self.knowledge.permanent_statuses)
                if bad:
                    what.append("HTTP " + "/".join(map(str, bad)))
            bad_tags = sorted(cond.tags & self.knowledge.permanent_tags)
            if bad_tags and not cond.every_exception:
                what.append(" and ".join(bad_tags))
            inline = retry.body is not None or retry.function is not None
            bad_types = [t for t in cond.exceptions if t in self.knowledge.permanent_exceptions]
            parsing = any(t.rsplit(".", 1)[-1] in self.knowledge.parser_errors - {"ValueError"} for t in cond.exceptions)
            if inline and (_reprompts(retry, self.knowledge) or parsing):
                bad_types = [t for t in bad_types if "." in t]  # an SDK's 401 is not fixed by asking again
            if retry.qualnames & self.knowledge.file_contention_calls or retry.calls & self.knowledge.file_contention_methods:
                # a file another process holds a moment (Windows sharing violation): transient
                bad_types = [t for t in bad_types if t.rsplit(".", 1)[-1] != "PermissionError"]
            if bad_types and retry.loop is not None and _reconnects(retry, [t for t in bad_types if "." not in t]):
                bad_types = [t for t in bad_types if "." in t]  # a fresh connection: a desync's ValueError can go away
            if bad_types and retry.loop is not None:
                # s36: the handler changes what the next attempt reads (`except TypeError: payload = plain`):
                # the next attempt is different work, which need not fail the same way; s53: or it repairs the
                # cause and goes round once (`if attempt == 1 and _restore_execute_bit(p): continue`, repairs.py)
                loop = retry.loop
                changed = {
                    t for h in loop.handlers if h.type is not None
                    and (handlers.replaces_input(loop, h) or handlers.supplies_value(loop, h) or repairs.repairs_before_going_round(loop, h))
                    for t in model.exception_names(h.type) or ()
                }
                bad_types = [t for t in bad_types if t not in changed]
            if bad_types and retry.loop is not None and _deadline_poll(retry.loop):
                # s36: polled until a deadline with a wait: a missing field is "not up yet", which time changes
                bad_types = [t for t in bad_types if t not in _NOT_READY_YET]
            if bad_types and inline:
                what.append(", ".join(bad_types))
            status_handler = None
            if cond.statuses is None and not cond.every_exception:
                # (a hand loop's handler may read the status itself: `if e.response.status_code in ...`)
                # HTTPStatusError / HTTPError alone: raised for a 4xx as for a 5xx (issue 23)
                status_types = list(dict.fromkeys(t for t in cond.exceptions if t in self.knowledge.status_error_exceptions))
                if retry.loop is not None:
                    status_types += [t for t in _raised_status_bases(retry, cond.exceptions, self.knowledge) if t not in status_types]
                if status_types and retry.loop is not None:
                    status_handler = _blind_status_handler(
                        retry, model, status_types, self.knowledge.sdk_status_error_exceptions,
                        frozenset(self.knowledge.status_error_bases),
                    )
                if status_types and (retry.loop is None or status_handler is not None):
                    what.append(", ".join(status_types) + " (raised for 400/401/403/404 as for 5xx)")
            writes = [e for e in retry.effects if e.cls in self.knowledge.write_classes]
            success_exit = success_status_exit(retry.loop) if retry.loop is not None and writes else None
            if success_exit is not None:
                # s40 (memorisdk): the attempt leaves only on a 2xx; any other status, a 4xx too, goes round
                what.append("any status but the success one (400/401/403/404 included)")
            raised_handler = None
            raised = raised_on_error_status(retry.loop) if retry.loop is not None and not what else None
            if raised is not None and retry.loop is not None:
                for handler in retry.loop.handlers:
                    if handler.type is not None and raised[0] in (model.exception_names(handler.type) or ()) and not _narrows(handler):
                        # s40 (healthomics): the attempt raises its own error for every status >= 400 and catches it
                        what.append(f"{raised[0]} (raised for every status >= 400, 401/403/404 included)")
                        raised_handler = handler
                        break
            if not what:
                continue
            where: cst.CSTNode = raised_handler or status_handler or (retry.loop.node if success_exit is not None and retry.loop is not None else None) or (cond.node if cond.node is not None else retry.anchor)
            if retry.loop is not None and bad_types:
                for handler in retry.loop.handlers:
                    if handler.type is not None and set(model.exception_names(handler.type) or ()) & set(bad_types):
                        where = handler
                        break
            self.report(
                where,
                what="; ".join(what),
                advice="retry only timeouts, connection errors, 408/425/429 and 5xx, and let the rest surface at once",
            )
