"""Recognising retries: which constructs of a module are retries, and what their parts are.

:class:`RetryRecogniser` is a base of :class:`~.model.RetryModel`, above the
per-file state (:class:`~.work.RetryWork`) and one reader per retry library
(``read_*.py``): a decorator, an iterator, a call or a hand loop becomes a
:class:`~.data.Retry` (``Retry.kind``); retry factories and aliases are
followed; the same-module helpers a hand loop's handlers call are read for
what they do (sleep, raise, change the next request, decide).
"""

from __future__ import annotations

import builtins
import dataclasses
from typing import Union

import libcst as cst

from ...linter.api import assignment_targets, children, dotted, keyword_arg, lexical_children, positional
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Loop, Retry
from .defaults import one_attempt_by_default
from .screen import module_class_fields
from .loops import _calls_any, _dict_as_call, _names_in, _range_stop, hand_loop
from .steps import body_stmts as _body_stmts
from .status_loops import all_nodes as _walk
from .paths import is_sleep, keeps_last_result
from .read_backoff import BackoffReader
from .read_langchain import LangChainReader
from .read_runtime import RuntimeReader
from .read_stamina import StaminaReader
from .read_tenacity import TenacityReader
from .raisable import RaisableWork
from .read_urllib3 import Urllib3Reader


