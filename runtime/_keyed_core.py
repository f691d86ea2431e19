"""The decisions of one keyed tool, shared by its sync and async wrappers, and the lease heartbeat.

``_Keyed`` asks the ledger before the effect (``begin``), reads a reconcile lookup's
answer, and records the tool's outcome, fenced by the call's owner, never leaving a
lease behind; ``_Heartbeat`` renews the leases of the keyed calls running now (one
thread per ledger and process). :func:`~._keys.keyed` builds the wrappers around them.
"""

from __future__ import annotations

import inspect
import os
import threading
import typing
import uuid
import weakref
from typing import Any, Callable, ClassVar, Union

from ._ledger import Done, FailedEarlier, InProgress, Ledger, Mismatch, Started, fingerprint_of
from ._write_events import LeaseLost, Reconciled, Replayed, TakenOver
from ._errors import (
    Denied,
    Err,
    InvalidArgs,
    NotFound,
    Ok,
    Result,
    ToolError,
    Unavailable,
    Unknown,
)
from ._events import Event, Observer, observers_now, recorder
from ._key_state import (
    _NOTHING,
    MAX_KEY_LENGTH,
    KeyedClause,
    Reconciling,
    Recording,
    _CallState,
    _scope,
    never_happened,
)
from ._retry import ConfigError, Observing


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
