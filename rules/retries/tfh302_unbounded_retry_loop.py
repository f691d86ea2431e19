"""TFH302 unbounded-retry-loop."""

from __future__ import annotations

import libcst as cst

from . import handlers, paths
from .base import RetryRule
from .model import Loop, RetryModel


class UnboundedRetryLoop(paths.LoopParameters, RetryRule):
    code = "TFH302"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "unbounded-retry-loop"
    summary = "A `while True` retry loop with nothing that ends it on failure."
    message = "`{head}` retries {call} with no bound: count attempts and give up after N, or use a retry with `stop=`"
    docs = """\
## What it does
Finds a `while True:` (or `while 1:`) retry loop: its `try` leaves the loop on
success (`break`/`return`), and a handler goes round again (`continue`, `pass`,
a log line, a sleep) with nothing that bounds it: no `break`/`return`/`raise`
reachable from the handler or elsewhere in the loop outside the `try`, no
attempt counter or deadline tested with an exit, no same-module helper called
in the handler that may raise (`except E as e: self._give_up_or_wait(e, n)`:
the helper decides). A lock wait (a handler catching only `FileExistsError`
or `BlockingIOError` around an exclusive create or a non-blocking lock, or a
`try` that only attempts a non-blocking lock, `msvcrt.locking(fd,
msvcrt.LK_NBLCK, 1)` or `fcntl.flock(fd, LOCK_EX | LOCK_NB)`, going round on
`OSError`: s43) is not a retry of a failure, nor (s53) is a loop whose
going-round handlers catch only a protocol's next step (a non-blocking TLS
handshake's `ssl.SSLWantReadError`/`SSLWantWriteError`, `BlockingIOError`,
anyio's `WouldBlock`, an in-process queue's `asyncio.QueueFull`/`QueueEmpty`
or `queue.Full`/`queue.Empty`; s56: a system call a signal interrupted,
`InterruptedError`, called again): it drives a state machine or drains a queue, nor is a loop whose handler asks
a person before going round (`input()`, an MCP elicitation `ctx.elicit(...)`,
a helper named like `ask_choice`/`ask_user`: the next call carries their
answer), nor is a loop going round only on the project's own
signal named as a request to go round, not a failure (`except
ModelRequestRetry: continue`, raised when the person asks to resend the
request; a class of the module or of the linted file's own package whose
name says retry/resend and no error word: `RetryableError`, a library's
`RetryAfter` are failures), nor is a loop asking the person at the terminal again
(`input(...)`, `getpass.getpass(...)` in the `try`: the person ends it), nor is a wait on a local result: a `try` that only asks
a future, thread or process for its result with a timeout
(`future.result(timeout=1)`, `.join(1)`, a child's `proc.wait(timeout=5)` or
`proc.communicate(timeout=5)`) and handlers catching only the timeout
(`TimeoutError`, subprocess's `TimeoutExpired`: s50, batch 22), whatever the
handler does between the ticks (a lease refreshed, a heartbeat): nothing is
sent again, and the child ends the loop; so is such a wait under asyncio's deadline,
`await asyncio.wait_for(stop_event.wait(), timeout=interval)` then `break`,
whose `TimeoutError` is the tick of a periodic loop (a flush each interval
until the stop event is set: s48, batch 20). Nor is an optimistic-concurrency loop whose
going-round handlers catch only a conflict (redis `WATCH`/`MULTI`/`EXEC` going
round on `WatchError`): each conflict means another client's write went
through, so the system progresses, and any other failure leaves the loop. A
loop going round on a constraint violation (`IntegrityError`) is still
reported: a duplicate key sent again fails for ever. Loops whose `try` has no
plain success exit (a worker that handles messages for ever, a poll that
returns only when a status says so) are not retries and stay silent. A loop in
a retry decorator or helper (it calls the function it was given) is TFH301.

Also a loop that ends only when its `try` grows the list whose length it
tests (`while idx >= len(decoded): try: decoded.append(sample(p)) except
Exception: time.sleep(600)`): success is the only way out, as in `while
True`.

Also a counted loop that a failure never counts: `while retries < limit:`
with `retries += 1` after the `try` (or in another handler), and a handler
that goes round with `continue` before reaching it, with no exit, no
increment of its own and no check of the counter before the `try`: that
failure (a refused connection, a proxy's HTML page) loops for ever. A counter
is read by its name's words (`retries`, `max_num_retries`, `attempt`,
`n_tries`; not `entries`). Such a loop is a retry whatever it prepares before
the `try` (rotating a key, waiting for a rate-limit token).

## Why is this bad?
A permanent failure (bad credentials, a deleted resource, a bug) makes this
loop spin until the process is killed: an agent step that never ends, a
worker held, and, with no sleep either, an API hammered.

## Example
```python
while True:
    try:
        return client.fetch(doc_id)
    except httpx.TransportError:
        log.warning("retrying")
        time.sleep(1)
```

## Use instead
```python
for attempt in range(5):
    try:
        return client.fetch(doc_id)
    except httpx.TransportError:
        if attempt == 4:
            raise
        time.sleep(2 ** attempt)
```

## How to suppress
`# noqa: TFH302` on the `while` line (say what ends it: a supervisor's
timeout, a cancellation), or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        # s56 (batch 27 deepseek-team, batch 28 hpc-sandbox): a system call a signal interrupted (EINTR) is called
        # again: the kernel's protocol, not a failure retried
        """\
