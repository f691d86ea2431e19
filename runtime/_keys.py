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
import inspect
import itertools
import os
import threading
import typing
import uuid
import weakref
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, ClassVar, Coroutine, Final, ParamSpec, TypeVar, Union, overload

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
from ._events import Event, Observer, observers_now, recorder
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


_NOTHING: Final = object()

# Owner tokens: a random prefix per process (made again in a forked child) and a counter.
_OWNERS: list[Any] = [os.urandom(8).hex() + ".", itertools.count()]


def _new_owners() -> None:
    _OWNERS[:] = [os.urandom(8).hex() + ".", itertools.count()]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_owners)


class _CallState:
    """One logical call: its key, its owner token, whether an earlier attempt may have acted,
    a result an earlier attempt could not record, and the events to report."""

    __slots__ = ("key", "owner", "ambiguous", "pending", "outbox")

    def __init__(self, key: str) -> None:
        self.key = key
        self.owner = f"{_OWNERS[0]}{next(_OWNERS[1])}"
        self.ambiguous = False
        self.pending: object = _NOTHING
        self.outbox: list[Event] = []


def never_happened(error: ToolError) -> bool:
    """True when ``error`` proves the request never took effect (see docs/runtime.md's table).

    ``RateLimited``; ``Unavailable`` without an HTTP status (the request was
    never sent: refused, DNS, connect timeout); a 503 with ``Retry-After``.
    A 500, 502, 504 or a 503 without advice, a ``Timeout`` (a read timeout, a
    connection reset or closed after the request went out) and ``Unknown``
    may have taken effect.
    """
    if isinstance(error, RateLimited):
        return True
    if isinstance(error, Unavailable):
        return error.status is None or (error.status == 503 and error.retry_after_ms is not None)
    return False


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


# ---------------------------------------------------------------- the heartbeat


