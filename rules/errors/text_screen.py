"""TFH401's ``ast`` screen: the handlers whose body returns, yields, assigns, fills a container with or puts
in a message the caught exception (or formats a traceback), and the same-module helpers the text goes
through (:func:`screen_lines`; the collector is ``text.py``'s :class:`~.text.ExceptionText`)."""

from __future__ import annotations

import ast

from ...linter.api import Knowledge, Screen, last_name
from .model import definitions, mentions

__all__ = ["screen_lines"]



def _format_names(knowledge: Knowledge) -> frozenset[str]:
    """Last names of the traceback formatters (``format_exc``), for the screen."""
    return knowledge.memo(
        "tfh401.format_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.traceback_formatters)
    )


def _fills(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """``results.append(f"{e}")``: a container filled with something that mentions the exception."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in knowledge.container_filling_methods
        and any(mentions(a, name) for a in (*node.args, *(k.value for k in node.keywords)))
    )


def _message_ast(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """A message the model reads built with the exception (``ToolMessage(content=str(e))``, ``{"role": "tool", ...}``)."""
    if isinstance(node, ast.Call):
        lasts = knowledge.memo(
            "tfh401.message_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.message_constructors)
        )
        return last_name(node.func) in lasts and mentions(node, name)
    if isinstance(node, ast.Dict):
        pairs = {
            (k.value, v.value)
            for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
        }
        flagged = any(
            isinstance(k, ast.Constant) and k.value in knowledge.message_dict_flags
            and isinstance(v, ast.Constant) and v.value is True
            for k, v in zip(node.keys, node.values)
        )
        return (flagged or bool(pairs & set(knowledge.message_dict_forms))) and mentions(node, name)
    return False


def _helpers_called(handler: ast.ExceptHandler, name: str) -> set[str]:
    """Names of functions or ``self``/``cls`` methods called with something that mentions the exception."""
    out: set[str] = set()
    for stmt in handler.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call) and any(mentions(a, name) for a in (*n.args, *(k.value for k in n.keywords))):
                f = n.func
                if isinstance(f, ast.Name):
                    out.add(f.id)
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                    out.add(f.attr)  # self.m(...), and Cls.m(...): a factory's signature types a positional kind
    return out


def _text_names(handler: ast.ExceptHandler, name: str) -> frozenset[str]:
    """Names the handler assigns something that mentions the exception (``msg = f"failed: {e}"``)."""
    return frozenset(
        t.id
        for stmt in handler.body
        for n in ast.walk(stmt)
        if isinstance(n, ast.Assign) and mentions(n.value, name)
        for t in n.targets
        if isinstance(t, ast.Name)
    )


def _helpers_called_after(
    defs: list[ast.FunctionDef | ast.AsyncFunctionDef], line: int, held: frozenset[str]
) -> set[str]:
    """Names of functions or ``self``/``cls`` methods the definition holding the handler at ``line`` calls after it
    with a name in ``held``: the text is followed into them as into a helper the handler calls."""
    holder = min(
        (d for d in defs if d.lineno <= line <= (d.end_lineno or d.lineno)),
        key=lambda d: (d.end_lineno or d.lineno) - d.lineno,
        default=None,
    )
    out: set[str] = set()
    if holder is None:
        return out
    for n in ast.walk(holder):
        if isinstance(n, ast.Call) and n.lineno > line and any(
            isinstance(a, ast.Name) and a.id in held for a in (*n.args, *(k.value for k in n.keywords))
        ):
            f = n.func
            if isinstance(f, ast.Name):
                out.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                out.add(f.attr)
    return out


def screen_lines(screen: Screen, knowledge: Knowledge) -> list[int]:
    """Handlers whose body returns, yields or assigns the exception (or formats anything), and the same-module
    helpers the text goes through (their definitions are read too)."""
    formats = bool(_format_names(knowledge) & screen.call_names)
    out: list[int] = []
    helpers: set[str] = set()
    holding: list[tuple[int, frozenset[str]]] = []  # a reported handler's line, the names it assigns the text to
    for h in screen.handlers:
        if h.name is None and not formats:
            continue
        if any(
            isinstance(n, (ast.Return, ast.Yield, ast.Assign, ast.AugAssign, ast.AnnAssign))
            and n.value is not None
            and (formats or (h.name is not None and mentions(n.value, h.name)))
            # `x = e` keeps the object for a later `str(x)`; `return e` is a tool's result the framework stringifies
            and (not isinstance(n.value, ast.Name) or isinstance(n, (ast.Assign, ast.Return)))
            for stmt in h.body
            for n in ast.walk(stmt)
        ) or (h.name is not None and any(
            _fills(n, h.name, knowledge) or _message_ast(n, h.name, knowledge) for stmt in h.body for n in ast.walk(stmt)
        )):
            out.append(h.lineno)
            if h.name is not None:
                helpers.update(_helpers_called(h, h.name))
                held = _text_names(h, h.name)
                if held:
                    holding.append((h.lineno, held))
    returning = _returning_exception(screen)
    defs = definitions(screen.tree) if helpers or returning or holding else []
    for line, held in holding:
        # `msg = f"failed: {e}"` in the handler, then `return _summary(result=msg)` after it: the helper's body
        helpers.update(_helpers_called_after(defs, line, held))
    if helpers:
        out += [d.lineno for d in defs if d.name in helpers]
        # a same-module class called with the text: its __init__'s signature types a positional kind
        out += [m.lineno for c in _classes(screen.tree) if c.name in helpers for m in c.body
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == "__init__"]
    if returning:
        # callers of a helper that returns the exception it caught: `result = self._run()` ... `str(result)`
        out += [
            d.lineno
            for d in defs
            if d.name in returning or any(isinstance(n, ast.Call) and last_name(n.func) in returning for n in ast.walk(d))
        ]
    return out


def _classes(tree: ast.AST) -> list[ast.ClassDef]:
    """Module-level classes and the classes nested in them (as :func:`~.model.definitions` reads methods)."""
    out: list[ast.ClassDef] = []
    stack = [n for n in getattr(tree, "body", []) if isinstance(n, ast.ClassDef)]
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(n for n in c.body if isinstance(n, ast.ClassDef))
    return out


def _returning_exception(screen: Screen) -> set[str]:
    """Names of the definitions with a handler that returns the exception object it caught (``return e``, or as an
    item of a tuple: ``return None, e``, s41 D5)."""
    lines = {
        h.lineno
        for h in screen.handlers
        if h.name is not None
        and any(isinstance(n, ast.Return) and _holds_name(n.value, h.name) for stmt in h.body for n in ast.walk(stmt))
    }
    if not lines:
        return set()
    return {
        d.name for d in definitions(screen.tree)
        if any(d.lineno <= line <= (d.end_lineno or d.lineno) for line in lines)
    }


def _holds_name(value: ast.expr | None, name: str) -> bool:
    """``e`` or a tuple with ``e`` as an item (``None, e``)."""
    if isinstance(value, ast.Tuple):
        return any(isinstance(el, ast.Name) and el.id == name for el in value.elts)
    return isinstance(value, ast.Name) and value.id == name