class RetryRecogniser(RaisableWork, TenacityReader, BackoffReader, StaminaReader, RuntimeReader, LangChainReader, Urllib3Reader):
    """Which constructs are retries (the retry model's recognition, on top of the library readers)."""

    def _is_runtime_stage(self, call: cst.Call) -> bool:
        """``clock.retrying(...)`` / ``tool.terse.retry(...)``: a runtime retry stage (a function of a tool)."""
        if self.names.qualname(call.func) in kb.RUNTIME_RETRY_CALLS:
            return True
        func = call.func
        return isinstance(func, cst.Attribute) and func.attr.value == kb.RUNTIME_RETRY_METHOD and self._runtime_clauses(call)

    def _escaping_factories(self) -> None:
        """A factory's retry that nothing in the module applies (issue 23): a base class's or a utility
        module's ``_create_retry_decorator``/``_retrying()`` used by other modules of the package. Its
        condition, stop and wait are read where it is built; its work is elsewhere (not known)."""
        used = {id(r.factory) for r in self.retries if r.factory is not None} | {id(r.anchor) for r in self.retries}
        for made in self._factories.values():
            if id(made) in used:
                continue
            kind = self._factory_kind(made.func) or self._iterator_kind(made)
            if kind is None:
                continue
            retry = Retry(kind, made, factory=made)
            self._read_parts(retry, kind, made, self.names.qualname(made.func) or "")
            self._add(retry, scope=None)

    # ------------------------------------------------------------ recognising retries

    def _returned_retry(self, fn: cst.FunctionDef) -> cst.Call | None:
        """The ``retry(...)``/``Retrying(...)`` call a function returns (``def _create_retry_decorator(llm): return retry(...)``),
        directly or through a name it assigns (``decorator = create_base_retry_decorator(...); return decorator``)."""
        stack: list[cst.CSTNode] = list(_body_stmts(fn.body))
        assigned: dict[str, cst.Call] = {}
        returned: list[cst.BaseExpression] = []
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call):
                for t in node.targets:
                    if isinstance(t.target, cst.Name):
                        assigned[t.target.value] = node.value
            if isinstance(node, cst.Return) and node.value is not None:
                returned.append(node.value)
            stack.extend(children(node))
        for value in returned:
            if isinstance(value, cst.Name) and value.value in assigned:
                value = assigned[value.value]
            if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)):
                # whether it is a retry is asked at the use (the imports are resolved by then)
                return value
        return None

    def _iterator_kind(self, call: cst.Call) -> str | None:
        qn = self.names.qualname(call.func)
        return kb.RETRY_ITERATORS.get(qn) if qn is not None else None

    def _factory_call(self, call: cst.Call) -> cst.Call | None:
        """``_create_retry_decorator(llm)`` / ``self._retrying()``: the retry call the same-module factory returns."""
        func = call.func
        name = func.value if isinstance(func, cst.Name) else None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            name = func.attr.value
        if name is None or name not in self._factories:
            return None
        if isinstance(func, cst.Name) and self.names.lookup(name) is not None:
            return None  # an imported name, not the module's own factory
        made = self._factories[name]
        if self._factory_kind(made.func) is None and self._iterator_kind(made) is None:
            return None
        return made

    def _factory_kind(self, func: cst.BaseExpression) -> str | None:
        qn = self.names.qualname(func)
        if qn is None:
            return None
        if qn in kb.RETRY_DECORATORS:
            return kb.RETRY_DECORATORS[qn]
        if qn in self.knowledge.retry_decorators:
            return "configured"
        return None

    def _decorator_retry(self, expr: cst.BaseExpression, fn: cst.FunctionDef) -> Retry | None:
        call = expr if isinstance(expr, cst.Call) else None
        head = call.func if call is not None else expr
        kind = self._factory_kind(head)
        made_by: cst.Call | None = None
        built: cst.Call | None = None
        if kind is None and isinstance(head, cst.Name) and call is None and head.value in self._aliases:
            call = built = self._aliases[head.value]
            kind = self._factory_kind(call.func)
        if kind is None and call is not None and self._factory_call(call) is not None:
            call = self._factory_call(call)  # @_create_retry_decorator(llm)
            assert call is not None
            kind = self._factory_kind(call.func)
            made_by = call
        if kind is None and call is not None and self._project_retry_decorator(call):
            kind = "configured"  # s39: the project's own retry decorator, from another module of the package
        if kind in _GENERATOR_BLIND and is_generator(fn):
            return None  # s36: tenacity/backoff wrap the call that builds the generator: nothing is retried
        if kind is not None:
            retry = Retry(kind, expr, function=fn, body=fn.body, built=built)
            if made_by is not None or (isinstance(head, cst.Name) and head.value in self._made_aliases):
                retry.factory = call
            self._read_parts(retry, kind, call, self.names.qualname(call.func if call else head) or "")
            return retry
        if call is not None and self._is_runtime_stage(call):
            # issue 21: @clock.retrying(...) / @tool.terse.retry(...) over a def
            retry = self._runtime_retry(call, terse=self.names.qualname(call.func) in kb.RUNTIME_RETRY_CALLS)
            retry.anchor, retry.function, retry.body = expr, fn, fn.body
            return retry
        name = head.value if isinstance(head, cst.Name) else None
        if name is not None and name in self._own_decorators and self.names.lookup(name) is None:
            loop, cond = self._own_decorators[name]
            retry = Retry("own-decorator", expr, condition=cond, function=fn, body=fn.body, decorator=name, loop=loop)
            stop = _range_stop(loop.node, loop.schedule)
            retry.stop = stop
            return retry
        return None

    def _project_retry_decorator(self, call: cst.Call) -> bool:
        """``@retry_decorator(retry_count=3)`` imported from another module of the same package (``from .utils
        import retry_decorator``): a retry decorator by its name (a word ``retry``/``retrying``, nothing naming a
        rate limit or a connect phase) given a literal number of attempts (``retry_count=``, ``max_retries=``,
        ``attempts=``...). Its condition, stop and wait are in the other module (unknown, as for a configured
        ``retry-decorators`` entry); the decorated function is its work (s39, nekro-agent's SSE client)."""
        qn = self.names.qualname(call.func)
        if qn is None or not isinstance(call.func, cst.Name) or self.names.lookup(call.func.value) is None:
            return False
        package = (self.names.package or "").split(".")[0]
        if not (qn.startswith(".") or (package and qn.split(".")[0] == package)):
            return False
        words = set(qn.rsplit(".", 1)[-1].lower().strip("_").split("_"))
        if not words & {"retry", "retrying", "retries"} or words & {"rate", "limit", "limited", "throttle", "connect"}:
            return False
        for arg in call.args:
            if arg.keyword is not None and any(w in arg.keyword.value.lower() for w in ("retr", "attempt", "tries")):
                return isinstance(arg.value, cst.Integer) and int(arg.value.value) >= 1
        return False

    def _iterator_retry(self, node: cst.For) -> Retry | None:
        it = node.iter
        block = it if isinstance(it, cst.Call) else None
        if isinstance(it, cst.Name) and self.names.lookup(it.value) is None:
            held = self._bindings.get(it.value)
            block = held if isinstance(held, cst.Call) else None
        if block is not None and isinstance(block.func, cst.Attribute) and block.func.attr.value == kb.RUNTIME_ATTEMPTS_METHOD:
            if self._runtime_clauses(block):
                # issue 21: for attempt in clock.attempts(...): with attempt: <work>
                retry = self._runtime_retry(block, terse=False)
                retry.anchor = node
                retry.body = node.body
                for stmt in _body_stmts(node.body):
                    if isinstance(stmt, cst.With):
                        retry.body = stmt.body
                        break
                return retry
        call: cst.Call | None = None
        if isinstance(it, cst.Call):
            call = self._factory_call(it) or it  # for attempt in self._retrying(): ...
        elif isinstance(it, cst.Name) and it.value in self._aliases:
            call = self._aliases[it.value]
        if call is None:
            return None
        qn = self.names.qualname(call.func)
        if qn is None or qn not in kb.RETRY_ITERATORS:
            return None
        kind = kb.RETRY_ITERATORS[qn]
        body = node.body
        # for attempt in Retrying(...): with attempt: <work>
        for stmt in _body_stmts(node.body):
            if isinstance(stmt, cst.With):
                body = stmt.body
                break
        retry = Retry(kind, node, body=body, factory=call if call is not it and not isinstance(it, cst.Name) else None,
                      built=call if call is not it else None)
        self._read_parts(retry, kind, call, qn)
        return retry

    def _class_fields(self) -> dict[str, dict[str, object]]:
        """The module classes' literal field defaults (read once, from the screen's whole-module tree)."""
        fields: dict[str, dict[str, object]] | None = self.__dict__.get("_fields_cache")
        if fields is None:
            fields = self.__dict__["_fields_cache"] = module_class_fields(self.ctx.screen)
        return fields

    def _schedule_bindings(self, node: Union[cst.For, cst.While]) -> dict[str, cst.BaseExpression] | None:
        """What :func:`hand_loop` may resolve the loop's iterable with (s57, ``loops.loop_schedule``): the names
        bound so far, unless the name is a parameter of the function around the loop (its callers give it)."""
        if not isinstance(node, cst.For):
            return None
        it = node.iter
        if isinstance(it, cst.Call) and it.args:
            it = it.args[0].value
        if not isinstance(it, cst.Name) or it.value not in self._bindings:
            return None
        if self._functions:
            p = self._functions[-1].params
            if any(q.name.value == it.value for q in (*p.posonly_params, *p.params, *p.kwonly_params)):
                return None
        return self._bindings

    def _loop_retry(self, node: Union[cst.For, cst.While]) -> Retry | None:
        loop = hand_loop(node, self._schedule_bindings(node))
        if loop is None:
            return None
        if self._functions and one_attempt_by_default(node, self._functions[-1], self._class_fields()):
            return None  # s39: `range(retries + 1)` with retries 0 by default: one attempt unless configured
        runnable = tuple(h for h in self._runnable_handlers(loop) if not self._retry_signal(h) and not self._protocol_step(h))
        if not runnable:
            # no handler can catch what the attempt raises (issue 23), or each goes round only when the
            # project's own code asks it to (a resend signal, s42), or only on a protocol's next step (a TLS
            # want-read, an in-process queue full: s53): no failure goes round
            return None
        if len(runnable) != len(loop.handlers):
            loop = dataclasses.replace(loop, handlers=runnable)
        if self._fresh_attempt(loop):
            loop = dataclasses.replace(loop, fresh_attempt=True)
        elif self._reparses(loop):
            loop = dataclasses.replace(loop, reparses=True)
        deadlines = self._deadline_calls(loop)
        if deadlines:
            loop = dataclasses.replace(loop, deadline_calls=deadlines)
        if any(isinstance(n, cst.Call) and self.names.qualname(n.func) in kb.PROCESS_REPLACING_CALLS
               for n in _walk(loop.try_node.body)):
            loop = dataclasses.replace(loop, replaces_process=True)  # s53: `os.execv` never returns when it works
        if self._own_timeouts(loop):
            loop = dataclasses.replace(loop, own_timeouts=True)
        loop = self._with_handler_helpers(loop)
        if self._functions and keeps_last_result(loop, self._functions[-1]):
            loop = dataclasses.replace(loop, kept_result=True)
        retry = Retry("loop", node, body=loop.try_node.body, loop=loop)
        retry.condition = self._handlers_condition(loop)
        retry.stop = _range_stop(node, loop.schedule)
        return retry

    def _call_retry(self, node: cst.Call) -> Retry | None:
        func = node.func
        # Retrying(...)(fn, ...) / retry(...)(fn) / on_exception(...)(fn) / clock.retrying(...)(fn)
        if isinstance(func, cst.Call):
            pos = positional(node)
            kind = self._factory_kind(func.func)
            if kind is not None:
                retry = Retry(kind, node, callee=pos[0].value if pos else None)
                self._read_parts(retry, kind, func, self.names.qualname(func.func) or "")
                return retry
            made = self._factory_call(func)
            if made is not None and self._factory_kind(made.func) is not None:
                # _create_retry_decorator(llm)(fn)
                kind = self._factory_kind(made.func)
                assert kind is not None
                retry = Retry(kind, node, callee=pos[0].value if pos else None, factory=made)
                self._read_parts(retry, kind, made, self.names.qualname(made.func) or "")
                return retry
            inner = self._call_retry(func)
            if inner is not None and inner.kind == "runtime" and pos:
                inner.callee = pos[0].value
                return inner
        if isinstance(func, cst.Name) and func.value in self._stages and positional(node):
            # stage = clock.retrying(...); stage(calling_api(charge))
            self._use_stage(self._stages[func.value], positional(node)[0].value)
            return None
        if isinstance(func, cst.Name) and func.value in self._aliases and self.names.lookup(func.value) is None:
            # retry_decorator = _create_retry_decorator(llm); retry_decorator(fn)
            made = self._aliases[func.value]
            kind = self._factory_kind(made.func)
            pos = positional(node)
            if kind is not None and pos:
                retry = Retry(kind, node, callee=pos[0].value, factory=made if func.value in self._made_aliases else None, built=made)
                self._read_parts(retry, kind, made, self.names.qualname(made.func) or "")
                return retry
        qn = self.names.qualname(func)
        if qn in kb.RUNTIME_PIPE:
            # pipe(calling_api(fn), clock.retrying(...), ...): the work is the first stage
            args = positional(node)
            for arg in args[1:]:
                if isinstance(arg.value, cst.Name) and arg.value.value in self._stages:
                    self._use_stage(self._stages[arg.value.value], args[0].value)  # pipe(tool, stage)
                    return None
                if isinstance(arg.value, cst.Call):
                    stage = self._call_retry(arg.value)
                    if stage is not None and stage.kind == "runtime":
                        stage.callee = args[0].value
                        return stage
            return None
        if qn is not None:
            if qn in kb.RUNTIME_RETRY_CALLS:
                return self._runtime_retry(node, terse=True)
            if qn in kb.TOOL_RETRY_MIDDLEWARE:
                return self._middleware_retry(node)
            if qn in kb.RETRY_TRANSPORTS:
                retry = Retry("transport", node, methods=None)
                config = keyword_arg(node, "config") or (positional(node)[0] if positional(node) else None)
                if config is not None and isinstance(config.value, cst.Call) and dotted(config.value.func) in ("RetryConfig", "dict"):
                    self._read_tenacity(retry, config.value)
                elif config is not None and isinstance(config.value, cst.Dict):
                    self._read_tenacity(retry, _dict_as_call(config.value))
                return retry
            if qn in kb.URLLIB3_RETRY:
                return self._urllib3_retry(node)
        if isinstance(func, cst.Name) and self._urllib3_subclass(func.value):
            # s40 (memorisdk): a module's subclass of urllib3 ``Retry`` takes its keywords; an overridden
            # ``is_retry`` decides which statuses go round, so the condition is its own
            retry = self._urllib3_retry(node)
            if (func.value, "is_retry") in self._methods:
                retry.condition = UNKNOWN
            return retry
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr == kb.RUNTIME_RETRY_METHOD and self._runtime_clauses(node):
                return self._runtime_retry(node, terse=False)
            if attr == kb.LANGCHAIN_WITH_RETRY_METHOD and self._imports & kb.LANGCHAIN_ROOTS:
                return self._with_retry(node)
        return None

    def _urllib3_subclass(self, name: str) -> bool:
        """``name`` is a class of this module deriving from urllib3's ``Retry`` (``class _ApiRetry(Retry)``)."""
        return name in self._class_bases and any(
            self.names.qualname(b) in kb.URLLIB3_RETRY for b in self._class_bases[name]
        )

    def _with_handler_helpers(self, loop: Loop) -> Loop:
        """The loop with the same-module helpers its handlers call that sleep or may raise (issue 23:
        ``except E as e: self._handle_error(e, attempt)``, the helper waiting and giving up)."""
        sleeping: list[cst.Call] = []
        exiting: list[cst.Call] = []
        mutating: list[cst.Call] = []
        deciding: list[cst.Call] = []
        for handler in loop.handlers:
            bound = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
            for n in _walk(handler.body):
                if not isinstance(n, cst.Call):
                    continue
                target = self._helper_of(n.func)
                fn = None
                if target is not None:
                    fn = self._methods.get((target[1], target[0])) if target[1] else self._module_defs.get(target[0])
                if fn is None:
                    continue
                body = list(_walk(fn.body))
                if any(is_sleep(b) for b in body):
                    sleeping.append(n)
                if any(isinstance(b, cst.Raise) for b in body):
                    exiting.append(n)
                if _mutates_argument(fn, n, body, _names_in(loop.try_node.body)):
                    mutating.append(n)
                if bound is not None and _reraises_argument(fn, n, body, bound):
                    deciding.append(n)
            if bound is not None:
                deciding.extend(_repairs(loop, handler, bound))
        if not sleeping and not exiting and not mutating and not deciding:
            return loop
        return dataclasses.replace(
            loop,
            sleeping_calls=tuple(sleeping),
            exiting_calls=tuple(exiting),
            mutating_calls=tuple(mutating),
            deciding_calls=tuple(deciding),
        )

    def _use_stage(self, stage: cst.Call, tool: cst.BaseExpression) -> None:
        """A held runtime stage applied to a tool: the tool is work of the retry made where the stage was."""
        retry = self._by_anchor.get(id(stage))
        if retry is not None:
            self._stage_uses.setdefault(id(retry), []).append(tool)

    # ------------------------------------------------------------ reading the parts

    def _read_parts(self, retry: Retry, kind: str, call: cst.Call | None, qn: str) -> None:
        if call is not None and any(a.star for a in call.args):
            # **kwargs: every part may hide there, unless the module says what they are (s41, D1)
            if any(a.star == "**" for a in call.args):
                call = self._spread_kwargs(call)
                if call is None:
                    return
        if kind == "tenacity" and call is not None and qn.endswith(kb.LANGCHAIN_RETRY_FACTORY_NAME):
            self._read_base_retry_factory(retry, call)
        elif kind == "tenacity":
            self._read_tenacity(retry, call)
        elif kind == "backoff":
            self._read_backoff(retry, call, predicate=qn.endswith("on_predicate"))
        elif kind == "stamina":
            self._read_stamina(retry, call)
        # configured: nothing is known about its parts

    def _index_own_decorator(self, fn: cst.FunctionDef) -> None:
        """``def deco(func): def wrapper(...): for/while ...: try: return func(...)``, possibly under a factory."""
        params = {p.name.value for p in (*fn.params.params, *fn.params.posonly_params)}
        stack: list[cst.CSTNode] = list(_body_stmts(fn.body))
        while stack:
            node = stack.pop()
            if isinstance(node, cst.FunctionDef):
                params |= {p.name.value for p in (*node.params.params, *node.params.posonly_params)}
            if isinstance(node, (cst.For, cst.While)):
                loop = hand_loop(node, self._schedule_bindings(node))
                if loop is not None and _calls_any(loop.try_node.body, params):
                    self._own_decorators[fn.name.value] = (loop, self._handlers_condition(loop))
                    return
            stack.extend(children(node))


