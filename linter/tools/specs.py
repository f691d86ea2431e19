"""Tool spec dicts that carry the function running them: ``{"description": ..., "input_schema": Args.model_json_
schema(), "function": list_indices_tool}``, alone with a literal ``"name"`` or as the value under the tool's name in
a registry dict (``TOOL_REGISTRY = {"ListIndexTool": {...}, ...}``). The description and the input schema are what
a model is shown, the callable is what its call runs (``knowledge.tools.TOOL_SPEC_KEYS``): one row per spec whose
callable is a function of the same module."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..knowledge import TOOL_SPEC_KEYS
from .index import FUNCS, literal_str


def _scope_dicts(node: ast.AST) -> Iterator[ast.Dict]:
    """The dict literals of a scope (the module, a function), not those of the functions and classes in it."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Dict):
            yield n
        stack.extend(ast.iter_child_nodes(n))


def _spec_run(d: ast.Dict) -> ast.expr | None:
    """The callable of a tool spec dict (a description, an input schema and a callable, by their keys)."""
    keys = {literal_str(k): v for k, v in zip(d.keys, d.values) if k is not None}
    described, schema, run = TOOL_SPEC_KEYS
    if not keys.keys() & described or not keys.keys() & schema:
        return None
    return next((keys[k] for k in sorted(keys.keys() & run)), None)  # type: ignore[type-var]


def spec_tools(scope: ast.AST) -> Iterator[tuple[str, ast.expr, int]]:
    """(tool name, the callable's expression, the spec's line) of every tool spec dict in the scope."""
    inner: set[int] = set()
    for d in _scope_dicts(scope):
        for key, value in zip(d.keys, d.values):
            name = literal_str(key) if key is not None else None
            if name is None or not isinstance(value, ast.Dict) or id(value) in inner:
                continue
            run = _spec_run(value)
            if run is not None:
                inner.add(id(value))
                own = next((literal_str(v) for k, v in zip(value.keys, value.values) if literal_str(k) == "name"), None)
                yield own or name, run, value.lineno
    for d in _scope_dicts(scope):
        if id(d) in inner:
            continue
        run = _spec_run(d)
        own = next((literal_str(v) for k, v in zip(d.keys, d.values) if literal_str(k) == "name"), None)
        if run is not None and own is not None:
            yield own, run, d.lineno
