"""s48: a project's own refusal exceptions, read from its modules on disk (TFH401: the text of such an exception is a
message the package wrote for the model, not a stringified failure).

An exception class is the project's own refusal when the linted file's top-level package (:mod:`.imports_disk`) defines
a class of that name, and every construction of it or of a subclass the project defines (``raise
PathError("path outside the workspace")``, ``err = ToolError(f"{path} is a directory")``) passes a message written
there: no argument, or a first argument (``message=``/``msg=``/``detail=``... without one) that is a string literal, an
f-string, a literal's ``%``/``.format(...)``, a concatenation of those, or a constant's name (``PRO_MESSAGE``); and no
argument of it holds a name that may hold another failure (one an enclosing ``except ... as`` binds, a parameter
annotated with an exception class, or a conventional exception name, ``e``/``exc``/``err``/``error``/``cause``...:
``raise SessionError(f"send failed: {cause}")``, ``ChangeDiscoveryError(f"git could not be run ({exc})")`` formats
another failure into it: a stringified failure). A message in a variable (``raise ToolError(msg)``,
``ToolError(result.stderr)``, ``ToolError(str(exc))``) may be anyone's text: the class is no refusal. A class the
project never constructs proves nothing (no).

The project's files are screened by bytes once per process (the capitalised names each calls, ``Name(``, and its
``class`` statements' bases: the class's family; s57: in the read :mod:`.file_names` makes for the ``defines:`` keys), only the files that call one of the family parsed (``ast``, once per
process), and recorded for the cache: each file read by its sha256, and which files name a member followed by ``(`` (a
``defines:`` key, :func:`~.imports_disk.dependency_digest`).
"""

from __future__ import annotations

import ast
import builtins
import re

from . import imports_disk as disk
from . import knowledge as kb
from .file_names import file_classes, file_names

__all__ = ["own_refusal"]


# (package dir, class) -> (own, files read, the cache's ``defines:`` keys with their digests)
_memo: dict[tuple[str, str], tuple[bool, list[str], dict[str, str]]] = {}




