"""TFH504 unknown-tag."""

from __future__ import annotations

import libcst as cst

from ...linter.api import FileContext, Knowledge, NodeEdit, RawFix, Screen, lexical_children
from .base import UnionRule
from .model import candidate_lines, near_miss, nearest_tag, only_nearest_tag


class UnknownTag(UnionRule):
    code = "TFH504"
    name = "unknown-tag"
    summary = "A string compared or matched against a ToolError's tag is not one of the variants' tags."
    message = "{value} is not a ToolError tag, so this never matches; did you mean \"{nearest}\"?"
    docs = """\
## What it does
Finds a string compared or matched against a ToolError's tag that is not one
of the runtime's tags (`RateLimited`, `InvalidArgs`, `NotFound`, `Timeout`,
`Unavailable`, `Denied`, `Unknown`), and names the nearest real one. A tag is
read as `e.tag`, `d["_tag"]`, `d.get("_tag")` or `type(e).__name__`; it is
compared with `==`, `!=`, `in`, `not in`, matched (`match e.tag: case
"..."`, `case {"_tag": "..."}`), or used as a key of a dispatch table.

To stay silent on other things that have a `tag` (XML elements, git tags,
HTML parsers), it fires only when the value is known to be a ToolError: the
same `match` or `if`/`elif` chain also names a real variant or tag, the value
is annotated `ToolError`/`Result` or comes from the runtime's
`parse`/`parse_json` or a `case Err(e)`; or when the string is a near miss of
a real tag (`"RateLimit"`, `"Notfound"`, `"TimeOut"`). A near miss compared
with an unknown object's `.tag` must be capitalised, as tags are.

## Why is this bad?
A misspelt tag never matches: the branch is dead code, the failure it was
written for takes another path, and no test that uses real errors notices.

## Example
```python
def retry_after(d):
    if d["_tag"] == "RateLimit":
        return d["retryAfterMs"]
    return None
```

## Use instead
```python
from smullyan.runtime import RateLimited, parse

def retry_after(d):
    error = parse(d)
    if isinstance(error, RateLimited):
        return error.retry_after_ms
    return None
```
(class names are checked by the type checker; strings are not.)

## Fix
When exactly one real tag is nearest to a near miss (`"RateLimit"`,
`"Notfound"`), `smullyan lint --fix` replaces the string with it, keeping the
quotes. This changes what the program does on purpose: the branch that never
ran now runs for that variant. A string that is no near miss (`"Throttled"`)
or is as near to two tags gets no fix.

## How to suppress
`# noqa: TFH504` on the line, or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        """\
def f(d):
    if d["_tag"] == "RateLimited":
        return d["retryAfterMs"]
    return None
""",
        # XML and HTML tags, git tags
        """\
def walk(el, ref):
    if el.tag == "a" or el.tag in ("p", "div"):
        return 1
    if ref.tag == "v1.0":
        return 2
    match el.tag:
        case "span" | "em":
            return 3
""",
        # the real tags, in every form
        """\
from smullyan.runtime import ToolError
def f(e: ToolError, d: dict):
    if type(e).__name__ == "NotFound" or e.tag != "Denied":
        return 1
    match d:
        case {"_tag": "Timeout" | "Unavailable"}:
            return 2
    return d.get("_tag") in {"Unknown", "InvalidArgs"}
""",
        # a lower-case word compared with an unknown object's tag
        """\
def f(image):
    return image.tag == "unknown" or image.tag == "latest"
""",
        # another library's tagged unions
        """\
def f(x):
    match x:
        case {"_tag": "Some", "value": v}:
            return v
        case {"_tag": "None"}:
            return None
""",
        # a tag string that is not compared with a tag
        """\
def f(e):
    return e.kind == "RateLimit"
""",
        # async code, from parse
        """\
from smullyan.runtime import parse_json
async def f(read):
    e = parse_json(await read())
    return e is not None and e.tag == "RateLimited"
""",
        # a table of real tags
        """\
RETRY = {"RateLimited": True, "Timeout": True, "default": False}
""",
    ]
    INVALID = [
        """\
def retry_after(d):
    if d["_tag"] == "RateLimit":  # error: TFH504
        return d["retryAfterMs"]
    return None
""",
        # a near miss on any object's tag
        """\
def f(e):
    return e.tag == "Notfound"  # error: TFH504
""",
        # a known subject: not a near miss, still not a tag
        """\
from smullyan.runtime import ToolError
def f(e: ToolError):
    return e.tag in ("Throttled", "Timeout")  # error: TFH504
