"""What ``self.<attr>`` holds when the resolver reads through a class: a declared field (a pydantic
``PrivateAttr``/``Field``, a dataclass ``field``: its default or what its factory builds), a
``@property``, and an attribute declared an instance of another class of the module
(``self.toolset._session``, ``toolset: MyToolset``). Used by :class:`~.names.Names`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Tuple

import libcst as cst

from . import knowledge
from .nodes import assignment_targets, children, dotted

if TYPE_CHECKING:
    from .names import Names, _Scope

Ref = Optional[Tuple[str, bool]]
PROPERTIES = frozenset({"property", "cached_property"})


def member(names: Names, cls: _Scope, attr: str) -> Ref:
    """``self.<attr>`` of an instance of ``cls``: a field or attribute it binds, or a ``@property``'s return."""
    if attr in cls.attrs:
        return cls.attrs[attr]
    prop = cls.defs.get(attr)
    if prop is not None and any(_property_like(names, d.decorator) for d in prop.decorators):
        return names._returns(prop)
    return assigned(names, cls, attr)


def _property_like(names: Names, decorator: cst.BaseExpression) -> bool:
    """``@property``, ``@cached_property``, or a descriptor class of this module (s54, batch 27's seekr-chain: a
    thread-safe ``cached_property``, ``class _lazy`` defining ``__get__``): what the attribute holds is what the
    decorated function returns."""
    name = dotted(decorator) or ""
    if name.rsplit(".", 1)[-1] in PROPERTIES:
        return True
    descriptor = names.classes.get(name)
    return descriptor is not None and "__get__" in descriptor.defs


def assigned(names: Names, cls: _Scope, attr: str) -> Ref:
    """What ``self.<attr>`` holds when the flow of the traversal does not say (it was set to ``None``
    or to something unknown since, or is set in a method below): the one object of a known class that
    any method of the class assigns it (``self.session = self._create_session()`` in ``start``,
    ``self.session = None`` in ``stop``); None when no method assigns one, or methods assign objects
    of different classes. Read once per class, from the methods' statements only."""
    if cls.assigned is None:
        cls.assigned = {}  # also the guard while reading
        cls.assigned = _read_assignments(names, cls)
    refs = cls.assigned.get(attr)
    return next(iter(refs)) if refs is not None and len(refs) == 1 else None


def _read_assignments(names: Names, cls: _Scope) -> dict[str, set[tuple[str, bool]]]:
    index = next((i for i, scope in enumerate(names.stack) if scope is cls), None)
    if index is not None:
        base = names.stack[: index + 1]
    elif isinstance(cls.node, cst.ClassDef) and names.classes.get(cls.node.name.value) is cls:
        base = [names.module_scope, cls]
    else:
        return {}
    found: dict[str, set[tuple[str, bool]]] = {}
    stored: dict[str, str] = {}  # s56: `self.core = core_api`, an untyped `__init__` parameter -> the attribute
    saved = names.stack
    try:
        for method in cls.defs.values():
            names.stack = list(base)
            names._push_function(method)  # its parameters, and ``self``
            self_name = names.stack[-1].self_name
            if self_name is not None:
                for small in _small_statements(method.body):
                    _record(names, self_name, small, found)
                    if method.name.value == "__init__":
                        _stored_parameter(names, self_name, small, stored)
        if stored:
            _constructed(names, base, cls, stored, found)
    finally:
        names.stack = saved
    return found


def _stored_parameter(names: Names, self_name: str, small: cst.BaseSmallStatement, stored: dict[str, str]) -> None:
    if not isinstance(small, cst.Assign) or not isinstance(small.value, cst.Name):
        return
    param = small.value.value
    if param not in names.stack[-1].bindings or names.stack[-1].bindings[param] is not None:
        return  # a local, or a parameter its annotation types
    for t in assignment_targets(small):
        if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name:
            stored[param] = t.attr.value


