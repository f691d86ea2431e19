"""The tenacity reader: ``retry=``/``stop=``/``wait=`` of ``@retry``, ``Retrying(...)`` and ``AsyncRetrying(...)``.

Without ``retry=`` every exception is retried, without ``stop=`` it never
stops, without ``wait=`` it does not wait (tenacity's defaults). Also reads
pydantic-ai's ``RetryConfig`` (a tenacity configuration).
"""

from __future__ import annotations

from typing import Union

import libcst as cst

from ...linter.api import keyword_arg, positional
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Part, Retry, Stop, Wait, _Unknown
from .deny import deny_list
from .literals import _SAMPLE, _int, _number
from .literals import status_set
from .loops import _combine, _function_statuses
from .reader import Reader


class TenacityReader(Reader):
    def _read_tenacity_condition(self, node: cst.BaseExpression) -> Part:
        held = self._held(node, (cst.Call, cst.BinaryOperation, cst.IfExp, cst.Name, cst.Attribute))
        if held is not None and self.names.qualname(node) is None:
            # issue 23: cond = retry_if_exception_type(...); retry(retry=cond)
            outer = self._resolving
            self._resolving = outer | {held[0]}
            try:
                return self._read_tenacity_condition(held[1])
            finally:
                self._resolving = outer
        if isinstance(node, cst.IfExp):
            # one condition or another (`A if hasattr(m, "error") else B`): either may be the one retried on
            left, right = self._read_tenacity_condition(node.body), self._read_tenacity_condition(node.orelse)
            return _combine(node, left, right, any_of=True)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitOr, cst.BitAnd)):
            left, right = self._read_tenacity_condition(node.left), self._read_tenacity_condition(node.right)
            return _combine(node, left, right, any_of=isinstance(node.operator, cst.BitOr))
        if not isinstance(node, cst.Call):
            if isinstance(node, (cst.Name, cst.Attribute)):
                qn = self.names.qualname(node) or ""
                what = kb.TENACITY_CONDITIONS.get(qn.rsplit(".", 1)[-1]) if qn.startswith("tenacity") else None
                if what == "always":
                    return Condition(node=node, every_exception=True)
                if what == "never":
                    return Condition(node=node)
            return UNKNOWN
        if isinstance(node.func, cst.Name) and not node.args and node.func.value in self._class_bases:
            return self._own_condition_class(node, node.func.value)
        qn = self.names.qualname(node.func) or ""
        if not qn.startswith("tenacity"):
            return UNKNOWN
        what = kb.TENACITY_CONDITIONS.get(qn.rsplit(".", 1)[-1])
        args = [a for a in node.args if not a.star]
        if any(a.star for a in node.args):
            return UNKNOWN
        first = args[0].value if args else None
        if what == "types":
            if first is None:
                return Condition(node=node, every_exception=True, exceptions=("Exception",))
            types = self._exception_names(first)
            return UNKNOWN if types is None else self._types_condition(node, types)
        if what == "not-types":
            types = self._exception_names(first) if first is not None else ("Exception",)
            if types == ():
                # retry_if_not_exception_type(()): nothing excluded, every exception retried
                return Condition(node=node, every_exception=True, exceptions=("Exception",))
            return UNKNOWN if types is None else Condition(node=node, excluded=types)
        if what in ("exception-predicate", "result-predicate", "not-result-predicate"):
            if first is None:
                return UNKNOWN
            denied = deny_list(first, self._module_defs, self._exception_names) if what == "exception-predicate" else None
            if denied:
                return Condition(node=node, excluded=denied)  # every exception but a few listed
            statuses, where = self._predicate_statuses(first)
            if statuses is not None and what == "not-result-predicate":
                statuses = _SAMPLE - statuses
            exc: tuple[str, ...] = ()
            if isinstance(first, cst.Lambda):
                exc = self._isinstance_types(first.body)
            if statuses is None and not exc:
                return UNKNOWN
            return Condition(node=node, exceptions=exc, statuses=statuses, permanent_4xx=None)
        if what == "message":
            return Condition(node=node)
        if what in ("any", "all"):
            parts = [self._read_tenacity_condition(a.value) for a in args]
            out: Part = parts[0] if parts else UNKNOWN
            for p in parts[1:]:
                out = _combine(node, out, p, any_of=what == "any")
            return out
        if what == "always":
            return Condition(node=node, every_exception=True)
        if what == "never":
            return Condition(node=node)
        return UNKNOWN

    def _own_condition_class(self, node: cst.Call, name: str) -> Part:
        """s36: a module's subclass of ``retry_if_exception`` whose ``__init__`` hands ``super().__init__``
        a predicate defined there (``def is_429(e): return e.status_code == 429``): that predicate's statuses."""
        if not any(
            kb.TENACITY_CONDITIONS.get((self.names.qualname(b) or "").rsplit(".", 1)[-1]) == "exception-predicate"
            and (self.names.qualname(b) or "").startswith("tenacity")
            for b in self._class_bases.get(name, [])
        ):
            return UNKNOWN
        init = self._methods.get((name, "__init__"))
        if init is None or not isinstance(init.body, cst.IndentedBlock):
            return UNKNOWN
        local = {s.name.value: s for s in init.body.body if isinstance(s, cst.FunctionDef)}
        for stmt in init.body.body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
            call = small.value if isinstance(small, cst.Expr) else None
            if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "__init__"):
                continue
            arg = keyword_arg(call, "predicate") or (positional(call)[0] if positional(call) else None)
            pred = arg.value if arg is not None else None
            if isinstance(pred, cst.Lambda):
                statuses, exc = status_set(pred.body), self._isinstance_types(pred.body)
            elif isinstance(pred, cst.Name) and pred.value in local:
                statuses, exc = _function_statuses(local[pred.value])[0], self._isinstance_types(local[pred.value].body)
            else:
                return UNKNOWN
            if statuses is None:
                return UNKNOWN
            return Condition(node=node, exceptions=exc, statuses=statuses)
        return UNKNOWN

    def _read_tenacity(self, retry: Retry, call: cst.Call | None) -> None:
        # bare @retry or no retry=: every exception; no stop=: never stops; no wait=: no wait
        if call is None:
            retry.condition = Condition(every_exception=True, default=True)
            retry.stop = Stop(never=True)
            retry.wait = Wait(none=True)
            return
        cond = keyword_arg(call, "retry")
        retry.condition = Condition(every_exception=True, default=True) if cond is None else self._read_tenacity_condition(cond.value)
        stop = keyword_arg(call, "stop")
        retry.stop = Stop(never=True) if stop is None else self._read_tenacity_stop(stop.value)
        wait = keyword_arg(call, "wait")
        if wait is None:
            retry.wait = Wait(none=True)
        else:
            qn = self.names.qualname(wait.value.func if isinstance(wait.value, cst.Call) else wait.value) or ""
            if qn.startswith("tenacity"):
                retry.wait = Wait(node=wait.value, none=qn.rsplit(".", 1)[-1] in kb.TENACITY_NO_WAIT)
            elif _number(wait.value) is not None:
                retry.wait = Wait(node=wait.value, none=_number(wait.value) == 0)
            else:
                retry.wait = UNKNOWN

    def _read_tenacity_stop(self, node: cst.BaseExpression) -> Union[Stop, _Unknown]:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitOr, cst.BitAnd)):
            left, right = self._read_tenacity_stop(node.left), self._read_tenacity_stop(node.right)
            if isinstance(left, Stop) and isinstance(right, Stop):
                if isinstance(node.operator, cst.BitOr):  # stops at the first
                    never = left.never and right.never
                    return Stop(node, left.attempts or right.attempts, left.seconds or right.seconds, never)
                return Stop(node, left.attempts, left.seconds, left.never or right.never)
            return UNKNOWN
        head = node.func if isinstance(node, cst.Call) else node
        qn = self.names.qualname(head) or ""
        if not qn.startswith("tenacity"):
            return UNKNOWN
        what = kb.TENACITY_STOPS.get(qn.rsplit(".", 1)[-1])
        arg = positional(node)[0].value if isinstance(node, cst.Call) and positional(node) else None
        if what == "never":
            return Stop(node, never=True)
        if what == "attempts":
            n = _int(arg)
            return Stop(node, attempts=n) if n is not None else UNKNOWN
        if what == "seconds":
            s = _number(arg)
            return Stop(node, seconds=s) if s is not None else UNKNOWN
        return UNKNOWN
