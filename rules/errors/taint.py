"""The taint of a caught exception's text: which sub-expression of a value turns the exception into text.

:class:`TextTaint` is the base of ``text.py``'s :class:`~.text.ExceptionText`: the names that hold the
text or the exception per function, and :meth:`TextTaint._leak`, which follows the text through
containers, string methods, text builders, result objects' constructors and one level into a
same-module helper, and stops at any other call's result, a ToolError constructor, a web response,
a typed error event (a discriminator beside the text) or a re-prompt of a parser-only handler; and
the two places where the text is the product (a ``try`` that runs the model's code in process,
format-repair feedback).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import FileContext, handler_types, last_name, string_literal, walk_in_scope
from .kinds import BARE, classified_keys, formats_kind, typed_returns
from .assigned import telemetry_key
from .model import ErrorModel, has_words, words
from .input_check import checks_model_input
from .refusals import catches_own_refusals
from .own_raises import raises_only_own_builtins
from .exception_nodes import class_name, class_name_of, passes_exception, value_children


#: s56 (issue 24): how many same-module helpers deep a text is followed into returns. Two: an error formatter handed
#: the exception often hands its payload on to a serialiser or a result builder of its module (elate's
#: ``_fail(exc)`` -> ``return _json(payload)``, api-to-mcp-forge's ``_err(code, msg)`` -> ``return _res({...}, True)``)
FOLLOW_DEPTH = 2


class TextTaint:
    """The names holding a caught exception's text and the text's taint (the base of :class:`~.text.ExceptionText`)."""

    def __init__(self, ctx: FileContext) -> None:
        self.errors: ErrorModel = ctx.models[ErrorModel]
        self.names = ctx.names
        self.knowledge = ctx.knowledge
        self.path = ctx.path
        self.refusals: dict[int, bool] = {}  # id of a handler -> it catches only the project's own refusals
        # names holding exception text, per enclosing function (id of the def/lambda; 0: module level)
        self.taints: dict[int, set[str]] = {}
        # names bound to the exception object itself (``error = e``), per function: ``str(error)`` is its text too
        self.aliases: dict[int, set[str]] = {}
        self.format_repair: dict[int, bool] = {}  # id of a handler -> it hands back format-repair feedback
        self.code_runs: dict[int, bool] = {}  # id of a try -> runs code the model wrote
        self.carries: dict[tuple[int, str, bool, frozenset[str], int, int], bool] = {}  # (id of helper, parameter, is the exception) -> carries it
        # inside a helper's returns: how many helpers deep (s56: two, a formatter's ``return _json(payload)``)
        self.following = 0
        self.follow_depth = FOLLOW_DEPTH  # s56: one where the callers of a formatter live in other modules
        self._foreign = False  # following a helper read from another module: its names are not this module's
        self._extra: frozenset[str] = frozenset()  # a helper's parameter, while following one
        # s54: a helper's parameters that the call being followed gives no kind (the exception's class name, a
        # catch-all code, nothing): ``err(str(exc), code=exc.__class__.__name__)`` of ``{"code": code, ...}``
        self._untyped: frozenset[str] = frozenset()
        self.stored: frozenset[str] = frozenset()  # while reading a method's return: ``self``'s attributes holding text
        self.classifiers: dict[int, frozenset[str]] = {}  # id of a helper -> the keys it classifies under (:mod:`.kinds`)
        self.any_classifier: bool | None = None  # the module has a classifier (:meth:`_has_classifier`)
        self.bound: dict[int, dict[str, list[cst.BaseExpression]]] = {}  # id of a def -> :meth:`_bound_values`

    def in_tool(self) -> bool:
        """The function being visited is a tool (:class:`~.text.ExceptionText` knows; none here)."""
        return False

    def _report_record(self, func: cst.BaseExpression) -> bool:
        """``EvaluationResult(...)``, ``HealthReport(...)``: a constructor named for an evaluation, a benchmark, a health
        check or diagnostics (``REPORT_NAME_WORDS``) builds the harness's record, which a report reads; in a tool it
        is still the tool's result."""
        name = last_name(func) or ""
        return name[:1].isupper() and bool(words(name) & self.knowledge.report_name_words) and not self.in_tool()

    # ------------------------------------------------------------ queries

    @property
    def tainted(self) -> set[str]:
        """Names that hold exception text in the function being visited."""
        func = self.names.function
        return self.taints.setdefault(id(func) if func is not None else 0, set())

    @property
    def aliased(self) -> set[str]:
        """Names bound to a caught exception object in the function being visited (``error = e``)."""
        func = self.names.function
        return self.aliases.setdefault(id(func) if func is not None else 0, set())

    def exceptions(self) -> set[str]:
        """The names that hold a caught exception here: the handlers' ``as`` names and their aliases."""
        own = set()  # s48: a handler of the project's own refusals binds no exception text (:mod:`.refusals`)
        for h in self.names.handlers:
            if h.name is not None:
                key = id(h.node)
                if key not in self.refusals:
                    self.refusals[key] = catches_own_refusals(self.names, self.path, h.node) or checks_model_input(
                        self.errors, self.names.function, h, self.in_tool()) or raises_only_own_builtins(self.errors, h)
                if self.refusals[key]:
                    own.add(h.name)
        return (self.errors.exception_names() - own) | self.aliased

    # ------------------------------------------------------------ the taint

    def _runs_code(self, statement: cst.Try | cst.TryStar) -> bool:
        """The ``try`` runs code the model wrote in this process (``exec``/``eval``, a REPL's ``run_cell``): the
        exception is that program's own error, the product. A code-running call that reaches outside (a sandbox
        or container SDK, an awaited ``run_code``) raises the infrastructure's errors instead: not exempt."""
        key = id(statement)
        if key not in self.code_runs:
            k = self.knowledge
            found = False
            awaited = {id(n.expression) for n in walk_in_scope(statement.body) if isinstance(n, cst.Await)}
            for n in walk_in_scope(statement.body):
                if isinstance(n, cst.Call):
                    name = last_name(n.func) or ""
                    if isinstance(n.func, cst.Name) and name in k.code_running_builtins and self.names.is_builtin(name):
                        found = True
                    elif self.names.qualname(n.func) in k.code_running_calls:
                        found = True
                    elif has_words(name, k.code_running_name_parts):
                        found = id(n) not in awaited and not self.errors.reaches_outside(n)
                    if found:
                        break
            self.code_runs[key] = found
        return self.code_runs[key]

    def _format_repair(self, handler: cst.ExceptHandler | cst.ExceptStarHandler,
                       statement: cst.Try | cst.TryStar | None = None) -> bool:
        """The handler catches only format errors (``JSONDecodeError``, pydantic's ``ValidationError``...: resolved
        through the imports) around a parse of data in memory (no call in the ``try`` reaches outside): the text
        is the feedback the model needs to fix its own output. ``statement``: the handler's ``try`` (default: the
        handler being visited's; s53: a helper's handler read from its call)."""
        key = id(handler)
        if key not in self.format_repair:
            types = handler_types(handler)
            k = self.knowledge
            kinds: list[str | None] = []
            for t in types:
                if isinstance(t, cst.Name) and t.value in k.format_error_builtins and self.names.is_builtin(t.value):
                    kinds.append("format")  # SyntaxError: ast.parse / compile of the model's code
                    continue
                q = self.names.qualname(t) if isinstance(t, cst.BaseExpression) else None
                q = k.canonical(q) if q is not None else None
                kinds.append("format" if q in k.format_errors else "arguments" if q in k.argument_validation_errors
                             else None)
            if statement is None:
                statement = self.names.handler.statement if self.names.handler is not None else None
            if not kinds or None in kinds or statement is None:
                self.format_repair[key] = False
            elif all(kind == "arguments" for kind in kinds):
                self.format_repair[key] = True  # raised by the SDK before any request: the model's own arguments
            else:
                self.format_repair[key] = not self.errors.tool_like(statement.body)
        return self.format_repair[key]

    def _helper_carries(self, call: cst.Call, exc: set[str]) -> bool:
        """``make_error(f"failed: {e}")``, ``self._error_json(str(e))``: a same-module helper whose result carries the text."""
        if self.following >= self.follow_depth or (self.following and self._foreign):
            return False  # s56: a second helper only inside a helper of this module (names resolve in this module)
        # the second helper is the module's own (a serialiser, a result builder), never read from disk
        defs, method = self.errors.helpers_of(call, imported=not self.following)
        if not defs:
            return False
        own = self.errors.helpers_of(call, imported=False)[0] if not self.following else defs
        for i, arg in enumerate(call.args):
            obj = isinstance(arg.value, cst.Name) and arg.value.value in exc  # the exception itself
            if arg.star or (obj and self.following) or not (obj or self._leak(arg.value, exc) is not None):
                continue  # s56: the second helper is followed with the text a formatter built, not the exception
                # (``_describe(e)`` in a formatter is s49's: the formatter's own ``return`` is reported)
            for d in defs:
                params = [*d.params.posonly_params, *d.params.params]
                if method and params and params[0].name.value in ("self", "cls"):
                    params = params[1:]
                if arg.keyword is not None:
                    name = arg.keyword.value
                elif i < len(params):
                    name = params[i].name.value
                else:
                    continue
                foreign, self._foreign = self._foreign, not any(d is o for o in own)
                try:
                    if self._carries(d, name, obj, self._untyped_params(call, d, params, exc)):
                        return True
                finally:
                    self._foreign = foreign
        return False

    def _untyped_params(self, call: cst.Call, helper: cst.FunctionDef, positional: list[cst.Param],
                        exc: set[str]) -> frozenset[str]:
        """s54 (issue 24): the helper's parameters ``call`` gives no kind (the exception's class name, a catch-all
        code, ``None``, or a default of those: ``err(str(exc), code=exc.__class__.__name__)``); a discriminator that
        is one types nothing for this call (as in place, s43); ``code="NOT_FOUND"`` is a kind the caller chose."""
        given: dict[str, cst.BaseExpression] = {}
        for i, arg in enumerate(call.args):
            if arg.star:
                return frozenset()  # ``**kwargs``: what binds where is not read
            if arg.keyword is not None:
                given[arg.keyword.value] = arg.value
            elif i < len(positional):
                given[positional[i].name.value] = arg.value
        out: set[str] = set()
        params = helper.params
        for p in (*params.posonly_params, *params.params, *params.kwonly_params):
            value = given.get(p.name.value, p.default)
            if value is None or (isinstance(value, cst.Name) and value.value == "None") \
                    or self.class_name_of(value, exc) or self._bound_to_class_name(value, exc) \
                    or self._catch_all_code(value):
                out.add(p.name.value)
        return frozenset(out)

    def _carries(self, helper: cst.FunctionDef, param: str, obj: bool,
                 untyped: frozenset[str] = frozenset()) -> bool:
        """Whether the helper returns its ``param`` as text (``obj``: the parameter is the exception itself;
        ``untyped``: its parameters the call gives no kind, :meth:`_untyped_params`)."""
        key = (id(helper), param, obj, untyped, self.following, self.follow_depth)  # s56: what is followed depends on the depth
        if key not in self.carries:
            self.carries[key] = False
            saved = self._untyped
            self.following += 1
            self._untyped = untyped - {param}
            exc, extra = ({param}, frozenset()) if obj else (set(), frozenset({param}))
            try:
                extra = self._local_text(helper, exc, extra)
                typed = typed_returns(helper, lambda d: self._discriminated(d, exc))  # s52: out.update({"code": ...})
                for n in walk_in_scope(helper.body):
                    if isinstance(n, cst.Return) and n.value is not None and id(n) not in typed:
                        if self._leak(n.value, exc, extra=extra) is not None:
                            self.carries[key] = True
                            break
            finally:
                self.following -= 1
                self._untyped = saved
        return self.carries[key]

    def _local_text(self, helper: cst.FunctionDef, exc: set[str], extra: frozenset[str]) -> frozenset[str]:
        """``extra`` and the helper's local names assigned the text (``text = str(error) or ...``, ``msg =
        f"Error: {exception}"``) or a container filled with it (``response["error"] = text``,
        ``response.update(...)``, ``lines.append(...)``), to a fixed point: what its ``return`` may hand back."""
        names = set(extra)
        assigns: list[tuple[str, cst.BaseExpression]] = []
        fills = self.knowledge.container_filling_methods
        for n in walk_in_scope(helper.body):
            if isinstance(n, cst.Assign) and len(n.targets) == 1:
                target = n.targets[0].target
                if isinstance(target, cst.Name):
                    assigns.append((target.value, n.value))
                elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and not telemetry_key(target):
                    assigns.append((target.value.value, n.value))  # response["error"] = str(error)
            elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.value is not None:
                assigns.append((n.target.value, n.value))
            elif isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name):
                assigns.append((n.target.value, n.value))
            elif (
                isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name)
                and n.func.attr.value in fills
            ):
                for a in n.args:  # response.update({"detail": str(error)}), lines.append(msg)
                    assigns.append((n.func.value.value, a.value))
        for _ in range(3):
            grown = False
            for name, value in assigns:
                if name not in names and self._leak(value, exc, extra=frozenset(names)) is not None:
                    names.add(name)
                    grown = True
            if not grown:
                break
        return frozenset(names)

    def _unread_keywords(self, node: cst.CSTNode) -> frozenset[str]:
        """A message constructor's keywords kept beside the message, not sent to the model (``ToolMessage(...,
        additional_kwargs=...)``); none for any other node."""
        if isinstance(node, cst.Call):
            qn = self.names.qualname(node.func)
            if qn is not None and self.knowledge.canonical(qn) in self.knowledge.message_constructors:
                return self.knowledge.message_unread_keywords
        return frozenset()

    _passes_exception = staticmethod(passes_exception)

    def _text_call(self, call: cst.Call) -> bool:
        """Whether the exception text flows through this call into its result."""
        func = call.func
        k = self.knowledge
        qn = self.names.qualname(func)
        if qn is not None and qn in k.text_building_calls:
            return True
        if words(last_name(func) or "") & k.text_passing_call_words:
            return True  # normalize_response(MCPResponse(error=str(e))): a normaliser reshapes, the text stays
        if isinstance(func, cst.Name):
            if func.value in k.text_passing_builtins and self.names.is_builtin(func.value):
                return True
            if self._failed_result_factory(func.value):
                return True  # error_response(f"...{e}") / tool_error(str(e)): a function building the failed result
            return func.value[:1].isupper()  # a result object's constructor
        if isinstance(func, cst.Attribute):
            if isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                return True  # "sep".join([...])
            if func.attr.value in k.text_passing_methods:
                return True  # template.format(error=str(e))
            if words(func.attr.value) & k.result_failure_factory_words and class_name(func.value):
                # ToolResponse.error(message=str(e)), MCPError.tool_error(...): a failure factory of a class (or a
                # factory) named for a tool's result; an RPC answer's (ActionResponse.error: langbot's plugin
                # runtime actions) or another class's factory may build anything
                named = words(last_name(func.value) or "") | words(func.attr.value)
                if named & k.result_failure_factory_class_words:
                    return True
                # AskUserQuestionOutput.error_response(f"...{e!s}") in tools/: the factory's name says a failed result
                return self._failed_result_factory(func.attr.value)
            return func.attr.value[:1].isupper()
        return False

    def _failed_result_factory(self, name: str) -> bool:
        """A factory named for a failed result (``error_response``, ``error_result``, ``tool_error``: a failure word
        and a result or tool word) in a module with tool evidence (:meth:`_tool_module`)."""
        k = self.knowledge
        named = words(name)
        return bool(named & k.result_failure_factory_words and named & k.result_failure_factory_result_words) \
            and self._tool_module()

    def _tool_module(self) -> bool:
        """The module says its functions feed tools' answers (overridden where the module is read)."""
        return False

    def _reprompt(self, node: cst.CSTNode) -> bool:
        """Text going back to the model as a message (``retry_messages=[...]``, ``ChatMessage(...)``)."""
        if isinstance(node, cst.Arg) and node.keyword is not None:
            return self.knowledge.reprompt_keyword_part in node.keyword.value.lower()
        if isinstance(node, cst.Call):
            return (last_name(node.func) or "").endswith(self.knowledge.reprompt_call_suffix)
        return False

    def says_kind(self, value: cst.BaseExpression) -> bool:
        """A returned dict or result object that says what kind of failure it is, as TFH401 reads it: a discriminator
        with a kind (``code=ToolErrorCode.TIMEOUT``, ``"status": e.status_code``), not a constant catch-all
        code (``INTERNAL_ERROR``); ``smullyan tools`` reads such a handler as ``typed`` (its failures column and
        TFH401 agree, ``linter/tools/failures.py``)."""
        return isinstance(value, (cst.Dict, cst.Call)) and self._discriminated(value, self.exceptions())

    def _discriminated(self, node: cst.Dict | cst.Call, exc: set[str]) -> bool:
        """A dict or constructor that says what kind of failure it is (``error_type=``, ``"code": ...``,
        ``"type": "server_error"``, ``e.status_code``) beside the text; the exception's class name is none."""
        k = self.knowledge
        pairs: list[tuple[str | None, cst.BaseExpression]] = []
        starred = 0
        if isinstance(node, cst.Dict):
            pairs = [(string_literal(el.key), el.value) for el in node.elements if isinstance(el, cst.DictElement)]
        else:
            starred = next((i for i, a in enumerate(node.args) if a.star), len(node.args))
            pairs = [(a.keyword.value if a.keyword is not None else None, a.value) for a in node.args]
        signature: list[str | None] | None = None
        for i, (key, value) in enumerate(pairs):
            if self.class_name_of(value, exc) or self._bound_to_class_name(value, exc):
                continue  # s43: the exception's own class name is no kind the program chose (see the docs)
            if self.following and isinstance(value, cst.Name) and value.value in self._untyped:
                continue  # s54: a helper's parameter the followed call fills with no kind (:meth:`_untyped_params`)
            if self._kind_of(value, exc):
                return True
            if key is None and isinstance(node, cst.Call) and i < starred \
                    and isinstance(value, (cst.SimpleString, cst.Name, cst.Attribute)):
                if signature is None:
                    signature = self._positional_signature(node)
                key = signature[i] if i < len(signature) else None
                if key is None and self._kind_literal(value):
                    return True  # no signature in the run: ``fail(str(e), "permission_error")``
            if key is None or self._leak_free(value, exc) is False:
                continue
            norm = key.lower().replace("-", "_")
            if norm in k.model_response_keys and string_literal(value) is not None:
                return True  # s45: a model's response typed by its stop reason (a literal), the assistant's turn
            if norm in k.error_discriminator_keys or norm.replace("_", "") in k.error_discriminator_keys:
                if not self._catch_all_code(value):
                    return True
            text = (string_literal(value) or "").lower()
            if norm == "type" and text.endswith(("error", "exception")) and text not in ("error", "exception"):
                return True  # "server_error", "RateLimitError": a kind; the bare "error" says only that it failed
        return False

    def _positional_signature(self, call: cst.Call) -> list[str | None]:
        """The parameter each positional argument binds, by the callee's signature where the run has it (a
        parameter named differently by two definitions binds none)."""
        sigs = self.errors.positional_names(call)
        if not sigs:
            return []
        out: list[str | None] = []
        for i in range(max(len(s) for s in sigs)):
            names = {s[i] if i < len(s) else None for s in sigs}
            out.append(names.pop() if len(names) == 1 else None)
        return out

    def _kind_literal(self, value: cst.BaseExpression) -> bool:
        """A positional string that names a kind of error (``"permission_error"``, ``"RateLimitError"``: one
        identifier ending in ``error``/``exception``, not a catch-all such as ``"execution_error"``), read as a
        kind where the callee's signature is not in the run."""
        text = string_literal(value) or ""
        if not text.isidentifier() or not text.lower().endswith(("error", "exception")):
            return False
        return text.lower() not in ("error", "exception") and not self._catch_all_code(value)

    def catch_all_code(self, value: cst.BaseExpression) -> bool:
        """:meth:`_catch_all_code`, for a code read apart from its dict (s49: a JSON-RPC error's, :mod:`.jsonrpc`)."""
        return self._catch_all_code(value)

    def text_of(self, value: cst.BaseExpression, exc: set[str]) -> cst.CSTNode | None:
        """The sub-expression of ``value`` that turns one of ``exc`` into text (:meth:`_leak`), or None."""
        return self._leak(value, exc)

    def _catch_all_code(self, value: cst.BaseExpression) -> bool:
        """A constant code that says only that something failed (``ToolErrorCode.INTERNAL_ERROR``, ``"error"``,
        ``UNKNOWN``): the same for every failure, it does not type one (``GENERIC_ERROR_CODE_WORDS``)."""
        k = self.knowledge
        text = string_literal(value)
        if text is None:
            name = last_name(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
            if name is None or not name.isupper():
                return False  # a variable, a call, a number: not known to be a catch-all
            text = name
        return self._catch_all_text(text)

    def _catch_all_text(self, text: str) -> bool:
        k = self.knowledge
        kept = words(text) - k.generic_error_code_filler
        return bool(words(text)) and kept <= k.generic_error_code_words

    def _leak_free(self, value: cst.BaseExpression, exc: set[str]) -> bool:
        """A value that does not carry the exception text (a discriminator must not be the text itself)."""
        return self._leak(value, exc) is None

    class_name_of = staticmethod(class_name_of)

    def _bound_to_class_name(self, value: cst.BaseExpression, exc: set[str]) -> bool:
        """A local name the enclosing function binds only to the exception's class name (``error_type =
        type(e).__name__`` ... ``"error_type": error_type``: homeassistant-mcp's intent tool)."""
        func = self.names.function
        if not isinstance(value, cst.Name) or not isinstance(func, cst.FunctionDef):
            return False
        bound = self._bound_values(func, value.value)
        return bool(bound) and all(self.class_name_of(b, exc) for b in bound)

    def _bound_values(self, func: cst.FunctionDef, name: str) -> list[cst.BaseExpression]:
        """The values the function's own ``name = ...`` statements assign (one per ``Assign``, in walk order): its
        body walked once per function, not once per name asked (s50: a walk per dict value was 4% of the plugin)."""
        table = self.bound.get(id(func))
        if table is None:
            table = self.bound[id(func)] = {}
            for n in walk_in_scope(func.body):
                if isinstance(n, cst.Assign):
                    for target in dict.fromkeys(t.target.value for t in n.targets if isinstance(t.target, cst.Name)):
                        table.setdefault(target, []).append(n.value)
        return table.get(name, [])

    def _kind_of(self, value: cst.BaseExpression, exc: set[str]) -> bool:
        """``e.status_code``, ``e.code``, ``e.kind``: the failure's kind, as the remote end or the program classed it;
        s47: formatted into a field of its own (``f"upstream failure ({e.kind})"``), or a code of a same-module
        classifier of the exception (``_classify_error(e)``, ``info["code"]``, :mod:`.kinds`)."""
        attributes = self.knowledge.error_discriminator_attributes
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value in exc:
            return value.attr.value in attributes
        if formats_kind(value, exc, attributes):
            return self._leak(value, exc) is None  # the kind in a field of its own, not beside the text
        return isinstance(value, (cst.Call, cst.Name, cst.Subscript)) and self._has_classifier() \
            and self._classified(value, exc)

    def _has_classifier(self) -> bool:
        """Whether any same-module helper is a classifier (:mod:`.kinds`): once per file, so that a module without
        one pays nothing per value."""
        if self.any_classifier is None:
            self.any_classifier = any(self._classifier_keys(d) for defs in self.errors.helpers.values() for d in defs)
        return self.any_classifier

    def _classified(self, value: cst.BaseExpression, exc: set[str], key: str = BARE) -> bool:
        """``_classify_error(e)`` (``key``: ``info["code"]``'s ``"code"``), or a name the function binds only so."""
        if isinstance(value, cst.Subscript) and key == BARE and len(value.slice) == 1 \
                and isinstance(value.slice[0].slice, cst.Index):
            sub = string_literal(value.slice[0].slice.value)
            return sub is not None and sub != BARE and self._classified(value.value, exc, sub)
        if isinstance(value, cst.Call):
            if not any(isinstance(a.value, cst.Name) and a.value.value in exc for a in value.args):
                return False
            defs = self.errors.helpers_of(value, imported=False)[0]
            return bool(defs) and all(key in self._classifier_keys(d) for d in defs)
        func = self.names.function
        if not isinstance(value, cst.Name) or not isinstance(func, cst.FunctionDef):
            return False
        bound = self._bound_values(func, value.value)
        return bool(bound) and all(isinstance(b, cst.Call) and self._classified(b, exc, key) for b in bound)

    def _classifier_keys(self, helper: cst.FunctionDef) -> frozenset[str]:
        if id(helper) not in self.classifiers:
            self.classifiers[id(helper)] = classified_keys(helper, self._catch_all_text)
        return self.classifiers[id(helper)]

    def _is_exc_text(self, node: cst.BaseExpression, exc: set[str]) -> bool:
        """The exception object itself, its message attributes, or a tainted name."""
        if isinstance(node, cst.Name):
            return node.value in exc or node.value in self.tainted or node.value in self._extra
        if isinstance(node, cst.Subscript):
            node = node.value
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            return node.attr.value in self.stored  # s45: an attribute a handler of the class set to the text
        return (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value in exc
            and node.attr.value in self.knowledge.exception_args_attributes
        )

    def _mentions_exc(self, node: cst.BaseExpression, exc: set[str]) -> bool:
        if self._is_exc_text(node, exc):
            return True
        if isinstance(node, (cst.Tuple, cst.List)):
            return any(self._is_exc_text(el.value, exc) for el in node.elements)
        if isinstance(node, cst.Dict):
            return any(
                isinstance(el, cst.DictElement) and self._is_exc_text(el.value, exc) for el in node.elements
            )
        return False

    def _leak(self, node: cst.CSTNode, exc: set[str], extra: frozenset[str] | None = None) -> cst.CSTNode | None:
        """The sub-expression that turns the exception into text, if any (``extra``: names holding text)."""
        if extra is not None:
            saved, self._extra = self._extra, extra
            try:
                return self._leak(node, exc)
            finally:
                self._extra = saved
        if isinstance(node, cst.Name):
            return node if node.value in self.tainted or node.value in self._extra else None
        if isinstance(node, cst.Lambda):
            return None
        if isinstance(node, (cst.Dict, cst.Call)) and self._discriminated(node, exc):
            return None  # a typed error event: the text is only the detail
        if isinstance(node, cst.Attribute) or isinstance(node, cst.Subscript):
            if self._is_exc_text(node, exc):
                return node
        if isinstance(node, cst.Call):
            func = node.func
            qn = self.names.qualname(func)
            if qn is not None:
                if qn in self.knowledge.tool_error_constructors:
                    return None
                if self.knowledge.canonical(qn) in self.knowledge.web_response_calls:
                    return None  # a web response: the text goes to a browser or an HTTP client
                if qn in self.knowledge.traceback_formatters and self.names.handler is not None:
                    return node
            if self._report_record(func):
                return None  # an evaluation's record (EvaluationResult(content=str(e))): its harness reads it
            if isinstance(func, cst.Name) and func.value in ("str", "repr") and node.args:
                if self.names.is_builtin(func.value) and self._is_exc_text(node.args[0].value, exc):
                    return node
            if isinstance(func, cst.Name) and func.value == "type":
                return None
            if isinstance(func, cst.Attribute):
                if func.attr.value == "format" and any(self._is_exc_text(a.value, exc) for a in node.args):
                    return node
                if func.attr.value in ("__str__", "__repr__") and self._is_exc_text(func.value, exc):
                    return node
            if self._helper_carries(node, exc):
                return node
            if self._passes_exception(node, exc) and not (isinstance(func, cst.Name) and func.value == "getattr"):
                return None
            if not self._text_call(node):
                # f(str(e)) is not the exception text; str(e).strip() still is
                return self._leak(func, exc)
            if self.errors.parser_only() and self._reprompt(node):
                return None
        elif isinstance(node, cst.FormattedString):
            for part in node.parts:
                if isinstance(part, cst.FormattedStringExpression) and self._is_exc_text(part.expression, exc):
                    return node
        elif isinstance(node, cst.FormattedStringExpression):
            if self._is_exc_text(node.expression, exc):
                return node
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
            if isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                if self._mentions_exc(node.right, exc):
                    return node
        reprompt_ok = self.errors.parser_only()
        unread = self._unread_keywords(node)
        for child in value_children(node):
            if reprompt_ok and self._reprompt(child):
                continue
            if isinstance(child, cst.Arg) and child.keyword is not None and child.keyword.value in unread:
                continue  # a message's side data the model is not sent (``additional_kwargs=``, ``artifact=``)
            if isinstance(child, cst.BaseExpression) or isinstance(
                child, (cst.Arg, cst.Element, cst.BaseDictElement, cst.FormattedStringExpression)
            ):
                found = self._leak(child, exc)
                if found is not None:
                    return found
        return None
