"""The error-handling model: what the rules about ``except`` clauses (TFH401-TFH403) share.

A rule of the family subclasses :class:`ErrorRule`, which asks for
:class:`ErrorModel` in its ``models`` (see ``Rule.models``): the engine builds
one per file, dispatches it in the same traversal right after the name
resolver, and hands it to the rules as ``self.model``. The model answers,
about the code being visited (the resolver's scope state) or a node handed
to it:

- the handlers: which exception names the enclosing ``except`` clauses bind
  (:meth:`ErrorModel.exception_names`), which types a handler names
  (:meth:`ErrorModel.type_names`), whether it catches broadly (the builtins
  ``Exception``/``BaseException``, a bare ``except:``), only parser errors, or
  only "already gone" errors, whether it only swallows (``pass``), and
  whether it records the error (a raise, a logging-like call, a use of the
  exception);
- the helpers a call reaches (module-level functions and class methods by
  name, and a function or inherited method of another module of the project:
  :meth:`ErrorModel.helpers_of`), for following text into them;
- whether a ``try`` body does work that can fail because something outside
  the process failed (:meth:`ErrorModel.tool_like`): an ``await``, or a call
  that :func:`smullyan.linter.effects.reaches_outside` (the one answer, shared
  with the effects the retry rules read); a ``try`` that imports an optional
  package is a probe.

The text of a caught exception (TFH401's taint) is the second collector of the
family, ``text.py: ExceptionText``. Each side has its ``ast`` twin here for the
rules' screens.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import cached_property
from typing import ClassVar, Sequence, Union

import libcst as cst

from ...linter.api import (
    FileContext,
    Handler,
    Knowledge,
    Names,
    effects,
    Rule,
    dotted,
    handler_types,
    imported_definition,
    imported_method,
    last_name,
    receiver_name,
    walk_in_scope,
    walk_in_scope_ast,
)

__all__ = [
    "ErrorModel", "ErrorRule", "already_gone", "broad_names", "catches_broadly", "definitions",
    "has_words", "mentions", "source_of", "statements", "swallows_ast", "swallows_cst", "tool_like_ast", "words",
]

_CODEGEN = cst.Module(body=[])
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")  # HttpClient, HTTPClient, SerpAPIWrapper
_BROAD = ("Exception", "BaseException")
_BOOL_CALLS = ("bool", "isinstance", "issubclass", "hasattr", "callable", "all", "any")
AnyHandler = Union[cst.ExceptHandler, cst.ExceptStarHandler]


def source_of(node: cst.CSTNode) -> str:
    """A node's source text."""
    return _CODEGEN.code_for_node(node)


# ---------------------------------------------------------------- names and words


def words(name: str) -> set[str]:
    """The lower-case words of a name, split on ``_`` and camelCase."""
    return {w for w in _CAMEL.sub("_", name).lower().split("_") if w}


def has_words(name: str, parts: tuple[str, ...]) -> bool:
    """Whether one of ``parts`` is a run of whole ``_``-separated words of ``name`` (camelCase split too)."""
    joined = "_" + "_".join(w for w in _CAMEL.sub("_", name).lower().split("_") if w) + "_"
    return any(f"_{p}_" in joined for p in parts)


# ---------------------------------------------------------------- handlers (both trees)


def catches_broadly(handler: cst.ExceptHandler | ast.ExceptHandler, names: Names | None) -> bool:
    """A bare ``except:``, or one naming ``Exception``/``BaseException`` (the builtins: ``names`` says if shadowed)."""
    types = handler_types(handler)
    if not types:
        return True
    return any(
        type(t) in (ast.Name, cst.Name)
        and last_name(t) in _BROAD
        and (names is None or names.is_builtin(last_name(t) or ""))
        for t in types
    )


def broad_names(types: Sequence[str | None]) -> bool:
    """Caught types, as written, that include everything (none: a bare ``except:``)."""
    return not types or any(t in ("Exception", "BaseException", "builtins.Exception") for t in types)


def already_gone(types: Sequence[str | None], knowledge: Knowledge) -> bool:
    """Every type caught means "already gone" (``except FileNotFoundError: pass`` around a delete)."""
    gone, parts = knowledge.already_gone_errors, knowledge.already_gone_error_parts
    lasts = [t.rsplit(".", 1)[-1] if t is not None else None for t in types]
    return bool(lasts) and all(t is not None and (t in gone or any(p in t for p in parts)) for t in lasts)


