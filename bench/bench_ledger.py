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
    if not dsn:
        print("postgres: skipped (no server: run `bash .ci/postgres` or set SMULLYAN_PG_DSN)")


if __name__ == "__main__":
    main()
