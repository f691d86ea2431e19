"""Placing a fix: the node edits a rule made (``rule.NodeEdit``), as positioned text edits
(``findings.Edit``) of the file as it is, for the engine (``resolve_fixes``). Applying them, the
fixed-point loop and the diff are ``fixes.py``."""

from __future__ import annotations

import re

import libcst as cst
from libcst._nodes.internal import CodegenState

from .findings import Edit, Fix
from .nodes import children
from .positions import Span
from .rule import RawFinding
from .source import Text

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what ends a line for Python and libcst


def _block_indent(module: cst.Module, top: int, node: cst.CSTNode) -> str:
    """The indentation of the block whose statement holds ``node`` (what a line break inside it indents by)."""
    stack: list[tuple[cst.CSTNode, str]] = [(module.body[top], "")]
    while stack:
        current, indent = stack.pop()
        if current is node:
            return indent
        if isinstance(current, (cst.IndentedBlock, cst.Match)):  # a `match` indents its `case` lines, each case its body
            indent += current.indent if current.indent is not None else module.default_indent
        stack.extend((child, indent) for child in children(current))
    return ""


def _render(module: cst.Module, node: cst.CSTNode, indent: str) -> str:
    """``node``'s code as it reads inside a block indented by ``indent`` (``Module.code_for_node`` assumes none)."""
    state = CodegenState(
        default_indent=module.default_indent, default_newline=module.default_newline, indent_tokens=[indent] if indent else []
    )
    node._codegen(state)
    return "".join(state.tokens)


def resolve_fixes(
    module: cst.Module,
    raw: list[RawFinding],
    text: Text,
    positions: dict[cst.CSTNode, Span],
    tops: dict[cst.CSTNode, int | None],
) -> dict[int, Fix]:
    """Each fix's node edits as positioned text edits (``findings.Edit``), by ``id`` of its raw finding.

    The module may be the narrowed text (definitions without candidates are
    stubs), but every edited node lies in a kept part, whose lines are the
    file's own: the positions and the text hold for the file as it is. A fix
    that cannot be placed is dropped (the finding stays).
    """
    lines = _LINE_BREAK.split(text.get()) if any(
        callable(e.content) for r in raw if r.fix is not None for e in r.fix.edits
    ) else []
    newline = module.default_newline
    out: dict[int, Fix] = {}
    for r in raw:
        if r.fix is None:
            continue
        edits: list[Edit] = []
        for e in r.fix.edits:
            span = positions.get(e.node)
            if span is None:
                break
            line, col, end_line, end_col = span
            content = e.content
            if callable(content):
                row = lines[line - 1] if 0 < line <= len(lines) else ""
                content = content(row[: len(row) - len(row.lstrip(" \t\f"))]).replace("\n", newline)
            elif isinstance(content, cst.CSTNode):
                if isinstance(content, cst.BaseExpression) and content.lpar and getattr(e.node, "lpar", None):
                    # a position leaves out the node's parentheses (and the space inside them): so does the text
                    content = content.with_changes(lpar=[], rpar=[])
                top = tops.get(e.node)
                content = _render(module, content, _block_indent(module, top, e.node) if top is not None else "")
            else:
                content = content.replace("\n", newline)
            if e.where == "replace":
                edits.append(Edit(line, col + 1, end_line, end_col + 1, content))
            elif e.where == "line_before":
                edits.append(Edit(line, 1, line, 1, content))
            else:  # line_after
                edits.append(Edit(end_line + 1, 1, end_line + 1, 1, content))
        else:
            out[id(r)] = Fix(r.fix.message, tuple(sorted(edits)), r.fix.applicability or "unsafe")
    return out
