"""Loops that run once unless retries are configured (s39): ``for attempt in range(retries + 1)`` where
``retries`` defaults to 0 (a parameter ``= 0``, ``config.get("reconnect_attempts", 0)``) retries nothing by default."""

from __future__ import annotations

from typing import Mapping, Union

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


Fields = Mapping[str, Mapping[str, object]]  # a module class -> its fields' literal defaults


def _config_class(name: str, fn: cst.FunctionDef, fields: Fields) -> str | None:
    """The module class a local name holds: ``cfg = config or BatchConfig()``, ``cfg = BatchConfig()``, or a
    parameter annotated ``BatchConfig`` (``Optional[...]``, ``... | None``); None when another value may."""
    value = _assigned_once(fn, name)
    if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
        value = value.right  # `config or BatchConfig()`: the caller's config, else the defaults
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in fields:
        return value.func.value
    if value is not None:
        return None
    p = fn.params
    for param in (*p.posonly_params, *p.params, *p.kwonly_params):
        if param.name.value == name and param.annotation is not None:
            ann = param.annotation.annotation
            if isinstance(ann, cst.Subscript) and dotted(ann.value) in ("Optional", "typing.Optional") and len(ann.slice) == 1:
                sub = ann.slice[0].slice
                ann = sub.value if isinstance(sub, cst.Index) else ann
            if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
                ann = ann.left
            return ann.value if isinstance(ann, cst.Name) and ann.value in fields else None
    return None


_NO_DEFAULT = object()


def _field_default(node: cst.BaseExpression, fn: cst.FunctionDef, fields: Fields) -> object:
    """The literal class default of ``cfg.field`` where ``cfg`` holds a module class, else ``_NO_DEFAULT``."""
    if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)):
        return _NO_DEFAULT
    cls = _config_class(node.value.value, fn, fields)
    return fields[cls].get(node.attr.value, _NO_DEFAULT) if cls is not None else _NO_DEFAULT


def _off_by_default(node: cst.BaseExpression, fn: cst.FunctionDef, fields: Fields) -> bool:
    """A switch whose default is off: a parameter ``= False``, or a config class field ``retry_failed: bool = False``."""
    if isinstance(node, cst.Name):
        p = fn.params
        return any(
            param.name.value == node.value and isinstance(param.default, cst.Name) and param.default.value == "False"
            for param in (*p.posonly_params, *p.params, *p.kwonly_params)
        )
    return _field_default(node, fn, fields) is False


def _defaults_to_zero(node: cst.BaseExpression, fn: cst.FunctionDef, fields: Fields = {}) -> bool:
    """A configured count whose default is 0: ``cfg.get("reconnect_attempts", 0)``, ``getattr(o, "retries", 0)``,
    a parameter of ``fn`` declared ``= 0``, a config class field ``max_retries: int = 0`` read through a local
    holding that class, or ``n if switch else 0`` with the switch off by default (s41, batch 14: deepworm's
    ``1 + (cfg.max_retries if cfg.retry_failed else 0)``)."""
    node = _unwrap_count(node)
    if isinstance(node, cst.IfExp):
        return _int(node.orelse) == 0 and _off_by_default(node.test, fn, fields)
    if isinstance(node, cst.Attribute):
        default = _field_default(node, fn, fields)
        return type(default) is int and default == 0
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


def one_attempt_by_default(loop: Union[cst.For, cst.While], fn: cst.FunctionDef, fields: Fields = {}) -> bool:
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
        return _defaults_to_zero(bound.left, fn, fields)
    if _int(bound.left) == 1:
        return _defaults_to_zero(bound.right, fn, fields)
    return False