_MUTATING_METHODS = frozenset({"update", "pop", "append", "extend", "insert", "clear", "remove", "setdefault", "popitem"})


def _parameter_given(fn: cst.FunctionDef, call: cst.Call, name: str) -> str | None:
    """The parameter of ``fn`` that ``call`` binds to the caller's ``name`` (``self`` skipped for a method call)."""
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    if params and params[0] in ("self", "cls") and isinstance(call.func, cst.Attribute):
        params = params[1:]
    for i, arg in enumerate(call.args):
        if arg.star or not (isinstance(arg.value, cst.Name) and arg.value.value == name):
            continue
        if arg.keyword is not None:
            return arg.keyword.value
        if i < len(params):
            return params[i]
    return None


def _reraises_argument(fn: cst.FunctionDef, call: cst.Call, body: list[cst.CSTNode], bound: str) -> bool:
    """``fn`` (called as ``call`` with the caught exception ``bound``) raises that exception (or one
    ``from`` it) on some path: the helper decides which failures the loop goes round on (issue 23,
    ``helper-decides``: a transient-error handler that re-raises the rest)."""
    param = _parameter_given(fn, call, bound)
    if param is None:
        return False
    for node in body:
        if isinstance(node, cst.Raise):
            for part in (node.exc, node.cause.item if node.cause is not None else None):
                if isinstance(part, cst.Name) and part.value == param:
                    return True
    return False


