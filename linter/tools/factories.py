"""Tools whose function a factory of this module makes, and tools registered one per row of a literal table.

- A registration handed a call of a factory of this module rather than a function (``registry.register(SPEC,
  _make_symbol_search_handler(index))``, ``StructuredTool.from_function(func=self._make_get_goal())``): the nested
  function the factory returns runs the tool (:func:`made`; :func:`~.dispatch.returned_function`). A factory that
  returns no function of its own (another module's, a built object) gives none.
- A tool decorator applied in a loop over a literal table of tuples, named by one of the loop's names
  (``for name, description, model in tool_configs: server.tool(name=name, description=description)(handler)``, the
  handler a loop name, or a name the loop body binds to a factory's call): one row per row of the table, named by its
  literal (:func:`applied`). A loop over anything else (a parameter, another module's table) names nothing.
- A dispatch dict's value that is a lambda calling one function of this module (``"run_bash": lambda a:
  _run_bash(a["command"])``): that function runs the tool (:func:`dispatch_targets`); a value naming another module's
  function (``"todo_write": todo.apply``) gives no row of this file but leaves the table a table of functions.

Used by :mod:`.forms`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from .dispatch import returned_function
from .index import Index, literal_str, own_nodes, resolve_ref, target_key
from .registries import Entry, applied_decorators, own_receiver, verb_framework

__all__ = ["applied", "dispatch_targets", "made"]


def made(ref: ast.AST, index: Index, scope_path: str, owner: str | None) -> Entry | None:
    """The def of this module a reference names (:func:`~.index.resolve_ref`), or, for a call of a factory of this
    module (``_make_handler(index)``, ``self._make_get_goal()``), the nested function the factory returns."""
    target = resolve_ref(ref, index, scope_path, owner)
    if target is None and isinstance(ref, ast.Call) and isinstance(ref.func, (ast.Name, ast.Attribute)):
        factory = resolve_ref(ref.func, index, scope_path, owner)
        target = returned_function(factory, index) if factory is not None else None
    return target


def dispatch_targets(pairs: list[tuple[str, ast.expr]], index: Index, scope_path: str, owner: str | None,
                     ) -> list[tuple[str, Entry]] | None:
    """A ``{"name": fn}`` dispatch dict's rows: each value resolved to a def of this module (:func:`~.index.resolve_ref`),
    a lambda to the function of this module its body calls (``lambda a: _read_file(a["path"])``), a name imported from
    another module skipped; None when a value is none of these (a table of values, not of functions), or none resolves."""
    out: list[tuple[str, Entry]] = []
    for key, value in pairs:
        ref = value.body.func if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call) else value
        target = resolve_ref(ref, index, scope_path, owner)
        if target is not None:
            out.append((key, target))
            continue
        root = ref
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(value, ast.Lambda) or not isinstance(root, ast.Name) or root.id not in index.imports:
            return None
    return out or None


def applied(index: Index, scope: Entry | tuple[str, int, ast.AST, tuple[()]], owner: str | None,
            decorators: Mapping[str, str], wrappers: Mapping[str, object],
            ) -> Iterator[tuple[str, ast.Call | None, ast.expr, Entry, str | None]]:
    """:func:`~.registries.applied_decorators`' rows (name None: the caller names them), after the rows of a tool
    decorator applied in a loop over a literal table (:func:`_table_rows`, each named by its row's literal); a call
    the table rows cover gives no other row."""
    covered: set[int] = set()
    for framework, row_call, head, target, name in _table_rows(index, scope, owner, decorators):
        covered.add(id(row_call))
        yield framework, row_call, head, target, name
    for framework, call, head, target in applied_decorators(index, scope, owner, decorators, wrappers):
        if id(call) not in covered:
            yield framework, call, head, target, None


def _table_rows(index: Index, scope: Entry | tuple[str, int, ast.AST, tuple[()]], owner: str | None,
                decorators: Mapping[str, str]) -> Iterator[tuple[str, ast.Call, ast.expr, Entry, str]]:
    """``for name, description, model in tool_configs: server.tool(name=name, ...)(handler)``: the loop iterates a
    literal list or tuple of tuples (written out, or bound to a name in this body or at the module's top level), the
    decorator's ``name=`` is one of the loop's names, and the function it is applied to is a loop name or a name the
    loop body binds to a call of a factory of this module; each row whose name is a literal and whose function resolves
    gives (framework, the decorator's call, its head, the function, the name)."""
    path, _n, node, _parents = scope
    scope_path = path if node is not index.tree else ""
    bound = {t.id: a.value for a in own_nodes(node) if isinstance(a, ast.Assign) for t in a.targets
             if isinstance(t, ast.Name) and isinstance(a.value, (ast.List, ast.Tuple))}
    for loop in own_nodes(node):
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.target, ast.Tuple):
            continue
        names = {t.id: i for i, t in enumerate(loop.target.elts) if isinstance(t, ast.Name)}
        seq: ast.AST | None = loop.iter
        if isinstance(seq, ast.Name) and seq.id in bound:
            seq = bound[seq.id]
        elif isinstance(seq, ast.Name):
            seq = ast.List(index.lists.get(target_key(seq) or "", []))
        rows = [el for el in getattr(seq, "elts", []) if isinstance(el, ast.Tuple)
                and len(el.elts) == len(loop.target.elts)]
        if not rows:
            continue
        body = list(own_nodes(ast.Module(loop.body, [])))  # not into nested definitions
        made_by = {t.id: a.value for a in body if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
                   for t in a.targets if isinstance(t, ast.Name)}
        for call in (n for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Call) and n.args):
            inner = call.func
            head = inner.func  # type: ignore[attr-defined]
            qn = index.qualname(head)
            framework = decorators.get(qn or "") if qn is not None and not own_receiver(head, index) \
                else verb_framework(head, index, call)
            named = next((k.value for k in inner.keywords if k.arg == "name"), None)  # type: ignore[attr-defined]
            if framework is None or framework == "runtime" or not isinstance(named, ast.Name) \
                    or named.id not in names:
                continue
            fn = call.args[0]
            for row in rows:
                text = literal_str(row.elts[names[named.id]])
                ref: ast.AST = row.elts[names[fn.id]] if isinstance(fn, ast.Name) and fn.id in names \
                    else made_by.get(fn.id, fn) if isinstance(fn, ast.Name) else fn
                target = made(ref, index, scope_path, owner) if text else None
                if target is not None and text:
                    yield framework, inner, head, target, text  # type: ignore[misc]
