"""Hand-written status retries (s35 post, issue 23): a loop that goes round on a 5xx status test.

``for attempt in range(3): r = get(...); if r.status_code >= 500: sleep(...); continue`` (or the same
test in an ``except HTTPStatusError`` handler that raises otherwise) retries by status, with no
``try`` of its own that the retry model reads as a condition. TFH104 asks which statuses such a test
sends round; a loop that names 429 anywhere (or a rate-limit exception) handles it there.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Sequence, Union

import libcst as cst

from ...linter.api import Screen, children, dotted, every_node, lexical_children
from ...linter.api import knowledge as kb
from .literals import status_set

_Scope = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def idempotency_flag(node: cst.BaseExpression) -> bool:
    """``retry_safe``, ``self.idempotent``, ``request.is_read_only``, ``self._is_idempotent(name)``
    (not ``is_non_idempotent``): by the name's words (``knowledge.IDEMPOTENCY_FLAG_WORDS``)."""
    if isinstance(node, cst.Call):
        node = node.func
    name = dotted(node)
    if name is None:
        return False
    words = tuple(w for w in name.rsplit(".", 1)[-1].lower().split("_") if w)
    if set(words) & kb.IDEMPOTENCY_FLAG_NEGATIONS:
        return False
    return any(words[i:i + len(seq)] == seq for seq in kb.IDEMPOTENCY_FLAG_WORDS for i in range(len(words)))


def _ast_5xx_continue(n: ast.AST) -> bool:
    """An ``if`` that compares against a 5xx literal and ends in ``continue``."""
    return (
        isinstance(n, ast.If)
        and bool(n.body)
        and isinstance(n.body[-1], ast.Continue)
        and any(isinstance(c, ast.Constant) and isinstance(c.value, int) and 500 <= c.value < 600 for c in ast.walk(n.test))
    )


def _ast_loops_with_5xx_continue(tree: ast.AST) -> Iterator[int]:
    """Lines of the loops holding an ``if`` that compares against a 5xx literal and ends in ``continue``."""
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            continue
        for n in ast.walk(loop):
            if _ast_5xx_continue(n):
                yield loop.lineno
                break


def candidate_lines(screen: Screen) -> list[int]:
    # s39 (performance): the screen's one walk lists every ``if``; a file with no such ``if`` has no such loop, and
    # most files have none, so the walk of every loop's subtree (quadratic in the nesting) runs only in the few that do
    if not any(_ast_5xx_continue(n) for n in screen.branching if type(n) is ast.If):
        return []
    return list(_ast_loops_with_5xx_continue(screen.tree))


