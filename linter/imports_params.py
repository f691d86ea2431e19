"""s54 (issue 23): the client a module-level function's parameter is, read from every call of it in the project.

``def list_pods(k8s_v1, namespace): return k8s_v1.list_namespaced_pod(...)`` (batch 27's seekr-chain): the parameter
has no annotation, but every call of ``list_pods`` in the project hands it ``kube.core_v1`` (a ``CoreV1Api``), a
``kubernetes.client.CoreV1Api()`` built in place, or the caller's own parameter that its callers hand such a client.
Inside the function the parameter is then that client, as it is at run time. Each module of the project that calls
the name (:func:`~.imports_disk.project_call_arguments`'s screen, recorded for the cache) is parsed with libcst and
walked with the resolver (:class:`~.names.Names`, as the linted module is), and each call's argument at the parameter
(by position or keyword) resolved where the call stands: an object of a known class, an attribute of another
module's instance (:func:`~.imports_members.imported_global_member`), an object a project class's instance holds
(:func:`~.imports_members.imported_member`), or the caller's own parameter, read the same way (:data:`_DEPTH` hops).
Every use must be seen, or nothing is answered: a module that mentions the name other than by calling or importing
it (a function handed on as a value: :func:`~.imports_disk.project_only_calls`), a call spreading ``*``/``**``, a
call of that name the resolver does not place (``obj.list_pods(...)``), an argument not given or not known, or two
callers handing different classes. Memoised per process by (module, function, parameter).
"""

from __future__ import annotations

import ast
import os

import libcst as cst

from .imports_disk import MAX_BYTES, _module, _project_listing, _root, project_call_arguments
from .imports_members import imported_global_member, imported_member
from .names import Names, Ref

_DEPTH = 3
_MAX_MODULES = 12  # the modules of the project that use the function, each walked with the resolver
#: (module, function, parameter) -> (the project's files' sizes and mtimes when read, the answer)
_memo: dict[tuple[str, str, str], tuple[tuple[tuple[int, int], ...], Ref]] = {}


def _module_name(path: str, top: str, directory: str) -> tuple[str, str | None]:
    """The dotted name of the project module at ``path`` and its package (as Python has them)."""
    rel = os.path.relpath(os.path.dirname(os.path.realpath(path)), directory)
    package = top if rel == "." else ".".join([top, *rel.split(os.sep)])
    stem = os.path.splitext(os.path.basename(path))[0]
    return (package if stem == "__init__" else f"{package}.{stem}"), package


def _position(fn: cst.FunctionDef, param: str) -> tuple[int | None, bool] | None:
    """The parameter's index among the positionals (None: keyword-only) and whether it may be given by keyword."""
    params = fn.params
    for i, p in enumerate([*params.posonly_params, *params.params]):
        if p.name.value == param:
            return i, i >= len(params.posonly_params)
    return (None, True) if any(p.name.value == param for p in params.kwonly_params) else None


def parameter_client(path: str, fn: cst.FunctionDef, param: str, depth: int = 0, owner: str | None = None) -> Ref:
    """The class (``(qualname, True)``) every call in the project hands parameter ``param`` of ``fn``, a module-level
    function of the module at ``path``; None when any call is not seen or not known, or there is none. s56: with
    ``owner``, ``fn`` is the ``__init__`` of the module-level class ``owner`` and the calls are its constructor's
    (``Launcher(core_api=client.CoreV1Api())``; ``self`` is not handed)."""
    key, root = (os.path.realpath(path), f"{owner}.{fn.name.value}" if owner else fn.name.value, param), _root(path)
    stamps = tuple(_stamp(file) for file in _project_listing(root[1])) if root is not None else ()
    memo = _memo.get(key)
    if memo is None or memo[0] != stamps:
        _memo[key] = (stamps, None)  # a cycle (two functions handing each other the object) answers nothing
        _memo[key] = (stamps, _read(path, fn, param, depth, owner))
    return _memo[key][1]