""",
        # the same chain names real tags
        """\
def f(e):
    if e.tag == "RateLimited":
        return "wait"
    elif e.tag == "Overloaded":  # error: TFH504
        return "retry"
""",
        # a match with wire-form patterns
        """\
def f(payload):
    match payload:
        case {"_tag": "Denied"}:
            return "ask"
        case {"_tag": "TimeOut"}:  # error: TFH504
            return "retry"
""",
        # a match on the tag, an or-pattern
        """\
import smullyan.runtime as tool
def f(text):
    e = tool.parse_json(text)
    match e.tag:
        case "RateLimited" | "Unavailble":  # error: TFH504
            return "retry"
""",
        # async, inside a Result match's Err arm
        """\
from smullyan.runtime import Err, Ok
async def f(tool):
    match await tool():
        case Ok(v):
            return v
        case Err(e) if e.tag == "NotFund":  # error: TFH504
            return None
""",
        # a dispatch table with a typo
        """\
HANDLERS = {"RateLimited": 1, "Timeout": 2, "Unknwon": 3}  # error: TFH504
""",
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._elifs: set[int] = set()
        self._done: set[int] = set()  # strings already judged with their chain or match

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        return candidate_lines(screen, knowledge, "matches", "chains", "compares", "tables")

    def _judge(self, node: cst.CSTNode, value: str, known: bool, wire: bool, present: frozenset[str] = frozenset()) -> None:
        """Report ``value`` unless it is a tag; a stranger only when it is a near miss. ``present``: the
        strings of the same ``match``, chain or table (no fix to a tag one of them already spells: the
        respelt arm would shadow that one's, or duplicate its key)."""
        if id(node) in self._done:
            return
        self._done.add(id(node))
        if value in self.tags:
            return
        if known or (near_miss(value, self.tags) and (wire or value[:1].isupper())):
            quoted = node.value if isinstance(node, cst.SimpleString) else f'"{value}"'
            self.report(node, value=quoted, nearest=nearest_tag(value, self.tags), autofix=self._fix(node, value, present))

    def _fix(self, node: cst.CSTNode, value: str, present: frozenset[str] = frozenset()) -> RawFix | None:
        """The string, quoted as written, spelling the one real tag it misses (none on a tie, nor when
        the same ``match``/chain/table already spells that tag: a duplicate or unreachable arm)."""
        tag = only_nearest_tag(value, self.tags)
        if tag is None or tag in present or not isinstance(node, cst.SimpleString) or node.raw_value != value:
            return None
        return RawFix(f'Replace with "{tag}"', (NodeEdit(node, cst.SimpleString(f"{node.prefix}{node.quote}{tag}{node.quote}")),))

    def visit_Match(self, node: cst.Match) -> None:
        s = self.match(node)
        inner = self.tag_subject(node.subject)
        wire = inner is not None and isinstance(node.subject, (cst.Subscript, cst.Call)) or any(
            isinstance(n, cst.MatchMapping) for n in _patterns(node)
        )
        known = bool(s.named) or self.known(node.subject) is not None or (
            inner is not None and self.known(inner) is not None
        )
        present = frozenset(value for _, value in s.strings)
        for n, value in s.strings:
            self._judge(n, value, known, wire, present)

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self._elifs.add(id(node.orelse))
        if id(node) in self._elifs:
            return
        s = self.chain(node)
        if s is None or not (s.named or self._known_key(s.subject)):
            return
        present = frozenset(value for _, value in s.strings)
        for n, value in s.strings:
            self._judge(n, value, True, False, present)

    def _known_key(self, key: str) -> bool:
        return self._scope().get(key) is not None

    def visit_Comparison(self, node: cst.Comparison) -> None:
        sides = [node.left, *(c.comparator for c in node.comparisons)]
        for i, side in enumerate(sides):
            subject = self.tag_subject(side)
            if subject is None:
                continue
            wire = not isinstance(side, cst.Attribute)
            known = self.known(subject) is not None
            for j in (i - 1, i + 1):
                if 0 <= j < len(sides):
                    for n, value in self._strings(sides[j]) or []:
                        self._judge(n, value, known, wire)

    def visit_Dict(self, node: cst.Dict) -> None:
        s = self.table(node)
        if s is not None:
            present = frozenset(value for _, value in s.strings)
            for n, value in s.strings:
                self._judge(n, value, False, True, present)


def _patterns(node: cst.Match) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [c.pattern for c in node.cases]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(lexical_children(n))
    return out

