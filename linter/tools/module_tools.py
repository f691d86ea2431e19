"""Module-based tools (``knowledge.TOOL_MODULE_SPECS``): a module whose spec dict names a tool run by the
module-level function named after the module, found for :func:`.forms.discover`."""

from __future__ import annotations

import ast

from .. import knowledge as kb
from .index import Index, literal_str

__all__ = ["module_tools"]


def module_tools(index: Index) -> list[tuple[str, str, tuple[str, int, ast.AST, tuple[ast.AST, ...]]]]:
    """(framework, tool name, the function) of a module-based tool (``knowledge.TOOL_MODULE_SPECS``): the last
    top-level assignment of the spec's name is a dict literal holding its keys, and a module-level function
    is named after the module (the last binding of that name wins, as the import does)."""
    specs: dict[str, ast.AST | None] = {}
    for stmt in index.tree.body:
        target: ast.AST | None = None
        value: ast.AST | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        if isinstance(target, ast.Name) and target.id in kb.TOOL_MODULE_SPECS:
            specs[target.id] = value
    out: list[tuple[str, str, tuple[str, int, ast.AST, tuple[ast.AST, ...]]]] = []
    stem = index.module.rsplit(".", 1)[-1]
    functions = [entry for entry in index.defs if entry[0] == stem and not entry[3]]
    if not functions:
        return out
    for var, value in specs.items():
        framework, keys = kb.TOOL_MODULE_SPECS[var]
        if not isinstance(value, ast.Dict):
            continue
        literal = {literal_str(k): v for k, v in zip(value.keys, value.values) if k is not None}
        if not keys <= literal.keys():
            continue
        out.append((framework, literal_str(literal.get("name")) or stem, max(functions, key=lambda e: e[1])))
    return out
