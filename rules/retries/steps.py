"""A step loop's step (s44, batch 16 hazzel ``agent-step-loop``), and the small statement helpers the loop reader shares.

:func:`one_step_of_many`: a ``try`` that is one step of a round doing other work, its failure passed over, is no
retry (``loops.hand_loop`` asks it of a counted ``for`` with no success exit).
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from ...linter.api import dotted, lexical_children
from .status_loops import all_nodes

__all__ = ["BOOKKEEPING_CALL_WORDS", "binds_nothing", "body_stmts", "continues", "one_step_of_many"]

BOOKKEEPING_CALL_WORDS = ("log", "print", "debug", "info", "warn", "sleep", "time", "monotonic")


def body_stmts(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    if isinstance(suite, cst.IndentedBlock):
        return suite.body
    return [cst.SimpleStatementLine(body=list(suite.body))] if isinstance(suite, cst.SimpleStatementSuite) else []


def continues(node: cst.CSTNode) -> bool:
    """A ``continue`` under ``node`` that is not a nested loop's (nested definitions skipped)."""
    stack = list(lexical_children(node))
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Continue):
            return True
        if isinstance(n, (cst.For, cst.While)):
            if n.orelse is not None:
                stack.append(n.orelse)
            continue
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(lexical_children(n))
    return False


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in all_nodes(node) if isinstance(n, cst.Name)}


def binds_nothing(suite: cst.CSTNode) -> bool:
    """No statement under ``suite`` binds a name or an attribute (an assignment, ``with ... as``, a ``for`` target, a
    walrus): what it runs leaves no result for the rest of the round."""
    return not any(
        isinstance(n, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.AsName, cst.For, cst.NamedExpr))
        for n in all_nodes(suite)
    )


def one_step_of_many(loop: cst.For, trynode: cst.Try, handlers: Sequence[cst.ExceptHandler]) -> bool:
    """s44 (batch 16, hazzel ``agent-step-loop``): the ``try`` is one step of a round that does other work before
    and after it, and its failure is passed over (no handler goes to the next round: ``except Exception: pass``,
    then the round's next step). The next round does different work (the agent's next step, the next message), not
    the failed work again: no retry. Work is a call that is not bookkeeping (log, print, sleep, a clock read; a log
    line whatever its arguments call); a statement after the ``try`` that reads a name of the ``try``
    (``response = parse(results)``) handles the attempt's own result, not other work."""
    if any(continues(h.body) for h in handlers):
        return False
    body = list(body_stmts(loop.body))
    if trynode not in body:
        return False
    at = body.index(trynode)
    stored = {n.value for n in all_nodes(trynode.body) if isinstance(n, cst.Name)} - {"self"}

    def bookkeeping(call: cst.Call) -> bool:
        return any(w in (dotted(call.func) or "").rsplit(".", 1)[-1].lower() for w in BOOKKEEPING_CALL_WORDS)

    def work(stmt: cst.CSTNode) -> bool:
        if isinstance(stmt, cst.SimpleStatementLine) and all(
            isinstance(s, cst.Expr) and isinstance(s.value, (cst.Call, cst.Await))
            and isinstance(c := (s.value.expression if isinstance(s.value, cst.Await) else s.value), cst.Call)
            and bookkeeping(c)
            for s in stmt.body
        ):
            return False  # a log line, whatever its arguments call (`log(f"...{response.get('message')}")`)
        return any(isinstance(n, cst.Call) and not bookkeeping(n) for n in all_nodes(stmt))

    # s49 (batch 21 oblivion-agent): with no work before it, a `try` that binds nothing, whose handlers bind nothing
    # (`try: self.refresh_prompt(msg) except Exception: pass`, then the round's model call), is a side step too:
    # it leaves no result, and the round's work after it runs whether it failed or not
    before = any(work(stmt) for stmt in body[:at]) or (
        binds_nothing(trynode.body) and all(binds_nothing(h.body) for h in handlers))
    after = False
    for stmt in body[at + 1:]:
        if _names_in(stmt) & stored:
            continue  # the attempt's result read (`response = parse(results)`), then tested or logged
        if isinstance(stmt, cst.Try) or (not isinstance(stmt, cst.If) and work(stmt)):
            after = True
            break
    return before and after
