"""TFH501 non-exhaustive-match."""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, NodeEdit, RawFix, Screen, imported_names, lexical_children
from .base import UnionRule
from .model import MatchSummary, candidate_lines, only_nearest_tag


class NonExhaustiveMatch(UnionRule):
    code = "TFH501"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "non-exhaustive-match"
    summary = "A match over ToolError misses a variant and has no wildcard arm."
    message = (
        "match over {what} has no arm for {missing}; add them (then `case _: assert_never(x)`), "
        "or that failure falls through unhandled"
    )
    docs = """\
## What it does
Finds a `match` over the runtime's `ToolError` union that has no arm for some
variant and no wildcard arm, and lists the variants it misses. A `match` is
over ToolError when a class pattern resolves to one of the runtime's variants
(by qualified name, under any alias: `import smullyan.runtime as tool` then
`case tool.Denied()`), when its subject is annotated `ToolError` or `Result`,
comes from the runtime's `parse`/`parse_json`, or is the `e` of an enclosing
`case Err(e)`, or when it matches the wire form (`case {"_tag": "Denied"}`,
`match d["_tag"]: case "Denied"`).

An arm covers a variant when it matches all of it: `case RateLimited()` and
`case RateLimited(retry_after_ms=ms)` do, `case Unavailable(status=503)` and a
guarded arm (`case Timeout() if slow`) do not. Or-patterns
(`case RateLimited() | Timeout()`) cover each alternative. A match over a
`Result` needs an `Ok` arm and `Err` arms that cover every variant
(`case Err(e)` covers them all; `case Err(NotFound())` one).

The variants are the runtime's own `TAGS`: a variant added to the runtime is
missing here at once.

## Why is this bad?
A `match` with no arm for a variant does nothing for it: the failure falls
through, the function returns `None`, and the agent goes on as if the call
had worked. When the union grows (a new variant), nothing tells you which
matches must learn it.

## Example
```python
from smullyan.runtime import Denied, NotFound, RateLimited, ToolError

def advise(error: ToolError) -> str:
    match error:
        case RateLimited(retry_after_ms=ms):
            return f"wait {ms} ms"
        case Denied():
            return "ask for access"
        case NotFound():
            return "check the name"
```

## Use instead
```python
from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                              ToolError, Unavailable, Unknown, assert_never)

def advise(error: ToolError) -> str:
    match error:
        case RateLimited(retry_after_ms=ms):
            return f"wait {ms} ms"
        case Timeout() | Unavailable():
            return "try again later"
        case Denied():
            return "ask for access"
        case NotFound() | InvalidArgs():
            return "fix the call"
        case Unknown():
            return "report it"
        case _:
            assert_never(error)
```

## Fix
`smullyan lint --fix` adds one arm per missing variant, written as the other
arms are (`case Timeout():`, `case tool.Timeout():`, `case "Timeout":`,
`case {"_tag": "Timeout"}:`, `case Err(Timeout()):`, importing the class when
needed), each raising `NotImplementedError("unhandled Timeout")`; the arms go
before a guarded catch-all arm, else after the last arm. This changes what
the program does on purpose: a variant that fell through the `match`
silently now raises, so the author has to decide what it means.

## How to suppress
`# noqa: TFH501` on the `match` line, saying why the missing variants cannot
reach it, or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        # every variant named, closed with assert_never
        """\
from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                              ToolError, Unavailable, Unknown, assert_never)
def advise(error: ToolError) -> str:
    match error:
        case RateLimited() | Timeout() | Unavailable():
            return "retry"
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return "stop"
        case _:
            assert_never(error)
""",
        # an alias of the runtime module, and captures of fields
        """\
import smullyan.runtime as tool
def advise(e):
    match e:
        case tool.RateLimited(retry_after_ms=ms):
            return ms
        case tool.Timeout(after_ms) | tool.Unavailable(reason=after_ms):
            return after_ms
        case tool.InvalidArgs() | tool.Denied() | tool.NotFound():
            return 0
        case tool.Unknown(message=m):
            return m
""",
        # a wildcard arm: TFH502's business, not this rule's
        """\
