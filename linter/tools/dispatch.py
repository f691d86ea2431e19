"""Discovery of the tool forms that name the function the model calls indirectly: a tool *factory* (the tool is
the nested function it returns) and tool schemas dispatched by the called name. Used by :mod:`.forms`."""

from __future__ import annotations

import ast

from .. import knowledge as kb
from .ancestry import local_ancestor_roots, says_tool
from .index import FUNCS, Index
from .model import Tables

__all__ = ["registered_tool_class", "returned_function"]

Entry = tuple[str, int, ast.AST, tuple[ast.AST, ...]]


def _returns(fn: ast.AST) -> list[ast.expr]:
    """The values the function itself returns (not those of the functions or classes nested in it)."""
    out: list[ast.expr] = []
    stack = list(getattr(fn, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Return) and n.value is not None:
            out.append(n.value)
        stack.extend(ast.iter_child_nodes(n))
    out.sort(key=lambda v: (v.lineno, v.col_offset))
    return out


def returned_function(factory: Entry, index: Index) -> Entry | None:
    """The nested function a tool factory returns: by name (``return execute``), or handed to the call it returns
    (``return ToolDef(execute, name="bash").as_tool()``); the first such return wins. None when it returns no
    function of its own (a tool built by another function): the row is then the factory itself."""
    path = factory[0]
    nested = {e[0].rsplit(".", 1)[-1]: e for e in index.defs
              if e[0].rsplit(".", 1)[0] == path and e[3] and e[3][-1] is factory[2]}
    if not nested:
        return None
    for value in _returns(factory[2]):
        names = [value] if isinstance(value, ast.Name) else [n for n in ast.walk(value) if isinstance(n, ast.Name)]
        for n in names:
            if isinstance(n, ast.Name) and n.id in nested:
                return nested[n.id]
    return None


def registered_tool_class(qn: str | None, cls: ast.ClassDef, index: Index, tables: Tables) -> str | None:
    """A project's own registry decorator on a tool class (``@register_tool("browser") class BrowserTool(BaseTool)``):
    its last name a tool word (``knowledge.TOOL_DECORATOR_WORDS``), imported from the same top-level package as an
    ancestor of the class, and the class or a base named as a tool. -> the framework (that package), or None."""
    if qn is None or qn.rsplit(".", 1)[-1] not in kb.TOOL_DECORATOR_WORDS:
        return None
    root = qn.split(".")[0]
    if root not in local_ancestor_roots(cls, index, tables.ancestor_roots):
        return None
    if not (says_tool(cls) or any("Tool" in b.rsplit(".", 1)[-1] for b in index.bases(cls))):
        return None
    return root.replace("_", "-")
