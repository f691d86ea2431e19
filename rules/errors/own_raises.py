"""s55 (issue 24): a handler of builtin classes that only the project's own checks raise, with their own words (TFH401).

s48 (:mod:`.refusals`) silences a handler of the project's own exception classes; a project's checks raise builtins
just as often (``raise ValueError("path outside the workspace")``, ``raise PermissionError(f"{path} is protected")``).
A handler ``except ValueError as e`` (``KeyError``, ``LookupError``, ``PermissionError``: :data:`CLASSES`; every
class it names one of them) hands the model a message the package wrote for it when

- every call in its ``try`` (not awaited, none a ``raise``'s construction) is a project function (the module's own,
  or one imported from the project and read from disk: ``ErrorModel.helpers_of``) or a call that cannot raise the
  caught classes (:data:`SAFE_CALLS`, :data:`SAFE_METHODS`: ``isinstance``, ``str.strip``, ``os.path.join``,
  ``Path(p)``);
- every such project function's body does the same (the module's own functions it calls, two levels; a function read
  from disk: its own calls must be safe ones), its calls inside a local ``try`` whose handler catches the class
  excepted, and every ``raise`` in it of a caught class (or a subclass) builds it from a message written there (a
  literal, an f-string of names that hold no failure, a constant), never ``raise``, ``raise err`` or
  ``ValueError(str(e))``;
- nothing in them raises the class by itself: no subscript read under ``KeyError``/``LookupError``, no unpacking
  assignment under ``ValueError``, no file-system query under ``PermissionError``;
- and at least one of them raises a caught class so (the evidence; a ``try`` of safe calls only proves nothing).

Lean to silence only with evidence: a library call (``int(x)``, ``json.loads``, ``p.relative_to(root)``,
``open``), a method of an object (``self._store.get_task(id)``), a class the project defines, or a function whose
body is not read keeps the finding.
"""

from __future__ import annotations

import ast
import builtins
from typing import Union

import libcst as cst

from ...linter.api import Handler, handler_types, imported_definition_ast, last_name, walk_in_scope, walk_in_scope_ast
from .model import ErrorModel, definitions

__all__ = ["raises_only_own_builtins"]

#: builtin classes a project's checks raise in their own words (not ``TypeError``/``RuntimeError``: any call may)
CLASSES = frozenset({"ValueError", "KeyError", "LookupError", "PermissionError"})

#: builtins (and ``pathlib``'s constructors) that raise none of :data:`CLASSES` on any argument
SAFE_CALLS = frozenset({
    "isinstance", "issubclass", "len", "str", "repr", "bool", "list", "dict", "set", "tuple", "frozenset", "sorted",
    "reversed", "enumerate", "zip", "any", "all", "hasattr", "callable", "getattr", "Path", "PurePath",
    "PurePosixPath",
})

#: methods (of strings, dicts, lists, paths, ``os.path``) that raise none of :data:`CLASSES`
SAFE_METHODS = frozenset({
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "startswith", "endswith", "replace", "join", "split",
    "rsplit", "splitlines", "isdigit", "isalnum", "isalpha", "isidentifier", "isspace", "items", "keys", "values",
    "get", "append", "add", "extend", "copy", "setdefault", "is_absolute", "expanduser", "normpath", "abspath",
    "basename", "dirname", "splitext", "isabs", "as_posix", "with_suffix", "match", "fullmatch", "search", "home",
})

#: methods that query the file system (a ``PermissionError`` of their own)
FS_METHODS = frozenset({"exists", "is_dir", "is_file", "isdir", "isfile", "resolve", "realpath"})

#: a logger's methods (on a receiver so named: ``logger.info(...)``, ``log.debug(...)``), which raise nothing
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
_LOGGERS = frozenset({"logger", "log", "_logger", "_log", "LOGGER", "LOG", "logging"})

#: names that conventionally hold a caught failure (``f"bad path: {e}"`` formats another failure's text)
_FAILURE_NAMES = frozenset({"e", "ex", "exc", "err", "error", "cause", "exception", "reason"})

_BUILTIN_CLASSES: dict[str, type] = {
    n: c for n, c in vars(builtins).items() if isinstance(c, type) and issubclass(c, BaseException)}

