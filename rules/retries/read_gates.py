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

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

Gates = Mapping[str, tuple[int, str]]  # helper name -> (the method parameter's position, its name)


def _read_literals(node: ast.expr) -> bool:
    values = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return bool(values) and all(
        isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.upper() in READ_METHODS for v in values
    )


def _names_param(node: ast.expr, param: str) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("upper", "lower"):
        node = node.func.value
    return isinstance(node, ast.Name) and node.id == param


def _requires_read_ast(expr: ast.expr, param: str) -> bool:
    """``expr`` is true only when ``param`` is a read method: ``param == "GET"``, ``param.upper() in ("GET",
    "HEAD")``, or an ``and`` with such a test among its operands."""
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And):
        return any(_requires_read_ast(v, param) for v in expr.values)
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(expr.ops[0], (ast.Eq, ast.In)):
        return _names_param(expr.left, param) and _read_literals(expr.comparators[0])
    return False


def gate_helpers(tree: ast.AST | None) -> dict[str, tuple[int, str]]:
    """Functions of the module whose every ``return`` requires one of their parameters to be a read method."""
    out: dict[str, tuple[int, str]] = {}
    if tree is None:
        return out
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        returns = [r.value for r in ast.walk(fn) if isinstance(r, ast.Return)]
        if not returns or any(r is None for r in returns):
            continue
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        for i, p in enumerate(params):
            if all(r is not None and _requires_read_ast(r, p) for r in returns):
                out[fn.name] = (i, p)
                break
    return out


def _method_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("upper", "lower"):
        node = node.func.value
    return node.value if isinstance(node, cst.Name) else None


def _read_strings(node: cst.BaseExpression) -> bool:
    values = [e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List, cst.Set)) else [node]
    return bool(values) and all(
        isinstance(v, cst.SimpleString) and str(v.evaluated_value).upper() in READ_METHODS for v in values
    )


def _gate_call(value: cst.BaseExpression, method: str, gates: Gates) -> bool:
    """``value`` is ``helper(..., method, ...)`` for a gate helper, given the method at its parameter."""
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name) or value.func.value not in gates:
        return False
    index, param = gates[value.func.value]
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
        continues = [c for c in every_node(loop.body) if isinstance(c, cst.Continue)]
        if not continues or any(id(c) not in gated for c in continues):
            return False
    return True
