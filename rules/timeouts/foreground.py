"""TFH201 by the lead's session-50 decisions (s50, issue 23; ``bench/survey/README.md``, "Labelling TFH201").

- Who runs a process in the foreground: beside a click/typer/cyclopts command, a script's ``main()`` reading its
  command line and its ``__main__`` block (``shapes.py``), an argparse sub-command's handler
  (``sub.set_defaults(func=cmd_doctor)``: :func:`argparse_handlers`).
- What is the person's terminal: nothing captured, or the child's output sent to the program's own
  ``sys.stdout``/``sys.stderr`` (:func:`on_terminal`).
- A deadline enforced another way: a ``communicate()``/``wait()`` run on a thread (``threading.Thread(target=lambda:
  box.update(out=p.communicate()))``) that the function joins with a timeout and whose process it kills
  (:func:`thread_polled`); a command that bounds itself (``curl --max-time 30``: :func:`self_bounding`).
"""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Knowledge, Names, Screen, lexical_children
from .killers import kills
from .process import _template, segments

_STREAMS = ("capture_output", "stdout", "stderr", "input", "stdin")
_TERMINAL = frozenset({"sys.stdout", "sys.stderr"})


def argparse_handlers(screen: Screen) -> frozenset[str]:
    """The module functions an argparse parser of the module dispatches to (``sub.set_defaults(func=cmd_doctor)``,
    any keyword): a sub-command the person types, as a click command is. Only in a module that imports argparse."""
    def read() -> frozenset[str]:
        tree = screen.tree
        if not any(isinstance(n, ast.Import) and any(a.name == "argparse" for a in n.names)
                   or isinstance(n, ast.ImportFrom) and n.module == "argparse" for n in ast.walk(tree)):
            return frozenset()
        body = tree.body if isinstance(tree, ast.Module) else []
        defined = {n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        out: set[str] = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "set_defaults":
                out.update(k.value.id for k in n.keywords if isinstance(k.value, ast.Name) and k.value.id in defined)
        return frozenset(out)
    return screen.memo(("argparse_handlers",), read)


def on_terminal(names: Names, call: cst.Call) -> bool:
    """Nothing of the child's is captured: no stream keyword but ``None``/``False``, or its output sent to the
    program's own ``sys.stdout``/``sys.stderr`` (the person's terminal; stdin inherited)."""
    for a in call.args:  # (a `**kwargs` is read as before s50: not a capture)
        if a.keyword is None or a.keyword.value not in _STREAMS:
            continue
        v = a.value
        if isinstance(v, cst.Name) and v.value in ("None", "False"):
            continue
        if a.keyword.value in ("stdout", "stderr") and names.qualname(v) in _TERMINAL:
            continue
        return False
    return True


def ctrl_c_handled(caught: list[str]) -> bool:
    """s54: a ``try``'s handlers (``caught_names``) name ``KeyboardInterrupt`` (not a bare ``except``, which says
    nothing of a person): the author expects Ctrl-C from the person at the terminal."""
    return any(name.rsplit(".", 1)[-1] == "KeyboardInterrupt" for name in caught)


def job_command(knowledge: Knowledge, call: cst.Call, words: list[str], whole: bool) -> bool:
    """Each command the call runs is a long job the person asks for (``knowledge.foreground_job``: an install, a
    self-upgrade, a build, a test run) or a local step beside one (``cd x && npm install``), and one is a job."""
    segs = segments(call, words, whole)
    jobs = [bool(seg) and knowledge.foreground_job(seg) for seg in segs]
    return any(jobs) and all(j or (seg and knowledge.silent_process(seg, True)) for j, seg in zip(jobs, segs))


def self_bounding(knowledge: Knowledge, call: cst.Call, cmd: cst.BaseExpression, program: list[str]) -> bool:
    """The command bounds itself (``curl --max-time 30 url``, ``[curl, "-m", "30", url]`` with ``curl =
    shutil.which("curl")``): its program (``program``: the leading words as the rule reads them, a looked-up name
    resolved) with a literal flag of ``knowledge.SELF_BOUNDING_FLAGS`` anywhere in the list. A shell line: each of its
    commands bounds itself or ends at once."""
    if isinstance(cmd, (cst.List, cst.Tuple)):
        flags = [str(e.value.evaluated_value) for e in cmd.elements
                 if isinstance(e, cst.Element) and isinstance(e.value, cst.SimpleString)]
        return bool(program) and knowledge.self_bounded(program[0], flags)
    if isinstance(cmd, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.BinaryOperation)):
        segs = knowledge.shell_commands(_template(cmd)) if any(
            a.keyword is not None and a.keyword.value == "shell" for a in call.args) else [_template(cmd).split()]
        return bool(segs) and any(s and knowledge.self_bounded(s[0], s[1:]) for s in segs) and all(
            s and (knowledge.self_bounded(s[0], s[1:]) or knowledge.silent_process(s, "{}" not in " ".join(s)))
            for s in segs)
    return False


def thread_polled(call: cst.Call, func: cst.CSTNode | None, parent: cst.FunctionDef | None, names: Names,
                  screen: Screen) -> bool:
    """``p.communicate()``/``p.wait()`` in a lambda or nested ``def`` handed to ``threading.Thread(target=...)`` by a
    function that polls that thread (``t.join(0.1)``, ``t.join(timeout=t)``, ``while t.is_alive():``) and kills
    ``p`` (``p.kill()``, a helper killing it): the deadline is the caller's, enforced by the kill."""
    f = call.func
    if not (isinstance(f, cst.Attribute) and f.attr.value in ("communicate", "wait") and isinstance(f.value, cst.Name)):
        return False
    if parent is None or not isinstance(func, (cst.Lambda, cst.FunctionDef)):
        return False
    proc = f.value.value
    threads: set[str] = set()
    joined = killed = False
    for node in _walk(parent.body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) \
                and isinstance(node.value, cst.Call) and names.qualname(node.value.func) == "threading.Thread":
            target = next((a.value for a in node.value.args if a.keyword is not None and a.keyword.value == "target"),
                          None)
            if target is func or (isinstance(func, cst.FunctionDef) and isinstance(target, cst.Name)
                                  and target.value == func.name.value):
                threads.add(node.targets[0].target.value)
        elif isinstance(node, cst.Call):
            g = node.func
            if isinstance(g, cst.Attribute) and isinstance(g.value, cst.Name) and g.value.value in threads and (
                    (g.attr.value == "join" and node.args) or g.attr.value == "is_alive"):
                joined = True
            if proc in kills(node, screen):
                killed = True
    return joined and killed


def _walk(node: cst.CSTNode | cst.BaseSuite) -> list[cst.CSTNode]:
    """Every node under ``node`` in source order (lambdas and nested defs included)."""
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(lexical_children(n)))  # libcst's ``children``, read without re-creating each node
    return out


__all__ = ["argparse_handlers", "ctrl_c_handled", "job_command", "on_terminal", "self_bounding", "thread_polled"]
