"""TFH401 (s49, issue 24): a helper handed the caught exception as a parameter.

An error formatter such as ``def _handle_error(e: Exception, op: str) -> dict: ... return {"error": f"{op} failed:
{e}"}`` is what every ``except Exception as e: return _handle_error(e, "x")`` of its callers answers: the text is made
in the helper. A parameter annotated as any exception (``Exception``, ``BaseException``, ``Exception | None``,
``Optional[BaseException]``: ``EVERY_EXCEPTION``) holds the exception the way a handler's ``as`` name does.

The rule reads the helper as a handler only where its callers are not reported for it: where the helper returns the
parameter as text one level deep (:meth:`~.taint.TextTaint._carries`: ``return {"error": str(e)}``), a caller's
``return _handle_error(e)`` is reported and the helper stays silent (one finding per text); where it does not (the
text is built through a call of another helper, ``f"failed: {_describe(e)}"``, or the callers live in other
modules), the helper's ``return`` is reported, once, where the text is made. Only a helper named for a failure
(``_handle_error``, ``_failed``; not ``reask_tools``, ``_exception_text_for_matching``) and not annotated to return a
truth value or an exception (``-> bool``; ``-> Exception``: the error its caller raises, ``raise _page_failure(e)``).
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from ...linter.api import Knowledge
from .model import source_of, words

__all__ = ["exception_params", "exception_params_ast"]


def _every(annotation: str, every: frozenset[str]) -> bool:
    """``Exception``, ``builtins.BaseException``, ``Exception | None``, ``Optional[Exception]`` (an annotation's source,
    from either tree): every part an exception class of ``every`` or ``None``, one of them a class."""
    text = "".join(annotation.split())
    if text.startswith("Optional[") and text.endswith("]"):
        text = text[len("Optional["):-1]
    parts = text.split("|")
    return any(p in every for p in parts) and all(p in every or p == "None" for p in parts)


def _formatter(name: str, returns: str, knowledge: Knowledge) -> bool:
    """Named for a failure (``_handle_error``, ``_failed``, ``_restamp_failure_result``: a word of
    ``RESULT_FAILURE_FACTORY_WORDS``), and not annotated to return a truth value or an exception (``-> bool``: a
    test of the exception; ``-> Exception``, ``-> ToolError | None``: the error its caller raises)."""
    if not _failure_named(name, knowledge):
        return False
    kinds = {part.strip().rsplit(".", 1)[-1] for part in re.split(r"[|\[\],]", returns) if part.strip()}
    return not any(k == "bool" or k.endswith(("Error", "Exception")) for k in kinds)


def _failure_named(name: str, knowledge: Knowledge) -> bool:
    return bool(words(name) & knowledge.result_failure_factory_words)


def exception_params(func: cst.FunctionDef, knowledge: Knowledge) -> list[str]:
    """The names of ``func``'s parameters annotated as any exception."""
    every = knowledge.every_exception
    if not _failure_named(func.name.value, knowledge):
        return []  # before any annotation's text is made: most functions stop here (s50)
    returns = source_of(func.returns.annotation) if func.returns is not None else ""
    if not _formatter(func.name.value, returns, knowledge):
        return []
    params = func.params
    return [
        p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)
        if p.annotation is not None and _every(source_of(p.annotation.annotation), every)
    ]


def exception_params_ast(node: ast.AST, knowledge: Knowledge) -> list[str]:
    """The screen's view (:func:`exception_params` of an ``ast`` def): its line and the helpers it calls are read."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    a = node.args
    every = knowledge.every_exception
    if not _failure_named(node.name, knowledge):
        return []  # before ``ast.unparse``: most definitions stop here (s50: the unparse was 1% of the plugin)
    if not _formatter(node.name, ast.unparse(node.returns) if node.returns is not None else "", knowledge):
        return []
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)
            if p.annotation is not None and _every(ast.unparse(p.annotation), every)]
