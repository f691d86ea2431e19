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
``class`` statements' bases: the class's family), only the files that call one of the family parsed (``ast``, once per
process), and recorded for the cache: each file read by its sha256, and which files name a member followed by ``(`` (a
``defines:`` key, :func:`~.imports_disk.dependency_digest`).
"""

from __future__ import annotations

import ast
import re

from . import imports_disk as disk
from . import knowledge as kb

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


def _written(node: ast.expr) -> bool:
    """A message the package wrote here: a literal, an f-string, a literal's ``%``/``.format``, a constant's name."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _written(node.left) and _written(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
    if isinstance(node, ast.Name):
        return node.id.isupper()  # PRO_MESSAGE: a constant of the package
    return False


def _own_message(call: ast.Call, caught: frozenset[str]) -> bool:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return False
    values = [*call.args, *(k.value for k in call.keywords)]
    if any(isinstance(n, ast.Name) and n.id in caught for v in values for n in ast.walk(v)):
        return False  # the caught failure formatted into the package's exception
    if call.args:
        return _written(call.args[0])
    return all(_written(k.value) for k in call.keywords if k.arg in kb.EXCEPTION_MESSAGE_KEYWORDS)


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


#: a capitalised identifier followed by ``(`` (``ToolError(``, ``_Incomplete(``), and a class statement's bases
_CALLED = re.compile(rb"\b(_*[A-Z]\w*)\s*\(")
_CLASS = re.compile(rb"^[ \t]*class\s+(\w+)\s*\(([^)]*)\)", re.MULTILINE)

# file -> the capitalised names it calls (or defines a class of), and its classes with the last names of their bases
_words: dict[str, tuple[frozenset[str], dict[str, frozenset[str]]]] = {}
_summaries: dict[str, dict[str, bool] | None] = {}  # file -> capitalised callee -> every call passes a written message


def _file_words(file: str) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """A file's capitalised names followed by ``(`` and its classes' bases, by bytes, once per process."""
    if file not in _words:
        try:
            with open(file, "rb") as handle:
                data = handle.read(disk.MAX_BYTES + 1)
        except OSError:
            data = b""
        classes: dict[str, frozenset[str]] = {}
        for m in _CLASS.finditer(data):
            bases = {b.strip().rsplit(b".", 1)[-1].decode("ascii", "replace") for b in m.group(2).split(b",")}
            classes[m.group(1).decode("ascii", "replace")] = frozenset(bases)
        _words[file] = (frozenset(w.decode("ascii", "replace") for w in _CALLED.findall(data)), classes)
    return _words[file]


def _summary(file: str) -> dict[str, bool] | None:
    """One parse per file per process: for each capitalised callee, whether every call of it passes a message
    written there (:func:`_own_message`), read in one walk that tracks the names holding another failure."""
    if file not in _summaries:
        result: dict[str, bool] | None = None
        try:
            with open(file, "rb") as handle:
                data = handle.read(disk.MAX_BYTES + 1)
            if len(data) <= disk.MAX_BYTES:
                result = _callees(ast.parse(data))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            result = None
        _summaries[file] = result
    return _summaries[file]


def _callees(tree: ast.Module) -> dict[str, bool]:
    out: dict[str, bool] = {}
    stack: list[tuple[ast.AST, frozenset[str]]] = [(tree, kb.CONVENTIONAL_EXCEPTION_NAMES)]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, ast.Call):
            name = _callee(node)
            if name and name.lstrip("_")[:1].isupper():
                out[name] = out.get(name, True) and _own_message(node, bound)
        for child in ast.iter_child_nodes(node):
            inner = bound
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = kb.CONVENTIONAL_EXCEPTION_NAMES | _exception_params(child)
            elif isinstance(child, ast.ClassDef):
                inner = kb.CONVENTIONAL_EXCEPTION_NAMES
            elif isinstance(child, ast.ExceptHandler) and child.name:
                inner = bound | {child.name}
            stack.append((child, inner))
    return out


def _decide(files: list[str], name: str) -> tuple[bool, list[str], list[str]]:
    """Whether ``name`` is a refusal in the project of ``files``; the files read; the class's family (it and the
    project's subclasses of it, to any depth, by their class statements)."""
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
    for file in read:
        summary = _summary(file)
        if summary is None:
            return False, read, sorted(family)  # a module that does not parse: nothing is proved
        for member in family & summary.keys():
            constructed = True
            if not summary[member]:
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
