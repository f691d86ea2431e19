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
``RateLimited`` / ``Unavailable``           the key is released (nothing happened)
``Timeout`` / ``Unknown``                   the lease is ended at once: the effect may
                                            have happened, the next attempt (or caller)
                                            takes over and reconciles first
=========================================== ===========================================
"""

from __future__ import annotations

import uuid
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Coroutine, Final, ParamSpec, TypeVar, Union, overload

from . import classification as _classification
from ._ledger import Done, FailedEarlier, InProgress, Ledger, Mismatch, Started, fingerprint_of
from ._write_events import LeaseLost, Reconciled, Replayed, TakenOver
from ._errors import (
    Denied,
    Err,
    InvalidArgs,
    NotFound,
    Ok,
    RateLimited,
    Result,
    Timeout,
    ToolError,
    Unavailable,
    Unknown,
)
from ._events import Event, Observer, observers_now
from ._retry import WRITE_GUARDS, ConfigError, Observing
from ._tools import is_async_callable

__all__ = [
    "keyed",
    "reconciling_with",
    "recorded_in",
    "Reconciling",
    "Recording",
    "KeyedClause",
    "current_key",
    "idempotency_headers",
    "extend_lease",
    "IDEMPOTENCY_HEADER",
    "MAX_KEY_LENGTH",
]

T = TypeVar("T")
P = ParamSpec("P")
F = TypeVar("F", bound=Callable[..., Any])

IDEMPOTENCY_HEADER: Final = "Idempotency-Key"
"""The header name of the IETF httpapi draft (and Stripe, Adyen, PayPal ...)."""

MAX_KEY_LENGTH: Final = 255
"""The longest key accepted (Stripe's limit)."""

_KEYED_ATTR: Final = "__smullyan_keyed__"
_classification._CARRIED.append(_KEYED_ATTR)

_key: ContextVar[str | None] = ContextVar("smullyan_idempotency_key", default=None)
_lease: ContextVar[tuple[Ledger, str, str] | None] = ContextVar("smullyan_lease", default=None)
_scope: ContextVar[dict[int, _CallState] | None] = ContextVar("smullyan_logical_call", default=None)


def current_key() -> str:
    """The idempotency key of the keyed call running now; ``LookupError`` outside one."""
    key = _key.get()
    if key is None:
        raise LookupError("current_key() is only set inside a tool wrapped by keyed(...)")
    return key


def idempotency_headers(key: str) -> dict[str, str]:
    """``{"Idempotency-Key": key}``, the header of the IETF httpapi idempotency-key draft."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"idempotency_headers() takes a non-empty str key, got {key!r}")
    return {IDEMPOTENCY_HEADER: key}


def extend_lease() -> bool:
    """The heartbeat of a long keyed call: renew its ledger lease. False when it was lost.

    Call it from inside the tool; without a ledger it does nothing and returns True.
    """
    lease = _lease.get()
    if lease is None:
        return True
    ledger, key, owner = lease
    return ledger.extend(key, owner)


# ---------------------------------------------------------------- clauses


Lookup = Callable[[str], Union[Result[Any], Awaitable[Result[Any]]]]


@dataclass(frozen=True, slots=True)
class Reconciling:
    """Look the effect up by key before repeating it."""

    lookup: Callable[[str], Any]
    is_async: bool


@dataclass(frozen=True, slots=True)
class Recording:
    """Record every keyed call in ``ledger``."""

    ledger: Ledger


KeyedClause = Union[Reconciling, Recording, Observing]


def reconciling_with(lookup: Lookup) -> Reconciling:
    """``lookup(key) -> Ok(value)`` (it happened) / ``Err(NotFound)`` (it did not) / other ``Err``."""
    if not callable(lookup):
        raise ConfigError(f"reconciling_with() takes a lookup function of the key, got {lookup!r}")
    return Reconciling(lookup, is_async_callable(lookup))


def recorded_in(ledger: Ledger) -> Recording:
    """Record the keyed call in ``ledger`` (``SQLiteLedger``, ``PostgresLedger`` or your own)."""
    for method in ("begin", "finish", "fail", "release", "abandon", "extend"):
        if not callable(getattr(ledger, method, None)):
            raise ConfigError(f"recorded_in() takes a Ledger; {ledger!r} has no {method}()")
    return Recording(ledger)


# ---------------------------------------------------------------- the logical call


class _CallState:
    """One logical call: its key, its owner token, and whether an earlier attempt may have acted."""

    __slots__ = ("key", "owner", "ambiguous")

    def __init__(self, key: str) -> None:
        self.key = key
        self.owner = uuid.uuid4().hex
        self.ambiguous = False


def is_keyed(tool: object) -> bool:
    """True when ``tool`` is (or wraps) a ``keyed(...)`` tool."""
    return bool(getattr(tool, _KEYED_ATTR, False))


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
                "carries the same key, or reconcile instead of retrying."
            )
        retrying = wrap(tool)
        return _scoped(retrying) if keyed_tool else retrying

    return guarded


WRITE_GUARDS.append(guard_retry)  # every retry stage applies it (_retry.guarded)


def _scoped(retrying: Callable[..., Any]) -> Callable[..., Any]:
    """Open one logical call around the whole retry, so every attempt shares its key."""
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


# ---------------------------------------------------------------- keyed


class _Keyed:
    """The decisions of one keyed tool, shared by its sync and async wrappers."""

    __slots__ = ("key_from", "pass_key_as", "lookup", "lookup_is_async", "ledger", "observers", "name")

    def __init__(
        self,
        key_from: Callable[..., str] | None,
        pass_key_as: str | None,
        clauses: tuple[KeyedClause, ...],
        name: str,
    ) -> None:
        self.key_from = key_from
        self.pass_key_as = pass_key_as
        self.lookup: Callable[[str], Any] | None = None
        self.lookup_is_async = False
        self.ledger: Ledger | None = None
        observers: list[Observer] = []
        for clause in clauses:
            if isinstance(clause, Reconciling):
                if self.lookup is not None:
                    raise ConfigError("keyed() got two reconciling_with(...) clauses; give one")
                self.lookup, self.lookup_is_async = clause.lookup, clause.is_async
            elif isinstance(clause, Recording):
                if self.ledger is not None:
                    raise ConfigError("keyed() got two recorded_in(...) clauses; give one")
                self.ledger = clause.ledger
            elif isinstance(clause, Observing):
                observers.append(clause.callback)
            else:
                raise ConfigError(
                    f"keyed() does not understand {clause!r}; clauses are reconciling_with(lookup), "
                    "recorded_in(ledger) and observing(callback)"
                )
        self.observers = tuple(observers)
        self.name = name

    def emit(self, event: Event) -> None:
        for observer in observers_now(self.observers):
            observer(event)

    def state(self, me: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _CallState | Err[ToolError]:
        scope = _scope.get()
        state = scope.get(me) if scope is not None else None
        if state is not None:
            return state
        if self.key_from is None:
            key: object = str(uuid.uuid4())
        else:
            key = self.key_from(*args, **kwargs)
        if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
            return Err(InvalidArgs("idempotency key", f"a non-empty str of at most {MAX_KEY_LENGTH} characters", key))
        state = _CallState(key)
        if scope is not None:
            scope[me] = state
        return state

    def before(self, state: _CallState, fingerprint: str) -> Result[Any] | None:
        """Ask the ledger; an outcome to return at once, or None to go on (the key is ours)."""
        ledger = self.ledger
        if ledger is None:
            return None
        begun = ledger.begin(state.key, fingerprint, state.owner)
        if isinstance(begun, Started):
            if begun.takeover and not state.ambiguous:
                self.emit(TakenOver(state.key, self.lookup is not None))
            if begun.takeover:
                state.ambiguous = True
            return None
        if isinstance(begun, Done):
            self.emit(Replayed(state.key))
            return Ok(begun.result)
        if isinstance(begun, FailedEarlier):
            self.emit(Replayed(state.key))
            return Err(begun.error)
        if isinstance(begun, InProgress):  # advice: the holder's lease ends then (issue 21)
            from ._errors import MAX_MS

            clock = getattr(ledger, "now", None)
            left = begun.lease_until - clock() if callable(clock) else None
            return Err(Unavailable(
                f"in progress: another worker holds idempotency key {state.key!r}", None,
                None if not isinstance(left, int) else min(max(0, left), MAX_MS),
            ))
        if isinstance(begun, Mismatch):
            return Err(
                InvalidArgs(
                    f"idempotency key {state.key!r}",
                    "the same arguments as the first call with this key",
                    "different arguments",
                )
            )
        raise TypeError(f"{ledger!r}.begin() returned {begun!r}, not a ledger outcome")

    def reconciled(self, state: _CallState, found: object) -> Result[Any] | None:
        """The lookup's answer: a Result to return, or None to run the effect."""
        if isinstance(found, Ok):
            self.emit(Reconciled(state.key, True))
            state.ambiguous = False
            if self.ledger is not None and not self.ledger.finish(state.key, state.owner, found.value):
                self.emit(LeaseLost(state.key))
            return found
        if isinstance(found, Err) and isinstance(found.error, NotFound):
            self.emit(Reconciled(state.key, False))
            state.ambiguous = False
            return None
        if isinstance(found, Err):
            if self.ledger is not None:
                self.ledger.abandon(state.key, state.owner)
            return found
        raise TypeError(f"the reconcile lookup of {self.name} must return Ok or Err, got {found!r}")

    def after(self, state: _CallState, result: object) -> None:
        """Record the tool's result."""
        ledger = self.ledger
        if isinstance(result, Ok):
            state.ambiguous = False
            if ledger is not None and not ledger.finish(state.key, state.owner, result.value):
                self.emit(LeaseLost(state.key))
            return
        if not isinstance(result, Err):
            raise TypeError(f"a tool under keyed() must return Ok or Err, got {result!r}")
        error = result.error
        if isinstance(error, (Timeout, Unknown)):
            state.ambiguous = True
        if ledger is None:
            return
        # noqa reason: the else is the safe default on purpose: an outcome not known to be definite or
        # transient may have happened, so its key is handed over (abandoned), whatever its variant.
        if isinstance(error, (InvalidArgs, Denied, NotFound)) and not state.ambiguous:  # noqa: TFH503
            lost = not ledger.fail(state.key, state.owner, error)
        elif isinstance(error, (RateLimited, Unavailable)) and not state.ambiguous:
            lost = not ledger.release(state.key, state.owner)
        else:
            lost = not ledger.abandon(state.key, state.owner)
        if lost:
            self.emit(LeaseLost(state.key))

    def crashed(self, state: _CallState) -> None:
        """The tool raised (cancelled, interrupted): the effect may have happened."""
        state.ambiguous = True
        if self.ledger is not None:
            try:
                self.ledger.abandon(state.key, state.owner)
            except Exception:  # the lease will expire on its own
                pass


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
    ledger = core.ledger

    if is_async_callable(tool):

        async def keyed_async(*args: Any, **kwargs: Any) -> Result[Any]:
            state = core.state(me, args, kwargs)
            if isinstance(state, Err):
                return state
            early = core.before(state, fingerprint_of(args, kwargs) if ledger is not None else "")
            if early is not None:
                return early
            key_token = _key.set(state.key)
            lease_token = _lease.set((ledger, state.key, state.owner) if ledger is not None else None)
            try:
                if state.ambiguous and core.lookup is not None:
                    found = core.lookup(state.key)
                    if core.lookup_is_async:
                        found = await found
                    answer = core.reconciled(state, found)
                    if answer is not None:
                        return answer
                if pass_key_as is not None:
                    kwargs = {**kwargs, pass_key_as: state.key}
                try:
                    result = await tool(*args, **kwargs)
                except BaseException:
                    core.crashed(state)
                    raise
                core.after(state, result)
                return result  # type: ignore[no-any-return]
            finally:
                _lease.reset(lease_token)
                _key.reset(key_token)

        wrapper: Callable[..., Any] = keyed_async
    else:

        def keyed_sync(*args: Any, **kwargs: Any) -> Result[Any]:
            state = core.state(me, args, kwargs)
            if isinstance(state, Err):
                return state
            early = core.before(state, fingerprint_of(args, kwargs) if ledger is not None else "")
            if early is not None:
                return early
            key_token = _key.set(state.key)
            lease_token = _lease.set((ledger, state.key, state.owner) if ledger is not None else None)
            try:
                if state.ambiguous and core.lookup is not None:
                    answer = core.reconciled(state, core.lookup(state.key))
                    if answer is not None:
                        return answer
                if pass_key_as is not None:
                    kwargs = {**kwargs, pass_key_as: state.key}
                try:
                    result = tool(*args, **kwargs)
                except BaseException:
                    core.crashed(state)
                    raise
                core.after(state, result)
                return result  # type: ignore[no-any-return]
            finally:
                _lease.reset(lease_token)
                _key.reset(key_token)

        wrapper = keyed_sync

    me = id(wrapper)
    wrapper.__qualname__ = wrapper.__name__ = f"keyed({name})"
    wrapper.__doc__ = getattr(tool, "__doc__", None)
    _classification.carry(tool, wrapper)
    setattr(wrapper, _KEYED_ATTR, True)
    return wrapper
