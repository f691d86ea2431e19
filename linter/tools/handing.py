"""What a call hands a function that makes tools of its parameters (``registries.tool_helpers``): the argument at the
parameter, or every positional argument from a ``*args`` parameter on (``add_screens(mcp, *SCREEN_TOOLS)``,
``add_screens(mcp, show_board)``); and whether a file hands its own function to a function of another module of the
run, which may be such a helper (known once the run is)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .index import FUNCS, Index, own_nodes

__all__ = ["each_of_varargs", "handed_args", "pending_helpers"]


def pending_helpers(index: Index, own_roots: frozenset[str]) -> bool:
    """A call here hands a module function of this file by position, or a function of this file by keyword, to a
    function another module of the same project defines (``add_screens(mcp, show_board)``): whether that function makes a tool of it (``tool_helpers``)
    is known once the run is."""
    top = {s.name for s in index.tree.body if isinstance(s, FUNCS)}
    nested = {path.rsplit(".", 1)[-1] for path, _n, _node, parents in index.defs if parents}
    if not top and not nested:
        return False
    for call in index.screen.calls:
        if not any(isinstance(a, ast.Name) and a.id in top for a in call.args) and not any(
                isinstance(k.value, ast.Name) and k.value.id in top | nested for k in call.keywords):
            continue  # by keyword, a nested one too (``create_tool(name="search_logs", executor=search_logs)``)
        qn = index.qualname(call.func)
        if qn and qn.split(".")[0] in own_roots and not qn.startswith(index.module + ".") \
                and qn.rsplit(".", 1)[-1][:1].islower():
            return True
    return False


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


def handed_args(call: ast.Call, position: int | None, param: str, lists: Mapping[str, list[ast.expr]]) -> list[ast.expr]:
    """What a call hands a helper's parameter: the keyword or positional argument, or, for a ``*args`` parameter
    (``param`` ``"*fns"``), every positional argument from ``position`` on, a starred name bound to a literal list or
    tuple spread into its items (``add_screens(mcp, *SCREEN_TOOLS)``)."""
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
