"""Discovery: every tool one file defines, form by form (decorators, module-based tools, tool classes, wrapper
calls, ``tools=[...]`` lists given to an agent, schemas dispatched by name), resolved through :class:`~.index.Index`."""

from __future__ import annotations

import ast
import re

from .. import knowledge as kb
from .catchalls import caller_runner, catching_decorator, dict_runner, getattr_runner, lookup_runner
from .ancestry import inherited, stub_run, tool_base
from .dispatch import (compared_names, dispatched_pairs, lookup_tables, matched_names, prefixed_methods,
                       registered_tool_class, returned_function, schema_functions, tool_runner, tool_schema_names)
from .index import FUNCS, Def, Index, default_name, direct_calls, helpers_of, literal_str, name_from_call, own_nodes, span, target_key, tool_list_arg
from .references import comprehended, resolve_ref
from .model import Tables
from .module_tools import module_tools
from .toolkits import MARKERS, MEMBERS, request_handlers, toolkit_methods
from .lowlevel import branch_handlers, listed_tool_names, looks_up
from .manifest import manifest_dispatcher, manifest_names
from .wrappers import decorator_text, wrapper_of, wrapper_text
from .handed import held_callables
from .spec_classes import spec_named
from .specs import attached_descriptions, spec_tools
from .registering import module_constant, registered_schemas
from .factories import applied, dispatch_targets, made
from .applied_calls import helper_calls, tool_helpers
from .registries import (CALLABLE_WORDS, Entry, callable_arg, only_wraps, verb_framework,
                         registry_decorators, registry_name, registry_of, _wraps)
from .handing import handed_args
from .jsonrpc import add_answered
from .proxies import proxy_rows
from .applied_registries import applied_registries
from .registry_text import handed_text, module_text
from .madedecorators import made_decorator, made_decorators
from .decorator_frameworks import activity_framework, decorator_registry, framework_of

__all__ = ["discover"]

#: frameworks whose tool decorator takes the description first (``@registry.action("Go back")``)
_DESCRIPTION_FIRST = frozenset({"browser-use", "semantic-kernel"})
#: frameworks whose tool decorator takes the name by keyword only (strands: the first positional is the function)
_NAME_BY_KEYWORD = frozenset({"strands", "inspect-ai", "livekit", "lovia", "agent-framework"})
#: frameworks whose tool classes name themselves by a ``tool_name`` property (strands ``AgentTool``)
_NAMED_BY_PROPERTY = frozenset({"strands"})


def _class_tool_name(cls: ast.ClassDef, framework: str = "", module: ast.Module | None = None) -> str:
    """The name a tool class gives itself: a literal ``name``/``NAME`` in its body, or a module-level constant of this
    file holding one (``name: str = FINAL_RESULT_TOOL`` with ``FINAL_RESULT_TOOL = "final_result"``; ``module``: the
    file's tree), a literal ``name`` property (``tool_name``: strands); else the class's own name."""
    for stmt in cls.body:
        target: ast.AST | None = None
        value: ast.AST | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        # ``NAME: ClassVar[str] = "Read"`` (wizolt); a langroid ``ToolMessage`` is named by ``request: str = "search"``
        if isinstance(target, ast.Name) and (target.id in ("name", "NAME") or framework == "langroid"
                                             and target.id == "request"):
            text = literal_str(value) or (module_constant(module, value.id) if isinstance(value, ast.Name) else None)
            if text:
                return text
    for stmt in cls.body:  # a ``name`` property returning a literal (``tool_name``: strands)
        if isinstance(stmt, FUNCS) and stmt.body and (stmt.name == "tool_name" and framework in _NAMED_BY_PROPERTY or (
                stmt.name == "name" and any(ast.unparse(d) == "property" for d in stmt.decorator_list))):
            last = stmt.body[-1]
            text = literal_str(last.value) if isinstance(last, ast.Return) else None
            if text:
                return text
    return cls.name


