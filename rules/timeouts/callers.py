"""s53 (issue 23, TFH201's evidence): the literal words any caller hands the parameters a process's command is made of.

A helper handed its command (``def _run(cmd): subprocess.run(cmd, capture_output=True)``, ``def run_command(self, cmd):
subprocess.run(cmd, shell=True)``) runs what its callers give it. :mod:`.params` reads such a helper as silent when
*every* caller hands a literal local command; this module reads the other side for TFH201's split by evidence
(:mod:`.evidence`): when *any* caller hands words that name the network, a long job or a prompt (``_run(["git",
"push"])``; ``cmd = f"curl -X POST {url}"`` then ``self.run_command(cmd)``), the helper may run that command, and the
finding rests on it (TFH201), not on a command the linter cannot read (TFH203).

Where the callers are read:
- in the module, on the ``ast`` screen (:func:`.params._uses`): each call of the function by its name (``f(...)``; a
  method ``x.f(...)``; an ``__init__`` by its class's name), the argument at the parameter (by position or keyword;
  every positional from a ``*args`` parameter on). A name the caller passes is read through what the function around
  the call assigns it, and, when it is that function's own parameter, through that function's callers (one hop more);
- in the rest of the project when other modules import the function (module-level functions only, by the import
  index :func:`~smullyan.linter.imports_disk.imported_by` the tools and TFH401 readings share): each call of that name
  on disk as :func:`~smullyan.linter.imports_disk.project_call_arguments` gives it (its literal strings and lists; one
  ``ast`` parse per project module per process, memoised there and recorded for the cache).

Only literal words are read (string constants, the literal parts of f-strings, list and tuple items); what a caller
computes is not guessed.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Screen, imported_by, project_call_arguments
from .params import _any_module, _uses

_DEPTH = 3  # names read through assignments and callers' parameters


def command_params(func: cst.FunctionDef, cmd: cst.BaseExpression, local: dict[str, list[cst.BaseExpression]],
                   params: set[str]) -> set[str]:
    """The parameters of ``func`` the command is made of: named in it, or in what the function assigns a name it
    holds (``argv = shlex.split(command)``), two assignments deep."""
    found: set[str] = set()
    seen: set[str] = set()

    def walk(node: cst.CSTNode, depth: int) -> None:
        if isinstance(node, cst.Name):
            if node.value in params:
                found.add(node.value)
            elif node.value in local and node.value not in seen and depth < 2:
                seen.add(node.value)
                for value in local[node.value]:
                    walk(value, depth + 1)
            return
        if isinstance(node, (cst.Lambda, cst.FunctionDef)):
            return
        for child in node.children:
            walk(child, depth)

    walk(cmd, 0)
    return found


def _literal_words(node: ast.expr) -> list[str]:
    """The literal words of a caller's argument: strings, f-strings' literal parts, list/tuple items, ``a + b``,
    a call's arguments (``shlex.split("git push")``, ``" ".join([...])``), both sides of ``x if c else y``."""
    if isinstance(node, ast.Constant):
        return node.value.split() if isinstance(node.value, str) else []
    if isinstance(node, ast.JoinedStr):
        return [w for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str) for w in v.value.split()]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [w for e in node.elts for w in _literal_words(e.value if isinstance(e, ast.Starred) else e)]
    if isinstance(node, ast.BinOp):
        return _literal_words(node.left) + _literal_words(node.right)
    if isinstance(node, ast.IfExp):
        return _literal_words(node.body) + _literal_words(node.orelse)
    if isinstance(node, ast.Call):
        return [w for a in node.args for w in _literal_words(a)]
    return []


def _functions(screen: Screen) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return screen.memo(("which_funcs",), lambda: [
        n for n in ast.walk(screen.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))])


