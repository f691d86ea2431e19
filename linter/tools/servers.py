"""Tool servers shared across a run's modules: ``mcp_app = FastMCP(...)`` in one module and ``@mcp_app.tool()`` in
the modules that import it, and a project's subclass of a server class (``class JenkinsMCP(FastMCP)``;
``mcp = JenkinsMCP(...)``; ``@mcp.tool(...)`` elsewhere). The decorator a tool module spells is then a method of
an object or class of the run, not of the framework: the run's tables name it, mapped to the framework's method."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from .index import Index, target_key
from .reexports import dealias, reexported_decorators


def module_instances(index: Index) -> list[tuple[str, str]]:
    """The file's module-level names bound to an object of a class: (``pkg.mod.name``, class qualified name)."""
    out: list[tuple[str, str]] = []
    for stmt in index.tree.body:
        targets = (stmt.targets if isinstance(stmt, ast.Assign)
                   else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else [])
        for target in targets:
            key = target_key(target)
            if key is not None and "." not in key and key in index.instances:
                out.append((f"{index.module}.{key}", index.instances[key]))
    return out


def module_factories(index: Index) -> list[tuple[str, str]]:
    """The file's module-level functions that build one class (``Index.factory_class``: ``def build_server(...):
    return MCPServer(...)``): (``pkg.mod.build_server``, class qualified name), for the modules that call them."""
    return [(f"{index.module}.{s.name}", cls) for s in index.tree.body
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and (cls := index.factory_class(s)) is not None]


def module_built(index: Index) -> list[tuple[str, str]]:
    """The file's module-level names bound to the value of an imported function (``mcp = build_server(...)``,
    ``from pkg._sdk import build_server``): (``pkg.mod.mcp``, the function's qualified name), an object of the class
    the function builds once the run's factories are known (``built_instances``)."""
    out: list[tuple[str, str]] = []
    for stmt in index.tree.body:
        targets = (stmt.targets if isinstance(stmt, ast.Assign)
                   else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else [])
        value = getattr(stmt, "value", None)
        if not (isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute))):
            continue
        root: ast.expr = value.func
        while isinstance(root, ast.Attribute):
            root = root.value
        callee = index.qualname(value.func) if isinstance(root, ast.Name) and root.id in index.imports else None
        if callee is None or callee.rsplit(".", 1)[-1][:1].isupper():
            continue
        for target in targets:
            key = target_key(target)
            if key is not None and "." not in key and key not in index.instances:
                out.append((f"{index.module}.{key}", callee))
    return out


def built_instances(built: Iterable[tuple[str, str]], factories: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The run's module-level objects built by a factory of another module: (``pkg.server.mcp``, the class)."""
    made = dict(factories)
    return [(name, made[callee]) for name, callee in built if callee in made]


def server_decorators(
    decorators: Mapping[str, str], classes: Iterable[tuple[str, list[str]]], instances: Iterable[tuple[str, str]],
) -> dict[str, str]:
    """The run's spellings of a server's tool decorator -> the framework's (``pkg.core.mcp_app.tool`` ->
    ``mcp.server.fastmcp.FastMCP.tool``; ``pkg.server.JenkinsMCP.tool`` -> ``fastmcp.FastMCP.tool``): for each
    run class deriving (at any depth, through the run's classes) from a class whose method is a tool decorator,
    and each module-level object of such a class; and the run's re-exports of any of them (``reexports.py``)."""
    methods: dict[str, list[str]] = {}
    for qn in decorators:
        owner, _, last = qn.rpartition(".")
        if owner and owner.rsplit(".", 1)[-1][:1].isupper():
            methods.setdefault(owner, []).append(last)
    run_classes, aliases = dealias(classes)
    bases = dict(run_classes)
    server_of: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for cls, cls_bases in bases.items():
            if cls in server_of or cls in methods:
                continue
            for base in cls_bases:
                found = base if base in methods else server_of.get(base)
                if found is not None:
                    server_of[cls] = found
                    changed = True
                    break
    out: dict[str, str] = {}
    for cls, server in server_of.items():
        for last in methods[server]:
            out[f"{cls}.{last}"] = f"{server}.{last}"
    for name, cls in instances:
        held = cls if cls in methods else server_of.get(cls)
        for last in methods.get(held or "", ()):
            out.setdefault(f"{name}.{last}", f"{held}.{last}")
    for k, v in reexported_decorators(aliases, out, decorators).items():
        out.setdefault(k, v)
    return {k: v for k, v in out.items() if k not in decorators}
