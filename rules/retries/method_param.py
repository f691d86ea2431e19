"""A request helper whose HTTP method is a parameter, given a write method by a caller in the module (s35).

``async def make_request(method, url, json=None): ... await client.request(method=method, url=url, ...)``
inside a retry loop sends whatever its callers ask for. When a call in the same module passes a literal
``"POST"`` or ``"PATCH"`` for that parameter (``make_request("POST", url, json=body)``), the retry
re-sends a non-idempotent write: TFH101's evidence, read one file at a time. A method named only in
another module (the usual case for a package's shared request helper) is not read.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from ...linter.api import every_node, keyword_arg, lexical_children, positional, project_call_arguments
from ...linter.api import knowledge as kb
from .read_gates import gate_helpers, gated_to_reads

_WRITE_METHODS = frozenset({"POST", "PATCH"})
_METHODS = _WRITE_METHODS | {"GET", "HEAD", "OPTIONS", "PUT", "DELETE"}
_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class LiteralMethod:
    """A call ``name(..., "POST", ...)`` in the module: the argument's position or keyword, and its line."""

    position: int | None
    keyword: str | None
    method: str
    line: int
    on_attribute: bool  # ``self.name(...)``/``client.name(...)``: ``self`` is not among the arguments
    flags: tuple[tuple[str, bool], ...] = ()  # s48: the call's literal bool keywords (``retry_ambiguous=False``)
    zeros: tuple[str, ...] = ()  # s54: the call's keywords given a literal 0 (``retries=0``)


class MethodCalls(dict[str, list[LiteralMethod]]):
    """:func:`literal_methods`' table, with the module's read-gate helpers (s50, ``read_gates.py``)."""

    gates: dict[str, tuple[int, str, bool]]


def literal_methods(tree: ast.AST | None) -> dict[str, list[LiteralMethod]]:
    """Callee last name -> the calls in the module that pass a literal HTTP method."""
    out = MethodCalls()
    out.gates = gate_helpers(tree)
    if tree is None:
        return out
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name is None:
            continue
        attr = isinstance(func, ast.Attribute)
        flags = tuple((k.arg, k.value.value) for k in node.keywords
                      if k.arg and isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool))
        zeros = tuple(k.arg for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)
                      and type(k.value.value) is int and k.value.value == 0)
        for i, a in enumerate(node.args):
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.upper() in _METHODS:
                out.setdefault(name, []).append(LiteralMethod(i, None, a.value.upper(), node.lineno, attr, flags, zeros))
        for kw in node.keywords:
            v = kw.value
            if kw.arg and isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.upper() in _METHODS:
                out.setdefault(name, []).append(LiteralMethod(None, kw.arg, v.value.upper(), node.lineno, attr, flags, zeros))
    return out


def parameter_method_write(
    call: cst.Call, qn: str | None, fn: cst.FunctionDef | None, calls: dict[str, list[LiteralMethod]], path: str = ""
) -> tuple[str, bool] | None:
    """(the effect text, whether only a retry inside ``fn`` re-sends it) when ``call`` is an HTTP client's
    ``request(method, ...)`` whose method is a parameter of ``fn``: a same-module call gives it a literal
    ``"POST"``/``"PATCH"`` (s35); or (s36) ``fn`` is public, nothing in ``fn`` restricts the method, and
    either no call here names it (its callers are elsewhere) or ``fn`` tests it against a literal (it
    carries other methods than the safe ones the calls here pass), and only ``fn``'s own retry is reported (a
    caller retrying ``fn`` passes its own method, which this module may show is a ``GET``)."""
    func = call.func
    if fn is None or qn is None or not isinstance(func, cst.Attribute) or func.attr.value not in kb.HTTP_REQUEST_METHODS:
        return None
    if qn.rpartition(".")[0] not in kb.HTTP_CLIENTS:
        return None
    given = keyword_arg(call, "method")
    pos = positional(call)
    value = given.value if given is not None else pos[0].value if pos else None
    if (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in ("upper", "lower") and not value.args
    ):
        value = value.func.value  # method.upper()
    return method_value_write(value, qn, fn, calls, path)


