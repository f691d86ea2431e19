"""s51 (issue 23, batch 23's labagent): a process runner handed in as a parameter whose default is a known process call.

``def clone_pinned(url, sha, dest, run: Callable = subprocess.run)`` then ``run([git, "fetch", url], capture_output=True)``,
or ``def __init__(self, cfg, run=subprocess.run): self._run = run`` then ``self._run(cmd, capture_output=True)``: unless a
caller hands another runner (a test's fake), the call is ``subprocess.run`` and is read as one (:func:`runner_default`).
The parameter must not be rebound in its function. No fix is offered: a runner a caller hands in may take no ``timeout``.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Names, Screen, assignment_targets, walk_in_scope

__all__ = ["REFUSAL", "runner_default", "runner_lines"]

#: why such a call gets no automatic fix
REFUSAL = "the runner is a parameter: a caller may hand one that takes no `timeout`; pass it where you call the default"


def _default(func: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """The default of ``func``'s parameter ``name``, when ``func`` never rebinds it."""
    params = [*func.params.params, *func.params.kwonly_params]
    found = next((p.default for p in params if p.name.value == name and p.default is not None), None)
    if found is None:
        return None
    for node in walk_in_scope(func):
        for target in assignment_targets(node):
            if isinstance(target, cst.Name) and target.value == name:
                return None
    return found


def runner_default(names: Names, func: cst.BaseExpression, cls: cst.ClassDef | None,
                   accepts: frozenset[str]) -> str | None:
    """The qualified name of the process call ``func`` defaults to (one of ``accepts``): a parameter of the
    function or of the function it is a closure of, or ``self.<attr>`` that ``__init__`` sets from such a parameter."""
    defaults: list[cst.BaseExpression | None] = []
    if isinstance(func, cst.Name):
        for scope in (names.function, names.enclosing_function):
            if isinstance(scope, cst.FunctionDef) and not (defaults and defaults[-1] is not None):
                defaults.append(_default(scope, func.value))
    elif (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"
          and cls is not None and isinstance(cls.body, cst.IndentedBlock)):
        init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
        if init is not None:
            for node in walk_in_scope(init):
                if (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Name)
                        and isinstance(t := node.targets[0].target, cst.Attribute) and isinstance(t.value, cst.Name)
                        and t.value.value == "self" and t.attr.value == func.attr.value):
                    defaults.append(_default(init, node.value.value))
    for default in defaults:
        if default is not None:
            qn = names.qualname(default)
            return qn if qn in accepts else None
    return None


def runner_lines(screen: Screen, wanted: frozenset[str]) -> list[int]:
    """The screen's lines of calls of a parameter (or of ``self.<attr>`` set from one) whose default's last name is
    one of ``wanted`` (``run=subprocess.run``): the rule decides which of them is the process call."""
    def build() -> list[int]:
        params: set[str] = set()
        for node in screen.defs:  # s53: the screen's one walk (every def at any depth), not a walk of the module
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                pairs = list(zip([*a.posonlyargs, *a.args][-len(a.defaults):] if a.defaults else [], a.defaults))
                pairs += [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
                params.update(p.arg for p, d in pairs if isinstance(d, ast.Attribute) and d.attr in wanted)
        if not params:
            return []
        attrs = {t.attr for node in screen.binders if isinstance(node, ast.Assign)
                 and isinstance(node.value, ast.Name) and node.value.id in params
                 for t in node.targets if isinstance(t, ast.Attribute)}
        return [c.lineno for c in screen.calls if (isinstance(c.func, ast.Name) and c.func.id in params)
                or (isinstance(c.func, ast.Attribute) and c.func.attr in attrs)]
    return screen.memo(("runner_lines", wanted), build)
