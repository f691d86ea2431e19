"""The retry model's state and its bookkeeping of retried work.

:class:`RetryWork` is the base of :class:`~.model.RetryModel`: the per-file
state (set in ``__init__``), the scopes whose statements are a retry's work
(entered and left as the traversal goes), the classified calls recorded in
them (``linter/effects.py``), and the same-module functions, methods and
callees that retried work reaches (followed one level down when the module is
left, in ``RetryModel._finish``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import libcst as cst

from ...linter.api import Effect, classify_call, dotted, has_idempotency_key, keyword_arg, positional
from ...linter.api import knowledge as kb
from .data import Condition, Loop, Retry, _Unknown
from .steps import body_stmts as _body_stmts
from .method_param import LiteralMethod, literal_methods, parameter_method_write
from .getattr_methods import getattr_method_write
from .project_writes import project_client_write
from .urllib_writes import URLOPEN, urllib_write
from .jsonrpc_calls import Messages, jsonrpc_tool_call, tool_call_sites

if TYPE_CHECKING:
    from ...linter.api import FileContext, Names


class RetryWork:
    """The model's state, the scopes of retried work and the calls made there."""

    def __init__(self, ctx: "FileContext") -> None:
        self.ctx = ctx
        self.names: Names = ctx.names
        self.knowledge = ctx.knowledge
        self.retries: list[Retry] = []
        # s43 (batch 16): counted loops that go round on a status (``status_loops.status_retry``); TFH101 reads them
        self.status_retries: list[Retry] = []
        self._by_anchor: dict[int, Retry] = {}
        self._scopes: dict[int, list[Retry]] = {}  # id(node whose subtree is retried work) -> retries
        self._active: list[list[Retry]] = []
        self._functions: list[cst.FunctionDef] = []
        self._owners: list[cst.CSTNode] = []  # the enclosing def or lambda (whose effects a call is)
        self._classes: list[cst.ClassDef] = []
        self._effects_of: dict[int, list[Effect]] = {}  # id(def) -> direct effects
        self._helper_calls: dict[int, list[tuple[str, str | None]]] = {}  # id(retry) -> (name, class)
        self._calls_from: dict[int, list[tuple[str, str | None]]] = {}  # id(def) -> same-module helpers it calls
        self._module_defs: dict[str, cst.FunctionDef] = {}
        self._methods: dict[tuple[str, str], cst.FunctionDef] = {}
        self._local_classes: dict[str, str] = {}
        self._method_marks: dict[tuple[str, str], str] = {}  # (class, method) -> class its decorators declare
        self._class_names: set[str] = set()  # the module's classes
        self._class_bases: dict[str, list[cst.BaseExpression]] = {}  # a module class -> its bases
        self._bindings: dict[str, cst.BaseExpression] = {}  # name -> the value last assigned to it (issue 21)
        self._stages: dict[str, cst.Call] = {}  # name -> the runtime ``retrying(...)`` stage assigned to it
        self._stage_uses: dict[int, list[cst.BaseExpression]] = {}  # id(retry) -> tools a held stage is applied to
        self._fresh_keys: set[tuple[str, str | None]] = set()  # tools called through keyed(...) without key_from
        self._own_decorators: dict[str, tuple[Loop, Condition | _Unknown]] = {}
        self._aliases: dict[str, cst.Call] = {}  # name -> retry factory call assigned to it
        self._made_aliases: set[str] = set()  # aliases bound to a factory's result
        self._factories: dict[str, cst.Call] = {}  # same-module function/method name -> the retry call it returns
        self._clients: dict[str, cst.Call] = {}  # receiver text -> the retrying transport mounted on it
        self._client_effects: list[tuple[str, Effect]] = []
        self._imports: frozenset[str] = frozenset()
        self._literal_methods: dict[str, list[LiteralMethod]] | None = None  # callee -> literal "POST" call sites
        self._tool_call_sites: dict[str, list[tuple[int | None, str | None, int, bool]]] | None = None  # s48
        self._messages: Messages = {}  # s52: each function's assigned JSON-RPC messages, read once (jsonrpc_calls.py)
        # s55: a wrapper's retry around a callable it is handed (``_retry_async(func)``: ``await func(*args)``)
        self._param_calls: dict[int, list[tuple[cst.FunctionDef, str, str | None]]] = {}  # id(retry) -> (def, param, class)
        self._nested_defs: dict[tuple[int, str], cst.FunctionDef] = {}  # (id(enclosing def), name) -> nested def
        self._arg_calls: dict[tuple[str, str | None], list[tuple[cst.Call, cst.FunctionDef | None, str | None]]] = {}
        self.finished = False

    # ------------------------------------------------------------ scopes and effects

    def _add(self, retry: Retry, scope: cst.CSTNode | None) -> None:
        if id(retry.anchor) in self._by_anchor:
            return
        self.retries.append(retry)
        self._by_anchor[id(retry.anchor)] = retry
        self._helper_calls[id(retry)] = []
        if scope is not None:
            self._scopes.setdefault(id(scope), []).append(retry)
            retry.work_known = True

    def _add_status(self, retry: Retry) -> None:
        """A status retry (kept apart from ``retries``: only TFH101 reads it), its work the whole loop body."""
        assert retry.body is not None
        self.status_retries.append(retry)
        self._helper_calls[id(retry)] = []
        self._scopes.setdefault(id(retry.body), []).append(retry)
        retry.work_known = True

    def _enter(self, node: cst.CSTNode) -> None:
        found = self._scopes.get(id(node))
        if found:
            self._active.append(found)

    def _leave(self, node: cst.CSTNode) -> None:
        found = self._scopes.get(id(node))
        if found and self._active and self._active[-1] is found:
            self._active.pop()

    def _scope_statements(self) -> Sequence[cst.BaseStatement]:
        if self._functions:
            return _body_stmts(self._functions[-1].body)
        return []

    def _record_effect(self, node: cst.Call) -> None:
        if self._active:
            func = node.func
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
            if last is not None:
                for group in self._active:
                    for retry in group:
                        retry.calls.add(last)
            qn = self.names.qualname(func)
            if qn is None and isinstance(func, cst.Name) and self.names.is_builtin(func.value):
                qn = func.value
            local = isinstance(func, cst.Name) and qn == func.value and qn not in self.knowledge.io_builtins
            for group in self._active:
                for retry in group:
                    if qn is not None:
                        retry.qualnames.add(qn)
                    if not local:
                        retry.in_process = False
        found = classify_call(node, self.names, self.knowledge, self._local_classes, self._imports)
        own_only = False
        if found is None and (self._active or self._owners):
            # s48: a write sent through urllib.request.urlopen (urllib_writes.py), or a hand-written MCP client's
            # tools/call message (jsonrpc_calls.py): in the retry, or in a same-module helper it calls
            if self._tool_call_sites is None:
                self._tool_call_sites = tool_call_sites(self.ctx.screen)
            fn = self._functions[-1] if self._functions else None
            sent_by = None
            if self.names.qualname(node.func) == URLOPEN:
                if self._literal_methods is None:
                    self._literal_methods = literal_methods(self.ctx.screen.tree)
                sent_by = urllib_write(node, URLOPEN, fn, self.names, self._literal_methods, self.ctx.path)
            if sent_by is None:
                tool = jsonrpc_tool_call(node, fn, self._tool_call_sites, self._messages)
                sent_by = (tool, False) if tool is not None else None
            if sent_by is not None:
                found = (kb.NON_IDEMPOTENT_WRITE, sent_by[0])
                own_only = sent_by[1]
        if found is None and self._active:
            # s35: `client.request(method=method, ...)` in a helper a same-module call gives "POST"
            if self._literal_methods is None:
                self._literal_methods = literal_methods(self.ctx.screen.tree)
            fn = self._functions[-1] if self._functions else None
            param = parameter_method_write(node, qn, fn, self._literal_methods, self.ctx.path)
            if param is None and isinstance(node.func, (cst.Name, cst.Call)):
                # s51 (batch 23 zspace-cli): `getattr(self._http, method.lower())(url, ...)`
                param = getattr_method_write(node, fn, self.names, self._literal_methods, self.ctx.path)
            if param is not None:
                found = (kb.NON_IDEMPOTENT_WRITE, param[0])
                own_only = param[1]
            elif isinstance(node.func, cst.Attribute):
                # s40: `api.post(...)` of the project's own client class, defined in another module
                sent = project_client_write(self.ctx.path, qn)
                if sent is not None:
                    found = (kb.NON_IDEMPOTENT_WRITE, sent)
        if found is not None:
            cls, what = found
            effect = Effect(node, cls, what, has_idempotency_key(node, self._scope_statements()))
            if own_only:
                for group in self._active:  # s36: only the helper's own retry, not a caller's (method_param.py)
                    for retry in group:
                        retry.effects.append(effect)
                return
            if self._owners:
                self._effects_of[id(self._owners[-1])].append(effect)
            if isinstance(node.func, cst.Attribute):
                receiver = dotted(node.func.value)
                if receiver is not None:
                    self._client_effects.append((receiver, effect))
            for group in self._active:
                for retry in group:
                    retry.effects.append(effect)
            return
        if not self._active and not self._owners:
            return
        helper = self._helper_of(node.func)
        if helper is None:
            helper = self._marked_target(node.func)  # Payments.take(...), pay(...) with a marked __call__
        if helper is None and self._active and isinstance(node.func, cst.Name) and self._functions:
            self._note_param_call(node.func.value)
        if helper is None and self._active and isinstance(node.func, cst.Name):
            held = self._bindings.get(node.func.value)
            if isinstance(held, cst.Call) and self.names.qualname(held.func) in kb.RUNTIME_KEYED and keyword_arg(held, "key_from") is None:
                # issue 21: a keyed tool called inside a retry that is not the runtime's: every attempt is a
                # logical call of its own, with a new random key; the runtime cannot see it
                for target in self._callee_reach(held)[0]:
                    self._fresh_keys.add(target)
                    for group in self._active:
                        for retry in group:
                            self._helper_calls[id(retry)].append(target)
        if helper is not None and self._owners:
            self._calls_from.setdefault(id(self._owners[-1]), []).append(helper)
        if helper is not None:
            for group in self._active:
                for retry in group:
                    self._helper_calls[id(retry)].append(helper)

    def _note_param_call(self, name: str) -> None:
        """s55 (batch 27 dashtro): retried work calling a parameter of its own function (``for attempt in ...: try:
        return await func(*args)``): what the module's calls of that function hand it is the retried work
        (``_retry_async(_do_request)``), read in ``_finish`` (``handed_callables``)."""
        fn = self._functions[-1]
        if name not in {p.name.value for p in (*fn.params.posonly_params, *fn.params.params)}:
            return
        cls_name = self._classes[-1].name.value if self._classes else None
        if cls_name is not None and self._methods.get((cls_name, fn.name.value)) is not fn:
            cls_name = None
        if cls_name is None and self._module_defs.get(fn.name.value) is not fn:
            return
        for group in self._active:
            for retry in group:
                self._param_calls.setdefault(id(retry), []).append((fn, name, cls_name))

    def _note_arg_call(self, node: cst.Call) -> None:
        """s55: a call of a same-module function or method handing it a callable (a name, a lambda, a call,
        ``self.method``), kept with the def it is made in for ``handed_callables``."""
        if not node.args:
            return
        func = node.func
        key: tuple[str, str | None] | None = None
        if isinstance(func, cst.Name) and func.value in self._module_defs:
            key = (func.value, None)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls") and self._classes:
            key = (func.attr.value, self._classes[-1].name.value)
        if key is None:
            return
        cls_name = self._classes[-1].name.value if self._classes else None
        self._arg_calls.setdefault(key, []).append((node, self._functions[-1] if self._functions else None, cls_name))

    def handed_callables(
        self, retry: Retry
    ) -> tuple[list[cst.FunctionDef], list[tuple[str, str | None]], list[cst.Lambda]]:
        """s55: what the module's calls hand the parameters a retry's work calls: (nested defs of the caller,
        same-module functions and methods, lambdas). ``_retry_async(_do_request)`` with ``_do_request`` defined
        in the caller, ``call_with_retries(lambda: client.post(...))``, ``self._with_retry(self._create, body)``,
        ``partial(send, body)``."""
        nested: list[cst.FunctionDef] = []
        targets: list[tuple[str, str | None]] = []
        lambdas: list[cst.Lambda] = []
        for fn, name, cls_name in self._param_calls.get(id(retry), []):
            params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
            if cls_name is not None and params and params[0] in ("self", "cls"):
                params = params[1:]
            index = params.index(name) if name in params else None
            flag = _count_flag(fn)
            for call, caller, caller_cls in self._arg_calls.get((fn.name.value, cls_name), []):
                if caller is fn:
                    continue
                if flag is not None and not _turns_on(call, params, flag):
                    continue  # `attempts = 2 if retry else 1`: this call keeps the default, one attempt
                value: cst.BaseExpression | None = None
                for i, arg in enumerate(call.args):
                    if arg.star:
                        break
                    if (arg.keyword is not None and arg.keyword.value == name) or (arg.keyword is None and i == index):
                        value = arg.value
                        break
                if value is None:
                    continue
                if isinstance(value, cst.Name) and caller is not None and (id(caller), value.value) in self._nested_defs:
                    nested.append(self._nested_defs[(id(caller), value.value)])
                    continue
                if (
                    isinstance(value, cst.Attribute)
                    and isinstance(value.value, cst.Name)
                    and value.value.value in ("self", "cls")
                    and caller_cls is not None
                    and (caller_cls, value.attr.value) in self._methods
                ):
                    targets.append((value.attr.value, caller_cls))
                    continue
                found, found_lambdas, _ = self._callee_reach(value)
                targets += found
                lambdas += found_lambdas
        return nested, targets, lambdas

    def _helper_of(self, func: cst.BaseExpression) -> tuple[str, str | None] | None:
        """A same-module function or method (name, class name) that a call reaches, or None."""
        if isinstance(func, cst.Name):
            if func.value in self._module_defs and self.names.lookup(func.value) is None:
                return (func.value, None)
            return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and self._classes:
            if func.value.value in ("self", "cls"):
                cls_name = self._classes[-1].name.value
                if (cls_name, func.attr.value) in self._methods:
                    return (func.attr.value, cls_name)
        return None

    # ------------------------------------------------------------ what a callee reaches

    def _callee_targets(self, callee: cst.BaseExpression) -> list[tuple[str, str | None]]:
        """Same-module functions a callee reaches; a list (``tools=[f, g]``) reaches each."""
        return self._callee_reach(callee)[0]

    def _callee_reach(
        self, callee: cst.BaseExpression, depth: int = 0
    ) -> tuple[list[tuple[str, str | None]], list[cst.Lambda], bool]:
        """What a tool given to a retry runs: (same-module functions and methods, lambdas, under ``keyed(...)``).

        Followed as the runtime reads a tool (issue 21): through ``calling_api(fn)``,
        ``partial(fn)``, ``RunnableLambda(fn)`` and a wrapper without ``functools.wraps``
        (``logged(fn)``: the first positional argument), ``keyed(tool)``, a lambda, a
        name bound to any of these, ``Cls.method`` (a mark above ``@staticmethod``),
        an instance of a module class (its ``__call__``) and ``instance.method``.
        """
        targets: list[tuple[str, str | None]] = []
        lambdas: list[cst.Lambda] = []
        keyed = False
        if depth > 6:
            return targets, lambdas, keyed
        if isinstance(callee, (cst.List, cst.Tuple)):
            for el in callee.elements:
                t, lm, k = self._callee_reach(el.value, depth + 1)
                targets += t
                lambdas += lm
                keyed = keyed or k
            return targets, lambdas, keyed
        if isinstance(callee, cst.Lambda):
            return targets, [callee], keyed
        if isinstance(callee, cst.Call):
            func = callee.func
            if isinstance(func, cst.Name) and func.value in self._class_names and self.names.lookup(func.value) is None:
                if (func.value, "__call__") in self._methods:
                    targets.append(("__call__", func.value))  # Payments(): its __call__ is the tool
                return targets, lambdas, keyed
            if self.names.qualname(func) in kb.RUNTIME_KEYED:
                keyed = True
            # RunnableLambda(fn), partial(fn, ...), calling_api(fn, ...), keyed(tool), logged(fn)
            pos = positional(callee)
            if pos:
                t, lm, k = self._callee_reach(pos[0].value, depth + 1)
                return t, lm, keyed or k
            return targets, lambdas, keyed
        if isinstance(callee, (cst.Name, cst.Attribute)):
            found = self._helper_of(callee) or self._marked_target(callee, calling=False)
            if found is not None:
                return [found], lambdas, keyed
            if isinstance(callee, cst.Name) and callee.value in self._bindings and self.names.lookup(callee.value) is None:
                return self._callee_reach(self._bindings[callee.value], depth + 1)
        return targets, lambdas, keyed

    def _instance_class(self, node: cst.BaseExpression) -> str | None:
        """The module class a name holds an instance of (``pay = Payments()``), or None."""
        if not isinstance(node, cst.Name):
            return None
        value = self._bindings.get(node.value)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in self._class_names:
            return value.func.value
        return None

    def _marked_target(self, func: cst.BaseExpression, *, calling: bool = True) -> tuple[str, str | None] | None:
        """A module class's method a callee names (``Payments.take``, ``pay.take``; called, ``pay(...)``:
        its ``__call__``), when the class has that method; None otherwise."""
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            owner = func.value.value
            cls_name = owner if owner in self._class_names and self.names.lookup(owner) is None else self._instance_class(func.value)
            if cls_name is not None and (cls_name, func.attr.value) in self._methods:
                return (func.attr.value, cls_name)
            return None
        cls_name = self._instance_class(func)
        if cls_name is not None and (cls_name, "__call__") in self._methods:
            return ("__call__", cls_name)
        return None


