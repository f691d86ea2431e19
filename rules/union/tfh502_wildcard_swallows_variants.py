"""TFH502 wildcard-swallows-variants."""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, Screen
from .base import UnionRule
from .model import candidate_lines


class WildcardSwallowsVariants(UnionRule):
    code = "TFH502"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "wildcard-swallows-variants"
    summary = "A catch-all arm of a match over ToolError absorbs variants it does not name."
    message = (
        "`{arm}` takes {absorbed}, which no arm names; give each its own arm and make this one "
        "`assert_never(...)`, so a new variant is a type error instead of a silent default"
    )
    docs = """\
## What it does
In a `match` over the runtime's `ToolError` union (see TFH501 for how it is
recognised) that names at least one variant, finds the catch-all arm
(`case _`, `case other`, or in a `Result` match `case Err(e)` / `case Err(_)`
after arms for single variants) that absorbs variants no earlier unguarded arm
covers, unless the arm calls `assert_never` (from `typing`,
`typing_extensions` or the runtime, under any alias, or a local backport of
that name). The message lists what it absorbs.

Not reported: a catch-all after arms that already cover every variant (it is
unreachable, as `assert_never` says), and `case Err(e)` whose body matches or
branches on `e` again (that inner `match` is checked on its own).

## Why is this bad?
A catch-all decides for variants it never looked at: "not found" and "rate
limited" get the same answer, and a variant added to the union later gets it
too without anybody deciding. `assert_never` turns that into a type error
that names the missing variant.

## Example
```python
from smullyan.runtime import RateLimited, ToolError

def should_retry(error: ToolError) -> bool:
    match error:
        case RateLimited():
            return True
        case _:
            return False
```

## Use instead
```python
from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                              ToolError, Unavailable, Unknown, assert_never)

def should_retry(error: ToolError) -> bool:
    match error:
        case RateLimited() | Timeout() | Unavailable():
            return True
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return False
        case _:
            assert_never(error)
```

## How to suppress
`# noqa: TFH502` on the `case` line, saying why every future variant should
get this answer, or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        """\
from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                              ToolError, Unavailable, Unknown, assert_never)
def f(error: ToolError) -> bool:
    match error:
        case RateLimited() | Timeout() | Unavailable():
            return True
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return False
        case _:
            assert_never(error)
""",
        # assert_never from typing_extensions under an alias, in a capture arm
        """\
from typing_extensions import assert_never as unreachable
import smullyan.runtime as tool
def f(e):
    match e:
        case tool.RateLimited():
            return 1
        case other:
            unreachable(other)
""",
        # a local backport of assert_never
        """\
from typing import NoReturn
from smullyan.runtime import Denied
def assert_never(x: NoReturn) -> NoReturn:
    raise AssertionError(x)
def f(e):
    match e:
        case Denied():
            return 1
        case _:
            assert_never(e)
""",
        # a wildcard that absorbs nothing: every variant was named before it
        """\
import smullyan.runtime as rt
async def f(e):
    match e:
        case rt.RateLimited() | rt.Timeout() | rt.Unavailable() | rt.Unknown():
            return "retry"
        case rt.InvalidArgs() | rt.Denied() | rt.NotFound():
            return "stop"
        case _:
            raise AssertionError(e)
""",
        # a Result match that handles every error alike names no variant
        """\
from smullyan.runtime import Err, Ok, explain
def f(r):
    match r:
        case Ok(v):
            return v
        case _:
            return "failed"
""",
        # Err(e) whose body matches on e again: the inner match decides
        """\
from smullyan.runtime import Err, Ok, NotFound, RateLimited, Timeout, Unavailable, InvalidArgs, Denied, Unknown
def f(r):
    match r:
        case Err(NotFound()):
            return None
        case Err(e):
            match e:
                case RateLimited() | Timeout() | Unavailable():
                    return "retry"
                case InvalidArgs() | Denied() | NotFound() | Unknown():
                    return "stop"
        case Ok(v):
            return v
""",
        # not the runtime's classes
        """\
from mylib import Denied
def f(e):
    match e:
        case Denied():
            return 1
        case _:
            return 2
""",
        # a guarded wildcard is not a catch-all
        """\
from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
def f(e, verbose):
    match e:
        case _ if verbose:
            print(e)
        case RateLimited() | Timeout() | Unavailable():
            return "retry"
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return "stop"
""",
    ]
    INVALID = [
        """\
from smullyan.runtime import RateLimited, ToolError
def should_retry(error: ToolError) -> bool:
    match error:
        case RateLimited():
            return True
        case _:  # error: TFH502
            return False
""",
        # a capture arm
        """\
import smullyan.runtime as tool
def f(e):
    match e:
        case tool.Denied():
            return "ask"
        case other:  # error: TFH502
            return str(other)
""",
        # raising is not assert_never: a valid variant crashes at run time
        """\
from smullyan.runtime import Denied, NotFound
def f(e):
    match e:
        case Denied() | NotFound():
            return "stop"
        case _:  # error: TFH502
            raise ValueError(e)
""",
        # a guarded arm leaves its variant to the wildcard
        """\
from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
def f(e):
    match e:
        case RateLimited(retry_after_ms=ms) if ms < 1000:
            return "retry"
        case Timeout() | Unavailable() | InvalidArgs() | Denied() | NotFound() | Unknown():
            return "stop"
        case _:  # error: TFH502
            return "stop"
""",
        # a Result: Err(e) after arms for single variants
        """\
from smullyan.runtime import Err, Ok, NotFound
def f(r):
    match r:
        case Ok(v):
            return v
        case Err(NotFound()):
            return None
        case Err(e):  # error: TFH502
            return f"failed: {e}"
""",
        # the wire form
        """\
def f(payload):
    match payload:
        case {"_tag": "RateLimited"}:
            return "retry"
        case _:  # error: TFH502
            return "stop"
""",
        # a match on the tag
        """\
def f(d):
    match d["_tag"]:
        case "RateLimited" | "Timeout":
            return "retry"
        case _:  # error: TFH502
            return "stop"
""",
        # async code, a nested match on the Err's error
        """\
from smullyan.runtime import Err, Ok, Denied
async def f(tool):
    match await tool():
        case Ok(v):
            return v
        case Err(e):
            match e:
                case Denied():
                    return "ask"
                case _:  # error: TFH502
                    return "retry"
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        return candidate_lines(screen, knowledge, "matches")

    def visit_Match(self, node: cst.Match) -> None:
        s = self.match(node)
        if s.recognised and s.named and s.wildcard is not None and s.absorbed and not s.wildcard_closed:
            arm = "case " + _pattern_text(s.wildcard.pattern)
            self.report(s.wildcard, arm=arm, absorbed=", ".join(s.absorbed))


def _pattern_text(p: cst.MatchPattern) -> str:
    return cst.Module(body=[]).code_for_node(p)
