"""s48 (issue 24): a handler that catches only the project's own refusals (TFH401).

The lead's decision: where every class an ``except ... as e`` names is an exception class of the project's own
(defined in the module, or imported from the linted file's top-level package) and every construction of it in the
project passes a message written there (``raise PathError("path outside the workspace")``, ``raise
ToolError(f"{path} is a directory")``: :func:`~smullyan.linter.project_refusals.own_refusal`), the text the model
reads is a message the package wrote for it, not a stringified failure: the handler's name is no exception text.
A builtin (``ValueError``, ``RuntimeError``), a library's class, a tuple with one, or ``Exception`` catches other
code's failures too and stays reported; so does a class some ``raise`` builds from a variable (``raise
ToolError(msg)``, ``ToolError(result.stderr)``) or from a caught exception (``f"send failed: {cause}"``).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Names, handler_types, own_refusal

__all__ = ["catches_own_refusals"]


def catches_own_refusals(names: Names, path: str, handler: cst.ExceptHandler | cst.ExceptStarHandler) -> bool:
    """Whether every class ``handler`` catches is the project's own refusal (module docstring)."""
    types = handler_types(handler)
    return bool(types) and all(_own_class(names, path, t) for t in types)


def _own_class(names: Names, path: str, node: object) -> bool:
    if isinstance(node, cst.Name):
        if names.is_builtin(node.value):
            return False
        if names.lookup(node.value) is None:  # bound with no reference: a class (or def) of this module
            return node.value in names.classes and own_refusal(path, node.value)
    if not isinstance(node, (cst.Name, cst.Attribute)):
        return False
    q = names.qualname(node)
    top = (names.package or "").split(".")[0]
    if q is None or not top or q.split(".")[0] != top:
        return False
    return own_refusal(path, q.rsplit(".", 1)[-1])