def _stamp(file: str) -> tuple[int, int]:
    try:
        st = os.stat(file)
    except OSError:
        return -1, -1
    return st.st_size, st.st_mtime_ns


def _only_called(files: list[str], name: str, annotations: bool = False) -> list[str] | None:
    """Every use of the word ``name`` in the project's modules (their ``ast``: comments and docstrings are no use) is
    a call's callee, a ``functools.partial``'s first argument, a ``def`` or an import that does not rename it: the
    modules that mention it; None when a use is of another kind or a module cannot be read. s56: with
    ``annotations`` (a class), a use inside an annotation is no construction and is allowed too (a base class is not:
    a subclass's instances are built with other arguments)."""
    word, mentioning = name.encode(), []
    for file in files:
        try:
            with open(file, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError:
            return None
        if word not in data:
            continue
        if len(data) > MAX_BYTES or _module(file) is None:  # recorded: a changed use changes the answer
            return None
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError):
            return None
        allowed: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                allowed.add(id(node.func))
                callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if callee == "partial" and node.args:
                    allowed.add(id(node.args[0]))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                if any(alias.asname not in (None, name) and name in alias.name.split(".") for alias in node.names):
                    return None
            if annotations:
                notes = [node.annotation] if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation else []
                notes += [node.returns] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns else []
                allowed.update(id(sub) for note in notes for sub in ast.walk(note))
        for node in ast.walk(tree):
            used = (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name)
            if used and id(node) not in allowed:
                return None
        mentioning.append(file)
        if len(mentioning) > _MAX_MODULES:
            return None  # a name used across the project: its callers are not all walked
    return mentioning


def _read(path: str, fn: cst.FunctionDef, param: str, depth: int, owner: str | None = None) -> Ref:
    name, root, where = owner or fn.name.value, _root(path), _position(fn, param)
    if root is None or where is None or depth > _DEPTH:
        return None
    if owner is not None:  # `__init__(self, core_api)`: the constructor's first argument is `core_api`
        if where[0] == 0:
            return None
        where = (where[0] - 1 if where[0] is not None else None, where[1])
    listing = _project_listing(root[1])
    calls = project_call_arguments(path, name)  # recorded: which files call it
    if calls is None or (owner is not None and not calls) or any(call[3] for call in calls):
        return None  # the project not known, a call spreading `*args`/`**kw`; s56: a class never constructed by name
    mentioning = _only_called(listing, name, owner is not None)
    if mentioning is None:
        return None  # a use that is no call
    target = f"{_module_name(path, *root)[0]}.{name}"
    found: set[tuple[str, bool]] = set()
    seen = 0
    for file in mentioning:
        parsed = _module(file)
        if parsed is None:
            return None
        module_name, package = _module_name(file, *root)
        try:
            module = cst.parse_module("".join(parsed.lines))
            walker = _Callers(Names(module, package), name, target, module_name, file)
            module.visit(walker)
        except Exception:  # noqa: TFH402  a module the resolver cannot walk: its calls are not seen
            return None
        for ref in walker.arguments(where, param, file, depth):
            if ref is None or not ref[1]:
                return None
            found.add(ref)
            seen += 1
    return next(iter(found)) if len(found) == 1 and seen else None


