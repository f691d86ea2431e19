"""A write sent through a method of the project's own client class, defined in another module (s40).

``api = Api(config); for attempt in range(n): try: api.post("cloud/messages", payload) ...`` re-sends
whatever ``Api.post`` sends. When the resolver names the call as a method of a class of the same project
(``memori._network.Api.post``) and that method, read from its module on disk, is named for an HTTP write
(``post``/``patch``) and itself makes the same-named call (``self._session().post(url, json=json)``,
``requests.post(...)``) or a ``request("POST", ...)``: a thin HTTP wrapper, the retry re-sends its POST.
Only the method's own body is read (never its callers or bases); a method that sets an idempotency key
header is not followed further (the key is then not seen, so the call stays a write: the author can
declare it with ``classify``).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import imported_method, lexical_children, positional

_WRITE_VERBS = frozenset({"post", "patch"})


def project_client_write(path: str, qualname: str | None) -> str | None:
    """The effect text when ``qualname`` is ``pkg.mod.Class.post``/``patch`` of the project (on disk) whose
    body sends the same HTTP verb; None otherwise."""
    if qualname is None or qualname.count(".") < 2:
        return None
    owner, _, method = qualname.rpartition(".")
    if method.lower() not in _WRITE_VERBS:
        return None
    fn = imported_method(path, owner, method)
    if fn is None:
        return None
    if not any(_sends(n, method.lower()) for n in _calls(fn.body)):
        return None
    return f"{method.upper()} through {qualname}()"


def _sends(call: cst.Call, verb: str) -> bool:
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    if func.attr.value == verb:
        return True
    if func.attr.value == "request":
        first = positional(call)
        v = first[0].value if first else None
        return isinstance(v, cst.SimpleString) and v.evaluated_value.lower() == verb
    return False


def _calls(node: cst.CSTNode) -> list[cst.Call]:
    out: list[cst.Call] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            out.append(n)
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and n is not node:
            continue
        stack.extend(lexical_children(n))
    return out
