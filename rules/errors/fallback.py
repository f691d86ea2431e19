"""TFH402's reading of a fallback: the values a handler may return and still say "there is nothing"
(``[]``, ``None``, ``0``, ``""``, ``dict()``: one table, read on the ``ast`` tree by the screen and on
the libcst tree by the check), a tri-state ``-> Optional[bool]`` answer, and the advice the finding
gives (naming the exception the handler binds)."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

import libcst as cst

from ...linter.api import handler_name
from .model import source_of


# What a handler may return and still say "there is nothing": one table, read
# by the ``ast`` screen and by the libcst check alike (:func:`default_value`).
_DEFAULT_CONSTANTS: tuple[object, ...] = (None, False, "", b"", 0)
_DEFAULT_NAMES = {"None": None, "False": False}
_EMPTY_CALLS = ("list", "dict", "set", "tuple", "str", "frozenset")
_EMPTY_DISPLAYS = {cst.List: "[]", cst.Dict: "{}", cst.Tuple: "()", cst.Set: "set()"}
# A text that says "nothing was found" (``"No results, try another search"``, ``"No matching
# documents."``, ``"Nothing found"``) reads to the model as the answer "there is nothing", as an empty
# list does to code: the same fallback, in words. Only a text that starts by saying so; one that says
# it failed (``"Error: no results"``, ``"Search failed"``) is not a fallback.
_NOTHING_FOUND = re.compile(
    r"^\W*(?:no|zero|0)\s+(?:\w+\s+){0,2}?(?:results?|matches|hits|items|records|entries|documents|docs|data|papers"
    r"|articles|pages|files|sources|answers?|evidence)\b|^\W*nothing\s+(?:was\s+)?found\b"
    r"|^\W*no\s+(?:\w+\s+){0,2}?(?:was\s+|were\s+)?found\b",
    re.IGNORECASE,
)


def _says_nothing_found(text: object) -> bool:
    return isinstance(text, str) and _NOTHING_FOUND.search(text) is not None


def nothing_found(value: cst.BaseExpression | ast.expr | None) -> bool:
    """A literal text that starts by saying nothing was found (``"No evidence found."``)."""
    if isinstance(value, ast.Constant):
        return _says_nothing_found(value.value)
    return isinstance(value, cst.SimpleString) and _says_nothing_found(value.evaluated_value)


def filled_result(stmts: Sequence[ast.stmt | cst.BaseSmallStatement]) -> tuple[str, str] | None:
    """A handler whose whole body puts a nothing-found text into a slot of a result
    (``result["evidence"] = "No evidence found."``): the result's name and the text, else None."""
    if len(stmts) != 1:
        return None
    stmt = stmts[0]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and nothing_found(stmt.value):
        target: ast.expr | cst.BaseExpression = stmt.targets[0]
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name) and target is not stmt.targets[0]:
            return target.id, repr(stmt.value.value)  # type: ignore[attr-defined]
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and nothing_found(stmt.value):
        first = stmt.targets[0].target
        target = first
        while isinstance(target, (cst.Subscript, cst.Attribute)):
            target = target.value
        if isinstance(target, cst.Name) and target is not first:
            assert isinstance(stmt.value, cst.SimpleString)
            return target.value, stmt.value.value
    return None


def default_value(value: cst.BaseExpression | ast.expr | None) -> str | None:
    """How the returned value reads when it is an empty or default value (``[]``, ``None``, ``0``...), else None.

    On the ``ast`` tree (the screen) and the libcst tree (the check) from the
    same tables; ``None`` is a bare ``return``.
    """
    if value is None:
        return "None"
    if isinstance(value, ast.AST):  # the screen
        if isinstance(value, ast.Constant):
            if _says_nothing_found(value.value):
                return repr(value.value)
            return repr(value.value) if value.value in _DEFAULT_CONSTANTS else None
        if isinstance(value, ast.Dict):
            return "{}" if not value.keys else _empty_record(value.keys, value.values)
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            return "()" if not value.elts else None
        if isinstance(value, ast.Call):
            name = value.func.id if isinstance(value.func, ast.Name) else None
            return f"{name}()" if name in _EMPTY_CALLS and not value.args and not value.keywords else None
        return None
    if isinstance(value, cst.Name):
        return value.value if value.value in _DEFAULT_NAMES else None
    if isinstance(value, cst.SimpleString):
        return value.value if value.evaluated_value in ("", b"") or _says_nothing_found(value.evaluated_value) else None
    if isinstance(value, (cst.Integer, cst.Float)):
        return value.value if value.evaluated_value == 0 else None
    if isinstance(value, cst.Dict) and value.elements:
        pairs = [(e.key, e.value) for e in value.elements if isinstance(e, cst.DictElement)]
        if len(pairs) != len(value.elements):
            return None
        return _empty_record([k for k, _ in pairs], [v for _, v in pairs])
    if isinstance(value, (cst.List, cst.Dict, cst.Tuple, cst.Set)):
        return _EMPTY_DISPLAYS[type(value)] if not value.elements else None
    if isinstance(value, cst.Call):
        name = value.func.value if isinstance(value.func, cst.Name) else None
        return f"{name}()" if name in _EMPTY_CALLS and not value.args else None
    return None


