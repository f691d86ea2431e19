"""s50 (issue 24): a ``try`` that only checks or parses the model's own input (TFH401).

The lead's decision (``bench/survey/README.md``, "Labelling TFH401"): the text of an exception raised while
checking or parsing what the model sent, before the tool acts, is the repair the model needs, not a stringified
failure: ``json.loads(arguments)``, ``self.Params.model_validate(data)``, ``_validate_session_id(session_id)``,
``coerce_str_list(kwargs.get("url"))``, ``_resolve_workspace_path(file_path, root)``, ``shlex.split(cmd)``. So a
handler of such a ``try`` binds no exception text, whatever it catches. The ``try`` qualifies when

- no call in it reaches outside and nothing is awaited (``ErrorModel.tool_like``);
- every call in it is a check (a callee named with a word of ``INPUT_CHECK_WORDS``, or a parser of text in memory,
  ``INPUT_PARSERS``; a same-module helper so named whose own body reaches outside is no check), a call that only
  moves a value (``INPUT_MOVING_CALLS``: ``args.get("x")``, ``path.strip()``), a pydantic-style model built from
  the arguments (``Params(**arguments)``) or the exception a ``raise`` in it builds;
- at least one check is handed the model's input: a parameter of a tool (``ExceptionText.in_tool``), or a
  parameter named as a tool call's arguments (``arguments``, ``args``, ``tool_input``: ``TOOL_ARGUMENT_NAMES``) or
  an attribute so named of any parameter (``call.input``, ``event.args``), or a local name bound from one.

A parser needs the model's input proper; a check named so takes any parameter (a tool's helper, lionagi's
``_write_file_sync(file_path, ...)``). Still reported: the same ``try`` running the tool (``fn(**arguments)``,
``tool.execute(**args)``, any call that is no check), a parse of a program's or a server's output
(``json.loads(proc.stdout)``, ``resp.json()``: not the model's input), a check named for a peer
(``_validate_chef_server_connection``: ``INPUT_CHECK_REMOTE_WORDS``) or handed a client-like object
(``resolve_git_root(container, path)``), another object's ``resolve`` (``mcp.resolve(name, args)``), and a check
whose body (the module's own, on the ``ast`` tree, with the module's helpers it calls, two levels; a project
function, read from disk) awaits or calls out.

s54 (issue 24): beside the named checks, a call that only computes on the model's input (:func:`_of_input_only`): a
builtin that does not act, an in-memory module's function, a value method of the input (``Path(path).expanduser()
.resolve()``), or a module-level project function whose body (and its module's functions it calls, two levels) calls
only builtins, in-memory modules, value methods and the exception a ``raise`` builds (:func:`_project_pure`). Such a
call needs the model's input proper, as a parser does; a local made by one is no input (``api = get_client(ctx)``).
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

import ast
import builtins

from ...linter.api import Handler, imported_definition, Knowledge, chain_root, effects, last_name, outside_screen, walk_in_scope, walk_in_scope_ast
from .model import ErrorModel, definitions, words

__all__ = ["checks_model_input"]

BUILTIN_NAMES = frozenset(dir(builtins))

_OUTSIDE_MODULES = frozenset({"subprocess", "socket", "urllib", "shutil", "asyncio"})


def checks_model_input(errors: ErrorModel, func: object, handler: Handler, tool: bool) -> bool:
    """Whether ``handler``'s ``try`` only checks or parses the model's input (module docstring); ``tool``: ``func``
    is a tool."""
    if not isinstance(func, cst.FunctionDef):
        return False
    body = handler.statement.body
    sent, given = _inputs(func, errors, tool), _inputs(func, errors, True)
    if not given or errors.tool_like(body):
        return False
    raised = {id(n.exc) for n in walk_in_scope(body) if isinstance(n, cst.Raise) and n.exc is not None}
    checked = False
    for n in walk_in_scope(body):
        if not isinstance(n, cst.Call) or id(n) in raised:
            continue
        kind = _kind(errors, n, given)
        if kind is None:
            return False
        # a parser needs the model's input proper; a check named so, any parameter of a function feeding a tool
        # a parser, or a call of the model's input only (s54), needs the model's input proper; a check named so,
        # any parameter of a function feeding a tool
        need = sent if kind in ("parse", "own") else given
        if kind != "move" and (any(_mentions(a.value, need) for a in n.args)
                               or (kind == "own" and isinstance(n.func, cst.Attribute) and _mentions(n.func.value, need))):
            checked = True
    return checked


def _params(func: cst.FunctionDef) -> list[cst.Param]:
    p = func.params
    out = [*p.posonly_params, *p.params, *p.kwonly_params]
    out += [s for s in (p.star_arg, p.star_kwarg) if isinstance(s, cst.Param)]
    return [x for x in out if x.name.value not in ("self", "cls")]


def _inputs(func: cst.FunctionDef, errors: ErrorModel, tool: bool) -> set[str]:
    """The names holding the model's input in ``func``: its parameters (a tool's, or those named as a tool call's
    arguments), attributes so named of a parameter (``"call.input"``), and locals bound from one of them."""
    k = errors.knowledge
    names = {p.name.value for p in _params(func)}
    out = set(names) if tool else names & k.tool_argument_names
    out |= {f"{n}.{a}" for n in names for a in k.tool_argument_names}
    if not out:
        return out
    for _ in range(2):  # ``cleaned = raw.strip()`` ... ``parsed = json.loads(cleaned)``
        for n in walk_in_scope(func.body):
            if isinstance(n, cst.Assign) and _mentions(n.value, out) and all(
                    _kind(errors, c, out) not in (None, "own") or "clean" in words(last_name(c.func) or "")
                    for c in walk_in_scope(n.value) if isinstance(c, cst.Call)):
                out |= {t.target.value for t in n.targets if isinstance(t.target, cst.Name)}
    return out  # not ``proc = subprocess.run([..., repo])``, nor ``api = get_client(context)`` (s54): what a call made
    # of the input is no longer the input


def _mentions(node: cst.CSTNode, inputs: set[str]) -> bool:
    """``node`` reads one of ``inputs`` (a name, or a ``param.attr`` spelled so)."""
    for n in walk_in_scope(node):
        if isinstance(n, cst.Name) and n.value in inputs:
            return True
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and f"{n.value.value}.{n.attr.value}" in inputs:
            return True
    return False


def _reaches_out_cst(helper: cst.FunctionDef, lasts: frozenset[str], k: Knowledge) -> bool:
    """A project helper read from disk awaits, calls a known outside call or a module that reaches outside by name
    (``subprocess.run``, ``requests.get``, ``open``), or a method of a client-like receiver."""
    for n in walk_in_scope(helper.body):
        if isinstance(n, cst.Await):
            return True
        if isinstance(n, cst.Call):
            root = chain_root(n.func)
            if isinstance(root, cst.Name) and (root.value in k.module_roots() or root.value in _OUTSIDE_MODULES):
                return True
            if last_name(n.func) in lasts or (isinstance(n.func, cst.Attribute)
                                               and effects.chain_words(n.func) & k.tool_receiver_words):
                return True
    return False


def _helper_reaches_out(errors: ErrorModel, call: cst.Call, name: str) -> bool:
    """A same-module helper of that name (``_check(...)``, ``self._resolve(...)``) whose body awaits or calls through
    a module that reaches outside, a client-like receiver or a known outside call (``open``), read on the ``ast``
    tree (the libcst module holds only the candidates' definitions)."""
    func = call.func
    own = isinstance(func, cst.Name) and errors.names.lookup(func.value) is None
    own = own or (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"))
    screen, k = errors.ctx.screen, errors.knowledge
    roots, lasts = screen.memo("input_check.outside", lambda: outside_screen(screen, k))
    if not own:  # a function imported from the project, read from disk (its own imports unknown here: by name)
        return any(_reaches_out_cst(h, lasts, k) for h in errors.helpers_of(call, imported=True)[0])
    bound = screen.memo("input_check.bound", lambda: {local: full.split(".")[0] for local, full in screen.import_bindings})
    defs = screen.memo("input_check.defs", lambda: definitions(screen.tree))
    return _own_reaches_out(name, defs, bound, roots, lasts, k, depth=2)


def _own_reaches_out(name: str, defs: list[ast.FunctionDef | ast.AsyncFunctionDef], bound: dict[str, str],
                     roots: frozenset[str], lasts: frozenset[str], k: Knowledge, depth: int) -> bool:
    """The module's helper ``name`` reaches outside (:func:`_helper_reaches_out`), or a module helper it calls by name
    or on ``self`` does, ``depth`` levels down (code-review-graph's ``parse_diff_ranges`` dispatching to
    ``parse_git_diff_ranges``, which runs git)."""
    for d in defs:
        if d.name != name:
            continue
        for n in walk_in_scope_ast(d.body):
            if isinstance(n, (ast.Await, ast.AsyncWith, ast.AsyncFor)):
                return True
            if not isinstance(n, ast.Call):
                continue
            root = chain_root(n.func)
            if isinstance(root, ast.Name) and bound.get(root.id) in roots:
                return True
            if last_name(n.func) in lasts or (isinstance(n.func, ast.Attribute) and effects.chain_words(n.func) & k.tool_receiver_words):
                return True
            callee = last_name(n.func)
            mine = isinstance(n.func, ast.Name) and n.func.id not in bound or (
                isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id in ("self", "cls"))
            if depth > 1 and mine and callee and callee != name and _own_reaches_out(
                    callee, defs, bound, roots, lasts, k, depth - 1):
                return True
    return False


def _kind(errors: ErrorModel, call: cst.Call, inputs: set[str]) -> str | None:
    """``"check"`` (a callee named for a check), ``"parse"`` (a parser of text in memory), ``"move"`` (only moves a value) or None (anything else: the tool's work)."""
    k = errors.knowledge
    names = errors.names
    name = last_name(call.func) or ""
    qn = names.qualname(call.func)
    if qn is not None and k.canonical(qn) in k.input_parsers:
        return "parse"
    if isinstance(call.func, cst.Name) and name == "compile" and names.is_builtin(name):
        return "parse"
    if name in k.input_model_parsers and isinstance(call.func, cst.Attribute):
        return "parse"  # ``self.Params.model_validate(data)``: the model's input only if ``data`` is
    said = words(name) & k.input_check_words
    if said:
        f = call.func
        if said == {"resolve"} and isinstance(f, cst.Attribute) and not (
                isinstance(f.value, cst.Name) and f.value.value in ("self", "cls")):
            # ``mcp.resolve(name, args)``: another object's lookup (a registry, a server), not a check; a path the
            # model gave (``Path(path).resolve()``) is its input (s54)
            return "own" if _of_input_only(errors, call, inputs) else None
        if words(name) & k.input_check_remote_words or any(
                isinstance(a.value, (cst.Name, cst.Attribute)) and effects.chain_words(a.value) & k.tool_receiver_words
                for a in call.args):
            return None  # ``_validate_server_connection(url)``, ``resolve_git_root(container, path)``: asks a peer
        return None if _helper_reaches_out(errors, call, name) else "check"
    if name in k.input_moving_calls and (not isinstance(call.func, cst.Name) or names.is_builtin(name)):
        return "move"
    if name[:1].isupper() and call.args and all(a.star == "**" and _mentions(a.value, inputs) for a in call.args):
        return "parse"  # ``Params(**arguments)``: a validation model built from the arguments
    return "own" if _of_input_only(errors, call, inputs) else None


def _of_input_only(errors: ErrorModel, call: cst.Call, inputs: set[str]) -> bool:
    """s54 (issue 24): ``call`` only computes on the model's input (``int(limit)``, ``Path(path).resolve()``,
    ``object_type.split(".")``, ``utc_to_epoch(as_of)``, ``resolve_cwd(cwd)``): every argument (and a method's
    receiver) holds only the input, constants or module-level names, and the callee is a builtin that does not
    act, a function of an in-memory module of the standard library or an in-memory library (resolved through the
    imports), a method of a value made of the input, or a function or class of the project whose body (one level,
    read from disk when imported) neither awaits nor calls out nor touches files or processes. Anything else (a
    client's method, a third-party call, ``fn(**arguments)``, a method of a value the input did not make) is the
    tool's work."""
    k, names = errors.knowledge, errors.names
    values = [a.value for a in call.args]
    func = call.func
    on_input = isinstance(func, cst.Attribute) and _mentions(func.value, inputs) and _only_input(errors, func.value, inputs)
    if not values and not on_input:  # ``time.time()`` beside the check (lovia's next fire time)
        qn = names.qualname(func)
        return qn is not None and k.canonical(qn) in k.fresh_value_calls
    if not all(_only_input(errors, v, inputs) for v in values):
        return False
    name = last_name(func) or ""
    if isinstance(func, cst.Name) and names.is_builtin(name):
        return name not in k.io_builtins
    qn = names.qualname(func)
    if qn is not None:
        canon = k.canonical(qn)
        root = canon.split(".")[0]
        if canon in k.pure_calls or root in k.in_memory_modules or root in k.in_memory_libraries:
            return True
    if on_input:  # ``Path(path).expanduser().resolve()``, ``spec.split(".")``; not ``spec.handler(**args)``, nor
        # ``ctx.resolve(args["cwd"])`` (a parameter's own method, unresolved: a path method only of a value made here)
        assert isinstance(func, cst.Attribute)
        return name in k.local_foreign_methods or (name in _PURE_PATH_METHODS and isinstance(func.value, cst.Call))
    own = isinstance(func, cst.Name) and names.lookup(func.value) is None and not names.is_builtin(func.value)
    return (own or qn is not None) and _project_pure(errors, call, name)


def _only_input(errors: ErrorModel, node: cst.BaseExpression, inputs: set[str]) -> bool:
    """``node`` reads nothing but the model's input, constants and module-level names (a local made otherwise,
    ``contents = await read(...)``, is no input)."""
    names = errors.names
    skip = {id(n.attr) for n in walk_in_scope(node) if isinstance(n, cst.Attribute)}
    skip |= {id(n.keyword) for n in walk_in_scope(node) if isinstance(n, cst.Arg) and n.keyword is not None}
    for n in walk_in_scope(node):
        if isinstance(n, cst.Name) and id(n) not in skip and n.value not in inputs and not names.is_builtin(n.value) \
                and _local(errors, n.value):
            return False
    return True


def _local(errors: ErrorModel, name: str) -> bool:
    """``name`` is bound in a function here (a local or a closure's), not at module level."""
    return any(name in s.bindings for s in errors.names.stack[1:] if s.kind == "function")


def _project_pure(errors: ErrorModel, call: cst.Call, name: str) -> bool:
    """A module-level function of the project (the module's own, read on the ``ast`` tree, or one imported from
    another module of it, read from disk; not a method, which a subclass may override) whose body, read one level,
    awaits nothing and calls only builtins that do not act, in-memory modules (``re``, ``datetime``, ``pathlib``'s
    ``Path``: ``_PURE_MODULES``), methods of values (``k.local_foreign_methods``, a path's ``resolve``) and the
    exception a ``raise`` builds: any other call (another helper, a client, a file, a program) may act."""
    k, screen = errors.knowledge, errors.ctx.screen
    bound = screen.memo("input_check.full_bound", lambda: dict(screen.import_bindings))
    methods = k.local_foreign_methods | _PURE_PATH_METHODS
    modules = k.in_memory_modules | k.in_memory_libraries | _PURE_MODULES
    if isinstance(call.func, cst.Name) and errors.names.lookup(call.func.value) is None:
        defs = screen.memo("input_check.defs", lambda: definitions(screen.tree))
        return _pure_ast(name, defs, bound, methods, modules, k, depth=2)
    helpers, methodical = errors.helpers_of(call, imported=True)
    qn = errors.names.qualname(call.func)
    if not helpers or methodical or qn is None or "." not in qn:
        return False
    module = qn.rsplit(".", 1)[0]
    return all(_pure_body_cst(h, methods, modules, k, lambda n: imported_definition(errors.ctx.path, f"{module}.{n}"), 2)
               for h in helpers)


def _pure_ast(name: str, defs: list[ast.FunctionDef | ast.AsyncFunctionDef], bound: dict[str, str],
              methods: frozenset[str], modules: frozenset[str], k: Knowledge, depth: int) -> bool:
    """The module's function ``name`` is pure (:func:`_project_pure`), the module's functions it calls read
    ``depth`` levels down (lovia's ``initial_next_fire`` calling ``_croniter_next``, which imports croniter)."""
    mine = [d for d in defs if d.name == name]
    return bool(mine) and all(_pure_body_ast(d, bound, methods, modules, k, lambda n: depth > 1 and _pure_ast(
        n, defs, bound, methods, modules, k, depth - 1)) for d in mine)


def _pure_body_ast(d: ast.FunctionDef | ast.AsyncFunctionDef, bound: dict[str, str], methods: frozenset[str],
                   modules: frozenset[str], k: Knowledge, sibling: Callable[[str], bool]) -> bool:
    if isinstance(d, ast.AsyncFunctionDef):
        return False
    raised = {id(n.exc) for n in walk_in_scope_ast(d.body) if isinstance(n, ast.Raise) and n.exc is not None}
    for n in walk_in_scope_ast(d.body):
        if isinstance(n, (ast.Await, ast.AsyncWith, ast.AsyncFor, ast.Yield, ast.YieldFrom)):
            return False
        if not isinstance(n, ast.Call) or id(n) in raised:
            continue
        f = n.func
        if isinstance(f, ast.Name):
            full = bound.get(f.id)
            if full is None and not (f.id in BUILTIN_NAMES and f.id not in k.io_builtins) and not sibling(f.id):
                return False
            if full is not None and full.split(".")[0] not in modules:
                return False
        elif isinstance(f, ast.Attribute):
            root = _dotted_root(f)
            full = bound.get(root.id) if isinstance(root, ast.Name) else None
            if not (f.attr in methods or (full is not None and full.split(".")[0] in modules)):
                return False
        else:
            return False
    return True


def _pure_body_cst(h: cst.FunctionDef, methods: frozenset[str], modules: frozenset[str], k: Knowledge,
                   find: Callable[[str], cst.FunctionDef | None], depth: int) -> bool:
    """:func:`_pure_body_ast` for a function read from disk (its module's imports unknown here: a module by name; a
    function of its module it calls, ``find``, read ``depth`` levels down)."""
    if h.asynchronous is not None:
        return False
    raised = {id(n.exc) for n in walk_in_scope(h.body) if isinstance(n, cst.Raise) and n.exc is not None}
    for n in walk_in_scope(h.body):
        if isinstance(n, (cst.Await, cst.Yield)):
            return False
        if not isinstance(n, cst.Call) or id(n) in raised:
            continue
        f = n.func
        if isinstance(f, cst.Name):
            if (f.value in BUILTIN_NAMES and f.value not in k.io_builtins) or f.value in modules or f.value in ("Path", "PurePath"):
                continue
            nested = find(f.value) if depth > 1 else None
            if nested is None or not _pure_body_cst(nested, methods, modules, k, find, depth - 1):
                return False
        elif isinstance(f, cst.Attribute):
            root = _dotted_root(f)
            if not (f.attr.value in methods or (isinstance(root, cst.Name) and root.value in modules)):
                return False
        else:
            return False
    return True


def _dotted_root(f: ast.Attribute | cst.Attribute) -> ast.expr | cst.BaseExpression:
    """The name a dotted callee starts from (``re.compile`` -> ``re``), or the call it is a method of
    (``Path(p).read_text`` -> the ``Path(p)`` call: a module's name does not make its values' methods pure)."""
    node: ast.expr | cst.BaseExpression = f
    while isinstance(node, (ast.Attribute, cst.Attribute)):
        node = node.value
    return node


# s54: modules of the standard library that compute in memory beside ``IN_MEMORY_MODULES`` (a path's arithmetic, not
# its reads: those are methods, checked apart), and the methods of a path that only compute.
_PURE_MODULES = frozenset({"pathlib", "unicodedata", "shlex", "ipaddress", "fnmatch", "textwrap", "itertools",
                           "functools", "operator", "zoneinfo", "calendar"})
_PURE_PATH_METHODS = frozenset({"resolve", "absolute", "expanduser", "is_absolute", "is_relative_to"})