import fcntl, os
def lock(fd):
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return
        except InterruptedError:
            continue
def reap(child):
    while True:
        try:
            _, status = os.waitpid(child, 0)
        except InterruptedError:
            continue
        return status
""",
        # s53 (batch 25 rmote): a non-blocking TLS handshake on a memory BIO: SSLWantReadError asks for more bytes
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
        # s53 (batch 25 clauster): an in-process queue full: drop the oldest and put again (a protocol step)
        """\
import asyncio
def force_deliver(queue: asyncio.Queue, event):
    while True:
        try:
            queue.put_nowait(event)
            return
        except asyncio.QueueFull:
            try:
                queue.get_nowait()
            except asyncio.QueueEmpty:
                continue
""",
        # s43 (batch 15 lock-wait): a non-blocking lock attempt in a loop, OSError (held elsewhere) -> a short sleep
        """\
import fcntl, msvcrt, time
def lock_windows(handle):
    while True:
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            break
        except OSError:
            time.sleep(0.01)
def lock_posix(fd):
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except (BlockingIOError, OSError):
            time.sleep(0.05)
""",
        # every failure reaches the counter: the bound holds
        """\
import requests
def complete(url, prompt, limit=3):
    tries = 0
    while tries < limit:
        try:
            return requests.post(url, json={"prompt": prompt}, timeout=60).json()["text"]
        except requests.ConnectionError:
            print("connection refused, trying again")
        except KeyError:
            print("unexpected reply")
        tries += 1
    raise RuntimeError("no completion")
""",
        # issue 23: waiting on a local future (a worker thread computes it), not a retry: nothing is re-sent
        """\
import asyncio, concurrent.futures
async def result_of(future):
    while True:
        try:
            return future.result(timeout=0.05)
        except concurrent.futures.TimeoutError:
            pass
        await asyncio.sleep(0.5)
""",
        # a dev server restarted until the person at the terminal stops it
        """\
import time
def main(server):
    while True:
        try:
            server.serve_forever()
            break
        except OSError as e:
            print("restarting after", e)
            time.sleep(1)
""",
        # a lock wait: an exclusive create that finds the lock file held, waits and tries again
        """\
import os, time
def acquire(path):
    while True:
        try:
            return os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            time.sleep(0.01)
""",
        # s42 (wizolt, user-requested-resend): the loop goes round only on the project's own signal, named
        # as a request to resend (raised when the person asks for the in-flight request again); every
        # failure leaves the loop
        """\
from ..base import ModelError, ModelRequestRetry
class Engine:
    async def request_step(self, messages):
        while True:
            try:
                return await self.model.request(messages)
            except ModelRequestRetry:
                continue
