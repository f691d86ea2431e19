"""Helpers that never return: a handler whose last statement calls one (``except DevhelmError as e:
raise_tool_error(e)``) hands the failure on, it does not swallow it.

A function *always raises* when its return annotation says so (``-> NoReturn``, ``-> Never``) or when every path of
its body ends in a ``raise`` and it has no ``return`` (``raise ToolError(format_error(err)) from err``; an
``if``/``else`` or ``try``/``except`` whose every branch ends in one). What the handler then gives the model is what
the helper raises: ``typed`` when each terminal ``raise`` is a tool error (``failures.is_tool_error``: a runtime or
framework ``ToolError``), else ``raised`` (the framework sees the exception). A helper of the same module is read
where the handler is (``facts.py``); one of another module in its own file, as its summary (``Summary.raises``), and
the caller's handler is settled when the run joins them (``follow.join``, :func:`settle`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import libcst as cst

from .. import knowledge as kb
from ..names import dotted
from ..nodes import walk_in_scope
from .failures import is_tool_error
from .model import Tool

__all__ = ["always_raises", "handed_to", "settle"]

_NEVER = frozenset({"NoReturn", "Never"})


def _stmts(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return body.body if isinstance(body, cst.IndentedBlock) else [body]


def _terminal(stmts: Sequence[cst.CSTNode], raises: list[cst.Raise]) -> bool:
    """Whether the block's every path ends in a ``raise`` (those raises collected in ``raises``)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        small = last.body[-1] if last.body else None
        if isinstance(small, cst.Raise):
            raises.append(small)
            return True
        return False
    if isinstance(last, cst.If):
        if last.orelse is None:
            return False
        other = last.orelse
        rest = [other] if isinstance(other, cst.If) else list(_stmts(other.body))
        return _terminal(_stmts(last.body), raises) and _terminal(rest, raises)
    if isinstance(last, cst.Try) and last.finalbody is None:
        return _terminal(_stmts(last.orelse.body) if last.orelse else _stmts(last.body), raises) and all(
            _terminal(_stmts(h.body), raises) for h in last.handlers)
    return False


def always_raises(fn: cst.FunctionDef, names: Any, knowledge: kb.Knowledge) -> str | None:
    """``typed`` or ``raised`` when ``fn`` never returns (see the module's docstring), else None."""
    annotated = fn.returns is not None and (dotted(fn.returns.annotation) or "").rsplit(".", 1)[-1] in _NEVER
    raises: list[cst.Raise] = []
    ends = not any(isinstance(n, (cst.Return, cst.Yield)) for n in walk_in_scope(fn.body)) \
        and _terminal(_stmts(fn.body), raises)
    if not (annotated or ends):
        return None
    typed = ends and all(r.exc is not None and is_tool_error(r.exc, names, knowledge) for r in raises)
    return "typed" if typed else "raised"


def handed_to(handler: cst.ExceptHandler, names: Any, module: str) -> str | None:
    """The qualified name of the function a handler's last statement calls for its effect alone, handed the caught
    exception (``except DevhelmError as e: raise_tool_error(e)``), else None: the one call that may raise in its place."""
    stmts = _stmts(handler.body)
    last = stmts[-1] if stmts else None
    if handler.name is None or not isinstance(last, cst.SimpleStatementLine) or len(last.body) != 1:
        return None
    expr = last.body[0]
    if not isinstance(expr, cst.Expr) or not isinstance(expr.value, cst.Call):
        return None
    call = expr.value
    caught = handler.name.name.value if isinstance(handler.name.name, cst.Name) else None
    if not any(isinstance(a.value, cst.Name) and a.value.value == caught for a in call.args):
        return None
    qn = names.qualname(call.func)
    if qn is None and isinstance(call.func, cst.Name):
        qn = call.func.value
    if qn is None or qn.rsplit(".", 1)[-1].lower().startswith(kb.LOGGING_CALL_PREFIXES):
        return None
    return qn if "." in qn else f"{module}.{qn}"


def settle(tool: Tool, resolve: Callable[[str], list[str]], summaries: Mapping[str, Any]) -> None:
    """Add the mode each handler handing the failure to another module's helper gives (:attr:`Tool.raisers`): the
    helper's summary's :func:`always_raises`, or ``swallowed`` when it may return; a raise the framework turns into
    text (its ``caught_by``) is that text, the row then naming it in ``failures_by``."""
    for qn, caught_by in tool.raisers:
        mode = next((s.raises for k in resolve(qn) if (s := summaries.get(k)) is not None), None)
        answer = mode or "swallowed"
        if answer == "raised" and caught_by is not None:
            answer, tool.failures_by = "text", caught_by
        if answer not in tool.failures:
            tool.failures.append(answer)
