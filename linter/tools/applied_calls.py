"""Tools a function's body makes by a call, for :mod:`.forms`, :mod:`.factories` and :mod:`.remote`: the file's tool
helpers (a function handing one of its parameters to a tool call: ``def make_tool(fn): return Tool.from_function(fn)``)
and their calls handing a function of the module, a tool decorator applied by a call (``mcp.tool(name="x")(self.m)``,
``function_tool(f)``), also once per element of a loop over a literal table (``for tool in CORE_TOOLS:
server.tool()(tool)``), and the loops a body binds a name over (``loops_of``). Split out of :mod:`.registries`, whose
predicates (``verb_framework``, ``own_receiver``, ``callable_arg``) these read."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping

from .handing import each_of_sequence, each_of_varargs, handed_args, sequence_items
from .index import FUNCS, Index, direct_calls, own_nodes
from .references import comprehended, handed_ref, resolve_ref
from .registries import (CALLABLE_WORDS, Entry, _params, _tool_class_name, _unwrapped, callable_arg, own_receiver,
                         verb_framework)

__all__ = ["Helper", "applied_decorators", "helper_calls", "loops_of", "tool_helpers"]

#: the words of a tool object's method that hands it the callable it runs (``tool.set_executor(fn)``,
#: ``tool.set_handler(fn)``)
_SETTING_WORDS = CALLABLE_WORDS | {"executor", "runner"}


#: a function that makes a tool of the function it is given: (its parameter's position or -1, the parameter's name,
#: the framework, the form of the tool call inside it)
Helper = tuple[int, str, str, str]


def tool_helpers(index: Index, decorators: Mapping[str, str], wrappers: Mapping[str, tuple[str, str, int | None]],
                 project: Collection[str]) -> dict[str, Helper]:
    """The file's functions that hand one of their parameters to a tool call (``def make_tool(fn): return
    Tool.from_function(fn)``, ``def _make_tool(*, name, func): return LocalFunction(card=..., func=func)``,
    ``mcp.tool()(fn)``): what their callers hand them at that parameter is the tool. -> {def path: Helper}."""
    out: dict[str, Helper] = {}
    for path, _n, node, parents in index.defs:
        method = bool(parents) and isinstance(parents[-1], ast.ClassDef)
        positional = _params(node, method)
        args = getattr(node, "args", None)
        names = set(positional) | ({a.arg for a in args.kwonlyargs} if isinstance(args, ast.arguments) else set())
        if not names:
            continue
        built: dict[str, str] | None = None  # names bound here to a tool object (``tool = Tool(name=name, ...)``)
        for call in direct_calls(node):
            inner = call.func if isinstance(call.func, ast.Call) else None
            qn = index.qualname(inner.func if inner is not None else call.func) or ""
            arg: ast.expr | None = None
            framework = ""
            f = call.func
            setter = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and bool(call.args) \
                and bool(set(f.attr.lower().split("_")) & _SETTING_WORDS)
            if setter and built is None:
                built = {t.id: q for a in own_nodes(node) if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
                         and (q := index.qualname(a.value.func) or "") and _tool_class_name(q, project)
                         for t in a.targets if isinstance(t, ast.Name)}
            owner = f.value.id if setter and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
            if built and owner in built:  # ``tool = Tool(name=name, ...); tool.set_executor(executor); return tool``
                qn = built[owner]
                framework, arg = qn.split(".")[0].replace("_", "-"), call.args[0]
            elif inner is None and qn in wrappers:
                framework, keyword, position = wrappers[qn]
                arg = next((k.value for k in call.keywords if k.arg == keyword), None)
                if arg is None and position is not None and len(call.args) > position:
                    arg = call.args[position]
            elif qn in decorators and decorators[qn] != "runtime" and call.args:  # function_tool(fn), x.tool()(fn)
                framework, arg = decorators[qn], _unwrapped(call.args[0], names)
            elif not qn and call.args and (verb := verb_framework(inner.func if inner is not None else call.func,
                                                                  index)) is not None:  # ``mcp.tool(name=n)(fn)``
                framework, arg = verb, _unwrapped(call.args[0], names)
            elif inner is None and qn and (_tool_class_name(qn, project) or qn.rsplit(".", 1)[-1].startswith("from_")
                                           and _tool_class_name(qn.rsplit(".", 1)[0], project)):
                # ``Tool(func=fn)``, a class method building one (``VectaraTool.from_defaults(fn=fn)``)
                framework, arg = qn.split(".")[0].replace("_", "-"), callable_arg(call)
            if isinstance(arg, ast.Name) and arg.id in names:
                last = qn.rsplit(".", 1)[-1]
                out[path] = (positional.index(arg.id) if arg.id in positional else -1, arg.id, framework, last)
                break
            if isinstance(arg, ast.Call) and framework:  # s57: ``for fn in tools: mcp.tool(_mcp_adapter(fn), ...)``
                arg = _unwrapped(arg)
            star = each_of_varargs(node, arg, call) if framework else None
            if star is not None:  # ``def add_screens(mcp, *fns): for fn in fns: mcp.add_tool(Tool.from_function(fn))``
                out[path] = (len(positional), "*" + star, framework, qn.rsplit(".", 1)[-1])
                break
            each = each_of_sequence(node, arg, call, names) if framework else None
            if each is not None:  # ``def register_tools(mcp, tools): for title, fn in tools: mcp.tool(title=title)(fn)``
                seq, item = each
                out[path] = (positional.index(seq) if seq in positional else -1, f"{seq}[{item}]", framework,
                             qn.rsplit(".", 1)[-1])
                break
    return out


def helper_calls(index: Index, scope: Entry | tuple[str, int, ast.AST, tuple[()]], owner: str | None,
                 helpers: Mapping[str, Helper]) -> Iterator[tuple[ast.Call, Entry, Helper, Entry]]:
    """Calls in ``scope`` of one of the file's tool helpers (:func:`tool_helpers`) handing it a function of this
    module at the parameter it makes a tool of (``_make_tool(name="cron_list_jobs", func=list_jobs)``).
    -> (the call, the helper, its Helper, the function)."""
    path, _n, node, _parents = scope
    scope_path = path if node is not index.tree else ""
    for call in direct_calls(node):
        helper = resolve_ref(call.func, index, scope_path, owner)
        if helper is None or helper[0] not in helpers or helper[2] is node:
            continue
        position, param, _framework, _form = helpers[helper[0]]
        for arg in handed_args(call, position, param, index.lists):
            for ref in comprehended(arg, call, node):  # ``for tool in [f, g]``
                target = resolve_ref(ref, index, scope_path, owner)
                if target is not None:
                    yield call, helper, helpers[helper[0]], target


def applied_decorators(index: Index, scope: Entry | tuple[str, int, ast.AST, tuple[()]], owner: str | None,
                       decorators: Mapping[str, str], wrappers: Mapping[str, object],
                       ) -> Iterator[tuple[str, ast.Call | None, ast.expr, Entry]]:
    """A tool decorator applied by a call to a function of this module: ``mcp.tool(name="x")(self.method)``
    (the decorator call, then the function), ``function_tool(f)`` (the function first; not a wrapper the tables
    know: that form finds it). -> (framework, the decorator's own call or None, its head, the function)."""
    path, _n, node, _parents = scope
    scope_path = path if node is not index.tree else ""
    looped: dict[str, list[ast.expr]] | None = None
    for call in direct_calls(node):
        if not call.args:
            continue
        inner = call.func if isinstance(call.func, ast.Call) else None
        head = inner.func if inner is not None else call.func
        qn = index.qualname(head)
        framework = decorators.get(qn or "") if qn is not None and not own_receiver(head, index) \
            else verb_framework(head, index, call)
        if framework is None or framework == "runtime" or (inner is None and qn in wrappers):
            continue
        refs: list[ast.expr] = [_unwrapped(handed_ref(call))]
        if isinstance(call.args[0], ast.Name):  # ``for tool in CORE_TOOLS: server.tool(...)(tool)``
            looped = _loop_elements(node, index) if looped is None else looped
            refs = looped.get(call.args[0].id, refs)
        for ref in refs:
            target = resolve_ref(ref, index, scope_path, owner)
            if target is not None:
                yield framework, inner if inner is not None else call, head, target


def loops_of(node: ast.AST) -> dict[str, list[ast.expr]]:
    """The iterables a ``for`` loop of this body (not of a nested definition) binds its one name over."""
    out: dict[str, list[ast.expr]] = {}
    stack = list(getattr(node, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, (ast.For, ast.AsyncFor)) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append(n.iter)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _loop_elements(node: ast.AST, index: Index) -> dict[str, list[ast.expr]]:
    """The functions a ``for`` loop of this body (not of a nested definition) binds its one name to, one by one: the
    elements of a literal list or tuple it iterates, or of one assigned to the name it iterates (``CORE_TOOLS``);
    a loop unpacking each item (``for title, fn in TOOLS:``, google-ecommerce-mcp's ``TOOLS = [("Plan: pause",
    gads_plan_pause_entities)]``) binds each of its names to that place of each tuple item."""
    out: dict[str, list[ast.expr]] = {}
    for name, iterables in loops_of(node).items():
        for it in iterables:
            elts = sequence_items(it, index.lists, self_attributes=True)
            if elts:
                out.setdefault(name, []).extend(elts)
    for name, place, it in _unpacking_loops(node):
        placed = [e.elts[place] for e in sequence_items(it, index.lists, self_attributes=True)
                  if isinstance(e, ast.Tuple) and place < len(e.elts)]
        if placed:
            out.setdefault(name, []).extend(placed)
    return out


def _unpacking_loops(node: ast.AST) -> Iterator[tuple[str, int, ast.expr]]:
    """(a name, its place, the iterable) of each ``for a, b in ...`` loop of this body (not of a nested definition)
    unpacking each item into names."""
    stack = list(getattr(node, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, (ast.For, ast.AsyncFor)) and isinstance(n.target, ast.Tuple) \
                and all(isinstance(t, ast.Name) for t in n.target.elts):
            for place, t in enumerate(n.target.elts):
                yield t.id, place, n.iter  # type: ignore[attr-defined]
        stack.extend(ast.iter_child_nodes(n))