def _walk(node: cst.CSTNode, *, into_loops: bool = True) -> Iterator[cst.CSTNode]:
    """Every node under ``node``, not entering definitions (nor inner loops, whose ``continue`` is theirs)."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(
            c for c in reversed(children(n)) if not isinstance(c, _Scope) and (into_loops or not isinstance(c, (cst.For, cst.While)))
        )


def _body(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else []


def _ends_in_continue(suite: cst.BaseSuite) -> bool:
    stmts = _body(suite)
    last = stmts[-1] if stmts else None
    return isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, cst.Continue) for s in last.body)


def _names_rate_limit(loop: cst.CSTNode) -> bool:
    """The loop names 429 (a literal) or a rate limit (``RateLimitError``, ``TOO_MANY_REQUESTS``)."""
    for n in _walk(loop):
        if isinstance(n, cst.Integer) and n.evaluated_value == kb.RATE_LIMIT_STATUS:
            return True
        if isinstance(n, cst.Name) and any(w in n.value.lower().replace("_", "") for w in kb.RATE_LIMIT_WORDS):
            return True
        if isinstance(n, cst.SimpleString) and "429" in n.value:
            return True
    return False


def five_xx_only_tests(loop: Union[cst.For, cst.While]) -> list[tuple[cst.BaseExpression, list[int]]]:
    """The status tests in the loop that send only 5xx statuses round (the ``if``'s body ends in
    ``continue``) while nothing in the loop names 429: (test, the 5xx statuses it retries)."""
    found: list[tuple[cst.BaseExpression, list[int]]] = []
    for n in _walk(loop.body, into_loops=False):
        if isinstance(n, cst.If) and _ends_in_continue(n.body):
            statuses = status_set(n.test)
            if not statuses or kb.RATE_LIMIT_STATUS in statuses:
                continue
            fives = sorted(statuses & kb.SERVER_ERROR_STATUSES)
            if fives and not statuses - kb.SERVER_ERROR_STATUSES - frozenset(range(500, 600)):
                found.append((n.test, fives))
    if found and _names_rate_limit(loop):
        return []
    return found


def raises_outside_counter_tests(node: cst.CSTNode, derived: set[str]) -> bool:
    """A ``raise`` in the handler that is not under an ``if`` testing nothing read from the exception
    (s37: ``if num_retries > max_retries: raise`` is the loop's bound, not a decision on the error; a
    wait read from its message, ``match = re.search(..., e.args[0])``, does not make it one)."""
    if isinstance(node, cst.Raise):
        return True
    if isinstance(node, cst.If) and not ({n.value for n in every_node(node.test) if isinstance(n, cst.Name)} & derived):
        return False
    return any(raises_outside_counter_tests(c, derived) for c in children(node))


def all_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every node under it, in the order libcst's ``children`` gives (callers take a first match)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(lexical_children(n))


def target_names(target: cst.BaseExpression) -> set[str]:
    """The names an assignment target binds: ``x``, or each name of ``x, y`` / ``[x, y]``."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {e.value.value for e in target.elements if isinstance(e.value, cst.Name)}
    return set()


# --------------------------------------------------------------------------- status retries (s43, batch 16)
#
# A counted loop that sends a request and goes round on its status (``for attempt in range(n): r =
# client.request(method, ...); if r.status_code in RETRYABLE: sleep(...); continue``) retries the request
# with no ``try`` of its own (the 5xx arrives as an answer, not an exception), or past its ``try`` (a token
# fetch in the ``try``, the POST after it). TFH101 asks which writes such a loop re-sends: a 5xx (or a
# non-200) after the server acted re-sends the write. Kept apart from the retry model's ``retries``: the
# other retry rules read the ``try``-based loops only.

_STATUS_READS = frozenset({"status_code", "status", "status_int"})


def _ast_goes_round(body: list[ast.stmt]) -> bool:
    """The body ends in ``continue``, or in an ``if`` whose body does (``if attempt < max_retries - 1: sleep(...);
    continue``: the loop's bound, s44 batch 17's azure-devops ``_api``)."""
    last = body[-1] if body else None
    return isinstance(last, ast.Continue) or (isinstance(last, ast.If) and _ast_goes_round(last.body))


def _ast_status_continue(n: ast.AST) -> bool:
    """An ``if`` whose test reads a status (``r.status_code``, ``resp.status``) and whose body goes round."""
    return (
        isinstance(n, ast.If)
        and _ast_goes_round(n.body)
        and any(isinstance(c, ast.Attribute) and c.attr in _STATUS_READS for c in ast.walk(n.test))
    )


def _ast_leaves(body: list[ast.stmt]) -> bool:
    """Every way through ``body`` ends in ``return`` or ``raise`` (an ``if`` whose both branches do)."""
    last = body[-1] if body else None
    return isinstance(last, (ast.Return, ast.Raise)) or (isinstance(last, ast.If) and _ast_leaves(last.body) and _ast_leaves(last.orelse))


def _ast_status_leaves(n: ast.AST) -> bool:
    """An ``if`` whose test reads a status and whose every way leaves the loop (``return``/``raise``), with no ``else``."""
    return (
        isinstance(n, ast.If)
        and not n.orelse
        and _ast_leaves(n.body)
        and any(isinstance(c, ast.Attribute) and c.attr in _STATUS_READS for c in ast.walk(n.test))
    )


