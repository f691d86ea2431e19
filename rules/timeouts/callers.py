"""s53 (issue 23, TFH201's evidence): the literal words any caller hands the parameters a process's command is made of.

A helper handed its command (``def _run(cmd): subprocess.run(cmd, capture_output=True)``, ``def run_command(self, cmd):
subprocess.run(cmd, shell=True)``) runs what its callers give it. :mod:`.params` reads such a helper as silent when
*every* caller hands a literal local command; this module reads the other side for TFH201's split by evidence
(:mod:`.evidence`): when *any* caller hands a command that reaches another machine (``_run(["git", "push"])``; ``cmd =
f"curl -X POST {url}"`` then ``self.run_command(cmd)``: ``knowledge.network_command``), the helper may run that
command, and the finding rests on it (TFH201), not on a command the linter cannot read (TFH203). Only a parameter
in the place that chooses the program is read (the whole command, a list's first item, ``*args`` after a literal
program and its flags: ``["git", *args]``); a caller's data (a path, a URI, a message) is not a command.

Where the callers are read:
- in the module, on the ``ast`` screen (:func:`.params._uses`): each call of the function by its name (``f(...)``; a
  method ``x.f(...)``; an ``__init__`` by its class's name), the argument at the parameter (by position or keyword;
  every positional from a ``*args`` parameter on). A name the caller passes is read through what the function around
  the call assigns it, and, when it is that function's own parameter, through that function's callers (one hop more);
- in the rest of the project when other modules import the function (module-level functions only, by the import
  index :func:`~smullyan.linter.imports_disk.imported_by` the tools and TFH401 readings share): each call of that name
  on disk as :func:`~smullyan.linter.imports_disk.project_call_arguments` gives it (its literal strings and lists; one
  ``ast`` parse per project module per process, memoised there and recorded for the cache).

Each caller's command is read as its literal words in place (a shell string: each of its commands, ``shell_commands``;
a list: its items, ``{}`` for a computed one; across the project, a list's literal leading words); what a caller
computes is not guessed.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Knowledge, Screen, imported_by, project_call_arguments
from .params import _any_module, _uses, function_around

_DEPTH = 3  # names read through assignments and callers' parameters
_SPLITTERS = frozenset({"split", "strip", "format"})  # `command.split()`: the text is the command's
_WRAPPERS = frozenset({"list", "tuple", "str"})  # `shlex.split(cmd)`, `list(args)`: the argument is the command


def _literal(node: cst.BaseExpression) -> str | None:
    value = node.evaluated_value if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) else None
    return value if isinstance(value, str) else None


def command_params(cmd: cst.BaseExpression, local: dict[str, list[cst.BaseExpression]],
                   params: set[str]) -> dict[str, tuple[str, ...]]:
    """The parameters of the running function that choose the command's program, each with the literal words the
    command puts before it: the whole command (``run(cmd)``, ``shlex.split(command)``, ``f"{cmd} 2>&1"``: no
    words), a list's first item, ``*args``/``+ args`` after a literal program and its flags (``["git", *args]``:
    ``("git",)``); read through what the function assigns a name the command holds, two assignments deep."""
    found: dict[str, tuple[str, ...]] = {}

    def walk(node: cst.BaseExpression, prefix: tuple[str, ...], depth: int) -> None:
        if isinstance(node, cst.Name):
            if node.value in params:
                found.setdefault(node.value, prefix)
            elif node.value in local and depth < 2:
                for value in local[node.value]:
                    walk(value, prefix, depth + 1)
        elif isinstance(node, (cst.List, cst.Tuple)) and node.elements:
            words: list[str] = []
            for i, el in enumerate(node.elements):
                if i == 0 or (isinstance(el, cst.StarredElement) and all(w.startswith("-") for w in words[1:])):
                    walk(el.value, (*prefix, *words), depth)
                text = _literal(el.value)
                if text is None and not (isinstance(el, cst.StarredElement) and i > 0):
                    break  # `*_SAFE_GIT` (flags the module spells) before `*args` is read past
                if text is not None:
                    words.append(text)
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            walk(node.left, prefix, depth)
            if isinstance(node.left, (cst.List, cst.Tuple)):
                spelled = [_literal(el.value) for el in node.left.elements]
                if spelled and all(w is not None for w in spelled) and all(str(w).startswith("-") for w in spelled[1:]):
                    walk(node.right, (*prefix, *(str(w) for w in spelled)), depth)
        elif isinstance(node, cst.Call):
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value in _SPLITTERS:
                walk(f.value, prefix, depth)
            elif node.args and ((isinstance(f, cst.Attribute) and f.attr.value == "split")
                                or (isinstance(f, cst.Name) and f.value in _WRAPPERS)):
                walk(node.args[0].value, prefix, depth)
        elif isinstance(node, cst.FormattedString) and node.parts and isinstance(
                node.parts[0], cst.FormattedStringExpression):
            walk(node.parts[0].expression, prefix, depth)
        elif isinstance(node, cst.IfExp):
            walk(node.body, prefix, depth)
            walk(node.orelse, prefix, depth)
        elif isinstance(node, cst.Await):
            walk(node.expression, prefix, depth)

    walk(cmd, (), 0)
    return found


def _text(node: ast.expr) -> str | None:
    """A string's text; an f-string's with ``{}`` for each computed part."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else " {} " for v in node.values)
    return None


def _leading(items: list[ast.expr]) -> list[str]:
    """A list's items, ``{}`` for each computed one (``["git", "-C", repo, "push"]``: the tables read ``git push``)."""
    return [item.value if isinstance(item, ast.Constant) and isinstance(item.value, str) else "{}" for item in items
            if not isinstance(item, ast.Starred)]


