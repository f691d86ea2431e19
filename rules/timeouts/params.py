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
from collections.abc import Callable

import libcst as cst

from ...linter.api import Screen, assignment_targets, imported_by, project_call_arguments, project_only_calls, walk_in_scope

_Uses = dict[str, list["ast.Call | None"]]  # a function's name -> each read of it: the call it is the callee of, or None


def _uses(screen: Screen) -> tuple[_Uses, _Uses]:
    """Each name read as ``f`` (module functions, classes) and as ``x.f`` (methods), with the call it is the
    callee of (None: read another way)."""
    callee: dict[int, ast.Call] = {}
    names: _Uses = {}
    attrs: _Uses = {}
    typed: set[int] = set()  # s50: a name in an annotation (`-> TmuxSessionBackend`) builds nothing, passes nothing
    for node in ast.walk(screen.tree):
        if isinstance(node, ast.Call):
            callee[id(node.func)] = node
        annotations = [node.returns] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        if isinstance(node, (ast.arg, ast.AnnAssign)):
            annotations.append(node.annotation)
        typed.update(id(n) for a in annotations if a is not None for n in ast.walk(a))
    for node in ast.walk(screen.tree):
        if id(node) in typed:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.setdefault(node.id, []).append(callee.get(id(node)))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            attrs.setdefault(node.attr, []).append(callee.get(id(node)))
    return names, attrs


_Loops = dict[str, list[tuple[int, int, list[ast.expr]]]]  # a loop variable -> (first line, last line, its literal values)


def _literal_loops(screen: Screen) -> _Loops:
    """s44: each ``for`` over a literal list or tuple (``for arguments, label in ((["reflog", "expire"], "..."),
    (["prune"], "...")):``): what each name of its target walks, with the loop's lines."""
    out: _Loops = {}
    for node in ast.walk(screen.tree):
        if not isinstance(node, (ast.For, ast.AsyncFor)) or not isinstance(node.iter, (ast.List, ast.Tuple)) or not node.iter.elts:
            continue
        span = (node.lineno, node.end_lineno or node.lineno)
        if isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append((*span, list(node.iter.elts)))
        elif isinstance(node.target, ast.Tuple) and all(isinstance(t, ast.Name) for t in node.target.elts):
            width = len(node.target.elts)
            if all(isinstance(e, (ast.Tuple, ast.List)) and len(e.elts) == width for e in node.iter.elts):
                for i, t in enumerate(node.target.elts):
                    assert isinstance(t, ast.Name)
                    out.setdefault(t.id, []).append((*span, [e.elts[i] for e in node.iter.elts if isinstance(e, (ast.Tuple, ast.List))]))
    return out


def _walked(screen: Screen, call: ast.Call, arg: ast.expr) -> list[ast.expr] | None:
    """s44: the literal values a call's argument walks when it is the variable of the one literal loop around the call
    (``for arguments, label in ((["reflog", ...], ...), ...): run(arguments)``), else None."""
    if not isinstance(arg, ast.Name):
        return None
    loops = screen.memo(("literal_loops",), lambda: _literal_loops(screen))
    around = [values for first, last, values in loops.get(arg.id, []) if first <= call.lineno <= last]
    return around[0] if len(around) == 1 else None


