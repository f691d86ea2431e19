"""Tools made in one module of the run by a call in another: ``FunctionTool(run_report)`` in ``pkg/coordinator.py``
where ``run_report`` is imported from ``pkg/tools/core.py``; ``server.tool(...)(t)`` for each ``t`` of a tuple another
module defines (``for t in plans.PLAN_TOOLS``); ``Agent(tools=[search])`` with ``search`` imported. The registering file
records what it hands (:func:`remote_refs`: qualified names, resolved through its imports, as Python does); the file's
graph (``follow.Graph.sequences``) records its module-level tuples and lists of functions and its ``__all__``; at the end
of the run :func:`.adoption.adopted` resolves each name through the run's re-exports to a module-level function of the run and the
file defining it describes that function as a tool (:func:`.adoption.adopted_defs`), a row at its own ``def``, once.

Tables of tools (:func:`table_refs`): a module-level tool spec dict whose callable is imported from another module of
the run (paypal's shared ``tools = [{"method": ..., "description": ..., "args_schema": ..., "execute": create_order}]``,
run by each framework's wrapper), and a module-level table of tool descriptions naming each function by its name alone
(biomni's ``tool_description/database.py``: ``description = [{"name": "query_uniprot", "description": ...,
"required_parameters": [...]}]``): the function of the run so named in the table's own module or in a module of the
same name elsewhere in the package (``tool/database.py``), the one the loader pairs it with by name."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from .dispatch import dispatched_pairs, tool_schema_names
from .index import FUNCS, Index, direct_calls, literal_str, name_from_call, own_nodes, tool_list_arg, tool_word
from .model import Tables
from .references import comprehended, handed_ref, resolve_ref
from .applied_calls import loops_of, tool_helpers
from .registries import callable_arg, _unwrapped, verb_framework
from .specs import described_names, spec_calls, spec_tools
from .spec_classes import spec_class, spec_function, spec_named
from .toolwords import camel_words as _camel_words
from .wrappers import wrapper_of, wrapper_text

__all__ = ["Remote", "Wanted", "free_receivers", "injected_names", "module_sequences", "remote_refs", "table_refs"]

#: what a call hands a tool constructor or decorator: (qualified name, or ``*`` + a sequence's qualified name for each
#: element of it; the tool's name from the call or ""; framework; form; the framework method that turns what the tool
#: raises into text, ``knowledge.TOOL_DECORATOR_TEXT``, or "": ``mcp.tool()(fn)`` carries FastMCP's as ``@mcp.tool()`` does)
Remote = tuple[str, str, str, str, str]
#: a function of a file another module makes a tool of: (path in the file, tool name or "", framework, form, text by)
Wanted = tuple[str, str, str, str, str]

#: a call whose callee's last name ends so takes a ``tools=`` list (as ``forms._AGENT_SUFFIX``)
_AGENT_SUFFIX = "Agent"


def _handed(call: ast.Call, index: Index, tables: Tables) -> Iterator[tuple[ast.expr, str, str, str, str]]:
    """The function references a call makes tools of: (reference, tool name or "", framework, form, the framework
    method that turns what it raises into text or "")."""
    inner = call.func if isinstance(call.func, ast.Call) else None
    qn = index.qualname(inner.func if inner is not None else call.func)
    if qn is None:  # ``mcp.tool(name="x")(f)``, ``server.add_tool(wrap(f))`` on an untyped receiver
        verb = verb_framework(inner.func if inner is not None else call.func, index)
        if verb is not None and call.args:
            yield (_unwrapped(handed_ref(call)), name_from_call(inner, positional=False) or "" if inner is not None else "",
                   verb, f"{ast.unparse(inner.func if inner is not None else call.func)}(...)", "")
        return
    if inner is not None:  # ``mcp.tool(name="x")(f)``
        framework = tables.decorators.get(qn)
        if framework is not None and framework != "runtime" and call.args:
            yield (call.args[0], name_from_call(inner, positional=False) or "", framework, f"{ast.unparse(inner.func)}(...)",
                   wrapper_text(tables.aliases.get(qn, qn), inner) or "")
        return
    wrapper = wrapper_of(qn, index, tables.wrappers)
    if wrapper is not None:  # ``FunctionTool(f)``, ``StructuredTool.from_function(func=f)``
        qn, (framework, keyword, position) = wrapper
        arg = next((k.value for k in call.keywords if k.arg == keyword), None)
        if arg is None and position is not None and len(call.args) > position:
            arg = call.args[position]
        if arg is None:
            arg = callable_arg(call)
        if arg is not None:
            parts = qn.split(".")
            form = ".".join(parts[-2:]) if parts[-1].startswith("from_") else parts[-1]
            yield arg, name_from_call(call) or "", framework, form, ""
        return
    last = qn.rsplit(".", 1)[-1]
    framework = tables.decorators.get(qn)
    if framework is not None and framework != "runtime" and call.args and qn not in tables.wrappers:
        yield call.args[0], "", framework, f"{last}(...)", wrapper_text(tables.aliases.get(qn, qn), call) or ""  # ``function_tool(f)``
        return
    if qn in tables.lists or last.endswith(_AGENT_SUFFIX):
        arg = tool_list_arg(call, qn)
        if isinstance(arg, (ast.List, ast.Tuple)):
            for el in arg.elts:
                yield el, "", tables.lists.get(qn) or qn.split(".")[0].replace("_", "-"), f"{last}(tools=[...])", ""
        return
    if _camel_words(last)[-1:] == ["Tool"]:  # a tool class built around a callable: ``Tool(func=f)``
        arg = callable_arg(call)
        if arg is not None:
            yield arg, name_from_call(call, positional=False) or "", qn.split(".")[0].replace("_", "-"), f"{last}(...)", ""


def _aliased(index: Index) -> dict[str, ast.expr]:
    """The module's top-level ``NAME = other.NAME`` / ``NAME = imported`` bindings."""
    return {t.id: s.value for s in index.tree.body if isinstance(s, ast.Assign) and isinstance(s.value, (ast.Name, ast.Attribute))
            for t in s.targets if isinstance(t, ast.Name)}


