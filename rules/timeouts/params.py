"""What a process's program is when the command names it through a parameter (s42, issue 23).

``def run_poppler(command, pdf): subprocess.run([command, pdf])`` called only as
``run_poppler("pdffonts", p)`` and ``run_poppler("pdfinfo", p)`` in its module runs ``pdffonts`` or
``pdfinfo``; ``def __init__(self, executable="fzf"): self.executable = executable`` then
``subprocess.run([self.executable, ...])`` runs ``fzf`` unless a caller says otherwise. TFH201 reads the
instant and interactive tables through such a parameter: :func:`parameter_values` gives every literal
the parameter can hold (its literal default where a call omits it, each call's literal argument), or
None when a use of the function is not a call of literals the module shows (a callback handed on, a
non-literal argument, ``*args``). The callers are read on the ``ast`` screen (the narrowed libcst tree
may lack them), built once per file and only when a finding asks.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Screen

_Uses = dict[str, list["ast.Call | None"]]  # a function's name -> each read of it: the call it is the callee of, or None


def _uses(screen: Screen) -> tuple[_Uses, _Uses]:
    """Each name read as ``f`` (module functions, classes) and as ``x.f`` (methods), with the call it is the
    callee of (None: read another way)."""
    callee: dict[int, ast.Call] = {}
    names: _Uses = {}
    attrs: _Uses = {}
    for node in ast.walk(screen.tree):
        if isinstance(node, ast.Call):
            callee[id(node.func)] = node
    for node in ast.walk(screen.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.setdefault(node.id, []).append(callee.get(id(node)))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            attrs.setdefault(node.attr, []).append(callee.get(id(node)))
    return names, attrs


def parameter_values(
    screen: Screen, name: str, method: bool, index: int, param: cst.Param
) -> list[str] | None:
    """Every literal string the parameter ``param`` (the ``index``-th after ``self``/``cls`` for a ``method``
    or a class's ``__init__``) holds in the module's calls of ``name`` (``f(...)``, or ``x.name(...)`` for a
    method): its literal default where a call omits it, else each call's literal argument; None when one use
    is not such a call, or when neither a call nor a default says."""
    keyword = param.name.value
    evaluated = param.default.evaluated_value if isinstance(param.default, cst.SimpleString) else None
    default = evaluated if isinstance(evaluated, str) else None
    if param.default is not None and default is None:
        return None
    names, attrs = screen.memo(("parameter_uses",), lambda: _uses(screen))
    calls = (attrs if method else names).get(name, [])
    out: list[str] = []
    for call in calls:
        if call is None or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        arg: ast.expr | None = call.args[index] if index < len(call.args) else None
        arg = next((k.value for k in call.keywords if k.arg == keyword), arg)
        if arg is None:
            if default is None:
                return None
            out.append(default)
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.append(arg.value)
        else:
            return None
    if not out and default is not None:
        out.append(default)  # no call in the module: what it runs unless a caller elsewhere says otherwise
    return out or None
