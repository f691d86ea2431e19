"""What ends a process before its wait (TFH201): kill calls, the module's own kill helpers, a kill program.

s44 (batch 16, bello): ``async def _abort_and_recover(process, helper, environment)`` whose body calls ``process.kill()`` (or
``terminate()``, ``send_signal(...)``) on its parameter: a call of it, ``_abort_and_recover(process, ...)``, kills the
process it is handed, whatever the helper is called. s47 (batch 20): likewise a function that hands its parameter to
``os.kill``/``os.killpg`` (``def _signal(group, sig): os.killpg(group, sig)``; ``_signal(proc.pid, signal.SIGKILL)``
kills ``proc``; a call handed the literal ``0``, a liveness probe, kills nothing). Read on the ``ast`` screen's defs, once per file and only
when a kill is looked for in a call of a function the module defines."""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Screen, last_name, walk_in_scope
from .reaped import receiver as _receiver

_STOPS = frozenset({"kill", "terminate", "send_signal"})
KILLS = ("kill", "terminate")


def _killed_params(fn: ast.FunctionDef | ast.AsyncFunctionDef, os_names: dict[str, str]) -> dict[str, int]:
    """The parameters (name -> positional index, -1 for keyword-only) whose process the function's own body ends
    (``os_names``: :func:`_os_bindings`)."""
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    params = {name: i for i, name in enumerate(positional)} | {a.arg: -1 for a in fn.args.kwonlyargs}
    local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    os_names = {k: v for k, v in os_names.items() if k not in local and k not in params}  # a local binding shadows
    out: dict[str, int] = {}
    stack: list[ast.AST] = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _STOPS
                and isinstance(n.func.value, ast.Name) and n.func.value.id in params):
            out[n.func.value.id] = params[n.func.value.id]
        elif (pid := _signalled_pid(n, os_names)) is not None and pid in params:
            out[pid] = params[pid]
        stack.extend(ast.iter_child_nodes(n))
    return out


def _os_bindings(screen: Screen) -> dict[str, str]:
    """s48: the names the module's imports bind to ``os`` or to its ``kill``/``killpg``/``getpgid`` (``import os as
    _os``, ``from os import killpg as kp``): local name -> ``os`` / ``os.killpg`` ...; a name the module also
    binds another way (``os = ...``) is left out."""
    def build() -> dict[str, str]:
        wanted = {"os", "os.kill", "os.killpg", "os.getpgid"}
        out: dict[str, str] = {}
        for local, full in screen.import_bindings:
            if full in wanted and out.get(local, full) == full:
                out[local] = full
            else:
                out[local] = ""  # bound to something else too: not read
        return {k: v for k, v in out.items() if v}
    return screen.memo(("os_bindings",), build)


def _os_call(func: ast.expr, os_names: dict[str, str]) -> str | None:
    """``kill``/``killpg``/``getpgid`` when ``func`` is ``os.<that>`` through the module's imports."""
    if isinstance(func, ast.Name):
        full = os_names.get(func.id, "")
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and os_names.get(func.value.id) == "os":
        full = f"os.{func.attr}"
    else:
        return None
    return full[len("os."):] if full.startswith("os.") else None


def _signalled_pid(n: ast.AST, os_names: dict[str, str]) -> str | None:
    """s47 (batch 20, tinyharness-lm): the parameter ``P`` of ``os.kill(P, sig)`` / ``os.killpg(P, sig)`` /
    ``os.killpg(os.getpgid(P), sig)`` (``sig`` not the literal ``0``, which only asks whether ``P`` lives); s48: the
    names resolved through the module's imports (``from os import killpg as kp``: ``kp(P, sig)``)."""
    if not (isinstance(n, ast.Call) and _os_call(n.func, os_names) in ("kill", "killpg") and len(n.args) == 2):
        return None
    pid, sig = n.args
    if isinstance(sig, ast.Constant) and sig.value == 0:
        return None
    if isinstance(pid, ast.Call) and _os_call(pid.func, os_names) == "getpgid" and len(pid.args) == 1:
        pid = pid.args[0]
    return pid.id if isinstance(pid, ast.Name) else None


def killing_helper(screen: Screen, name: str) -> dict[str, int]:
    """The parameters (name -> index) that the module's function ``name`` kills in its own body (``{}``: none, or not
    a function of the module; a name defined twice with different bodies gives none). Per file and name, only the
    bodies of the functions of that name are read."""
    def build() -> dict[str, int]:
        os_names = _os_bindings(screen)
        kinds = [_killed_params(d, os_names) for d in screen.defs if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == name]
        return kinds[0] if kinds and all(k == kinds[0] for k in kinds) else {}
    return screen.memo(("killing_helper", name), build)


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """The calls under ``node`` in its own scope (none under a nested ``def``/``class``/``lambda``; none
    at all when ``node`` is one). Walks the engine's field walk, not libcst's ``children`` (which
    re-creates every node it passes: this runs for every statement of every block)."""
    if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        return []
    return [n for n in walk_in_scope(node) if type(n) is cst.Call]


_KILL_WORDS = ("kill", "terminate", "stop", "shutdown", "cleanup", "reap")