def function_around(screen: Screen, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function of the screened module whose lines hold ``line`` (the module's functions listed once
    per file, memoised on the screen)."""
    funcs = screen.memo(("which_funcs",), lambda: [
        n for n in ast.walk(screen.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))])
    around = [f for f in funcs if f.lineno <= line <= (f.end_lineno or f.lineno)]
    return max(around, key=lambda f: f.lineno) if around else None


def _passed_on(screen: Screen, call: ast.Call, arg: ast.expr) -> list[ast.expr] | None:
    """s46 (batch 18, kolega's `_git_names(self, args)` calling `self._git(args)`): the arguments a call hands on
    when ``arg`` is a parameter of the private function around the call (``_name``; not rebound in it): what each
    call of that function in the module passes for it; None for any other shape (one level only)."""
    if not isinstance(arg, ast.Name):
        return None
    func = function_around(screen, call.lineno)
    if func is None:
        return None
    positional = [*func.args.posonlyargs, *func.args.args]
    index = next((i for i, p in enumerate(positional) if p.arg == arg.id), None)
    if index is None or not func.name.startswith("_") or func.name.startswith("__") or func.args.defaults and (
            index >= len(positional) - len(func.args.defaults)):
        return None
    if any(isinstance(n, ast.Name) and n.id == arg.id and not isinstance(n.ctx, ast.Load) for n in ast.walk(func)):
        return None  # rebound in the function: not only what its callers pass
    method = bool(positional) and positional[0].arg in ("self", "cls")
    names, attrs = screen.memo(("parameter_uses",), lambda: _uses(screen))
    out: list[ast.expr] = []
    for outer in (attrs if method else names).get(func.name, []):
        at = index - (1 if method else 0)
        if outer is None or any(isinstance(a, ast.Starred) for a in outer.args[: at + 1]) or any(
                k.arg is None for k in outer.keywords):
            return None
        value = outer.args[at] if at < len(outer.args) else next((k.value for k in outer.keywords if k.arg == arg.id), None)
        if value is None:
            return None
        out.append(value)
    return out or None


def _which_bound(screen: Screen, call: ast.Call, name: str) -> str | None:
    """s44 (batch 17): the program a caller's local name holds when each of its bindings in the function around
    ``call`` is ``shutil.which("tmux")`` of one literal (``tmux = shutil.which("tmux")`` then ``self._send(tmux, ...)``)."""
    func = function_around(screen, call.lineno)
    if func is None:
        return None
    which = screen.memo(("which_calls",), lambda: {id(c) for c in screen.calls_of({"shutil.which"})})
    a = func.args
    if any(p.arg == name for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]):
        return None
    found: set[str] = set()
    for n in ast.walk(func):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            v = n.value
            if not (isinstance(v, ast.Call) and id(v) in which and v.args and isinstance(v.args[0], ast.Constant)
                    and isinstance(v.args[0].value, str)):
                return None
            found.add(v.args[0].value)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)) and isinstance(
                n.target, ast.Name) and n.target.id == name:
            return None
    return found.pop() if len(found) == 1 else None


def parameter_values(
    screen: Screen, name: str, method: bool, index: int, param: cst.Param, fallback: str | None = None
) -> list[str] | None:
    """Every literal string the parameter ``param`` (the ``index``-th after ``self``/``cls`` for a ``method``
    or a class's ``__init__``) holds in the module's calls of ``name`` (``f(...)``, or ``x.name(...)`` for a
    method): its literal default where a call omits it, else each call's literal argument; None when one use
    is not such a call, or when neither a call nor a default says. ``fallback``: what stands for ``None`` (s50: the
    attribute is ``executable or "tmux"``, so a default or an argument ``None`` runs ``tmux``)."""
    keyword = param.name.value
    evaluated = param.default.evaluated_value if isinstance(param.default, cst.SimpleString) else None
    default = evaluated if isinstance(evaluated, str) else None
    if fallback is not None and isinstance(param.default, cst.Name) and param.default.value == "None":
        default = fallback
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
            out.append(arg.value or fallback or "")
        elif fallback is not None and isinstance(arg, ast.Constant) and arg.value is None:
            out.append(fallback)
        elif isinstance(arg, ast.Name) and (program := _which_bound(screen, call, arg.id)) is not None:
            out.append(program)
        else:
            return None
    if not out and default is not None:
        out.append(default)  # no call in the module: what it runs unless a caller elsewhere says otherwise
    return out or None


def param_values(screen: Screen, func: cst.FunctionDef, name: str, cls: cst.ClassDef | None, fallback: str | None = None
                 ) -> list[str] | None:
    """:func:`parameter_values` of ``func``'s parameter ``name`` (``cls``: the class ``func`` is a method of, or
    None): a method's calls are ``x.func(...)``, an ``__init__``'s are the class's constructor calls."""
    positional = [*func.params.posonly_params, *func.params.params]
    param = next((p for p in [*positional, *func.params.kwonly_params] if p.name.value == name), None)
    if param is None:
        return None
    index = positional.index(param) if param in positional else len(positional)
    bound = bool(positional) and positional[0].name.value in ("self", "cls") and cls is not None
    if bound:
        index -= 1
    if func.name.value == "__init__" and cls is not None:
        return parameter_values(screen, cls.name.value, False, index, param, fallback)
    return parameter_values(screen, func.name.value, bound, index, param, fallback)


def attribute_values(screen: Screen, cls: cst.ClassDef, attr: str) -> list[str] | None:
    """The literals ``self.<attr>`` can hold: set once in the class, in ``__init__``, to a literal or to a
    parameter of it (:func:`param_values`); None for any other shape."""
    sets: list[tuple[cst.FunctionDef, cst.BaseExpression]] = []
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef):
            continue
        for n in walk_in_scope(method):
            for t in assignment_targets(n):
                if isinstance(t, cst.Attribute) and t.attr.value == attr and isinstance(t.value, cst.Name) and t.value.value == "self":
                    value = getattr(n, "value", None)
                    if value is None or isinstance(n, cst.AugAssign):
                        return None
                    sets.append((method, value))
    if len(sets) != 1 or sets[0][0].name.value != "__init__":
        return None
    init, value = sets[0]
    if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
        return [value.evaluated_value]
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "str" and len(value.args) == 1:
        value = value.args[0].value  # s50: `str(executable or "tmux")`
    if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or) and isinstance(
            value.left, cst.Name) and isinstance(value.right, cst.SimpleString) and isinstance(value.right.evaluated_value, str):
        return param_values(screen, init, value.left.value, cls, value.right.evaluated_value)  # `executable or "tmux"`
    if isinstance(value, cst.Name):
        return param_values(screen, init, value.value, cls)
    return None