def _outside(ref: ast.expr, index: Index, own_roots: frozenset[str], aliased: Mapping[str, ast.expr],
             submodules: bool = False) -> str | None:
    """The qualified name of another module of the run a reference names (through the imports and one top-level
    alias), else None; ``submodules``: a package's ``__init__`` importing its own submodule's function names that
    submodule (the tool specs of :func:`table_refs`)."""
    if isinstance(ref, ast.Name) and ref.id in aliased and ref.id not in index.imports:
        ref = aliased[ref.id]
    qn = index.qualname(ref) if isinstance(ref, (ast.Name, ast.Attribute)) else None
    if qn is None or qn.split(".")[0] not in own_roots:
        return None
    root = ref
    while isinstance(root, ast.Attribute):
        root = root.value
    if qn.startswith(index.module + ".") and not (submodules and isinstance(root, ast.Name) and root.id in index.imports):
        return None  # this module's own (a package's ``__init__`` importing its submodule's function is another's)
    return qn


def _decorator_factories(index: Index, tables: Tables) -> dict[str, str]:
    """The module's functions that hand back a framework's tool decorator (``return mcp.tool(*args, **kwargs)``,
    another branch perhaps a no-op): def name -> framework."""
    out: dict[str, str] = {}
    for stmt in index.tree.body:
        if isinstance(stmt, FUNCS):
            for n in ast.walk(stmt):
                if isinstance(n, ast.Return) and isinstance(n.value, ast.Call):
                    framework = tables.decorators.get(index.qualname(n.value.func) or "")
                    if framework is not None and framework != "runtime":
                        out[stmt.name] = framework
    return out


#: a function making a tool of a wrapper that runs the function it is given: (its parameter's position, the
#: parameter's name, framework, form)
Maker = tuple[int, str, str, str]


