"""Where a deadline around a caller bounds an await inside a callee (TFH201's asyncio waits).

``asyncio.wait_for(coro, t)`` and ``async with asyncio.timeout(t):`` cancel what they await when the
time is up, however deep the await is: a closure run only as ``await asyncio.wait_for(_drain(),
t)`` needs no deadline of its own for the ``await proc.wait()`` in it. :func:`bounded_closure`
answers that for a function defined inside another one, where every use is in sight: each use of
its name in the enclosing function must be a call that a deadline bounds (the first argument of a
timeout wrapper, or awaited under a timeout scope, or awaited in another closure that is itself
bounded). A use of any other kind (handed to ``create_task``, stored, returned, called without
``await``) runs it outside any deadline, and the finding stays.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Knowledge, Names, Screen, children, positional

_Use = tuple[bool, bool, "cst.FunctionDef | None"]  # (bounded where it is, awaited, the closure holding it)
_DEEP = cst.FunctionDef(name=cst.Name("_"), params=cst.Parameters(), body=cst.IndentedBlock(body=[]))  # deeper than one level


def _uses(parent: cst.FunctionDef, name: str, names: Names, knowledge: Knowledge) -> list[_Use]:
    """Every use of ``name`` in ``parent``'s body: whether a deadline bounds it there, whether it is
    awaited, and the closure of ``parent`` it is in (None: ``parent``'s own body)."""
    out: list[_Use] = []
    wrapped: set[int] = set()
    awaited: set[int] = set()

    # an explicit stack, parents before children (a deep expression must not exhaust Python's recursion)
    stack: list[tuple[cst.CSTNode, bool, cst.FunctionDef | None]] = [(parent.body, False, None)]

    def push(nodes: "list[cst.CSTNode]", deadline: bool, holder: cst.FunctionDef | None) -> None:
        stack.extend((n, deadline, holder) for n in reversed(nodes))

    while stack:
        node, deadline, holder = stack.pop()
        if isinstance(node, cst.Call):
            if names.qualname(node.func) in knowledge.timeout_wrappers:
                pos = positional(node)
                if pos and isinstance(pos[0].value, cst.Call):
                    wrapped.add(id(pos[0].value))
            if isinstance(node.func, cst.Name) and node.func.value == name:
                out.append((id(node) in wrapped or (deadline and id(node) in awaited), id(node) in awaited, holder))
                push([a.value for a in node.args], deadline, holder)
                continue
        elif isinstance(node, cst.Await):
            if isinstance(node.expression, cst.Call):
                awaited.add(id(node.expression))
        elif isinstance(node, cst.Name):
            if node.value == name:
                out.append((False, False, holder))
            continue
        elif isinstance(node, (cst.Attribute, cst.Arg)):
            push([node.value], deadline, holder)
            continue
        elif isinstance(node, cst.Param):
            push([p for p in (node.annotation, node.default) if p is not None], deadline, holder)
            continue
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            inner = node if holder is None and isinstance(node, cst.FunctionDef) else _DEEP
            body = getattr(node, "body", None)
            for child in reversed(children(node)):
                if child is not getattr(node, "name", None):
                    stack.append((child, False, inner if child is body else holder))
            continue
        elif isinstance(node, cst.With) and any(
            isinstance(item.item, cst.Call) and names.qualname(item.item.func) in knowledge.timeout_scopes
            for item in node.items
        ):
            stack.append((node.body, True, holder))
            push(list(node.items), deadline, holder)
            continue
        push(children(node), deadline, holder)
    return out


def bounded_closure(
    func: cst.FunctionDef, parent: cst.FunctionDef, names: Names, knowledge: Knowledge, seen: frozenset[int] = frozenset()
) -> bool:
    """Whether every use of the closure ``func`` in ``parent`` runs it under a deadline (see the module)."""
    seen = seen | {id(func)}
    uses = _uses(parent, func.name.value, names, knowledge)
    if not uses:
        return False
    for bounded, awaited, holder in uses:
        if bounded:
            continue
        if (
            awaited
            and holder is not None
            and holder is not _DEEP
            and id(holder) not in seen
            and bounded_closure(holder, parent, names, knowledge, seen)
        ):
            continue
        return False
    return True


def _module_function_uses(screen: Screen, knowledge: Knowledge) -> dict[str, bool]:
    """Each name the module reads -> whether every read of it is a call a deadline bounds: the first argument
    of a timeout wrapper (``asyncio.wait_for(_communicate(proc), t)``) or awaited in a timeout scope's
    block (``async with asyncio.timeout(t): await _communicate(proc)``). One ``ast`` walk of the whole
    module (the narrowed libcst tree may lack the callers), built only when a finding asks."""
    wrapped = {id(c.args[0]) for c in screen.calls_of(knowledge.timeout_wrappers) if c.args and isinstance(c.args[0], ast.Call)}
    scopes = {id(c) for c in screen.calls_of(knowledge.timeout_scopes)}
    out: dict[str, bool] = {}
    stack: list[tuple[ast.AST, bool]] = [(screen.tree, False)]
    while stack:
        node, scoped = stack.pop()
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(id(i.context_expr) in scopes for i in node.items):
            stack.extend((n, True) for n in node.body)
            stack.extend((i, scoped) for i in node.items)
            continue
        if isinstance(node, ast.Await) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
            call = node.value
            name = call.func.id  # type: ignore[attr-defined]
            out[name] = out.get(name, True) and (scoped or id(call) in wrapped)
            stack.extend((n, scoped) for n in [*call.args, *call.keywords])
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and id(node) in wrapped:
            out[node.func.id] = out.get(node.func.id, True)
            stack.extend((n, scoped) for n in [*node.args, *node.keywords])
            continue
        if isinstance(node, ast.Name):
            out[node.id] = False
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scoped = False  # a nested function runs later, outside the block around its definition
        stack.extend((n, scoped) for n in ast.iter_child_nodes(node))
    return out


def bounded_module_function(func: cst.FunctionDef, screen: Screen, knowledge: Knowledge) -> bool:
    """Whether a private module-level ``async def`` (``_communicate``) is only ever run under a deadline of
    its caller in the module: every read of its name is a call a timeout wrapper or scope bounds (s42, lovia's
    ``asyncio.wait_for(_communicate(proc), timeout=command_timeout)``). A public function may be called
    from other modules, unbounded: it keeps its findings."""
    name = func.name.value
    if func.asynchronous is None or not name.startswith("_"):
        return False
    return screen.memo(("bounded_module_functions",), lambda: _module_function_uses(screen, knowledge)).get(name, False)