def _constructed(names: Names, base: list[_Scope], cls: _Scope, stored: dict[str, str],
                 found: dict[str, set[tuple[str, bool]]]) -> None:
    """s56 (issue 23; batch 28's multihull ``DynamicKubeClient.from_context``: ``from kubernetes import client`` then
    ``return cls(api_client, dynamic, client.CoreV1Api(api_client))``, and ``__init__`` stores ``self.core =
    core_api``): an untyped ``__init__`` parameter stored on ``self`` holds what the class's own factory methods
    (``@classmethod``/``@staticmethod``: ``cls(...)``, ``<Class>(...)``) hand it, read in the factory's scope (its
    parameters, the imports before the call); only a known object of one class is kept, as for any assignment."""
    init = cls.defs.get("__init__")
    if init is None or not isinstance(cls.node, cst.ClassDef):
        return
    own = cls.node.name.value
    params = [p.name.value for p in (*init.params.posonly_params, *init.params.params)][1:]  # without self
    for method in cls.defs.values():
        if not any(dotted(d.decorator) in ("classmethod", "staticmethod") for d in method.decorators):
            continue
        names.stack = list(base)
        names._push_function(method)
        for small in _small_statements(method.body):
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                names._bind_import(small)
                continue
            for call in _calls(small):
                if not (isinstance(call.func, cst.Name) and call.func.value in ("cls", own)):
                    continue
                for i, arg in enumerate(call.args):
                    if arg.star:
                        break
                    name = arg.keyword.value if arg.keyword is not None else params[i] if i < len(params) else None
                    attr = stored.get(name) if name is not None else None
                    ref = names.qualify(arg.value) if attr is not None else None
                    if attr is not None and ref is not None and ref[1]:
                        found.setdefault(attr, set()).add(ref)


def _calls(node: cst.CSTNode) -> Iterator[cst.Call]:
    """The calls inside a simple statement (its expressions; not into a lambda)."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Lambda):
            continue
        if isinstance(current, cst.Call):
            yield current
        stack.extend(current.children)


def _record(names: Names, self_name: str, small: cst.BaseSmallStatement, found: dict[str, set[tuple[str, bool]]]) -> None:
    if isinstance(small, (cst.Import, cst.ImportFrom)):
        # s56 (issue 23; batch 28's gefyra `def _init_kubeapi(self): from kubernetes.client import CoreV1Api` then
        # `self.K8S_CORE_API = CoreV1Api()`): an import inside the method binds its name in the method's scope, as
        # Python does, for the assignments after it (the statements are read in order; the scope is the method's)
        names._bind_import(small)
        return
    if not isinstance(small, (cst.Assign, cst.AnnAssign)):
        return
    targets = assignment_targets(small)
    value: cst.BaseExpression | None = small.value
    attrs = [
        t.attr.value for t in targets if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name
    ]
    if not attrs:
        return
    ref: Ref = None
    if isinstance(value, (cst.Call, cst.Await, cst.BooleanOperation, cst.IfExp)) or (
        isinstance(value, cst.Name) and value.value in names.stack[-1].bindings  # a parameter; a local is unknown here
    ):
        ref = names.qualify(value)
    if ref is None and isinstance(small, cst.AnnAssign):
        ref = names.annotation_ref(small.annotation)  # ``self.session: Optional[httpx.AsyncClient] = None``
    if ref is not None and ref[1]:
        for attr in attrs:
            found.setdefault(attr, set()).add(ref)


_BLOCK_FIELDS = ("body", "orelse", "handlers", "finalbody", "cases")


def _small_statements(node: cst.CSTNode) -> Iterator[cst.BaseSmallStatement]:
    """The simple statements of a function body, through its compound statements, not into nested
    ``def``/``class`` bodies (no expression is walked)."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            yield from current.body
            continue
        if isinstance(current, (cst.FunctionDef, cst.ClassDef)):
            continue
        for name in _BLOCK_FIELDS:
            part = getattr(current, name, None)
            if isinstance(part, (list, tuple)):
                stack.extend(reversed(part))
            elif isinstance(part, cst.CSTNode):
                stack.append(part)


def instance_class(names: Names, node: cst.BaseExpression) -> _Scope | None:
    """The class of this module that ``self.<attr>`` (or ``self.<a>.<b>``) is declared an instance of."""
    if not isinstance(node, cst.Attribute):
        return None
    value = node.value
    owner: _Scope | None = None
    if isinstance(value, cst.Name):
        scope = names.stack[-1]
        if scope.self_name is not None and value.value == scope.self_name:
            owner = scope.cls
    else:
        owner = instance_class(names, value)
    name = owner.attr_classes.get(node.attr.value) if owner is not None else None
    return names.classes.get(name) if name is not None else None


