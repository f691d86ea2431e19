"""TFH304 retry-repeats-success."""

from __future__ import annotations

import libcst as cst

from . import handlers, paths
from .base import RetryRule
from .model import RetryModel


class RetryRepeatsSuccess(RetryRule):
    code = "TFH304"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "retry-repeats-success"
    summary = "A `for _ in range(n)` retry loop that does not stop when the call succeeds."
    message = "`for {target} in range(...)` retries {call} but never leaves on success, so a call that works is made every round: `break` or `return` right after it succeeds"
    docs = """\
## What it does
Finds a hand-written retry loop, `for _ in range(n)` around a `try` whose
handler goes round again, where nothing leaves the loop when the call
succeeds: no `break` or `return` in the `try`, its `else`, or after it. The
loop must say it retries (a counter-like name such as `attempt` or
`max_retries`, a handler that sleeps or talks of retrying, or a `for _`
whose `try` binds a value the code after the loop reads: the last round's
result is kept), so
`for _ in range(workers): try: start() except: log()` (do n things,
tolerating failures) stays silent. Retry decorators' loops count too. An
attempt that replaces the process (`os.execv` and its siblings) never comes
back when it works: the loop leaves on success (s53).

## Why is this bad?
Every successful call is made n times: three charges, three e-mails, three
tickets, and n times the latency and the token bill. Tests with a mocked
client rarely notice, because the result of the last round looks right.

## Example
```python
for attempt in range(3):
    try:
        result = client.create_ticket(payload)
    except httpx.TransportError:
        time.sleep(2 ** attempt)
```

## Use instead
```python
for attempt in range(3):
    try:
        result = client.create_ticket(payload)
        break
    except httpx.TransportError:
        time.sleep(2 ** attempt)
```

## How to suppress
`# noqa: TFH304` on the `for` line (say why repeating is wanted), or
`ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        # s53 (batch 25 runinfra-cli): os.execv never returns when it works: the loop leaves on success
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
        """\
def fetch(client, url):
    for attempt in range(3):
        try:
            for hop in range(4):  # redirects
                resp = client.get(url)
                if resp.is_redirect:
                    url = resp.headers["location"]
                    continue
                return resp  # leaves the retry loop too
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
            time.sleep(1)
""",
        """\
import time
def fetch(client):
    for attempt in range(3):
        try:
            data = client.get("/x")
        except ConnectionError:
            time.sleep(1)
            continue
        break  # after the try: success reaches it
    return data
""",
        """\
def fetch(client):
    for attempt in range(3):
        try:
            data = client.get("/x")
        except ConnectionError:
            continue
        else:
            break
    return data
""",
        """\
def start(pool, log):
    for _ in range(4):  # n workers, not a retry
        try:
            pool.append(spawn())
        except OSError:
            log.exception("could not start a worker")
def spawn():
    ...
""",
        """\
async def fetch(client, retries):
    ok = False
    for attempt in range(retries):
        try:
            data = await client.get("/x")
            ok = True
        except ConnectionError:
            continue
        if ok:
            break
    return data
""",
        """\
def fetch(client, items):
    for i in range(len(items)):  # the index is used: iterating, not retrying
        try:
            client.put(items[i])
        except ConnectionError:
            pass
""",
        """\
def fetch(client):
    while True:
        try:
            return client.get("/x")
        except ConnectionError:
            continue
""",
        """\
import asyncio
async def fetch(client):
    for attempt in range(3):
        async with client.session() as s:
            try:
                return await s.get("/x")
            except ConnectionError:
                await asyncio.sleep(1)
""",
        """\
def start_all(pool, log):
    for _ in range(4):  # four workers: nothing after the loop reads what a round bound
        try:
            worker = pool.spawn()
        except OSError:
            log("a worker did not start")
    return pool
""",
    ]
    INVALID = [
        """\
import time
def create(client, payload):
    for attempt in range(3):  # error: TFH304 "retries `client.create_ticket()` but never leaves on success"
        try:
            result = client.create_ticket(payload)
        except ConnectionError:
            time.sleep(2 ** attempt)
    return result
""",
        """\
import asyncio
async def send(client, msg, max_retries=3):
    for _ in range(max_retries):  # error: TFH304
        try:
            await client.send(msg)
        except (ConnectionError, TimeoutError):
            await asyncio.sleep(1)
""",
        """\
import logging
def run(tool, args):
    for _ in range(3):  # error: TFH304
        try:
            out = tool(args)
        except Exception:
            logging.warning("tool failed, retrying")
    return out
""",
        """\
import functools, time
def retrying(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        for attempt in range(3):  # error: TFH304
            try:
                result = func(*args, **kwargs)
            except Exception:
                time.sleep(1)
        return result
    return wrapper
""",
        """\
import time as clock
class Agent:
    def act(self):
        for retry in range(self.max_retries):  # error: TFH304
            try:
                self.output = self.llm.invoke(self.prompt)
            except TimeoutError:
                clock.sleep(3)
""",
        """\
def fetch(client):
    def inner():
        for attempt in range(2):  # error: TFH304
            try:
                client.post("/x")
            except OSError:
                pass
    return inner()
""",
        """\
import time
def fetch(client):
    for attempt in range(3):  # error: TFH304
        try:
            resp = client.get("/x")
            if resp.status_code == 200:
                data = resp.json()
        except ConnectionError:
            time.sleep(1)
    return data
""",
        """\
async def summarise(llm, prompt):
    for _ in range(3):  # error: TFH304 "retries `llm.complete()`"
        try:
            reply = await llm.complete(prompt)
        except Exception:
            continue
    return reply.text  # the last round's answer is kept: the loop retries, three paid calls
""",
        """\
def fetch(client, num_retries):
    for n in range(num_retries):  # error: TFH304
        try:
            client.get("/x")
        except ConnectionError:
            continue
""",
    ]

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            loop = retry.loop
            if retry.kind != "loop" or loop is None or not isinstance(loop.node, cst.For):
                continue
            if paths.leaves_on_success(loop) or paths.iterates(loop) or not paths.looks_like_retry(loop):
                continue
            if not handlers.failure_handlers(loop):
                continue
            target = loop.node.target
            name = target.value if isinstance(target, cst.Name) else "_"
            self.report(loop.node, target=name, call=paths.callee_text(loop))