def _described_name(cls: ast.ClassDef) -> str | None:
    """s56: the name a tool protocol's implementer gives itself in what describes it to the model: a ``tool_id``/
    ``tool_name`` property's literal, or ``name=`` of the spec a property returns or an attribute holds (``return
    ToolSchema(name="web_fetch", ...)``, ``spec = ToolSpec(name="read_file", ...)``, ``self.spec = ToolSpec(...)``)."""
    init = next((s.body for s in cls.body if isinstance(s, FUNCS) and s.name == "__init__"), [])
    for stmt in [*cls.body, *init]:  # s56: a schema property or attribute naming it (``return ToolSchema(name=
        value = None  # "web_fetch", ...)``, ``spec = ToolSpec(name="read_file", ...)``, ``self.spec = ToolSpec(...)``)
        if isinstance(stmt, FUNCS) and stmt.body and stmt.name in _ID_PROPERTIES \
                and any(ast.unparse(d) == "property" for d in stmt.decorator_list):  # ``def tool_id(self): return "x"``
            last = stmt.body[-1]
            text = literal_str(last.value) if isinstance(last, ast.Return) else None
            if text:
                return text
        if isinstance(stmt, FUNCS) and stmt.body and any(w in stmt.name.lower() for w in _NAMING_PROPERTIES) \
                and any(ast.unparse(d) == "property" for d in stmt.decorator_list):
            last = stmt.body[-1]
            value = last.value if isinstance(last, ast.Return) else None
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and any(
                w in (t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute)
                      and isinstance(t.value, ast.Name) and t.value.id == "self" else "").lower()
                for t in stmt.targets for w in _NAMING_PROPERTIES):
            value = stmt.value
        if value is not None:
            named = next((k.value for k in value.keywords if k.arg == "name"), None) if isinstance(value, ast.Call) \
                else None
            text = literal_str(named) if named is not None else None
            if text:
                return text
    return None


#: the words of a property that describes a tool to the model, naming it (``schema``, ``definition``, ``spec``)
_NAMING_PROPERTIES = ("schema", "definition", "spec")
#: properties naming a tool by a literal, whatever its framework (zall's ``tool_id``)
_ID_PROPERTIES = frozenset({"tool_id", "tool_name"})