def method_value_write(
    value: cst.BaseExpression | None, qn: str, fn: cst.FunctionDef, calls: dict[str, list[LiteralMethod]], path: str = ""
) -> tuple[str, bool] | None:
    """:func:`parameter_method_write` from the method's expression (``method`` of ``request(method, ...)``, or
    of ``urllib.request.Request(url, method=method)``, ``urllib_writes.py``)."""
    if not isinstance(value, cst.Name):
        return None
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    keywords = params + [p.name.value for p in fn.params.kwonly_params]
    name = value.value
    if name not in keywords:
        return None
    index = params.index(name) if name in params else None
    bound = bool(params) and params[0] in ("self", "cls")
    if gated_to_reads(fn, name, calls.gates if isinstance(calls, MethodCalls) else {}):
        return None  # s50 (batch 22 codex-chats-mcp-v2): every way round the retry requires a read method
    sites = [
        site for site in calls.get(fn.name.value, ())
        if site.keyword == name or (
            index is not None and site.position is not None and site.position == index - (1 if bound and site.on_attribute else 0)
        )
    ]
    for site in sites:
        if site.method in _WRITE_METHODS and not _opts_out(fn, site):
            return f"{site.method} through {qn}, as the call of {fn.name.value}() at line {site.line} asks", False
    if fn.name.value.startswith("_") or _restricts(fn, name):
        return None
    if not sites and path and _callers_read(path, fn, name, index, bound):
        return None  # s45 (batch 17): every call of the helper in the project sends a read method
    if not sites or _tests_method(fn, name):
        # s36: no call here names the method (a caller in another module, or a model choosing it, may send a
        # POST), or the calls here name only safe ones but the helper tells methods apart (`json = None if
        # method == "GET" else data`): it carries writes too, and its retry re-sends them
        return f"{qn}({name}=...) in {fn.name.value}(), whose method is a parameter: a caller's POST is re-sent", True
    return None


def _opts_out(fn: cst.FunctionDef, site: LiteralMethod) -> bool:
    """s48 (batch 20 cdt-release): the call turns off the helper's retry of its write: it gives a parameter whose
    default is the other literal bool (``retry_ambiguous=False`` against ``retry_ambiguous: bool = True``), and a
    handler of the helper raises under an ``if`` testing that parameter (``if mutating and not retry_ambiguous:
    raise ...``). A call that leaves the default gets the retry. s54 (batch 26 aisolate-client): likewise a call
    giving 0 for a parameter named for the retry count (``knowledge.RETRY_COUNTER_WORDS``) whose default is a
    positive literal (``create_sandbox``'s ``_request("POST", ..., retries=0)`` against ``retries: int = 3``)."""
    counts = {p.name.value for p in (*fn.params.params, *fn.params.kwonly_params)
              if isinstance(p.default, cst.Integer) and p.default.evaluated_value > 0
              and any(w in p.name.value.lower() for w in kb.RETRY_COUNTER_WORDS if w != "try")}  # not "entry"
    if counts & set(site.zeros):
        return True
    defaults = {p.name.value: p.default.value for p in (*fn.params.params, *fn.params.kwonly_params)
                if isinstance(p.default, cst.Name) and p.default.value in ("True", "False")}
    given = {k for k, v in site.flags if defaults.get(k) == ("False" if v else "True")}
    if not given:
        return False
    for handler in every_node(fn.body):
        if isinstance(handler, cst.ExceptHandler):
            for n in every_node(handler.body):
                if isinstance(n, cst.If) and any(isinstance(x, cst.Name) and x.value in given for x in every_node(n.test)) \
                        and any(isinstance(x, cst.Raise) for x in every_node(n.body)):
                    return True
    return False


def _callers_read(path: str, fn: cst.FunctionDef, name: str, index: int | None, bound: bool) -> bool:
    """s45 (batch 17 ``method-param-get-only``): the helper's project calls it (``project_call_arguments``: its
    top-level package's modules on disk), at least once, and every call gives the method parameter a literal
    read method (GET, HEAD, OPTIONS), or leaves it to a default that is one: no POST reaches the retry. A call
    with a method that is not a literal, or with ``*args``/``**kwargs``, keeps the finding."""
    sites = project_call_arguments(path, fn.name.value)
    if not sites:
        return False
    default = next((p.default for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)
                    if p.name.value == name), None)
    fallback = default.evaluated_value if isinstance(default, cst.SimpleString) else None
    for keywords, positionals, on_attribute, spread, _lists in sites:
        if spread:
            return False
        at = None if index is None else index - (1 if bound and on_attribute else 0)
        if name in keywords:
            given = keywords[name]
        elif at is not None and 0 <= at < len(positionals):
            given = positionals[at]
        else:
            given = fallback if isinstance(fallback, str) else None
        if given is None or given.upper() not in _READ_METHODS:
            return False
    return True


def _restricts(fn: cst.FunctionDef, name: str) -> bool:
    """``fn`` tests its method parameter and raises, returns or leaves on that test (``if method not in SAFE:
    raise ...``, ``if method != "GET": return send_once(...)``): the retry may be limited to some methods."""
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.If) and any(isinstance(x, cst.Name) and x.value == name for x in every_node(n.test)):
            if any(isinstance(x, (cst.Raise, cst.Return, cst.Break, cst.Continue)) for x in every_node(n)):
                return True
        stack.extend(lexical_children(n))
    return False


def _tests_method(fn: cst.FunctionDef, name: str) -> bool:
    """``fn`` compares its method parameter with a string (``method == "GET"``, ``method.upper() in (...)``)."""
    for n in every_node(fn.body):
        if isinstance(n, cst.Comparison):
            inside = list(every_node(n))
            if any(isinstance(x, cst.Name) and x.value == name for x in inside) and any(
                isinstance(x, cst.SimpleString) for x in inside
            ):
                return True
    return False