def _wrapper_makers(index: Index, tables: Tables) -> dict[str, Maker]:
    """The file's functions whose nested function, decorated with a tool decorator (or a factory of one:
    :func:`_decorator_factories`), calls one of their parameters (``def make(name, func): @mcp.tool(name=name)
    async def wrapper(params): return await func(params)``): what their callers hand at that parameter is what the
    tool runs. -> {def path: Maker}."""
    factories = _decorator_factories(index, tables)
    paths = {id(node): path for path, _n, node, _parents in index.defs}
    out: dict[str, Maker] = {}
    for _path, _n, inner, parents in index.defs:
        makers = [p for p in parents if isinstance(p, FUNCS)]
        if not makers or not inner.decorator_list:  # type: ignore[attr-defined]
            continue
        for dec in inner.decorator_list:  # type: ignore[attr-defined]
            head = dec.func if isinstance(dec, ast.Call) else dec
            framework = factories.get(head.id) if isinstance(head, ast.Name) and head.id not in index.imports else None
            framework = framework or tables.decorators.get(index.qualname(head) or "")
            if framework is None or framework == "runtime":
                continue
            called = {c.func.id for c in ast.walk(inner) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
            maker = makers[-1]  # the function the wrapper is made in
            params = [a.arg for a in maker.args.posonlyargs + maker.args.args]
            hit = next((p for p in params if p in called), None)
            if hit is not None and id(maker) in paths:
                out.setdefault(paths[id(maker)], (params.index(hit), hit, framework,
                                                  f"@{ast.unparse(head)} wrapper in {maker.name}()"))
    return out


def _looked_up(ref: ast.expr, scope: ast.AST) -> str | None:
    """The loop name a reference was looked up by in this scope: ``f = globals()[name]``, ``f = getattr(mod, name)``."""
    if not isinstance(ref, ast.Name):
        return None
    for n in ast.walk(scope):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == ref.id for t in n.targets):
            v = n.value
            if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Call) and isinstance(v.value.func, ast.Name) \
                    and v.value.func.id == "globals" and isinstance(v.slice, ast.Name):
                return v.slice.id
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "getattr" \
                    and len(v.args) == 2 and isinstance(v.args[1], ast.Name):
                return v.args[1].id
    return None


def _made(call: ast.Call, index: Index, scope_path: str, owner: str | None,
          makers: Mapping[str, Maker], scope: ast.AST) -> Iterator[tuple[ast.expr, str, str, str, str]]:
    """A call of one of the file's wrapper makers: the reference it hands at the parameter the wrapper runs."""
    maker = resolve_ref(call.func, index, scope_path, owner) if makers else None
    if maker is None or maker[0] not in makers:
        return
    position, param, framework, form = makers[maker[0]]
    arg = next((k.value for k in call.keywords if k.arg == param), None)
    if arg is None and 0 <= position < len(call.args):
        arg = call.args[position]
    for ref in comprehended(arg, call, scope) if arg is not None else ():  # ``for tool in [tc.summarize, ...]``
        yield ref, name_from_call(call) or "", framework, form, ""


