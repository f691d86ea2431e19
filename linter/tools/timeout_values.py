"""How a timeout's value is shown in a tool's facts (``ToolFacts``, :mod:`.facts`): its number, or its source text.

``timeout=10`` -> ``10``, ``timeout=(3, 30)`` -> ``(3, 30)``; anything else (``timeout=settings.timeout``) as its
code, whitespace collapsed, cut to 24 characters."""

from __future__ import annotations

import libcst as cst

__all__ = ["value_text"]


def value_text(node: cst.BaseExpression) -> str:
    """A timeout's value as a fact shows it: a literal number (or tuple of numbers), else its source text."""
    return _number(node) or _expr_text(node)


def _expr_text(node: cst.CSTNode, limit: int = 24) -> str:
    try:
        text = cst.Module([]).code_for_node(node)
    except Exception:
        return "?"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.value
    if isinstance(node, cst.Tuple) and all(isinstance(e.value, (cst.Integer, cst.Float)) for e in node.elements):
        return "(" + ", ".join(e.value.value for e in node.elements) + ")"  # type: ignore[attr-defined]
    return None
