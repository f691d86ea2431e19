"""TFH401 (s51, issue 24): where the code places a function says that no model reads what it returns.

Each shape is a framework's or the language's own contract, read on the module's ``ast`` tree (memoised on the
screen), never a package's name:

- :func:`plugin_class`: a method of a subclass of a plugin base of a framework that is not an agent
  (``NON_MODEL_PLUGIN_BASES``: Ansible's ``ActionBase``, whose ``run`` returns the task result, ``result["msg"]``,
  to the playbook run): the framework reads it, not a model, whatever ``action`` words the class and its
  ``action_plugins/`` directory carry.
- :func:`wrappers_above_registration`: a module-level decorator of the module whose every use sits *above* a
  decorator that registers a tool (``@_safe_tool`` over ``@server.tool(...)``). Decorators apply bottom-up: the
  framework registered the undecorated function, so the wrapper's answer (``return {"error": str(e)}``) replaces
  only the module-level name, not the tool the server runs. ``smullyan tools`` reads the same position
  (``linter/tools/catchalls.py``: a decorator below the registering one is the tool's catch-all, one above is not).
- :func:`raised_only`: a helper every use of which in the module is the exception a ``raise`` raises
  (``raise _safe_tool_error(e) from None``): what it returns is an exception object, and the text ends in a raise
  (not reported, as raising is not), whatever the helper's annotation says.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence

import libcst as cst

from ...linter.api import Knowledge, Screen

__all__ = [
    "path_literal", "plugin_class", "raised_only", "registers_anywhere", "registrar_decorator", "url_path",
    "wrappers_above_registration",
]

Scope = Mapping[str, "tuple[str, bool] | None"]
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def plugin_class(classes: Sequence[cst.ClassDef], qualname: object, knowledge: Knowledge) -> bool:
    """One of the enclosing ``classes`` subclasses a plugin base of ``NON_MODEL_PLUGIN_BASES`` (``qualname``: the
    resolver's ``qualname`` of an expression, the base resolved through the imports)."""
    for cls in classes:
        for base in cls.bases:
            qn = qualname(base.value)  # type: ignore[operator]
            if isinstance(qn, str) and knowledge.canonical(qn) in knowledge.non_model_plugin_bases:
                return True
    return False


def registrar_decorator(dec: ast.expr, scope: Scope, k: Knowledge) -> bool:
    """``@server.tool(...)``/``@mcp.tool``: a registration verb on a receiver a framework registers tools through (by
    its name, or the class its module-level binding resolves to); ``ExceptionText._registers_tools`` reads the same."""
    func = dec.func if isinstance(dec, ast.Call) else dec
    if not isinstance(func, ast.Attribute) or func.attr not in k.tool_registration_verbs:
        return False
    recv = func.value
    name = recv.attr if isinstance(recv, ast.Attribute) else recv.id if isinstance(recv, ast.Name) else ""
    ref = scope.get(recv.id) if isinstance(recv, ast.Name) else None
    return k.registration_framework(func.attr, name, k.canonical(ref[0]) if ref else None) is not None


def _registering(dec: ast.expr, scope: Scope, k: Knowledge) -> bool:
    """:func:`registrar_decorator`, or a tool decorator by its qualified name (``@tool`` imported from LangChain,
    ``@mcp.tool()`` on a ``FastMCP`` object)."""
    if registrar_decorator(dec, scope, k):
        return True
    func = dec.func if isinstance(dec, ast.Call) else dec
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    ref = scope.get(func.id) if isinstance(func, ast.Name) else None
    if ref is None:
        return False
    if ".".join((k.canonical(ref[0]), *reversed(parts))) in k.tool_decorators:
        return True
    return bool(ref[1] and len(parts) == 1 and f"{k.canonical(ref[0])}.{parts[0]}" in k.tool_decorators)


def registers_anywhere(screen: Screen, scope: Scope, k: Knowledge) -> bool:
    """s53: a function anywhere in the module, nested ones too (``@mcp.tool()`` inside a ``build_app()`` factory),
    carries a decorator that registers a tool (:func:`_registering`): the module is a tools module, whatever imports
    it."""
    return screen.memo("s53-registers-anywhere", lambda: isinstance(screen.tree, ast.Module) and any(
        isinstance(d, FUNCS) and any(_registering(dec, scope, k) for dec in d.decorator_list)
        for d in ast.walk(screen.tree)))


def wrappers_above_registration(screen: Screen, scope: Scope, k: Knowledge) -> frozenset[str]:
    """The module-level functions whose every use in the module is a decorator placed above a registering one (at
    least one use; a use anywhere else, a call or a decorator with no registration below it, keeps it out)."""
    return screen.memo("s51-wrappers-above", lambda: _wrappers_above(screen.tree, scope, k))


def _wrappers_above(tree: ast.AST, scope: Scope, k: Knowledge) -> frozenset[str]:
    if not isinstance(tree, ast.Module):
        return frozenset()
    defs = {s.name for s in tree.body if isinstance(s, FUNCS)}
    above: set[str] = set()
    placed: set[int] = set()  # ids of the decorator names read as placed above a registration
    for d in ast.walk(tree):
        if not isinstance(d, FUNCS):
            continue
        for i, dec in enumerate(d.decorator_list):
            if isinstance(dec, ast.Name) and dec.id in defs \
                    and any(_registering(b, scope, k) for b in d.decorator_list[i + 1:]):
                above.add(dec.id)
                placed.add(id(dec))
    other = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in above and id(n) not in placed}
    return frozenset(above - other)


def _raised_map(tree: ast.Module) -> dict[str, bool]:
    """Every function name called in the module (``f(...)``, ``self.f(...)``, ``cls.f(...)``) -> whether each use of it
    is the exception a ``raise`` raises; a use as a value (passed on, stored) counts against it. One walk: ``ast.walk``
    yields a node before its children, so a ``raise`` is seen before its call and a call before its callee."""
    raised: set[int] = set()
    callee: set[int] = set()
    loaded: set[str] = set()
    out: dict[str, bool] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Raise):
            if isinstance(n.exc, ast.Call):
                raised.add(id(n.exc))
        elif isinstance(n, ast.Call):
            name = _called_name(n.func)
            if name is not None:
                callee.add(id(n.func))
                out[name] = out.get(name, True) and id(n) in raised
        elif isinstance(n, (ast.Name, ast.Attribute)) and id(n) not in callee and isinstance(n.ctx, ast.Load):
            name = _called_name(n)
            if name is not None:
                loaded.add(name)
    for name in loaded & out.keys():
        out[name] = False
    return out


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
        return func.attr
    return None


def raised_only(screen: Screen, name: str) -> bool:
    """Every use of ``name`` in the module is ``raise name(...)`` (at least one)."""
    table = screen.memo("s51-raised-only", lambda: _raised_map(screen.tree) if isinstance(screen.tree, ast.Module) else {})
    return table.get(name, False)


def url_path(node: cst.BaseExpression) -> bool:
    """A string literal that is a URL path (``"/runs/{run_id}"``): a route's first argument."""
    return isinstance(node, cst.SimpleString) and node.evaluated_value[:1] == "/"


def path_literal(args: Iterable[ast.expr]) -> bool:
    """:func:`url_path` on the ``ast`` tree."""
    first = next(iter(args), None)
    return isinstance(first, ast.Constant) and str(first.value)[:1] == "/"