def _exception_params(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """Parameters annotated with an exception class (``exc: BaseException``, ``err: OSError``)."""
    out: set[str] = set()
    a = func.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
        ann = arg.annotation
        name = ann.id if isinstance(ann, ast.Name) else ann.attr if isinstance(ann, ast.Attribute) else ""
        if name.endswith(("Error", "Exception")) or name == "BaseException":
            out.add(arg.arg)
    return out


def _written(node: ast.expr, texts: frozenset[str] = frozenset()) -> bool:
    """A message the package wrote here: a literal, an f-string, a literal's ``%``/``.format``, a constant's name; or
    (s52) a name holding input text (``texts``), or ``str()`` of one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _written(node.left, texts) and _written(node.right, texts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and len(node.args) == 1:
        return isinstance(node.args[0], ast.Name) and node.args[0].id in texts
    if isinstance(node, ast.Name):
        return node.id.isupper() or node.id in texts  # PRO_MESSAGE: a constant of the package
    return False


#: a call's verdict: every message written there; the project classes whose refusal that rests on (s52: the text of a
#: caught refusal of the project's handed on, ``except ConfigError as e: raise UserInputError(str(e))``); and whether
#: some call translates another failure (made in an ``except`` body, or raised ``from`` another exception)
Verdict = tuple[bool, frozenset[str], bool]


def _own_message(call: ast.Call, caught: frozenset[str], texts: dict[str, frozenset[str]]) -> tuple[bool, frozenset[str]]:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return False, frozenset()
    values = [*call.args, *(k.value for k in call.keywords)]
    used = {n.id for v in values for n in ast.walk(v) if isinstance(n, ast.Name)}
    if used & caught:
        return False, frozenset()  # the caught failure formatted into the package's exception
    needs: frozenset[str] = frozenset().union(*(texts[n] for n in used & texts.keys()))
    names = frozenset(texts)
    if call.args:
        return _written(call.args[0], names), needs
    return all(_written(k.value, names) for k in call.keywords if k.arg in kb.EXCEPTION_MESSAGE_KEYWORDS), needs


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


#: a capitalised identifier (``ToolError``, ``_Incomplete``): of the names a file calls, those a class may be called by
_CAPITALISED = re.compile(rb"_*[A-Z]\w*")

# file -> the capitalised names it calls (or defines a class of), and its classes with the last names of their bases
_words: dict[str, tuple[frozenset[str], dict[str, frozenset[str]]]] = {}
_summaries: dict[str, dict[str, Verdict] | None] = {}  # file -> capitalised callee -> every call passes a written message


def _file_words(file: str) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """A file's capitalised names followed by ``(`` and its classes' bases, from the one read of its bytes
    :mod:`.file_names` makes per process (s57: ``imports_disk._defining``'s screen of the same files)."""
    if file not in _words:
        names = file_names(file, disk.MAX_BYTES)
        called = frozenset(w.decode("ascii") for w in names[0] if _CAPITALISED.fullmatch(w)) if names else frozenset()
        _words[file] = (called, file_classes(file, disk.MAX_BYTES))
    return _words[file]


def _summary(file: str) -> dict[str, Verdict] | None:
    """One parse per file per process: for each capitalised callee, whether every call of it passes a message
    written there (:func:`_own_message`), read in one walk that tracks the names holding another failure."""
    if file not in _summaries:
        result: dict[str, Verdict] | None = None
        try:
            with open(file, "rb") as handle:
                data = handle.read(disk.MAX_BYTES + 1)
            if len(data) <= disk.MAX_BYTES:
                result = _callees(ast.parse(data))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            result = None
        _summaries[file] = result
    return _summaries[file]


def _imports(tree: ast.Module) -> dict[str, str]:
    """The names the module's imports bind, each to the qualified name it stands for."""
    out: dict[str, str] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            out.update((a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0]) for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
            out.update((a.asname or a.name, f"{n.module}.{a.name}") for a in n.names)
    return out


def _qualified(node: ast.expr, imports: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in imports:
        return None
    return ".".join((imports[node.id], *reversed(parts)))


def _parses_parameters(body: list[ast.stmt], fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None,
                       imports: dict[str, str]) -> bool:
    """s52: a ``try`` body whose every call parses text in memory (``INPUT_PARSERS``) or binds arguments to a
    signature (``inspect.signature(fn).bind(**arguments)``), at least one of them handed a parameter of the
    enclosing function: its error is about that input (which argument, which character), not another failure."""
    if fn is None:
        return False
    a = fn.args
    params = {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if p is not None} - {"self", "cls"}
    signatures = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                  and _qualified(n.value.func, imports) in kb.SIGNATURE_FACTORIES for t in n.targets if isinstance(t, ast.Name)}
    handed = False
    for stmt in body:
        if not isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)):
            return False
        for n in ast.walk(stmt):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            binds = isinstance(f, ast.Attribute) and f.attr in kb.SIGNATURE_BINDING_METHODS and (
                isinstance(f.value, ast.Name) and f.value.id in signatures or isinstance(f.value, ast.Call)
                and _qualified(f.value.func, imports) in kb.SIGNATURE_FACTORIES)
            if not binds and _qualified(f, imports) not in kb.INPUT_PARSERS:
                if not (isinstance(f, ast.Call) or _qualified(f, imports) in kb.SIGNATURE_FACTORIES):
                    return False
                continue  # `inspect.signature(fn)` itself, the receiver of a bind
            values = [*n.args, *(k.value for k in n.keywords)]
            handed = handed or any(isinstance(x, ast.Name) and x.id in params for v in values for x in ast.walk(v))
    return handed


def _caught(handler: ast.ExceptHandler) -> list[str] | None:
    """The last names of the classes a handler catches (``ConfigError``, ``errors.ConfigError``), or None."""
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
    out = [t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else "" for t in types]
    return out if out and all(n.lstrip("_")[:1].isupper() and not hasattr(builtins, n) for n in out) else None


_Frame = tuple[ast.AST, frozenset[str], dict[str, frozenset[str]], "ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None",
               bool]


