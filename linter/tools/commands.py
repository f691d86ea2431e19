"""A project's CLI served as tools: a module listing tools by walking a Typer app's registered commands
(qualys-cli's MCP server, batch 17: ``for c in t.registered_commands: ...``, ``for g in t.registered_groups:
...``, each listed with an ``inputSchema`` built from the command's options and run as a ``qualys-cli <group>
<command>`` subprocess). Each command of a Typer sub-app of the run (a ``typer.Typer`` object another app is handed
by ``add_typer``) is then a tool: a row at its callback's ``def``, described there (``adoption.adopted``). The root
app's own commands are not (the walk starts at its groups: a sub-app is what such a server lists as a tool group)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .index import FUNCS, Index, literal_str
from .remote import Remote

__all__ = ["Commands", "served_commands", "typer_commands"]

#: what a module walks to list an app's commands (typer's ``Typer`` attributes)
_WALKED = frozenset({"registered_commands", "registered_groups"})
#: what says the walk lists tools: a tool's parameter schema, or the protocol's listing method
_LISTED = frozenset({"inputSchema", "input_schema", "tools/list"})

#: one file's Typer facts: (serves its CLI as tools, [(app, command function's qualified name, command name)],
#: [apps handed to ``add_typer``])
Commands = tuple[bool, list[tuple[str, str, str]], list[str]]


def _typer_apps(index: Index) -> dict[str, str]:
    """The module-level names bound to a ``typer.Typer(...)``: name -> qualified name."""
    return {name: f"{index.module}.{name}" for name, cls in index.instances.items()
            if "." not in name and cls.split(".")[0] == "typer" and cls.rsplit(".", 1)[-1] == "Typer"}


def typer_commands(index: Index) -> Commands | None:
    """The file's Typer facts, or None when it does not import typer."""
    if not any(full.split(".")[0] == "typer" for full in index.imports.values()):
        return None
    apps = _typer_apps(index)
    serves = walks = False
    added: list[str] = []
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Attribute) and node.attr in _WALKED:
            walks = True
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in _LISTED:
            serves = True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_typer" \
                and node.args:
            arg = node.args[0]
            qn = apps.get(arg.id) if isinstance(arg, ast.Name) else None
            qn = qn or index.qualname(arg)
            if qn is not None:
                added.append(qn)
    commands: list[tuple[str, str, str]] = []
    for stmt in index.tree.body:
        if not isinstance(stmt, FUNCS):
            continue
        for dec in stmt.decorator_list:
            if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "command" \
                    and isinstance(dec.func.value, ast.Name) and dec.func.value.id in apps:
                name = (literal_str(dec.args[0]) if dec.args else None) or stmt.name.replace("_", "-")
                commands.append((apps[dec.func.value.id], f"{index.module}.{stmt.name}", name))
                break
    if not (walks and serves) and not commands and not added:
        return None
    return walks and serves, commands, added


def served_commands(facts: Iterable[Commands]) -> list[Remote]:
    """The commands of the run's Typer sub-apps, when a module of the run serves its CLI's commands as tools."""
    facts = list(facts)
    if not any(serves for serves, _, _ in facts):
        return []
    added = {a for _, _, handed in facts for a in handed}
    return [(fn, name, "typer", "Typer command served as a tool", "")
            for _, commands, _ in facts for app, fn, name in commands if app in added]