def program_expression(cmd: cst.BaseExpression) -> cst.BaseExpression:
    """What names the program: a list's first element (not starred), or the whole command."""
    if isinstance(cmd, (cst.List, cst.Tuple)) and cmd.elements and not isinstance(cmd.elements[0], cst.StarredElement):
        return cmd.elements[0].value
    return cmd


def parameter_commands(
    screen: Screen, func: cst.FunctionDef, cls: cst.ClassDef | None, cmd: cst.BaseExpression, path: str | None = None
) -> list[cst.BaseExpression] | None:
    """``cmd`` with its program (``[command, pdf]``, ``[self.executable, ...]``) or its whole text (``run(command)``)
    replaced by each literal the parameter naming it can hold; None when it is named some other way."""
    head = program_expression(cmd)
    programs: list[str] | None = None
    if isinstance(head, cst.Name):
        programs = param_values(screen, func, head.value, cls)
    elif isinstance(head, cst.Attribute) and isinstance(head.value, cst.Name) and head.value.value == "self" and cls is not None:
        programs = attribute_values(screen, cls, head.attr.value)
    if programs is None and head is cmd and isinstance(head, cst.Name):
        return parameter_lists(screen, func, head.value, cls, path)  # s45: `def _run(cmd)` called with whole literal lists
    if programs is None:
        return None
    if head is cmd:
        return [cst.SimpleString(repr(p)) for p in programs]
    assert isinstance(cmd, (cst.List, cst.Tuple))
    first, rest = cmd.elements[0], list(cmd.elements[1:])
    return [cmd.with_changes(elements=[first.with_changes(value=cst.SimpleString(repr(p))), *rest]) for p in programs]


def _any_module(parts: list[str]) -> bool:
    return True