class _Callers(cst.CSTVisitor):
    """Walks a module with its resolver and keeps, at each call of the function, what its arguments are there."""

    def __init__(self, names: Names, name: str, target: str, module_name: str, file: str) -> None:
        super().__init__()
        self.names, self.name, self.target, self.module_name, self.file = names, name, target, module_name, file
        self.calls: list[tuple[cst.Call, dict[str, Ref | tuple[cst.FunctionDef, str]]]] = []
        self.unplaced = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        visit = getattr(self.names, f"visit_{type(node).__name__}", None)
        if visit is not None:
            visit(node)
        if isinstance(node, cst.Call):
            self._call(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        leave = getattr(self.names, f"leave_{type(original_node).__name__}", None)
        if leave is not None:
            leave(original_node)

    def _call(self, node: cst.Call) -> None:
        func, given = node.func, list(node.args)
        if self.names.qualname(func) == "functools.partial" and given and given[0].keyword is None and given[0].star == "":
            func, given = given[0].value, given[1:]  # `partial(list_pods, k8s_v1, ns)`: its arguments come first
        called = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
        if called != self.name:
            return
        qn = self.names.qualname(func)
        own = isinstance(func, cst.Name) and qn is None and self.names._binding_scope(called) is self.names.module_scope
        if qn != self.target and not (own and f"{self.module_name}.{called}" == self.target):
            self.unplaced = self.unplaced or qn is None  # another function of that name is not this one's call
            return
        args: dict[str, Ref | tuple[cst.FunctionDef, str]] = {}
        for i, arg in enumerate(given):
            if arg.star:
                self.unplaced = True  # `f(*args)`: which argument is which is not read
                return
            slot = arg.keyword.value if arg.keyword is not None else str(i)
            value = arg.value
            ref = self.names.qualify(value)
            enclosing = self.names.function
            if (ref is None and isinstance(value, cst.Name) and isinstance(enclosing, cst.FunctionDef)
                    and len(self.names.stack) == 2 and any(
                        p.name.value == value.value for p in (*enclosing.params.params, *enclosing.params.posonly_params,
                                                              *enclosing.params.kwonly_params))):
                args[slot] = (enclosing, value.value)  # the caller's own parameter: its callers say
            else:
                args[slot] = ref if ref is not None else _inherited(self.names, value, self.file)
        self.calls.append((node, args))

    def arguments(self, where: tuple[int | None, bool], param: str, file: str, depth: int) -> list[Ref]:
        """Per call of the function, the object handed ``param`` (None: not known); [None] when a call is unplaced."""
        if self.unplaced:
            return [None]
        out: list[Ref] = []
        index, by_keyword = where
        for _node, args in self.calls:
            got = args.get(str(index)) if index is not None and str(index) in args else args.get(param) if by_keyword else None
            if isinstance(got, tuple) and isinstance(got[0], cst.FunctionDef):
                out.append(parameter_client(file, got[0], got[1], depth + 1))
            else:
                out.append(_instance(file, got))
        return out


def _instance(file: str, ref: Ref) -> Ref:
    """An object of a known class, as the resolver gives it or as a project module's or class's instance holds it."""
    if ref is None or ref[1]:
        return ref
    holder, _, attr = ref[0].rpartition(".")
    if not holder:
        return None
    held = imported_global_member(file, holder, attr)
    return held if held is not None and held[1] else None


class _SelfAssigned(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        t = node.target
        if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
            self.names.add(t.attr.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        t = node.target
        if isinstance(t, cst.Name) or (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self"):
            self.names.add(t.value if isinstance(t, cst.Name) else t.attr.value)


def _inherited(names: Names, value: cst.BaseExpression, file: str) -> Ref:
    """s55: a caller's ``self.<attr>`` that its class neither assigns nor declares: what an instance of one of the
    class's bases (a project class of another module, ``Base`` or ``Base[T]``) holds there
    (:func:`~.imports_members.imported_member`); None when not known."""
    if not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
        return None
    scope = names.stack[-1]
    owner = scope.cls
    if owner is None or scope.self_name != value.value.value or not isinstance(owner.node, cst.ClassDef):
        return None
    cls, attr = owner.node, value.attr.value
    for base in cls.bases:
        expr = base.value.value if isinstance(base.value, cst.Subscript) else base.value
        qn = names.qualname(expr) if base.keyword is None else None
        held = imported_member(file, qn, attr) if qn is not None else None
        if held is not None and held[1]:
            return None if attr in self_assigned(cls) else held
    return None


def self_assigned(cls: cst.ClassDef) -> frozenset[str]:
    """s55: the attributes a class sets or declares itself (``self.x = ...`` in any method, ``x: T`` in its body)."""
    visitor = _SelfAssigned()
    cls.body.visit(visitor)
    return frozenset(visitor.names)
