"""A retry loop that goes round only for a read method (s50, batch 22 codex-chats-mcp-v2 ``retry-get-only``).

``for attempt in range(1, N + 1): try: ... except HTTPError: if retryable and attempt < N: continue; return ...``
where ``retryable = should_retry(method, status)`` and the module's ``should_retry`` returns ``method.upper() ==
"GET" and ...``: the request helper's method is a parameter, and a caller passes ``"POST"``, but every way round
the loop requires the method to be a read one (``GET``, ``HEAD``, ``OPTIONS``), so a POST is sent once. The same
gate written in the loop (``if method == "GET" and attempt < N: ... continue``) is mcp-argocd's and mcp-gitlab's
``_send`` (batches 1-18). Read in the module's ``ast`` (the gate helpers) and in the function's ``cst`` (the loop).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

import libcst as cst

from ...linter.api import every_node
from ...linter.api import knowledge as kb

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# RFC 9110's idempotent methods: a gate letting only these round sends a POST or PATCH once (s51, batch 23 miosa)
SAFE_METHODS = READ_METHODS | {"PUT", "DELETE"}

Gates = Mapping[str, tuple[int, str, bool]]  # helper name -> (the method parameter's position, its name, a method's)


def _safe_values(node: ast.expr, consts: Mapping[str, frozenset[str]]) -> frozenset[str] | None:
    """The methods a literal (``"GET"``, ``("GET", "HEAD")``) or a module constant (``_IDEMPOTENT =
    frozenset({...})``) names, upper-cased; None for anything else."""
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    values = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    if not values or not all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in values):
        return None
    return frozenset(str(v.value).upper() for v in values if isinstance(v, ast.Constant))


def _module_methods(tree: ast.AST) -> dict[str, frozenset[str]]:
    """Module constants naming HTTP methods: ``_SAFE = ("GET", "HEAD")``, ``IDEMPOTENT = frozenset({...})``."""
    out: dict[str, frozenset[str]] = {}
    for node in getattr(tree, "body", ()):
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(target, ast.Name) or value is None:
            continue
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("frozenset", "set", "tuple") \
                and len(value.args) == 1 and not value.keywords:
            value = value.args[0]
        found = _safe_values(value, {})
        if found:
            out[target.id] = found
    return out


def _names_param(node: ast.expr, param: str) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("upper", "lower"):
        node = node.func.value
    return isinstance(node, ast.Name) and node.id == param


def _requires_read_ast(expr: ast.expr, param: str, consts: Mapping[str, frozenset[str]] | None = None) -> bool:
    """``expr`` is true only when ``param`` is an idempotent method (``SAFE_METHODS``): ``param == "GET"``,
    ``param.upper() in ("GET", "HEAD")``, ``param in _IDEMPOTENT_METHODS`` (a module constant), or an ``and``
    with such a test among its operands."""
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And):
        return any(_requires_read_ast(v, param, consts) for v in expr.values)
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(expr.ops[0], (ast.Eq, ast.In)):
        named = _safe_values(expr.comparators[0], consts or {})
        return _names_param(expr.left, param) and named is not None and named <= SAFE_METHODS
    return False


def _key_string(node: ast.expr) -> bool:
    """A literal naming an idempotency-key header (``"Idempotency-Key"``, ``"idempotency-key"``)."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    norm = node.value.lower().replace("_", "").replace("-", "")
    return norm in kb.IDEMPOTENCY_HEADERS or norm in kb.IDEMPOTENCY_KEYWORDS


def _requires_key(expr: ast.expr) -> bool:
    """``expr`` is true only when the request carries an idempotency key: ``"Idempotency-Key" in headers``,
    ``any(k.lower() == "idempotency-key" for k in headers)``, ``headers.get("Idempotency-Key") is not None``,
    ``bool(headers.get("Idempotency-Key"))``, or an ``and`` holding one."""
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And):
        return any(_requires_key(v) for v in expr.values)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("any", "bool") \
            and len(expr.args) == 1:
        inner = expr.args[0]
        return _requires_key(inner.elt if isinstance(inner, ast.GeneratorExp) else inner)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" and expr.args:
        return _key_string(expr.args[0])
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        op, right = expr.ops[0], expr.comparators[0]
        if isinstance(op, ast.In):
            return _key_string(expr.left)
        if isinstance(op, ast.Eq):
            return _key_string(expr.left) or _key_string(right)
        if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
            return _requires_key(expr.left)
    return False


