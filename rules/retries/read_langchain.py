"""The LangChain reader: ``runnable.with_retry(...)`` and ``ToolRetryMiddleware(...)``, policies that retry what they wrap.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, keyword_arg, positional
from .data import UNKNOWN, Condition, Retry, Stop, Wait
from .literals import _int
from .reader import Reader


class LangChainReader(Reader):
    def _middleware_retry(self, node: cst.Call) -> Retry:
        tools = keyword_arg(node, "tools")
        retry = Retry("tool-middleware", node, callee=tools.value if tools is not None else None)
        if any(a.star == "**" for a in node.args):
            return retry
        on = keyword_arg(node, "retry_on")
        if on is None:
            retry.condition = Condition(every_exception=True, default=True)
        else:
            types = self._exception_names(on.value)
            retry.condition = self._types_condition(on.value, types) if types is not None else UNKNOWN
        n = keyword_arg(node, "max_retries")
        if n is None:
            retry.stop = Stop(attempts=3)
        else:
            v = _int(n.value)
            retry.stop = Stop(n.value, attempts=v + 1) if v is not None else UNKNOWN
        factor = keyword_arg(node, "backoff_factor")
        retry.wait = Wait(node=factor.value if factor else None)
        return retry

    def _with_retry(self, node: cst.Call) -> Retry:
        func = node.func
        assert isinstance(func, cst.Attribute)
        retry = Retry("with-retry", node, callee=func.value)
        if any(a.star == "**" for a in node.args):
            return retry
        on = keyword_arg(node, "retry_if_exception_type")
        if on is None:
            retry.condition = Condition(every_exception=True, default=True)
        else:
            types = self._exception_names(on.value)
            retry.condition = self._types_condition(on.value, types) if types is not None else UNKNOWN
        n = keyword_arg(node, "stop_after_attempt")
        if n is None:
            retry.stop = Stop(attempts=3)
        else:
            v = _int(n.value)
            retry.stop = Stop(n.value, attempts=v) if v is not None else UNKNOWN
        jitter = keyword_arg(node, "wait_exponential_jitter")
        retry.wait = Wait(none=jitter is not None and dotted(jitter.value) == "False")
        return retry

    def _read_base_retry_factory(self, retry: Retry, call: cst.Call) -> None:
        """``create_base_retry_decorator(error_types=[...], max_retries=n)``: LangChain's tenacity retry on
        those types, ``n`` attempts (1 by default), exponential wait from 4 s to 10 s."""
        pos = positional(call)
        types = keyword_arg(call, "error_types") or (pos[0] if pos else None)
        if types is None:
            retry.condition = UNKNOWN
        else:
            names = self._exception_names(types.value)
            held = self._held(types.value, (cst.Tuple, cst.List))
            where = held[1] if held is not None else types.value  # errors = [...]: the list names them
            retry.condition = self._types_condition(where, names) if names is not None else UNKNOWN
        n = keyword_arg(call, "max_retries") or (pos[1] if len(pos) > 1 else None)
        if n is None:
            retry.stop = Stop(attempts=1)
        else:
            v = _int(n.value)
            retry.stop = Stop(n.value, attempts=v) if v is not None else Stop(n.value)
        retry.wait = Wait(node=call)
