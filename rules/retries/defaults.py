"""Loops that run once unless retries are configured (s39): ``for attempt in range(retries + 1)`` where
``retries`` defaults to 0 (a parameter ``= 0``, ``config.get("reconnect_attempts", 0)``) retries nothing by default."""

from __future__ import annotations

from typing import Union

import libcst as cst

from ...linter.api import dotted
from .literals import _int
from .status_loops import all_nodes as _walk


def _assigned_once(fn: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """The value a local name is given, when the function (nested definitions included) assigns it exactly once."""
    values = []
    for n in _walk(fn.body):
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets):
            values.append(n.value)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)) and isinstance(n.target, cst.Name) and n.target.value == name:
            return None
    return values[0] if len(values) == 1 else None


def _unwrap_count(node: cst.BaseExpression) -> cst.BaseExpression:
    """``int(x)`` -> ``x``; ``max(1, x)``/``max(x, 1)`` -> ``x`` (a floor of one attempt changes no default)."""
    while isinstance(node, cst.Call) and not any(a.keyword or a.star for a in node.args):
        name = dotted(node.func)
        values = [a.value for a in node.args]
        if name == "int" and len(values) == 1:
            node = values[0]
        elif name == "max" and len(values) == 2 and _int(values[0]) == 1:
            node = values[1]
        elif name == "max" and len(values) == 2 and _int(values[1]) == 1:
            node = values[0]
        else:
            break
    return node


def _defaults_to_zero(node: cst.BaseExpression, fn: cst.FunctionDef) -> bool:
    """A configured count whose default is 0: ``cfg.get("reconnect_attempts", 0)``, ``getattr(o, "retries", 0)``,
    or a parameter of ``fn`` declared ``= 0``."""
    node = _unwrap_count(node)
    if isinstance(node, cst.Call):
        values = [a.value for a in node.args if a.keyword is None and not a.star]
        name = dotted(node.func) or ""
        if name.rsplit(".", 1)[-1] == "get" and isinstance(node.func, cst.Attribute) and len(values) == 2:
            return _int(values[1]) == 0
        if name == "getattr" and len(values) == 3:
            return _int(values[2]) == 0
        return False
    if isinstance(node, cst.Name):
        p = fn.params
        for param in (*p.posonly_params, *p.params, *p.kwonly_params):
            if param.name.value == node.value:
                return param.default is not None and _int(param.default) == 0
    return False


def one_attempt_by_default(loop: Union[cst.For, cst.While], fn: cst.FunctionDef) -> bool:
    """A ``for`` over ``range(n + 1)`` where ``n`` is a configured number of retries that defaults to 0
    (``max_attempts = int(config.get("reconnect_attempts", 0)) + 1``; ``def call(..., retries=0)``): the work
    runs once unless someone configures retries, so by default there is nothing retried (s39, lightagent)."""
    if not (isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and dotted(loop.iter.func) == "range"):
        return False
    args = loop.iter.args
    if len(args) != 1 or args[0].keyword or args[0].star:
        return False
    bound = _unwrap_count(args[0].value)
    if isinstance(bound, cst.Name):
        value = _assigned_once(fn, bound.value)
        if value is None:
            return False
        bound = _unwrap_count(value)
    if not (isinstance(bound, cst.BinaryOperation) and isinstance(bound.operator, cst.Add)):
        return False
    if _int(bound.right) == 1:
        return _defaults_to_zero(bound.left, fn)
    if _int(bound.left) == 1:
        return _defaults_to_zero(bound.right, fn)
    return False