def _empty_record(
    keys: Sequence[ast.expr | cst.BaseExpression | None], values: Sequence[ast.expr | cst.BaseExpression]
) -> str | None:
    """A dict display of string keys whose values are all empty (``None``, ``[]``, ``0``, ``""``) or names
    echoed back (``{"workspace_id": workspace_id, "current_task": None, "queued_tasks": []}``), at least one
    empty: a record that says "nothing there" field by field. ``False`` is a status flag, not an empty value."""
    empty = 0
    for key, value in zip(keys, values):
        if not isinstance(key, (ast.Constant, cst.SimpleString)):
            return None
        if isinstance(value, (ast.Name, cst.Name)) and (value.id if isinstance(value, ast.Name) else value.value) not in _DEFAULT_NAMES:
            continue
        shown = default_value(value)
        if shown is None or shown == "False" or (isinstance(value, ast.Constant) and value.value is False):
            return None
        empty += 1
    return "a record of empty values" if empty else None


def optional_bool(returns: cst.Annotation | None) -> bool:
    """``-> Optional[bool]`` / ``-> bool | None``: a tri-state answer."""
    ann = returns.annotation if returns is not None else None
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        sides = {source_of(ann.left).strip(), source_of(ann.right).strip()}
        return sides == {"bool", "None"}
    if isinstance(ann, cst.Subscript) and len(ann.slice) == 1 and isinstance(ann.slice[0].slice, cst.Index):
        head = source_of(ann.value).strip().rsplit(".", 1)[-1]
        return head == "Optional" and source_of(ann.slice[0].slice.value).strip() == "bool"
    return False


def fallback_fix(node: cst.ExceptHandler) -> str:
    """The advice, naming the exception the handler binds, or showing how to bind one (a bare ``except:`` has none)."""
    name = handler_name(node)
    if name is not None:
        return f"return a typed ToolError (Err(from_exception({name})))"
    catch = "except Exception" if node.type is None else "except " + source_of(node.type)
    return f"catch it as `{catch} as e:` and return a typed ToolError (Err(from_exception(e)))"


# A comment in the handler that says the fallback is the design (``# fall back to the full auth flow``,
# ``# best-effort: the notice is optional``): the author chose it, and says where the caller goes next. A
# comment that only restates the code (``# return None on any error``) says nothing of the kind, nor does a
# linter pragma (``# noqa: BLE001``, ``# pragma: no cover``); a to-do (``# TODO: fall back less``) says the
# opposite: the author knows the fallback is wrong.
_PRAGMA = re.compile(
    r"noqa(?::\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?|type:\s*ignore(?:\[[^\]]*\])?|pragma:\s*no\s*(?:cover|branch)"
    r"|pylint:\s*disable=[\w,-]+|nosec(?:\s+B\d+)?|fmt:\s*(?:on|off|skip)|ruff:\s*noqa",
    re.IGNORECASE,
)
_DESIGN = re.compile(
    r"\bfall(?:s|ing)?[\s-]*back\b|\bfallback\b|\bbest[\s-]effort\b|\boptional\b|\bnon[\s-]?(?:fatal|critical)\b"
    r"|\bnot\s+critical\b|\bby\s+design\b|\bon\s+purpose\b|\bintentional(?:ly)?\b|\bdeliberate(?:ly)?\b"
    r"|\bdegrade(?:s|d)?\s+gracefully\b",
    re.IGNORECASE,
)
_TODO = re.compile(r"^\W*(?:todo|fixme|xxx|hack)\b", re.IGNORECASE)


def _explains(comment: cst.Comment | None) -> bool:
    if comment is None:
        return False
    text = _PRAGMA.sub(" ", comment.value.lstrip("#"))
    return _DESIGN.search(text) is not None and _TODO.search(text) is None


def documented_fallback(handler: cst.ExceptHandler) -> bool:
    """The handler carries a comment that says the fallback is the design (on the ``except`` line, or a line of
    its body)."""
    body = handler.body
    if not isinstance(body, cst.IndentedBlock):
        return isinstance(body, cst.SimpleStatementSuite) and _explains(body.trailing_whitespace.comment)
    if _explains(body.header.comment):
        return True
    for stmt in body.body:
        if isinstance(stmt, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and any(
            _explains(line.comment) for line in stmt.leading_lines
        ):
            return True
        if isinstance(stmt, cst.SimpleStatementLine) and _explains(stmt.trailing_whitespace.comment):
            return True
    return any(_explains(line.comment) for line in body.footer)
