"""Tool forms that register a function by a call rather than a framework's decorator line: a tool decorator applied as a call
(``mcp.tool(name="x")(self.method)``, ``function_tool(f)``), a tool class built around a callable (``Tool(func_callable=search)``), a project's own
registry decorator (``@mcp_for_unity_tool(...)``: a decorator whose body stores the function it is given in a tool registry, marks it, or hands it to
a framework's tool decorator, or to a gate handed the server: :mod:`.gated`), and the servers handed to a registering function by a call in another
file (``tools.register(mcp)``). Used by :mod:`.forms` (one file) and :mod:`.describe` (the run's facts)."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Mapping

from .. import knowledge as kb
from .gated import handed_server
from .toolobjects import built_around, object_names, tool_object
from .toolwords import camel_words as _camel_words, says_tool as _says_tool
from .index import EVENT_WORDS, FUNCS, Index, literal_str, made_of, own_nodes, tool_word

__all__ = ["CALLABLE_WORDS", "Entry", "Registry", "callable_arg", "registry_decorators",
           "registry_of", "only_wraps", "pending_callables", "run_tool_class", "verb_framework", "wrapping_decorators", "wrapper_of"]

Entry = tuple[str, int, ast.AST, tuple[ast.AST, ...]]
#: a registry decorator: (framework, position of its ``name`` parameter or -1, that parameter's name: keyword-only: no position)
Registry = tuple[str, int, str]

#: the parameter of a registry decorator factory that names the tool
_NAME_PARAMS = ("name", "tool_name")
#: words of a keyword that hands a tool class the callable it runs (``func=``, ``func_callable=``, ``handler=``)
CALLABLE_WORDS = frozenset({"func", "function", "fn", "callable", "callback", "handler", "impl", "coroutine"})
#: methods that put a value in a container (``registry.append(fn)``)
_STORING = frozenset({"append", "add", "insert", "register", "setdefault", "update", "extend"})


def _holds(value: ast.AST, param: str | Collection[str]) -> bool:
    """The value is the function itself, a literal that holds it (``{"func": fn, ...}``, ``(name, fn)``), or an object
    built around it by a call given it as an argument (``Tool.from_function(fn, name=name)``, ``ToolSpec(func=fn)``);
    ``param``: the function's names (its parameter, and the names bound to it or to a wrapper of it)."""
    names = {param} if isinstance(param, str) else param
    if isinstance(value, ast.Name):
        return value.id in names
    if isinstance(value, ast.Call):
        return any(isinstance(a, ast.Name) and a.id in names for a in (*value.args, *(k.value for k in value.keywords)))
    if isinstance(value, ast.Dict):
        return any(_holds(v, names) for v in value.values)
    if isinstance(value, (ast.Tuple, ast.List)):
        return any(_holds(v, names) for v in value.elts)
    return False


def _aliases(fn: ast.AST, param: str) -> set[str]:
    """The names ``fn`` gives the function it was given: the parameter, a name bound to it (``async_func = func``) and
    a nested ``def`` wrapping it (``@functools.wraps(func) async def async_func(...)``), what a registry stores."""
    return {param} | {t.id for n in own_nodes(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name)
                      and n.value.id == param for t in n.targets if isinstance(t, ast.Name)} \
        | {n.name for n in ast.walk(fn) if isinstance(n, FUNCS) and n is not fn and _wraps(n, param)}


def _params(fn: ast.AST, method: bool) -> list[str]:
    args = getattr(fn, "args", None)
    if not isinstance(args, ast.arguments):
        return []
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    return names[1:] if method and names and names[0] in ("self", "cls") else names


def _own_returns(fn: ast.AST) -> list[ast.expr]:
    return [n.value for n in own_nodes(fn) if isinstance(n, ast.Return) and n.value is not None]


