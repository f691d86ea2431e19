"""The LangChain reader: ``runnable.with_retry(...)`` and ``ToolRetryMiddleware(...)``, policies that retry what they wrap.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, keyword_arg
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
