"""Budget facts about a hand-written retry loop, read from the retry model's :class:`~.data.Loop`.

An addition to the retry model (``model.py``) for the budget rules
(TFH301-TFH304); it finds no retry itself. Every function takes a loop the
model found and answers one question about its paths:

- :func:`forever`: ``while True`` / ``while 1`` (any other test may be the bound);
- :func:`bound`: what stops a going-round handler from going round forever
  (an exit reachable from the handler, or anywhere in the loop outside the
  ``try`` body, a counter or deadline test that exits), or None;
- :func:`plain_success_exit`: the ``try`` leaves the loop on success without a
  condition (a retry), as opposed to only under a test (a polling loop);
- :func:`leaves_on_success`: a ``break``/``return`` anywhere outside the
  handlers that go round (``try: x = f() / except: continue / break`` counts);
- :func:`calls_parameter`: the ``try`` calls a parameter of an enclosing
  function (the loop of a retry decorator or helper);
- :func:`looks_like_retry`: a ``for`` loop that says it retries (counter
  names, a sleep or a "retry" word in the handler).

Which handlers go round blindly is ``handlers.py``; whether a loop waits
before the next attempt is ``waits.py``.

Every answer errs towards silence: a path that *may* sleep counts as sleeping,
a statement that *may* leave the loop counts as a bound.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

import libcst as cst

from ...linter.api import dotted, has_star, keyword_arg, lexical_children
from ...linter.api import knowledge as kb
from .data import Loop
from .grown import grows_to_success
from .loops import _flag_success, attempt_counter_name, delay_literal
from .worklist import draws_next_item, walks_by_index

if TYPE_CHECKING:
    from ...linter.api import Names

_Scope = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_Loops = (cst.For, cst.While)
_COUNTER_WORDS = ("attempt", "retr", "tries", "try", "count", "tried", "fail", "error")
_ATTEMPT_TEXT = re.compile(r"\b(?:retry|retries|retrying|attempts?|tries)\b", re.IGNORECASE)
_TIME_WORDS = ("time", "monotonic", "deadline", "elapsed", "timeout", "expire", "until", "now", "clock", "budget")


def _stmts(suite: cst.BaseSuite | None) -> Sequence[cst.BaseStatement]:
    if isinstance(suite, cst.IndentedBlock):
        return suite.body
    if isinstance(suite, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body=list(suite.body))]
    return []


def _walk(node: cst.CSTNode, *, into_loops: bool = True) -> Iterator[cst.CSTNode]:
    """Every node under ``node``, not entering nested definitions (nor loops when ``into_loops`` is False)."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        yield n
        for child in reversed(lexical_children(n)):  # source order (libcst's ``children``, read from the fields)
            if isinstance(child, _Scope) or (not into_loops and isinstance(child, _Loops)):
                continue
            stack.append(child)


def _walk_all(nodes: Iterable[cst.CSTNode], *, into_loops: bool = True) -> Iterator[cst.CSTNode]:
    for n in nodes:
        yield from _walk(n, into_loops=into_loops)


def _callee_last(call: cst.Call) -> str:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return ""


def forever(loop: Loop) -> bool:
    """``while True:`` or ``while 1:``."""
    node = loop.node
    if not isinstance(node, cst.While):
        return False
    test = node.test
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression, cst.Name):
        return _flag_success(node, loop.try_node)  # while not ok: ... ok = True (issue 23)
    if isinstance(test, cst.Comparison):
        return grows_to_success(node, loop.try_node)  # while idx >= len(out): try: out.append(f()) (s40)
    return (isinstance(test, cst.Name) and test.value == "True") or (isinstance(test, cst.Integer) and test.value == "1")


def _is_exit(node: cst.CSTNode) -> bool:
    """``break``/``return``/``raise``, or a call that ends the process or is named like a give-up."""
    if isinstance(node, (cst.Break, cst.Return, cst.Raise)):
        return True
    if isinstance(node, cst.Call):
        name = dotted(node.func) or ""
        if name in ("sys.exit", "exit", "quit", "os._exit", "os.abort"):
            return True
        last = _callee_last(node).lower()
        return last.startswith(kb.GIVE_UP_CALL_PREFIXES)
    return False


