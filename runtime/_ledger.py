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

import contextlib
import hashlib
import json
import math
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Final, Iterator, Literal, Protocol, Union

from ._durations import Duration, minutes, seconds
from ._errors import ToolError, unknown
from ._wire import dump_json, parse_json

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
    "SQLiteLedger",
    "DEFAULT_LEASE",
    "DEFAULT_TTL",
    "SCHEMA",
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


# ---------------------------------------------------------------- the SQL ledger (both backends)

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS {table} (
    key         TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('in_progress', 'done', 'failed')),
    owner       TEXT,
    lease_until BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    outcome     TEXT
)
"""
"""The table both backends create on first use (``{table}`` is ``smullyan_ledger`` by default).

``lease_until`` and ``expires_at`` are wall-clock milliseconds. An
``in_progress`` record expires ``ttl`` after its lease ends (an abandoned key
is forgotten eventually); a ``done`` or ``failed`` one ``ttl`` after it was
written. ``outcome`` is the codec's text for ``done``, the wire format for ``failed``.
"""

_INDEX: Final = "CREATE INDEX IF NOT EXISTS {table}_expires ON {table} (expires_at)"

Row = tuple[str, str, "str | None", int, int, "str | None"]


class _Executor(Protocol):
    def __call__(self, sql: str, params: tuple[Any, ...] = ...) -> list[tuple[Any, ...]] | int: ...


_PLAIN_IDENTIFIER: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def _failed(outcome: str | None) -> FailedEarlier:
    error = parse_json(outcome) if outcome is not None else None
    return FailedEarlier(error if error is not None else unknown("unreadable ledger record", outcome))


class SQLLedger:
    """The ledger logic over any SQL database; subclasses give a connection and a transaction."""

    #: ``FOR UPDATE`` where the database locks rows; SQLite locks the whole database instead.
    _lock_row: ClassVar[str] = ""

    def __init__(
        self,
        *,
        now: Now,
        lease: Duration = DEFAULT_LEASE,
        ttl: Duration = DEFAULT_TTL,
        codec: Codec = JSON_CODEC,
        table: str = "smullyan_ledger",
        purge_every: int = 1000,
        heartbeat: Heartbeat = None,
    ) -> None:
        _check_now(now)
        for name, value in (("lease", lease), ("ttl", ttl)):
            if not isinstance(value, Duration) or value.ms <= 0:
                raise TypeError(f"a ledger's {name}= takes a positive Duration, got {value!r}")
        if not isinstance(table, str) or not _PLAIN_IDENTIFIER.fullmatch(table):
            raise ValueError(
                f"a ledger's table= must be a plain SQL identifier (letters, digits, _; at most 63), got {table!r}"
            )
        if heartbeat is not None and heartbeat is not False and not callable(heartbeat):
            raise TypeError(f"a ledger's heartbeat= takes a wait function of ms, False or None, got {heartbeat!r}")
        if isinstance(purge_every, bool) or not isinstance(purge_every, int) or purge_every < 0:
            raise ValueError(f"purge_every= takes an int >= 0 (0: never on its own), got {purge_every!r}")
        self.now = now
        self.lease_ms = lease.ms
        self.ttl_ms = ttl.ms
        self.codec = codec
        self.table = table
        self.purge_every = purge_every
        self._begins = 0
        self._select_sql = (
            f"SELECT fingerprint, state, owner, lease_until, expires_at, outcome FROM {table} WHERE key = ?"
        )
        # a replay's read: the record of this key, if it is live and was made with these arguments
        self._replay_sql = f"SELECT state, outcome FROM {table} WHERE key = ? AND fingerprint = ? AND expires_at > ?"
        #: the heartbeat's wait (ms), or None: no heartbeat (see the module docs)
        self.heartbeat: Callable[[int], None] | None = (
            (wall_sleep if now is wall_now else None) if heartbeat is None else heartbeat or None
        )

    # -- what a backend provides

    def _transaction(self) -> contextlib.AbstractContextManager[_Executor]:
        raise NotImplementedError

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """One statement outside any transaction: no lock taken, nothing committed."""
        raise NotImplementedError

    # -- the protocol

    def begin(self, key: str, fingerprint: str, owner: str) -> Begin:
        """Decide what ``owner`` may do with ``key`` (see the module's table)."""
        now = self.now()
        # A replay is one plain read of two columns; only a new, expired, mismatched or takeable key is
        # decided under a lock. A record in progress is read whole, still without a lock (InProgress).
        live = self._read(self._replay_sql, (key, fingerprint, now))
        if live:
            state, stored = live[0]
            if state == "done":
                return Done(self.codec.decode(stored))
            if state == "failed":
                return _failed(stored)
            seen = self._read(self._select_sql, (key,))
            read = self._settled(fingerprint, owner, now, seen[0]) if seen else None
            if read is not None:
                return read
        t = self.table
        columns = "fingerprint, state, owner, lease_until, expires_at, outcome"
        lease_until = now + self.lease_ms
        expires = lease_until + self.ttl_ms
        outcome: Begin | None = None
        for _ in range(100):  # a release or purge may delete the row between the INSERT and the SELECT
            # a new key: one statement, atomic on its own (on PostgreSQL one round trip, no BEGIN/COMMIT)
            if self._write(
                f"INSERT INTO {t} (key, fingerprint, state, owner, lease_until, expires_at, outcome) "
                "VALUES (?, ?, 'in_progress', ?, ?, ?, NULL) ON CONFLICT (key) DO NOTHING",
                (key, fingerprint, owner, lease_until, expires),
            ) == 1:
                outcome = Started(False)
                break
            # the key has a record: decide under its lock (the whole database's on SQLite)
            with self._transaction() as run:
                rows = run(f"SELECT {columns} FROM {t} WHERE key = ?{self._lock_row}", (key,))
                if isinstance(rows, list) and rows:
                    outcome = self._decide(run, key, fingerprint, owner, now, rows[0])
            if outcome is not None:
                break
        if outcome is None:  # pragma: no cover - a hundred lost races in a row
            raise RuntimeError(f"the ledger could not settle key {key!r}: its record kept vanishing")
        self._begins += 1
        if self.purge_every and self._begins % self.purge_every == 0:
            self.purge()
        return outcome

    def _settled(self, fingerprint: str, owner: str, now: int, row: tuple[Any, ...]) -> Begin | None:
        """What a record read without a lock settles (None: decide under the lock)."""
        stored_fp, state, holder, lease_until, expires_at, outcome = row
        if expires_at <= now:
            return None
        if stored_fp != fingerprint:
            return Mismatch(stored_fp)
        if state == "done":
            return Done(self.codec.decode(outcome))
        if state == "failed":
            return _failed(outcome)
        if holder != owner and lease_until > now:
            return InProgress(lease_until)
        return None

    def _decide(
        self, run: _Executor, key: str, fingerprint: str, owner: str, now: int, row: tuple[Any, ...]
    ) -> Begin:
        expires_at = row[4]
        take = (
            f"UPDATE {self.table} SET fingerprint = ?, state = 'in_progress', owner = ?, lease_until = ?, "
            "expires_at = ?, outcome = NULL WHERE key = ?"
        )
        new_lease = now + self.lease_ms
        if expires_at <= now:  # an expired record is forgotten: a new call
            run(take, (fingerprint, owner, new_lease, new_lease + self.ttl_ms, key))
            return Started(False)
        settled = self._settled(fingerprint, owner, now, row)  # the same answers as a read without the lock
        if settled is not None:
            return settled
        run(take, (fingerprint, owner, new_lease, new_lease + self.ttl_ms, key))
        return Started(True)

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        """One writing statement, atomic and committed on its own; how many rows it changed."""
        with self._transaction() as run:
            changed = run(sql, params)
        return changed if isinstance(changed, int) else 0

    def _owned(self, sql: str, params: tuple[Any, ...]) -> bool:
        return self._write(sql, params) == 1

    def finish(self, key: str, owner: str, result: object) -> bool:
        """Record ``result`` for ``key``; False when ``owner`` has lost the key."""
        text = self.codec.encode(result)
        return self._owned(
            f"UPDATE {self.table} SET state = 'done', owner = NULL, outcome = ?, expires_at = ? "
            "WHERE key = ? AND state = 'in_progress' AND owner = ?",
            (text, self.now() + self.ttl_ms, key, owner),
        )

    def fail(self, key: str, owner: str, error: ToolError) -> bool:
        """Record ``error`` for ``key`` (a later caller gets it back); False when the key was lost."""
        return self._owned(
            f"UPDATE {self.table} SET state = 'failed', owner = NULL, outcome = ?, expires_at = ? "
            "WHERE key = ? AND state = 'in_progress' AND owner = ?",
            (dump_json(error), self.now() + self.ttl_ms, key, owner),
        )

    def release(self, key: str, owner: str) -> bool:
        """Forget ``key``: the effect certainly did not happen, the next caller starts afresh."""
        return self._owned(
            f"DELETE FROM {self.table} WHERE key = ? AND state = 'in_progress' AND owner = ?", (key, owner)
        )

    def abandon(self, key: str, owner: str) -> bool:
        """End ``owner``'s lease now: the effect may have happened, so the next caller takes over."""
        return self._owned(
            f"UPDATE {self.table} SET lease_until = 0 WHERE key = ? AND state = 'in_progress' AND owner = ?",
            (key, owner),
        )

    def extend(self, key: str, owner: str) -> bool:
        """The heartbeat: renew ``owner``'s lease for another ``lease``; False when it was lost."""
        lease_until = self.now() + self.lease_ms
        return self._owned(
            f"UPDATE {self.table} SET lease_until = ?, expires_at = ? "
            "WHERE key = ? AND state = 'in_progress' AND owner = ?",
            (lease_until, lease_until + self.ttl_ms, key, owner),
        )

    def purge(self, limit: int = 1000) -> int:
        """Delete up to ``limit`` expired records; returns how many. Short, so callers barely wait."""
        t = self.table
        with self._transaction() as run:
            deleted = run(
                f"DELETE FROM {t} WHERE key IN "
                f"(SELECT key FROM {t} WHERE expires_at <= ? LIMIT ?{self._skip_locked})",
                (self.now(), limit),
            )
        return deleted if isinstance(deleted, int) else 0

    _skip_locked: ClassVar[str] = ""

    def state_of(self, key: str) -> Literal["in_progress", "done", "failed"] | None:
        """The stored state of ``key`` (None when there is no record): for tests and tools."""
        with self._transaction() as run:
            rows = run(f"SELECT state FROM {self.table} WHERE key = ?", (key,))
        state = rows[0][0] if isinstance(rows, list) and rows else None
        return "in_progress" if state == "in_progress" else "done" if state == "done" else (
            "failed" if state == "failed" else None
        )


class SQLiteLedger(SQLLedger):
    """A ledger in one SQLite file (WAL mode): safe across threads and processes on one host.

    Each thread (and each process after a fork) opens its own connection.
    ``begin``'s writes run in ``BEGIN IMMEDIATE`` transactions, so SQLite's write
    lock decides every race; ``busy_timeout`` (ms) is how long a caller waits
    for that lock before the call fails with ``sqlite3.OperationalError``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        now: Now,
        lease: Duration = DEFAULT_LEASE,
        ttl: Duration = DEFAULT_TTL,
        codec: Codec = JSON_CODEC,
        table: str = "smullyan_ledger",
        purge_every: int = 1000,
        busy_timeout_ms: int = 30_000,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        heartbeat: Heartbeat = None,
    ) -> None:
        super().__init__(
            now=now, lease=lease, ttl=ttl, codec=codec, table=table, purge_every=purge_every, heartbeat=heartbeat
        )
        if str(path) == ":memory:":
            raise ValueError("SQLiteLedger needs a file path (':memory:' is private to one connection)")
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous= takes 'FULL' or 'NORMAL', got {synchronous!r}")
        self.path = os.fspath(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.synchronous = synchronous
        self._local = threading.local()
        with self._transaction() as run:
            run(SCHEMA.format(table=table))
            run(_INDEX.format(table=table))

    def _connection(self) -> sqlite3.Connection:
        local = self._local
        conn: sqlite3.Connection | None = getattr(local, "conn", None)
        if conn is None or getattr(local, "pid", None) != _PROCESS[0]:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            local.conn = conn
            local.reader = conn.cursor()
            local.pid = _PROCESS[0]
        return conn

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        # this thread's cursor for plain reads: fetchall() runs each statement to its end (no read
        # transaction is left open), so the one cursor serves every read of the thread
        local = self._local
        if getattr(local, "pid", None) != _PROCESS[0]:  # first read of this thread, or a forked child
            self._connection()
        cursor: sqlite3.Cursor = local.reader
        return cursor.execute(sql, params).fetchall()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[_Executor]:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")

        def run(sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]] | int:
            cursor = conn.execute(sql, params)
            if cursor.description is not None:
                return cursor.fetchall()
            return cursor.rowcount

        try:
            yield run
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = self._local.reader = self._local.pid = None

    def __repr__(self) -> str:
        return f"SQLiteLedger({self.path!r})"
