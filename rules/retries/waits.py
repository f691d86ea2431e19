"""Whether a hand-written retry loop waits before its next attempt (TFH303), read from the retry model's :class:`~.data.Loop`.

Beside ``paths.py`` (the loop's exits and success paths), for the budget rules:

- :func:`sleeps_on_failure_path`: a sleep lies on the path from a handler back to
  the loop head (a sleep inside the ``try``, on the success path, or after a
  ``continue`` does not);
- :func:`attempt_waits`: the attempt itself waits before failing (a call with a
  ``timeout=``, or a deadline scope or wrapper around it, and a handler for what
  that wait ends in);
- :func:`deterministic_only`: a retry's condition names only parse/validation
  errors (a re-ask needs no wait).

As in ``paths.py``, a path that *may* sleep counts as sleeping.
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from ...linter.api import dotted, keyword_arg
from ...linter.api import knowledge as kb
from .data import Condition, Loop, Retry
from .handlers import _handler_types
from .literals import _number
from .paths import _after_try, _before_try, _ends_with_jump, _stmts, _walk, _walk_all, is_sleep


def sleeps_on_failure_path(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """Whether a sleep may run between ``handler`` catching and the loop's next attempt.

    The path: the handler's statements, the ``try``'s ``finally``, and, unless
    the handler ends in ``continue``, the statements after the ``try`` up to
    the first statement that leaves or restarts the loop; then, from the loop
    head, what runs before the attempt's first call (a ``while`` test, the
    statements before the ``try``, sleeps leading the ``try`` body). A sleep
    after the call in the ``try`` body (the exception skipped it) or in its
    ``else`` (success only) is not on it.
    """
    if any(is_sleep(n) for n in _walk(handler.body)):
        return True
    helpers = {id(c) for c in loop.sleeping_calls}
    if helpers and any(id(n) in helpers for n in _walk(handler.body)):
        return True  # a same-module helper called in the handler sleeps (issue 23)
    final = loop.try_node.finalbody
    if final is not None and any(is_sleep(n) for n in _walk(final.body)):
        return True
    if not _ends_with_jump(_stmts(handler.body)):
        for stmt in _after_try(loop):
            if any(is_sleep(n) for n in _walk(stmt)):
                return True
            if _ends_with_jump([stmt]):
                break
    return _sleeps_before_attempt(loop)


_WAITED_EXCEPTION_WORDS = ("timeout", "full", "empty")


def attempt_waits(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """The attempt itself waits before failing: a call in the ``try`` passes a non-zero
    ``timeout=`` and the handler catches only what that wait ends in (``queue.Full``,
    ``queue.Empty``, a ``...Timeout``): ``q.put(item, timeout=0.1)`` / ``except queue.Full:
    continue`` spends the wait in the call (issue 23)."""
    types = _handler_types(handler)
    if not types or not all(any(w in t.lower() for w in _WAITED_EXCEPTION_WORDS) for t in types):
        return False
    if (loop.deadline_calls or loop.own_timeouts) and all("timeout" in t.lower() for t in types):
        return True  # `with anyio.fail_after(t)` / `asyncio.wait_for(aw, t)`: the deadline's wait ended the attempt
    for n in _walk(loop.try_node.body):
        if isinstance(n, cst.Call):
            arg = keyword_arg(n, "timeout")
            if arg is not None and _number(arg.value) != 0 and not (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                return True
    return False


def _sleeps_before_attempt(loop: Loop) -> bool:
    """A sleep between the loop head and the next attempt's first call: in a ``while`` test,
    before the ``try`` (``if attempt: time.sleep(...)``), or leading the ``try`` body."""
    if isinstance(loop.node, cst.While) and any(is_sleep(n) for n in _walk(loop.node.test)):
        return True
    if any(is_sleep(n) for n in _walk_all(_before_try(loop))):
        return True
    return _leading_sleep(_stmts(loop.try_node.body)) is True or _told_to_wait(loop)


_WAIT_KEYWORD_WORDS = ("sleep", "wait", "backoff", "delay")


def _told_to_wait(loop: Loop) -> bool:
    """The attempt's first statement passes the loop's counter to a keyword named for a wait:
    ``ensure_instance(sleep_before_create=attempt > 0)``, ``connect(backoff=attempt)``: the callee
    waits before every attempt but the first (s35, ``sleep-passed-as-flag``)."""
    node = loop.node
    if not (isinstance(node, cst.For) and isinstance(node.target, cst.Name)):
        return False
    counter = node.target.value
    stmts = _stmts(loop.try_node.body)
    for n in _walk(stmts[0]) if stmts else ():
        if not isinstance(n, cst.Call):
            continue
        for arg in n.args:
            if arg.keyword is None or not any(w in arg.keyword.value.lower() for w in _WAIT_KEYWORD_WORDS):
                continue
            if any(isinstance(v, cst.Name) and v.value == counter for v in _walk(arg.value)):
                return True
    return False


def _leading_sleep(stmts: Sequence[cst.BaseStatement]) -> bool | None:
    """Whether the block sleeps before its first other call: True (a sleep first), False (a call
    first: an exception there skips what follows), None (neither). Reads into a ``with`` (its items
    first) and an ``if``'s body in order: a sleep deep in the attempt (a scroll loop's
    ``time.sleep`` after the page loaded) is not one that leads it (issue 23, batch 3)."""
    for stmt in stmts:
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                found = _first_sleep_or_call(item)
                if found is not None:
                    return found
            inner = _leading_sleep(_stmts(stmt.body))
            if inner is not None:
                return inner
            continue
        if isinstance(stmt, cst.If):
            found = _first_sleep_or_call(stmt.test)
            if found is not None:
                return found
            inner = _leading_sleep(_stmts(stmt.body))  # `if attempt: time.sleep(...)`
            if inner is not None:
                return inner
            continue
        found = _first_sleep_or_call(stmt)
        if found is not None:
            return found
    return None


def _computes_wait(call: cst.Call) -> bool:
    """A call that works out a wait in memory or logs it (``random.uniform(0.5, 1.5)``, ``min(...)``,
    ``logger.info("waiting")``): it fails no attempt, so a sleep after it still leads the attempt (s35 post)."""
    name = dotted(call.func) or ""
    if name.split(".")[0] in kb.WAIT_COMPUTING_ROOTS or name in kb.WAIT_COMPUTING_BUILTINS:
        return True
    return "." in name and name.rsplit(".", 1)[-1].lower().startswith(kb.LOGGING_CALL_PREFIXES)


def _first_sleep_or_call(node: cst.CSTNode) -> bool | None:
    nodes = list(_walk(node))
    if any(is_sleep(n) for n in nodes):
        if isinstance(node, cst.SimpleStatementLine) or not any(isinstance(n, cst.Call) and not is_sleep(n) for n in nodes):
            return True
        return False  # a compound statement with other calls: the attempt's call may come first
    if any(isinstance(n, cst.Call) and not _computes_wait(n) for n in nodes):
        return False
    return None


def deterministic_only(retry: Retry) -> bool:
    """A known condition that names only parse/validation errors (a re-ask needs no wait)."""
    cond = retry.condition
    if not isinstance(cond, Condition) or cond.default or cond.every_exception or cond.statuses is not None or not cond.exceptions:
        return False
    return all(
        (last := e.rsplit(".", 1)[-1]) in kb.DETERMINISTIC_EXCEPTIONS or last.endswith(kb.DETERMINISTIC_EXCEPTION_SUFFIXES)
        or last.startswith(kb.DETERMINISTIC_EXCEPTION_PREFIXES)
        for e in cond.exceptions
    )


def stale_connection_only(retry: Retry) -> bool:
    """A known condition that names only a pooled connection the server closed (s36): the next
    attempt opens a fresh one, and a wait would change nothing."""
    cond = retry.condition
    if not isinstance(cond, Condition) or cond.default or cond.every_exception or cond.statuses is not None or not cond.exceptions:
        return False
    return all(e in kb.STALE_CONNECTION_EXCEPTIONS for e in cond.exceptions)


def changes_each_attempt(retry: Retry) -> bool:
    """``for attempt in Retrying(...): with attempt:`` whose body changes what it sends under a test of
    the attempt's state (``if attempt.retry_state.attempt_number > 1: budget //= 2``): each attempt is a
    different request, not the same one again (s36: ``changed-request``)."""
    node = retry.anchor
    if not isinstance(node, cst.For) or not isinstance(node.target, cst.Name) or retry.body is None:
        return False
    name = node.target.value
    for n in _walk(retry.body):
        if not isinstance(n, cst.If):
            continue
        reads_state = any(
            isinstance(a, cst.Attribute) and isinstance(a.value, cst.Name) and a.value.value == name
            and a.attr.value == "retry_state"
            for a in _walk(n.test)
        )
        if reads_state and any(isinstance(s, (cst.AugAssign, cst.Assign)) for s in _walk(n.body)):
            return True
    return False
