"""The ``ast`` scope walk, with no libcst import: the cached run and the disk pre-passes use it.

``linter.nodes`` re-exports both names beside their libcst twins; modules the runner imports before any
file needs parsing (``imports_disk``, ``returned``) import them from here, so a run answered from the
cache never loads libcst (docs/performance.md: a cached re-run <= 0.1x of a cold one).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

# Nodes that open a scope of their own: code inside runs later (or elsewhere),
# not as part of the statement that holds them.
SCOPE_NODES_AST: tuple[type[ast.AST], ...] = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# The fields of a statement that hold statements (a ``try``'s handlers and a ``match``'s cases hold bodies): a walk of
# statements only goes through them, never into an expression.
STATEMENT_BLOCKS: tuple[str, ...] = ("body", "orelse", "finalbody", "handlers", "cases")


def walk_in_scope_ast(roots: Sequence[ast.AST]) -> Iterator[ast.AST]:
    """The ``ast`` twin of :func:`linter.nodes.walk_in_scope` over several roots (a statement list)."""
    stack: list[ast.AST] = list(roots)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, SCOPE_NODES_AST):
            continue
        stack.extend(ast.iter_child_nodes(n))