def _loop_exits(nodes: Iterable[cst.CSTNode], *, raising: bool = True) -> Iterator[cst.CSTNode]:
    """What leaves the loop under ``nodes``: ``return`` (and, when ``raising``, ``raise`` and
    give-up calls) at any depth, ``break`` only outside nested loops; nested definitions skipped."""
    stack: list[tuple[cst.CSTNode, bool]] = [(n, False) for n in nodes]
    while stack:
        n, nested = stack.pop()
        if isinstance(n, cst.Return) or (not nested and isinstance(n, cst.Break)):
            yield n
        elif raising and _is_exit(n) and not isinstance(n, cst.Break):
            yield n
        for child in lexical_children(n):
            if isinstance(child, _Scope):
                continue
            stack.append((child, nested or isinstance(child, _Loops)))


def _try_body_and_else(loop: Loop) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = [loop.try_node.body]
    if loop.try_node.orelse is not None:
        out.append(loop.try_node.orelse)
    return out


def _counters(loop: Loop) -> set[str]:
    """Names the loop counts with: ``x += 1``/``x -= 1``/``x = x + 1`` anywhere in it, or named like a counter."""
    out: set[str] = set()
    for n in _walk(loop.node.body):
        if isinstance(n, cst.AugAssign) and isinstance(n.operator, (cst.AddAssign, cst.SubtractAssign)):
            name = dotted(n.target)
            if name:
                out.add(name)
        elif isinstance(n, cst.Assign) and isinstance(n.value, cst.BinaryOperation):
            for t in n.targets:
                name = dotted(t.target)
                if name and dotted(n.value.left) == name:
                    out.add(name)
    return out


def _tests_budget(test: cst.BaseExpression, counters: set[str]) -> bool:
    """A test that reads a counter, a deadline or the time."""
    for n in _walk(test):
        name = dotted(n) if isinstance(n, (cst.Name, cst.Attribute)) else None
        if name is None:
            continue
        if name in counters:
            return True
        low = name.rsplit(".", 1)[-1].lower()
        if any(w in low for w in _COUNTER_WORDS + _TIME_WORDS):
            return True
    return False


def bound(loop: Loop) -> cst.CSTNode | None:
    """What bounds the loop's going-round handlers, or None when nothing does.

    Bounded: an exit (``break``/``return``/``raise``, ``sys.exit``, a call
    named like ``give_up``/``raise_``/``fail``) reachable from a handler that
    goes round, or on the way back to the loop head (a check before the
    ``try``, in its ``finally``, after it when a handler falls through to
    there); inside the ``try``
    body, an ``if`` whose test reads a counter, a deadline or the time and
    whose body exits; a counter the handler passes to a call (it may be
    checked there).
    """
    for handler in loop.handlers:
        for n in _loop_exits([handler.body]):
            return n
    if loop.exiting_calls:
        return loop.exiting_calls[0]  # a same-module helper called in the handler raises (issue 23)
    # before the try (a check on every round), in its finally; after it only
    # when a going-round handler falls through to there (after a `continue`
    # it is the success path: `try: x = f() / except: continue / break`)
    around: list[cst.CSTNode] = list(_before_try(loop))
    if loop.try_node.finalbody is not None:
        around.append(loop.try_node.finalbody)
    if not all(_ends_with_jump(_stmts(h.body)) for h in loop.handlers):
        around.extend(_after_try(loop))
    for n in _loop_exits(around):
        return n
    counters = _counters(loop)
    for n in _walk_all(_try_body_and_else(loop), into_loops=False):
        if isinstance(n, cst.If) and _tests_budget(n.test, counters):
            if any(True for _ in _loop_exits([n.body])):
                return n
    for handler in loop.handlers:
        for n in _walk(handler.body):
            if isinstance(n, cst.Call) and any(
                (dotted(a.value) or "") in counters for a in n.args if isinstance(a.value, (cst.Name, cst.Attribute))
            ):
                return n
    return None