""",
        # issue 23: optimistic concurrency (redis WATCH): a WatchError means another client committed
        # between the read and the write, so each round follows someone's progress; other errors raise
        """\
from redis.exceptions import WatchError
def reserve(r, key, n):
    with r.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)
                left = int(pipe.get(key) or 0)
                if left < n:
                    return False
                pipe.multi()
                pipe.set(key, left - n)
                pipe.execute()
                return True
            except WatchError:
                continue
""",
        # the handler's helper decides: it raises once the attempts are spent (and sleeps otherwise)
        """\
import time, httpx
class Client:
    def _backoff_or_raise(self, error, attempt):
        if attempt >= 5:
            raise error
        time.sleep(2 ** attempt)
    def fetch(self, url):
        attempt = 0
        while True:
            try:
                return httpx.get(url)
            except httpx.TransportError as e:
                attempt += 1
                self._backoff_or_raise(e, attempt)
""",
        """\
import asyncio
async def drain(task):
    while True:  # waits on the same task through cancellation: re-runs nothing
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            continue
""",
        """\
def open_unique(path):
    n = 0
    while True:  # each round tries another name: a search, not a retry
        try:
            return open(f"{path}.{n}", "xb")
        except FileExistsError:
            n += 1
""",
        """\
import time
def fetch(client):
    attempts = 0
    while True:
        try:
            return client.get("/x")
        except ConnectionError:
            attempts += 1
            if attempts > 5:
                raise
            time.sleep(attempts)
""",
        """\
import time
def fetch(client, deadline):
    while True:
        if time.monotonic() > deadline:  # a deadline check
            raise TimeoutError
        try:
            return client.get("/x")
        except ConnectionError:
            time.sleep(1)
""",
        """\
def consume(queue, handle, log):
    while True:  # a worker loop: the try never leaves on success
        try:
            handle(queue.get())
        except Exception as exc:
            log.exception(exc)
""",
        """\
import time
def wait_ready(client):
    while True:  # polling: leaves only when a status says so
        try:
            status = client.status()
            if status == "ready":
                return status
        except ConnectionError:
            pass
        time.sleep(5)
""",
        """\
def fetch(client, stop_event):
    while not stop_event.is_set():  # any other test may be the bound
        try:
            return client.get("/x")
        except ConnectionError:
            continue
""",
        """\
def fetch(client):
    for attempt in range(3):
        try:
            return client.get("/x")
        except ConnectionError:
            continue
""",
        """\
async def fetch(client, log):
    while True:
        try:
            return await client.get("/x")
        except ConnectionError as exc:
            log.warning("gave up: %s", exc)
            break
        except TimeoutError:
            raise
""",
        """\
def fetch(client):
    tries = 0
    while True:
        tries += 1
        try:
            if tries > 3:
                return None
            return client.get("/x")
        except ConnectionError:
            pass
""",
        """\
def retrying(func):
    def wrapper(*args):
        while True:  # a retry decorator: TFH301's
            try:
                return func(*args)
            except ConnectionError:
                pass
    return wrapper
""",
        """\