def swallows_ast(handler: ast.ExceptHandler) -> bool:
    """The handler's body is only ``pass``, ``...``, ``continue`` (or a string)."""
    return all(
        isinstance(s, (ast.Pass, ast.Continue)) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        for s in handler.body
    )


def swallows_cst(handler: AnyHandler) -> bool:
    """The libcst twin of :func:`swallows_ast`."""
    body = handler.body
    stmts: Sequence[cst.CSTNode] = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for stmt in stmts:
        smalls = stmt.body if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else None
        if smalls is None:
            return False
        for small in smalls:
            if isinstance(small, (cst.Pass, cst.Continue)):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.Ellipsis, cst.SimpleString, cst.ConcatenatedString)):
                continue
            return False
    return True


# ---------------------------------------------------------------- the ast side (screens)


def mentions(node: ast.AST, name: str) -> bool:
    """Whether ``name`` is read anywhere under ``node``."""
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def classes_of(tree: ast.AST) -> list[ast.ClassDef]:
    """Module-level classes and the classes nested in them (as :func:`definitions` reads methods)."""
    out: list[ast.ClassDef] = []
    stack = [n for n in getattr(tree, "body", []) if isinstance(n, ast.ClassDef)]
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(n for n in c.body if isinstance(n, ast.ClassDef))
    return out


