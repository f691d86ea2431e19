"""What an assignment gives its targets, as the exception-text taint (:mod:`.taint`, :mod:`.text`) reads it.

:func:`bound_pairs` pairs each target with its value (a parallel assignment's names with their items),
:func:`unpacked_at` names the targets unpacked at a helper's positions (``out, err = _invoke(...)``), and
:func:`telemetry_key` says a subscript target is a trace's span attribute (``attributes["tool.error"] = str(e)``),
not a container a model reads."""

from __future__ import annotations

import libcst as cst

from ...linter.api import string_literal

__all__ = ["bound_pairs", "telemetry_key", "unpacked_at"]


def telemetry_key(target: cst.Subscript) -> bool:
    """``attributes["tool.args_parse_error"] = str(e)``: a dotted attribute key, as a trace's span attributes are
    named (OpenTelemetry's conventions); the text goes to a trace, not to a model."""
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return False
    key = string_literal(target.slice[0].slice.value)
    return key is not None and "." in key and all(p.isidentifier() for p in key.split("."))


def bound_pairs(node: cst.Assign) -> list[tuple[cst.BaseAssignTargetExpression, cst.BaseExpression]]:
    """Each target of ``node`` with the value it is given: the whole value; and for a tuple target given a tuple
    of as many items, every target a plain name (``output, failed = ToolOutput(f"{e}"), True``, s47), each name
    with its item (``output`` gets the tool's result object, ``failed`` gets ``True``). Not items of a container
    (``step["error"], step["error_kind"] = str(e), e.kind``: the text beside its kind; 2 false of 2 on batches
    1-20)."""
    pairs: list[tuple[cst.BaseAssignTargetExpression, cst.BaseExpression]] = []
    value = node.value
    for t in node.targets:
        target = t.target
        if (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
                and len(target.elements) == len(value.elements)
                and all(isinstance(el, cst.Element) and isinstance(el.value, cst.Name) for el in target.elements)
                and not any(isinstance(el, cst.StarredElement) for el in value.elements)):
            pairs.extend((el.value, item.value) for el, item in zip(target.elements, value.elements)
                         if isinstance(el.value, cst.Name))  # every one is (checked above): narrows the type
        else:
            pairs.append((target, value))
    return pairs


def unpacked_at(node: cst.Assign, positions: frozenset[int]) -> list[str]:
    """The names ``node`` unpacks at ``positions`` of its value's tuple (``out, err = ...``, position 1: ``err``)."""
    return [el.value.value for t in node.targets if isinstance(t.target, (cst.Tuple, cst.List))
            for i, el in enumerate(t.target.elements) if i in positions and isinstance(el.value, cst.Name)]
