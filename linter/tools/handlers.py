"""Handler tables filled from other modules: a dispatcher indexes a table by the tool call's name (``handler =
TOOL_HANDLERS.get(params.name)``, ``self.handlers[call.function.name](args)``) and fills it with the dicts a method
of the run returns (``TOOL_HANDLERS = {**browser.get_handlers(), ...}``, ``self.handlers.update(x.get_handlers())``);
that method, in another module perhaps, returns ``{"start_browser": self._start_browser, ...}``: a tool per key, run by
the function its value names.

The dispatcher's file records the methods it fills its tables from (:func:`filled_from`: their qualified names,
through its imports and the classes of the objects it calls them on); the file defining each method makes a row per key
of the dict it returns (:func:`returned_tools`), as :mod:`remote` adopts functions."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .index import CALLED_NAME, FUNCS, Index, literal_str, lookups, target_key
from .references import resolve_ref
from .applied_calls import _loop_elements

__all__ = ["filled_from", "returned_table", "returned_tools"]

#: a function so named handles the model's tool call: its parameter ``name`` (or ``tool_name``), or the ``.name`` of a
#: parameter (``params.name``, ``request.params.name``), is the called tool's name
_NAME_PARAMS = frozenset({"name", "tool_name"})


def _handles_call(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return "tool" in fn.name.lower().split("_")


def _called_names(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The local names bound to the called tool's name in this function."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    handles = _handles_call(fn)
    out = params & _NAME_PARAMS if handles else set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and _names_call(n.value, params if handles else set()):
            out |= {t.id for t in n.targets if isinstance(t, ast.Name)}
    return out


def _names_call(v: ast.expr, params: set[str]) -> bool:
    """``tool_call.function.name`` (``index.CALLED_NAME``), or the ``.name`` of one of a handler's parameters."""
    head = v
    while isinstance(head, ast.Attribute):
        head = head.value
    return isinstance(v, (ast.Name, ast.Attribute)) and bool(CALLED_NAME.search(ast.unparse(v))) or isinstance(
        v, ast.Attribute) and v.attr == "name" and isinstance(head, ast.Name) and head.id in params


def _indexed_tables(index: Index) -> set[str]:
    """The tables (module names, ``self.attr``) a function of the file indexes by the called tool's name."""
    out: set[str] = set()
    for _path, _n, fn, parents in index.defs:
        if any(isinstance(p, FUNCS) for p in parents):
            continue  # walked with the function that encloses it
        assert isinstance(fn, FUNCS)
        named = _called_names(fn)
        params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]} if _handles_call(fn) else set()
        for table, key in lookups(fn):
            if (bound := target_key(table)) is None:
                continue
            if isinstance(key, ast.Name) and key.id in named or isinstance(key, ast.Attribute) and _names_call(key, params):
                out.add(bound)
    return out