def _transparent(stmts: Sequence[cst.BaseStatement]) -> Iterator[cst.CSTNode]:
    """The statements run unconditionally: top level, and through ``with`` blocks."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, cst.With):
            yield from _transparent(_stmts(stmt.body))


def _every_branch_leaves(node: cst.If) -> bool:
    """An ``if``/``elif``/``else`` each of whose branches ends in a ``return`` or ``break``."""
    last = _stmts(node.body)[-1:]
    if not (last and isinstance(last[0], cst.SimpleStatementLine) and any(isinstance(s, (cst.Break, cst.Return)) for s in last[0].body)):
        return False
    if isinstance(node.orelse, cst.If):
        return _every_branch_leaves(node.orelse)
    if isinstance(node.orelse, cst.Else):
        tail = _stmts(node.orelse.body)[-1:]
        return bool(tail) and (
            (isinstance(tail[0], cst.SimpleStatementLine) and any(isinstance(s, (cst.Break, cst.Return)) for s in tail[0].body))
            or (isinstance(tail[0], cst.If) and _every_branch_leaves(tail[0]))
        )
    return False


def plain_success_exit(loop: Loop) -> bool:
    """The ``try`` (or its ``else``) ends the loop on success with no test in between: a retry, not a poll.

    Also a ``break``/``return`` right after the ``try`` at the loop's top level
    (``try: x = f() / except E: continue / break``).
    """
    if isinstance(loop.node, cst.While) and _flag_success(loop.node, loop.try_node):
        return True
    suites = [_stmts(loop.try_node.body)]
    if loop.try_node.orelse is not None:
        suites.append(_stmts(loop.try_node.orelse.body))
    for suite in suites:
        for stmt in _transparent(suite):
            if isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(s, (cst.Break, cst.Return)) for s in stmt.body):
                return True
            if isinstance(stmt, cst.If) and _every_branch_leaves(stmt):
                return True  # s37: `if stream: return c.stream(...) else: return c.get(...)`
    after = _after_try(loop)
    for stmt in after:
        if isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(s, (cst.Break, cst.Return)) for s in stmt.body):
            return True
        if not isinstance(stmt, cst.SimpleStatementLine):
            break
    return False


def _before_try(loop: Loop) -> list[cst.BaseStatement]:
    """The statements of the loop body (and of a ``with`` around the ``try``) that run before it."""
    body = _stmts(loop.node.body)
    for i, stmt in enumerate(body):
        if stmt is loop.try_node:
            return list(body[:i])
        if isinstance(stmt, cst.With):
            inner = _stmts(stmt.body)
            for j, s in enumerate(inner):
                if s is loop.try_node:
                    return list(body[:i]) + list(inner[:j])
    return list(body)


def _after_try(loop: Loop) -> list[cst.BaseStatement]:
    """The statements that run after the ``try`` before the loop goes round: the rest of the
    block holding it (a ``with`` around it), then the rest of the loop body."""
    out: list[cst.BaseStatement] = []
    for stmt_list in (_stmts(loop.node.body),):
        for i, stmt in enumerate(stmt_list):
            if stmt is loop.try_node:
                return list(stmt_list[i + 1 :])
            if isinstance(stmt, cst.With):
                inner = _stmts(stmt.body)
                for j, s in enumerate(inner):
                    if s is loop.try_node:
                        return list(inner[j + 1 :]) + list(stmt_list[i + 1 :])
    return out


def is_sleep(node: cst.CSTNode) -> bool:
    """A call named like a wait: ``time.sleep``, ``await asyncio.sleep``, ``self._backoff(n)``, ``event.wait(5)``."""
    if not isinstance(node, cst.Call):
        return False
    last = _callee_last(node).lower()
    if any(w in last for w in kb.SLEEP_WORDS):
        return True
    # a rate limiter's wait (``self.limiter.apply_rate_limit(kind)``, ``throttle()``): s35 post, attempt-waits
    bare = last.lstrip("_")
    return bare == "throttle" or (
        bare.startswith(kb.RATE_LIMIT_WAIT_VERBS) and any(w in bare for w in kb.RATE_LIMIT_WAIT_NOUNS)
    )


def _ends_with_jump(stmts: Sequence[cst.BaseStatement]) -> bool:
    """The block's last statement is ``continue``/``break``/``return``/``raise`` (control never falls out)."""
    if not stmts:
        return False
    last = stmts[-1]
    return isinstance(last, cst.SimpleStatementLine) and any(
        isinstance(s, (cst.Continue, cst.Break, cst.Return, cst.Raise)) for s in last.body
    )


