"""A request sent through a client method chosen at run time: ``getattr(client, method.lower())(url, ...)`` (s51).

``call = getattr(self._http, method.lower())`` then ``call(url, **kwargs)`` in a retry loop sends whatever method
the helper's callers name: the same evidence as ``client.request(method, url)`` (``method_param.py``), read the same
way: a same-module call passing ``"POST"`` (or ``"post"``) for the parameter makes the retry a write's (batch 23
zspace-cli ``_send``; the shape in scrapling's fetch tools, hellochusquis' QuickBooks client, fastagency's and
langchain-community's ``getattr(requests, method)``). The client is what ``getattr``'s first argument resolves to
(``httpx.Client``, ``requests.Session``, the ``requests`` module), the method the second argument's name, ``.lower()``/
``.upper()`` aside. ``getattr`` is Python's builtin (no binding shadows it); a name called is read when its one
binding in the function is such a ``getattr``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from ...linter.api import every_node, positional
from ...linter.api import knowledge as kb
from .method_param import LiteralMethod, method_value_write

if TYPE_CHECKING:
    from ...linter.api import Names


def _getattr_call(func: cst.BaseExpression, fn: cst.FunctionDef, names: "Names") -> cst.Call | None:
    """``func`` is ``getattr(obj, name)`` or a local name whose one binding in ``fn`` is."""
    if isinstance(func, cst.Name):
        # s54 (batch 26 aisolate-client): an annotated binding binds as ``=`` does,
        # ``http_method: Callable[..., Any] = getattr(self._session, method.lower())``
        bound = [v for n in every_node(fn.body) if (v := _bound_value(n, func.value)) is not None]
        if len(bound) != 1:
            return None
        func = bound[0]
    if not (isinstance(func, cst.Call) and isinstance(func.func, cst.Name) and func.func.value == "getattr"
            and names.is_builtin("getattr")):
        return None
    args = positional(func)
    return func if len(args) == 2 and len(func.args) == 2 else None


def _bound_value(node: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """The value ``node`` binds to ``name`` (``name = v``, or ``name: T = v``), else None."""
    if isinstance(node, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets):
        return node.value
    if isinstance(node, cst.AnnAssign) and isinstance(node.target, cst.Name) and node.target.value == name:
        return node.value
    return None


def getattr_method_write(
    call: cst.Call, fn: cst.FunctionDef | None, names: "Names", calls: dict[str, list[LiteralMethod]], path: str = ""
) -> tuple[str, bool] | None:
    """:func:`~.method_param.method_value_write` for ``getattr(client, method)(...)`` on an HTTP client."""
    if fn is None:
        return None
    target = _getattr_call(call.func, fn, names)
    if target is None:
        return None
    obj, chosen = (a.value for a in target.args)
    ref = names.qualify(obj)  # an httpx.Client or requests.Session object, or the requests module
    client = ref[0] if ref is not None else ""
    if client not in kb.HTTP_CLIENTS:
        return None
    if isinstance(chosen, cst.Call) and isinstance(chosen.func, cst.Attribute) \
            and chosen.func.attr.value in ("upper", "lower") and not chosen.args:
        chosen = chosen.func.value
    return method_value_write(chosen, f"getattr({client}, ...)", fn, calls, path)
