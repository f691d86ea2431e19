"""The part of the retry model every library reader shares: exception names, a types condition, predicate statuses.

:class:`Reader` is a base of :class:`~.model.RetryModel`; each retry library's
reader (``read_tenacity.py``, ``read_backoff.py``, ``read_stamina.py``,
``read_runtime.py``, ``read_langchain.py``, ``read_urllib3.py``) is another,
reading that library's arguments into a :class:`~.data.Retry`'s parts.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, Names, dotted, lexical_children
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Loop, Part
from .four_xx import _permanent_4xx_test
from .literals import status_set
from .loops import _dict_as_call, _function_statuses, _narrows
from .status_loops import all_nodes as _walk


class Reader:
    """The model's state a reader reads (set by :class:`~.model.RetryModel`), and the shared readings."""

    names: Names
    knowledge: Knowledge
    _module_defs: dict[str, cst.FunctionDef]
    _methods: dict[tuple[str, str], cst.FunctionDef]
    _class_bases: dict[str, list[cst.BaseExpression]]
    _bindings: dict[str, cst.BaseExpression]
    _resolving: frozenset[str] = frozenset()

    def _held(self, node: cst.BaseExpression, kinds: tuple[type[cst.CSTNode], ...]) -> tuple[str, cst.BaseExpression] | None:
        """(name, value) when ``node`` is a name the module assigned one of ``kinds`` to (issue 23: a
        condition held in a variable, ``cond = retry_if_exception_type(...)``; ``errors = [...]``)."""
        if not isinstance(node, cst.Name) or node.value in self._resolving:
            return None
        value = self._bindings.get(node.value)
        if value is None or not isinstance(value, kinds):
            return None
        return node.value, value

    def _spread_kwargs(self, call: cst.Call) -> cst.Call | None:
        """``retry(**_retry_kwargs())``/``retry(**RETRY_KWARGS)`` read as ``retry(stop=..., retry=...)`` when each
        ``**`` is a dict the module builds where it can be read (s41, issue 23 D1): a name bound to a ``dict(...)``
        or ``{...}``, or a same-module function or method whose every ``return`` is one. None when any is not."""
        args: list[cst.Arg] = []
        for arg in call.args:
            if arg.star != "**":
                args.append(arg)
                continue
            spread = self._kwargs_dict(arg.value)
            if spread is None:
                return None
            args.extend(spread)
        return call.with_changes(args=args)

    def _kwargs_dict(self, node: cst.BaseExpression, depth: int = 0) -> list[cst.Arg] | None:
        """The keyword arguments a dict expression holds, through one factory or a held name; None if unknown."""
        if depth > 3:
            return None
        if isinstance(node, cst.Dict):
            node = _dict_as_call(node)
            if any(a.star for a in node.args):
                return None
            return list(node.args)
        if isinstance(node, cst.Call) and dotted(node.func) == "dict" and self.names.lookup("dict") is None:
            out: list[cst.Arg] = []
            for a in node.args:
                if a.star == "**":
                    inner = self._kwargs_dict(a.value, depth + 1)
                    if inner is None:
                        return None
                    out.extend(inner)
                elif a.keyword is None:
                    return None
                else:
                    out.append(a)
            return out
        if isinstance(node, cst.Name):
            held = self._held(node, (cst.Dict, cst.Call))
            if held is None:
                return None
            outer = self._resolving
            self._resolving = outer | {held[0]}
            try:
                return self._kwargs_dict(held[1], depth + 1)
            finally:
                self._resolving = outer
        if isinstance(node, cst.Call) and not node.args:
            fn = self._kwargs_factory(node.func)
            if fn is None:
                return None
            returned = [n.value for n in _walk(fn.body) if isinstance(n, cst.Return)]
            if len(returned) != 1 or returned[0] is None:
                return None
            return self._kwargs_dict(returned[0], depth + 1)
        return None

    def _kwargs_factory(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        """The same-module function (``_retry_kwargs``) or the one method of that name (``self._retry_kwargs``)."""
        if isinstance(func, cst.Name):
            if self.names.lookup(func.value) is None:
                return self._module_defs.get(func.value)
            return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            found = [fn for (_, name), fn in self._methods.items() if name == func.attr.value]
            return found[0] if len(found) == 1 else None
        return None

    def _exception_names(self, node: cst.BaseExpression) -> tuple[str, ...] | None:
        """Exception types in a type or tuple of types, or None when not literal."""
        if isinstance(node, (cst.Tuple, cst.List)):
            out: list[str] = []
            for el in node.elements:
                if isinstance(el, cst.StarredElement):
                    return None
                inner = self._exception_names(el.value)
                if inner is None:
                    return None
                out.extend(inner)
            return tuple(out)
        if isinstance(node, (cst.Name, cst.Attribute)):
            qn = self.names.qualname(node)
            if qn is not None:
                module, _, cls = qn.rpartition(".")
                if module in kb.REEXPORTED_EXCEPTION_MODULES:  # openai._exceptions.X is openai.X
                    qn = f"{module.split('.', 1)[0]}.{cls}"
                return (qn,)
            text = dotted(node)
            if text is None:
                return None
            held = self._held(node, (cst.Tuple, cst.List)) if isinstance(node, cst.Name) else None
            # a class name may be private (`_Rejected`, s36): the case is read past the underscores
            if held is not None or (
                isinstance(node, cst.Name) and not (text.lstrip("_")[:1].isupper() or text.endswith("Error"))
            ):
                if held is None:
                    return None  # a variable holding types: not literal
                outer = self._resolving
                self._resolving = outer | {held[0]}
                try:
                    return self._exception_names(held[1])  # errors = [A, B]; on=errors
                finally:
                    self._resolving = outer
            return (text,)
        return None

    def _types_condition(self, node: cst.CSTNode, types: tuple[str, ...]) -> Condition:
        every = any(t in kb.EVERY_EXCEPTION for t in types)
        return Condition(node=node, every_exception=every, exceptions=types)

    def _predicate_statuses(self, node: cst.BaseExpression) -> tuple[frozenset[int] | None, cst.CSTNode | None]:
        """Statuses a predicate (lambda or small same-module function) is true for."""
        if isinstance(node, cst.Lambda):
            return status_set(node.body), node.body
        if isinstance(node, cst.Name) and node.value in self._module_defs:
            fn = self._module_defs[node.value]
            return _function_statuses(fn)
        return None, None

    def _isinstance_types(self, node: cst.CSTNode) -> tuple[str, ...]:
        out: list[str] = []
        stack: list[cst.CSTNode] = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Call) and dotted(n.func) == "isinstance" and len(n.args) == 2:
                types = self._exception_names(n.args[1].value)
                if types:
                    out.extend(types)
            stack.extend(lexical_children(n))
        return tuple(out)

    def _handlers_condition(self, loop: Loop) -> Part:
        types: list[str] = []
        node: cst.CSTNode | None = None
        deciding = {id(c) for c in loop.deciding_calls}
        deciders = [h for h in loop.handlers if _narrows(h) or (deciding and any(id(n) in deciding for n in _walk(h.body)))]
        handlers = [h for h in loop.handlers if h not in deciders]
        if deciders and not any(h.type is None or set(self._exception_names(h.type) or ()) & kb.EVERY_EXCEPTION for h in handlers):
            return UNKNOWN  # a handler (or a helper it hands the exception to) decides what goes round
        # (a later `except Exception` that goes round undecided still retries everything else: issue 23)
        for h in handlers:
            node = node or h
            if h.type is None:
                types.append("BaseException")
                continue
            found = self._exception_names(h.type)
            if found is None:
                return UNKNOWN
            types.extend(found)
        cond = self._types_condition(handlers[0], tuple(types))
        four = _permanent_4xx_test(loop)
        if four is not None:
            cond = Condition(cond.node, cond.every_exception, cond.exceptions, permanent_4xx=four)
        return cond
