"""A project class's methods read on their ``ast`` (:mod:`.imports_disk`'s summary of a followed module, s48, issue 24):
which methods are abstract (:func:`abstract`), and which run only local programs (:func:`process_local_methods`).

A class whose methods run a program (``subprocess.run(["git", *args])``, ``["security", *args]``) is local work when
every program its method runs is one the tables read as staying on the machine
(:func:`~smullyan.linter.knowledge.local_program`: not a remote CLI such as ``gh``/``kubectl``/``curl``, not a network
program, not ``git fetch``/``push``): repoheart's ``GitRepo.get_merge_base`` runs ``self._run("merge-base", ...)``, whose
``_run(self, *args)`` runs ``["git", *args]``. The program and its sub-command must be spelled, in the method or in the
literal arguments it hands a wrapper of its class (``self._run(...)``) or of its module (``_git(...)``); a program or
sub-command from the method's own parameters (``repo._run(cmd)``) is unknown, and the method is not local."""

from __future__ import annotations

import ast

from . import knowledge as kb

__all__ = ["abstract", "process_local_methods", "runner_names"]

#: the ``subprocess`` functions that run a program given as their first argument
_RUNNERS = frozenset({"run", "Popen", "call", "check_call", "check_output"})
_DEPTH = 4  # wrappers followed from a method (``get_merge_base`` -> ``_run``)
_Words = list[str | None]  # a command's words; None: not a literal


def abstract(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A method with no body of its own: ``@abstractmethod``, or only a docstring, ``...``, ``pass`` or
    ``raise NotImplementedError``."""
    if any((d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) == "abstractmethod"
           for d in fn.decorator_list):
        return True
    for stmt in fn.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring, ``...``
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Raise) and stmt.exc is not None and "NotImplementedError" in ast.dump(stmt.exc):
            continue
        return False
    return True


def runner_names(tree: ast.Module) -> tuple[frozenset[str], frozenset[str]]:
    """The names the module's top-level statements bind to ``subprocess`` (``import subprocess as sp``) and to its
    runners (``from subprocess import run``)."""
    modules: set[str] = set()
    functions: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name == "subprocess")
        elif isinstance(node, ast.ImportFrom) and node.module == "subprocess" and not node.level:
            functions.update(a.asname or a.name for a in node.names if a.name in _RUNNERS)
    return frozenset(modules), frozenset(functions)


def _words(node: ast.expr | None, bound: dict[str, _Words], assigned: dict[str, ast.expr]) -> _Words:
    """A command's words: a list or tuple of literal strings, ``*`` a bound parameter, or a name assigned once in the
    function to one; a string is split on white space."""
    if isinstance(node, ast.Name):
        if node.id in bound:
            return bound[node.id]
        node = assigned.get(node.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return list(node.value.split())
    if not isinstance(node, (ast.List, ast.Tuple)):
        return [None]
    out: _Words = []
    for item in node.elts:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            out.append(item.value)
        elif isinstance(item, ast.Starred) and isinstance(item.value, ast.Name) and item.value.id in bound:
            out.extend(bound[item.value.id])
        else:
            out.append(None)
    return out


def _argument(arg: ast.expr) -> _Words:
    """An argument's words: a literal string is one word, a list of literals its words."""
    if isinstance(arg, ast.Constant):
        return [arg.value if isinstance(arg.value, str) else None]
    return _words(arg, {}, {}) if isinstance(arg, (ast.List, ast.Tuple)) else [None]


def _bind(fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, method: bool) -> dict[str, _Words]:
    """What ``call`` hands ``fn``'s parameters: a literal string as one word, a list of literals as its words,
    the extra positionals gathered by ``*args``; anything else unknown (``[None]``)."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args][1 if method else 0:]
    bound: dict[str, _Words] = {}
    extra: _Words = []
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            extra.append(None)
            break
        words = _argument(arg)
        if i < len(params):
            bound[params[i]] = words
        else:
            extra.extend(words if isinstance(arg, (ast.List, ast.Tuple)) else words[:1])
    for kw in call.keywords:
        if kw.arg is not None:
            bound[kw.arg] = _argument(kw.value)
    if fn.args.vararg is not None:
        bound[fn.args.vararg.arg] = extra
    for name in params + [a.arg for a in fn.args.kwonlyargs]:
        bound.setdefault(name, [None])
    return bound


class _Reader:
    """One module's functions and one class's methods, read for the programs a method runs."""

    def __init__(self, tree: ast.Module, cls: ast.ClassDef, runners: tuple[frozenset[str], frozenset[str]]) -> None:
        self.ran = False  # a program was read on the last method
        self.modules, self.runners = runners
        self.functions = {s.name: s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.methods = {s.name: s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def _runner(self, func: ast.expr) -> bool:
        if isinstance(func, ast.Name):
            return func.id in self.runners
        return (isinstance(func, ast.Attribute) and func.attr in _RUNNERS and isinstance(func.value, ast.Name)
                and func.value.id in self.modules)

    def local(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, bound: dict[str, _Words], depth: int) -> bool:
        """Whether every program ``fn`` runs, itself or through the wrappers it calls, is local."""
        assigned: dict[str, ast.expr] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                assigned[name] = node.value if name not in assigned else ast.Constant(None)  # bound twice: unknown
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            if self._runner(node.func):
                words = _words(node.args[0] if node.args else None, bound, assigned)
                literal = [w for w in words[:next((i for i, w in enumerate(words) if w is None), len(words))]
                           if w is not None]
                if not literal or kb.local_program(literal, len(literal) == len(words)) is None:
                    return False
                self.ran = True
                continue
            callee, method = None, False
            if (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in ("self", "cls") and node.func.attr in self.methods):
                callee, method = self.methods[node.func.attr], True
            elif isinstance(node.func, ast.Name) and node.func.id in self.functions:
                callee = self.functions[node.func.id]
            if callee is not None and callee is not fn and self._runs(callee):
                if depth <= 0 or not self.local(callee, _bind(callee, node, method), depth - 1):
                    return False
        return True

    def _runs(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether ``fn`` mentions a runner or calls a wrapper (a cheap screen before following it)."""
        return any(isinstance(n, ast.Call) and (self._runner(n.func) or isinstance(n.func, (ast.Name, ast.Attribute)))
                   for n in ast.walk(fn))


def process_local_methods(tree: ast.Module, cls: ast.ClassDef,
                          runners: tuple[frozenset[str], frozenset[str]]) -> frozenset[str]:
    """The methods of ``cls`` every program of which (run by the method, or by the wrappers of its class and module
    it hands literal arguments) is a local program, and which runs one at least (one that runs none, in a module that
    imports ``subprocess``, may reach a program through an object of another class: left as it was)."""
    if not runners[0] and not runners[1]:
        return frozenset()  # the module runs no program through ``subprocess``
    reader = _Reader(tree, cls, runners)
    local: set[str] = set()
    for name, fn in reader.methods.items():
        reader.ran = False
        if reader.local(fn, {}, _DEPTH) and reader.ran:
            local.add(name)
    return frozenset(local)
