"""s51 (issue 23): whether a function runs only in the person's foreground, by its callers across the project.

TFH201's foreground (the lead's session-50 decision, ``bench/survey/README.md`` "Labelling TFH201") is a CLI command's
own step: a click/typer/cyclopts command, an argparse sub-command's handler, a ``main()`` reading its command line, an
``if __name__ == "__main__":`` block. A helper such a command calls (``def _install(pkg): subprocess.run(["pip",
"install", pkg])`` called only by ``@app.command() def setup()``) runs in the same foreground. :func:`foreground_only`
answers it for a function name: every call of the name in the project (the linted file's top-level package on disk, or
the linted module alone outside a package) is made by such an entry, or by a function that itself passes this test
(three helpers deep), and no module uses the name other than by calling it (handed to a tool registry, a thread, a
scheduler: then someone else may call it). One caller that is anything else (a tool, a route, a worker, module-level
code) and the answer is no.

Each module is read once per process: its words (a byte screen: which modules mention the name) and, for the modules
that do, one ``ast`` summary (who calls what, which names are used uncalled), memoised by path, size and mtime; the
linted module's own summary comes from the tree its screen already parsed. The modules read are recorded for the cache.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import imports_disk as disk
from . import knowledge as kb
from .nodes import is_main_test

__all__ = ["foreground_only", "summarise"]

#: how many helpers deep a caller is followed toward a command
DEPTH = 3

_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_ARG_PARSERS = frozenset({"parse_args", "parse_known_args"})


@dataclass(frozen=True, slots=True)
class Callers:
    """One module: per called name, each caller as (its innermost function's name, or "" at module level; whether
    that caller is a command the person runs; the module the call names, ``mod.f()`` with ``mod`` an import, else "");
    and the names it uses other than by calling them, each with the module they are read from (or "")."""
    callers: dict[str, frozenset[tuple[str, bool, str]]]
    uncalled: frozenset[tuple[str, str]]
    entries: frozenset[str] = frozenset()  # the module's functions that are themselves commands the person runs


def _imports(tree: ast.AST, roots: frozenset[str]) -> bool:
    for n in ast.walk(tree):
        if isinstance(n, ast.Import) and any(a.name.split(".")[0] in roots for a in n.names):
            return True
        if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module and n.module.split(".")[0] in roots:
            return True
    return False


def _cli_decorator(dec: ast.expr) -> bool:
    """``@app.command()``, ``@cli.group()``, ``@click.command``: the last word is a CLI framework's command word."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    word = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else None
    return word in kb.CLI_DECORATOR_WORDS


def _parses_args(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The function reads its command line: ``parser.parse_args()``, a project's own ``parse_args(argv)``, or (a
    ``main``) ``sys.argv``."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else
                                        n.func.id if isinstance(n.func, ast.Name) else None) in _ARG_PARSERS:
            return True
        if fn.name == "main" and isinstance(n, ast.Attribute) and n.attr == "argv" and isinstance(n.value, ast.Name) \
                and n.value.id == "sys":
            return True
    return False


