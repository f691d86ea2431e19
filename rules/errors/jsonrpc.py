"""s49 (issue 24): a hand-written MCP server's JSON-RPC error response is a message a model reads (TFH401).

An MCP server written by hand answers a request that failed with a JSON-RPC error response, ``{"jsonrpc": "2.0",
"id": rid, "error": {"code": -32603, "message": str(e)}}``, written to its stdout (a stdio server) or handed to its
transport: nothing is returned to a tool framework, yet the client hands a failed ``tools/call`` to the model as the
tool's failure. Where the module is an MCP server (it answers ``initialize``: it names ``serverInfo``; or its file's
name has the words ``mcp`` and ``server`` or ``transport``; not a client's bridge to a browser page), such a dict (a ``jsonrpc`` and an ``error`` key, no ``method``: a response, not a request) is a message
construct wherever it goes, and so is a call of the module's own builder of one (``def _error(rid, code, message):
return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}``, called ``_error(rid,
INTERNAL_ERROR, f"Internal error: {e}")``). Its error's code types the failure (``-32602``, ``METHOD_NOT_FOUND``,
``e.code``: silent) unless it is the protocol's catch-all: internal error ``-32603``, the server-error range
``-32000..-32099``, or a constant named only for a failure (``INTERNAL_ERROR``); then its ``message`` (and ``data``)
are what the model reads.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Knowledge, Screen, last_name, string_literal
from .model import mentions, words

__all__ = ["builders", "call_parts", "catch_all_number", "dict_parts", "dict_parts_ast", "jsonrpc_number", "sends_ast", "serves_mcp"]

_CODE, _TEXT = "code", ("message", "data")


def serves_mcp(screen: Screen, knowledge: Knowledge) -> bool:
    """The module is an MCP server: it answers ``initialize`` (it names ``serverInfo``), or its file's name has the
    words ``mcp`` and ``server`` or ``transport`` (``mcp_server.py``, ``mcp_transport_stdio.py``)."""
    def build() -> bool:
        stem = words((screen.path or "").replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".py"))
        if knowledge.mcp_module_word in stem and stem & knowledge.mcp_server_module_words:
            return True
        key = knowledge.mcp_server_answer_key
        return any(isinstance(n, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == key for k in n.keys)
                   for n in screen.branching)  # the dict displays the screen collected: no walk of its own
    return screen.memo("tfh401.serves_mcp", build)


def catch_all_number(value: int, knowledge: Knowledge) -> bool:
    """A JSON-RPC code that says only that the server failed (internal error, the server-error range)."""
    return any(lo <= value <= hi for lo, hi in knowledge.jsonrpc_catch_all_codes)


def jsonrpc_number(node: cst.BaseExpression) -> int | None:
    """An integer code written in place (``-32603``), or None."""
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        sign, node = -1, node.expression
    if isinstance(node, cst.Integer):
        return sign * int(node.value, 0)
    return None


def dict_parts(node: cst.Dict) -> tuple[cst.BaseExpression | None, list[cst.BaseExpression]] | None:
    """A JSON-RPC error response's code (None: none written) and the values it sends as text, or None."""
    keys = {string_literal(el.key): el.value for el in node.elements if isinstance(el, cst.DictElement)}
    error = keys.get("error")
    if "jsonrpc" not in keys or "method" in keys or not isinstance(error, cst.Dict):
        return None
    inner = {string_literal(el.key): el.value for el in error.elements if isinstance(el, cst.DictElement)}
    return inner.get(_CODE), [inner[k] for k in _TEXT if k in inner]


def dict_parts_ast(node: ast.Dict) -> tuple[ast.expr | None, list[ast.expr]] | None:
    """:func:`dict_parts` on an ``ast`` dict (the screen's and the builders' reading)."""
    keys = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
    error = keys.get("error")
    if "jsonrpc" not in keys or "method" in keys or not isinstance(error, ast.Dict):
        return None
    inner = {k.value: v for k, v in zip(error.keys, error.values) if isinstance(k, ast.Constant)}
    return inner.get(_CODE), [inner[k] for k in _TEXT if k in inner]


def builders(screen: Screen) -> dict[str, tuple[int | None, int | None, tuple[int, ...]]]:
    """The module's own functions and methods returning a JSON-RPC error response built from their parameters: by
    name, (the position of the parameter given as the code, or None; the literal code, or None; the positions of
    the parameters given as the text), positions counted without ``self``/``cls``. Once per file."""
    return screen.memo("tfh401.jsonrpc_builders", lambda: _builders(screen))


def _builders(screen: Screen) -> dict[str, tuple[int | None, int | None, tuple[int, ...]]]:
    out: dict[str, tuple[int | None, int | None, tuple[int, ...]]] = {}
    if not any(isinstance(n, ast.Dict) and dict_parts_ast(n) is not None for n in screen.branching):
        return out  # no JSON-RPC error response in the file (the screen's dict displays): no def is read
    for d in screen.defs:
        if not isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in (*d.args.posonlyargs, *d.args.args)]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        for r in ast.walk(d):
            parts = dict_parts_ast(r.value) if isinstance(r, ast.Return) and isinstance(r.value, ast.Dict) else None
            if parts is None:
                continue
            code, texts = parts
            text_at = tuple(params.index(t.id) for t in texts if isinstance(t, ast.Name) and t.id in params)
            if not text_at:
                continue
            code_at = params.index(code.id) if isinstance(code, ast.Name) and code.id in params else None
            literal = None
            if isinstance(code, ast.UnaryOp) and isinstance(code.op, ast.USub) and isinstance(code.operand, ast.Constant):
                literal = -code.operand.value if isinstance(code.operand.value, int) else None
            out[d.name] = (code_at, literal, text_at)
            break
    return out


def call_parts(
    node: cst.Call, screen: Screen, lookup: object
) -> tuple[cst.BaseExpression | int | None, list[cst.BaseExpression]] | None:
    """A call of the module's own builder (:func:`builders`: ``_error(rid, INTERNAL_ERROR, f"...{e}")``, a
    ``self``/``cls`` method): the code it is given (an argument, a literal code, or None) and the arguments it sends
    as text; None for any other call. ``lookup`` is the resolver's (a name bound by an import is not the module's)."""
    func = node.func
    if isinstance(func, cst.Name):
        assert callable(lookup)
        if lookup(func.value) is not None:
            return None
        name = func.value
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
        name = func.attr.value
    else:
        return None
    found = builders(screen).get(name)
    if found is None or any(a.star for a in node.args):
        return None
    code_at, literal, text_at = found
    positional = [a.value for a in node.args if a.keyword is None]
    code: cst.BaseExpression | int | None = literal
    if code_at is not None:
        code = positional[code_at] if code_at < len(positional) else None
    return code, [positional[i] for i in text_at if i < len(positional)]


def sends_ast(node: ast.AST, name: str, screen: Screen, knowledge: Knowledge) -> bool:
    """The screen's reading: a JSON-RPC error response, or a call of the module's builder of one, that mentions the
    exception ``name``, in a module serving MCP."""
    if isinstance(node, ast.Dict):
        found = dict_parts_ast(node) is not None
    elif isinstance(node, ast.Call):
        callee = last_name(node.func)
        found = callee is not None and callee in builders(screen)
    else:
        return False
    return found and serves_mcp(screen, knowledge) and mentions(node, name)
