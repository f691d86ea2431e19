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

Files are screened by bytes (``\\bName\\b``), only those parsed (``ast``), once per process per project and name, and
recorded for the cache: each file read by its sha256, and which files name the class followed by ``(`` (a ``defines:``
key, :func:`~.imports_disk.dependency_digest`).
"""

from __future__ import annotations

import ast
import re

from . import imports_disk as disk

__all__ = ["own_refusal"]

#: keywords that carry an exception's message when no positional argument is given
MESSAGE_KEYWORDS = frozenset({"message", "msg", "detail", "details", "reason", "error", "text", "description"})

# (package dir, class) -> (own, files read, the cache's ``defines:`` keys with their digests)
_memo: dict[tuple[str, str], tuple[bool, list[str], dict[str, str]]] = {}


#: names that conventionally hold an exception (``def _vcs_unavailable(tool, exc)``: a failure handed in)
EXCEPTION_NAMES = frozenset({"e", "ex", "exc", "err", "error", "exception", "cause", "original", "inner"})


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


def _caught_names(tree: ast.Module) -> dict[int, frozenset[str]]:
    """id of each call -> the names that may hold another failure there: what the ``except ... as`` clauses
    enclosing it bind (in its own function), its function's parameters annotated with an exception class, and the
    conventional names of an exception (:data:`EXCEPTION_NAMES`)."""
    out: dict[int, frozenset[str]] = {}

    def walk(node: ast.AST, bound: frozenset[str]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = bound
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = EXCEPTION_NAMES | _exception_params(child)
            elif isinstance(child, ast.ClassDef):
                inner = EXCEPTION_NAMES
            elif isinstance(child, ast.ExceptHandler) and child.name:
                inner = bound | {child.name}
            if isinstance(child, ast.Call):
                out[id(child)] = inner
            walk(child, inner)

    walk(tree, EXCEPTION_NAMES)
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
    return all(_written(k.value) for k in call.keywords if k.arg in MESSAGE_KEYWORDS)


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {b.id if isinstance(b, ast.Name) else b.attr for b in cls.bases if isinstance(b, (ast.Name, ast.Attribute))}


def _read(files: list[str]) -> list[tuple[str, ast.Module]]:
    out: list[tuple[str, ast.Module]] = []
    for file in files:
        try:
            with open(file, "rb") as handle:
                data = handle.read(disk.MAX_BYTES + 1)
            if len(data) > disk.MAX_BYTES:
                continue
            out.append((file, ast.parse(data)))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return out


def _screen(files: list[str], name: str) -> list[str]:
    needle = re.compile(rb"\b" + name.encode() + rb"\b")
    out: list[str] = []
    for file in files:
        try:
            with open(file, "rb") as handle:
                if needle.search(handle.read(disk.MAX_BYTES + 1)):
                    out.append(file)
        except OSError:
            continue
    return out


def _decide(files: list[str], name: str) -> tuple[bool, list[str], list[str]]:
    family, todo, defined, read = {name}, [name], False, []
    constructed = False
    seen: set[tuple[str, str]] = set()
    parsed: dict[str, ast.Module] = {}
    while todo:
        current = todo.pop()
        for file, tree in _read([f for f in _screen(files, current) if f not in parsed]):
            parsed[file] = tree
            read.append(file)
        for file, tree in parsed.items():
            if (file, current) in seen:
                continue
            seen.add((file, current))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    if node.name == name:
                        defined = True
                    if current in _base_names(node) and node.name not in family:
                        family.add(node.name)
                        todo.append(node.name)
    if not defined:
        return False, read, sorted(family)
    for tree in parsed.values():
        caught = _caught_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _callee(node) in family:
                constructed = True
                if not _own_message(node, caught.get(id(node), frozenset())):
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
        keys = {disk._defines_key(directory, m + "("): disk._files_digest(disk._defining(files, m, calls=True))
                for m in family}
        _memo[key] = (own, read, keys)
    own, read, keys = _memo[key]
    if disk._recorder:
        for file in read:
            sha = disk.digest_of(file)
            if sha is not None:
                disk._recorder[-1][file] = sha
        disk._recorder[-1].update(keys)
    return own