def _around(screen: Screen, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    around = [f for f in _functions(screen) if f.lineno <= line <= (f.end_lineno or f.lineno)]
    return max(around, key=lambda f: f.lineno) if around else None


class _Callers:
    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.names, self.attrs = screen.memo(("parameter_uses",), lambda: _uses(screen))
        self.seen: set[tuple[int, str]] = set()

    def arguments(self, name: str, method: bool, index: int, keyword: str, star: bool) -> list[ast.expr]:
        """What each call of ``name`` in the module hands the parameter (the ``index``-th positional after
        ``self``; every positional from it for a ``*args`` parameter)."""
        out: list[ast.expr] = []
        for call in (self.attrs if method else self.names).get(name, []):
            if call is None:
                continue
            if star:
                out.extend(a.value if isinstance(a, ast.Starred) else a for a in call.args[index:])
                continue
            if index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
                out.append(call.args[index])
            out.extend(k.value for k in call.keywords if k.arg == keyword)
        return out

    def words(self, node: ast.expr, line: int, depth: int) -> list[str]:
        """``node``'s literal words; a name read through the function around ``line`` (its assignments, or, for
        its parameter, what its callers hand it)."""
        out = _literal_words(node)
        names = [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        if not names or depth >= _DEPTH:
            return out
        func = _around(self.screen, line)
        if func is None:
            return out
        for name in names:
            key = (id(func), name.id)
            if key in self.seen:
                continue
            self.seen.add(key)
            for n in ast.walk(func):
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None and any(
                        isinstance(t, ast.Name) and t.id == name.id
                        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
                    out += self.words(n.value, n.lineno, depth + 1)
            out += self.parameter(func, name.id, depth + 1)
        return out

    def parameter(self, func: ast.FunctionDef | ast.AsyncFunctionDef, param: str, depth: int) -> list[str]:
        """What the module's calls of ``func`` hand its parameter ``param`` (nothing when it is not one)."""
        a = func.args
        cls = None
        if func.name == "__init__":
            cls = next((c.name for c in ast.walk(self.screen.tree) if isinstance(c, ast.ClassDef) and func in c.body), None)
            if cls is None:
                return []
        return self.handed(func.name, cls, [p.arg for p in (*a.posonlyargs, *a.args)], a.vararg.arg if a.vararg else None,
                           [p.arg for p in a.kwonlyargs], param, depth)

    def handed(self, name: str, cls: str | None, positional: list[str], vararg: str | None, kwonly: list[str],
               param: str, depth: int) -> list[str]:
        """The words the module's calls of the function ``name`` (``cls``: the class whose constructor runs it, an
        ``__init__``) hand its parameter ``param``."""
        method = bool(positional) and positional[0] in ("self", "cls")
        star = vararg == param
        if param not in positional and not star and param not in kwonly:
            return []
        at = (positional.index(param) if param in positional else len(positional)) - (1 if method else 0)
        if at < 0:
            return []  # `self`: the object, not a command
        if cls is not None:
            name, method = cls, False
        out: list[str] = []
        for arg in self.arguments(name, method, at, param, star):
            out += self.words(arg, getattr(arg, "lineno", 0), depth)
        return out


def handed_words(screen: Screen, func: cst.FunctionDef, cls: cst.ClassDef | None, params: set[str],
                 path: str | None) -> list[str]:
    """Every literal word the callers of ``func`` (a method of ``cls`` when not None) hand its parameters ``params``:
    its calls in the module (names read through the caller's assignments and its own callers), and, for a
    module-level function other modules import, each literal its calls across the project hand it."""
    if not isinstance(screen.tree, ast.Module):
        return []
    reader = _Callers(screen)
    positional = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
    star = func.params.star_arg
    vararg = star.name.value if isinstance(star, cst.Param) else None
    kwonly = [p.name.value for p in func.params.kwonly_params]
    init = cls.name.value if cls is not None and func.name.value == "__init__" else None
    out: list[str] = []
    for param in sorted(params):
        out += reader.handed(func.name.value, init, positional, vararg, kwonly, param, 1)
    if cls is None and path is not None and func.name.value in imported_by(path, _any_module, "any"):
        for call in project_call_arguments(path, func.name.value) or ():
            keywords, literals, on_attribute, _, lists = call
            if on_attribute:
                continue  # `x.name(...)`: perhaps another class's method of the same name
            for param in params:
                out += (keywords.get(param) or "").split()
                index = positional.index(param) if param in positional else None
                if index is None and vararg == param:
                    chosen = range(len(positional), len(literals))
                else:
                    chosen = range(index, index + 1) if index is not None else range(0)
                for i in chosen:
                    if i < len(literals) and literals[i]:
                        out += str(literals[i]).split()
                    listed = lists[i] if i < len(lists) else None
                    if listed is not None:
                        out += listed[0]
    return out
