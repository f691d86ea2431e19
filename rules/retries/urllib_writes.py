"""A write sent through the standard library's ``urllib.request.urlopen`` (s48, batch 20 cdt-release).

``req = urllib.request.Request(url, data=body, method="POST")`` then ``urlopen(req, timeout=30)`` in a retry
re-sends the POST as ``requests.post`` would. The method is read where ``urllib`` takes it: the
``Request``'s ``method`` (a literal, or a parameter of the enclosing function that a same-module call gives
``"POST"``/``"PATCH"``, read as ``method_param.py`` reads ``client.request(method, ...)``), else its ``data``
(or ``urlopen``'s ``data``): ``urllib`` sends a POST whenever a body is given and no method is named. A
request whose URL says a read (``knowledge.READ_POST_URL_PARTS``) or whose body is a model call's or a GraphQL
query document is not a write, as for ``requests``; nor is a name assigned a read ``Request`` on one branch. The
``Request`` is the call handed to ``urlopen`` or the one last assigned, in the same function, to the name
handed to it. A ``Request`` with no body and no method, or with ``GET``/``PUT``/``DELETE``, is not a write
here (as ``requests``' PUT and DELETE are not).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Names, argument, every_node, is_none, lexical_children, string_literal
from ...linter.api import knowledge as kb
from .method_param import LiteralMethod, method_value_write

URLOPEN = "urllib.request.urlopen"
_REQUEST = "urllib.request.Request"
_WRITES = frozenset({"POST", "PATCH"})


def urllib_write(
    call: cst.Call, qn: str | None, fn: cst.FunctionDef | None, names: Names,
    calls: dict[str, list[LiteralMethod]], path: str = "",
) -> tuple[str, bool] | None:
    """(the effect text, whether only a retry inside ``fn`` re-sends it) when ``call`` is ``urlopen`` of a
    request that sends a POST or PATCH; None otherwise."""
    if qn != URLOPEN:
        return None
    target = argument(call, "url", 0)
    if target is None:
        return None
    requests = _requests_of(target.value, fn, names)
    if not requests:
        data = argument(call, "data", 1)
        return (f"POST through {URLOPEN} (a body given)", False) if _body(data) else None
    found = [_request_write(r, fn, calls, path) for r in requests]
    if any(f is None for f in found):
        return None  # s48: `Request(url)` on one branch, `Request(url, data=..., method="POST")` on the other
    return found[0]


def _request_write(
    request: cst.Call, fn: cst.FunctionDef | None, calls: dict[str, list[LiteralMethod]], path: str
) -> tuple[str, bool] | None:
    """What one ``Request(...)`` sends when it is a write; None for a read, a model call or a read URL."""
    if _reads(request, fn):
        return None
    method = argument(request, "method", 5)
    if method is not None:
        text = string_literal(method.value)
        if text is not None:
            return (f"{text.upper()} through {URLOPEN}", False) if text.upper() in _WRITES else None
        if fn is None:
            return None
        value = method.value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in (
            "upper", "lower"
        ) and not value.args:
            value = value.func.value  # method.upper()
        return method_value_write(value, URLOPEN, fn, calls, path)
    data = argument(request, "data", 1)
    return (f"POST through {URLOPEN} (a Request with a body)", False) if _body(data) else None


def _body(arg: cst.Arg | None) -> bool:
    return arg is not None and not is_none(arg.value)


def _requests_of(node: cst.BaseExpression, fn: cst.FunctionDef | None, names: Names) -> list[cst.Call]:
    """The ``urllib.request.Request(...)`` handed to ``urlopen``: the call itself, or every one assigned to the name
    in the enclosing function."""
    if isinstance(node, cst.Call):
        return [node] if names.qualname(node.func) == _REQUEST else []
    if not isinstance(node, cst.Name) or fn is None:
        return []
    return [v for v in _assigned(fn, node.value) if isinstance(v, cst.Call) and names.qualname(v.func) == _REQUEST]


def _assigned(fn: cst.FunctionDef | None, name: str) -> list[cst.BaseExpression]:
    """The values assigned to ``name`` in ``fn`` (``name = v`` or ``name: T = v``; not in nested definitions), in source
    order."""
    out: list[cst.BaseExpression] = []
    stack: list[cst.CSTNode] = [fn.body] if fn is not None else []
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets):
            out.append(n.value)
        elif isinstance(n, cst.AnnAssign) and n.value is not None and isinstance(n.target, cst.Name) and n.target.value == name:
            out.append(n.value)  # s49 (batch 21 xdharness): `payload: Dict[str, Any] = {...}` binds as `=` does
        stack.extend(reversed(lexical_children(n)))
    return out


def _reads(request: cst.Call, fn: cst.FunctionDef | None) -> bool:
    """The request reads as TFH101 reads a POST: its URL's literal text or names say a read (``/chat``,
    ``completions``, ``search``: ``knowledge.READ_POST_URL_PARTS``), or its body is a model call's
    (``json.dumps({"model": m, "messages": msgs}).encode()``, directly or through a local name)."""
    url = argument(request, "url", 0)
    if url is not None:
        said = " ".join([string_literal(url.value, pieces=True) or "", *(n.value for n in every_node(url.value) if isinstance(n, cst.Name))])
        if any(part in said.lower() for part in kb.READ_POST_URL_PARTS):
            return True
    data = argument(request, "data", 1)
    return data is not None and _model_body(data.value, fn, 0)


def _model_body(value: cst.BaseExpression, fn: cst.FunctionDef | None, depth: int) -> bool:
    if depth > 3:
        return False
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value == "encode":
            return _model_body(func.value, fn, depth + 1)  # json.dumps(...).encode("utf-8")
        if isinstance(func, cst.Attribute) and func.attr.value == "dumps" and value.args:
            return _model_body(value.args[0].value, fn, depth + 1)
        return False
    if isinstance(value, cst.Name):
        return any(_model_body(v, fn, depth + 1) for v in _assigned(fn, value.value))
    if isinstance(value, cst.Dict):
        keys = {k for el in value.elements if isinstance(el, cst.DictElement) and (k := string_literal(el.key)) is not None}
        query = next((el.value for el in value.elements if isinstance(el, cst.DictElement) and string_literal(el.key) == "query"), None)
        document = (string_literal(query, concatenated=True) or "").lstrip() if query is not None else ""
        # a GraphQL query document (`{"query": "query($q: String!) { search(...) }"}`), not a mutation: a read
        return bool(keys & kb.LLM_INFERENCE_BODY_KEYS) or kb.LLM_INFERENCE_MODEL_INPUT_KEYS <= keys or (
            document.startswith(("query", "{")) and "mutation" not in document.lower())
    return False
