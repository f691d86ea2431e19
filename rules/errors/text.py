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
product). The taint itself (which sub-expression carries the text) is the base class,
``taint.py``'s :class:`~.taint.TextTaint`; the ``ast`` side is ``text_screen.py``'s
:func:`~.text_screen.screen_lines`.
"""

from __future__ import annotations

import ast
from functools import cached_property
from pathlib import PurePath
from typing import Callable

import libcst as cst

from ...linter.api import FileContext, decorator_names, registered_tool, string_literal, walk_in_scope
from .jsonrpc import serves_mcp
from .model import definitions, words
from .exc_params import exception_params
from .kinds import typed_container
from .placement import (
    plugin_class, raised_only, registers_anywhere, registrar_decorator, url_path, wrappers_above_registration,
)
from .printed import printed_functions
from .decorated import defines_cli_command, defines_web_route
from .refusals import catches_own_refusals
from .evidence import (
    command_line_only, names_tools, content_and_artifact, dispatches_tool, exception_positions, imported_by_tools, may_serve_by_name, module_dirs,
    builds_result, serves_tools, text_positions, tool_named_module,
)
from .stored import answers_tool, stored_text_attributes
from .assigned import bound_pairs, telemetry_key, unpacked_at
from .taint import TextTaint

__all__ = ["ExceptionText"]


class ExceptionText(TextTaint):
    """Per-file taint of a caught exception's text (an engine model; needs :class:`ErrorModel` built first)."""

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # id of a helper -> where it returns the exception it caught (see :meth:`_returned_positions`)
        self.returned_exceptions: dict[int, frozenset[int]] = {}
        # id of a helper -> where it returns a failure's text beside a literal None (see :meth:`_returned_text`)
        self.returned_texts: dict[int, frozenset[int]] = {}
        self.where: dict[int, str | None] = {}  # id of a def -> "endpoint" | "cli" | "tool" | None (see :meth:`audience`)
        self._functions: list[str] = []  # the names of the functions being visited, outermost first
        self._classes: list[cst.ClassDef] = []  # the classes being visited (a method's class: tool base classes)
        self._owner: dict[int, cst.ClassDef | None] = {}  # id of a def -> the class it is a method of
        self._before: dict[int, tuple[set[str], set[str]]] = {}  # id of a handler -> taints/aliases before it
        # per function: a local name bound to a dict/list/tuple literal -> the local names it holds by reference
        # (``result = {"warnings": warnings}``): filling ``warnings`` later fills ``result`` too
        self._holders: dict[int, dict[str, set[str]]] = {}
        self._name_dispatchers: dict[int, bool] = {}  # id of a class -> it serves tools by name (s41)

    def _returned_positions(self, value: cst.BaseExpression) -> frozenset[int]:
        """Where a same-module helper called here returns the exception it caught: ``-1`` the value itself
        (``self._invoke(...)`` with ``except ... as e: return e``: the caller holds an error object that a later
        ``str(result)`` turns into text), ``i`` the i-th item of a returned tuple (``return None, e``: s41, issue 24
        D5, unpacked by the caller as ``out, err = _invoke(...)``)."""
        return self._helper_positions(value, self.returned_exceptions, exception_positions)

    def _returned_text(self, value: cst.BaseExpression) -> frozenset[int]:
        """Where a same-module helper called here returns a failure's text beside a literal ``None`` (``return None,
        f"request failed: {err}"``, :func:`~.evidence.text_positions`; s44)."""
        return self._helper_positions(value, self.returned_texts, lambda d: text_positions(d, self._binds_no_text))

    def _binds_no_text(self, statement: cst.Try, handler: cst.ExceptHandler) -> bool:
        """s53: a helper's handler whose exception carries no stringified failure, as a handler in place is read:
        format-repair feedback around a parse in memory (``except re.error as e`` around ``re.compile(pattern)``),
        or one catching only the project's own refusals (:func:`~.refusals.catches_own_refusals`)."""
        return self._format_repair(handler, statement) or catches_own_refusals(self.names, self.path, handler)

    def _helper_positions(self, value: cst.BaseExpression, memo: dict[int, frozenset[int]],
                          read: Callable[[cst.FunctionDef], frozenset[int]]) -> frozenset[int]:
        """``read`` of every same-module helper the call ``value`` (awaited or not) may run, each read once."""
        if isinstance(value, cst.Await):
            value = value.expression
        if not isinstance(value, cst.Call):
            return frozenset()
        defs, _ = self.errors.helpers_of(value, imported=False)  # the module's own: asked of every assignment
        out: set[int] = set()
        for d in defs:
            key = id(d)
            if key not in memo:
                memo[key] = read(d)
            out |= memo[key]
        return frozenset(out)

    def _taint_returned(self, node: cst.Assign) -> None:
        """``data, err = _http_get(...)``: the unpacked name at the helper's text position holds the text."""
        if not any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
            return  # only an unpacking asks the helpers
        self.tainted.update(unpacked_at(node, self._returned_text(node.value)))

    def _alias_returned(self, node: cst.Assign, positions: frozenset[int]) -> None:
        """``out, err = _invoke(...)``: the unpacked name at the helper's exception position holds the exception."""
        self.aliased.update(unpacked_at(node, positions - {-1}))

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
            return self._stored_leak(value)
        func = self.names.function
        audience = self.audience(func) if isinstance(func, cst.FunctionDef) else None
        if audience == "report" or (audience == "unread" and not self.tool_result(value)):
            return None  # a value returned to a report, a page or a route's JSON, or nobody said a model reads it
            # (a message construct still counts)
        if isinstance(func, cst.FunctionDef) and isinstance(value, cst.Tuple) and len(value.elements) == 2 \
                and content_and_artifact(func, self.knowledge):
            value = value.elements[0].value  # (content, artifact): the artifact is not sent to the model
        found = self._leak(value, self.exceptions())
        if found is None and isinstance(value, cst.BaseExpression) and self.in_tool():
            return self.exception_object(value)
        return found if found is not None else self._stored_leak(value)

    def _stored_leak(self, value: cst.CSTNode) -> cst.CSTNode | None:
        """s45: ``self.last_error`` a handler of the class set to the text, where a method answers a tool (:mod:`.stored`)."""
        func = self.names.function
        owner = self._owner.get(id(func)) if isinstance(func, cst.FunctionDef) else None
        attrs = stored_text_attributes(self.errors.ctx.screen).get(owner.name.value) if owner is not None else None
        if not attrs or not isinstance(func, cst.FunctionDef) or not answers_tool(func.name.value, self.audience(func),
                                                                                   self.knowledge):
            return None
        self.stored = attrs
        found, self.stored = self._leak(value, set()), frozenset()
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
            if arg.keyword is not None and arg.keyword.value in self._unread_keywords(node):
                continue  # kept beside the message, not sent to the model (``additional_kwargs=``, ``artifact=``)
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
                    key, value = string_literal(el.key), string_literal(el.value)
                    if key is not None and value is not None and (key, value) in forms:
                        return True
                    if key in self.knowledge.message_dict_flags and isinstance(el.value, cst.Name) \
                            and el.value.value == "True":
                        return True
        return False

    # ------------------------------------------------------------ where the function's result goes

    def audience(self, func: cst.FunctionDef) -> str | None:
        """Who reads what ``func`` returns, when the module says: ``"tool"`` (a tool a framework runs: a tool
        decorator or a tool base class's method, by the forms ``smullyan tools`` knows, resolved in this file),
        ``"endpoint"`` (a web route: an HTTP client or a browser), ``"cli"`` (a function of a module that defines a
        command-line command: a person at a terminal), ``"report"`` (a report, a page, a route's JSON), None (not
        known here, but named for tools: a tool's helper, reported) or ``"unread"`` (nothing says a model reads it)."""
        key = id(func)
        if key not in self.where:
            if self._tool(func):
                self.where[key] = "tool"
            elif any(self._route(d.decorator) for d in func.decorators):
                self.where[key] = "endpoint"
            elif self._cli_module:
                self.where[key] = "cli"
            elif self._web_module or self._ui_module or (self._report_names() and not self._registers_tools) \
                    or self._printed(func) or self._unread_placement():
                self.where[key] = "report"
            elif not self._tool_module() and not dispatches_tool(func, self.knowledge, self.tool_result) \
                    and not self._imported_by_tools(func) and not self._serves_tools_by_name(func):
                self.where[key] = "unread"
            elif self._command_line_only(func):
                self.where[key] = "report"
            else:
                self.where[key] = None
        return self.where[key]

    def _command_line_only(self, func: cst.FunctionDef) -> bool:
        """s53: a function whose only evidence for tools is the name of its module or package (``mailmcp/install.py``,
        ``swarm/mcp_setup.py``: every module of an MCP server's package carries it), in a module that only the
        project's command line imports (:func:`~.evidence.command_line_only`: ``mailmcp/cli.py``): an installer's or
        a setup check's report for the person who ran the command. Not where anything else says tools: a tool-named
        class or function (``_handle_tools_call``), a module that registers tools or answers MCP's ``initialize``, a
        tool run in the function, a tools module importing it (those are read before this); nor a module registering a
        tool in a nested function (``@mcp.tool()`` in allmail's ``build_app()``, run by ``mailmcp serve``)."""
        names = [c.name.value for c in self._classes] + self._functions
        screen, k = self.errors.ctx.screen, self.knowledge
        stem = PurePath(self.errors.ctx.path).stem
        if any(self._tool_word(n) for n in names) or self._registers_tools or not self._tool_named_module \
                or tool_named_module(stem, [], k) or serves_mcp(screen, k) \
                or registers_anywhere(screen, self.names.module_scope.bindings, k):
            return False  # the module's own name says tools or MCP (clixz's ``mcpd.py``, a daemon answering MCP)
        return self._command_line_module

    @cached_property
    def _command_line_module(self) -> bool:
        screen = self.errors.ctx.screen
        return not screen.memo("s53-tool-hints", lambda: names_tools(screen.tree, self.knowledge)) \
            and command_line_only(self.errors.ctx.path, self.knowledge)

    def _unread_placement(self) -> bool:
        """s51 (:mod:`.placement`): a non-agent framework's plugin; a wrapper placed above a tool's registration."""
        k, functions = self.knowledge, self._functions
        return plugin_class(self._classes, self.names.qualname, k) or (len(functions) > 1 and not self._classes and (
            functions[0] in wrappers_above_registration(self.errors.ctx.screen, self.names.module_scope.bindings, k)))

    def _tool_names(self) -> bool:
        """Positive evidence that a function the module says nothing else about feeds a tool's answer: the module,
        its package directories, the enclosing classes or functions are named for tools (``tools/``, ``toolsets/``,
        ``jina_tool.py``, ``class FileToolkit``, ``def call_tool``, ``actions/``) or an MCP server (``k8s_mcp/``)."""
        names = [c.name.value for c in self._classes] + self._functions
        return any(self._tool_word(n) for n in names) or self._tool_named_module

    @cached_property
    def _tool_named_module(self) -> bool:
        return tool_named_module(self.errors.ctx.path, self._package_dirs, self.knowledge)

    @cached_property
    def _package_dirs(self) -> list[str]:
        """The directories of the packages the module is in (see :func:`package_dirs`); a path that is not a file
        on disk (source given on stdin with its file name) has only the names it gives."""
        return module_dirs(self.errors.ctx.path, self.knowledge.report_directory_depth)

    def _imported_by_tools(self, func: cst.FunctionDef) -> bool:
        """See :func:`.evidence.imported_by_tools` (functions only: a class a tools module imports is a helper of
        many uses, its methods' findings 2 true of 9 on batches 9-13)."""
        if self._owner.get(id(func)) is not None:
            return False
        return imported_by_tools(func.name.value, self.errors.ctx.path, self.knowledge)

    def _serves_tools_by_name(self, func: cst.FunctionDef) -> bool:
        """A method of a class that serves its methods by name over a channel (:func:`.evidence.serves_tools`)."""
        owner = self._owner.get(id(func))
        tree = self.errors.ctx.screen.tree
        if owner is None or not isinstance(tree, ast.Module) or not may_serve_by_name(self.errors.ctx.screen):
            return False
        key = id(owner)
        if key not in self._name_dispatchers:
            # read on the ``ast`` tree: the libcst module may be narrowed to the candidates (the dispatcher is not one)
            self._name_dispatchers[key] = serves_tools(tree, owner.name.value, self.errors.ctx.path, self.knowledge)
        return self._name_dispatchers[key]

    def _tool_word(self, name: str) -> bool:
        return bool(words(name) & self.knowledge.tool_evidence_words)

    def tool_result(self, value: cst.CSTNode) -> bool:
        """The value is built by a constructor named for a tool's or an action's result (``ActionResult(error=...)``,
        ``ToolOutput(...)``): positive evidence that the text reaches a model, wherever the function sits."""
        if isinstance(value, cst.Await):
            value = value.expression
        if not isinstance(value, cst.Call):
            return False
        func = value.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        return (name[:1].isupper() and self._tool_word(name)) or builds_result(  # s46: ``return _failure(f"...{err}")``
            func, self.errors.ctx.screen, self.knowledge, self.names.lookup)

    def _report_names(self) -> bool:
        """The module, its package directories, the enclosing classes or functions are named for a report a person
        reads (an evaluation harness, a benchmark, a health check, diagnostics): see ``REPORT_NAME_WORDS``."""
        k = self.knowledge
        names = [c.name.value for c in self._classes] + self._functions
        path = PurePath(self.errors.ctx.path)
        names.append(path.stem)
        if any(words(n) & k.report_name_words for n in names) or words(path.stem) & k.report_module_words:
            return True  # s57: ``doctor.py``, ``mcp_setup.py``: the module's own name only (REPORT_MODULE_WORDS)
        dirs = self._package_dirs  # the package chain, not the checkout's or install's directories around it
        if any(d.lstrip("_").lower() in k.cli_directory_names for d in dirs):
            return True  # a command-line program's subpackage (``pkg/cli/utils/gcp.py``): checks for the terminal
        return any(words(d) & (k.report_name_words | k.report_directory_words) for d in dirs)

    def _printed(self, func: cst.FunctionDef) -> bool:
        """A module-level function whose results the module binds and prints for a person (``r = check_x()``,
        ``_print_result(r)`` where that helper calls ``console.print``): see :func:`~.printed.printed_functions`."""
        if self._owner.get(id(func)) is not None or len(self._functions) != 1:
            return False
        return func.name.value in self._printed_names

    @cached_property
    def _printed_names(self) -> frozenset[str]:
        screen = self.errors.ctx.screen
        tree = screen.tree
        scope = self.names.module_scope.bindings
        return printed_functions(tree, scope, self.knowledge, screen.calls) if isinstance(tree, ast.Module) else frozenset()

    @cached_property
    def _ui_module(self) -> bool:
        """The module imports a library that renders a user interface (gradio, streamlit...)."""
        return bool(self.errors.ctx.screen.import_roots & self.knowledge.ui_module_roots)

    @cached_property
    def _web_module(self) -> bool:
        """The module defines a web route (as :meth:`_route` says, read on the ``ast`` tree): its other functions
        that are not tools hand their result to the routes, an HTTP client's JSON."""
        return defines_web_route(self.errors.ctx.screen.tree, self.names.module_scope.bindings, self.knowledge)

    def _decorator_names(self, decorator: cst.BaseExpression) -> list[str]:
        return decorator_names(decorator, self.names, self.knowledge)

    def _route(self, decorator: cst.BaseExpression) -> bool:
        """``@app.get("/x")`` / ``@self._app.route(...)`` on a web app or router object, or a route decorator."""
        k = self.knowledge
        func = decorator.func if isinstance(decorator, cst.Call) else decorator
        if isinstance(func, cst.Attribute) and func.attr.value in k.web_route_methods:
            if isinstance(decorator, cst.Call) and decorator.args and url_path(decorator.args[0].value):
                return True  # @server.app.post("/responses"): a route, whatever built the app
            ref = self.names.qualify(func.value)
            if ref is not None and ref[1] and k.canonical(ref[0]) in k.web_app_classes:
                return True
        return any(n in k.web_route_decorators for n in self._decorator_names(decorator))

    def _tool(self, func: cst.FunctionDef) -> bool:
        return registered_tool(func, self._owner.get(id(func)), self.names, self.knowledge)

    @cached_property
    def _registers_tools(self) -> bool:
        """The module registers tools itself (``@mcp.tool()`` on one of its functions, as :meth:`_tool` reads it): its
        functions feed tools' answers, whatever a report-like name says (odoo-mcp's ``tools_diagnostics.py``)."""
        scope = self.names.module_scope.bindings
        return any(registrar_decorator(dec, scope, self.knowledge)
                   for d in definitions(self.errors.ctx.screen.tree) for dec in d.decorator_list)

    def _tool_module(self) -> bool:
        return self._tool_names() or self._registers_tools

    @cached_property
    def _cli_module(self) -> bool:
        """The module defines a command-line command (``@app.command()`` on a ``typer.Typer()``, ``@click.command()``):
        read on the ``ast`` tree (the libcst module may be narrowed to the candidates), resolved by the imports."""
        return defines_cli_command(self.errors.ctx.screen.tree, self.names.module_scope.bindings, self.knowledge)

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
        self._functions.append(node.name.value)
        # a method: its class is the innermost one, when the function is directly in its body
        cls = self._classes[-1] if self._classes else None
        own = cls is not None and isinstance(cls.body, cst.IndentedBlock) and any(s is node for s in cls.body.body)
        self._owner[id(node)] = cls if own else None
        # s49: a parameter annotated as any exception holds it, where callers are not reported for it (:mod:`.exc_params`)
        params = exception_params(node, self.knowledge)  # s51: not where every use raises it (``raise _err(e)``)
        if params and not raised_only(self.errors.ctx.screen, node.name.value):
            # s56: a caller in another module follows the formatter one helper deep only (its second helper's
            # names are not the caller's): where the module does not call the formatter itself, its text is
            # reported at its own return unless it carries the exception one level deep (s49)
            local = node.name.value in self.errors.ctx.screen.call_names
            saved, self.follow_depth = self.follow_depth, self.follow_depth if local else 1
            try:
                self.aliased.update(p for p in params if not self._carries(node, p, True))
            finally:
                self.follow_depth = saved

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
        self._functions.pop()
        self._holders.pop(id(node), None)
        self.taints.pop(id(node), None)
        self.aliases.pop(id(node), None)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.taints.pop(id(node), None)
        self.aliases.pop(id(node), None)

    def _holding(self) -> dict[str, set[str]]:
        func = self.names.function
        return self._holders.setdefault(id(func) if func is not None else 0, {})

    def _record_holder(self, node: cst.Assign) -> None:
        """``result = {"errors": errors, "warnings": warnings}``: ``result`` holds those lists by reference."""
        value = node.value
        held: set[str] = set()
        if isinstance(value, cst.Dict):
            held = {el.value.value for el in value.elements
                    if isinstance(el, cst.DictElement) and isinstance(el.value, cst.Name)}
        elif isinstance(value, (cst.List, cst.Tuple)):
            held = {el.value.value for el in value.elements if isinstance(el.value, cst.Name)}
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                if held:
                    self._holding()[t.target.value] = held
                else:
                    self._holding().pop(t.target.value, None)

    def _typed(self, node: cst.Call | cst.Assign) -> bool:
        """s52: ``out.update({"code": ...})``, ``out["code"] = ...``: the container says its kind (:mod:`.kinds`)."""
        typed = typed_container(node, lambda d: self._discriminated(d, self.exceptions())) if self.tainted else None
        self.tainted.discard(typed or "")
        return typed is not None

    def visit_Assign(self, node: cst.Assign) -> None:
        self._record_holder(node)
        if self._typed(node):
            return
        positions = self._returned_positions(node.value)  # the helpers of the module asked once per assignment
        self._rebind_unpacked(node)
        if not self.active():
            if -1 in positions:
                self.aliased.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))
            self._alias_returned(node, positions)
            self._taint_returned(node)
            return
        exc = self.exceptions()
        leaks = self._leak(node.value, exc) is not None
        # error = e: the object, kept; result = self._call() where the helper returns its caught exception
        alias = (isinstance(node.value, cst.Name) and node.value.value in exc) or -1 in positions
        self._alias_returned(node, positions)
        self._taint_returned(node)
        for target, value in bound_pairs(node):  # s47: and each name of `output, failed = ToolOutput(f"{e}"), True`
            whole = value is node.value
            aliases = alias if whole else isinstance(value, cst.Name) and value.value in exc
            carries = leaks if whole else self._leak(value, exc) is not None
            if isinstance(target, cst.Name):
                if aliases:
                    self.aliased.add(target.value)
                elif whole:  # an unpacked item only adds (`else: output, failed = result, False`)
                    self.aliased.discard(target.value)
                if carries:
                    self.tainted.add(target.value)
                elif whole and not self._refines(node):
                    self.tainted.discard(target.value)
            elif carries and isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                if not telemetry_key(target):
                    self.tainted.add(target.value.value)  # out["error"] = str(e)

    def _rebind_unpacked(self, node: cst.Assign) -> None:
        """s53: ``target, export_dir, err = _resolve_export_file(...)`` gives each unpacked name a new value: a text
        or an exception an earlier unpacking put in ``err`` is no longer there (screaming-frog's second ``return
        err``, every value of which is the helper's own sentence), as a plain name's new value replaces it; the
        helper's text positions then taint it again where they hold a text (:meth:`_taint_returned`). Not inside a
        handler's ``if``/``try``/loop, which only may replace it (:meth:`_refines`)."""
        if isinstance(node.value, (cst.Tuple, cst.List)) or self._refines(node):
            return  # a parallel assignment of items: :func:`~.assigned.bound_pairs` reads each item
        names = {el.value.value for t in node.targets if isinstance(t.target, (cst.Tuple, cst.List))
                 for el in t.target.elements if isinstance(el.value, cst.Name)}
        if names:
            self.tainted.difference_update(names)
            self.aliased.difference_update(names)

    def _refines(self, node: cst.Assign) -> bool:
        """Inside a handler, an assignment nested in an ``if``/``try``/loop of its body only may replace the text
        (``msg = str(e)``, then ``if "message" in body: msg = body["message"]``): the text still may be what is
        returned. An assignment that is a statement of the handler's own body always replaces it."""
        handler = self.names.handler
        body = handler.node.body if handler is not None else None
        if not isinstance(body, cst.IndentedBlock):
            return False
        return not any(isinstance(s, cst.SimpleStatementLine) and any(b is node for b in s.body) for s in body.body)

    def visit_Call(self, node: cst.Call) -> None:
        """``results.append(f"{e}")``, ``payload.update(error=repr(e))``: the container now carries the text."""
        if self._typed(node):
            return
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in self.knowledge.container_filling_methods:
            return
        container = _container(func.value)  # results, or results["created"] (a container inside it)
        if container is not None and self.active():
            exc = self.exceptions()
            if any(self._leak(a.value, exc) is not None for a in node.args):
                self.tainted.add(container)
                # the dict/list that holds the filled container by reference carries the text too
                self.tainted.update(h for h, held in self._holding().items() if container in held)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.active() and isinstance(node.target, cst.Name):
            if self._leak(node.value, self.exceptions()) is not None:
                self.tainted.add(node.target.value)


def _container(node: cst.BaseExpression) -> str | None:
    """The local name a filled container lives in: ``results`` for ``results.append``, and for a container
    inside it, ``results["created"].append`` / ``results["a"]["b"].append``."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None