def _fillers(value: ast.expr) -> Iterator[ast.Call]:
    """The calls whose dicts a value holds: ``x.get_handlers()``, ``{**a.m(), **b.m()}``, ``dict(a.m())``."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        yield value
    elif isinstance(value, ast.Dict):
        yield from (v for k, v in zip(value.keys, value.values) if k is None and isinstance(v, ast.Call)
                    and isinstance(v.func, ast.Attribute))
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        for a in value.args:
            yield from _fillers(a)


def filled_from(index: Index, own_roots: frozenset[str]) -> list[tuple[str, str]]:
    """The run's methods whose returned dicts fill the tables the file's dispatchers index by the called tool's name
    (see the module's doc): (the method's qualified name, the table)."""
    tables = _indexed_tables(index)
    if not tables:
        return []
    out: list[tuple[str, str]] = []
    scopes = [("", 0, index.tree, ()), *index.defs]
    for _path, _n, scope, _parents in scopes:
        loops: dict[str, list[ast.expr]] | None = None
        for n in (index.tree.body if scope is index.tree else ast.walk(scope)):
            values: list[ast.expr] = []
            table = ""
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and n.value is not None:
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                table = next((k for t in targets if (k := target_key(t)) in tables), "")
                values += [n.value] if table else []
            elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                    and n.value.func.attr == "update" and (k := target_key(n.value.func.value)) in tables:
                table, values = k or "", list(n.value.args)
            for call in (c for v in values for c in _fillers(v)):
                assert isinstance(call.func, ast.Attribute)
                receivers: list[ast.expr] = [call.func.value]
                if isinstance(call.func.value, ast.Name) and call.func.value.id not in index.instances \
                        and scope is not index.tree:  # ``for tools in (browser, element): ...update(tools.m())``
                    loops = _loop_elements(scope, index) if loops is None else loops
                    receivers = loops.get(call.func.value.id, receivers)
                for r in receivers:
                    qn = index.qualname(ast.Attribute(value=r, attr=call.func.attr))
                    if qn is not None and qn.split(".")[0] in own_roots and all(qn != o[0] for o in out):
                        out.append((qn, table))
    return out


def returned_table(fn: ast.AST) -> list[tuple[str, ast.expr]]:
    """The ``{"name": ref, ...}`` dict a function returns (its own ``return``, literal keys only), else none."""
    stack = list(getattr(fn, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Dict):
            keyed = [(literal_str(k), v) for k, v in zip(n.value.keys, n.value.values)]
            named = [(k, v) for k, v in keyed if k is not None]
            return named if named and len(named) == len(keyed) else []
        stack.extend(ast.iter_child_nodes(n))
    return []


def returned_tools(index: Index, path: str) -> list[tuple[str, tuple[str, int, ast.AST, tuple[ast.AST, ...]]]]:
    """(tool name, the def that runs it) for each key of the table the function at ``path`` returns, when every
    value names a function or method of this file (a table of values is none)."""
    entry = next((e for e in index.defs if e[0] == path), None)
    if entry is None:
        return []
    owner = ".".join(p.name for p in entry[3]) if entry[3] and isinstance(entry[3][-1], ast.ClassDef) else None  # type: ignore[attr-defined]
    looked = [(k, resolve_ref(v, index, path, owner)) for k, v in returned_table(entry[2])]
    if not looked or any(t is None for _, t in looked):
        return []
    return [(k, t) for k, t in looked if t is not None]


#: a module-level dict so named (a word of its snake-case name) may register tools by name (``ACTION_REGISTRY``)
_REGISTRY_WORDS = frozenset({"action", "actions", "tool", "tools", "function", "functions"})

#: the method that runs an object of a registered class, the first the class defines (``registered_classes``)
RUN_METHODS = ("execute", "run", "__call__", "invoke", "call", "arun", "aexecute", "ainvoke")


def registered_classes(index: Index, own_roots: frozenset[str]) -> list[tuple[str, str, str]]:
    """A module-level dict named for actions or tools whose literal keys name classes of the run (memu's
    ``ACTION_REGISTRY = {"cluster_memories": ClusterMemoriesAction, ...}``, each class imported from its own module):
    (``|``-joined qualified names of the run methods the class may define, for :func:`adoption.adopted` to take the
    first it defines; the key; the dict's name). Two entries at least, every one a class of the run."""
    out: list[tuple[str, str, str]] = []
    for stmt in index.tree.body:
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        if not _REGISTRY_WORDS & set(name.lower().split("_")) or len(stmt.value.keys) < 2:
            continue
        entries: list[tuple[str, str]] = []
        for k, v in zip(stmt.value.keys, stmt.value.values):
            key = literal_str(k)
            qn = index.qualname(v) if isinstance(v, (ast.Name, ast.Attribute)) and key is not None else None
            if key is None or qn is None or qn.split(".")[0] not in own_roots or not qn.rsplit(".", 1)[-1][:1].isupper():
                break
            entries.append((key, qn))
        else:
            out += [("|".join(f"{qn}.{m}" for m in RUN_METHODS), key, name) for key, qn in entries]
    return out + listed_instances(index, own_roots)


#: a list so named (a word of its snake-case name) may hold the objects whose classes are the model's functions
_LIST_WORDS = frozenset({"tool", "tools", "function", "functions"})


def listed_instances(index: Index, own_roots: frozenset[str]) -> list[tuple[str, str, str]]:
    """A list named for tools or functions, at module level or in a class body, of objects of the run's classes built
    there (continuedev's ``ChatWithFunctions.functions: List[Step] = [AddFileStep(filename=""), ...]``, each made an
    OpenAI function schema by its class and run by the called name): a tool per class, named by it, run by the first
    run method (``RUN_METHODS``) it defines, as :func:`registered_classes` gives them. Two elements at least, every
    one such an object."""
    out: list[tuple[str, str, str]] = []
    bodies: list[tuple[str, list[ast.stmt]]] = [("", index.tree.body), *((p + ".", c.body) for p, c in index.classes)]
    for prefix, body in bodies:
        for stmt in body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                else stmt.target if isinstance(stmt, ast.AnnAssign) else None
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            if not (isinstance(target, ast.Name) and isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) >= 2
                    and _LIST_WORDS & set(target.id.lower().split("_"))):
                continue
            classes: list[str] = []
            for el in value.elts:
                qn = index.qualname(el.func) if isinstance(el, ast.Call) and isinstance(el.func, (ast.Name, ast.Attribute)) \
                    else None
                if qn is None or qn.split(".")[0] not in own_roots or not qn.rsplit(".", 1)[-1][:1].isupper():
                    break
                classes.append(qn)
            else:
                out += [("|".join(f"{qn}.{m}" for m in RUN_METHODS), qn.rsplit(".", 1)[-1], prefix + target.id)
                        for qn in dict.fromkeys(classes)]
    return out