def _ast_leave_unless(loop: ast.For | ast.AsyncFor) -> bool:
    """s52 (batch 24 vibops-mcp): the loop's body holds, at its own level, an ``if`` testing a status that leaves,
    followed by statements that wait and none of which leaves: the statuses the test lets through go round by falling off
    the body's end (``if r.status_code not in RETRYABLE or attempt == last: return ...``, then ``sleep``)."""
    for i, stmt in enumerate(loop.body):
        if _ast_status_leaves(stmt):
            return _ast_waits_round(loop.body[i + 1:])
    return False


def _ast_waits_round(rest: list[ast.stmt]) -> bool:
    """The statements after a leave-unless test wait (a call named like a sleep) and none leaves the loop
    (``return``, ``raise``, ``break``, ``raise_for_status()``): the round ends by falling off the body."""
    names = [_ast_last_name(n.func) for r in rest for n in ast.walk(r) if isinstance(n, ast.Call)]
    return (
        any(any(w in name.lower() for w in kb.SLEEP_WORDS) for name in names)
        and "raise_for_status" not in names
        and not any(isinstance(n, (ast.Return, ast.Raise, ast.Break)) for r in rest for n in ast.walk(r))
    )


def _ast_last_name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _ast_counted(loop: ast.AST) -> bool:
    """``for attempt in range(n)`` / ``range(1, n + 1)`` (a counter-named or ``_`` target)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.target, ast.Name):
        return False
    it = loop.iter
    name = loop.target.id
    return (
        isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and 1 <= len(it.args) <= 2
        and (name.startswith("_") or any(w in name.lower() for w in kb.RETRY_COUNTER_WORDS))
    )


def status_retry_lines(screen: Screen) -> list[int]:
    """Lines of the counted loops holding an ``if`` that tests a status and ends in ``continue``; the screen's
    list of ``if``s first (most files have no such ``if``, and no loop is walked there)."""
    if not any(_ast_status_continue(n) or _ast_status_leaves(n) for n in screen.branching if type(n) is ast.If):
        return []
    return [
        loop.lineno for loop in ast.walk(screen.tree)
        if isinstance(loop, (ast.For, ast.AsyncFor)) and _ast_counted(loop)
        and (any(_ast_status_continue(n) for s in loop.body for n in ast.walk(s)) or _ast_leave_unless(loop))
    ]


def _counted(loop: cst.For) -> bool:
    it = loop.iter
    target = loop.target
    if not (isinstance(target, cst.Name) and isinstance(it, cst.Call) and dotted(it.func) == "range"):
        return False
    if not 1 <= len(it.args) <= 2 or any(a.star or a.keyword for a in it.args):
        return False
    if len(it.args) == 2 and not (isinstance(it.args[0].value, cst.Integer) and it.args[0].value.evaluated_value in (0, 1)):
        return False
    name = target.value
    return name.startswith("_") or any(w in name.lower() for w in kb.RETRY_COUNTER_WORDS)


def _conjuncts(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """``a and b and c`` -> ``[a, b, c]``, parentheses dropped."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _conjuncts(test.left) + _conjuncts(test.right)
    return [test]


def _reads_status(test: cst.BaseExpression) -> bool:
    return any(isinstance(n, cst.Attribute) and n.attr.value in _STATUS_READS for n in all_nodes(test))


def _resolved(test: cst.BaseExpression, constants: Callable[[str], cst.BaseExpression | None]) -> cst.BaseExpression:
    """The test with ``NAME``/``self.NAME`` after ``in``/``not in`` replaced by the literal collection the module or
    class binds to it (``_RETRY_STATUSES = frozenset({429, 500, 502})``)."""

    class _Swap(cst.CSTTransformer):
        def leave_ComparisonTarget(self, original: cst.ComparisonTarget, updated: cst.ComparisonTarget) -> cst.ComparisonTarget:
            comp = updated.comparator
            name = comp.value if isinstance(comp, cst.Name) else comp.attr.value if (
                isinstance(comp, cst.Attribute) and isinstance(comp.value, cst.Name) and comp.value.value in ("self", "cls")
            ) else None
            held = constants(name) if name is not None and isinstance(updated.operator, (cst.In, cst.NotIn)) else None
            return updated.with_changes(comparator=held) if held is not None else updated

    out = test.visit(_Swap())
    return out if isinstance(out, cst.BaseExpression) else test