def remote_refs(index: Index, tables: Tables, own_roots: frozenset[str]) -> list[Remote]:
    """What this file's calls make tools of that other modules of the run define (see the module's doc)."""
    out: dict[str, Remote] = {}
    aliased = _aliased(index)
    makers = {**{path: (pos, param, framework, f"{path.rsplit('.', 1)[-1]}({param}=...)")
                 for path, (pos, param, framework, _form) in
                 tool_helpers(index, tables.decorators, tables.wrappers, tables.project).items()},
              **_wrapper_makers(index, tables)}
    for path, _n, node, parents in [("", 0, index.tree, ()), *index.defs]:
        scope_path = path if node is not index.tree else ""
        owner = ".".join(p.name for p in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
        loops: dict[str, list[ast.expr]] | None = None
        for call in direct_calls(node):
            for ref, name, framework, form, text_by in [*_handed(call, index, tables),
                                                        *_made(call, index, scope_path, owner, makers, node)]:
                if resolve_ref(ref, index, scope_path, owner) is not None:
                    continue  # a function of this module: ``forms.discover`` has it
                if isinstance(ref, ast.Name) and ref.id not in index.imports and ref.id not in aliased \
                        and (listed := _module_list(ref.id, index, own_roots, aliased)):
                    for fn_qn in listed:  # s57: a module list handed whole (``_register_tools(MCP_TOOLS)``)
                        out.setdefault(fn_qn, (fn_qn, "", framework, form, text_by))
                    continue
                if isinstance(ref, ast.Name) and ref.id not in index.imports and ref.id not in aliased:
                    loops = loops_of(node) if loops is None else loops
                    by = _looked_up(ref, node)  # ``for name in tools.__all__: f = globals()[name]``: the names exported
                    for it in loops.get(by if by is not None else ref.id, ()):  # ``for t in plans.PLAN_TOOLS``
                        for fn_qn in _listed(it, index, own_roots, aliased) if by is None else ():  # s53: ``TOOLS = (tasks.f, ...)``
                            out.setdefault(fn_qn, (fn_qn, "", framework, form, text_by))
                        for seq in [_outside(it, index, own_roots, aliased)] if by is not None \
                                else _each_modules(it, loops, index, own_roots, aliased):
                            if seq is not None and (by is None or seq.endswith(".__all__")):
                                out.setdefault("*" + seq, ("*" + seq, "", framework, form, text_by))
                    continue
                if isinstance(ref, ast.Call) and isinstance(ref.func, (ast.Name, ast.Attribute)) \
                        and (looked := _outside(ref.func, index, own_roots, aliased)) is not None:  # ``handler_for(name)``
                    out.setdefault("*" + looked, ("*" + looked, "", framework, form, text_by))  # s51: its table's values
                    continue
                qn = _outside(ref, index, own_roots, aliased)
                if qn is not None:
                    out.setdefault(qn, (qn, name, framework, form, text_by))
    for qn, name in _dispatched(index, own_roots, aliased):
        out.setdefault(qn, (qn, name, "schema", "dispatch dict", ""))
    for qn in _served_table(index, own_roots):
        out.setdefault(qn, (qn, "", "mcp", "call_tool table", _LOWLEVEL_TEXT))
    return list(out.values())


def _listed(it: ast.expr, index: Index, own_roots: frozenset[str], aliased: Mapping[str, ast.expr]) -> list[str]:
    """The functions of other modules of the run a loop iterates one by one: the elements of a literal list or tuple,
    or of one this module assigns to the name it iterates (plugvan-mcp: ``TOOLS = (tasks.create_task, ...)``;
    ``for _tool in TOOLS: mcp.add_tool(_tool, ...)``); this module's own are :mod:`.forms`'."""
    elts = it.elts if isinstance(it, (ast.Tuple, ast.List)) else index.lists.get(it.id, []) if isinstance(it, ast.Name) else []
    out: list[str] = []
    for el in elts:  # s57: ``*JIRA_MCP_TOOLS``, imported: each of that sequence (``*`` + its name, for :func:`.adoption.adopted`)
        qn = _outside(el.value, index, own_roots, aliased) if isinstance(el, ast.Starred) else _outside(el, index, own_roots, aliased)
        if qn is not None:
            out.append("*" + qn if isinstance(el, ast.Starred) else qn)
    return out


def _module_list(name: str, index: Index, own_roots: frozenset[str], aliased: Mapping[str, ast.expr]) -> list[str]:
    """s57: what a literal tuple or list bound to ``name`` at module level names of other modules of the run, a function
    or (``*`` + its name) a sequence spread into it (atlassian-agent-mcp: ``MCP_TOOLS = (*CONFLUENCE_MCP_TOOLS,
    *JIRA_MCP_TOOLS)``, both imported, handed whole to ``_register_tools``); [] when the module binds it otherwise too."""
    values = [s.value for s in index.tree.body if isinstance(s, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)]
    if len(values) != 1 or not isinstance(values[0], (ast.Tuple, ast.List)):
        return []
    return _listed(values[0], index, own_roots, aliased)


def _each_modules(it: ast.expr, loops: Mapping[str, list[ast.expr]], index: Index, own_roots: frozenset[str],
                  aliased: Mapping[str, ast.expr]) -> list[str | None]:
    """The sequences of other modules a loop iterates: ``plans.PLAN_TOOLS``, or (s51) ``module.TOOLS`` where an outer
    loop binds ``module`` to each module of a literal tuple (``for module in (issues, meta): for tool in module.TOOLS``)."""
    outer = it.value.id if isinstance(it, ast.Attribute) and isinstance(it.value, ast.Name) \
        and it.value.id not in index.imports else None
    if outer is None or outer not in loops:
        return [_outside(it, index, own_roots, aliased)]
    assert isinstance(it, ast.Attribute)
    return [_outside(ast.Attribute(el, it.attr, ast.Load()), index, own_roots, aliased) for seq in loops[outer]
            if isinstance(seq, (ast.Tuple, ast.List)) for el in seq.elts if isinstance(el, ast.Name)]


#: the low-level server's ``call_tool`` turns what a handler raises into an error result (``knowledge.TOOL_DECORATOR_TEXT``)
_LOWLEVEL_TEXT = "mcp.server.lowlevel.server.Server.call_tool"


def _served_table(index: Index, own_roots: frozenset[str]) -> Iterator[str]:
    """A low-level MCP server's handlers held in a module-level list of tuples beside its ``@server.call_tool()``
    dispatcher (``_ALL_TOOLS = [(NAME, DEFINITION, handle), ...]``, grown by ``_ALL_TOOLS.append((name, definition,
    HANDLERS[name]))``, looked up by the called name): each element imported from another module of the run (the
    functions among them are adopted), ``*`` + an imported table subscripted in a tuple (each of its values)."""
    if not any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "call_tool"
               for e in index.defs for d in getattr(e[2], "decorator_list", ())):
        return
    rows: dict[str, list[ast.expr]] = {}
    for stmt in index.tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.AnnAssign) else None
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(target, ast.Name) and isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) >= 2 \
                and all(isinstance(t, ast.Tuple) and len(t.elts) >= 2 for t in value.elts):
            rows[target.id] = list(value.elts)
    if not rows:
        return
    for n in ast.walk(index.tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id in rows and n.args \
                and isinstance(n.args[0], ast.Tuple):
            rows[n.func.value.id].append(n.args[0])
    for tuples in rows.values():
        for row in tuples:
            for el in row.elts if isinstance(row, ast.Tuple) else ():
                table = isinstance(el, ast.Subscript)
                ref = el.value if isinstance(el, ast.Subscript) else el
                qn = index.qualname(ref) if isinstance(ref, ast.Name) and ref.id in index.imports else None
                if qn is not None and qn.split(".")[0] in own_roots:  # a package's submodule too (``pkg/__init__.py``)
                    yield f"*{qn}" if table else qn


def _bound_in(ref: ast.expr, node: ast.AST) -> bool:
    """The reference's root name is a parameter of the function or bound in it (not the module's import)."""
    root = ref
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return True
    args = getattr(node, "args", None)
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} if isinstance(args, ast.arguments) else set()
    return root.id in params or any(isinstance(t, ast.Name) and t.id == root.id and isinstance(t.ctx, ast.Store)
                                    for t in own_nodes(node))


