"""One more attempt after the handler repaired the route (TFH303, s49, batch 21 mcp-modelmanager).

A loop of two rounds (``for attempt in range(2)``, ``range(1, 3)``, ``for attempt in (1, 2)``), or whose one going-round
branch tests that the round is the first (``if attempt == 1:`` in ``for attempt in (1, 2)``), goes round once. When its
handler catches named failures only (no ``Exception``, ``BaseException`` or bare ``except``) and the branch that goes
round first does other work than bookkeeping (``await asyncio.to_thread(TUNNEL.tear_down)``, ``self._reset_client()``,
then ``continue``), the second attempt goes through a repaired route (a new tunnel, a fresh session): the failure was
recognised by its class, and what a wait would give the same route the repair gives a new one. s34's
``single_targeted_retry`` decides the same from a test of the exception; this reads the clause's classes instead.
"""

from __future__ import annotations

import builtins

import libcst as cst

from ...linter.api import dotted, knowledge
from .data import Loop
from .paths import _after_try
from .status_loops import all_nodes
from .steps import BOOKKEEPING_CALL_WORDS, body_stmts

_BROAD = frozenset({"Exception", "BaseException"})


def _named_failures(handler: cst.ExceptHandler) -> bool:
    """The handler names its failures: every type a dotted name, none of them ``Exception``/``BaseException``."""
    if handler.type is None:
        return False
    types = [el.value for el in handler.type.elements] if isinstance(handler.type, (cst.Tuple, cst.List)) else [handler.type]
    names = [dotted(t) for t in types]
    return bool(names) and all(n is not None and n.rsplit(".", 1)[-1] not in _BROAD for n in names)


def _rounds(node: cst.For) -> tuple[int, str | None] | None:
    """How many rounds a ``for`` over ``range(2)``/``range(a, b)`` or a literal tuple or list makes, and the literal
    text of its first value (``"0"``, ``"1"``); None when the code does not say."""
    it = node.iter
    if isinstance(it, (cst.Tuple, cst.List)):
        first = it.elements[0].value if it.elements else None
        return len(it.elements), first.value if isinstance(first, cst.Integer) else None
    if isinstance(it, cst.Call) and dotted(it.func) == "range" and 1 <= len(it.args) <= 2:
        ints = [a.value for a in it.args if isinstance(a.value, cst.Integer) and a.keyword is None]
        if len(ints) != len(it.args):
            return None
        lo, hi = (0, int(ints[0].value, 0)) if len(ints) == 1 else (int(ints[0].value, 0), int(ints[1].value, 0))
        return hi - lo, str(lo)
    return None


def _first_round_test(test: cst.BaseExpression, counter: str, first: str | None) -> bool:
    return (
        first is not None and isinstance(test, cst.Comparison) and dotted(test.left) == counter
        and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal)
        and isinstance(test.comparisons[0].comparator, cst.Integer) and test.comparisons[0].comparator.value == first
    )


def _repairs_then_continues(suite: cst.BaseSuite) -> bool:
    """The suite's last statement is ``continue``, and a statement before it calls something that is not bookkeeping."""
    stmts = body_stmts(suite)
    if not stmts or not (isinstance(stmts[-1], cst.SimpleStatementLine) and isinstance(stmts[-1].body[-1], cst.Continue)):
        return False
    return any(
        isinstance(n, cst.Call)
        and not any(w in (dotted(n.func) or "").rsplit(".", 1)[-1].lower() for w in BOOKKEEPING_CALL_WORDS)
        for s in stmts[:-1] for n in all_nodes(s)
    )


def repairs_once(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """The handler goes round once, after repairing the route, for failures it names (see the module's docstring)."""
    node = loop.node
    if not isinstance(node, cst.For) or not _named_failures(handler):
        return False
    rounds = _rounds(node)
    if rounds is None:
        return False
    count, first = rounds
    counter = dotted(node.target)
    stmts = body_stmts(handler.body)
    if count != 2 or not stmts or counter is None:
        return False
    if _repairs_then_continues(handler.body):
        return True
    # `if attempt == <first>: repair(); continue` last: the second round's failure falls out of the loop
    last = stmts[-1]
    if isinstance(last, cst.If) and last.orelse is None and _first_round_test(last.test, counter, first) and (
        _repairs_then_continues(last.body)):
        return True
    # s53 (batch 25 runinfra-cli `handler-fixes-cause`): `if attempt == 1 and _restore_execute_bit(p): continue`,
    # then the give-up (`_fail(p)`, `raise`): the repair is the test, and only its success goes round
    first_if = stmts[0]
    return (
        isinstance(first_if, cst.If) and first_if.orelse is None and _repair_in_test(first_if.test, counter, first)
        and _only_continues(first_if.body) and len(stmts) > 1
        and all(isinstance(s, cst.SimpleStatementLine) and not any(isinstance(n, cst.Continue) for n in all_nodes(s))
                for s in stmts[1:])
    )


def _repair_in_test(test: cst.BaseExpression, counter: str, first: str | None) -> bool:
    """``attempt == <first> and repair(...)``: a first-round test and a call that is not bookkeeping, in an ``and``."""
    if not (isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And)):
        return False
    parts = [test.left, test.right]
    return any(_first_round_test(p, counter, first) for p in parts) and any(
        isinstance(n, cst.Call) and not any(w in (dotted(n.func) or "").rsplit(".", 1)[-1].lower() for w in BOOKKEEPING_CALL_WORDS)
        for p in parts for n in all_nodes(p)
    )


