"""Proxies: a function handing the model's tool calls on to a remote MCP server (issue 28).

``result = await self._session.call_tool(name, arguments)`` where ``self._session`` is an MCP client session
(``knowledge.MCP_CLIENT_SESSIONS``: ``mcp.ClientSession``, fastmcp's ``Client``) and ``name`` is no literal: the
function runs whichever tool the remote server lists. The reading tables (``bench/survey/heldoutN-tools.tsv``) give
such a forwarder one row, not one per remote tool (``mcp:<tool>`` at the forwarding function), and so does
:func:`proxy_rows`: one row per module, at the first function (in source order; the innermost one holding the call)
that forwards, named ``<source>:<tool>``, form ``proxy: <client>.call_tool``.

A receiver is a session when the module binds it to one: assigned a call of a session class (also inside
``await stack.enter_async_context(ClientSession(...))``), ``async with ClientSession(...) as session``, or annotated
with the class (a parameter, ``self._session: ClientSession | None``, a class-level ``_session: ClientSession``,
``dict[str, ClientSession]``); and a name taken from such a binding (``session = self.sessions[server]``,
``self.sessions.get(server)``; ``tool._session = session`` binds the object's ``self._session``). Names resolve through the module's imports (``Index.qualname``), as Python does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import knowledge as kb
from .index import FUNCS, Index, target_key

__all__ = ["proxy_rows"]

#: an ``Index.defs`` entry: (path, occurrence, node, parents)
Entry = tuple[str, int, ast.AST, tuple[ast.AST, ...]]
#: the keyword naming the remote tool when it is not passed first
_NAME_KEYWORDS = frozenset({"name", "tool_name"})
#: a module whose dotted name has one of these snake-case words is a command line or an end-to-end script calling a
#: server's tools for its user, not an agent's tool (the reading tables leave CLI commands out): fastmcp's
#: ``fastmcp/cli/client.py``, ``local_shell_mcp/cli_call.py``, ``sendmux_mcp/live_e2e.py``
_NOT_AGENT_WORDS = frozenset({"cli", "e2e"})
#: the packages of the session classes: a module importing none of them binds no session
_ROOTS = frozenset(c.split(".")[0] for c in kb.MCP_CLIENT_SESSIONS)


def _session_class(node: ast.AST | None, index: Index, called: bool = True) -> str | None:
    """The MCP client session class a call in ``node`` builds (``called``; ``ClientSession(read, write)``, inside
    ``await stack.enter_async_context(...)`` too), or an annotation in ``node`` names, if any."""
    if node is None:
        return None
    for sub in ast.walk(node):
        ref = sub.func if called and isinstance(sub, ast.Call) else sub if not called else None
        if isinstance(ref, (ast.Name, ast.Attribute)):
            qn = index.qualname(ref)
            if qn is not None and qn in kb.MCP_CLIENT_SESSIONS:
                return qn
    return None


def _key(node: ast.AST, cls_attr: bool = False) -> str | None:
    if cls_attr and isinstance(node, ast.Name):  # ``_session: ClientSession`` in a class body
        return f"self.{node.id}"
    return target_key(node)


def _bindings(index: Index) -> dict[str, str]:
    """Receiver key (``session``, ``self._session``) -> the session class the module binds it to."""
    keys: dict[str, str] = {}
    class_level = {id(s) for _, c in index.classes for s in c.body if isinstance(s, ast.AnnAssign)}
    taken: list[tuple[ast.expr, ast.expr]] = []  # (target, value) assignments from another binding
    for node in ast.walk(index.tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            qn = _session_class(node.value, index) if isinstance(node.value, (ast.Call, ast.Await)) else None
            if qn is None and isinstance(node, ast.AnnAssign):
                qn = _session_class(node.annotation, index, called=False)
            for t in targets:
                k = _key(t, id(node) in class_level)
                if k is not None and qn is not None:
                    keys.setdefault(k, qn)
                elif node.value is not None:
                    taken.append((t, node.value))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                qn = _session_class(item.context_expr, index)
                k = _key(item.optional_vars) if item.optional_vars is not None else None
                if qn is not None and k is not None:
                    keys.setdefault(k, qn)
        elif isinstance(node, ast.arg) and node.annotation is not None:
            qn = _session_class(node.annotation, index, called=False)
            if qn is not None:
                keys.setdefault(node.arg, qn)
    for _ in range(2):  # ``session = self.sessions[name]`` / ``.get(name)`` / ``session = self._session``
        for t, v in taken:
            k, src = _key(t), _source(v)
            if k is None and isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                k = f"self.{t.attr}"  # ``tool._session = session``: the object's own ``self._session``
            if k is not None and src in keys:
                keys.setdefault(k, keys[src])
    return keys


def _source(value: ast.expr) -> str | None:
    """The binding a value reads: ``x``, ``self.x``, ``x[k]``, ``x.get(k)``, ``await x`` of those."""
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Subscript):
        value = value.value
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get":
        value = value.func.value
    return target_key(value)


def _tool_name(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg in _NAME_KEYWORDS), None)


def _own_calls(fn: ast.AST) -> Iterator[ast.Call]:
    """The calls of ``fn`` outside its nested functions and classes."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, (*FUNCS, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def proxy_rows(index: Index) -> list[tuple[Entry, str, str]]:
    """The module's forwarder: [(its ``index.defs`` entry, the row's name, its form)], at most one."""
    if "call_tool" not in index.call_names or not any(full.split(".")[0] in _ROOTS for full in index.imports.values()) \
            or any(word in _NOT_AGENT_WORDS for part in index.module.split(".") for word in part.split("_")):
        return []
    keys: dict[str, str] | None = None
    for entry in index.defs:
        for call in _own_calls(entry[2]):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "call_tool"):
                continue
            name = _tool_name(call)
            if name is None or isinstance(name, ast.Constant):
                continue
            if keys is None:
                keys = _bindings(index)
            src = _source(call.func.value)
            cls = keys.get(src) if src is not None else None
            if cls is None:
                continue
            return [(entry, f"{kb.MCP_CLIENT_SESSIONS[cls]}:<tool>", f"proxy: {cls.rsplit('.', 1)[-1]}.call_tool")]
    return []


