"""Keyed calls per second through the ledgers, beside a plain call.

Run with ``make bench-ledger`` (PostgreSQL via ``bash .ci/postgres``, or set
``SMULLYAN_PG_DSN``; without a server the PostgreSQL rows are skipped).

Every call is a new logical call with its own key (``key_from``), so every
keyed call with a ledger does one ``begin`` transaction (an INSERT) and one
``finish`` transaction (an UPDATE). The tool itself returns at once: what is
measured is the ledger's cost. With 8 processes, each runs the same number of
calls on its own keys against the one database; the figure is all calls over
the wall time of the slowest process (they start together on a barrier).

SQLite is measured with ``synchronous=FULL`` (the default: a done record
survives a power cut) and ``NORMAL`` (WAL: survives a crash of the process,
may lose the last commits on a power cut).

The second table puts each ledger beside its peer in the same run, in one
process, in interleaved rounds (the median round counts): a *first call*
(new key: ``begin`` + ``finish``) beside the hand-written idempotency table
a developer would write instead (``INSERT ... ON CONFLICT (key) DO NOTHING``
in one transaction, the ``UPDATE`` of the result in another, on the same
schema and connection settings), and a *replay* (a done key) beside a plain
``SELECT outcome ... WHERE key = ?`` on the same table. Targets: first call
within 1.5x of the baseline, replay within 2x of the plain SELECT.
"""

from __future__ import annotations

import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from smullyan import runtime as tool

CALLS = int(os.environ.get("BENCH_LEDGER_CALLS", "2000"))
fork = multiprocessing.get_context("fork")


def work(order: int) -> int:
    return order


def make_call(kind: str, where: str, table: str) -> Any:
    if kind == "plain call":
        return tool.calling_api(work)
    if kind == "keyed, no ledger":
        return tool.keyed(tool.calling_api(work), key_from=lambda order: f"order-{order}")
    if kind.startswith("sqlite"):
        ledger: Any = tool.ledger.SQLiteLedger(where, now=tool.ledger.wall_now, table=table, synchronous=kind.split()[-1])
    else:
        ledger = tool.ledger.PostgresLedger(where, now=tool.ledger.wall_now, table=table)
    prefix = uuid.uuid4().hex[:8]
    return tool.keyed(tool.calling_api(work), tool.recorded_in(ledger), key_from=lambda order: f"{prefix}-{order}")


def _worker(kind: str, where: str, table: str, calls: int, start: Any, out: Any) -> None:
    call = make_call(kind, where, table)
    call(-1)  # connect, warm up
    start.wait()
    t0 = time.perf_counter()
    for i in range(calls):
        result = call(i)
        assert isinstance(result, tool.Ok), result
    out.put(time.perf_counter() - t0)


def measure(kind: str, where: str, processes: int) -> float:
    table = "bench_" + uuid.uuid4().hex[:8]
    if kind.startswith(("sqlite", "postgres")):
        make_call(kind, where, table)  # create the table once
    calls = CALLS if kind.startswith(("sqlite", "postgres")) else CALLS * 50
    start, out = fork.Barrier(processes), fork.Queue()
    workers = [fork.Process(target=_worker, args=(kind, where, table, calls, start, out)) for _ in range(processes)]
    for w in workers:
        w.start()
    times = [out.get(timeout=600) for _ in workers]
    for w in workers:
        w.join()
    return calls * processes / max(times)


# ---------------------------------------------------------------- against the hand-written peer

ROUNDS = 5


def _ledger(kind: str, where: str, table: str) -> Any:
    if kind.startswith("sqlite"):
        return tool.ledger.SQLiteLedger(where, now=tool.ledger.wall_now, table=table, synchronous=kind.split()[-1])
    return tool.ledger.PostgresLedger(where, now=tool.ledger.wall_now, table=table)


