"""Hypothesis properties of the retry stack, over generated failure sequences.

- attempts never exceed the attempt bound or the budget;
- a non-retryable error is returned after exactly one attempt;
- the sum of waits never passes the deadline, and no attempt starts after it;
- the schedule is exactly the configured one, or the server's advice;
- the readable and the terse dialects give identical results, waits and events (sync and async
  clocks, deadlines, fallbacks, schedules, and both forms of the circuit breaker);
- sync and async give identical results, waits and events.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from test_combinators_support import FakeClock, Script, never

from smullyan import runtime as tool
from smullyan.runtime import (
    Denied,
    Err,
    InvalidArgs,
    NotFound,
    Ok,
    RateLimited,
    Timeout,
    ToolError,
    Unavailable,
    Unknown,
    is_retryable,
)

FAST = settings(max_examples=150, deadline=None)

transient_errors = st.one_of(
    st.builds(RateLimited, st.integers(0, 120_000)),
    st.builds(Timeout, st.integers(0, 5000)),
    st.builds(Unavailable, st.just("down"), st.sampled_from([None, 502, 503])),
)
permanent_errors = st.sampled_from([InvalidArgs("n", "int", "x"), NotFound("issue"), Denied("no"), Unknown("?")])
any_error = st.one_of(transient_errors, permanent_errors)
outcomes = st.lists(st.one_of(any_error, any_error, any_error, st.just("ok")), max_size=9)


@dataclass(frozen=True)
class Config:
    times: int | None
    budget: int | None
    base_ms: int
    factor: int
    cap_ms: int | None
    honour_advice: bool
    advice_cap_ms: int | None
    no_timeouts: bool  # an extra condition: do not retry Timeout
    deadline_ms: int | None
    order: tuple[int, ...]  # the order the readable clauses are given in


@st.composite
def configs(draw: st.DrawFn, with_deadline: bool = False) -> Config:
    times = draw(st.none() | st.integers(1, 6))
    budget = draw(st.none() | st.integers(0, 6)) if times is not None else draw(st.integers(0, 6))
    honour = draw(st.booleans())
    return Config(
        times=times,
        budget=budget,
        base_ms=draw(st.one_of(st.integers(0, 500), st.sampled_from([50, 100]))),
        factor=draw(st.integers(1, 3)),
        cap_ms=draw(st.none() | st.integers(0, 2000)),
        honour_advice=honour,
        advice_cap_ms=draw(st.none() | st.integers(0, 100_000)) if honour else None,
        no_timeouts=draw(st.booleans()),
        deadline_ms=draw(st.one_of(st.integers(1, 5000), st.sampled_from([100, 300, 700, 1500])))
        if with_deadline
        else None,
        order=tuple(draw(st.permutations(range(6)))),
    )


def condition(cfg: Config) -> Callable[[ToolError], bool]:
    return lambda e: not isinstance(e, Timeout) if cfg.no_timeouts else True


def readable(cfg: Config, sleep: Any, events: list[tool.events.Event], now: Any = None, deadline_sleep: Any = None) -> Any:
    """The readable-dialect stages for ``cfg``: retry, then (maybe) a deadline.

    An async deadline races its clock's sleep, so it gets a sleep that never
    resolves (``deadline_sleep``): an instant one would fire at once.
    """
    schedule = tool.exponentially_from(tool.millis(cfg.base_ms), cfg.factor)
    if cfg.cap_ms is not None:
        schedule = schedule.capped_at(tool.millis(cfg.cap_ms))
    slots: list[list[tool.types.RetryClause]] = [
        [tool.while_transient, tool.retrying_when(condition(cfg))],
        [tool.up_to(cfg.times).attempts] if cfg.times is not None else [],
        [tool.within(tool.types.Budget(attempts=cfg.budget))] if cfg.budget is not None else [],
        [tool.backing_off(schedule)],
        [tool.ignoring_server_advice] if not cfg.honour_advice
        else [tool.trusting_server_advice_up_to(tool.millis(cfg.advice_cap_ms))] if cfg.advice_cap_ms is not None
        else [],
        [tool.observing(events.append)],
    ]
    clauses = [c for i in cfg.order for c in slots[i]]
    clock = tool.with_clock(sleep, now)
    stages = [clock.retrying(*clauses)]
    if cfg.deadline_ms is not None:
        deadline_clock = tool.with_clock(deadline_sleep or sleep, now)
        stages.append(deadline_clock.giving_up_after(tool.millis(cfg.deadline_ms), tool.observing(events.append)))
    return stages


def terse(
    cfg: Config, sleep: Any, events: list[tool.events.Event], now: Any = None, deadline_sleep: Any = None
) -> Any:
    """The same stages in the terse dialect (``deadline_sleep`` as in :func:`readable`)."""
    cond = condition(cfg)
    stages = [
        tool.terse.retry(
            times=cfg.times,
            backoff=tool.terse.exponential(cfg.base_ms, cfg.factor, cap_ms=cfg.cap_ms),
            sleep=sleep,
            retry_on=lambda e: tool.is_retryable(e) and cond(e),
            budget=tool.types.Budget(attempts=cfg.budget) if cfg.budget is not None else None,
            honour_advice=cfg.honour_advice,
            max_advice_ms=cfg.advice_cap_ms,
            on_event=events.append,
            now=now,
        )
    ]
    if cfg.deadline_ms is not None:
        stages.append(tool.terse.deadline(cfg.deadline_ms, sleep=deadline_sleep or sleep, now=now, on_event=events.append))
    return stages


def run_sync(stages: list[Any], script: Script) -> tool.Result[Any]:
    fetch = tool.pipe(script.sync, *stages)
    return fetch()  # type: ignore[no-any-return]


_LOOP = asyncio.new_event_loop()


def run_async(stages: list[Any], fn: Any) -> tool.Result[Any]:
    fetch = tool.pipe(fn, *stages)
    return _LOOP.run_until_complete(fetch())  # type: ignore[no-any-return]


def model(cfg: Config, script_outcomes: list[Any]) -> tuple[tool.Result[Any], int, list[int]]:
    """What the spec says should happen: (result, attempts, waits). Written from the issue text."""
    budget = cfg.budget
    waits: list[int] = []
    attempt = 0
    while True:
        attempt += 1
        outcome = script_outcomes[attempt - 1] if attempt <= len(script_outcomes) else "done"
        if not isinstance(outcome, (RateLimited, Timeout, Unavailable, InvalidArgs, NotFound, Denied, Unknown)):
            return Ok(outcome), attempt, waits
        if not (is_retryable(outcome) and condition(cfg)(outcome)):
            return Err(outcome), attempt, waits
        if cfg.times is not None and attempt >= cfg.times:
            return Err(outcome), attempt, waits
        if cfg.honour_advice and isinstance(outcome, RateLimited):
            wait = outcome.retry_after_ms
            if wait > (cfg.advice_cap_ms if cfg.advice_cap_ms is not None else 60_000):
                return Err(outcome), attempt, waits
        else:
            wait = cfg.base_ms * cfg.factor ** (attempt - 1)
            if cfg.cap_ms is not None:
                wait = min(wait, cfg.cap_ms)
        if cfg.deadline_ms is not None and sum(waits) + wait >= cfg.deadline_ms:
            return Err(outcome), attempt, waits
        if budget is not None:
            if budget == 0:
                return Err(outcome), attempt, waits
            budget -= 1
        waits.append(wait)


@FAST
@given(configs(), outcomes)
def test_attempts_schedule_and_result_are_exactly_the_configured_ones(cfg: Config, script_outcomes: list[Any]) -> None:
    clock = FakeClock()
    script = Script(script_outcomes)
    result = run_sync(readable(cfg, clock.sleep, []), script)
    expected_result, expected_attempts, expected_waits = model(cfg, script_outcomes)
    assert result == expected_result
    assert script.calls == expected_attempts
    assert clock.slept == expected_waits
    # the bounds, stated directly
    if cfg.times is not None:
        assert script.calls <= cfg.times
    if cfg.budget is not None:
        assert script.calls <= 1 + cfg.budget
    assert len(clock.slept) == script.calls - 1 or isinstance(result, Ok)


@FAST
@given(configs(), permanent_errors, outcomes)
def test_a_non_retryable_error_is_returned_after_exactly_one_attempt(
    cfg: Config, first: ToolError, rest: list[Any]
) -> None:
    clock = FakeClock()
    script = Script([first, *rest])
    assert run_sync(readable(cfg, clock.sleep, []), script) == Err(first)
    assert script.calls == 1
    assert clock.slept == []


@FAST
@given(configs(with_deadline=True), outcomes, st.integers(0, 400))
def test_waits_never_pass_the_deadline(cfg: Config, script_outcomes: list[Any], work_ms: int) -> None:
    # Without now(): the deadline counts the waits only.
    clock = FakeClock()
    result = run_sync(readable(cfg, clock.sleep, []), Script(script_outcomes))
    assert cfg.deadline_ms is not None
    assert sum(clock.slept) < cfg.deadline_ms
    assert (result, clock.slept) == model(cfg, script_outcomes)[::2]
    # With now(), and work that takes time: no sleep ends at or past the deadline,
    # and no attempt starts once it has passed.
    timed = FakeClock()
    starts: list[int] = []
    script = Script(script_outcomes, clock=timed, work_ms=work_ms)
    original = script.sync

    def recording(*args: Any, **kwargs: Any) -> tool.Result[Any]:
        starts.append(timed.t)
        return original(*args, **kwargs)

    script.sync = recording  # type: ignore[method-assign]
    result = run_sync(readable(cfg, timed.sleep, [], now=timed.now), script)
    assert all(start < cfg.deadline_ms for start in starts)
    assert sum(timed.slept) < cfg.deadline_ms
    fired = Err(Timeout(cfg.deadline_ms))
    if result == fired and fired.error not in script_outcomes:  # the deadline's, not the tool's own
        assert timed.t >= cfg.deadline_ms


@FAST
@given(configs(), st.lists(outcomes, min_size=1, max_size=5))
def test_a_shared_budget_bounds_retries_across_calls(cfg: Config, scripts: list[list[Any]]) -> None:
    budget = tool.types.Budget(attempts=cfg.budget if cfg.budget is not None else 3)
    clock = FakeClock()
    stage = tool.with_clock(clock.sleep).retrying(tool.within(budget), tool.backing_off(tool.constant(tool.millis(1))))
    runs = [Script(s) for s in scripts]
    for run in runs:
        stage(run.sync)()
    retries = sum(run.calls - 1 for run in runs)
    assert retries == budget.attempts - budget.remaining
    assert retries <= budget.attempts
    assert len(clock.slept) == retries


@FAST
@given(configs(), outcomes, st.booleans())
def test_both_dialects_are_identical(cfg: Config, script_outcomes: list[Any], with_deadline: bool) -> None:
    if with_deadline:
        cfg = Config(**{**cfg.__dict__, "deadline_ms": 700})
    runs = []
    for build in (readable, terse):
        clock = FakeClock()
        events: list[tool.events.Event] = []
        script = Script(script_outcomes)
        result = run_sync(build(cfg, clock.sleep, events), script)
        runs.append((result, script.calls, clock.slept, events))
    assert runs[0] == runs[1]


@settings(max_examples=75, deadline=None)
@given(configs(), outcomes, st.booleans(), st.sampled_from(["sync", "async"]))
def test_both_dialects_are_identical_under_an_async_clock(
    cfg: Config, script_outcomes: list[Any], with_deadline: bool, tool_kind: str
) -> None:
    if with_deadline:
        cfg = Config(**{**cfg.__dict__, "deadline_ms": 700})
    runs = []
    for build in (readable, terse):
        clock = FakeClock()
        events: list[tool.events.Event] = []
        script = Script(script_outcomes)
        stages = build(cfg, clock.asleep, events, deadline_sleep=never)
        assert all(isinstance(stage, tool.types.AsyncStage) for stage in stages)
        result = run_async(stages, script.sync if tool_kind == "sync" else script.async_)
        runs.append((result, script.calls, clock.slept, events))
    assert runs[0] == runs[1]


@FAST
@given(outcomes, st.one_of(st.integers(), st.none()), outcomes, st.booleans(), st.sampled_from(["sync", "async"]))
def test_both_dialects_fall_back_identically(
    script_outcomes: list[Any], value: int | None, fallback_outcomes: list[Any], to_value: bool, tool_kind: str
) -> None:
    runs = []
    for dialect in ("readable", "terse"):
        events: list[tool.events.Event] = []
        script, spare = Script(script_outcomes[:1]), Script(fallback_outcomes[:1])
        if dialect == "readable":
            to = tool.the_value(value) if to_value else spare.sync
            stage: Any = tool.falling_back_to(to, tool.observing(events.append))
        elif to_value:
            stage = tool.terse.fallback(value=value, on_event=events.append)
        else:
            stage = tool.terse.fallback(spare.sync, on_event=events.append)
        assert isinstance(stage, tool.types.SyncFallingBack)
        if tool_kind == "sync":
            result = run_sync([stage], script)
        else:
            result = run_async([stage], script.async_)
        runs.append((result, script.calls, spare.calls, events))
    assert runs[0] == runs[1]


class _Rng:
    """A random source that replays ``draws`` (mod the range), so two schedules see the same ones."""

    def __init__(self, draws: list[int]) -> None:
        self.draws = list(draws)

    def randint(self, a: int, b: int) -> int:
        return a + (self.draws.pop(0) if self.draws else 0) % (b - a + 1)


@FAST
@given(
    st.integers(0, 10_000), st.integers(1, 4), st.none() | st.integers(0, 60_000), st.booleans(),
    st.lists(st.integers(0, 2**31), min_size=12, max_size=12),
)
def test_both_dialects_build_the_same_schedules(
    base_ms: int, factor: int, cap_ms: int | None, jittered: bool, draws: list[int]
) -> None:
    readable_rng, terse_rng = _Rng(draws), _Rng(draws)
    schedule = tool.exponentially_from(tool.millis(base_ms), factor)
    if cap_ms is not None:
        schedule = schedule.capped_at(tool.millis(cap_ms))
    fixed = tool.constant(tool.millis(base_ms))
    if jittered:
        schedule, fixed = schedule.with_full_jitter(readable_rng), fixed.with_full_jitter(readable_rng)
    jitter = terse_rng if jittered else None
    terse_schedule = tool.terse.exponential(base_ms, factor, cap_ms=cap_ms, jitter=jitter)
    terse_fixed = tool.terse.fixed(base_ms, jitter=jitter)
    assert [schedule.wait_ms(n) for n in range(1, 7)] == [terse_schedule.wait_ms(n) for n in range(1, 7)]
    assert [fixed.wait_ms(n) for n in range(1, 7)] == [terse_fixed.wait_ms(n) for n in range(1, 7)]
    if not jittered:
        assert (schedule, fixed) == (terse_schedule, terse_fixed)


@FAST
@given(
    st.integers(1, 4), st.integers(1, 5000), st.integers(1, 5000),
    st.lists(st.tuples(st.one_of(any_error, st.just("ok")), st.integers(0, 3000)), max_size=14),
)
def test_both_forms_of_the_circuit_breaker_are_identical(
    failures: int, within_ms: int, cool_down_ms: int, calls: list[tuple[Any, int]]
) -> None:
    runs = []
    for form in ("readable", "terse"):
        clock = FakeClock()
        events: list[tool.events.Event] = []
        if form == "readable":
            breaker = tool.breaking_after(failures).failures(within=tool.millis(within_ms)).for_(
                tool.millis(cool_down_ms), tool.observing(events.append), now=clock.now
            )
        else:
            breaker = tool.terse.circuit_breaker(
                failures=failures, within_ms=within_ms, cool_down_ms=cool_down_ms, now=clock.now,
                on_event=events.append,
            )
        script = Script([outcome for outcome, _ in calls])
        guarded = breaker(script.sync)
        results = []
        for _, later_ms in calls:
            results.append(guarded())
            clock.t += later_ms
        runs.append((results, script.calls, events))
    assert runs[0] == runs[1]


@settings(max_examples=75, deadline=None)
@given(configs(), outcomes, st.booleans())
def test_sync_and_async_are_identical(cfg: Config, script_outcomes: list[Any], with_deadline: bool) -> None:
    if with_deadline:
        cfg = Config(**{**cfg.__dict__, "deadline_ms": 700})
    runs = []
    for tool_kind, clock_kind in (("sync", "sync"), ("async", "sync"), ("sync", "async"), ("async", "async")):
        clock = FakeClock()
        events: list[tool.events.Event] = []
        script = Script(script_outcomes)
        if clock_kind == "sync":
            stages = readable(cfg, clock.sleep, events)
        else:
            stages = readable(cfg, clock.asleep, events, deadline_sleep=never)
        if tool_kind == "sync" and clock_kind == "sync":
            result = run_sync(stages, script)
        else:
            result = run_async(stages, script.sync if tool_kind == "sync" else script.async_)
        runs.append((result, script.calls, clock.slept, events))
    assert runs[0] == runs[1] == runs[2] == runs[3]
