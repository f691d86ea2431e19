"""A project's own tool decorator handed to the functions that apply it, through any number of calls (mcp-gee-sweet:
``def tool(annotations=None): def decorator(func): timed = _timed(func); mcp.tool(...)(timed); return timed`` in
``server.py``, then ``register_all(tool)``; ``def register_all(tool): calendar.register(tool)``; ``def register(tool):
@tool(annotations=...) async def list_calendars(...)``). The parameter holds the decorator the caller names, as
Python binds it: ``@tool(...)`` on the parameter is the run's registry decorator, and its functions are tools.

Each file says what its calls hand (:func:`passed_decorators`): one of its own registry decorators by name, or a
parameter of the function the call sits in (``param:<function>:<position>``, resolved once the run is known by
:func:`resolve_passed`). Only a registry decorator of the run is handed on so; a server object is handed by
``servers.param_facts``."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable

from .index import FUNCS, Index, own_nodes

__all__ = ["decorated_by_parameter", "passed_decorators", "resolve_passed"]

#: a fact handing on a parameter of the calling function: ``param:<its qualified name>:<position>``
FORWARD = "param:"

Facts = dict[str, dict[int | str, str]]


def _positional(node: ast.AST) -> list[str]:
    args = getattr(node, "args", None)
    return [a.arg for a in (*args.posonlyargs, *args.args)] if isinstance(args, ast.arguments) else []


def _callee(call: ast.Call, index: Index, module_defs: Collection[str]) -> str | None:
    if isinstance(call.func, ast.Name) and call.func.id in module_defs and call.func.id not in index.imports:
        return f"{index.module}.{call.func.id}"
    return index.qualname(call.func)


def passed_decorators(index: Index, registries: Collection[str], own_roots: Collection[str],
                      ) -> list[tuple[str, int | str, str]]:
    """(callee, position or keyword, what is handed) for each call here handing by name one of this file's registry
    decorators (``registries``: qualified names; ``register_all(tool)``), or a parameter of the module-level function
    it sits in (``calendar.register(tool)`` in ``def register_all(tool)``: ``param:pkg.tools.register_all:0``)."""
    module_defs = {path for path, _n, _node, parents in index.defs if not parents}
    own = {name for name in module_defs if f"{index.module}.{name}" in registries}
    scopes: list[tuple[ast.AST, dict[str, str]]] = []
    if own:
        scopes.append((index.tree, {name: f"{index.module}.{name}" for name in own}))
    for path, _n, node, parents in index.defs:
        if not parents and (params := _positional(node)):
            scopes.append((node, {p: f"{FORWARD}{index.module}.{path}:{i}" for i, p in enumerate(params)}))
    out: list[tuple[str, int | str, str]] = []
    for scope, names in scopes:
        calls = ast.walk(scope) if scope is index.tree else own_nodes(scope)
        for call in calls:
            if not isinstance(call, ast.Call):
                continue
            passed: list[tuple[int | str, ast.expr]] = [*enumerate(call.args)]
            passed += [(k.arg, k.value) for k in call.keywords if k.arg]
            handed = [(w, names[a.id]) for w, a in passed if isinstance(a, ast.Name) and a.id in names]
            if handed and (callee := _callee(call, index, module_defs)) is not None \
                    and callee.split(".")[0] in own_roots:  # a function of the run
                out += [(callee, where, what) for where, what in handed]
    return out


def _facts_of(params: Facts, fn: str) -> dict[int | str, str]:
    """The facts of a function named as its own module names it, or as a caller's imports name it (a suffix)."""
    if fn in params:
        return params[fn]
    hits = [v for k, v in params.items() if k.endswith("." + fn) or fn.endswith("." + k)]
    return hits[0] if len(hits) == 1 else {}


def resolve_passed(handed: Iterable[tuple[str, int | str, str]], registries: Collection[str]) -> Facts:
    """The run's facts (callee -> position or keyword -> what it is handed): the servers first (``param_facts``: a
    server fact wins over a decorator's at the same place), then each handed-on parameter replaced by the registry
    decorator its callers hand it (through any depth of calls); the ones handed nothing known left out."""
    facts_in = list(handed)
    out: Facts = {}
    for decorator in (False, True):
        for callee, where, what in facts_in:
            if (what.startswith(FORWARD) or what in registries) == decorator:
                out.setdefault(callee, {}).setdefault(where, what)
    for _ in range(8):
        changed = False
        for facts in out.values():
            for where, what in list(facts.items()):
                if what.startswith(FORWARD):
                    fn, _, pos = what[len(FORWARD):].rpartition(":")
                    got = _facts_of(out, fn).get(int(pos))
                    if got is not None and got in registries:
                        facts[where] = got
                        changed = True
        if not changed:
            break
    return {callee: kept for callee, facts in out.items()
            if (kept := {w: v for w, v in facts.items() if not v.startswith(FORWARD)})}


def decorated_by_parameter(index: Index) -> bool:
    """A definition here is decorated by a parameter of a function enclosing it (``def register(tool): @tool(...)
    def ...``): what it is is known once the run's callers are."""
    for _path, _n, node, parents in index.defs:
        params = {p for f in parents if isinstance(f, FUNCS) for p in _positional(f)}
        for dec in node.decorator_list if params else ():  # type: ignore[attr-defined]
            head = dec.func if isinstance(dec, ast.Call) else dec
            if isinstance(head, ast.Name) and head.id in params:
                return True
    return False