def _count_flag(fn: cst.FunctionDef) -> str | None:
    """s55 (ankaloop ``_bot_api_call``): a parameter defaulting to ``False`` that the wrapper's attempt count
    depends on (``attempts = 2 if retry else 1``): the calls that leave it make one attempt."""
    defaults = {
        p.name.value
        for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)
        if isinstance(p.default, cst.Name) and p.default.value == "False"
    }
    if not defaults:
        return None
    for stmt in _body_stmts(fn.body):
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                value = small.value if isinstance(small, cst.Assign) else None
                if (
                    isinstance(value, cst.IfExp)
                    and isinstance(value.test, cst.Name)
                    and value.test.value in defaults
                    and isinstance(value.orelse, cst.Integer)
                    and value.orelse.value in ("0", "1")
                ):
                    return value.test.value
    return None


def _turns_on(call: cst.Call, params: list[str], flag: str) -> bool:
    """The call gives the flag something other than a literal ``False`` (by keyword or position)."""
    for i, arg in enumerate(call.args):
        if arg.star:
            return True  # `**kwargs`: it may
        if (arg.keyword is not None and arg.keyword.value == flag) or (arg.keyword is None and i < len(params) and params[i] == flag):
            return not (isinstance(arg.value, cst.Name) and arg.value.value == "False")
    return False
