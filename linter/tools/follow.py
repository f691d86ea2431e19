"""Following a tool into the run's own helpers in other modules (``from .utils import run_kubectl``).

Each file's worker leaves, besides its rows, a :class:`Graph`: for each module-level function and each method of a
module-level class, the run's own functions it calls (resolved the way Python does: through the file's imports,
``utils.run_kubectl`` after ``from pkg import utils``, a method of an object built from one of the run's classes),
and the names the module re-exports. It also leaves a :class:`Summary` of every helper its tools' rows already
covered (its calls out, findings and failure modes, computed in the same traversal). At the end of the run
:func:`needed` walks the tools' calls through the graphs to a small depth; the helpers no worker summarised yet are
described in one more pass over only the files that define them (their functions and their own same-module helpers
as the region), and :func:`join` adds each helper's summary to the rows that reach it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .. import knowledge as kb
from .index import Def, Index, helpers_of, span
from .model import CallFact, Tool

__all__ = ["DEPTH", "Graph", "Summary", "calls_of", "graph_of", "join", "needed", "summary_defs"]

#: how many helpers deep a tool is followed across modules (tool -> helper -> helper -> helper)
DEPTH = 3

_SUMMARY = "summary"  # the framework of a helper's row (never a tool)


@dataclass
class Graph:
    """One file's own functions and what each calls of the run (qualified names)."""

    module: str
    path: str
    calls: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "pkg.mod.f" / "pkg.mod.C.m" -> called
    aliases: dict[str, str] = field(default_factory=dict)  # "pkg.mod.name" -> what the module imported as name
    defined: set[str] = field(default_factory=set)  # every function and method it defines, qualified


@dataclass
class Summary:
    """What one helper does, read in its own file: its row's calls, findings and failures."""

    calls: list[CallFact]
    findings: dict[str, int]
    failures: list[str]
    caught: bool  # it has an ``except`` clause (its callers' failures are not simply raised)
    covers: tuple[str, ...] = ()  # the same-module helpers already in it (qualified names)


def _own(index: Index) -> dict[str, tuple[str, int, ast.AST, str | None]]:
    """The module-level functions and the methods of module-level classes: path -> (path, occurrence, node, class)."""
    out: dict[str, tuple[str, int, ast.AST, str | None]] = {}
    for path, n, node, parents in index.defs:
        if not parents:
            out.setdefault(path, (path, n, node, None))
        elif len(parents) == 1 and isinstance(parents[0], ast.ClassDef):
            out.setdefault(path, (path, n, node, parents[0].name))
    return out


def calls_of(node: ast.AST, index: Index, cls: str | None, roots: frozenset[str]) -> list[str]:
    """The run's own functions ``node`` calls, qualified: a same-module function or method (``helper()``,
    ``self.helper()``) or one of the run's top-level packages through the file's names."""
    module_defs = {p for p, _n, _node, parents in index.defs if not parents}
    out: list[str] = []
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        f = call.func
        qn: str | None = None
        if isinstance(f, ast.Name) and f.id in module_defs and f.id not in index.imports:
            qn = f"{index.module}.{f.id}"
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls") \
                and cls is not None and f"self.{f.attr}" not in index.instances:
            qn = f"{index.module}.{cls}.{f.attr}"
        else:
            qn = index.qualname(f)
            if qn is not None and qn.split(".")[0] not in roots:
                qn = None
        if qn is not None and qn not in out:
            out.append(qn)
    return out


def graph_of(index: Index, path: str, roots: frozenset[str]) -> Graph:
    graph = Graph(index.module, path)
    for key, (_p, _n, node, cls) in _own(index).items():
        graph.defined.add(f"{index.module}.{key}")
        called = tuple(q for q in calls_of(node, index, cls, roots) if q != f"{index.module}.{key}")
        if called:
            graph.calls[f"{index.module}.{key}"] = called
    for local, full in index.imports.items():
        if full.split(".")[0] in roots:
            graph.aliases[f"{index.module}.{local}"] = full
    return graph


def summary_defs(index: Index, wanted: Iterable[str]) -> list[Def]:
    """Rows to describe the helpers ``wanted`` (paths in this file: ``f``, ``C.m``) with their same-module helpers."""
    own = _own(index)
    out: list[Def] = []
    for want in wanted:
        entry = own.get(want)
        if entry is None:
            continue
        path, n, node, cls = entry
        helpers = [h for h in helpers_of(node, index, cls) if h[0] != path]
        out.append(Def(path, _SUMMARY, _SUMMARY, f"{index.module}.{path}", span(node)[0], ((path, n),),
                       (span(node),), tuple(span(h[2]) for h in helpers), tuple((p, k) for p, k, _ in helpers)))
    return out


def is_summary(d: Def | Tool) -> bool:
    return d.framework == _SUMMARY


def helper_paths(defs: Iterable[Def], index: Index) -> list[str]:
    """The module-level functions and methods among ``defs``' helpers (summarised where they are already parsed)."""
    own = _own(index)
    return list(dict.fromkeys(p for d in defs for p, _n in d.helpers if p in own))


