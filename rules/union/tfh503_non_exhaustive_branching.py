"""TFH503 non-exhaustive-branching."""

from __future__ import annotations

import libcst as cst

from ...linter.api import FileContext, Knowledge, Screen
from .base import UnionRule
from .model import candidate_lines


class NonExhaustiveBranching(UnionRule):
    code = "TFH503"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "non-exhaustive-branching"
    summary = "An if/elif chain or a dispatch table over ToolError misses a variant."
    message = (
        "{what} over ToolError {gap}{tail}; handle each, and end the chain with "
        "`else: assert_never(x)` (or raise), so a new variant is not silently {fate}"
    )
    docs = """\
## What it does
Finds an `if`/`elif` chain of at least two branches that tests one value's
variant and misses a variant, with no `else` that raises or calls
`assert_never`. A branch tests a variant with `isinstance(e, V)` (a tuple of
variants too; `V` resolved by qualified name, under any alias), a tag
comparison (`e.tag == "Denied"`, `d["_tag"] in ("Timeout", "Unavailable")`,
`d.get("_tag") == ...`, `type(e).__name__ == ...`) or a class comparison
(`type(e) is Denied`). A branch `e is None` (what `parse` returns for a bad
payload) may sit in the chain; a branch that tests anything else makes the
chain something else, and it is left alone. `isinstance(e, V) and ...` names
`V` without covering it, as a guard does.

Also finds a dispatch table (a dict literal) keyed by variant classes or real
tags, at least two of them and nothing else, that misses a variant.

## Why is this bad?
A variant the chain does not name takes the `else` (or nothing at all): a
rate limit is handled like a missing file, and a variant added to the union
later is handled by whatever the `else` happens to do, with no error to tell
you. A table read with `.get(tag, default)` has the same silent default.

## Example
```python
from smullyan.runtime import Denied, RateLimited, Timeout

def advise(e):
    if isinstance(e, RateLimited):
        return "wait"
    elif isinstance(e, (Timeout, Denied)):
        return "give up"
    else:
        return "retry"
```

## Use instead
```python
from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                              Unavailable, Unknown, assert_never)

def advise(e):
    if isinstance(e, RateLimited):
        return "wait"
    elif isinstance(e, (Timeout, Unavailable)):
        return "retry"
    elif isinstance(e, (InvalidArgs, Denied, NotFound, Unknown)):
        return "give up"
    else:
        assert_never(e)
```
(or a `match` ending in `case _: assert_never(e)`).

## How to suppress
`# noqa: TFH503` on the `if` line (or the dict's first line), saying why the
other variants cannot reach it, or `ignore`/`per-file-ignores` in the
configuration.
"""
    VALID = [
        """\
from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                              Unavailable, Unknown, assert_never)
def advise(e):
    if isinstance(e, RateLimited):
        return "wait"
    elif isinstance(e, (Timeout, Unavailable)):
        return "retry"
    elif isinstance(e, (InvalidArgs, Denied, NotFound, Unknown)):
        return "give up"
    else:
        assert_never(e)
""",
        # an else that raises closes the chain
        """\
from smullyan import runtime as tool
def f(e):
    if isinstance(e, tool.RateLimited):
        return 1
    elif isinstance(e, tool.Timeout):
        return 2
    else:
        raise TypeError(f"unexpected {e!r}")
""",
        # one branch is a special case, not a dispatch
        """\
from smullyan.runtime import RateLimited
async def f(e, clock):
    if isinstance(e, RateLimited):
        await clock.sleep(e.retry_after_ms)
    return e
""",
        # a chain that also tests something else is not a dispatch over the variants
        """\
from smullyan.runtime import RateLimited, Timeout
def f(e, attempts):
    if isinstance(e, RateLimited):
        return "wait"
    elif attempts > 3:
        return "stop"
    elif isinstance(e, Timeout):
        return "retry"
""",
        # XML element tags
        """\
def walk(el):
    if el.tag == "a":
        return "link"
    elif el.tag == "p":
        return "para"
""",
        # look-alike classes from another library
        """\
from mylib import RateLimited, Timeout
def f(e):
    if isinstance(e, RateLimited):
        return 1
    elif isinstance(e, Timeout):
        return 2
""",
        # a complete table of tags, and a dict that is not a table
        """\
RETRY = {"RateLimited": True, "Timeout": True, "Unavailable": True, "InvalidArgs": False,
         "Denied": False, "NotFound": False, "Unknown": False}
HTTP = {"Timeout": 408, "default": 500}
""",
        # the wire form, every tag, after a None check
        """\
from smullyan.runtime import parse
def f(payload):
    e = parse(payload)
    if e is None:
        return "bad payload"
    elif e.tag in ("RateLimited", "Timeout", "Unavailable"):
        return "retry"
    elif e.tag in ("InvalidArgs", "Denied", "NotFound", "Unknown"):
        return "stop"
""",
    ]
    INVALID = [
        # a variant tested only under a guard is named, not covered: the message says so (issue 26)
        """\
from smullyan.runtime import Denied, InvalidArgs, NotFound, RateLimited, Timeout, Unavailable, Unknown
def advise(e, budget):
    if isinstance(e, RateLimited) and budget > 0:  # error: TFH503 "over ToolError leaves RateLimited not fully covered (guarded);"
        return "wait"
    elif isinstance(e, (Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown)):
        return "give up"
""",
        # one variant absent, one guarded
        """\
from smullyan.runtime import Denied, InvalidArgs, NotFound, RateLimited, Timeout, Unknown
def advise(e, budget):
    if isinstance(e, RateLimited) and budget > 0:  # error: TFH503 "has no branch for Unavailable and leaves RateLimited not fully covered (guarded)"
        return "wait"
    elif isinstance(e, (Timeout, InvalidArgs, Denied, NotFound, Unknown)):
        return "give up"
""",
        """\
from smullyan.runtime import Denied, RateLimited, Timeout
def advise(e):
    if isinstance(e, RateLimited):  # error: TFH503 "has no branch for InvalidArgs, NotFound, Unavailable, Unknown and its else"
        return "wait"
    elif isinstance(e, (Timeout, Denied)):
        return "give up"
    else:
        return "retry"
""",
        # tag comparisons, no else
        """\
def f(e):
    if e.tag == "RateLimited":  # error: TFH503
        return "wait"
    elif e.tag == "Timeout":
        return "retry"
""",
        # the wire form
        """\
def f(d):
    if d["_tag"] == "Denied":  # error: TFH503
        return "ask"
    elif d.get("_tag") in ("Timeout", "Unavailable"):
        return "retry"
""",
        # type(x) is V, under a module alias
        """\
import smullyan.runtime as rt
def f(e):
    if type(e) is rt.NotFound:  # error: TFH503
        return 1
    elif type(e) is rt.Denied:
        return 2
""",
        # an isinstance with an extra condition covers nothing
        """\
from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
def f(e):
    if isinstance(e, RateLimited) and e.retry_after_ms < 1000:  # error: TFH503
        return "retry soon"
    elif isinstance(e, (Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown)):
        return "stop"
""",
        # a dispatch table keyed by variants
        """\
from smullyan.runtime import Denied, NotFound, RateLimited
HANDLERS = {  # error: TFH503
    RateLimited: lambda e: "wait",
    Denied: lambda e: "ask",
    NotFound: lambda e: "check",
}
""",
        # a table of tags read with a default
        """\
def retryable(d):
    table = {"RateLimited": True, "Timeout": True, "Unavailable": True}  # error: TFH503
    return table.get(d["_tag"], False)
""",
        # async code, or-ed tests on one subject
        """\
from smullyan.runtime import RateLimited, Timeout, Denied
async def f(tool):
    e = await tool()
    if isinstance(e, RateLimited) or isinstance(e, Timeout):  # error: TFH503
        return "retry"
    elif isinstance(e, Denied):
        return "ask"
    else:
        return None
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        return candidate_lines(screen, knowledge, "chains", "tables")

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._elifs: set[int] = set()

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self._elifs.add(id(node.orelse))
        if id(node) in self._elifs:
            return
        s = self.chain(node)
        if s is None or not s.named or s.branches < 2 or not s.missing or s.closed:
            return
        self.report(
            node,
            what="if/elif chain",
            gap=_gap(s.missing, s.named),
            tail=" and its else takes them" if s.has_else else "",
            fate="sent to the else" if s.has_else else "ignored",
        )

    def visit_Dict(self, node: cst.Dict) -> None:
        s = self.table(node)
        if s is not None and s.missing:
            self.report(node, what="dispatch table", gap=_gap(s.missing, set()), tail="", fate="given the default")


def _gap(missing: list[str], named: set[str]) -> str:
    """What the chain misses: the variants it never names ("has no branch for ..."), and those it tests
    only under a guard (``isinstance(e, V) and ...``: "leaves V not fully covered (guarded)")."""
    absent = [v for v in missing if v not in named]
    guarded = [v for v in missing if v in named]
    parts = []
    if absent:
        parts.append(f"has no branch for {', '.join(absent)}")
    if guarded:
        parts.append(f"leaves {', '.join(guarded)} not fully covered (guarded)")
    return " and ".join(parts)