def _gates_write(expr: ast.expr | None, param: str, consts: Mapping[str, frozenset[str]]) -> bool:
    """s51: a helper's returned decision lets a POST go round only with an idempotency key: false (``False``,
    ``None``, a bare ``return``), a test requiring an idempotent method or a key, an ``or`` of such tests
    (``method == "GET" or "Idempotency-Key" in headers``), or an ``and`` holding one."""
    if expr is None or (isinstance(expr, ast.Constant) and expr.value in (False, None)):
        return True
    if isinstance(expr, ast.BoolOp):
        parts = [_gates_write(v, param, consts) for v in expr.values]
        return all(parts) if isinstance(expr.op, ast.Or) else any(parts)
    return _requires_read_ast(expr, param, consts) or _requires_key(expr)


def _returns_gated(body: Sequence[ast.stmt], param: str, consts: Mapping[str, frozenset[str]], guarded: bool) -> bool | None:
    """Whether every ``return`` in ``body`` (nested functions aside) is a write gate's (:func:`_gates_write`),
    or lies under an ``if`` requiring an idempotent method (``if method.upper() in SAFE: return True``);
    None when ``body`` holds no ``return``."""
    seen = False
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(stmt, ast.Return):
            seen = True
            if not (guarded or _gates_write(stmt.value, param, consts)):
                return False
            continue
        blocks: list[tuple[list[ast.stmt], bool]] = []
        if isinstance(stmt, ast.If):
            blocks = [(stmt.body, guarded or _requires_read_ast(stmt.test, param, consts)), (stmt.orelse, guarded)]
        else:
            for field in ("body", "orelse", "finalbody"):
                blocks.append((list(getattr(stmt, field, ()) or ()), guarded))
            for handler in getattr(stmt, "handlers", ()) or ():
                blocks.append((handler.body, guarded))
            for case in getattr(stmt, "cases", ()) or ():
                blocks.append((case.body, guarded))
        for block, inner in blocks:
            found = _returns_gated(block, param, consts, inner)
            if found is False:
                return False
            seen = seen or found is True
    return True if seen else None


def gate_helpers(tree: ast.AST | None) -> dict[str, tuple[int, str, bool]]:
    """Functions and methods of the module whose every ``return`` lets a write (POST, PATCH) through only
    with an idempotency key: it requires one of their parameters to be an idempotent method (s50: a read
    method), or a key to be sent (s51). A method's position counts ``self``/``cls`` (``_gate_call`` skips it for
    ``self.helper(...)``)."""
    out: dict[str, tuple[int, str, bool]] = {}
    if tree is None:
        return out
    consts = _module_methods(tree)
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        for i, p in enumerate(params):
            if p in ("self", "cls") and i == 0:
                continue
            if _returns_gated(fn.body, p, consts, False) is True and _opens_a_gate(fn.body):
                out[fn.name] = (i, p, bool(params) and params[0] in ("self", "cls"))
                break
    return out


def _opens_a_gate(body: Sequence[ast.stmt]) -> bool:
    """Some ``return`` can be true (a helper returning only ``False`` decides nothing)."""
    for node in ast.walk(ast.Module(body=list(body), type_ignores=[])):
        if isinstance(node, ast.Return) and not (
            node.value is None or (isinstance(node.value, ast.Constant) and node.value.value in (False, None))
        ):
            return True
    return False


def _method_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("upper", "lower"):
        node = node.func.value
    return node.value if isinstance(node, cst.Name) else None


def _read_strings(node: cst.BaseExpression) -> bool:
    values = [e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List, cst.Set)) else [node]
    return bool(values) and all(
        isinstance(v, cst.SimpleString) and str(v.evaluated_value).upper() in SAFE_METHODS for v in values
    )


def _gate_call(value: cst.BaseExpression, method: str, gates: Gates) -> bool:
    """``value`` is ``helper(..., method, ...)`` for a gate helper, given the method at its parameter; or
    ``self.helper(method, ...)`` for a method of the module (s51)."""
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Name) and func.value in gates and not gates[func.value][2]:
        index, param, _bound = gates[func.value]
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls") \
            and func.attr.value in gates:
        index, param, bound = gates[func.attr.value]
        index -= 1 if bound else 0
    else:
        return False
    positional = [a for a in value.args if a.keyword is None and not a.star]
    given = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == param), None)
    if given is None and index < len(positional):
        given = positional[index].value
    return given is not None and _method_name(given) == method