def discover(index: Index, tables: Tables) -> list[Def]:
    """Every tool the file defines (``tables.bases`` holds the project's tool classes too)."""
    found: dict[tuple[str, int], Def] = {}
    by_path: dict[str, list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]]] = {}
    for entry in index.defs:
        by_path.setdefault(entry[0], []).append(entry)

    def enclosing_class(parents: tuple[ast.AST, ...]) -> str | None:
        if parents and isinstance(parents[-1], ast.ClassDef):
            names = [p.name for p in parents]  # type: ignore[attr-defined]
            return ".".join(names)
        return None

    dispatchers: dict[str, dict[str, str]] = {}  # class path -> its inherited text dispatchers

    def caught_by(functions: list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]], given: bool) -> str | None:
        """The base method that runs these methods in a ``try`` turning their exceptions into text (``given``:
        the framework hands them to it, ``@activity`` style, rather than calling them by name)."""
        for _path, _n, node, parents in functions:
            owner = enclosing_class(parents)
            if owner is None:
                continue
            if owner not in dispatchers:
                dispatchers[owner] = inherited(owner, index, tables.text_dispatch)
            table = dispatchers[owner]
            hit = table.get(node.name) or (table.get("*") if given else None)  # type: ignore[attr-defined]
            if hit is not None:
                return hit
        return None

    def add(name: str, framework: str, form: str, functions: list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]],
            line: int, qualname: str, by_name: bool = False, given: bool = False, text_by: str | None = None,
            spans: tuple[tuple[int, int], ...] | None = None) -> None:
        key: tuple[str, int] = (functions[0][0], functions[0][1])
        if by_name:  # several tools run by one dispatcher (``@server.call_tool()``, a dispatch dict)
            key = (f"{functions[0][0]}:{name}", functions[0][1])
        if key in found:
            return
        helpers: list[tuple[str, int, ast.AST]] = []
        for path, _n, node, parents in functions:
            for h in helpers_of(node, index, enclosing_class(parents)):
                if all(h[0] != f[0] for f in functions) and all(h[0] != x[0] for x in helpers):
                    helpers.append(h)
        found[key] = Def(
            name, framework, form, qualname, line,
            tuple((p, n) for p, n, _, _ in functions),
            spans or tuple(span(node) for _, _, node, _ in functions),
            tuple(span(node) for _, _, node in helpers),
            tuple((p, n) for p, n, _ in helpers),
            catching_decorator(functions[0][2], form, index) or caught_by(functions, given) or text_by,
        )

    # decorators: @tool, @tool("name"), @mcp.tool(...), @agent.tool_plain, @read_safe, a project's registry decorator
    listed = listed_tool_names(index)
    looked_up: set[tuple[str, int]] = set()  # rows of a dispatcher looking the called name up in a table
    chosen: dict[str, tuple[ast.AST, str]] = {}  # each registry's registering def and its function parameter
    decorated = any(getattr(e[2], "decorator_list", None) for e in index.defs)
    local = registry_decorators(index, tables.decorators, chosen) if decorated else {}
    made_by = made_decorators(index, tables.decorators) if decorated else {}  # ``def _tool(a): return mcp.tool(...)``
    registering = {id(fn): param for fn, param in chosen.values()}
    for entry in index.defs:
        path, n, node, parents = entry
        for dec in node.decorator_list:  # type: ignore[attr-defined]
            call = dec if isinstance(dec, ast.Call) else None
            by_factory = made_decorator(dec, parents, made_by, index) if made_by else None
            qn = by_factory or index.qualname(call.func if call is not None else dec)
            if qn is None and isinstance(head := call.func if call is not None else dec, ast.Name) \
                    and f"{index.module}.{head.id}" in tables.decorators:  # the framework's own module (llamabot's tools)
                qn = f"{index.module}.{head.id}"
            framework = tables.decorators.get(qn or "")
            if framework is None:
                framework = None if only_wraps(qn, tables.wrapping) else activity_framework(qn, parents, index, tables, call)
            if framework is None and qn is None:  # ``@agent.tool`` on an untyped ``agent`` parameter (an ``mcp``: the
                framework = verb_framework(call.func if call is not None else dec, index)  # run's MCP server's text)
            registry = None if framework is not None else decorator_registry(dec, qn, path, parents, local, index, tables)
            if registry is not None:  # a project's own registry decorator (``@mcp_for_unity_tool(...)``)
                head = call.func if call is not None else dec
                own = qn[len(index.module) + 1:] if qn and qn.startswith(index.module + ".") else ""
                add(registry_name(call, registry) or node.name, registry[0], f"@{ast.unparse(head)}",  # type: ignore[attr-defined]
                    [entry], span(node)[0], f"{index.module}.{path}", given=True,
                    text_by=(_handed_text(chosen[own][0], index, tables) or module_text(index) if own in chosen
                             else tables.registry_text.get((registry_of(qn, tables.registries) or ("",))[0]))
                    or (tables.server_text if registry[0] == "mcp" else None))  # a nested ``def tool()`` handing to ``mcp``
                break
            if framework is None:
                continue
            if (qn or "").endswith(".call_tool") and framework == "mcp":
                head = call.func if call is not None else dec
                handlers, lookup = branch_handlers(node, index) if listed else {}, looks_up(node)
                for tool_name in listed or ([] if lookup else [node.name]):  # type: ignore[attr-defined]
                    runs = handlers.get(tool_name)  # the module function its branch hands the call to, else itself
                    add(tool_name, framework, f"@{ast.unparse(head)}", [runs or entry], span((runs or entry)[2])[0],
                        f"{index.module}.{(runs or entry)[0]}", by_name=True,
                        text_by=wrapper_text(tables.aliases.get(qn or "", qn), call))
                    looked_up.update([(f"{entry[0]}:{tool_name}", entry[1])] if lookup and runs is None else [])
                break
            name = (name_from_call(call, positional=framework not in _DESCRIPTION_FIRST | _NAME_BY_KEYWORD and not by_factory)
                    or default_name(call, parents)
                    if call is not None and framework != "runtime" else None) or node.name  # type: ignore[attr-defined]
            head = call.func if call is not None else dec
            if qn in kb.TOOL_FACTORY_DECORATORS:  # the tool is the function the factory returns
                inner = returned_function(entry, index)
                if inner is not None:
                    add(name, framework, f"@{ast.unparse(head)} factory", [inner], span(node)[0],
                        f"{index.module}.{inner[0]}", given=True)
                    break
            add(name, framework, f"@{ast.unparse(head)}", [entry], span(node)[0], f"{index.module}.{path}", given=True,
                text_by=wrapper_text(tables.aliases.get(qn or "", qn), call)
                or (tables.server_text if qn is None and framework == "mcp" else None))
            break

    # a tool decorator on a class (metagpt ``@register_tool()`` class): its public methods run it; a project's own
    # registry (``@register_tool("browser") class BrowserTool(BaseTool)``) after the tool classes found by their
    # base (those keep their rows), by the name it registers and its entry point (``call``, ``run``...)
    def decorated_classes(project: bool) -> None:
        for cls_path, cls in index.classes:
            for dec in cls.decorator_list:
                qn = index.qualname(dec.func if isinstance(dec, ast.Call) else dec)
                framework = None if project and only_wraps(qn, tables.wrapping) \
                    else registered_tool_class(qn, cls, index, tables) if project and qn not in tables.decorators \
                    else None if project else tables.decorators.get(qn or "")
                if framework is None or framework == "runtime":
                    continue
                members = [by_path[f"{cls_path}.{s.name}"][0] for s in cls.body
                           if isinstance(s, FUNCS) and not s.name.startswith("_") and f"{cls_path}.{s.name}" in by_path]
                runs = [m for m in members if m[0].rsplit(".", 1)[-1] in _CLASS_RUN_METHODS]
                members = runs or members if project else members
                named = name_from_call(dec) if project and isinstance(dec, ast.Call) else None
                if members:
                    add(named or _class_tool_name(cls), framework,
                        f"@{ast.unparse(dec.func if isinstance(dec, ast.Call) else dec)} class",
                        members, cls.lineno, f"{index.module}.{cls_path}")
                break

    decorated_classes(project=False)

    # module-based tools (strands ``TOOL_SPEC`` + the function named after the module), unless the module
    # holds decorated tools of the same framework: the loader takes those instead
    for framework, tool_name, entry in module_tools(index):
        if not any(d.framework == framework and d.form.startswith("@") for d in found.values()):
            add(tool_name, framework, "TOOL_SPEC module", [entry], span(entry[2])[0], f"{index.module}.{entry[0]}")

    # subclasses of tool base classes (through other classes of this file too)
    bases = dict(tables.bases)
    hits: dict[str, tuple[str, tuple[str, tuple[str, ...]]]] = {}  # class path -> (base's last name, (framework, methods))
    changed = True
    while changed:
        changed = False
        for cls_path, cls in index.classes:
            if cls_path in hits:
                continue
            own = f"{index.module}.{cls_path}"
            if own in tables.bases and own not in tables.project:
                continue  # a framework's own tool base class (``smolagents.tools.PipelineTool``): not a tool
            if own in tables.bases and index.bases(cls):  # found a tool class by the run's class index
                hits[cls_path] = (index.bases(cls)[0].rsplit(".", 1)[-1], tables.bases[own])
                changed = True
                continue
            if own in tables.bases and own in tables.protocols:  # s56: a tool protocol's implementer (no base)
                hits[cls_path] = (tables.protocols[own].rsplit(".", 1)[-1], tables.bases[own])
                changed = True
                continue
            for b in index.bases(cls):
                if b in bases:
                    hits[cls_path] = (b.rsplit(".", 1)[-1], bases[b])
                    bases[f"{index.module}.{cls_path}"] = bases[b]
                    changed = True
                    break
    for cls_path, cls in index.classes:
        if cls_path not in hits:
            continue
        base_name, (framework, methods) = hits[cls_path]
        if methods and methods[0] in MARKERS and (len(methods) == 1 or methods[0] == MEMBERS):
            for m in toolkit_methods(cls, methods[0], index.imports, methods[1:]):
                fns = by_path.get(f"{cls_path}.{m}")
                if fns:
                    add(m, framework, f"{base_name} method", [fns[0]], span(fns[0][2])[0], f"{index.module}.{cls_path}.{m}",
                        given=True, text_by=kb.TOOLSET_TEXT.get(framework) if methods[0] == MEMBERS else None)
            continue
        fns = [by_path[f"{cls_path}.{m}"][0] for m in methods if f"{cls_path}.{m}" in by_path]
        # none of its own: the run methods of a base of this file it derives from (``_SendMessageBase.invoke``
        # running the subclass's ``_dispatch``), a row per subclass
        inherits = not fns
        fns = fns or _base_runs(cls_path, methods, index, by_path, framework) or [by_path[p][0] for p in request_handlers(
            cls, kb.TOOL_REQUEST_FIELDS.get(framework, ""), index.classes) if p in by_path]  # an agent method (langroid)
        if fns and not _ADAPTER_CLASS.search(cls.name) and not _delegates(cls, fns, index) and not tool_base(
                cls, [f[2] for f in fns], _class_tool_name(cls, framework) != cls.name, CALLABLE_WORDS):
            linked = f"{index.module}.{cls_path}" in tables.protocols
            kind = "protocol" if linked and not index.bases(cls) else "subclass"
            own_name = _class_tool_name(cls, framework, index.tree)
            add((_described_name(cls) or own_name) if linked and own_name == cls.name else own_name, framework,
                f"{base_name} {kind}", fns, cls.lineno,
                f"{index.module}.{cls_path}", by_name=inherits)

    decorated_classes(project=True)

    # wrapper calls (FunctionTool.from_defaults(fn=f), FunctionTool(self.m)) and tools=[f, g] lists
    lasts = {q.rsplit(".", 1)[-1] for q in (*tables.wrappers, *tables.lists)} | kb.TOOL_LIST_METHODS.keys()
    agents = any(str(c).endswith(_AGENT_SUFFIX) for c in index.call_names)
    aliased = any(str(c).endswith("Tool") for c in index.call_names)  # ``PythonAgentTool as StrandTool``
    scopes = [("", 0, index.tree, ()), *index.defs] if agents or aliased or index.call_names & lasts else []
    for entry_path, _n, fn_node, parents in scopes:
        owner = enclosing_class(parents) if fn_node is not index.tree else None
        for call in direct_calls(fn_node):
            qn = index.qualname(call.func)
            if qn is None and owner is not None and isinstance(call.func, ast.Attribute) \
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == "self":
                qn = f"{index.module}.{owner}.{call.func.attr}"  # a base's method (``self._add_tool(method=...)``)
            if qn is None:
                continue
            refs: list[tuple[ast.AST, str, str]] = []
            wrapper = wrapper_of(qn, index, tables.wrappers)  # or the classmethod of a subclass's framework base
            if wrapper is not None:
                qn, (framework, keyword, position) = wrapper
                args = handed_args(call, position, keyword, index.lists)
                if not args and not keyword.startswith("*") and not keyword.endswith("]"):  # another release's keyword (strands ``callback=f``)
                    args = [a for a in (callable_arg(call),) if a is not None]
                parts = qn.split(".")
                form = ".".join(parts[-2:]) if parts[-1].startswith("from_") else parts[-1]
                for handed in args:
                    refs.extend((el, framework, form) for el in comprehended(
                        handed, call, fn_node, index.local_classes.get(owner) if owner is not None else None, index.lists))
            elif qn in tables.lists or qn.rsplit(".", 1)[-1].endswith(_AGENT_SUFFIX) \
                    or qn.rsplit(".", 1)[-1] in kb.TOOL_LIST_METHODS:
                list_method = kb.TOOL_LIST_METHODS.get(qn.rsplit(".", 1)[-1])
                framework = tables.lists.get(qn) or (list_method[0] if list_method else framework_of(qn))
                arg = tool_list_arg(call, qn)
                elts = _list_elements(arg, index, entry_path if fn_node is not index.tree else "")
                keyword = kb.TOOL_LIST_ARGUMENTS[qn][0] if qn in kb.TOOL_LIST_ARGUMENTS \
                    else list_method[1] if list_method else "tools"
                refs.extend((el, framework, f"{qn.rsplit('.', 1)[-1]}({keyword}=[...])") for el in elts)
            for ref, framework, form in refs:  # a function of this module, or the one a factory of it makes
                target = made(ref, index, entry_path if fn_node is not index.tree else "", owner)
                if target is not None:
                    name = name_from_call(call) if qn in tables.wrappers else None
                    tpath = target[0]
                    add(name or tpath.rsplit(".", 1)[-1], framework, form, [target], span(target[2])[0],
                        f"{index.module}.{tpath}")

    # a tool decorator applied by a call (``mcp.tool(name="x")(self.method)``), a tool class built around a callable
    # of this module (``Tool(func_callable=search)``)
    decorator_lasts = {q.rsplit(".", 1)[-1] for q in tables.decorators} | kb.TOOL_REGISTRATION_VERBS.keys()
    project_lasts = {q.rsplit(".", 1)[-1] for q in tables.project}
    tool_calls = any(str(c).endswith("Tool") or str(c).rsplit(".", 1)[-1] in project_lasts or spec_named(str(c)) for c in index.call_names)
    if index.call_names & decorator_lasts or tool_calls:
        for scope in [("", 0, index.tree, ()), *index.defs]:
            owner = enclosing_class(scope[3]) if scope[2] is not index.tree else None
            for framework, call, head, target, row_name in applied(index, scope, owner, tables.decorators, tables.wrappers):
                if id(scope[2]) in registering and _wraps(target[2], registering[id(scope[2])]):
                    continue  # a registry decorator's wrapper of the function it is given: that function is the tool
                positional = call is not None and call.func is head and framework not in _DESCRIPTION_FIRST | _NAME_BY_KEYWORD
                name = row_name or (name_from_call(call, positional=positional) if call is not None and call.func is head
                                  else None)  # ``row_name``: one row of a literal table the decorator is applied over
                add(name or target[0].rsplit(".", 1)[-1], framework, f"{ast.unparse(head)}(...)", [target],
                    span(target[2])[0], f"{index.module}.{target[0]}", given=True, by_name=row_name is not None,
                    text_by=wrapper_text(tables.aliases.get(index.qualname(head) or "", index.qualname(head)), call)
                    or (tables.server_text if index.qualname(head) is None and framework == "mcp" else None))
            for cls_qn, form, target, literal in held_callables(index, scope, owner, tables.wrappers, tables.project) \
                    if tool_calls else ():
                if owner is not None and target[0].startswith(owner + ".") and _tool_class(owner, index, tables):
                    continue  # a tool class handing its own method to another framework's tool: its own row's adapter
                add(literal or target[0].rsplit(".", 1)[-1], framework_of(cls_qn), form, [target], span(target[2])[0],
                    f"{index.module}.{target[0]}")

    # a function of this file that makes a tool of the function it is given (``make_tool(fn)`` returning
    # ``Tool.from_function(fn)``): what its callers here hand it
    helpers = tool_helpers(index, tables.decorators, tables.wrappers, tables.project)
    for scope in [("", 0, index.tree, ()), *index.defs] if helpers else ():
        owner = enclosing_class(scope[3]) if scope[2] is not index.tree else None
        for call, helper, (_pos, param, framework, _form), target in helper_calls(index, scope, owner, helpers):
            add(name_from_call(call, positional=False) or target[0].rsplit(".", 1)[-1], framework,
                f"{helper[0].rsplit('.', 1)[-1]}({param}=...)", [target], span(target[2])[0],
                f"{index.module}.{target[0]}")

    # tool schemas dispatched by name: a ``{"name": fn}`` dict beside the JSON schemas of the tools it names
    schema_names = tool_schema_names(index.tree)
    if schema_names:
        for entry_path, _n, fn_node, parents in [("", 0, index.tree, ()), *index.defs]:
            owner = enclosing_class(parents) if fn_node is not index.tree else None
            for d in _direct_nodes(fn_node, ast.Dict):
                pairs = dispatched_pairs(d, schema_names)
                if not pairs:
                    continue
                targets = dispatch_targets(pairs, index, entry_path if fn_node is not index.tree else "", owner)
                if targets is None:
                    continue  # a table of values, not of functions
                # a table (``TOOL_FUNCS = {...}``, or a local dict) its runner calls in a ``try`` answering text
                table_run = dict_runner(d, fn_node, entry_path, index) or lookup_runner(index)
                for k, fn_entry in targets:
                    add(k, "schema", "dispatch dict", [fn_entry], span(fn_entry[2])[0], f"{index.module}.{fn_entry[0]}", by_name=True,
                        text_by=table_run)

    # methods a class runs by the called name: ``getattr(self, f"_execute_tool_{name}")``
    for cls_path, cls in index.classes:
        prefix, named_methods = prefixed_methods(cls, index.tree, schema_names)
        run = getattr_runner(cls_path, prefix, index) if named_methods else None  # its ``try`` answering text
        for method in named_methods:
            entries = by_path.get(f"{cls_path}.{method.name}")
            if entries:
                add(method.name[len(prefix):], "dispatch", f'getattr(self, f"{prefix}{{name}}")' if prefix else "getattr(self, name)", [entries[0]],
                    span(method)[0], f"{index.module}.{entries[0][0]}", text_by=run)
    # a table of functions a tool-call handler indexes by the call's name (``self._lookup = {"cat": self.cat, ...}``,
    # ``self._lookup[name](arguments)`` with ``name = tool_call.function.name``, in this class or an ancestor)
    for cls_path, cls in index.classes:
        for attr, assigner, table in lookup_tables(cls_path, cls, index, tables):
            looked = [(k, resolve_ref(v, index, f"{cls_path}.{assigner}", cls_path)) for k, v in table]
            if any(t is None for _, t in looked):
                continue  # a table of values, not of functions
            for k, t in looked:
                assert t is not None
                add(k, "dispatch", f"self.{attr}[name]", [t], span(t[2])[0], f"{index.module}.{t[0]}", by_name=True)
    # a ``match`` on the called name: a row per string case, run by the function the case defines (else by
    # the dispatching function, every case's code together)
    for entry in index.defs:
        for tool_name, (line, end), nested in matched_names(entry[2]):
            runner = [e for e in index.defs if any(e[2] is d for d in nested)][:1]
            add(tool_name, "dispatch", "match on the called name", runner or [entry], line,
                f"{index.module}.{(runner or [entry])[0][0]}", by_name=True,
                spans=None if runner else ((line, end),),  # findings: the case's own lines
                text_by=caller_runner(entry[0], index))  # a caller's ``try`` answering text
    # ``if tool_name == "mem0_search":`` branches naming the module's tool schemas: a row per name, run by the
    # dispatching function (findings: the branch's lines)
    for entry in index.defs:  # or a function named to run tools (``run_tool(tool_name, arguments)``)
        if not schema_names and not tool_runner(entry[2]):
            continue
        named = {d.name for d in found.values() if not schema_names or d.form.endswith(".call_tool")}
        runs_tools = index.tree if tool_runner(entry[2]) else None
        compared = compared_names(entry[2], schema_names or None, runs_tools)
        if schema_names and runs_tools is not None:  # a runner's branches naming tools no schema declares (no parameters)
            compared += [c for c in compared_names(entry[2], None, runs_tools) if c[0] not in {n for n, _ in compared}
                         and c[0] not in {d.name for d in found.values()}]
        for tool_name, lines in compared:
            if tool_name in named:
                continue  # a low-level server's ``call_tool`` branch its listed names already gave a row
            add(tool_name, "dispatch", "if on the called name", [entry], entry[2].lineno,  # type: ignore[attr-defined]
                f"{index.module}.{entry[0]}", by_name=True, spans=(lines,),
                text_by=decorator_text(entry[2], index, tables.aliases)  # ``@server.call_tool()``'s ``str(exc)``
                or caller_runner(entry[0], index))  # or a caller's ``try`` answering text (mosaic's ``handle()``)
            if (itself := (f"{entry[0]}:{getattr(entry[2], 'name', '')}", entry[1])) in found \
                    and found[itself].form.endswith(".call_tool"):  # a dispatcher listing no name: its branches are the rows
                del found[itself]
    # the module's own tool schemas naming its own functions (``TOOL_DEFS = [{..."name": "web_fetch"...}]``, ``def web_fetch``)
    for tool_name, fn_name in schema_functions(index.tree):
        if tool_name not in {d.name for d in found.values()} and by_path.get(fn_name):
            t = by_path[fn_name][0]
            add(tool_name, "schema", "module schema + function", [t], span(t[2])[0], f"{index.module}.{fn_name}", by_name=True)
    # a JSON tool manifest beside the module, dispatched by a function comparing the called name with its names
    manifest, listed_names = manifest_names(index) if index.screen.path else ("", [])
    runner_entry = manifest_dispatcher(index, set(listed_names)) if listed_names else None
    if runner_entry is not None:
        for tool_name in listed_names:
            add(tool_name, "dispatch", f"{manifest} manifest", [runner_entry], runner_entry[2].lineno,  # type: ignore[attr-defined]
                f"{index.module}.{runner_entry[0]}", by_name=True)
    # tool spec dicts holding the function they run (``{"description": ..., "input_schema": ..., "function": f}``)
    # (or handed to a registry beside its function: ``registry.register(_SCHEMA_RUN, _handle_run)``)
    for entry_path, _n, fn_node, parents in [("", 0, index.tree, ()), *index.defs]:
        for tool_name, ref, _line, form in (*((*s, "tool spec dict") for s in spec_tools(fn_node)),
                                            *registered_schemas(fn_node, index.tree)):
            target = made(ref, index, entry_path if fn_node is not index.tree else "",
                          enclosing_class(parents) if fn_node is not index.tree else None)
            if target is not None:
                add(tool_name, "schema", form, [target], span(target[2])[0], f"{index.module}.{target[0]}")
    # a tool description given to a function as an attribute (``upload.tool_info = {"tool_name": ..., ...}``)
    if any(isinstance(b, ast.Assign) and isinstance(b.value, ast.Dict) and isinstance(b.targets[0], ast.Attribute)
           for b in index.screen.binders):
        for entry_path, _n, fn_node, parents in [("", 0, index.tree, ()), *index.defs]:
            for ref, tool_name, attr in attached_descriptions(fn_node):
                target = resolve_ref(ref, index, entry_path if fn_node is not index.tree else "", None)
                if target is not None:
                    add(tool_name, "schema", f".{attr} description", [target], span(target[2])[0],
                        f"{index.module}.{target[0]}")
    for registry, dec, target in applied_registries(index, lambda d, q, p, ps: decorator_registry(d, q, p, ps, local, index, tables)):
        add(registry_name(dec, registry) or target[0].rsplit(".", 1)[-1], registry[0], f"{ast.unparse(dec.func)}(...)", [target],
            span(target[2])[0], f"{index.module}.{target[0]}", given=True)  # ``audited_tool(mcp, "x")(self.x)``
    # a hand-written server's ``tools/call`` answer (``jsonrpc.py``): its branches and tables, names no other form gave
    add_answered(index, by_path, add, {d.name for d in found.values()})
    # a proxy: the function handing the model's calls on to a remote MCP server's tools (``proxies.py``), one row
    for entry, tool_name, form in proxy_rows(index):
        add(tool_name, "proxy", form, [entry], span(entry[2])[0], f"{index.module}.{entry[0]}")
    # a dispatcher's row of a name the table it looks up gave a row of its own (``_TOOL_HANDLERS.get(name)``): one row
    others = {d.name for k, d in found.items() if k not in looked_up}
    return sorted((d for k, d in found.items() if k not in looked_up or d.name not in others), key=lambda d: d.line)


