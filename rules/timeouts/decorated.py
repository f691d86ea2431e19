"""A function whose every run a timeout decorator bounds (TFH201).

``@timeout_decorator.timeout(60)``, ``@wrapt_timeout_decorator.timeout(30)``,
``@func_timeout.func_set_timeout(10)``, ``@pytest.mark.timeout(5)`` (``linter/knowledge/timeouts.py``:
``TIMEOUT_DECORATORS``, resolved through the module's imports as any name) end the decorated function at
their deadline: a blocking call directly in its body is bounded by its caller, and a default timeout added
inside would raise an exception the caller does not handle before the decorator's own, which it does. What
counts: a decorator of the innermost ``def`` (a nested ``def`` or ``lambda`` runs later, outside the
deadline), on a plain ``def`` (on an ``async def`` the decorator bounds only the creation of the
coroutine), given its seconds (``timeout()``, ``timeout(None)`` and ``timeout(0)`` run the function
unbounded).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, Names, argument, is_none

__all__ = ["decorator_bound"]


def _bounds(dec: cst.BaseExpression, names: Names, knowledge: Knowledge) -> bool:
    if not isinstance(dec, cst.Call):
        return False  # a bare `@timeout`: no seconds given
    param = knowledge.timeout_decorators.get(names.qualname(dec.func) or "")
    if param is None:
        return False
    seconds = argument(dec, param[0], param[1])
    if seconds is None:
        return False
    value = seconds.value
    if is_none(value) or (isinstance(value, (cst.Integer, cst.Float)) and not value.evaluated_value):
        return False
    return True


def decorator_bound(func: cst.CSTNode | None, names: Names, knowledge: Knowledge) -> bool:
    """``func`` (the innermost function around a call) is a plain ``def`` a timeout decorator bounds."""
    if not isinstance(func, cst.FunctionDef) or func.asynchronous is not None:
        return False
    return any(_bounds(d.decorator, names, knowledge) for d in func.decorators)
