"""Marker registries the run never reads: a project decorator that only sets a flag on the function it is given
(``setattr(func, IS_USER_ONLY_TOOL, True)``, ``func._is_command = True``) registers it only for the code
that reads that attribute back (``getattr(func, IS_TOOL, False)`` where the tool registry collects its tools). A
marker no file of the run reads registers nothing the run hands a model: such a decorator is no tool registry."""

from __future__ import annotations

import ast

from .index import own_nodes


def _key(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _constants(tree: ast.Module) -> dict[str, str]:
    """The module's string constants: ``IS_TOOL = "_is_tool"`` -> {"IS_TOOL": "_is_tool"}."""
    return {t.id: s.value.value for s in tree.body if isinstance(s, ast.Assign)
            and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
            for t in s.targets if isinstance(t, ast.Name)}


def marker_keys(fn: ast.AST, param: str, tree: ast.Module) -> frozenset[str] | None:
    """The attributes ``fn`` flags its function parameter with (a constant's name and its value), when setting
    constant flags is all it does with it besides giving it back; None when it also stores it, hands it to a call
    (a registry of its own, another framework) or attaches a definition (``ToolDefinition(name, ...)``)."""
    keys: set[str] = set()
    consts = _constants(tree)
    for n in own_nodes(fn):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name) and n.func.id == "setattr" and len(n.args) == 3 \
                    and isinstance(n.args[0], ast.Name) and n.args[0].id == param:
                key = _key(n.args[1])
                if key is None or not isinstance(n.args[2], ast.Constant):
                    return None  # a definition it carries (``ToolDefinition(name, ...)``) is more than a flag
                keys.add(key)
                if key in consts:
                    keys.add(consts[key])
            elif any(isinstance(a, ast.Name) and a.id == param for a in (*n.args, *(k.value for k in n.keywords))):
                return None  # handed on: stored, registered, wrapped
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == param:
                    if not isinstance(n.value, ast.Constant):
                        return None
                    keys.add(t.attr)
                elif any(isinstance(v, ast.Name) and v.id == param for v in ast.walk(n.value)):
                    return None  # registry[name] = func, holder = Holder(func)
    return frozenset(keys) if keys else None


def read_markers(tree: ast.Module) -> set[str]:
    """The attributes the module reads off objects by name: ``getattr(f, IS_TOOL, False)``, ``hasattr(f,
    "_is_tool")``, ``f._is_tool`` (a private attribute), with a module constant's value beside its name."""
    consts = _constants(tree)
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr") \
                and len(n.args) >= 2:
            key = _key(n.args[1])
            if key is not None:
                out.add(key)
                if key in consts:
                    out.add(consts[key])
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and n.attr.startswith("_"):
            out.add(n.attr)
    return out
