"""s43 (batch 16, bello): a process's ``wait()`` run as a task that a deadline loop watches and ends with a kill."""

from __future__ import annotations

from typing import Callable

import libcst as cst

from ...linter.api import Names, every_node, last_name, walk_in_scope


def watched_wait(
    names: Names, target: cst.BaseExpression, value: cst.BaseExpression, kills: Callable[[cst.Call], set[str]]
) -> int | None:
    """s43 (batch 16, bello): ``waiter = asyncio.create_task(proc.wait())`` in a function that hands the task
    (or a set or list holding it) to ``asyncio.wait(..., timeout=t)`` or ``asyncio.wait_for(..., t)`` and kills
    ``proc``: the task is watched under a deadline that kills the process; its wait is no hang. The wait's id, or None."""
    if not (isinstance(target, cst.Name) and isinstance(value, cst.Call) and value.args
            and last_name(value.func) in ("create_task", "ensure_future")):
        return None
    inner = value.args[0].value
    if not (isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute) and inner.func.attr.value == "wait"
            and not inner.args and isinstance(inner.func.value, cst.Name)):
        return None
    func = names.function
    if func is None:
        return None
    proc, task = inner.func.value.value, target.value
    holders = {task}
    calls: list[cst.Call] = []
    for n in walk_in_scope(func):
        if isinstance(n, cst.Assign) and isinstance(n.value, (cst.Set, cst.List, cst.Tuple)) and any(
            isinstance(e.value, cst.Name) and e.value.value == task for e in n.value.elements
        ):
            holders |= {t.target.value for t in n.targets if isinstance(t.target, cst.Name)}
        elif isinstance(n, cst.AnnAssign) and isinstance(n.value, (cst.Set, cst.List, cst.Tuple)) and isinstance(
            n.target, cst.Name
        ) and any(isinstance(e.value, cst.Name) and e.value.value == task for e in n.value.elements):
            holders.add(n.target.value)
        elif isinstance(n, cst.Call):
            calls.append(n)
    killed = any(proc in kills(c) for c in calls)
    for c in calls if killed else []:
        qn = names.qualname(c.func)
        timed = any(a.keyword is not None and a.keyword.value == "timeout" and not (
            isinstance(a.value, cst.Name) and a.value.value == "None") for a in c.args)
        if qn == "asyncio.wait_for":
            timed = timed or len([a for a in c.args if a.keyword is None]) > 1
        elif qn != "asyncio.wait":
            continue
        if timed and any(isinstance(n, cst.Name) and n.value in holders for n in every_node(c)):
            return id(inner)
    return None