def _calls(fn: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in ast.walk(fn))


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _registers(fn: ast.AST, param: str, index: Index, decorators: Mapping[str, str]) -> str:
    """How ``fn`` registers its function parameter: ``"framework:<name>"`` (it hands it to a framework's tool
    decorator: ``toolset.tool(...)(fn)``), ``"named"`` (it stores or marks it under a name that says tool: ``_tool_registry``,
    ``setattr(fn, ATTR, ToolDefinition(...))``), ``"stored"`` (in some other registry), or ``""``."""
    how = ""
    held = (aliases := _aliases(fn, param)) | object_names(fn, aliases)  # ``tool = Tool(name, ..., fn)``
    bound = {t.id: q for a in own_nodes(fn) if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
             and (q := index.qualname(a.value.func) or "") in decorators for t in a.targets if isinstance(t, ast.Name)}
    for n in own_nodes(fn):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name) and f.id in bound and n.args and _mentions(n.args[0], param):
                return "framework:" + decorators[bound[f.id]]  # ``partial_ = tool(**options)``; ``partial_(fn)``
            if n.args and _mentions(n.args[0], param) and (server := handed_server(f, index, decorators)):
                return "framework:" + server  # ``gate.tool(mcp, required=...)(fn)``: the gate registers on ``mcp``
            if isinstance(f, ast.Call) and n.args and (_mentions(n.args[0], param) or wrapper_of(fn, n.args[0], param)) \
                    and ((q := index.qualname(f.func) or "") in decorators or not q and isinstance(f.func, ast.Attribute)
                         and isinstance(f.func.value, ast.Name) and verb_framework(f.func, index)):  # a parameter's ``mcp.tool``
                return "framework:" + (decorators.get(q) or verb_framework(f.func, index) or "")  # x.tool(...)(wrapper)
            if n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == param \
                    and (index.qualname(f) or "") in decorators:  # function_tool(fn)
                return "framework:" + decorators[index.qualname(f) or ""]
            if isinstance(f, ast.Attribute) and f.attr in _STORING and any(_holds(a, held) for a in n.args):
                how = "named" if how == "named" or _says_tool(ast.unparse(f.value)) else "stored"
            elif isinstance(f, ast.Name) and f.id == "setattr" and len(n.args) == 3 and _mentions(n.args[0], param):
                # a marker the registering code looks for (``setattr(fn, ATTR, ToolDefinition(...))``)
                named = _says_tool(ast.unparse(n.args[1])) or _says_tool(ast.unparse(n.args[2]))
                how = "named" if how == "named" or named else "stored"
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Subscript) and _holds(n.value, held):  # registry[name] = fn
                    how = "named" if how == "named" or _says_tool(ast.unparse(t.value)) or tool_object(n.value, fn, aliases) else "stored"
                elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == param \
                        and t.attr.startswith("_"):  # a marker (``fn.__tool__``), not ``state.tools = ...``
                    named = _says_tool(t.attr) or _says_tool(ast.unparse(n.value))  # fn.__tool__ = ToolSpec(...)
                    how = "named" if how == "named" or named else "stored"
    return how


def _gives_back(fn: ast.AST, param: str, nested: Mapping[str, ast.AST]) -> bool:
    """``fn`` returns the function it was given, what a framework's decorator made of it (``registered =
    toolset.tool(...)(fn); return registered``), what another decorator makes of it (``return tracer.tool(fn)``),
    or a wrapper of it (a nested ``def`` calling it; what a module function handed it first makes of it, with options
    or without: meshbook-mcp's ``wrapped = with_hints(fn, hints); mcp.tool(...)(_quiet(wrapped, ...)); return wrapped``,
    colab-cli-mcp's ``return mcp.tool()(guard(fn))``)."""
    held = _aliases(fn, param) | {t.id for a in own_nodes(fn) if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
                      and (isinstance(a.value.func, ast.Call) and any(_mentions(x, param) for x in a.value.args)
                           or _made_from(a.value, param)) for t in a.targets if isinstance(t, ast.Name)}
    for value in _returned_names(fn):  # each branch of ``return mcp.tool(annotations=a)(fn) if a else mcp.tool()(fn)``
        if isinstance(value, ast.Call) and value.args and _is_cast(value):  # ``return cast("T", fn)``
            value = value.args[-1]
        if isinstance(value, ast.Name) and (value.id in held or (value.id in nested and _calls(nested[value.id], param))):
            return True
        if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords \
                and isinstance(value.args[0], ast.Name) and (value.args[0].id in held or wrapper_of(fn, value.args[0], param)):
            return True  # handed on to another decorator: ``return tracer.tool(func)``, ``return mcp.tool()(wrapper)``
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and len(value.args) == 1 \
                and _made_from(value.args[0], param):
            return True  # a framework decorator's registration of a wrapper made of it: ``return mcp.tool()(guard(fn))``
    return False


