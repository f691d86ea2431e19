"""TFH301 unbounded-retry."""

from __future__ import annotations

import libcst as cst

from ...linter.api import RawFix, dotted, retry_keyword_fix
from . import handlers, paths
from .base import RetryRule
from .data import WORKER_ENTRY_NAMES
from .model import Retry, RetryModel, Stop

_FIX = {
    "tenacity": "add stop=stop_after_attempt(n) (and stop_after_delay(s) for a time budget)",
    "transport": "give its config a stop=stop_after_attempt(n)",
    "backoff": "pass max_tries=n or max_time=seconds",
    "stamina": "keep attempts= or timeout= a number",
}


class UnboundedRetry(paths.LoopParameters, RetryRule):
    code = "TFH301"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "unbounded-retry"
    summary = "A retry with no stop: it retries for ever."
    message = "{what} never stops retrying: {fix}"
    docs = """\
## What it does
Finds a retry that has no bound on attempts or time:
tenacity (`@retry`, `Retrying`/`AsyncRetrying`, `for attempt in Retrying(...)`,
pydantic-ai's `TenacityTransport`) without `stop=` or with `stop=stop_never`;
`backoff.on_exception`/`on_predicate` with neither `max_tries` nor `max_time`;
`stamina.retry`/`retry_context` with `attempts=None` and `timeout=None`; this
project's runtime retry built with no attempt bound and no budget (it raises
`ConfigError` when built: reported when the call is literal); and a project's
own retry decorator or helper (a loop that calls the function it was given)
that is a `while True` with nothing that ends it. A bound passed as a
variable or through `**kwargs` counts as present. A retry built apart from
where it is applied (`retrying = AsyncRetrying(...)` then `async for attempt
in retrying:`, or a same-module factory) is reported where it is built: the call
`stop=` goes in (no fix is offered there).

## Why is this bad?
tenacity's default is to retry for ever, and backoff without limits does the
same. When the failure is not transient (a revoked key, a removed endpoint),
the agent spins on it until someone kills the process, holding a worker and
burning quota. A retry needs a budget per call, and the task needs one too.

## Example
```python
import httpx
from tenacity import retry, retry_if_exception_type, wait_exponential

@retry(retry=retry_if_exception_type(httpx.TransportError), wait=wait_exponential(max=30))
def fetch(url):
    return httpx.get(url, timeout=10)
```

## Use instead
```python
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, stop_after_delay, wait_exponential

@retry(retry=retry_if_exception_type(httpx.TransportError),
       stop=stop_after_attempt(5) | stop_after_delay(60), wait=wait_exponential(max=30))
def fetch(url):
    return httpx.get(url, timeout=10)
```

## Fix
`smullyan lint --fix` bounds tenacity with `stop=stop_after_attempt(N)`
(replacing `stop=stop_never`; a bare `@retry` becomes `@retry(stop=...)`) and
backoff with `max_tries=N`, N being `default-max-attempts` (3 unless
configured). The import is added the way the file imports tenacity
(`tenacity.stop_after_attempt` after `import tenacity`, else the name joins
the `from tenacity import ...` line, else a new import line after the leading
imports). This changes what the program does on purpose: after N attempts
the last exception is raised (tenacity: `RetryError`, unless `reraise=True`)
instead of retrying for ever. Hand-written loops, stamina and the runtime
get no fix: where to count is a decision. Nor does a retry around a
long-running worker's body (s56): a function that returns no value and is a
worker's entry (`run`, `serve_forever`, `listen`, `consume`, ...) or holds a
`while` loop with no counted bound, such as a stream's `run()` that
`@retry(wait=...)` reconnects: after N quick failures the worker would stop
for good (a few seconds' network blip would end a trading daemon's market
data). The finding stays; bound it by what the worker should survive
(`stop_after_delay`, a shutdown event), or say why it runs for ever.

## How to suppress
`# noqa: TFH301` on the line of the retry (say what bounds it instead: a
caller's deadline, a cancellation), or `ignore`/`per-file-ignores` in the
configuration.
"""
    VALID = [
        """\
from tenacity import retry, stop_after_attempt, wait_fixed
@retry(stop=stop_after_attempt(3), wait=wait_fixed(1))
def fetch():
    ...
""",
        # s37: a retry decorator on a generator function (sync or async) never runs an attempt that can fail: the call
        # only builds the generator; no retry rule reports it (see TFH103's docs), so no stop is asked for either
        """\
import backoff
from tenacity import retry
@retry
def lines(session, url):
    with session.get(url, stream=True, timeout=10) as r:
        yield from r.iter_lines()
@backoff.on_exception(backoff.expo, Exception)
async def chunks(client, url):
    async with client.stream("GET", url) as r:
        async for chunk in r.aiter_bytes():
            yield chunk
""",
        """\
import tenacity
STOP = tenacity.stop_after_delay(30)
@tenacity.retry(stop=STOP)  # a variable counts as a bound
def fetch():
    ...
def build(**options):
    return tenacity.Retrying(**options)  # may hold stop=
""",
        """\
import backoff, requests
@backoff.on_exception(backoff.expo, requests.RequestException, max_time=60)
def get(url):
    return requests.get(url, timeout=5)
@backoff.on_predicate(backoff.fibo, lambda r: r is None, max_tries=8)
def poll():
    ...
""",
        """\
import stamina
@stamina.retry(on=ConnectionError, attempts=None, timeout=30)
def fetch():
    ...
async def go():
    async for attempt in stamina.retry_context(on=ConnectionError):
        with attempt:
            ...
""",
        """\
from tenacity import AsyncRetrying, stop_after_attempt
async def run(call):
    async for attempt in AsyncRetrying(stop=stop_after_attempt(4)):
        with attempt:
            await call()
""",
        """\
from smullyan import runtime as tool
def build(sleep, budget, clauses):
    a = tool.terse.retry(times=4, sleep=sleep)
    b = tool.terse.retry(budget=budget, sleep=sleep)
    clock = tool.with_clock(sleep)
    c = clock.retrying(tool.while_transient, tool.up_to(4).attempts)
    d = clock.retrying(tool.while_transient, *clauses)
    return a, b, c, d
""",
        """\
import functools
def retrying(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        for attempt in range(5):  # bounded
            try:
                return func(*args, **kwargs)
            except ConnectionError:
                continue
        raise RuntimeError("gave up")
    return wrapper
""",
        """\
def retrying(func, limit):
    def wrapper(*args):
        attempts = 0
        while True:
            try:
                return func(*args)
            except ConnectionError:
                attempts += 1
                if attempts >= limit:
                    raise
    return wrapper
""",
        """\
def serve(handle, queue):
    while True:  # a worker loop: no success exit, not a retry
        try:
            handle(queue.get())
        except Exception:
            continue
""",
        """\
def retry(stop=None):  # not tenacity's: unknown
    return lambda f: f
@retry()
def fetch():
    ...
""",
    ]
    INVALID = [
        # s42: a tenacity retry held in a name is reported where it is built
        """\
from tenacity import AsyncRetrying, retry_if_exception_type, wait_exponential
async def subscribe(open_subscription):
    retrying = AsyncRetrying(wait=wait_exponential(max=30), retry=retry_if_exception_type(ConnectionError))  # error: TFH301
    async for attempt in retrying:
        with attempt:
            return await open_subscription()
""",
        """\
from tenacity import retry, wait_exponential
@retry(wait=wait_exponential(max=30))  # error: TFH301 "`retry` never stops retrying: add stop=stop_after_attempt(n)"
def fetch(url):
    ...
@retry  # error: TFH301
def fetch2(url):
    ...
""",
        """\
import tenacity as t
@t.retry(stop=t.stop_never, wait=t.wait_fixed(2))  # error: TFH301
def fetch():
    ...
""",
        """\
from tenacity import Retrying, AsyncRetrying, wait_fixed
def run(call):
    for attempt in Retrying(wait=wait_fixed(1)):  # error: TFH301
        with attempt:
            call()
async def arun(call):
    async for attempt in AsyncRetrying(wait=wait_fixed(1)):  # error: TFH301
        with attempt:
            await call()
""",
        """\
import backoff
from backoff import on_exception as retry_on
@backoff.on_exception(backoff.expo, ConnectionError)  # error: TFH301
def get(url):
    ...
@retry_on(backoff.constant, TimeoutError, interval=1)  # error: TFH301
def get2(url):
    ...
""",
        """\
import stamina
@stamina.retry(on=ConnectionError, attempts=None, timeout=None)  # error: TFH301
def fetch():
    ...
def go(call):
    for attempt in stamina.retry_context(on=OSError, attempts=None, timeout=None):  # error: TFH301
        with attempt:
            call()
""",
        """\
from smullyan import runtime as tool
def build(sleep):
    clock = tool.with_clock(sleep)
    a = clock.retrying(tool.while_transient, tool.backing_off(tool.constant(tool.millis(10))))  # error: TFH301
    b = tool.terse.retry(sleep=sleep, times=None)  # error: TFH301
    return a, b
""",
        """\
import functools, time
def retrying(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        while True:  # error: TFH301
            try:
                return func(*args, **kwargs)
            except ConnectionError:
                time.sleep(1)
    return wrapper
""",
        """\
import asyncio
async def with_retries(coro_fn, *args):
    while True:  # error: TFH301
        try:
            return await coro_fn(*args)
        except (ConnectionError, TimeoutError):
            await asyncio.sleep(2)
""",
        """\
import tenacity
class Client:
    def fetch(self):
        @tenacity.retry(retry=tenacity.retry_if_exception_type(OSError))  # error: TFH301
        def inner():
            ...
        return inner()
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        model: RetryModel = self.ctx.models[RetryModel]
        retry = model.retry_at(node)
        if retry is None or retry.kind != "runtime":
            return
        how = paths.runtime_unbounded(node, self.names)
        if how is not None:
            self.report(node, what=f"the runtime's {how}", fix="add up_to(n).attempts (times=n) or a budget; as written it raises ConfigError when built")

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            if retry.kind in _FIX:
                if isinstance(retry.stop, Stop) and retry.stop.never:
                    self.report(retry.written, what=self._describe(retry), fix=_FIX[retry.kind], autofix=self._fix(retry))
            elif retry.kind == "loop" and retry.loop is not None:
                loop = retry.loop
                called = paths.calls_parameter(loop, self.loop_parameters.get(id(loop.node), ()))
                if called is None or not paths.forever(loop) or not paths.plain_success_exit(loop):
                    continue
                if not handlers.failure_handlers(loop):
                    continue
                if paths.bound(loop) is None:
                    self.report(
                        loop.node,
                        what=f"this retry loop around `{called}()` (a retry decorator or helper)",
                        fix="count attempts and re-raise after N, or give it a deadline",
                    )

    def _fix(self, retry: Retry) -> RawFix | None:
        """tenacity: ``stop=stop_after_attempt(N)``; backoff: ``max_tries=N`` (N: ``default-max-attempts``)."""
        if retry.factory is not None:
            return None  # built by a factory: the keyword belongs in the factory, shared by every use
        if retry.function is not None and restarts_a_worker(retry.function):
            return None  # s56: a long-running worker's restart: a stop would end the worker, not the retry
        n = str(self.ctx.config.default_max_attempts)
        if retry.kind == "tenacity":
            return retry_keyword_fix(self.ctx, retry.anchor, "tenacity", "stop", "tenacity.stop_after_attempt", n, "Add `stop={value}`")
        if retry.kind == "backoff":
            return retry_keyword_fix(self.ctx, retry.anchor, "backoff", "max_tries", None, n, "Add `max_tries={value}`")
        return None

    @staticmethod
    def _describe(retry: Retry) -> str:
        anchor = retry.anchor
        if isinstance(anchor, cst.For):
            call = anchor.iter
            name = dotted(call.func) if isinstance(call, cst.Call) else dotted(call)
            return f"`for attempt in {name or 'Retrying'}(...)`"
        head = anchor.func if isinstance(anchor, cst.Call) else anchor
        while isinstance(head, cst.Call):
            head = head.func
        return f"`{(dotted(head) if isinstance(head, cst.BaseExpression) else None) or retry.kind}`"


def restarts_a_worker(function: cst.FunctionDef) -> bool:
    """The retried function is a long-running worker's body (s56): it returns no value and it is named as a worker's
    entry (``WORKER_ENTRY_NAMES``: a stream's ``run``) or holds a loop with no counted bound (``while True:``,
    ``while self.is_alive():``). A ``while`` whose test compares (``while attempt < 5``) is a bounded loop."""
    shape = _WorkerShape(function)
    function.visit(shape)
    return not shape.returns and (function.name.value in WORKER_ENTRY_NAMES or shape.unbounded)


class _WorkerShape(cst.CSTVisitor):
    """What :func:`restarts_a_worker` reads of one function (a module-level class: a class made per call would be
    cyclic garbage, tests/test_perf_work_bounds.py)."""

    def __init__(self, function: cst.FunctionDef) -> None:
        self.function = function
        self.returns = False  # a ``return <value>`` of its own
        self.unbounded = False  # a ``while`` of its own whose test does not compare

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.function  # a nested function's returns and loops are its own

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None and not (isinstance(node.value, cst.Name) and node.value.value == "None"):
            self.returns = True

    def visit_While(self, node: cst.While) -> None:
        test = node.test
        while isinstance(test, cst.UnaryOperation):
            test = test.expression
        if not isinstance(test, (cst.Comparison, cst.BooleanOperation)):
            self.unbounded = True
