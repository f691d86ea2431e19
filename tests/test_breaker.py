"""The circuit breaker: opens on transient failures in a window, refuses at once, one half-open probe."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from ledger_support import WallClock

from smullyan import runtime as tool


class Service:
    def __init__(self) -> None:
        self.calls = 0
        self.failing: tool.ToolError | None = tool.unavailable("503", 503)

    def __call__(self, x: int) -> tool.Result[int]:
        self.calls += 1
        return tool.Err(self.failing) if self.failing is not None else tool.Ok(x)


def make(now: WallClock, events: list[Any] | None = None, n: int = 3) -> tool.types.CircuitBreaker:
    clauses = (tool.observing(events.append),) if events is not None else ()
    return tool.breaking_after(n).failures(within=tool.seconds(30)).for_(tool.seconds(60), *clauses, now=now)


def test_n_transient_failures_within_the_window_open_the_circuit() -> None:
    now, service, events = WallClock(), Service(), []
    breaker = make(now, events)
    call = tool.pipe(service, breaker)
    for _ in range(3):
        assert call(1) == tool.Err(tool.unavailable("503", 503))
    assert breaker.state == "open" and events == [tool.events.CircuitChanged("closed", "open", 3)]
    refused = call(1)
    assert isinstance(refused, tool.Err) and isinstance(refused.error, tool.Unavailable)
    assert refused.error.reason.startswith("circuit open") and "60000 ms" in refused.error.reason
    assert service.calls == 3  # the tool was not called


def test_failures_outside_the_window_and_non_transient_ones_do_not_count() -> None:
    now, service = WallClock(), Service()
    breaker = make(now)
    call = tool.pipe(service, breaker)
    call(1)
    call(1)
    now.ms += 30_000  # the first two leave the window
    call(1)
    call(1)
    assert breaker.state == "closed"
    service.failing = tool.invalid_args("x", "int", "s")
    for _ in range(5):
        call(1)
    assert breaker.state == "closed"


def test_after_the_cool_down_one_probe_closes_or_reopens() -> None:
    now, service, events = WallClock(), Service(), []
    breaker = make(now, events)
    call = tool.pipe(service, breaker)
    for _ in range(3):
        call(1)
    now.ms += 59_999
    call(1)
    assert service.calls == 3
    now.ms += 1
    assert isinstance(call(1), tool.Err) and service.calls == 4  # the probe failed: open again
    assert breaker.state == "open"
    now.ms += 59_999
    call(1)
    assert service.calls == 4
    now.ms += 1
    service.failing = None
    assert call(7) == tool.Ok(7)
    assert breaker.state == "closed"
    assert [(e.before, e.after) for e in events] == [
        ("closed", "open"), ("open", "half_open"), ("half_open", "open"), ("open", "half_open"), ("half_open", "closed"),
    ]
    assert call(8) == tool.Ok(8)


def test_terse_form_and_bad_configuration() -> None:
    now, events = WallClock(), []
    breaker = tool.terse.circuit_breaker(failures=1, within_ms=1000, cool_down_ms=500, now=now, on_event=events.append)
    call = tool.pipe(Service(), breaker)
    call(1)
    assert breaker.state == "open" and len(events) == 1
    with pytest.raises(tool.ConfigError, match="n >= 1"):
        tool.breaking_after(0)
    with pytest.raises(tool.ConfigError, match="Duration"):
        tool.breaking_after(2).failures(within=30)  # type: ignore[arg-type]
    with pytest.raises(tool.ConfigError, match="failures\\(within"):
        tool.breaking_after(2).for_(tool.seconds(1), now=now)
    with pytest.raises(tool.ConfigError, match="now="):
        tool.breaking_after(2).failures(within=tool.seconds(1)).for_(tool.seconds(1), now=3)  # type: ignore[arg-type]


def test_under_threads_only_one_probe_runs_and_an_open_circuit_calls_nothing() -> None:
    now = WallClock()
    breaker = make(now, n=5)
    lock = threading.Lock()
    state = {"calls": 0, "inside": 0, "most_inside": 0, "fail": True, "probes": 0}

    def slow(x: int) -> tool.Result[int]:
        with lock:
            state["calls"] += 1
            state["probes"] += breaker.state == "half_open"
            state["inside"] += 1
            state["most_inside"] = max(state["most_inside"], state["inside"])
        time.sleep(0.002)
        with lock:
            state["inside"] -= 1
        return tool.Err(tool.timeout(2)) if state["fail"] else tool.Ok(x)

    call = tool.pipe(slow, breaker)

    def hammer() -> None:
        for _ in range(50):
            call(1)

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert breaker.state == "open"
    assert 5 <= state["calls"] <= 5 + 8  # at most the calls already running when it opened
    before = state["calls"]
    now.ms += 60_000
    state["fail"] = False
    barrier = threading.Barrier(8)
    results: list[tool.Result[int]] = []

    def probe_race() -> None:
        barrier.wait()
        results.append(call(2))

    threads = [threading.Thread(target=probe_race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["calls"] - before >= 1 and state["probes"] == 1  # one call while half-open
    assert breaker.state == "closed"
    assert tool.Ok(2) in results


def test_under_asyncio_one_probe_while_the_others_are_refused() -> None:
    now, events = WallClock(), []
    breaker = make(now, events, n=2)
    calls = []

    async def api(x: int) -> tool.Result[int]:
        calls.append(x)
        await asyncio.sleep(0.01)
        return tool.Err(tool.rate_limited(10)) if x < 0 else tool.Ok(x)

    call = tool.pipe(api, breaker)

    async def main() -> list[tool.Result[int]]:
        await asyncio.gather(call(-1), call(-1))
        assert breaker.state == "open"
        now.ms += 60_000
        return await asyncio.gather(*(call(i) for i in range(20)))

    results = asyncio.run(main())
    assert calls == [-1, -1, 0]  # one probe, nineteen refused while it ran
    assert results[0] == tool.Ok(0)
    assert all(isinstance(r, tool.Err) and "circuit open" in r.error.reason for r in results[1:])  # type: ignore[union-attr]
    assert breaker.state == "closed"


def test_a_cancelled_probe_frees_the_probe_slot() -> None:
    now = WallClock()
    breaker = make(now, n=1)

    async def api(x: int) -> tool.Result[int]:
        if x == 0:
            return tool.Err(tool.timeout(1))
        await asyncio.sleep(10 if x == 1 else 0)
        return tool.Ok(x)

    call = tool.pipe(api, breaker)

    async def main() -> tool.Result[int]:
        await call(0)
        now.ms += 60_000
        probe = asyncio.create_task(call(1))
        await asyncio.sleep(0.01)
        probe.cancel()
        with pytest.raises(asyncio.CancelledError):
            await probe
        return await call(2)

    assert asyncio.run(main()) == tool.Ok(2)
