"""A readiness poll of a server the code started itself (TFH103, s47, batch 19).

A hand loop catching ``Exception`` around a connect or a health check of a child process or daemon
the code has just started (``subprocess.Popen``, ``asyncio.create_subprocess_exec``:
``Knowledge.background_process_starts``, or a same-module function that calls one, through any
number of such functions) waits for a process on this machine that the code owns: its usual failure
is "not listening yet", and the attempt stays on the machine. Read in the module's ``ast`` (the whole
file), the loop is such a poll when:

1. its function starts a process in a statement before the loop, and the attempt (the loop's ``try``
   body) names a loopback host (``Knowledge.loopback_hosts``: ``connect_ex(("localhost", port))``,
   ``f"http://127.0.0.1:{port}/health"``, or a local name or parameter default holding one); or
2. the attempt names a loopback host and reads a module-level name (``CONTROL_PORT``) that the module
   hands to a process start (``[sys.executable, script, "--control-port", str(CONTROL_PORT)]``); or
3. the attempt reads a parameter of its function named for an address (``Knowledge.address_words``:
   ``def _wait_for_server(host, port)``, ``ssh_port``), and every call of that function in the module
   (one at least) comes after a process start in the caller and gives it no literal remote host or URL;
4. (s56) the loop leaves when a process, server or thread the code holds is gone: an ``if not <liveness call>:``
   whose body returns, breaks or raises (``knowledge.PROCESS_LIVENESS_WORDS``: ``webchat_server.is_running()``,
   ``self._pid_alive(new_pid)``, ``worker.is_alive()``). A loop that gives up when what it polls stopped running
   waits for something the code runs (batch 25 dulus's webchat server, started in another module; batch 27
   djaploy's new gunicorn master). A ``while proc.is_running():`` alone is not one: a daemon's loop reads so too.

A loopback address alone is not "started here": a local server the code did not start (an Ollama
server on ``localhost:11434``) answers a bad request, a missing model or a refused credential like a
remote one, and stays reported.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ...linter.api import knowledge as kb
from .model_body import Fn, ModuleIndex

if TYPE_CHECKING:
    from ...linter.api import Knowledge, Screen


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _loopback(text: str, hosts: tuple[str, ...]) -> bool:
    return any(text == h or f"//{h}" in text or f"@{h}" in text or text.startswith(f"{h}:") for h in hosts)


def _starters(mod: ModuleIndex, starts: list[ast.Call]) -> set[Fn]:
    """The module's functions and methods that start a process, directly or through another of them."""
    found = {fn for fn in mod.owner if any(fn.lineno <= c.lineno <= (fn.end_lineno or fn.lineno) for c in starts)}
    grown = True
    while grown:
        grown = False
        for fn in mod.owner:
            if fn in found:
                continue
            cls = mod.owner[fn]
            if any(isinstance(n, ast.Call) and mod.callee(n, cls) in found for n in ast.walk(fn)):
                found.add(fn)
                grown = True
    return found


def _index(tree: ast.Module, starts: list[ast.Call]) -> tuple[ModuleIndex, set[Fn]]:
    """The module's functions and the ones that start a process, once per file (several loops may ask)."""
    mod = ModuleIndex(tree)
    return mod, _starters(mod, starts)


def _start_calls(mod: ModuleIndex, starts: list[ast.Call], starters: set[Fn], fn: Fn) -> list[ast.Call]:
    """The calls in ``fn`` that start a process: a start itself, or a call of a starter."""
    own = [c for c in starts if fn.lineno <= c.lineno <= (fn.end_lineno or fn.lineno)]
    cls = mod.owner.get(fn)
    return own + [n for n in ast.walk(fn) if isinstance(n, ast.Call) and mod.callee(n, cls) in starters]


def _loop_at(fn: Fn, line: int) -> ast.For | ast.While | ast.AsyncFor | None:
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)) and node.lineno == line:
            return node
    return None