def table_refs(index: Index, own_roots: frozenset[str]) -> list[Remote]:
    """The functions of other modules the module's top-level tool tables name (see the module's doc): a spec dict's
    imported callable by its qualified name; a description's name as ``?<this module>:<name>``, for :func:`.adoption.adopted`
    to look up."""
    out: list[Remote] = []
    aliased = _aliased(index)
    for name, ref, _line in spec_tools(index.tree):
        if resolve_ref(ref, index, "", None) is None and (qn := _outside(ref, index, own_roots, aliased, True)) is not None:
            out.append((qn, name, "schema", "tool spec table", ""))
    specs = any(spec_named(str(c)) for c in index.call_names)  # the module calls a tool definition class at all
    for path, _n, node, parents in [("", 0, index.tree, ()), *index.defs]:  # a spec call in a function too
        owner = ".".join(p.name for p in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
        for name, ref, _line in spec_calls(node) if node is not index.tree else ():  # ``ToolDefinition(..., handler=_bash.run)``
            if resolve_ref(ref, index, path, owner) is None and not _bound_in(ref, node) \
                    and (qn := _outside(ref, index, own_roots, aliased, True)) is not None:
                out.append((qn, name, "schema", "tool spec table", ""))
        for call in direct_calls(node) if specs else ():
            qn = index.qualname(call.func) or ""  # s51: ``ToolSpec("read_file", read_file, "read")``, imported
            if spec_class(qn, index.module, index.screen.path) and (made := spec_function(call, index, path, owner, outside=lambda r: _outside(
                    r, index, own_roots, aliased, True) if not _bound_in(r, node) else None)) is not None:
                out.append((made[1], made[0], qn.split(".")[0].replace("_", "-"), f"{qn.rsplit('.', 1)[-1]}(<name>, ..., <function>)", ""))
    for name, _line in described_names(index.tree):
        out.append((f"?{index.module}:{name}", name, "schema", "tool description table", ""))
    named: list[Remote] = []
    for table, key, ref in name_tables(index):
        own = isinstance(ref, ast.Name) and any(isinstance(s, FUNCS) and s.name == ref.id for s in index.tree.body)
        qn = f"{index.module}.{ref.id}" if own and isinstance(ref, ast.Name) else \
            index.qualname(ref) if isinstance(ref, (ast.Name, ast.Attribute)) else None  # a package's own submodule too
        if qn is not None and qn.split(".")[0] in own_roots:
            named.append((qn, key, "dispatch", f"{table}[name]", ""))
    # s56: a table of other modules' ``main`` functions is a command line's subcommands (kinetic-devops' ``TOOLS =
    # {"auth": auth_main, ...}`` of ``from .auth import main as auth_main``): each module's entry point, no tool
    mains = {r[3] for r in named if r[0].rsplit(".", 1)[-1] == "main"}
    return out + [r for r in named if r[3] not in mains or not all(x[0].rsplit(".", 1)[-1] == "main"
                                                                   for x in named if x[3] == r[3])]


#: words that make a tool-named table something else than the tools a name runs (``TOOL_DESCRIPTIONS``,
#: ``TOOL_FORMATTERS``: what shows or describes a tool's call)
_NOT_RUN_WORDS = frozenset({"description", "descriptions", "schema", "schemas", "spec", "specs", "format", "formats",
                            "formatter", "formatters", "display", "displays", "render", "renderers", "renderer", "icon",
                            "icons", "label", "labels", "name", "names", "alias", "aliases", "prompt", "prompts",
                            "validator", "validators", "parser", "parsers", "cost", "costs", "timeout", "timeouts"})


def name_tables(index: Index) -> list[tuple[str, str, ast.expr]]:
    """A module-level table named for tools mapping each tool's name to the function that runs it, written out
    (``TOOL_HANDLERS = {"search": search, "fetch": fetch}``) or filled by ``.update({...})`` of a table first bound to
    ``{}`` (faradayai's ``SEARCH_TOOL_DICT.update({"read_webpage": read_webpage, ...})`` in a ``try``'s ``else``):
    (the table, the tool name, the function reference), for two names at least, every key a literal, every value a
    name or attribute (a function of this module or imported, :func:`table_refs` decides)."""
    stmts: list[ast.stmt] = []
    stack = list(index.tree.body)
    while stack:  # the module's own statements, through ``if``/``try`` blocks
        st = stack.pop(0)
        stmts.append(st)
        if isinstance(st, (ast.If, ast.Try)):
            stack[:0] = [*st.body, *st.orelse, *(getattr(st, "finalbody", [])),
                         *(x for h in getattr(st, "handlers", []) for x in h.body)]
    out: list[tuple[str, str, ast.expr]] = []
    for st in stmts:
        table, value = "", None
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            table, value = st.targets[0].id, st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            table, value = st.target.id, st.value
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
                and st.value.func.attr == "update" and isinstance(st.value.func.value, ast.Name) \
                and len(st.value.args) == 1 and not st.value.keywords:
            table, value = st.value.func.value.id, st.value.args[0]
        words = set(table.lower().split("_"))
        if not isinstance(value, ast.Dict) or not tool_word(table) or words & _NOT_RUN_WORDS:
            continue
        pairs = [(literal_str(k) if k is not None else None, v) for k, v in zip(value.keys, value.values)]
        if len(pairs) >= 2 and all(k and isinstance(v, (ast.Name, ast.Attribute)) for k, v in pairs):
            out += [(table, k, v) for k, v in pairs if k]
    return out


def _dispatched(index: Index, own_roots: frozenset[str], aliased: Mapping[str, ast.expr]) -> Iterator[tuple[str, str]]:
    """A ``{"name": fn}`` dict beside the file's tool schemas (``dispatch.dispatched_pairs``) whose every function is
    of this module (a lambda calling one: ``lambda a: _read_file(a["path"])``) or imported from another module of the
    run: (the imported one's qualified name, the tool name)."""
    schema_names = tool_schema_names(index.tree)
    for d in (n for n in ast.walk(index.tree) if isinstance(n, ast.Dict)) if schema_names else ():
        pairs = dispatched_pairs(d, schema_names)
        outside = [(_outside(v, index, own_roots, aliased), k) for k, v in pairs]
        if pairs and all(qn is not None or (isinstance(v, ast.Name) and v.id not in index.imports and any(
                e[0] == v.id for e in index.defs)) or _local_lambda(v, index) for (qn, _), (_, v) in zip(outside, pairs)):
            yield from ((qn, k) for qn, k in outside if qn is not None)


def _local_lambda(value: ast.expr, index: Index) -> bool:
    """``lambda a: _run_bash(a["command"])``: a lambda whose body calls a module-level function of this module."""
    func = value.body.func if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call) else None
    return isinstance(func, ast.Name) and func.id not in index.imports and any(e[0] == func.id for e in index.defs)


