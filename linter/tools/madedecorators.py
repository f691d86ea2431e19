"""Tool decorators a function of the file hands back: ``def _tool(annotations): return mcp_server.tool(annotations=
annotations)`` (odoo-safe-mcp), ``def tool(read_only=True): return server.tool(annotations=ToolAnnotations(...))``
beside the tools in a server's factory (surface-mcp), applied as ``@_tool(READ_ONLY)`` / ``@tool()``: the function
so decorated is a tool of the framework whose decorator the factory returns.

A factory counts when every ``return`` of its own body (not of a nested function) hands back a call of a framework's
tool decorator (``server.tool(...)``; a ``try`` returning ``server.tool()`` in its handler is the same), and it is
applied by its bare name in its own scope or a scope it encloses. A function returning anything else on some path
(``return func``: a no-op in read-only mode; ``return mcp.tool()(fn)``: a registration, read as a registry elsewhere)
makes no decorator here; a nested function handing back the function it is given unchanged (``if HTTP_MODE: def
_passthrough(fn): return fn; return _passthrough``, influencers-club-mcp: the tools of one transport) does not count
against it."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from .index import FUNCS, Index

__all__ = ["made_decorator", "made_decorators"]

#: a factory's name -> (the framework's decorator it returns, the factory's enclosing scopes)
Made = dict[str, tuple[str, tuple[ast.AST, ...]]]


def _returns(fn: ast.AST) -> Iterator[ast.Return]:
    """The ``return`` statements of ``fn``'s own body (a nested function's or class's are not its own)."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (*FUNCS, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _identities(fn: ast.AST) -> set[str]:
    """The functions nested in ``fn``'s own body that hand back the one argument they are given, unchanged
    (``def _passthrough(fn): return fn``): the decorator a factory returns in a mode that registers nothing."""
    out: set[str] = set()
    for node in ast.iter_child_nodes(fn):
        for st in [node, *(s for s in ast.walk(node) if isinstance(s, FUNCS))] if isinstance(node, ast.If) else [node]:
            if not isinstance(st, FUNCS) or st.decorator_list:
                continue
            params = [a.arg for a in (*st.args.posonlyargs, *st.args.args)]
            body = [b for b in st.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
            if len(params) == 1 and len(body) == 1 and isinstance(body[0], ast.Return) \
                    and isinstance(body[0].value, ast.Name) and body[0].value.id == params[0]:
                out.add(st.name)
    return out


def made_decorators(index: Index, decorators: Mapping[str, str]) -> Made:
    """The file's decorator factories: name -> (decorator qualified name, the parents of the factory's ``def``)."""
    out: Made = {}
    for _path, _n, node, parents in index.defs:
        if getattr(node, "decorator_list", None):
            continue  # a decorated function is itself a tool or a method, not a factory
        made: set[str] = set()
        passing = _identities(node)
        for ret in _returns(node):
            value = ret.value
            if isinstance(value, ast.Name) and value.id in passing:
                continue  # ``if HTTP_MODE: return _passthrough``: the other mode leaves the function as it is
            qn = index.qualname(value.func) if isinstance(value, ast.Call) else None
            if qn is None or decorators.get(qn) in (None, "runtime"):
                made = set()
                break
            made.add(qn)
        if len(made) == 1:
            out[node.name] = (made.pop(), parents)  # type: ignore[attr-defined]
    return out


def made_decorator(dec: ast.expr, parents: tuple[ast.AST, ...], made: Made, index: Index) -> str | None:
    """The framework decorator ``dec`` (``@_tool(READ_ONLY)``, ``@tool()``, ``@tool``) applies through a factory of
    the file visible from a function whose enclosing scopes are ``parents``."""
    head = dec.func if isinstance(dec, ast.Call) else dec
    if not isinstance(head, ast.Name) or head.id in index.imports or head.id not in made:
        return None
    qn, scope = made[head.id]
    return qn if parents[:len(scope)] == scope else None
