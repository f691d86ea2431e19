"""s54 (issue 23): TFH201 reads an unannotated (or ``Any``) parameter of a module-level function as the client every
call of the function in the project hands it (:func:`~smullyan.linter.imports_params.parameter_client`):
``def list_pods(k8s_v1, ns): return k8s_v1.list_namespaced_pod(ns)`` called only as ``list_pods(kube.core_v1, ns)``
is ``kubernetes.client.CoreV1Api.list_namespaced_pod``. Only a parameter the function never rebinds is read."""

from __future__ import annotations

import libcst as cst

from ...linter.api import Names, Screen, imported_member, parameter_client, self_assigned

Ref = tuple[str, bool] | None


class _Rebinds(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def _target(self, target: cst.BaseExpression) -> None:
        for name in ([target] if isinstance(target, cst.Name) else
                     [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else []):
            if isinstance(name, cst.Name):
                self.names.add(name.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)

    def visit_Global(self, node: cst.Global) -> None:
        self.names.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.names.update(n.name.value for n in node.names)


def param_method(names: Names, func: cst.BaseExpression, path: str | None, screen: Screen,
                 owners: dict[int, tuple[str, str]] | None = None) -> str | None:
    """``<param>.<method>`` as the method of the client every caller hands ``<param>``; None when not known. s56: for
    ``<param>.<attr>.<method>``, ``owners`` gets the class and attribute the client was read from."""
    if path is None or not isinstance(func, cst.Attribute):
        return None
    # s55: `<param>.<attr>.<method>`, an object the client the callers hand holds (`k8s_helper.core_v1_api.read_...`)
    held = func.value.attr.value if isinstance(func.value, cst.Attribute) else None
    root = func.value.value if isinstance(func.value, cst.Attribute) else func.value
    if not isinstance(root, cst.Name):
        return None
    param, fn = root.value, names.function
    if (not isinstance(fn, cst.FunctionDef) or len(names.stack) < 2 or names.stack[1].node is not fn
            or names.lookup(param) is not None or names._binding_scope(param) is not names.stack[1]):
        return None
    params = fn.params
    given = [p for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == param]
    if not given or not _unannotated(names, given[0]):
        return None  # s55: an annotated parameter (`entry: dict[str, Any]`) is what its annotation says, not asked
    ref = screen.memo(("tfh201.param", fn.name.value, param), lambda: parameter_client(path, fn, param))
    if ref is None or not ref[1]:
        return None

    def rebound() -> bool:  # s55: read once per function and only for a parameter the callers typed (CPU)
        rebinds = _Rebinds()
        fn.body.visit(rebinds)
        return param in rebinds.names

    if screen.memo(("tfh201.param_rebound", fn.name.value, param), rebound):
        return None
    if held is not None:
        cls, attr = ref[0], held
        ref = screen.memo(("tfh201.held", cls, attr), lambda: imported_member(path, cls, attr))
        if ref is None or not ref[1]:
            return None
        if owners is not None:
            owners[id(func)] = (cls, attr)
    return f"{ref[0]}.{func.attr.value}"


def _unannotated(names: Names, param: cst.Param) -> bool:
    """No annotation, or ``Any`` (``typing.Any``, also written ``"Any"``)."""
    if param.annotation is None:
        return True
    note = param.annotation.annotation
    if isinstance(note, cst.SimpleString):
        return note.evaluated_value == "Any" if isinstance(note.evaluated_value, str) else False
    return names.qualname(note) in ("typing.Any", "typing_extensions.Any")


def inherited_member(names: Names, cls: cst.ClassDef | None, holder: cst.BaseExpression, attr: str, path: str | None,
                     screen: Screen) -> Ref:
    """s55 (issue 23; batch 24's k8s-agent-sandbox, batch 1's camel-ai): ``self.<attr>`` in a class that neither
    assigns nor declares it is the attribute its base class sets, as Python finds it: ``class
    SandboxWithSnapshotSupport(Sandbox)`` reads ``self.k8s_helper`` that ``Sandbox.__init__`` (another module of the
    project) assigns ``k8s_helper or K8sHelper()``. Each base (``Base``, ``Base[T]``) is asked what an instance of it
    holds (:func:`~smullyan.linter.imports_members.imported_member`, an ``ast`` summary read once); the first that
    knows answers. None when ``holder`` is not ``self``, the class sets the attribute itself, or no base knows."""
    if path is None or cls is None or not cls.bases or not (isinstance(holder, cst.Name) and holder.value == "self"):
        return None
    for base in cls.bases:
        expr = base.value.value if isinstance(base.value, cst.Subscript) else base.value
        qn = names.qualname(expr)
        if qn is None or base.keyword is not None:
            continue
        held = screen.memo(("tfh201.held", qn, attr), lambda: imported_member(path, qn, attr))
        if held is not None and held[1]:
            break
    else:
        return None

    # the class's own assignments read only once a base knows the attribute (CPU)
    return None if attr in screen.memo(("tfh201.self_assigned", cls.name.value, id(cls)), lambda: self_assigned(cls)) else held


def init_member(names: Names, cls: cst.ClassDef | None, holder: cst.BaseExpression, attr: str, path: str | None,
                screen: Screen) -> Ref:
    """s56 (issue 23; batch 29's dagster-k8s, batch 24's k8s-agent-sandbox): ``self.<attr>`` that the class's
    ``__init__`` stores from an unannotated (or ``Any``) parameter (``self.core = core_api``), and that no other
    statement of the class assigns, is what every call of the class's constructor in the project hands that parameter
    (:func:`~smullyan.linter.imports_params.parameter_client` with the class as owner: ``Launcher(core_api=
    client.CoreV1Api())``, a name bound to such a client, the caller's parameter its callers type). Only a class of the
    module's top level; None when ``holder`` is not ``self`` or any call is not seen or not known."""
    if path is None or cls is None or not (isinstance(holder, cst.Name) and holder.value == "self"):
        return None
    if names.classes.get(cls.name.value) is None or names.classes[cls.name.value].node is not cls:
        return None  # a nested class, or one the module rebinds: its constructor's calls are not read
    key = ("tfh201.init_param", cls.name.value, id(cls), attr)
    found = screen.memo(key, lambda: _stored_from_init(names, cls, attr))
    if found is None:
        return None
    init, param = found
    ref = screen.memo(("tfh201.init_client", cls.name.value, param),
                      lambda: parameter_client(path, init, param, owner=cls.name.value))
    return ref if ref is not None and ref[1] else None


def _stored_from_init(names: Names, cls: cst.ClassDef, attr: str) -> tuple[cst.FunctionDef, str] | None:
    """The ``__init__`` and its unannotated parameter that ``self.<attr> = <param>`` stores, when that is the one
    assignment of ``self.<attr>`` in the class and ``__init__`` never rebinds the parameter."""
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None or not isinstance(init.body, cst.IndentedBlock):
        return None
    params = init.params
    bare = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)
            if p.default is None and (p.annotation is None or _unannotated(names, p))}
    if not any(isinstance(line, cst.SimpleStatementLine) and any(  # the cheap gate: `self.<attr> = <param>` in `__init__`
            isinstance(small, cst.Assign) and isinstance(small.value, cst.Name) and small.value.value in bare
            and any(isinstance(t.target, cst.Attribute) and t.target.attr.value == attr for t in small.targets)
            for small in line.body) for line in init.body.body):
        return None
    counter = _AttrAssigns(attr)
    cls.body.visit(counter)
    if len(counter.values) != 1 or not isinstance(counter.values[0], cst.Name):
        return None
    param = counter.values[0].value
    given = [p for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == param]
    if not given or given[0].default is not None or not _unannotated(names, given[0]):
        return None  # a default is an object the callers need not hand
    rebinds = _Rebinds()
    init.body.visit(rebinds)
    return None if param in rebinds.names else (init, param)


class _AttrAssigns(cst.CSTVisitor):
    """Every value the class assigns ``self.<attr>`` (None: an annotation, an augmented or unpacking assignment)."""

    def __init__(self, attr: str) -> None:
        super().__init__()
        self.attr = attr
        self.values: list[cst.BaseExpression | None] = []

    def _mine(self, target: cst.BaseExpression) -> bool:
        return isinstance(target, cst.Attribute) and target.attr.value == self.attr and isinstance(target.value, cst.Name)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if self._mine(t.target):
                self.values.append(node.value if len(node.targets) == 1 else None)
            elif isinstance(t.target, (cst.Tuple, cst.List)) and any(self._mine(e.value) for e in t.target.elements):
                self.values.append(None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self._mine(node.target):
            self.values.append(None)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._mine(node.target):
            self.values.append(None)
