"""Whether a hand loop's handler can run: the retried work can raise what it catches (issue 23).

A loop is a retry only if a handler that goes round can catch something the
attempt raises. ``except requests.Timeout: continue`` around an untimed
``requests.post(...)`` never runs: requests raises its timeouts only when the
call was given one (``kb.TIMEOUT_ONLY_EXCEPTIONS``), so nothing is retried and
the loop is not one (the untimed call is TFH201's finding). The question is
asked only of a handler whose every type is such a timeout; any other handler
(a bare or broad one, a connection error) can run.

The ``try`` body cannot raise the timeout when every call in it is one of:

- a call of that client that times out only when given ``timeout=`` and is
  given none (no ``timeout=``, no ``**kwargs`` that may hold one);
- a builtin (one that iterates only over values known inert), or a function of
  a standard-library module that runs no callable it is given;
- a method of a local holding an inert value: a literal, the result of such a
  call (the response of an untimed request, ``json.loads(...)``), a part of
  another inert local;
- a same-module function or method whose own body (followed two levels down)
  satisfies the same.

Anything else (a call into another module, a session, a parameter's method, a
``raise`` of an unknown value) may raise it: the handler is kept.
"""

from __future__ import annotations

import builtins
import re
import sys

import libcst as cst

from ...linter.api import chain_root as _root, dotted, lexical_children
from ...linter.api import knowledge as kb
from .data import Loop
from .steps import body_stmts as _body_stmts
from .paths import _after_try, _before_try
from .reader import Reader
from .screen import module_classes
from .work import RetryWork

_BUILTINS = frozenset(dir(builtins))
_MAX_DEPTH = 2
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")  # the words of a CamelCase or snake_case name
_Fn = cst.FunctionDef | None


def func_words(func: cst.Name | cst.Attribute) -> set[str]:
    """The words of a called name's last part: ``parse_segment_output`` -> parse, segment, output."""
    name = func.value if isinstance(func, cst.Name) else func.attr.value
    return set(name.lower().strip("_").split("_"))


def _parsing(words: set[str]) -> bool:
    """A name for parsing: ``parse`` (s39), or (s40, agentkit's ``extract_json(reply)``) for taking JSON out
    of a text (``extract_json``, ``load_json``, ``decode_json``): ``json`` with a verb that does no I/O."""
    return "parse" in words or ("json" in words and bool(words & {"extract", "load", "loads", "decode", "repair"}))


def _skip(node: cst.CSTNode) -> bool:
    return isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda))


