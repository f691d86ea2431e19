"""SDK clients a function of the run returns: calls made on the value (``get_client(token).services.get(slug)``).

A project often builds its SDK client in one helper (``def get_client(token) -> Devhelm: return Devhelm(token=...)``)
and its tools call methods on what that helper returns, or on an API namespace under it, in another module. Each
file's graph records its module-level functions whose every ``return`` gives a third-party SDK client
(``sdk_classes.sdk_client_class``: a ``...Client``/``...Api`` class, or one of ``knowledge.SDK_CLIENT_CLASSES``), built
there (``return Devhelm(...)``), named by the return annotation (``-> ServiceDesk``), or an attribute of what another
function of the run returns (``def _sp(t): return get_client(t).status_pages``). Where the tool is, a method called on
a call of the run's function (``_sp(t).domains.remove(page, domain)``) is held as pending (``?f?domains.remove``);
the join (:func:`settle_summaries`, :func:`settle_calls`) resolves it through the run's graphs to ``Devhelm.status_pages.domains.remove`` (a
call out, unclassified, its timeout unknown), or drops it when the function returns no SDK client.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import knowledge as kb
from .callees import bound_values
from .clients import PENDING, pending_what
from .sdk_classes import sdk_client_class, timeout_status
from .model import CallFact, Tool

if TYPE_CHECKING:
    from .index import Index

__all__ = ["sdk_returns", "settle_calls", "settle_summaries", "settled"]

def _chain(node: ast.expr) -> tuple[ast.expr, list[str]]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return node, parts[::-1]


def _source(value: ast.expr, index: "Index", roots: frozenset[str], own: frozenset[str]) -> tuple[str, str, str] | None:
    """("cls:devhelm.Devhelm" or "fn:pkg.mod.get_client", the attributes after it, the constructor's timeout status)
    for one returned value."""
    base, rest = _chain(value)
    if not isinstance(base, ast.Call) or any(p.startswith("_") for p in rest):
        return None
    qn = index.qualname(base.func)
    if qn is None:
        return None
    if not sdk_client_class(qn, own) and qn in kb.SDK_CLIENT_CONSTRUCTORS:  # ``return Sandbox.create(...)``
        qn = kb.SDK_CLIENT_CONSTRUCTORS[qn]
    if sdk_client_class(qn, own):
        keywords = [(k.arg, isinstance(k.value, ast.Constant) and k.value.value is None) for k in base.keywords]
        positional = [isinstance(a, ast.Constant) and a.value is None for a in base.args]
        return f"cls:{qn}", ".".join(rest), timeout_status(qn, keywords, positional) if not rest else "unknown"
    if isinstance(base.func, ast.Name) and base.func.id not in index.imports:
        return f"fn:{index.module}.{base.func.id}", ".".join(rest), "unknown"
    if qn.split(".")[0] in roots:
        return f"fn:{qn}", ".".join(rest), "unknown"
    return None


def sdk_returns(index: "Index", roots: frozenset[str]) -> dict[str, tuple[str, str, str]]:
    """The file's module-level functions whose every return gives an SDK client or a namespace under one (a name
    too, bound in the function only to such a value, its cache: ``global _conn``; ``_conn = Connection(timeout=10)``;
    ``return _conn``)."""
    out: dict[str, tuple[str, str, str]] = {}
    own = frozenset(roots | {index.module.split(".")[0]})
    for path, _n, node, parents in index.defs:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        ann = index.qualname(_note(node.returns)) if node.returns is not None else None
        if ann is not None and sdk_client_class(ann, own):
            # a module function's, or a class's method's (``def _require_sandbox(self) -> "Sandbox"``, called on an
            # object of the class: ``sandbox._require_sandbox().files.write(...)``)
            if not parents or (len(parents) == 1 and isinstance(parents[0], ast.ClassDef)):
                out[f"{index.module}.{path}"] = f"cls:{ann}", "", "unknown"
            continue
        if parents:
            continue
        returned = [r.value for r in _returns(node)]
        given = [v for value in returned if value is not None
                 for v in (bound_values(node, value.id) or [value] if isinstance(value, ast.Name) else [value])]
        values = {_source(v, index, roots, own) for v in given} if given and all(v is not None for v in returned) \
            else {None}
        if len(values) == 1 and (found := values.pop()) is not None:
            out[f"{index.module}.{path}"] = found
    return out


def _note(note: ast.expr) -> ast.expr:
    """A return annotation, a forward reference's text parsed (``-> "Sandbox"``)."""
    if isinstance(note, ast.Constant) and isinstance(note.value, str):
        try:
            return ast.parse(note.value, mode="eval").body
        except SyntaxError:
            return note
    return note


def _returns(fn: ast.AST) -> list[ast.Return]:
    out: list[ast.Return] = []
    stack = list(getattr(fn, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return):
            out.append(n)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return out


def settled(calls: list[CallFact], resolve: "Resolve", sdk: Mapping[str, tuple[str, str, str]]) -> list[CallFact]:
    """Each pending call named for the SDK client class the function returns (``Devhelm.services.get``), with the
    timeout its constructor there gives (``Connection(timeout=10)``: value; else unknown), or left out."""
    out = []
    for c in calls:
        if not c.what.startswith(PENDING):
            out.append(c)
            continue
        qn, _, rest = c.what[1:].partition(PENDING)
        for _ in range(4):
            key = resolve(qn)
            source, more, status = sdk.get(key, ("", "", "unknown")) if key is not None else ("", "", "unknown")
            rest = ".".join(p for p in (more, rest) if p)
            kind, _, qn = source.partition(":")
            if kind == "cls":
                out.append(replace(c, what=f"{qn.rsplit('.', 1)[-1]}.{rest}", timeout=status))
            if kind != "fn":
                break
    return out


def settle_calls(tool: Tool, r: "Resolver") -> None:
    """The row's pending calls settled (:func:`settled`)."""
    tool.calls = settled(tool.calls, r.resolve, r.sdk)


def settle_summaries(r: "Resolver", summaries: Mapping[str, "Summary"]) -> "Resolver":
    """The helpers' pending calls settled before any row takes them (a helper whose only call is on a value no SDK
    client is makes no call out, and passes on no failure mode); the resolver, for the join to go on with."""
    for s in summaries.values():
        s.calls = settled(s.calls, r.resolve, r.sdk)
    return r


if TYPE_CHECKING:
    from collections.abc import Callable

    from .follow import Resolver, Summary
    Resolve = Callable[[str], "str | None"]