def tool_calls(d: Def, index: Index, roots: frozenset[str]) -> tuple[str, ...]:
    """The run's functions a tool's functions and same-module helpers call, less those already in its row."""
    by_key = {(p, n): (node, parents) for p, n, node, parents in index.defs}
    mine = {f"{index.module}.{p}" for p, _n in (*d.functions, *d.helpers)}
    out: list[str] = []
    for key in (*d.functions, *d.helpers):
        hit = by_key.get(key)
        if hit is None:
            continue
        node, parents = hit
        cls = ".".join(p.name for p in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
        for qn in calls_of(node, index, cls, roots):
            if qn not in mine and qn not in out:
                out.append(qn)
    return tuple(out)


class _Resolver:
    def __init__(self, graphs: Iterable[Graph]) -> None:
        self.modules: dict[str, str] = {}
        self.calls: dict[str, tuple[str, ...]] = {}
        self.aliases: dict[str, str] = {}
        self.defined: set[str] = set()
        for g in graphs:
            self.modules.setdefault(g.module, g.path)
            self.calls.update(g.calls)
            self.aliases.update(g.aliases)
            self.defined.update(g.defined)

    def resolve(self, qn: str) -> str | None:
        """The definition ``qn`` names: itself, or what a module re-exported under it (``pkg.tools.run_kubectl``
        after ``from .utils import run_kubectl`` in ``pkg/tools/__init__.py``), a few hops."""
        for _ in range(4):
            if qn in self.defined:
                return qn
            nxt = self.aliases.get(qn)
            if nxt is None:
                head, _, last = qn.rpartition(".")  # a method of a re-exported class
                nxt = f"{self.aliases[head]}.{last}" if head in self.aliases else None
            if nxt is None or nxt == qn:
                return None
            qn = nxt
        return None

    def where(self, qn: str) -> tuple[str, str] | None:
        """(file, path in it) of a function the run defines: ``pkg.mod.f`` or ``pkg.mod.C.m``."""
        parts = qn.split(".")
        for cut in (len(parts) - 1, len(parts) - 2):
            module = ".".join(parts[:cut])
            if cut > 0 and module in self.modules:
                return self.modules[module], ".".join(parts[cut:])
        return None


def needed(wants: Iterable[tuple[str, ...]], graphs: Iterable[Graph],
           done: Mapping[str, Summary]) -> dict[str, list[str]]:
    """The helpers the tools reach within :data:`DEPTH` that no worker summarised yet: file -> paths in it."""
    r = _Resolver(graphs)
    out: dict[str, list[str]] = {}
    frontier = {q for w in wants for q in w}
    seen: set[str] = set()
    for _ in range(DEPTH):
        nxt: set[str] = set()
        for qn in frontier:
            key = r.resolve(qn)
            if key is None or key in seen:
                continue
            seen.add(key)
            if key not in done:
                where = r.where(key)
                if where is not None:
                    out.setdefault(where[0], []).append(where[1])
            nxt.update(r.calls.get(key, ()))
        frontier = nxt
    return out


def join(rows: Iterable[tuple[Tool, tuple[str, ...], bool]], graphs: Iterable[Graph],
         summaries: Mapping[str, Summary]) -> None:
    """Add to each row (tool, the run's functions it calls, whether its ``raised`` only means nothing of its own
    catches) what the helpers it reaches within :data:`DEPTH` do: their calls out, findings and failure modes."""
    r = _Resolver(graphs)
    for tool, wants, uncaught in rows:
        frontier = list(wants)
        seen: set[str] = set()
        merged: set[str] = set()  # a helper's summary holds its same-module helpers: each counted once
        caught = False
        for _ in range(DEPTH):
            nxt: list[str] = []
            for qn in frontier:
                key = r.resolve(qn)
                if key is None or key in seen:
                    continue
                seen.add(key)
                s = summaries.get(key)
                if s is None:
                    continue
                if key not in merged:
                    _merge(tool, s)
                    caught = caught or s.caught
                merged.update((key, *s.covers))
                nxt.extend(r.calls.get(key, ()))
            frontier = nxt
        if uncaught and caught and "raised" in tool.failures and len(tool.failures) > 1:
            tool.failures.remove("raised")  # as a same-module helper's handler does
        tool.findings = dict(sorted(tool.findings.items()))


def _merge(tool: Tool, s: Summary) -> None:
    have = {(c.what, c.helper) for c in tool.calls}
    for c in s.calls:
        if (c.what, c.helper) not in have:
            tool.calls.append(c)
            have.add((c.what, c.helper))
    for code, n in s.findings.items():
        tool.findings[code] = tool.findings.get(code, 0) + n
    for mode in s.failures:
        if mode != "raised" and mode not in tool.failures:
            tool.failures.append(mode)
    if tool.classification == "unknown":
        order = (kb.IRREVERSIBLE, kb.NON_IDEMPOTENT_WRITE, kb.IDEMPOTENT_WRITE, kb.READ_SAFE)
        classified = [c for c in tool.calls if c.cls in order]
        if classified:
            strongest = min(classified, key=lambda c: order.index(c.cls or ""))
            tool.classification, tool.source = strongest.cls or "unknown", "inferred"
            tool.evidence = strongest.what + (f" in {strongest.helper}()" if strongest.helper else "")
            if tool.classification in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                tool.key = "not-needed"
            elif tool.classification in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE):
                writes = [c for c in classified if c.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
                tool.key = "present" if all(c.keyed for c in writes) else "missing"