def module_sequences(index: Index) -> dict[str, tuple[str, ...]]:
    """The module's top-level tuples and lists of names (``PLAN_TOOLS = (validate, publish)``), each element
    qualified through the module's own definitions and imports, and its ``__all__`` (the names it exports)."""
    out: dict[str, tuple[str, ...]] = {}
    own = {s.name for s in index.tree.body if isinstance(s, FUNCS)}
    for stmt in index.tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Dict) and len(stmt.value.keys) >= 2 \
                and all(isinstance(v, ast.Name) and v.id in own for v in stmt.value.values):
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):  # a table of the module's functions (``HANDLERS = {NAME: handle}``)
                    out[f"{index.module}.{target.id}"] = tuple(
                        f"{index.module}.{v.id}" for v in stmt.value.values if isinstance(v, ast.Name))
            continue
        if isinstance(stmt, FUNCS) and (table := _returned_table(stmt, index)) is not None:
            out[f"{index.module}.{stmt.name}"] = table  # s51: ``def handler_for(name): return TOOL_HANDLERS[name]``
            continue
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, (ast.List, ast.Tuple))):
            continue
        for target in stmt.targets:
            if not isinstance(target, ast.Name):
                continue
            names: list[str] = []
            for el in stmt.value.elts:
                if target.id == "__all__" and isinstance(el, ast.Constant) and isinstance(el.value, str):
                    names.append(f"{index.module}.{el.value}")
                elif isinstance(el, ast.Name) and el.id in own:
                    names.append(f"{index.module}.{el.id}")
                elif isinstance(el, ast.Starred) and isinstance(el.value, (ast.Name, ast.Attribute)) \
                        and (qn := index.qualname(el.value)) is not None:
                    names.append("*" + qn)  # s57: another sequence spread into it, expanded by :func:`.adoption.adopted`
                elif isinstance(el, (ast.Name, ast.Attribute)) and (qn := index.qualname(el)) is not None:
                    names.append(qn)
            if names:
                out[f"{index.module}.{target.id}"] = tuple(names)
    return out


