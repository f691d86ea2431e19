"""Tool servers shared across a run's modules, and the servers the run's calls hand to registering functions
(``tools.register(mcp)``: ``param_facts``): ``mcp_app = FastMCP(...)`` in one module and ``@mcp_app.tool()`` in
the modules that import it, and a project's subclass of a server class (``class JenkinsMCP(FastMCP)``;
``mcp = JenkinsMCP(...)``; ``@mcp.tool(...)`` elsewhere). The decorator a tool module spells is then a method of
an object or class of the run, not of the framework: the run's tables name it, mapped to the framework's method."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping

from .index import FUNCS, Index, class_like, own_nodes, target_key
from .registries import _params
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
        if callee is None or class_like(callee.rsplit(".", 1)[-1]):
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


#: a first-phase registry's framework while the decorator it hands functions to is a method of another module's
#: object (``served:pkg.server.mcp.tool``): decided by :func:`served_registries` once the run's servers are known
SERVED = "served:"


class Served(Mapping[str, str]):
    """The tool decorators, and in the first phase a decorator-named method of an object of another module of the run
    (``from pkg.server import mcp``; ``def read_tool(fn): return mcp.tool(annotations=READ)(fn)``) as
    ``served:<its name>``, the run's servers not known yet (``clr-sentry-mcp``'s ``@read_tool``/``@write_tool``)."""

    def __init__(self, decorators: Mapping[str, str], own_roots: frozenset[str], lasts: frozenset[str]) -> None:
        self._decorators, self._roots, self._lasts = decorators, own_roots, lasts

    def __getitem__(self, key: str) -> str:
        if key in self._decorators:
            return self._decorators[key]
        parts = key.split(".")
        if len(parts) >= 3 and parts[0] in self._roots and parts[-1] in self._lasts:
            return SERVED + key
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._decorators)

    def __len__(self) -> int:
        return len(self._decorators)


def served_registries(registries: Mapping[str, tuple[str, int, str]], served: Mapping[str, str],
                      decorators: Mapping[str, str], unserved: Mapping[str, tuple[str, int, str]],
                      ) -> dict[str, tuple[str, int, str]]:
    """The first phase's registries with each ``served:`` one given its server's framework, or, when the object is
    no server of the run, what the decorator is without it (``unserved``: a marker, say), else nothing."""
    out: dict[str, tuple[str, int, str]] = {}
    for qn, (framework, position, keyword) in registries.items():
        if framework.startswith(SERVED):
            framework = decorators.get(served.get(framework[len(SERVED):], ""), "")
            if not framework:
                if qn in unserved:
                    out[qn] = unserved[qn]
                continue
        out[qn] = (framework, position, keyword)
    return out


def unresolved_receivers(index: Index, lasts: frozenset[str]) -> bool:
    """A function decorates with, or applies, a tool-decorator-named method of a parameter the file cannot type
    (``def register(self, mcp): mcp.tool(name="x")(self.m)``): the run may know what the callers pass."""
    for _path, _n, node, parents in index.defs:
        params = {p for f in (*parents, node) if isinstance(f, FUNCS) for p in _params(f, False)} - {"self", "cls"}
        heads = [d.func if isinstance(d, ast.Call) else d for d in getattr(node, "decorator_list", [])]
        if any(isinstance(h, ast.Attribute) and h.attr in lasts and isinstance(h.value, ast.Name)
               and h.value.id not in index.instances and h.value.id in _locals(parents) for h in heads):
            return True  # ``server = ctx.server`` in the enclosing function: the run's MCP server decides (s50)
        if not params or params <= index.instances.keys():
            continue
        heads += [n.func.func for n in own_nodes(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Call)]
        for h in heads:
            if isinstance(h, ast.Attribute) and h.attr in lasts and isinstance(h.value, ast.Name) \
                    and h.value.id in params and h.value.id not in index.instances:
                return True
            held = target_key(h.value) if isinstance(h, ast.Attribute) and h.attr in lasts else None
            if held is not None and held.startswith("self.") and held not in index.instances:
                return True  # self.mcp.tool(name="x")(self.m), ``self.mcp = mcp`` a parameter of ``__init__``
    return False


def param_facts(index: Index, servers: frozenset[str]) -> list[tuple[str, int | str, str]]:
    """What this file hands to the run's functions: (callee, position or keyword, class) for every call that
    passes an object of a tool server class (``servers``: the classes with a tool decorator method) to a
    function or method it can name (``tools.register(mcp)``, ``register_all(server=mcp)``; each function of a
    literal tuple a loop calls: ``for register in (register_pods, register_helm): register(mcp)``). An object
    built by handing a server to a constructor (``registrar = ToolsetServer(mcp, enabled)``: a wrapper that
    forwards its ``tool`` decorator) is handed on as that server."""
    out: list[tuple[str, int | str, str]] = []
    wrapped = _wrapped_servers(index, servers)
    for call in ast.walk(index.tree):
        if not isinstance(call, ast.Call):
            continue
        passed = [(i, a) for i, a in enumerate(call.args)] + [(k.arg, k.value) for k in call.keywords if k.arg]
        typed = [(where, wrapped.get(target_key(a) or "") or index.qualname(a)) for where, a in passed
                 if isinstance(a, (ast.Name, ast.Attribute))]
        typed = [(where, cls) for where, cls in typed if cls in servers]
        if not typed:
            continue
        func = call.func
        callee = index.qualname(func)
        if callee is None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            owner = index.qualname(func.value.func)  # Tools().register(mcp)
            callee = f"{owner}.{func.attr}" if owner else None
        callees = [callee] if callee is not None else _looped_callees(func, index)
        for name in callees:
            for where, cls in typed:
                assert cls is not None
                out.append((name, where, cls))
    return out


def _wrapped_servers(index: Index, servers: frozenset[str]) -> dict[str, str]:
    """Names (``registrar``, ``self.registrar``) bound to an object whose constructor was handed a server
    (``ToolsetServer(self.server, enabled)``, the class not itself a server) -> that server's class."""
    out: dict[str, str] = {}
    for node in ast.walk(index.tree):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        cls = index.qualname(node.value.func)
        if cls is None or cls in servers or not class_like(cls.rsplit(".", 1)[-1]):
            continue
        args = [*node.value.args, *(k.value for k in node.value.keywords)]
        held = {q for a in args if isinstance(a, (ast.Name, ast.Attribute)) and (q := index.qualname(a)) in servers}
        if len(held) == 1:
            for target in node.targets:
                key = target_key(target)
                if key is not None:
                    out[key] = next(iter(held))
    return out


def _looped_callees(func: ast.expr, index: Index) -> list[str]:
    """The functions a loop variable called as ``register(...)`` takes: the names of the literal tuple or list it
    iterates (``for register in (register_pods, register_helm):``), each resolved through the file's imports."""
    if not isinstance(func, ast.Name):
        return []
    out: list[str] = []
    for loop in ast.walk(index.tree):
        if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
                and loop.target.id == func.id and isinstance(loop.iter, (ast.Tuple, ast.List)):
            for e in loop.iter.elts:
                local = isinstance(e, ast.Name) and e.id not in index.imports \
                    and any(path == e.id and not parents for path, _n, _node, parents in index.defs)
                q = f"{index.module}.{e.id}" if local and isinstance(e, ast.Name) else index.qualname(e)
                if q is not None:
                    out.append(q)
    return out


def _locals(parents: tuple[ast.AST, ...]) -> set[str]:
    """The names the enclosing functions bind by a plain assignment (``server = ctx.server``)."""
    return {t.id for f in parents if isinstance(f, FUNCS) for n in own_nodes(f) if isinstance(n, ast.Assign)
            for t in n.targets if isinstance(t, ast.Name)}
