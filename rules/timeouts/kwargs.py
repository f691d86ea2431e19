"""The keywords a ``**name`` argument can hold, when the function builds that dict in place (s41, issue 24).

``params = {"client_id": cid, "base_url": url}`` ... ``if proxy: params["proxy"] = {...}`` ...
``APIHarnessV2(**params)``: every key the dict can hold is a literal the function wrote, so the call
has no ``timeout`` (falcon-mcp's ``FalconClient``, batch 14). Read with positive evidence only: the
name is bound once in the function to a dict display of string-literal keys (no ``**`` inside), or (s52) to
``dict(k=v, ...)`` with keyword arguments only (the builtin ``dict``, no ``**``), and
every other use of it is a ``name["literal"] = ...`` assignment or a ``**name`` argument. Anything
else (``params.update(...)``, ``params[key] = ...``, a parameter, a call that is handed the dict, a
closure) may add any key: the ``**`` may carry the timeout, as before.
"""

from __future__ import annotations

import ast
import os

import libcst as cst

from ...linter.api import every_node, importing_modules, project_call_arguments, project_only_calls, string_literal, walk_in_scope


def _subscript_key(target: cst.BaseExpression, name: str) -> str | None:
    """``name["k"]`` as an assignment target: ``"k"``; anything else: None."""
    if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value == name):
        return None
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return None
    return string_literal(target.slice[0].slice.value)


def _display_keys(value: cst.BaseExpression) -> set[str] | None:
    if (  # s52: ``dict(group=g, version=v)``: keyword arguments only, each a literal key
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict"
        and all(a.keyword is not None and not a.star for a in value.args)
    ):
        return {a.keyword.value for a in value.args if a.keyword is not None}
    if not isinstance(value, cst.Dict):
        return None
    keys: set[str] = set()
    for el in value.elements:
        key = string_literal(el.key) if isinstance(el, cst.DictElement) else None
        if key is None:
            return None
        keys.add(key)
    return keys


def local_kwargs_keys(func: cst.FunctionDef | cst.Lambda | None, call: cst.Call) -> frozenset[str] | None:
    """Every key the ``**`` arguments of ``call`` can pass, or None when one of them may hold any key
    (a ``*args``, or a ``**`` of anything but a dict the function builds in place with literal keys)."""
    if not isinstance(func, cst.FunctionDef):
        return None
    keys: set[str] = set()
    for arg in call.args:
        if arg.star == "*":
            return None
        if arg.star == "**":
            if not isinstance(arg.value, cst.Name):
                return None
            found = _built_in_place(func, arg.value.value)
            if found is None:
                return None
            keys |= found
    return frozenset(keys)


def _built_in_place(func: cst.FunctionDef, name: str) -> set[str] | None:
    keys: set[str] | None = None
    filled: set[str] = set()
    accounted: set[int] = set()
    uses = 0
    for n in walk_in_scope(func.body):
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            if any(isinstance(m, cst.Name) and m.value == name for m in every_node(n)):
                return None  # a closure may fill it
            continue
        if isinstance(n, cst.Name) and n.value == name:
            uses += 1
        elif isinstance(n, (cst.Assign, cst.AnnAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            for t in targets:
                if isinstance(t, cst.Name) and t.value == name:
                    if keys is not None or n.value is None or len(targets) != 1:
                        return None  # bound twice (or a chained assignment): not one dict
                    keys = _display_keys(n.value)
                    if keys is None:
                        return None
                    accounted.add(id(t))
                elif isinstance(t, cst.Subscript) and (key := _subscript_key(t, name)) is not None:
                    filled.add(key)
                    accounted.add(id(t.value))
        elif isinstance(n, cst.Arg) and n.star == "**" and isinstance(n.value, cst.Name) and n.value.value == name:
            accounted.add(id(n.value))
    if keys is None or uses != len(accounted):
        return None
    return keys | filled


def caller_kwargs_keys(func: cst.FunctionDef | cst.Lambda | None, call: cst.Call, path: str | None,
                       method: bool, tree: ast.AST | None = None) -> frozenset[str] | None:
    """s54 (issue 23): every key the function's own ``**`` parameter can hold at ``call``, read from its callers
    (``def run(cmd, capture=False, **kw): subprocess.run(cmd, capture_output=capture, **kw)``, every caller
    ``run([...], quiet=True)``: no ``timeout`` comes through). Positive evidence only: ``call``'s one star argument
    is ``**<that parameter>``, the function uses the parameter nowhere else (no ``kw.pop``/``kw[...] =``, no
    closure), every project module that mentions the function's name only calls it (``project_only_calls``: no
    callback handed on; for a module's function, also read on the ``ast``: :func:`_only_called`), and every call of that name (bare ``f(...)`` for a function, ``x.f(...)`` for a method) is
    seen and spreads nothing (``project_call_arguments``). None otherwise."""
    if not isinstance(func, cst.FunctionDef) or not isinstance(func.params.star_kwarg, cst.Param) or path is None:
        return None
    name = func.params.star_kwarg.name.value
    stars = [a for a in call.args if a.star]
    if len(stars) != 1 or stars[0].star != "**" or not (isinstance(stars[0].value, cst.Name) and stars[0].value.value == name):
        return None
    spread = {id(n.value) for n in every_node(func.body) if isinstance(n, cst.Arg) and n.star == "**"}
    if any(isinstance(n, cst.Name) and n.value == name and id(n) not in spread for n in every_node(func.body)):
        return None
    if not (project_only_calls(path, func.name.value) or (not method and tree is not None and _only_called(path, tree, func.name.value))):
        return None
    calls = [c for c in project_call_arguments(path, func.name.value) or () if c[2] == method]
    if not calls or any(c[3] for c in calls):
        return None
    params = func.params
    own = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    return frozenset(k for c in calls for k in c[0] if k not in own)


def _only_called(path: str, tree: ast.AST, name: str) -> bool:
    """The module function ``name`` of the module at ``path`` (its ``ast`` ``tree``) is only ever called by name: in
    its module every read of the name is a call's callee, and every project module importing the module reads it
    only as the callee of a call too (``from .cli import run`` then ``run(...)``); an importer that reaches it as a
    module attribute (``cli.run``, not read by :func:`caller_kwargs_keys`) or hands it on answers False."""
    importers = importing_modules(path)
    if importers is None:
        return False
    trees: list[ast.AST] = [tree]
    for _, text, _file in importers:
        try:
            trees.append(ast.parse(text))
        except (SyntaxError, ValueError, RecursionError):
            return False
    stem = os.path.splitext(os.path.basename(path))[0]
    for t in trees:
        callees = {id(n.func) for n in ast.walk(t) if isinstance(n, ast.Call)}
        for n in ast.walk(t):
            if isinstance(n, ast.Name) and n.id == name and id(n) not in callees:
                return False
            if t is not tree and isinstance(n, ast.Attribute) and n.attr == name and not (
                    isinstance(n.value, ast.Name) and n.value.id != stem and id(n) in callees):
                return False  # `cli.run(...)`, or an attribute of that name handed on
            if t is not tree and isinstance(n, ast.alias) and n.name.split(".")[-1] == name and n.asname not in (None, name):
                return False  # imported under another name
    return True
