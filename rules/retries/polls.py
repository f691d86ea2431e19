"""A bounded poll, not a retry (s41, issue 23 ``poll-not-retry``): :func:`observes_condition`.

Read from the retry model's :class:`~.data.Loop` with the path helpers of ``paths.py``.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import libcst as cst

from .data import Loop
from .paths import _after_try, _before_try, _ends_with_jump, _loop_exits, _stmts, _walk, _walk_all, is_sleep, plain_success_exit
from .status_loops import target_names


def _placeholder(value: cst.BaseExpression) -> bool:
    """A constant that stands for "nothing observed yet": ``None``, ``False``, a literal, an empty container."""
    if isinstance(value, cst.Name):
        return value.value in ("None", "False")
    if isinstance(value, (cst.SimpleString, cst.Integer, cst.Float)):
        return True
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return not value.elements
    if isinstance(value, cst.Dict):
        return not value.elements
    return False


def _assigned(nodes: Iterable[cst.CSTNode]) -> Iterator[tuple[set[str], cst.BaseExpression]]:
    """(names bound, value) of each plain assignment under ``nodes`` (nested definitions skipped)."""
    for n in _walk_all(nodes):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                yield target_names(t.target), n.value
        elif isinstance(n, cst.AnnAssign) and n.value is not None:
            yield target_names(n.target), n.value


def observes_condition(loop: Loop) -> bool:
    """A bounded poll, not a retry (s41, issue 23 ``poll-not-retry``): each round waits and reads a state, and the
    loop leaves only when what it read passes a test; a failed read counts as "not yet".

    ``for _ in range(9): try: txt = page.evaluate(js) / except Exception: txt = "" / if len(txt) > 500: break /
    sleep(0.8)``: the ``try`` never leaves the loop by itself (:func:`plain_success_exit` is False), every handler
    that goes round falls through after binding a name the ``try`` binds to a placeholder (``None``, ``""``,
    ``[]``), a wait runs every round outside the ``try`` and its handlers (not under a test), and every exit of the
    loop outside the handlers sits under an ``if`` after the ``try`` that tests a name the ``try`` binds. A
    successful read repeats too when its value is "not yet": the loop observes a condition, it does not redo a
    failed action.
    """
    if plain_success_exit(loop) or not loop.handlers:
        return False
    observed: set[str] = set()
    for names, _ in _assigned([loop.try_node.body]):
        observed |= names
    if not observed:
        return False
    for handler in loop.handlers:
        stmts = _stmts(handler.body)
        if _ends_with_jump(stmts):
            return False
        if not any(names & observed and _placeholder(value) for names, value in _assigned(stmts)):
            return False
    after = _after_try(loop)
    around = [s for s in (*_before_try(loop), *after) if isinstance(s, cst.SimpleStatementLine)]
    if not any(is_sleep(n) for n in _walk_all(around)):
        return False
    tested: set[int] = set()
    for stmt in after:
        if isinstance(stmt, cst.If) and {n.value for n in _walk(stmt.test) if isinstance(n, cst.Name)} & observed:
            tested |= {id(n) for n in _walk(stmt)}
    in_handlers = {id(n) for h in loop.handlers for n in _walk(h)}
    exits = [n for n in _loop_exits([loop.node.body], raising=False) if id(n) not in in_handlers]
    return bool(exits) and all(id(n) in tested for n in exits)