_AstDef = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def raises_only_own_builtins(errors: ErrorModel, handler: Handler) -> bool:
    """Whether ``handler`` catches only builtin classes its ``try``'s project callees raise with their own words
    (module docstring)."""
    types = handler_types(handler.node)
    names = [t.value for t in types if isinstance(t, cst.Name)]
    if not names or len(names) != len(types) or not all(n in CLASSES and errors.names.is_builtin(n) for n in names):
        return False
    state = _State(errors, tuple(_BUILTIN_CLASSES[n] for n in names))
    return state.try_ok(handler.statement.body) and state.evidence


class _State:
    def __init__(self, errors: ErrorModel, caught: tuple[type, ...]) -> None:
        self.errors = errors
        self.caught = caught
        self.evidence = False
        self.seen: set[int] = set()
        screen = errors.ctx.screen
        self.bound: frozenset[str] = screen.memo("own_raises.bound", lambda: frozenset(
            local for local, _ in screen.import_bindings))

    def catches(self, name: str) -> bool:
        cls = _BUILTIN_CLASSES.get(name)
        return cls is not None and issubclass(cls, self.caught)

    def _covers(self, name: str) -> bool:
        cls = _BUILTIN_CLASSES.get(name)
        return cls is not None and all(issubclass(c, cls) for c in self.caught)

    def _raised(self, name: str, written: bool) -> bool:
        """A ``raise`` of class ``name``: fine unless it is a caught class without a written message."""
        if name not in _BUILTIN_CLASSES:
            return False  # a project's or a library's class: may subclass a caught one (s48 reads those)
        if not self.catches(name):
            return True
        if written:
            self.evidence = True
        return written

    def _local_defs(self, name: str) -> list[_AstDef]:
        screen = self.errors.ctx.screen
        defs = screen.memo("input_check.defs", lambda: definitions(screen.tree))
        return [d for d in defs if d.name == name]

    # ------------------------------------------------------------ the handler's own ``try`` (libcst)

    def try_ok(self, body: cst.CSTNode) -> bool:
        raised: set[int] = set()
        for n in walk_in_scope(body):
            if isinstance(n, cst.Raise):
                exc = n.exc
                call = exc if isinstance(exc, cst.Call) else None
                if exc is None or not self._raised(last_name(call.func if call else exc) or "",
                                                   call is not None and _written_cst(call)):
                    return False
                raised.add(id(exc))
        stored = {id(t.target) for n in walk_in_scope(body) if isinstance(n, cst.Assign) for t in n.targets}
        for n in walk_in_scope(body):
            if id(n) in raised:
                continue
            if isinstance(n, (cst.Await, cst.Yield)) or (isinstance(n, (cst.For, cst.With)) and n.asynchronous):
                return False
            if isinstance(n, cst.Subscript) and self.catches("KeyError") and id(n) not in stored:
                return False
            if isinstance(n, cst.Assign) and self.catches("ValueError") and any(
                    isinstance(t.target, (cst.Tuple, cst.List)) for t in n.targets):
                return False
            if isinstance(n, cst.Call) and not self._call_cst(n):
                return False
        return True

    def _call_cst(self, call: cst.Call) -> bool:
        func = call.func
        name = last_name(func) or ""
        if isinstance(func, cst.Name) and (name in SAFE_CALLS or (name in ("min", "max") and len(call.args) >= 2
                                                                   and not any(a.star for a in call.args))):
            return True
        if isinstance(func, cst.Attribute) and (self._safe_method(name) or (
                name in LOG_METHODS and isinstance(func.value, cst.Name) and func.value.value in _LOGGERS)):
            return True
        names = self.errors.names
        if isinstance(func, cst.Name) and names.lookup(name) is None:
            defs = self._local_defs(name)
            return bool(defs) and all(self._def_ok(d, 1, local=True) for d in defs)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            defs = self._local_defs(name)
            return bool(defs) and all(self._def_ok(d, 1, local=True) for d in defs)
        qn = names.qualname(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        found = imported_definition_ast(self.errors.ctx.path, qn) if qn and "." in qn else None
        return found is not None and self._def_ok(found, 1, local=False)

    def _safe_method(self, name: str) -> bool:
        return name in SAFE_METHODS or (name in FS_METHODS and not self.catches("PermissionError"))

    # ------------------------------------------------------------ a project function's body (ast)

    def _def_ok(self, d: _AstDef, depth: int, *, local: bool) -> bool:
        if id(d) in self.seen:
            return True
        self.seen.add(id(d))
        if isinstance(d, ast.AsyncFunctionDef):
            return False
        covered: set[int] = set()
        for n in walk_in_scope_ast(d.body):
            if isinstance(n, ast.Try) and any(
                    any(isinstance(t, ast.Name) and self._covers(t.id) for t in _types(h)) for h in n.handlers):
                covered |= {id(x) for x in walk_in_scope_ast(n.body)}
        raised: set[int] = set()
        for n in walk_in_scope_ast(d.body):
            if isinstance(n, ast.Raise):
                exc = n.exc
                call = exc if isinstance(exc, ast.Call) else None
                if exc is None or not self._raised(last_name(call.func if call else exc) or "",
                                                   call is not None and _written_ast(call)):
                    return False
                raised.add(id(exc))
        for n in walk_in_scope_ast(d.body):
            if id(n) in raised or id(n) in covered:
                continue
            if isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom, ast.AsyncFor, ast.AsyncWith)):
                return False
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and self.catches("KeyError"):
                return False
            if isinstance(n, ast.Assign) and self.catches("ValueError") and any(
                    isinstance(t, (ast.Tuple, ast.List)) for t in n.targets):
                return False
            if isinstance(n, ast.Call) and not self._call_ast(n, depth, local=local):
                return False
        return True

    def _call_ast(self, call: ast.Call, depth: int, *, local: bool) -> bool:
        func = call.func
        name = last_name(func) or ""
        if isinstance(func, ast.Name) and (name in SAFE_CALLS or (name in ("min", "max") and len(call.args) >= 2
                                                                  and not any(isinstance(a, ast.Starred) for a in call.args))):
            return True
        if isinstance(func, ast.Attribute) and (self._safe_method(name) or (
                name in LOG_METHODS and isinstance(func.value, ast.Name) and func.value.id in _LOGGERS)):
            return True
        if not local or depth >= 2:
            return False  # a function read from disk: its own callees are not resolved here
        mine = (isinstance(func, ast.Name) and name not in self.bound) or (
            isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"))
        defs = self._local_defs(name) if mine else []
        return bool(defs) and all(self._def_ok(x, depth + 1, local=True) for x in defs)


def _types(h: ast.ExceptHandler) -> list[ast.expr]:
    t = h.type
    return [] if t is None else list(t.elts) if isinstance(t, ast.Tuple) else [t]


def _written_cst(call: cst.Call) -> bool:
    """The raise's message was written there: no argument, or a literal, an f-string of names that hold no failure
    (and no call), a literal's ``%``, a constant's name."""
    if not call.args:
        return True
    if any(a.star for a in call.args):
        return False
    return _text_cst(call.args[0].value)


def _text_cst(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.SimpleString):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _text_cst(node.left) and _text_cst(node.right)
    if isinstance(node, cst.FormattedString):
        return all(not isinstance(n, cst.Call) and not (isinstance(n, cst.Name) and n.value in _FAILURE_NAMES)
                   for p in node.parts if isinstance(p, cst.FormattedStringExpression)
                   for n in walk_in_scope(p.expression))
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return isinstance(node.left, cst.SimpleString)
    return isinstance(node, cst.Name) and node.value.isupper()


def _written_ast(call: ast.Call) -> bool:
    if not call.args:
        return not call.keywords
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    return _text_ast(call.args[0])


def _text_ast(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return all(not isinstance(n, ast.Call) and not (isinstance(n, ast.Name) and n.id in _FAILURE_NAMES)
                   for v in node.values if isinstance(v, ast.FormattedValue) for n in ast.walk(v.value))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text_ast(node.left) and _text_ast(node.right)
    return isinstance(node, ast.Name) and node.id.isupper()
