"""A low-level MCP server's tools (``mcp.server.Server``): the names its ``@server.list_tools()`` function lists, and
the module function each name's branch of its ``@server.call_tool()`` dispatcher hands the call to. Used by
:mod:`.forms`."""

from __future__ import annotations

import ast

from .index import Index, helpers_of, literal_str, own_nodes

__all__ = ["branch_handlers", "listed_tool_names"]


def listed_tool_names(index: Index) -> list[str]:
    """The names a low-level MCP server's ``@server.list_tools()`` function lists (``Tool(name="fetch", ...)``), in
    it or in the module's functions it calls (``return _operator_tool_defs()``). A name is a literal, a module
    constant or a member of a class of this module (``name=READ_INBOX``, ``name=ToolName.FETCH.value``); a name the
    list computes (``Tool(name=tool.card.name) for tool in ...``) is not known: no name."""
    out: list[str] = []
    makers: dict[str, tuple[int, str]] | None = None
    for _path, _n, node, _parents in index.defs:
        if not any((index.qualname(d.func if isinstance(d, ast.Call) else d) or "").endswith(".list_tools")
                   for d in node.decorator_list):  # type: ignore[attr-defined]
            continue
        scopes, seen = [node], {id(node)}
        while scopes:
            scope = scopes.pop(0)
            for _p, _k, helper in helpers_of(scope, index, None):
                if id(helper) not in seen and len(seen) < 20:
                    seen.add(id(helper))
                    scopes.append(helper)
            constants = [v for n in ast.walk(scope) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                         for v in _module_calls(index.tree, n.id)]  # ``return [_FETCH_TOOL, ...]``
            for call in [*ast.walk(scope), *constants]:
                if not isinstance(call, ast.Call):
                    continue
                if (index.qualname(call.func) or "").rsplit(".", 1)[-1] == "Tool":
                    value = next((k.value for k in call.keywords if k.arg == "name"), call.args[0] if call.args else None)
                elif isinstance(call.func, ast.Name) and call.func.id not in index.imports:
                    makers = _tool_makers(index) if makers is None else makers
                    value = _handed_name(call, makers.get(call.func.id))
                else:
                    value = None
                name = _static_str(value, index) if value is not None else None
                if name and name not in out:
                    out.append(name)
    return out


def _module_calls(tree: ast.Module, name: str) -> list[ast.Call]:
    """The calls a module-level assignment binds ``name`` to: one (``_FETCH_TOOL = types.Tool(name="fetch", ...)``)
    or the items of a literal list or tuple (``TOOLS = [Tool(name="list_shops", ...), _tool("orders", ...)]``)."""
    out: list[ast.Call] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None and any(
                isinstance(t, ast.Name) and t.id == name
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])):
            value = stmt.value
            items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
            out.extend(c for c in items if isinstance(c, ast.Call))
    return out


def _tool_makers(index: Index) -> dict[str, tuple[int, str]]:
    """The module's functions that return a ``Tool`` named by one of their parameters (``def _tool(name, description,
    properties=None): ...; return Tool(name=name, description=description, inputSchema=schema)``): {function name ->
    (the parameter's position, its name)}: a call of one names its tool as a call of ``Tool`` does."""
    out: dict[str, tuple[int, str]] = {}
    for stmt in index.tree.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in (*stmt.args.posonlyargs, *stmt.args.args)]
        for ret in own_nodes(stmt):
            call = ret.value if isinstance(ret, ast.Return) else None
            if not isinstance(call, ast.Call) or (index.qualname(call.func) or "").rsplit(".", 1)[-1] != "Tool":
                continue
            value = next((k.value for k in call.keywords if k.arg == "name"), call.args[0] if call.args else None)
            if isinstance(value, ast.Name) and value.id in params:
                out[stmt.name] = (params.index(value.id), value.id)
                break
    return out


def _handed_name(call: ast.Call, param: tuple[int, str] | None) -> ast.expr | None:
    """What a call hands a tool maker's name parameter, by keyword or position."""
    if param is None:
        return None
    position, keyword = param
    by_keyword = next((k.value for k in call.keywords if k.arg == keyword), None)
    return by_keyword if by_keyword is not None else call.args[position] if len(call.args) > position else None


def branch_handlers(fn: ast.AST, index: Index) -> dict[str, tuple[str, int, ast.AST, tuple[ast.AST, ...]]]:
    """A dispatcher's branches that hand the call to a module-level function of this file and do nothing else:
    ``if name == "deepcode": return await _handle_deepcode(arguments)`` -> {"deepcode": that function}."""
    out: dict[str, tuple[str, int, ast.AST, tuple[ast.AST, ...]]] = {}
    for n in own_nodes(fn):
        if not isinstance(n, ast.If) or len(n.body) != 1:
            continue
        test = n.test
        if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq) \
                or not isinstance(test.left, ast.Name):
            continue
        name = _static_str(test.comparators[0], index)
        ret = n.body[0]
        value = ret.value if isinstance(ret, ast.Return) else None
        value = value.value if isinstance(value, ast.Await) else value
        if name is None or name in out or not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
            continue
        target = next((e for e in index.defs if e[0] == value.func.id and not e[3]), None)
        if target is not None and value.func.id not in index.imports:
            out[name] = target
    return out


def _static_str(value: ast.expr, index: Index) -> str | None:
    """A string the module fixes: a literal, a module-level constant (``READ_INBOX = "read_inbox"``), or a class
    attribute of this module (``ToolName.FETCH``, ``ToolName.FETCH.value``)."""
    if isinstance(value, ast.Attribute) and value.attr == "value" and isinstance(value.value, ast.Attribute):
        value = value.value
    found = literal_str(value)
    if found is not None:
        return found
    if isinstance(value, ast.Name):
        body: list[ast.stmt] = list(index.tree.body)
        key = value.id
    elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
        owner = next((c for c in index.tree.body
                      if isinstance(c, ast.ClassDef) and c.name == value.value.id), None)
        if owner is None:
            return None
        body, key = owner.body, value.attr
    else:
        return None
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == key for t in stmt.targets):
            return literal_str(stmt.value)
    return None


def looks_up(fn: ast.AST) -> bool:
    """A ``@server.call_tool()`` dispatcher that looks the called name up in a table (``handler = handler_map.get(name)``,
    ``HANDLERS[name]``): it hands the call on, it runs no tool of its own (the table's functions are the tools)."""
    args = getattr(fn, "args", None)
    params = [a.arg for a in (*args.posonlyargs, *args.args)] if isinstance(args, ast.arguments) else []
    if not params:
        return False
    name = params[1] if params[0] in ("self", "cls") and len(params) > 1 else params[0]
    for n in own_nodes(fn):
        key = n.slice if isinstance(n, ast.Subscript) else n.args[0] if isinstance(n, ast.Call) and isinstance(
            n.func, ast.Attribute) and n.func.attr == "get" and n.args else None
        if isinstance(key, ast.Name) and key.id == name:
            return True
    return False