def _proc_names(node: cst.BaseExpression) -> set[str]:
    """``proc`` for ``proc``, ``proc.pid``, ``proc.kill`` (what a kill is handed)."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.attr.value in ("pid", *KILLS):
        return {node.value.value}
    if isinstance(node, cst.Call):  # os.getpgid(proc.pid)
        return {n for a in node.args for n in _proc_names(a.value)}
    return set()


def kills(call: cst.Call, screen: Screen | None = None) -> set[str]:
    """The processes a call kills: ``proc.kill()``, ``proc.terminate()``, ``proc.send_signal(...)``, or a
    helper named for it handed the process or its pid (``_kill(proc)``, ``os.killpg(os.getpgid(proc.pid), 9)``,
    ``threading.Timer(t, proc.kill)``); s44, with the ``screen``: a function of the module whose body kills the
    parameter it is handed (``_abort_and_recover(process, ...)``, :func:`killing_helper`)."""
    f = call.func
    if isinstance(f, cst.Attribute) and f.attr.value in (*KILLS, "send_signal") and (r := _receiver(f.value)) is not None:
        return {r}
    name = (last_name(f) or "").lower()
    out: set[str] = set()
    if name in _PROCESS_STARTS and call.args and _kill_program(call.args[0].value):
        # s44 (batch 16, bello): a process started on a kill program handed the pid, `create_subprocess_exec(
        # str(taskkill), "/PID", str(process.pid), "/T", "/F")`, `subprocess.run(["kill", "-9", str(p.pid)])`
        argv = [e.value for e in call.args[0].value.elements] if isinstance(call.args[0].value, (cst.List, cst.Tuple)) else [
            a.value for a in call.args]
        return {n for v in argv for n in _pid_of(v)}
    if screen is not None and isinstance(f, cst.Name) and (killed := killing_helper(screen, f.value)) and not any(
        isinstance(a.value, cst.Integer) and a.value.evaluated_value == 0 for a in call.args  # `_signal(pid, 0)`: a probe
    ):
        for i, a in enumerate(call.args):
            if a.star:
                break
            if (a.keyword is None and i in killed.values()) or (a.keyword is not None and a.keyword.value in killed):
                out |= _proc_names(a.value)
    if any(w in name for w in _KILL_WORDS) or name == "timer":
        for a in call.args:
            if name == "timer" and not (isinstance(a.value, cst.Attribute) and a.value.attr.value in KILLS):
                continue
            out |= _proc_names(a.value)
    return out


_PROCESS_STARTS = frozenset({"create_subprocess_exec", "run", "call", "check_call", "check_output", "popen"})
_KILL_PROGRAMS = frozenset({"kill", "taskkill", "pkill", "killall"})


def _kill_program(node: cst.BaseExpression) -> bool:
    """A command (or its first word) naming a kill program: ``"taskkill"``, ``["kill", ...]``, a name for its path
    (``taskkill = system_root / "System32" / "taskkill.exe"``, handed as ``str(taskkill)``)."""
    if isinstance(node, (cst.List, cst.Tuple)):
        return bool(node.elements) and _kill_program(node.elements[0].value)
    if isinstance(node, cst.Call) and last_name(node.func) == "str" and len(node.args) == 1:
        node = node.args[0].value
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        return node.evaluated_value.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".exe") in _KILL_PROGRAMS
    return isinstance(node, cst.Name) and node.value.lower().removeprefix("_") in _KILL_PROGRAMS


def _pid_of(node: cst.BaseExpression) -> set[str]:
    """``proc`` for ``proc.pid``, ``str(proc.pid)``, ``f"{proc.pid}"``."""
    if isinstance(node, cst.Attribute) and node.attr.value == "pid" and (r := _receiver(node.value)) is not None:
        return {r}
    if isinstance(node, cst.Call) and len(node.args) == 1:
        return _pid_of(node.args[0].value)
    if isinstance(node, cst.FormattedString):
        return {n for p in node.parts if isinstance(p, cst.FormattedStringExpression) for n in _pid_of(p.expression)}
    return set()


def statement_kills(stmt: cst.BaseStatement | cst.BaseSmallStatement, screen: Screen | None = None) -> set[str]:
    """The processes a statement surely kills when it completes: a kill call on its own line, or
    inside a ``try:`` / ``with suppress(...):`` body, or under ``if proc.poll() is None:`` /
    ``if proc.returncode is None:`` (the process has exited otherwise), or in every branch of an ``if`` chain with
    its ``else`` (s47); not a kill in a branch taken for another reason."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return {n for c in calls_in(stmt) for n in kills(c, screen)}
    if isinstance(stmt, (cst.Try, cst.With, cst.If)) and isinstance(stmt.body, cst.IndentedBlock):
        out = {n for s in stmt.body.body for n in statement_kills(s, screen)}
        if isinstance(stmt, cst.If) and (every := _every_branch_kills(stmt, screen)):
            # s47 (batch 20): `if os.name == "nt": taskkill /F ... else: os.killpg(pid, SIGKILL)`: each way kills
            return every
        if isinstance(stmt, cst.If):
            # only a test about the process itself (`proc.poll() is None`, `proc.returncode is None`, `proc.pid`)
            asked = set(names_in(stmt.test)) - {"None", "True", "False"}
            if not asked or not asked <= out:
                return set()
        return out
    return set()


def _every_branch_kills(stmt: cst.If, screen: Screen | None) -> set[str]:
    """The processes every branch of an ``if``/``elif``/``else`` chain (with its ``else``) kills, whatever it tests."""
    out: set[str] | None = None
    branch: cst.If | cst.Else | None = stmt
    while branch is not None:
        if not isinstance(branch.body, cst.IndentedBlock):
            return set()
        done = {n for s in branch.body.body for n in statement_kills(s, screen)}
        out = done if out is None else out & done
        if isinstance(branch, cst.Else):
            return out
        branch = branch.orelse
    return set()  # no `else`: a way that kills nothing


def names_in(node: cst.CSTNode) -> list[str]:
    """The names a test reads; ``proc.returncode``/``proc.poll()``/``proc.pid`` read ``proc``, any other
    attribute reads something else (``""``)."""
    out: list[str] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n.value)
        elif isinstance(n, cst.Attribute):
            if n.attr.value in ("returncode", "poll", "pid"):
                stack.append(n.value)
            else:
                out.append("")
        else:
            stack.extend(n.children)
    return out
