"""The ledger: a durable record of keyed calls, so a run can resume without repeating effects.

A :class:`Ledger` stores one record per idempotency key::

    key | fingerprint | state (in_progress | done | failed) | owner | lease_until | expires_at | outcome

:meth:`Ledger.begin` decides, atomically (the database decides every race),
what a caller with ``key`` may do:

========================= ==============================================================
:class:`Started`          no record (or an expired one): the caller owns the key for one
                          lease and runs the effect
:class:`Started` takeover the record is in progress but its lease has expired (its worker
                          died, or gave up after an ambiguous Timeout): the caller owns it
                          now, and the effect *may already have happened*
:class:`InProgress`       another owner holds an unexpired lease
:class:`Done`             the effect ran; its stored result
:class:`FailedEarlier`           the effect failed for good; its stored error
:class:`Mismatch`         the key was first used with other arguments (another fingerprint)
========================= ==============================================================

The owner then calls :meth:`~Ledger.finish`, :meth:`~Ledger.fail`,
:meth:`~Ledger.release` (the effect certainly did not happen) or
:meth:`~Ledger.abandon` (it may have: the next caller takes over, and
reconciles). :meth:`~Ledger.extend` is the heartbeat of a long call. Done and
failed records expire after ``ttl`` (24 hours by default, as Stripe's keys);
:meth:`~Ledger.purge` deletes expired records in small batches and runs on
its own every ``purge_every`` begins.

Results are stored as JSON (through a :class:`Codec` for anything else),
errors in the wire format. Nothing here reads the time: every ledger takes a
``now`` function returning *wall-clock* milliseconds (leases must mean the
same on every process and host): :func:`wall_now` is the explicit real one
(a monotonic clock such as ``system_now`` is refused).

The heartbeat: while a keyed tool runs, its lease is renewed every third of
the lease by one thread per ledger and process, which waits with the ledger's
``heartbeat`` function (milliseconds). A ledger on ``now=wall_now`` waits with
:func:`wall_sleep` unless told otherwise; on any other ``now`` there is no
heartbeat unless one is given (a test passes its own); ``heartbeat=False``
turns it off.

A replay (a done or failed key) is one plain read of two columns: no
transaction, no row lock, nothing written; a key busy elsewhere takes a
second plain read of its record. A new key is one ``INSERT ... ON CONFLICT
DO NOTHING`` statement on its own; only a key that already has a record
(expired, taken over, mismatched) is decided in a locking transaction. The
writes of an owner (finish, fail, release, abandon, extend) are one fenced
statement each (``... WHERE key = ? AND state = 'in_progress' AND owner = ?``).

Backends: :class:`SQLiteLedger` (standard library, one file, WAL mode, safe
across processes on one host) and
:class:`~smullyan.runtime.PostgresLedger` (``psycopg`` 3, many hosts).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Final, Literal, Protocol, Union

from ._durations import Duration, minutes, seconds
from ._errors import ToolError

__all__ = [
    "Started",
    "InProgress",
    "Done",
    "FailedEarlier",
    "Mismatch",
    "Begin",
    "Ledger",
    "Codec",
    "JSON_CODEC",
    "fingerprint_of",
    "wall_now",
    "wall_sleep",
    "DEFAULT_LEASE",
    "DEFAULT_TTL",
]

Now = Callable[[], int]

DEFAULT_LEASE: Final[Duration] = seconds(30)
"""How long a worker owns a key before another may take it over, unless it extends the lease."""

DEFAULT_TTL: Final[Duration] = minutes(24 * 60)
"""How long a done or failed record answers for its key: 24 hours."""


def wall_now() -> int:
    """Wall-clock milliseconds since the epoch (``time.time_ns() // 1_000_000``), for ledgers."""
    return time.time_ns() // 1_000_000


def wall_sleep(ms: int) -> None:
    """Wait ``ms`` real milliseconds: the heartbeat's wait of a ledger on :func:`wall_now`."""
    time.sleep(max(0, ms) / 1000)


Heartbeat = Union[Callable[[int], None], Literal[False], None]
"""A ledger's ``heartbeat=``: a wait in ms, ``False`` (none), or None (``wall_sleep`` on ``wall_now``)."""

_MONOTONIC: Final = frozenset(
    {("time", "monotonic"), ("time", "monotonic_ns"), ("time", "perf_counter"), ("time", "perf_counter_ns")}
)


def _check_now(now: object) -> None:
    if not callable(now):
        raise TypeError(f"a ledger takes now=<function returning wall-clock ms>, got {now!r}")
    name = (getattr(now, "__module__", None), getattr(now, "__name__", None))
    if name in _MONOTONIC or name[1] == "system_now" and str(name[0]).startswith("smullyan"):
        raise ValueError(
            f"a ledger's now= must be a wall clock (leases are compared across processes and hosts), "
            f"got the monotonic clock {name[1]}: pass now=wall_now"
        )


#: this process's id, renewed in a forked child (a connection is never carried across a fork);
#: read on every call instead of ``os.getpid()``, a system call
_PROCESS: Final = [os.getpid()]


def _forked() -> None:
    _PROCESS[0] = os.getpid()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


# ---------------------------------------------------------------- outcomes of begin


@dataclass(frozen=True, slots=True)
class Started:
    """The caller owns the key; ``takeover`` is true when an earlier owner's effect may have run."""

    state: ClassVar[Literal["started"]] = "started"
    takeover: bool = False


@dataclass(frozen=True, slots=True)
class InProgress:
    """Another owner runs the effect; its lease ends at ``lease_until`` (ms)."""

    state: ClassVar[Literal["in_progress"]] = "in_progress"
    lease_until: int


@dataclass(frozen=True, slots=True)
class Done:
    """The effect ran and returned ``result`` (as decoded by the codec)."""

    state: ClassVar[Literal["done"]] = "done"
    result: Any


@dataclass(frozen=True, slots=True)
class FailedEarlier:
    """The effect failed for good with ``error``."""

    state: ClassVar[Literal["failed"]] = "failed"
    error: ToolError


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The key is already used with other arguments (``fingerprint`` is the stored one)."""

    state: ClassVar[Literal["mismatch"]] = "mismatch"
    fingerprint: str


Begin = Union[Started, InProgress, Done, FailedEarlier, Mismatch]
"""What :meth:`Ledger.begin` returns."""


class Ledger(Protocol):
    """Where keyed calls record what they did. Every method is atomic; ``owner`` fences writes.

    ``finish``, ``fail``, ``release``, ``abandon`` and ``extend`` return False
    when ``owner`` no longer holds the key (its lease expired and another owner
    took it over): the caller has lost the key and must not assume its record.
    """

    def begin(self, key: str, fingerprint: str, owner: str) -> Begin: ...
    def finish(self, key: str, owner: str, result: object) -> bool: ...
    def fail(self, key: str, owner: str, error: ToolError) -> bool: ...
    def release(self, key: str, owner: str) -> bool: ...
    def abandon(self, key: str, owner: str) -> bool: ...
    def extend(self, key: str, owner: str) -> bool: ...
    def purge(self, limit: int = 1000) -> int: ...


# ---------------------------------------------------------------- codecs and fingerprints


@dataclass(frozen=True, slots=True)
class Codec:
    """How results are stored: ``encode(value) -> str`` and ``decode(str) -> value``."""

    encode: Callable[[Any], str]
    decode: Callable[[str], Any]


def _json_encode(value: object) -> str:
    try:
        return json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"a ledger stores results as JSON, and {value!r} is not JSON-serialisable ({exc}); "
            "return a JSON value from the tool or give the ledger a codec=Codec(encode, decode)"
        ) from None


_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _json_decode(text: str) -> Any:
    """``json.loads(text)``, with the text a ledger writes (no whitespace around) read in one scan."""
    try:
        value, end = _SCAN(text, 0)
    except Exception:  # StopIteration (not JSON at 0), TypeError: the full parser gives its own error
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


JSON_CODEC: Final[Codec] = Codec(_json_encode, _json_decode)
"""The default codec: JSON (tuples come back as lists)."""


def _canonical(value: object, depth: int = 0) -> object:
    """``value`` as a JSON value that is the same for equal values in any process.

    Dict keys of any type and sets are sorted by their canonical text (so a set
    fingerprints the same under any ``PYTHONHASHSEED``); tuples are lists;
    anything else is its type and ``repr``.
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else ["float", repr(value)]
    if depth > 100:
        return ["deep", type(value).__qualname__]
    if isinstance(value, (list, tuple)):
        return [_canonical(v, depth + 1) for v in value]
    if isinstance(value, dict):
        pairs = [[_canonical(k, depth + 1), _canonical(v, depth + 1)] for k, v in value.items()]
        return ["dict", sorted(pairs, key=lambda kv: _text(kv[0]))]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted((_canonical(v, depth + 1) for v in value), key=_text)]
    try:
        shown = repr(value)
    except Exception:
        shown = "<unrepresentable>"
    return ["repr", f"{type(value).__module__}.{type(value).__qualname__}", shown]


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_FLAT: Final = frozenset({str, int, bool, type(None)})


def _text(value: object) -> str:
    return _ENCODER.encode(value)


def fingerprint_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """A SHA-256 of the call's arguments, canonicalised (see :func:`_canonical`); never raises.

    ``keyed`` binds the arguments to the tool's signature first (defaults
    applied), so ``f(1, b=2)`` and ``f(a=1, b=2)`` are one call.
    """
    try:
        if not kwargs and _FLAT.issuperset(map(type, args)):
            # the common case: str/int/bool/None by position; their repr is the same in every process
            text = f"flat:{args!r}"
        else:
            text = _text([_canonical(list(args)), _canonical(kwargs)])
    except Exception as exc:  # pragma: no cover - defensive: a fingerprint never raises
        text = f"unfingerprintable:{type(exc).__name__}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
