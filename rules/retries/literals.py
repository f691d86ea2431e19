"""Literal reading for the retry model: ints, numbers, int collections, and which statuses a status test is true for.

:func:`status_set` answers for ``knowledge.SAMPLE_STATUSES`` (a test that
tests no status gives None); the model uses it for predicates, giveups and a
hand loop's ``if <4xx>: raise``.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, positional
from ...linter.api import knowledge as kb


def _int(node: cst.BaseExpression | None) -> int | None:
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(node, cst.Attribute) and node.attr.value.isupper():
        # HTTPStatus.TOO_MANY_REQUESTS, codes.too_many_requests
        import http

        try:
            return int(http.HTTPStatus[node.attr.value])
        except KeyError:
            return None
    return None


def _number(node: cst.BaseExpression | None) -> float | None:
    # ``int``/``float`` read a literal's text as Python does (``0x10``, ``1_000``, ``1e3``); not ``ast.literal_eval``,
    # whose nested helpers are a reference cycle per call, left to the cycle collector
    try:
        if isinstance(node, cst.Integer):
            return float(int(node.value, 0))
        if isinstance(node, cst.Float):
            return float(node.value)
    except ValueError:
        return None
    return None


def _ints(node: cst.BaseExpression) -> frozenset[int] | None:
    """A literal collection (or ``range``) of ints."""
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out = set()
        for el in node.elements:
            v = _int(el.value)
            if v is None:
                return None
            out.add(v)
        return frozenset(out)
    if isinstance(node, cst.Call) and dotted(node.func) in ("range", "frozenset", "set", "tuple", "list"):
        args = [a.value for a in node.args if a.keyword is None and not a.star]
        if dotted(node.func) == "range":
            nums = [_int(a) for a in args]
            if not nums or any(n is None for n in nums) or len(nums) > 3:
                return None
            return frozenset(range(*[n for n in nums if n is not None]))
        if len(args) == 1:
            return _ints(args[0])
    return None


_STATUS_WORDS = ("status", "code")


def _is_status(node: cst.BaseExpression) -> bool:
    """``resp.status_code``, ``e.response.status``, ``status``, ``code``, ``int(status)``."""
    if isinstance(node, cst.Call) and dotted(node.func) == "int" and len(node.args) == 1:
        return _is_status(node.args[0].value)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get":
        return _is_status(node.func.value) or any(
            isinstance(a.value, cst.SimpleString) and "status" in a.value.value for a in node.args
        )
    if isinstance(node, cst.Subscript):
        return any(
            isinstance(s.slice, cst.Index) and isinstance(s.slice.value, cst.SimpleString) and "status" in s.slice.value.value
            for s in node.slice
        )
    name = dotted(node)
    if name is None:
        return False
    last = name.rsplit(".", 1)[-1].lower()
    return any(w in last for w in _STATUS_WORDS) and "reason" not in last


_OPS = {
    cst.Equal: lambda a, b: a == b,
    cst.NotEqual: lambda a, b: a != b,
    cst.LessThan: lambda a, b: a < b,
    cst.LessThanEqual: lambda a, b: a <= b,
    cst.GreaterThan: lambda a, b: a > b,
    cst.GreaterThanEqual: lambda a, b: a >= b,
}
_SAMPLE = frozenset(kb.SAMPLE_STATUSES)


def _operand(node: cst.BaseExpression) -> tuple[str, object] | None:
    """("status", divisor) for the status (or ``status // 100``), ("int", n), ("set", {...}), else None."""
    if _is_status(node):
        return ("status", 1)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.FloorDivide) and _is_status(node.left):
        d = _int(node.right)
        return ("status", d) if d else None
    if isinstance(node, cst.UnaryOperation):
        return None
    v = _int(node)
    if v is not None:
        return ("int", v)
    s = _ints(node)
    if s is not None:
        return ("set", s)
    return None


def _compare(node: cst.Comparison) -> frozenset[int] | None:
    left = _operand(node.left)
    if left is None:
        return None
    result = set(_SAMPLE)
    seen_status = left[0] == "status"
    for target in node.comparisons:
        right = _operand(target.comparator)
        if right is None:
            return None
        op = type(target.operator)
        if right[0] == "status":
            seen_status = True
        if left[0] == "status" and right[0] in ("int", "set") or right[0] == "status" and left[0] in ("int", "set"):
            status, other = (left, right) if left[0] == "status" else (right, left)
            flipped = status is right
            div = status[1]
            assert isinstance(div, int)
            keep = set()
            for s in _SAMPLE:
                v = s // div
                if op in (cst.In, cst.NotIn):
                    if other[0] != "set" or flipped:
                        return None
                    hit = v in other[1]  # type: ignore[operator]
                    if op is cst.NotIn:
                        hit = not hit
                elif op in _OPS and other[0] == "int":
                    a, b = (other[1], v) if flipped else (v, other[1])
                    hit = _OPS[op](a, b)
                else:
                    return None
                if hit:
                    keep.add(s)
            result &= keep
        else:
            return None
        left = right
    return frozenset(result) if seen_status else None


def status_set(node: cst.BaseExpression) -> frozenset[int] | None:
    """Which sample statuses make a literal status test true; None when it tests no status.

    ``and``/``or``/``not`` combine; a part that tests no status (``isinstance``)
    is neutral.
    """
    if isinstance(node, cst.Comparison):
        return _compare(node)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = status_set(node.expression)
        return None if inner is None else _SAMPLE - inner
    if isinstance(node, cst.BooleanOperation):
        left, right = status_set(node.left), status_set(node.right)
        if left is None:
            return right
        if right is None:
            return left
        return left & right if isinstance(node.operator, cst.And) else left | right
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "startswith":
        # str(status).startswith("5")
        obj = node.func.value
        if isinstance(obj, cst.Call) and dotted(obj.func) == "str" and obj.args and _is_status(obj.args[0].value):
            args = positional(node)
            if args and isinstance(args[0].value, cst.SimpleString):
                prefix = args[0].value.evaluated_value
                if isinstance(prefix, str):
                    return frozenset(s for s in _SAMPLE if str(s).startswith(prefix))
    return None


def _whole_4xx(statuses: frozenset[int] | None) -> bool:
    """A status set that is exactly the 4xx range (429 among them)."""
    if statuses is None:
        return False
    fours = {s for s in _SAMPLE if 400 <= s < 500}
    return statuses == fours
