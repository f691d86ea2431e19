"""Functions whose results the module prints for a person (TFH401's ``report`` audience, positive evidence).

A module-level function ``check_x`` whose every call in the module binds its result to a name (``r =
await check_x()``, ``r, extra = check_x()``) that the caller then prints (``print(r)``, ``console.print(r)`` on a
rich ``Console``) or hands to a same-module function that prints its parameter (``_print_result(r)``): the
module says the result goes to a person at a terminal (a ``doctor`` command's checks), not to a model. A
``main()`` or a ``demo``/``example`` function printing it says nothing of where the package sends it: not read. Read on
the ``ast`` tree, the printers resolved through the module's imports.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from ...linter.api import Knowledge
from .model import definitions

__all__ = ["printed_functions"]

Scope = Mapping[str, "tuple[str, bool] | None"]


def _is_print(call: ast.Call, scope: Scope, k: Knowledge) -> bool:
    """``print(...)`` (the builtin, not rebound), ``rich.print(...)``, or ``console.print(...)`` on a rich console."""
    func = call.func
    if isinstance(func, ast.Name):
        if func.id not in scope:
            return func.id == "print"
        ref = scope[func.id]
        return ref is not None and not ref[1] and k.canonical(ref[0]) in k.print_functions
    if isinstance(func, ast.Attribute) and func.attr in k.console_print_methods and isinstance(func.value, ast.Name):
        ref = scope.get(func.value.id)
        return ref is not None and ref[1] and k.canonical(ref[0]) in k.console_classes
    return False


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _printers(defs: list[ast.FunctionDef | ast.AsyncFunctionDef], scope: Scope, k: Knowledge) -> set[str]:
    """Module-level functions that print one of their parameters (``_print_result(result)``)."""
    out: set[str] = set()
    for d in defs:
        params = {a.arg for a in (*d.args.posonlyargs, *d.args.args, *d.args.kwonlyargs)}
        for n in ast.walk(d):
            if isinstance(n, ast.Call) and _is_print(n, scope, k) and any(
                    _mentions(a, params) for a in (*n.args, *(kw.value for kw in n.keywords))):
                out.add(d.name)
                break
    return out


def _call_of(value: ast.expr, names: set[str]) -> str | None:
    """``f(...)`` or ``await f(...)`` for a module-level function ``f``: its name."""
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in names:
        return value.func.id
    return None


def printed_functions(tree: ast.Module, scope: Scope, k: Knowledge, module_calls: Iterable[ast.Call] | None = None) -> frozenset[str]:
    """The module-level functions every same-module call of which binds the result to a name the caller prints
    (directly, or through a same-module function that prints its parameter) and does not return.

    ``module_calls``: every call of ``tree`` when the caller has them (the screen's one walk), else they are walked."""
    module_defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = {d.name for d in module_defs}
    printers = _printers(module_defs, scope, k)
    every_call = (n for n in ast.walk(tree) if isinstance(n, ast.Call)) if module_calls is None else module_calls
    if not printers and not any(_is_print(n, scope, k) for n in every_call):
        return frozenset()
    printed: dict[str, bool] = {}
    for caller in definitions(tree):
        if caller.name.lstrip("_") == "main" or caller.name.lstrip("_").startswith(("demo", "example")):
            continue  # a script's entry or a demo: how a person tries the function, not where the package sends it
        calls: list[tuple[str, set[str]]] = []
        uses: list[ast.Call] = []
        returned: set[str] = set()
        seen: set[int] = set()  # calls bound by an assignment or printed directly (``print(f())``)
        for n in ast.walk(caller):
            if isinstance(n, ast.Assign) and len(n.targets) == 1:
                callee = _call_of(n.value, names)
                if callee is not None:
                    seen.add(id(n.value.value if isinstance(n.value, ast.Await) else n.value))
                    target = n.targets[0]
                    elts = target.elts if isinstance(target, ast.Tuple) else [target]
                    calls.append((callee, {e.id for e in elts if isinstance(e, ast.Name)}))
            elif isinstance(n, ast.Call) and (_is_print(n, scope, k) or (isinstance(n.func, ast.Name)
                                                                          and n.func.id in printers)):
                uses.append(n)
                for a in n.args:
                    callee = _call_of(a, names)
                    if callee is not None:
                        seen.add(id(a.value if isinstance(a, ast.Await) else a))
                        printed.setdefault(callee, True)
            elif isinstance(n, ast.Return) and n.value is not None:
                returned |= {m.id for m in ast.walk(n.value) if isinstance(m, ast.Name)}
        for n in ast.walk(caller):
            if isinstance(n, ast.Call) and id(n) not in seen and isinstance(n.func, ast.Name) and n.func.id in names:
                printed[n.func.id] = False  # called for something else: the module does not say
        args = [a for u in uses for a in (*u.args, *(kw.value for kw in u.keywords))]
        for callee, bound in calls:
            shown = {name for name in bound if any(_mentions(a, {name}) for a in args)}
            ok = bool(shown) and not (bound & returned) and _only_printed(caller, shown, args, returned)
            printed[callee] = printed.get(callee, True) and ok
    return frozenset(name for name, ok in printed.items() if ok)


def _only_printed(caller: ast.AST, shown: set[str], args: list[ast.expr], returned: set[str]) -> bool:
    """Every read of a printed name is in a printer's arguments, a field compared or set (``r.status == FAIL``,
    ``r.name = "x"``) or an ``append`` to a list that is not returned (``results.append(r)``): the value goes
    nowhere else (not into a dict handed on, ``{"docs": r}``, nor to another call)."""
    parents: dict[int, ast.AST] = {}
    for n in ast.walk(caller):
        for child in ast.iter_child_nodes(n):
            parents[id(child)] = n
    printed_args = {id(a) for a in args}
    for n in ast.walk(caller):
        if not (isinstance(n, ast.Name) and n.id in shown and isinstance(n.ctx, ast.Load)):
            continue
        node: ast.AST = n
        inside = False
        while id(node) in parents:
            if id(node) in printed_args:
                inside = True
                break
            node = parents[id(node)]
        if inside:
            continue
        parent = parents.get(id(n))
        if isinstance(parent, ast.Attribute) and (isinstance(parent.ctx, ast.Store)
                                                  or isinstance(parents.get(id(parent)), ast.Compare)):
            continue
        if (isinstance(parent, ast.Call) and n in parent.args and isinstance(parent.func, ast.Attribute)
                and parent.func.attr == "append" and isinstance(parent.func.value, ast.Name)
                and parent.func.value.id not in returned):
            continue
        return False
    return True
