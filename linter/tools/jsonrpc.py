"""A hand-written MCP server's tools: the code that answers a JSON-RPC ``tools/call`` request by the tool name it is
sent. Used by :mod:`.forms`.

The server is recognised by what it answers, not by the names of its functions: a branch taken for the method
``"tools/call"`` (``if method == "tools/call":``, ``elif req.get("method") == "tools/call":``, ``case "tools/call":``,
a ``{"tools/call": self._tools_call}`` table of method handlers). The called name is what the request's params hand
under ``"name"`` (``params.get("name")``, ``params["name"]``, ``str(p.get("name"))``): in that branch, or in the
module functions and methods of the class that the branch hands the name, or the params holding it, to
(``self._call(str(params.get("name")), arguments)``, ``_handle_tools_call(req_id, params)`` binding
``name = params.get("name")``, ``call(name, args)`` -> ``_answer(name, ...)``). Each string the called name is
compared with (``if name == "plate_health":``, ``elif name in {"nl_ask", "monag_query"}:``) is a tool, run by that
branch; a module-level ``{"name": fn}`` dict the called name is looked up in (``HANDLERS.get(params.get("name"))``)
names a tool per key, run by its function (or by the function a local factory returns: ``_action("approve")``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from .. import knowledge as kb
from .dispatch import returned_function
from .index import Index, direct_calls, literal_str, own_nodes, span

__all__ = ["add_answered", "answered_names", "answered_tables"]

Entry = tuple[str, int, ast.AST, tuple[ast.AST, ...]]
#: the method a JSON-RPC request names to call a tool (the MCP specification's)
TOOLS_CALL = "tools/call"
#: the key of the request's params that names the tool
NAME_KEY = "name"
#: how many functions deep the called name is followed from the ``tools/call`` branch
_DEPTH = 3
#: the keyword a low-level MCP server (mcp 2.x ``Server``) is handed its ``tools/call`` handler by
HANDLER_KEYWORD = "on_call_tool"


def _name_source(value: ast.expr | None) -> bool:
    """``params.get("name")`` / ``params["name"]``, also wrapped (``str(...)``, ``... or ""``)."""
    while True:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "str" \
                and len(value.args) == 1:
            value = value.args[0]
        elif isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
            value = value.values[0]
        else:
            break
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get" \
            and value.args:
        return literal_str(value.args[0]) == NAME_KEY
    return isinstance(value, ast.Subscript) and literal_str(value.slice) == NAME_KEY


def _holds(value: ast.expr | None, names: set[str]) -> bool:
    """``value`` is the called name as the function holds it: a local or parameter (``name``), or the ``name``
    attribute of the request params a low-level server's handler is given (``params.name``, held as
    ``"params.name"``)."""
    if isinstance(value, ast.Name):
        return value.id in names
    return isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
        and f"{value.value.id}.{value.attr}" in names


def _bound_names(fn: ast.AST, held: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    """The function's locals bound to the called name (``name = params.get("name")``; ``name, args =
    params.get("name"), ...``; ``name = params.name`` where ``held`` holds ``params.name``)."""
    out: set[str] = set()
    for n in own_nodes(fn):
        if isinstance(n, ast.Assign):
            pairs = [(t, n.value) for t in n.targets]
        elif isinstance(n, ast.AnnAssign) and n.value is not None:
            pairs = [(n.target, n.value)]
        else:
            continue
        for target, value in pairs:
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                out.update(t.id for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name)
                           and (_name_source(v) or held and _holds(v, held)))
            elif isinstance(target, ast.Name) and (_name_source(value) or held and _holds(value, held)):
                out.add(target.id)
    return out


def _is_tools_call(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
        and TOOLS_CALL in (literal_str(test.left), literal_str(test.comparators[0]))


def _answering(index: Index) -> Iterator[tuple[Entry, list[ast.stmt] | None]]:
    """The functions that answer ``tools/call``: (the function, the branch's statements), or (a method handler
    a table of method handlers names for ``tools/call``, None: its whole body answers)."""
    by_path = {e[0]: e for e in index.defs}
    for entry in index.defs:
        for n in own_nodes(entry[2]):
            if isinstance(n, ast.If) and _is_tools_call(n.test):
                yield entry, n.body
            elif isinstance(n, ast.Match):
                for case in n.cases:
                    if isinstance(case.pattern, ast.MatchValue) and literal_str(case.pattern.value) == TOOLS_CALL:
                        yield entry, case.body
            elif isinstance(n, ast.Dict):
                for k, v in zip(n.keys, n.values):
                    target = _callee(v, entry, by_path, index) if k is not None and literal_str(k) == TOOLS_CALL \
                        else None
                    if target is not None:
                        yield target, None


def _handed_handlers(index: Index) -> Iterator[tuple[Entry, set[str]]]:
    """The functions handed to a low-level MCP server as its ``tools/call`` handler by keyword (mcp 2.x:
    ``Server("datamcp", on_list_tools=..., on_call_tool=_on_call_tool)``, :data:`HANDLER_KEYWORD`), and how each
    holds the called name: its last positional parameter's ``name`` (``params: CallToolRequestParams``; the
    handler is called ``(ctx, params)``)."""
    by_path = {e[0]: e for e in index.defs}
    for entry in [("", 0, index.tree, ()), *index.defs]:
        for call in direct_calls(entry[2]):
            if index.qualname(call.func) not in kb.LOWLEVEL_MCP_SERVERS:
                continue
            for kw in call.keywords:
                if kw.arg != HANDLER_KEYWORD:
                    continue
                nested = by_path.get(f"{entry[0]}.{kw.value.id}") if entry[0] and isinstance(kw.value, ast.Name) \
                    else None  # a handler defined in the function building the server
                target = nested or _callee(kw.value, entry, by_path, index)
                params = _params(target[2], isinstance(kw.value, ast.Attribute)) if target is not None else []
                if target is not None and params:
                    yield target, {f"{params[-1]}.{NAME_KEY}"}


def _callee(func: ast.expr, entry: Entry, by_path: dict[str, Entry], index: Index) -> Entry | None:
    """A module function (``call``) or a method of the enclosing class (``self._call``) the expression names."""
    if isinstance(func, ast.Name) and func.id not in index.imports:
        hit = by_path.get(func.id)
        return hit if hit is not None and not hit[3] else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls") \
            and "." in entry[0]:
        return by_path.get(f"{entry[0].rsplit('.', 1)[0]}.{func.attr}")
    return None


def _params(fn: ast.AST, method: bool) -> list[str]:
    args = getattr(fn, "args", None)
    names = [a.arg for a in (*args.posonlyargs, *args.args)] if args is not None else []
    return names[1:] if method and names[:1] in (["self"], ["cls"]) else names


def _handed(call: ast.Call, callee: Entry, names: set[str]) -> set[str]:
    """The callee's parameters the call hands the called name to (or, handed anything, the locals the callee binds
    to its ``"name"`` item: ``_handle_tools_call(req_id, params)``, ``name = params.get("name")``)."""
    method = isinstance(call.func, ast.Attribute)
    params = _params(callee[2], method)
    out: set[str] = set()
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if i < len(params) and (_name_source(arg) or _holds(arg, names)):
            out.add(params[i])
    for kw in call.keywords:
        if kw.arg is not None and (_name_source(kw.value) or _holds(kw.value, names)):
            out.add(kw.arg)
    return out | _bound_names(callee[2])


def _dispatchers(index: Index, handed_by: dict[int, int] | None = None
                 ) -> list[tuple[Entry, set[str], list[ast.stmt] | None]]:
    """Each function that holds the called name, the names it holds it by, and the statements to read (the
    ``tools/call`` branch in the function answering the method; None: the whole body of a function handed it).
    ``handed_by``: filled with each function handed the name -> the function that handed it (``id`` of the nodes)."""
    by_path = {e[0]: e for e in index.defs}
    out: list[tuple[Entry, set[str], list[ast.stmt] | None]] = []
    seen: set[int] = set()
    todo: list[tuple[Entry, set[str], list[ast.stmt] | None, int]] = [
        (entry, _bound_names(entry[2]), body, 0) for entry, body in _answering(index)]
    if "Server" in index.call_names:  # ``Server(..., on_call_tool=handler)``: the handler holds ``params.name``
        todo += [(entry, held | _bound_names(entry[2], held), None, 0) for entry, held in _handed_handlers(index)]
    parent: dict[int, int] = {}
    while todo:
        entry, names, body, depth = todo.pop(0)
        if body is None:
            if id(entry[2]) in seen:
                continue
            seen.add(id(entry[2]))
        out.append((entry, names, body))
        if depth >= _DEPTH:
            continue
        nodes = own_nodes(entry[2]) if body is None else (n for st in body for n in ast.walk(st))
        for call in [n for n in nodes if isinstance(n, ast.Call)]:
            callee = _callee(call.func, entry, by_path, index)
            if callee is None or callee[2] is entry[2]:
                continue
            handed = _handed(call, callee, names)
            if handed:
                parent.setdefault(id(callee[2]), id(entry[2]))
                todo.append((callee, handed, None, depth + 1))
    if handed_by is not None:
        handed_by.update(parent)
    return out


def _compared(test: ast.expr, names: set[str]) -> list[str]:
    """The strings a branch's test compares the called name with (``name == "x"``, ``name in {"x", "y"}``, ``name
    == "x" or name == "y"``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return [s for v in test.values for s in _compared(v, names)]
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):  # ``name == "x" and snapshot is not None``
        return _compared(test.values[0], names)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not _holds(test.left, names):
        return []
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq):
        values = [right]
    elif isinstance(test.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
        values = list(right.elts)
    else:
        return []
    return [s for s in map(literal_str, values) if s]


def _tabled(test: ast.expr, names: set[str], fn: ast.AST) -> list[str]:
    """The keys of a dict literal of the function a branch's test looks the called name up in (mosaic-sandbox:
    ``static_admin = {"mos_get_policy": ("GET", "/v1/admin/policy", None), ...}``; ``if name in static_admin: method,
    path, payload = static_admin[name]``), every key literal, two at least: each a tool the branch answers."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)
            and _holds(test.left, names) and isinstance(test.comparators[0], ast.Name)):
        return []
    bound = test.comparators[0].id
    for n in own_nodes(fn):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict) and any(
                isinstance(t, ast.Name) and t.id == bound for t in n.targets):
            keys = [literal_str(k) if k is not None else None for k in n.value.keys]
            return [k for k in keys if k] if len(keys) >= 2 and all(keys) else []
    return []


def answered_names(index: Index) -> list[tuple[Entry, str, tuple[int, int]]]:
    """The tools a hand-written server's ``tools/call`` answer runs by ``if``/``elif`` (or ``match``) branches on
    the called name, two names at least per function: (the function, the tool's name, the branch's lines)."""
    out: list[tuple[Entry, str, tuple[int, int]]] = []
    handed_by: dict[int, int] = {}
    chain = _dispatchers(index, handed_by)
    per: list[tuple[Entry, dict[str, tuple[int, int]]]] = []
    for entry, names, body in chain:
        if not names:
            continue
        nodes = own_nodes(entry[2]) if body is None else (n for st in body for n in ast.walk(st))
        found: dict[str, tuple[int, int]] = {}
        for n in nodes:
            if isinstance(n, ast.If):
                branches = [(s, n.body) for s in _compared(n.test, names) or _tabled(n.test, names, entry[2])]
            elif isinstance(n, ast.Match) and isinstance(n.subject, ast.Name) and n.subject.id in names:
                branches = [(s, c.body) for c in n.cases for s in _case_strings(c.pattern)]
            else:
                continue
            for name, stmts in branches:
                end = max(getattr(st, "end_lineno", None) or st.lineno for st in stmts)
                found.setdefault(name, (stmts[0].lineno if isinstance(n, ast.Match) else n.lineno, end))
        per.append((entry, found))
    # two names at least per function; or one, in a function that answers it and hands the called name on to a
    # function answering two at least (datamcp's ``call_tool``: ``if name == "get_project_id"``, then ``_dispatch``)
    comparing = {id(e[2]) for e, found in per if len(found) >= 2}
    for entry, found in per:
        if len(found) >= 2 or found and any(handed_by.get(c) == id(entry[2]) for c in comparing):
            out.extend((entry, name, lines) for name, lines in sorted(found.items(), key=lambda kv: kv[1]))
    return out


def _case_strings(pattern: ast.pattern) -> list[str]:
    if isinstance(pattern, ast.MatchValue):
        s = literal_str(pattern.value)
        return [s] if s else []
    if isinstance(pattern, ast.MatchOr):
        return [s for p in pattern.patterns for s in _case_strings(p)]
    return []


def _module_dict(index: Index, name: str) -> ast.Dict | None:
    for stmt in index.tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) \
            else []
        value = getattr(stmt, "value", None)
        if isinstance(value, ast.Dict) and any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return value
    return None


def answered_tables(index: Index) -> list[tuple[str, ast.expr, int]]:
    """The module-level ``{"name": fn}`` dicts a ``tools/call`` answer looks the called name up in
    (``HANDLERS.get(name)``, ``HANDLERS[params["name"]]``), two literal keys at least and every key literal:
    (the tool's name, the dict's value for it, the entry's line)."""
    out: list[tuple[str, ast.expr, int]] = []
    tables: list[str] = []
    for entry, names, body in _dispatchers(index):
        nodes = own_nodes(entry[2]) if body is None else (n for st in body for n in ast.walk(st))
        for n in nodes:
            if isinstance(n, ast.Subscript):
                table, key = n.value, n.slice
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" and n.args:
                table, key = n.func.value, n.args[0]
            else:
                continue
            if isinstance(table, ast.Name) and table.id not in tables \
                    and (_name_source(key) or _holds(key, names)):
                tables.append(table.id)
    for bound in tables:
        d = _module_dict(index, bound)
        keys = [literal_str(k) if k is not None else None for k in d.keys] if d is not None else []
        if d is None or len(keys) < 2 or not all(keys):
            continue
        out.extend((k, v, k_node.lineno) for k, v, k_node in zip(keys, d.values, d.keys)
                   if k and k_node is not None and isinstance(v, (ast.Name, ast.Call)))
    return out


def add_answered(index: Index, by_path: dict[str, list[Entry]], add: Callable[..., None], known: set[str]) -> None:
    """Hand :mod:`.forms`' ``add`` a row per tool a ``tools/call`` answer runs that no other form of the module
    named (``known``): a branch's (at the dispatching function, its findings the branch's lines, as ``if on the
    called name``) and a table's (at its function; at the entry's line for a function a local factory makes)."""
    for entry, tool_name, lines in answered_names(index):
        if tool_name in known:
            continue
        add(tool_name, "dispatch", "tools/call: if on the called name", [entry], entry[2].lineno,  # type: ignore[attr-defined]
            f"{index.module}.{entry[0]}", by_name=True, spans=(lines,))
    for tool_name, value, line in answered_tables(index):
        if tool_name in known:
            continue
        head = value.func if isinstance(value, ast.Call) else value
        runs = by_path.get(head.id) if isinstance(head, ast.Name) and head.id not in index.imports else None
        fn = runs[0] if runs and not runs[0][3] else None
        if fn is None:
            continue
        inner = returned_function(fn, index) if isinstance(value, ast.Call) else None
        target = inner or fn
        add(tool_name, "dispatch", "tools/call: table[name]", [target],
            line if isinstance(value, ast.Call) else span(target[2])[0], f"{index.module}.{target[0]}", by_name=True)
