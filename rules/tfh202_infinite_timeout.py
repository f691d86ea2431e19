"""TFH202 infinite-timeout."""

from __future__ import annotations

import ast

import libcst as cst

from smullyan.linter.knowledge import Knowledge, markdown_calls, markdown_words
from smullyan.linter.rule import Rule, Screen, argument, elements, is_none, keyword_arg, positional
from smullyan.linter.timeouts import timeout_calls


_DEFAULTS = Knowledge.build()  # the library's own tables, for the docs


def _keyword_note(qualname: str) -> str | None:
    spec = _DEFAULTS.timeouts[qualname]
    notes = [f"`{spec.keyword}`"] if spec.keyword != "timeout" else []
    if spec.position is not None:
        notes.append(f"positional argument {spec.position + 1}")
    return ", ".join(notes) or None


def _has_none(node: cst.BaseExpression | ast.expr) -> bool:
    """``None``, or a ``(connect, read)`` tuple with ``None`` in it (either tree: the screen and the check agree)."""
    if is_none(node):
        return True
    return isinstance(node, (ast.Tuple, cst.Tuple)) and any(is_none(e) for e in elements(node) or ())


class InfiniteTimeout(Rule):
    code = "TFH202"
    name = "infinite-timeout"
    summary = "An explicit timeout=None turns the timeout off."
    message = "{call} gets {what}, which waits forever; pass a number of seconds"
    docs = f"""\
## What it does
Finds an explicit `None` where a timeout belongs (the calls come from
`linter/knowledge.py`): `timeout=None` (or `None` in the timeout's position)
on

{markdown_calls((q for q, spec in _DEFAULTS.timeouts.items() if spec.none_is_infinite), _keyword_note)}

a `(connect, None)` tuple where a `(connect, read)` pair is accepted
({markdown_words(sorted({q.split(".")[0] for q, spec in _DEFAULTS.timeouts.items() if spec.connect_read_tuple}))});
and timeout objects with every deadline off:
{markdown_words((f"{q}(None)" for q in _DEFAULTS.timeout_objects), "or")}
(fields that are not deadlines, {markdown_words(_DEFAULTS.timeout_object_non_deadlines)}, do not count).

## Why is this bad?
`None` means "no deadline". httpx and aiohttp have safe defaults; passing
`None` throws them away, and a hung server then stalls the agent forever.

## Example
```python
import httpx

client = httpx.Client(timeout=None)
```

## Use instead
```python
import httpx

client = httpx.Client(timeout=httpx.Timeout(10.0, connect=3.0))
```

## How to suppress
`# noqa: TFH202` on the line (say why: a long download that a caller bounds
some other way), or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        """\
import httpx, requests, asyncio
httpx.get("https://x", timeout=10)
requests.get("https://x", timeout=(3, 30))
async def f(aw):
    return await asyncio.wait_for(aw, 5)
""",
        """\
import aiohttp, httpx
t = aiohttp.ClientTimeout(total=None, sock_read=30)
u = httpx.Timeout(10.0, read=None)
aiohttp.ClientSession(timeout=None)  # None means the session default here
""",
        """\
def call(client):
    return client.get("https://x", timeout=None)  # unknown client
""",
    ]
    INVALID = [
        """\
import httpx
httpx.get("https://x", timeout=None)  # error: TFH202
client = httpx.Client(timeout=None)  # error: TFH202
async def f():
    async with httpx.AsyncClient() as c:
        await c.post("https://x", timeout=None)  # error: TFH202
""",
        """\
import requests, subprocess
requests.get("https://x", timeout=None)  # error: TFH202
requests.get("https://x", timeout=(3, None))  # error: TFH202
subprocess.run(["ls"], timeout=None)  # error: TFH202
""",
        """\
import asyncio
async def f(aw):
    return await asyncio.wait_for(aw, None)  # error: TFH202
async def g(aw):
    return await asyncio.wait_for(aw, timeout=None)  # error: TFH202
""",
        """\
import aiohttp, httpx
t = aiohttp.ClientTimeout(total=None)  # error: TFH202
u = httpx.Timeout(None)  # error: TFH202
async def f(session: aiohttp.ClientSession):
    async with aiohttp.ClientSession() as s:
        await s.get("https://x", timeout=None)  # error: TFH202
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        spots = timeout_calls(screen, knowledge, "none")
        # every finding is a None (alone, or in a (connect, read) tuple) passed to the call
        return [c.lineno for c in spots if any(_has_none(a) for a in (*c.args, *(k.value for k in c.keywords)))]

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.names.qualname(node.func)
        if qn is None:
            return
        spec = self.knowledge.timeouts.get(qn)
        if spec is not None and spec.none_is_infinite:
            arg = argument(node, spec.keyword, spec.position)
            if arg is None:
                return
            if is_none(arg.value):
                self.report(arg, call=qn, what=f"{spec.keyword}=None")
            elif spec.connect_read_tuple and _has_none(arg.value):
                self.report(arg, call=qn, what="a (connect, read) timeout with None in it")
            return
        fields = self.knowledge.timeout_objects.get(qn)
        if fields is None or any(a.star for a in node.args):
            return
        given: dict[str, cst.BaseExpression] = {}
        for i, arg in enumerate(positional(node)):
            if i < len(fields):
                given[fields[i]] = arg.value
        for name in fields:
            kw = keyword_arg(node, name)
            if kw is not None:
                given[name] = kw.value
        deadlines = {k: v for k, v in given.items() if k not in self.knowledge.timeout_object_non_deadlines}
        if deadlines and all(is_none(v) for v in deadlines.values()):
            self.report(node, call=qn, what="no deadline at all (every field None)")
