"""A loop that walks a work list (s40, code-puppy): each round draws the next item, so a failure moves on."""

from __future__ import annotations

import libcst as cst

from ...linter.api import every_node
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


def steps_to_next(loop: Loop) -> bool:
    """s46 (batch 19, claw-forge's walk up the parent directories for a config file): a statement of the loop's
    body outside its ``try`` rebinds a name the attempt reads to an attribute of itself (``candidate =
    candidate.parent``, ``node = node.next``): each round works on another item, as a drawn one is
    (:func:`draws_next_item`), so a failure's going round tries nothing again."""
    body = loop.node.body
    stmts = body.body if isinstance(body, cst.IndentedBlock) else ()
    stepped: set[str] = set()
    for stmt in stmts:
        if stmt is loop.try_node or not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                    and isinstance(small.value, cst.Attribute) and isinstance(small.value.value, cst.Name)
                    and small.value.value.value == small.targets[0].target.value):
                stepped.add(small.value.value.value)
    if not stepped:
        return False
    read = {n.value for n in every_node(loop.try_node.body) if isinstance(n, cst.Name)}
    return bool(stepped & read)



def walks_by_index(loop: Loop) -> bool:
    """s47 (batch 19, incident-commander's API-key failover): ``for attempt in range(len(pool))`` whose body, before its
    ``try``, binds a name to an element of that same ``pool`` indexed by the loop's target (``client =
    self._clients[(self._active_index + attempt) % len(self._clients)]``, directly or through a name computed from
    the target), and the attempt reads that name: each round goes through another element of the pool (another
    client, key or endpoint), as ``for client in self._clients`` does, at most once each: a walk over the pool."""
    node = loop.node
    if not (isinstance(node, cst.For) and isinstance(node.target, cst.Name) and isinstance(node.iter, cst.Call)
            and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range" and len(node.iter.args) == 1):
        return False
    size = node.iter.args[0].value
    if not (isinstance(size, cst.Call) and isinstance(size.func, cst.Name) and size.func.value == "len" and len(size.args) == 1):
        return False
    pool = _code(size.args[0].value)
    derived = {node.target.value}  # the target, and names computed from it before the try
    drawn: set[str] = set()
    body = node.body
    for stmt in body.body if isinstance(body, cst.IndentedBlock) else ():
        if stmt is loop.try_node:
            break
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
                continue
            name, value = small.targets[0].target.value, small.value
            reads = {n.value for n in every_node(value) if isinstance(n, cst.Name)}
            if (isinstance(value, cst.Subscript) and _code(value.value) == pool
                    and any(n.value in derived for e in value.slice for n in every_node(e) if isinstance(n, cst.Name))):
                drawn.add(name)
            elif reads & derived:
                derived.add(name)
    if not drawn:
        return False
    read = {n.value for n in every_node(loop.try_node.body) if isinstance(n, cst.Name)}
    return bool(drawn & read)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)