def _nodes(root: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes under ``root`` that run with it (nested ``def``/``lambda``/``class`` bodies left out)."""
    out: list[cst.CSTNode] = []
    stack = list(lexical_children(root))
    while stack:
        n = stack.pop()
        out.append(n)
        if not _skip(n):
            stack.extend(lexical_children(n))
    return out


_NO_RETURN = frozenset({"NoReturn", "Never"})  # return annotations of a function that never returns

class RaisableWork(RetryWork, Reader):
    """The model's check that a loop's handlers can run (mixed into the recogniser)."""

    def _runnable_handlers(self, loop: Loop) -> tuple[cst.ExceptHandler, ...]:
        """The going-round handlers that can catch something the attempt raises (and do go round)."""
        return tuple(h for h in loop.handlers if self._handler_can_run(h, loop) and not self._raises_through_helper(h))

    def _raises_through_helper(self, handler: cst.ExceptHandler) -> bool:
        """The handler ends by calling a same-module helper that always raises, with no ``continue``
        before (``except httpx.HTTPError as e: _raise_network_failed("device code", e)``): it never goes
        round (issue 23, ``retry-on-429-only``: the loop goes round only on a status it reads). The
        helper always raises when its last statement is a ``raise``, or when it is annotated ``-> NoReturn``
        (or ``Never``: s53)."""
        stmts = _body_stmts(handler.body)
        if not stmts or any(isinstance(n, cst.Continue) for n in _nodes(handler.body)):
            return False
        last = stmts[-1]
        if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Expr)):
            return False
        call = last.body[0].value
        if isinstance(call, cst.Await):
            call = call.expression
        if not isinstance(call, cst.Call):
            return False
        target = self._helper_of(call.func)
        if target is None:
            return False
        fn = self._methods.get((target[1], target[0])) if target[1] else self._module_defs.get(target[0])
        if fn is not None and fn.returns is not None and (dotted(fn.returns.annotation) or "").rsplit(".", 1)[-1] in _NO_RETURN:
            return True  # s53: `def _fail_to_launch(...) -> NoReturn` (batch 25 runinfra-cli): it never comes back
        body = _body_stmts(fn.body) if fn is not None else ()
        return bool(body) and isinstance(body[-1], cst.SimpleStatementLine) and any(
            isinstance(b, cst.Raise) for b in body[-1].body)

    def _fresh_attempt(self, loop: Loop) -> bool:
        """The attempt calls only builtins and in-memory standard-library functions, one of them drawing
        a fresh value (``heapq.heappush(q, (prio, time.perf_counter_ns(), item))`` retried on the
        ``TypeError`` of a tie): the next attempt is a different computation (issue 23, changed-request)."""
        fresh = False
        for n in _nodes(loop.try_node.body):
            if not isinstance(n, cst.Call):
                continue
            if isinstance(n.func, cst.Name) and n.func.value in _BUILTINS and self.names.is_builtin(n.func.value):
                if n.func.value in kb.IO_BUILTINS:
                    return False
                continue
            qn = self.names.qualname(n.func)
            if qn is None or qn.split(".", 1)[0] not in kb.IN_MEMORY_MODULES or qn == "time.sleep":
                return False
            fresh = fresh or qn in kb.FRESH_VALUE_CALLS
        return fresh

    def _reparses(self, loop: Loop) -> bool:
        """The attempt only parses in memory (builtins, in-memory standard-library functions, methods of
        what they returned) a name the loop body binds outside the ``try``: ``text = llm(prompt)`` before
        it, or ``value = decoded`` after it (peeling envelopes). The next round parses a new value (s35)."""
        body = loop.try_node.body
        parsed: set[str] = set()
        for n in _nodes(body):
            if isinstance(n, cst.Assign) and isinstance(n.value, cst.Call) and self._in_memory(n.value, set()):
                parsed.update(t.target.value for t in n.targets if isinstance(t.target, cst.Name))
        calls = [n for n in _nodes(body) if isinstance(n, cst.Call)]
        if not all(self._in_memory(c, parsed) for c in calls):
            return False
        stored = {t.target.value for n in _nodes(body) if isinstance(n, cst.Assign) for t in n.targets if isinstance(t.target, cst.Name)}
        rebound: set[str] = set()
        for stmt in [*_before_try(loop), *_after_try(loop)]:
            for n in _nodes(stmt):
                if not isinstance(n, cst.Assign):
                    continue
                # a new value: drawn by a call (`text = llm(prompt)`) or made by the attempt (`value = decoded`)
                value = [n.value, *_nodes(n.value)]
                if any(isinstance(v, cst.Call) or (isinstance(v, cst.Name) and v.value in stored) for v in value):
                    rebound.update(t.target.value for t in n.targets if isinstance(t.target, cst.Name))
        read = {n.value for n in _nodes(body) if isinstance(n, cst.Name)}
        return bool(rebound & read)

    def _in_memory(self, call: cst.Call, parsed: set[str]) -> bool:
        func = call.func
        if isinstance(func, cst.Name) and func.value in _BUILTINS and self.names.is_builtin(func.value):
            return func.value not in kb.IO_BUILTINS
        if isinstance(func, cst.Attribute) and isinstance(_root(func.value), cst.Name):
            root = _root(func.value)
            assert isinstance(root, cst.Name)
            if root.value in parsed or root.value in self._value_parameters():
                return True  # `data.get("answer")` on `data = json.loads(text)`; `responses.index(answer)`
        if isinstance(func, (cst.Name, cst.Attribute)) and _parsing(func_words(func)):
            return True  # s39: a function named for parsing (`parse_segment_output(res, index)`, `parser.parse(text)`)
        qn = self.names.qualname(func)
        return qn is not None and qn.split(".", 1)[0] in kb.IN_MEMORY_MODULES and qn != "time.sleep"

    def _value_parameters(self) -> set[str]:
        """The enclosing function's parameters annotated as a builtin value (``responses: Sequence[str]``,
        ``text: str``, ``rows: list[dict]``): their methods (``index``, ``split``, ``get``) work in memory
        (s38, ``llm-output-resample``: ``responses.index(answer)`` on a model's fresh answer)."""
        fn = self._functions[-1] if self._functions else None
        if fn is None:
            return set()
        out: set[str] = set()
        params = fn.params
        for p in (*params.posonly_params, *params.params, *params.kwonly_params):
            ann = p.annotation.annotation if p.annotation is not None else None
            if isinstance(ann, cst.Subscript):
                ann = ann.value
            name = dotted(ann) if isinstance(ann, (cst.Name, cst.Attribute)) else None
            if name is not None and name.rsplit(".", 1)[-1] in kb.VALUE_ANNOTATIONS:
                out.add(p.name.value)
        return out

    def _own_timeouts(self, loop: Loop) -> bool:
        """Every handler catches only exception classes of this module named for a timeout."""
        own = self._class_names | module_classes(self.ctx.screen)  # the screen's tree: the whole module
        for h in loop.handlers:
            types = h.type.elements if isinstance(h.type, (cst.Tuple, cst.List)) else [h.type] if h.type is not None else []
            if not types:
                return False
            for t in types:
                value = t.value if isinstance(t, cst.Element) else t
                if not (isinstance(value, cst.Name) and value.value in own and "timeout" in value.value.lower()):
                    return False
        return True

    def _retry_signal(self, handler: cst.ExceptHandler) -> bool:
        """The handler catches only the project's own exceptions named as a request to go round, not a
        failure (s42, issue 23 ``user-requested-resend``: wizolt's ``except ModelRequestRetry: continue``,
        raised when the person asks to resend the in-flight request): the code that raises it decided to go
        round, so the loop retries no failure on it. Own: a class of this module, or imported from the
        linted file's own project (a relative import, or the package's top name); a library's class
        (telegram's ``RetryAfter``) never is. Named: a word of ``kb.RETRY_SIGNAL_WORDS`` and none of
        ``kb.RETRY_SIGNAL_FAILURE_WORDS`` (``RetryableHTTPError`` is a failure)."""
        if handler.type is None:
            return False
        elems = handler.type.elements if isinstance(handler.type, (cst.Tuple, cst.List)) else None
        types = [el.value for el in elems] if elems is not None else [handler.type]
        package = self.names.package
        top = package.split(".")[0] if package else None
        own = self._class_names | module_classes(self.ctx.screen)
        for t in types:
            name = dotted(t)
            if name is None:
                return False
            last = name.rsplit(".", 1)[-1]
            words = {w.lower() for w in _CAMEL.findall(last)}
            if not words & kb.RETRY_SIGNAL_WORDS or words & kb.RETRY_SIGNAL_FAILURE_WORDS:
                return False
            if isinstance(t, cst.Name) and t.value in own:
                continue
            qn = self.names.qualname(t)
            if qn is None or not (qn.startswith(".") or (top is not None and qn.split(".")[0] == top)):
                return False
        return True

    def _protocol_step(self, handler: cst.ExceptHandler) -> bool:
        """The handler catches only a protocol's next step, not a failure (``kb.PROTOCOL_STEP_EXCEPTIONS``: a TLS
        object on a memory BIO asking for more bytes, ``ssl.SSLWantReadError``; a non-blocking call that would
        block; an in-process queue full or empty, ``asyncio.QueueFull``): going round on it drives a state
        machine or drains a queue, it retries no failed call (s53, batch 25 rmote and clauster)."""
        if handler.type is None:
            return False
        names = self._exception_names(handler.type)
        return bool(names) and all(n in kb.PROTOCOL_STEP_EXCEPTIONS for n in names or ())

    def _deadline_calls(self, loop: Loop) -> tuple[cst.Call, ...]:
        """The deadline scopes and wrappers the attempt runs under, with a deadline that is not ``None``/0."""
        out: list[cst.Call] = []
        for n in _nodes(loop.try_node.body):
            if not isinstance(n, cst.Call):
                continue
            qn = self.names.qualname(n.func)
            if qn in kb.TIMEOUT_WRAPPERS:
                position = 1
            elif qn in kb.TIMEOUT_SCOPES or (qn or "").rsplit(".", 1)[-1] in kb.DEADLINE_SCOPE_NAMES:
                position = 0
            else:
                continue
            args = [a for a in n.args if a.keyword is None and not a.star]
            given = [a.value for a in n.args if a.keyword is not None and a.keyword.value in ("timeout", "delay", "seconds")]
            value = given[0] if given else args[position].value if len(args) > position else None
            if value is None or (isinstance(value, cst.Name) and value.value == "None"):
                continue
            if isinstance(value, (cst.Integer, cst.Float)) and float(value.value) == 0:
                continue
            out.append(n)
        return tuple(out)

    def _handler_can_run(self, handler: cst.ExceptHandler, loop: Loop) -> bool:
        if handler.type is None:
            return True
        types = self._exception_names(handler.type)
        if not types:
            return True
        untimed: set[str] = set()
        for t in types:
            calls = kb.TIMEOUT_ONLY_EXCEPTIONS.get(t)
            if calls is None:
                return True  # something a call may raise without a timeout
            untimed |= calls
        fn = self._functions[-1] if self._functions else None
        return self._may_raise(loop.try_node.body, fn, frozenset(untimed), frozenset(types), 0, set())

    def _may_raise(
        self, suite: cst.CSTNode, fn: _Fn, untimed: frozenset[str], types: frozenset[str], depth: int, seen: set[int]
    ) -> bool:
        inert = self._inert_locals(fn, untimed, types, depth, seen)
        for n in _nodes(suite):
            if isinstance(n, cst.Raise) and n.exc is not None:
                exc = n.exc.func if isinstance(n.exc, cst.Call) else n.exc
                qn = self.names.qualname(exc)
                name = dotted(exc)
                if qn in types or (qn is None and not (name in _BUILTINS and isinstance(exc, cst.Name))):
                    return True
            elif isinstance(n, cst.Call) and not self._call_inert(n, fn, untimed, types, inert, depth, seen):
                return True
        return False

    def _call_inert(
        self, call: cst.Call, fn: _Fn, untimed: frozenset[str], types: frozenset[str], inert: set[str],
        depth: int, seen: set[int],
    ) -> bool:
        """The call cannot raise the caught timeout."""
        func = call.func
        if any(isinstance(a.value, cst.Lambda) for a in call.args):
            return False
        if isinstance(func, cst.Name) and func.value in _BUILTINS and not self._bound_in(fn, func.value):
            if func.value in kb.ITERATING_BUILTINS:
                return all(self._expr_inert(a.value, inert) for a in call.args)
            return True
        helper = self._helper_of(func)
        if helper is not None:
            target = self._methods.get((helper[1], helper[0])) if helper[1] else self._module_defs.get(helper[0])
            if target is None:
                return False
            if id(target) in seen:
                return True  # already being followed: its calls are checked there
            if depth >= _MAX_DEPTH:
                return False
            seen.add(id(target))
            return not self._may_raise(target.body, target, untimed, types, depth + 1, seen)
        root = _root(func)
        if isinstance(root, cst.Name) and root.value in inert:
            return True  # a method of a local holding a response, a dict, a string
        qn = self.names.qualname(func)
        if qn is None:
            return False
        if qn in untimed:
            return not any(a.star == "**" or (a.keyword is not None and a.keyword.value == "timeout") for a in call.args)
        top = qn.split(".", 1)[0]
        return top in sys.stdlib_module_names and top not in kb.CALLABLE_RUNNING_MODULES

    def _bound_in(self, fn: _Fn, name: str) -> bool:
        """The function (or the module) binds ``name``: not the builtin."""
        if self.names.lookup(name) is not None or name in self._module_defs or name in self._class_names:
            return True
        if fn is None:
            return False
        params = fn.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        every += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
        if any(p.name.value == name for p in every):
            return True
        return any(
            isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign)) and isinstance(n.target, cst.Name)
            and n.target.value == name
            for n in _nodes(fn.body)
        )

    def _inert_locals(
        self, fn: _Fn, untimed: frozenset[str], types: frozenset[str], depth: int, seen: set[int]
    ) -> set[str]:
        """The function's locals that only ever hold inert values (a fixpoint over its assignments)."""
        if fn is None:
            return set()
        values: dict[str, list[cst.BaseExpression]] = {}
        unknown: set[str] = set()
        caught: set[str] = set()  # `except E as e`: the exception object, its response read already
        handler_names = {
            id(n.name) for n in _nodes(fn.body) if isinstance(n, cst.ExceptHandler) and n.name is not None
        }
        for n in _nodes(fn.body):
            if isinstance(n, cst.AsName) and id(n) in handler_names and isinstance(n.name, cst.Name):
                caught.add(n.name.value)
            elif isinstance(n, cst.Assign):
                for t in n.targets:
                    if isinstance(t.target, cst.Name):
                        values.setdefault(t.target.value, []).append(n.value)
                    else:
                        unknown.update(x.value for x in _nodes(t.target) if isinstance(x, cst.Name))
            elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.value is not None:
                values.setdefault(n.target.value, []).append(n.value)
            elif isinstance(n, (cst.For, cst.CompFor, cst.WithItem, cst.NamedExpr, cst.AsName)):
                target = n.target if isinstance(n, (cst.For, cst.CompFor, cst.NamedExpr)) else (
                    n.asname.name if isinstance(n, cst.WithItem) and n.asname is not None else
                    n.name if isinstance(n, cst.AsName) else None)
                if target is not None:
                    unknown.update(x.value for x in [target, *_nodes(target)] if isinstance(x, cst.Name))
        params = fn.params
        for p in [*params.posonly_params, *params.params, *params.kwonly_params]:
            unknown.add(p.name.value)
        inert = {name for name in values if name not in unknown}
        caught -= unknown | set(values)
        inert |= caught  # (never re-checked below: no assigned values)
        changed = True
        while changed:
            changed = False
            for name in list(inert - caught):
                if not all(self._value_inert(v, fn, untimed, types, inert, depth, seen) for v in values[name]):
                    inert.discard(name)
                    changed = True
        return inert

    def _value_inert(
        self, value: cst.BaseExpression, fn: _Fn, untimed: frozenset[str], types: frozenset[str], inert: set[str],
        depth: int, seen: set[int],
    ) -> bool:
        """A value whose methods raise no client's timeout: a literal, an inert local's part, the result
        of a call that cannot raise it (the response of an untimed request, a parsed dict)."""
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call):
            return self._call_inert(value, fn, untimed, types, inert, depth, set(seen))
        return self._expr_inert(value, inert)

    def _expr_inert(self, value: cst.BaseExpression, inert: set[str]) -> bool:
        if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Integer, cst.Float)):
            return True
        if isinstance(value, (cst.Comparison, cst.UnaryOperation, cst.BooleanOperation, cst.BinaryOperation)):
            return all(self._expr_inert(c, inert) for c in lexical_children(value) if isinstance(c, cst.BaseExpression))
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
            return all(
                self._expr_inert(v, inert)
                for el in value.elements
                for v in ([el.key, el.value] if isinstance(el, cst.DictElement) else [getattr(el, "value", None)])
                if isinstance(v, cst.BaseExpression)
            )
        root = _root(value)
        if isinstance(root, cst.Name):
            if root.value in ("None", "True", "False") and root is value:
                return True
            return root.value in inert and not isinstance(value, cst.Call)
        return False
