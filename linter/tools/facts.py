"""Facts per tool: the engine visitor that records, in the lint's one traversal, each tool's calls out,
timeouts, retries (read from the retry model), budget, key and failure modes, and assembles the rows."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from .. import knowledge as kb
from ..effects import Effect, classify_call
from ..names import dotted
from ..nodes import argument, has_star, is_none, keyword_arg, walk_in_scope
from ...rules.errors.text import ExceptionText
from ...rules.retries.method_param import LiteralMethod, literal_methods
from ...rules.retries.handlers import catches_failure
from ...rules.retries.model import Retry, RetryModel
from .built_clients import bound_from, module_clients
from .clients import ClientObjects
from .follow import is_summary, method_dispatchers
from .kwargs import star_default, star_without
from .failures import (default_reported, handler_mode, is_return, local_work, per_item_tries, returns_tool_error,
                       side_step, status_swallowed, status_typed, step_tries, try_bound)
from .index import Def
from .annotations import annotation_call, declared_here, hint_constants
from .local import (Place, bound_names, call_place, local_process, module_values, nested_defs, placeholder, row_place,
                    stdlib_values, value_params)
from .model import CallFact, Tool
from .verbs import read_named, read_post
from .timeout_values import value_text
from .raising import always_raises, handed_to
from .retry_facts import retry_fact as _retry_fact
from .status_retry import Read as StatusRead, status_recursions

if TYPE_CHECKING:
    from ..rule import FileContext

__all__ = ["ToolFacts"]

_ORDER = (kb.IRREVERSIBLE, kb.NON_IDEMPOTENT_WRITE, kb.IDEMPOTENT_WRITE, kb.READ_SAFE)
_COLLECTING = frozenset({"append", "extend", "add", "insert", "update", "setdefault"})


class ToolFacts:
    """The engine visitor for one file: records, per function the screen asked about, its calls
    out, timeouts, handlers and budgets, then assembles the rows when the module is left."""

    def __init__(self, ctx: "FileContext", defs: list[Def], module: str, own_roots: frozenset[str] = frozenset(),
                 sdk_wrapped: Mapping[int, tuple[str, ...]] | None = None) -> None:
        self.ctx = ctx
        self.names = ctx.names
        self.knowledge = ctx.knowledge
        self.defs = defs
        self.module = module
        self.wanted: set[tuple[str, int]] = set()
        for d in defs:
            self.wanted.update(d.functions)
            self.wanted.update(d.helpers)
        self.nodes: dict[tuple[str, int], cst.FunctionDef] = {}
        self.declared: dict[int, str] = {}
        self._path: list[str] = []
        self._seen: dict[str, int] = {}
        self._tracked: list[cst.FunctionDef | None] = []  # innermost def: a wanted one, or None
        self.calls: dict[int, list[tuple[cst.Call, str, str, str | None]]] = {}  # id(def) -> (call, qn, status, value)
        self.handlers: dict[int, list[cst.ExceptHandler]] = {}
        self.read_named: set[int] = set()  # id(call) in a function named as a read (``serper_search``)
        self.local_handlers: set[int] = set()  # handlers of a ``try`` whose body only computes in memory
        self.try_bound: dict[int, frozenset[str]] = {}  # id(handler) -> the names its ``try`` body binds
        self.side_steps: set[int] = set()  # handlers of a best-effort step inside another ``try`` (:func:`side_step`)
        self.pre_steps: set[int] = set()  # handlers of a ``try`` the function goes past to more work outside
        self.per_item: set[int] = set()  # handlers skipping one item of a loop (:func:`per_item_tries`)
        self.exits: dict[int, list[cst.BaseExpression]] = {}  # id(def) -> what its return/raise statements give
        self.budget: set[int] = set()
        self.owner: dict[int, int] = {}  # id(anchor node) -> id(wanted def holding it)
        self._client_timeouts: dict[str, tuple[str, str | None]] = {}  # receiver text -> its constructor's timeout
        # SDK client objects (``clients.py``)
        self.clients = ClientObjects(self.names, self._client_key, ctx.screen.import_roots,
                                     own_roots | {module.split(".")[0]}, sdk_wrapped, module)
        self.call_class: dict[int, tuple[str, str]] = {}  # id(call) -> (class, what) as classify_call reads it
        self.client_calls: dict[int, list[tuple[cst.Call, str, str | None]]] = {}  # id(def) -> (call, what, class)
        self._scopes = 0  # open timeout scopes (async with asyncio.timeout(...), asyncio.wait_for(...))
        self._scope_nodes: list[int] = []
        self._reaps: set[int] = set()  # id(call): communicate()/wait() right after kill()
        self.places: dict[int, Place] = {}  # id(def) -> where its calls work (``local.py``)
        self._values: tuple[dict[str, str], dict[str, tuple[str | None, ...]]] = ({}, {})  # ``local.module_values``
        self._hints: dict[str, str] = {}  # module constants of MCP hints (``annotations.hint_constants``)
        self._decorating: set[int] = set()  # id(call) in a tracked def's decorators (registering it, not its work)
        self.local_processes: set[int] = set()  # id(call): a process whose literal program stays on the machine
        self.tools: list[Tool] = []
        self._status: StatusRead = {}  # each function's status-tested recursions, read once (``status_retry.py``)
        self._literals: dict[str, list[LiteralMethod]] | None = None  # callee -> its calls handing a literal method
        self.uncaught: set[int] = set()  # id(row): nothing in its functions catches ("raised" for that alone)
        self.direct: set[int] = set()  # id(row): it has no same-module helper (it calls the run's helpers itself)
        self.fronts: dict[int, tuple[str, int]] = {}  # id(row) -> its first function (the Def it was made from)
        # TFH401's taint (rules/errors/text.py): the handlers a value carrying the caught exception's text is returned from
        self.text: ExceptionText | None = ctx.models.get(ExceptionText)
        self.text_handlers: set[int] = set()
        self.typed_handlers: set[int] = set()  # handlers returning a result that says the failure's kind (TFH401's)
        self._text_assigned: dict[int, set[int]] = {}  # id(def) -> handlers that put exception text in a name

    # traversal ------------------------------------------------------------

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._path.append(node.name.value)
        self._tracked.append(self._tracked[-1] if self._tracked else None)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._path.pop()
        self._tracked.pop()

    def visit_Module(self, node: cst.Module) -> None:
        """Helpers that return a client (``def _client(self): return httpx.Client(timeout=10)``): a request on
        their return value (``self._client().post(...)``, ``_http().get(...)``) has that client's timeout."""
        for key, call in module_clients(node):  # also a getter's lazily built client, ``self.x`` built in ``__init__``
            self._bind_client_key(key, call)
        self.clients.scan(self.ctx.screen.tree)
        self._values, self._hints = module_values(node, self.names), hint_constants(node)  # ``local.stdlib_values``

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        key = ".".join((*self._path, node.name.value))
        self.clients.enter(node.name.value, not self._path)
        n = self._seen.get(key, 0)
        self._seen[key] = n + 1
        self._path.append(node.name.value)
        if (key, n) in self.wanted:
            self.nodes[(key, n)] = node
            self._tracked.append(node)
            self.places[id(node)] = Place(nested_defs(node), bound_names(node), stdlib_values(node, self.names, *self._values),
                                          value_params(node))
            self._decorating.update(id(x) for d in node.decorators for x in walk_in_scope(d.decorator))
            cls = declared_here(node, self.names, self._hints)
            if cls is not None:
                self.declared[id(node)] = cls
        else:
            self._tracked.append(self._tracked[-1] if self._tracked else None)

    def _annotation_helper(self, fn: cst.FunctionDef) -> str | None:
        """The qualified name of the function a tool's ``annotations=`` calls (a same-module one: this module's)."""
        call = annotation_call(fn)
        if call is None:
            return None
        qn = self.names.qualname(call.func)
        if qn is None and isinstance(call.func, cst.Name):
            qn = call.func.value
        if qn is not None and "." not in qn:
            qn = f"{self.module}.{qn}"
        return qn

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._path.pop()
        self.clients.enter(None, not self._path)
        self._tracked.pop()

    def _current(self) -> cst.FunctionDef | None:
        return self._tracked[-1] if self._tracked else None

    def visit_For(self, node: cst.For | cst.While) -> None:
        self._own(node)
        self.per_item.update(id(h) for t in per_item_tries(node) for h in t.handlers)

    visit_While = visit_For

    def _own(self, node: cst.CSTNode) -> None:
        self.clients.mark(node)
        fn = self._current()
        if fn is not None:
            self.owner[id(node)] = id(fn)

    def visit_Return(self, node: cst.Return) -> None:
        self._exit(node.value)
        fn = self._current()
        if node.value is None or fn is None or self.names.function is not fn or self.text is None:
            return
        if self.text.leak(node.value) is not None:
            handler = self.names.handler
            if handler is not None:
                self.text_handlers.add(id(handler.node))
            else:  # ``out = ErrorArtifact(str(e))`` in the handler, ``return out`` after it
                self.text_handlers.update(self._text_assigned.get(id(fn), ()))
        elif self.names.handler is not None and self.text.says_kind(node.value):
            # ``ToolResponse.error(code=ToolErrorCode.TIMEOUT, ...)``: the kind is said, as TFH401 reads it
            self.typed_handlers.add(id(self.names.handler.node))

    def visit_Raise(self, node: cst.Raise) -> None:
        self._exit(node.exc)

    def _exit(self, value: cst.BaseExpression | None) -> None:
        fn = self._current()
        if value is not None and fn is not None and self.names.function is fn:
            self.exits.setdefault(id(fn), []).append(value)

    def visit_Try(self, node: cst.Try) -> None:
        fn = self._current()
        bound = try_bound(node)
        for h in node.handlers:
            self.try_bound[id(h)] = bound
        if fn is not None and self.names.function is fn and local_work(node.body, self.names, self.knowledge,
                                                                      self.ctx.screen.import_roots):
            self.local_handlers.update(id(h) for h in node.handlers)
        if node.handlers:
            for inner in walk_in_scope(node.body):
                if isinstance(inner, cst.Try) and side_step(inner):
                    self.side_steps.update(id(h) for h in inner.handlers)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        """A ``try`` whose handlers the function goes past to more work outside (``try: before = client.request("GET",
        ...) except Exception: pass`` then ``client.request("DELETE", ...)``; a transaction id computed best-effort
        before the POST): a best-effort step, its swallowing handler no answer of the tool (:data:`pre_steps`)."""
        fn = self._current()
        if fn is None or self.names.function is not fn:
            return
        body = node.body
        for i, stmt in enumerate(body[:-1]):
            for t in step_tries(stmt):  # one under an ``if``: work past it other than the answer (``return _ok(r)``)
                if t is not stmt and default_reported(t, body[i + 1:]):
                    continue  # what the name held before the step is what the answer reports: swallowed
                if t.handlers and any(not local_work(later, self.names, self.knowledge, self.ctx.screen.import_roots)
                                      for later in body[i + 1:] if t is stmt or not is_return(later)):
                    self.pre_steps.update(id(h) for h in t.handlers)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        fn = self._current()
        if fn is not None and self.names.function is fn:
            self.handlers.setdefault(id(fn), []).append(node)
        # the clean-up ``proc.kill()`` then ``proc.communicate()``: reaping a killed process, not a wait (as TFH201)
        killed: str | None = None
        for stmt in node.body.body:
            for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [None]):
                value = getattr(small, "value", None)
                if isinstance(value, cst.Await):
                    value = value.expression
                f = value.func if isinstance(value, cst.Call) else None
                if killed is not None and isinstance(f, cst.Attribute) and f.attr.value in ("communicate", "wait") \
                        and isinstance(f.value, cst.Name) and f.value.value == killed:
                    self._reaps.add(id(value))
                killed = None
                if isinstance(f, cst.Attribute) and f.attr.value in ("kill", "terminate") and isinstance(f.value, cst.Name):
                    killed = f.value.value

    def visit_With(self, node: cst.With) -> None:
        n = sum(
            1 for item in node.items
            if isinstance(item.item, cst.Call) and self.names.qualname(item.item.func) in self.knowledge.timeout_scopes
        )
        if n:
            self._scopes += n
            self._scope_nodes.append(id(node))

    def visit_Await(self, node: cst.Await) -> None:
        if isinstance(node.expression, cst.Call):
            self.clients.awaited.add(id(node.expression))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_client(node.asname.name, node.item)
            self._bind_getter(node.asname.name, node.item)  # ``async with _client() as client``
            self.clients.bind(self._client_key(dotted(node.asname.name)), node.item)

    def visit_Assign(self, node: cst.Assign) -> None:
        fn = self._current()
        handler = self.names.handler
        if fn is not None and handler is not None and self.names.function is fn and self.text is not None \
                and self.text.leak(node.value) is not None:
            self._text_assigned.setdefault(id(fn), set()).add(id(handler.node))
        for t in node.targets:
            self._bind_client(t.target, node.value)
            self._bind_getter(t.target, node.value)  # ``client = await self._get_client()``
            self.clients.bind(self._client_key(dotted(t.target)), node.value)

    def _bind_getter(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """A name bound to what a getter of the module returns (``client = await self._get_client()``, ``async with
        _client() as client``): a request on it has the client's timeout the getter builds (``built_clients``)."""
        for name, getter in bound_from(target, value):
            if getter in self._client_timeouts and (key := self._client_key(name)) is not None:
                self._client_timeouts[key] = self._client_timeouts[getter]

    def _bind_client(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """``client = httpx.Client(timeout=10)`` / ``async with httpx.AsyncClient(timeout=t) as client``:
        a request on ``client`` without its own timeout has the client's."""
        name = self._client_key(dotted(target))
        if name is not None:
            self._bind_client_key(name, value)

    def _bind_client_key(self, name: str, value: cst.BaseExpression) -> None:
        if not isinstance(value, cst.Call):
            return
        spec = self.knowledge.timeouts.get(self.names.qualname(value.func) or "")
        arg = argument(value, spec.keyword, spec.position) if spec is not None else None
        if arg is not None:
            if is_none(arg.value):
                self._client_timeouts[name] = ("infinite", None)
            else:
                self._client_timeouts[name] = ("value", value_text(arg.value))

    def _receiver_key(self, receiver: cst.BaseExpression) -> str | None:
        """``client`` / ``self.client``, or ``self._client()`` / ``_http()`` (a helper's return value, no arguments)."""
        if isinstance(receiver, cst.Call) and not receiver.args:
            name = dotted(receiver.func)
            return f"{name}()" if name is not None and name.count(".") <= 1 else None
        return self._client_key(dotted(receiver))

    def _client_key(self, name: str | None) -> str | None:
        """``self.client`` holds for the whole class; a local name only in its function."""
        if name is None or name.startswith("self."):
            return name
        fn = self.names.function
        return f"{id(fn)}:{name}" if fn is not None else name

    def leave_With(self, node: cst.With) -> None:
        if self._scope_nodes and self._scope_nodes[-1] == id(node):
            self._scope_nodes.pop()
            self._scopes -= sum(
                1 for item in node.items
                if isinstance(item.item, cst.Call) and self.names.qualname(item.item.func) in self.knowledge.timeout_scopes
            )

    def visit_Call(self, node: cst.Call) -> None:
        self.clients.mark(node)
        enclosing = self.names.function  # every call: the effects model classifies the calls of untracked defs too
        if isinstance(enclosing, cst.FunctionDef) and read_named(enclosing.name.value):
            self.read_named.add(id(node))
        fn = self._current()
        if fn is None:
            return
        handler = self.names.handler  # ``errors.append({"error": str(e)})`` (``_COLLECTING``), the list returned after
        if handler is not None and self.text is not None and self.names.function is fn and isinstance(node.func, cst.Attribute) \
                and node.func.attr.value in _COLLECTING and any(self.text.leak(a.value) is not None for a in node.args):
            self._text_assigned.setdefault(id(fn), set()).add(id(handler.node))
        self.owner[id(node)] = id(fn)
        place = self.places.get(id(fn))
        qn = self.names.qualname(node.func)
        inner = self.names.function
        if local_process(node, qn, inner if isinstance(inner, cst.FunctionDef) else fn):
            self.local_processes.add(id(node))
        if place is not None and id(node) not in self._decorating:
            place.add("local" if id(node) in self.local_processes else call_place(
                node, self.names, self.knowledge, self.ctx.screen.import_roots, place.nested, place.bound, place.values,
                place.typed, self.module))
        if keyword_arg(node, "budget") is not None or (qn or "").rsplit(".", 1)[-1] == "Budget":
            self.budget.add(id(fn))
        # a method of an SDK client object: listed and classified from the clients table (built elsewhere: unclassified)
        hit = self.clients.call(node) or self.clients.sdk_call(node, (qn or "") in self.knowledge.timeouts)
        if hit is not None:
            self.client_calls.setdefault(id(fn), []).append((node, *hit))
            return
        if qn is None:
            return
        k = self.knowledge
        if qn in k.timeout_wrappers:
            self._scopes += 1
            self._scope_nodes.append(id(node))
        if qn in kb.TOOL_NOT_EXTERNAL:
            return
        status, value = "", None
        spec = k.timeouts.get(qn)
        if spec is not None:
            arg = argument(node, spec.keyword, spec.position)
            if arg is not None:
                if is_none(arg.value):
                    status = "infinite" if spec.none_is_infinite else "default"
                else:
                    value = value_text(arg.value)
                    status = "value"
            elif has_star(node) and not star_without(fn, node, spec.keyword):
                given = star_default(fn, node, spec.keyword)
                if given is None:
                    status = "unknown"
                elif is_none(given):
                    status = "infinite" if spec.none_is_infinite else "default"
                else:
                    status, value = "value", value_text(given)
            elif self._scopes:
                status = "scope"
            elif isinstance(node.func, cst.Attribute) and self._receiver_key(node.func.value) in self._client_timeouts:
                status, value = self._client_timeouts[self._receiver_key(node.func.value) or ""]
            elif id(node) in self._reaps:
                status = "n/a"
            elif spec.required:
                status = "missing"
            else:
                status, value = "default", spec.default
        elif qn in k.needs_timeout_scope:
            status = "scope" if self._scopes else "missing"
        elif qn in kb.TOOL_PROCESS_CALLS:
            status = "none-possible"
        if status:
            self.calls.setdefault(id(fn), []).append((node, qn, status, value))
            # its class, read here when the effects model does not reach it (a nested ``def`` the helper runs)
            found = classify_call(node, self.names, k, {}, self.ctx.screen.import_roots)
            if found is None and qn in kb.CLIENT_FUNCTIONS:
                found = (kb.CLIENT_FUNCTIONS[qn], qn)
            if found is not None:
                self.call_class[id(node)] = found

    def leave_Call(self, node: cst.Call) -> None:
        if self._scope_nodes and self._scope_nodes[-1] == id(node):
            self._scope_nodes.pop()
            self._scopes -= 1

    def leave_Module(self, node: cst.Module) -> None:
        model: RetryModel = self.ctx.models[RetryModel]
        by_owner: dict[int, list[Retry]] = {}
        wanted = {id(v) for v in self.nodes.values()}
        for retry in model.retries:
            if retry.loop is not None and retry.loop.handlers and not any(catches_failure(h) for h in retry.loop.handlers):
                continue  # s57: a loop going round only on a cancellation (``while True: try: return await
                # asyncio.shield(task) except asyncio.CancelledError: ...``) awaits the same task again: no retry
            # around: a retry decorator on the tool or a helper, or a controller given it
            targets = [id(fn) for fn in model.retried_functions(retry) if id(fn) in wanted]
            inside = self.owner.get(id(retry.anchor))  # a retry loop or call inside one
            for fn_id in dict.fromkeys([*targets, *([inside] if inside is not None else [])]):
                by_owner.setdefault(fn_id, []).append(retry)
        for d in self.defs:
            fns = [self.nodes[k] for k in d.functions if k in self.nodes]
            if not fns:
                continue
            helpers = [self.nodes[k] for k in d.helpers if k in self.nodes]
            self.tools.append(self._row(d, fns, helpers, model, by_owner))
            self.fronts[id(self.tools[-1])] = d.functions[0]

    # rows -----------------------------------------------------------------

    def asked_elsewhere(self, text: str, spans: Sequence[tuple[int, int]]) -> bool:
        """A write a request helper sends because a caller hands it the method (TFH101's ``POST through
        httpx.Client.request, as the call of _send() at line 141 asks``, ``rules/retries/method_param.py``), when no
        call in ``spans`` (the row's functions and helpers) hands it a ``POST`` or ``PATCH``: the shared client's
        write branch is not this row's (``get_session_stats`` -> ``_get`` -> ``_send("GET", ...)``)."""
        m = _ASKED.search(text)
        if m is None:
            return False
        if self._literals is None:
            self._literals = literal_methods(self.ctx.screen.tree)
        return not any(site.method in ("POST", "PATCH") and any(start <= site.line <= end for start, end in spans)
                       for site in self._literals.get(m.group(1), ()))

    def _calls_out(self, fn: cst.FunctionDef, effects: list["Effect"]) -> bool:
        """Whether a same-module helper makes a call out of the process the row knows (as ``follow.join`` asks of a
        helper in another module before taking its failure modes)."""
        return bool(self.calls.get(id(fn)) or self.client_calls.get(id(fn))
                    or any(e.helper == fn.name.value for e in effects))

    def _row(self, d: Def, fns: list[cst.FunctionDef], helpers: list[cst.FunctionDef], model: RetryModel,
             by_owner: dict[int, list[Retry]]) -> Tool:
        tool = Tool(d.name, self.ctx.path, d.line, d.framework, d.form, d.qualname, "unknown", "unknown", "",
                    spans=[*d.spans, *d.helper_spans], demo=d.demo)
        effects = []
        for fn in fns:
            effects.extend(model.function_effects(fn))
        # a POST sent by a function named as a read (``def serper_search(query)``): a query (as TFH101, READ_POST_...)
        effects = [replace(e, cls=kb.READ_SAFE) if read_post(e.cls, e.what, id(e.node) in self.read_named) else e
                   for e in effects]
        by_node = {id(e.node): e for e in effects}
        # calls out: every classified call and every call the timeout tables know, here and one level down; not the
        # tool's own decorator calls (``@server.call_tool()`` registers it)
        registering = {id(x.decorator) for f in (*fns, *helpers) for x in f.decorators if isinstance(x.decorator, cst.Call)}
        effects = [e for e in effects if id(e.node) not in registering]
        seen: set[int] = set(registering)
        for fn, helper in [*((f, None) for f in fns), *((h, h.name.value) for h in helpers)]:
            if helper is not None and self.declared.get(id(fn)) in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                continue
            for call, qn, status, value in self.calls.get(id(fn), []):
                if id(call) in seen:
                    continue
                seen.add(id(call))
                e = by_node.get(id(call))
                own = self.call_class.get(id(call))
                if own is not None and read_post(own[0], own[1], id(call) in self.read_named):
                    own = (kb.READ_SAFE, own[1])
                tool.calls.append(CallFact(e.what if e else own[1] if own else qn, e.cls if e else own[0] if own else None,
                                           status, value, bool(e and e.keyed), helper,
                                           local=id(call) in self.local_processes))
        client_facts: list[CallFact] = []
        tool_sdk: set[int] = set()  # the constructor lines of the SDK clients it calls through
        for fn, helper in [*((f, None) for f in fns), *((h, h.name.value) for h in helpers)]:
            if helper is not None and self.declared.get(id(fn)) in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                continue
            for call, what, cls in self.client_calls.get(id(fn), []):
                if id(call) not in seen:
                    seen.add(id(call))
                    line, status = self.clients.sdk_calls.get(id(call), (0, "unknown"))
                    tool_sdk.add(line)
                    client_facts.append(CallFact(what, cls, status, None, False, helper))
                    if line and (line, line) not in tool.spans:  # the client's constructor's findings (TFH201) too
                        tool.spans.append((line, line))
            # on what a function of the run returns (``get_client(t).services.get(slug)``): settled at the join
            client_facts += [CallFact(w, None, "unknown", None, False, helper)
                             for c, w in self.clients.returned.items() if self.owner.get(c) == id(fn)]
        tool.calls.extend(client_facts)
        for e in effects:
            if id(e.node) not in seen and isinstance(e.node, cst.Call):
                seen.add(id(e.node))
                tool.calls.append(CallFact(e.what, e.cls, "n/a" if e.what.endswith("()") and "." not in e.what else "unknown",
                                           None, e.keyed, e.helper))
        # a write another caller of a shared request helper asks for: listed, not this row's class
        tool.calls = [replace(c, cls=None) if c.cls is not None and self.asked_elsewhere(c.what, tool.spans) else c
                      for c in tool.calls]
        effects = [e for e in effects if not self.asked_elsewhere(e.what, tool.spans)]
        # classification: declared, configured, inferred, unknown (an annotation helper of the run: at the join)
        tool.annotated = self._annotation_helper(fns[0]) if fns else None
        declared = next((self.declared[id(fn)] for fn in fns if id(fn) in self.declared), None)
        configured = self.knowledge.classify.get(d.qualname)
        if declared is not None:
            tool.classification, tool.source = declared, "declared"
            dec = fns[0].decorators
            tool.evidence = "MCP annotations" if d.framework == "mcp" and d.form != "@read_safe" and any(
                isinstance(x.decorator, cst.Call) and keyword_arg(x.decorator, "annotations") for x in dec
            ) else "decorator"
        elif configured is not None:
            tool.classification, tool.source, tool.evidence = configured, "configured", "classify"
        else:
            classified = [(e.cls, e.what, e.helper) for e in effects if e.cls in _ORDER]
            dispatchers = method_dispatchers(tool.calls)  # a helper sending GET or POST as its caller says
            classified = [e for e in classified if e[2] not in dispatchers]
            classified += [(c.cls, c.what, c.helper) for c in tool.calls
                           if c.cls in _ORDER and c.helper not in dispatchers]  # clients', nested defs'
            if classified:
                cls, what, helper = min(classified, key=lambda e: _ORDER.index(e[0] or ""))
                tool.classification, tool.source = cls or "unknown", "inferred"
                tool.evidence = what + (f" in {helper}()" if helper else "")
        # idempotency key
        if tool.classification in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
            tool.key = "not-needed"
        elif tool.classification in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE):
            writes = [e.keyed for e in effects if e.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
            writes += [c.keyed for c in tool.calls if c.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
            tool.key = "present" if writes and all(writes) else "missing"
        # retries around or inside it (and in its helpers), and those wrapping its SDK clients' methods
        tool.retries += [_retry_fact(r, w) for r, w in self.clients.wrapper_retries(model.retries, tool_sdk)]
        for fn, helper in [*((f, None) for f in fns), *((h, h.name.value) for h in helpers)]:
            tool.retries += [_retry_fact(r, helper) for r in by_owner.get(id(fn), [])] + status_recursions(fn, helper, self._status)
            if id(fn) in self.budget:
                tool.budget = True
        # how failures reach the model (the tool's own functions)
        modes: list[str] = []
        going_round = {id(h) for rs in by_owner.values() for r in rs if r.loop is not None for h in r.loop.handlers}
        caught_anywhere = False
        mine = {id(f) for f in fns}
        local = {f"{self.module}.{p}": node for (p, _n), node in self.nodes.items()}
        tool.raises = always_raises(fns[0], self.names, self.knowledge) if is_summary(d) else None
        if not any(id(h) not in mine for h in helpers):
            self.direct.add(id(tool))
        for fn in [*fns, *helpers]:  # the same functions the findings are attributed by
            if id(fn) not in mine and not self._calls_out(fn, effects):
                continue  # a same-module helper that calls nothing out (a URL builder's ``except: return None``)
            # a handler of a retry loop sends the call round again; what follows the loop decides
            handlers = [h for h in self.handlers.get(id(fn), []) if id(h) not in going_round]
            for h in handlers:
                mode = handler_mode(h, self.names, self.knowledge, text=id(h) in self.text_handlers,
                                    typed=id(h) in self.typed_handlers,
                                    bound=self.try_bound.get(id(h), frozenset()))
                if (mode in ("fallback", "swallowed") or (mode == "typed" and id(h) in self.typed_handlers)) \
                        and id(h) in self.local_handlers:
                    continue  # ``int(port)``'s ValueError, a local parse (``{"status_code": r.status_code}`` when the
                    # body is no JSON): no failure of anything outside
                if mode == "swallowed" and (id(h) in self.side_steps or id(h) in self.pre_steps):
                    continue  # a best-effort step inside a ``try`` whose own handler answers the tool's failure
                    # (``try: await el.clear_input() except Exception: pass`` before typing): not the tool's answer
                if mode == "swallowed" and id(h) in self.per_item:  # one item skipped: the tool's other failures
                    modes += [] if mode in modes else [mode]  # are not caught by it
                    continue
                caught_anywhere = True
                handed = handed_to(h, self.names, self.module) if mode == "swallowed" else None
                if handed is not None and handed in local:  # ``raise_tool_error(e)``: what that helper raises
                    mode = always_raises(local[handed], self.names, self.knowledge) or mode
                elif handed is not None and not is_summary(d):  # another module's helper: settled at the join
                    tool.raisers.append((handed, d.caught_by))
                    continue
                if mode not in modes:
                    modes.append(mode)
            out = id(fn) not in mine or self.calls.get(id(fn)) or self.client_calls.get(id(fn))
            if out and "swallowed" not in modes and status_swallowed(fn):
                modes.append("swallowed")  # ``if r.status_code != 200: logger.error(...)``, then its usual answer
            if out and "typed" not in modes and status_typed(fn):
                modes.append("typed")  # ``if r.status_code != 200: return {"error": f"HTTP {r.status_code}"}``
            if returns_tool_error(self.exits.get(id(fn), []), self.names, self.knowledge) and "typed" not in modes:
                modes.append("typed")
        if not caught_anywhere and "raised" not in modes:
            modes.insert(0, "raised")
        if not caught_anywhere:
            self.uncaught.add(id(tool))
        if d.caught_by is not None and "raised" in modes:  # the framework's base ``run`` turns it into text
            modes = list(dict.fromkeys("text" if m == "raised" else m for m in modes))
            tool.failures_by = d.caught_by
        tool.failures = modes
        tool.local = None if all(placeholder(f) for f in fns) else row_place(
            [self.places.get(id(f)) for f in [*fns, *helpers]], frozenset(f.name.value for f in [*fns, *helpers]),
            self.module)
        return tool


_ASKED = re.compile(r", as the call of (\w+)\(\) at line \d+ asks")
