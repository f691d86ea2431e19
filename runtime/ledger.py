"""The ledger of keyed calls: ``recorded_in(ledger)`` makes a keyed write run at most once per key.

::

    from smullyan import runtime as tool
    from smullyan.runtime.ledger import SQLiteLedger, wall_now

    ledger = SQLiteLedger("writes.db", now=wall_now)
    charge_once = tool.keyed(charge, tool.recorded_in(ledger))

:class:`SQLiteLedger` (standard library) and :class:`PostgresLedger`
(``psycopg`` 3, imported when one is made) are the backends; :class:`Ledger`
is the protocol a backend of your own implements, and :class:`Begin` (one of
:class:`Started`, :class:`InProgress`, :class:`Done`, :class:`FailedEarlier`,
:class:`Mismatch`) what its ``begin`` answers. See ``docs/runtime.md``.
"""

from ._ledger import (
    DEFAULT_LEASE,
    DEFAULT_TTL,
    JSON_CODEC,
    Begin,
    Codec,
    Done,
    FailedEarlier,
    InProgress,
    Ledger,
    Mismatch,
    Started,
    fingerprint_of,
    wall_now,
    wall_sleep,
)
from ._ledger_postgres import PostgresLedger
from ._ledger_sql import SCHEMA, SQLiteLedger

__all__ = [
    # the backends and the protocol
    "Ledger",
    "SQLiteLedger",
    "PostgresLedger",
    "SCHEMA",
    # what begin() answers
    "Begin",
    "Started",
    "InProgress",
    "Done",
    "FailedEarlier",
    "Mismatch",
    # storing results
    "Codec",
    "JSON_CODEC",
    "fingerprint_of",
    # time and lifetimes
    "wall_now",
    "wall_sleep",
    "DEFAULT_LEASE",
    "DEFAULT_TTL",
]
