"""Which of the run's own functions a call names (``follow.py``'s graph): a same-module function or method, one
of the run's packages through the file's imports, a function a worker-thread call runs, and a method called on what
a run function is annotated to return (:data:`RETURNED`, resolved at the end of the run by ``follow``'s resolver)."""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Mapping

from .. import knowledge as kb
from .index import Index

__all__ = ["RETURNED", "UNTYPED", "bound_values", "callee", "forwarded", "method_of_called", "method_of_returned", "module_defs", "param_methods", "returned_names", "returns_of", "run_in_worker", "untyped_method"]


def callee(call: ast.Call, index: Index, cls: str | None, roots: frozenset[str],
            module_defs: Mapping[str, ast.AST]) -> str | None:
    f = call.func
    if isinstance(f, ast.Name) and f.id in module_defs and f.id not in index.imports:
        return f"{index.module}.{f.id}"
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls") \
            and cls is not None and f"self.{f.attr}" not in index.instances:
        return f"{index.module}.{cls}.{f.attr}"
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Name) \
            and f.value.func.id == "super" and not f.value.args and cls is not None and cls in index.local_classes:
        bases = index.bases(index.local_classes[cls])  # super().search(...): the one base's method, if the run's
        return f"{bases[0]}.{f.attr}" if len(bases) == 1 and bases[0].split(".")[0] in roots else None
    qn = index.qualname(f)
    return qn if qn is not None and qn.split(".")[0] in roots else None


def module_defs(index: Index) -> dict[str, ast.AST]:
    """The module-level functions of the file by name (the last definition of a name: the one bound at import)."""
    return {p: node for p, _n, node, parents in index.defs if not parents}


#: per function node: parameter -> :func:`param_methods` (a function is handed objects at many call sites; s48)
_param_memo: weakref.WeakKeyDictionary[ast.AST, dict[str, tuple[str, ...]]] = weakref.WeakKeyDictionary()


def param_methods(fn: ast.AST, param: str) -> tuple[str, ...]:
    """The attributes a function uses on its parameter ``param`` (``searcher.search(...)``,
    ``asyncio.to_thread(searcher.search, ...)``); none when it rebinds the name. Once per function and parameter."""
    memo = _param_memo.setdefault(fn, {})
    if param not in memo:
        memo[param] = _param_methods(fn, param)
    return memo[param]


def _param_methods(fn: ast.AST, param: str) -> tuple[str, ...]:
    out: list[str] = []
    for n in ast.walk(fn):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr)):
            targets = n.targets if isinstance(n, ast.Assign) else [getattr(n, "target", None)]
            if any(isinstance(t, ast.Name) and t.id == param for t in targets):
                return ()
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == param \
                and isinstance(n.ctx, ast.Load) and n.attr not in out:
            out.append(n.attr)
    return tuple(out)


def run_in_worker(call: ast.Call, index: Index, cls: str | None, roots: frozenset[str],
                   module_defs: Mapping[str, ast.AST]) -> list[str]:
    """The run's function a worker-thread call runs (``knowledge.WORKER_THREAD_CALLS``: ``asyncio.to_thread(f,
    ...)``, ``loop.run_in_executor(None, f, ...)``, ``anyio.to_thread.run_sync(f)``): called, as if directly."""
    f = call.func
    last = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if last not in kb.WORKER_THREAD_CALLS:
        return []
    for arg in call.args[:2]:
        if isinstance(arg, (ast.Name, ast.Attribute)):
            qn = callee(ast.Call(func=arg, args=[], keywords=[]), index, cls, roots, module_defs)
            if qn is not None:
                return [qn]
    return []


#: joins a function and the position of its returned value a name holds (``pkg.core._resolve->1``): a method called
#: on that name is ``pkg.core._resolve->1.get_fields``, resolved by the run's annotated returns (``Graph.returns``)
RETURNED = "->"
#: the head of a method called on a module global the file binds only to ``None`` and sets from elsewhere
#: (``KICAD_CLIENT = None``; ``init_context(client)`` sets it): resolved to the run's one class defining that method
UNTYPED = "?."


