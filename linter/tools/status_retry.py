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
A recursion that is not returned, or whose test reads no status, is no retry.

s53: a counted loop that goes round on a status is one too, whatever the statuses (the retry family's
``status_loops`` reads only those sending a 5xx round, TFH101's concern; a row lists a 429 loop as well): an ``if``
testing the status whose body ends in ``continue``, or one at the loop body's own level whose every way returns or
raises, followed by a wait at that level (batch 24 sigma's ``_request``: ``for attempt in range(self.max_retries +
1): r = await ...request(...); if r.status_code != 429: ... return r``, then ``if attempt == self.max_retries:
raise ...``, ``await asyncio.sleep(delay)``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import libcst as cst

from .. import knowledge as kb
from ..names import dotted
from ..nodes import walk_in_scope
from ...rules.retries.literals import status_set
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
    nodes = list(walk_in_scope(fn.body))  # one walk of the body (a dispatcher's is read once however many rows)
    for node in nodes:
        if isinstance(node, cst.For):
            out += _status_loop(node)
    for node in nodes:
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


def _status_loop(loop: cst.For) -> list[RetryFact]:
    """A counted loop going round on a status (the module's docstring): one fact, its statuses those the test sends
    round when they are literal (``status 429``), its attempts the ``range``'s literal bound."""
    bound = _counted(loop)
    if bound is None or not isinstance(loop.body, cst.IndentedBlock):
        return []
    stmts = loop.body.body
    test: cst.BaseExpression | None = None
    sent: frozenset[int] | None = None
    for node in _walk_loop(loop.body):
        if isinstance(node, cst.If) and _reads_status(node.test) and _ends_in(node.body, cst.Continue):
            test, sent = node.test, status_set(node.test)
            break
    if test is None:
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, cst.If) and stmt.orelse is None and _reads_status(stmt.test) \
                    and _ends_in(stmt.body, cst.Return, cst.Raise) and _waits_round(stmts[i + 1:]):
                leaving = status_set(stmt.test)
                test, sent = stmt.test, None if leaving is None else frozenset(kb.SAMPLE_STATUSES) - leaving
                break
    if test is None or any(isinstance(n, cst.SimpleString) for n in walk_in_scope(test)):
        return []  # a job's state polled (``if job.status == "done": return job``): no request sent again
    waits = any(_sleeps(s) for s in stmts)
    condition = "status " + ",".join(str(n) for n in sorted(sent)) if sent else "status"
    stop = f"{bound} attempts" if isinstance(bound, int) else "unknown"
    return [RetryFact("status-loop", stop, "yes" if waits else "none", condition, True)]


def _counted(loop: cst.For) -> int | str | None:
    """``for attempt in range(n)`` (a counter-named or ``_`` target): ``n`` when literal, else ``"n"``; else None."""
    it, target = loop.iter, loop.target
    if not (isinstance(target, cst.Name) and isinstance(it, cst.Call) and dotted(it.func) == "range"
            and 1 <= len(it.args) <= 2 and not any(a.star or a.keyword for a in it.args)):
        return None
    name = target.value.lower()
    if not (name.startswith("_") or any(w in name for w in kb.RETRY_COUNTER_WORDS)):
        return None
    last = it.args[-1].value
    return int(last.value) if isinstance(last, cst.Integer) and last.value.isdigit() else "n"


def _walk_loop(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes under a loop's body, not entering an inner loop (whose ``continue`` is its own) nor a definition."""
    out: list[cst.CSTNode] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(c for c in n.children
                     if not isinstance(c, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda)))
    return out


def _ends_in(suite: cst.BaseSuite, *kinds: type[cst.CSTNode]) -> bool:
    """Every way through the suite ends in one of ``kinds`` (an ``if`` whose both branches do)."""
    stmts = suite.body if isinstance(suite, cst.IndentedBlock) else []
    last = stmts[-1] if stmts else None
    if isinstance(last, cst.SimpleStatementLine):
        return isinstance(last.body[-1], kinds)
    if isinstance(last, cst.If):
        other = last.orelse
        return _ends_in(last.body, *kinds) and (
            other is not None and (_ends_in(other.body, *kinds) if isinstance(other, cst.Else)
                                   else _ends_in(cst.IndentedBlock(body=[other]), *kinds)))
    return False


def _sleeps(stmt: cst.CSTNode) -> bool:
    return any(isinstance(n, cst.Call) and any(w in (dotted(n.func) or "").rsplit(".", 1)[-1].lower()
                                               for w in kb.SLEEP_WORDS) for n in walk_in_scope(stmt))


def _waits_round(rest: Sequence[cst.BaseStatement]) -> bool:
    """After a leave-unless test: a wait at the loop body's own level, and no statement at that level leaving the loop
    (a ``raise`` under an ``if``, the bound or a wait too long, is the retry's end, not its absence)."""
    top = [x for r in rest if isinstance(r, cst.SimpleStatementLine) for x in r.body]
    return any(_sleeps(r) for r in rest if isinstance(r, cst.SimpleStatementLine)) \
        and not any(isinstance(x, (cst.Return, cst.Raise, cst.Break)) for x in top)
