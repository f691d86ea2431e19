"""Fault injection: a keyed pipeline over an API that acts and then fails, with workers killed at random.

Per ledger (SQLite, PostgreSQL): 200 keys, 4 worker processes racing over
all of them (each in its own seeded order), the API (tests/http_faults.py)
failing in every way of docs/runtime.md's table by a seeded plan (reset or
closed after the body, 500/502/503/504, a read timeout, 503 with
Retry-After, 429), workers killed with SIGKILL at seeded moments and replaced
(their leases expire: 3 s), then one sweep that finishes what is left.

The API's lookup is right in the sense of docs/runtime.md's guarantee
(condition 1), as a real idempotency-aware service is: a request it has read
but not settled answers 409 "in progress" (the lookup's "cannot tell": the key
stays abandoned and the retry asks again), and a request whose client has
already given up (closed after its 0.15 s timeout; under load the server may
read it only then) is not acted on, decided atomically with the charge. Without
that, a lookup racing a request still in flight *at the server* honestly says
"not found" and the retry charges again: the documented exception, not a
runtime defect.

With a reconcile lookup, every key's effect happens exactly once. Without
one, every key's effect happens at least once, and every extra effect is
announced to the observers (``TakenOver(reconciling=False)`` before the rerun,
or ``LeaseLost``), the documented cases.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from http_faults import FaultyAPI
from ledger_support import append_effect, effects

from smullyan import runtime as tool

fork = multiprocessing.get_context("fork")
KEYS = 200
PROCESSES = 4
KILLS = 3
# Longer than any pause of a live worker (docs/runtime.md's condition 2: a worker descheduled longer
# than its lease loses its key, another may act, and the late one acts too, reported as LeaseLost).
# 800 ms was not: on a loaded 2-core CI machine (xdist, four forked workers, PostgreSQL) one worker's
# POST reached the API 1.7 s after it was sent, its lease had run out and a second charge followed.
LEASE = tool.seconds(3)
PLAN = {"reset-after": 0.07, "close-after": 0.05, "500": 0.05, "502": 0.04, "503": 0.04, "504": 0.04,
        "slow-after": 0.03, "503-retry-before": 0.05, "429-before": 0.05}


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Any]:
    if request.param == "postgres":
        return "postgres", request.getfixturevalue("pg_dsn")
    return "sqlite", str(tmp_path / "ledger.db")


def _pipeline(backend: str, where: str, table: str, url: str, lookup: bool, log: str, attempts: int) -> Any:
    import requests

    if backend == "sqlite":
        ledger: Any = tool.ledger.SQLiteLedger(where, now=tool.ledger.wall_now, table=table, lease=LEASE, synchronous="NORMAL")
    else:
        ledger = tool.ledger.PostgresLedger(where, now=tool.ledger.wall_now, table=table, lease=LEASE)
    session = requests.Session()

    def note(what: str, key: str, detail: object = "") -> None:
        append_effect(log, f"{os.getpid()} {what} {key} {detail} {time.time():.3f}")

    @tool.non_idempotent_write
    def charge(key: str) -> Any:
        note("posting", key)
        try:
            r = session.post(f"{url}/planned/charge", headers=tool.idempotency_headers(tool.current_key()), timeout=0.15)
        except Exception as exc:
            note("posted", key, type(exc).__name__)
            raise
        note("posted", key, r.status_code)
        r.raise_for_status()
        return r.json()["id"]

    def find(key: str) -> tool.Result[str]:
        r = session.get(f"{url}/charges/{key}", timeout=2)
        note("looked-up", key, r.status_code)
        if r.status_code == 409:  # the API is still settling a request with this key: it cannot tell yet
            return tool.Err(tool.unavailable("a charge with this key is in progress", 409))
        return tool.Ok(r.json()["id"]) if r.status_code == 200 else tool.Err(tool.not_found(key))

    def observe(event: object) -> None:
        if isinstance(event, (tool.events.TakenOver, tool.events.LeaseLost, tool.events.Reconciled)):
            note(type(event).__name__, event.key, getattr(event, "reconciling", "-"))

    clauses: list[Any] = [tool.recorded_in(ledger), tool.observing(observe)]
    if lookup:
        clauses.append(tool.reconciling_with(find))
    return tool.pipe(
        tool.keyed(tool.calling_api(charge), *clauses, key_from=lambda key: key),
        tool.system_clock().retrying(tool.while_transient, tool.up_to(attempts).attempts,
                                     tool.backing_off(tool.constant(tool.millis(5)))),
    )


def _worker(backend: str, where: str, table: str, url: str, lookup: bool, log: str, keys: list[str], seed: int) -> None:
    pay = _pipeline(backend, where, table, url, lookup, log, attempts=6)
    order = keys[:]
    random.Random(seed).shuffle(order)
    for key in order:
        pay(key)


def story(key: str, api: FaultyAPI, events: list[list[str]]) -> str:
    """What the server and the workers saw of ``key``, in time order (a failure's explanation)."""
    lines = api.story(key) + [f"{e[-1]} worker {e[0]} {' '.join(e[1:2] + e[3:-1])}" for e in events if e[2] == key]
    return f"{key} charged {len(api.charges.get(key, ()))} times:\n  " + "\n  ".join(sorted(lines))


@pytest.mark.parametrize("lookup", [True, False], ids=["with-lookup", "without-lookup"])
def test_faults_kills_and_expiring_leases(backend: tuple[str, Any], tmp_path: Path, lookup: bool) -> None:
    name, where = backend
    table = "faults_" + uuid.uuid4().hex[:8]
    log = str(tmp_path / "events")
    keys = [f"k{i:03d}-{uuid.uuid4().hex[:6]}" for i in range(KEYS)]
    rng = random.Random(20 + lookup)
    with FaultyAPI(plan=PLAN, seed=rng.randrange(1 << 30), slow_s=0.3, honest=True) as api:
        _pipeline(name, where, table, api.url, lookup, log, 1)  # create the table before the race

        def start(seed: int) -> Any:
            p = fork.Process(target=_worker, args=(name, where, table, api.url, lookup, log, keys, seed))
            p.start()
            return p

        workers = [start(seed) for seed in range(PROCESSES)]
        killed = 0
        for k in range(KILLS):  # kill -9 a random worker at a random moment, and start another
            time.sleep(rng.uniform(0.2, 1.2))
            victim = rng.randrange(len(workers))
            if workers[victim].is_alive():
                os.kill(workers[victim].pid, signal.SIGKILL)
                workers[victim].join(10)
                killed += 1
            workers[victim] = start(100 + k)
        for w in workers:
            w.join(120)
            assert w.exitcode in (0, -signal.SIGKILL)
        assert killed >= 1
        api.plan = None  # the sweep: the API works again, and every key is finished
        sweep = _pipeline(name, where, table, api.url, lookup, log, attempts=40)
        for key in keys:
            result = sweep(key)
            for _ in range(20):
                if isinstance(result, tool.Ok):
                    break
                time.sleep(LEASE.ms / 1000)  # a dead worker's lease has to run out
                result = sweep(key)
            assert isinstance(result, tool.Ok), (key, result)
            assert result.value in api.charges[key]
        counts = {key: len(api.charges.get(key, ())) for key in keys}

    assert all(n >= 1 for n in counts.values())  # none is lost
    events = [line.split() for line in effects(log)]
    assert any(e[1] == "Reconciled" for e in events) == lookup
    lost: Counter[str] = Counter(e[2] for e in events if e[1] == "LeaseLost")
    if lookup:
        # exactly once, but for docs/runtime.md's condition 2: a worker paused longer than its lease (s49's CI saw a
        # 4.6 s pause between a worker's "posting" and its request, on Python 3.10 under xdist) loses its key, another
        # acts, the late one acts too, and the late one is told (LeaseLost); no other duplicate, and only a rare one
        twice = [k for k, n in counts.items() if n != 1 and n - 1 > lost[k]]
        assert not twice, "\n".join(story(key, api, events) for key in twice)
        assert sum(1 for k, n in counts.items() if n != 1) <= 2, [k for k, n in counts.items() if n != 1]
        return
    announced: Counter[str] = Counter(e[2] for e in events if e[1] == "LeaseLost" or e[1:4:2] == ["TakenOver", "False"])
    for key, n in counts.items():
        assert n - 1 <= announced[key], (key, n, announced[key])  # every duplicate was reported
    assert sum(counts.values()) > KEYS  # the faults did cause reruns without a lookup


@pytest.mark.parametrize("honest", [False, True], ids=["lookup-blind-to-in-flight", "lookup-honest"])
def test_a_request_the_server_settles_only_after_the_lookup(tmp_path: Path, honest: bool) -> None:
    """The mechanism of a duplicate under load, made deterministic: the server reads the POST but gets
    to its charge only after the client timed out and looked the key up (``late-after`` waits for that
    lookup, not for time). A lookup blind to requests in flight says "not found" and the retry charges
    again: docs/runtime.md's condition 1 broken by the lookup, not by the runtime. An honest API answers
    409 "in progress" (the key stays abandoned, the retry asks again) and does not act on the request
    of a client that has gone: exactly one charge."""
    import requests

    ledger = tool.ledger.SQLiteLedger(tmp_path / "l.db", now=tool.ledger.wall_now, lease=tool.seconds(30))
    modes = ["late-after"]
    answers: list[int] = []
    with FaultyAPI(honest=honest) as api:
        session = requests.Session()

        @tool.non_idempotent_write
        def charge(key: str) -> Any:
            mode = modes.pop(0) if modes else "ok"
            # s46: only the late request has to time out (its wait is the lookup, not time); the others must not, or
            # a loaded machine turns the "ok" charge into a timeout and the last lookup finds it (answers[-1] == 200)
            r = session.post(f"{api.url}/{mode}/charge", headers=tool.idempotency_headers(key),
                             timeout=0.15 if mode == "late-after" else 10)
            r.raise_for_status()
            return r.json()["id"]

        def find(key: str) -> tool.Result[str]:
            r = session.get(f"{api.url}/charges/{key}", timeout=5)
            answers.append(r.status_code)
            if r.status_code == 409:
                return tool.Err(tool.unavailable("a charge with this key is in progress", 409))
            return tool.Ok(r.json()["id"]) if r.status_code == 200 else tool.Err(tool.not_found(key))

        pay = tool.pipe(
            tool.keyed(tool.calling_api(charge), tool.recorded_in(ledger), tool.reconciling_with(find),
                       key_from=lambda key: key),
            tool.system_clock().retrying(tool.while_transient, tool.up_to(200).attempts,
                                         tool.backing_off(tool.constant(tool.millis(5)))),
        )
        result = pay("late")
        for _ in range(100):  # the late handler settles (charges or drops) on its own thread
            with api.lock:
                if not api.pending.get("late"):
                    break
            time.sleep(0.05)
        charges = list(api.charges.get("late", ()))
    assert isinstance(result, tool.Ok) and result.value in charges
    assert answers[0] == (409 if honest else 404)
    if honest:
        assert charges == ["ch_late_1"] and answers[-1] == 404  # dropped, then charged once by the retry
    else:
        assert len(charges) == 2  # the documented duplicate: the lookup could not see the request in flight
