"""Whether a function is a tool a framework runs, read in its own file (issues 23, 24).

One reading for the rules that ask it: TFH401 (who reads what a function returns) and TFH201/TFH203 (a process whose
program the linter cannot read is the model's command when a tool runs it). A function is a tool when a decorator is
one of the tool decorators ``smullyan tools`` knows (``@tool``, ``@function_tool``, by the imports), a registration verb
on an object of a known framework (``@mcp.tool()`` on a ``FastMCP(...)``, also an object imported from another module),
or when it is a method named by a tool base class's form (``BaseTool._run``) of a class deriving from that base.
"""

from __future__ import annotations

import libcst as cst

from .knowledge import Knowledge
from .names import Names


def decorator_names(decorator: cst.BaseExpression, names: Names, knowledge: Knowledge) -> list[str]:
    """The qualified names a decorator may be: ``@tool``/``@tool(...)`` by the imports, ``@mcp.tool()`` on an
    object built from a known class as ``Class.method``."""
    func = decorator.func if isinstance(decorator, cst.Call) else decorator
    out: list[str] = []
    qn = names.qualname(func)
    if qn is not None:
        out.append(knowledge.canonical(qn))
    if isinstance(func, cst.Attribute):
        ref = names.qualify(func.value)
        if ref is not None and ref[1]:
            out.append(f"{knowledge.canonical(ref[0])}.{func.attr.value}")
    return out


def registered_tool(func: cst.FunctionDef, owner: cst.ClassDef | None, names: Names, knowledge: Knowledge) -> bool:
    """``func`` (a method of ``owner`` when that is not None) is a tool by its decorators or its class's tool base."""
    k = knowledge
    if any(n in k.tool_decorators for d in func.decorators for n in decorator_names(d.decorator, names, k)):
        return True
    for d in func.decorators:
        dec = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
        if isinstance(dec, cst.Attribute) and dec.attr.value in k.tool_registration_verbs:
            recv = dec.value  # @mcp.tool() on a server object imported from another module (odoo's ``server_core``)
            name = recv.attr.value if isinstance(recv, cst.Attribute) else recv.value if isinstance(
                recv, cst.Name) else ""
            ref = names.qualify(recv)
            if k.registration_framework(dec.attr.value, name, k.canonical(ref[0]) if ref else None) is not None:
                return True
    if owner is None:
        return False
    for base in owner.bases:
        qn = names.qualname(base.value)
        form = k.tool_base_classes.get(k.canonical(qn)) if qn is not None else None
        if form is not None and func.name.value in form[1]:
            return True
    return False