def _bound_to_gate(fn: cst.FunctionDef, name: str, method: str, gates: Gates) -> bool:
    """Every binding of ``name`` in ``fn`` is a gate helper's call on the method."""
    values = [
        n.value for n in every_node(fn.body)
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets)
    ]
    return bool(values) and all(_gate_call(v, method, gates) for v in values)


def _requires_read(test: cst.BaseExpression, fn: cst.FunctionDef, method: str, gates: Gates) -> bool:
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _requires_read(test.left, fn, method, gates) or _requires_read(test.right, fn, method, gates)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
        test.comparisons[0].operator, (cst.Equal, cst.In)
    ):
        return _method_name(test.left) == method and _read_strings(test.comparisons[0].comparator)
    if isinstance(test, cst.Name):
        return _bound_to_gate(fn, test.value, method, gates)
    return _gate_call(test, method, gates)


_EXITS = (cst.Return, cst.Raise, cst.Continue)


def _suite_ends(suite: cst.BaseSuite) -> bool:
    if isinstance(suite, cst.SimpleStatementSuite):
        return any(isinstance(s, _EXITS) for s in suite.body)
    return isinstance(suite, cst.IndentedBlock) and _ends(list(suite.body))


def _ends(stmts: Sequence[cst.BaseStatement]) -> bool:
    """The block never falls through: its last statement returns, raises or continues, on every branch."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(s, _EXITS) for s in last.body)
    if isinstance(last, cst.If):
        other = last.orelse
        if other is None:
            return False
        return _suite_ends(last.body) and (_ends([other]) if isinstance(other, cst.If) else _suite_ends(other.body))
    if isinstance(last, cst.With):
        return _suite_ends(last.body)
    if isinstance(last, cst.Try):
        body_ends = _suite_ends(last.body) or (last.orelse is not None and _suite_ends(last.orelse.body))
        return body_ends and all(_suite_ends(h.body) for h in last.handlers)
    return False


def _leaves_unless(stmt: cst.BaseStatement, fn: cst.FunctionDef, method: str, gates: Gates) -> bool:
    """``if not safe or attempt >= N: raise ...`` (no ``else``): the block leaves unless the gate holds."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None or not _suite_ends(stmt.body):
        return False
    if any(isinstance(c, cst.Continue) for c in every_node(stmt.body)):
        return False
    test = stmt.test
    operands: list[cst.BaseExpression] = []
    while isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        operands.append(test.right)
        test = test.left
    operands.append(test)
    return any(
        isinstance(o, cst.UnaryOperation) and isinstance(o.operator, cst.Not)
        and _requires_read(o.expression, fn, method, gates) for o in operands
    )


def _after_leaving_unless(block: cst.IndentedBlock, fn: cst.FunctionDef, method: str, gates: Gates) -> set[int]:
    """The ``continue`` statements of ``block`` after a statement that leaves unless the gate holds (s51,
    agenthubx ``if not can_retry or attempt >= N: raise``)."""
    out: set[int] = set()
    after = False
    for stmt in block.body:
        if after:
            out |= {id(c) for c in every_node(stmt) if isinstance(c, cst.Continue)}
        elif _leaves_unless(stmt, fn, method, gates):
            after = True
    return out


def gated_to_reads(fn: cst.FunctionDef, method: str, gates: Gates) -> bool:
    """``fn`` holds a retry loop (a ``for``/``while`` around a ``try``) whose body never falls through to the next
    round and whose every ``continue`` is under an ``if`` that requires ``method`` to be a read method: a write
    method is sent once."""
    loops = [n for n in every_node(fn.body) if isinstance(n, (cst.For, cst.While))
             and any(isinstance(t, cst.Try) for t in every_node(n.body))]
    if not loops:
        return False
    for loop in loops:
        if not _suite_ends(loop.body):
            return False
        gated: set[int] = set()
        ifs = [n for n in every_node(loop.body) if isinstance(n, cst.If)]
        for branch in ifs:
            if _requires_read(branch.test, fn, method, gates):
                gated |= {id(c) for c in every_node(branch.body) if isinstance(c, cst.Continue)}
        for block in every_node(loop.body):
            if isinstance(block, cst.IndentedBlock):
                gated |= _after_leaving_unless(block, fn, method, gates)
        continues = [c for c in every_node(loop.body) if isinstance(c, cst.Continue)]
        if not continues or any(id(c) not in gated for c in continues):
            return False
    return True