class _Heartbeat:
    """One thread per ledger and process that renews the leases of the keyed calls running now.

    It waits with the ledger's ``heartbeat`` function (a third of the lease
    each time) and ends when no keyed call of its ledger runs.
    """

    _of: ClassVar[weakref.WeakKeyDictionary[Any, _Heartbeat]] = weakref.WeakKeyDictionary()
    _guard: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, ledger: Ledger, wait: Callable[[int], None], every_ms: int) -> None:
        self.ledger = ledger
        self.wait = wait
        self.every_ms = every_ms
        self.leases: dict[tuple[str, str], bool] = {}  # (key, owner) -> still held
        self.lock = threading.Lock()
        self.running = False
        self.pid = os.getpid()

    @classmethod
    def of(cls, ledger: Ledger) -> _Heartbeat | None:
        wait = getattr(ledger, "heartbeat", None)
        lease_ms = getattr(ledger, "lease_ms", None)
        if not callable(wait) or not isinstance(lease_ms, int) or lease_ms <= 0:
            return None
        with cls._guard:
            try:
                beat = cls._of.get(ledger)
            except TypeError:  # a ledger that cannot be weakly referenced: no heartbeat
                return None
            if beat is None or beat.pid != os.getpid():  # a forked child starts its own thread
                beat = cls(ledger, wait, max(1, lease_ms // 3))
                cls._of[ledger] = beat
        return beat

    def start(self, key: str, owner: str) -> None:
        with self.lock:
            self.leases[(key, owner)] = True
            if self.running:
                return
            self.running = True
        threading.Thread(target=self._beat, name="smullyan-ledger-heartbeat", daemon=True).start()

    def stop(self, key: str, owner: str) -> bool:
        """Stop renewing; False when a renewal found the lease lost."""
        with self.lock:
            return self.leases.pop((key, owner), True)

    def _beat(self) -> None:
        try:
            while True:
                self.wait(self.every_ms)
                with self.lock:
                    if not self.leases:
                        self.running = False  # a later start() starts a new thread
                        return
                    held = [lease for lease, ok in self.leases.items() if ok]
                for key, owner in held:
                    try:
                        kept = self.ledger.extend(key, owner)
                    except Exception:  # the ledger is unreachable now; the next beat tries again
                        continue
                    if not kept:
                        with self.lock:
                            if (key, owner) in self.leases:
                                self.leases[(key, owner)] = False
        except BaseException:  # the wait itself failed: no heartbeat until the next start()
            with self.lock:
                self.running = False
            raise


# ---------------------------------------------------------------- keyed


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = ""
    return f"{type(exc).__name__}: {text}"[:500] if text else type(exc).__name__


def _unstorable(tool: Callable[..., Any], ledger: Ledger | None) -> str | None:
    """The name of ``tool``'s declared result type when the ledger's JSON codec cannot store it."""
    from ._ledger import JSON_CODEC

    if ledger is None or getattr(ledger, "codec", None) is not JSON_CODEC:
        return None
    try:
        ret = typing.get_type_hints(tool).get("return")
    except Exception:
        return None
    for _ in range(3):  # Result[T] = Union[Ok[T], Err[...]]: look at T
        if typing.get_origin(ret) is Union:
            oks = [a for a in typing.get_args(ret) if typing.get_origin(a) is Ok or a is Ok]
            ret = oks[0] if oks else None
        if typing.get_origin(ret) is Ok:
            args = typing.get_args(ret)
            ret = args[0] if args else None
    if not isinstance(ret, type) or ret is object or ret is Any or typing.get_origin(ret) is not None:
        return None
    if ret.__module__ in ("typing", "typing_extensions", "builtins") and not issubclass(ret, (set, frozenset, bytes)):
        return None
    if issubclass(ret, (dict, list, tuple, str, int, float, type(None))):
        return None
    return ret.__qualname__


class _Keyed:
    """The decisions of one keyed tool, shared by its sync and async wrappers."""

    __slots__ = (
        "key_from", "pass_key_as", "lookup", "lookup_is_async", "ledger", "observers", "name",
        "signature", "unstorable", "heartbeat", "arity",
    )

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
        self.signature: inspect.Signature | None = None
        self.arity = -1  # >= 0: the tool takes exactly this many plain positional-or-keyword parameters
        self.unstorable: str | None = None
        self.heartbeat: _Heartbeat | None = None
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

    def describe(self, tool: Callable[..., Any]) -> None:
        """Read the tool's signature (for fingerprints) and result type (for the codec check)."""
        fn = getattr(tool, "_smullyan_fn", tool)
        try:
            self.signature = inspect.signature(fn)
        except (TypeError, ValueError):
            self.signature = None
        plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        if self.signature is not None and all(
            p.kind in plain and p.name != self.pass_key_as for p in self.signature.parameters.values()
        ):
            self.arity = len(self.signature.parameters)
        self.unstorable = _unstorable(fn, self.ledger)
        if self.ledger is not None:
            self.heartbeat = _Heartbeat.of(self.ledger)

    def emit(self, state: _CallState, event: Event) -> None:
        state.outbox.append(event)  # reported by flush, where the caller's context (a traced() call) is

    def flush(self, state: _CallState) -> None:
        """Report the events of the last step, on the caller's thread (or event loop)."""
        if not state.outbox:
            return
        observers = observers_now(self.observers)
        while state.outbox:
            event = state.outbox.pop(0)
            for observer in observers:
                observer(event)

    def fingerprint(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        """The arguments bound to the tool's signature (defaults applied): one call, one spelling."""
        if self.ledger is None:
            return ""
        if not kwargs and len(args) == self.arity:  # every parameter given by position: bound as it is
            return fingerprint_of(args, {})
        if self.signature is not None:
            try:
                bound = self.signature.bind_partial(*args, **kwargs)
                bound.apply_defaults()
                values: list[Any] = []
                extra: dict[str, Any] = {}
                for name, value in bound.arguments.items():  # in the signature's order, names dropped
                    kind = self.signature.parameters[name].kind
                    if name == self.pass_key_as:
                        continue
                    if kind is inspect.Parameter.VAR_POSITIONAL:
                        values.extend(value)
                    elif kind is inspect.Parameter.VAR_KEYWORD:
                        extra.update(value)
                    else:
                        values.append(value)
                return fingerprint_of(tuple(values), extra)
            except TypeError:
                pass
        return fingerprint_of(args, kwargs)

    def state(self, me: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _CallState | Err[ToolError]:
        scope = _scope.get()
        state = scope.get(me) if scope is not None else None
        if state is not None:
            return state
        if self.key_from is None:
            key: object = str(uuid.uuid4())
        else:
            try:
                key = self.key_from(*args, **kwargs)
            except Exception as exc:
                return Err(InvalidArgs("idempotency key", "key_from(...) to accept the call's arguments", _message(exc)))
        if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
            return Err(InvalidArgs("idempotency key", f"a non-empty str of at most {MAX_KEY_LENGTH} characters", key))
        state = _CallState(key)
        if scope is not None:
            scope[me] = state
        return state

    def _safely(self, state: _CallState, method: str, *more: Any, problems: list[str] | None = None) -> bool | None:
        """``ledger.<method>(key, owner, ...)``: its answer, or None when the ledger raised."""
        ledger = self.ledger
        if ledger is None:
            return True
        try:
            return bool(getattr(ledger, method)(state.key, state.owner, *more))
        except Exception as exc:
            if problems is not None:
                problems.append(_message(exc))
            return None

    def _abandon(self, state: _CallState) -> None:
        if self._safely(state, "abandon") is False:
            self.emit(state, LeaseLost(state.key))

    def before(self, state: _CallState, fingerprint: str) -> Result[Any] | None:
        """Ask the ledger; an outcome to return at once, or None to go on (the key is ours)."""
        if self.unstorable is not None:
            return Err(InvalidArgs(
                f"the result of {self.name}",
                "a JSON value the ledger can store (or a ledger with codec=Codec(encode, decode))",
                self.unstorable,
            ))
        ledger = self.ledger
        if ledger is None:
            return None
        try:
            begun = ledger.begin(state.key, fingerprint, state.owner)
        except Exception as exc:
            return Err(Unavailable(f"the ledger could not be asked about idempotency key {state.key!r}: {_message(exc)}"))
        if isinstance(begun, Started):
            if begun.takeover and not state.ambiguous and self.lookup is not None:
                self.emit(state, TakenOver(state.key, True))  # without a lookup: reported as it runs
            if begun.takeover:
                state.ambiguous = True
            if state.pending is not _NOTHING:  # an earlier attempt acted but could not record: record it now
                return self.record(state, state.pending)
            return None
        if isinstance(begun, Done):
            if self.observers or recorder.get() is not None:  # a replay's event, made only when observed
                self.emit(state, Replayed(state.key))
            return Ok(begun.result)
        if isinstance(begun, FailedEarlier):
            self.emit(state, Replayed(state.key))
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

    def record(self, state: _CallState, value: object) -> Result[Any]:
        """Record ``value`` as the key's result; never leaves the lease behind.

        When the ledger cannot store it (twice), the failure is recorded instead
        (the effect is never repeated); when it cannot record even that, the key
        is abandoned and the value kept, so the retry of this call records it.
        """
        ledger = self.ledger
        if ledger is None:
            return Ok(value)
        problems: list[str] = []
        recorded = self._safely(state, "finish", value)
        if recorded is None:  # once more: a dropped connection is reopened by the ledger
            recorded = self._safely(state, "finish", value, problems=problems)
        if recorded is not None:
            if not recorded:
                self.emit(state, LeaseLost(state.key))
            state.pending = _NOTHING
            return Ok(value)
        problem = problems[-1] if problems else "the ledger raised"
        error = Unknown(f"{self.name} took effect, but the ledger could not record its result ({problem})")
        stored = self._safely(state, "fail", error)
        if stored is not None:
            if not stored:
                self.emit(state, LeaseLost(state.key))
            state.pending = _NOTHING
            return Err(error)
        self._abandon(state)
        state.pending = value
        state.ambiguous = True
        return Err(Unavailable(f"the ledger could not record the result for idempotency key {state.key!r} "
                               f"({problem}); a retry records it"))

    def reconciled(self, state: _CallState, found: object) -> Result[Any] | None:
        """The lookup's answer: a Result to return, or None to run the effect."""
        if isinstance(found, _Raised):
            self._abandon(state)
            return Err(Unavailable(f"the reconcile lookup of {self.name} raised {found.message}"))
        if isinstance(found, Ok):
            self.emit(state, Reconciled(state.key, True))
            state.ambiguous = False
            return self.record(state, found.value)
        if isinstance(found, Err) and isinstance(found.error, NotFound):
            self.emit(state, Reconciled(state.key, False))
            state.ambiguous = False
            return None
        self._abandon(state)
        if isinstance(found, Err):
            return found
        raise TypeError(f"the reconcile lookup of {self.name} must return Ok or Err, got {found!r}")

    def after(self, state: _CallState, result: object) -> Result[Any]:
        """Record the tool's result; what the keyed call returns."""
        if isinstance(result, Ok):
            state.ambiguous = False
            return self.record(state, result.value)
        if not isinstance(result, Err):
            self.crashed(state)
            raise TypeError(f"a tool under keyed() must return Ok or Err, got {result!r}")
        error = result.error
        definite = isinstance(error, (InvalidArgs, Denied, NotFound))
        if not (definite or never_happened(error)):
            state.ambiguous = True
        if self.ledger is None:
            return result
        # noqa reason: the else is the safe default on purpose: an outcome not known to be definite or
        # never sent may have happened, so its key is handed over (abandoned), whatever its variant.
        if definite and not state.ambiguous:  # noqa: TFH503
            kept = self._safely(state, "fail", error)
        elif not state.ambiguous:
            kept = self._safely(state, "release")
        else:
            kept = self._safely(state, "abandon")
        if kept is None:  # the ledger raised: hand the key over rather than hold it for a lease
            state.ambiguous = True
            self._abandon(state)
        elif not kept:
            self.emit(state, LeaseLost(state.key))
        return result

    def crashed(self, state: _CallState) -> None:
        """The tool raised (cancelled, interrupted): the effect may have happened."""
        state.ambiguous = True
        self._safely(state, "abandon")

    def beat(self, state: _CallState) -> None:
        if self.heartbeat is not None:
            self.heartbeat.start(state.key, state.owner)

    def unbeat(self, state: _CallState) -> None:
        """Stop renewing the lease (a lease lost meanwhile shows as a refused finish: LeaseLost)."""
        if self.heartbeat is not None:
            self.heartbeat.stop(state.key, state.owner)


class _Raised:
    """A reconcile lookup that raised instead of returning a Result."""

    __slots__ = ("message",)

    def __init__(self, exc: BaseException) -> None:
        self.message = _message(exc)


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
