"""A process command built by the project's argv builder (s57, issue 23; batches 25, 26 and 29's tmux wrappers).

``subprocess.run(_tmux_argv("has-session", "-t", name, socket=s))`` with ``def _tmux_argv(*args, socket=None): base =
["tmux"]; if socket: base += ["-L", socket]; return base + list(args)`` runs ``tmux [-L s] has-session -t name``: a
function (of the module, of another module of the project, or a method of the class) that puts its own program and
options before the words it is handed. :func:`builder_command` gives ``["tmux", <the call's words>...]`` and TFH201 reads
it as a list written in the call (``tmux has-session``: a local daemon's instant, ``LOCAL_INSTANT_SUBCOMMANDS``;
``tmux attach``: a wait for a person; ``["git", *args]`` called with ``"push"``: remote). Read only when every
``return`` of the builder is ``[<program>, <options>..., *args]`` or ``<list> + list(args)``, its program one literal
(``"tmux"``, or a local name bound to ``x or shutil.which("tmux") or "tmux"``), each word between the program and the
handed words an option (``"-L"``, ``"-S"``, the value after one, or a local list of such: ``*socket_args``), so no
sub-command of the builder's own is dropped; the call passes its words positionally (a ``*flags`` among them is spread
where it stands: the literal words before it decide), with no ``**``. The builder is
read on the ``ast`` (the file's screen, or the other module's summary: ``linter/imports_ast.py``).
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Names, Screen, imported_definition_ast
from .unspelled import assigned_values

__all__ = ["builder_command"]

_Def = ast.FunctionDef | ast.AsyncFunctionDef


def _assigned(func: _Def, name: str) -> list[ast.expr]:
    """Every value ``name`` is given in the function (``x = v``, ``x += v``), in order."""
    return assigned_values(func).get(name, [])


def _program(func: _Def, node: ast.expr) -> str | None:
    """The one literal program an expression names: ``"tmux"``, or a local name bound only to it (``b or
    shutil.which("tmux") or "tmux"``)."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) and node.value and not node.value.startswith("-") else None
    if not isinstance(node, ast.Name):
        return None
    found: set[str] = set()
    for value in _assigned(func, node.id):
        literals = [c.value for c in ast.walk(value) if isinstance(c, ast.Constant)]
        if not literals or not all(isinstance(v, str) for v in literals):
            return None
        found.update(v for v in literals if isinstance(v, str))
    return found.pop() if len(found) == 1 else None


def _options(func: _Def, elts: list[ast.expr], depth: int = 0) -> bool:
    """Whether the words are options only (``"-L"``, the value after one, ``*socket_args`` of such lists)."""
    for i, el in enumerate(elts):
        if isinstance(el, ast.Constant) and isinstance(el.value, str) and el.value.startswith("-"):
            continue
        if isinstance(el, ast.Starred) and isinstance(el.value, ast.Name) and depth < 2:
            values = _assigned(func, el.value.id)
            if values and all(isinstance(v, (ast.List, ast.Tuple)) and _options(func, v.elts, depth + 1) for v in values):
                continue
            return False
        prev = elts[i - 1] if i else None
        if isinstance(prev, ast.Constant) and isinstance(prev.value, str) and prev.value.startswith("-") and not (
                isinstance(el, ast.Constant) and not isinstance(el.value, (str, int))):
            continue  # the value of the option before it (`"-L", socket`, `"-L", "agents"`)
        return False
    return True