def _callees(tree: ast.Module) -> dict[str, Verdict]:
    """Per capitalised callee: whether every call passes a written message, and the classes that rests on. A name a
    handler binds holds another failure, unless (s52) the handler catches only classes that may be the project's own
    refusals (the verdict then rests on them) or its ``try`` only parses the function's parameters."""
    out: dict[str, Verdict] = {}
    imports = _imports(tree)
    stack: list[_Frame] = [(tree, kb.CONVENTIONAL_EXCEPTION_NAMES, {}, None, False)]
    chained = {id(n.exc) for n in ast.walk(tree) if isinstance(n, ast.Raise) and n.cause is not None and n.exc is not None}
    while stack:
        node, bound, texts, fn, handling = stack.pop()
        if isinstance(node, ast.Call):
            name = _callee(node)
            if name and name.lstrip("_")[:1].isupper():
                ok, needs = _own_message(node, bound, texts)
                was = out.get(name, (True, frozenset(), False))
                out[name] = (was[0] and ok, was[1] | needs if was[0] and ok else frozenset(),
                             was[2] or handling or id(node) in chained)
        for child in ast.iter_child_nodes(node):
            inner, held, encl, inside = bound, texts, fn, handling or isinstance(child, ast.ExceptHandler)
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner, held, encl, inside = kb.CONVENTIONAL_EXCEPTION_NAMES | _exception_params(child), {}, child, False
            elif isinstance(child, ast.ClassDef):
                inner, held, encl, inside = kb.CONVENTIONAL_EXCEPTION_NAMES, {}, None, False
            elif isinstance(child, ast.ExceptHandler) and child.name:
                classes = _caught(child)
                if isinstance(node, ast.Try) and _parses_parameters(node.body, fn, imports):
                    inner, held = bound - {child.name}, {**texts, child.name: frozenset()}
                elif classes is not None:
                    inner, held = bound - {child.name}, {**texts, child.name: frozenset(classes)}
                else:
                    inner, held = bound | {child.name}, {k: v for k, v in texts.items() if k != child.name}
            stack.append((child, inner, held, encl, inside))
    return out


def _decide(files: list[str], name: str, depth: int = 1) -> tuple[bool, list[str], list[str]]:
    """Whether ``name`` is a refusal in the project of ``files``; the files read; the class's family (it and the
    project's subclasses of it, to any depth, by their class statements). A construction carrying a caught class's
    text rests on that class being a refusal too: the family's own classes, or another class decided without that
    step (``depth``: one step, so a decision never waits on itself) and raised only by checks, never in place of
    another failure (keycloak's ``DeadlineExceeded``, raised ``from`` the last request's error, is no input's
    refusal: the text handed on is a timeout's)."""
    family, todo = {name}, [name]
    defined = constructed = False
    while todo:
        current = todo.pop()
        for file in files:
            classes = _file_words(file)[1]
            defined = defined or name in classes
            for cls, bases in classes.items():
                if current in bases and cls not in family:
                    family.add(cls)
                    todo.append(cls)
    read = [f for f in files if family & _file_words(f)[0]]
    if not defined:
        return False, read, sorted(family)
    needs: set[str] = set()
    for file in read:
        summary = _summary(file)
        if summary is None:
            return False, read, sorted(family)  # a module that does not parse: nothing is proved
        for member in family & summary.keys():
            constructed = True
            ok, rests, translated = summary[member]
            if not ok or (depth == 0 and (rests - family or translated)):
                return False, read, sorted(family)
            needs |= rests - family
    for other in sorted(needs):
        own, more, kin = _decide(files, other, depth - 1)
        read += [f for f in more if f not in read]
        family |= set(kin)
        if not own:
            return False, read, sorted(family)
    return constructed, read, sorted(family)


def own_refusal(path: str, name: str) -> bool:
    """Whether ``name`` is, in the project of the file at ``path``, an exception class of the project's own whose
    every construction (its subclasses' too) passes a message written there (module docstring)."""
    root = disk._root(path)
    if root is None or not name.isidentifier():
        return False
    directory = root[1]
    key = (directory, name)
    if key not in _memo:
        files = disk._project_listing(directory)
        own, read, family = _decide(files, name)
        # which files name each class of the family followed by `(` (a definition, a construction): the digest
        # dependency_digest computes afresh for a `defines:<name>(` key, so an unchanged project is a cache hit
        keys = {disk._defines_key(directory, m + "("): disk._files_digest(disk._defining(files, m, calls=True))
                for m in family}
        _memo[key] = (own, read, keys)
    own, read, keys = _memo[key]
    disk.record_reads(read, keys)
    return own
