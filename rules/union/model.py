"""What the TFH5xx rules share: reading ``match`` statements, ``if``/``elif`` chains and
dispatch tables over the runtime's closed ToolError union.

The variants are the runtime's ``TAGS`` (through ``knowledge``), recognised by
qualified name (``from smullyan import runtime as tool`` then
``case tool.Denied()``), by the wire form's ``"_tag"`` key
(``case {"_tag": "Denied"}``), or by a tag comparison (``e.tag == "Denied"``,
``d["_tag"] == "Denied"``, ``type(e) is Denied``).

:class:`~.base.UnionRule` (``base.py``) is the base of the four rules: it keeps, per function, the
names known to hold a ToolError or a Result (a parameter or variable annotated
``ToolError``/``Result``, a value from the runtime's ``parse``/``parse_json``,
the ``e`` of an enclosing ``case Err(e)``), and offers :meth:`~.base.UnionRule.match`,
:meth:`~.base.UnionRule.chain` and :meth:`~.base.UnionRule.table`, each a plain summary the
rules read. :func:`candidates` is the cheap ``ast`` screen all four use.
"""

from __future__ import annotations

import ast
import difflib
import functools
from dataclasses import dataclass, field
from typing import Sequence

import libcst as cst

from ...linter.api import Knowledge, Screen, dotted

_CODEGEN = cst.Module(body=[])


def code(node: cst.CSTNode) -> str:
    """Source text of an expression (a subject's identity: ``e``, ``result.error``)."""
    return dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) and dotted(node) else _CODEGEN.code_for_node(node)  # type: ignore[return-value]


def _norm(s: str) -> str:
    return s.replace("_", "").replace("-", "").replace(" ", "").lower()


def nearest_tag(s: str, tags: Sequence[str]) -> str:
    """The real tag closest to ``s`` (case and separators ignored first)."""
    for tag in tags:
        if _norm(tag) == _norm(s):
            return tag
    best = difflib.get_close_matches(_norm(s), [_norm(t) for t in tags], n=1, cutoff=0.0)
    if best:
        return next(t for t in tags if _norm(t) == best[0])
    return tags[0]


def only_nearest_tag(s: str, tags: Sequence[str]) -> str | None:
    """The real tag ``s`` misspells when exactly one is nearest (for a fix); None when it is no near miss or a tie."""
    if not near_miss(s, tags):
        return None
    n = _norm(s)
    same = [t for t in tags if _norm(t) == n]
    if same:
        return same[0] if len(same) == 1 else None
    scored = sorted(((difflib.SequenceMatcher(None, n, _norm(t)).ratio(), t) for t in tags), reverse=True)
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]


def near_miss(s: str, tags: Sequence[str]) -> bool:
    """A misspelt tag: ``"Notfound"``, ``"RateLimit"``, ``"TimeOut"``, ``"Unavailble"``; never a real tag."""
    if s in tags or len(s) < 4:
        return False
    return _near_miss(s, tuple(tags))


@functools.lru_cache(maxsize=4096)
def _near_miss(s: str, tags: tuple[str, ...]) -> bool:
    # every string literal of a file is asked: the answer is remembered, and the ratio is computed only
    # where it can reach 0.8 (it is at most 2 * shorter / (both lengths), the matched part being no
    # longer than the shorter string)
    n = _norm(s)
    for tag in tags:
        t = _norm(tag)
        if n == t:
            return True
        if len(n) >= 6 and (t.startswith(n) or n.startswith(t)) and abs(len(n) - len(t)) <= 3:
            return True
        if 2 * min(len(n), len(t)) >= 0.8 * (len(n) + len(t)) and difflib.SequenceMatcher(None, n, t).ratio() >= 0.8:
            return True
    return False


# ---------------------------------------------------------------- the ast screen


