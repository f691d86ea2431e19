"""TFH402: a socket that stays on this machine (s48, issue 24).

``socket.socket(...)`` is counted as a read from outside the machine (``socket.`` is a network module). Two uses of
it read nothing remote: a socket only *bound* (a free-port picker, ``s.bind((host, 0)); s.getsockname()[1]``: the
kernel answers, no peer), and a Unix-domain socket (``socket.AF_UNIX``: a path on this machine, a local daemon).
The constructor is no evidence there; a socket that connects, sends or receives over the network stays evidence,
and so does ``socket.create_connection``. The family name and the socket's local-side methods are data
(``LOCAL_SOCKET_FAMILIES``, ``LOCAL_SOCKET_METHODS`` in ``linter/knowledge/fallbacks.py``).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, Names, argument, walk_in_scope

__all__ = ["local_socket"]

_CONSTRUCTORS = frozenset({"socket.socket"})


def local_socket(call: cst.Call, qn: str | None, names: Names, knowledge: Knowledge) -> bool:
    """``call`` builds a socket that stays on this machine: a Unix-domain one, or one whose every method the
    enclosing function calls is local-side (bound, never connected)."""
    if qn not in _CONSTRUCTORS:
        return False
    family = argument(call, "family", 0)
    if _last(family.value if family else None) in knowledge.local_socket_families:
        return True
    kind = argument(call, "type", 1)
    local = knowledge.local_socket_methods
    if _last(kind.value if kind else None) in knowledge.local_datagram_socket_types:
        local = local | knowledge.local_datagram_socket_methods  # a datagram socket's connect sends nothing
    scope = names.function
    if not isinstance(scope, cst.FunctionDef):
        return False
    bound = _bound_name(call, scope)
    if bound is None:
        return False
    used = False
    for n in walk_in_scope(scope.body):
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == bound:
            if n.attr.value not in local:
                return False
            used = True
    return used


def _last(node: cst.BaseExpression | None) -> str | None:
    """``socket.AF_UNIX`` / ``AF_UNIX``: the constant's name."""
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return node.value if isinstance(node, cst.Name) else None


def _bound_name(call: cst.Call, scope: cst.FunctionDef) -> str | None:
    """The name the function binds the socket to: ``with socket.socket(...) as s`` or ``s = socket.socket(...)``."""
    for n in walk_in_scope(scope.body):
        if isinstance(n, cst.WithItem) and n.item is call and n.asname is not None and isinstance(n.asname.name, cst.Name):
            return n.asname.name.value
        if isinstance(n, cst.Assign) and n.value is call and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name):
            return n.targets[0].target.value
    return None
