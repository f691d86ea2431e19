"""A loop that walks a work list (s40, code-puppy): each round draws the next item, so a failure moves on."""

from __future__ import annotations

import libcst as cst

from .data import Loop


_DRAW_METHODS = frozenset({"pop", "popleft", "popitem", "get_nowait"})


def draws_next_item(loop: Loop) -> bool:
    """s40 (code-puppy's bounded walk over an exception tree): a statement of the loop's body before its
    ``try`` binds a name to the next item of a work list (``node = pending.pop()``, ``.popleft()``,
    ``next(it)``): each round works on another item, so a failure's ``continue`` moves on, repeats nothing."""
    body = loop.node.body
    stmts = body.body if isinstance(body, cst.IndentedBlock) else ()
    for stmt in stmts:
        if stmt is loop.try_node:
            return False
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            value = small.value if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
            if not isinstance(value, cst.Call):
                continue
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value in _DRAW_METHODS:
                return True
            if isinstance(func, cst.Name) and func.value == "next":
                return True
    return False
