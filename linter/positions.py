"""Where the reported nodes are: line and column of each, computed once per file, only when something was reported.

libcst's ``PositionProvider`` re-generates the whole module's code (costlier
than parsing it). With the ``ast`` tree at hand, only the module-level
statements that hold a finding are re-generated, each on its own (inside a
class, only the member that holds the node: :func:`_narrowest`), and the
statement's line comes from ``ast``.
"""

from __future__ import annotations

import ast
from typing import Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .nodes import children

Span = tuple[int, int, int, int]  # line, column (0-based), end line, end column (exclusive)


def find_positions(
    module: cst.Module,
    tree: ast.Module | None,
    wanted: list[tuple[cst.CSTNode, int | None]],
    wrapper: MetadataWrapper | None,
) -> dict[cst.CSTNode, Span]:
    """Positions of the reported nodes.

    libcst's PositionProvider re-generates the whole module's code (costlier
    than parsing it). When the ``ast`` tree is at hand, only the module-level
    statements that hold a finding are re-generated, each on its own, and the
    statement's line comes from ``ast``.
    """
    out: dict[cst.CSTNode, Span] = {}
    by_top: dict[int, list[cst.CSTNode]] = {}
    starts: list[int] = []
    if tree is not None and all(top is not None for _, top in wanted):
        j = 0
        for stmt in module.body:
            starts.append(j)
            j += len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        if j == len(tree.body):
            for node, top in wanted:
                assert top is not None
                by_top.setdefault(top, []).append(node)
    if not by_top:
        if wrapper is None:
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        for node, code_range in wrapper.resolve(PositionProvider).items():
            out[node] = (code_range.start.line, code_range.start.column, code_range.end.line, code_range.end.column)
        return out
    for top, nodes in by_top.items():
        assert tree is not None
        for node in nodes:
            if node in out:
                continue
            sub, anchor, line = _narrowest(module.body[top], tree.body[starts[top]], node)
            pos = MetadataWrapper(
                module.with_changes(body=[sub], header=(), footer=()), unsafe_skip_copy=True
            ).resolve(PositionProvider)
            offset = line - pos[anchor].start.line
            # every other wanted node under the same re-generated statement comes for free
            for other in nodes:
                p = pos.get(other)
                if p is not None and other not in out:
                    out[other] = (p.start.line + offset, p.start.column, p.end.line + offset, p.end.column)
    return out


def node_lines(module: cst.Module, tree: ast.Module | None, nodes: Sequence[cst.CSTNode]) -> dict[cst.CSTNode, int]:
    """The first line of each node (for a message that names another line), as findings get theirs."""
    wanted: list[tuple[cst.CSTNode, int | None]] = []
    for node in nodes:
        top = next((i for i, stmt in enumerate(module.body) if contains(stmt, node)), None)
        wanted.append((node, top))
    return {node: span[0] for node, span in find_positions(module, tree, wanted, None).items() if node in set(nodes)}


def contains(root: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Whether ``node`` is under ``root``, by the traversal's own :func:`~.nodes.children`.

    (libcst's ``children`` builds each list through its visitor machinery,
    several times slower.) A node the rules can report is always found.
    """
    stack = [root]
    while stack:
        current = stack.pop()
        if current is node:
            return True
        stack.extend(children(current))
    return False


def _anchor(stmt: cst.CSTNode) -> cst.CSTNode:
    """The node of ``stmt`` that sits on the line ``ast`` gives as the statement's ``lineno``."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return stmt.body[0]
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return stmt.name
    return stmt


def _narrowest(stmt: cst.BaseStatement, node_ast: ast.stmt, node: cst.CSTNode) -> tuple[cst.BaseStatement, cst.CSTNode, int]:
    """The smallest re-generation of ``stmt`` that still places ``node`` exactly.

    Re-generating a whole module-level class to place one call in one method
    costs as much as the class. Inside a class body, only the member that holds
    the node is kept: the class is re-generated as a skeleton holding just that
    member, so indentation (and so every column) is as in the file, and the
    member's ``ast`` statement gives its line. Returns the statement to
    re-generate, the node whose line is known, and that line.
    """
    shell: list[cst.ClassDef] = []
    cur, cur_ast = stmt, node_ast
    while isinstance(cur, cst.ClassDef) and isinstance(cur.body, cst.IndentedBlock) and isinstance(cur_ast, ast.ClassDef):
        j, found = 0, None
        for child in cur.body.body:
            if contains(child, node):
                found = child
                break
            j += len(child.body) if isinstance(child, cst.SimpleStatementLine) else 1
        if found is None or j >= len(cur_ast.body):
            break  # the node is in the class header (bases, decorators): keep the whole class
        shell.append(cur)
        cur, cur_ast = found, cur_ast.body[j]
    anchor, line = _anchor(cur), cur_ast.lineno
    for cls in reversed(shell):
        cur = cls.with_changes(body=cls.body.with_changes(body=[cur]), decorators=(), leading_lines=())
    return cur, anchor, line
