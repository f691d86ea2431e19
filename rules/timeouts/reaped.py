"""Waits that reap a process already gone or finishing (TFH201), read on the same object in the same
function, never guessed from names.

- ``wait()`` in an ``except ProcessLookupError:`` handler of a ``try`` whose body signals that process
  (``os.killpg(proc.pid, ...)``, ``os.kill(proc.pid, ...)``, ``proc.kill()``, ``proc.send_signal(...)``):
  the signal found no such process, so nothing is left to wait for; the wait returns at once.
- ``wait()`` after the process's output was read to its end earlier in the same block (``proc.stdout.read()``,
  ``await proc.stderr.read()``, ``.readlines()``, a ``for line in proc.stdout:`` loop with no ``break``): end
  of file means every holder of the pipe closed it, the child (and any grandchild it handed the pipe to)
  included, which a program does when it exits; the wait reaps it. A child that closes its output and
  keeps running is possible but unusual (a daemon detaches before its parent reads, so it never holds the
  pipe); this is decided for silence, as ``communicate()`` itself waits only once the pipes are at end of file.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Names, walk_in_scope

__all__ = ["lookup_reaps", "eof_reaps"]

_SIGNALS = frozenset({"kill", "terminate", "send_signal"})
_OS_SIGNALS = frozenset({"os.kill", "os.killpg"})
_WHOLE_READS = frozenset({"read", "readlines"})
_STREAMS = frozenset({"stdout", "stderr"})


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


def _stream_owner(node: cst.BaseExpression) -> str | None:
    """``proc.stdout`` -> proc."""
    if isinstance(node, cst.Attribute) and node.attr.value in _STREAMS and isinstance(node.value, cst.Name):
        return node.value.value
    return None


def _drained(stmt: cst.BaseStatement) -> set[str]:
    """The processes a statement reads to end of file: a whole read on its own line, or a loop over the
    stream that never breaks."""
    if isinstance(stmt, cst.SimpleStatementLine):
        out: set[str] = set()
        for c in walk_in_scope(stmt):
            if isinstance(c, cst.Call) and isinstance(c.func, cst.Attribute) and c.func.attr.value in _WHOLE_READS and not c.args:
                owner = _stream_owner(c.func.value)
                if owner is not None:
                    out.add(owner)
        return out
    if isinstance(stmt, cst.For) and stmt.orelse is None:
        owner = _stream_owner(stmt.iter)
        if owner is not None and not any(isinstance(n, cst.Break) for n in walk_in_scope(stmt.body)):
            return {owner}
    return set()


def eof_reaps(block: cst.IndentedBlock) -> list[cst.Call]:
    """The waits in a block on a process whose output an earlier statement of the block read to its end."""
    drained: set[str] = set()
    out: list[cst.Call] = []
    for stmt in block.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            continue  # runs later, or in another scope
        if drained:
            out += _waits_on(stmt, drained)
        drained |= _drained(stmt)
    return out