def local_class(names: Names, annotation: cst.BaseExpression) -> str | None:
    """The class of this module an annotation names (``MyToolset``, ``"MyToolset"``, ``Optional[MyToolset]``)."""
    expr = annotation
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitOr):
        sides = [side for side in (expr.left, expr.right) if not (isinstance(side, cst.Name) and side.value == "None")]
        if len(sides) != 1:
            return None
        expr = sides[0]
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
        if (names.qualname(expr.value) or dotted(expr.value) or "").rsplit(".", 1)[-1] != "Optional":
            return None
        expr = expr.slice[0].slice.value
    text = expr.evaluated_value if isinstance(expr, cst.SimpleString) else expr.value if isinstance(expr, cst.Name) else None
    if not isinstance(text, str) or text not in names.classes or names.module_scope.bindings.get(text) is not None:
        return None
    return text


def field_default(names: Names, node: cst.Call) -> Ref:
    """What a field declaration (``PrivateAttr(default_factory=requests.Session)``, ``Field(default=...)``,
    ``dataclasses.field(default_factory=...)``) holds: its default, or an instance of what its factory
    builds; None when it names neither (the annotation then decides)."""
    for arg in node.args:
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "default" or (keyword is None and arg is node.args[0] and arg.star == ""):
            return names.qualify(arg.value)
        if keyword == "default_factory":
            if isinstance(arg.value, cst.Lambda):  # default_factory=lambda: requests.Session()
                return names.qualify(arg.value.body)
            ref = names.qualify(arg.value)
            if ref is None or ref[1]:
                return None
            if ref[0] in knowledge.FACTORIES:  # default_factory=requests.session
                return (knowledge.FACTORIES[ref[0]], True)
            return (ref[0], True) if ref[0].rsplit(".", 1)[-1][:1].isupper() else None
    return None


def inherit(names: Names, scope: _Scope, node: cst.ClassDef) -> None:
    """What the bases of this module declare, the way Python inherits it (the first base wins); a
    top-level class is registered for ``self.<attr>.<attr>`` chains."""
    if names.stack[-1] is names.module_scope:
        names.classes[node.name.value] = scope
    for base in reversed(node.bases):
        inherited = names.classes.get(base.value.value) if isinstance(base.value, cst.Name) and base.keyword is None else None
        if inherited is not None:
            scope.attrs.update(inherited.attrs)
            scope.defs.update(inherited.defs)
            scope.attr_classes.update(inherited.attr_classes)


def declare(names: Names, scope: _Scope, node: cst.AnnAssign) -> None:
    """A class field annotated with another class of the module (``toolset: MyToolset``)."""
    if scope.kind != "class" or not isinstance(node.target, cst.Name):
        return
    local = local_class(names, node.annotation.annotation)
    if local is not None:
        scope.attr_classes[node.target.value] = local


def imported_by(names: Names, fn: cst.FunctionDef, call: cst.Call) -> Ref:
    """The module a project's own import helper imports (s41, issue 23 D4) (``def optional_import(name): try: return
    importlib.import_module(name) except ImportError: return None``), called with a literal name: every
    ``return`` of the helper is ``None`` or ``importlib.import_module``/``__import__`` of its parameter."""
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    if params and params[0] in ("self", "cls"):
        params = params[1:]
    if not params or not call.args or call.args[0].keyword is not None or call.args[0].star:
        return None
    arg = call.args[0].value
    module = arg.evaluated_value if isinstance(arg, cst.SimpleString) else None
    if not isinstance(module, str) or not module or not all(p.isidentifier() for p in module.split(".")):
        return None
    imports = 0
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.Return):
            v = n.value
            if v is None or (isinstance(v, cst.Name) and v.value == "None"):
                continue
            if not (isinstance(v, cst.Call) and v.args and isinstance(v.args[0].value, cst.Name)
                    and v.args[0].value.value == params[0]
                    and (names.qualname(v.func) == "importlib.import_module" or (isinstance(v.func, cst.Name) and v.func.value == "__import__"))):
                return None
            imports += 1
        stack.extend(children(n))
    return (knowledge.canonical(module), False) if imports else None


