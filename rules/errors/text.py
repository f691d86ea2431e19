"""The text of a caught exception: which expressions carry it, and which names hold it (TFH401's taint).

:class:`ExceptionText` is the second collector of the error-handling family
(``model.py``): a rule lists it after ``ErrorModel`` in its ``models``, and the
engine dispatches it in the same traversal, right after the resolver. Inside
an ``except ... as e`` handler (or wherever a name already holds the text) it
follows the text as it is assigned (``msg = str(e)``), put into a container
(``out["error"] = str(e)``, ``results.append(f"{e}")``, ``payload.update(...)``)
or augmented, per function; :meth:`ExceptionText.leak` says which
sub-expression of a value turns the exception into text:

- ``str(e)``, ``repr(e)``, ``f"...{e}"``, ``"%s" % e``, ``"{}".format(e)``,
  ``e.args[0]``, ``e.__str__()``, ``traceback.format_exc()``, or a name holding
  such text;
- through containers, string methods (``str(e).strip()``), text builders
  (``json.dumps``, ``"sep".join``), result objects' constructors (a capitalised
  callee, ``dict(...)``), and one level into a same-module helper that returns
  its parameter as text (``make_error(str(e))``, ``self._error_json(e)``);
- not through any other call's result (``f(str(e))``), nor into one of the
  runtime's ToolError constructors, a constructor that also gets the
  exception object (``ToolOutput(content=str(e), exception=e)``), or, in a
  handler catching only parser errors, a re-prompt to the model
  (``retry_messages=[...]``, ``ChatMessage(...)``).

No text is in play inside a function that produces text for telemetry or
serialisation (``_serialize_value``, ``format_*``), in a function or ``try``
that runs code the model wrote (``exec``, a REPL: that code's error is the
product). :func:`screen_lines` is the ``ast`` side.
"""

from __future__ import annotations

import ast
from functools import cached_property

import libcst as cst

from ...linter.api import FileContext, Knowledge, Screen, handler_types, last_name, walk_in_scope
from .model import ErrorModel, definitions, has_words, mentions

__all__ = ["ExceptionText", "screen_lines"]


# ---------------------------------------------------------------- the ast side


def _format_names(knowledge: Knowledge) -> frozenset[str]:
    """Last names of the traceback formatters (``format_exc``), for the screen."""
    return knowledge.memo(
        "tfh401.format_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.traceback_formatters)
    )


