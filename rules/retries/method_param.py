"""A request helper whose HTTP method is a parameter, given a write method by a caller in the module (s35).

``async def make_request(method, url, json=None): ... await client.request(method=method, url=url, ...)``
inside a retry loop sends whatever its callers ask for. When a call in the same module passes a literal
``"POST"`` or ``"PATCH"`` for that parameter (``make_request("POST", url, json=body)``), the retry
re-sends a non-idempotent write: TFH101's evidence, read one file at a time. A method named only in
another module (the usual case for a package's shared request helper) is not read.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from ...linter.api import keyword_arg, positional
from ...linter.api import knowledge as kb

_WRITE_METHODS = frozenset({"POST", "PATCH"})


@dataclass(frozen=True)
class LiteralMethod:
    """A call ``name(..., "POST", ...)`` in the module: the argument's position or keyword, and its line."""

    position: int | None
    keyword: str | None
    method: str
    line: int
    on_attribute: bool  # ``self.name(...)``/``client.name(...)``: ``self`` is not among the arguments


def literal_methods(tree: ast.AST | None) -> dict[str, list[LiteralMethod]]:
    """Callee last name -> the calls in the module that pass a literal write method."""
    out: dict[str, list[LiteralMethod]] = {}
    if tree is None:
        return out
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name is None:
            continue
        attr = isinstance(func, ast.Attribute)
        for i, a in enumerate(node.args):
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.upper() in _WRITE_METHODS:
                out.setdefault(name, []).append(LiteralMethod(i, None, a.value.upper(), node.lineno, attr))
        for kw in node.keywords:
            v = kw.value
            if kw.arg and isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.upper() in _WRITE_METHODS:
                out.setdefault(name, []).append(LiteralMethod(None, kw.arg, v.value.upper(), node.lineno, attr))
    return out


def parameter_method_write(
    call: cst.Call, qn: str | None, fn: cst.FunctionDef | None, calls: dict[str, list[LiteralMethod]]
) -> str | None:
    """The effect text when ``call`` is an HTTP client's ``request(method, ...)`` whose method is a parameter of
    ``fn`` that a same-module call gives a literal ``"POST"``/``"PATCH"``; else None."""
    func = call.func
    if fn is None or qn is None or not isinstance(func, cst.Attribute) or func.attr.value not in kb.HTTP_REQUEST_METHODS:
        return None
    if qn.rpartition(".")[0] not in kb.HTTP_CLIENTS:
        return None
    given = keyword_arg(call, "method")
    pos = positional(call)
    value = given.value if given is not None else pos[0].value if pos else None
    if not isinstance(value, cst.Name):
        return None
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    keywords = params + [p.name.value for p in fn.params.kwonly_params]
    name = value.value
    if name not in keywords:
        return None
    index = params.index(name) if name in params else None
    bound = bool(params) and params[0] in ("self", "cls")
    for site in calls.get(fn.name.value, ()):
        if site.keyword == name or (
            index is not None and site.position is not None and site.position == index - (1 if bound and site.on_attribute else 0)
        ):
            return f"{site.method} through {qn}, as the call of {fn.name.value}() at line {site.line} asks"
    return None