def _mutates_argument(fn: cst.FunctionDef, call: cst.Call, body: list[cst.CSTNode], read: set[str]) -> bool:
    """``fn`` (called as ``call``) changes, in place, an argument that the retried ``try`` reads:
    ``self._shrink(e, params)`` with ``params["messages"] = ...`` or ``params.pop(...)`` inside."""
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    if params and params[0] in ("self", "cls") and isinstance(call.func, cst.Attribute):
        params = params[1:]
    given: dict[str, str] = {}  # parameter -> the caller's name
    for i, arg in enumerate(call.args):
        if not isinstance(arg.value, cst.Name) or arg.star:
            continue
        if arg.keyword is not None:
            given[arg.keyword.value] = arg.value.value
        elif i < len(params):
            given[params[i]] = arg.value.value
    given = {p: name for p, name in given.items() if name in read}
    if not given:
        return False

    def root_of(node: cst.BaseExpression) -> cst.BaseExpression:
        while isinstance(node, (cst.Subscript, cst.Attribute, cst.Call)):
            node = node.func if isinstance(node, cst.Call) else node.value
        return node

    # names bound to a part of a given argument (`messages = params.get("messages")`) change it too
    for _ in range(2):
        for n in body:
            if isinstance(n, cst.Assign) and not isinstance(n.value, cst.Name):
                root = root_of(n.value)
                if isinstance(root, cst.Name) and root.value in given:
                    for t in n.targets:
                        if isinstance(t.target, cst.Name):
                            given.setdefault(t.target.value, given[root.value])
    for n in body:
        targets: list[cst.BaseExpression] = []
        if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = assignment_targets(n)
        elif isinstance(n, cst.Del):
            targets = [n.target]
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _MUTATING_METHODS:
            targets = [n.func]
        for target in targets:
            root = target
            while isinstance(root, (cst.Subscript, cst.Attribute)):
                root = root.value
            if root is not target and isinstance(root, cst.Name) and root.value in given:
                return True
    return False


