"""Hand-written retry loops: :func:`hand_loop` says whether a ``for``/``while`` is one, and the loop helpers the model shares.

A retry loop holds a ``try`` whose handler goes round again and (for a
``while``) an exit on success; worker, polling and batch loops are not
retries. The path questions about a loop the model found are ``paths.py``
(its bound, its success exit), ``handlers.py`` (which handlers go round
blindly) and ``waits.py`` (its sleeps).
"""

from __future__ import annotations

import builtins
from typing import Iterable, Mapping, Sequence, Union

import libcst as cst

from ...linter.api import dotted, knowledge, lexical_children
from .data import UNKNOWN, Condition, Loop, Part, Stop, _Unknown
from .literals import _SAMPLE, _int, status_set
from .status_loops import all_nodes as _walk
from .grown import asks_a_person, grows_to_success
from ...linter.api import every_node as _every_node
from .status_loops import raises_outside_counter_tests
from .status_loops import target_names as _target_names
from .steps import BOOKKEEPING_CALL_WORDS as _BOOKKEEPING_CALL_WORDS
from .steps import body_stmts as _body_stmts
from .steps import continues as _continues
from .steps import one_step_of_many as _one_step_of_many
from .messages import receives_first as _receives_first, receives_item


def _exits(stmt: cst.CSTNode) -> bool:
    """A statement that leaves the loop: raise, return, break, or ``sys.exit(1)``."""
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(s, (cst.Raise, cst.Return, cst.Break))
        or (isinstance(s, cst.Expr) and isinstance(s.value, cst.Call) and dotted(s.value.func) in knowledge.PROCESS_EXIT_CALLS)
        for s in stmt.body
    )


def _goes_round(handler: cst.ExceptHandler) -> bool:
    """The handler's last statement does not leave the loop, or a ``continue`` of this loop lies in it
    (``if attempt < limit: sleep(...); continue`` then ``return []``: issue 23, a branch goes round)."""
    stmts = _body_stmts(handler.body)
    return bool(stmts) and (not _exits(stmts[-1]) or _continues(handler.body))


def _falls_to_exit(loop: Union[cst.For, cst.While], trynode: cst.Try, handler: cst.ExceptHandler) -> bool:
    """s36: the handler falls through to plain statements after the ``try`` that leave the loop
    (``except CalledProcessError: pass`` then ``exited = True; break``): it does not go round."""
    body = list(_body_stmts(loop.body))
    if _continues(handler.body) or trynode not in body:
        return False
    for stmt in body[body.index(trynode) + 1:]:
        if _exits(stmt) or not isinstance(stmt, cst.SimpleStatementLine) or _continues(stmt):
            return _exits(stmt)
    return False


def _has_success_exit(suite: cst.BaseSuite, *, shallow: bool = False) -> bool:
    """A ``break``/``return`` in the ``try`` body; ``shallow``: at most one ``if``/``with`` down (a worker loop's exits sit deep)."""
    stack: list[tuple[cst.CSTNode, int]] = [(s, 0) for s in _body_stmts(suite)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (cst.Break, cst.Return)):
            return True
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.For, cst.While)):
            continue
        if isinstance(node, cst.BaseCompoundStatement):
            depth += 1
            if shallow and depth > 2:
                continue
        stack.extend((child, depth) for child in lexical_children(node))
    return False


