"""Name resolution from a module's own imports, plus a light scope walk.

This is deliberately not libcst's ScopeProvider/QualifiedNameProvider (a full
extra pass over every file). :class:`Names` is driven by the engine during the
one traversal that also runs the rules: it keeps a stack of scopes (module,
class, function, lambda), binds names as Python does (imports, assignments, ``with ... as``,
parameters, ``def``/``class``, ``for`` and ``except`` targets, ``global``), and tracks objects built from known constructors so that
``s = requests.Session(); s.post(...)`` resolves to ``requests.Session.post``.

A *reference* is ``(qualified_name, is_instance)``: ``("requests.Session",
False)`` is the class, ``("requests.Session", True)`` an object of it.
``None`` is "not something we know" (a local, a parameter, a builtin).
Bindings are flow-ordered inside functions (``self.<attr>`` the flow lost: what
any method assigns it, :func:`~.names_members.assigned`); the module scope is pre-filled
from its top-level statements so functions see module globals defined below them,
and a fallback assignment (``except ImportError: requests = None``) does not hide it.

Rules also ask it where they are (the answers describe the node being
visited, from its ``visit_*`` to its ``leave_*``): :attr:`Names.function` and
:attr:`Names.is_async` (a ``lambda`` is a function, never async),
:attr:`Names.handler` / :attr:`Names.handlers` (the ``except`` clauses the
code runs in, with their ``try`` and bound name), :attr:`Names.enclosing_try`,
:attr:`Names.loop` (the ``for``/``while`` whose body holds the code), and
:meth:`Names.is_builtin` (a builtin name no scope shadows). None of these
crosses a ``def`` or ``lambda``: its body runs later, outside the handler or
loop that holds the definition. A class body runs where it stands, so it does
not cut them.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Optional, Sequence, Union

import libcst as cst

from . import knowledge
from . import names_members as members
from .nodes import dotted as dotted  # ``a.b.c`` (re-exported: ``from .names import dotted``)
from .packages import absolute_module

Ref = Optional[tuple[str, bool]]

_FuncLike = Union[cst.FunctionDef, cst.Lambda]
_Loop = Union[cst.For, cst.While]
_TryLike = Union[cst.Try, cst.TryStar]
_HandlerNode = Union[cst.ExceptHandler, cst.ExceptStarHandler]

BUILTINS: frozenset[str] = frozenset(dir(builtins))
_VALIDATORS = ("validator", "pre_init")  # pydantic's root_validator/model_validator, langchain's pre_init


@dataclass(frozen=True)
class Handler:
    """An ``except`` clause the visited code runs in."""

    node: _HandlerNode
    statement: _TryLike  # the ``try`` it belongs to
    name: str | None  # what ``as name`` binds, if anything


@dataclass
class _Blocks:
    """Statements that enclose code within one function (shared by the class bodies inside it)."""

    tries: list[_TryLike] = field(default_factory=list)
    handlers: list[Handler] = field(default_factory=list)
    loops: list[_Loop] = field(default_factory=list)  # loops whose header is being walked or whose body holds the node
    bodies: list[_Loop] = field(default_factory=list)  # loops whose body holds the node


@dataclass
class _Scope:
    kind: str  # "module" | "class" | "function"
    node: "cst.FunctionDef | cst.Lambda | cst.ClassDef | None" = None
    blocks: _Blocks = field(default_factory=_Blocks)
    bindings: dict[str, Ref] = field(default_factory=dict)
    imported: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    self_name: str | None = None  # first parameter of a method
    cls: "_Scope | None" = None  # the class scope a method belongs to
    attrs: dict[str, Ref] = field(default_factory=dict)  # class scopes: self.<attr>
    defs: dict[str, cst.FunctionDef] = field(default_factory=dict)  # functions (methods) defined here, for what they return
    attr_classes: dict[str, str] = field(default_factory=dict)  # class scopes: self.<attr> declared a class of the module
    assigned: "dict[str, set[tuple[str, bool]]] | None" = None  # class scopes: what any method assigns self.<attr> (lazy)


# s54 (batch 27's samco ``batch_api: Any | None``): says nothing of the class; ``batch_api or self._connect()`` is the client
_ANY = frozenset({"typing.Any", "typing_extensions.Any"})


class Names:
    """The resolver. Create one per module, register it first in the traversal."""

    def __init__(self, module: cst.Module, package: str | None = None, clients: Sequence[tuple[str, str]] = ()) -> None:
        self.package = package  # resolves relative imports (see :func:`package_of`)
        # the configuration's ``clients``: a project's function or attribute -> the client class its value is
        self.clients: dict[str, str] = {knowledge.canonical(k): knowledge.canonical(v) for k, v in clients}
        self.module_scope = _Scope("module")
        self.stack: list[_Scope] = [self.module_scope]
        self._returns_memo: dict[int, Ref] = {}
        self.classes: dict[str, _Scope] = {}  # the module's top-level classes, for self.<attr>.<attr> chains
        self._prefill(module.body)

    # ------------------------------------------------------------ queries

    def qualify(self, node: cst.BaseExpression) -> Ref:
        """Resolve an expression to a reference, or None."""
        ref = self._qualify(node)  # then the configuration's ``clients``: ``Http().session`` holds a ``requests.Session``
        if self.clients and ref is not None and not ref[1] and isinstance(node, (cst.Name, cst.Attribute)):
            return (self.clients[ref[0]], True) if ref[0] in self.clients else ref
        return ref

    def _qualify(self, node: cst.BaseExpression) -> Ref:
        if isinstance(node, cst.Name):
            return self.lookup(node.value)
        if isinstance(node, cst.Attribute):
            value = node.value
            owner = members.instance_class(self, value)
            if owner is not None:  # self.toolset._session, toolset: a class of this module
                return members.member(self, owner, node.attr.value)
            if isinstance(value, cst.Name):
                scope = self.stack[-1]
                if scope.self_name is not None and value.value == scope.self_name and scope.cls:
                    return members.member(self, scope.cls, node.attr.value)
            base = self.qualify(value)
            if base is None:
                return None
            return (knowledge.canonical(f"{base[0]}.{node.attr.value}"), False)
        if isinstance(node, cst.Call):
            callee = self._qualify(node.func)  # once: twice made a chain of n calls cost 2**n (s40)
            if callee is not None and not callee[1] and callee[0] in self.clients:
                return (self.clients[callee[0]], True)  # ``get_session()``: configured to return a client
            if callee is not None and not callee[1] and callee[0] in knowledge.FIELD_DECLARATIONS:
                return members.field_default(self, node)
            helper = self._helper(node.func)
            if helper is not None:
                return members.imported_by(self, helper, node) or self._returns(helper)  # optional_import("redis")
            if callee is None or callee[1]:
                return None
            name = callee[0]
            if name == "importlib.import_module" and node.args and isinstance(node.args[0].value, cst.SimpleString):
                module = node.args[0].value.evaluated_value  # an optional import: the module it names
                if isinstance(module, str) and all(p.isidentifier() for p in module.split(".")) and len(node.args) == 1:
                    return (knowledge.canonical(module), False)
            if name in knowledge.FACTORIES:
                return (knowledge.FACTORIES[name], True)
            last = name.rsplit(".", 1)[-1]
            if last[:1].isupper():
                return (name, True)
            return None
        if isinstance(node, cst.Await):
            return self.qualify(node.expression)
        if isinstance(node, (cst.BooleanOperation, cst.IfExp)):
            # ``session or requests.Session()``, ``s if s is not None else requests.Session()``: the one
            # object either side builds (the other side unknown, or None)
            sides = [node.left, node.right] if isinstance(node, cst.BooleanOperation) else [node.body, node.orelse]
            if isinstance(node, cst.BooleanOperation) and not isinstance(node.operator, cst.Or):
                return None
            refs = {self.qualify(side) for side in sides} - {None}
            if len(refs) == 1:
                only = next(iter(refs))
                return only if only is not None and only[1] else None
        return None

    # ------------------------------------------------------------ annotations and helpers

    def annotation_ref(self, annotation: cst.Annotation | cst.BaseExpression | None) -> Ref:
        """An object of the class an annotation names: ``requests.Session``, ``Session | None``,
        ``Optional[Session]``, ``"requests.Session"``; None for anything else."""
        expr = annotation.annotation if isinstance(annotation, cst.Annotation) else annotation
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitOr):
            left, right = expr.left, expr.right
            if isinstance(right, cst.Name) and right.value == "None":
                expr = left
            elif isinstance(left, cst.Name) and left.value == "None":
                expr = right
            else:
                return None
        if isinstance(expr, cst.Subscript) and len(expr.slice) == 1:
            head = self.qualname(expr.value) or dotted(expr.value) or ""
            inner = expr.slice[0].slice
            if head.rsplit(".", 1)[-1] == "Optional" and isinstance(inner, cst.Index):
                expr = inner.value
        if isinstance(expr, cst.SimpleString):
            text = expr.evaluated_value
            if not isinstance(text, str) or not all(p.isidentifier() for p in text.split(".")):
                return None
            parts = text.split(".")
            expr = cst.Name(parts[0])
            for part in parts[1:]:
                expr = cst.Attribute(value=expr, attr=cst.Name(part))
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return None
        ref = self.qualify(expr)
        if ref is None or ref[1] or not ref[0].rsplit(".", 1)[-1][:1].isupper() or ref[0] in _ANY:
            return None
        return (ref[0], True)

    def _helper(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        """A function of this module (``_get_session()``) or method of this class (``self._session()``) that a call runs."""
        if isinstance(func, cst.Name):
            scope = self._binding_scope(func.value)
            if scope is not None and scope.bindings.get(func.value) is None:
                return scope.defs.get(func.value)
            return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            scope = self.stack[-1]
            if scope.self_name is not None and func.value.value == scope.self_name and scope.cls is not None:
                if func.attr.value not in scope.cls.attrs:
                    return scope.cls.defs.get(func.attr.value)
        return None

    def _returns(self, fn: cst.FunctionDef) -> Ref:
        """What a same-module function returns: its return annotation, else the object every
        ``return`` gives (a constructor call, or a local assigned one)."""
        key = id(fn)
        if key in self._returns_memo:
            return self._returns_memo[key]
        self._returns_memo[key] = None  # recursion guard
        ref = self.annotation_ref(fn.returns) if fn.returns is not None else None
        if ref is None and fn.returns is None:
            local, values, imports = members.return_sites(fn)
            refs: set[Ref] = set()
            if imports:  # s54 (batch 27's samco-job-lifecycle): `from kubernetes import client` in the function itself
                top = self.stack[-1]  # the names are read where the call is, as without imports: `self` too
                self.stack.append(_Scope("function", fn, self_name=top.self_name, cls=top.cls))
                for imp in imports:
                    self._bind_import(imp)
            try:
                for v in values:
                    if isinstance(v, cst.Name) and v.value in local:
                        assigned = local[v.value]
                        refs.update(self.qualify(a) if len(assigned) == 1 else None for a in assigned)
                    elif isinstance(v, cst.Name) and v.value == "None":
                        continue
                    else:
                        refs.add(self.qualify(v))
            finally:
                if imports:
                    self.stack.pop()
            if len(refs) == 1:
                only = next(iter(refs))
                ref = only if only is not None and only[1] else None
        self._returns_memo[key] = ref
        return ref

    def qualname(self, node: cst.BaseExpression) -> str | None:
        """The qualified name of a callee or value that is not an instance."""
        ref = self.qualify(node)
        if ref is None or ref[1]:
            return None
        return ref[0]

    def lookup(self, name: str) -> Ref:
        """What ``name`` refers to here (None: unbound, a builtin, or not something we know)."""
        scope = self._binding_scope(name)
        return scope.bindings.get(name) if scope is not None else None

    def _binding_scope(self, name: str) -> _Scope | None:
        scope = self.stack[-1]
        if name in scope.bindings:
            return scope
        if name in scope.globals:
            return self.module_scope if name in self.module_scope.bindings else None
        for outer in reversed(self.stack[:-1]):
            if outer.kind == "class":
                continue  # class bodies are not visible from nested scopes
            if name in outer.bindings:
                return outer
        return None

    def binds(self, name: str) -> bool:
        """Whether a scope visible here binds ``name`` (an import, assignment, parameter, ``def``, ``class``...)."""
        return self._binding_scope(name) is not None

    def is_builtin(self, name: str) -> bool:
        """Whether ``name`` here is Python's builtin of that name: a builtin no visible scope shadows.

        ``class Exception(...)``, ``def str(...)``, ``from x import open``, a
        parameter named ``type``: each makes the name something else.
        """
        return name in BUILTINS and self._binding_scope(name) is None

    # ------------------------------------------------------------ where we are

    @property
    def function(self) -> cst.FunctionDef | cst.Lambda | None:
        """The innermost ``def`` or ``lambda`` holding the visited node (a class body inside one counts as in it)."""
        for scope in reversed(self.stack):
            if scope.kind == "function":
                return scope.node  # type: ignore[return-value]
        return None

    @property
    def enclosing_function(self) -> cst.FunctionDef | None:
        """The ``def`` whose body defines the innermost function (a closure's parent), else None."""
        parent = self.stack[-2] if len(self.stack) > 1 and self.stack[-1].kind == "function" else None
        return parent.node if parent is not None and isinstance(parent.node, cst.FunctionDef) else None

    @property
    def is_async(self) -> bool:
        """Whether the innermost function is an ``async def`` (a ``lambda`` inside one is not)."""
        func = self.function
        return isinstance(func, cst.FunctionDef) and func.asynchronous is not None

    @property
    def handlers(self) -> tuple[Handler, ...]:
        """The ``except`` clauses the visited node runs in, innermost last, within the innermost function."""
        return tuple(self.stack[-1].blocks.handlers)

    @property
    def handler(self) -> Handler | None:
        """The innermost ``except`` clause the visited node runs in (within the innermost function), or None."""
        handlers = self.stack[-1].blocks.handlers
        return handlers[-1] if handlers else None

    @property
    def enclosing_try(self) -> cst.Try | cst.TryStar | None:
        """The innermost ``try`` statement (any of its parts) holding the visited node, within the innermost function."""
        tries = self.stack[-1].blocks.tries
        return tries[-1] if tries else None

    @property
    def loop(self) -> cst.For | cst.While | None:
        """The innermost ``for``/``while`` whose body holds the visited node (not its header or ``else``), within the innermost function."""
        bodies = self.stack[-1].blocks.bodies
        return bodies[-1] if bodies else None

    # ------------------------------------------------------------ binding

    def bind(self, name: str, ref: Ref, *, imported: bool = False) -> None:
        scope = self.stack[-1]
        if name in scope.globals:
            scope = self.module_scope
        if ref is None and name in scope.imported and not imported:
            return  # `except ImportError: requests = None` keeps meaning requests (in a function too)
        scope.bindings[name] = ref
        if imported:
            scope.imported.add(name)

    def _bind_target(self, target: cst.BaseExpression, ref: Ref) -> None:
        if isinstance(target, cst.Name):
            self.bind(target.value, ref)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind_target(el.value, None)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, None)
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and ref is not None:
            # a pydantic validator filling a field: ``values["session"] = requests.Session()``
            scope = self.stack[-1]
            owner = self.stack[-2] if len(self.stack) > 1 else None
            key = target.slice[0].slice if len(target.slice) == 1 else None
            if (
                isinstance(scope.node, cst.FunctionDef)
                and owner is not None
                and owner.kind == "class"
                and any((dotted(d.decorator) or dotted(getattr(d.decorator, "func", None)) or "").endswith(_VALIDATORS) for d in scope.node.decorators)
                and isinstance(key, cst.Index)
                and isinstance(key.value, cst.SimpleString)
                and isinstance(key.value.evaluated_value, str)
            ):
                owner.attrs[key.value.evaluated_value] = ref
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            scope = self.stack[-1]
            if scope.self_name == target.value.value and scope.cls is not None:
                if ref is not None:
                    scope.cls.attrs[target.attr.value] = ref
                else:
                    scope.cls.attrs.pop(target.attr.value, None)

    def _bind_import(self, node: cst.Import | cst.ImportFrom) -> None:
        if isinstance(node, cst.Import):
            for alias in node.names:
                full = dotted(alias.name) or ""
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    self.bind(alias.asname.name.value, (knowledge.canonical(full), False), imported=True)
                else:
                    root = full.split(".")[0]
                    self.bind(root, (root, False), imported=True)
            return
        if isinstance(node.names, cst.ImportStar):
            return
        module = dotted(node.module) if node.module is not None else ""
        prefix = "." * len(node.relative) + (module or "")
        if node.relative:
            resolved = absolute_module(module or None, len(node.relative), self.package)
            if resolved is not None:
                prefix = resolved
        for alias in node.names:
            name = dotted(alias.name) or ""
            full = f"{prefix}.{name}" if prefix and not prefix.endswith(".") else f"{prefix}{name}"
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self.bind(local, (knowledge.canonical(full), False), imported=True)

    def _prefill(self, body: Sequence[cst.CSTNode]) -> None:
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        self._bind_import(small)
                    elif isinstance(small, cst.Assign):
                        ref = self.qualify(small.value)
                        for t in small.targets:
                            self._bind_target(t.target, ref)
                    elif isinstance(small, cst.AnnAssign) and small.value is not None:
                        self._bind_target(small.target, self.qualify(small.value))
            elif isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                self.bind(stmt.name.value, None)
                if isinstance(stmt, cst.FunctionDef):
                    self.module_scope.defs[stmt.name.value] = stmt
            elif isinstance(stmt, cst.If):
                self._prefill(stmt.body.body)
                orelse = stmt.orelse
                while orelse is not None:
                    self._prefill(orelse.body.body)
                    orelse = orelse.orelse if isinstance(orelse, cst.If) else None
            elif isinstance(stmt, cst.Try) or isinstance(stmt, cst.TryStar):
                self._prefill(stmt.body.body)
                built = {n: r for n, r in self.module_scope.bindings.items() if r is not None and r[1]}
                for h in stmt.handlers:
                    self._prefill(h.body.body)
                members.keep_fallbacks(self, stmt, built)  # s52: `except Exception: core = None`
                if stmt.orelse is not None:
                    self._prefill(stmt.orelse.body.body)
                if stmt.finalbody is not None:
                    self._prefill(stmt.finalbody.body.body)
            elif isinstance(stmt, cst.With):
                self._prefill(stmt.body.body)

    # ------------------------------------------------------------ traversal hooks

    def _push_function(self, node: _FuncLike) -> None:
        parent = self.stack[-1]
        scope = _Scope("function", node)
        params = node.params
        all_params = [*params.posonly_params, *params.params, *params.kwonly_params]
        if isinstance(params.star_arg, cst.Param):
            all_params.append(params.star_arg)
        if params.star_kwarg is not None:
            all_params.append(params.star_kwarg)
        for p in all_params:
            # a parameter known only from its annotation (``session: requests.Session``)
            scope.bindings[p.name.value] = self.annotation_ref(p.annotation) if p.annotation is not None else None
        if isinstance(node, cst.FunctionDef) and parent.kind == "class":
            first = [*params.posonly_params, *params.params]
            is_static = any(
                dotted(d.decorator) in ("staticmethod", "classmethod") for d in node.decorators
            )
            if first and not is_static:
                scope.self_name = first[0].name.value
                scope.cls = parent
        elif parent.kind == "function" and parent.cls is not None:
            # a closure inside a method still sees `self`
            if parent.self_name and parent.self_name not in scope.bindings:
                scope.self_name, scope.cls = parent.self_name, parent.cls
        self.stack.append(scope)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.bind(node.name.value, None)
        self.stack[-1].defs[node.name.value] = node
        self._push_function(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._push_function(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.bind(node.name.value, None)
        # a class body runs where it stands: inside the enclosing handlers and loops
        scope = _Scope("class", node, self.stack[-1].blocks)
        members.inherit(self, scope, node)  # and a top-level class is registered in self.classes
        if isinstance(node.body, cst.IndentedBlock):
            # methods are known before the first one runs (self._session() defined below its caller)
            scope.defs.update((m.name.value, m) for m in node.body.body if isinstance(m, cst.FunctionDef))
        self.stack.append(scope)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.stack.pop()

    def visit_Import(self, node: cst.Import) -> None:
        self._bind_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._bind_import(node)

    def visit_Global(self, node: cst.Global) -> None:
        self.stack[-1].globals.update(n.name.value for n in node.names)

    def leave_Assign(self, node: cst.Assign) -> None:
        members.assign(self, node)

    def leave_AnnAssign(self, node: cst.AnnAssign) -> None:
        # the value's type when it is known, else the annotation's (``session: requests.Session``)
        ref = self.qualify(node.value) if node.value is not None else None
        if ref is None:
            ref = self.annotation_ref(node.annotation)
        members.declare(self, self.stack[-1], node)  # ``toolset: MyToolset``, bare or not
        if node.value is None and ref is None:
            return  # a bare annotation binds nothing
        self._bind_target(node.target, ref)
        scope = self.stack[-1]
        if scope.kind == "class" and isinstance(node.target, cst.Name) and ref is not None:
            scope.attrs[node.target.value] = ref  # a declared field: self.<name> in the methods

    def leave_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, None)

    def leave_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, self.qualify(node.value))

    def visit_For(self, node: cst.For) -> None:
        self._bind_target(node.target, None)
        self.stack[-1].blocks.loops.append(node)

    def leave_For(self, node: cst.For) -> None:
        self.stack[-1].blocks.loops.pop()

    def visit_While(self, node: cst.While) -> None:
        self.stack[-1].blocks.loops.append(node)

    def leave_While(self, node: cst.While) -> None:
        self.stack[-1].blocks.loops.pop()

    def _enter_block(self, node: cst.BaseSuite) -> None:
        blocks = self.stack[-1].blocks
        if blocks.loops and blocks.loops[-1].body is node:
            blocks.bodies.append(blocks.loops[-1])

    def _leave_block(self, node: cst.BaseSuite) -> None:
        blocks = self.stack[-1].blocks
        if blocks.bodies and blocks.bodies[-1].body is node:
            blocks.bodies.pop()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._enter_block(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._leave_block(node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._enter_block(node)

    def leave_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._leave_block(node)

    def visit_Try(self, node: cst.Try) -> None:
        self.stack[-1].blocks.tries.append(node)

    def leave_Try(self, node: cst.Try) -> None:
        self.stack[-1].blocks.tries.pop()

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self.stack[-1].blocks.tries.append(node)

    def leave_TryStar(self, node: cst.TryStar) -> None:
        self.stack[-1].blocks.tries.pop()

    def leave_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is None:
            return
        ref = self.qualify(node.item)
        if ref is not None and not (ref[1] and ref[0] in knowledge.ENTER_RETURNS_SELF):
            ref = None
        self._bind_target(node.asname.name, ref)

    def _enter_handler(self, node: _HandlerNode) -> None:
        name = node.name.name.value if node.name is not None and isinstance(node.name.name, cst.Name) else None
        if name is not None:
            self.bind(name, None)
        blocks = self.stack[-1].blocks
        blocks.handlers.append(Handler(node, blocks.tries[-1], name))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._enter_handler(node)

    def leave_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.stack[-1].blocks.handlers.pop()

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        self._enter_handler(node)

    def leave_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        self.stack[-1].blocks.handlers.pop()

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self.bind(node.name.value, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_target(node.target, None)
