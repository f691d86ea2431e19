"""The methods and functions of a file that make a tool of one of their parameters, and their spelling in the
run's subclasses (moved out of ``describe.py``, s56: its size)."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .index import Index
from .model import Tables
from .applied_calls import tool_helpers

__all__ = ["inherited_helpers", "method_helpers"]


def method_helpers(index: Index, tables: Tables) -> dict[str, tuple[str, str, int | None]]:
    """The file's class methods and module functions that make a tool of one of their parameters (:func:`tool_helpers`:
    ``def _add_tool(self, server: FastMCP, method, name): server.add_tool(offload_to_thread(method), name=...)``,
    ``def add_screens(mcp, *fns)``): a subclass in another file calling ``self._add_tool(method=self.search_cases, ...)``,
    a module calling ``add_screens(mcp, show_board)``, makes a tool of what it hands, as a wrapper of the tables
    does. -> {qualified method: (framework, the parameter, its position after ``self`` or None)}."""
    owners = {path for path, _node in index.classes} | {""}
    top = {s.name for s in index.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return {f"{index.module}.{path}": (framework, param, position if position >= 0 else None)
            for path, (position, param, framework, _form)
            in tool_helpers(index, tables.decorators, tables.wrappers, tables.project).items()
            if path.rpartition(".")[0] in owners and (path in top or "." in path)
            and framework not in ("", "runtime")}


def inherited_helpers(helpers: dict[str, tuple[str, str, int | None]], classes: Sequence[tuple[str, list[str]]]) -> None:
    """Add to ``helpers`` (qualified method -> wrapper entry) the run's subclasses' spelling of each, through any
    depth of bases in other files (falcon-mcp's ``_CloudBase(BaseModule)``, its mixins deriving from it)."""
    by_class: dict[str, dict[str, tuple[str, str, int | None]]] = {}
    for qn, entry in helpers.items():
        owner, _, method = qn.rpartition(".")
        by_class.setdefault(owner, {})[method] = entry
    changed = bool(by_class)
    while changed:
        changed = False
        for qn, bases in classes:
            for base in bases:
                for method, entry in list(by_class.get(base, {}).items()):
                    if method not in by_class.setdefault(qn, {}):
                        by_class[qn][method] = entry
                        helpers.setdefault(f"{qn}.{method}", entry)
                        changed = True