def _returned_table(fn: ast.AST, index: Index) -> tuple[str, ...] | None:
    """The functions of a module-level table named for tools (``TOOL_HANDLERS = {"read": read, ...}``, in a read-only
    view too: ``MappingProxyType({...})``) that ``fn`` returns by its every ``return`` of ``TABLE[name]``, each qualified
    through the module's definitions and imports; None when it returns anything else."""
    returns = [n.value for n in own_nodes(fn) if isinstance(n, ast.Return)]
    tables = {v.value.id for v in returns if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name)}
    if not returns or len(tables) != 1 or not all(isinstance(v, ast.Subscript) for v in returns):
        return None
    table = tables.pop()
    for stmt in index.tree.body:
        value = stmt.value if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == table
                                                                   for t in stmt.targets) else None
        if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
            value = value.args[0]  # ``MappingProxyType({...})``, ``dict({...})``
        if isinstance(value, ast.Dict) and tool_word(table) and len(value.values) >= 2 \
                and all(isinstance(v, ast.Name) for v in value.values):
            own = {s.name for s in index.tree.body if isinstance(s, FUNCS)}
            return tuple(f"{index.module}.{v.id}" if v.id in own else index.qualname(v) or "" for v in value.values
                         if isinstance(v, ast.Name))
    return None


