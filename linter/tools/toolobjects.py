"""Tool objects a registry decorator builds around the function it is given: ``tool = Tool(name, description.strip(),
params, fn); REGISTRY[name] = tool; return fn`` (ajna-cli's ``@register(name, description, properties)``). An object
of a class whose name says tool (``Tool``, ``ToolSpec``, ``ToolDefinition``), built with the function as an argument
and stored under a name, registers a tool however the registry itself is named (``REGISTRY``, ``_entries``); so
does one built first and handed the function by an attribute after (``tool = ToolDef(name, description, parameters);
tool.handler = func; TOOL_REGISTRY[name] = tool; return func``: korgex's ``@register_tool(name, desc, params)``);
an object of another class (``Hook(fn)``, ``Handler(fn)``) stays what it was: stored, counted only when the
decorator's or the registry's name says tool."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection

from .index import EVENT_WORDS, own_nodes

__all__ = ["built_around", "object_names", "tool_object"]


def _names_tool(func: ast.expr) -> bool:
    """The callee's last name says tool (``Tool``, ``tools.ToolSpec``, ``make_tool``), not an event around tools
    (``ToolCallHook``)."""
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    words = {w.lower() for part in last.split("_") for w in re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z0-9]+", part)}
    return "tool" in words and not words & EVENT_WORDS


def _built(value: ast.AST, held: Collection[str]) -> bool:
    """``value`` is a call of a tool class handed one of ``held`` (the function) as an argument."""
    return isinstance(value, ast.Call) and _names_tool(value.func) and any(
        isinstance(a, ast.Name) and a.id in held for a in (*value.args, *(k.value for k in value.keywords)))


def _given(fn: ast.AST, held: Collection[str]) -> set[str]:
    """The names ``fn`` binds to a tool object and then hands the function by an attribute: ``tool = ToolDef(name,
    description); tool.handler = func``."""
    built = {t.id for n in own_nodes(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
             and _names_tool(n.value.func) for t in n.targets if isinstance(t, ast.Name)}
    return {t.value.id for n in own_nodes(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name)
            and n.value.id in held for t in n.targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in built}


def object_names(fn: ast.AST, held: Collection[str]) -> set[str]:
    """The names ``fn`` binds to a tool object built around the function: ``tool = Tool(name, ..., fn)``, or built
    first and handed it by an attribute (``tool.handler = func``)."""
    return {t.id for n in own_nodes(fn) if isinstance(n, ast.Assign) and _built(n.value, held)
            for t in n.targets if isinstance(t, ast.Name)} | _given(fn, held)


def tool_object(value: ast.AST, fn: ast.AST, held: Collection[str]) -> bool:
    """What ``fn`` stores is a tool object: built in place (``REGISTRY[name] = Tool(name, ..., fn)``) or a name
    bound to one (``REGISTRY[name] = tool``)."""
    return _built(value, held) or (isinstance(value, ast.Name) and value.id in object_names(fn, held))


def built_around(call: ast.Call, param: str) -> bool:
    """``call`` builds an object of a tool class around the function ``param`` handed first by position: a
    decorator's ``return Tool(target, name=name, permission=...)`` (stcode's and tank-ai's own ``@tool``)."""
    return bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == param \
        and _names_tool(call.func)
