"""A process command built by a method of the class (s50, issue 23; batch 23's doeff-agents, not blind).

``subprocess.run(self._args("has-session", "-t", name))`` with ``def _args(self, *args): return [self.executable,
*args]`` runs ``[self.executable, "has-session", "-t", name]``: the method's list with the words the call passes in
the place of its ``*args``. :func:`method_command` gives that list, and TFH201 reads it as it reads the list written in
the call: the program through what ``self.executable`` can hold (:func:`.params.attribute_values`: a literal, or a
constructor parameter's literal default, ``executable or "tmux"`` included), then the local/remote tables decide
(``tmux has-session``: a local daemon's instant; ``tmux attach-session``: a wait for a person; ``ssh``: remote,
reported). Only a method whose whole body is that one ``return`` of a list (its first item ``self.<attr>``, then
literal words and its ``*args`` spread once), called with positional arguments and no ``*``/``**``, is read; any other
method keeps the finding ("the command is built at run time"). The methods are read on the file's ``ast`` screen (the
narrowed libcst tree may lack them), once per file and only when a call asks.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Screen

__all__ = ["method_command"]

_Shape = tuple[str, list["str | None"]]  # `self.<attr>`, then each literal word, None where the call's words go


def _returned_list(method: ast.FunctionDef | ast.AsyncFunctionDef) -> _Shape | None:
    """What a method of ``(self, *args)`` whose whole body returns ``[self.<attr>, <literal>..., *args]`` returns."""
    a = method.args
    if a.vararg is None or a.posonlyargs or a.kwonlyargs or a.kwarg is not None or len(a.args) != 1 or (
            a.args[0].arg != "self") or method.decorator_list or isinstance(method, ast.AsyncFunctionDef):
        return None
    body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                           and isinstance(s.value.value, str))]  # a docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, (ast.List, ast.Tuple)):
        return None
    elts = body[0].value.elts
    head = elts[0] if elts else None
    if not (isinstance(head, ast.Attribute) and isinstance(head.value, ast.Name) and head.value.id == "self"):
        return None
    words: list[str | None] = []
    for el in elts[1:]:
        if isinstance(el, ast.Starred) and isinstance(el.value, ast.Name) and el.value.id == a.vararg.arg:
            words.append(None)
        elif isinstance(el, ast.Constant) and isinstance(el.value, str):
            words.append(el.value)
        else:
            return None  # another attribute, a call, a parameter: not the method's literal words
    return (head.attr, words) if words.count(None) == 1 else None


def _shapes(screen: Screen) -> dict[tuple[str, str], _Shape | None]:
    """(class, method) -> the method's returned list; None for a name the class defines more than once."""
    out: dict[tuple[str, str], _Shape | None] = {}
    for cls in ast.walk(screen.tree):
        if isinstance(cls, ast.ClassDef):
            for m in cls.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    key = (cls.name, m.name)
                    out[key] = None if key in out else _returned_list(m)
    return out


def method_command(screen: Screen, cls: cst.ClassDef | None, cmd: cst.BaseExpression) -> cst.List | None:
    """``self.<method>(words...)`` read as the list the method returns with ``words`` spread in its ``*args``'s place,
    when the method (the class's only one of that name) returns ``[self.<attr>, <literal>..., *args]``; else None."""
    if cls is None or not isinstance(cmd, cst.Call):
        return None
    func = cmd.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"):
        return None
    if any(a.star or a.keyword is not None for a in cmd.args):
        return None
    shape = screen.memo(("method_commands",), lambda: _shapes(screen)).get((cls.name.value, func.attr.value))
    if shape is None:
        return None
    attr, words = shape
    out: list[cst.BaseElement] = [cst.Element(cst.Attribute(cst.Name("self"), cst.Name(attr)))]
    for w in words:
        out += [cst.Element(a.value) for a in cmd.args] if w is None else [cst.Element(cst.SimpleString(repr(w)))]
    return cst.List(out)
