"""The ledger contract, run against both backends: SQLite (always) and PostgreSQL (a real server)."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_support import WallClock, make_ledger

from smullyan import runtime as tool

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path):  # type: ignore[no-untyped-def]
    if request.param == "postgres":
        return "postgres", request.getfixturevalue("pg_dsn")
    return "sqlite", tmp_path


@pytest.fixture
def clock() -> WallClock:
    return WallClock()


@pytest.fixture
def ledger(backend, clock):  # type: ignore[no-untyped-def]
    name, where = backend
    return make_ledger(name, where, clock, lease=tool.seconds(10), ttl=tool.minutes(60), purge_every=0)


def test_first_begin_starts_others_wait_then_see_the_result(ledger, clock) -> None:  # type: ignore[no-untyped-def]
    assert ledger.begin("k", "fp", "a") == tool.ledger.Started(takeover=False)
    assert ledger.begin("k", "fp", "b") == tool.ledger.InProgress(lease_until=clock.ms + 10_000)
    assert ledger.state_of("k") == "in_progress"
    assert ledger.finish("k", "a", {"charge": "ch_1", "cents": [5, 0]})
    for owner in ("a", "b", "c"):
        assert ledger.begin("k", "fp", owner) == tool.ledger.Done({"charge": "ch_1", "cents": [5, 0]})
    assert ledger.state_of("k") == "done"
    assert ledger.state_of("nothing") is None


def test_a_key_used_with_other_arguments_is_a_mismatch(ledger) -> None:  # type: ignore[no-untyped-def]
    ledger.begin("k", "fp1", "a")
    assert ledger.begin("k", "fp2", "b") == tool.ledger.Mismatch("fp1")
    ledger.finish("k", "a", 1)
    assert ledger.begin("k", "fp2", "b") == tool.ledger.Mismatch("fp1")


def test_failures_are_stored_in_the_wire_format(ledger) -> None:  # type: ignore[no-untyped-def]
    ledger.begin("k", "fp", "a")
    error = tool.InvalidArgs("card", "a live card", {"last4": "4242"})
    assert ledger.fail("k", "a", error)
    assert ledger.begin("k", "fp", "b") == tool.ledger.FailedEarlier(error)


def test_an_expired_lease_is_taken_over_and_the_old_owner_is_fenced(ledger, clock) -> None:  # type: ignore[no-untyped-def]
    ledger.begin("k", "fp", "a")
    clock.ms += 9_999
    assert isinstance(ledger.begin("k", "fp", "b"), tool.ledger.InProgress)
    clock.ms += 1
    assert ledger.begin("k", "fp", "b") == tool.ledger.Started(takeover=True)
    assert not ledger.finish("k", "a", "late")  # a lost its lease: its write is refused
    assert not ledger.fail("k", "a", tool.Timeout(1))
    assert not ledger.extend("k", "a")
    assert ledger.finish("k", "b", "b's")
    assert ledger.begin("k", "fp", "a") == tool.ledger.Done("b's")


def test_the_same_owner_may_begin_again_as_a_takeover(ledger) -> None:  # type: ignore[no-untyped-def]
    ledger.begin("k", "fp", "a")
    assert ledger.begin("k", "fp", "a") == tool.ledger.Started(takeover=True)


def test_release_forgets_and_abandon_hands_over_at_once(ledger) -> None:  # type: ignore[no-untyped-def]
    ledger.begin("k", "fp", "a")
    assert ledger.release("k", "a")
    assert ledger.state_of("k") is None
    assert ledger.begin("k", "fp", "b") == tool.ledger.Started(takeover=False)
    assert ledger.abandon("k", "b")
    assert ledger.begin("k", "fp", "c") == tool.ledger.Started(takeover=True)
    assert not ledger.release("k", "b")


def test_extend_is_a_heartbeat(ledger, clock) -> None:  # type: ignore[no-untyped-def]
    ledger.begin("k", "fp", "a")
    clock.ms += 8_000
    assert ledger.extend("k", "a")
    clock.ms += 8_000  # 16 s after begin, 8 s after the heartbeat
    assert isinstance(ledger.begin("k", "fp", "b"), tool.ledger.InProgress)


def test_done_records_expire_after_the_ttl_and_are_purged(ledger, clock) -> None:  # type: ignore[no-untyped-def]
    for i in range(5):
        ledger.begin(f"k{i}", "fp", "a")
        ledger.finish(f"k{i}", "a", i)
    ledger.begin("busy", "fp", "a")
    clock.ms += 60 * 60_000 - 1
    assert ledger.purge() == 0
    assert ledger.begin("k0", "fp", "b") == tool.ledger.Done(0)
    clock.ms += 1
    assert ledger.begin("k0", "other-fp", "b") == tool.ledger.Started(takeover=False)  # forgotten: a new call
    assert ledger.purge(limit=2) == 2
    assert ledger.purge() == 2
    assert ledger.state_of("busy") == "in_progress"  # its lease ended, but not ttl after
    clock.ms += 10_000
    assert ledger.purge() == 1


def test_purge_runs_on_its_own_every_n_begins(backend, clock) -> None:  # type: ignore[no-untyped-def]
    name, where = backend
    ledger = make_ledger(name, where, clock, ttl=tool.seconds(1), purge_every=3)
    ledger.begin("old", "fp", "a")
    ledger.finish("old", "a", 1)
    clock.ms += 1_000
    ledger.begin("x", "fp", "a")
    assert ledger.state_of("old") == "done"
    ledger.begin("y", "fp", "a")  # the third begin purges
    assert ledger.state_of("old") is None


def test_results_must_be_json_or_have_a_codec(backend, clock) -> None:  # type: ignore[no-untyped-def]
    name, where = backend
    ledger = make_ledger(name, where, clock)
    ledger.begin("k", "fp", "a")
    with pytest.raises(TypeError, match="not JSON-serialisable.*codec"):
        ledger.finish("k", "a", {1, 2})
    codec = tool.ledger.Codec(lambda v: ",".join(sorted(map(str, v))), lambda s: set(map(int, s.split(","))))
    sets = make_ledger(name, where, clock, codec=codec)
    sets.begin("k", "fp", "a")
    sets.finish("k", "a", {2, 1})
    assert sets.begin("k", "fp", "b") == tool.ledger.Done({1, 2})


def test_bad_configuration_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="now="):
        tool.ledger.SQLiteLedger(tmp_path / "x.db", now=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="lease="):
        tool.ledger.SQLiteLedger(tmp_path / "x.db", now=WallClock(), lease=30)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="table="):
        tool.ledger.SQLiteLedger(tmp_path / "x.db", now=WallClock(), table="x; drop")
    with pytest.raises(ValueError, match="file path"):
        tool.ledger.SQLiteLedger(":memory:", now=WallClock())


def test_a_keyed_call_replays_through_either_backend(ledger) -> None:  # type: ignore[no-untyped-def]
    calls = []

    def charge(card: str, cents: int) -> str:
        calls.append(card)
        return f"ch_{len(calls)}"

    pay = tool.keyed(tool.calling_api(charge), tool.recorded_in(ledger), key_from=lambda card, cents: f"order-1:{card}")
    assert pay("c1", 500) == tool.Ok("ch_1")
    assert pay("c1", 500) == tool.Ok("ch_1")
    assert calls == ["c1"]
    wrong = pay("c1", 999)
    assert isinstance(wrong, tool.Err) and isinstance(wrong.error, tool.InvalidArgs)
    assert "order-1:c1" in wrong.error.path


def test_importing_the_runtime_does_not_import_psycopg() -> None:
    import subprocess
    import sys

    code = "import sys, smullyan.runtime as r; r.ledger.SQLiteLedger; print('psycopg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_replay_takes_no_lock_while_a_new_key_waits_for_it(backend, clock) -> None:  # type: ignore[no-untyped-def]
    """Done, failed and in-progress-elsewhere keys answer while another session holds the write lock
    (SQLite's database lock, PostgreSQL's table lock that a row lock waits for); a new key waits for it."""
    name, where = backend
    if name == "sqlite":
        ledger = make_ledger(name, where, clock, purge_every=0, busy_timeout_ms=50)
        import sqlite3

        other: Any = sqlite3.connect(ledger.path, isolation_level=None)
        lock = "BEGIN IMMEDIATE"
    else:
        import psycopg  # type: ignore[import-not-found, unused-ignore]

        dsn = where + ("&" if "?" in where else "?") + "options=-c%20lock_timeout%3D200"
        ledger = make_ledger(name, dsn, clock, purge_every=0)
        other = psycopg.connect(where)
        lock = f"LOCK TABLE {ledger.table} IN EXCLUSIVE MODE"
    ledger.begin("done", "fp", "a")
    ledger.finish("done", "a", {"id": 7})
    ledger.begin("failed", "fp", "a")
    error = tool.Denied("card declined")
    ledger.fail("failed", "a", error)
    ledger.begin("busy", "fp", "a")
    try:
        other.execute(lock)
        assert ledger.begin("done", "fp", "b") == tool.ledger.Done({"id": 7})
        assert ledger.begin("failed", "fp", "b") == tool.ledger.FailedEarlier(error)
        assert ledger.begin("busy", "fp", "b") == tool.ledger.InProgress(clock.ms + tool.ledger.DEFAULT_LEASE.ms)
        with pytest.raises(Exception, match="lock|locked"):  # a new key is decided under the lock
            ledger.begin("new", "fp", "b")
    finally:
        other.rollback() if name == "postgres" else other.execute("ROLLBACK")
        other.close()
    assert ledger.begin("new", "fp", "b") == tool.ledger.Started(False)