class _Callers:
    def __init__(self, screen: Screen, knowledge: Knowledge) -> None:
        self.screen, self.knowledge = screen, knowledge
        self.names, self.attrs = screen.memo(("parameter_uses",), lambda: _uses(screen))
        self.seen: set[tuple[int, str]] = set()

    def arguments(self, name: str, method: bool, index: int, keyword: str, star: bool) -> list[list[ast.expr]]:
        """What each call of ``name`` in the module hands the parameter (the ``index``-th positional after
        ``self``; every positional from it for a ``*args`` parameter, as one list)."""
        out: list[list[ast.expr]] = []
        for call in (self.attrs if method else self.names).get(name, []):
            if call is None:
                continue
            if star:
                out.append([a for a in call.args[index:] if not isinstance(a, ast.Starred)])
                continue
            if index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
                out.append([call.args[index]])
            out.extend([k.value] for k in call.keywords if k.arg == keyword)
        return out

    def commands(self, node: ast.expr, depth: int) -> list[list[str]]:
        """The commands a caller's argument may be: a string's shell commands, a list's literal leading words; a
        name through the function around the argument (its assignments, or, for its parameter, what its callers
        hand it)."""
        text = _text(node)
        if text is not None:
            return self.knowledge.shell_commands(text)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [_leading(list(node.elts))]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, (ast.List, ast.Tuple)):
            lead = _leading(list(node.left.elts))
            if isinstance(node.right, (ast.List, ast.Tuple)):
                lead += _leading(list(node.right.elts))
            return [lead]
        if isinstance(node, ast.IfExp):
            return self.commands(node.body, depth) + self.commands(node.orelse, depth)
        if isinstance(node, ast.Call) and node.args and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "split")
                or (isinstance(node.func, ast.Name) and node.func.id in _WRAPPERS)):
            return self.commands(node.args[0], depth)
        if isinstance(node, ast.Name) and depth < _DEPTH:
            return self.name(node, depth + 1)
        return []

    def name(self, node: ast.Name, depth: int) -> list[list[str]]:
        func = function_around(self.screen, node.lineno)
        if func is None or (id(func), node.id) in self.seen:
            return []
        self.seen.add((id(func), node.id))
        out: list[list[str]] = []
        for n in ast.walk(func):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and any(
                    isinstance(t, ast.Name) and t.id == node.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
                out += self.commands(n.value, depth)
        a = func.args
        cls = None
        if func.name == "__init__":
            cls = next((c.name for c in ast.walk(self.screen.tree) if isinstance(c, ast.ClassDef) and func in c.body), None)
        if func.name != "__init__" or cls is not None:
            out += self.handed(func.name, cls, [p.arg for p in (*a.posonlyargs, *a.args)], a.vararg.arg if a.vararg else None,
                               [p.arg for p in a.kwonlyargs], node.id, (), depth)
        return out

    def handed(self, name: str, cls: str | None, positional: list[str], vararg: str | None, kwonly: list[str],
               param: str, prefix: tuple[str, ...], depth: int) -> list[list[str]]:
        """The commands the module's calls of the function ``name`` (``cls``: the class whose constructor runs it,
        an ``__init__``) hand its parameter ``param``, after the literal words ``prefix`` the function puts first."""
        method = bool(positional) and positional[0] in ("self", "cls")
        star = vararg == param
        if param not in positional and not star and param not in kwonly:
            return []
        at = (positional.index(param) if param in positional else len(positional)) - (1 if method else 0)
        if at < 0:
            return []  # `self`: the object, not a command
        if cls is not None:
            name, method = cls, False
        out: list[list[str]] = []
        for args in self.arguments(name, method, at, param, star):
            if star:
                out.append([*prefix, *_leading(args)])
            else:
                out.extend([*prefix, *c] for c in self.commands(args[0], depth))
        return out


def handed_commands(screen: Screen, func: cst.FunctionDef, cls: cst.ClassDef | None,
                    params: dict[str, tuple[str, ...]], path: str | None, knowledge: Knowledge) -> list[list[str]]:
    """Every command the callers of ``func`` (a method of ``cls`` when not None) hand its parameters ``params`` (each
    after the literal words the function puts before it, :func:`command_params`): its calls in the module (names
    read through the caller's assignments and its own callers), and, for a module-level function other modules
    import, each literal its calls across the project hand it."""
    if not isinstance(screen.tree, ast.Module):
        return []
    reader = _Callers(screen, knowledge)
    shell_commands = knowledge.shell_commands
    positional = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
    star = func.params.star_arg
    vararg = star.name.value if isinstance(star, cst.Param) else None
    kwonly = [p.name.value for p in func.params.kwonly_params]
    init = cls.name.value if cls is not None and func.name.value == "__init__" else None
    out: list[list[str]] = []
    for param, prefix in sorted(params.items()):
        out += reader.handed(func.name.value, init, positional, vararg, kwonly, param, prefix, 1)
    if cls is None and path is not None and func.name.value in imported_by(path, _any_module, "any"):
        for keywords, literals, on_attribute, _, lists in project_call_arguments(path, func.name.value) or ():
            if on_attribute:
                continue  # `x.name(...)`: perhaps another class's method of the same name
            for param, prefix in params.items():
                given = keywords.get(param)
                if given:
                    out.extend([*prefix, *c] for c in shell_commands(given))
                index = positional.index(param) if param in positional else None
                if index is None and vararg == param:
                    out.append([*prefix, *(text if text is not None else "{}" for text in literals[len(positional):])])
                elif index is not None and index < len(literals):
                    text, listed = literals[index], lists[index] if index < len(lists) else None
                    if text:
                        out.extend([*prefix, *c] for c in shell_commands(text))
                    if listed is not None:
                        out.append([*prefix, *listed[0], *([] if listed[1] else ["{}"])])
    return out
