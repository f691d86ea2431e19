"""TFH402: a ``None`` its callers read as a failure (s48, issue 24).

``return None`` from a broad handler around a remote read is reported because a caller may read it as "nothing
there". Where every caller in the module binds the result, tests it for ``None`` (or falsiness) and, on that branch,
takes a failure path, the module itself reads the ``None`` as "the read failed": it raises, logs at warning level or
above, calls an error/failure helper, or answers with a text that says it failed (``"Error: could not fetch the
balance"``, ``{"error": ...}``). There the ``None`` is a failure signal, not an empty answer, and the handler is not
reported. A caller that hands the value on, uses it without a test, or whose ``None`` branch only carries on
(``budget = avail or default``, ``if face is not None: ...`` with no failure path) keeps the finding, and so does a
function no caller in the module calls (its callers are unknown).

Read on the screen's whole ``ast`` tree of the module (narrowing leaves it whole), only for a handler that would
otherwise be reported.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from ...linter.api import Knowledge

__all__ = ["callers_read_failure"]



def callers_read_failure(func_name: str, method: bool, tree: ast.AST, knowledge: Knowledge) -> bool:
    """Every call of ``func_name`` in the module (``self.<name>(...)``/``cls.<name>(...)`` for a method) tests the
    result for ``None`` or falsiness and takes a failure path on that branch; at least one such call."""
    if not isinstance(tree, ast.Module):
        return False
    parents, all_calls = _index(tree)
    calls = [c for c in all_calls.get(func_name, ()) if _calls(c, func_name, method)
             and not _inside_def(c, func_name, parents)]
    return bool(calls) and all(_tested_as_failure(c, parents, knowledge) for c in calls)


@lru_cache(maxsize=2)
def _index(tree: ast.Module) -> tuple[dict[int, ast.AST], dict[str, list[ast.Call]]]:
    """The module's parent links and its calls by the callee's last name: built once per module, and only for a
    handler that would otherwise be reported."""
    parents: dict[int, ast.AST] = {}
    calls: dict[str, list[ast.Call]] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.Call):
            func = node.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if last is not None:
                calls.setdefault(last, []).append(node)
    return parents, calls


def _calls(call: ast.Call, name: str, method: bool) -> bool:
    func = call.func
    if method:
        return isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name) \
            and func.value.id in ("self", "cls")
    return isinstance(func, ast.Name) and func.id == name


def _inside_def(node: ast.AST, name: str, parents: dict[int, ast.AST]) -> bool:
    """The call sits in the function itself (a recursive call)."""
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)) and cur.name == name:
            return True
        cur = parents.get(id(cur))
    return False


def _value(node: ast.AST, parents: dict[int, ast.AST]) -> ast.AST:
    """The expression the call's result is: through an ``await``."""
    parent = parents.get(id(node))
    return parent if isinstance(parent, ast.Await) else node


def _tested_as_failure(call: ast.Call, parents: dict[int, ast.AST], knowledge: Knowledge) -> bool:
    value = _value(call, parents)
    parent = parents.get(id(value))
    if isinstance(parent, ast.NamedExpr) and isinstance(parent.target, ast.Name):
        value, parent = parent, parents.get(id(parent))  # ``if (v := F()) is None:``: the test reads the call
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is value:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return False
        return _next_test(parent, targets[0].id, parents, knowledge)
    # ``if F() is None:`` / ``if not F():`` / ``if (v := F()) is None:``
    branch = _failure_branch(parent, value, parents)
    return branch is not None and _fails(branch, knowledge)


def _next_test(stmt: ast.stmt, name: str, parents: dict[int, ast.AST], knowledge: Knowledge) -> bool:
    """The first statement after ``stmt`` (in its block) that reads ``name`` is an ``if`` testing it, whose branch
    taken on ``None`` fails."""
    block = parents.get(id(stmt))
    body = next((b for b in (getattr(block, f, None) for f in ("body", "orelse", "finalbody", "handlers"))
                 if isinstance(b, list) and stmt in b), None)
    if body is None:
        return False
    for nxt in body[body.index(stmt) + 1:]:
        if not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(nxt)):
            continue
        if not isinstance(nxt, ast.If):
            return False
        test = nxt.test
        on_none = _none_side(test, name)
        if on_none is None:
            return False
        branch = nxt.body if on_none else nxt.orelse
        return bool(branch) and _fails(branch, knowledge)
    return False


def _none_side(test: ast.expr, name: str) -> bool | None:
    """True: the ``if`` body runs when ``name`` is ``None``; False: the ``else`` does; None: not a test of it."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _none_side(test.operand, name)
        return None if inner is None else not inner
    if isinstance(test, ast.Name) and test.id == name:
        return False
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id == name and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        if isinstance(test.ops[0], (ast.Is, ast.Eq)):
            return True
        if isinstance(test.ops[0], (ast.IsNot, ast.NotEq)):
            return False
    return None


def _failure_branch(parent: ast.AST | None, value: ast.AST, parents: dict[int, ast.AST]) -> list[ast.stmt] | None:
    """``if F() is None: ...`` (the call is the test, or its operand): the branch run on ``None``."""
    node: ast.AST = value
    while parent is not None and not isinstance(parent, ast.If):
        if not isinstance(parent, (ast.UnaryOp, ast.Compare)):
            return None
        node, parent = parent, parents.get(id(parent))
    if not isinstance(parent, ast.If) or parent.test is not node:
        return None
    name = "\0call"
    test = _rename(parent.test, value, name)
    side = _none_side(test, name)
    if side is None:
        return None
    return parent.body if side else (parent.orelse or None)


def _rename(test: ast.expr, value: ast.AST, name: str) -> ast.expr:
    """``test`` with ``value`` (the call) read as the name ``name``."""
    if test is value:
        return ast.Name(id=name)
    if isinstance(test, ast.UnaryOp):
        return ast.UnaryOp(op=test.op, operand=_rename(test.operand, value, name))
    if isinstance(test, ast.Compare):
        return ast.Compare(left=_rename(test.left, value, name), ops=test.ops, comparators=test.comparators)
    if isinstance(test, ast.NamedExpr) and test is value:
        return ast.Name(id=name)
    return test


def _fails(branch: list[ast.stmt], knowledge: Knowledge) -> bool:
    """The branch raises, logs at warning level or above, calls an error/failure helper, or answers with a text
    that says the work failed."""
    for stmt in branch:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Raise):
                return True
            if isinstance(n, ast.Call):
                func = n.func
                last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if last.lower() in knowledge.failure_log_levels or any(
                        p in last.lower() for p in knowledge.failure_call_name_parts):
                    return True
            if isinstance(n, ast.Constant) and isinstance(n.value, str) \
                    and _failure_text(knowledge.failure_text_words).search(n.value):
                return True
    return False


@lru_cache(maxsize=4)
def _failure_text(words: tuple[str, ...]) -> re.Pattern[str]:
    """A text that says the work failed: one of ``words`` as a whole word."""
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)