@dataclass
class Candidates:
    """Lines where a TFH5xx finding can grow, from one ``ast`` walk."""

    matches: list[int] = field(default_factory=list)
    chains: list[int] = field(default_factory=list)  # ``if`` statements testing isinstance or a tag
    tables: list[int] = field(default_factory=list)  # dict literals keyed by variants or tag strings
    compares: list[int] = field(default_factory=list)  # a tag expression compared with a string


def _variant_locals(screen: Screen, knowledge: Knowledge) -> tuple[frozenset[str], frozenset[str]]:
    """(names bound to a variant class, names bound to a runtime module) by the imports."""
    variants, modules = set(), set()
    for local, full in screen.import_bindings:
        if full in knowledge.tool_error_classes:
            variants.add(local)
        elif full in knowledge.runtime_modules or full == "smullyan":
            modules.add(local)
    return frozenset(variants), frozenset(modules)


def _tag_expr_ast(node: ast.expr, knowledge: Knowledge) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in (knowledge.tag_attribute, "__name__")
    key = knowledge.wire_tag_key
    if isinstance(node, ast.Subscript):
        s = node.slice
        return isinstance(s, ast.Constant) and s.value == key
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == key
    return False


def _strings_ast(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    return False


def candidates(screen: Screen, knowledge: Knowledge) -> Candidates:
    """One walk over the module's ``ast``, shared by the four rules (``screen.memo``)."""
    return screen.memo("closed_union", lambda: _candidates(screen, knowledge))


def _candidates(screen: Screen, knowledge: Knowledge) -> Candidates:
    found = Candidates()
    TAGS = knowledge.tool_error_variants
    variants, modules = _variant_locals(screen, knowledge)

    def names_variant(node: ast.expr) -> bool:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in variants:
                return True
            if isinstance(n, ast.Attribute) and n.attr in TAGS:
                return True
        return False

    Match = getattr(ast, "Match", None)
    tag_strings = False  # a compared string is a real tag or a near miss of one
    # the nodes come from the screen's own walk (no second walk over the module)
    for node in screen.branching:
        t = type(node)
        if Match is not None and t is Match:
            found.matches.append(node.lineno)  # type: ignore[attr-defined]
        elif t is ast.If:
            test = node.test  # type: ignore[attr-defined]
            for n in ast.walk(test):
                if (
                    isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Name)
                    and n.func.id == "isinstance"
                    and any(names_variant(a) for a in n.args[1:])
                ) or (
                    isinstance(n, ast.Compare)
                    and any(_tag_expr_ast(c, knowledge) or names_variant(c) for c in (n.left, *n.comparators))
                ):
                    found.chains.append(node.lineno)  # type: ignore[attr-defined]
                    break
        elif t is ast.Compare:
            sides = [node.left, *node.comparators]  # type: ignore[attr-defined]
            if any(_tag_expr_ast(s, knowledge) for s in sides) and any(_strings_ast(s) for s in sides):
                found.compares.append(node.lineno)  # type: ignore[attr-defined]
                tag_strings = tag_strings or any(_tag_like(s, TAGS) for side in sides for s in _side_strings(side))
        elif t is ast.Dict:
            keys = [k for k in node.keys if k is not None]  # type: ignore[attr-defined]
            hits = sum(
                1
                for k in keys
                if (isinstance(k, ast.Constant) and isinstance(k.value, str) and (k.value in TAGS or near_miss(k.value, TAGS)))
                or (isinstance(k, ast.Name) and k.id in variants)
                or (isinstance(k, ast.Attribute) and k.attr in TAGS and isinstance(k.value, ast.Name) and k.value.id in modules)
            )
            if hits >= 2:
                found.tables.append(node.lineno)  # type: ignore[attr-defined]
    if (found.chains or found.compares) and not (tag_strings or variants or modules or _names_runtime(screen, knowledge)):
        # s51: what a chain or a tag comparison needs to be read as a ToolError's: a real tag or a near miss among
        # the compared strings (every string a chain's test reads is a side of one of these comparisons), or a
        # name of the runtime (a variant, an annotation, ``parse``, ``Err``), which only an import can bind
        found.chains.clear()
        found.compares.clear()
    return found


