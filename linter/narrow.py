"""Narrow a module to the definitions that can hold a finding, before libcst parses it.

``libcst.parse_module`` costs about half of flake8's whole run, and in agent code a
file that holds one candidate usually holds it in one method of a long class. The
rules say which lines their candidates are on (:meth:`Rule.candidate_lines`, from
the ``ast`` screen); this module replaces every ``def``/``class`` (module-level, or
a member of a kept class, recursively) that holds none of those lines by a
one-line stub with the same name::

    def name(): ...        # or: class name: ...; def name() -> Annotation: ... (a one-line return annotation)

its logical line going on to the definition's last line by ``\\`` continuations (s56: no longer empty lines, for
each of which libcst built an ``EmptyLine``, its ``Newline`` and whitespace: a quarter of the nodes it built on the agent
corpus), so that every kept line keeps its number and its text,
every statement list keeps its length (positions are still found by matching
libcst's statements to ``ast``'s, see ``engine._positions``), and the stub still
binds its name for the resolver, and keeps a one-line return annotation, which the resolver reads for what a
helper returns (``def _connect() -> sqlite3.Connection``; s48).

Kept whole, whatever the candidates: every statement that is not a definition
(imports, assignments, ``if``/``try`` blocks at module level); a definition that
binds a name other definitions may read (``global``; inside a
class, a method that assigns ``self.<attr>``, since ``self.client.post()`` in one
method resolves through ``self.client = httpx.Client()`` in another). A ``nonlocal``
keeps nothing (s51): the narrowed definitions are module-level or class members, so the
function whose name it binds lies inside the same definition, stubbed with it.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from typing import Collection, Sequence

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BARE_CR = re.compile(r"\r(?!\n)")


def narrow(text: str, tree: ast.Module, wanted: Collection[int], binders: Sequence[ast.AST]) -> str | None:
    """``text`` with every definition that holds no ``wanted`` line stubbed out.

    ``tree`` is ``ast``'s tree of exactly ``text``; ``binders`` the assignment,
    ``with``-item and ``global``/``nonlocal`` nodes in it (``Screen.binders``).
    Returns None when nothing would be dropped, or when the text is one that line
    arithmetic cannot be trusted on (a bare carriage return ends a line for
    Python but not for ``str.split``).
    """
    if _BARE_CR.search(text):
        return None
    lines = text.split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    n = len(lines)
    spots = sorted(wanted)
    global_lines: list[int] = []
    attr_lines: list[int] = []
    for node in binders:
        if isinstance(node, ast.Global):
            global_lines.append(node.lineno)
        elif not isinstance(node, ast.Nonlocal):  # it binds in a function of the same definition: no other one reads it
            line = _attribute_binding_line(node)
            if line is not None:
                attr_lines.append(line)
    global_lines.sort()
    attr_lines.sort()
    changed = False

    def holds(sorted_lines: list[int], start: int, end: int) -> bool:
        i = bisect_left(sorted_lines, start)
        return i < len(sorted_lines) and sorted_lines[i] <= end

    # the bodies to narrow, the module's first; a kept class's members after it (a worklist, not a recursive closure:
    # a nested function that calls itself is a cycle holding every line of the file until the cycle collector runs)
    todo: list[tuple[Sequence[ast.stmt], bool]] = [(tree.body, False)]
    while todo:
        body, in_class = todo.pop(0)
        for stmt in body:
            if not isinstance(stmt, _DEFS):
                continue
            start = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
            end = stmt.end_lineno or stmt.lineno
            if end > n or start < 1:
                continue  # cannot happen for a tree of this text; keep rather than guess
            if stmt.decorator_list:
                # ``ast`` gives the decorator expression's line; ``@(`` or ``@\`` puts the ``@`` above it
                while start > 1 and not lines[start - 1].lstrip().startswith("@"):
                    start -= 1
            if holds(spots, start, end):
                if isinstance(stmt, ast.ClassDef) and stmt.body[0].lineno > stmt.lineno:
                    todo.append((stmt.body, True))  # an indented body: narrow its members
                continue
            if holds(global_lines, start, end) or (in_class and holds(attr_lines, start, end)):
                continue
            first = lines[start - 1]
            indent = first[: len(first) - len(first.lstrip(" \t\f"))]
            stub = f"class {stmt.name}: ..." if isinstance(stmt, ast.ClassDef) else f"def {stmt.name}(){_returns(stmt, lines)}: ..."
            if end == start:
                lines[start - 1] = indent + stub + _ending(lines[end - 1])
            else:  # s56: the stub's logical line goes on to the definition's last line (``\`` continuations)
                lines[start - 1] = indent + stub + "\\" + _ending(lines[start - 1])
                for i in range(start, end - 1):
                    lines[i] = "\\" + _ending(lines[i])
                lines[end - 1] = _ending(lines[end - 1])
            changed = True
    return "".join(lines) if changed else None


def _returns(stmt: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> str:
    """`` -> <annotation>`` when the definition's return annotation is on one line, else empty: the resolver reads
    what a helper returns from its annotation (``def _connect() -> sqlite3.Connection``), stub or not (s48)."""
    ann = stmt.returns
    if ann is None or ann.end_lineno != ann.lineno or ann.end_col_offset is None:
        return ""
    raw = lines[ann.lineno - 1].encode("utf-8")[ann.col_offset:ann.end_col_offset]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    return f" -> {text}" if text.strip() == text else ""


def _ending(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    return "\n"


def _attribute_binding_line(node: ast.AST) -> int | None:
    """The line of an assignment (or ``with ... as``) to an attribute, ``self.x = ...`` (also ``self.x, self.y = x, y``);
    else None."""
    if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) or isinstance(t, (ast.Tuple, ast.List)) and any(
            isinstance(e, ast.Attribute) for e in t.elts) for t in node.targets):
        return node.lineno
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
        return node.lineno
    if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Attribute):
        return node.context_expr.lineno
    return None
