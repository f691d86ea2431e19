"""Which handlers of a hand-written retry loop go round blindly, read from the retry model's :class:`~.data.Loop`.

Beside ``paths.py`` (the loop's exits and success paths), for the budget rules:

- :func:`failure_handlers`: the going-round handlers that retry the same work
  again: they catch a failure (:func:`catches_failure`: not only a cancellation
  or a lock wait) and do not change what the next attempt does
  (:func:`changes_input`: a search or a fallback);
- :func:`only_conflicts`: the going-round handlers catch only an optimistic-
  concurrency conflict (a redis ``WatchError``), for TFH302;
- :func:`gated_on_idempotency`: every going-round handler goes round only
  when a flag the code computed says the work is safe to repeat, for TFH101;
- :func:`catches_transient`: a handler that may catch a transient failure (not
  only parse or validation errors).
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, lexical_children
from ...linter.api import knowledge as kb
from .data import Loop
from .loops import _exits, _narrows, attempt_counter_name
from .steps import body_stmts as _body_stmts
from .paths import _after_try, _before_try, _walk, _walk_all
from .status_loops import idempotency_flag as _idempotency_flag
from .worklist import steps_to_next


def _handler_types(handler: cst.ExceptHandler) -> list[str] | None:
    """The last names of the types a handler catches; None for a bare ``except`` or a non-name."""
    if handler.type is None:
        return None
    elems = handler.type.elements if isinstance(handler.type, (cst.Tuple, cst.List)) else None
    types = [el.value for el in elems] if elems is not None else [handler.type]
    out: list[str] = []
    for t in types:
        name = dotted(t)
        if name is None:
            return None
        out.append(name.rsplit(".", 1)[-1])
    return out


def catches_failure(handler: cst.ExceptHandler) -> bool:
    """Not only a cancellation (``except asyncio.CancelledError: continue`` waits on the same
    future again through repeated cancellation: it re-runs nothing)."""
    types = _handler_types(handler)
    if types is not None and all(t in kb.LOCK_BUSY_EXCEPTIONS for t in types) and any(t != "Timeout" for t in types):
        return False  # a lock wait: `except FileExistsError` around an exclusive create (issue 23)
    return types is None or not all(t in kb.CANCELLATION_EXCEPTIONS for t in types)


def only_conflicts(going_round: list[cst.ExceptHandler]) -> bool:
    """Every handler that goes round catches only an optimistic-concurrency conflict (issue 23,
    ``optimistic-concurrency-watch``: redis ``WATCH`` loops on ``WatchError``): each conflict means
    another client's write went through, so the loop progresses; any other failure leaves it. TFH302
    reads this, not :func:`catches_failure`: the loop still re-runs its work (TFH304's repeated
    success, TFH303's wait, which ``catches_transient`` answers, still apply)."""
    if not going_round:
        return False
    for h in going_round:
        types = _handler_types(h)
        if types is None or not all(t in kb.OPTIMISTIC_CONFLICT_EXCEPTIONS for t in types):
            return False
    return True


def failure_handlers(loop: Loop) -> list[cst.ExceptHandler]:
    """The going-round handlers that retry blindly: they catch a failure (not only a
    cancellation) and do not change what the next attempt does (:func:`changes_input`)."""
    if (polls_local_result(loop) or loop.fresh_attempt or waits_for_lock(loop) or changes_on_later_rounds(loop)
            or steps_to_next(loop)):
        return []  # a wait on a local result or a lock; an attempt drawing a fresh value each time (issue 23); a walk
    return [h for h in loop.handlers if catches_failure(h) and not changes_input(loop, h) and not handler_asks_a_person(h)]


def waits_for_lock(loop: Loop) -> bool:
    """A wait for a file lock, not a retry (s43, batch 15 lingtai ``lock-wait``): the ``try`` makes one call, a
    non-blocking lock attempt (``msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)``, ``fcntl.flock(fd, LOCK_EX |
    LOCK_NB)``: ``knowledge.LOCK_ATTEMPT_CALLS``), and every going-round handler catches only what a held lock
    raises (``OSError``, ``BlockingIOError``: ``LOCK_ATTEMPT_EXCEPTIONS``, ``LOCK_BUSY_EXCEPTIONS``)."""
    body = loop.try_node.body
    calls = [n for n in _walk(body) if isinstance(n, cst.Call)]
    lock_calls = [c for c in calls if dotted(c.func) in kb.LOCK_ATTEMPT_CALLS]
    if not lock_calls or any(c is not lock_calls[0] and not _inside(c, lock_calls[0]) for c in calls):
        return False
    for h in loop.handlers:
        types = _handler_types(h)
        if types is None or not all(t in kb.LOCK_ATTEMPT_EXCEPTIONS or t in kb.LOCK_BUSY_EXCEPTIONS for t in types):
            return False
    return True


def _inside(node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    """``node`` is an argument's part of ``outer`` (``handle.fileno()`` in ``msvcrt.locking(handle.fileno(), ...)``)."""
    return any(n is node for n in _walk(outer))


def handler_asks_a_person(handler: cst.ExceptHandler) -> bool:
    """The handler asks a person before going round (s43, batch 15 yougile ``changed-request``): ``input()``
    (``knowledge.PERSON_PROMPT_CALLS``), an MCP elicitation (``ctx.elicit(...)``), or a helper whose name pairs
    an asking verb with a person or a choice (``ask_choice``, ``ask_user``: ``PERSON_ASK_VERBS``,
    ``PERSON_ASK_NOUNS``). The next attempt carries the answer; the person ends the loop."""
    for n in _walk(handler.body):
        if not isinstance(n, cst.Call):
            continue
        name = dotted(n.func)
        if name is None:
            continue
        if name in kb.PERSON_PROMPT_CALLS:
            return True
        words = kb.identifier_words(name.rsplit(".", 1)[-1])
        if words and (words[0] == "elicit" or (words[0] in kb.PERSON_ASK_VERBS and set(words[1:]) & kb.PERSON_ASK_NOUNS)):
            return True
    return False


def polls_local_result(loop: Loop) -> bool:
    """A wait on a local future, thread or process, not a retry (issue 23, ``future-wait-poll``): the
    ``try`` only asks for the result with a timeout (``future.result(timeout=1)``, ``.join(1)``,
    ``.wait(1)``) and every handler catches only a timeout and goes round: nothing is re-sent."""
    body = loop.try_node.body
    stmts = list(body.body) if isinstance(body, cst.IndentedBlock) else []
    if len(stmts) == 2 and _only_break(stmts[1]):
        stmts = stmts[:1]  # s48: `await asyncio.wait_for(stop.wait(), timeout=t)` then `break`: a stop ends it
    calls = [n for s in stmts for n in _walk(s) if isinstance(n, cst.Call)]
    if len(stmts) != 1 or not calls:
        return False
    call = calls[0]
    if len(calls) == 2 and dotted(call.func) in ("asyncio.wait_for", "wait_for") and calls[1] is _first_arg(call):
        # s48 (batch 20 portacode ``not-a-retry-periodic-flush``): the local wait under asyncio's deadline; the
        # timeout is the tick of a periodic loop (its handler flushes), nothing is re-sent
        inner = calls[1]
        timed = len(call.args) >= 2
        if not (isinstance(inner.func, cst.Attribute) and inner.func.attr.value in kb.LOCAL_RESULT_METHODS):
            return False
    else:
        if len(calls) != 1 or not (
            isinstance(call.func, cst.Attribute) and call.func.attr.value in kb.LOCAL_RESULT_METHODS and call.args
        ):
            return False
        timed = any(a.keyword is not None and a.keyword.value == "timeout" for a in call.args) or (
            len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star
            and call.func.attr.value != "communicate")  # s50: `communicate(data)`'s one positional is its input
    for h in loop.handlers:
        types = _handler_types(h)
        if types is None or not all(t in kb.LOCAL_RESULT_TIMEOUTS for t in types):
            return False
    return timed


def changes_on_later_rounds(loop: Loop) -> bool:
    """s44 (batch 16, bello ``changed-request``): before the ``try``, under a test of the loop's counter (``if
    attempt:``, ``if attempt > 0:``), the round rebinds or changes in place a name the attempt reads
    (``attempt_prompt = prompt + note``, ``messages.append(hint)``): every attempt after the first sends a changed
    request, the way a handler changing the input does (:func:`changes_input`), not the same one blindly."""
    node = loop.node
    counters: set[str] = set()
    if isinstance(node, cst.For) and isinstance(node.target, cst.Name):
        counters.add(node.target.value)
    elif isinstance(node, cst.While):
        counters |= {n.value for n in _walk(node.test) if isinstance(n, cst.Name) and attempt_counter_name(n.value)}
    if not counters:
        return False
    changed: set[str] = set()
    for stmt in _before_try(loop):
        if not (isinstance(stmt, cst.If) and {n.value for n in _walk(stmt.test) if isinstance(n, cst.Name)} & counters):
            continue
        for n in _walk(stmt.body):
            if isinstance(n, (cst.Assign, cst.AugAssign)):
                for t in n.targets if isinstance(n, cst.Assign) else [n]:
                    target = t.target
                    root = _root_name(target) if isinstance(target, cst.Subscript) else dotted(target)
                    if root:
                        changed.add(root)
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _MUTATING_METHODS:
                root = _root_name(n.func.value)
                if root:
                    changed.add(root)
    if not changed - counters:
        return False
    read = {dotted(n) for n in _walk(loop.try_node.body) if isinstance(n, (cst.Name, cst.Attribute))}
    return bool((changed - counters) & read)


def changes_input(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """The handler rebinds a name the next attempt reads (in the ``try`` body or before it):
    ``except FileExistsError: n += 1`` tries another name, ``except E: url = mirror`` another
    server. A search or a fallback, not a blind retry."""
    mutating = {id(c) for c in loop.mutating_calls}
    if mutating and any(id(n) in mutating for n in _walk(handler.body)):
        return True  # a same-module helper changes an argument the next attempt reads (issue 23)
    assigned: set[str] = set()
    for n in _walk(handler.body):
        if isinstance(n, cst.AugAssign):
            name = dotted(n.target)
            if name:
                assigned.add(name)
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                # `llm, index = next_llm(), index + 1` (a tuple target) rebinds each name
                elems = t.target.elements if isinstance(t.target, (cst.Tuple, cst.List)) else None
                for target in [el.value for el in elems] if elems is not None else [t.target]:
                    name = dotted(target)
                    if name:
                        assigned.add(name)
    # s46 (batch 19, powershell-agent): an element taken out of a name (`last = messages[-1]`, bound in the handler)
    # is the same object: changing it in place (`last["content"] += note`) changes that name
    elements = {
        t.target.value: root for n in _walk(handler.body) if isinstance(n, cst.Assign)
        and isinstance(n.value, cst.Subscript) and (root := _root_name(n.value)) for t in n.targets
        if isinstance(t.target, cst.Name)
    }
    for n in _walk(handler.body):
        # in place: `messages.append(...)`, `messages[-1]["content"] = partial` (the next request differs)
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _MUTATING_METHODS:
            root = _root_name(n.func.value)
            if root:
                assigned.add(elements.get(root, root))
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Subscript):
                    root = _root_name(t.target)
                    if root:
                        assigned.add(elements.get(root, root))
    if not assigned:
        return False
    read: set[str] = set()
    stores: set[int] = set()  # `results = ...` in the attempt stores, it does not read
    for n in _walk_all([loop.try_node.body, *_before_try(loop)]):
        if isinstance(n, cst.Assign):
            stores.update(id(t.target) for t in n.targets if isinstance(t.target, cst.Name))
        elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name):
            stores.add(id(n.target))
    for n in _walk_all([loop.try_node.body, *_before_try(loop)]):
        if isinstance(n, (cst.Name, cst.Attribute)) and id(n) not in stores:
            name = dotted(n)
            if name:
                read.add(name)
    # s40 (gentopia `except Exception: res = None; continue`): a name the handler clears to None and the
    # attempt binds afresh (`res = requests.get(url)`) is not an input the next attempt reads
    cleared = {
        dotted(t.target) for n in _walk(handler.body) if isinstance(n, cst.Assign)
        and isinstance(n.value, cst.Name) and n.value.value == "None" for t in n.targets
    }
    stored_names = {n.value for n in _walk_all([loop.try_node.body]) if isinstance(n, cst.Name) and id(n) in stores}
    if (assigned - (cleared & stored_names)) & read:
        return True
    # the handler supplies the value the attempt stores (`except E: obj = create(relaxed=True)`) and
    # the rest of the iteration uses it: a fallback, not a blind go-round
    supplied = assigned & stored_names
    last = _body_stmts(handler.body)[-1:] if _body_stmts(handler.body) else []
    if last and isinstance(last[0], cst.SimpleStatementLine) and isinstance(last[0].body[-1], cst.Continue):
        return False  # s40 (gentopia `res = None; continue`): the value goes round unused, no fallback
    if supplied:
        later = {dotted(n) for n in _walk_all(_after_try(loop)) if isinstance(n, (cst.Name, cst.Attribute))}
        return bool(supplied & later)
    return False


def replaces_input(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """s36, stricter than :func:`changes_input` (for TFH102): the handler binds anew (``=``, not ``+=``)
    a name the attempt reads outside a log line (``except TypeError: payload = plain``, the ``try``
    serialising ``payload``). A counter advanced (``retry_count += 1``) that the attempt only logs
    changes nothing the attempt does."""
    assigned: set[str] = set()
    for n in _walk(handler.body):
        if isinstance(n, cst.Assign):
            assigned |= {t.target.value for t in n.targets if isinstance(t.target, cst.Name)}
        elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.value is not None:
            assigned.add(n.target.value)
    if not assigned:
        return False
    skipped: set[int] = set()  # the arguments of a log call, and names stored, are not reads
    for n in _walk_all([loop.try_node.body]):
        if isinstance(n, cst.Call):
            name = dotted(n.func) or ""
            if name.rsplit(".", 1)[-1].lower().startswith(kb.LOGGING_CALL_PREFIXES):
                skipped.update(id(m) for m in _walk(n))
        elif isinstance(n, cst.Assign):
            skipped.update(id(t.target) for t in n.targets)
    read = {n.value for n in _walk_all([loop.try_node.body]) if isinstance(n, cst.Name) and id(n) not in skipped}
    return bool(assigned & read)


def supplies_value(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """s45 (batch 18, a ``signature-fallback``): the handler makes, by a call of its own, the value the attempt
    stores (``try: resp = api.get_assets(only_active=False, **kw)`` / ``except TypeError: resp =
    api.get_assets(**kw)``), goes on without ``continue`` and the rest of the iteration reads it: the failed
    call is not made again, whatever the loop does next (a page loop goes on to the next page). A name
    cleared to a constant (``res = None``) supplies nothing: the iteration goes round on it."""
    assigned = {
        t.target.value for n in _walk(handler.body) if isinstance(n, cst.Assign) and isinstance(n.value, (cst.Call, cst.Await))
        for t in n.targets if isinstance(t.target, cst.Name)
    }
    stored = {
        t.target.value for n in _walk_all([loop.try_node.body]) if isinstance(n, cst.Assign)
        for t in n.targets if isinstance(t.target, cst.Name)
    }
    supplied = assigned & stored
    last = _body_stmts(handler.body)[-1:] if _body_stmts(handler.body) else []
    if not supplied or (last and isinstance(last[0], cst.SimpleStatementLine)
                        and isinstance(last[0].body[-1], (cst.Continue, cst.Raise, cst.Return))):
        return False
    later = {n.value for n in _walk_all(_after_try(loop)) if isinstance(n, cst.Name)}
    return bool(supplied & later)


_MUTATING_METHODS = frozenset({"append", "extend", "insert", "update", "pop", "clear", "remove", "setdefault", "popitem"})


def _root_name(node: cst.BaseExpression) -> str | None:
    """``messages`` of ``messages[-1]["content"]`` / ``self.history`` of ``self.history.append``."""
    while isinstance(node, (cst.Subscript, cst.Call)):
        node = node.value if isinstance(node, cst.Subscript) else node.func
    return dotted(node)


def catches_transient(handler: cst.ExceptHandler) -> bool:
    """The handler may catch a transient failure: bare, broad, or any type not known to be a parse or validation error."""
    if handler.type is None:
        return True
    types: list[cst.BaseExpression]
    if isinstance(handler.type, (cst.Tuple, cst.List)):
        types = [el.value for el in handler.type.elements]
    else:
        types = [handler.type]
    for t in types:
        name = dotted(t)
        if name is None:
            return True
        last = name.rsplit(".", 1)[-1]
        if last in kb.DETERMINISTIC_EXCEPTIONS or last.endswith(kb.DETERMINISTIC_EXCEPTION_SUFFIXES) or last.startswith(
            kb.DETERMINISTIC_EXCEPTION_PREFIXES
        ):
            continue
        return True
    return False


def single_targeted_retry(loop: Loop, handler: cst.ExceptHandler) -> bool:
    """The handler goes round once, and only for a failure it recognised (s34): every path but one
    ``continue`` leaves, the branch holding it tests the exception (an expired token refreshed, a stale
    pooled connection evicted, an etag re-read), and the loop allows one more attempt only
    (``for attempt in range(2)``, or the branch tests ``attempt == 0``). A repair retried once, not a
    hot loop hammering a server."""
    stmts = _body_stmts(handler.body)
    if not stmts or not _exits(stmts[-1]) or not _narrows(handler):
        return False
    node = loop.node
    if isinstance(node, cst.For) and isinstance(node.iter, cst.Call) and dotted(node.iter.func) == "range":
        args = node.iter.args
        if len(args) == 1 and isinstance(args[0].value, cst.Integer) and args[0].value.value == "2":
            return True
    counter = dotted(node.target) if isinstance(node, cst.For) else None
    for n in _walk(handler.body):
        if isinstance(n, cst.Comparison) and counter is not None and dotted(n.left) == counter:
            first = n.comparisons[0]
            if isinstance(first.operator, cst.Equal) and isinstance(first.comparator, cst.Integer) and first.comparator.value == "0":
                return True
    return False


def gated_on_idempotency(loop: Loop) -> bool:
    """Every going-round handler goes round only when a flag says the work is safe to repeat (issue
    23, ``retry-gated-on-idempotency``): its last statement leaves the loop and each ``continue`` lies
    under an ``if`` whose test holds the flag (``if attempt == 0 and retry_safe: ... continue``), or
    it first leaves unless the flag holds (``if not idempotent or attempt == last: raise``). The code
    decides per call whether a repeat is safe: an unsafe write is never re-sent."""
    return bool(loop.handlers) and all(_gated(h) for h in loop.handlers)


def _gated(handler: cst.ExceptHandler) -> bool:
    stmts = _body_stmts(handler.body)
    for stmt in stmts:
        if isinstance(stmt, cst.If) and _exits(_last(stmt.body)) and any(
            isinstance(t, cst.UnaryOperation) and isinstance(t.operator, cst.Not) and _idempotency_flag(t.expression)
            for t in _operands(stmt.test, cst.Or)
        ):
            return True  # `if not idempotent or ...: raise` before anything goes round
        if any(isinstance(n, cst.Continue) for n in _walk(stmt)):
            break
    if not stmts or not _exits(stmts[-1]):
        return False  # falls through into the next attempt whatever the flag says
    return _continues_gated(handler.body, False)


def _continues_gated(node: cst.CSTNode, gated: bool) -> bool:
    """Each ``continue`` of this loop under ``node`` lies in the body of an ``if`` testing the flag."""
    if isinstance(node, cst.Continue):
        return gated
    if isinstance(node, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        return True  # a nested loop's continue; a nested definition
    if isinstance(node, cst.If):
        positive = any(_idempotency_flag(t) for t in _operands(node.test, cst.And))
        return _continues_gated(node.body, gated or positive) and (
            node.orelse is None or _continues_gated(node.orelse, gated))
    return all(_continues_gated(c, gated) for c in lexical_children(node))


def _operands(test: cst.BaseExpression, op: type[cst.BaseBooleanOp]) -> list[cst.BaseExpression]:
    """``a and b and c`` -> ``[a, b, c]`` (for ``op`` And; Or likewise), parentheses dropped."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, op):
        return _operands(test.left, op) + _operands(test.right, op)
    return [test]


def _last(suite: cst.BaseSuite) -> cst.CSTNode:
    stmts = _body_stmts(suite)
    return stmts[-1] if stmts else suite


def counted_on_idempotency(loop: Loop, module: cst.CSTNode | None) -> bool:
    """s48 (batch 20 nyx-raccoonbot ``post-that-only-reads``): the loop makes one attempt unless a flag says the work
    is safe to repeat: ``attempts = 2 if retry_safe else 1`` then ``for attempt in range(1, attempts + 1)`` (or the
    ``if`` expression in the ``range`` itself). As :func:`gated_on_idempotency`, the code decides per call; an unsafe
    write is sent once."""
    return counted_loop_on_idempotency(loop.node, module)


def counted_loop_on_idempotency(node: cst.CSTNode, module: cst.CSTNode | None) -> bool:
    """:func:`counted_on_idempotency` for any counted loop (a status retry's too: s54). What says "safe to repeat"
    (:func:`_safe_to_repeat`): a flag named so, a test that the HTTP method is one TFH101 does not call a write
    (``2 if method == "GET" else 1``, ``... if method in READ_ONLY_METHODS else 0``), or a local name bound once to
    such tests joined by ``or`` (``safe = idempotent or method == "GET"`` then ``attempts = 2 if safe else 1``:
    s54, batch 26 nexus-mcp-notion-supabase's Notion and Supabase clients; the shape of batch 22 scrapely-mcp's
    ``3 if method == "GET" else 1`` and odoo-mcp's ``... if method in READ_ONLY_METHODS else 0``)."""
    if not isinstance(node, cst.For) or not isinstance(node.iter, cst.Call) or dotted(node.iter.func) != "range":
        return False
    counts = [n for a in node.iter.args for n in _walk(a.value)]
    names = {n.value for n in counts if isinstance(n, cst.Name)}
    scope = _enclosing_function(module, node) if module is not None else None
    if any(_one_unless_flag(n, scope) for n in counts):
        return True
    return scope is not None and bool(names) and any(
        isinstance(n, cst.Assign) and _one_unless_flag(n.value, scope)
        and any(isinstance(t.target, cst.Name) and t.target.value in names for t in n.targets)
        for n in _walk(scope.body)
    )


def _one_unless_flag(node: cst.CSTNode, scope: cst.FunctionDef | None = None) -> bool:
    """``N if retry_safe else 1``: one attempt when what says the work is safe to repeat does not hold."""
    return (
        isinstance(node, cst.IfExp) and isinstance(node.orelse, cst.Integer) and node.orelse.value in ("0", "1")
        and any(_safe_to_repeat(t, scope, 0) for t in _operands(node.test, cst.And))
    )


def _safe_to_repeat(test: cst.BaseExpression, scope: cst.FunctionDef | None, depth: int) -> bool:
    """A flag named for idempotency, a safe-method test (:func:`_safe_method_test`), or a local name bound once in
    ``scope`` to such tests joined by ``or`` (each of them says the work is safe)."""
    if _idempotency_flag(test) or _safe_method_test(test):
        return True
    if not isinstance(test, cst.Name) or scope is None or depth > 0:
        return False
    bound = [
        n.value for n in _walk(scope.body)
        if isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == test.value for t in n.targets)
    ]
    return len(bound) == 1 and all(_safe_to_repeat(t, scope, depth + 1) for t in _operands(bound[0], cst.Or))


def _safe_method_test(test: cst.BaseExpression) -> bool:
    """``method == "GET"``, ``method.upper() in ("GET", "HEAD")``, ``method in READ_ONLY_METHODS`` (a collection
    named for idempotency, or for safety): true only for an HTTP method TFH101 does not call a write
    (``knowledge.HTTP_METHOD_CLASSES``)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    left = test.left
    if isinstance(left, cst.Call) and isinstance(left.func, cst.Attribute) and left.func.attr.value in ("upper", "lower") \
            and not left.args:
        left = left.func.value
    name = dotted(left)
    if name is None or not name.rsplit(".", 1)[-1].lower().endswith("method"):
        return False
    op, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if isinstance(op, cst.Equal):
        return _safe_method_literal(right)
    if not isinstance(op, cst.In):
        return False
    if isinstance(right, (cst.Tuple, cst.List, cst.Set)):
        return bool(right.elements) and all(_safe_method_literal(e.value) for e in right.elements)
    named = dotted(right)
    words = set(named.rsplit(".", 1)[-1].lower().split("_")) if named is not None else set()
    return _idempotency_flag(right) or ("safe" in words and not words & kb.IDEMPOTENCY_FLAG_NEGATIONS)


def _safe_method_literal(node: cst.BaseExpression) -> bool:
    text = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    cls = kb.HTTP_METHOD_CLASSES.get(text.lower()) if isinstance(text, str) else None
    return cls is not None and cls not in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)


def _enclosing_function(module: cst.CSTNode | None, target: cst.CSTNode) -> cst.FunctionDef | None:
    """The innermost ``def`` holding ``target`` (one walk, only for a loop about to be reported)."""
    stack: list[tuple[cst.CSTNode, cst.FunctionDef | None]] = [(module, None)] if module is not None else []
    while stack:
        n, fn = stack.pop()
        if n is target:
            return fn
        inner = n if isinstance(n, cst.FunctionDef) else fn
        stack.extend((c, inner) for c in lexical_children(n))
    return None


def _only_break(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Break)


def _first_arg(call: cst.Call) -> cst.BaseExpression | None:
    return call.args[0].value if call.args and call.args[0].keyword is None and not call.args[0].star else None