def definitions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level functions and class methods (classes nested in classes too): the helpers :meth:`ErrorModel.helpers_of` finds."""
    out: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack = list(getattr(tree, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(n)
        elif isinstance(n, ast.ClassDef):
            stack.extend(n.body)
    return out


def statements(tree: ast.AST) -> list[ast.stmt]:
    """Every statement (bodies of compound statements included), without walking expressions."""
    out: list[ast.stmt] = []
    stack: list[ast.AST] = [tree]
    while stack:
        n = stack.pop()
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(n, name, None) or ():
                if isinstance(child, ast.stmt):
                    out.append(child)
                if isinstance(child, ast.AST):
                    stack.append(child)
    return out


def tool_like_ast(body: Sequence[ast.stmt], outside: tuple[frozenset[str], frozenset[str]], knowledge: Knowledge) -> bool:
    """A cheap superset of :meth:`ErrorModel.tool_like` (``outside``: ``effects.outside_screen`` of the file)."""
    roots, lasts = outside
    for n in walk_in_scope_ast(body):
        if isinstance(n, (ast.Await, ast.AsyncWith, ast.AsyncFor)):
            return True
        if isinstance(n, ast.Call) and effects.may_reach_outside_ast(n, roots, lasts, knowledge):
            return True
    return False


# ---------------------------------------------------------------- the model


class ErrorModel:
    """Per-file facts about ``except`` clauses (an engine model: one per file, dispatched right after the resolver)."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.names: Names = ctx.names
        self.knowledge = ctx.knowledge
        self._parser_only: dict[int, bool] = {}  # id of a handler -> catches only parser errors

    @cached_property
    def helpers(self) -> dict[str, list[cst.FunctionDef]]:
        """Same-module helpers: module-level functions and class methods (nested classes too), by name."""
        out: dict[str, list[cst.FunctionDef]] = {}
        stack: list[cst.CSTNode] = list(self.ctx.module.body) if self.ctx.module is not None else []
        while stack:
            n = stack.pop()
            if isinstance(n, cst.FunctionDef):
                out.setdefault(n.name.value, []).append(n)
            elif isinstance(n, cst.ClassDef) and isinstance(n.body, cst.IndentedBlock):
                stack.extend(n.body.body)
        return out

    # ------------------------------------------------------------ handlers

    def exception_names(self) -> set[str]:
        """The names the enclosing ``except ... as name`` clauses bind (innermost or not)."""
        return {h.name for h in self.names.handlers if h.name is not None}

    def catches_broadly(self, node: cst.ExceptHandler) -> bool:
        """A bare ``except:``, or ``except Exception``/``BaseException`` naming the builtins."""
        return catches_broadly(node, self.names)

    @staticmethod
    def type_names(handler: AnyHandler) -> list[str | None]:
        """The dotted names of the types a handler catches (None: not a dotted name)."""
        return [dotted(t) for t in handler_types(handler)]

    def parser_only(self) -> bool:
        """The innermost enclosing handler catches only parser errors (``ValueError``, ``JSONDecodeError``, ...)."""
        handler = self.names.handler
        if handler is None:
            return False
        key = id(handler.node)
        if key not in self._parser_only:
            types = handler_types(handler.node)
            self._parser_only[key] = bool(types) and all(last_name(t) in self.knowledge.parser_errors for t in types)
        return self._parser_only[key]

    def already_gone(self, types: Sequence[str | None]) -> bool:
        return already_gone(types, self.knowledge)

    def recording_call(self, call: cst.Call, *, wide: bool = False) -> bool:
        """A call that records an error: a logger's method, ``warnings.warn``/``print``..., a callee named like
        error/fail/report/warn/log/alert/notify. ``wide`` (what a handler's record is): also a recording
        function called by its last name, and anything of ``logging``/``traceback``."""
        k = self.knowledge
        name = last_name(call.func) or ""
        if name in k.recording_methods or (wide and name in k.recording_functions):
            return True
        if any(part in name.lower() for part in k.recording_name_parts):
            return True
        qn = self.names.qualname(call.func)  # the costlier question last
        if qn is None:
            return False
        return qn in k.recording_functions or (wide and qn.startswith(("logging.", "traceback.")))

    def records(self, handler: Handler) -> bool:
        """The handler raises, uses the exception, or makes a recording call (``recording_call(wide=True)``)."""
        exc = handler.name
        for n in walk_in_scope(handler.node.body):
            if isinstance(n, cst.Raise):
                return True
            if isinstance(n, cst.Name) and exc is not None and n.value == exc:
                return True
            if isinstance(n, cst.Call) and self.recording_call(n, wide=True):
                return True
        return False

    @cached_property
    def classes(self) -> dict[str, list[cst.ClassDef]]:
        """Same-module classes (nested classes too), by name: a factory's or constructor's signature."""
        out: dict[str, list[cst.ClassDef]] = {}
        stack: list[cst.CSTNode] = list(self.ctx.module.body) if self.ctx.module is not None else []
        while stack:
            n = stack.pop()
            if isinstance(n, cst.ClassDef) and isinstance(n.body, cst.IndentedBlock):
                out.setdefault(n.name.value, []).append(n)
                stack.extend(n.body.body)
        return out

    def positional_names(self, call: cst.Call, *, imported: bool = True) -> list[list[str]]:
        """The positional parameters of each definition the call may run, ``self``/``cls`` dropped: a helper
        (:meth:`helpers_of`), a same-module class's method (``MCPError.tool_error(...)``) or constructor
        (``ToolFailure(...)``: its ``__init__``). Empty when the run has no signature for it."""
        found, method = self.helpers_of(call, imported=imported)
        defs = list(found)
        func = call.func
        if not defs:
            cls, attr = None, "__init__"
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
                cls, attr = func.value.value, func.attr.value
            elif isinstance(func, cst.Name):
                cls = func.value
            for c in self.classes.get(cls or "", []) if cls is not None and self.names.lookup(cls) is None else []:
                assert isinstance(c.body, cst.IndentedBlock)
                defs += [n for n in c.body.body if isinstance(n, cst.FunctionDef) and n.name.value == attr]
            method = True
        out: list[list[str]] = []
        for d in defs:
            params = [p.name.value for p in (*d.params.posonly_params, *d.params.params)]
            if method and params and params[0] in ("self", "cls"):
                params = params[1:]
            out.append(params)
        return out

    # ------------------------------------------------------------ helpers followed

    def helpers_of(self, call: cst.Call, *, imported: bool = True) -> tuple[list[cst.FunctionDef], bool]:
        """The definitions a call may run (``make_error(...)``, ``self._error_json(...)``), and whether they are
        methods (their first parameter is then ``self``/``cls``, not an argument): the module's own, and with
        ``imported`` a function imported from, or a method inherited from a class of, another module of the
        project (read from disk: asked only where the exception is handed to the call)."""
        func = call.func
        if isinstance(func, cst.Name) and self.names.lookup(func.value) is None:
            return self.helpers.get(func.value, []), False
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            own = self.helpers.get(func.attr.value, [])
            return (own or (self._inherited(func.attr.value) if imported else [])), True
        return (self._imported(func) if imported else []), False

    def _imported(self, func: cst.BaseExpression) -> list[cst.FunctionDef]:
        """A function of another module of the same project the callee names (``from ..utils.errors import
        describe``, ``errors.describe``), read from disk (``linter/imports_disk.py``)."""
        if not isinstance(func, (cst.Name, cst.Attribute)):
            return []
        qn = self.names.qualname(func)
        if qn is None or "." not in qn:
            return []
        found = imported_definition(self.ctx.path, qn)
        return [found] if isinstance(found, cst.FunctionDef) else []

    def _inherited(self, method: str) -> list[cst.FunctionDef]:
        """``self.m(...)`` where ``m`` is defined by a base class imported from another module of the project
        (the base's own body only)."""
        owner = next((s.node for s in reversed(self.names.stack) if s.kind == "class"), None)
        if not isinstance(owner, cst.ClassDef):
            return []
        out: list[cst.FunctionDef] = []
        for base in owner.bases:
            if base.keyword is not None:
                continue
            qn = self.names.qualname(base.value)
            if qn is not None and "." in qn:
                found = imported_method(self.ctx.path, qn, method)
                if found is not None:
                    out.append(found)
        return out

    # ------------------------------------------------------------ calls out

    def reaches_outside(self, call: cst.Call) -> bool:
        """See :func:`smullyan.linter.effects.reaches_outside`."""
        return effects.reaches_outside(call, self.names, self.knowledge, self._imports)

    @cached_property
    def _imports(self) -> frozenset[str]:
        """The module's imported top-level names (SDK methods known by name need their package imported)."""
        return self.ctx.screen.import_roots

    def tool_like(self, body: cst.BaseSuite) -> bool:
        """Whether the ``try`` body awaits or makes a call that reaches outside (nested scopes excluded); an
        import of an optional package makes it a probe, not tool work."""
        if any(_probe(n) for n in walk_in_scope(body)):
            return False
        for n in walk_in_scope(body):
            if isinstance(n, cst.Await):
                return True
            if isinstance(n, (cst.With, cst.For)) and n.asynchronous is not None:
                return True
            if isinstance(n, cst.Call) and self.reaches_outside(n):
                return True
        return False

    @staticmethod
    def probes(body: cst.BaseSuite) -> bool:
        """The ``try`` imports an optional package (nested scopes excluded): a probe, not tool work."""
        return any(_probe(n) for n in walk_in_scope(body))

    def remote_receiver(self, body: cst.BaseSuite) -> bool:
        """The ``try`` calls a method of an object named like a client, db, store, manager, cluster, bucket..."""
        tool_words = self.knowledge.tool_receiver_words
        for n in walk_in_scope(body):
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and effects.chain_words(n.func) & tool_words:
                ref = self.names.qualify(n.func.value)
                if ref is not None and not ref[1]:
                    continue  # a module's function (socket.inet_aton), not a method of a client
                return True
        return False

    @staticmethod
    def reads_cache(body: cst.BaseSuite) -> bool:
        """The ``try`` calls a method of something named like a cache (``self._cache.get(k)``)."""
        return any(
            isinstance(n, cst.Call) and "cache" in (receiver_name(n.func) or "").lower() for n in walk_in_scope(body)
        )

    # ------------------------------------------------------------ functions

    @staticmethod
    def returns(func: cst.FunctionDef) -> list[cst.Return]:
        """The function's own ``return`` statements (not those of nested definitions)."""
        return [n for n in walk_in_scope(func.body) if isinstance(n, cst.Return)]

    @staticmethod
    def bool_valued(v: cst.BaseExpression) -> bool:
        """``True``/``False``, a comparison, ``not ...``, ``isinstance(...)``..., and ``and``/``or`` of those."""
        if isinstance(v, cst.Name):
            return v.value in ("True", "False")
        if isinstance(v, cst.Comparison):
            return True
        if isinstance(v, cst.UnaryOperation):
            return isinstance(v.operator, cst.Not)
        if isinstance(v, cst.BooleanOperation):
            return ErrorModel.bool_valued(v.left) and ErrorModel.bool_valued(v.right)
        if isinstance(v, cst.Call):
            return isinstance(v.func, cst.Name) and v.func.value in _BOOL_CALLS
        return False


def _probe(node: cst.CSTNode) -> bool:
    """An import of an optional package (not the standard library, not a relative one): the ``try`` is a probe."""
    if isinstance(node, cst.Import):
        roots = [(dotted(a.name) or "").split(".")[0] for a in node.names]
    elif isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
        roots = [(dotted(node.module) or "").split(".")[0]]
    else:
        return False
    return any(r and r not in sys.stdlib_module_names for r in roots)


# ---------------------------------------------------------------- the base of the family's rules


class ErrorRule(Rule):
    """Base class of the error-handling rules (TFH401-TFH403): asks for :class:`ErrorModel`, kept as ``self.model``.

    Not a rule itself (it has no code). The rules check as the traversal
    goes (the model answers about the code being visited); a subclass adds
    models it also reads (TFH401: ``text.ExceptionText``) after this one.
    """

    models: ClassVar[tuple[type, ...]] = (ErrorModel,)

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.model: ErrorModel = ctx.models[ErrorModel]
