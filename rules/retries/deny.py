"""A deny-list retry condition (issue 23): a predicate that says *not* to retry a few listed exceptions and retries the rest.

tenacity ``retry_if_exception(pred)`` where ``pred`` is a lambda ``not isinstance(e, (A, B))`` or a
small same-module function of one argument whose ``if`` tests return ``False`` (at least one an
``isinstance`` of the argument) and whose last statement returns ``True`` or ``not <test>``::

    def should_retry(exc):
        if isinstance(exc, (AuthError, NotFound)):
            return False
        return True

Every exception but those is retried, a ``TypeError`` from a bug and a 400 included (TFH103).
A function imported from another module is not read (the linter reads one module at a time).
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from ...linter.api import Knowledge, dotted

ExceptionNames = Callable[[cst.BaseExpression], "tuple[str, ...] | None"]


def _param(params: cst.Parameters) -> str | None:
    names = [p.name.value for p in (*params.posonly_params, *params.params)]
    if len(names) != 1 or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.kwonly_params:
        return None
    return names[0]


def _isinstance_of(node: cst.BaseExpression, param: str) -> cst.BaseExpression | None:
    """The types of ``isinstance(param, T)``; None for any other expression."""
    if isinstance(node, cst.Call) and dotted(node.func) == "isinstance" and len(node.args) == 2:
        first = node.args[0].value
        if isinstance(first, cst.Name) and first.value == param and not any(a.star for a in node.args):
            return node.args[1].value
    return None


def _excluded_by_test(test: cst.BaseExpression, param: str, local: dict[str, cst.BaseExpression],
                      names: ExceptionNames, out: list[str]) -> bool:
    """Whether ``if test: return False`` excludes some failures only (isinstance tests, helper calls, ``or``)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return (_excluded_by_test(test.left, param, local, names, out)
                and _excluded_by_test(test.right, param, local, names, out))
    types = _isinstance_of(test, param)
    if types is not None:
        if isinstance(types, cst.Name) and types.value in local:
            types = local[types.value]
        found = names(types)
        if found is None:
            return False
        out.extend(found)
        return True
    # a helper deciding on the exception (`if is_budget_error(e): return False`): excludes more, names none
    return isinstance(test, cst.Call) and dotted(test.func) != "isinstance"


def _returns(stmt: cst.BaseStatement) -> cst.BaseExpression | None | bool:
    """The value of a one-line ``return X`` (False when the statement is not one)."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Return):
        return stmt.body[0].value
    return False


def _is_const(node: object, value: str) -> bool:
    return isinstance(node, cst.Name) and node.value == value


def deny_list(pred: cst.BaseExpression, defs: dict[str, cst.FunctionDef], names: ExceptionNames) -> tuple[str, ...] | None:
    """The exception types a deny-list predicate excludes (every other exception is retried); None otherwise."""
    if isinstance(pred, cst.Lambda):
        param = _param(pred.params)
        body = pred.body
        if param is None or not (isinstance(body, cst.UnaryOperation) and isinstance(body.operator, cst.Not)):
            return None
        types = _isinstance_of(body.expression, param)
        found = names(types) if types is not None else None
        return found or None
    if not isinstance(pred, cst.Name) or pred.value not in defs:
        return None
    fn = defs[pred.value]
    param = _param(fn.params)
    if param is None or not isinstance(fn.body, cst.IndentedBlock):
        return None
    stmts = [s for s in fn.body.body
             if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr))]
    if not stmts or len(stmts) > 8:
        return None
    local: dict[str, cst.BaseExpression] = {}
    excluded: list[str] = []
    for i, stmt in enumerate(stmts):
        if i == len(stmts) - 1:
            last = _returns(stmt)
            ok = _is_const(last, "True") or (isinstance(last, cst.UnaryOperation) and isinstance(last.operator, cst.Not))
            return tuple(excluded) if ok and excluded else None
        if isinstance(stmt, cst.If) and stmt.orelse is None:
            inner = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
            if len(inner) != 1 or not _is_const(_returns(inner[0]), "False"):
                return None
            if not _excluded_by_test(stmt.test, param, local, names, excluded):
                return None
            continue
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            local[small.targets[0].target.value] = small.value
            continue
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            local[small.target.value] = small.value
            continue
        return None
    return None


def deny_why(excluded: tuple[str, ...]) -> str:
    """TFH103's reason for a deny-list condition."""
    shown = ", ".join(t.rsplit(".", 1)[-1] for t in excluded[:4]) + (", ..." if len(excluded) > 4 else "")
    return f"the retry condition retries every exception but {shown}"


def excludes_permanent(excluded: tuple[str, ...], knowledge: Knowledge) -> bool:
    """A careful deny-list: it keeps a bug's builtin (``TypeError``, ``ValueError``, ...) and a permanent request error out."""
    bug = any(t in knowledge.bug_exceptions for t in excluded)
    request = any(t in knowledge.permanent_exceptions and t not in knowledge.bug_exceptions for t in excluded)
    return bug and request
