"""Where a module builds the client objects its requests go through (``smullyan tools``' calls column: a request's
timeout from the client's constructor, ``facts.py``).

A request on a client without a timeout of its own has the constructor's (``httpx.AsyncClient(timeout=30.0)``). The
request is often far from the constructor, in another function of the module (a method reached alone, in a summary
of the tool's helpers); :func:`module_clients` reads, once per module, the shapes that say which constructor an object
comes from:

- a function returning a constructor call (``def _client(self): return httpx.Client(timeout=10)``): a request on its
  value (``self._client().post(...)``) has that timeout;
- a getter returning what it builds lazily, a module global (``global _client; if _client is None: _client =
  httpx.AsyncClient(timeout=30)``; ``return _client, _limit``) or an attribute (``if self._client is None:
  self._client = httpx.AsyncClient(timeout=30.0)``; ``return self._client``): the getter's value, or the element
  of the tuple it returns, is that client;
- an attribute a method of the class sets to a constructor call (``self._http = httpx.Client(timeout=60)`` in
  ``__init__``) and no method sets to anything else: ``self._http`` is that client in every method of the class.

:func:`bound_from` reads an assignment of a getter's value to a name (``client = await self._get_client()``,
``client, limit = _get_client()``): the name holds the getter's client in its function."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from ..names import dotted
from ..nodes import walk_in_scope

__all__ = ["bound_from", "getter_key", "module_clients"]


def module_clients(module: cst.Module) -> Iterator[tuple[str, cst.Call]]:
    """(receiver key, the constructor call it was built by): ``self._client()`` / ``_client()`` for a getter (``#1``
    appended for the element of a returned tuple), ``self.x`` for an attribute the class sets in one place."""
    found: dict[str, list[cst.Call]] = {}
    for stmt in module.body:
        pairs = _class(stmt) if isinstance(stmt, cst.ClassDef) else _getter(stmt, None) \
            if isinstance(stmt, cst.FunctionDef) else iter(())
        for key, call in pairs:
            found.setdefault(key, []).append(call)
    for key, calls in found.items():
        if len(calls) == 1:  # two classes of the module building ``self._client`` differently: neither
            yield key, calls[0]


def _class(cls: cst.ClassDef) -> Iterator[tuple[str, cst.Call]]:
    methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    for m in methods:
        yield from _getter(m, "self")
    built: dict[str, list[cst.BaseExpression]] = {}
    for m in methods:
        for node in walk_in_scope(m.body):
            for target, value in _assigned(node):
                name = dotted(target)
                if name is not None and name.startswith("self.") and name.count(".") == 1:
                    built.setdefault(name, []).append(value)
    for name, values in built.items():
        calls = [v for v in values if isinstance(v, cst.Call)]
        others = [v for v in values if not (isinstance(v, cst.Name) and v.value == "None")]
        if len(calls) == 1 and len(others) == 1:  # built in one place, else only reset to ``None``
            yield name, calls[0]


def _getter(fn: cst.FunctionDef, owner: str | None) -> Iterator[tuple[str, cst.Call]]:
    returns = [n.value for n in walk_in_scope(fn.body) if isinstance(n, cst.Return) and n.value is not None]
    if len(returns) != 1:
        return
    key = f"{owner}.{fn.name.value}()" if owner else f"{fn.name.value}()"
    value = returns[0]
    if isinstance(value, cst.Call):
        yield key, value  # ``return httpx.Client(timeout=10)``
        return
    elements: Sequence[tuple[str, cst.BaseExpression]] = (
        [(f"#{i}", e.value) for i, e in enumerate(value.elements)] if isinstance(value, cst.Tuple) else [("", value)])
    built: dict[str, list[cst.BaseExpression]] = {}
    for node in walk_in_scope(fn.body):
        for target, v in _assigned(node):
            name = dotted(target)
            if name is not None:
                built.setdefault(name, []).append(v)
    for suffix, element in elements:
        name = dotted(element)
        values = built.get(name or "", [])
        if name is not None and len(values) == 1 and isinstance(values[0], cst.Call):
            yield key + suffix, values[0]  # built here, lazily, and returned


def _assigned(node: cst.CSTNode) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression]]:
    if isinstance(node, cst.Assign):
        for t in node.targets:
            if isinstance(t.target, cst.Tuple):
                values = node.value.elements if isinstance(node.value, cst.Tuple) else None
                if values is not None and len(values) == len(t.target.elements):
                    yield from ((te.value, ve.value) for te, ve in zip(t.target.elements, values))
            else:
                yield t.target, node.value
    elif isinstance(node, cst.AnnAssign) and node.value is not None:
        yield node.target, node.value


def getter_key(value: cst.BaseExpression) -> str | None:
    """``self._client()`` / ``_client()`` for a call of a getter without arguments (awaited too), else None."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call) or value.args:
        return None
    name = dotted(value.func)
    return f"{name}()" if name is not None and name.count(".") <= 1 else None


def bound_from(target: cst.BaseExpression, value: cst.BaseExpression) -> Iterator[tuple[str, str]]:
    """(name, the getter key it takes its value from) for ``client = await self._get_client()`` and ``client, limit
    = _get_client()`` (``_get_client()#0``)."""
    key = getter_key(value)
    if key is None:
        return
    if isinstance(target, cst.Name):
        yield target.value, key
    elif isinstance(target, cst.Tuple):
        for i, e in enumerate(target.elements):
            if isinstance(e.value, cst.Name):
                yield e.value.value, f"{key}#{i}"
