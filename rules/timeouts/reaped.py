"""Waits that reap a process already gone (TFH201), read on the same object in the same function, never
guessed from names.

``wait()`` in an ``except ProcessLookupError:`` handler of a ``try`` whose body signals that process
(``os.killpg(proc.pid, ...)``, ``os.kill(proc.pid, ...)``, ``proc.kill()``, ``proc.send_signal(...)``): the
signal found no such process, so nothing is left to wait for; the wait returns at once.

A ``wait()`` on a process a started ``threading.Timer(seconds, f)`` of the same function kills (s39, batch
12): ``f`` is ``proc.kill``/``proc.terminate`` or a nested ``def`` that signals ``proc``; at the deadline the
process dies and the wait returns (a timer set up and cancelled around the wait is a deadline).

Not silent (s38, decided): a ``wait()`` after the process's output was read to its end (``for line in
proc.stdout:``, ``await proc.stderr.read()``). The wait itself returns once the pipes are closed, but the
read before it is where such a process waits, and a pipe read takes no timeout: the finding on the wait is
the only place the unbounded process shows (batches 1-10: a streamed ``pip install``, a ``gcloud`` copy, an
eval run, each of which can hang on the network).

Silent (s44, batch 17): the same wait when that read was bounded, so the process shows there: a ``while`` loop of the
function, before the wait, reads ``proc.stdout`` only through ``asyncio.wait_for(proc.stdout.readline(), timeout=t)``
(``t`` not ``None``), has no ``try`` inside it that could swallow the timeout, and leaves at end of file (``if not
line: break``). After such a loop the output is closed and the wait returns; a stalled process raised out of it.

Silent (s47, batch 20): a ``wait()`` on ``proc`` in the ``else`` of ``if proc.poll() is None:`` (or ``proc.returncode
is None``), or in the body of ``if proc.poll() is not None:``: the poll proved the process exited, the wait only reaps
it (``proc.wait()  # reap, or the pid keeps answering kill(pid, 0)``).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Names, walk_in_scope

__all__ = ["bounded_reads", "exited_reaps", "lookup_reaps", "receiver", "timer_killed"]

_SIGNALS = frozenset({"kill", "terminate", "send_signal"})
_OS_SIGNALS = frozenset({"os.kill", "os.killpg"})


def receiver(node: cst.BaseExpression) -> str | None:
    """The process a method is called on: ``proc``, or an attribute of ``self`` (``self.process``, s42: batch 15's
    ``self.process.kill()`` then ``self.process.wait()``)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return f"self.{node.attr.value}"
    return None


def _waits_on(node: cst.CSTNode, procs: set[str]) -> list[cst.Call]:
    """The ``X.wait()`` calls under ``node`` (in its scope) on one of ``procs``."""
    return [
        c
        for c in walk_in_scope(node)
        if isinstance(c, cst.Call)
        and isinstance(c.func, cst.Attribute)
        and c.func.attr.value == "wait"
        and isinstance(c.func.value, cst.Name)
        and c.func.value.value in procs
    ]


def _signalled(node: cst.CSTNode, names: Names) -> set[str]:
    """The processes a block signals: ``X.kill()``/``terminate()``/``send_signal()``, ``os.kill(X.pid, ...)``."""
    out: set[str] = set()
    for c in walk_in_scope(node):
        if not isinstance(c, cst.Call):
            continue
        f = c.func
        if isinstance(f, cst.Attribute) and f.attr.value in _SIGNALS and isinstance(f.value, cst.Name):
            out.add(f.value.value)
        elif names.qualname(f) in _OS_SIGNALS and c.args:
            pid = c.args[0].value
            if isinstance(pid, cst.Attribute) and pid.attr.value == "pid" and isinstance(pid.value, cst.Name):
                out.add(pid.value.value)
    return out


