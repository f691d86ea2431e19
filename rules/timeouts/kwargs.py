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

import libcst as cst

from ...linter.api import every_node, string_literal, walk_in_scope


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