def _with_flags(items: list[ast.expr]) -> list[ast.expr]:
    """A literal list's program and sub-command, then the literal flags after its first unspelled word
    (``["git", "merge", branch, "--no-edit", "-m", msg]`` -> git, merge, --no-edit, -m, msg): what decides whether it
    may wait for a person is read; the unspelled words stay unread (``*_rest``)."""
    lead = next((i for i, e in enumerate(items) if not (isinstance(e, ast.Constant) and isinstance(e.value, str))),
                len(items))
    if lead < 2 or lead == len(items):
        return items
    flags = [e for e in items[lead:] if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.startswith("-")]
    return [*items[:lead], *flags, items[lead]]


def parameter_lists(screen: Screen, func: cst.FunctionDef, name: str, cls: cst.ClassDef | None, path: str | None = None
                    ) -> list[cst.BaseExpression] | None:
    """s45 (batch 17): a helper handed its whole command (``def _run(cmd, cwd): run(cmd, cwd=cwd, ...)``) runs, at
    each call of it in the module, that call's list (``_run(["git", "worktree", "remove", path], root)``): one command
    per call, its literal leading words (what follows them is ``*_rest``, not read); None when a use of the helper is
    not a call handing it a list or tuple that starts with a literal word (a name, a list built elsewhere, ``*args``),
    when the parameter has a default, when the module has no call of it, or when a module of the project imports the
    helper (``path``: the linted file; it may be handed anything there)."""
    positional = [*func.params.posonly_params, *func.params.params]
    param = next((p for p in positional if p.name.value == name), None)
    star = func.params.star_arg
    vararg = isinstance(star, cst.Param) and star.name.value == name  # s46: `def _run_exec(*args)`: the call's positionals
    if (param is None and not vararg) or (param is not None and param.default is not None) or func.name.value == "__init__":
        return None
    bound = bool(positional) and positional[0].name.value in ("self", "cls") and cls is not None
    index = (positional.index(param) if param is not None else len(positional)) - (1 if bound else 0)
    if not bound and cls is None and path is not None and func.name.value in imported_by(path, _any_module, "any"):
        return None if vararg else _project_lists(path, func.name.value, index, name)
    names, attrs = screen.memo(("parameter_uses",), lambda: _uses(screen))
    calls = (attrs if bound else names).get(func.name.value, [])
    out: list[cst.BaseExpression] = []
    for call in calls:
        if call is None or any(isinstance(a, ast.Starred) for a in call.args[: None if vararg else index + 1]) or any(
                k.arg is None for k in call.keywords):
            return None
        if vararg:  # s46 (batch 18, kolega's clipboard reads): `_run_exec("xclip", "-o", ...)`: one command per call
            items: list[ast.expr] = list(call.args[index:])
        else:
            arg = _call_arg(call, index, name)
            upstream = _passed_on(screen, call, arg) if isinstance(arg, ast.Name) else None
            if upstream is not None:  # s46: `_run(cmd)` inside `def _step(self, cmd)`: each list its callers pass
                each = _each_list(upstream, lambda elts: _forwarded_words([], _with_flags(_constants(elts, module_strings(screen)))))
                if each is None:
                    return None
                out.extend(each)
                continue
            if not isinstance(arg, (ast.List, ast.Tuple)):
                return None
            items = list(arg.elts)
        built = _forwarded_words([], _with_flags(_constants(items, module_strings(screen))))
        if built is None:
            return None
        out.append(built)
    return out or None


def _project_lists(path: str, function: str, index: int, name: str) -> list[cst.BaseExpression] | None:
    """s48 (batch 20, portacode's ``tunneling/privileged.py``): a module function that other modules of the project
    import, handed its whole command: each call of that name in the project (``project_call_arguments``: its
    package's modules on disk; calls of another function of the same name are read too, which only adds commands)
    hands a list or tuple that starts with a literal word, and every module that mentions the name only calls it or
    imports it unrenamed (``project_only_calls``: a callback handed on, ``import f as g``, keep it reported); None
    otherwise (a name, a list built elsewhere, the command by keyword, ``*args``)."""
    sites = project_call_arguments(path, function) if project_only_calls(path, function) else None
    out: list[cst.BaseExpression] = []
    for keywords, _, _, spread, lists in sites or ():
        words = lists[index] if index < len(lists) else None
        if spread or name in keywords or words is None or not words[0]:
            return None
        head = [cst.Element(cst.SimpleString(repr(w))) for w in words[0]]
        out.append(cst.List(head if words[1] else [*head, cst.StarredElement(cst.Name("_rest"))]))
    return out or None


