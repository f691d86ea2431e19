"""The run's own catch-alls around a tool, which the model reads when the tool raises: a decorator of the module whose
wrapper runs the tool in a ``try`` answering the exception's text (tiktok-shop's ``@handle_errors``: ``except
Exception as e: return json.dumps({"error": True, "message": f"Error: {str(e)}"})``), and a method that looks the
tool up in a dispatch dict it builds itself and calls it in such a ``try`` (localforge's ``ToolExecutor.execute``:
``handler = dispatch.get(tool_name)`` ... ``try: return handler(args) except Exception as exc: return f"Error:
{exc}"``). Each is the row's runner (``failures_by``), as a base class's ``run`` is (:mod:`.ancestry`): ``raised``
becomes ``text (runner)`` and the runner's TFH401 is the row's finding (``merging._runner``)."""

from __future__ import annotations

import ast

from .ancestry import _handler_gives_text
from .dispatch import runs_table, table_runner
from .index import FUNCS, Index

__all__ = ["catching_decorator", "dict_runner"]


def _calls_name(body: list[ast.stmt], names: set[str]) -> bool:
    return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in names
               for s in body for c in ast.walk(s))


def _wraps_in_text(fn: ast.AST) -> bool:
    """A decorator (``def handle_errors(func)``) whose inner function calls ``func`` in a ``try`` whose broad handler
    answers the exception's text, and which returns that inner function."""
    if not isinstance(fn, FUNCS) or not fn.args.args:
        return False
    param = fn.args.args[0].arg
    inner = {s.name: s for s in fn.body if isinstance(s, FUNCS)}
    returned = {s.value.id for s in fn.body if isinstance(s, ast.Return) and isinstance(s.value, ast.Name)}
    for name in returned & inner.keys():
        wrapper = inner[name]
        for t in ast.walk(wrapper):
            if isinstance(t, ast.Try) and _calls_name(t.body, {param}) \
                    and any(_handler_gives_text(h, wrapper) for h in t.handlers):
                return True
    return False


def catching_decorator(node: ast.AST, form: str, index: Index) -> str | None:
    """The qualified name of a decorator of this module, applied below the tool's own (a decorator form's first
    decorator registers the tool: ``@app.tool()`` over ``@handle_errors``), that runs the tool in a ``try`` answering
    its exception's text (:func:`_wraps_in_text`); else None. A decorator above the registering one wraps what the
    framework has already taken: not the tool's answer."""
    defs = {s.name: s for s in index.tree.body if isinstance(s, FUNCS)}
    for i, dec in enumerate(getattr(node, "decorator_list", [])):
        if (i == 0 and form.startswith("@")) or not isinstance(dec, ast.Name):
            continue
        fn = defs.get(dec.id)
        if fn is not None and _wraps_in_text(fn):
            return f"{index.module}.{fn.name}"
    return None


def dict_runner(table: ast.Dict, scope: ast.AST, path: str, index: Index) -> str | None:
    """The runner of a dispatch dict: the module-level function that looks up the module's ``TOOL_FUNCS = {...}`` and
    calls it in a ``try`` answering text (``dispatch.table_runner``), or the function that builds the dict itself
    (``dispatch = {"read_file": self._read_file, ...}``), looks the tool up in it and calls it so (``path``: its
    path in the module); its qualified name, else None."""
    if scope is index.tree:
        name = next((a.targets[0].id for a in index.tree.body if isinstance(a, ast.Assign) and a.value is table
                     and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)), None)
        run = table_runner(name, index.tree) if name is not None else None
        return f"{index.module}.{run}" if run is not None else None
    if not isinstance(scope, FUNCS):
        return None
    name = next((a.targets[0].id for a in ast.walk(scope) if isinstance(a, ast.Assign) and a.value is table
                 and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)), None)
    if name is None:
        return None
    return f"{index.module}.{path}" if runs_table(scope, name) else None
