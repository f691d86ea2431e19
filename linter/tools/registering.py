"""A tool registered by a call handing a registry its schema and the function that runs it, apart:
``registry.register(_SCHEMA_RUN_POWERSHELL, _handle_run_powershell)`` (an OpenAI-style schema dict bound at the top
level), ``reg.register(READ_SPEC, read_file)`` (a spec built by a call, ``ToolSpec(name="read_file", description=...,
parameters=...)``), a plugin module's ``def register(reg): reg(TOOL_NAME, TOOL_FUNC, TOOL_SCHEMA)`` (the name a
module constant, the function bound to an alias, ``TOOL_FUNC = execute``). The registry keeps the function under the
schema's name: one row per such call, named by the schema's name, run by the function.

Not a registration: a call handing a schema alone (``client.create(tools=[SCHEMA])``), a schema without parameters
(``{"name": "x"}``), a callee whose name does not register (``print(SCHEMA, fn)``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..knowledge import TOOL_REGISTRATION_VERBS, TOOL_SPEC_KEYS
from .index import literal_str
from .specs import scope_calls

#: a callee's last name that registers what it is handed (``register``, ``register_tool``, a loader's ``reg``)
_REGISTERING = ("reg", "add_tool")


def _bound(module: ast.Module, name: str, annotated: bool = False) -> ast.expr | None:
    """What the module's top level binds ``name`` to, when it binds it once (``annotated``: or ``X: T = ...``)."""
    values = [s.value for s in module.body if isinstance(s, ast.Assign) and len(s.targets) == 1
              and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
    values += [s.value for s in module.body if annotated and isinstance(s, ast.AnnAssign) and s.value is not None
               and isinstance(s.target, ast.Name) and s.target.id == name]
    return values[0] if len(values) == 1 else None


def module_constant(module: ast.Module | None, name: str) -> str | None:
    """The literal text a module-level statement of the file binds to ``name`` (once, and only to text)."""
    value = _bound(module, name) if module is not None else None
    return literal_str(value) if value is not None else None


def _text(expr: ast.expr | None, module: ast.Module) -> str | None:
    """A literal, or a module constant bound to one (``"name": TOOL_NAME``)."""
    return module_constant(module, expr.id) if isinstance(expr, ast.Name) else literal_str(expr) if expr else None


def schema_name(expr: ast.expr, module: ast.Module) -> str | None:
    """The tool name of a schema handed by value or by a module-level name: a dict with a name and parameters
    (``{"type": "function", "function": {"name": ..., "parameters": ...}}`` or flat), or a call building a spec by
    keyword (a ``name``, a description and an input schema: ``knowledge.tools.TOOL_SPEC_KEYS``)."""
    described, schema, _run = TOOL_SPEC_KEYS
    if isinstance(expr, ast.Name):
        expr = _bound(module, expr.id, annotated=True)  # type: ignore[assignment]
    if isinstance(expr, ast.Dict):
        keys = {literal_str(k): v for k, v in zip(expr.keys, expr.values) if k is not None}
        inner = keys.get("function")
        if isinstance(inner, ast.Dict):
            keys = {literal_str(k): v for k, v in zip(inner.keys, inner.values) if k is not None}
        return _text(keys.get("name"), module) if keys.keys() & schema else None
    if isinstance(expr, ast.Call):
        keys = {k.arg: k.value for k in expr.keywords if k.arg is not None}
        if keys.keys() & schema and keys.keys() & described:
            return _text(keys.get("name"), module)
    return None


def _registers(call: ast.Call) -> bool:
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return last in TOOL_REGISTRATION_VERBS or last.startswith(_REGISTERING)


def registered_schemas(scope: ast.AST, module: ast.Module) -> Iterator[tuple[str, ast.expr, int, str]]:
    """(tool name, the function's reference, the call's line, the form) of each registering call of the scope handed one
    tool schema and, positionally or by a callable's keyword, a function reference (a name the module binds to
    another name is followed: ``TOOL_FUNC = execute``), or else one call (a handler factory's:
    ``registry.register(SPEC, _make_handler(index))``); the caller resolves the reference (``factories.made``)."""
    _described, _schema, run_keys = TOOL_SPEC_KEYS
    for call in scope_calls(scope):
        if not _registers(call):
            continue
        handed = [*call.args, *(k.value for k in call.keywords if k.arg in run_keys)]
        named = [(a, n) for a in handed if (n := schema_name(a, module)) is not None]
        if len(named) != 1:
            continue
        refs = []
        for a in handed:
            if a is named[0][0] or not isinstance(a, (ast.Name, ast.Attribute)) or _text(a, module) is not None:
                continue
            alias = _bound(module, a.id) if isinstance(a, ast.Name) else None
            refs.append(alias if isinstance(alias, (ast.Name, ast.Attribute)) else a)
        made = [a for a in handed if a is not named[0][0] and isinstance(a, ast.Call)
                and isinstance(a.func, (ast.Name, ast.Attribute))]  # ``_make_handler(index)``: the caller follows it
        if len(refs) == 1 or not refs and len(made) == 1:
            yield named[0][1], (refs or made)[0], call.lineno, "register(schema, function)"
