"""s54 (issue 23): TFH201 reads an unannotated (or ``Any``) parameter of a module-level function as the client every
call of the function in the project hands it (:func:`~smullyan.linter.imports_params.parameter_client`):
``def list_pods(k8s_v1, ns): return k8s_v1.list_namespaced_pod(ns)`` called only as ``list_pods(kube.core_v1, ns)``
is ``kubernetes.client.CoreV1Api.list_namespaced_pod``. Only a parameter the function never rebinds is read."""

from __future__ import annotations

import libcst as cst

from ...linter.api import Names, Screen, parameter_client


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


def param_method(names: Names, func: cst.BaseExpression, path: str | None, screen: Screen) -> str | None:
    """``<param>.<method>`` as the method of the client every caller hands ``<param>``; None when not known."""
    if path is None or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
        return None
    param, fn = func.value.value, names.function
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

    return None if screen.memo(("tfh201.param_rebound", fn.name.value, param), rebound) else f"{ref[0]}.{func.attr.value}"


def _unannotated(names: Names, param: cst.Param) -> bool:
    """No annotation, or ``Any`` (``typing.Any``, also written ``"Any"``)."""
    if param.annotation is None:
        return True
    note = param.annotation.annotation
    if isinstance(note, cst.SimpleString):
        return note.evaluated_value == "Any" if isinstance(note.evaluated_value, str) else False
    return names.qualname(note) in ("typing.Any", "typing_extensions.Any")
