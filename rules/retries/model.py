"""The retry model: every retry in a file, described as data, found in the engine's one traversal.

Rules never re-discover retries. A rule that needs them lists
``RetryModel`` in its ``models`` (see ``Rule.models``); the engine makes one
model per file, runs it in the same traversal right after the name resolver
(so it has seen a node before any rule does), and hands it to the rules as
``self.ctx.models[RetryModel]``. A rule reads ``model.retries`` (complete
from ``leave_Module`` on: rules report there) or ``model.retry_at(node)``.

What counts as a retry (``Retry.kind``):

- ``tenacity``: ``@retry``, ``@retry(...)``, ``@Retrying(...)``/``AsyncRetrying``,
  ``Retrying(...)(fn, ...)``, ``for attempt in Retrying(...): with attempt: ...``;
- ``backoff``: ``@on_exception(...)``/``@on_predicate(...)``; ``stamina``:
  ``@retry(on=...)`` and ``for attempt in retry_context(on=...)``;
- ``runtime``: this project's ``clock.retrying(...)`` and ``tool.terse.retry(...)``,
  with the retried work read from ``pipe(calling_api(fn), ...)`` or ``stage(fn)``;
- ``configured``: a decorator named under ``retry-decorators``;
- ``loop``: ``for _ in range(n)`` or ``while`` around a ``try`` whose handler
  goes round again (the handlers that do are the condition);
- ``own-decorator``: a use of a decorator defined in this module whose wrapper
  loops around a ``try`` calling the wrapped function (the wrapper's handlers
  are the condition);
- ``with-retry`` (LangChain ``x.with_retry(...)``), ``tool-middleware``
  (``ToolRetryMiddleware(...)``), ``transport`` (pydantic-ai
  ``TenacityTransport``/``AsyncTenacityTransport``), ``urllib3`` (``Retry(...)``
  given to ``HTTPAdapter(max_retries=...)``): policies that retry whatever
  they wrap (``Retry.methods`` says which HTTP methods, ``None`` all).

Condition, stop and wait are literal data or :data:`UNKNOWN` (held in a
variable, built elsewhere, passed as ``**kwargs``); a rule that needs an
unknown part stays silent. A part the code does not write is the library's
default, described as data (tenacity without ``stop=`` never stops).

The retried work: ``Retry.function`` (a decorated ``def``), ``Retry.body``
(the statements a loop or an ``attempt`` block runs again), ``Retry.callee``
(the function passed to a controller). After the traversal,
``Retry.effects`` holds the calls with a known class (``linter/effects.py``)
in that work and, one level down, in same-module functions and methods it
calls; :func:`candidate_lines` gives the narrowing those lines.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Sequence, Union

import libcst as cst

from ...linter.api import Effect, children, classify_call, declared_class, dotted, has_idempotency_key, keyword_arg, positional
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Loop, Part, Retry, Stop, Wait, _Unknown
from .literals import status_set
from .loops import _body_stmts, _calls_any, _dict_as_call, _names_in, _range_stop, _walk, hand_loop
from .paths import is_sleep
from .read_backoff import BackoffReader
from .read_langchain import LangChainReader
from .read_runtime import RuntimeReader
from .read_stamina import StaminaReader
from .read_tenacity import TenacityReader
from .read_urllib3 import Urllib3Reader

if TYPE_CHECKING:
    from ...linter.api import FileContext, Names

__all__ = ["UNKNOWN", "Condition", "Loop", "Part", "Retry", "RetryModel", "Stop", "Wait", "hand_loop", "status_set"]


class RetryModel(TenacityReader, BackoffReader, StaminaReader, RuntimeReader, LangChainReader, Urllib3Reader):
    """Per-file collector (an engine model: one instance per file, dispatched right after the resolver)."""

    def __init__(self, ctx: "FileContext") -> None:
        self.ctx = ctx
        self.names: Names = ctx.names
        self.knowledge = ctx.knowledge
        self.retries: list[Retry] = []
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
        self.finished = False

    # ------------------------------------------------------------ queries

    def retry_at(self, node: cst.CSTNode) -> Retry | None:
        return self._by_anchor.get(id(node))

    def exception_names(self, node: cst.BaseExpression) -> tuple[str, ...] | None:
        """The exception types a type or tuple names, as the model reads them (None: not literal)."""
        return self._exception_names(node)

    def function_effects(self, fn: cst.FunctionDef) -> list[Effect]:
        """The classified calls a function makes: its own, then one level into the same-module
        functions and methods it calls (``helper`` set), skipping helpers declared read-safe or
        idempotent. Complete once the module has been left."""
        out = list(self._effects_of.get(id(fn), []))
        seen = {id(e.node) for e in out}
        for name, cls_name in self._calls_from.get(id(fn), []):
            helper = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
            if helper is None or helper is fn:
                continue
            if declared_class(helper, self.names) in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                continue
            for effect in self._effects_of.get(id(helper), []):
                if id(effect.node) not in seen:
                    seen.add(id(effect.node))
                    out.append(Effect(effect.node, effect.cls, effect.what, effect.keyed, helper=helper.name.value))
        return out

    def retried_functions(self, retry: Retry) -> list[cst.FunctionDef]:
        """The same-module functions a retry runs: the decorated one, or the callee a controller is
        given (``Retrying(...)(fetch)``, ``pipe(calling_api(fetch), clock.retrying(...))``)."""
        if retry.function is not None:
            return [retry.function]
        if retry.callee is None:
            return []
        out = []
        for name, cls_name in self._callee_targets(retry.callee):
            fn = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
            if fn is not None:
                out.append(fn)
        return out

    # ------------------------------------------------------------ traversal

    def visit_Module(self, node: cst.Module) -> None:
        self._imports = self.ctx.screen.import_roots
        for stmt in node.body:
            if isinstance(stmt, cst.FunctionDef):
                self._module_defs[stmt.name.value] = stmt
                self._index_own_decorator(stmt)
            elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
                self._class_names.add(stmt.name.value)
                for member in stmt.body.body:
                    if isinstance(member, cst.FunctionDef):
                        self._methods[(stmt.name.value, member.name.value)] = member
                        # issue 21: a mark above @staticmethod/@classmethod, a marked __call__
                        mark = declared_class(member, self.names)
                        if mark is not None:
                            self._method_marks[(stmt.name.value, member.name.value)] = mark
        # retry factories (issue 23): a function or method returning retry(...)/Retrying(...)
        for fn in [*self._module_defs.values(), *self._methods.values()]:
            made = self._returned_retry(fn)
            if made is not None:
                self._factories.setdefault(fn.name.value, made)
        for fn in self._module_defs.values():
            cls = declared_class(fn, self.names)
            if cls is not None:
                self._local_classes[fn.name.value] = cls

    def leave_Module(self, node: cst.Module) -> None:
        self._finish()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)
        self._owners.append(node)
        self._effects_of[id(node)] = []
        for dec in node.decorators:
            retry = self._decorator_retry(dec.decorator, node)
            if retry is not None:
                self._add(retry, scope=node)
        self._enter(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._leave(node)
        self._functions.pop()
        self._owners.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._owners.append(node)
        self._effects_of[id(node)] = []
        self._enter(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._leave(node)
        self._owners.pop()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._enter(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._leave(node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._enter(node)

    def leave_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._leave(node)

    def visit_For(self, node: cst.For) -> None:
        retry = self._iterator_retry(node)
        if retry is None:
            retry = self._loop_retry(node)
        if retry is not None:
            self._add(retry, scope=retry.body)

    def visit_While(self, node: cst.While) -> None:
        retry = self._loop_retry(node)
        if retry is not None:
            self._add(retry, scope=retry.body)

    def visit_Assign(self, node: cst.Assign) -> None:
        # my_retry = retry(stop=...), later @my_retry / for a in my_retry
        if isinstance(node.value, cst.Call) and self._factory_kind(node.value.func) is not None:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    self._aliases[t.target.value] = node.value
        elif isinstance(node.value, cst.Call) and self._factory_call(node.value) is not None:
            # retry_decorator = _create_retry_decorator(llm)
            made = self._factory_call(node.value)
            for t in node.targets:
                if isinstance(t.target, cst.Name) and made is not None:
                    self._aliases[t.target.value] = made
                    self._made_aliases.add(t.target.value)
        for t in node.targets:
            self._bind_client(t.target, node.value)
            if isinstance(t.target, cst.Name):
                # issue 21: what a name holds (a wrapper, an instance, a keyed tool, a stage, an attempts block)
                self._bindings[t.target.value] = node.value
                if isinstance(node.value, cst.Call) and self._is_runtime_stage(node.value):
                    self._stages[t.target.value] = node.value

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_client(node.asname.name, node.item)

    def _bind_client(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """``client = httpx.AsyncClient(transport=TenacityTransport(...))``: requests on ``client`` are retried."""
        if not isinstance(value, cst.Call):
            return
        transport = keyword_arg(value, "transport")
        name = dotted(target)
        if transport is None or name is None or not isinstance(transport.value, cst.Call):
            return
        if self.names.qualname(transport.value.func) in kb.RETRY_TRANSPORTS:
            self._clients[name] = transport.value

    def visit_Call(self, node: cst.Call) -> None:
        retry = self._call_retry(node)
        if retry is not None:
            scope: cst.CSTNode | None = retry.callee if isinstance(retry.callee, cst.Lambda) else None
            self._add(retry, scope=scope)
        self._record_effect(node)

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
        if found is not None:
            cls, what = found
            effect = Effect(node, cls, what, has_idempotency_key(node, self._scope_statements()))
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

    def _finish(self) -> None:
        self._escaping_factories()
        by_transport = {id(call): name for name, call in self._clients.items()}
        for retry in self.retries:
            if retry.kind == "transport":
                name = by_transport.get(id(retry.anchor))
                if name is not None:
                    retry.work_known = True
                    retry.effects.extend(e for receiver, e in self._client_effects if receiver == name)
                continue
            helpers = list(self._helper_calls.get(id(retry), []))
            own = retry.function
            lambdas: list[cst.Lambda] = []
            callees = [retry.callee] if own is None and retry.callee is not None else []
            callees += self._stage_uses.get(id(retry), [])
            for callee in callees:
                targets, found_lambdas, keyed = self._callee_reach(callee)
                if keyed and retry.kind == "runtime":
                    retry.keyed = True  # the runtime's retry opens one logical call: one key for every attempt
                if targets or found_lambdas:
                    helpers.extend(targets)
                    lambdas.extend(found_lambdas)
                    retry.work_known = True
            if own is not None:
                declared = declared_class(own, self.names)
                if declared in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                    retry.effects = []
                    continue
                if declared is not None:
                    where: cst.CSTNode = own.decorators[0] if own.decorators else own
                    retry.effects.insert(0, Effect(where, declared, f"{own.name.value}() (declared)", False))
            seen: set[int] = {id(e.node) for e in retry.effects}
            for lam in lambdas:  # a lambda given to the retry (issue 21: around a marked function)
                for effect in self._effects_of.get(id(lam), []):
                    if id(effect.node) not in seen:
                        seen.add(id(effect.node))
                        retry.effects.append(effect)
                helpers.extend(self._calls_from.get(id(lam), []))
            for name, cls_name in helpers:
                fn = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
                if fn is None or fn is own:
                    continue
                declared = declared_class(fn, self.names)
                if declared in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                    continue
                if declared is not None and id(fn) not in seen:
                    # a marked tool (or method, __call__) given to or called by the retried work
                    seen.add(id(fn))
                    where = fn.decorators[0] if fn.decorators else fn
                    shown = f"{cls_name}.{name}() (declared)" if cls_name else f"{name}() (declared)"
                    if (name, cls_name) in self._fresh_keys:
                        shown = shown[:-1] + "; called through keyed(...) without key_from: a new key on every attempt)"
                    retry.effects.append(Effect(where, declared, shown, False))
                for effect in self._effects_of.get(id(fn), []):
                    if id(effect.node) not in seen:
                        seen.add(id(effect.node))
                        retry.effects.append(
                            Effect(effect.node, effect.cls, effect.what, effect.keyed, helper=fn.name.value)
                        )
        self.finished = True

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

    def _is_runtime_stage(self, call: cst.Call) -> bool:
        """``clock.retrying(...)`` / ``tool.terse.retry(...)``: a runtime retry stage (a function of a tool)."""
        if self.names.qualname(call.func) in kb.RUNTIME_RETRY_CALLS:
            return True
        func = call.func
        return isinstance(func, cst.Attribute) and func.attr.value == kb.RUNTIME_RETRY_METHOD and self._runtime_clauses(call)

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
        if kind is None and isinstance(head, cst.Name) and call is None and head.value in self._aliases:
            call = self._aliases[head.value]
            kind = self._factory_kind(call.func)
        if kind is None and call is not None and self._factory_call(call) is not None:
            call = self._factory_call(call)  # @_create_retry_decorator(llm)
            assert call is not None
            kind = self._factory_kind(call.func)
            made_by = call
        if kind is not None:
            retry = Retry(kind, expr, function=fn, body=fn.body)
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
            stop = _range_stop(loop.node)
            retry.stop = stop
            return retry
        return None

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
        retry = Retry(kind, node, body=body, factory=call if call is not it and not isinstance(it, cst.Name) else None)
        self._read_parts(retry, kind, call, qn)
        return retry

    def _loop_retry(self, node: Union[cst.For, cst.While]) -> Retry | None:
        loop = hand_loop(node)
        if loop is None:
            return None
        loop = self._with_handler_helpers(loop)
        retry = Retry("loop", node, body=loop.try_node.body, loop=loop)
        retry.condition = self._handlers_condition(loop)
        retry.stop = _range_stop(node)
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
                retry = Retry(kind, node, callee=pos[0].value, factory=made if func.value in self._made_aliases else None)
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
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr == kb.RUNTIME_RETRY_METHOD and self._runtime_clauses(node):
                return self._runtime_retry(node, terse=False)
            if attr == kb.LANGCHAIN_WITH_RETRY_METHOD and self._imports & kb.LANGCHAIN_ROOTS:
                return self._with_retry(node)
        return None

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
            # **kwargs: every part may hide there
            if any(a.star == "**" for a in call.args):
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
                loop = hand_loop(node)
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
        if isinstance(n, cst.Assign):
            targets = [t.target for t in n.targets]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            targets = [n.target]
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
