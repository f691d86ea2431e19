"""A hand-written MCP client's ``tools/call`` request re-sent by its retry (s48, batch 20 agent47).

MCP's ``ClientSession.call_tool`` is a write to TFH101 (a remote tool may create, send or pay). A package that
speaks MCP's JSON-RPC itself writes the same request: ``self._write({"jsonrpc": "2.0", "id": i, "method": method,
"params": params})`` inside a loop that reconnects and goes round, where ``method`` is a parameter of the
enclosing function and a call in the module gives it the literal ``"tools/call"`` (``def call_tool(self, name,
args): return self.request("tools/call", {...})``), or the message names ``"tools/call"`` itself. The message is a
dict literal in the call or the one assigned, in the same function, to the name handed to it. A request whose
method is only ever a read (``tools/list``, ``resources/read``) is not a write.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from ...linter.api import lexical_children, positional, string_literal

if TYPE_CHECKING:
    from ...linter.api import Screen

_TOOL_CALL = "tools/call"


def tool_call_sites(screen: "Screen") -> dict[str, list[tuple[int | None, str | None, int, bool]]]:
    """Callee last name -> the calls in the module that pass the literal ``"tools/call"``: (position, keyword,
    line, called on an attribute); empty when no dict literal of the module has a ``"jsonrpc"`` key (read from the
    screen's one walk: its calls and dicts)."""
    out: dict[str, list[tuple[int | None, str | None, int, bool]]] = {}
    dicts = (n for n in screen.branching if isinstance(n, ast.Dict))
    if not any(isinstance(k, ast.Constant) and k.value == "jsonrpc" for d in dicts for k in d.keys):
        return out  # no JSON-RPC message is written here: nothing to read
    out[""] = []  # the module writes JSON-RPC messages
    for node in screen.calls:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name is None:
            continue
        attr = isinstance(func, ast.Attribute)
        for i, a in enumerate(node.args):
            if isinstance(a, ast.Constant) and a.value == _TOOL_CALL:
                out.setdefault(name, []).append((i, None, node.lineno, attr))
        for kw in node.keywords:
            if kw.arg and isinstance(kw.value, ast.Constant) and kw.value.value == _TOOL_CALL:
                out.setdefault(name, []).append((None, kw.arg, node.lineno, attr))
    return out


#: per function (by id, with the function to check it): its names -> the last ``"jsonrpc"`` dict literal assigned to each
Messages = dict[int, tuple[cst.FunctionDef, dict[str, cst.Dict]]]


def jsonrpc_tool_call(
    call: cst.Call, fn: cst.FunctionDef | None, sites: dict[str, list[tuple[int | None, str | None, int, bool]]],
    messages: Messages | None = None,
) -> str | None:
    """The effect text when ``call`` hands on a JSON-RPC message whose method is ``"tools/call"``, literally or
    through a parameter of ``fn`` that a call in the module gives it; None otherwise (``messages``: the functions'
    assigned messages read so far, each function read once, not once per call in it)."""
    if "" not in sites:
        return None  # the module has no "jsonrpc" literal
    message = next((m for a in positional(call) if (m := _message(a.value, fn, messages)) is not None), None)
    if message is None:
        return None
    method = next((el.value for el in message.elements if isinstance(el, cst.DictElement)
                   and string_literal(el.key) == "method"), None)
    if method is None:
        return None
    if string_literal(method) == _TOOL_CALL:
        return "an MCP tools/call request (a remote tool run)"
    if not isinstance(method, cst.Name) or fn is None:
        return None
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    name = method.value
    if name not in params and name not in [p.name.value for p in fn.params.kwonly_params]:
        return None
    index = params.index(name) if name in params else None
    bound = bool(params) and params[0] in ("self", "cls")
    for position, keyword, line, on_attribute in sites.get(fn.name.value, ()):
        if keyword == name or (index is not None and position is not None
                               and position == index - (1 if bound and on_attribute else 0)):
            return f"an MCP tools/call request (a remote tool run), as the call of {fn.name.value}() at line {line} asks"
    return None


def _message(value: cst.BaseExpression, fn: cst.FunctionDef | None, messages: Messages | None = None) -> cst.Dict | None:
    """A dict literal with a ``"jsonrpc"`` key: ``value`` itself, or the last one assigned to it in ``fn``."""
    if isinstance(value, cst.Dict):
        return value if _jsonrpc(value) else None
    if not isinstance(value, cst.Name) or fn is None:
        return None
    read = messages.get(id(fn)) if messages is not None else None
    if read is None or read[0] is not fn:
        read = (fn, _assigned(fn))
        if messages is not None:
            messages[id(fn)] = read
    return read[1].get(value.value)


def _assigned(fn: cst.FunctionDef) -> dict[str, cst.Dict]:
    """Each name ``fn`` assigns a ``"jsonrpc"`` dict literal to (not in its nested functions and classes) -> the
    last such literal, in source order."""
    found: dict[str, cst.Dict] = {}
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.Assign) and isinstance(n.value, cst.Dict) and _jsonrpc(n.value):
            for t in n.targets:
                if isinstance(t.target, cst.Name):
                    found[t.target.value] = n.value
        stack.extend(reversed(lexical_children(n)))
    return found


def _jsonrpc(d: cst.Dict) -> bool:
    return any(isinstance(el, cst.DictElement) and string_literal(el.key) == "jsonrpc" for el in d.elements)
