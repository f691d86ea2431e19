"""A session whose ``request`` the class replaces (TFH201's fix, s48, issue 23).

Batch 20's python-substack: ``Api.__init__`` builds ``self._session = requests.Session()`` and replaces
``self._session.request`` with a nested function that fills ``kwargs["timeout"]`` from the object's configured
``Api(timeout=...)`` when the call passes none. Every ``self._session.get/post/...`` goes through ``request``, so a
literal ``timeout=30`` added to one of them would override the timeout the person configured. The finding stays (the
default, ``timeout=None``, leaves the call unbounded); the fix is not offered.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import walk_in_scope


def _self_attr(node: cst.BaseExpression) -> str | None:
    """``_session`` for ``self._session``."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def wrapped_session(call: cst.Call, cls: cst.ClassDef | None) -> str | None:
    """``self._session`` when ``call`` is ``self._session.<method>(...)`` and a method of ``cls`` assigns
    ``self._session.request = ...`` (the session's requests go through a wrapper the class installs), else None."""
    f = call.func
    if cls is None or not isinstance(f, cst.Attribute) or (attr := _self_attr(f.value)) is None:
        return None
    for stmt in cls.body.body:
        if not isinstance(stmt, cst.FunctionDef):
            continue
        for node in walk_in_scope(stmt.body):
            if isinstance(node, cst.Assign) and any(
                    isinstance(t.target, cst.Attribute) and t.target.attr.value == "request"
                    and _self_attr(t.target.value) == attr for t in node.targets):
                return f"self.{attr}"
    return None
