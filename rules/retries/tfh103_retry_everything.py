"""TFH103 retry-everything."""

from __future__ import annotations

import libcst as cst

from . import paths
from . import examples_tfh103 as examples
from .base import RetryRule
from .deny import deny_why, excludes_permanent
from .model import Condition, RetryModel

# kinds whose condition is about exceptions (a runtime retry decides on typed
# results; urllib3 on statuses; an own decorator's loop is reported where it is written)
_KINDS = frozenset({"tenacity", "backoff", "stamina", "loop", "with-retry", "tool-middleware", "transport"})
_DEFAULTS = {
    "tenacity": "tenacity retries every exception when no retry= is given",
    "with-retry": "with_retry() retries every Exception unless retry_if_exception_type= says otherwise",
    "tool-middleware": "ToolRetryMiddleware retries every Exception unless retry_on= says otherwise",
    "transport": "the transport's tenacity config has no retry=, so every exception is retried",
}


class RetryEverything(RetryRule):
    code = "TFH103"
    name = "retry-everything"
    summary = "A retry retries every exception, bugs and permanent failures included."
    message = (
        "{why}: a bug (TypeError, KeyError) or a permanent failure is retried like an outage; "
        "retry only the transient failures (timeouts, connection errors, 429 and 5xx)"
    )
    docs = """\
## What it does
Finds a retry with no condition at all (tenacity's `@retry`, `@retry(stop=...)`
without `retry=`, `Retrying(...)`; LangChain `with_retry()` and
`ToolRetryMiddleware()` without a condition), and one whose literal
condition names `Exception` or `BaseException`: tenacity
`retry_if_exception_type(Exception)`, backoff's exception tuple, stamina
`on=Exception`, a hand-written loop's or a same-module retry decorator's
`except Exception:` (or bare `except:`) that goes round again. A condition
held in a variable of the module is read (`cond = retry_if_exception_type(...)`,
then `retry(retry=cond)`; `A if ... else B` retries on either). backoff `on_predicate` retries on results, not
exceptions, and stamina cannot be used without `on=`: neither fires unless
it names `Exception`. `retry_if_not_exception_type(())` excludes nothing, so
it retries everything too.

A deny-list retries everything but what it names, so it is reported too:
tenacity `retry_if_not_exception_type((A, B))`, and `retry_if_exception(pred)`
where `pred` is `lambda e: not isinstance(e, A)` or a same-module function of
one argument whose `if` tests (an `isinstance` of it among them) return `False`
and whose last line returns `True` or `not ...`. Not reported: a deny-list that
keeps out both a bug's builtin (`TypeError`, `ValueError`, `KeyError`,
`AttributeError`, `IndexError`) and a permanent request error (an SDK's
`BadRequestError`, `AuthenticationError`, ...). Limit: a condition or predicate
imported from another module is not read (the linter reads one module at a
time), so `retry=shared_condition` imported from a package's config module is
not reported.

## What counts as a retry
- a retry library's construct (tenacity, backoff, stamina, LangChain
  `with_retry`, this project's runtime), also when a same-module factory builds
  it: a function or method returning `retry(...)`/`Retrying(...)` applied as
  `@retry_decorator`, `retry_decorator(fn)`, or iterated as
  `for attempt in self._retrying():`. A factory that nothing in its module
  applies (a base class's or a utility module's, used by other modules of the
  package) is read where it builds the retry: its condition, stop and wait
  are reported there. LangChain's `create_base_retry_decorator(error_types=...,
  max_retries=...)` is such a factory (a tenacity retry on those types);
- a hand-written loop around a `try` whose handler goes round again: `for _ in
  range(n)`, `for delay in (1, 2, 4)` (a literal list of numbers), `while
  attempt < n` (the counter may change in the handler, logging or an `if`
  may come before the `try`), `while True`, and `while not ok` ending on a
  success flag (`ok = True`) instead of `break`; in functions, methods and
  `async` code alike. A `while` counting attempts (`while attempt < limit`,
  the handler adding to `attempt`) is a retry however long its attempt is
  (a page load with a scroll loop inside).

Not a retry: a benchmark loop (a `for` with no success exit that reads a
timer such as `time.perf_counter()` every round), a loop that restarts a
server run in the foreground (`uvicorn.run(app)`, `server.serve_forever()`,
`app.run()`: a person stops it), a message loop (a `while` whose `try` starts by receiving one
message: `ws.recv()`, `queue.get()`, `consumer.poll()`, ...; a failure is
logged and the next message read), a worker or polling loop that does its work
before the `try`, a `for` that walks data (its target read in the attempt).

Not a retry either: a `for _ in range(n)` that never leaves on success and
does not say it retries (no counter-like name, no wait or "retry" in its
handler): `for _ in range(2): try: send(req) except Exception: log(...)`
makes both requests by design (a flush, a warm-up), tolerating failures.

Not retrying everything, though it catches `Exception`: a handler that decides
from the exception which failures go round: it tests the exception and
raises, returns or breaks for the rest (`if not is_transient(e): raise`), or
hands it to a same-module function that re-raises it on some path
(`except Exception as e: _handle_transient_error(e, attempt)`, the helper
raising `e`, or a new error `from e`, unless it is a 5xx, a 429 or a dropped
connection). A helper that only logs, or raises something else, decides
nothing. A handler that changes the next request (a smaller context, an
assistant prefill) is still reported here if it catches everything: what it
catches, not what it sends next, is this rule's question (TFH303 reads the
change).

## Why is this bad?
Every exception includes the ones retrying cannot fix: a `TypeError` from a
bug, a `KeyError` from a changed response shape, a 401. They are retried
until the stop, the caller waits for nothing, and the real error shows up late
(or as `RetryError`), after the load has been multiplied.

## Example
```python
import httpx
from tenacity import retry, stop_after_attempt, wait_exponential_jitter

@retry(stop=stop_after_attempt(5), wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url, timeout=10).raise_for_status().json()
```

## Use instead
```python
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

@retry(retry=retry_if_exception_type((httpx.TransportError,)), stop=stop_after_attempt(5),
       wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url, timeout=10).raise_for_status().json()
```

## How to suppress
`# noqa: TFH103` on the reported line, when every exception really is
transient for this call (say why).
"""
    VALID = examples.VALID
    INVALID = examples.INVALID

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            cond = retry.condition
            if retry.kind not in _KINDS or not isinstance(cond, Condition):
                continue
            if cond.excluded and not cond.every_exception:
                if not excludes_permanent(cond.excluded, self.knowledge):
                    self.report(retry.anchor, why=deny_why(cond.excluded))  # where the retry is written, as for no condition
                continue
            if not cond.every_exception:
                continue
            loop = retry.loop
            if loop is not None and isinstance(loop.node, cst.For) and not paths.leaves_on_success(loop):
                if paths.iterates(loop) or not paths.looks_like_retry(loop):
                    continue  # `for _ in range(2): try: request() except Exception: log()`: n requests by design
            if cond.default:
                why = _DEFAULTS.get(retry.kind, "this retry has no condition, so it retries every exception")
                self.report(retry.anchor, why=why)
            else:
                where: cst.CSTNode = cond.node if cond.node is not None else retry.anchor
                named = ", ".join(t for t in cond.exceptions if t in self.knowledge.every_exception) or "everything"
                if retry.loop is not None:
                    for handler in retry.loop.handlers:
                        if handler.type is None:
                            where, named = handler, "everything (a bare except)"
                            break
                        if set(model.exception_names(handler.type) or ()) & self.knowledge.every_exception:
                            where = handler
                            break
                self.report(where, why=f"the retry condition names {named}")