def _made_from(value: ast.AST, param: str) -> bool:
    """``value`` calls a function by its bare name handed ``param`` first (``with_hints(fn, hints)``, ``guard(fn)``):
    a wrapper a module function makes of the function, registered or given back in its place."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and bool(value.args) \
        and isinstance(value.args[0], ast.Name) and value.args[0].id == param


def _builds_holder(fn: ast.AST, param: str, index: Index, depth: int = 0) -> bool:
    """``fn`` returns an object built around the function it was given, handed by a keyword that says so
    (``return LocalFunction(card=card, func=fn)``), or what a module-level function of this file it hands the
    function to returns (``return _create_tool(fn, name=...)``, that function building one)."""
    named = {t.id: a.value for a in own_nodes(fn) if isinstance(a, ast.Assign) for t in a.targets
             if isinstance(t, ast.Name)}
    module_defs = {path: node for path, _n, node, parents in index.defs if not parents}
    for value in _own_returns(fn):
        if isinstance(value, ast.Name):
            value = named.get(value.id, value)
        if not isinstance(value, ast.Call):
            continue
        arg = callable_arg(value)
        if (isinstance(arg, ast.Name) and arg.id == param or built_around(value, param)) \
                and (index.qualname(value.func) or "")[:1]:  # ``Tool(func=fn)``; ``Tool(fn, name=...)``
            return True
        callee = module_defs.get(value.func.id) if isinstance(value.func, ast.Name) \
            and value.func.id not in index.imports else None
        inner = _params(callee, False) if callee is not None else []
        if callee is not None and depth < 2 and inner and value.args and isinstance(value.args[0], ast.Name) \
                and value.args[0].id == param and _builds_holder(callee, inner[0], index, depth + 1):
            return True
    return False


def wrapper_of(fn: ast.AST, ref: ast.AST, param: str) -> bool:
    """``ref`` names a ``def`` nested in ``fn`` that wraps its function parameter ``param`` (``functools.wraps(fn)``,
    or calling it): ``def register(fn): async def observed(*a): return await fn(*a); return mcp.tool()(observed)``;
    or a name bound to a call handed ``param`` alone (:func:`.index.made_of`: ``timed = _timed(func)``)."""
    return isinstance(ref, ast.Name) and (any(isinstance(n, FUNCS) and n is not fn and n.name == ref.id and _wraps(n, param)
                                              for n in ast.walk(fn)) or ref.id in made_of(fn, param))  # timed = _timed(fn)


def _is_cast(call: ast.Call) -> bool:
    f = call.func
    return (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "") == "cast"


def _children(index: Index) -> dict[int, dict[str, ast.AST]]:
    """The functions defined directly in each function (by the id of the enclosing one): {id -> {name -> def}}."""
    children: dict[int, dict[str, ast.AST]] = {}
    for e in index.defs:
        if e[3]:
            children.setdefault(id(e[3][-1]), {})[e[0].rsplit(".", 1)[-1]] = e[2]
    return children


def _returned_names(fn: ast.AST) -> list[ast.expr]:
    """What ``fn`` returns, a conditional's two branches apart (``return a if asyncio.iscoroutinefunction(f) else b``)."""
    out: list[ast.expr] = []
    for value in _own_returns(fn):
        out.extend((value.body, value.orelse) if isinstance(value, ast.IfExp) else (value,))
    return out


def _wraps(inner: ast.AST, param: str) -> bool:
    """A wrapper of ``param``: a nested ``def`` decorated by ``functools.wraps(param)`` or calling it."""
    for d in getattr(inner, "decorator_list", []):
        if isinstance(d, ast.Call) and d.args and _mentions(d.args[0], param) \
                and (d.func.id if isinstance(d.func, ast.Name) else getattr(d.func, "attr", "")) == "wraps":
            return True
    return _mentions(inner, param)


def _marks(fn: ast.AST) -> bool:
    """``fn`` (or a ``def`` in it) marks a function it makes or is given: an attribute set on one of its parameters
    or nested ``def``s (``wrapper.api_description = ...``, ``setattr(func, ...)``), what a registry looks for."""
    names = {a.arg for n in ast.walk(fn) if isinstance(n, ast.arguments)
             for a in (*n.posonlyargs, *n.args, *n.kwonlyargs)} - {"self", "cls"}
    names |= {n.name for n in ast.walk(fn) if isinstance(n, FUNCS)}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                             and t.value.id in names for t in n.targets):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" and n.args \
                and isinstance(n.args[0], ast.Name) and n.args[0].id in names:
            return True
    return False


