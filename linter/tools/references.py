"""The function a registration call hands and the same-module definitions a function reference names: ``search``,
``self.search``, ``mgr.handle``, or the elements of a list or values of a dict a loop or comprehension around the call
binds the name over; resolved against one file's ``Index`` (``index.py``)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .. import knowledge as kb
from .index import FUNCS, Index, literal_str, own_nodes, target_key

__all__ = ["comprehended", "handed_ref", "resolve_ref"]


def resolve_ref(
    ref: ast.AST, index: Index, scope_path: str, cls_path: str | None
) -> tuple[str, int, ast.AST, tuple[ast.AST, ...]] | None:
    """The same-module def a function reference names: ``search`` (nested in the scope, else module
    level) or ``self.search`` (a method of the enclosing class)."""
    if isinstance(ref, ast.Name):
        parts = scope_path.split(".") if scope_path else []  # the scope, then each enclosing one (a closure)
        candidates = [".".join((*parts[:i], ref.id)) for i in range(len(parts), -1, -1)
                      if ".".join(parts[:i]) not in index.local_classes]  # a class body encloses no method
    elif (
        isinstance(ref, ast.Attribute)
        and isinstance(ref.value, ast.Name)
        and ref.value.id in ("self", "cls")
        and cls_path is not None
    ):
        candidates = [f"{cls_path}.{ref.attr}"]
    elif isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name) \
            and index.instances.get(ref.value.id, "").startswith(index.module + ".") \
            and index.instances[ref.value.id][len(index.module) + 1:] in index.local_classes:
        candidates = [f"{index.instances[ref.value.id][len(index.module) + 1:]}.{ref.attr}"]  # ``mgr.handle``
    else:
        return None
    for want in candidates:
        for entry in index.defs:
            if entry[0] == want:
                return entry
    return None


def comprehended(arg: ast.expr, call: ast.Call, scope: ast.AST, cls: ast.ClassDef | None = None,
                 lists: Mapping[str, list[ast.expr]] | None = None) -> list[ast.expr]:
    """A wrapper's argument: itself, or, when a comprehension or a ``for`` loop around the call binds it over a
    literal list (``[FunctionTool(func) for func in [self.create_post, self.like_post]]``), over one assigned to the
    name it iterates (``lists``: ``Index.lists``; ``for fn in READ_ONLY: mcp.add_tool(Tool.from_function(fn))``) or
    over the values of a dict of this scope or of the class (``for func in self.tools.values()`` with
    ``self.tools["search"] = self.search``), the list's elements or the dict's values."""
    if not isinstance(arg, ast.Name):
        return [arg]
    for node in own_nodes(scope):
        inside: list[ast.AST]
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) and len(node.generators) == 1:
            target, it, inside = node.generators[0].target, node.generators[0].iter, [node.elt]
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            target, it, inside = node.target, node.iter, list(node.body)
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id == arg.id and any(
                n is call for i in inside for n in ast.walk(i))):
            continue
        if isinstance(it, (ast.List, ast.Tuple)):
            return list(it.elts)
        if lists and isinstance(it, ast.Name) and lists.get(it.id):
            return list(lists[it.id])
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "values" and not it.args:
            values = _dict_values(it.func.value, scope, cls)
            if values:
                return values
    return [arg]


def _dict_values(table: ast.expr, scope: ast.AST, cls: ast.ClassDef | None) -> list[ast.expr]:
    """The values a dict (``name`` or ``self.attr``) is given by literal keys in this scope, or, for ``self.attr``,
    in every method of the class: ``x = {"a": f}``, ``x["a"] = f``."""
    key = target_key(table)
    if key is None:
        return []
    where = [scope] if not key.startswith("self.") else [m for m in (cls.body if cls is not None else []) if isinstance(m, FUNCS)]
    out: list[ast.expr] = []
    for body in where:
        for n in own_nodes(body):
            if not isinstance(n, ast.Assign):
                continue
            for t in n.targets:
                if target_key(t) == key and isinstance(n.value, ast.Dict):
                    out += [v for k, v in zip(n.value.keys, n.value.values) if literal_str(k) is not None]
                elif isinstance(t, ast.Subscript) and target_key(t.value) == key and literal_str(t.slice) is not None:
                    out.append(n.value)
    return out


def handed_ref(call: ast.Call) -> ast.expr:
    """The function a registration call hands: its first argument, or, when that is the tool's literal name
    (``self.register_tool("get_x", "Get x", lambda **kw: tools.get_x(self.client, **kw))``), the argument named for a
    callable (``knowledge.TOOL_SPEC_KEYS``), else its last positional one; a lambda calling a function hands that one."""
    ref = call.args[0]
    if isinstance(ref, ast.Constant) and isinstance(ref.value, str):
        ref = next((k.value for k in call.keywords if k.arg in kb.TOOL_SPEC_KEYS[2]), call.args[-1])
    if isinstance(ref, ast.Lambda) and isinstance(ref.body, ast.Call):
        ref = ref.body.func
    return ref