def _handed(node: ast.expr, vararg: str) -> bool:
    """``args``' words: ``*args`` in a list, ``list(args)``, ``[*args]``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple") and len(
            node.args) == 1 and not node.keywords:
        node = node.args[0]
        return isinstance(node, ast.Name) and node.id == vararg
    return isinstance(node, ast.List) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Starred) and isinstance(
        node.elts[0].value, ast.Name) and node.elts[0].value.id == vararg


def _returned_program(func: _Def, value: ast.expr, vararg: str) -> str | None:
    if isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) >= 2:
        last = value.elts[-1]
        if not (isinstance(last, ast.Starred) and isinstance(last.value, ast.Name) and last.value.id == vararg):
            return None
        return _program(func, value.elts[0]) if _options(func, value.elts[1:-1]) else None
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and _handed(value.right, vararg):
        base = value.left
        if isinstance(base, ast.Name):  # base = ["tmux"]; base += ["-L", socket]
            values = _assigned(func, base.id)
            if not values or not all(isinstance(v, (ast.List, ast.Tuple)) for v in values):
                return None
            first, *more = values
            assert isinstance(first, (ast.List, ast.Tuple))
            if not first.elts or not _options(func, first.elts[1:]) or not all(
                    isinstance(v, (ast.List, ast.Tuple)) and _options(func, v.elts) for v in more):
                return None
            return _program(func, first.elts[0])
        if isinstance(base, (ast.List, ast.Tuple)) and base.elts and _options(func, base.elts[1:]):
            return _program(func, base.elts[0])
    return None


def builder_program(func: _Def, method: bool) -> str | None:
    """The program an argv builder puts before the words it is handed, or None (not such a builder)."""
    a = func.args
    own = a.posonlyargs + a.args
    if a.vararg is None or a.kwarg is not None or len(own) != (1 if method else 0) or func.decorator_list:
        return None
    if method and own[0].arg != "self":
        return None
    returns = [n for n in ast.walk(func) if isinstance(n, ast.Return)]
    if not returns or any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and n is not func
                          for n in ast.walk(func)):
        return None
    found = {_returned_program(func, r.value, a.vararg.arg) if r.value is not None else None for r in returns}
    return found.pop() if len(found) == 1 else None


def _local_definitions(screen: Screen) -> dict[tuple[str, str], _Def | None]:
    """(class or "", name) -> the module's function or the class's method of that name (None when defined twice)."""
    out: dict[tuple[str, str], _Def | None] = {}
    tree = screen.tree
    if not isinstance(tree, ast.Module):
        return out
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            key = ("", stmt.name)
            out[key] = None if key in out else stmt
        elif isinstance(stmt, ast.ClassDef):
            for m in stmt.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    key = (stmt.name, m.name)
                    out[key] = None if key in out else m
    return out


def builder_command(screen: Screen, names: Names, path: str, cls: cst.ClassDef | None,
                    cmd: cst.BaseExpression) -> cst.List | None:
    """``builder(words...)`` read as ``[<the builder's program>, words...]`` (its options left out), when ``builder`` is
    an argv builder of the project (:func:`builder_program`); else None."""
    if not isinstance(cmd, cst.Call) or any(a.star == "**" for a in cmd.args):
        return None
    func = cmd.func
    local = screen.memo(("argv_builders",), lambda: _local_definitions(screen))
    definition: _Def | None = None
    method = False
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        if cls is None:
            return None
        definition, method = local.get((cls.name.value, func.attr.value)), True
    elif isinstance(func, cst.Name) and ("", func.value) in local:
        definition = local[("", func.value)]
    elif isinstance(func, (cst.Name, cst.Attribute)):
        qn = names.qualname(func)
        found = imported_definition_ast(path, qn) if qn is not None and "." in qn else None
        definition = found if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if definition is None or isinstance(definition, ast.AsyncFunctionDef):
        return None
    d: _Def = definition
    program = screen.memo(("argv_builder", id(d)), lambda: builder_program(d, method))
    if program is None:
        return None
    # a `*flags` passed is spread where it stands: the literal words before it decide (`tmux new-session -d *flags`)
    words = [cst.StarredElement(a.value) if a.star else cst.Element(a.value) for a in cmd.args if a.keyword is None]
    return cst.List([cst.Element(cst.SimpleString(repr(program))), *words])