def wrapping_decorators(index: Index, decorators: Mapping[str, str]) -> set[str]:
    """The file's decorators that only wrap the function they are given (tracing, logging, timing): a decorator
    (or a decorator factory's returned ``def``) whose every return is a nested ``def`` wrapping its function
    parameter (``functools.wraps(func)``, or calling it), and that neither stores, marks (``wrapper.api_description =
    ...``) nor hands that function to a framework's tool decorator. Its name does not make a tool of what it decorates (``@trace_tool``): its
    body says it does not register. -> def paths."""
    out: set[str] = set()
    children = _children(index)
    for path, _n, node, parents in index.defs:
        method = bool(parents) and isinstance(parents[-1], ast.ClassDef)
        params = _params(node, method)
        nested = children.get(id(node), {})
        returned = _returned_names(node)
        if not params or not returned or not all(isinstance(v, ast.Name) and v.id in nested for v in returned) \
                or _marks(node):
            continue
        names = {v.id for v in returned if isinstance(v, ast.Name)}
        if all(_wraps(nested[n], params[0]) for n in names) \
                and not any(_registers(node, p, index, decorators) for p in (params[0], *names)) \
                and not any(_registers(nested[n], params[0], index, decorators) for n in names):
            out.add(path)
            continue
        # a factory: ``def trace(name): def deco(fn): ...; return deco`` whose returned decorator only wraps
        if len(names) == 1:
            inner = nested[next(iter(names))]
            inner_params = _params(inner, False)
            inner_nested = children.get(id(inner), {})
            inner_returned = _returned_names(inner)
            if inner_params and inner_returned and all(isinstance(v, ast.Name) and v.id in inner_nested
                                                        and _wraps(inner_nested[v.id], inner_params[0])
                                                        for v in inner_returned) \
                    and not any(_registers(inner, p, index, decorators)
                                for p in (inner_params[0], *(v.id for v in inner_returned if isinstance(v, ast.Name)))):
                out.add(path)
    return out


def registry_decorators(index: Index, decorators: Mapping[str, str],
                        chosen: dict[str, tuple[ast.AST, str]] | None = None) -> dict[str, Registry]:
    """The file's own registry decorators: {def path (``tool``, ``Registry.register``, ``factory.described``) ->
    :data:`Registry`}. A decorator (or a decorator factory's returned ``def``) that takes a function, stores it
    (a container, ``registry[name] = fn``, a marker attribute) or hands it to a framework's tool decorator, and
    gives it back; stored only counts when the decorator's or the registry's name says tool."""
    out: dict[str, Registry] = {}
    framework = index.module.split(".")[0].replace("_", "-")
    children = _children(index)
    for path, _n, node, parents in index.defs:
        returned = {v.id for v in _returned_names(node) if isinstance(v, ast.Name)}
        if not returned and not any(isinstance(v, ast.Call) for v in _returned_names(node)):
            continue
        method = bool(parents) and isinstance(parents[-1], ast.ClassDef)
        nested = children.get(id(node), {})
        candidates: list[tuple[ast.AST, str, bool]] = []  # (the registering def, its function parameter, factory)
        params = _params(node, method)
        if params:
            candidates.append((node, params[0], False))
        for name in returned & nested.keys():
            inner = _params(nested[name], False)
            if inner:
                candidates.append((nested[name], inner[0], True))
        for fn, param, factory in list(candidates):  # handed on to a nested ``def`` that registers it and gives it back
            for value in _returned_names(fn):  # ``def wrapper(inner): return cast(F, attach(inner))``; ``return attach(func)``
                if isinstance(value, ast.Call) and value.args and _is_cast(value):
                    value = value.args[-1]
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in nested \
                        and value.args and isinstance(value.args[0], ast.Name) and value.args[0].id == param \
                        and (inner := _params(nested[value.func.id], False)):
                    candidates.append((nested[value.func.id], inner[0], factory))
        for fn, param, factory in candidates:
            built = _builds_holder(fn, param, index)
            if not built and not _gives_back(fn, param, children.get(id(fn), {})):
                continue
            how = _registers(fn, param, index, decorators) or ("stored" if built else "")
            name_words = set(node.name.lower().split("_"))  # type: ignore[attr-defined]
            if how.startswith("framework:") or (how == "named" and not name_words & EVENT_WORDS) \
                    or (how == "stored" and tool_word(node.name)):  # type: ignore[attr-defined]
                position = next((i for i, p in enumerate(params) if p in _NAME_PARAMS), -1) if factory else -1
                keyword = params[position] if position >= 0 else next(
                    (a.arg for a in getattr(getattr(node, "args", None), "kwonlyargs", ()) if a.arg in _NAME_PARAMS), "")
                out[path] = (how.partition(":")[2] or framework, position, keyword)
                if chosen is not None:  # the registering def and its function parameter
                    chosen[path] = (fn, param)
                break
    return out


