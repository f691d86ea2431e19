"""Behaviour of the runtime combinators: retry, deadline, fallback, clocks, both dialects."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from test_combinators_support import DONE, FakeClock, Script, instant, never

from smullyan import runtime as tool
from smullyan.runtime import Denied, Err, InvalidArgs, NotFound, Ok, RateLimited, Timeout, Unavailable, Unknown
from smullyan.runtime.events import Attempted, Failed, FellBack, GaveUp, Succeeded, TimedOut, Waiting

DOWN = Unavailable("down", 503)
SLOW = Timeout(0)


def exp100(clock: FakeClock, n: int = 3, *extra: Any) -> Any:
    return tool.with_clock(clock.sleep).retrying(
        tool.up_to(n).attempts, tool.backing_off(tool.exponentially_from(tool.millis(100))), *extra
    )


# ---------------------------------------------------------------- durations


def test_durations_carry_their_unit() -> None:
    assert tool.millis(250).ms == 250
    assert tool.seconds(10).ms == 10_000
    assert tool.seconds(0.25).ms == 250
    assert tool.minutes(2).ms == 120_000
    assert tool.seconds(1) == tool.millis(1000)
    assert tool.millis(5) < tool.seconds(1)


@pytest.mark.parametrize("bad", [-1, True, 1.5, "10"])
def test_millis_refuses_what_is_not_a_whole_non_negative_number(bad: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        tool.millis(bad)


def test_durations_refuse_negative_and_non_finite() -> None:
    with pytest.raises(ValueError):
        tool.seconds(-1)
    with pytest.raises(ValueError):
        tool.minutes(float("inf"))
    with pytest.raises(TypeError):
        tool.seconds("3")  # type: ignore[arg-type]


def test_combinators_refuse_a_bare_int_at_run_time_too() -> None:
    clock = tool.with_clock(FakeClock().sleep)
    with pytest.raises(TypeError):
        clock.giving_up_after(10)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tool.exponentially_from(100)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tool.constant(100)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tool.exponentially_from(tool.millis(1)).capped_at(5)  # type: ignore[arg-type]


# ---------------------------------------------------------------- pipe, calling_api, the_value


def test_pipe_applies_left_to_right() -> None:
    assert tool.pipe(3, lambda x: x + 1, lambda x: x * 10) == 40
    assert tool.pipe("x") == "x"
    assert tool.pipe(1, *[lambda x: x * 2] * 9) == 512


def test_calling_api_turns_return_into_ok_and_exceptions_into_errors() -> None:
    def get(n: int, *, verbose: bool = False) -> str:
        if n < 0:
            raise ConnectionError("refused")
        return f"issue {n} {verbose}"

    fetch = tool.calling_api(get)
    assert fetch(3, verbose=True) == Ok("issue 3 True")
    result = fetch(-1)
    assert isinstance(result, Err) and isinstance(result.error, Unavailable)


def test_calling_api_uses_the_given_classifier() -> None:
    seen: list[Exception] = []

    def classify(exc: Exception) -> tool.ToolError:
        seen.append(exc)
        return NotFound(str(exc))

    def boom() -> None:
        raise KeyError("repo")

    assert tool.calling_api(boom, classify)() == Err(NotFound("'repo'"))
    assert [type(e) for e in seen] == [KeyError]


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), SystemExit(3), GeneratorExit()])
def test_calling_api_lets_base_exceptions_propagate(exc: BaseException) -> None:
    def interrupted() -> None:
        raise exc

    with pytest.raises(type(exc)):
        tool.calling_api(interrupted)()


def test_calling_api_async_ok_err_and_cancellation() -> None:
    async def get(n: int) -> int:
        await asyncio.sleep(0)
        if n == 0:
            raise TimeoutError()
        if n < 0:
            raise asyncio.CancelledError()
        return n * 2

    fetch = tool.calling_api(get)
    assert asyncio.run(fetch(4)) == Ok(8)
    assert asyncio.run(fetch(0)) == Err(Timeout(0))
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(fetch(-1))


def test_calling_api_refuses_a_lambda_that_returns_a_coroutine() -> None:
    async def get() -> int:
        return 1

    fetch = tool.calling_api(lambda: get())
    with pytest.raises(TypeError, match="coroutine"):
        fetch()


def test_the_value_ignores_arguments() -> None:
    constant = tool.the_value([1, 2])
    assert constant() == Ok([1, 2])
    assert constant(1, x=2) == Ok([1, 2])


# ---------------------------------------------------------------- retry: schedule and bounds


def test_instant_fake_sleep_records_exactly_100_then_200() -> None:
    clock = FakeClock()
    script = Script([DOWN] * 10)
    result = exp100(clock, 3)(script.sync)()
    assert clock.slept == [100, 200]
    assert script.calls == 3
    assert result == Err(DOWN)


def test_four_attempts_is_one_call_and_three_retries() -> None:
    clock = FakeClock()
    script = Script([SLOW] * 10)
    exp100(clock, 4)(script.sync)()
    assert script.calls == 4
    assert clock.slept == [100, 200, 400]


def test_success_after_failures_stops_and_returns_ok() -> None:
    clock = FakeClock()
    script = Script([DOWN, SLOW, "value"])
    assert exp100(clock, 5)(script.sync)() == Ok("value")
    assert script.calls == 3
    assert clock.slept == [100, 200]


def test_success_first_time_never_sleeps() -> None:
    clock = FakeClock()
    script = Script(["at once"])
    assert exp100(clock, 5)(script.sync)() == Ok("at once")
    assert clock.slept == []


def test_arguments_reach_every_attempt() -> None:
    clock = FakeClock()
    script = Script([DOWN, DOWN])
    exp100(clock, 3)(script.sync)(7, repo="x")
    assert script.args == [((7,), {"repo": "x"})] * 3


@pytest.mark.parametrize("error", [InvalidArgs("n", "int", "x"), Denied("no"), NotFound("issue 9"), Unknown("?")])
def test_permanent_errors_are_returned_after_one_attempt(error: tool.ToolError) -> None:
    clock = FakeClock()
    script = Script([error] * 5)
    assert exp100(clock, 5, tool.while_transient)(script.sync)() == Err(error)
    assert script.calls == 1
    assert clock.slept == []


def test_no_condition_clause_means_while_transient() -> None:
    clock = FakeClock()
    stage = tool.with_clock(clock.sleep).retrying(
        tool.up_to(3).attempts, tool.backing_off(tool.exponentially_from(tool.millis(100)))
    )
    transient = Script([DOWN] * 5)
    stage(transient.sync)()
    assert transient.calls == 3
    permanent = Script([Denied("no")] * 5)
    stage(permanent.sync)()
    assert permanent.calls == 1


def test_all_conditions_must_hold() -> None:
    clock = FakeClock()
    only_503 = tool.retrying_when(lambda e: isinstance(e, Unavailable) and e.status == 503)
    stage = tool.with_clock(clock.sleep).retrying(tool.while_transient, only_503, tool.up_to(4).attempts)
    script = Script([DOWN, Unavailable("busy", 502), DOWN])
    assert stage(script.sync)() == Err(Unavailable("busy", 502))
    assert script.calls == 2
    # A custom condition alone may retry what while_transient would not.
    not_found_too = tool.with_clock(clock.sleep).retrying(
        tool.retrying_when(lambda e: isinstance(e, NotFound)), tool.up_to(3).attempts
    )
    lagging = Script([NotFound("replica lag"), "found"])
    assert not_found_too(lagging.sync)() == Ok("found")


def test_clause_order_does_not_matter() -> None:
    clauses = [
        tool.while_transient,
        tool.up_to(4).attempts,
        tool.backing_off(tool.constant(tool.millis(30))),
        tool.ignoring_server_advice,
    ]
    outcomes = []
    for order in (clauses, clauses[::-1], clauses[1:] + clauses[:1]):
        clock = FakeClock()
        script = Script([DOWN, RateLimited(5000), SLOW, DOWN])
        result = tool.with_clock(clock.sleep).retrying(*order)(script.sync)()
        outcomes.append((result, clock.slept, script.calls))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0] == (Err(DOWN), [30, 30, 30], 4)


def test_default_schedule_is_exponential_from_100ms() -> None:
    clock = FakeClock()
    tool.with_clock(clock.sleep).retrying(tool.up_to(4).attempts)(Script([DOWN] * 9).sync)()
    assert clock.slept == [100, 200, 400]


def test_schedules() -> None:
    exp = tool.exponentially_from(tool.millis(100))
    assert [exp.wait_ms(k) for k in range(1, 6)] == [100, 200, 400, 800, 1600]
    assert [exp.capped_at(tool.millis(500)).wait_ms(k) for k in range(1, 6)] == [100, 200, 400, 500, 500]
    assert [tool.exponentially_from(tool.millis(10), factor=3).wait_ms(k) for k in (1, 2, 3)] == [10, 30, 90]
    assert [tool.constant(tool.seconds(1)).wait_ms(k) for k in (1, 2, 9)] == [1000, 1000, 1000]


def test_full_jitter_draws_from_the_injected_source() -> None:
    schedule = tool.exponentially_from(tool.millis(100)).capped_at(tool.millis(1000)).with_full_jitter(random.Random(7))
    waits = [schedule.wait_ms(k) for k in range(1, 9)]
    again = tool.exponentially_from(tool.millis(100)).capped_at(tool.millis(1000)).with_full_jitter(random.Random(7))
    assert waits == [again.wait_ms(k) for k in range(1, 9)]
    ceilings = [100, 200, 400, 800, 1000, 1000, 1000, 1000]
    assert all(0 <= w <= c for w, c in zip(waits, ceilings))
    assert len(set(waits)) > 1

    class Highest:
        def randint(self, a: int, b: int) -> int:
            return b

    assert tool.constant(tool.millis(70)).with_full_jitter(Highest()).wait_ms(3) == 70


def test_schedule_validation() -> None:
    with pytest.raises(ValueError):
        tool.exponentially_from(tool.millis(100), factor=0)
    with pytest.raises(TypeError):
        tool.constant(tool.millis(1)).with_full_jitter(object())  # type: ignore[arg-type]


# ---------------------------------------------------------------- retry: refused configurations


def test_a_retry_with_no_bound_is_refused_when_built() -> None:
    clock = tool.with_clock(FakeClock().sleep)
    with pytest.raises(tool.ConfigError, match="up_to"):
        clock.retrying(tool.while_transient, tool.backing_off(tool.constant(tool.millis(1))))
    with pytest.raises(tool.ConfigError):
        clock.retrying()


def test_conflicting_or_unknown_clauses_are_refused() -> None:
    clock = tool.with_clock(FakeClock().sleep)
    with pytest.raises(tool.ConfigError):
        clock.retrying(tool.up_to(2).attempts, tool.up_to(3).attempts)
    with pytest.raises(tool.ConfigError):
        clock.retrying(tool.up_to(2).attempts, tool.ignoring_server_advice,
                       tool.trusting_server_advice_up_to(tool.seconds(1)))
    with pytest.raises(tool.ConfigError):
        clock.retrying(tool.up_to(2).attempts, tool.backing_off(tool.constant(tool.millis(1))),
                       tool.backing_off(tool.constant(tool.millis(2))))
    with pytest.raises(tool.ConfigError):
        clock.retrying(tool.up_to(2).attempts, "while_transient")  # type: ignore[arg-type]
    with pytest.raises(tool.ConfigError):
        tool.up_to(0)
    with pytest.raises(ValueError):
        tool.types.Budget(attempts=-1)


def test_a_tool_that_does_not_return_a_result_is_reported() -> None:
    clock = FakeClock()
    stage = exp100(clock, 3)
    with pytest.raises(TypeError, match="Ok or Err"):
        stage(lambda: "plain value")()


# ---------------------------------------------------------------- server advice


def test_server_advice_beats_the_schedule() -> None:
    clock = FakeClock()
    script = Script([RateLimited(750), DOWN, RateLimited(30)])
    exp100(clock, 4)(script.sync)()
    assert clock.slept == [750, 200, 30]


def test_ignoring_server_advice_keeps_the_schedule() -> None:
    clock = FakeClock()
    script = Script([RateLimited(750), RateLimited(750)])
    exp100(clock, 3, tool.ignoring_server_advice)(script.sync)()
    assert clock.slept == [100, 200]


def test_advice_over_the_default_cap_gives_up_rather_than_sleeping() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    script = Script([RateLimited(3_600_000)])
    result = exp100(clock, 4, tool.observing(events.append))(script.sync)()
    assert result == Err(RateLimited(3_600_000))
    assert clock.slept == []
    assert events[-1] == GaveUp(1, RateLimited(3_600_000), "advice_too_long")
    # exactly one minute is still trusted
    clock2 = FakeClock()
    exp100(clock2, 2)(Script([RateLimited(60_000)]).sync)()
    assert clock2.slept == [60_000]


def test_trusting_server_advice_up_to_sets_the_cap() -> None:
    clock = FakeClock()
    cap = tool.trusting_server_advice_up_to(tool.seconds(5))
    assert exp100(clock, 4, cap)(Script([RateLimited(5000), RateLimited(5001)]).sync)() == Err(RateLimited(5001))
    assert clock.slept == [5000]


def test_advice_that_would_cross_the_deadline_gives_up_at_once() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    fetch = tool.pipe(
        Script([DOWN, RateLimited(2000)]).sync,
        exp100(clock, 5, tool.observing(events.append)),
        tool.with_clock(clock.sleep, now=clock.now).giving_up_after(tool.seconds(1)),
    )
    assert fetch() == Err(RateLimited(2000))
    assert clock.slept == [100]
    assert events[-1] == GaveUp(2, RateLimited(2000), "deadline", waited_ms=100)


# ---------------------------------------------------------------- budget


def test_a_spent_budget_stops_retries_everywhere_it_is_used() -> None:
    clock = FakeClock()
    budget = tool.types.Budget(attempts=3)
    stage = tool.with_clock(clock.sleep).retrying(tool.up_to(10).attempts, tool.within(budget))
    first, second, third = Script([DOWN] * 9), Script([DOWN] * 9), Script([DOWN] * 9)
    stage(first.sync)()
    assert (first.calls, budget.remaining) == (4, 0)
    assert budget.spent
    other_stage = tool.with_clock(clock.sleep).retrying(tool.within(budget))
    other_stage(second.sync)()
    stage(third.sync)()
    assert (second.calls, third.calls) == (1, 1)  # first attempts still happen; retries do not


def test_budget_alone_is_a_bound() -> None:
    clock = FakeClock()
    script = Script([DOWN] * 99)
    tool.with_clock(clock.sleep).retrying(tool.within(tool.types.Budget(attempts=5)))(script.sync)()
    assert script.calls == 6


def test_budget_is_not_spent_on_a_give_up() -> None:
    clock = FakeClock()
    budget = tool.types.Budget(attempts=2)
    stage = tool.with_clock(clock.sleep).retrying(tool.up_to(2).attempts, tool.within(budget))
    stage(Script([Denied("no")]).sync)()
    stage(Script([DOWN, DOWN]).sync)()  # one retry, then the attempt bound
    assert budget.remaining == 1


def test_two_budgets_both_must_grant_and_a_refusal_returns_the_other_unit() -> None:
    clock = FakeClock()
    task, session = tool.types.Budget(attempts=5), tool.types.Budget(attempts=1)
    script = Script([DOWN] * 9)
    tool.with_clock(clock.sleep).retrying(tool.within(task), tool.within(session))(script.sync)()
    assert script.calls == 2
    assert (task.remaining, session.remaining) == (4, 0)


def test_budget_is_exact_under_threads() -> None:
    budget = tool.types.Budget(attempts=500)
    stage = tool.with_clock(lambda ms: None).retrying(
        tool.up_to(1000).attempts, tool.within(budget), tool.backing_off(tool.constant(tool.millis(0)))
    )
    calls: list[int] = []
    lock = threading.Lock()

    def failing() -> tool.Result[int]:
        with lock:
            calls.append(1)
        return Err(DOWN)

    retried = stage(failing)
    threads = [threading.Thread(target=retried) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert budget.remaining == 0
    assert len(calls) == 8 + 500  # 8 first attempts, exactly 500 retries


def test_budget_is_exact_under_asyncio() -> None:
    budget = tool.types.Budget(attempts=40)
    clock = FakeClock()
    stage = tool.with_clock(clock.asleep).retrying(tool.up_to(100).attempts, tool.within(budget))
    scripts = [Script([DOWN] * 200) for _ in range(10)]

    async def main() -> None:
        await asyncio.gather(*(stage(s.async_)() for s in scripts))

    asyncio.run(main())
    assert sum(s.calls for s in scripts) == 10 + 40
    assert budget.remaining == 0


# ---------------------------------------------------------------- observing


def test_observing_receives_every_attempt_failure_wait_and_give_up() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    script = Script([DOWN, RateLimited(40), InvalidArgs("n", "int", "x")])
    exp100(clock, 5, tool.observing(events.append))(script.sync)()
    assert events == [
        Attempted(1),
        Failed(1, DOWN),
        Waiting(1, 100, advised=False),
        Attempted(2),
        Failed(2, RateLimited(40)),
        Waiting(2, 40, advised=True),
        Attempted(3),
        Failed(3, InvalidArgs("n", "int", "x")),
        GaveUp(3, InvalidArgs("n", "int", "x"), "not_retryable", waited_ms=140),
    ]


def test_observing_success_and_attempt_bound() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    exp100(clock, 2, tool.observing(events.append))(Script(["ok"]).sync)()
    assert events == [Attempted(1), Succeeded(1)]
    events.clear()
    exp100(clock, 2, tool.observing(events.append))(Script([DOWN, DOWN]).sync)()
    assert events[-1] == GaveUp(2, DOWN, "attempts", waited_ms=100)
    events.clear()
    tool.with_clock(clock.sleep).retrying(tool.within(tool.types.Budget(0)), tool.observing(events.append))(
        Script([DOWN]).sync
    )()
    assert events[-1] == GaveUp(1, DOWN, "budget")


def test_several_observers_all_hear() -> None:
    a: list[tool.events.Event] = []
    b: list[tool.events.Event] = []
    clock = FakeClock()
    exp100(clock, 2, tool.observing(a.append), tool.observing(b.append))(Script([DOWN]).sync)()
    assert a == b and len(a) == 5


# ---------------------------------------------------------------- deadline (sync)


def test_sync_deadline_never_starts_a_sleep_that_ends_past_it() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    fetch = tool.pipe(
        Script([DOWN] * 20).sync,
        tool.with_clock(clock.sleep).retrying(
            tool.up_to(10).attempts,
            tool.backing_off(tool.exponentially_from(tool.millis(100))),
            tool.observing(events.append),
        ),
        tool.with_clock(clock.sleep).giving_up_after(tool.seconds(1)),
    )
    assert fetch() == Err(DOWN)
    assert clock.slept == [100, 200, 400]  # 800 more would end at 1500 ms
    assert events[-1] == GaveUp(4, DOWN, "deadline", waited_ms=700)


def test_a_wait_that_would_end_exactly_on_the_deadline_is_not_started() -> None:
    clock = FakeClock()
    fetch = tool.pipe(
        Script([DOWN] * 20).sync,
        tool.with_clock(clock.sleep).retrying(tool.up_to(10).attempts, tool.backing_off(tool.constant(tool.millis(100)))),
        tool.with_clock(clock.sleep).giving_up_after(tool.millis(300)),
    )
    assert fetch() == Err(DOWN)
    assert clock.slept == [100, 100]  # a third wait would end on the deadline, leaving no time to try


def test_sync_deadline_checks_before_each_attempt_using_now() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    script = Script([DOWN] * 20, clock=clock, work_ms=300)  # each attempt takes 300 ms of fake time
    fetch = tool.pipe(
        script.sync,
        tool.with_clock(clock.sleep).retrying(tool.up_to(10).attempts, tool.backing_off(tool.constant(tool.millis(50)))),
        tool.with_clock(clock.sleep, now=clock.now).giving_up_after(tool.seconds(1), tool.observing(events.append)),
    )
    assert fetch() == Err(Timeout(after_ms=1000))
    # 300 + 50 + 300 + 50 + 300 = 1000: the third attempt ends on the deadline; no fourth.
    assert script.calls == 3
    assert events == [TimedOut(1000)]


def test_sync_deadline_cannot_interrupt_a_running_call() -> None:
    clock = FakeClock()
    script = Script(["slow but fine"], clock=clock, work_ms=5000)
    fetch = tool.pipe(script.sync, tool.with_clock(clock.sleep, now=clock.now).giving_up_after(tool.seconds(1)))
    assert fetch() == Ok("slow but fine")  # honest: the call ran to the end; nothing could stop it


def test_nested_deadlines_the_nearest_one_binds() -> None:
    clock = FakeClock()
    inner = tool.pipe(
        Script([DOWN] * 20).sync,
        tool.with_clock(clock.sleep).retrying(tool.up_to(20).attempts, tool.backing_off(tool.constant(tool.millis(100)))),
        tool.with_clock(clock.sleep).giving_up_after(tool.seconds(10)),
    )
    outer = tool.with_clock(clock.sleep).giving_up_after(tool.millis(350))(inner)
    outer()
    assert clock.slept == [100, 100, 100]


def test_deadline_with_no_retry_inside_just_calls() -> None:
    clock = FakeClock()
    fetch = tool.with_clock(clock.sleep, now=clock.now).giving_up_after(tool.seconds(1))(Script(["x"]).sync)
    assert fetch() == Ok("x")
    assert tool.with_clock(clock.sleep).giving_up_after(tool.seconds(1))(Script([DOWN]).sync)() == Err(DOWN)


# ---------------------------------------------------------------- deadline (async)


def test_async_deadline_cancels_the_losing_attempt() -> None:
    cancelled: list[bool] = []
    events: list[tool.events.Event] = []

    async def hangs() -> str:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "never"

    fetch = tool.pipe(
        tool.calling_api(hangs),
        tool.with_clock(instant).giving_up_after(tool.seconds(3), tool.observing(events.append)),
    )
    assert asyncio.run(fetch()) == Err(Timeout(after_ms=3000))
    assert cancelled == [True]
    assert events == [TimedOut(3000)]


def test_instant_clock_is_wrong_for_a_deadline_and_a_never_clock_is_right() -> None:
    clock = FakeClock()
    retry = tool.with_clock(clock.asleep).retrying(
        tool.up_to(3).attempts, tool.backing_off(tool.exponentially_from(tool.millis(100)))
    )
    script = Script([DOWN] * 9)
    wrong = tool.pipe(script.async_, retry, tool.with_clock(instant).giving_up_after(tool.seconds(10)))
    assert asyncio.run(wrong()) == Err(Timeout(10_000))  # fires at once: the instant sleep won the race
    script2 = Script([DOWN] * 9)
    right = tool.pipe(script2.async_, retry, tool.with_clock(never).giving_up_after(tool.seconds(10)))
    assert asyncio.run(right()) == Err(DOWN)
    assert script2.calls == 3
    assert clock.slept[-2:] == [100, 200]


def test_async_deadline_also_refuses_waits_past_it() -> None:
    clock = FakeClock()
    fetch = tool.pipe(
        Script([DOWN] * 20).async_,
        tool.with_clock(clock.asleep).retrying(tool.up_to(10).attempts),
        tool.with_clock(never).giving_up_after(tool.seconds(1)),
    )
    assert asyncio.run(fetch()) == Err(DOWN)
    assert clock.slept == [100, 200, 400]


def test_outside_cancellation_is_not_turned_into_a_timeout() -> None:
    async def hangs() -> str:
        await asyncio.Event().wait()
        return "never"

    fetch = tool.pipe(tool.calling_api(hangs), tool.with_clock(never).giving_up_after(tool.seconds(3)))

    async def main() -> None:
        task = asyncio.ensure_future(fetch())
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_async_deadline_passes_results_and_exceptions_through() -> None:
    async def ok() -> tool.Result[int]:
        await asyncio.sleep(0)
        return Ok(5)

    async def raises() -> tool.Result[int]:
        raise RuntimeError("bug in the tool")

    stage = tool.with_clock(never).giving_up_after(tool.seconds(1))
    assert asyncio.run(stage(ok)()) == Ok(5)
    with pytest.raises(RuntimeError):
        asyncio.run(stage(raises)())


def test_real_asyncio_clock_deadline_fires() -> None:
    async def hangs() -> str:
        await asyncio.Event().wait()
        return "never"

    fetch = tool.pipe(tool.calling_api(hangs), tool.asyncio_clock().giving_up_after(tool.millis(1)))
    assert asyncio.run(fetch()) == Err(Timeout(1))


def test_async_deadline_over_a_sync_tool_checks_between_attempts() -> None:
    clock = FakeClock()
    fetch = tool.pipe(
        Script([DOWN] * 20).sync,
        tool.with_clock(clock.sleep).retrying(tool.up_to(10).attempts),
        tool.with_clock(never).giving_up_after(tool.seconds(1)),
    )
    assert asyncio.run(fetch()) == Err(DOWN)
    assert clock.slept == [100, 200, 400]


# ---------------------------------------------------------------- fallback


def test_falling_back_to_a_value_is_reported() -> None:
    events: list[tool.events.Event] = []
    fetch = tool.falling_back_to(tool.the_value("cached"), tool.observing(events.append))(Script([Denied("x")]).sync)
    assert fetch() == Ok("cached")
    assert events == [FellBack(Denied("x"))]
    events.clear()
    fetch_ok = tool.falling_back_to(tool.the_value("cached"), tool.observing(events.append))(Script(["fresh"]).sync)
    assert fetch_ok() == Ok("fresh")
    assert events == []


def test_falling_back_to_another_tool_with_the_same_arguments() -> None:
    backup = Script([NotFound("also not here")])
    primary = Script([DOWN])
    fetch = tool.falling_back_to(backup.sync)(primary.sync)
    assert fetch(1, k=2) == Err(NotFound("also not here"))
    assert backup.args == [((1,), {"k": 2})]


def test_falling_back_to_async_tools() -> None:
    backup = Script(["from backup"])
    fetch = tool.falling_back_to(backup.async_)(Script([DOWN]).sync)
    assert asyncio.run(fetch()) == Ok("from backup")
    fetch2 = tool.falling_back_to(tool.the_value(0))(Script([DOWN]).async_)
    assert asyncio.run(fetch2()) == Ok(0)


def test_falling_back_to_refuses_a_plain_value() -> None:
    with pytest.raises(tool.ConfigError, match="the_value"):
        tool.falling_back_to("cached")  # type: ignore[call-overload]


# ---------------------------------------------------------------- sync / async kinds


def test_the_result_is_awaitable_exactly_when_the_tool_or_the_clock_is_async() -> None:
    clock = FakeClock()
    sync_retry = tool.with_clock(clock.sleep).retrying(tool.up_to(3).attempts)
    async_retry = tool.with_clock(clock.asleep).retrying(tool.up_to(3).attempts)
    assert sync_retry(Script([DOWN]).sync)() == Ok(DONE)
    for fetch in (sync_retry(Script([DOWN]).async_), async_retry(Script([DOWN]).sync), async_retry(Script([DOWN]).async_)):
        pending = fetch()
        assert asyncio.iscoroutine(pending)
        assert asyncio.run(pending) == Ok(DONE)
    assert clock.slept == [100] * 4


def test_clock_kind_follows_the_sleep() -> None:
    assert isinstance(tool.with_clock(FakeClock().sleep), tool.types.SyncClock)
    assert isinstance(tool.with_clock(FakeClock().asleep), tool.types.AsyncClock)
    assert isinstance(tool.system_clock(), tool.types.SyncClock)
    assert isinstance(tool.asyncio_clock(), tool.types.AsyncClock)
    with pytest.raises(tool.ConfigError):
        tool.with_clock(100)  # type: ignore[call-overload]


def test_system_clock_choices_really_wait_and_read_time() -> None:
    tool.system_sleep(0)
    asyncio.run(tool.asyncio_sleep(0))
    first = tool.system_now()
    assert isinstance(first, int) and tool.system_now() >= first


def test_the_issue_example_reads_and_runs_sync_and_async() -> None:
    calls: list[int] = []

    def get_issue(n: int) -> str:
        calls.append(n)
        if len(calls) < 3:
            raise ConnectionError("flaky")
        return f"issue #{n}"

    async def aget_issue(n: int) -> str:
        return get_issue(n)

    for fn, clock_sleep, deadline_clock in (
        (get_issue, FakeClock().sleep, tool.with_clock(FakeClock().sleep)),
        (aget_issue, FakeClock().asleep, tool.with_clock(never)),
    ):
        calls.clear()
        clock = tool.with_clock(clock_sleep)  # type: ignore[call-overload]
        fetch_issue = tool.pipe(
            tool.calling_api(lambda: fn(7)) if fn is get_issue else tool.calling_api(fn),
            clock.retrying(
                tool.while_transient,
                tool.up_to(4).attempts,
                tool.backing_off(tool.exponentially_from(tool.millis(100))),
            ),
            deadline_clock.giving_up_after(tool.seconds(10)),
            tool.falling_back_to(tool.the_value("cached")),
        )
        result = fetch_issue() if fn is get_issue else asyncio.run(fetch_issue(7))
        assert result == Ok("issue #7")
        assert calls == [7, 7, 7]


# ---------------------------------------------------------------- terse dialect


def test_terse_retry_as_written_in_the_issue() -> None:
    clock = FakeClock()
    stage = tool.terse.retry(times=4, backoff=tool.terse.exponential(100), sleep=clock.sleep, retry_on=tool.is_retryable)
    script = Script([DOWN] * 9)
    assert stage(script.sync)() == Err(DOWN)
    assert (script.calls, clock.slept) == (4, [100, 200, 400])


def test_terse_spellings() -> None:
    assert tool.terse.exponential(10, 3, cap_ms=50) == tool.exponentially_from(tool.millis(10), 3).capped_at(tool.millis(50))
    assert tool.terse.fixed(25) == tool.constant(tool.millis(25))
    rng = random.Random(1)
    assert tool.terse.fixed(25, jitter=rng).jitter is rng
    clock = FakeClock()
    assert tool.terse.fallback(value=3)(Script([DOWN]).sync)() == Ok(3)
    assert tool.terse.fallback(tool.the_value(4))(Script([DOWN]).sync)() == Ok(4)
    with pytest.raises(tool.ConfigError):
        tool.terse.fallback()  # type: ignore[call-overload]
    events: list[tool.events.Event] = []
    fetch = tool.terse.deadline(1000, sleep=clock.sleep, now=clock.now, on_event=events.append)(
        Script([DOWN] * 9, clock=clock, work_ms=600).sync
    )
    retried = tool.terse.retry(times=5, sleep=clock.sleep, backoff=tool.terse.fixed(0))
    assert tool.terse.deadline(1000, sleep=clock.sleep, now=clock.now, on_event=events.append)(
        retried(Script([DOWN] * 9, clock=clock, work_ms=600).sync)
    )() == Err(Timeout(1000))
    assert events == [TimedOut(1000)]
    assert fetch() == Err(DOWN)
    with pytest.raises(tool.ConfigError):
        tool.terse.retry(sleep=clock.sleep)  # no bound


# ---------------------------------------------------------------- the documented fake-clock pattern runs


def test_the_fake_clock_example_in_docs_runs() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "runtime.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    example = next(b for b in blocks if "def test_backs_off_100_then_200" in b)
    namespace: dict[str, Any] = {}
    exec(compile(example, "docs/runtime.md", "exec"), namespace)
    namespace["test_backs_off_100_then_200"]()
