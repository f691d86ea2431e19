"""The stamina reader: ``@retry(on=..., attempts=, timeout=, wait_initial=)`` and ``retry_context(on=...)``.

stamina's defaults: 10 attempts, 45 seconds; ``None`` turns either off.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, keyword_arg
from .data import UNKNOWN, Condition, Retry, Stop, Wait, _Unknown
from .literals import _int, _number
from .reader import Reader


class StaminaReader(Reader):
    def _read_stamina(self, retry: Retry, call: cst.Call | None) -> None:
        if call is None:
            return
        on = keyword_arg(call, "on")
        if on is None:
            retry.condition = UNKNOWN
        else:
            types = self._exception_names(on.value)
            if types is not None:
                retry.condition = self._types_condition(on.value, types)
            else:
                statuses, _ = self._predicate_statuses(on.value)
                retry.condition = Condition(node=on.value, statuses=statuses) if statuses is not None else UNKNOWN
        attempts, timeout = keyword_arg(call, "attempts"), keyword_arg(call, "timeout")
        a_val: int | None | _Unknown = 10
        t_val: float | None | _Unknown = 45.0
        if attempts is not None:
            a_val = None if dotted(attempts.value) == "None" else (_int(attempts.value) if _int(attempts.value) is not None else UNKNOWN)
        if timeout is not None:
            t_val = None if dotted(timeout.value) == "None" else (_number(timeout.value) if _number(timeout.value) is not None else UNKNOWN)
        if isinstance(a_val, _Unknown) or isinstance(t_val, _Unknown):
            retry.stop = UNKNOWN
        else:
            retry.stop = Stop(attempts.value if attempts else None, a_val, t_val, never=a_val is None and t_val is None)
        initial = keyword_arg(call, "wait_initial")
        retry.wait = Wait(node=initial.value if initial else None)
