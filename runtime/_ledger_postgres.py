"""The PostgreSQL ledger: for workers on many hosts. Needs the optional extra ``smullyan[postgres]``.

``psycopg`` (version 3) is imported when a :class:`PostgresLedger` is made,
never when :mod:`smullyan.runtime` is imported: the runtime stays standard
library only for everyone who does not use this backend.

The table (:data:`~smullyan.runtime.SCHEMA`, ``smullyan_ledger`` by default)
is created on first use. ``begin`` is one transaction: ``INSERT ... ON
CONFLICT (key) DO NOTHING``, and when the key exists, ``SELECT ... FOR
UPDATE`` of its row and the decision; the row lock makes the database decide
every race between workers (a row deleted in between, by a ``release`` or a
``purge``, is tried again). Before it, one plain ``SELECT`` in autocommit
settles a replay (done, failed; in progress elsewhere with a second read)
with no lock and no commit. ``purge`` deletes with ``FOR UPDATE SKIP
LOCKED``, so it never waits for a caller.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any, ClassVar, Iterator

from ._ledger import DEFAULT_LEASE, DEFAULT_TTL, JSON_CODEC, Codec, Heartbeat, Now
from ._ledger_sql import _INDEX, SCHEMA, SQLLedger, _Executor
from ._durations import Duration

__all__ = ["PostgresLedger"]


class PostgresLedger(SQLLedger):
    """A ledger in a PostgreSQL table; ``dsn`` is a libpq connection string or URL.

    Each thread (and each process after a fork) opens its own connection.
    """

    _lock_row: ClassVar[str] = " FOR UPDATE"
    _skip_locked: ClassVar[str] = " FOR UPDATE SKIP LOCKED"

    def __init__(
        self,
        dsn: str,
        *,
        now: Now,
        lease: Duration = DEFAULT_LEASE,
        ttl: Duration = DEFAULT_TTL,
        codec: Codec = JSON_CODEC,
        table: str = "smullyan_ledger",
        purge_every: int = 1000,
        heartbeat: Heartbeat = None,
    ) -> None:
        super().__init__(
            now=now, lease=lease, ttl=ttl, codec=codec, table=table, purge_every=purge_every, heartbeat=heartbeat
        )
        try:
            import psycopg  # type: ignore[import-not-found, unused-ignore]  # the optional extra, lazily
        except ImportError:
            raise ImportError(
                "PostgresLedger needs psycopg 3: pip install 'smullyan[postgres]'"
            ) from None
        self._psycopg: Any = psycopg
        self.dsn = dsn
        self._local = threading.local()
        with self._transaction() as run:
            # Two workers creating the table at once would race in the catalog: serialise them.
            run("SELECT pg_advisory_xact_lock(hashtext(?))", (f"smullyan:{table}",))
            run(SCHEMA.format(table=table))
            run(_INDEX.format(table=table))

    def _connection(self) -> Any:
        local = self._local
        conn = getattr(local, "conn", None)
        if conn is None or conn.closed or getattr(local, "pid", None) != os.getpid():
            conn = self._psycopg.connect(self.dsn, autocommit=True)
            local.conn = conn
            local.pid = os.getpid()
        return conn

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        # autocommit: one statement, no transaction block, no row lock
        return list(self._connection().execute(sql.replace("?", "%s"), params, prepare=True).fetchall())

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        # autocommit: the statement is its own transaction (atomic; its WHERE fences the owner), one
        # round trip instead of BEGIN, the statement and COMMIT
        return int(self._connection().execute(sql.replace("?", "%s"), params, prepare=True).rowcount)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[_Executor]:
        conn = self._connection()
        with conn.transaction():
            cursor = conn.cursor()

            def run(sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]] | int:
                cursor.execute(sql.replace("?", "%s"), params)
                if cursor.description is not None:
                    return list(cursor.fetchall())
                return int(cursor.rowcount)

            yield run

    def close(self) -> None:
        """Close this thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def __repr__(self) -> str:
        return "PostgresLedger(<dsn>)"