#: the methods that run a tool class a project's own registry decorates, when it defines one of them
_CLASS_RUN_METHODS = frozenset({"call", "run", "arun", "execute", "invoke", "forward", "__call__"})

#: a tool class named so adapts a tool it is given (``LangChainToolAdapter``, ``SpaceToolWrapper``): no row
_ADAPTER_CLASS = re.compile(r"(Adapter|Wrapper|Proxy)$")

#: a call whose callee's last name ends so takes a ``tools=`` list (``Agent``, ``AssistantAgent``)
_AGENT_SUFFIX = "Agent"


def _delegates(cls: ast.ClassDef, runs: list[Entry], index: Index) -> bool:
    """A tool class built around another tool that only hands each run on to it: ``__init__`` keeps a parameter
    annotated with one of the class's own bases (``def __init__(self, inner: Tool, alias: str): self._inner = inner``)
    and every run method of the class is ``return [await] self._inner.<that method>(...)`` (an alias of a tool the
    model already has: no row of its own)."""
    init = next((s for s in cls.body if isinstance(s, FUNCS) and s.name == "__init__"), None)
    if init is None:
        return False
    bases = set(index.bases(cls))
    typed = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)
             if a.annotation is not None and index.qualname(a.annotation) in bases}
    kept = {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name)
            and n.value.id in typed for t in n.targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    if not kept:
        return False
    for _path, _n, fn, _parents in runs:
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]  # type: ignore[attr-defined]
        ret = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
        ret = ret.value if isinstance(ret, ast.Await) else ret
        f = ret.func if isinstance(ret, ast.Call) else None
        if not (isinstance(f, ast.Attribute) and f.attr == fn.name and isinstance(f.value, ast.Attribute)  # type: ignore[attr-defined]
                and f.value.attr in kept and isinstance(f.value.value, ast.Name) and f.value.value.id == "self"):
            return False
    return True