def registry_of(qn: str | None, registries: Mapping[str, Registry]) -> tuple[str, Registry] | None:
    """The run's registry decorator a decorator's qualified name names: itself, or the one of that name defined
    below the package it is imported from (a re-export: ``from pkg.registry import tool`` of
    ``pkg.registry.tool_registry.tool``)."""
    if not qn:
        return None
    if qn in registries:
        return qn, registries[qn]
    package, _, last = qn.rpartition(".")
    same = [q for q in registries if q.rsplit(".", 1)[-1] == last and q.startswith(package + ".")] if package else []
    outer, _, owner = package.rpartition(".")
    if not same and outer and owner[:1].isupper():  # a method of a re-exported class (``from pkg.oxy import Hub``)
        same = [q for q in registries if q.endswith(f".{owner}.{last}") and q.startswith(outer + ".")]
    if not same:  # a package below a directory without ``__init__.py`` names its modules from below (``_facts``)
        same = [q for q in registries if qn.endswith("." + q)]
    return (same[0], registries[same[0]]) if len(same) == 1 else None


def only_wraps(qn: str | None, wrapping: Collection[str]) -> bool:
    """The decorator a qualified name names is one of the run's that only wrap (itself, or a re-export of the one
    of that name below the package it is imported from, as :func:`registry_of` finds registries)."""
    if not qn:
        return False
    if qn in wrapping:
        return True
    package, _, last = qn.rpartition(".")
    same = [q for q in wrapping if q.rsplit(".", 1)[-1] == last and q.startswith(package + ".")] if package else []
    return len(same) == 1


def registry_name(call: ast.Call | None, registry: Registry) -> str | None:
    """The tool name a registry decorator call gives (its ``name`` parameter, by keyword or position)."""
    _framework, position, keyword = registry
    if call is None or (position < 0 and not keyword):
        return None
    for kw in call.keywords:
        if kw.arg == keyword:
            return literal_str(kw.value)
    return literal_str(call.args[position]) if 0 <= position < len(call.args) else None


def callable_arg(call: ast.Call) -> ast.expr | None:
    """The argument that hands a tool class the callable it runs: a keyword whose first word (after ``async_``: llama-index's
    ``async_fn=``) says so (``func=``, ``func_callable=``, ``fn=``, ``coroutine=``; not ``config_path_fn=``)."""
    for kw in call.keywords:
        if kw.arg and re.sub(r"^a?sync_", "", kw.arg.lower()).split("_")[0] in CALLABLE_WORDS:  # not ``config_path_fn=``
            return kw.value
    return None


def _tool_class_name(qn: str, project: Collection[str]) -> bool:
    """A class named a tool (``...Tool``) or one of the run's tool classes."""
    return _camel_words(qn.rsplit(".", 1)[-1])[-1:] == ["Tool"] or run_tool_class(qn, project)


def run_tool_class(qn: str, project: Collection[str]) -> bool:
    """``qn`` names one of the run's tool classes (found by its base: ``project``), itself or through its package's
    re-export (``from pkg.tool import LocalFunction`` of ``pkg.tool.function.LocalFunction``)."""
    if qn in project:
        return True
    package, _, last = qn.rpartition(".")
    return bool(package) and len([q for q in project if q.rsplit(".", 1)[-1] == last
                                  and q.startswith(package + ".")]) == 1


def pending_callables(index: Index, project: Collection[str], own_roots: frozenset[str]) -> bool:
    """A call here hands a callable (``func=``) to a class of the same project not named as a tool
    (``LocalFunction(card=..., func=f)``): whether it is a tool class is known once the run is."""
    for call in ast.walk(index.tree):
        if isinstance(call, ast.Call) and callable_arg(call) is not None:
            qn = index.qualname(call.func)
            if qn and qn.split(".")[0] in own_roots and not qn.startswith(index.module + ".") \
                    and _camel_words(qn.rsplit(".", 1)[-1])[-1:] != ["Tool"] and not run_tool_class(qn, project):
                return True
    return False