def forwarded_param(
    cmd: cst.BaseExpression, is_builtin: Callable[[str], bool] | None = None
) -> tuple[list[cst.BaseElement], str] | None:
    """``["git", *argv]`` / ``["git", "-C", d] + args``: the literal-led prefix and the parameter forwarded after it.
    s46 (batch 19, openocto; hermes-agent, praisonaiagents): ``["tmux"] + list(args)`` forwards ``args`` too, when
    ``is_builtin`` says ``list``/``tuple`` there is Python's builtin (a copy of the same items)."""
    if isinstance(cmd, (cst.List, cst.Tuple)) and len(cmd.elements) > 1:
        last = cmd.elements[-1]
        if isinstance(last, cst.StarredElement) and isinstance(last.value, cst.Name):
            return list(cmd.elements[:-1]), last.value.value
    if isinstance(cmd, cst.BinaryOperation) and isinstance(cmd.operator, cst.Add):
        right = _copied_name(cmd.right, is_builtin)
        if right is not None and isinstance(cmd.left, (cst.List, cst.Tuple)) and cmd.left.elements:
            return list(cmd.left.elements), right
    return None


def _copied_name(node: cst.BaseExpression, is_builtin: Callable[[str], bool] | None) -> str | None:
    """``args``, or ``list(args)``/``tuple(args)`` with the builtin: the name whose items are added."""
    if isinstance(node, cst.Name):
        return node.value
    if (is_builtin is not None and isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
            and node.func.value in ("list", "tuple") and is_builtin(node.func.value) and len(node.args) == 1
            and not node.args[0].keyword and not node.args[0].star and isinstance(node.args[0].value, cst.Name)):
        return node.args[0].value.value
    return None


def forwarded_commands(
    screen: Screen, func: cst.FunctionDef, cls: cst.ClassDef | None, cmd: cst.BaseExpression,
    is_builtin: Callable[[str], bool] | None = None,
) -> list[cst.BaseExpression] | None:
    """s42 (batch 15): a helper that forwards its arguments to a program (``def git(cwd, *argv): run(["git", *argv])``,
    ``def _run_git(root, args): run(["git", *args])``) runs, at each call of it in the module, the prefix followed by
    that call's literal leading arguments (``git(cwd, "status", "--porcelain")``, ``_run_git(root, ["blame", p])``):
    one command per call; None when a use of the helper is not such a call (no literal sub-command, a callback
    handed on, ``*args`` passed on) or it has no call in the module."""
    found = forwarded_param(cmd, is_builtin)
    if found is None:
        return None
    prefix, name = found
    positional = [*func.params.posonly_params, *func.params.params]
    bound = bool(positional) and positional[0].name.value in ("self", "cls") and cls is not None
    offset = 1 if bound else 0
    star = func.params.star_arg
    param = next((p for p in positional if p.name.value == name), None)
    if isinstance(star, cst.Param) and star.name.value == name:
        index, vararg = len(positional) - offset, True
    elif param is not None and param.default is None:
        index, vararg = positional.index(param) - offset, False
    else:
        return None
    if func.name.value == "__init__":
        return None
    names, attrs = screen.memo(("parameter_uses",), lambda: _uses(screen))
    calls = [(c, index) for c in (attrs if bound else names).get(func.name.value, [])]
    if not bound and positional and index > 0:
        # s44 (batch 16, bello): a module function whose first parameter is the object it is called through
        # (`def _run_git(ops, /, cwd, args)` called as `ops._run_git(root, ["rev-parse", "HEAD"])`): that call
        # passes the rest
        first = positional[0].name.value
        calls += [(c, index - 1) for c in attrs.get(func.name.value, []) if c is not None
                  and isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name) and c.func.value.id == first]
    out: list[cst.BaseExpression] = []
    for call, index in calls:
        if call is None or any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
            return None
        if vararg:
            items: list[ast.expr] = list(call.args[index:])
        else:
            arg = _call_arg(call, index, name)
            walked = _walked(screen, call, arg) if arg is not None else None
            if walked is None and arg is not None:  # s46: `self._git(args)` in `_git_names(self, args)`: its callers' lists
                walked = _passed_on(screen, call, arg)
            if walked is not None:  # s44: `run(arguments)` in a loop over literal sub-commands: each of them
                each = _each_list(walked, lambda elts: _forwarded_words(prefix, _constants(elts, module_strings(screen))))
                if each is None:
                    return None
                out.extend(each)
                continue
            if not isinstance(arg, (ast.List, ast.Tuple)):
                return None
            items = list(arg.elts)
        built = _forwarded_words(prefix, _constants(items, module_strings(screen)))
        if built is None:
            return None
        out.append(built)
    return out or None