def _fills(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """``results.append(f"{e}")``: a container filled with something that mentions the exception."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in knowledge.container_filling_methods
        and any(mentions(a, name) for a in (*node.args, *(k.value for k in node.keywords)))
    )


def _message_ast(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """A message the model reads built with the exception (``ToolMessage(content=str(e))``, ``{"role": "tool", ...}``)."""
    if isinstance(node, ast.Call):
        lasts = knowledge.memo(
            "tfh401.message_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.message_constructors)
        )
        return last_name(node.func) in lasts and mentions(node, name)
    if isinstance(node, ast.Dict):
        pairs = {
            (k.value, v.value)
            for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
        }
        return bool(pairs & set(knowledge.message_dict_forms)) and mentions(node, name)
    return False


def _helpers_called(handler: ast.ExceptHandler, name: str) -> set[str]:
    """Names of functions or ``self``/``cls`` methods called with something that mentions the exception."""
    out: set[str] = set()
    for stmt in handler.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call) and any(mentions(a, name) for a in (*n.args, *(k.value for k in n.keywords))):
                f = n.func
                if isinstance(f, ast.Name):
                    out.add(f.id)
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                    out.add(f.attr)
    return out


def screen_lines(screen: Screen, knowledge: Knowledge) -> list[int]:
    """Handlers whose body returns, yields or assigns the exception (or formats anything), and the same-module
    helpers the text goes through (their definitions are read too)."""
    formats = bool(_format_names(knowledge) & screen.call_names)
    out: list[int] = []
    helpers: set[str] = set()
    for h in screen.handlers:
        if h.name is None and not formats:
            continue
        if any(
            isinstance(n, (ast.Return, ast.Yield, ast.Assign, ast.AugAssign, ast.AnnAssign))
            and n.value is not None
            and (formats or (h.name is not None and mentions(n.value, h.name)))
            # `x = e` keeps the object for a later `str(x)`; `return e` is a tool's result the framework stringifies
            and (not isinstance(n.value, ast.Name) or isinstance(n, (ast.Assign, ast.Return)))
            for stmt in h.body
            for n in ast.walk(stmt)
        ) or (h.name is not None and any(
            _fills(n, h.name, knowledge) or _message_ast(n, h.name, knowledge) for stmt in h.body for n in ast.walk(stmt)
        )):
            out.append(h.lineno)
            if h.name is not None:
                helpers.update(_helpers_called(h, h.name))
    returning = _returning_exception(screen)
    defs = definitions(screen.tree) if helpers or returning else []
    if helpers:
        out += [d.lineno for d in defs if d.name in helpers]
    if returning:
        # callers of a helper that returns the exception it caught: `result = self._run()` ... `str(result)`
        out += [
            d.lineno
            for d in defs
            if d.name in returning or any(isinstance(n, ast.Call) and last_name(n.func) in returning for n in ast.walk(d))
        ]
    return out


def _returning_exception(screen: Screen) -> set[str]:
    """Names of the definitions with a handler that returns the exception object it caught (``return e``)."""
    lines = {
        h.lineno
        for h in screen.handlers
        if h.name is not None
        and any(isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id == h.name
                for stmt in h.body for n in ast.walk(stmt))
    }
    if not lines:
        return set()
    return {
        d.name for d in definitions(screen.tree)
        if any(d.lineno <= line <= (d.end_lineno or d.lineno) for line in lines)
    }


# ---------------------------------------------------------------- the collector


class ExceptionText:
    """Per-file taint of a caught exception's text (an engine model; needs :class:`ErrorModel` built first)."""

    def __init__(self, ctx: FileContext) -> None:
        self.errors: ErrorModel = ctx.models[ErrorModel]
        self.names = ctx.names
        self.knowledge = ctx.knowledge
        # names holding exception text, per enclosing function (id of the def/lambda; 0: module level)
        self.taints: dict[int, set[str]] = {}
        # names bound to the exception object itself (``error = e``), per enclosing function: ``str(error)``
        # after the handler is the text as much as ``str(e)`` inside it
        self.aliases: dict[int, set[str]] = {}
        self.format_repair: dict[int, bool] = {}  # id of a handler -> it hands back format-repair feedback
        self.returned_exceptions: dict[int, bool] = {}  # id of a helper -> it returns the exception it caught
        self.code_runs: dict[int, bool] = {}  # id of a try -> runs code the model wrote
        self.carries: dict[tuple[int, str, bool], bool] = {}  # (id of helper, parameter, is the exception) -> carries it
        self.following = False  # inside a helper's returns: one level only
        self._extra: frozenset[str] = frozenset()  # a helper's parameter, while following one
        self.where: dict[int, str | None] = {}  # id of a def -> "endpoint" | "cli" | "tool" | None (see :meth:`audience`)
        self._classes: list[cst.ClassDef] = []  # the classes being visited (a method's class: tool base classes)
        self._owner: dict[int, cst.ClassDef | None] = {}  # id of a def -> the class it is a method of
        self._before: dict[int, tuple[set[str], set[str]]] = {}  # id of a handler -> taints/aliases before it

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
        return self.errors.exception_names() | self.aliased

    def _returns_exception(self, value: cst.BaseExpression) -> bool:
        """``self._invoke(...)`` where the same-module helper returns the exception it caught (``except ... as e:
        return e``): the caller holds an error object that a later ``str(result)`` turns into text."""
        if isinstance(value, cst.Await):
            value = value.expression
        if not isinstance(value, cst.Call):
            return False
        defs, _ = self.errors.helpers_of(value)
        for d in defs:
            key = id(d)
            if key not in self.returned_exceptions:
                self.returned_exceptions[key] = any(
                    isinstance(r, cst.Return) and isinstance(r.value, cst.Name) and r.value.value == h.name.name.value
                    for h in walk_in_scope(d.body)
                    if isinstance(h, cst.ExceptHandler) and h.name is not None and isinstance(h.name.name, cst.Name)
                    for r in walk_in_scope(h.body)
                )
            if self.returned_exceptions[key]:
                return True
        return False

    def active(self) -> bool:
        """Inside a handler (or text from one is in a variable), not in a function producing text, not where the
        text is the product (a ``try`` that runs the model's code in process, format-repair feedback), not where
        it goes to a person (a web endpoint, a command-line program's function that is not a tool)."""
        if self.names.handler is None and not self.tainted and not self.aliased:
            return False
        func = self.names.function
        k = self.knowledge
        if isinstance(func, cst.FunctionDef):
            name = func.name.value.lstrip("_").lower()
            if any(p in name for p in k.text_producer_name_parts) or name.startswith(k.text_producer_name_prefixes):
                return False
            if self.audience(func) in ("endpoint", "cli"):
                return False
        handler = self.names.handler
        if handler is not None and (self._runs_code(handler.statement) or self._format_repair(handler.node)):
            return False
        return True

    def leak(self, value: cst.CSTNode) -> cst.CSTNode | None:
        """The sub-expression of ``value`` that turns a caught exception into text here, or None; in a tool, also
        the exception object itself in its result (:meth:`exception_object`)."""
        if not self.active():
            return None
        found = self._leak(value, self.exceptions())
        if found is None and isinstance(value, cst.BaseExpression) and self.in_tool():
            return self.exception_object(value)
        return found

    def message_leak(self, node: cst.Call | cst.Dict) -> cst.CSTNode | None:
        """The exception text a message construct carries (``ToolMessage(content=str(e))``), or None: as for any
        constructor, none when it also gets the exception object or says what kind of failure it is."""
        if not self.active():
            return None
        exc = self.exceptions()
        if isinstance(node, cst.Dict):
            return self._leak(node, exc)
        if self._passes_exception(node, exc) or self._discriminated(node, exc):
            return None
        for arg in node.args:
            found = self._leak(arg.value, exc)
            if found is not None:
                return found
        return None

    def reprompt(self, node: cst.CSTNode) -> bool:
        """A handler catching only parser errors puts the text in a re-prompt (``...Message(...)``, ``messages=``)."""
        return self.errors.parser_only() and self._reprompt(node)

    def message_construct(self, node: cst.CSTNode) -> bool:
        """A message a model reads: a framework's tool message or tool result (``ToolMessage(...)``,
        ``CallToolResult(...)``, ``TextContent(...)``: resolved through the imports), or a chat dict
        (``{"role": "tool", ...}``, ``{"type": "function_call_output", ...}``)."""
        if isinstance(node, cst.Call):
            qn = self.names.qualname(node.func)
            return qn is not None and self.knowledge.canonical(qn) in self.knowledge.message_constructors
        if isinstance(node, cst.Dict):
            forms = self.knowledge.message_dict_forms
            for el in node.elements:
                if isinstance(el, cst.DictElement):
                    key, value = _literal(el.key), _literal(el.value)
                    if key is not None and value is not None and (key, value) in forms:
                        return True
        return False

    # ------------------------------------------------------------ where the function's result goes

    def audience(self, func: cst.FunctionDef) -> str | None:
        """Who reads what ``func`` returns, when the module says: ``"tool"`` (a tool a framework runs: a tool
        decorator or a tool base class's method, by the forms ``smullyan tools`` knows, resolved in this file),
        ``"endpoint"`` (a web route: an HTTP client or a browser), ``"cli"`` (a function of a module that defines a
        command-line command: a person at a terminal), or None (not known here: a library's helper)."""
        key = id(func)
        if key not in self.where:
            if self._tool(func):
                self.where[key] = "tool"
            elif any(self._route(d.decorator) for d in func.decorators):
                self.where[key] = "endpoint"
            elif self._cli_module:
                self.where[key] = "cli"
            else:
                self.where[key] = None
        return self.where[key]

    def _decorator_names(self, decorator: cst.BaseExpression) -> list[str]:
        """The qualified names a decorator may be: ``@tool``/``@tool(...)`` by the imports, ``@mcp.tool()`` on an
        object built from a known class as ``Class.method``."""
        func = decorator.func if isinstance(decorator, cst.Call) else decorator
        out: list[str] = []
        qn = self.names.qualname(func)
        if qn is not None:
            out.append(self.knowledge.canonical(qn))
        if isinstance(func, cst.Attribute):
            ref = self.names.qualify(func.value)
            if ref is not None and ref[1]:
                out.append(f"{self.knowledge.canonical(ref[0])}.{func.attr.value}")
        return out

    def _route(self, decorator: cst.BaseExpression) -> bool:
        """``@app.get("/x")`` / ``@self._app.route(...)`` on a web app or router object, or a route decorator."""
        k = self.knowledge
        func = decorator.func if isinstance(decorator, cst.Call) else decorator
        if isinstance(func, cst.Attribute) and func.attr.value in k.web_route_methods:
            ref = self.names.qualify(func.value)
            if ref is not None and ref[1] and k.canonical(ref[0]) in k.web_app_classes:
                return True
        return any(n in k.web_route_decorators for n in self._decorator_names(decorator))

    def _tool(self, func: cst.FunctionDef) -> bool:
        k = self.knowledge
        if any(n in k.tool_decorators for d in func.decorators for n in self._decorator_names(d.decorator)):
            return True
        cls = self._owner.get(id(func))
        if cls is None:
            return False
        for base in cls.bases:
            qn = self.names.qualname(base.value)
            form = k.tool_base_classes.get(k.canonical(qn)) if qn is not None else None
            if form is not None and func.name.value in form[1]:
                return True
        return False

    @cached_property
    def _cli_module(self) -> bool:
        """The module defines a command-line command (``@app.command()`` on a ``typer.Typer()``, ``@click.command()``):
        read on the ``ast`` tree (the libcst module may be narrowed to the candidates), resolved by the imports."""
        k = self.knowledge
        scope = self.names.module_scope.bindings
        for d in definitions(self.errors.ctx.screen.tree):
            for dec in d.decorator_list:
                func = dec.func if isinstance(dec, ast.Call) else dec
                parts: list[str] = []
                while isinstance(func, ast.Attribute):
                    parts.append(func.attr)
                    func = func.value
                if not isinstance(func, ast.Name) or not parts:
                    continue
                ref = scope.get(func.id)
                if ref is not None and ".".join((k.canonical(ref[0]), *reversed(parts))) in k.cli_command_decorators:
                    return True
        return False

    def in_tool(self) -> bool:
        """The function being visited is a tool (see :meth:`audience`)."""
        func = self.names.function
        return isinstance(func, cst.FunctionDef) and self.audience(func) == "tool"

    def exception_object(self, value: cst.BaseExpression) -> cst.CSTNode | None:
        """The caught exception object itself in a value (``e``, ``{"error": e}``, ``[e]``): a tool's result the
        framework turns into the message text (``str(result)``), so the model reads the exception as text."""
        exc = self.exceptions()

        def find(node: cst.BaseExpression) -> cst.CSTNode | None:
            if isinstance(node, cst.Name):
                return node if node.value in exc else None
            if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
                for el in node.elements:
                    found = find(el.value)
                    if found is not None:
                        return found
            if isinstance(node, cst.Dict):
                if self._discriminated(node, exc):
                    return None
                for item in node.elements:
                    if isinstance(item, cst.DictElement):
                        found = find(item.value)
                        if found is not None:
                            return found
            return None

        return find(value)

    # ------------------------------------------------------------ traversal

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        # a method: its class is the innermost one, when the function is directly in its body
        cls = self._classes[-1] if self._classes else None
        own = cls is not None and isinstance(cls.body, cst.IndentedBlock) and any(s is node for s in cls.body.body)
        self._owner[id(node)] = cls if own else None

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._before[id(node)] = (set(self.tainted), set(self.aliased))

    def leave_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        """A handler that ends in ``return``/``raise`` hands nothing on: what it put in names does not reach the
        code after the ``try`` (``state.update({"error": str(e)}); return state`` then ``return state`` on success)."""
        before = self._before.pop(id(node), None)
        body = node.body
        last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
        smalls = last.body if isinstance(last, cst.SimpleStatementLine) else []
        if before is not None and smalls and isinstance(smalls[-1], (cst.Return, cst.Raise)):
            taints, aliases = before
            self.tainted.intersection_update(taints)
            self.aliased.intersection_update(aliases)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.taints.pop(id(node), None)
        self.aliases.pop(id(node), None)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.taints.pop(id(node), None)
        self.aliases.pop(id(node), None)

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self.active():
            if self._returns_exception(node.value):
                self.aliased.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))
            return
        exc = self.exceptions()
        leaks = self._leak(node.value, exc) is not None
        # error = e: the object, kept; result = self._call() where the helper returns its caught exception
        alias = (isinstance(node.value, cst.Name) and node.value.value in exc) or self._returns_exception(node.value)
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                if alias:
                    self.aliased.add(t.target.value)
                else:
                    self.aliased.discard(t.target.value)
                if leaks:
                    self.tainted.add(t.target.value)
                else:
                    self.tainted.discard(t.target.value)
            elif leaks and isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name):
                if not _telemetry_key(t.target):
                    self.tainted.add(t.target.value.value)  # out["error"] = str(e)

    def visit_Call(self, node: cst.Call) -> None:
        """``results.append(f"{e}")``, ``payload.update(error=repr(e))``: the container now carries the text."""
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.attr.value in self.knowledge.container_filling_methods
            and self.active()
        ):
            exc = self.exceptions()
            if any(self._leak(a.value, exc) is not None for a in node.args):
                self.tainted.add(func.value.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.active() and isinstance(node.target, cst.Name):
            if self._leak(node.value, self.exceptions()) is not None:
                self.tainted.add(node.target.value)

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

    def _format_repair(self, handler: cst.ExceptHandler | cst.ExceptStarHandler) -> bool:
        """The handler catches only format errors (``JSONDecodeError``, pydantic's ``ValidationError``...: resolved
        through the imports) around a parse of data in memory (no call in the ``try`` reaches outside): the text
        is the feedback the model needs to fix its own output."""
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
        if self.following:
            return False
        defs, method = self.errors.helpers_of(call)
        if not defs:
            return False
        for i, arg in enumerate(call.args):
            obj = isinstance(arg.value, cst.Name) and arg.value.value in exc  # the exception itself
            if arg.star or not (obj or self._leak(arg.value, exc) is not None):
                continue
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
                if self._carries(d, name, obj):
                    return True
        return False

    def _carries(self, helper: cst.FunctionDef, param: str, obj: bool) -> bool:
        """Whether the helper returns its ``param`` as text (``obj``: the parameter is the exception itself)."""
        key = (id(helper), param, obj)
        if key not in self.carries:
            self.carries[key] = False
            self.following = True
            exc, extra = ({param}, frozenset()) if obj else (set(), frozenset({param}))
            try:
                for n in walk_in_scope(helper.body):
                    if isinstance(n, cst.Return) and n.value is not None:
                        if self._leak(n.value, exc, extra=extra) is not None:
                            self.carries[key] = True
                            break
            finally:
                self.following = False
        return self.carries[key]

    @staticmethod
    def _passes_exception(call: cst.Call, exc: set[str]) -> bool:
        """``X(..., exception=e)`` / ``X(e, ...)``: the object keeps the typed failure."""
        return any(isinstance(a.value, cst.Name) and a.value.value in exc and not a.star for a in call.args)

    def _text_call(self, call: cst.Call) -> bool:
        """Whether the exception text flows through this call into its result."""
        func = call.func
        k = self.knowledge
        qn = self.names.qualname(func)
        if qn is not None and qn in k.text_building_calls:
            return True
        if isinstance(func, cst.Name):
            if func.value in k.text_passing_builtins and self.names.is_builtin(func.value):
                return True
            return func.value[:1].isupper()  # a result object's constructor
        if isinstance(func, cst.Attribute):
            if isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                return True  # "sep".join([...])
            if func.attr.value in k.text_passing_methods:
                return True  # template.format(error=str(e))
            return func.attr.value[:1].isupper()
        return False

    def _reprompt(self, node: cst.CSTNode) -> bool:
        """Text going back to the model as a message (``retry_messages=[...]``, ``ChatMessage(...)``)."""
        if isinstance(node, cst.Arg) and node.keyword is not None:
            return self.knowledge.reprompt_keyword_part in node.keyword.value.lower()
        if isinstance(node, cst.Call):
            return (last_name(node.func) or "").endswith(self.knowledge.reprompt_call_suffix)
        return False

    def _discriminated(self, node: cst.Dict | cst.Call, exc: set[str]) -> bool:
        """A dict or constructor that says what kind of failure it is (``error_type=``, ``"code": ...``,
        ``"type": "server_error"``, ``type(e).__name__``, ``e.status_code``) beside the text."""
        k = self.knowledge
        pairs: list[tuple[str | None, cst.BaseExpression]] = []
        if isinstance(node, cst.Dict):
            pairs = [(_literal(el.key), el.value) for el in node.elements if isinstance(el, cst.DictElement)]
        else:
            pairs = [(a.keyword.value if a.keyword is not None else None, a.value) for a in node.args]
        for key, value in pairs:
            if self._kind_of(value, exc):
                return True
            if key is None or self._leak_free(value, exc) is False:
                continue
            norm = key.lower().replace("-", "_")
            if norm in k.error_discriminator_keys or norm.replace("_", "") in k.error_discriminator_keys:
                return True
            text = (_literal(value) or "").lower()
            if norm == "type" and text.endswith(("error", "exception")) and text not in ("error", "exception"):
                return True  # "server_error", "RateLimitError": a kind; the bare "error" says only that it failed
        return False

    def _leak_free(self, value: cst.BaseExpression, exc: set[str]) -> bool:
        """A value that does not carry the exception text (a discriminator must not be the text itself)."""
        return self._leak(value, exc) is None

    def _kind_of(self, value: cst.BaseExpression, exc: set[str]) -> bool:
        """``type(e).__name__``, ``e.__class__.__name__``, ``type(e)``, ``e.status_code``: the failure's kind."""
        if isinstance(value, cst.Attribute) and value.attr.value in ("__name__", "__qualname__"):
            inner = value.value
            if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value == "type":
                return bool(inner.args) and isinstance(inner.args[0].value, cst.Name) and inner.args[0].value.value in exc
            if isinstance(inner, cst.Attribute) and inner.attr.value == "__class__":
                return isinstance(inner.value, cst.Name) and inner.value.value in exc
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value in exc:
            return value.attr.value in self.knowledge.error_discriminator_attributes
        return False

    def _is_exc_text(self, node: cst.BaseExpression, exc: set[str]) -> bool:
        """The exception object itself, its message attributes, or a tainted name."""
        if isinstance(node, cst.Name):
            return node.value in exc or node.value in self.tainted or node.value in self._extra
        if isinstance(node, cst.Subscript):
            node = node.value
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
        for child in node.children:
            if reprompt_ok and self._reprompt(child):
                continue
            if isinstance(child, cst.BaseExpression) or isinstance(
                child, (cst.Arg, cst.Element, cst.BaseDictElement, cst.FormattedStringExpression)
            ):
                found = self._leak(child, exc)
                if found is not None:
                    return found
        return None


def _literal(node: cst.BaseExpression | None) -> str | None:
    """The value of a plain string literal, else None."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _telemetry_key(target: cst.Subscript) -> bool:
    """``attributes["tool.args_parse_error"] = str(e)``: a dotted attribute key, as a trace's span attributes are
    named (OpenTelemetry's conventions); the text goes to a trace, not to a model."""
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return False
    key = _literal(target.slice[0].slice.value)
    return key is not None and "." in key and all(p.isidentifier() for p in key.split("."))