def verb_framework(head: ast.AST, index: Index, call: ast.Call | None = None) -> str | None:
    """The framework a registration verb on an untyped receiver names (``knowledge.registration_framework``, the table
    TFH401 reads too): ``mcp.tool`` where ``mcp`` is a parameter, ``self.server.add_tool``, ``coder_agent.tool_plain``,
    ``functions_registry.register_function``; None when the receiver resolves (the tables decide), its name is no
    registrar's (``app.route``, ``hooks.add_tool``), or the module builds a web app and no tool server (``app``/
    ``server`` there is the web app). ``call`` (the registering call itself, ``head`` its callee): a receiver of any
    name registers when the call spells a whole tool out by position (:func:`_spelled_out`)."""
    if not isinstance(head, ast.Attribute) or head.attr not in kb.TOOL_REGISTRATION_VERBS:
        return None
    recv = head.value
    own = own_receiver(head, index)
    if isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name) and (recv.value.id in ("self", "cls") or own):
        name = recv.attr  # ``self.server.add_tool``; ``agent.tool_registry.register(fn)``, ``agent`` the run's Agent
    elif isinstance(recv, ast.Name) and (recv.id not in ("self", "cls") or kb.TOOL_REGISTRATION_VERBS[head.attr]):
        name = recv.id  # ``self.register_tool(name, desc, fn)``: a class of the run registering in itself
    else:
        return None
    if index.qualname(head) is not None and not own:
        return None
    framework = kb.registration_framework(head.attr, name)
    if own and framework is not None:
        framework = "registry"  # the run's own registry (``agent.add_tool("avatar", handler=mgr.handle)``), no framework's
    framework = "registry" if framework == "" and name in ("self", "cls") else framework  # the class registers
    if framework is None and call is not None and call.func is head and _spelled_out(call):
        framework = "registry"  # ``plugin.tool("list_shortcuts", "List ...", {...}, list_shortcuts)``
    if not framework or _web_module(index):
        return None
    return framework


def own_receiver(head: ast.expr, index: Index) -> bool:
    """``head`` (``agent.add_tool``, ``agent.tool_registry.register``) is a registration verb on an object of one of
    the run's own classes (``agent: "Agent"``, ``from sage.agent import Agent``): no framework's method the tables could
    know, so the verb and the receiver's name decide, as on an untyped receiver (``agent`` is then the run's registry)."""
    if not isinstance(head, ast.Attribute) or head.attr not in kb.TOOL_REGISTRATION_VERBS:
        return False
    root = head.value
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id in ("self", "cls") or root.id not in index.instances:
        return False
    qn = index.qualname(head)
    return qn is not None and qn.split(".")[0] == index.module.split(".")[0]


def _spelled_out(call: ast.Call) -> bool:
    """A registration call that spells a whole tool out by position: its name and description as literal text, then
    at least one more argument (the schema, the function: ``plugin.tool(name, description, schema, fn)``)."""
    args = call.args
    return len(args) >= 3 and literal_str(args[0]) is not None \
        and (literal_str(args[1]) is not None or isinstance(args[1], ast.JoinedStr))


def _web_module(index: Index) -> bool:
    """The module imports a web framework (``knowledge.WEB_FRAMEWORK_ROOTS``: Flask, FastAPI) and no tool framework
    a registrar's name stands for (mcp, fastmcp, pydantic-ai): an untyped ``app``/``server`` there is the web app."""
    roots = {full.split(".")[0] for full in index.imports.values()}
    return bool(roots & kb.WEB_FRAMEWORK_ROOTS) and not roots & _REGISTRAR_ROOTS


#: the top-level packages of the frameworks ``knowledge.TOOL_REGISTRAR_NAMES`` stands for
_REGISTRAR_ROOTS = frozenset({"mcp", "fastmcp", "pydantic_ai"})


def _unwrapped(ref: ast.expr, names: Collection[str] = ()) -> ast.expr:
    """A function handed through a wrapper call (``_mcp_tool(self.fetch)``, ``paginating(name, fn)``): the wrapper's
    one argument that is a function reference (``names``: a parameter of these names), else the reference itself."""
    if not isinstance(ref, ast.Call):
        return ref
    args = [a for a in ref.args if isinstance(a, (ast.Name, ast.Attribute))]
    if names:
        args = [a for a in args if isinstance(a, ast.Name) and a.id in names]
    if len(args) > 1:  # ``paginating(name, fn)``: the one named for a callable
        args = [a for a in args if isinstance(a, ast.Name) and a.id.lower().split("_")[0] in CALLABLE_WORDS]
    return args[0] if len(args) == 1 else ref