def _direct_exit(suite: cst.BaseSuite, flags: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """A ``break``/``return`` as a statement of the suite, in a ``with`` there (or plainly in ``with`` blocks nested in it),
    or in the body (not the ``else``) of an ``if`` there.

    A retry's attempt exits when it worked; a daemon's exit sits in an
    ``else`` (``if self.pool: ... else: break``), deeper in its program, or
    under a test of the loop's own flag (``while self._running: ... if not
    self._running: break``): ``flags`` are the names the loop's test reads.
    """
    for stmt in _body_stmts(suite):
        if _exits_cleanly(stmt):
            return True
        if isinstance(stmt, cst.If) and flags and _names_in(stmt.test) & flags:
            continue
        if isinstance(stmt, (cst.If, cst.With)) and any(_exits_cleanly(s) for s in _body_stmts(stmt.body)):
            return True
        if isinstance(stmt, cst.With) and _plain_exit_in_withs(stmt):
            return True  # s38: a plain exit in a nested `with` (a session, then its request); not one under an `if` (a poll)
    return False


def _plain_exit_in_withs(stmt: cst.With) -> bool:
    """A ``break``/``return`` as a statement of nested ``with`` blocks (``async with session: async with
    session.post(...) as resp: ...; return``); one under an ``if`` there is a readiness poll's (``if resp.status
    == 200: return``), left out."""
    for inner in _body_stmts(stmt.body):
        if _exits_cleanly(inner) or (isinstance(inner, cst.With) and _plain_exit_in_withs(inner)):
            return True
    return False


def _exits_cleanly(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(s, (cst.Return, cst.Break)) for s in stmt.body)


def _narrows(handler: cst.ExceptHandler) -> bool:
    """The handler decides from the exception whether to go round (``if "timed out" in str(e): ... else: raise``)."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return False
    bound = handler.name.name.value
    # names holding what was read from the exception (`msg = str(e)`, `is_rate_limit = "429" in msg`,
    # `should_retry = self._is_conflict(e)`): a test of one decides on the exception (issue 23)
    derived = {bound}
    assigns = [a for a in _walk(handler.body) if isinstance(a, cst.Assign)]
    grown = True
    while grown:
        grown = False
        for a in assigns:
            if _names_in(a.value) & derived:
                for name in {v for t in a.targets for v in _target_names(t.target)} - derived:  # `x, y = f(e)` too
                    derived.add(name)
                    grown = True
    stmts = _body_stmts(handler.body)
    only_branch_goes_round = bool(stmts) and _exits(stmts[-1])
    jumps: tuple[type[cst.CSTNode], ...] = (cst.Raise, cst.Return, cst.Break) + ((cst.Continue,) if only_branch_goes_round else ())
    for n in _walk(handler.body):
        if isinstance(n, cst.If) and _names_in(n.test) & derived:
            branches: list[cst.CSTNode] = [n.body]
            if n.orelse is not None:
                branches.append(n.orelse)
            if any(isinstance(m, jumps) for b in branches for m in _walk(b)):
                return True
        if isinstance(n, cst.Assign) and bound in _names_in(n.value) and not _mere_record(n.value, bound):
            # stop = self._should_stop(e) ... if stop: raise
            if raises_outside_counter_tests(handler.body, derived):
                return True
    return False


def _mere_record(value: cst.BaseExpression, bound: str) -> bool:
    """``last = e``, ``msg = str(e)``, ``text = f"...{e}"``: keeping the exception, not deciding on it."""
    if isinstance(value, cst.Name):
        return True
    if isinstance(value, (cst.FormattedString, cst.ConcatenatedString, cst.SimpleString)):
        return True
    if isinstance(value, cst.Call) and dotted(value.func) in ("str", "repr", "type", "format_exc", "traceback.format_exc"):
        return True
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Call):
        return _mere_record(value.value, bound)  # type(e).__name__
    if isinstance(value, (cst.Tuple, cst.List)):
        # `failure = (delay, type(e).__name__)`: each part kept, none decided on
        return all(
            isinstance(el, cst.Element) and (bound not in _names_in(el.value) or _mere_record(el.value, bound))
            for el in value.elements
        )
    return False


_MAX_WHILE_ATTEMPT_STATEMENTS = 30


def _subscripts(suite: cst.BaseSuite, name: str) -> bool:
    """Whether ``name`` indexes or slices something in the suite (``texts[i : i + n]``)."""
    for n in _walk(suite):
        if isinstance(n, cst.SubscriptElement) and name in _names_in(n):
            return True
    return False


def _success_after_try(loop: Union[cst.For, cst.While], trynode: cst.Try) -> bool:
    """A ``break``/``return`` right after the ``try``, in the loop body or in a ``with`` around it
    (``try: x = f() / except E: continue / break``: the handler skips it, success reaches it)."""
    blocks = [_body_stmts(loop.body)] + [_body_stmts(s.body) for s in _body_stmts(loop.body) if isinstance(s, cst.With)]
    for stmts in blocks:
        for i, stmt in enumerate(stmts):
            if stmt is trynode and i + 1 < len(stmts):
                nxt = stmts[i + 1]
                return isinstance(nxt, cst.SimpleStatementLine) and any(isinstance(x, (cst.Break, cst.Return)) for x in nxt.body)
    return False


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in _every_node(node) if isinstance(n, cst.Name)}


def _loop_try(loop: Union[cst.For, cst.While]) -> cst.Try | None:
    """The ``try`` a retry loop goes round (directly in the loop, or under one ``with``)."""
    for stmt in _body_stmts(loop.body):
        if isinstance(stmt, cst.Try):
            return stmt
        if isinstance(stmt, cst.With):
            for inner in _body_stmts(stmt.body):
                if isinstance(inner, cst.Try):
                    return inner
    return None


_COUNTER_WORDS = knowledge.RETRY_COUNTER_WORDS
_BUILTIN_NAMES = frozenset(dir(builtins))


def loop_schedule(loop: cst.For, bindings: Mapping[str, cst.BaseExpression] | None = None) -> cst.BaseExpression | None:
    """s57 (issue 23, ``delay-schedule-loop``): the literal delays a ``for`` goes over, one attempt per delay: the
    iterable is a literal (``for delay in (1, 2, 4)``), a name whose binding in scope is one (``RETRY_DELAYS =
    (1, 2, 4)`` at the top of the module, ``backoff_delays = [0.3, 0.6, 1.2]`` in the function: ``bindings``, the
    model's name -> value last bound), or ``enumerate`` of either with a two-name target (``for attempt, delay in
    enumerate(backoff_delays)``: arcade-github b7, lazyllm, axon-terminal, kitty-bridge). None otherwise."""
    it = loop.iter
    if isinstance(it, cst.Call) and dotted(it.func) == "enumerate" and it.args and not it.args[0].keyword \
            and not it.args[0].star and all(a.keyword is not None and a.keyword.value == "start" for a in it.args[1:]):
        target = loop.target
        if not (isinstance(target, cst.Tuple) and len(target.elements) == 2
                and all(isinstance(el.value, cst.Name) for el in target.elements)):
            return None
        it = it.args[0].value
    elif not isinstance(loop.target, cst.Name):
        return None
    if isinstance(it, cst.Name) and bindings is not None:
        held = bindings.get(it.value)
        it = held if held is not None else it
    return it if delay_literal(it) else None


def _read_as_wait(loop: cst.For, name: str) -> bool:
    """s57: every read of ``name`` in the loop is a wait's (an argument of a ``sleep``/``wait`` call) or a test
    (``if delay:``): the numbers it goes over are delays, not data the attempt sends or binds to (a port, a limit)."""
    allowed: set[int] = set()
    for n in _walk(loop.body):
        if isinstance(n, cst.Call) and any(w in (dotted(n.func) or "").rsplit(".", 1)[-1].lower() for w in ("sleep", "wait")):
            allowed.update(id(x) for a in n.args for x in _walk(a.value))
        elif isinstance(n, (cst.If, cst.While)):
            allowed.update(id(x) for x in _walk(n.test))
    return all(id(n) in allowed for n in _walk(loop.body) if isinstance(n, cst.Name) and n.value == name)


def hand_loop(loop: Union[cst.For, cst.While], bindings: Mapping[str, cst.BaseExpression] | None = None) -> Loop | None:
    """A hand-written retry loop, or None.

    ``for x in range(...)`` where ``x`` is ``_``-like, named like a counter, or
    unused in the ``try``; ``for delay in <literal delays>`` (:func:`loop_schedule`,
    ``bindings`` resolving a name to them); or any ``while``. The loop must hold a ``try`` with
    a handler that goes round again; a ``while`` whose ``try`` has no success
    exit (``break``/``return``) is a worker or polling loop, not a retry.
    """
    schedule = None
    if isinstance(loop, cst.For):
        it = loop.iter
        schedule = loop_schedule(loop, bindings)
        if schedule is not None:
            pass  # for delay in (1, 2, 4): one attempt per delay
        elif not (isinstance(it, cst.Call) and dotted(it.func) == "range"):
            return None
        # range(n), range(1, n + 1); a start elsewhere or a step walks over data (batches)
        elif len(it.args) > 2 or any(a.star or a.keyword for a in it.args):
            return None
        elif len(it.args) == 2 and _int(it.args[0].value) not in (0, 1):
            return None
    trynode = _loop_try(loop)
    if trynode is None:
        return None
    if isinstance(loop, cst.For):
        target = loop.target
        if schedule is not None:
            # the target is the delay (or the attempt number and the delay); a named or enumerated list of numbers
            # the attempt reads is data, not waits (s57: `for port in CANDIDATE_PORTS: probe.bind(("", port))`,
            # `for max_tokens in [4096, 2048]` sent with the request)
            value = target.elements[1].value if isinstance(target, cst.Tuple) else target
            if schedule is not loop.iter and isinstance(value, cst.Name) and not _read_as_wait(loop, value.value):
                return None
        elif not isinstance(target, cst.Name):
            return None
        elif not (target.value.startswith("_") or any(w in target.value.lower() for w in _COUNTER_WORDS)):
            if target.value in _names_in(trynode.body) or _subscripts(loop.body, target.value):
                return None
    else:
        # a worker loop does work before its try (``item = await queue.get()``); a retry loop
        # goes straight to it (counting and logging at most); a loop testing and advancing an
        # attempt counter (``while retries < limit: ...; retries += 1``) is a retry whatever it
        # prepares first (a key rotation, a rate-limit wait: issue 23, batch 5)
        counting = _counts_attempts(loop, trynode, anywhere=True) or _counts_attempts(loop, trynode, failures=True) \
            or _gives_up_after_count(loop, trynode)
        for stmt in [] if counting else _body_stmts(loop.body):
            if stmt is trynode or (isinstance(stmt, cst.With) and trynode in _body_stmts(stmt.body)):
                break
            if isinstance(stmt, cst.If) and not _exits_anywhere(stmt):
                pass  # `if attempt: log(...)`: bookkeeping under a test, read below
            elif not isinstance(stmt, cst.SimpleStatementLine):
                return None
            for n in _walk(stmt):
                if isinstance(n, cst.Await):
                    return None
                if isinstance(n, cst.Call):
                    callee = (dotted(n.func) or "").rsplit(".", 1)[-1].lower()
                    if not any(w in callee for w in _BOOKKEEPING_CALL_WORDS):
                        return None
        # a daemon's try body is a program; a retry's is an attempt (however long, when the loop
        # counts attempts: `while attempt < self.retry_limit`, the handler adding to `attempt`)
        if (
            sum(1 for n in _walk(trynode.body) if isinstance(n, cst.BaseStatement)) > _MAX_WHILE_ATTEMPT_STATEMENTS
            and not _counts_attempts(loop, trynode)
        ):
            return None
    handlers = tuple(h for h in trynode.handlers if _goes_round(h) and not _falls_to_exit(loop, trynode, h))
    if not handlers:
        return None
    if _result_exit_before(loop, trynode):
        return None  # s35: the attempt runs before the try and a test of its result leaves; the try is cleanup
    if asks_a_person(trynode):
        return None  # s40: `while True: try: v = input(...); break except ValueError:` asks the person again
    if _runs_a_server(trynode):
        return None  # restarting a foreground server (a person stops it): a supervisor, not a retry
    if isinstance(loop, cst.While) and not isinstance(loop.test, cst.Comparison) and _receives_first(trynode):
        # a message loop (`while True`, `while self.running`): one message per turn, a failure is
        # not the same work again; `while count < n` counts attempts: a retry
        return None
    if isinstance(loop, cst.While):
        flags = _names_in(loop.test) - {"True", "self", "not"}
        success = _direct_exit(trynode.body, flags) or (
            trynode.orelse is not None and _direct_exit(trynode.orelse.body, flags)
        )
    else:
        success = _has_success_exit(trynode.body) or (trynode.orelse is not None and _has_success_exit(trynode.orelse.body))
    success = success or _success_after_try(loop, trynode)  # issue 11: `except: continue` then `break`
    if isinstance(loop, cst.While) and not success:
        success = _flag_success(loop, trynode)  # issue 23: `while not ok: try: ...; ok = True`
    if isinstance(loop, cst.While) and not success:
        return None
    if isinstance(loop, cst.For) and not success and receives_item(loop, trynode):
        return None  # s51: a receive loop (`for _ in range(budget): request = await channel.recv(); try: ...`)
    if isinstance(loop, cst.For) and not success and _times_each_round(loop):
        return None  # a benchmark: every round is measured and run, none retries a failed one
    if isinstance(loop, cst.For) and not success and _one_step_of_many(loop, trynode, handlers):
        return None  # s44: a step loop (an agent's steps): a failure is passed over and the round goes on
    return Loop(loop, trynode, handlers, success, schedule=schedule)


def attempt_counter_name(name: str) -> bool:
    """A name that counts attempts word by word: ``retries``, ``max_num_retries``, ``attempt``, ``n_tries``
    (not ``entries`` or ``entry_index``, which only contain the letters)."""
    words = name.rsplit(".", 1)[-1].lower().strip("_").split("_")
    return any(w.startswith(("attempt", "retr")) or w in ("try", "tries", "trial", "trials") for w in words)


def _gives_up_after_count(loop: cst.While, trynode: cst.Try) -> bool:
    """s48 (batch 20 cdt-release): after its ``try`` the loop adds to an attempt counter and leaves under a test of it
    (``attempts += 1``, ``if attempts >= MAX: raise ...``): a retry whatever it builds first (``req = Request(...)``)."""
    stmts = _body_stmts(loop.body)
    after = stmts[stmts.index(trynode) + 1:] if trynode in stmts else []
    counters = {n.target.value for s in after for n in _walk(s) if isinstance(n, cst.AugAssign)
                and isinstance(n.operator, cst.AddAssign) and isinstance(n.target, cst.Name) and attempt_counter_name(n.target.value)}
    gives_up = [i for i, s in enumerate(after) if isinstance(s, cst.If) and isinstance(s.test, cst.Comparison)
                and isinstance(s.test.left, cst.Name) and s.test.left.value in counters and _exits_anywhere(s)]
    # then only bookkeeping and a wait (`delay = ...; log(...); sleep(delay)`), not a repair step (an agent run)
    return bool(gives_up) and all(isinstance(s, cst.SimpleStatementLine) for s in after[gives_up[0] + 1:])


def _counts_attempts(loop: cst.While, trynode: cst.Try, *, anywhere: bool = False, failures: bool = False) -> bool:
    """``while attempt < limit:`` whose handler adds to ``attempt`` (a counter named like one);
    ``anywhere``: adds to it anywhere in the loop (after the ``try`` too); ``failures``: only the
    handlers add to it, and it may be named like a failure count (``call_llm_count``, ``fails``)."""
    test = loop.test
    while isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        # `while tries < 20 and not done:` (a success flag beside the bound)
        test = test.left if isinstance(test.left, cst.Comparison) else test.right
    if not isinstance(test, cst.Comparison) or not isinstance(test.left, cst.Name):
        return False
    counter = test.left.value
    if not any(w in counter.lower() for w in _COUNTER_WORDS + (("count", "fail", "error") if failures else ())):
        return False
    if failures and any(
        isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == counter
        for n in _walk(cst.IndentedBlock(body=[s for s in _body_stmts(loop.body) if s is not trynode]))
    ):
        return False  # also advanced off the failure path: it counts something else
    if anywhere and not attempt_counter_name(counter):
        return False  # advanced after the attempt: only a name that says so (not `entries`, `entry_index`)
    if not all(isinstance(c.operator, (cst.LessThan, cst.LessThanEqual)) for c in test.comparisons):
        return False
    suites: list[cst.CSTNode] = [loop.body] if anywhere else [h.body for h in trynode.handlers]
    for suite in suites:
        for n in _walk(suite):
            if isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == counter:
                return isinstance(n.operator, cst.AddAssign) or not anywhere
    return False


def _runs_a_server(trynode: cst.Try) -> bool:
    """The ``try`` runs a server in the foreground: ``uvicorn.run(app)``, ``server.serve_forever()``."""
    for n in _walk(trynode.body):
        if isinstance(n, cst.Call):
            func = n.func
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if last in knowledge.SERVER_RUN_CALLS:
                return True
            if last == "run" and isinstance(func, cst.Attribute):
                receiver = (dotted(func.value) or "").rsplit(".", 1)[-1].lower()
                if receiver in knowledge.SERVER_RUN_RECEIVERS:
                    return True
    return False


def _times_each_round(loop: cst.For) -> bool:
    """The loop reads a benchmark timer (``time.perf_counter()``) in its body."""
    for n in _walk(loop.body):
        if isinstance(n, cst.Call):
            func = n.func
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if last in knowledge.BENCHMARK_TIMER_CALLS:
                return True
    return False


def _result_exit_before(loop: Union[cst.For, cst.While], trynode: cst.Try) -> bool:
    """Before the ``try``, the loop does its work and leaves on a test of the result (``result = await
    run(prompt)``, ``if "error" not in str(result): break``): the loop retries on a result, and the ``try``
    after the exit (a failed ``dispose()`` logged) is cleanup between attempts, not the attempt (s35).
    Work is a call that is neither a builtin nor of an in-memory standard-library module (a clock read
    tests a budget, not a result)."""
    worked: set[str] = set()
    for stmt in _body_stmts(loop.body):
        if stmt is trynode:
            return False
        if isinstance(stmt, cst.If) and worked & _names_in(stmt.test) and _leaves_at_once(stmt.body):
            return True
        for n in _walk(stmt):
            if not isinstance(n, cst.Assign):
                continue
            made = any(isinstance(v, cst.Name) and v.value in worked for v in _walk(n.value)) or any(
                isinstance(v, cst.Call) and _work_call(v) for v in _walk(n.value))
            if made:
                worked.update(t.target.value for t in n.targets if isinstance(t.target, cst.Name))
    return False


def _leaves_at_once(suite: cst.BaseSuite) -> bool:
    """The suite leaves the loop by a ``break``/``return`` of its own (not under a further test) and never
    goes round (``if not extracted: attempt += 1; ...; continue`` is a failure path, not a success exit)."""
    if any(isinstance(n, cst.Continue) for n in _walk(suite)):
        return False
    return any(_exits_cleanly(s) for s in _body_stmts(suite))


def _work_call(call: cst.Call) -> bool:
    root = (dotted(call.func) or "").split(".", 1)[0]
    return bool(root) and root not in _BUILTIN_NAMES and root not in knowledge.IN_MEMORY_MODULES


def _exits_anywhere(node: cst.CSTNode) -> bool:
    return any(isinstance(n, (cst.Return, cst.Break, cst.Raise, cst.Continue)) for n in _walk(node))


def _flag_success(loop: cst.While, trynode: cst.Try) -> bool:
    """``while not ok:`` (or ``while not done and ...``) whose ``try`` body (or ``else``) sets ``ok = True``;
    or a loop that ends when the ``try`` grows a list it tests the length of (:func:`grows_to_success`)."""
    if grows_to_success(loop, trynode):
        return True
    flags: set[str] = set()
    for n in _walk(loop.test):
        if isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Not) and isinstance(n.expression, cst.Name):
            flags.add(n.expression.value)
    if not flags:
        return False
    suites: list[cst.BaseSuite] = [trynode.body] + ([trynode.orelse.body] if trynode.orelse is not None else [])
    for suite in suites:
        stmts = list(_body_stmts(suite))
        for branch in [s for s in stmts if isinstance(s, cst.If)]:
            # `if "Error" in reply: count += 1 else: ok = True`: the flag set in a branch (issue 23)
            orelse = branch.orelse
            stmts.extend(_body_stmts(branch.body))
            if isinstance(orelse, cst.Else):
                stmts.extend(_body_stmts(orelse.body))
            elif isinstance(orelse, cst.If):
                stmts.append(orelse)
        for stmt in stmts:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if (
                        isinstance(small, cst.Assign)
                        and isinstance(small.value, cst.Name)
                        and small.value.value == "True"
                        and any(isinstance(t.target, cst.Name) and t.target.value in flags for t in small.targets)
                    ):
                        return True
    return False


def _calls_any(suite: cst.BaseSuite, names: set[str]) -> bool:
    for n in _walk(suite):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in names:
            return True
    return False


def delay_literal(node: cst.BaseExpression) -> bool:
    """A literal tuple or list of at least two numbers (``(1, 2, 4)``, ``[0.5, 1.0]``): delays or attempt numbers."""
    return (
        isinstance(node, (cst.Tuple, cst.List))
        and len(node.elements) >= 2
        and all(isinstance(el, cst.Element) and isinstance(el.value, (cst.Integer, cst.Float)) for el in node.elements)
    )


def _range_stop(node: cst.CSTNode, schedule: cst.BaseExpression | None) -> Union[Stop, _Unknown]:
    """The loop's bound: one attempt per delay of its schedule (``Loop.schedule``: ``for delay in (1, 2, 4)``, s57: ``for
    delay in RETRY_DELAYS``), or what its ``range`` says."""
    if isinstance(node, cst.For) and isinstance(schedule, (cst.Tuple, cst.List)):
        return Stop(node.iter, attempts=len(schedule.elements))
    if isinstance(node, cst.For) and isinstance(node.iter, cst.Call):
        args = [a.value for a in node.iter.args]
        nums = [_int(a) for a in args]
        if args and all(n is not None for n in nums):
            vals = [n for n in nums if n is not None]
            return Stop(node.iter, attempts=len(range(*vals)))
    return UNKNOWN


def _function_statuses(fn: cst.FunctionDef) -> tuple[frozenset[int] | None, cst.CSTNode | None]:
    """Statuses a small predicate function returns true for: ``return <test>`` or ``if <test>: return True/False`` chains."""
    stmts = [s for s in _body_stmts(fn.body) if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Expr))]
    if len(stmts) > 6:
        return None, None
    decided: set[int] = set()
    true: set[int] = set()
    where: cst.CSTNode | None = None
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Return):
            value = stmt.body[0].value
            if value is None:
                return None, None
            if isinstance(value, cst.Name) and value.value in ("True", "False"):
                if value.value == "True":
                    true |= set(_SAMPLE) - decided
                return (frozenset(true), where) if where is not None else (None, None)
            s = status_set(value)
            if s is None:
                return None, None
            true |= set(s) - decided
            return frozenset(true), where or value
        if isinstance(stmt, cst.If) and stmt.orelse is None:
            s = status_set(stmt.test)
            inner = _body_stmts(stmt.body)
            if s is None or len(inner) != 1 or not isinstance(inner[0], cst.SimpleStatementLine):
                return None, None
            ret = inner[0].body[0]
            if not isinstance(ret, cst.Return) or not (isinstance(ret.value, cst.Name) and ret.value.value in ("True", "False")):
                return None, None
            if ret.value.value == "True":
                true |= set(s) - decided
            decided |= set(s)
            where = where or stmt.test
            continue
        return None, None
    return None, None


def _combine(node: cst.CSTNode, left: Part, right: Part, *, any_of: bool) -> Part:
    if not isinstance(left, Condition) or not isinstance(right, Condition):
        return UNKNOWN
    if not any_of:
        return UNKNOWN  # an intersection: what it retries is not a plain list
    statuses = None
    if left.statuses is not None or right.statuses is not None:
        statuses = (left.statuses or frozenset()) | (right.statuses or frozenset())
    return Condition(
        node=node,
        every_exception=left.every_exception or right.every_exception,
        exceptions=left.exceptions + right.exceptions,
        statuses=statuses,
        tags=left.tags | right.tags,
        permanent_4xx=left.permanent_4xx or right.permanent_4xx,
        # a deny-list or'ed with anything still retries nearly everything
        excluded=left.excluded + right.excluded if not (left.every_exception or right.every_exception) else (),
    )


def _dict_as_call(node: cst.Dict) -> cst.Call:
    """``{"retry": x, "stop": y}`` read as ``f(retry=x, stop=y)``."""
    args = []
    for el in node.elements:
        if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString):
            key = el.key.evaluated_value
            if isinstance(key, str) and key.isidentifier():
                args.append(cst.Arg(value=el.value, keyword=cst.Name(key)))
                continue
        args.append(cst.Arg(value=cst.Name("_"), star="**"))
    return cst.Call(func=cst.Name("dict"), args=args)

