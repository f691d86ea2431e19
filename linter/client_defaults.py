"""s56 (issue 23): a client the project has given a default timeout, by wrapping its request path.

Batch 28's bexhoma builds every kubernetes API object on an ``ApiClient`` from its own factory, which replaces the
client's ``rest_client.request`` with a function passing ``_request_timeout=_request_timeout or (5, 60)``: every
call of those objects that gives no timeout gets one (the blind reading's ``-`` row; 25 false TFH201 labels). Batch
20's python-substack replaces ``self._session.request`` with a function filling the object's configured timeout, and
batch 5's arxiv-mcp-server replaces a library session's ``get`` with one that ``setdefault``\\ s a timeout. Read as
Python runs it: a call of a client (TFH201's table: ``requests.Session.*``, a kubernetes API method) is bounded when
the client the call's receiver holds has, on a path every such call goes through (``knowledge.CLIENT_REQUEST_PATHS``,
or the called method itself), a function assigned that fills the timeout keyword the call did not give:

- installed on the receiver itself where it lives: ``self._session.request = fill`` in a method of the class (the
  call on ``self._session``), ``s.request = functools.partial(s.request, timeout=10)`` in the function (on ``s``);
- or installed by the project helper that builds it: every value the receiver is bound to (``self.core =
  CoreV1Api(api_client=self._new_api_client())``; ``None`` aside) is, or is built from (an argument of the
  constructor), a call of a function of the module or a method of the class that assigns such a function over a
  path of the object it returns (``api_client.rest_client.request = request_with_timeout; return api_client``).

What fills (the wrapper: a ``def`` of the same function or module, a ``lambda``, ``functools.partial(..., timeout=
V)``): ``kwargs.setdefault("timeout", V)`` or ``if "timeout" not in kwargs: kwargs["timeout"] = V`` fill a missing
keyword only, which a path handed an explicit ``None`` (``Session.send``, ``rest_client.request``) never sees;
``timeout or V``, ``if timeout is None: timeout = V``, ``if kwargs.get("timeout") is None: ...`` fill ``None`` too.
A fill under any other condition (``and self.timeout is not None``: a configured timeout that may be None) is not a
default: the finding stays (python-substack; ``wrapped_session.py`` says why no fix is offered there). ``V`` a
literal ``None`` fills nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import libcst as cst

from .nodes import dotted as _dotted, is_none as _is_none, string_literal as _string, walk_in_scope

_NONE = "none"  # fills a missing or None keyword
_ABSENT = "absent"  # fills a missing keyword only
_PARTIALS = frozenset({"partial", "functools.partial"})


def _mentions(node: cst.CSTNode, keyword: str) -> bool:
    """``node`` names the keyword: the string ``"timeout"`` or the name ``timeout`` (not an attribute
    ``self.timeout``, which is the object's own setting)."""
    if isinstance(node, cst.Attribute):
        return _mentions(node.value, keyword)
    if isinstance(node, cst.Name):
        return node.value == keyword
    if _string(node) == keyword:
        return True
    return any(_mentions(c, keyword) for c in node.children)


def _leaves(test: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        yield from _leaves(test.left)
        yield from _leaves(test.right)
    else:
        yield test


def _guard(tests: Sequence[cst.BaseExpression], keyword: str) -> str | None:
    """What the ``if`` tests around a fill leave: every leaf about the keyword -> ``_ABSENT`` (one asks ``"timeout"
    not in kwargs``) or ``_NONE``; a leaf about anything else -> None (a condition the call does not decide)."""
    kind = _NONE
    for test in tests:
        for leaf in _leaves(test):
            if not _mentions(leaf, keyword):
                return None
            if isinstance(leaf, cst.Comparison) and any(isinstance(t.operator, cst.NotIn) for t in leaf.comparisons):
                kind = _ABSENT
    return kind


def _statements(body: Sequence[cst.CSTNode], tests: tuple[cst.BaseExpression, ...]
                ) -> Iterator[tuple[cst.BaseSmallStatement, tuple[cst.BaseExpression, ...]]]:
    """Each small statement of a function body (not of nested ``def``\\ s) with the ``if`` tests it runs under (an
    ``else`` branch runs under no test it can be read by: its fills count as conditional on something else)."""
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                yield small, tests
        elif isinstance(stmt, cst.If):
            yield from _statements(stmt.body.body, (*tests, stmt.test))
            if stmt.orelse is not None:
                marker = cst.Name("__else__")  # no keyword in it: a fill there is conditional
                orelse = stmt.orelse
                yield from _statements([orelse] if isinstance(orelse, cst.If) else orelse.body.body, (*tests, marker))
        elif isinstance(stmt, (cst.Try, cst.With)):
            yield from _statements(stmt.body.body, tests)
            if isinstance(stmt, cst.Try) and stmt.finalbody is not None:
                yield from _statements(stmt.finalbody.body.body, tests)


def _call_fill(call: cst.Call, keyword: str) -> str | None:
    """A call handing on the keyword with a default: ``request(..., timeout=timeout or 30)`` -> ``_NONE``,
    ``timeout=kwargs.pop("timeout", 30)`` -> ``_ABSENT``; a forwarded ``timeout=timeout`` or ``None`` -> None."""
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value != keyword:
            continue
        value = arg.value
        if _is_none(value) or (isinstance(value, cst.Name) and value.value == keyword):
            return None
        if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
            return None if _is_none(value.right) else _NONE
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in ("get", "pop"):
            given = value.args
            if len(given) >= 2 and _string(given[0].value) == keyword:
                return None if _is_none(given[1].value) else _ABSENT
            return None
        return _NONE  # a value of its own whatever the caller gave
    return None


def _small_fill(small: cst.BaseSmallStatement, keyword: str) -> str | None:
    """What one statement fills: ``kwargs.setdefault("timeout", V)``, ``kwargs["timeout"] = V``, ``timeout = V``
    (the keyword's own parameter), a call handing on a default (:func:`_call_fill`)."""
    value: cst.BaseExpression | None = None
    if isinstance(small, cst.Assign):
        for t in small.targets:
            target = t.target
            if isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index) \
                    and _string(target.slice[0].slice.value) == keyword:
                return None if _is_none(small.value) else _NONE
            if isinstance(target, cst.Name) and target.value == keyword:
                v = small.value
                if isinstance(v, cst.BooleanOperation) and isinstance(v.operator, cst.Or):
                    return None if _is_none(v.right) else _NONE
                return None if _is_none(v) else _NONE
        value = small.value
    elif isinstance(small, (cst.Expr, cst.Return)):
        value = small.value
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return None
    f = value.func
    if isinstance(f, cst.Attribute) and f.attr.value == "setdefault" and len(value.args) >= 2 \
            and _string(value.args[0].value) == keyword:
        return None if _is_none(value.args[1].value) else _ABSENT
    return _call_fill(value, keyword)


def _function_fill(fn: cst.FunctionDef, keyword: str) -> str | None:
    """``_NONE``/``_ABSENT`` when the function fills the keyword the call did not give (unconditionally, or under
    tests about the keyword only), else None."""
    found: str | None = None
    for small, tests in _statements(fn.body.body, ()):
        kind, guard = _small_fill(small, keyword), _guard(tests, keyword)
        if kind is None or guard is None:
            continue
        found = _ABSENT if _ABSENT in (kind, guard) and found != _NONE else _NONE
    return found


def _defs(scope: cst.CSTNode) -> dict[str, cst.FunctionDef]:
    body = scope.body.body if isinstance(scope, (cst.FunctionDef, cst.ClassDef)) else \
        scope.body if isinstance(scope, cst.Module) else ()
    out: dict[str, cst.FunctionDef] = {}
    for node in (walk_in_scope(scope) if isinstance(scope, cst.FunctionDef) else body):
        if isinstance(node, cst.FunctionDef) and node is not scope:
            out[node.name.value] = node
    return out


def _wrapper_fill(value: cst.BaseExpression, keyword: str, scopes: Sequence[cst.CSTNode]) -> str | None:
    """What the function assigned over a request path fills: a ``def`` of one of ``scopes`` (innermost first) by
    name, a ``lambda`` calling on with a default, ``functools.partial(f, timeout=V)``."""
    if isinstance(value, cst.Name):
        for scope in scopes:
            fn = _defs(scope).get(value.value)
            if fn is not None:
                return _function_fill(fn, keyword)
        return None
    if isinstance(value, cst.Lambda) and isinstance(value.body, cst.Call):
        return _call_fill(value.body, keyword)
    if isinstance(value, cst.Call) and _dotted(value.func) in _PARTIALS:
        for arg in value.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return None if _is_none(arg.value) else _ABSENT
    return None


def _installs(scope: cst.CSTNode | list[cst.ClassDef], root: str, paths: Sequence[tuple[str, bool]], keyword: str,
              scopes: Sequence[cst.CSTNode]) -> bool:
    """``scope`` (its own statements, and its methods' for a class) assigns over ``<root>.<path>`` a function that
    fills the keyword for that path: ``_NONE`` anywhere, ``_ABSENT`` on a path receiving the caller's keywords."""
    wanted = {f"{root}.{p}": none_arrives for p, none_arrives in paths}
    nodes: list[tuple[cst.CSTNode, Sequence[cst.CSTNode]]] = []
    if isinstance(scope, list):
        nodes = [(m, (m, *scopes)) for c in scope for m in c.body.body if isinstance(m, cst.FunctionDef)]
    else:
        nodes = [(scope, scopes)]
    for fn, inner in nodes:
        for node in walk_in_scope(fn):
            if not isinstance(node, cst.Assign):
                continue
            for t in node.targets:
                name = _dotted(t.target)
                if name not in wanted:
                    continue
                kind = _wrapper_fill(node.value, keyword, inner)
                if kind == _NONE or (kind == _ABSENT and not wanted[name]):
                    return True
    return False


def _chain(cls: cst.ClassDef | None, module: cst.Module | None) -> list[cst.ClassDef]:
    """The class and its bases that are classes of the same module (``class AWS(Kubernetes)``), nearest first: where
    ``self.<attr>`` and ``self.<method>()`` are found when the class does not define them."""
    out: list[cst.ClassDef] = []
    tops = {s.name.value: s for s in (module.body if module is not None else ()) if isinstance(s, cst.ClassDef)}
    todo = [cls] if cls is not None else []
    while todo:
        c = todo.pop(0)
        if c in out:
            continue
        out.append(c)
        todo.extend(tops[b.value.value] for b in c.bases if isinstance(b.value, cst.Name) and b.value.value in tops)
    return out


def _returned_names(fn: cst.FunctionDef) -> set[str]:
    return {n.value.value for n in walk_in_scope(fn) if isinstance(n, cst.Return) and isinstance(n.value, cst.Name)}


def _helper(call: cst.Call, cls: cst.ClassDef | None, func: cst.CSTNode | None,
            module: cst.Module | None) -> cst.FunctionDef | None:
    """The function of this module (or nested in the running one) or method of this class a call runs."""
    f = call.func
    if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in ("self", "cls") and cls:
        return next((d for c in _chain(cls, module) if (d := _defs(c).get(f.attr.value)) is not None), None)
    if isinstance(f, cst.Name):
        for scope in (func, module):
            if scope is not None and (fn := _defs(scope).get(f.value)) is not None:
                return fn
    return None


def _built_with_default(value: cst.BaseExpression, paths: Sequence[tuple[str, bool]], keyword: str,
                        cls: cst.ClassDef | None, func: cst.CSTNode | None, module: cst.Module | None) -> bool:
    """``value`` is, or is a constructor handed, a call of a project helper that installs the default on the object
    it returns."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return False
    for cand in (value, *(a.value for a in value.args)):
        if not isinstance(cand, cst.Call):
            continue
        helper = _helper(cand, cls, func, module)
        if helper is None:
            continue
        scopes = [s for s in (helper, module) if s is not None]
        if any(_installs(helper, r, paths, keyword, scopes) for r in _returned_names(helper)):
            return True
    return False


def _bindings(receiver: str, cls: cst.ClassDef | None, func: cst.CSTNode | None,
              module: cst.Module | None) -> list[cst.BaseExpression] | None:
    """Every value ``receiver`` is bound to where it lives (``self.x``: the class's methods; a name: the running
    function, else the module), ``None`` aside; None when it is bound some other way (a parameter, a loop)."""
    if receiver.startswith("self."):
        if cls is None or receiver.count(".") != 1:
            return None
        roots: list[cst.CSTNode] = [m for c in _chain(cls, module) for m in c.body.body if isinstance(m, cst.FunctionDef)]
    elif "." not in receiver:
        roots = [func] if func is not None and _binds(func, receiver) else [module] if module is not None else []
    else:
        return None
    values: list[cst.BaseExpression] = []
    for root in roots:
        nodes = walk_in_scope(root) if not isinstance(root, cst.Module) else (
            s for stmt in root.body if isinstance(stmt, cst.SimpleStatementLine) for s in stmt.body)
        for node in nodes:
            if isinstance(node, cst.Assign) and any(_dotted(t.target) == receiver for t in node.targets):
                values.append(node.value)
            elif isinstance(node, cst.AnnAssign) and _dotted(node.target) == receiver:
                if node.value is None:
                    continue
                values.append(node.value)
            elif isinstance(node, (cst.AugAssign, cst.NamedExpr, cst.For)) and _dotted(node.target) == receiver:
                return None  # bound some other way: not read
            elif isinstance(node, cst.AsName) and isinstance(node.name, (cst.Name, cst.Attribute)) \
                    and _dotted(node.name) == receiver:
                return None
    values = [v for v in values if not _is_none(v)]
    return values or None


def _binds(func: cst.CSTNode, name: str) -> bool:
    if isinstance(func, cst.FunctionDef):
        params = func.params
        if any(p.name.value == name for p in (*params.posonly_params, *params.params, *params.kwonly_params)):
            return True
    return any(isinstance(n, cst.Assign) and any(_dotted(t.target) == name for t in n.targets) for n in walk_in_scope(func))


def receiver_default(receiver: str, paths: Sequence[tuple[str, bool]], keyword: str, cls: cst.ClassDef | None,
                     func: cst.CSTNode | None, module: cst.Module | None) -> bool:
    """Whether the client ``receiver`` (``self._session``, ``s``, ``SESSION``) holds there carries a default for
    ``keyword`` on one of ``paths`` (the module's doc)."""
    if receiver.startswith("self."):
        home: cst.CSTNode | list[cst.ClassDef] | None = _chain(cls, module)
    else:
        home = func if func is not None and _binds(func, receiver) else module
    if home is not None and _installs(home, receiver, paths, keyword, [s for s in (func, module) if s is not None]):
        return True
    values = _bindings(receiver, cls, func, module)
    return values is not None and all(_built_with_default(v, paths, keyword, cls, func, module) for v in values)


def family_paths(qn: str, request_paths: Mapping[str, tuple[str, tuple[tuple[str, bool], ...]]]
                 ) -> tuple[str, tuple[tuple[str, bool], ...]] | None:
    """The timeout keyword and request paths of the client family a call ``qn`` belongs to, or None."""
    return next((v for pre, v in request_paths.items() if qn.startswith(pre)), None)


def client_default(call: cst.Call, qn: str, keyword: str,
                   request_paths: Mapping[str, tuple[str, tuple[tuple[str, bool], ...]]],
                   cls: cst.ClassDef | None, func: cst.CSTNode | None, module: cst.Module | None) -> bool:
    """Whether the client ``call`` (of ``qn``, taking ``keyword``) is made on carries a default timeout the project
    installed on its request path (the module's doc)."""
    if not isinstance(call.func, cst.Attribute):
        return False
    receiver = _dotted(call.func.value)
    family = family_paths(qn, request_paths)
    if receiver is None or family is None:
        return False
    paths = (*family[1], (call.func.attr.value, False))  # and the called method itself, handed the caller's keywords
    return receiver_default(receiver, paths, keyword, cls, func, module)
