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

The model is built in layers: :class:`~.work.RetryWork` (the per-file state, the
scopes of retried work and the calls recorded in them), :class:`~.recognise.RetryRecogniser`
(which constructs are retries, on top of one reader per retry library), and
:class:`RetryModel` here (the queries rules ask and the traversal).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Effect, declared_class, dotted, keyword_arg
from ...linter.api import knowledge as kb
from .data import UNKNOWN, Condition, Loop, Part, Retry, Stop, Wait
from .literals import _ints, status_set
from .status_loops import status_retry, status_retry_lines
from .loops import hand_loop
from .recognise import RetryRecogniser

__all__ = ["UNKNOWN", "Condition", "Loop", "Part", "Retry", "RetryModel", "Stop", "Wait", "hand_loop", "status_set"]


class RetryModel(RetryRecogniser):
    """Per-file collector (an engine model: one instance per file, dispatched right after the resolver)."""

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
                self._class_bases[stmt.name.value] = [b.value for b in stmt.bases]
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
        if self._functions:
            self._nested_defs[(id(self._functions[-1]), node.name.value)] = node
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
        if self._status_loops:
            statuses = status_retry(node, self._literal_collection)
            if statuses is not None:
                self._add_status(Retry("status-loop", node, condition=Condition(node=node, statuses=statuses), body=node.body))

    @property
    def _status_loops(self) -> bool:
        """The file holds a counted loop with an ``if`` testing a status that ends in ``continue`` (the ``ast`` screen)."""
        screen = self.ctx.screen
        return bool(screen.memo("retries.status_retry_lines", lambda: status_retry_lines(screen)))

    def _literal_collection(self, name: str) -> cst.BaseExpression | None:
        """The literal int collection last bound to ``name`` (``_RETRY_STATUSES = frozenset({500, 502})``), or None."""
        held = self._bindings.get(name)
        return held if held is not None and _ints(held) is not None else None

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

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        # s37: an annotated binding holds its value as a plain one does (`errors: tuple = (A, B)`)
        if node.value is not None and isinstance(node.target, cst.Name):
            self._bindings[node.target.value] = node.value

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
        self._note_arg_call(node)
        self._record_effect(node)

    # ------------------------------------------------------------ finishing

    def _finish(self) -> None:
        self._escaping_factories()
        by_transport = {id(call): name for name, call in self._clients.items()}
        for retry in [*self.retries, *self.status_retries]:
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
            if id(retry) in self._param_calls:
                # s55: the callables the module hands the parameter the retried work calls
                nested, handed, handed_lambdas = self.handed_callables(retry)
                helpers.extend(handed)
                lambdas.extend(handed_lambdas)
                for inner in nested:
                    for effect in self._effects_of.get(id(inner), []):
                        if id(effect.node) not in seen:
                            seen.add(id(effect.node))
                            retry.effects.append(
                                Effect(effect.node, effect.cls, effect.what, effect.keyed, helper=inner.name.value)
                            )
                    helpers.extend(self._calls_from.get(id(inner), []))
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