def polls_own_server(screen: "Screen", knowledge: "Knowledge", line: int) -> bool:
    """The loop starting on ``line`` polls a server the code started itself (see the module's docstring)."""
    tree = screen.tree
    if not isinstance(tree, ast.Module):
        return False
    case4 = next((n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While, ast.AsyncFor)) and n.lineno == line), None)
    if case4 is not None and any(isinstance(n, ast.Try) for n in ast.walk(case4)) and _leaves_when_gone(case4, knowledge):
        return True  # 4. the loop leaves when what it watches is gone
    starts = screen.calls_of(knowledge.background_process_starts)
    if not starts:
        return False
    mod, starters = screen.memo("started.py", lambda: _index(tree, starts))
    fn = mod.enclosing(line)
    loop = _loop_at(fn, line) if fn is not None else None
    if fn is None or loop is None:
        return False
    attempt = next((n for n in ast.walk(loop) if isinstance(n, ast.Try)), None)
    if attempt is None:
        return False
    body = ast.Module(body=attempt.body, type_ignores=[])
    read = _names(body)
    hosts = knowledge.loopback_hosts
    bound = [v for n in ast.walk(fn) if isinstance(n, ast.Assign) for t in n.targets
             if isinstance(t, ast.Name) and t.id in read for v in [n.value]]
    defaults = [d for d in (*fn.args.defaults, *fn.args.kw_defaults) if d is not None]
    loopback = any(_loopback(s, hosts) for node in (body, *bound, *defaults) for s in _strings(node))
    if loopback and any(c.lineno < loop.lineno for c in _start_calls(mod, starts, starters, fn)):
        return True  # 1. started in the same function, before the loop
    local = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)} | {
        t.id for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
    if loopback:
        handed: set[str] = set()
        for starter in [*mod.owner]:
            for call in _start_calls(mod, starts, starters, starter):
                handed |= _names(ast.Module(body=[ast.Expr(a) for a in (*call.args, *(k.value for k in call.keywords))], type_ignores=[]))
        if (read - local) & handed:
            return True  # 2. a module-level port or address the module hands to a process it starts
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
    address = {p for p in params if p in read and set(knowledge.identifier_words(p)) & knowledge.address_words}
    if address:
        callers = list(mod.callers(fn))
        if callers and all(
            not _in_lambda(call, outer)  # a lambda runs when called, not where it is written
            and any(c.lineno < call.lineno and not _in_lambda(c, outer) for c in _start_calls(mod, starts, starters, outer))
            and not _remote_literal(_arguments(call, fn, address), hosts)
            for call, outer in callers
        ):
            return True  # 3. handed its address by callers that each started a process first
    return False


def liveness_name(name: str, knowledge: "Knowledge") -> bool:
    """``name`` (a call's last name) asks whether a process or thread is still there (``is_running``, ``_pid_alive``)."""
    return bool(set(knowledge.identifier_words(name)) & kb.PROCESS_LIVENESS_WORDS)


def _liveness(test: ast.expr, knowledge: "Knowledge") -> bool:
    """``test`` is a call asking whether a process or thread is still there (``proc.is_running()``)."""
    if not isinstance(test, ast.Call):
        return False
    func = test.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return liveness_name(name, knowledge)


def _leaves_when_gone(loop: ast.For | ast.While | ast.AsyncFor, knowledge: "Knowledge") -> bool:
    """The loop leaves when what it watches is gone (case 4): an ``if not proc.is_running():`` (in the loop, outside
    a nested function or loop) whose body returns, breaks or raises."""
    todo: list[ast.AST] = [*loop.body]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.For, ast.While, ast.AsyncFor)):
            continue
        if (isinstance(node, ast.If) and isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not)
                and _liveness(node.test.operand, knowledge)
                and any(isinstance(b, (ast.Return, ast.Break, ast.Raise)) for b in node.body)):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _in_lambda(call: ast.Call, fn: Fn) -> bool:
    return any(isinstance(n, ast.Lambda) and any(c is call for c in ast.walk(n.body)) for n in ast.walk(fn))


def _arguments(call: ast.Call, fn: Fn, names: set[str]) -> list[ast.expr]:
    """The arguments ``call`` gives ``fn``'s parameters ``names``."""
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if params and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
        params = params[1:]
    out = [k.value for k in call.keywords if k.arg in names]
    out += [a for p, a in zip(params, call.args) if p in names and not isinstance(a, ast.Starred)]
    return out


def _remote_literal(args: list[ast.expr], hosts: tuple[str, ...]) -> bool:
    """A literal host or URL among ``args`` that is not a loopback one (``"https://api.example"``)."""
    return any(("." in s or "//" in s) and not _loopback(s, hosts) and not s.replace(".", "").isdigit()
               for a in args for s in _strings(a))