from smullyan.runtime import Denied
def f(e):
    match e:
        case Denied():
            return 1
        case other:
            return 2
""",
        # a Result: Ok plus an Err arm that takes every error
        """\
from smullyan.runtime import Err, Ok, explain
async def run(tool):
    match await tool():
        case Ok(value):
            return value
        case Err(e):
            return explain(e)
""",
        # look-alike classes that are not the runtime's
        """\
from mylib.errors import Denied, NotFound
def f(e):
    match e:
        case Denied():
            return 1
        case NotFound():
            return 2
""",
        # the wire form, complete
        """\
def f(payload: dict):
    match payload:
        case {"_tag": "RateLimited" | "Timeout" | "Unavailable"}:
            return "retry"
        case {"_tag": "InvalidArgs" | "Denied" | "NotFound" | "Unknown"}:
            return "stop"
""",
        # XML and other tags stay silent
        """\
def walk(el):
    match el.tag:
        case "a":
            return "link"
        case "p":
            return "para"
""",
        # a guarded arm followed by an unguarded one for the same variant
        """\
from smullyan.runtime import ToolError, RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
def f(e: ToolError):
    match e:
        case RateLimited(retry_after_ms=ms) if ms > 60_000:
            return "give up"
        case RateLimited() | Timeout() | Unavailable():
            return "retry"
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return "stop"
""",
    ]
    INVALID = [
        """\
from smullyan.runtime import Denied, NotFound, RateLimited, ToolError
def advise(error: ToolError) -> str:
    match error:  # error: TFH501
        case RateLimited(retry_after_ms=ms):
            return f"wait {ms} ms"
        case Denied():
            return "ask for access"
        case NotFound():
            return "check the name"
""",
        # an alias of the module
        """\
from smullyan import runtime as tool
def f(e):
    match e:  # error: TFH501
        case tool.Denied() | tool.NotFound():
            return 1
""",
        # an alias of a class
        """\
from smullyan.runtime import Timeout as TO
async def f(tool):
    e = await tool()
    match e:  # error: TFH501
        case TO(after_ms=ms):
            return ms
""",
        # a guarded arm does not cover its variant
        """\
from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
def f(e):
    match e:  # error: TFH501
        case RateLimited(retry_after_ms=ms) if ms < 1000:
            return "retry soon"
        case Timeout() | Unavailable():
            return "retry"
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return "stop"
""",
        # an arm that constrains a field covers only part of the variant
        """\
from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
def f(e):
    match e:  # error: TFH501
        case Unavailable(status=503):
            return "retry"
        case RateLimited() | Timeout():
            return "retry"
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return "stop"
""",
        # the wire form
        """\
def f(payload):
    match payload:  # error: TFH501
        case {"_tag": "RateLimited", "retryAfterMs": ms}:
            return ms
        case {"_tag": "Denied"}:
            return 0
""",
        # a Result without Ok, and the nested match on the Err's error
        """\
from smullyan.runtime import Err, Ok, Denied, NotFound
def f(result):
    match result:  # error: TFH501
        case Err(e):
            match e:  # error: TFH501
                case Denied():
                    return "denied"
                case NotFound():
                    return "missing"
""",
        # a subject from the runtime's parse, matched on its tag
        """\
import json
from smullyan.runtime import parse
def f(text):
    error = parse(json.loads(text))
    match error.tag:  # error: TFH501
        case "RateLimited" | "Timeout":
            return "retry"
""",
        # Err arms that name variants, and no Err arm for the rest
        """\