def _raw(kind: str, where: str) -> Any:
    """The hand-written peer's connection, with the ledger's own settings; a function running one statement."""
    if kind.startswith("sqlite"):
        import sqlite3

        conn = sqlite3.connect(where, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {kind.split()[-1]}")

        def run(sql: str, params: tuple[Any, ...], write: bool) -> Any:
            if not write:
                return conn.execute(sql, params).fetchall()
            conn.execute("BEGIN IMMEDIATE")
            cursor = conn.execute(sql, params)
            conn.execute("COMMIT")
            return cursor.rowcount

        return run
    import psycopg  # type: ignore[import-not-found, unused-ignore]

    pg = psycopg.connect(where, autocommit=True)

    def run_pg(sql: str, params: tuple[Any, ...], write: bool) -> Any:
        cursor = pg.execute(sql.replace("?", "%s"), params)
        return cursor.fetchall() if not write else cursor.rowcount

    return run_pg


def compare(kind: str, where: str) -> dict[str, float]:
    """Calls per second of: first keyed call, hand-written INSERT ... ON CONFLICT, replay, plain SELECT."""
    table = "cmp_" + uuid.uuid4().hex[:8]
    ledger = _ledger(kind, where, table)
    run = _raw(kind, where)
    keyed = tool.keyed(tool.calling_api(work), tool.recorded_in(ledger), key_from=lambda order: f"k-{order}")
    per_round = max(20, CALLS // ROUNDS)
    rates: dict[str, list[float]] = {"first": [], "baseline": [], "replay": [], "select": []}
    t = table
    insert = (f"INSERT INTO {t} (key, fingerprint, state, owner, lease_until, expires_at, outcome) "
              "VALUES (?, ?, 'in_progress', ?, ?, ?, NULL) ON CONFLICT (key) DO NOTHING")
    update = f"UPDATE {t} SET state = 'done', owner = NULL, outcome = ?, expires_at = ? WHERE key = ?"
    select = f"SELECT outcome FROM {t} WHERE key = ?"
    keyed(-1)
    run(select, ("k--1",), False)
    for r in range(ROUNDS):
        base = r * per_round
        t0 = time.perf_counter()
        for i in range(base, base + per_round):
            assert isinstance(keyed(i), tool.Ok)
        rates["first"].append(per_round / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for i in range(base, base + per_round):
            now = tool.ledger.wall_now()
            if run(insert, (f"b-{i}", "fp", "me", now + 30_000, now + 86_430_000), True) == 1:
                run(update, (str(work(i)), now + 86_400_000, f"b-{i}"), True)
        rates["baseline"].append(per_round / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for i in range(base, base + per_round):
            assert keyed(i) == tool.Ok(i)
        rates["replay"].append(per_round / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for i in range(base, base + per_round):
            assert run(select, (f"k-{i}",), False)  # the rows the replay reads
        rates["select"].append(per_round / (time.perf_counter() - t0))
    return {name: sorted(values)[len(values) // 2] for name, values in rates.items()}


def pg_dsn() -> str | None:
    dsn = os.environ.get("SMULLYAN_PG_DSN")
    if dsn:
        return dsn
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(["bash", str(root / ".ci" / "postgres")], capture_output=True, text=True)
    return proc.stdout.strip() or None


def main() -> None:
    tmp = tempfile.mkdtemp()
    dsn = pg_dsn()
    rows = [("plain call", ""), ("keyed, no ledger", ""),
            ("sqlite FULL", f"{tmp}/full.db"), ("sqlite NORMAL", f"{tmp}/normal.db")]
    if dsn:
        rows.append(("postgres", dsn))
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{CALLS} keyed calls per process")
    print(f"{'':18} {'1 process':>14} {'8 processes':>14}")
    for kind, where in rows:
        one = measure(kind, where, 1)
        eight = measure(kind, where, 8)
        print(f"{kind:18} {one:>12,.0f}/s {eight:>12,.0f}/s")
        sys.stdout.flush()
    print()
    print(f"one process, median of {ROUNDS} interleaved rounds, {max(20, CALLS // ROUNDS)} calls each")
    print(f"{'':15} {'first call':>12} {'INSERT..ON CONFLICT':>20} {'ratio':>6}   "
          f"{'replay':>10} {'plain SELECT':>13} {'ratio':>6}")
    for kind, where in rows[2:]:
        got = compare(kind, where)
        print(f"{kind:15} {got['first']:>10,.0f}/s {got['baseline']:>18,.0f}/s {got['baseline'] / got['first']:>5.2f}x"
              f"   {got['replay']:>8,.0f}/s {got['select']:>11,.0f}/s {got['select'] / got['replay']:>5.2f}x")
        sys.stdout.flush()
    print("(ratio: how many times slower than the peer; targets 1.5x for a first call, 2x for a replay)")
    if not dsn:
        print("postgres: skipped (no server: run `bash .ci/postgres` or set SMULLYAN_PG_DSN)")


if __name__ == "__main__":
    main()