# retry decorators that call the function once per attempt and return what it returned: over a
# generator function (sync or async) each attempt only builds the generator, which cannot fail
_GENERATOR_BLIND = frozenset({"tenacity", "backoff"})


def is_generator(fn: cst.FunctionDef) -> bool:
    """``fn``'s own body yields (a nested def, lambda or class is another function)."""
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Yield):
            return True
        if isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        stack.extend(lexical_children(n))
    return False


_BUILTINS = frozenset(dir(builtins))


def _repairs(loop: Loop, handler: cst.ExceptHandler, bound: str) -> list[cst.Call]:
    """s36: the handler hands the exception's text to a step the attempt also calls on its other failures
    (``except Exception as e: await patch_fn(f"Exception: {e}")``, the ``try`` calling ``patch_fn(lint
    errors)`` too): a repair loop, each round a different attempt built from the error, not a retry."""
    derived = {bound}
    for n in _walk(handler.body):  # last_error = str(e)
        if isinstance(n, cst.Assign) and _names_in(n.value) & derived:
            derived |= {t.target.value for t in n.targets if isinstance(t.target, cst.Name)}
    in_try = {dotted(c.func) for c in _walk(loop.try_node.body) if isinstance(c, cst.Call)} - {None}
    out: list[cst.Call] = []
    for stmt in _walk(handler.body):
        # a step of its own (`await patch_fn(...)` as a statement), not a value built for something else (`str(e)`)
        value = stmt.value if isinstance(stmt, cst.Expr) else None
        call = value.expression if isinstance(value, cst.Await) else value
        if not isinstance(call, cst.Call):
            continue
        n = call
        name = dotted(n.func)
        if name is None or name not in in_try or is_sleep(n) or name in _BUILTINS:
            continue
        last = name.rsplit(".", 1)[-1].lower()
        if last.startswith(kb.LOGGING_CALL_PREFIXES) or set(last.strip("_").split("_")) & kb.REPORTING_CALL_WORDS:
            continue  # a log line (`log.warning`, a project's `abi_logging`), not a step that changes the next attempt
        if any(_names_in(a.value) & derived and not isinstance(a.value, (cst.Dict, cst.List, cst.Tuple)) for a in n.args):
            out.append(n)  # the text itself, not a field of a record (`append_event(run, {"error": msg})` logs it)
    return out
