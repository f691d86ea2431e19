"""The SQL ledger: the :class:`~._ledger.Ledger` logic over any SQL database (:class:`SQLLedger`),
its table (:data:`SCHEMA`), and the standard-library backend, :class:`SQLiteLedger`.

``PostgresLedger`` (:mod:`._ledger_postgres`) is the other backend on the same logic. What
``begin`` decides, and how each write is fenced by its owner, is in :mod:`._ledger`.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
from typing import Any, Callable, ClassVar, Final, Iterator, Literal, Protocol

from ._durations import Duration
from ._errors import ToolError, unknown
from ._ledger import (
    _PROCESS,
    DEFAULT_LEASE,
    DEFAULT_TTL,
    JSON_CODEC,
    Begin,
    Codec,
    Done,
    FailedEarlier,
    Heartbeat,
    InProgress,
    Mismatch,
    Now,
    Started,
    _check_now,
    wall_now,
    wall_sleep,
)
from ._wire import dump_json, parse_json

__all__ = ["SQLLedger", "SQLiteLedger", "SCHEMA"]


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
