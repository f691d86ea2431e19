"""The backoff reader: ``@on_exception(wait_gen, exception, giveup=, max_tries=, max_time=)`` and ``@on_predicate``.

Without ``max_tries``/``max_time`` it never stops; a ``giveup`` predicate with
known statuses narrows the condition to the others.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import keyword_arg, positional
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Retry, Stop, Wait
from .literals import _SAMPLE, _int, _number, _whole_4xx
from .reader import Reader


class BackoffReader(Reader):
    def _read_backoff(self, retry: Retry, call: cst.Call | None, *, predicate: bool) -> None:
        if call is None:
            return
        if predicate:
            pred = keyword_arg(call, "predicate") or (positional(call)[1] if len(positional(call)) > 1 else None)
            if pred is None:
                retry.condition = Condition(default=True)  # operator.not_: retries falsy results
            else:
                statuses, _ = self._predicate_statuses(pred.value)
                retry.condition = Condition(node=pred.value, statuses=statuses) if statuses is not None else UNKNOWN
        else:
            exc = keyword_arg(call, "exception") or (positional(call)[1] if len(positional(call)) > 1 else None)
            types = self._exception_names(exc.value) if exc is not None else None
            if types is None:
                retry.condition = UNKNOWN
            else:
                cond = self._types_condition(exc.value if exc else call, types)
                giveup = keyword_arg(call, "giveup")
                if giveup is not None:
                    statuses, where = self._predicate_statuses(giveup.value)
                    if statuses is None:
                        # an unknown giveup narrows the condition: only the types are known
                        cond = Condition(node=cond.node, exceptions=cond.exceptions)
                    else:
                        retried = _SAMPLE - statuses
                        if {400, 401, 403, 404} <= statuses:
                            # giveup on the client errors it names: it means "give up on 4xx", not
                            # "retry the 4xx it left out" (issue 23: a negation read the right way)
                            retried = retried - kb.PERMANENT_STATUSES
                        cond = Condition(
                            node=cond.node,
                            every_exception=cond.every_exception,
                            exceptions=cond.exceptions,
                            statuses=retried,
                            permanent_4xx=where if _whole_4xx(statuses) else None,
                        )
                retry.condition = cond
        tries, time = keyword_arg(call, "max_tries"), keyword_arg(call, "max_time")
        if tries is None and time is None:
            retry.stop = Stop(never=True)
        else:
            n = _int(tries.value) if tries is not None else None
            s = _number(time.value) if time is not None else None
            known = (tries is None or n is not None) and (time is None or s is not None)
            retry.stop = Stop(tries.value if tries else time.value if time else None, n, s) if known else UNKNOWN
        wait_gen = keyword_arg(call, "wait_gen") or (positional(call)[0] if positional(call) else None)
        retry.wait = Wait(node=wait_gen.value) if wait_gen is not None else UNKNOWN