def leaves_on_success(loop: Loop) -> bool:
    """A ``break``/``return`` (of this loop) anywhere in it outside the handlers that go round; or an attempt that
    replaces the process (``os.execv``: nothing comes back when it works, s53)."""
    if loop.replaces_process:
        return True
    handlers = {id(n) for h in loop.handlers for n in _walk(h)}
    for n in _loop_exits([loop.node.body], raising=False):
        if id(n) not in handlers:
            return True
    return False


def calls_parameter(loop: Loop, parameters: Iterable[str]) -> str | None:
    """The parameter of an enclosing function that the ``try`` calls (``func(*args)``), or None."""
    params = set(parameters)
    if not params:
        return None
    for n in _walk(loop.try_node.body):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in params:
            return n.func.value
    return None


def looks_like_retry(loop: Loop) -> bool:
    """A ``for`` loop that says it retries: a counter-like target or bound, a handler that waits or talks of
    retrying, or an attempt whose result the code after the loop keeps (``Loop.kept_result``).

    ``for _ in range(n): try: start_worker() except: log()`` (do n things,
    tolerating failures) says none of that.
    """
    node = loop.node
    if loop.kept_result:
        return True
    if isinstance(node, cst.For):
        names = [dotted(node.target) or ""]
        if isinstance(node.iter, cst.Call):
            names += [dotted(a.value) or "" for a in node.iter.args]
        if any(w in name.lower() for name in names for w in kb.RETRY_COUNTER_WORDS):
            return True
    for handler in loop.handlers:
        for n in _walk(handler.body):
            if is_sleep(n):
                return True
            if isinstance(n, (cst.SimpleString, cst.FormattedStringText)):
                text = n.value.lower()
                if "retr" in text or "attempt" in text or "again" in text:
                    return True
    return False


