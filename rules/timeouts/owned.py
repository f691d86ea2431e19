"""A process an object owns and can stop (TFH201): its ``wait()`` is the object's contract.

A class that keeps the process it started on ``self`` (``self._process = subprocess.Popen(...)``,
``self.process.wait()``) and has a way to end it from elsewhere (a ``terminate``/``kill`` method, or a
method that calls ``proc.kill()``, ``proc.terminate()``, ``proc.send_signal(...)``, ``os.kill``,
``os.killpg``) waits for that process on purpose: a training run that lasts hours, a process wrapper's
``wait()`` that mirrors ``Popen.wait``. Whoever holds the object bounds the wait by calling the stop
method; a timeout inside would end a job that is working. The evidence asked for is both: the process is
the object's (a field of ``self``), and the class can stop it.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Screen, walk_in_scope

__all__ = ["stoppable_wait"]

_STOP_METHODS = frozenset({"kill", "terminate", "send_signal"})
_STOP_CALLS = frozenset({"os.kill", "os.killpg"})
_STOP_NAME_WORDS = frozenset({"kill", "terminate"})


def _self_field(node: cst.BaseExpression) -> str | None:
    """``self.X`` -> X."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _kept_on_self(name: str, func: cst.FunctionDef) -> bool:
    """The method stores the local ``name`` on the object (``self._process = process``)."""
    for n in walk_in_scope(func.body):
        if isinstance(n, cst.Assign) and isinstance(n.value, cst.Name) and n.value.value == name:
            if any(_self_field(t.target) is not None for t in n.targets):
                return True
    return False


def _stops(method: ast.FunctionDef | ast.AsyncFunctionDef, kills: list[ast.Call]) -> bool:
    """The method ends a process: named for it (``terminate``, ``force_kill``) or calling a kill. Read on the
    ``ast`` screen: the libcst tree has the methods that hold no candidate stubbed out."""
    if set(method.name.lower().split("_")) & _STOP_NAME_WORDS:
        return True
    end = method.end_lineno or method.lineno
    if any(method.lineno <= c.lineno <= end for c in kills):
        return True
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _STOP_METHODS
        for n in ast.walk(method)
    )


def stoppable_wait(call: cst.Call, cls: cst.ClassDef | None, func: cst.CSTNode | None, screen: Screen) -> bool:
    """``call`` is ``<process>.wait()`` in a method of ``cls``, the process is a field of ``self`` (or a local
    the method stores on ``self``), and another method of ``cls`` can end a process."""
    f = call.func
    if cls is None or not isinstance(func, cst.FunctionDef) or not isinstance(f, cst.Attribute) or f.attr.value != "wait":
        return False
    if not isinstance(cls.body, cst.IndentedBlock) or not any(s is func for s in cls.body.body):
        return False  # a method of the class itself, not a closure inside one
    owned = _self_field(f.value) is not None or (isinstance(f.value, cst.Name) and _kept_on_self(f.value.value, func))
    if not owned:
        return False
    kills = screen.calls_of(_STOP_CALLS)
    for node in ast.walk(screen.tree):
        if not isinstance(node, ast.ClassDef) or node.name != cls.name.value:
            continue
        methods = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if func.name.value in {m.name for m in methods}:
            if any(m.name != func.name.value and _stops(m, kills) for m in methods):
                return True
    return False
