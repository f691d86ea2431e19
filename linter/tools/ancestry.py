"""What a class inherits across the files of a run: tool bases, the packages its ancestors come from,
and the base methods that turn its tools' exceptions into text.

Phase 1 records each file's classes with their bases (``index.class_index``) and, per class, its
*text dispatchers* (:func:`text_dispatchers`): a method whose ``try`` runs the tool (a ``self``
method, or a callable it is given) and whose broad handler returns the exception as text
(``except Exception as e: return ErrorArtifact(str(e))`` in a base ``run``). :func:`resolve` then
follows the bases through the run's classes (at any depth, re-exports through an ``__init__.py``
included) and gives phase 2 three tables: the run's tool classes, the top-level packages of each
class's ancestors (an activity-style decorator imported from one of them makes a tool of its
methods), and each class's inherited dispatchers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from typing import TYPE_CHECKING

from ...rules.errors.model import catches_broadly
from .index import FUNCS, Index

if TYPE_CHECKING:
    from .model import Tables

__all__ = ["Resolved", "inherited", "local_ancestor_roots", "resolve", "text_dispatchers", "tool_classes"]

#: a call whose result is the exception's text (``str(e)``, ``repr(e)``), or the traceback's
_TEXT_CALLS = frozenset({"str", "repr", "format_exc", "format_exception", "format_exception_only"})

Resolved = tuple[
    dict[str, frozenset[str]],  # class -> top-level packages of its ancestors (other than its own)
    dict[str, dict[str, str]],  # class -> {called method or "*" -> "pkg.mod.Base.dispatcher"}
]


def _text_of(node: ast.AST, name: str) -> bool:
    """``str(e)``, ``repr(e)``, ``f"...{e}"``, ``e.args``, ``traceback.format_exc()`` somewhere in ``node``."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            last = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if last in ("str", "repr") and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == name:
                return True
            if last in _TEXT_CALLS - {"str", "repr"}:
                return True
        elif isinstance(n, ast.FormattedValue) and isinstance(n.value, ast.Name) and n.value.id == name:
            return True
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name and n.attr == "args":
            return True
    return False


def _handler_gives_text(handler: ast.ExceptHandler, method: ast.AST) -> bool:
    """A broad ``except ... as e`` that returns the exception's text, or puts it in a name the method returns."""
    if handler.name is None or not catches_broadly(handler, None):
        return False
    returned = {r.value.id for r in ast.walk(method) if isinstance(r, ast.Return) and isinstance(r.value, ast.Name)}
    for stmt in handler.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Raise):
                return False
            if isinstance(n, ast.Return) and n.value is not None and _text_of(n.value, handler.name):
                return True
            if isinstance(n, ast.Assign) and _text_of(n.value, handler.name) and any(
                isinstance(t, ast.Name) and t.id in returned for t in n.targets
            ):
                return True
    return False


def _callees(body: Iterable[ast.stmt], params: set[str]) -> set[str]:
    """The ``self`` methods a body calls, and ``"*"`` when it calls a callable parameter or ``getattr(self, ...)(...)``."""
    out: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                out.add(f.attr)
            elif isinstance(f, ast.Name) and f.id in params:
                out.add("*")
            elif isinstance(f, ast.Call) and isinstance(f.func, ast.Name) and f.func.id == "getattr":
                out.add("*")
    return out


def text_dispatchers(cls: ast.ClassDef) -> dict[str, str]:
    """{method a dispatcher runs (``"*"``: a callable it is given) -> the dispatcher's name} for the class's own
    methods whose ``try`` runs it and turns its exception into text (one level into ``self`` methods)."""
    methods = {s.name: s for s in cls.body if isinstance(s, FUNCS)}
    out: dict[str, str] = {}
    for name, m in methods.items():
        params = {a.arg for a in (*m.args.posonlyargs, *m.args.args, *m.args.kwonlyargs)} - {"self", "cls"}
        for t in ast.walk(m):
            if not isinstance(t, ast.Try) or not any(_handler_gives_text(h, m) for h in t.handlers):
                continue
            called = _callees(t.body, params)
            for callee in sorted(called):  # one level: ``run`` -> ``self.try_run(activity)`` -> ``activity(...)``
                inner = methods.get(callee)
                if inner is not None and inner is not m:
                    inner_params = {a.arg for a in (*inner.args.posonlyargs, *inner.args.args)} - {"self", "cls"}
                    called |= _callees(inner.body, inner_params)
            for callee in sorted(called):
                # a callable it is given: only a public entry point (``run``), not a private ``_safe(fn)``
                if callee != name and not (callee == "*" and name.startswith("_")):
                    out.setdefault(callee, name)
    return out