def untyped_method(call: ast.Call, index: Index, module_defs: Mapping[str, ast.AST]) -> str | None:
    """``KICAD_CLIENT.cpp_sdk_action(...)`` where the module binds ``KICAD_CLIENT = None`` at its top and otherwise
    only a name handed in (``init_context(client)``): ``?.cpp_sdk_action``. One it builds here (``WORKSPACE_DIR =
    Path(p)``) is not: the file says what it is, and the method is that class's."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and not f.attr.startswith("__")):
        return None
    name = f.value.id
    if name in index.imports or name in index.instances or name in module_defs:
        return None
    tree = index.tree
    nones = [s for s in tree.body if isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None
             and any(isinstance(t, ast.Name) and t.id == name for t in (s.targets if isinstance(s, ast.Assign)
                                                                         else [s.target]))]
    if len(nones) != 1 or not (isinstance(nones[0].value, ast.Constant) and nones[0].value.value is None):
        return None
    for n in ast.walk(tree):  # set elsewhere only from a name (``KICAD_CLIENT = client``), never built here
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and not isinstance(n.value, ast.Name) \
                and not (isinstance(n.value, ast.Constant) and n.value.value is None) \
                and any(isinstance(t, ast.Name) and t.id == name
                        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
            return None
    return f"{UNTYPED}{f.attr}"


def returned_names(node: ast.AST, index: Index, cls: str | None, roots: frozenset[str],
                    module_defs: Mapping[str, ast.AST]) -> dict[str, str]:
    """The names ``node`` binds, once each, to what one of the run's functions returns (``client = get_client()``,
    ``name, client = _resolve(ctx)``): name -> ``function->position``. A name bound twice, or also to anything
    else, or an object the file already types, is left out."""
    out: dict[str, str | None] = {}
    for n in ast.walk(node):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            value = n.value if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) else None
            value = value.value if isinstance(value, ast.Await) else value
            made = (callee(value, index, cls, roots, module_defs)
                      if isinstance(value, ast.Call) and isinstance(n, ast.Assign) and len(targets) == 1 else None)
            for t in targets:
                names = [(t, "")] if isinstance(t, ast.Name) else [
                    (e, str(i)) for i, e in enumerate(t.elts)] if isinstance(t, (ast.Tuple, ast.List)) else []
                for e, pos in names:
                    if isinstance(e, ast.Name):
                        out[e.id] = f"{made}{RETURNED}{pos}" if made is not None and e.id not in out else None
    return {k: v for k, v in out.items() if v is not None and k not in index.instances and k not in index.imports}


def method_of_returned(call: ast.Call, returned: Mapping[str, str]) -> str | None:
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in returned:
        return f"{returned[f.value.id]}.{f.attr}"
    return None


def method_of_called(call: ast.Call, index: Index, cls: str | None, roots: frozenset[str],
                     module_defs: Mapping[str, ast.AST]) -> str | None:
    """A method called straight on what one of the run's functions returns (``_client(ctx).update_tag(...)``,
    ``self._api().send(...)``): ``pkg.app._client->.update_tag``, resolved as :func:`method_of_returned`'s."""
    f = call.func
    value = f.value.value if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Await) else getattr(f, "value", None)
    if isinstance(f, ast.Attribute) and isinstance(value, ast.Call):  # ``(await get_client()).get_report(...)`` too
        made = callee(value, index, cls, roots, module_defs)
        if made is None and isinstance(value.func, ast.Name) and not value.args and value.func.id not in module_defs:
            made = _nested_getter(value.func.id, index, roots)  # ``_get_gh().post(...)``, ``_get_gh`` nested beside
        if made is not None:
            return f"{made}{RETURNED}.{f.attr}"
    return None


def returns_of(fn: ast.AST, index: Index, roots: frozenset[str], cls: str | None = None) -> dict[str, str]:
    """The run's classes ``fn``'s return annotation names: ``{"": cls}`` for ``-> Cls`` (``Optional[Cls]``, ``Cls |
    None``), ``{"1": cls}`` for ``-> tuple[str, Cls]``; for a function that only hands on what another of the run's
    functions returns (``return await server.get_client(ctx)``, annotated ``-> Any`` or not at all), ``{"":
    "pkg.server.get_client->"}``: that function's value (:func:`forwarded`)."""
    note = getattr(fn, "returns", None)
    if isinstance(note, ast.Constant) and isinstance(note.value, str):
        try:
            note = ast.parse(note.value, mode="eval").body
        except SyntaxError:
            return {}

    def one(n: ast.expr | None) -> str | None:
        if isinstance(n, ast.Subscript) and (index.qualname(n.value) or "").rsplit(".", 1)[-1] == "Optional":
            n = n.slice
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):  # ``A | B | None``: each class it may be
            sides = [x for x in (n.left, n.right) if not (isinstance(x, ast.Constant) and x.value is None)]
            found = [one(x) for x in sides]
            return "|".join(f for f in found if f) if found and all(found) else None
        qn = index.qualname(n) if n is not None else None
        return qn if qn is not None and qn.split(".")[0] in roots and qn.rsplit(".", 1)[-1][:1].isupper() else None

    head = note.value if isinstance(note, ast.Subscript) else None
    head_name = (index.qualname(head) or (head.id if isinstance(head, ast.Name) else "")) if head is not None else ""
    if isinstance(note, ast.Subscript) and head_name.rsplit(".", 1)[-1] in ("tuple", "Tuple") \
            and isinstance(note.slice, ast.Tuple):
        return {str(i): c for i, e in enumerate(note.slice.elts) if (c := one(e)) is not None}
    whole = one(note) if isinstance(note, ast.expr) else None
    if note is None and isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        whole = _returned_instance(fn, one)
    if whole is None and isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        made = forwarded(fn, index, roots, cls)
        whole = f"{made}{RETURNED}" if made is not None else None
    return {"": whole} if whole is not None else {}