def _handed_text(fn: ast.AST, index: Index, tables: Tables) -> str | None:
    return handed_text(fn, index, tables.decorators, tables.aliases)


def _base_runs(cls_path: str, methods: tuple[str, ...], index: Index, by_path: dict[str, list[Entry]],
               framework: str) -> list[Entry]:
    """The run methods a tool class inherits from a tool *base* of the same file (a class :func:`tool_base`
    judges a base: ``_SendMessageBase(TeamTool, ABC)``), with the class's own methods they call on ``self``."""
    seen: set[str] = set()
    todo = [cls_path]
    while todo:
        cls = index.local_classes.get(todo.pop(0))
        for base in index.bases(cls) if cls is not None else []:
            path = base[len(index.module) + 1:] if base.startswith(index.module + ".") else ""
            anc = index.local_classes.get(path)
            if anc is None or path in seen:
                continue
            seen.add(path)
            runs = [by_path[f"{path}.{m}"][0] for m in methods if f"{path}.{m}" in by_path]
            if not runs:
                todo.append(path)
                continue
            if not tool_base(anc, [r[2] for r in runs], _class_tool_name(anc, framework) != anc.name, CALLABLE_WORDS) \
                    or all(stub_run(r[2]) for r in runs):
                return []
            called = {n.func.attr for r in runs for n in ast.walk(r[2]) if isinstance(n, ast.Call)
                      and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                      and n.func.value.id == "self"}
            return runs + [by_path[f"{cls_path}.{m}"][0] for m in sorted(called) if f"{cls_path}.{m}" in by_path]
    return []


def _list_elements(arg: ast.AST | None, index: Index, scope_path: str) -> list[ast.expr]:
    """``tools=[f, g]``, or ``tools=name`` / ``tools=self.tools`` where a list was assigned to that name."""
    if isinstance(arg, (ast.List, ast.Tuple)):
        return list(arg.elts)
    key = target_key(arg) if arg is not None else None
    if key is not None:
        return list(index.lists.get(key, []))
    return []


def _direct_nodes(node: ast.AST, kind: type[ast.Dict]) -> list[ast.Dict]:
    return [n for n in own_nodes(node) if isinstance(n, kind)]


def _tool_class(owner: str, index: Index, tables: Tables) -> bool:
    """The class ``owner`` (a path in this file) is a tool class: one of the run's, or derived from a tool base."""
    if f"{index.module}.{owner}" in tables.bases:
        return True
    cls = index.local_classes.get(owner)
    return cls is not None and any(b in tables.bases for b in index.bases(cls))
