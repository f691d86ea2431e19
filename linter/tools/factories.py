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
from .index import Index, literal_str, own_nodes, target_key
from .references import resolve_ref
from .applied_calls import applied_decorators
from .registries import Entry, own_receiver, verb_framework

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
    another module or a lambda calling no function of this module skipped; None when a value is none of these (a table
    of values, not of functions), or none resolves."""
    out: list[tuple[str, Entry]] = []
    for key, value in pairs:
        ref = value.body.func if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call) else value
        target = resolve_ref(ref, index, scope_path, owner)
        if target is not None:
            out.append((key, target))
            continue
        if isinstance(value, ast.Lambda):
            continue  # s56: a function all the same, of another object (``lambda a, r: self.files.handle(a)``)
        root = ref
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in index.imports:
            return None
    return out or None


def applied(index: Index, scope: Entry | tuple[str, int, ast.AST, tuple[()]], owner: str | None,
            decorators: Mapping[str, str], wrappers: Mapping[str, object],
            ) -> Iterator[tuple[str, ast.Call | None, ast.expr, Entry, str | None]]:
    """:func:`~.applied_calls.applied_decorators`' rows (name None: the caller names them), after the rows of a tool
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
        if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name):
            yield from _named_rows(loop, index, scope_path, decorators)
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
        for call in (n for n in body if isinstance(n, ast.Call) and isinstance(n.func, (ast.Call, ast.Attribute)) and n.args):
            # ``server.tool(name=name)(fn)``, or a registration taking the function first (``server.add_tool(fn,
            # name=name, annotations=hints)`` over ``((tools.status, "mergetrain_status", ...), ...)``)
            inner = call.func if isinstance(call.func, ast.Call) else call
            head = inner.func
            if inner is call and not isinstance(head, ast.Attribute):
                continue
            qn = index.qualname(head)
            framework = decorators.get(qn or "") if qn is not None and not own_receiver(head, index) \
                else verb_framework(head, index, call)
            named = next((k.value for k in inner.keywords if k.arg == "name"), None)
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
                    yield framework, inner, head, target, text


def _named_rows(loop: ast.For | ast.AsyncFor, index: Index, scope_path: str, decorators: Mapping[str, str],
                ) -> Iterator[tuple[str, ast.Call, ast.expr, Entry, str]]:
    """``for name in tool_names(tools): method = getattr(tools, name); server.add_tool(_as_tool(method, name),
    name=name)``: a registration in a loop over literal names (a tuple or list of strings, a dict's keys, bound at the
    module's top level or returned by a function of this module), named by the loop's name and handed the method
    ``getattr`` looks up by it on an object of a class of this module (``self``, a parameter annotated with the class,
    a name bound to its instance): a row per name a method of that class, or of a class of this module deriving from
    it, defines (zenmap, batch 27)."""
    if not isinstance(loop.target, ast.Name):
        return
    var = loop.target.id
    body = list(own_nodes(ast.Module(loop.body, [])))
    looked: dict[str, str] = {}  # the name a ``getattr(obj, var)`` is bound to -> obj's class path in this module
    for a in body:
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) \
                and isinstance(a.value, ast.Call) and isinstance(a.value.func, ast.Name) and a.value.func.id == "getattr" \
                and len(a.value.args) >= 2 and isinstance(a.value.args[1], ast.Name) and a.value.args[1].id == var:
            cls = _object_class(a.value.args[0], index, scope_path)
            if cls is not None:
                looked[a.targets[0].id] = cls
    if not looked:
        return
    for call in (n for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.args):
        named = next((k.value for k in call.keywords if k.arg == "name"), None)
        if not isinstance(named, ast.Name) or named.id != var:
            continue
        handed = {x.id for x in ast.walk(call.args[0]) if isinstance(x, ast.Name)} & looked.keys()
        qn = index.qualname(call.func)
        framework = decorators.get(qn or "") if qn is not None and not own_receiver(call.func, index) \
            else verb_framework(call.func, index, call)
        if not handed or framework is None or framework == "runtime":
            continue
        classes = _with_subclasses(looked[handed.pop()], index)
        for text in _literal_names(loop.iter, index):
            target = next((e for c in classes for e in index.defs if e[0] == f"{c}.{text}"), None)
            if target is not None:
                yield framework, call, call.func, target, text


def _object_class(obj: ast.expr, index: Index, scope_path: str) -> str | None:
    """The path of the class of this module ``obj`` is an object of: ``self`` in a method, or a name the module
    binds to its instance or annotates with it (``tools: Tools``)."""
    if isinstance(obj, ast.Name) and obj.id == "self":
        owner = scope_path.rsplit(".", 1)[0] if "." in scope_path else ""
        return owner if owner in index.local_classes else None
    qn = index.instances.get(obj.id, "") if isinstance(obj, ast.Name) else ""
    local = qn[len(index.module) + 1:] if qn.startswith(index.module + ".") else ""
    return local if local in index.local_classes else None


def _with_subclasses(cls: str, index: Index) -> list[str]:
    """The class and the classes of this module deriving from it (``WorkspaceTools(Tools)``), in source order."""
    out = [cls]
    for path, node in index.classes:
        if path not in out and any(b == f"{index.module}.{c}" for b in index.bases(node) for c in out):
            out.append(path)
    return out


def _literal_names(expr: ast.expr, index: Index, depth: int = 0) -> list[str]:
    """The string literals a loop over ``expr`` takes: a tuple, list or set of strings, a dict's keys (``.items()``,
    ``.keys()``), ``a + b``, ``tuple(n for n, _ in X.items() if ...)``, a name the module binds at its top level to
    one of these, or a call of a function of this module returning them (each of its returns)."""
    if depth > 6:
        return []
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return [t for t in map(literal_str, expr.elts) if t]
    if isinstance(expr, ast.Dict):
        return [t for t in map(literal_str, expr.keys) if t]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _literal_names(expr.left, index, depth + 1) + _literal_names(expr.right, index, depth + 1)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in ("items", "keys") \
            and not expr.args:
        return _literal_names(expr.func.value, index, depth + 1)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("tuple", "list", "sorted") \
            and len(expr.args) == 1:
        arg = expr.args[0]
        if isinstance(arg, (ast.GeneratorExp, ast.ListComp)) and len(arg.generators) == 1:
            return _literal_names(arg.generators[0].iter, index, depth + 1)
        return _literal_names(arg, index, depth + 1)
    if isinstance(expr, ast.Name):
        bound = [s.value for s in index.tree.body if isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None
                 and any(isinstance(t, ast.Name) and t.id == expr.id
                         for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))]
        return [t for v in bound for t in _literal_names(v, index, depth + 1)]
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id not in index.imports:
        fn = next((s for s in index.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and s.name == expr.func.id), None)
        if fn is None:
            return []
        out: list[str] = []
        for ret in (n for n in own_nodes(fn) if isinstance(n, ast.Return)):
            if ret.value is not None:
                out.extend(t for t in _literal_names(ret.value, index, depth + 1) if t not in out)
        return out
    return []