def _exit_test(test: cst.BaseExpression) -> tuple[str, bool] | None:
    """``(proc, running)`` for ``proc.poll() is None`` / ``proc.returncode is None`` (running: True) and their ``is
    not None`` (running: False)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    op, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if not (isinstance(right, cst.Name) and right.value == "None" and isinstance(op, (cst.Is, cst.IsNot))):
        return None
    left = test.left
    if isinstance(left, cst.Call) and not left.args and isinstance(left.func, cst.Attribute) and left.func.attr.value == "poll":
        left = left.func
    elif not (isinstance(left, cst.Attribute) and left.attr.value == "returncode"):
        return None
    if not isinstance(left.value, cst.Name):
        return None
    return left.value.value, isinstance(op, cst.Is)


def polled_in(test: cst.BaseExpression) -> set[str]:
    """The processes a loop's test polls: ``proc`` of a ``proc.poll()`` call in it (s38), and s48 (batch 20, cacli's
    deadline loop) of ``while proc.returncode is None:`` (an ``asyncio`` process's exit status, set when it exits)."""
    out = {n for n in _poll_receivers(test)}
    asked = _exit_test(test)
    if asked is not None and asked[1]:
        out.add(asked[0])
    return out


def _poll_receivers(node: cst.CSTNode) -> list[str]:
    out: list[str] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if (isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "poll"
                and isinstance(n.func.value, cst.Name)):
            out.append(n.func.value.value)
        if not isinstance(n, (cst.Lambda, cst.FunctionDef)):
            stack.extend(n.children)
    return out


def exited_reaps(node: cst.If) -> list[cst.Call]:
    """The waits on ``proc`` in the branch of ``if proc.poll() is None:`` taken when the process has exited."""
    asked = _exit_test(node.test)
    if asked is None:
        return []
    proc, running = asked
    branch = node.orelse.body if running and isinstance(node.orelse, cst.Else) else None if running else node.body
    return _waits_on(branch, {proc}) if branch is not None else []


def lookup_reaps(node: cst.Try, names: Names) -> list[cst.Call]:
    """The waits of an ``except ProcessLookupError:`` handler on a process the ``try`` body signals."""
    procs = _signalled(node.body, names)
    if not procs:
        return []
    out: list[cst.Call] = []
    for h in node.handlers:
        types = [e.value for e in h.type.elements] if isinstance(h.type, cst.Tuple) else [h.type] if h.type else []
        if any(isinstance(t, cst.Name) and t.value == "ProcessLookupError" and names.is_builtin(t.value) for t in types):
            out += _waits_on(h.body, procs)
    return out


def timer_killed(func: cst.FunctionDef, names: Names) -> set[str]:
    """The processes a ``threading.Timer(t, f)`` started in ``func`` kills at its deadline (``f``: ``proc.kill``,
    ``proc.terminate``, or a ``def`` nested in ``func`` that signals ``proc``)."""
    nodes = list(walk_in_scope(func))
    nested = {n.name.value: n for n in nodes if isinstance(n, cst.FunctionDef) and n is not func}
    started = {
        c.func.value.value
        for c in nodes
        if isinstance(c, cst.Call) and isinstance(c.func, cst.Attribute) and c.func.attr.value == "start"
        and isinstance(c.func.value, cst.Name)
    }
    out: set[str] = set()
    for n in nodes:
        if not (isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name)):
            continue
        timer = n.value
        if not (isinstance(timer, cst.Call) and names.qualname(timer.func) == "threading.Timer"):
            continue
        if n.targets[0].target.value not in started:
            continue
        f = next((a.value for a in timer.args if a.keyword is not None and a.keyword.value == "function"), None)
        if f is None and len(timer.args) > 1 and timer.args[1].keyword is None:
            f = timer.args[1].value
        if isinstance(f, cst.Attribute) and f.attr.value in ("kill", "terminate") and isinstance(f.value, cst.Name):
            out.add(f.value.value)
        elif isinstance(f, cst.Name) and f.value in nested:
            out |= _signalled(nested[f.value], names)
    return out


def _stdout_read(node: cst.CSTNode) -> str | None:
    """``X.stdout.readline()`` / ``X.stdout.read(...)`` / ``X.stdout.readexactly(...)``: ``X``."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value.startswith("read"):
        stream = node.func.value
        if isinstance(stream, cst.Attribute) and stream.attr.value == "stdout":
            return receiver(stream.value)
    return None


def _eof_break(loop: cst.While) -> bool:
    """The loop has ``if not <name>: break`` at its top level."""
    return any(
        isinstance(st, cst.If) and isinstance(st.test, cst.UnaryOperation) and isinstance(st.test.operator, cst.Not)
        and isinstance(st.test.expression, cst.Name) and isinstance(st.body, cst.IndentedBlock)
        and any(isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Break) for x in s.body) for s in st.body.body)
        for st in loop.body.body
    ) if isinstance(loop.body, cst.IndentedBlock) else False


def bounded_reads(func: cst.FunctionDef, names: Names) -> dict[str, set[int]]:
    """Each process whose output a ``while`` loop of ``func`` reads to its end only through ``asyncio.wait_for(...,
    timeout=t)`` (no ``try`` inside the loop), with the ids of the loop's nodes: a wait on it outside the loop
    returns at once."""
    out: dict[str, set[int]] = {}
    for loop in walk_in_scope(func):
        if not isinstance(loop, cst.While) or not _eof_break(loop):
            continue
        inner = list(walk_in_scope(loop))
        if any(isinstance(n, cst.Try) for n in inner):
            continue
        guarded: set[int] = set()
        procs: set[str | None] = set()
        for n in inner:
            if isinstance(n, cst.Call) and names.qualname(n.func) == "asyncio.wait_for" and len(n.args) == 2:
                timeout = n.args[1].value
                if not (isinstance(timeout, cst.Name) and timeout.value == "None") and _stdout_read(n.args[0].value):
                    guarded.add(id(n.args[0].value))
        for n in inner:
            proc = _stdout_read(n)
            if proc is not None or (isinstance(n, cst.Call) and id(n) in guarded):
                procs.add(proc if id(n) in guarded else None)
        if len(procs) == 1 and None not in procs:
            proc = procs.pop()
            assert proc is not None
            out.setdefault(proc, set()).update(id(n) for n in inner)
    return out
