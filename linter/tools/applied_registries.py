"""A project's own registry decorator applied by a call rather than on a ``def`` line: ``audited_tool(mcp,
"create_job", title=...)(self.create_job)`` (awslabs-aws-transform-mcp-server), where ``audited_tool`` returns a
decorator that hands a wrapper of the function it is given to ``mcp.tool(name=name)``: the function the call is
applied to is the tool, named as the decorator form names it (its ``name`` parameter's literal), not the registry's
inner wrapper. Used by :mod:`.forms`."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from .index import Index, direct_calls
from .references import resolve_ref
from .registries import Entry, Registry

__all__ = ["applied_registries"]

#: ``forms._registry``: the registry a decorator (or a decorator call) names, seen from a ``def`` at a path
Lookup = Callable[[ast.expr, "str | None", str, tuple[ast.AST, ...]], "Registry | None"]


def applied_registries(index: Index, lookup: Lookup) -> Iterator[tuple[Registry, ast.Call, Entry]]:
    """Each ``registry(...)(fn)`` call of the file (at its top level or in any function) whose decorator call names a
    registry of the file or the run and whose one argument is a function of this module (``self.method``, a
    module function, a nested one): (the registry, the decorator call, the function)."""
    for scope in [("", 0, index.tree, ()), *index.defs]:
        path, _n, node, parents = scope
        scope_path = path if node is not index.tree else ""
        inner_parents = (*parents, node) if node is not index.tree else ()
        owner = ".".join(p.name for p in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
        for call in direct_calls(node):
            dec = call.func
            if not isinstance(dec, ast.Call) or len(call.args) != 1 or call.keywords:
                continue
            registry = lookup(dec, index.qualname(dec.func), f"{scope_path}.<call>" if scope_path else "<call>",
                              inner_parents)
            target = resolve_ref(call.args[0], index, scope_path, owner) if registry is not None else None
            if registry is not None and target is not None:
                yield registry, dec, target
