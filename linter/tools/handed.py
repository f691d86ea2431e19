"""Tool classes built around a callable of this module (``Tool(func_callable=search)``, ``Tool(list_skills)``,
``Tool(name=..., invoke=invoke)``, ``[Tool(getattr(self, name)) for name in TOOL_NAMES]``): which function each call
hands the tool class it builds. Used by :mod:`.forms`."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping

from .dispatch import returned_function
from .index import Index, direct_calls, literal_str, own_nodes, target_key
from .references import comprehended, resolve_ref
from .registries import CALLABLE_WORDS, Entry, _params, _wraps, callable_arg, run_tool_class
from .spec_classes import spec_class, spec_function
from .toolwords import camel_words as _camel_words

__all__ = ["held_callables"]


def held_callables(index: Index, scope: Entry | tuple[str, int, ast.AST, tuple[()]], owner: str | None,
                   skip: Mapping[str, object], project: Collection[str] = ()) -> Iterator[tuple[str, str, Entry, str | None]]:
    """Tool classes built around a callable of this module: a call of a class whose name ends in ``Tool``
    (``Tool``, ``FunctionTool``; resolved through the imports or defined here), or of one of the run's tool classes
    (``project``: ``LocalFunction``, a subclass of the framework's ``Tool``), handing it a function by a keyword
    that says so (``Tool(func_callable=search)``), directly or through a loop over a literal list of tuples; or as
    its first positional argument (:func:`_positional_targets`: ``Tool(list_skills)``, ``Tool(make_handoff(m))``,
    ``[Tool(getattr(self, name)) for name in TOOL_NAMES]``); or, named by a literal first argument, a later positional
    argument (:func:`_named_positional`: ``Tool("edit_file", "Edit a file", handler, {...})``), when the class is the
    run's own (defined here or in a module of the same top-level package: another library's class is not read so).
    -> (the class's qualified name, the form, the function, the literal name or None: the caller names the row by the
    function); ``skip``: the wrappers the tables already know."""
    path, _n, node, _parents = scope
    given = [p for p in _params(node, False) if p.lower().split("_")[0] in CALLABLE_WORDS]
    for call in direct_calls(node):
        qn = index.qualname(call.func)
        if qn is None or qn in skip:
            continue
        last = qn.rsplit(".", 1)[-1]
        words = _camel_words(last)
        scope_path = path if node is not index.tree else ""
        if words and words[-1] != "Tool" and not run_tool_class(qn, project) and spec_class(qn, index.module, index.screen.path):
            spec = spec_function(call, index, scope_path, owner)  # ``ToolSpec("x", desc, schema, handler)`` (s51)
            if spec is not None:
                yield qn, f"{last}(<name>, ..., <function>)", spec[1], spec[0]
            continue
        if not words or (words[-1] != "Tool" and not run_tool_class(qn, project)):
            continue
        arg = callable_arg(call) or next((k.value for k in call.keywords if k.arg in _INVOKER_KEYWORDS), None)
        if arg is None:
            for t in _positional_targets(call, node, index, scope_path, owner):
                if not any(t[3] and t[3][-1] is node and _wraps(t[2], p) for p in given):
                    yield qn, f"{last}(<function>)", t, None
            named = _named_positional(call, node, index, scope_path, owner) if qn.split(".")[0] == \
                index.module.split(".")[0] else None  # the run's own class (``from tools.base import Tool``)
            if named is not None:
                yield qn, f"{last}(<name>, ..., <function>)", named[1], named[0]
            continue
        target = resolve_ref(arg, index, scope_path, owner)
        if target is None and isinstance(arg, ast.Call):  # ``invoke=self._make_invoke(name)``: what the factory returns
            factory = resolve_ref(arg.func, index, scope_path, owner)
            target = returned_function(factory, index) if factory is not None else _wrapped(arg, index, scope_path, owner)
        targets = [target] if target is not None else _loop_targets(arg, node, index, scope_path, owner)
        keyword = next(k.arg for k in call.keywords if k.value is arg)
        for t in targets:
            if any(t[3] and t[3][-1] is node and _wraps(t[2], p) for p in given):
                continue  # the tool facility's own wrapper of the function it is given (lovia's ``@tool``: ``make(func)``)
            yield qn, f"{last}({keyword}=...)", t, None


def _named_positional(call: ast.Call, scope: ast.AST, index: Index, scope_path: str,
                      owner: str | None) -> tuple[str, Entry] | None:
    """``Tool("edit_file", "Edit a file.", handler, {"parameters": ...})``, ``Tool("Read", "...", schema, read)``: a
    tool class's call naming the tool by a literal first argument and handing, by a later positional argument, one
    function of this module (by name, ``self.method``): (the name, the function). Not a part of another tool: a call
    written inside the arguments of another class's call of the same body, or bound to a name handed to one (lingtai's
    ``ToolFamily("shell", [ChildTool("run", SCHEMA, self._dispatch_run), ...])``, ``children = [ChildTool(...)]; return
    ToolFamily("task_card", children)``: the family is the tool, its children are its actions)."""
    name = literal_str(call.args[0]) if call.args else None
    if not name:
        return None
    found = [t for t in (resolve_ref(a, index, scope_path, owner) for a in call.args[1:]
                         if isinstance(a, (ast.Name, ast.Attribute))) if t is not None]
    if len(found) != 1:
        return None
    nodes = list(own_nodes(scope))
    bound = {t.id for a in nodes if isinstance(a, ast.Assign) and any(n is call for n in ast.walk(a.value))
             for t in a.targets if isinstance(t, ast.Name)}  # ``children = [ChildTool(...), ...]``
    for outer in nodes:
        if not isinstance(outer, ast.Call) or outer is call:
            continue
        head = outer.func
        last = head.id if isinstance(head, ast.Name) else head.attr if isinstance(head, ast.Attribute) else ""
        if last[:1].isupper() and any(n is call or isinstance(n, ast.Name) and n.id in bound
                                      for a in (*outer.args, *(k.value for k in outer.keywords)) for n in ast.walk(a)):
            return None
    return name, found[0]


def _wrapped(call: ast.Call, index: Index, scope_path: str, owner: str | None) -> Entry | None:
    """The one function of this module a wrapper defined elsewhere is handed (``func=self._safe_tool_func("tree",
    self.tree)`` with ``_safe_tool_func`` inherited from another module's base, ``func=partial(search, k=3)``): the
    wrapper runs it, so it is the tool; none when the call hands none or several."""
    refs = [a for a in (*call.args, *(k.value for k in call.keywords)) if isinstance(a, (ast.Name, ast.Attribute))]
    found = [t for t in (resolve_ref(r, index, scope_path, owner) for r in refs) if t is not None]
    return found[0] if len(found) == 1 else None


#: a keyword that hands a tool class the function a call of the tool runs, besides ``callable_arg``'s (lovia's
#: ``Tool(name=..., description=..., parameters=..., invoke=invoke)``, pi-agent's ``AgentTool(name=..., execute=execute)``)
_INVOKER_KEYWORDS = frozenset({"invoke", "execute"})


def _positional_targets(call: ast.Call, scope: ast.AST, index: Index, scope_path: str,
                        owner: str | None) -> list[Entry]:
    """The functions a tool class's call hands as its first positional argument, each a def of this module: a
    function or method by name (``Tool(list_skills)``, nested or not; ``Tool(self.search)``), or through a
    comprehension or loop over a literal list; the nested function a factory of this module returns
    (``Tool(make_handoff(member))``); the methods ``getattr(self, name)`` takes over a literal list or tuple of their
    names, written out or a name bound to one (``[Tool(getattr(self, name)) for name in TOOL_NAMES]``). A value that
    is none of these (a parameter, another module's object) hands nothing."""
    if not call.args or isinstance(call.args[0], ast.Starred):
        return []
    arg = call.args[0]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "getattr" \
            and len(arg.args) == 2 and isinstance(arg.args[0], ast.Name) and arg.args[0].id == "self" \
            and isinstance(arg.args[1], ast.Name) and owner is not None:
        out: list[Entry] = []
        for it in _comprehended_iterables(arg.args[1].id, call, scope):
            elts = list(it.elts) if isinstance(it, (ast.List, ast.Tuple)) else list(index.lists.get(
                target_key(it) or "", [])) if isinstance(it, (ast.Name, ast.Attribute)) else []
            for el in elts:
                name = literal_str(el)
                target = resolve_ref(ast.Attribute(ast.Name("self"), name), index, scope_path, owner) if name else None
                if target is not None:
                    out.append(target)
        return out
    if isinstance(arg, ast.Call):  # a factory of this module returning its nested function
        factory = resolve_ref(arg.func, index, scope_path, owner)
        inner = returned_function(factory, index) if factory is not None else None
        return [inner] if inner is not None else []
    cls = index.local_classes.get(owner) if owner is not None else None
    refs = comprehended(arg, call, scope, cls)
    return [t for t in (resolve_ref(r, index, scope_path, owner) for r in refs) if t is not None]


def _comprehended_iterables(name: str, call: ast.Call, scope: ast.AST) -> list[ast.expr]:
    """What a comprehension or ``for`` loop around ``call`` (in this body) binds ``name`` over."""
    out: list[ast.expr] = []
    for node in own_nodes(scope):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            pairs = [(g.target, g.iter) for g in node.generators]
            inside: list[ast.AST] = [node.elt]
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            pairs, inside = [(node.target, node.iter)], list(node.body)
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t, _ in pairs) \
                and any(n is call for i in inside for n in ast.walk(i)):
            out.extend(it for t, it in pairs if isinstance(t, ast.Name) and t.id == name)
    return out


def _loop_targets(ref: ast.expr, scope: ast.AST, index: Index, scope_path: str,
                  owner: str | None) -> list[Entry]:
    """A loop variable over a literal list of tuples (``for name, func, cls in tool_defs:``): the functions it
    takes, each resolved in the scope."""
    if not isinstance(ref, ast.Name):
        return []
    lists = {t.id: a.value for a in own_nodes(scope) if isinstance(a, ast.Assign) for t in a.targets
             if isinstance(t, ast.Name) and isinstance(a.value, (ast.List, ast.Tuple))}
    out: list[Entry] = []
    for loop in own_nodes(scope):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        seq = lists.get(loop.iter.id) if isinstance(loop.iter, ast.Name) else loop.iter
        if not isinstance(seq, (ast.List, ast.Tuple)):
            continue
        position: int | None = None
        if isinstance(loop.target, ast.Tuple):
            position = next((i for i, t in enumerate(loop.target.elts) if isinstance(t, ast.Name) and t.id == ref.id),
                            None)
        elif isinstance(loop.target, ast.Name) and loop.target.id == ref.id:
            position = -1
        if position is None:
            continue
        for el in seq.elts:
            item = el if position == -1 else el.elts[position] if isinstance(el, ast.Tuple) \
                and len(el.elts) > position else None
            target = resolve_ref(item, index, scope_path, owner) if item is not None else None
            if target is not None:
                out.append(target)
    return out