def assign(names: "Names", node: cst.Assign) -> None:
    """Bind an assignment's targets; a tuple a same-module helper is annotated to return binds each name to what its
    position holds (``client, acc = await self._get_session()`` with ``-> tuple[httpx.AsyncClient, dict]``)."""
    ref = names.qualify(node.value)
    if module_fallback(names, node):
        return
    parts = _tuple_parts(names, node.value) if any(
        isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets) else None
    for t in node.targets:
        target = t.target
        if parts is not None and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(parts) \
                and not any(isinstance(el, cst.StarredElement) for el in target.elements):
            for el, part in zip(target.elements, parts):
                names._bind_target(el.value, part)
        else:
            names._bind_target(target, ref)


def module_fallback(names: "Names", node: cst.Assign) -> bool:
    """s52: ``try: core = client.CoreV1Api() except Exception: core = None`` at module level: the ``None`` is what the
    global holds when the object could not be built (a use of it then fails at once), so the functions that read it
    later read the object. True (bind nothing) for a literal ``None`` assigned, in an ``except`` clause of the module,
    to names that already hold an object of a known class."""
    if names.stack[-1] is not names.module_scope or names.handler is None:
        return False
    if not (isinstance(node.value, cst.Name) and node.value.value == "None"):
        return False
    targets = [t.target for t in node.targets]
    return all(
        isinstance(t, cst.Name) and (ref := names.module_scope.bindings.get(t.value)) is not None and ref[1]
        for t in targets
    )


def keep_fallbacks(names: "Names", statement: "cst.Try | cst.TryStar", built: "dict[str, tuple[str, bool]]") -> None:
    """The module's prefill of a ``try``: a name its body bound to an object (``built``) that a handler sets to the
    literal ``None`` keeps the object (:func:`module_fallback`)."""
    bindings = names.module_scope.bindings
    for name, ref in built.items():
        if bindings.get(name) is None and any(_assigns_none(h.body.body, name) for h in statement.handlers):
            bindings[name] = ref


def _assigns_none(body: "Sequence[cst.BaseStatement] | Sequence[cst.BaseSmallStatement]", name: str) -> bool:
    """Whether a block's statements assign the literal ``None`` to ``name`` (``core = None``)."""
    return any(
        isinstance(small, cst.Assign) and isinstance(small.value, cst.Name) and small.value.value == "None"
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets)
        for stmt in body if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body
    )


def _tuple_parts(names: "Names", value: cst.BaseExpression) -> "list[Ref] | None":
    """What each position of the tuple a same-module helper is annotated to return holds (``tuple[Client, ...]``:
    no positions)."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return None
    helper = names._helper(value.func)
    note = helper.returns.annotation if helper is not None and helper.returns is not None else None
    if not isinstance(note, cst.Subscript) or (names.qualname(note.value) or dotted(note.value) or "").rsplit(
            ".", 1)[-1] not in ("tuple", "Tuple"):
        return None
    out: "list[Ref]" = []
    for el in note.slice:
        if not isinstance(el.slice, cst.Index) or isinstance(el.slice.value, cst.Ellipsis):
            return None
        out.append(names.annotation_ref(el.slice.value))
    return out


def return_sites(fn: cst.FunctionDef) -> tuple[dict[str, list[cst.BaseExpression]], list[cst.BaseExpression],
                                               list[cst.Import | cst.ImportFrom]]:
    """A function's own (not nested) ``return`` values, what its single-name assignments assign each local, and its
    own imports (s54: ``from kubernetes import client`` inside a helper): :meth:`Names._returns` reads them."""
    local: dict[str, list[cst.BaseExpression]] = {}
    values: list[cst.BaseExpression] = []
    imports: list[cst.Import | cst.ImportFrom] = []
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.Return) and n.value is not None:
            values.append(n.value)
        elif isinstance(n, (cst.Import, cst.ImportFrom)):
            imports.append(n)
        elif isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name):
            local.setdefault(n.targets[0].target.value, []).append(n.value)
        stack.extend(children(n))
    return local, values, imports