def _call_arg(call: ast.Call, index: int, name: str) -> ast.expr | None:
    """The argument ``call`` hands the parameter ``name`` at position ``index``: positional, else by keyword."""
    return call.args[index] if index < len(call.args) else next((k.value for k in call.keywords if k.arg == name), None)


def _each_list(lists: list[ast.expr], build: Callable[[list[ast.expr]], cst.BaseExpression | None]
               ) -> list[cst.BaseExpression] | None:
    """Each literal list or tuple of ``lists`` as ``build`` words it; None when one is not such a list or gives none."""
    out: list[cst.BaseExpression] = []
    for node in lists:
        built = build(list(node.elts)) if isinstance(node, (ast.List, ast.Tuple)) else None
        if built is None:
            return None
        out.append(built)
    return out


def module_strings(screen: Screen) -> dict[str, str]:
    """s51: the module's string constants, ``TMUX_BIN = "tmux"``: a name bound once at module level, to a string
    literal, and never declared ``global`` (so no function rebinds it)."""
    def read() -> dict[str, str]:
        tree = screen.tree
        body = tree.body if isinstance(tree, ast.Module) else []
        seen: dict[str, int] = {}
        out: dict[str, str] = {}
        for stmt in body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
                stmt, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        seen[n.id] = seen.get(n.id, 0) + 1
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and isinstance(value, ast.Constant) \
                    and isinstance(value.value, str) and not isinstance(stmt, ast.AugAssign):
                out[targets[0].id] = value.value
        declared = {name for n in ast.walk(tree) if isinstance(n, ast.Global) for name in n.names}
        return {k: v for k, v in out.items() if seen.get(k) == 1 and k not in declared}
    return screen.memo(("module_strings",), read)


def _constants(items: list[ast.expr], constants: dict[str, str]) -> list[ast.expr]:
    """s51: ``items`` with each module string constant (:func:`module_strings`) as its literal:
    ``_run(TMUX_BIN, "list-sessions")`` with ``TMUX_BIN = "tmux"`` hands ``"tmux", "list-sessions"``."""
    return [ast.Constant(constants[e.id]) if isinstance(e, ast.Name) and e.id in constants else e for e in items]


def _forwarded_words(prefix: list[cst.BaseElement], items: list[ast.expr]) -> cst.BaseExpression | None:
    """``prefix`` followed by the literal leading words of ``items`` (``*_rest`` for what follows them: not read, as
    ``command_words`` does not), or None when ``items`` starts with no literal word."""
    words: list[str] = []
    for item in items:
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            break
        words.append(item.value)
    if not words:
        return None
    head = [*(e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in prefix),
            *(cst.Element(cst.SimpleString(repr(w))) for w in words)]
    return cst.List([*head, cst.StarredElement(cst.Name("_rest"))] if len(words) < len(items) else head)
