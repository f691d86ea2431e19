"""The ledger across processes: racing workers, a worker killed mid-effect, random interleavings.

Real processes (fork), a real SQLite file and a real PostgreSQL server; the
effect is an O_APPEND line in a file, so duplicates are counted, not assumed.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from ledger_support import WallClock, append_effect, effects

from smullyan import runtime as tool

fork = multiprocessing.get_context("fork")
PROCESSES = 4
KEYS = 24


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Any]:
    if request.param == "postgres":
        return "postgres", request.getfixturevalue("pg_dsn")
    return "sqlite", str(tmp_path / "ledger.db")


def _open(backend: str, where: str, table: str, now: Any, **options: Any) -> Any:
    if backend == "sqlite":
        return tool.ledger.SQLiteLedger(where, now=now, table=table, **options)
    return tool.ledger.PostgresLedger(where, now=now, table=table, **options)


def _racer(backend: str, where: str, table: str, out: str, keys: list[str], seed: int, start: Any) -> None:
    ledger = _open(backend, where, table, tool.ledger.wall_now)
    effect_file = out + ".effects"

    def charge(key: str) -> str:
        append_effect(effect_file, key)
        time.sleep(0.003)  # hold the key a little, so others find it in progress
        return f"{key}@{os.getpid()}"

    in_progress = tool.retrying_when(lambda e: isinstance(e, tool.Unavailable))
    pay = tool.pipe(
        tool.keyed(tool.calling_api(charge), tool.recorded_in(ledger), key_from=lambda key: key),
        tool.system_clock().retrying(in_progress, tool.up_to(5000).attempts,
                                     tool.backing_off(tool.constant(tool.millis(1)))),
    )
    order = keys[:]
    random.Random(seed).shuffle(order)
    start.wait()
    results = {}
    for key in order:
        result = pay(key)
        assert isinstance(result, tool.Ok), result
        results[key] = result.value
    Path(f"{out}.{seed}").write_text(json.dumps(results))


def test_processes_racing_the_same_keys_run_each_effect_exactly_once(backend: tuple[str, Any], tmp_path: Path) -> None:
    name, where = backend
    table = "race_" + os.urandom(4).hex()
    _open(name, where, table, tool.ledger.wall_now)  # create the table before the race
    out = str(tmp_path / "out")
    keys = [f"order-{i}" for i in range(KEYS)]
    start = fork.Barrier(PROCESSES)
    workers = [fork.Process(target=_racer, args=(name, where, table, out, keys, seed, start)) for seed in range(PROCESSES)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    counts = Counter(effects(out + ".effects"))
    assert counts == {key: 1 for key in keys}
    answers = [json.loads(Path(f"{out}.{seed}").read_text()) for seed in range(PROCESSES)]
    for key in keys:
        assert len({a[key] for a in answers}) == 1  # every worker got the one result


def _doomed(backend: str, where: str, table: str, effect_file: str, marker: str, effect_first: bool) -> None:
    ledger = _open(backend, where, table, tool.ledger.wall_now, lease=tool.seconds(60))

    def charge(order: str) -> str:
        if effect_first:
            append_effect(effect_file, order)
        Path(marker).write_text("inside the effect")
        time.sleep(120)  # killed here
        return "never"

    tool.keyed(tool.calling_api(charge), tool.recorded_in(ledger), key_from=lambda order: order)("order-1")


@pytest.mark.parametrize("effect_first", [True, False], ids=["killed-after-effect", "killed-before-effect"])
def test_a_worker_killed_mid_effect_is_recovered_after_its_lease_by_reconciling(
    backend: tuple[str, Any], tmp_path: Path, effect_first: bool
) -> None:
    name, where = backend
    table = "kill_" + os.urandom(4).hex()
    effect_file, marker = str(tmp_path / "effects"), str(tmp_path / "marker")
    child = fork.Process(target=_doomed, args=(name, where, table, effect_file, marker, effect_first))
    child.start()
    for _ in range(600):
        if Path(marker).exists() or not child.is_alive():
            break
        time.sleep(0.05)
    assert Path(marker).exists()
    os.kill(child.pid, signal.SIGKILL)  # type: ignore[arg-type]
    child.join(30)
    assert child.exitcode == -signal.SIGKILL

    def charge(order: str) -> str:
        append_effect(effect_file, order)
        return f"charged {order}"

    def find(key: str) -> tool.Result[str]:
        if key in effects(effect_file):
            return tool.Ok(f"charged {key}")
        return tool.Err(tool.not_found(key))

    def worker(now: Any) -> tuple[tool.Result[str], list[object]]:
        events: list[object] = []
        ledger = _open(name, where, table, now, lease=tool.seconds(60))
        call = tool.keyed(tool.calling_api(charge), tool.recorded_in(ledger), tool.reconciling_with(find),
                          tool.observing(events.append), key_from=lambda order: order)
        return call("order-1"), events

    early, _ = worker(tool.ledger.wall_now)  # the dead worker's lease still runs
    assert isinstance(early, tool.Err) and isinstance(early.error, tool.Unavailable)
    assert early.error.reason == "in progress: another worker holds idempotency key 'order-1'"
    assert early.error.retry_after_ms is not None and 0 < early.error.retry_after_ms <= 60_000  # the lease's end
    result, events = worker(lambda: tool.ledger.wall_now() + 61_000)  # after the lease
    assert result == tool.Ok("charged order-1")
    assert effects(effect_file) == ["order-1"]
    assert events == [tool.events.TakenOver("order-1", reconciling=True), tool.events.Reconciled("order-1", effect_first)]
    again, events = worker(lambda: tool.ledger.wall_now() + 61_000)
    assert again == result and events == [tool.events.Replayed("order-1")]


# ---------------------------------------------------------------- random interleavings

BEHAVIOURS = ["ok", "effect-then-timeout", "timeout", "unavailable", "invalid", "effect-then-unknown",
              "effect-then-crash", "crash",
              # issue 20: ambiguous statuses, proof that nothing ran, results the ledger cannot store,
              # the ledger failing after the effect (briefly, and for longer than the retries), a purge
              "effect-then-500", "effect-then-503", "503-retry-after", "rate-limited", "effect-then-unstorable",
              "effect-then-ledger-down", "effect-then-ledger-down-long", "effect-then-purge"]


class Crash(BaseException):
    """A worker dying in the middle of its call (nothing after it runs in that worker)."""


class FlakyLedger:
    """A ledger whose next ``down`` operations fail, as a dropped connection does."""

    def __init__(self, ledger: Any) -> None:
        self.ledger = ledger
        self.down = 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.ledger, name)
        if name not in ("begin", "finish", "fail", "release", "abandon", "extend", "purge"):
            return method

        def flaky(*args: Any) -> Any:
            if self.down > 0:
                self.down -= 1
                raise OSError("the ledger's connection was lost")
            return method(*args)

        return flaky


class KeyedCalls(RuleBasedStateMachine):
    """Workers call keyed writes on a few keys; calls time out, fail, crash, overlap; leases expire.

    With a ledger and a reconcile lookup, no key's effect may run twice, and
    every Ok for a key is that one effect's result. Nested keyed calls each
    get a key of their own and act once.
    """

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.now = WallClock()
        self.sqlite = tool.ledger.SQLiteLedger(Path(self.dir.name) / "l.db", now=self.now, lease=tool.seconds(5),
                                        ttl=tool.minutes(600), purge_every=0, synchronous="NORMAL")
        self.ledger = FlakyLedger(self.sqlite)
        self.world: dict[str, list[str]] = {}  # key -> effects that ran
        self.returned: dict[str, set[str]] = {}
        self.inner_keys: list[str] = []
        self.serial = 0

    def teardown(self) -> None:
        self.sqlite.close()
        self.dir.cleanup()

    def lookup(self, key: str) -> tool.Result[str]:
        done = self.world.get(key)
        return tool.Ok(done[0]) if done else tool.Err(tool.not_found(key))

    def effect(self, key: str) -> str:
        self.serial += 1
        value = f"{key}#{self.serial}"
        self.world.setdefault(key, []).append(value)
        return value

    def make_call(self, key: str, plan: list[str], overlap: bool) -> Any:
        def write(k: str) -> tool.Result[str]:
            if overlap and len(plan) == plan_length:
                # a second worker calls the same key while this one holds it
                other = self.make_call(k, ["ok"], False)(k)
                assert isinstance(other, tool.Err) and isinstance(other.error, tool.Unavailable)
            step = plan.pop(0) if plan else "ok"
            if step in ("timeout", "crash", "unavailable", "invalid", "503-retry-after", "rate-limited"):
                if step == "crash":
                    raise Crash()
                return tool.Err({"timeout": tool.timeout(100), "unavailable": tool.unavailable("refused"),
                                 "invalid": tool.invalid_args("x", "y", 1), "rate-limited": tool.rate_limited(0),
                                 "503-retry-after": tool.Unavailable("HTTP 503", 503, 0)}[step])
            value = self.effect(k)
            if step == "effect-then-timeout":
                return tool.Err(tool.timeout(100))
            if step == "effect-then-unknown":
                return tool.Err(tool.unknown("connection reset after the request was sent"))
            if step == "effect-then-500":
                return tool.Err(tool.Unavailable("HTTP 500", 500))
            if step == "effect-then-503":
                return tool.Err(tool.Unavailable("HTTP 503", 503))
            if step == "effect-then-crash":
                raise Crash()
            if step == "effect-then-unstorable":
                return tool.Ok(object())  # type: ignore[arg-type]  # not JSON: recorded as a failure
            if step == "effect-then-ledger-down":
                self.ledger.down = 2  # finish fails twice, then the failure is recorded
            if step == "effect-then-ledger-down-long":
                self.ledger.down = 12  # nothing reaches the ledger for the rest of this call
            if step == "effect-then-purge":
                self.ledger.purge()  # another worker purges while this one holds the key
            return tool.Ok(value)

        plan_length = len(plan)
        return tool.pipe(
            tool.keyed(write, tool.recorded_in(self.ledger), tool.reconciling_with(self.lookup),
                       key_from=lambda k: k),
            tool.with_clock(lambda ms: None).retrying(
                tool.retrying_when(lambda e: not isinstance(e, tool.InvalidArgs)), tool.up_to(3).attempts),
        )

    @rule(key=st.sampled_from(["a", "b", "c"]), plan=st.lists(st.sampled_from(BEHAVIOURS), min_size=1, max_size=3),
          overlap=st.booleans())
    def call(self, key: str, plan: list[str], overlap: bool) -> None:
        try:
            result = self.make_call(key, plan, overlap)(key)
        except Crash:
            return
        finally:
            self.ledger.down = 0
        if isinstance(result, tool.Ok):
            self.returned.setdefault(key, set()).add(result.value)

    @rule(key=st.sampled_from(["n1", "n2"]), inner=st.integers(1, 3), fail_first=st.booleans())
    def nested_call(self, key: str, inner: int, fail_first: bool) -> None:
        """A keyed write whose body makes ``inner`` keyed calls of its own (random keys), retried."""
        attempts: list[int] = []

        def inner_write(n: int) -> tool.Result[str]:
            k = tool.current_key()
            self.inner_keys.append(k)
            return tool.Ok(self.effect(k))

        inner_tool = tool.pipe(tool.keyed(inner_write, tool.recorded_in(self.ledger)),
                               tool.with_clock(lambda ms: None).retrying(tool.up_to(2).attempts))

        def outer(k: str) -> tool.Result[str]:
            attempts.append(1)
            done = [inner_tool(i) for i in range(inner)]
            assert all(isinstance(d, tool.Ok) for d in done), done
            if fail_first and len(attempts) == 1:
                return tool.Err(tool.unavailable("refused"))
            return tool.Ok(self.effect(k))

        result = tool.pipe(tool.keyed(outer, tool.recorded_in(self.ledger), tool.reconciling_with(self.lookup),
                                      key_from=lambda k: k),
                           tool.with_clock(lambda ms: None).retrying(tool.up_to(2).attempts))(key)
        if isinstance(result, tool.Ok):
            self.returned.setdefault(key, set()).add(result.value)

    @rule(ms=st.sampled_from([1, 1_000, 5_000, 60_000]))
    def time_passes(self, ms: int) -> None:
        self.now.ms += ms  # expires leases of crashed workers (live calls end inside their rule)

    @rule()
    def purge(self) -> None:
        self.ledger.purge()

    @invariant()
    def no_effect_twice_and_every_ok_is_the_effect(self) -> None:
        for key, ran in self.world.items():
            assert len(ran) <= 1, (key, ran)
        for key, values in self.returned.items():
            assert values == {self.world[key][0]}
        assert len(self.inner_keys) == len(set(self.inner_keys))  # every nested logical call: its own key


TestKeyedCalls = KeyedCalls.TestCase
TestKeyedCalls.settings = settings(max_examples=60, stateful_step_count=25, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow])
