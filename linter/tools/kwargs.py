"""What ``**kwargs`` hands a call for one keyword, read from the function that builds it (the calls column's timeouts)."""

from __future__ import annotations

import libcst as cst

from ..nodes import walk_in_scope

__all__ = ["star_default", "star_without"]


def _key_is(node: cst.BaseExpression, keyword: str) -> bool:
    return isinstance(node, cst.SimpleString) and node.evaluated_value == keyword


def star_default(fn: cst.FunctionDef, call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    """What ``**kwargs`` hands the call for ``keyword`` when the function sets it: ``kwargs.setdefault("timeout",
    30)``, ``kwargs["timeout"] = 30`` or ``kwargs = {..., "timeout": 30}``
    before ``session.get(url, **kwargs)`` (the value unless a caller passes one)."""
    stars = [a.value.value for a in call.args if a.star == "**" and isinstance(a.value, cst.Name)]
    if len(stars) != 1 or any(a.star == "*" for a in call.args):
        return None
    name = stars[0]
    for n in walk_in_scope(fn.body):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name) \
                and n.func.value.value == name and n.func.attr.value == "setdefault" and len(n.args) == 2 \
                and _key_is(n.args[0].value, keyword):
            return n.args[1].value
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(t := n.targets[0].target, cst.Subscript) \
                and isinstance(t.value, cst.Name) and t.value.value == name and len(t.slice) == 1 \
                and isinstance(t.slice[0].slice, cst.Index) and _key_is(t.slice[0].slice.value, keyword):
            return n.value
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(t := n.targets[0].target, cst.Name) \
                and t.value == name and isinstance(n.value, cst.Dict):
            for el in n.value.elements:  # ``kwargs = {"url": u, "timeout": 10}``
                if isinstance(el, cst.DictElement) and _key_is(el.key, keyword):
                    return el.value
    return None


def star_without(fn: cst.FunctionDef, call: cst.Call, keyword: str) -> bool:
    """``**kwargs`` built in the function from literal keys only, none of them ``keyword`` (``kwargs = {"url": u,
    "headers": h}``, ``kwargs["params"] = p``), and never handed in or changed otherwise: the call gets no
    ``keyword`` from it (arcade-asana's ``client.get(**kwargs)``: the client's own timeout)."""
    stars = [a.value.value for a in call.args if a.star == "**" and isinstance(a.value, cst.Name)]
    if len(stars) != 1 or len([a for a in call.args if a.star]) != 1:
        return False
    name = stars[0]
    params = fn.params
    if any(p.name.value == name for p in [*params.posonly_params, *params.params, *params.kwonly_params]) \
            or any(isinstance(p, cst.Param) and p.name.value == name for p in (params.star_arg, params.star_kwarg)):
        return False
    built = False
    for n in walk_in_scope(fn.body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                target = t.target
                if isinstance(target, cst.Name) and target.value == name:
                    if not isinstance(n.value, cst.Dict) or not all(
                            isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)
                            and not _key_is(el.key, keyword) for el in n.value.elements):
                        return False
                    built = True
                elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) \
                        and target.value.value == name:
                    index = target.slice[0].slice if len(target.slice) == 1 else None
                    if not isinstance(index, cst.Index) or not isinstance(index.value, cst.SimpleString) \
                            or _key_is(index.value, keyword):
                        return False
                elif any(isinstance(x, cst.Name) and x.value == name for x in walk_in_scope(target)):
                    return False  # ``kwargs, rest = ...``
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.For, cst.With)):
            targets = [n.target] if not isinstance(n, cst.With) else [i.asname.name for i in n.items if i.asname]
            if any(isinstance(x, cst.Name) and x.value == name for t in targets for x in walk_in_scope(t)):
                return False
        elif isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == name:
            return False  # ``kwargs.update(extra)``, ``kwargs.setdefault(...)``
    return built