def _goes_round(suite: cst.BaseSuite) -> bool:
    """The suite ends in ``continue``, or in an ``if`` whose body does (the loop's bound: ``if attempt <
    max_retries - 1: continue``), as ``_ast_goes_round``."""
    stmts = _body(suite)
    last = stmts[-1] if stmts else None
    return _ends_in_continue(suite) or (isinstance(last, cst.If) and _goes_round(last.body))


def status_retry(loop: cst.For, constants: Callable[[str], cst.BaseExpression | None]) -> frozenset[int] | None:
    """The statuses a counted loop goes round on (the ``if``s testing a status whose body ends in ``continue``),
    when one of them is a 5xx; else None. ``constants`` gives the literal a name is bound to."""
    if not _counted(loop):
        return None
    sent: set[int] = set()
    for n in _walk(loop.body, into_loops=False):
        if isinstance(n, cst.If) and _goes_round(n.body) and _reads_status(n.test):
            if any(idempotency_flag(t) for t in _conjuncts(n.test)):
                continue  # s45 (batch 17): `if r.status_code >= 500 and idempotent:` sends only safe requests round
            statuses = status_set(_resolved(n.test, constants))
            if statuses:
                sent |= statuses
    sent |= _let_through(loop, constants)
    if not sent & (kb.SERVER_ERROR_STATUSES | frozenset(range(500, 600))):
        return None
    return frozenset(sent)


def _leaves(suite: cst.BaseSuite) -> bool:
    """Every way through the suite ends in ``return`` or ``raise`` (as ``_ast_leaves``)."""
    stmts = _body(suite)
    last = stmts[-1] if stmts else None
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    return (
        isinstance(last, cst.If) and _leaves(last.body)
        and isinstance(last.orelse, cst.Else) and _leaves(last.orelse.body)
    )


def _let_through(loop: cst.For, constants: Callable[[str], cst.BaseExpression | None]) -> frozenset[int]:
    """s52 (batch 24 vibops-mcp): the statuses a leave-unless test sends round. At the body's own level, an ``if``
    (no ``else``) testing a status whose every way returns or raises, followed by statements none of which
    returns, raises or breaks: a status the test lets through goes round by falling off the body's end
    (``if r.status_code not in _RETRY_STATUSES or attempt == last: ... return r.json()``, then ``await
    asyncio.sleep(delay)``: the statements after it must wait, and must not call ``raise_for_status``). The statuses are those that make the test false (a part testing no status,
    the loop's bound, is neutral); none when the test is guarded by an idempotency flag."""
    stmts = _body(loop.body)
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, cst.If) and stmt.orelse is None and _leaves(stmt.body) and _reads_status(stmt.test):
            if not _waits_round(stmts[i + 1:]):
                return frozenset()
            if any(idempotency_flag(t) for t in _disjuncts(stmt.test)):
                return frozenset()
            leaving = status_set(_resolved(stmt.test, constants))
            return frozenset() if leaving is None else frozenset(kb.SAMPLE_STATUSES) - leaving
    return frozenset()


def _waits_round(rest: Sequence[cst.BaseStatement]) -> bool:
    """As ``_ast_waits_round``: the statements wait and none leaves the loop."""
    nodes = [n for r in rest for n in _walk(r)]
    names = [n.func.attr.value if isinstance(n.func, cst.Attribute) else n.func.value if isinstance(n.func, cst.Name) else ""
             for n in nodes if isinstance(n, cst.Call)]
    return (
        any(any(w in name.lower() for w in kb.SLEEP_WORDS) for name in names)
        and "raise_for_status" not in names
        and not any(isinstance(n, (cst.Return, cst.Raise, cst.Break)) for n in nodes)
    )


def _disjuncts(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """``a or b or c`` -> ``[a, b, c]``; a ``not`` is looked through (``not self.idempotent or ...``)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _disjuncts(test.left) + _disjuncts(test.right)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return [test.expression]
    return [test]
