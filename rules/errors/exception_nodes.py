"""What :class:`~.taint.TextTaint` reads of a node by its syntax alone: a call handed the caught exception, the
exception's class name, the children of a node that are values, a name that reads as a class."""

from __future__ import annotations

import libcst as cst

from ...linter.api import lexical_children

__all__ = ["class_name", "class_name_of", "passes_exception", "value_children"]


def passes_exception(call: cst.Call, exc: set[str]) -> bool:
    """``X(..., exception=e)`` / ``X(e, ...)``: the object keeps the typed failure."""
    return any(isinstance(a.value, cst.Name) and a.value.value in exc and not a.star for a in call.args)


def class_name_of(value: cst.BaseExpression, exc: set[str]) -> bool:
    """``type(e).__name__``, ``e.__class__.__name__``: the caught exception's class name. Not a kind (s43): the
    implementation's name for the failure (``Exception``, ``HTTPStatusError``, ``KeyError``), not one the
    program chose; beside the text the model still reads an untyped failure."""
    if isinstance(value, cst.Attribute) and value.attr.value in ("__name__", "__qualname__"):
        inner = value.value
        if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value == "type":
            return bool(inner.args) and isinstance(inner.args[0].value, cst.Name) and inner.args[0].value.value in exc
        if isinstance(inner, cst.Attribute) and inner.attr.value == "__class__":
            return isinstance(inner.value, cst.Name) and inner.value.value in exc
    return False


def value_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The children of ``node`` that are values: not a keyword argument's name (``f(error=None)`` names a
    parameter, not the variable ``error``), nor an attribute's name (``self.error`` is not the local ``error``)."""
    if isinstance(node, cst.Arg):
        return [node.value]
    if isinstance(node, cst.Attribute):
        return [node.value]
    return lexical_children(node)


def class_name(node: cst.BaseExpression) -> bool:
    """``ToolResponse`` / ``responses.ToolResponse``: a name that reads as a class (capitalised, not a constant)."""
    name = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""
    return name[:1].isupper() and not name.isupper()
