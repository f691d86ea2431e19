"""A retry written as recursion on a response's status (``smullyan tools``' retry column): a function that calls
itself again from an ``if`` whose test reads the status, and returns what that call gives::

    if response.status_code == 401 and _retry:
        await self._refresh()
        return await self._request(method, path, _retry=False)
    if response.status_code >= 500 and _retry:
        await asyncio.sleep(1)
        return await self._request(method, path, _retry=False)

(batch 21 accelo's ``_request``: once on 401 after a token refresh, once on 5xx after a second). The retry model
(``rules/retries/recursion.py``) reads a broad ``except`` recursing; this is the status test's own. The call handing
a literal ``False``/``0`` (or ``n - 1``) is bounded, the attempts once; the wait is "yes" when the branch sleeps.
A recursion that is not returned, or whose test reads no status, is no retry."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from ..names import dotted
from ..nodes import walk_in_scope
from .model import RetryFact

__all__ = ["status_recursions"]

_STATUS = frozenset({"status", "status_code", "status_int", "code"})


#: per function (by id, with the function to check it): its status-tested recursions, read for no helper
Read = dict[int, tuple[cst.CSTNode, list[RetryFact]]]


def status_recursions(fn: cst.CSTNode, helper: str | None, read: Read | None = None) -> list[RetryFact]:
    """The status-tested recursions of ``fn`` (a function or method), as retry facts (``read``: the functions read
    so far, each read once however many rows share it: the branches of one dispatcher)."""
    hit = read.get(id(fn)) if read is not None else None
    if hit is None or hit[0] is not fn:
        hit = (fn, _recursions(fn))
        if read is not None:
            read[id(fn)] = hit
    return [replace(r, helper=helper) for r in hit[1]]


def _recursions(fn: cst.CSTNode, helper: str | None = None) -> list[RetryFact]:
    if not isinstance(fn, cst.FunctionDef):
        return []
    out: list[RetryFact] = []
    for node in walk_in_scope(fn.body):
        if not isinstance(node, cst.If) or not _reads_status(node.test):
            continue
        for inner in walk_in_scope(node.body):
            call = _returned_call(inner)
            if call is None or not _is_self(call.func, fn.name.value):
                continue
            # an HTTP status is 100-599: the test's other numbers bound the attempts (``_rate_retries < 3``)
            statuses = sorted({int(n.value) for n in walk_in_scope(node.test)
                               if isinstance(n, cst.Integer) and n.value.isdigit() and 100 <= int(n.value) < 600})
            bounded = any(_lowers(a.value) for a in call.args)
            sleeps = any(isinstance(n, cst.Call) and (dotted(n.func) or "").rsplit(".", 1)[-1] == "sleep"
                         for n in walk_in_scope(node.body))
            out.append(RetryFact("recursion", "once" if bounded else "unknown", "yes" if sleeps else "none",
                                 "status " + ",".join(str(s) for s in statuses) if statuses else "status",
                                 True if bounded else None, helper))
            break
    return out


def _reads_status(test: cst.BaseExpression) -> bool:
    return any((isinstance(n, cst.Attribute) and n.attr.value in _STATUS)
               or (isinstance(n, cst.Name) and n.value in ("status", "status_code")) for n in walk_in_scope(test))


def _returned_call(node: cst.CSTNode) -> cst.Call | None:
    if not isinstance(node, cst.Return) or node.value is None:
        return None
    value = node.value.expression if isinstance(node.value, cst.Await) else node.value
    return value if isinstance(value, cst.Call) else None


def _is_self(func: cst.BaseExpression, name: str) -> bool:
    """``self._request``/``cls._request`` in a method named ``_request``, ``fetch`` in a function named ``fetch``."""
    if isinstance(func, cst.Name):
        return func.value == name
    return (isinstance(func, cst.Attribute) and func.attr.value == name and isinstance(func.value, cst.Name)
            and func.value.value in ("self", "cls"))


def _lowers(value: cst.BaseExpression) -> bool:
    """A value that ends the recursion next time: ``False``, ``0``, ``retries - 1``, ``attempt + 1``."""
    if isinstance(value, cst.Name):
        return value.value == "False"
    if isinstance(value, cst.Integer):
        return value.value == "0"
    return isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Subtract, cst.Add)) \
        and isinstance(value.right, cst.Integer)