def read_all(stream, out):
    while True:
        try:
            chunk = next(stream)
        except StopIteration:
            break
        out.append(chunk)
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
        # s40: asking the person at the terminal again on a bad answer is no retry (the person ends it)
        """\
def ask(params, log):
    args = []
    for name in params:
        while True:
            try:
                args.append(int(input(f"Enter value for {name}: ")))
                break
            except ValueError:
                log.error("please enter an integer")
    return args
""",
        # s40: a loop growing the list it tests that also counts its failures and gives up
        """\
import time
def sample_all(client, prefixes):
    out = []
    for idx, prefix in enumerate(prefixes):
        failures = 0
        while idx >= len(out):
            try:
                out.append(client.complete(prefix))
            except Exception:
                failures += 1
                if failures == 3:
                    raise
                time.sleep(2 ** failures)
    return out
""",
        # s48 (batch 20 portacode ``not-a-retry-periodic-flush``): `while True` waits for a local stop event under
        # asyncio's deadline and flushes each time the wait times out: the timeout is a tick, nothing is re-sent
        """\
import asyncio
async def stream(process, stop_event, flush, interval):
    async def _flusher():
        while True:
            try:
                await asyncio.wait_for(stop_event.wait(), timeout=interval)
                break
            except asyncio.TimeoutError:
                await flush()
        await flush()
    return asyncio.create_task(_flusher())
""",
        # s50 (batch 22 local-shell-mcp ``lease-refresh-during-wait``; the same wait in gptme, hermes-agent, brindle,
        # offset-terminal, onefirewall-ai): a child's `communicate(timeout=...)`/`wait(timeout=...)` re-entered after
        # its `subprocess.TimeoutExpired` waits on the same local process (the child ends the loop), doing periodic work
        # between the ticks: nothing is sent again
        """import subprocess
def download(command, refresh_lease, interval):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while True:
        try:
            stdout, stderr = process.communicate(timeout=interval)
            break
        except subprocess.TimeoutExpired:
            refresh_lease()
    return process.returncode, stdout
def watch(proc, heartbeat):
    while True:
        try:
            rc = proc.wait(timeout=5)
            break
        except subprocess.TimeoutExpired:
            heartbeat()
    return rc
""",
    ]
    INVALID = [
        # s56: beside the EINTR restart, a handler that also catches a failure (a refused connection) retries it
        """import socket
def connect(sock, address):
    while True:  # error: TFH302
        try:
            sock.connect(address)
            return
        except (InterruptedError, ConnectionRefusedError):
            continue
""",
        # s50: a command run again after its timeout (a new child each round, `subprocess.run`) is a retry, as is a
        # wait whose handler also catches other failures
        """import subprocess
def sync(command):
    while True:  # error: TFH302
        try:
            return subprocess.run(command, capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            continue
def drain(process, refresh_lease):
    while True:  # error: TFH302
        try:
            out, _ = process.communicate(timeout=5)
            break
        except (subprocess.TimeoutExpired, OSError):
            refresh_lease()
    return out
""",
        # s43: the lock taken together with other work, or a handler catching any failure, is a retry again
        """\
import msvcrt, time
def locked_write(handle, data):
    while True:  # error: TFH302
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            send(data)
            break
        except OSError:
            time.sleep(0.01)
def lock_any(handle):
    while True:  # error: TFH302
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            break
        except Exception:
            time.sleep(0.01)
""",
        # s42: a class named as retryable is a failure (`RetryableError`), and a library's `RetryAfter` (a
        # rate limit) is not the project's own signal: both are retries of a failure
        """\
from ..errors import RetryableError
import telegram
def send(client, bot, text):
    while True:  # error: TFH302 "retries `client.post()`"
        try:
            return client.post("/messages", json={"text": text})
        except RetryableError:
            continue
def notify(bot, text):
    while True:  # error: TFH302 "retries `bot.send_message()`"
        try:
            return bot.send_message(text)
        except telegram.error.RetryAfter as e:
            print(e)
""",
        # s40 (ai-researcher): the loop ends only when the `try` grows the list it tests the length of; any failure
        # (a bad key, a removed model) goes round for ever
        """\
import time
class Builder:
    def sample_all(self, prefixes):
        decoded = []
        for idx, prefix in enumerate(prefixes):
            while idx >= len(decoded):  # error: TFH302 "`while idx >= len(decoded)` retries `self.client.complete()`"
                try:
                    decoded.append(self.client.complete(prefix))
                except Exception as ex:
                    print(ex)
                    time.sleep(600)
        return decoded
""",
        # issue 23 (counter-skipped-by-continue): the `continue` jumps over `tries += 1`, so a refused
        # connection never counts and the bound never ends the loop
        """\
import requests
def complete(url, prompt, limit=3):
    tries = 0
    while tries < limit:  # error: TFH302 "before `tries` is counted"
        try:
            return requests.post(url, json={"prompt": prompt}, timeout=60).json()["text"]
        except requests.ConnectionError:
            print("connection refused, trying again")
            continue
        except KeyError:
            print("unexpected reply")
        tries += 1
    raise RuntimeError("no completion")
""",
        """\
import time
def fetch(client):
    while True:  # error: TFH302:5 "`while True` retries `client.get()` with no bound: count attempts and give up after N"
        try:
            return client.get("/x")
        except ConnectionError:
            time.sleep(1)
""",
        """\
def fetch(client, log):
    while 1:  # error: TFH302
        try:
            data = client.get("/x")
            break
        except Exception as exc:
            log.warning("retrying: %s", exc)
            continue
    return data
""",
        """\
import asyncio
async def fetch(session):
    while True:  # error: TFH302
        try:
            async with session.get("https://x") as r:
                return await r.json()
        except (ConnectionError, asyncio.TimeoutError):
            await asyncio.sleep(2)
""",
        """\
import time as t
class Agent:
    def step(self):
        while True:  # error: TFH302
            try:
                result = self.llm.invoke(self.prompt)
            except Exception:
                t.sleep(3)
                continue
            break
        return result
""",
        """\
def outer(client):
    def inner():
        while True:  # error: TFH302
            try:
                return client.get("/x")
            except OSError:
                pass
    return inner()
""",
        """\
import time
def fetch(client):
    while True:  # error: TFH302
        try:
            resp = client.get("/x")
        except ConnectionError:
            time.sleep(1)
            continue
        else:
            return resp
""",
        """\
def fetch(client, lock):
    while True:  # error: TFH302
        with lock:
            try:
                return client.get("/x")
            except TimeoutError:
                pass
""",
        """\
import logging
def fetch(client):
    count = 0
    while True:  # error: TFH302
        try:
            return client.get("/x")
        except ConnectionError:
            count += 1  # counted, never compared
            logging.warning("attempt failed")
""",
        # a constraint violation is not a conflict that passes: the same duplicate row fails for ever
        """\
import sqlalchemy.exc
def add_user(session, user):
    while True:  # error: TFH302
        try:
            session.add(user)
            session.commit()
            return user
        except sqlalchemy.exc.IntegrityError:
            session.rollback()
""",
        # a success flag instead of `break` (issue 23)
        """\
import time
import requests
def fetch(url):
    ok = False
    while not ok:  # error: TFH302 "`while not ok` retries"
        try:
            r = requests.get(url, timeout=5)
            ok = True
        except requests.ConnectionError:
            time.sleep(1)
    return r
""",
    ]

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            loop = retry.loop
            if retry.kind == "loop" and loop is not None and not paths.forever(loop):
                self._check_skipped_counter(loop)
            if retry.kind != "loop" or loop is None or not paths.forever(loop):
                continue
            if paths.calls_parameter(loop, self.loop_parameters.get(id(loop.node), ())) is not None:
                continue  # a retry decorator or helper: TFH301
            failing = handlers.failure_handlers(loop)
            if not failing:
                continue  # waits through cancellation, or tries something else each round
            if handlers.only_conflicts(failing):
                continue  # a redis WATCH loop: each conflict is another client's commit (issue 23)
            if paths.plain_success_exit(loop) and paths.bound(loop) is None:
                test = loop.node.test if isinstance(loop.node, cst.While) else None
                head = "while " + cst.Module([]).code_for_node(test) if test is not None else "while True"
                self.report(loop.node, call=paths.callee_text(loop), head=head)

    def _check_skipped_counter(self, loop: Loop) -> None:
        """``while retries < limit`` whose handler ``continue``s past ``retries += 1`` (issue 23)."""
        if paths.calls_parameter(loop, self.loop_parameters.get(id(loop.node), ())) is not None:
            return
        if not paths.plain_success_exit(loop):
            return
        failing = [h for h in handlers.failure_handlers(loop) if not handlers.only_conflicts([h])]
        found = paths.skipped_counter(loop, failing)
        if found is None:
            return
        handler, counter = found
        caught = cst.Module([]).code_for_node(handler.type) if handler.type is not None else "everything"
        assert isinstance(loop.node, cst.While)
        self.report(
            loop.node,
            call=f"{paths.callee_text(loop)} (its `except {caught}` goes round with `continue` before `{counter}` is counted)",
            head="while " + cst.Module([]).code_for_node(loop.node.test),
        )
