"""s55: the attribute names a module's classes may hold an object under, read from its ``ast`` (a cheap superset).

What :func:`.names_members.member` can answer for ``<instance>.<attr>`` of a module-level class is a field of its
body (``session: Session``, ``session = Session()``), one of its ``def``\\ s (a ``@property``), or an attribute its
methods assign (``self.session = ...``). The names here are every such one: the ``Name`` targets and ``def`` names
of the bodies of the module-level classes, and every ``<name>.<attr>`` target of an assignment anywhere in the
module. The timeout screen asks a held client's call (``x.session.get(...)``) for its attribute before the file is
parsed with libcst (``rules/timeouts/screen.py: held_calls``).
"""

from __future__ import annotations

import ast

from .scope_ast import STATEMENT_BLOCKS

__all__ = ["attribute_names"]


def _targets(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, (ast.Tuple, ast.List)):
        return [t for e in node.elts for t in _targets(e)]
    if isinstance(node, ast.Starred):
        return _targets(node.value)
    return [node]


def attribute_names(tree: ast.AST) -> frozenset[str]:
    """The names ``<instance of a module-level class>.<name>`` may hold an object under (see the module's doc)."""
    out: set[str] = set()
    body = tree.body if isinstance(tree, ast.Module) else []
    for stmt in body:
        if isinstance(stmt, ast.ClassDef):
            for item in stmt.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.add(item.name)
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    for target in item.targets if isinstance(item, ast.Assign) else [item.target]:
                        out.update(t.id for t in _targets(target) if isinstance(t, ast.Name))
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                out.update(t.attr for t in _targets(target)
                           if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name))
            continue
        for name in STATEMENT_BLOCKS:
            children = getattr(node, name, None)
            if isinstance(children, list):
                stack.extend(children)
    return frozenset(out)