# --------------------------------------------------------------------------- names a loader injects

def injected_names(index: Index) -> dict[str, str]:
    """Names the run's loaders set on the modules they execute: a method of a class of this file that builds a module
    from a file (``module = importlib.util.module_from_spec(spec)``) and sets a name on it to its own object
    (``module.func = self``) before running it. -> {name: the class's qualified name}."""
    out: dict[str, str] = {}
    for path, _n, node, parents in index.defs:
        if not parents or not isinstance(parents[-1], ast.ClassDef):
            continue
        built = {t.id for n in ast.walk(node) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                 and (index.qualname(n.value.func) or "").endswith("importlib.util.module_from_spec")
                 for t in n.targets if isinstance(t, ast.Name)}
        for n in ast.walk(node) if built else ():
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == "self":
                for t in n.targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in built:
                        out[t.attr] = f"{index.module}.{path.rsplit('.', 1)[0]}"
    return out


def _bound_at_top(body: list[ast.stmt], out: set[str]) -> None:
    for stmt in body:
        if isinstance(stmt, (*FUNCS, ast.ClassDef)):
            out.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        else:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    out.add(n.id)
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    _bound_at_top([s for s in inner if isinstance(s, ast.stmt)], out)
            for handler in getattr(stmt, "handlers", []):
                _bound_at_top(handler.body, out)


def free_receivers(index: Index) -> frozenset[str]:
    """The names the module's decorators are attributes of (``@func.register_function(...)``) that nothing in the
    module binds (no import, assignment or definition; not a builtin): a loader may inject them."""
    import builtins

    heads = [d.func if isinstance(d, ast.Call) else d for s in index.tree.body if isinstance(s, FUNCS)
             for d in s.decorator_list]
    names = {h.value.id for h in heads if isinstance(h, ast.Attribute) and isinstance(h.value, ast.Name)}
    if not names:
        return frozenset()
    bound: set[str] = set()
    _bound_at_top(index.tree.body, bound)
    return frozenset(n for n in names if n not in bound and not hasattr(builtins, n))
