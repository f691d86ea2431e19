"""TFH303 retry-without-backoff."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import libcst as cst

from ...linter.api import RawFix, dotted, retry_keyword_fix
from . import handlers, paths, recursion, repairs, shrinks, waits
from .base import RetryRule
from .model import Retry, RetryModel, Wait

if TYPE_CHECKING:
    from ...linter.api import Knowledge, Screen

_LIBRARY = ("tenacity", "transport")


class RetryWithoutBackoff(RetryRule):
    code = "TFH303"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "retry-without-backoff"
    summary = "A retry that goes again at once: no wait between attempts."
    message = "{what} retries with no wait between attempts: {fix}"
    docs = """\
## What it does
Finds a retry that tries again at once. For tenacity (and pydantic-ai's
`TenacityTransport`): no `wait=`, or `wait=wait_none()` (reported where the
retry is built: `_retry = retry(...)` rather than the `_retry(fn)`
that applies it). For a hand-written
retry loop (including the loop of a retry decorator, bounded or not): no
sleep lies on the path from a handler that goes round back to the loop head.
A sleep is `time.sleep`, `asyncio.sleep`, an injected `sleep`, or any call
whose name holds `sleep`, `wait`, `backoff`, `delay` or `respawn` (a worker
process started again takes the time a wait would; so does a connection or
browser set up again: `reconnect`, `restart`, `recover`), or a call in the
handler of a same-module function or method that sleeps (a handler helper
that decides and waits: `except E as e: self._handle_error(e)`). This is a path
question: a sleep inside the `try` (the exception skipped it), on the success
path (the `else`), or at the end of the loop when the handler's `continue`
jumps over it does not count. A handler that catches only parse or validation
errors (`ValueError`, `JSONDecodeError`, `ValidationError`, ...: re-asking a
model), or only a constraint violation (`IntegrityError`, redis `WatchError`:
optimistic concurrency re-reads and goes again at once) needs no wait and is left alone, as is a handler asking a person before going
round (`input()`, `ctx.elicit(...)`, a helper named like `ask_choice`: s43), as are polling and worker loops,
a loop going round only on the project's own signal named as a request to go
round (`except ModelRequestRetry: continue`, raised when the person asks to
resend: TFH302 says which names count), and
a handler that changes what the next attempt does (rebinds a name the attempt
reads, `llm, i = fallbacks[i], i + 1`; or calls a same-module helper that
changes an argument of the attempt in place: a fallback or a shrunk request,
not the same work again). An attempt that waits itself (`q.put(x, timeout=0.1)`
with a handler catching only `queue.Full`, `queue.Empty` or a `...Timeout`; or
an attempt under a deadline, `with anyio.fail_after(t)` (also through a
project's re-export of `fail_after`), `asyncio.timeout(t)`, `asyncio.wait_for(aw,
t)`, with a handler catching only a timeout) is not a hot loop, nor is a
handler that goes round once, only for a failure it recognised (the one
`continue` under a test of the exception, every other path leaving; the loop
is `range(2)` or the test reads `attempt == 0`): an expired token refreshed, a
stale pooled connection evicted. So (s49) is a loop of two rounds (`range(2)`,
`range(1, 3)`, `for attempt in (1, 2)`) whose handler names its failures
(no `Exception`, no bare `except`) and, on the way round, repairs the route
first (`if attempt == 1: await asyncio.to_thread(TUNNEL.tear_down); continue`,
or any call that is not a log line or a clock read before the `continue`): the
second attempt goes through a new tunnel or session, the failure recognised by
its class; and (s53) the same loop whose repair is the test itself (`if attempt
== 1 and _restore_execute_bit(program): continue`, the rest ending in a
give-up), or a retry written as recursion that goes once more (its count
defaults to 1) after the handler changed what the call reads
(`self._client.headers["Authorization"] = new_token`) or called a repair. A
loop whose handler names its failures and goes round only when a repair said
it worked (`if not await self._wake(): raise`), or a loop of two rounds with a
repair call on the way round (`git worktree prune` after the `try`, before
the second `git branch -D`; not a log line, a give-up such as `_fail(p)`, or a
call handed the caught exception) is left alone too. A
loop going round only on a protocol's next step (`ssl.SSLWantReadError`,
`asyncio.QueueFull`, a system call a signal interrupted, `InterruptedError`: see TFH302) is no retry at all. So is a retry whose condition names only a
keep-alive connection the server closed while it sat in the pool
(`httpx.RemoteProtocolError`, `http.client.RemoteDisconnected`, aiohttp's
`ServerDisconnectedError`): the next attempt opens a fresh connection, and a
wait would change nothing (s36). And `for attempt in Retrying(...): with
attempt:` whose body changes what it sends under a test of the attempt's state
(`if attempt.retry_state.attempt_number > 1: budget //= 2`): each attempt is a
smaller request, not the same one again.

A condition or handler naming only a reply that did not parse
(`Malformed...Error`: an agent framework's error for a tool call the model got
wrong) re-samples the model and needs no wait; nor does a loop whose attempt
only parses in memory an answer the loop fetches afresh before the `try` (see
TFH103); a model call inside the `try` under a broad handler is a retry of
the call and is reported. An attempt the loop tells to wait
(`ensure_instance(sleep_before_create=attempt > 0)`: the loop's counter given
to a keyword named for a sleep, wait, backoff or delay) waits before it; and a
handler catching only timeout classes the module defines itself
(`class _TurnIdleTimeout(RuntimeError)`, raised by its own watchdog) comes
after that wait.

Also left alone: a handler that changes the next request in place
(`messages.append(prefill)`, `messages[-1]["content"] = partial`, `params.pop(...)`
on a list or dict the attempt sends; s46: also through an element the handler takes out of it,
`last = messages[-1]` then `last["content"] += note`, the same object), a handler that supplies the value itself
(`except E: obj = create(relaxed=True)`) which the rest of the iteration then
uses (a fallback, not a go-round), and in-memory work: an attempt whose every
call is a builtin such as `tuple(dir(module))` (retried on "dictionary changed
size during iteration"): no server to spare, nothing a wait fixes. Only a sleep
that leads the attempt counts as a wait before it: a `time.sleep` deep in the
attempt (between scrolls, after the page loaded) runs only on the way to
success and does not space the attempts. Not a retry at all (see TFH103's
"What counts as a retry"): message loops, batch loops over data, a walk (s46: a statement
of the loop's body outside the `try` steps a name the attempt reads to its own attribute, `candidate =
candidate.parent`, `node = node.next`: each round tries another item), benchmark
loops, readiness polls (a `while` with no plain exit on success), two
requests made by design.

A retry written as recursion is read too (s39): a handler that may catch a
transient failure and calls its own function again with the same arguments
but a retry count one lower (`except Exception: if retry_count > 0: return
await download(url, retry_count=retry_count - 1)`), with no sleep in the
handler nor elsewhere in the function outside the attempt. Not one (s41): a
handler that rebuilds an argument from the error before the call (`message =
error_prompt.render(error=str(e), query=q)`, then `self.cycle(thread, message,
n - 1)`): a repair re-ask, the model writes new work from the failure, as a
loop's repair re-ask is. So is a round that, before its `try` and under a
test of the loop's counter (`if attempt:`), rebinds or changes a name the
attempt reads (`attempt_prompt = prompt + note_of(denied)`): every attempt
after the first sends a changed request (s44).

How to label (s46, batches 15-18's debatable and false rows decided by a
property): a loop whose every going-round path sends a *different* request
(a disabled feature, a smaller budget, another model, a fresh port, another
proxy that replaces the one marked failed) is **not the target, `false`**,
when what its handler catches is the failure the change answers (a 400 naming
the feature, a context-length error, a port collision, a per-IP block): a wait
would not change the answer. This reverses s45's "a proxy rotation going round
at once is reported" (a per-IP limit is lifted by another address, not by
time). Where the handler also catches a rate limit or every exception (a 429
re-sent at once with a lower reasoning effort), the changed request does not
lift the limit: **`true`**. The rule reports some of the `false` shapes still
(a pool's proxy marked failed in the handler and drawn again at the loop's top;
a port drawn at the loop's top; a helper that changes `self`'s state read by the
attempt's own method): see docs/real-code-survey.md, session 46.
The rule is silent (s48) on a loop whose handler names only context-window
errors (`ContextWindowExceededError`, a package's `ContextFull`: the words in
`linter/knowledge/retries.py`'s `CONTEXT_WINDOW_WORDS`) when the next round
sends a smaller request: the loop steps through a literal tuple or list the
attempt reads (`for limit in (2000, 200):`), or the handler falls through to
statements after the `try` that rebind a name the attempt reads
(`keep //= 2`). A handler that also catches a rate limit, or a context error
answered by the same request, stays reported.

Another credential or endpoint (s47, decided on batch 19's key failover): a
loop that goes through the elements of a pool, one each round (`for attempt
in range(len(self._clients))` drawing `client = self._clients[(start +
attempt) % len(self._clients)]` before its `try`, as `for client in
self._clients` does), sends each attempt with another API key, account or
endpoint: a changed request. A per-key quota or rate limit is lifted by the
next key, not by time, so it is **not the target, `false`**, whatever the
handler catches (as for a proxy that replaces the one marked failed; what it
catches is TFH103's question), and not reported. A loop going round on a 429
with the same key (or a lower effort on the same key) stays `true` and
reported. Labels that disagree with this decision (not edited): none found;
incident-commander's `key-failover` (batch 19) is `false`, as decided, and the
proxy rotations through `pool.get()` (google-play-console-mcp `false`,
instamcp `debatable`) are the same property in another form the rule does not
read yet.

## Why is this bad?
Transient failures (429, 503, a reset connection) mean "not now". Retrying at
once turns one overloaded server into a thundering herd of clients, burns the
attempt budget in milliseconds, and makes the rate limiting worse.

## Example
```python
import httpx, time

def fetch(client, url):
    for attempt in range(3):
        try:
            return client.get(url)
        except httpx.TransportError:
            log.warning("attempt %d failed", attempt)
            continue           # goes round at once:
        time.sleep(2 ** attempt)   # the sleep is skipped after every failure
    raise RuntimeError(f"{url}: gave up after 3 attempts")
```

## Use instead
```python
import httpx, random, time

def fetch(client, url):
    for attempt in range(3):
        try:
            return client.get(url)
        except httpx.TransportError:
            log.warning("attempt %d failed", attempt)
            time.sleep(2 ** attempt + random.random())
    raise RuntimeError(f"{url}: gave up after 3 attempts")
```

## Fix
For tenacity, `smullyan lint --fix` adds
`wait=wait_exponential_jitter(initial=1, max=30)` (replacing `wait_none()`),
importing the name the way the file imports tenacity. This changes what the
program does on purpose: attempts are now spaced by about 1, 2, 4... seconds
plus up to a second of jitter, capped at 30, so a failing call takes longer
to give up. Hand-written loops get no fix: where the sleep goes is a decision.

## How to suppress
`# noqa: TFH303` on the reported line (say why no wait is needed), or
`ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        # s56 (batch 27 deepseek-team): a blocking local lock interrupted by a signal (EINTR) is called again at once
        """\
import fcntl
def lock(fd):
    for _ in range(100):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return True
        except InterruptedError:
            continue
    return False
""",
        # s53 (batch 21 ao-orchestrator): two rounds, `git worktree prune` on the way round before the second `git branch -D`
        """\
import subprocess
def drop_branch(root, branch, prune):
    for attempt in range(2):
        try:
            subprocess.run(["git", "-C", root, "branch", "-D", branch], check=True, timeout=30)
            return None
        except subprocess.CalledProcessError as exc:
            if attempt:
                return "the branch stays: " + str(exc)
        prune(root)
""",
        # s53 (batch 24 openai-agents-prized): the request goes again only when the wake said it resumed the sandbox
        """\
class SandboxAsleep(Exception):
    pass
class Session:
    async def send(self, send):
        attempt = 0
        while True:
            try:
                return await send()
            except SandboxAsleep:
                attempt += 1
                if attempt > 3:
                    raise
                if not await self._wake():
                    raise
""",
        # s53 (batch 25 rmote): SSLWantReadError is the handshake's next step, not a failure
        """\
import ssl
async def handshake(tls, reader, writer, incoming, outgoing):
    while True:
        try:
            tls.do_handshake()
        except ssl.SSLWantReadError:
            writer.write(outgoing.read())
            incoming.write(await reader.read(65536))
        else:
            break
""",
        # s53 (batch 25 runinfra-cli): the repair is the test (the execute bit restored), once; the rest ends in a NoReturn helper
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
        # s53 (batch 25 virtualdojo): re-sent once (retry_count defaults to 1) after the handler set the new token
        """\
class TokenExpiredError(Exception):
    pass
class Client:
    async def request(self, method, path, *, json=None, retry_count=1):
        try:
            response = await self._client.request(method, path, json=json)
            return self._handle(response)
        except TokenExpiredError:
            if retry_count > 0:
                self._client.headers["Authorization"] = f"Bearer {self.credentials.token}"
                return await self.request(method, path, json=json, retry_count=retry_count - 1)
            raise
""",
        # s48 (agentknit b20, empero-autocode b21, changed-request-after-context-error): the loop goes round only on a
        # context-window error and each round sends a smaller request: a wait would not change the answer
        """\
from litellm import completion
from litellm.exceptions import ContextWindowExceededError
def compact(model, history, keep):
    while True:
        try:
            return completion(model=model, messages=history[-keep:])
        except ContextWindowExceededError:
            pass
        if keep <= 1:
            return None
        keep //= 2
""",
        """\
import httpx
class ContextFull(Exception):
    pass
def summarize(client, history):
    for limit in (2000, 200):
        request = history[-limit:]
        try:
            return client.post("/v1/chat/completions", json={"messages": request}).json()
        except ContextFull:
            continue
    raise ContextFull("too large")
""",
        # s47 (incident-commander b19, key-failover): each round goes through the next API key of a pool (an element
        # indexed by the loop's target, bounded by the pool's size): another key lifts a per-key quota, no wait needed
        """\
from openai import AsyncOpenAI
class ClientPool:
    def __init__(self, keys):
        self._clients = [AsyncOpenAI(api_key=k) for k in keys]
        self._active_index = 0
    async def chat_completion(self, **kwargs):
        for attempt in range(len(self._clients)):
            idx = (self._active_index + attempt) % len(self._clients)
            client = self._clients[idx]
            try:
                result = await client.chat.completions.create(**kwargs)
                self._active_index = idx
                return result
            except Exception as exc:
                if "rate limit" in str(exc).lower() and attempt < len(self._clients) - 1:
                    continue
                raise
""",
        # s44 (batch 16 bello changed-request): later rounds change the request before the try (the probes already
        # denied named in the prompt), under a test of the counter
        """\
async def run(agent, prompt, denied_probes):
    for attempt in range(2):
        attempt_prompt = prompt
        if attempt:
            denied = list(denied_probes())
            if denied:
                attempt_prompt = prompt + "\\n\\nAlready refused: " + ", ".join(denied)
        try:
            return await agent.run_once(attempt_prompt)
        except AttemptError:
            if attempt == 1:
                raise
""",
        # s43 (batch 15 changed-request): the handler asks the person (an MCP elicitation helper) and the call
        # goes again with their choice
        """\
async def wrapper(ctx, fn, choices):
    while True:
        try:
            return await fn(ctx)
        except Ambiguous as exc:
            if len(choices) >= MAX_CHOICES:
                raise
            choices[exc.key] = await ask_choice(ctx, exc, choices)
""",
        # s41 (eidolon-ai-sdk SqlAgent.cycle): the handler rebuilds the prompt from the error and the failed query and
        # recurses with one attempt fewer: the model writes a new query (a repair re-ask), nothing is sent again as it was
        """\
class SqlAgent:
    async def cycle(self, thread, message, num_retries):
        response = await thread.ask(message)
        try:
            async for row in self._client.execute(response.query):
                yield row
        except Exception as e:
            if num_retries > 0:
                message = self._error_prompt.render(error=str(e), query=response.query)
                async for out in self.cycle(thread, message, num_retries - 1):
                    yield out
            else:
                raise
""",
        # s40 (code-puppy): a bounded walk over a tree; each round pops the next node, a failure moves on
        """\
def find_hint(exc, limit=50):
    pending, seen = [exc], set()
    for _ in range(limit):
        if not pending:
            break
        node = pending.pop()
        try:
            if isinstance(node, str) and "unsupported image" in node.lower():
                return translate("hint.multimodal")
            pending.extend(getattr(node, "args", ()))
        except Exception:
            continue
    return None
""",
        # s39: a recursive retry that waits before calling itself again, or that re-asks after a parse error
        """\
import asyncio, json
import httpx
async def download(url, retry_count=3):
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            response = await client.get(url)
            response.raise_for_status()
            return response.content
    except Exception:
        if retry_count > 0:
            await asyncio.sleep(2 ** (3 - retry_count))
            return await download(url, retry_count=retry_count - 1)
        raise
def parse(client, text, tries=2):
    try:
        return json.loads(client.complete(text))
    except json.JSONDecodeError:
        if tries:
            return parse(client, text, tries - 1)
        raise
""",
        # s38: a walk over alternatives by index (the counter reads data: `mirrors[i]`), not the same request again
        """\
import logging
import httpx
def first_alive(mirrors):
    for i in range(len(mirrors)):
        try:
            return httpx.get(mirrors[i], timeout=5)
        except httpx.TransportError:
            logging.warning("mirror %d is down", i)
            continue
    return None
""",
        # s36: the handler falls through to the break after the try: only the poll's own branch goes round, after a wait
        """\
import subprocess, time
def wait_until_gone(name):
    gone = False
    for _ in range(6):
        try:
            if subprocess.check_output(["pgrep", "-x", name], timeout=5).strip():
                time.sleep(0.5)
                continue
        except subprocess.CalledProcessError:
            pass
        gone = True
        break
    return gone
""",
        """\
import logging, random, time
import requests
def search(url, retries, base):
    attempt = 0
    while attempt < retries:
        try:
            if attempt > 0:  # the wait leads every attempt but the first: its jitter and log line first
                pause = base * 2 ** attempt * random.uniform(0.5, 1.5)
                logging.info("retrying in %.1f s", pause)
                time.sleep(pause)
            return requests.get(url, timeout=10).json()
        except requests.RequestException:
            attempt += 1
""",
        """\
import requests
def fetch(limiter, url):
    for attempt in range(3):
        limiter.apply_rate_limit("search")  # the rate limiter waits before every attempt
        try:
            return requests.get(url, timeout=10)
        except requests.ConnectionError:
            continue
""",
        # s34: one more try, only after a failure the handler recognised and repaired (an expired token)
        """\
def download(store, key, refresh_session):
    for attempt in range(3):
        try:
            return store.get_object(key)
        except Exception as exc:
            if attempt == 0 and "ExpiredToken" in str(exc):
                refresh_session()
                continue
            raise
""",
        # s49 (batch 21 mcp-modelmanager): two rounds; the handler names the transport failures it answers and, on
        # the first round, tears the tunnel down so the second attempt goes through a new one (a repaired route)
        """\
import asyncio, httpx
async def fetch(base_getter, path):
    for attempt in (1, 2):
        base = await asyncio.to_thread(base_getter)
        try:
            async with httpx.AsyncClient(timeout=30) as client:
                return await client.get(base + path)
        except (httpx.ConnectError, httpx.ReadError) as error:
            if attempt == 1:
                await asyncio.to_thread(TUNNEL.tear_down)
                continue
    raise RuntimeError("unreachable after a new tunnel")
""",
        # issue 23 (attempt-waits): each attempt waits up to `patience` seconds under a deadline scope; the
        # TimeoutError that goes round comes after that wait, so the attempts are already spaced
        """\
import anyio
async def first_token(open_stream, patience):
    for attempt in range(3):
        stream = await open_stream()
        try:
            with anyio.fail_after(patience):
                return await stream.receive()
        except TimeoutError:
            await stream.aclose()
    raise RuntimeError("the worker never answered")
""",
        # issue 23 (optimistic concurrency): a unique version taken by a concurrent writer; the next
        # attempt reads the new maximum at once, and a wait would change nothing
        """\
from sqlalchemy.exc import IntegrityError
def append_revision(conn, doc_id, text):
    for _ in range(5):
        try:
            latest = conn.execute(LATEST_REVISION, {"doc": doc_id}).scalar() or 0
            conn.execute(INSERT_REVISION, {"doc": doc_id, "rev": latest + 1, "text": text})
            return latest + 1
        except IntegrityError:
            continue
    raise RuntimeError("could not take a revision number")
""",
        # issue 23: the worker process is started again before the request is re-issued: the respawn is the wait
        """\
class Pool:
    def call(self, request, retries=2):
        while True:
            try:
                return self._send(request)
            except BrokenPipeError:
                if retries <= 0:
                    raise
                retries -= 1
                self._respawn_worker()
""",
        # the attempt waits: a put with a timeout, a handler for what the wait ends in
        """\
import queue
def hand_over(q, item, stop):
    while not stop.is_set():
        try:
            q.put(item, timeout=0.1)
            break
        except queue.Full:
            continue
""",
        # not the same work again: a fallback chain (the handler rebinds the model, a tuple target),
        # a helper that shrinks the request in place before the next attempt
        """\
class Agent:
    def _shrink(self, error, params, step):
        messages = params.get("messages")
        if step >= 3 or not messages:
            return False
        messages[:] = messages[len(messages) // 2:]
        return True
    def respond(self, params):
        for step in range(4):
            try:
                return self.client.complete(**params)
            except Exception as e:
                if not self._shrink(e, params, step):
                    raise
    def fallback(self, prompt):
        llm, index = self.llm, 0
        while True:
            try:
                return llm.invoke(prompt)
            except Exception:
                if index >= len(self.fallbacks):
                    raise
                llm, index = self.fallbacks[index], index + 1
""",
        # a handler helper of the module decides and sleeps
        """\
import time, httpx
def _handle_failure(error, attempt):
    print("attempt", attempt, "failed:", error)
    time.sleep(min(30, 2 ** attempt))
def fetch(url):
    for attempt in range(4):
        try:
            return httpx.get(url)
        except httpx.TransportError as e:
            _handle_failure(e, attempt)
""",
        # s42 (wizolt, user-requested-resend): the handler catches only the project's own signal named as
        # a request to resend (the person asked for the request again): the person is the pause
        """\
from ..base import ModelRequestRetry
class Engine:
    async def correct(self, messages, tools):
        while True:
            try:
                reply = await self.model.request(messages, tools)
                break
            except ModelRequestRetry:
                continue
        return reply
""",
        """\
from redis.exceptions import WatchError
def incr(r, key):
    with r.pipeline() as pipe:
        for _ in range(10):
            try:
                pipe.watch(key)
                pipe.multi()
                pipe.incr(key)
                return pipe.execute()
            except WatchError:  # optimistic concurrency: re-read at once
                continue
""",
        """\
def embed_all(client, texts, size, log):
    out = []
    for i in range(0, len(texts), size):  # batches, not attempts
        try:
            out.extend(client.embed(texts[i : i + size]))
        except Exception as exc:
            log.warning("batch failed, will not retry: %s", exc)
    return out
""",
        """\
def fetch(client, mirrors):
    url = mirrors[0]
    for attempt in range(len(mirrors)):
        try:
            return client.get(url)
        except ConnectionError:
            url = mirrors[(attempt + 1) % len(mirrors)]  # another server: no wait needed
""",
        """\
from tenacity import retry, stop_after_attempt, wait_exponential
@retry(stop=stop_after_attempt(3), wait=wait_exponential(max=10))
def fetch():
    ...
""",
        """\
import time
def fetch(client):
    for attempt in range(4):
        if attempt:
            time.sleep(2 ** attempt)  # before the next attempt
        try:
            return client.get("/x")
        except ConnectionError:
            continue
""",
        """\
import time
def fetch(client):
    for attempt in range(3):
        try:
            return client.get("/x")
        except ConnectionError:
            time.sleep(2 ** attempt)
""",
        """\
import asyncio
async def fetch(client):
    for _ in range(3):
        try:
            return await client.get("/x")
        except ConnectionError:
            pass
        await asyncio.sleep(1)  # the handler falls through to it
""",
        """\
def fetch(client, sleep):
    for attempt in range(3):
        try:
            return client.get("/x")
        except ConnectionError:
            if attempt < 2:
                sleep(100 * 2 ** attempt)  # an injected sleep, on some path
""",
        """\
import json
def ask(llm, prompt):
    for _ in range(3):
        try:
            return json.loads(llm(prompt))
        except json.JSONDecodeError:  # re-asking the model: no wait needed
            prompt += " Answer in JSON."
""",
        """\
def fetch(client):
    for attempt in range(3):
        try:
            return client.get("/x")
        except ConnectionError:
            self_backoff(attempt)
def self_backoff(n):
    ...
""",
        """\
import tenacity
@tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=tenacity.retry_if_exception_type(ValueError))
def parse():  # only a parse error: a re-run needs no wait
    ...
""",
        """\
def consume(queue, handle):
    while True:  # a worker loop, not a retry
        try:
            handle(queue.get())
        except Exception:
            continue
""",
        """\
import time
def fetch(client, **policy):
    for attempt in range(3):
        try:
            return client.get("/x")
        except ConnectionError:
            continue
        finally:
            time.sleep(1)  # finally runs on the failure path too
""",
        # a message loop is not a retry: one message per turn, a failure is logged and the next one read
        """\
import logging
log = logging.getLogger(__name__)
async def serve(ws, handle):
    while True:
        try:
            msg = await ws.recv()
            if msg == "close":
                break
            await handle(msg)
        except Exception:
            log.exception("message failed")
            continue
def consume(work_queue, handle):
    while True:
        try:
            item = work_queue.get(timeout=1)
            if item is None:
                return
            handle(item)
        except Exception as e:
            log.warning("failed: %s", e)
""",
        # in-memory work (builtins only): a race on a dict being resized; no server to spare, no wait helps
        """\
def members(module):
    for _ in range(2):
        try:
            return tuple(dir(module))
        except RuntimeError:
            pass
    return tuple(module.__dict__.copy())
""",
        # a changed request: the handler appends the partial answer as a prefill; the next attempt differs
        """\
def ask(client, messages):
    for attempt in range(3):
        try:
            return client.chat(messages)
        except TruncatedError as e:
            if messages[-1]["role"] == "assistant":
                messages[-1]["content"] += e.partial
            else:
                messages.append({"role": "assistant", "content": e.partial, "prefix": True})
""",
        # the handler supplies the value itself (a relaxed second call) and the iteration goes on with it
        """\
def stream(create, use):
    for attempt in range(2):
        try:
            obj = create()
        except ConnectionError:
            obj = create(relaxed=True)
        if use(obj):
            return obj
""",
        # s35: a re-sample after a malformed tool call; the attempt told to wait by the counter;
        # the module's own idle timeout (raised after its watchdog waited)
        """\
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt
from agents import MalformedMessageError

class _IdleTimeout(RuntimeError):
    pass

async def choose(agent, messages, tools):
    for attempt in Retrying(stop=stop_after_attempt(5), retry=retry_if_exception_type(MalformedMessageError)):
        with attempt:
            return await agent(messages, tools)

def call(pool, fn):
    for attempt in range(3):
        try:
            instance = pool.ensure_instance(sleep_before_create=attempt > 0)
        except Exception as exc:
            if not recreatable(exc):
                raise
            continue
        return fn(instance)

async def turn(session, text):
    for attempt in range(2):
        try:
            return await session.run_turn(text)
        except _IdleTimeout:
            continue
""",
        # s36: only a keep-alive connection the server closed is retried (a fresh connection needs no wait);
        # each attempt sends a smaller request (the budget halved under a test of the attempt number)
        """\
import httpx
from tenacity import Retrying, retry, retry_if_exception_type, stop_after_attempt
class FreshConnectionTransport(httpx.HTTPTransport):
    @retry(retry=retry_if_exception_type(httpx.RemoteProtocolError), stop=stop_after_attempt(3), reraise=True)
    def handle_request(self, request):
        return super().handle_request(request)
def summarize(llm, parts, budget, too_long):
    for attempt in Retrying(retry=retry_if_exception_type(too_long), stop=stop_after_attempt(4), reraise=True):
        with attempt:
            if attempt.retry_state.attempt_number > 1:
                budget //= 2
            return llm.completion(messages=parts[:budget])
""",
        # s46 (batch 19, powershell-agent): the handler takes the last message out of the request and changes it in
        # place (the same object): the next attempt sends a different request
        """\
def ask(client, messages, tools):
    retries = 0
    while True:
        try:
            return client.chat.completions.create(messages=messages, tools=tools)
        except Exception as exc:
            if "tool_use_failed" in str(exc) and retries < 2:
                retries += 1
                last_msg = messages[-1]
                last_msg["content"] = str(last_msg["content"]) + "(your last output was invalid JSON)"
                continue
            raise
""",
        # s46 (batch 19, claw-forge): a walk up the parent directories; each round reads another candidate
        """\
from pathlib import Path
def find_config(load):
    candidate = Path.cwd()
    for _ in range(4):
        try:
            return load(candidate / "app.yaml")
        except OSError:
            pass
        candidate = candidate.parent
    return None
""",
    ]
    INVALID = [
        # s56: beside the EINTR restart, a handler that also catches a refused connection goes round at once
        """import socket
def connect(sock, address):
    for _ in range(100):
        try:
            sock.connect(address)
            return True
        except (InterruptedError, ConnectionRefusedError):  # error: TFH303
            continue
    return False
""",
        # s49: the same two rounds with nothing repaired (a log line), with `Exception` caught, or over three rounds
        # (the second failure goes round again at once) are the same request again: reported
        """\
import asyncio, httpx, logging
async def fetch(client, url):
    for attempt in (1, 2):
        try:
            return await client.get(url)
        except (httpx.ConnectError, httpx.ReadError):  # error: TFH303
            if attempt == 1:
                logging.warning("retrying %s", url)
                continue
async def fetch_any(base_getter, path):
    for attempt in (1, 2):
        base = await asyncio.to_thread(base_getter)
        try:
            async with httpx.AsyncClient(timeout=30) as client:
                return await client.get(base + path)
        except Exception:  # error: TFH303
            if attempt == 1:
                await asyncio.to_thread(TUNNEL.tear_down)
                continue
async def fetch_three(base_getter, path):
    for attempt in range(3):
        base = await asyncio.to_thread(base_getter)
        try:
            async with httpx.AsyncClient(timeout=30) as client:
                return await client.get(base + path)
        except (httpx.ConnectError, httpx.ReadError):  # error: TFH303
            if attempt == 0:
                await asyncio.to_thread(TUNNEL.tear_down)
                continue
""",
        # s48: the handler also catches a rate limit: the smaller request does not lift a 429, the same wait is missing
        """\
from litellm import completion
from litellm.exceptions import ContextWindowExceededError, RateLimitError
def compact(model, history, keep):
    while True:
        try:
            return completion(model=model, messages=history[-keep:])
        except (ContextWindowExceededError, RateLimitError):  # error: TFH303
            pass
        if keep <= 1:
            return None
        keep //= 2
""",
        # s48: a context-window error answered by the same request again (nothing the attempt reads changes)
        """\
from litellm import completion
from litellm.exceptions import ContextWindowExceededError
def compact(model, history, keep):
    for attempt in range(3):
        try:
            return completion(model=model, messages=history[-keep:])
        except ContextWindowExceededError:  # error: TFH303
            print("too large", attempt)
""",
        # s47: the same client every round (the pool is not indexed by the loop's target) is the same request sent at once
        """\
from openai import AsyncOpenAI, RateLimitError
class ClientPool:
    def __init__(self, keys):
        self._clients = [AsyncOpenAI(api_key=k) for k in keys]
        self._active_index = 0
    async def chat_completion(self, **kwargs):
        for attempt in range(len(self._clients)):
            client = self._clients[self._active_index]
            try:
                return await client.chat.completions.create(**kwargs)
            except RateLimitError:  # error: TFH303
                continue
""",
        # s46: a name stepped to its parent that the attempt does not read is no walk: the same request goes round
        """\
import httpx
def fetch(client, url, node):
    for attempt in range(3):
        try:
            return client.get(url)
        except httpx.TransportError:  # error: TFH303
            pass
        node = node.parent
""",
        # s46: an element taken out of something the attempt does not send, changed in place, changes no request
        """\
import httpx
def ask(client, messages, history):
    for attempt in range(3):
        try:
            return client.post("/chat", json=messages)
        except httpx.TransportError as exc:  # error: TFH303
            entry = history[-1]
            entry["failures"] = entry.get("failures", 0) + 1
            continue
""",
        # s44: a test of the counter before the try that changes nothing the attempt reads is no changed request
        """\
import httpx
def fetch(client, url):
    for attempt in range(3):
        if attempt:
            log.info("attempt %d", attempt)
            note = f"retry {attempt}"
        try:
            return client.get(url)
        except httpx.TransportError:  # error: TFH303
            continue
""",
        # s43: asking a model again is not asking a person
        """\
async def wrapper(ctx, fn, llm):
    for attempt in range(3):
        try:
            return await fn(ctx)
        except TimeoutError:  # error: TFH303
            note = await ask_llm(llm, "why")
""",
        # s42: a tenacity retry held in a name is reported where it is built
        """\
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt
async def subscribe(open_subscription):
    retrying = AsyncRetrying(stop=stop_after_attempt(5), retry=retry_if_exception_type(ConnectionError))  # error: TFH303
    async for attempt in retrying:
        with attempt:
            return await open_subscription()
""",
        # s40 (gentopia load_page): the handler clears the result and goes round at once; the cleared name is
        # bound afresh by the attempt, so nothing the next attempt sends changes
        """\
import requests
def load_page(url, max_retry=3):
    for _ in range(max_retry):
        try:
            res = requests.get(url, timeout=15)
            if res.status_code != 200:
                raise RuntimeError("failed to load page")
        except Exception:  # error: TFH303
            res = None
            continue
        content = res.text
        break
    return res
""",
        # s39 (nekro-agent download_file): the handler calls the function again with one attempt fewer, at once
        """\
import httpx
async def download(url, path, retry_count=3):
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            response = await client.get(url)
            response.raise_for_status()
            open(path, "wb").write(response.content)
    except Exception:  # error: TFH303 "recursive retry of `download()`"
        if retry_count > 0:
            return await download(url, path, retry_count=retry_count - 1)
        raise
    return path
""",
        # s38: the counter is read only as an attempt number (a test in a second try's handler, a log line,
        # `use = primary if i < n - 1 else fallback`), so the loop is a retry, not a walk over `range`
        """\
import logging
import httpx
log = logging.getLogger(__name__)
def latest(client, url, n, primary, fallback, reset):
    for i in range(n):
        use = primary if i < n - 1 else fallback
        try:
            r = client.get(url, params={"model": use}, timeout=10)
        except httpx.TransportError:  # error: TFH303
            continue
        try:
            data = r.json()
        except ValueError:
            if i == 1:
                reset()
        else:
            return data
    return None
""",
        # s37: both branches of the attempt return: success always leaves the loop (a retry, not a poll)
        """\
import httpx
class Api:
    def __init__(self, base_url):
        self.client = httpx.Client(base_url=base_url, timeout=30)
    def get(self, url, params=None, retry=3, stream=False):
        while retry > 0:
            try:
                if stream:
                    return self.client.stream("GET", url, params=params)
                else:
                    return self.client.get(url, params=params)
            except httpx.TransportError as e:  # error: TFH303
                print(f"error when get {url}: {e}")
                retry -= 1
""",
        # a handler helper that only logs: nothing waits
        """\
import logging, httpx
def _log_failure(error, attempt):
    logging.warning("attempt %d failed: %s", attempt, error)
def fetch(url):
    for attempt in range(4):
        try:
            return httpx.get(url)
        except httpx.TransportError as e:  # error: TFH303
            _log_failure(e, attempt)
""",
        """\
from tenacity import retry, stop_after_attempt
@retry(stop=stop_after_attempt(3))  # error: TFH303
def fetch():
    ...
""",
        """\
import tenacity as t
@t.retry(stop=t.stop_after_attempt(3), wait=t.wait_none())  # error: TFH303
def fetch():
    ...
""",
        """\
def fetch(client):
    for attempt in range(3):
        try:
            return client.get("/x")
        except ConnectionError:  # error: TFH303
            continue
""",
        """\
import time
def fetch(client):
    for attempt in range(3):
        try:
            resp = client.get("/x")
            time.sleep(1)  # after the call: the exception skips it
            return resp
        except ConnectionError:  # error: TFH303
            pass
""",
        """\
import time
def fetch(client):
    for attempt in range(3):
        try:
            resp = client.get("/x")
        except ConnectionError:  # error: TFH303
            continue
        else:
            time.sleep(1)  # success path only
            return resp
""",
        """\
import asyncio
async def fetch(client):
    for attempt in range(3):
        try:
            return await client.get("/x")
        except (ConnectionError, TimeoutError):  # error: TFH303:9 "loop around `client.get()` retries with no wait"
            continue
        await asyncio.sleep(2)  # jumped over by continue
""",
        """\
import functools
def retrying(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        for attempt in range(5):
            try:
                return func(*args, **kwargs)
            except Exception:  # error: TFH303
                if attempt == 4:
                    raise
    return wrapper
""",
        """\
from tenacity import AsyncRetrying, stop_after_attempt
async def run(call):
    async for attempt in AsyncRetrying(stop=stop_after_attempt(3)):  # error: TFH303
        with attempt:
            await call()
""",
        """\
class Agent:
    def step(self):
        while True:
            try:
                out = self.llm.invoke(self.prompt)
                break
            except Exception as exc:  # error: TFH303
                self.errors += 1
                if self.errors > 3:
                    raise
        return out
""",
        """\
import asyncio, logging
from playwright.async_api import async_playwright
log = logging.getLogger(__name__)
class Loader:
    async def scroll(self, url):
        attempt = 0
        while attempt < self.retry_limit:
            try:
                async with async_playwright() as p:
                    browser = await p.chromium.launch()
                    page = await browser.new_page()
                    await page.goto(url)
                    while True:
                        height = await page.evaluate("document.body.scrollHeight")
                        await page.mouse.wheel(0, 1000)
                        await asyncio.sleep(0.5)  # the scroll's pause, deep in the attempt: not a wait between attempts
                        if height == await page.evaluate("document.body.scrollHeight"):
                            break
                    results = await page.content()
                    break
            except (asyncio.TimeoutError, ConnectionError) as e:  # error: TFH303
                attempt += 1
                log.error("attempt %s failed: %s", attempt, e)
                if attempt == self.retry_limit:
                    results = f"Error: {e}"
        return results
""",
        # s39 (nekro-agent send_agent_request): the counter printed as the attempt number in a log line
        # before the try is no walk over data; the model call goes round at once
        """\
import logging
from .llm import chat
async def send(messages, config):
    for i in range(config.max_retries):
        model = config.model if i < config.max_retries - 1 else config.fallback_model
        logging.info(f"sending to {model} retry={i}/{config.max_retries}")
        try:
            resp = await chat(model=model, messages=messages)
        except Exception as e:  # error: TFH303
            logging.error("failed: %s", e)
            continue
        else:
            break
    else:
        raise RuntimeError("every attempt failed")
    return resp
""",
    ]


    @classmethod
    def candidate_lines(cls, screen: "Screen", knowledge: "Knowledge") -> Sequence[int]:
        return [*super().candidate_lines(screen, knowledge), *recursion.screen_lines(screen)]

    def leave_Module(self, original_node: cst.Module) -> None:
        model: RetryModel = self.ctx.models[RetryModel]
        if model.finished:
            # s39: a retry written as recursion with a count one lower each time, and no wait (recursion.py)
            for handler, name in recursion.counted_recursions(original_node, handlers.catches_transient, paths.is_sleep):
                self.report(
                    handler,
                    what=f"this recursive retry of `{name}()` (the handler calls it again with one attempt fewer)",
                    fix="sleep before the next attempt (exponential, with jitter), in the handler itself",
                )
        super().leave_Module(original_node)

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            if retry.kind in _LIBRARY:
                if (
                    isinstance(retry.wait, Wait) and retry.wait.none and not waits.deterministic_only(retry)
                    and not waits.stale_connection_only(retry) and not waits.changes_each_attempt(retry)
                ):
                    how = "wait=wait_none()" if retry.wait.node is not None else "no wait="
                    self.report(
                        retry.written,
                        what=f"{self._name(retry)} with {how}",
                        fix="add wait=wait_exponential_jitter(initial=1, max=30) (or wait_random_exponential)",
                        autofix=self._fix(retry),
                    )
            elif retry.kind == "loop" and retry.loop is not None:
                self._check_loop(retry)

    def _fix(self, retry: Retry) -> RawFix | None:
        """tenacity: ``wait=wait_exponential_jitter(initial=1, max=30)``, replacing ``wait_none()``."""
        if retry.factory is not None:
            return None  # built by a factory: the keyword belongs in the factory, shared by every use
        if retry.kind != "tenacity":
            return None
        return retry_keyword_fix(
            self.ctx, retry.anchor, "tenacity", "wait", "tenacity.wait_exponential_jitter", "initial=1, max=30", "Add `wait={value}`"
        )

    def _check_loop(self, retry: Retry) -> None:
        loop = retry.loop
        assert loop is not None
        if retry.in_process or loop.reparses:
            return  # in-memory work (builtins only): a wait spares no server and fixes no race
        if isinstance(loop.node, cst.While):
            if not paths.plain_success_exit(loop):
                return  # polling
        elif paths.iterates(loop) or not (paths.leaves_on_success(loop) or paths.looks_like_retry(loop)):
            return
        for handler in handlers.failure_handlers(loop):
            if handlers.catches_transient(handler) and not waits.sleeps_on_failure_path(loop, handler):
                if waits.attempt_waits(loop, handler):
                    continue  # `q.put(x, timeout=0.1)` / `except queue.Full`: the call waited
                if handlers.single_targeted_retry(loop, handler):
                    continue  # one more try after a failure the handler recognised (s34)
                if repairs.repairs_before_going_round(loop, handler):
                    continue  # s49: one more try, through a repaired route, after a failure its class names; s53: a repair on the way round
                if shrinks.shrinks_on_context_error(loop, handler):
                    continue  # s48: only a context-window error, and a smaller request next round
                self.report(
                    handler,
                    what=f"this loop around {paths.callee_text(loop)}",
                    fix="sleep on the way back to the next attempt (exponential, with jitter), in the handler itself",
                )
                return

    @staticmethod
    def _name(retry: Retry) -> str:
        anchor = retry.anchor
        head: cst.BaseExpression | None
        if isinstance(anchor, cst.For):
            head = anchor.iter
        elif isinstance(anchor, cst.Decorator):
            head = anchor.decorator
        elif isinstance(anchor, cst.BaseExpression):
            head = anchor
        else:
            head = None
        while isinstance(head, cst.Call):
            head = head.func
        return f"`{dotted(head) if head is not None else None or retry.kind}`"
