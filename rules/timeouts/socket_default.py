"""s56 (issue 23): a standard-library client opened while the process's default socket timeout is set.

``socket.setdefaulttimeout(t)`` gives every socket made afterwards with no timeout of its own that timeout; the
standard library's clients that take the default when the call gives none (``knowledge.SOCKET_DEFAULT_TIMEOUT_CALLS``:
``imaplib.IMAP4_SSL``, ``smtplib.SMTP``, ``urlopen``, ...) are then bounded. Batch 21's gigamail::

    old_timeout = _socket.getdefaulttimeout()
    _socket.setdefaulttimeout(timeout)
    try:
        conn = imaplib.IMAP4_SSL(imap_host, imap_port, ssl_context=ctx)
    finally:
        _socket.setdefaulttimeout(old_timeout)

Read in the running function, in source order (a loop's body once, as written): a call made after a
``setdefaulttimeout(t)`` and before the next one is bounded, unless ``t`` is ``None`` or the value
``getdefaulttimeout()`` returned (a restore: the default may be None). Set in another function (an entry point's
``main()``: batch 21's mcp-aruba) is not read: another entry point may not set it.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import SCOPE_NODES_CST, Names, children, is_none, walk_in_scope


def _restored(func: cst.FunctionDef, names: Names) -> set[str]:
    """The names the function binds to ``socket.getdefaulttimeout()``."""
    out: set[str] = set()
    for node in walk_in_scope(func.body):
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call) \
                and names.qualname(node.value.func) == "socket.getdefaulttimeout":
            out.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))
    return out


def under_socket_default(func: cst.FunctionDef, names: Names) -> frozenset[int]:
    """The ids of the calls of ``func`` (not of nested ``def``\\ s) made while a default socket timeout it set holds."""
    restored = _restored(func, names)
    bounded: set[int] = set()
    on = False
    stack: list[cst.CSTNode] = [func.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            if names.qualname(node.func) == "socket.setdefaulttimeout":
                given = node.args[0].value if node.args and node.args[0].keyword is None else None
                on = given is not None and not is_none(given) and not (isinstance(given, cst.Name) and given.value in restored)
            elif on:
                bounded.add(id(node))
        stack.extend(reversed([c for c in children(node) if not isinstance(c, SCOPE_NODES_CST)]))
    return frozenset(bounded)
