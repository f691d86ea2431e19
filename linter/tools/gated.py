"""A project decorator that hands the function it is given to a tool-named call of another library, the run's tool
server among that call's arguments (node804-freshservice-mcp: ``def conditional_tool(): def decorator(func): ...;
return gate.tool(mcp, required=required)(func)``, ``gate`` a third-party mode gate, ``mcp = FastMCP(...)``): the
gate registers the function on the server it is handed, so the decorator is a registry decorator of that server's
framework. The call counts when its callee's last name says tool (:func:`.index.tool_word`) and one of its arguments
is an object whose ``tool`` method the tables know as a framework's tool decorator (the server); a call handed no
server (``tracer.tool(func)``, ``gate.tool(required=...)``) is left to the other forms."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .index import Index, tool_word

__all__ = ["handed_server"]


def handed_server(f: ast.expr, index: Index, decorators: Mapping[str, str]) -> str | None:
    """The framework of the tool server handed to ``f``, a tool-named call whose result is applied to a function
    (``gate.tool(mcp, required=...)``), or None."""
    if not isinstance(f, ast.Call):
        return None
    head = f.func
    verb = head.attr if isinstance(head, ast.Attribute) else head.id if isinstance(head, ast.Name) else ""
    if not tool_word(verb):
        return None
    for arg in (*f.args, *(k.value for k in f.keywords)):
        if not isinstance(arg, (ast.Name, ast.Attribute)):
            continue
        for last in dict.fromkeys((verb, "tool")):
            qn = index.qualname(ast.Attribute(value=arg, attr=last, ctx=ast.Load()))
            framework = decorators.get(qn) if qn else None
            if framework and framework != "runtime":
                return framework
    return None
