"""MCP tool annotations a project builds in its own helper: ``@mcp.tool(annotations=read_only())``.

MCP ``ToolAnnotations`` given literally in the decorator are read where the tool is (``effects.declared_class``). A
project that annotates many tools the same way writes a helper instead::

    def read_only(title=None) -> ToolAnnotations:
        return ToolAnnotations(title=title, readOnlyHint=True, destructiveHint=False)

    @mcp.tool(annotations=read_only())
    def get_task(task_id: str) -> str: ...

Each file's graph (``follow.Graph.annotations``) records its module-level functions whose every ``return`` is a
``ToolAnnotations(...)`` call (of the ``mcp``/``fastmcp`` packages) or a dict literal with the same literal hints, and
the class those hints state; a tool row notes the helper its ``annotations=`` calls (``Tool.annotated``), and the
join at the end of the run (wherever the helper is defined in the run) gives the row that class as declared. Positive
evidence only: a hint passed as a parameter (``destructiveHint=destructive``) states nothing, and a helper whose
returns disagree declares nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any

import libcst as cst

from .. import knowledge as kb
from ..effects import declared_class, mcp_class
from ..names import dotted
from ..nodes import assignment_targets, keyword_arg

__all__ = ["annotation_call", "annotation_helpers", "constant_hints_class", "declared_here", "hint_constants",
           "hints_class", "keyword_hints_class"]

_ROOTS = ("mcp", "fastmcp")


def annotation_call(fn: cst.FunctionDef) -> cst.Call | None:
    """The call an MCP tool decorator's ``annotations=`` makes (``@mcp.tool(annotations=read_only())``), or None."""
    for x in fn.decorators:
        if isinstance(x.decorator, cst.Call):
            arg = keyword_arg(x.decorator, "annotations")
            if arg is not None and isinstance(arg.value, cst.Call):
                return arg.value
    return None
def hint_constants(module: cst.Module) -> dict[str, str]:
    """The module's top-level names bound once, to ``ToolAnnotations(...)`` hints or a dict of them stating a class
    literally (``WRITE = ToolAnnotations(read_only_hint=False, idempotent_hint=False)``): name -> that class
    (``effects.mcp_class``). A project that annotates its tools by a few named sets of hints writes them once."""
    seen: dict[str, int] = {}
    found: dict[str, str] = {}
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                continue
            for t in assignment_targets(small):
                if isinstance(t, cst.Name):
                    seen[t.value] = seen.get(t.value, 0) + 1
                    value = small.value
                    made = isinstance(value, cst.Dict) or isinstance(value, cst.Call) and (
                        dotted(value.func) or "").rsplit(".", 1)[-1] == "ToolAnnotations"
                    cls = mcp_class(value) if made else None
                    if cls is not None:
                        found[t.value] = cls
    return {n: c for n, c in found.items() if seen[n] == 1}


def constant_hints_class(fn: cst.FunctionDef, constants: Mapping[str, str]) -> str | None:
    """The class a tool decorator's ``annotations=NAME`` states through a module constant (:func:`hint_constants`),
    or None (a name bound elsewhere, a parameter: nothing)."""
    for x in fn.decorators:
        call = x.decorator
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and \
                call.func.attr.value == kb.MCP_TOOL_DECORATOR_METHOD:
            arg = keyword_arg(call, "annotations")
            if arg is not None and isinstance(arg.value, cst.Name) and arg.value.value in constants:
                return constants[arg.value.value]
    return None


def declared_here(fn: cst.FunctionDef, names: Any, constants: Mapping[str, str]) -> str | None:
    """The class a tool declares where it is defined: its decorators' literal hints (``effects.declared_class``), a
    hint-keyword decorator's (:func:`keyword_hints_class`), or a module constant's (:func:`constant_hints_class`)."""
    return declared_class(fn, names) or keyword_hints_class(fn, names) or constant_hints_class(fn, constants)


_Qualname = Callable[[ast.AST], "str | None"]  # ``Index.qualname``


def hints_class(node: ast.expr, qualname: _Qualname) -> str | None:
    """The class the literal hints of a ``ToolAnnotations(...)`` call or a dict literal state, or None."""
    hints: dict[str, bool] = {}
    if isinstance(node, ast.Call):
        qn = qualname(node.func)
        if qn is None or qn.split(".")[0] not in _ROOTS or not qn.endswith(".ToolAnnotations"):
            return None
        for kw in node.keywords:
            if kw.arg is not None and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
                hints[kw.arg] = kw.value.value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Constant) \
                    and isinstance(value.value, bool):
                hints[key.value] = value.value
    else:
        return None
    if hints.get("readOnlyHint") is True or hints.get("read_only_hint") is True:
        return kb.READ_SAFE  # read-only makes the other hints meaningless (MCP spec)
    found = {cls for hint, value, cls in kb.MCP_HINTS if hints.get(hint) is value}
    for cls in (kb.IRREVERSIBLE, kb.NON_IDEMPOTENT_WRITE, kb.IDEMPOTENT_WRITE):
        if cls in found:
            return cls
    return None


def keyword_hints_class(fn: cst.FunctionDef, names: Any) -> str | None:
    """The class a tool decorator that takes the hints as keywords declares (``knowledge.HINT_KEYWORD_DECORATORS``:
    fastmcp-extensions' ``@mcp_tool(read_only=True)``; a hint not given is False, as the decorator sends it), or
    None: no hint given literally, or one given by a variable (``idempotent=is_idempotent`` states nothing)."""
    for dec in fn.decorators:
        call = dec.decorator
        if not isinstance(call, cst.Call):
            continue
        table = kb.HINT_KEYWORD_DECORATORS.get(names.qualname(call.func) or "")
        if table is None:
            continue
        hints = dict.fromkeys(table.values(), False)
        given = False
        for arg in call.args:
            hint = table.get(arg.keyword.value) if arg.keyword is not None else None
            if hint is None:
                continue
            if not (isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False")):
                return None
            hints[hint], given = arg.value.value == "True", True
        if not given:
            return None
        if hints["readOnlyHint"]:
            return kb.READ_SAFE
        if hints["destructiveHint"]:
            return kb.IRREVERSIBLE
        return kb.IDEMPOTENT_WRITE if hints["idempotentHint"] else kb.NON_IDEMPOTENT_WRITE
    return None


def annotation_helpers(functions: Mapping[str, ast.AST], qualname: _Qualname) -> dict[str, str]:
    """Of the module-level functions ``functions`` (qualified name -> node), those whose every ``return`` gives
    ``ToolAnnotations`` hints stating one class: qualified name -> that class."""
    out: dict[str, str] = {}
    for qn, node in functions.items():
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        returns = [n for n in _own_nodes(node) if isinstance(n, ast.Return)]
        classes = {hints_class(r.value, qualname) if r.value is not None else None for r in returns}
        if len(classes) == 1 and (cls := classes.pop()) is not None:
            out[qn] = cls
    return out


def _own_nodes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of ``fn``'s body, not those of the functions and classes it defines."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        n = stack.pop()
        out.append(n)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return out
