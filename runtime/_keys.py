"""Idempotency keys, reconciliation, and the ledger around a keyed write.

``keyed(tool, *clauses, key_from=None, pass_key_as=None)`` makes one key per
*logical call*: made once before the first attempt and the same on every
retry of that call (``retrying(...)`` over a keyed tool opens the logical
call); different logical calls get different keys (a random UUID 4 by
default; ``key_from(*args, **kwargs)`` for a deterministic one such as task
id + step).

The key reaches the tool through a context variable, :func:`current_key`
(an ``Idempotency-Key`` header is ``idempotency_headers(current_key())``),
and, with ``pass_key_as="name"``, as the keyword argument ``name`` too.

Clauses:

- ``reconciling_with(lookup)``: ``lookup(key)`` (sync or async) reads by key
  whether the effect happened: ``Ok(value)`` when it did (the value is
  returned and the write is not repeated), ``Err(NotFound)`` when it did not,
  any other ``Err`` when it cannot tell (that error is returned; a retry will
  ask again). It runs after a ``Timeout`` or ``Unknown`` before the next
  attempt, and before the effect when a key is taken over from a dead worker.
- ``recorded_in(ledger)``: the effect runs at most once per key across
  retries, restarts and workers (see :mod:`smullyan.runtime._ledger`).
- ``observing(callback)``: reports :class:`TakenOver`, :class:`Reconciled`,
  :class:`Replayed` and :class:`LeaseLost`.

How a keyed call treats its tool's result, with a ledger:

=========================================== ===========================================
``Ok(value)``                               recorded as done; later callers get ``value``
``InvalidArgs`` / ``Denied`` / ``NotFound`` recorded as failed; later callers get it
``RateLimited``, ``Unavailable`` never sent the key is released (nothing happened): no
(no HTTP status, or 503 with Retry-After)   status, or a 503 with ``Retry-After``
``Timeout`` / ``Unknown`` / ``Unavailable`` the lease is ended at once: the effect may
with a 500, 502, 503 without advice, ...    have happened, the next attempt (or caller)
                                            takes over and reconciles first
the ledger raises, or cannot store a result never a lease left behind: the key is
                                            abandoned (or the failure recorded) and the
                                            call returns an ``Err`` (see docs/runtime.md)
=========================================== ===========================================

While the tool runs, its lease is renewed by the ledger's heartbeat (see
:mod:`smullyan.runtime._ledger`), so a live worker slower than its lease
keeps its key. A keyed call made inside another keyed tool is a logical call
of its own, with its own key.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Awaitable, Callable, Coroutine, ParamSpec, TypeVar, overload

from . import classification as _classification
from ._errors import Err, Result
from ._keyed_core import _Keyed, _Raised
from ._key_state import _KEYED_ATTR, KeyedClause, _key, _lease, _scope, is_keyed, never_happened
from ._retry import WRITE_GUARDS, ConfigError
from ._tools import is_async_callable
from ._write_events import TakenOver

__all__ = ["keyed", "guard_retry", "never_happened"]  # never_happened: its documented home (docs/runtime.md)

T = TypeVar("T")
P = ParamSpec("P")
F = TypeVar("F", bound=Callable[..., Any])


# ---------------------------------------------------------------- the retry's write guard


def guard_retry(wrap: Callable[[F], Any]) -> Callable[[F], Any]:
    """What ``retrying`` does when it is built over ``tool``: refuse unsafe writes, scope keyed calls.

    The refusal is a :class:`ConfigError` when the pipeline is built, never a
    surprise at call time.
    """

    def guarded(tool: F) -> Any:
        kind = _classification.classification_of(tool)
        name = _classification.tool_name(tool)
        if kind is None and not is_keyed(tool):  # issue 21: a lambda or wraps-less decorator hides a mark
            hidden = _classification.wrapped_unsafe(tool, is_keyed)
            if hidden is not None:
                raise ConfigError(
                    f"retrying() over {name}, which calls {hidden[1]} (@{hidden[0]}) but carries no mark "
                    "(a lambda, or a decorator without functools.wraps), is refused: mark the wrapper "
                    "itself, use functools.wraps, or call the marked function directly."
                )
        if kind == "irreversible":
            raise ConfigError(
                f"retrying() over {name}, which is @irreversible, is refused: an irreversible effect "
                "is never retried automatically. Reconcile instead: call it once, and after a Timeout "
                "look up whether it happened (keyed(tool, reconciling_with(lookup)))."
            )
        keyed_tool = is_keyed(tool)
        if kind == "non_idempotent_write" and not keyed_tool:
            raise ConfigError(
                f"retrying() over {name}, a @non_idempotent_write without an idempotency key, is "
                "refused: a retry after a Timeout can repeat the effect. Key it "
                "(keyed(tool, reconciling_with(lookup), recorded_in(ledger))) so every retry "
                "carries the same key, or reconcile instead of retrying. A keyed(tool) with neither "
                "a lookup nor a ledger is safe only when the tool passes the key on to a service that "
                "deduplicates by it (idempotency_headers(current_key()), or pass_key_as=)."
            )
        retrying = wrap(tool)
        return _scoped(retrying) if keyed_tool else retrying

    return guarded


WRITE_GUARDS.append(guard_retry)  # every retry stage applies it (_retry.guarded)


def _scoped(retrying: Callable[..., Any]) -> Callable[..., Any]:
    """Open one logical call around the whole retry, so every attempt shares its key.

    A retry directly around another (``pipe(keyed(t), retry1, retry2)``) joins
    the logical call already open; a keyed tool's *body* runs outside it, so a
    keyed call made inside another keyed tool is a logical call of its own.
    """
    if is_async_callable(retrying):

        async def logical_call_async(*args: Any, **kwargs: Any) -> Any:
            if _scope.get() is not None:
                return await retrying(*args, **kwargs)
            token = _scope.set({})
            try:
                return await retrying(*args, **kwargs)
            finally:
                _scope.reset(token)

        return _classification.carry(retrying, logical_call_async)

    def logical_call(*args: Any, **kwargs: Any) -> Any:
        if _scope.get() is not None:
            return retrying(*args, **kwargs)
        token = _scope.set({})
        try:
            return retrying(*args, **kwargs)
        finally:
            _scope.reset(token)

    return _classification.carry(retrying, logical_call)


def _check_key_from(
    tool: Callable[..., Any], key_from: Callable[..., str], passed: str | None
) -> Callable[..., str]:
    """``key_from`` made to take every call of ``tool``, or a ConfigError when built (issue 21).

    A ``key_from`` with the tool's parameter names (or ``**kwargs``) is called
    as the tool is. One whose names differ is given the call's arguments
    positionally, in the tool's order (``tool(card="c", cents=5)`` calls
    ``key_from("c", 5)``). One that cannot take them either way is refused.
    """
    import inspect

    try:
        mine = inspect.signature(getattr(tool, _classification.ORIGIN, tool))
        theirs = inspect.signature(key_from)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to compare
        return key_from
    kinds = inspect.Parameter
    params = [p for n, p in mine.parameters.items() if n != passed]
    if any(p.kind is kinds.VAR_KEYWORD for p in theirs.parameters.values()) or any(
        p.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD) for p in params
    ):
        return key_from
    names = {n for n, p in theirs.parameters.items() if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY)}
    if all(p.name in names for p in params if p.kind is not kinds.POSITIONAL_ONLY):
        return key_from  # same names: called as the tool is
    by_position = [p for p in params if p.kind is not kinds.KEYWORD_ONLY]
    try:
        theirs.bind(*by_position, **{p.name: p for p in params if p.kind is kinds.KEYWORD_ONLY})
    except TypeError:
        raise ConfigError(
            f"keyed({_classification.tool_name(tool)}, key_from={_classification.tool_name(key_from)}): "
            f"key_from({', '.join(theirs.parameters)}) cannot take the tool's arguments "
            f"({', '.join(p.name for p in params)}), by name or by position. "
            "Give key_from the tool's parameters (or *args, **kwargs)."
        ) from None
    shape = mine.replace(parameters=params)

    def positionally(*args: Any, **kwargs: Any) -> str:
        call = shape.bind(*args, **kwargs)
        call.apply_defaults()
        return key_from(*call.args, **call.kwargs)

    return positionally


@overload
def keyed(
    tool: Callable[P, Awaitable[Result[T]]],
    *clauses: KeyedClause,
    key_from: Callable[P, str] | None = None,
    pass_key_as: None = None,
) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
@overload
def keyed(
    tool: Callable[P, Result[T]],
    *clauses: KeyedClause,
    key_from: Callable[P, str] | None = None,
    pass_key_as: None = None,
) -> Callable[P, Result[T]]: ...
@overload
def keyed(
    tool: Callable[..., Awaitable[Result[T]]],
    *clauses: KeyedClause,
    key_from: Callable[..., str] | None = None,
    pass_key_as: str,
) -> Callable[..., Coroutine[Any, Any, Result[T]]]: ...
@overload
def keyed(
    tool: Callable[..., Result[T]],
    *clauses: KeyedClause,
    key_from: Callable[..., str] | None = None,
    pass_key_as: str,
) -> Callable[..., Result[T]]: ...
def keyed(
    tool: Callable[..., Any],
    *clauses: KeyedClause,
    key_from: Callable[..., str] | None = None,
    pass_key_as: str | None = None,
) -> Callable[..., Any]:
    """``tool`` (a Result-returning tool, e.g. ``calling_api(charge)``) with an idempotency key.

    The keyed tool has ``tool``'s signature (for mypy too), except with
    ``pass_key_as``, where the tool takes one more keyword argument than its
    callers pass. See the module docs for the clauses and what is recorded.
    """
    if not callable(tool):
        raise ConfigError(f"keyed() takes a tool, got {tool!r}")
    if key_from is not None and not callable(key_from):
        raise ConfigError(f"keyed(key_from=...) takes a function of the call's arguments, got {key_from!r}")
    if key_from is not None:
        key_from = _check_key_from(tool, key_from, pass_key_as)
    if pass_key_as is not None and not (isinstance(pass_key_as, str) and pass_key_as.isidentifier()):
        raise ConfigError(f"keyed(pass_key_as=...) takes a keyword argument name, got {pass_key_as!r}")
    name = str(getattr(tool, "__qualname__", None) or repr(tool))
    core = _Keyed(key_from, pass_key_as, clauses, name)
    if core.lookup_is_async and not is_async_callable(tool):
        raise ConfigError(f"keyed({name}): an async reconcile lookup needs an async tool")
    core.describe(tool)
    ledger = core.ledger

    if is_async_callable(tool):

        async def off_loop(fn: Callable[..., T], *args: Any) -> T:
            """A step that talks to the ledger runs in a worker thread: the event loop never waits on it."""
            return await asyncio.to_thread(fn, *args) if ledger is not None else fn(*args)

        async def keyed_async(*args: Any, **kwargs: Any) -> Result[Any]:
            state = core.state(me, args, kwargs)
            if isinstance(state, Err):
                return state
            if ledger is None:
                early = core.before(state, "")
            else:
                fingerprint = core.fingerprint(args, kwargs)
                guard = threading.Lock()
                box = {"cancelled": False, "taken": False}

                def ask() -> Result[Any] | None:
                    answer = core.before(state, fingerprint)
                    with guard:
                        box["taken"] = answer is None
                        if box["taken"] and box["cancelled"]:
                            core.crashed(state)
                    return answer

                try:
                    early = await asyncio.to_thread(ask)
                except asyncio.CancelledError:  # cancelled while the ledger was asked: hand a taken key over
                    with guard:
                        box["cancelled"] = True
                        if box["taken"]:
                            core.crashed(state)
                    raise
            core.flush(state)
            if early is not None:
                return early
            key_token = _key.set(state.key)
            lease_token = _lease.set((ledger, state.key, state.owner) if ledger is not None else None)
            scope_token = _scope.set(None)  # keyed calls inside the tool are logical calls of their own
            core.beat(state)
            try:
                if state.ambiguous and core.lookup is not None:
                    try:
                        found = core.lookup(state.key)
                        if core.lookup_is_async:
                            found = await found
                    except Exception as exc:
                        found = _Raised(exc)
                    answer = await off_loop(core.reconciled, state, found)
                    core.flush(state)
                    if answer is not None:
                        return answer
                if state.ambiguous and core.lookup is None:  # the one place an effect may run twice
                    core.emit(state, TakenOver(state.key, False))
                    core.flush(state)
                if pass_key_as is not None:
                    kwargs = {**kwargs, pass_key_as: state.key}
                try:
                    result = await tool(*args, **kwargs)
                except BaseException:
                    core.crashed(state)
                    raise
                answer = await off_loop(core.after, state, result)
                core.flush(state)
                return answer
            finally:
                core.unbeat(state)
                _scope.reset(scope_token)
                _lease.reset(lease_token)
                _key.reset(key_token)

        wrapper: Callable[..., Any] = keyed_async
    else:

        def keyed_sync(*args: Any, **kwargs: Any) -> Result[Any]:
            state = core.state(me, args, kwargs)
            if isinstance(state, Err):
                return state
            early = core.before(state, core.fingerprint(args, kwargs))
            if state.outbox:
                core.flush(state)
            if early is not None:
                return early
            key_token = _key.set(state.key)
            lease_token = _lease.set((ledger, state.key, state.owner) if ledger is not None else None)
            scope_token = _scope.set(None)  # keyed calls inside the tool are logical calls of their own
            core.beat(state)
            try:
                if state.ambiguous and core.lookup is not None:
                    try:
                        found = core.lookup(state.key)
                    except Exception as exc:
                        found = _Raised(exc)
                    answer = core.reconciled(state, found)
                    core.flush(state)
                    if answer is not None:
                        return answer
                if state.ambiguous and core.lookup is None:  # the one place an effect may run twice
                    core.emit(state, TakenOver(state.key, False))
                    core.flush(state)
                if pass_key_as is not None:
                    kwargs = {**kwargs, pass_key_as: state.key}
                try:
                    result = tool(*args, **kwargs)
                except BaseException:
                    core.crashed(state)
                    raise
                answer = core.after(state, result)
                core.flush(state)
                return answer
            finally:
                core.unbeat(state)
                _scope.reset(scope_token)
                _lease.reset(lease_token)
                _key.reset(key_token)

        wrapper = keyed_sync

    me = id(wrapper)
    wrapper.__qualname__ = wrapper.__name__ = f"keyed({name})"
    wrapper.__doc__ = getattr(tool, "__doc__", None)
    _classification.carry(tool, wrapper)
    setattr(wrapper, _KEYED_ATTR, True)
    return wrapper
