"""What a call hands a function that makes tools of its parameters (``applied_calls.tool_helpers``): the argument at the
parameter, or every positional argument from a ``*args`` parameter on (``add_screens(mcp, *SCREEN_TOOLS)``,
``add_screens(mcp, show_board)``); and whether a file hands its own function to a function of another module of the
run, which may be such a helper (known once the run is)."""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping

from .index import FUNCS, Index, own_nodes, target_key

__all__ = ["each_of_sequence", "each_of_varargs", "handed_args", "pending_helpers", "sequence_items"]


def pending_helpers(index: Index, own_roots: frozenset[str]) -> bool:
    """A call here hands a module function of this file by position, or a function of this file by keyword, to a
    function another module of the same project defines (``add_screens(mcp, show_board)``): whether that function makes a tool of it (``tool_helpers``)
    is known once the run is."""
    top = {s.name for s in index.tree.body if isinstance(s, FUNCS)}
    nested = {path.rsplit(".", 1)[-1] for path, _n, _node, parents in index.defs if parents}
    if not top and not nested:
        return False
    for call in index.screen.calls:
        if not any(isinstance(a, ast.Name) and a.id in top or _lists_own(a, top, index.lists) for a in call.args) and not any(
                isinstance(k.value, ast.Name) and k.value.id in top | nested for k in call.keywords):
            continue  # by keyword, a nested one too (``create_tool(name="search_logs", executor=search_logs)``)
        qn = index.qualname(call.func)
        if qn and qn.split(".")[0] in own_roots and not qn.startswith(index.module + ".") \
                and qn.rsplit(".", 1)[-1][:1].islower():
            return True
    return False


def _lists_own(arg: ast.expr, top: Collection[str], lists: Mapping[str, list[ast.expr]]) -> bool:
    """``arg`` is a literal list (or a name bound to one) of module functions of the file, or of tuples holding one
    (``register_tools(mcp, TOOLS)``, ``TOOLS = [("Ads overview", ads_overview)]``)."""
    return any(isinstance(x, ast.Name) and x.id in top for item in sequence_items(arg, lists)
               for x in (item.elts if isinstance(item, ast.Tuple) else (item,)))


def each_of_varargs(fn: ast.AST, arg: ast.expr | None, call: ast.Call) -> str | None:
    """The ``*args`` parameter of ``fn`` whose every item a ``for`` loop around ``call`` binds ``arg`` to (``for fn
    in fns:``), else None: each positional argument from there on is what the caller hands."""
    args = getattr(fn, "args", None)
    if not isinstance(arg, ast.Name) or not isinstance(args, ast.arguments) or args.vararg is None:
        return None
    star = args.vararg.arg
    for loop in own_nodes(fn):
        if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
                and loop.target.id == arg.id and isinstance(loop.iter, ast.Name) and loop.iter.id == star \
                and any(n is call for stmt in loop.body for n in ast.walk(stmt)):
            return star
    return None


def each_of_sequence(fn: ast.AST, arg: ast.expr | None, call: ast.Call, params: Collection[str]) -> tuple[str, str] | None:
    """The parameter of ``fn`` a ``for`` loop around ``call`` iterates, binding ``arg`` to each item or to one place of
    each (``for title, fn in tools:``), else None: (the parameter, the place: ``""`` the item, else its index).
    Each item (or that place of each) of the list a caller hands there is what the caller hands (google-ecommerce-mcp:
    ``def register_tools(mcp, tools): for title, fn in tools: mcp.tool(title=title, ...)(fn)``, called with each module's
    ``TOOLS = [("Ads overview", ads_overview)]``)."""
    if not isinstance(arg, ast.Name):
        return None
    for loop in own_nodes(fn):
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Name) \
                or loop.iter.id not in params or not any(n is call for stmt in loop.body for n in ast.walk(stmt)):
            continue
        target = loop.target
        if isinstance(target, ast.Name) and target.id == arg.id:
            return loop.iter.id, ""
        places = [i for i, t in enumerate(target.elts) if isinstance(t, ast.Name) and t.id == arg.id] \
            if isinstance(target, ast.Tuple) and all(isinstance(t, ast.Name) for t in target.elts) else []
        if len(places) == 1:
            return loop.iter.id, str(places[0])
    return None


def sequence_items(arg: ast.expr, lists: Mapping[str, list[ast.expr]], self_attributes: bool = False) -> list[ast.expr]:
    """The items of a literal list or tuple, or of the one a name (``self_attributes``: or a ``self.attr``) is bound to
    (``Index.lists``)."""
    if isinstance(arg, (ast.List, ast.Tuple)):
        return list(arg.elts)
    key = target_key(arg) if isinstance(arg, ast.Name) or self_attributes and isinstance(arg, ast.Attribute) else None
    return list(lists.get(key, [])) if key is not None else []


def handed_args(call: ast.Call, position: int | None, param: str, lists: Mapping[str, list[ast.expr]]) -> list[ast.expr]:
    """What a call hands a helper's parameter: the keyword or positional argument, or, for a ``*args`` parameter
    (``param`` ``"*fns"``), every positional argument from ``position`` on, a starred name bound to a literal list or
    tuple spread into its items (``add_screens(mcp, *SCREEN_TOOLS)``); for a parameter the helper loops over
    (``"tools[1]"``: :func:`each_of_sequence`), each item of the literal list handed there, or that place of each."""
    if param.endswith("]"):
        seq, _, place = param[:-1].partition("[")
        each: list[ast.expr] = []
        for handed in handed_args(call, position, seq, lists):
            for item in sequence_items(handed, lists):
                if not place:
                    each.append(item)
                elif isinstance(item, ast.Tuple) and int(place) < len(item.elts):
                    each.append(item.elts[int(place)])
        return each
    if not param.startswith("*"):
        arg = next((k.value for k in call.keywords if k.arg == param), None)
        if arg is None and position is not None and 0 <= position < len(call.args):
            arg = call.args[position]
        return [arg] if arg is not None else []
    out: list[ast.expr] = []
    for a in call.args[position or 0:]:
        if isinstance(a, ast.Starred):
            out.extend(lists.get(a.value.id, []) if isinstance(a.value, ast.Name) else
                       a.value.elts if isinstance(a.value, (ast.List, ast.Tuple)) else [])
        else:
            out.append(a)
    return out