def _block_after(body: cst.BaseSuite, target: cst.CSTNode) -> Sequence[cst.BaseStatement] | None:
    """The statements after ``target`` in the block (of ``body``, not entering definitions) that holds it."""
    stmts = _stmts(body)
    for i, stmt in enumerate(stmts):
        if stmt is target:
            return stmts[i + 1:]
    for stmt in stmts:
        for n in _walk(stmt):
            if n is not stmt and isinstance(n, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                inner = _stmts(n)
                for i, s in enumerate(inner):
                    if s is target:
                        return inner[i + 1:]
    return None


def keeps_last_result(loop: Loop, function: cst.FunctionDef) -> bool:
    """s35 (issue 23): ``for _ in range(n)`` whose ``try`` binds a name that the code after the loop reads
    (``response = call(...)`` ... ``return response["choices"]``): the same call made n times with the last
    round's value kept, which only a retry means. Any other target (one the body reads) does not count."""
    node = loop.node
    if not isinstance(node, cst.For) or not isinstance(node.target, cst.Name) or not node.target.value.startswith("_"):
        return False
    # a result: bound from a call, or from a result bound before it (``text = response.text``); a flag
    # (``done = True``) is no result
    bound: set[str] = set()
    for n in _walk_all(_stmts(loop.try_node.body), into_loops=False):
        if isinstance(n, cst.Assign) and any(
            isinstance(v, cst.Call) or (isinstance(v, cst.Name) and v.value in bound) for v in _walk(n.value)
        ):
            bound.update(t.target.value for t in n.targets if isinstance(t.target, cst.Name))
    if not bound:
        return False
    after = _block_after(function.body, node)
    if not after:
        return False
    return any(isinstance(n, cst.Name) and n.value in bound for n in _walk_all(after))


def callee_text(loop: Loop) -> str:
    """The first call in the ``try`` body, as ``fetch()``, for messages; ``the call`` when none. A constructor
    (``ClientTimeout(total=15)``, a capitalised last name) gives way to a later call (s39: xiaogpt's ``session.get``)."""
    first: str | None = None
    for stmt in _transparent(_stmts(loop.try_node.body)):
        if isinstance(stmt, cst.With):
            continue  # its body comes next; its items are context managers (timeouts, locks)
        for n in _walk(stmt):
            if not isinstance(n, cst.Call):
                continue
            name = dotted(n.func)
            if name and name.rsplit(".", 1)[-1] in ("append", "extend") and any(
                isinstance(m, cst.Call) for a in n.args for m in _walk(a)
            ):
                continue  # `out.append(fetch())`: the call inside is what is retried (s40)
            if name and not is_sleep(n) and not name.rsplit(".", 1)[-1].lower().startswith(kb.LOGGING_CALL_PREFIXES):
                if not name.rsplit(".", 1)[-1][:1].isupper():
                    return f"`{name}()`"
                first = first or f"`{name}()`"
    return first or "the call"


def iterates(loop: Loop) -> bool:
    """A ``for`` over ``range`` that walks something: its target (not counter-like) is read in
    the loop body outside the handlers (a log line in a handler does not count), or the range
    has a step (``range(0, len(xs), size)``)."""
    node = loop.node
    if not isinstance(node, cst.For):
        return False
    if isinstance(node.iter, cst.Call) and len(node.iter.args) == 3:
        return True
    if draws_next_item(loop) or walks_by_index(loop):
        return True
    if delay_literal(node.iter) or loop.schedule is not None:
        return False  # for delay in (1, 2, 4) / RETRY_DELAYS: the target is the wait, not data
    target = dotted(node.target)
    if not target or target.startswith("_") or any(w in target.lower() for w in kb.RETRY_COUNTER_WORDS):
        return False
    counted = {id(n) for n in _counter_reads(node.body)}
    return any(isinstance(n, cst.Name) and n.value == target and id(n) not in counted for n in _walk(node.body))


def _attempt_log(call: cst.Call) -> bool:
    """A log line that names the number it prints as an attempt (``logger.info(f"send ... retry={i}/{n}")``,
    ``log("attempt %d", i)``): the counter is read as which attempt this is, not as data (s39, nekro-agent)."""
    name = dotted(call.func) or ""
    if not name.rsplit(".", 1)[-1].lower().startswith(kb.LOGGING_CALL_PREFIXES):
        return False
    for arg in call.args:
        for n in _walk(arg.value):
            text = n.value if isinstance(n, (cst.SimpleString, cst.FormattedStringText)) else None
            if text is not None and _ATTEMPT_TEXT.search(text):
                return True
    return False


def _counter_reads(body: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes under ``body`` where a ``range`` target is read as an attempt number, not as data (s38,
    issue 23): any ``except`` handler in the body (a log line, ``if i == 1: reinit()`` in the handler
    of a second ``try``), a bare operand of a comparison (``i < n - 1``, ``i == 0``: which attempt this
    is), and the value assigned to a counter-named target (``retry_index = i + 1``). A log line outside the
    handlers still counts as a read (``log.info("step %d", turn)``: an agent's turns), unless its text names
    an attempt (``retry={i}``, ``"attempt %d"``: s39)."""
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        whole: Sequence[cst.CSTNode] = ()
        if isinstance(n, cst.ExceptHandler):
            whole = (n,)
        elif isinstance(n, cst.Comparison):
            whole = [x for x in (n.left, *(c.comparator for c in n.comparisons)) if isinstance(x, (cst.Name, cst.BinaryOperation))]
        elif isinstance(n, cst.Assign) and all(
            (d := dotted(t.target)) and any(w in d.rsplit(".", 1)[-1].lower() for w in kb.RETRY_COUNTER_WORDS) for t in n.targets
        ):
            whole = (n,)
        elif isinstance(n, cst.Call) and _attempt_log(n):
            whole = (n,)
        for part in whole:
            yield from _walk(part)
        stack.extend(c for c in lexical_children(n) if c not in whole)


def runtime_unbounded(call: cst.Call, names: "Names") -> str | None:
    """How a literal runtime retry call has no bound (it raises ConfigError when built), or None."""
    if has_star(call):
        return None
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == kb.RUNTIME_RETRY_METHOD:
        # clock.retrying(clauses...): every clause must be a known runtime name, none a bound
        for arg in call.args:
            value = arg.value
            if arg.keyword is not None:
                return None
            if isinstance(value, cst.Attribute) and value.attr.value == "attempts":
                return None
            head = value.func if isinstance(value, cst.Call) else value
            qn = names.qualname(head)
            if qn is None or not qn.startswith(kb.RUNTIME_PREFIX) or qn.rsplit(".", 1)[-1] in kb.RUNTIME_BOUND_CLAUSES:
                return None
        return "retrying() with neither up_to(n).attempts nor within(budget)"
    for keyword in ("times", "budget"):
        given = keyword_arg(call, keyword)
        if given is not None and not (isinstance(given.value, cst.Name) and given.value.value == "None"):
            return None
    return "retry() with neither times= nor budget="


class LoopParameters:
    """Mixin for a rule: records, for every loop, the parameters of the functions around it.

    ``self.loop_parameters[id(loop)]`` then feeds :func:`calls_parameter`.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg, unused-ignore]
        self.loop_parameters: dict[int, frozenset[str]] = {}
        self._param_stack: list[frozenset[str]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        p = node.params
        names = {a.name.value for a in (*p.posonly_params, *p.params, *p.kwonly_params)}
        outer = self._param_stack[-1] if self._param_stack else frozenset()
        self._param_stack.append(outer | names)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._param_stack.pop()

    def visit_While(self, node: cst.While) -> None:
        if self._param_stack:
            self.loop_parameters[id(node)] = self._param_stack[-1]

    def visit_For(self, node: cst.For) -> None:
        if self._param_stack:
            self.loop_parameters[id(node)] = self._param_stack[-1]


def skipped_counter(loop: Loop, going_round: Sequence[cst.ExceptHandler]) -> tuple[cst.ExceptHandler, str] | None:
    """A going-round handler of a ``while <counter> < <limit>`` loop that ends in ``continue`` before
    the counter is advanced (issue 23, batch 5): ``except ConnectionError: continue`` skips the
    ``retries += 1`` after the ``try``, so that failure never brings the loop nearer its bound.

    The handler must not advance the counter, exit, call a same-module helper that raises, or hand
    the counter to a call; nothing before the ``try`` or in its ``finally`` advances it or exits
    on a test of it (or of a deadline). Returns the handler and the counter's name."""
    node = loop.node
    if not isinstance(node, cst.While) or not isinstance(node.test, cst.Comparison):
        return None
    test = node.test
    if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual)):
        return None
    counter = dotted(test.left)
    if counter is None or not attempt_counter_name(counter):
        return None
    before: list[cst.CSTNode] = list(_before_try(loop))
    if loop.try_node.finalbody is not None:
        before.append(loop.try_node.finalbody)
    if _advances(before, counter):
        return None
    for n in _walk_all(before):
        if isinstance(n, cst.If) and _tests_budget(n.test, {counter}) and any(True for _ in _loop_exits([n.body])):
            return None
    if not (_advances(_after_try(loop), counter) or any(_advances([h.body], counter) for h in loop.try_node.handlers)):
        return None  # nothing advances it on the way round: another rule's shape
    exiting = {id(c) for c in loop.exiting_calls}
    for handler in going_round:
        stmts = _stmts(handler.body)
        last = stmts[-1] if stmts else None
        if not (isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, cst.Continue) for s in last.body)):
            continue
        nodes = list(_walk(handler.body))
        if _advances([handler.body], counter) or any(True for _ in _loop_exits([handler.body])):
            continue
        if any(id(n) in exiting for n in nodes):
            continue
        if any(isinstance(n, cst.Call) and any(counter in _names(a.value) for a in n.args) for n in nodes):
            continue
        return handler, counter
    return None


def _advances(nodes: Sequence[cst.CSTNode], counter: str) -> bool:
    for n in _walk_all(nodes):
        if isinstance(n, cst.AugAssign) and dotted(n.target) == counter:
            return True
        if isinstance(n, cst.Assign) and any(dotted(t.target) == counter for t in n.targets):
            return True
    return False


def _names(node: cst.CSTNode) -> set[str]:
    return {name for n in _walk(node) if isinstance(n, (cst.Name, cst.Attribute)) and (name := dotted(n)) is not None}