def _side_strings(node: ast.expr) -> list[str]:
    """The strings of one side of a comparison (a literal, or the literals of a tuple, list or set display)."""
    elements = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def _tag_like(s: str, tags: Sequence[str]) -> bool:
    return s in tags or near_miss(s, tags)


def _names_runtime(screen: Screen, knowledge: Knowledge) -> bool:
    """Whether a name of the file can resolve to one of the runtime's names the union rules read (the resolver
    binds qualified names through imports only; ``importlib.import_module("...")`` and its like name it in a string)."""
    k = knowledge
    roots = {q.split(".", 1)[0] for q in (*k.tool_error_classes, *k.tool_error_union, *k.result_types,
                                          *k.tool_error_parsers, *k.err_classes, *k.ok_classes)}
    if roots & screen.import_roots:
        return True
    return any(
        isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split(".", 1)[0] in roots
        for call in screen.calls
        for a in (*call.args, *(k.value for k in call.keywords))
    )


# ---------------------------------------------------------------- summaries


ALL = "*"  # every variant (an irrefutable pattern)


@dataclass
class Cover:
    """What a pattern or a test says about the variants."""

    covers: set[str] = field(default_factory=set)  # variants (or ALL) it matches whole
    named: set[str] = field(default_factory=set)  # real variants it names at all
    ok: bool = False  # covers ``Ok`` (Result matches)
    result: bool = False  # names ``Ok``/``Err``
    strings: list[tuple[cst.CSTNode, str]] = field(default_factory=list)  # tag strings, real or not

    def add(self, other: "Cover") -> None:
        self.covers |= other.covers
        self.named |= other.named
        self.ok = self.ok or other.ok
        self.result = self.result or other.result
        self.strings.extend(other.strings)

    def partial(self) -> "Cover":
        """The same names, covering nothing (a guard or a constrained field)."""
        return Cover(set(), set(self.named), False, self.result, list(self.strings))


@dataclass
class MatchSummary:
    node: cst.Match
    recognised: bool  # a match over ToolError (or Result)
    result: bool  # a Result match (Ok/Err arms)
    missing: list[str]  # variants no unguarded arm covers ("Ok"/"Err" for a Result match)
    wildcard: cst.MatchCase | None  # the first arm that absorbs what earlier arms left
    absorbed: list[str]  # variants that arm absorbs
    wildcard_closed: bool  # the absorbing arm calls assert_never
    named: set[str]
    strings: list[tuple[cst.CSTNode, str]]


@dataclass
class ChainSummary:
    node: cst.If
    subject: str
    missing: list[str]
    closed: bool  # an else that raises or calls assert_never
    has_else: bool
    branches: int  # branches that test a variant
    named: set[str]  # real variants the tests name
    strings: list[tuple[cst.CSTNode, str]]
    tests: list[cst.CSTNode]


@dataclass
class TableSummary:
    node: cst.Dict
    missing: list[str]
    strings: list[tuple[cst.CSTNode, str]]


def _irrefutable(p: cst.MatchPattern) -> bool:
    if isinstance(p, cst.MatchAs):
        return p.pattern is None or _irrefutable(p.pattern)
    if isinstance(p, cst.MatchOr):
        return any(_irrefutable(e.pattern) for e in p.patterns)
    return False


def _body_statements(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    if isinstance(body, cst.IndentedBlock):
        return body.body
    return body.body  # type: ignore[attr-defined, no-any-return, unused-ignore]


def candidate_lines(screen: Screen, knowledge: Knowledge, *kinds: str) -> list[int]:
    """The candidate lines of the given kinds (``"matches"``, ``"chains"``, ``"tables"``, ``"compares"``)."""
    c = candidates(screen, knowledge)
    out: list[int] = []
    for kind in kinds:
        out += getattr(c, kind)
    return out
