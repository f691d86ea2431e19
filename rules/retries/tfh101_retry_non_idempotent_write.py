"""TFH101 retry-non-idempotent-write."""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from ...linter.api import Knowledge, Screen
from . import examples_tfh101 as examples
from .base import RetryRule
from .data import IRREVERSIBLE
from .model import RetryModel
from .screen import screen_lines
from .writes import repeated_writes, urllib3_writes


class RetryNonIdempotentWrite(RetryRule):
    code = "TFH101"
    name = "retry-non-idempotent-write"
    summary = "A retry repeats a write that is not safe to repeat."
    message = (
        "retried {what} (line {line}, {cls}) has no idempotency key: send an Idempotency-Key that stays "
        "the same across attempts, reconcile by reading before retrying, or, if it only reads, declare it "
        "read-safe (@smullyan.runtime.read_safe or `classify` in the config)"
    )
    docs = """\
## What it does
Finds a retry whose retried work performs a non-idempotent write (HTTP POST or
PATCH through requests, httpx, aiohttp or urllib3; a call declared
`non-idempotent-write`) or an irreversible call (sending mail, an SMS, a
Stripe charge, ...) with no idempotency key. The retry is any the retry model
knows: tenacity, backoff, stamina, this project's runtime retry, a
`retry-decorators` entry, a hand-written retry loop, a decorator of the same
module that loops around the function, urllib3 `Retry` allowing POST on a
requests session. The retried work is read one level deep: the body, and the
same-module functions and methods it calls. The finding sits on the retry and
names the write and its line. A remote tool run is a write too: MCP's
`ClientSession.call_tool` (and fastmcp's `Client.call_tool`) runs a tool on a
server that may create, send or pay; re-sent after a timeout or a dropped
connection, it may run twice. A model call (chat, completions, embeddings) is
not a write: a retry of it costs money and rate limit, not a duplicate.

The runtime's own forms are read as the runtime reads them (issue 21):
`pipe(tool, clock.retrying(...))`, `clock.retrying(...)(tool)`, a stage held in
a name, `@clock.retrying(...)` over a def, and the block form
`for attempt in clock.attempts(...): with attempt: ...`; the tool is followed
through `calling_api`, `partial`, a wrapper without `functools.wraps`
(`logged(charge)`), a lambda, a name holding any of these, `Cls.method` (a mark
above `@staticmethod`/`@classmethod` marks the function inside) and an instance
of a class whose `__call__` is marked. A `@non_idempotent_write` retried there
is reported unless the retry is `clock.retrying(...)` over `keyed(tool)` (one
key for every attempt); an `@irreversible` one always. So is what slips past the
runtime: a mark written above the retry's own wrapper, and a `keyed(tool)`
without `key_from=` called inside a retry that is not the runtime's (each
attempt is a logical call of its own, with a new key). Names are resolved
through the imports (`import smullyan.runtime as sr`, `from smullyan.runtime
import non_idempotent_write as niw`): a module's own `pipe` or `keyed` is not
the runtime's.

Writes also include a Redis queue append or counter (`xadd`, `lpush`,
`rpush`, `incr`, ...), a message publish (Redis, Kafka, pika, Pub/Sub).
LLM inference is not a write: a POST in an LLM or embeddings integration (a
module under `llms/`, `chat_models/`, `embeddings/`, `models/`, a file named
like `*_llm.py`, a class deriving from a `...Llm`/`...ChatModel`/`...Embeddings`
base), a body with `messages` or `prompt`, or a URL naming completions, chat,
embeddings, responses, generate or predict creates nothing a retry could
duplicate (its cost, money and rate limit, is TFH103/TFH104's).

## Why is this bad?
A timeout does not say whether the request arrived. When the first attempt
charged the card and only the answer got lost, the retry charges it again.
Excluding timeouts from the retry condition does not help: a connection reset
after the request was sent is just as ambiguous.

## Example
```python
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter
import httpx

@retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(3),
       wait=wait_exponential_jitter(max=30))
def charge(customer, cents):
    return httpx.post("https://api.pay.example/charges", json={"customer": customer, "amount": cents})
```

## Use instead
```python
@retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(3),
       wait=wait_exponential_jitter(max=30))
def charge(customer, cents, key):   # key made once, before the first attempt
    return httpx.post(
        "https://api.pay.example/charges",
        json={"customer": customer, "amount": cents},
        headers={"Idempotency-Key": key},
    )
```
A POST made in a function whose name starts with `search`, `query`, `embed`,
`complete`, `infer` or `rerank` (leading underscores aside: `async def
search(self, q)`, `def _search()`) is read as a query sent as POST, not reported.
Another POST that only reads (search, embeddings, token polling, GraphQL queries):
decorate the function with `@smullyan.runtime.read_safe`, or map it in the
configuration: `classify = {"myapp.search.query" = "read-safe"}`.

## How to suppress
Declare the call's class as above (one line for every call site), or
`# noqa: TFH101` on the retry's line.
"""
    VALID = examples.VALID
    INVALID = examples.INVALID

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> Sequence[int]:
        retries, writes = screen_lines(screen, knowledge)
        return [*retries, *writes] if retries else []

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def check(self, model: RetryModel) -> None:
        # an LLM or embeddings integration's POSTs are inference: nothing a retry could duplicate
        inference = self.knowledge.llm_inference_module(self.ctx.path)
        for retry, allowed in urllib3_writes(model, inference):
            self.report(
                retry.anchor,
                f"urllib3 Retry allows {allowed}: every POST/PATCH on the session it is mounted on is "
                "retried without an idempotency key; keep allowed_methods to idempotent methods",
            )
        for retry, effect, where in repeated_writes(model, self.knowledge, inference, self._module, self.ctx.screen.tree):
            if effect.cls == IRREVERSIBLE and retry.kind == "runtime":
                even = ", even keyed" if retry.keyed else ""
                self.report(
                    retry.anchor,
                    f"retried {effect.what} (line {where}, an irreversible call) is never safe to repeat{even}: "
                    "call it once and reconcile (the runtime refuses to retry it)",
                )
                continue
            if retry.kind == "runtime":
                self.report(
                    retry.anchor,
                    f"retried {effect.what} (line {where}, {self.knowledge.write_classes[effect.cls]}) has no "
                    "idempotency key: retry keyed(tool) under clock.retrying(...) (one key for every attempt), "
                    "reconcile instead, or, if it only reads, mark it @read_safe",
                )
                continue
            self.report(retry.anchor, what=effect.what, line=where, cls=self.knowledge.write_classes[effect.cls])