def summarise(tree: ast.AST) -> Callers:
    """Who calls what in ``tree``, and which names it uses uncalled (:class:`Callers`)."""
    cli = _imports(tree, kb.CLI_FRAMEWORKS)
    handlers: set[str] = set()  # argparse sub-commands' handlers: `set_defaults(func=cmd)`, `{"setup": cmd_setup}`
    imported: dict[str, str] = {}  # a name an import binds -> the module (or name) it stands for, its last word
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "set_defaults":
            handlers.update(k.value.id for k in n.keywords if isinstance(k.value, ast.Name))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and _parses_args(n):
            handlers.update(v.id for d in ast.walk(n) if isinstance(d, ast.Dict) for v in d.values
                            if isinstance(v, ast.Name))
        elif isinstance(n, ast.Import):
            imported.update((a.asname or a.name.split(".")[0], (a.name if a.asname else a.name.split(".")[0])
                             .split(".")[-1]) for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            imported.update((a.asname or a.name, a.name) for a in n.names)
    callers: dict[str, set[tuple[str, bool, str]]] = {}
    uncalled: set[tuple[str, str]] = set()
    stack: list[tuple[str, bool]] = []
    entries: set[str] = set()

    def via(receiver: ast.expr) -> str:
        """``subprocess`` for ``subprocess.run``, ``c`` for ``a.b.c.f``: the module a call names, when its root is an
        import; "" for anything else (``self``, an object)."""
        words: list[str] = []
        while isinstance(receiver, ast.Attribute):
            words.append(receiver.attr)
            receiver = receiver.value
        if not isinstance(receiver, ast.Name) or receiver.id not in imported:
            return ""
        return words[0] if words else imported[receiver.id]

    def entry(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        return (cli and any(_cli_decorator(d) for d in fn.decorator_list)) or fn.name in handlers or _parses_args(fn)

    def visit(node: ast.AST, main: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                visit(d, main)
            for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                visit(d, main)
            stack.append((node.name, entry(node)))
            if stack[-1][1]:
                entries.add(node.name)
            for stmt in node.body:
                visit(stmt, main)
            stack.pop()
            return
        if isinstance(node, ast.Lambda):  # a lambda is called by whoever it is handed to: no command's own step
            stack.append(("", False))
            visit(node.body, main)
            stack.pop()
            return
        if isinstance(node, ast.If) and not stack and is_main_test(node.test):
            for stmt in node.body:
                visit(stmt, True)
            for stmt in node.orelse:
                visit(stmt, main)
            return
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None:
                at = stack[-1] if stack else ("", main)
                callers.setdefault(name, set()).add((*at, via(func.value) if isinstance(func, ast.Attribute) else ""))
            if isinstance(func, ast.Attribute):
                visit(func.value, main)
            elif not isinstance(func, ast.Name):
                visit(func, main)
            for a in [*node.args, *(k.value for k in node.keywords)]:
                if not (isinstance(a, ast.Name) and a.id in handlers):  # `set_defaults(func=cmd)`: the command itself
                    visit(a, main)
            return
        if isinstance(node, ast.Dict):  # `{"setup": cmd_setup}` of a function reading its command line: a handler
            for k in node.keys:
                if k is not None:
                    visit(k, main)
            for v in node.values:
                if not (isinstance(v, ast.Name) and v.id in handlers):
                    visit(v, main)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):  # imported under another name: its calls go unseen
            uncalled.update((a.name.split(".")[-1], "") for a in node.names if a.asname and a.asname != a.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            uncalled.add((node.id, ""))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            uncalled.add((node.attr, via(node.value)))
        for child in ast.iter_child_nodes(node):
            visit(child, main)

    try:
        for stmt in tree.body if isinstance(tree, ast.Module) else []:
            visit(stmt, False)
    finally:
        del visit  # the recursive closure refers to itself: freed by reference counting, not left to the cycle collector
    return Callers({k: frozenset(v) for k, v in callers.items()}, frozenset(uncalled), frozenset(entries))


# real path -> (size, mtime_ns, the words its bytes hold, its bytes' digest); and digest -> its summary (None: unparsable)
_words: dict[str, tuple[int, int, frozenset[bytes], bytes | None]] = {}
_summaries: dict[bytes, Callers | None] = {}


def _read(path: str, name: bytes) -> tuple[bool, Callers | None]:
    """Whether the module at ``path`` mentions ``name`` (its words, read once per process), and if it does its
    summary (parsed once per process, and only for a module that mentions a name asked about)."""
    try:
        st = os.stat(path)
    except OSError:
        return False, None
    memo = _words.get(path)
    if memo is None or memo[0] != st.st_size or memo[1] != st.st_mtime_ns:
        words: frozenset[bytes] = frozenset()
        key = None
        if st.st_size <= disk.MAX_BYTES:
            try:
                with open(path, "rb") as handle:
                    data = handle.read(disk.MAX_BYTES + 1)
                words = frozenset(_WORD.findall(data))
                key = hashlib.sha256(data).digest()
            except OSError:
                pass
        memo = (st.st_size, st.st_mtime_ns, words, key)
        _words[path] = memo
    if name not in memo[2]:
        return memo[3] is None, None  # unread: it may mention it
    key = memo[3]
    assert key is not None
    if key not in _summaries:
        try:
            with open(path, "rb") as handle:
                _summaries[key] = summarise(ast.parse(handle.read(disk.MAX_BYTES + 1)))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            _summaries[key] = None
    return True, _summaries[key]


def _module_word(path: str) -> str:
    """The last word of the module a file is (``helpers`` for ``app/helpers.py``, ``app`` for ``app/__init__.py``)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.basename(os.path.dirname(os.path.abspath(path))) if stem == "__init__" else stem


def foreground_only(path: str, function: str, own: Callable[[], Callers]) -> bool:
    """Whether every caller of ``function`` in the linted file's project is a command the person runs, or a function
    called only by such (up to :data:`DEPTH` deep), with at least one caller and no uncalled use. ``own``: the linted
    module's summary (from its screen's tree). Outside a package, the linted module alone is the project."""
    root = disk._root(path)
    mine = os.path.realpath(path) if path and path not in ("-", "stdin") else ""
    listing = [f for f in disk._project_listing(root[1]) if f != mine] if root is not None else []
    read: list[str] = []
    keys: dict[str, str] = {}

    def modules(name: str) -> list[tuple[Callers, str]]:
        out = [(own(), _module_word(mine or path))]
        for file in listing:
            mentions, summary = _read(file, name.encode())
            if mentions:
                read.append(file)
                if summary is None:
                    return []  # a module that mentions it and cannot be read: unknown callers
                out.append((summary, _module_word(file)))
        return out

    def only(name: str, module: str, depth: int, seen: frozenset[str]) -> bool:
        found = modules(name)
        if not found or any(u == name and v in ("", module) for m, _ in found for u, v in m.uncalled):
            return False
        if root is not None:
            keys[disk._defines_key(root[1], name + "(")] = disk._files_digest(
                disk._defining(disk._project_listing(root[1]), name, calls=True))
        # a recursive call, or one from a helper already on the way, adds nothing either way; `other.f()` with
        # `other` an import of another module is another module's `f`
        callers = {(c, e, here) for m, here in found for c, e, v in m.callers.get(name, ())
                   if c != name and c not in seen and v in ("", module)}
        return bool(callers) and all(entry or (caller and depth > 0 and only(caller, here, depth - 1, seen | {name}))
                                     for caller, entry, here in callers)

    try:
        if function in own().entries:  # itself a command (`{"setup": cmd_setup}`, a `main()` reading `sys.argv`)
            return True
        answer = only(function, _module_word(mine or path), DEPTH, frozenset()) if function.isidentifier() else False
    finally:
        del only  # the recursive closure refers to itself: freed by reference counting (test_perf_work_bounds)
    disk.record_reads(sorted(set(read)), keys)
    return answer
