"""A loop that leaves only on a success status (s40, batch 12 memorisdk): every other status goes round.

``for attempt in range(n): try: status = api.post(url, body); if status == 201: return ... except
Exception: ...; time.sleep(...)``: the attempt's only exit tests the status against a 2xx literal
(``== 201``, ``200 <= s <= 299``, ``s < 300``), with no ``else``, nothing in the loop names a 4xx or 5xx status
or tests the status otherwise, and the loop sends a write (a poll GETting a health URL until it
answers 200 waits for "ready", it retries nothing): a 400/401/403/404 is sent again like a 503 (TFH102). A loop that tests a 4xx or 5xx literal
anywhere (``if s >= 500: continue``, ``if s in (401, 403): raise``) decides by status and is read elsewhere.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import walk_in_scope
from .data import Loop

_EXITS = (cst.Return, cst.Break)


def success_status_exit(loop: Loop) -> cst.If | None:
    """The ``if`` of the try that leaves the loop on a 2xx status only, when the loop names no other status."""
    found: cst.If | None = None
    for n in walk_in_scope(loop.try_node.body):
        if isinstance(n, cst.If) and n.orelse is None and _success_test(n.test) and _leaves(n.body):
            found = found or n
    if found is None:
        return None
    if any(400 <= i < 600 for i in _compared_ints(loop.node)) or _other_status_test(loop.node, found.test):
        return None  # the loop tells some failing statuses apart (`in NON_RETRYABLE_STATUS_CODES`)
    return found


def _success_test(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Comparison):
        return False
    ints = [_int(n) for n in walk_in_scope(test) if isinstance(n, cst.Integer)]
    if not ints or not all(200 <= i <= 300 for i in ints):
        return False
    ops = [c.operator for c in test.comparisons]
    if len(ops) == 1 and isinstance(ops[0], cst.Equal):
        return True  # status == 201
    return any(isinstance(o, (cst.LessThan, cst.LessThanEqual)) for o in ops) and (300 in ints or 299 in ints)


def _leaves(body: cst.BaseSuite) -> bool:
    return any(isinstance(n, _EXITS) for n in walk_in_scope(body))


def _other_status_test(node: cst.CSTNode, test: cst.BaseExpression) -> bool:
    """A comparison in ``node`` besides ``test`` that reads a status (``r.status_code in CODES``)."""
    for c in walk_in_scope(node):
        if isinstance(c, cst.Comparison) and c is not test:
            for n in walk_in_scope(c):
                name = n.value if isinstance(n, cst.Name) else n.attr.value if isinstance(n, cst.Attribute) else ""
                if "status" in name.lower():
                    return True
    return False


def _compared_ints(node: cst.CSTNode) -> list[int]:
    """The int literals compared in ``node`` (``s >= 500``, ``s in (401, 403)``; not ``body[:500]``)."""
    return [_int(i) for c in walk_in_scope(node) if isinstance(c, cst.Comparison) for i in walk_in_scope(c) if isinstance(i, cst.Integer)]


def _int(n: cst.Integer) -> int:
    try:
        return int(n.value, 0)
    except ValueError:
        return -1


def raised_on_error_status(loop: Loop) -> tuple[str, cst.If] | None:
    """s40 (healthomics' PromQL client): the attempt raises its own exception on any error status
    (``if response.status_code >= 400: raise RuntimeError(...)``, ``!= 200``) and the loop names no other
    status: the class raised and the ``if``. A handler of the loop catching that class sends a 4xx round."""
    for n in walk_in_scope(loop.try_node.body):
        if not (isinstance(n, cst.If) and isinstance(n.test, cst.Comparison) and _every_error(n.test)):
            continue
        stmts = n.body.body if isinstance(n.body, cst.IndentedBlock) else ()
        last = stmts[-1] if stmts else None
        if not isinstance(last, cst.SimpleStatementLine) or not isinstance(last.body[-1], cst.Raise):
            continue
        exc = last.body[-1].exc
        head = exc.func if isinstance(exc, cst.Call) else exc
        if not isinstance(head, cst.Name):
            continue
        if any(400 < i < 600 for i in _compared_ints(loop.node)) or _other_status_test(loop.node, n.test):
            return None  # the loop tells failing statuses apart
        return head.value, n
    return None


def _every_error(test: cst.Comparison) -> bool:
    """``status >= 400``, ``status > 399``, ``status != 200`` (any 2xx)."""
    if len(test.comparisons) != 1:
        return False
    comp = test.comparisons[0]
    right = comp.comparator
    if not isinstance(right, cst.Integer):
        return False
    value = _int(right)
    op = comp.operator
    return (
        (isinstance(op, cst.GreaterThanEqual) and value == 400)
        or (isinstance(op, cst.GreaterThan) and value == 399)
        or (isinstance(op, cst.NotEqual) and 200 <= value < 300)
    )