def resolve(classes: Iterable[tuple[str, list[str]]], dispatch: Iterable[tuple[str, dict[str, str]]]) -> Resolved:
    """Two of the tables phase 2 reads (:func:`tool_classes` is the third), from every class of the run."""
    bases_of = dict(classes)
    own_dispatch = dict(dispatch)
    by_last: dict[str, list[str]] = {}
    for qn in bases_of:
        by_last.setdefault(qn.rsplit(".", 1)[-1], []).append(qn)

    def in_run(base: str) -> str | None:
        if base in bases_of:
            return base
        # a re-export (``from pkg.tools import Base``): the one class of that name in that package
        same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if q.split(".")[0] == base.split(".")[0]]
        return same[0] if len(same) == 1 else None

    roots: dict[str, frozenset[str]] = {}
    texts: dict[str, dict[str, str]] = {}
    for qn in bases_of:
        # breadth first: the nearest ancestor's answer wins
        seen, queue, found_roots = {qn}, [qn], set()
        text: dict[str, str] = {}
        while queue:
            current = queue.pop(0)
            # an ancestor's dispatcher, not the class's own methods (a tool method calling another in a try)
            for k, m in (own_dispatch.get(current, {}) if current != qn else {}).items():
                text.setdefault(k, f"{current}.{m}")
            for base in bases_of.get(current, ()):
                found_roots.add(base.split(".")[0])
                run_class = in_run(base)
                if run_class is not None and run_class not in seen:
                    seen.add(run_class)
                    queue.append(run_class)
        found_roots.discard(qn.split(".")[0])
        if found_roots:
            roots[qn] = frozenset(found_roots)
        if text:
            texts[qn] = text
    return roots, texts


def tool_classes(
    classes: Iterable[tuple[str, list[str]]], tables: "Tables"
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every class of the run that derives, directly or through other classes of the run, from a tool base."""
    bases_of = dict(classes)
    by_last: dict[str, list[str]] = {}
    for qn in bases_of:
        by_last.setdefault(qn.rsplit(".", 1)[-1], []).append(qn)
    known: dict[str, tuple[str, tuple[str, ...]]] = {}

    def lookup(base: str) -> tuple[str, tuple[str, ...]] | None:
        if base in tables.bases:
            return tables.bases[base]
        if base in known:
            return known[base]
        if base not in bases_of:  # a re-export (``from pkg.tools import Base``): the one class of that name
            same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if q.split(".")[0] == base.split(".")[0]]
            if len(same) == 1 and same[0] in known:
                return known[same[0]]
        return None

    changed = True
    while changed:
        changed = False
        for qn, bases in bases_of.items():
            if qn in known:
                continue
            for b in bases:
                hit = lookup(b)
                if hit is not None:
                    known[qn] = hit
                    changed = True
                    break
    return known


def local_ancestor_roots(cls: ast.ClassDef, index: Index, ancestor_roots: Mapping[str, frozenset[str]]) -> set[str]:
    """The top-level packages of a class's ancestors: its bases, the bases of this file's classes it derives
    from, and what the run's table knows of the others."""
    out: set[str] = set()
    for path, node in index.classes:  # the run's answer for the class itself (re-exports resolved there)
        if node is cls:
            out |= ancestor_roots.get(f"{index.module}.{path}", frozenset())
    seen: set[int] = {id(cls)}
    queue = [cls]
    while queue:
        current = queue.pop(0)
        for base in index.bases(current):
            out.add(base.split(".")[0])
            out |= ancestor_roots.get(base, frozenset())
            local = index.local_classes.get(base[len(index.module) + 1:]) if base.startswith(index.module + ".") else None
            if local is not None and id(local) not in seen:
                seen.add(id(local))
                queue.append(local)
    return out


def inherited(cls_path: str, index: Index, text_dispatch: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """The text dispatchers a class of this file inherits: this file's base classes', and the run's table for
    itself and its bases in other files (nearest first). Its own methods are not one: a tool method that
    calls another in a ``try`` does not change what the other gives when the model calls it."""
    out: dict[str, str] = {}
    seen: set[str] = {cls_path}
    queue = [cls_path]
    while queue:
        path = queue.pop(0)
        node = index.local_classes.get(path)
        qn = f"{index.module}.{path}"
        if node is None:
            continue
        if path != cls_path:  # an ancestor's dispatcher, not the class's own methods
            for k, m in text_dispatchers(node).items():
                out.setdefault(k, f"{qn}.{m}")
        for k, v in text_dispatch.get(qn, {}).items():
            out.setdefault(k, v)
        for base in index.bases(node):
            if base.startswith(index.module + ".") and base[len(index.module) + 1:] in index.local_classes:
                local = base[len(index.module) + 1:]
                if local not in seen:
                    seen.add(local)
                    queue.append(local)
            else:
                for k, v in text_dispatch.get(base, {}).items():
                    out.setdefault(k, v)
    return out