def _only_continues(suite: cst.BaseSuite) -> bool:
    stmts = body_stmts(suite)
    return len(stmts) == 1 and isinstance(stmts[0], cst.SimpleStatementLine) and isinstance(stmts[0].body[-1], cst.Continue)


def _repair_call(node: cst.CSTNode, caught: str | None) -> bool:
    """A call that may change what the next attempt meets: not bookkeeping or a report (``log``, ``print``,
    ``notify``: ``kb.REPORTING_CALL_WORDS``), not a give-up (``_fail(p)``: ``kb.GIVE_UP_CALL_PREFIXES``), not a builtin, not a class built (an error to raise), and not handed
    the caught exception (``_network_error(exc, ...)`` reads the failure, it repairs nothing)."""
    if not isinstance(node, cst.Call):
        return False
    name = dotted(node.func) or ""
    last = name.rsplit(".", 1)[-1]
    if not last or last.lstrip("_")[:1].isupper() or (isinstance(node.func, cst.Name) and hasattr(builtins, last)):
        return False
    words = set(knowledge.identifier_words(last))
    if words & knowledge.REPORTING_CALL_WORDS or any(w in last.lower() for w in BOOKKEEPING_CALL_WORDS) or last.lower().lstrip("_").startswith(
            knowledge.GIVE_UP_CALL_PREFIXES):  # `_fail_not_executable(p)`: the way out
        return False
    return caught is None or not any(isinstance(n, cst.Name) and n.value == caught for a in node.args for n in all_nodes(a))


def _repairs_in(node: cst.CSTNode, caught: str | None) -> bool:
    """A repair call in ``node``, leaving out what a ``raise``/``return`` evaluates (the way out, not round)."""
    out = {id(n) for s in all_nodes(node) if isinstance(s, (cst.Raise, cst.Return)) for n in all_nodes(s)}
    return any(id(n) not in out and _repair_call(n, caught) for n in all_nodes(node))


def _repair_gate(stmts: "list[cst.BaseStatement]", caught: str | None) -> bool:
    """``if not await self._wake(): raise``: the handler goes round only when the repair said it worked."""
    for stmt in stmts:
        if not (isinstance(stmt, cst.If) and stmt.orelse is None):
            continue
        test = stmt.test
        if not (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
            continue
        inner = test.expression.expression if isinstance(test.expression, cst.Await) else test.expression
        body = body_stmts(stmt.body)
        if _repair_call(inner, caught) and body and _leaves(body[-1]):
            return True
    return False


def _leaves(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[-1], (cst.Raise, cst.Return, cst.Break))


def repairs_before_going_round(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """s53 (issue 23, batch 25's ``handler-fixes-cause``, ``resend-after-token-refresh``; batch 21-24's
    ``local-git-retry-after-prune``, ``changed-request-after-auth``, ``resend-after-wake``): a handler naming its
    failures sets up what the next attempt needs before it: :func:`repairs_once`; or it goes round only when a
    repair said it worked (``if not await self._wake(): raise``); or, in a loop of two rounds, a repair call lies
    on the way round (in the handler, or after the ``try`` when the handler falls out of it: ``git worktree
    prune`` before the second ``git branch -D``). The second attempt meets a changed state: not the same work
    hammered again."""
    if repairs_once(loop, handler):
        return True
    if not _named_failures(handler):
        return False
    caught = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
    stmts = list(body_stmts(handler.body))
    if _repair_gate(stmts, caught):
        return True
    node = loop.node
    rounds = _rounds(node) if isinstance(node, cst.For) else None
    if rounds is None or rounds[0] != 2:
        return False
    if _repairs_in(handler.body, caught):
        return True
    if stmts and (_leaves(stmts[-1]) or (isinstance(stmts[-1], cst.SimpleStatementLine) and isinstance(stmts[-1].body[-1], cst.Continue))):
        return False
    for stmt in _after_try(loop):
        if _repairs_in(stmt, caught):
            return True
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[-1], (cst.Continue, cst.Break, cst.Return, cst.Raise)):
            break
    return False