#: per nested getter node: the run's function whose value it hands on (:func:`forwarded`), or None
_nested_memo: weakref.WeakKeyDictionary[ast.AST, str | None] = weakref.WeakKeyDictionary()


def _nested_getter(name: str, index: Index, roots: frozenset[str]) -> str | None:
    """The run's function whose value a getter nested in a function hands on (``def register(server): _gh = None;
    def _get_gh(): nonlocal _gh; if _gh is None: _gh = get_client(); return _gh``, the tools beside it calling
    ``_get_gh().post(...)``): the one function of that name nested in a function (two: neither)."""
    nested = [node for _p, _n, node, parents in index.defs if parents and not isinstance(parents[-1], ast.ClassDef)
              and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name]
    if len(nested) != 1:
        return None
    fn = nested[0]
    if fn not in _nested_memo:
        _nested_memo[fn] = forwarded(fn, index, roots) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    return _nested_memo[fn]


def _own_returns(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    out: list[ast.Return] = []
    todo: list[ast.AST] = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # a nested function's returns are its own
        if isinstance(n, ast.Return):
            out.append(n)
        todo.extend(ast.iter_child_nodes(n))
    return out


def forwarded(fn: ast.FunctionDef | ast.AsyncFunctionDef, index: Index, roots: frozenset[str],
              cls: str | None = None) -> str | None:
    """The one function of the run whose value ``fn`` returns at every ``return`` (``async def resolve_client(ctx)
    -> Any: from pkg import server; return await server.get_client(ctx)``): a method called on ``fn``'s value is that
    function's value's. Through the module's imports or the function's own (imported in it to break a cycle)."""
    returns = _own_returns(fn)
    values: list[ast.expr] = []
    for r in returns:
        if isinstance(r.value, ast.Name):  # a cache it fills (``global``/``nonlocal _gh``; ``_gh = get_client()``)
            bound = bound_values(fn, r.value.id)
            if not bound:
                return None
            values.extend(bound)
        elif r.value is not None:
            values.append(r.value)
        else:
            return None
    if not values:
        return None
    local: dict[str, str] | None = None
    found: set[str] = set()
    for value in values:
        value = value.value if isinstance(value, ast.Await) else value
        if not isinstance(value, ast.Call):
            return None
        made = callee(value, index, cls, roots, module_defs(index))
        if made is None:
            if local is None:
                local = _local_imports(fn)
            parts = (_dotted(value.func) or "").split(".")
            if parts[0] in local and len(parts) <= 2:
                made = ".".join([local[parts[0]], *parts[1:]])
        if made is None or made.split(".")[0] not in roots or made.rsplit(".", 1)[-1][:1].isupper():
            return None
        found.add(made)
    return found.pop() if len(found) == 1 else None


def bound_values(fn: ast.AST, name: str) -> list[ast.expr]:
    """The values ``fn`` binds ``name`` to, ``None`` aside (a cache reset); none when it binds it otherwise
    (a ``for`` target, an augmented assignment)."""
    out: list[ast.expr] = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            if len(n.targets) != 1:
                return []
            if not (isinstance(n.value, ast.Constant) and n.value.value is None):
                out.append(n.value)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.withitem)) and any(
                isinstance(t, ast.Name) and t.id == name for t in ast.walk(getattr(n, "target", None)
                                                                          or getattr(n, "optional_vars", None) or ast.Pass())):
            if not (isinstance(n, ast.AnnAssign) and n.value is not None):
                return []
            out.append(n.value)
    return out


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _local_imports(fn: ast.AST) -> dict[str, str]:
    """The names a function's own absolute ``import``/``from ... import`` statements bind."""
    out: dict[str, str] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level:
            out.update((a.asname or a.name, f"{n.module}.{a.name}") for a in n.names)
        elif isinstance(n, ast.Import):
            out.update((a.asname or a.name.partition(".")[0], a.name if a.asname else a.name.partition(".")[0])
                       for a in n.names)
    return out


def _returned_instance(fn: ast.FunctionDef | ast.AsyncFunctionDef,
                       one: Callable[[ast.expr | None], str | None]) -> str | None:
    """An unannotated getter's class: every value it returns (``None`` aside) is a name the file binds to one of the
    run's classes (``global _conn; _conn = AbletonConnection(...); return _conn``), all the same class."""
    found: set[str] = set()
    todo: list[ast.AST] = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # a nested function's returns are its own
        if isinstance(n, ast.Return) and n.value is not None \
                and not (isinstance(n.value, ast.Constant) and n.value.value is None):
            # a name bound to one of the run's objects, or one built here (``return FileVineClient()``)
            cls = one(n.value) if isinstance(n.value, ast.Name) else one(n.value.func) if isinstance(n.value, ast.Call) else None
            if cls is None:
                return None
            found.add(cls)
        todo.extend(ast.iter_child_nodes(n))
    return found.pop() if len(found) == 1 else None
