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
process, in interleaved rounds: a *first call*
(new key: ``begin`` + ``finish``) beside the hand-written idempotency table
a developer would write instead (``INSERT ... ON CONFLICT (key) DO NOTHING``
in one transaction, the ``UPDATE`` of the result in another, on the same
schema and connection settings), and a *replay* (a done key) beside a plain
``SELECT outcome ... WHERE key = ?`` on the same table. Targets: first call
within 1.5x of the baseline, replay within 2x of the plain SELECT (on SQLite, where 2x is
out of reach without dropping a check, a replay adds at most 20 us of CPU time to the
SELECT: the median of the rounds; see docs/runtime.md).

Each round makes ``CALLS / ROUNDS`` first calls and as many hand-written ones,
then ``BENCH_LEDGER_REPLAYS`` (2000) replays of the keys done so far and as many
SELECTs of them. The ratios are the median of the rounds' ratios (paired, so
the machine's load moves both sides of a pair alike); the third table gives
their range, the replay also in this process's CPU time (on SQLite all of the
work; on PostgreSQL not the server's), what a replay adds to the SELECT in
microseconds per call, and the *cold* replay apart: the first replay through a
ledger just opened on the file (its connection made, its statements
prepared), the median of 20. There is no in-process cache of done keys:
every replay, cold or warm, reads the database.
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

ROUNDS = int(os.environ.get("BENCH_LEDGER_ROUNDS", "5"))
REPLAYS = int(os.environ.get("BENCH_LEDGER_REPLAYS", "2000"))  # replays (and SELECTs) per round


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


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _spread(values: list[float]) -> tuple[float, float, float]:
    return _median(values), min(values), max(values)


def cold_replay_us(kind: str, where: str, table: str, keys: int) -> float:
    """The first replay through a ledger just opened on the file (a new connection), median of 20, in us."""
    times = []
    for n in range(20):
        ledger = _ledger(kind, where, table)
        keyed = tool.keyed(tool.calling_api(work), tool.recorded_in(ledger), key_from=lambda order: f"k-{order}")
        order = (n * 7) % keys
        t0 = time.perf_counter()
        result = keyed(order)
        times.append((time.perf_counter() - t0) * 1e6)
        assert result == tool.Ok(order), result
        close = getattr(ledger, "close", None)
        if callable(close):
            close()
    return _median(times)


def compare(kind: str, where: str) -> dict[str, Any]:
    """Calls per second of: first keyed call, hand-written INSERT ... ON CONFLICT, replay, plain SELECT;
    and per round, the ratios and what a replay adds to the SELECT (us), with their medians and ranges."""
    table = "cmp_" + uuid.uuid4().hex[:8]
    ledger = _ledger(kind, where, table)
    run = _raw(kind, where)
    keyed = tool.keyed(tool.calling_api(work), tool.recorded_in(ledger), key_from=lambda order: f"k-{order}")
    per_round = max(20, CALLS // ROUNDS)
    rates: dict[str, list[float]] = {"first": [], "baseline": [], "replay": [], "select": []}
    cpu: dict[str, list[float]] = {"replay": [], "select": []}  # this process's CPU time per call, us
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
        done = range(base + per_round)  # every key done so far, cycled through REPLAYS times
        t0, c0 = time.perf_counter(), time.process_time()
        for j in range(REPLAYS):
            i = done[j % len(done)]
            assert keyed(i) == tool.Ok(i)
        rates["replay"].append(REPLAYS / (time.perf_counter() - t0))
        cpu["replay"].append((time.process_time() - c0) / REPLAYS * 1e6)
        t0, c0 = time.perf_counter(), time.process_time()
        for j in range(REPLAYS):
            assert run(select, (f"k-{done[j % len(done)]}",), False)  # the rows the replay reads
        rates["select"].append(REPLAYS / (time.perf_counter() - t0))
        cpu["select"].append((time.process_time() - c0) / REPLAYS * 1e6)
    got: dict[str, Any] = {name: _median(values) for name, values in rates.items()}
    first_ratio = [b / f for f, b in zip(rates["first"], rates["baseline"])]
    replay_ratio = [s / r for r, s in zip(rates["replay"], rates["select"])]
    added = [1e6 / r - 1e6 / s for r, s in zip(rates["replay"], rates["select"])]
    cpu_ratio = [r / s for r, s in zip(cpu["replay"], cpu["select"])]
    cpu_added = [r - s for r, s in zip(cpu["replay"], cpu["select"])]
    got["first_ratio"] = _spread(first_ratio)
    got["replay_ratio"] = _spread(replay_ratio)
    got["added_us"] = _spread(added)
    got["cpu_ratio"] = _spread(cpu_ratio)
    got["cpu_added_us"] = _spread(cpu_added)
    got["select_us"] = 1e6 / got["select"]
    got["cpu_select_us"] = _median(cpu["select"])
    got["cold_us"] = cold_replay_us(kind, where, table, ROUNDS * per_round)
    return got


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
    details = []
    for kind, where in rows[2:]:
        got = compare(kind, where)
        details.append((kind, got))
        print(f"{kind:15} {got['first']:>10,.0f}/s {got['baseline']:>18,.0f}/s {got['first_ratio'][0]:>5.2f}x"
              f"   {got['replay']:>8,.0f}/s {got['select']:>11,.0f}/s {got['replay_ratio'][0]:>5.2f}x")
        sys.stdout.flush()
    print("(ratio: how many times slower than the peer, the median of the rounds' ratios; targets 1.5x for a")
    print(" first call, 2x for a replay; on SQLite a replay adds at most 20us of CPU to the SELECT, see below)")
    print()
    print(f"per round (median [min-max] of {ROUNDS}): the first call's ratio; a warm replay against the plain")
    print("SELECT, in wall time and in this process's CPU time (what the client does; on SQLite that is")
    print("all of the work, on PostgreSQL not the server's), and what it adds to the SELECT; a cold replay")
    print(f"{'':15} {'first call':>20} {'replay, wall':>20} {'adds (wall)':>22}"
          f" {'replay, CPU':>20} {'SELECT CPU':>10} {'adds (CPU)':>20} {'cold replay':>11}")

    def spread(v: tuple[float, float, float], unit: str, digits: int) -> str:
        return f"{v[0]:.{digits}f}{unit} [{v[1]:.{digits}f}-{v[2]:.{digits}f}]"

    for kind, got in details:
        print(f"{kind:15} {spread(got['first_ratio'], 'x', 2):>20} {spread(got['replay_ratio'], 'x', 2):>20}"
              f" {spread(got['added_us'], 'us', 1):>22} {spread(got['cpu_ratio'], 'x', 2):>20}"
              f" {got['cpu_select_us']:>8.1f}us {spread(got['cpu_added_us'], 'us', 1):>20} {got['cold_us']:>9.0f}us")
    if not dsn:
        print("postgres: skipped (no server: run `bash .ci/postgres` or set SMULLYAN_PG_DSN)")


if __name__ == "__main__":
    main()
