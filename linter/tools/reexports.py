"""Names a module of the run imports from elsewhere and so re-exports: ``from praisonaiagents.tools import tool`` in
``mypkg/decorator.py`` makes ``mypkg.decorator.tool`` the framework's decorator, and ``from mypkg.decorator import
tool`` in a tool module reaches it through the run's own module, as Python does. Phase 1 records each module's
re-exports among its classes (``class_index``: an entry whose name starts with :data:`REEXPORT`, its one "base" the
name imported); phase 2 removes them (:func:`dealias`), resolving the bases of the run's classes and the decorators
of its modules through them, at any depth (``mypkg/__init__.py`` re-exporting ``mypkg.decorator.tool``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .index import Index

__all__ = ["REEXPORT", "dealias", "reexported_decorators", "reexports"]

#: the first character of a re-export's entry in ``class_index`` (no qualified name starts with it)
REEXPORT = "="


def _top_level(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements run at import: its body, and the bodies of its top-level ``if``/``try``."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try)):
            for name in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(stmt, name, []))
            for handler in getattr(stmt, "handlers", []):
                yield from _top_level(handler.body)


def reexports(index: "Index") -> list[tuple[str, list[str]]]:
    """``(REEXPORT + "pkg.mod.name", [what the module imported as name])`` for every name a ``from ... import`` at the
    module's top level binds, unless the module defines that name itself (a class or function of its own wins)."""
    own = {s.name for s in index.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    out: dict[str, str] = {}
    for stmt in _top_level(index.tree.body):
        if not isinstance(stmt, ast.ImportFrom):
            continue
        for alias in stmt.names:
            local = alias.asname or alias.name
            full = index.imports.get(local)
            if alias.name == "*" or local in own or not full or full == f"{index.module}.{local}":
                continue
            out.setdefault(local, full)
    return [(f"{REEXPORT}{index.module}.{local}", [full]) for local, full in out.items()]


def dealias(classes: Iterable[tuple[str, list[str]]]) -> tuple[list[tuple[str, list[str]]], dict[str, str]]:
    """The run's classes with their bases resolved through the run's re-exports, and the re-exports themselves
    (``pkg.mod.name`` -> the name it finally stands for, outside the run or a class of it)."""
    entries = list(classes)
    real = [(qn, bases) for qn, bases in entries if not qn.startswith(REEXPORT)]
    defined = {qn for qn, _ in real}
    direct = {qn[len(REEXPORT):]: bases[0] for qn, bases in entries
              if qn.startswith(REEXPORT) and bases and qn[len(REEXPORT):] not in defined}

    def final(name: str) -> str:
        seen = {name}
        while name in direct and direct[name] not in seen:
            name = direct[name]
            seen.add(name)
        return name

    return [(qn, [final(b) for b in bases]) for qn, bases in real], {a: final(a) for a in direct}


def reexported_decorators(aliases: Mapping[str, str], found: Mapping[str, str],
                          decorators: Mapping[str, str]) -> dict[str, str]:
    """The run's re-exports of a tool decorator -> the framework's: a re-exported framework decorator
    (``mypkg.decorator.tool`` -> ``praisonaiagents.tools.tool``), and a re-exported server object or class whose
    method is one (in the tables, or in ``found``: the run's servers) (``mypkg.mcp_app.tool`` where ``mypkg/__init__.py`` imports ``mcp_app`` from ``mypkg.core``)."""
    out: dict[str, str] = {}
    by_owner: dict[str, list[tuple[str, str]]] = {}
    for k, v in [*found.items(), *((q, q) for q in decorators)]:
        owner, _, last = k.rpartition(".")
        by_owner.setdefault(owner, []).append((last, v))
    for alias, target in aliases.items():
        if target in decorators:
            out[alias] = target
        for last, v in by_owner.get(target, ()):
            out.setdefault(f"{alias}.{last}", v)
    return out