from smullyan.runtime import Err, Ok, RateLimited, Timeout
def f(result):
    match result:  # error: TFH501
        case Ok(v):
            return v
        case Err(RateLimited() | Timeout()):
            return None
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        return candidate_lines(screen, knowledge, "matches")

    def visit_Match(self, node: cst.Match) -> None:
        s = self.match(node)
        if s.recognised and s.missing:
            missing = [m if not s.result or m in ("Ok", "Err") else f"Err({m})" for m in s.missing]
            self.report(
                node, what="a Result" if s.result else "ToolError", missing=", ".join(missing), autofix=self._fix(node, s)
            )

    def _fix(self, node: cst.Match, s: MatchSummary) -> RawFix | None:
        """One arm per missing variant, raising ``NotImplementedError`` that names it, written as the other arms are."""
        if not node.cases:
            return None
        patterns, edits = self._patterns(node, s)
        if patterns is None:
            return None
        module = self.ctx.module
        body = node.cases[-1].body
        step = body.indent if isinstance(body, cst.IndentedBlock) and body.indent is not None else (
            module.default_indent if module is not None else "    "
        )
        # a misspelt tag in the match (``case "RateLimit":``) is TFH504's fix, to the real tag: an arm
        # for that tag added in the same pass would be a duplicate the first arm makes unreachable
        respelt = self._respelt_tags(node)
        arms = [(p, label) for p, label in zip(patterns, s.missing) if label not in respelt]
        if not arms:
            return None

        def text(indent: str) -> str:
            return "".join(
                f'{indent}case {p}:\n{indent}{step}raise NotImplementedError("unhandled {label}")\n' for p, label in arms
            )

        # before the first arm that takes everything (a guarded `case _ if ...:`), else after the last arm
        catch_all = next((c for c in node.cases if _takes_all(c.pattern)), None)
        where = NodeEdit(catch_all, text, "line_before") if catch_all is not None else NodeEdit(node.cases[-1], text, "line_after")
        names = ", ".join(label for _, label in arms)
        return RawFix(f"Add arms for {names} that raise NotImplementedError", (*edits, where))

    def _respelt_tags(self, node: cst.Match) -> set[str]:
        """The real tags TFH504 would write over misspelt tag strings in this match's patterns."""
        out: set[str] = set()
        for case in node.cases:
            stack: list[cst.CSTNode] = [case.pattern]
            while stack:
                n = stack.pop()
                if isinstance(n, cst.SimpleString):
                    value = n.evaluated_value
                    if isinstance(value, str) and value not in self.tags:
                        tag = only_nearest_tag(value, self.tags)
                        if tag is not None:
                            out.add(tag)
                stack.extend(lexical_children(n))
        return out

    def _patterns(self, node: cst.Match, s: MatchSummary) -> tuple[list[str] | None, list[NodeEdit]]:
        """The pattern of each missing arm, in the style of the match (tag strings, wire mappings, classes)."""
        if self.tag_subject(node.subject) is not None:
            return [f'"{m}"' for m in s.missing], []
        if any(isinstance(c.pattern, cst.MatchMapping) for c in node.cases):
            if s.result:
                return None, []
            key = self.knowledge.wire_tag_key
            return [f'{{"{key}": "{m}"}}' for m in s.missing], []
        like: cst.BaseExpression | None = None
        module: str | None = None
        for n in _class_patterns(node):
            qn = self.names.qualname(n.cls)
            if qn is not None and (
                qn in self.knowledge.tool_error_classes or qn in self.knowledge.ok_classes or qn in self.knowledge.err_classes
            ):
                like, module = n.cls, qn.rpartition(".")[0]
                break
        if module is None:
            return None, []
        needs_err = s.result and any(m not in ("Ok", "Err") for m in s.missing)
        wanted = sorted(set(s.missing) | ({"Err"} if needs_err else set()))
        spelled = imported_names(self.ctx, [f"{module}.{m}" for m in wanted], like)
        if spelled is None:
            return None, []
        spelling = dict(zip(wanted, spelled[0]))
        out: list[str] = []
        for m in s.missing:
            if m in ("Ok", "Err"):
                out.append(f"{spelling[m]}()")
            elif s.result:
                out.append(f"{spelling['Err']}({spelling[m]}())")
            else:
                out.append(f"{spelling[m]}()")
        return out, spelled[1]


def _takes_all(p: cst.MatchPattern) -> bool:
    return isinstance(p, cst.MatchAs) and p.pattern is None


def _class_patterns(node: cst.Match) -> list[cst.MatchClass]:
    out: list[cst.MatchClass] = []
    stack: list[cst.CSTNode] = [c.pattern for c in node.cases]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.MatchClass):
            out.append(n)
        stack.extend(lexical_children(n))
    return out
