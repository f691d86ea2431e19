"""The reader of this project's runtime: ``clock.retrying(...)`` with its clauses, and the terse ``tool.terse.retry(retry_on=, times=)``.

Without a condition it retries the transient tags (RateLimited, Timeout,
Unavailable); a lambda over tags is read when it names them plainly.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import keyword_arg, lexical_children
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Part, Retry, Stop, _Unknown
from .literals import _int
from .loops import _names_in
from .status_loops import all_nodes as _walk
from .reader import Reader


class RuntimeReader(Reader):
    def _runtime_clauses(self, call: cst.Call) -> bool:
        """Whether a ``.retrying(...)`` call's arguments are this runtime's clauses."""
        if not call.args:
            return False
        for arg in call.args:
            value = arg.value
            head = value
            while isinstance(head, (cst.Call, cst.Attribute)):
                head = head.func if isinstance(head, cst.Call) else head.value
            qn = self.names.qualname(value.func if isinstance(value, cst.Call) else value)
            if qn is None and isinstance(value, cst.Attribute):
                qn = self.names.qualname(value.value) if isinstance(value.value, cst.Call) else None
                if qn is None and isinstance(value.value, cst.Call):
                    qn = self.names.qualname(value.value.func)
            if qn is not None and qn.startswith(kb.RUNTIME_PREFIX):
                return True
        return False

    def _runtime_retry(self, node: cst.Call, *, terse: bool) -> Retry:
        retry = Retry("runtime", node)
        cond: Part = Condition(default=True, tags=frozenset({"RateLimited", "Timeout", "Unavailable"}))
        attempts: int | None | _Unknown = None
        if any(a.star for a in node.args):
            cond, attempts = UNKNOWN, UNKNOWN
        elif terse:
            on = keyword_arg(node, "retry_on")
            if on is not None:
                cond = self._runtime_condition(on.value)
            times = keyword_arg(node, "times")
            attempts = (_int(times.value) if _int(times.value) is not None else UNKNOWN) if times is not None else None
        else:
            for arg in node.args:
                v = arg.value
                qn = self.names.qualname(v.func if isinstance(v, cst.Call) else v) or ""
                if qn in kb.RUNTIME_CONDITIONS and isinstance(v, cst.Call) and v.args:
                    cond = self._runtime_condition(v.args[0].value)
                elif isinstance(v, cst.Attribute) and v.attr.value == "attempts" and isinstance(v.value, cst.Call):
                    n = _int(v.value.args[0].value) if v.value.args else None
                    attempts = n if n is not None else UNKNOWN
        retry.condition = cond
        retry.stop = UNKNOWN if isinstance(attempts, _Unknown) else Stop(attempts=attempts, never=attempts is None)
        return retry

    def _runtime_condition(self, node: cst.BaseExpression) -> Part:
        qn = self.names.qualname(node)
        if qn in kb.RUNTIME_DEFAULT_CONDITION:
            return Condition(node=node, tags=frozenset({"RateLimited", "Timeout", "Unavailable"}))
        if isinstance(node, cst.Lambda):
            body = node.body
            if isinstance(body, cst.Name) and body.value == "True":
                return Condition(node=node, every_exception=True, tags=frozenset(kb.TOOL_ERROR_VARIANTS))
            tags: set[str] = set()
            for name in _names_in(body):
                if name in kb.TOOL_ERROR_VARIANTS:
                    tags.add(name)
            stack: list[cst.CSTNode] = [body]
            while stack:
                n = stack.pop()
                if isinstance(n, cst.SimpleString) and isinstance(n.evaluated_value, str) and n.evaluated_value in kb.TOOL_ERROR_VARIANTS:
                    tags.add(n.evaluated_value)
                stack.extend(lexical_children(n))
            code = cst.Module([]).code_for_node(body)
            negated = any(isinstance(n, cst.Not) for n in _walk(body)) or "!=" in code or " not " in code
            if tags and not negated:
                return Condition(node=node, tags=frozenset(tags))
        return UNKNOWN
