"""Issue 13: honest deadlines, the retry rules the seed states, hostile values, traps in the names.

Every test here failed before the fix it covers (the classifier's tests are in
test_classify_clients.py, the server-advice ones in test_mapping.py).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import threading
import time
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values

from smullyan import runtime as tool
from smullyan.runtime import Denied, Err, InvalidArgs, NotFound, Ok, Timeout, Unavailable, Unknown
from test_combinators_support import FakeClock, Script

DOWN = Unavailable("down", 503)


async def never(ms: int) -> None:
    await asyncio.Event().wait()


class Gate:
    """An async clock whose sleep finishes when the test says so: a deadline fires on cue."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()

    async def sleep(self, ms: int) -> None:
        await self.opened.wait()


# ---------------------------------------------------------------- 3. deadlines that keep their word


def test_a_tool_that_swallows_cancellation_is_abandoned_not_awaited() -> None:
    events: list[tool.events.Event] = []

    async def main() -> None:
        gate = Gate()
        release = asyncio.Event()
        finished: list[str] = []

        async def stubborn() -> str:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                pass  # swallowed: keeps the caller waiting, before the fix
            await release.wait()
            finished.append("late")
            return "late"

        fetch = tool.pipe(
            tool.calling_api(stubborn),
            tool.with_clock(gate.sleep).giving_up_after(tool.millis(50), tool.observing(events.append)),
        )
        call = asyncio.ensure_future(fetch())
        for _ in range(5):
            await asyncio.sleep(0)
        gate.opened.set()
        result = await asyncio.wait_for(call, timeout=5)  # returns without `release` ever being set
        assert result == Err(Timeout(50))
        assert finished == []  # the attempt is still running: abandoned, not awaited
        release.set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert finished == ["late"]

    asyncio.run(main())
    assert events == [tool.events.Abandoned(50), tool.events.TimedOut(50)]


def test_a_cooperative_attempt_is_cancelled_and_not_reported_abandoned() -> None:
    events: list[tool.events.Event] = []
    cancelled: list[bool] = []

    async def hangs() -> str:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "never"

    async def instant(ms: int) -> None:
        return None

    fetch = tool.with_clock(instant).giving_up_after(tool.millis(5), tool.observing(events.append))(
        tool.calling_api(hangs)
    )
    assert asyncio.run(fetch()) == Err(Timeout(5))
    assert cancelled == [True]
    assert events == [tool.events.TimedOut(5)]


def test_a_sync_tool_under_an_async_clock_runs_in_a_thread_and_the_deadline_returns_on_time() -> None:
    release = threading.Event()
    events: list[tool.events.Event] = []
    threads: list[str] = []

    def blocking() -> str:
        threads.append(threading.current_thread().name)
        release.wait(10)
        return "late"

    async def main() -> None:
        gate = Gate()
        fetch = tool.pipe(
            tool.calling_api(blocking),
            tool.with_clock(gate.sleep).giving_up_after(tool.millis(50), tool.observing(events.append)),
        )
        call = asyncio.ensure_future(fetch())
        ticks = 0
        while not threads:  # the loop is free while the sync tool blocks in its thread
            ticks += 1
            await asyncio.sleep(0.001)
        gate.opened.set()
        assert await asyncio.wait_for(call, timeout=5) == Err(Timeout(50))

    try:
        asyncio.run(main())
    finally:
        release.set()
    assert threads and threads[0] != "MainThread"
    assert events == [tool.events.Abandoned(50), tool.events.TimedOut(50)]


def test_a_sync_tool_under_an_async_retry_runs_each_attempt_in_a_thread() -> None:
    threads: list[str] = []
    clock = FakeClock()

    def flaky() -> str:
        threads.append(threading.current_thread().name)
        if len(threads) < 2:
            raise ConnectionResetError("reset")
        return "body"

    fetch = tool.pipe(tool.calling_api(flaky), tool.with_clock(clock.asleep).retrying(tool.up_to(3).attempts))
    assert asyncio.run(fetch()) == Ok("body")
    assert len(threads) == 2 and "MainThread" not in threads


def test_a_sync_tool_under_an_async_deadline_returns_its_result_when_in_time() -> None:
    fetch = tool.with_clock(never).giving_up_after(tool.seconds(5))(tool.calling_api(lambda: 42))
    assert asyncio.run(fetch()) == Ok(42)


def test_own_async_clock_and_a_tool_that_never_yields_leave_no_tasks_behind() -> None:
    async def quick() -> int:
        return 1

    fetch = tool.pipe(tool.calling_api(quick), tool.with_clock(never).giving_up_after(tool.seconds(1)))

    async def main() -> int:
        for _ in range(2000):
            assert await fetch() == Ok(1)
        return len(asyncio.all_tasks())

    assert asyncio.run(main()) == 1  # only main(): no watchdog per call piling up


# ---------------------------------------------------------------- 4. the retry rules


@pytest.mark.parametrize("error", [Denied("no"), InvalidArgs("n", "int", "x")])
def test_invalid_args_and_denied_are_never_retried_whatever_the_predicate(error: tool.ToolError) -> None:
    clock = FakeClock()
    script = Script([error] * 5)
    fetch = tool.with_clock(clock.sleep).retrying(tool.retrying_when(lambda e: True), tool.up_to(4).attempts)
    assert fetch(script.sync)() == Err(error)
    assert script.calls == 1
    terse = Script([error] * 5)
    tool.terse.retry(times=4, sleep=clock.sleep, retry_on=lambda e: True)(terse.sync)()
    assert terse.calls == 1


@pytest.mark.parametrize("error", [NotFound("x"), Unknown("?")])
def test_not_found_and_unknown_can_be_opted_in_by_a_predicate(error: tool.ToolError) -> None:
    clock = FakeClock()
    script = Script([error, error])
    fetch = tool.with_clock(clock.sleep).retrying(tool.retrying_when(lambda e: True), tool.up_to(4).attempts)
    assert fetch(script.sync)() == Ok("done")
    assert script.calls == 3
    default = Script([error])
    assert tool.with_clock(clock.sleep).retrying(tool.up_to(4).attempts)(default.sync)() == Err(error)
    assert default.calls == 1


def test_the_default_schedule_is_capped_at_a_minute_and_never_overflows() -> None:
    assert tool.types.DEFAULT_SCHEDULE.wait_ms(24) == 60_000
    assert tool.exponentially_from(tool.millis(100)).wait_ms(10**6) == 60_000
    assert tool.exponentially_from(tool.millis(100)).by(1.5).wait_ms(10**6) == 60_000
    longer = tool.exponentially_from(tool.millis(100)).capped_at(tool.minutes(10))
    assert longer.wait_ms(14) == 600_000
    clock = FakeClock()
    tool.with_clock(clock.sleep).retrying(tool.up_to(25).attempts)(Script([DOWN] * 30).sync)()
    assert max(clock.slept) == 60_000


def test_system_sleep_refuses_an_absurd_wait_instead_of_overflowing() -> None:
    with pytest.raises(ValueError, match="system_sleep"):
        tool.system_sleep(10**30)
    with pytest.raises(ValueError, match="system_sleep"):
        tool.system_sleep(-1)


def test_float_factors() -> None:
    clock = FakeClock()
    schedule = tool.exponentially_from(tool.millis(100)).by(1.5)
    tool.with_clock(clock.sleep).retrying(tool.up_to(4).attempts, tool.backing_off(schedule))(Script([DOWN] * 5).sync)()
    assert clock.slept == [100, 150, 225]
    assert tool.terse.exponential(100, 1.5).wait_ms(3) == 225
    assert repr(schedule) == "exponentially_from(millis(100)).by(1.5)"
    with pytest.raises(ValueError):
        tool.exponentially_from(tool.millis(100)).by(0.5)


def test_retrying_on_result_polls_until_the_value_is_ready() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    job = Script(["pending", "pending", "ready"])
    poll = tool.with_clock(clock.sleep).retrying(
        tool.retrying_on_result(lambda status: status == "pending"),
        tool.up_to(5).attempts,
        tool.backing_off(tool.constant(tool.seconds(1))),
        tool.observing(events.append),
    )
    assert poll(job.sync)() == Ok("ready")
    assert job.calls == 3 and clock.slept == [1000, 1000]
    assert tool.events.Unsatisfied(1, "pending") in events
    assert events[-1] == tool.events.Succeeded(3, waited_ms=2000)
    # giving up returns the last Ok as it is
    stuck = Script(["pending"] * 9)
    events.clear()
    assert poll(stuck.sync)() == Ok("pending")
    assert events[-1] == tool.events.GaveUp(5, None, "attempts", waited_ms=4000)


def test_retrying_on_result_async() -> None:
    clock = FakeClock()
    job = Script(["pending", "ready"])
    poll = tool.with_clock(clock.asleep).retrying(
        tool.retrying_on_result(lambda s: s == "pending"), tool.up_to(3).attempts
    )
    assert asyncio.run(poll(job.async_)()) == Ok("ready")
    assert clock.slept == [100]


def test_attempts_block_form_sync() -> None:
    clock = FakeClock()
    calls: list[int] = []
    attempts = tool.with_clock(clock.sleep).attempts(tool.up_to(4).attempts)
    for attempt in attempts:
        with attempt:
            calls.append(attempt.number)
            if len(calls) < 3:
                raise ConnectionResetError("reset")
    assert calls == [1, 2, 3]
    assert attempts.result == Ok(None)
    assert (attempts.attempts_made, attempts.waited_ms) == (3, 300)
    assert clock.slept == [100, 200]

    permanent = tool.with_clock(clock.sleep).attempts(tool.up_to(4).attempts)
    for attempt in permanent:
        attempt.record(Err(Denied("no")))
    assert permanent.result == Err(Denied("no")) and permanent.attempts_made == 1


def test_attempts_block_form_async() -> None:
    clock = FakeClock()

    async def main() -> tool.Result[Any]:
        attempts = tool.with_clock(clock.asleep).attempts(tool.up_to(3).attempts)
        async for attempt in attempts:
            with attempt:
                await asyncio.sleep(0)
                attempt.record(Err(DOWN) if attempt.number < 3 else Ok("body"))
        return attempts.result  # type: ignore[return-value]

    assert asyncio.run(main()) == Ok("body")
    assert clock.slept == [100, 200]
    with pytest.raises(TypeError, match="async for"):
        for _ in tool.with_clock(clock.asleep).attempts(tool.up_to(3).attempts):
            pass


def test_statistics_per_call_on_the_events() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    fetch = tool.with_clock(clock.sleep).retrying(tool.up_to(4).attempts, tool.observing(events.append))
    fetch(Script([DOWN, DOWN]).sync)()
    assert events[-1] == tool.events.Succeeded(3, waited_ms=300)


# ---------------------------------------------------------------- 5. hostile values


@pytest.mark.parametrize("text", ['{"_tag":"Timeout","afterMs":NaN}', '{"_tag":"Timeout","afterMs":Infinity}',
                                  '{"_tag":"InvalidArgs","path":"p","expected":"e","got":-Infinity}',
                                  '{"_tag":"Denied","reason":"\\ud800"}',
                                  '{"_tag":"Unknown","message":"m","cause":{"\\udfff":1}}'])
def test_parse_json_refuses_nan_infinity_and_lone_surrogates(text: str) -> None:
    assert tool.parse_json(text) is None


class _Hostile(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize("exc", [_Hostile(), ValueError(10**5000), KeyError(_Hostile())])
def test_dump_dump_json_and_repr_never_raise_on_what_from_exception_returns(exc: Exception) -> None:
    error = tool.from_exception(exc)
    assert isinstance(error, Unknown)
    assert json.loads(tool.dump_json(error))["_tag"] == "Unknown"
    assert tool.dump(error)["_tag"] == "Unknown"
    assert repr(error).startswith("Unknown(")
    assert tool.explain(error)


def test_a_huge_int_as_a_field_value_dumps_and_reprs() -> None:
    error = InvalidArgs("n", "a small int", 10**5000)
    assert "bits" in json.loads(tool.dump_json(error))["got"]
    assert "bits" in repr(error)


@pytest.mark.parametrize(
    "build",
    [lambda: tool.RateLimited(-1), lambda: tool.Timeout(-5), lambda: tool.Timeout(True),
     lambda: tool.RateLimited(2**60), lambda: tool.Unavailable("x", True), lambda: tool.Denied(7),  # type: ignore[arg-type]
     lambda: tool.NotFound("x", ("a", 3))],  # type: ignore[arg-type]
)
def test_values_that_cannot_be_sent_are_refused_when_the_error_is_built(build: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        build()


sendable_text = st.text()  # includes lone surrogates: replaced when the error is built
sendable_errors: st.SearchStrategy[tool.ToolError] = st.one_of(
    st.builds(tool.RateLimited, st.integers(0, 2**53 - 1), st.none() | sendable_text),
    st.builds(tool.InvalidArgs, sendable_text, sendable_text, json_values),
    st.builds(tool.NotFound, sendable_text, st.none() | st.lists(sendable_text, max_size=4).map(tuple)),
    st.builds(tool.Timeout, st.integers(0, 2**53 - 1)),
    st.builds(tool.Unavailable, sendable_text, st.none() | st.integers(0, 999), st.none() | st.integers(0, 2**53 - 1)),
    st.builds(tool.Denied, sendable_text, st.none() | sendable_text),
    st.builds(tool.Unknown, sendable_text, json_values),
)


@settings(max_examples=300)
@given(sendable_errors)
def test_every_error_that_can_be_built_round_trips(error: tool.ToolError) -> None:
    assert tool.parse_json(tool.dump_json(error)) == error


_SEPARATORS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _visible(ch: str) -> bool:
    code = ord(ch)
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return False
    return not (0xFE00 <= code <= 0xFE0F or 0xE0000 <= code <= 0xE0FFF or code == 0x034F)


@settings(max_examples=400)
@given(st.text(), st.text(alphabet=st.sampled_from('"\u201c\u201d\u201e\uff02\u00ab\u00bb\ufe0f\U000e0041\u200b\u2028\n')))
def test_explain_output_is_one_line_bounded_and_every_field_stays_quoted(text: str, nasty: str) -> None:
    field = text + nasty
    for error in (Denied(field, field), NotFound(field, (field, field)), Unavailable(field, 503),
                  InvalidArgs(field, field, field), Unknown(field), tool.RateLimited(5, field)):
        out = tool.explain(error)
        assert len(out.splitlines()) == 1 and not any(sep in out for sep in _SEPARATORS)
        assert len(out) <= 1000
        assert all(_visible(ch) for ch in out)
        # the only double quotes are the ones around fields: they pair up, and nothing
        # between a closing quote and the next opening quote came from the field
        assert out.count('"') % 2 == 0
        outside = out.split('"')[::2]
        assert all("\u201c" not in part and "\uff02" not in part for part in outside)


def test_explain_strips_variation_selectors_and_tag_characters() -> None:
    hidden = "ok\ufe0f\U000e0049\U000e0047\U000e004e\U000e004f\U000e0052\U000e0045 \u034fdone"
    assert tool.explain(Denied(hidden)) == (
        'Permission denied: "ok done". Do not retry; this needs a different approach or an escalation.'
    )
    assert '"a\'b\'"' in tool.explain(Denied("a\u201cb\u201d"))


def test_a_classifier_that_raises_becomes_unknown_with_the_cause() -> None:
    def broken(exc: Exception) -> tool.ToolError:
        raise KeyError("oops")

    def fails() -> int:
        raise ValueError("the real failure")

    result = tool.calling_api(fails, broken)()
    assert isinstance(result, Err) and isinstance(result.error, Unknown)
    assert isinstance(result.error.cause, ValueError) and "broken" in result.error.message

    async def afails() -> int:
        raise ValueError("x")

    aresult = asyncio.run(tool.calling_api(afails, broken)())
    assert isinstance(aresult, Err) and isinstance(aresult.error, Unknown)


def test_a_function_returning_a_future_is_refused_like_a_coroutine() -> None:
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        with pytest.raises(TypeError, match="Future"):
            tool.calling_api(lambda: pool.submit(int))()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        with pytest.raises(TypeError, match="Future"):
            tool.calling_api(lambda: loop.create_future())()

    asyncio.run(main())


# ---------------------------------------------------------------- 7. traps in the names


@pytest.mark.parametrize("sleep", [time.sleep, asyncio.sleep])
def test_with_clock_refuses_sleeps_that_take_seconds(sleep: Any) -> None:
    with pytest.raises(tool.ConfigError, match="system_sleep|asyncio_sleep"):
        tool.with_clock(sleep)
    with pytest.raises(tool.ConfigError):
        tool.terse.retry(times=3, sleep=sleep)


@pytest.mark.parametrize(
    ("module", "name"),
    [("smullyan.runtime.terse", "retry"), ("smullyan.runtime.terse", "deadline"),
     ("smullyan.runtime.terse", "fallback"), ("smullyan.runtime", "explain")],
)
def test_module_names_do_not_shadow_public_functions(module: str, name: str) -> None:
    home = importlib.import_module(module)
    assert callable(getattr(home, name))
    for shadow in (f"{module}.{name}", f"smullyan.runtime.{name}"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(shadow)
    assert all(not n.startswith("_") for n in home.__all__)
    assert not any(isinstance(getattr(home, n), type(sys)) for n in home.__all__)


def test_one_spelling_of_honour_and_one_field_name_for_the_attempt() -> None:
    clock = FakeClock()
    events: list[tool.events.Event] = []
    stage = tool.terse.retry(times=2, sleep=clock.sleep, honour_advice=False, on_event=events.append)
    stage(Script([tool.RateLimited(5000)] * 3).sync)()
    assert clock.slept == [100]
    assert events[-1].attempt == 2  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        tool.terse.retry(times=2, sleep=clock.sleep, honor_advice=False)  # type: ignore[call-overload]


def test_up_to_without_attempts_says_what_is_missing() -> None:
    clock = FakeClock()
    with pytest.raises(tool.ConfigError, match=r"up_to\(4\)\.attempts"):
        tool.with_clock(clock.sleep).retrying(tool.up_to(4))  # type: ignore[arg-type]
    assert "up_to(4).attempts" in repr(tool.up_to(4))


def test_clauses_repr_in_the_dialect() -> None:
    clock = FakeClock()
    assert repr(tool.up_to(4).attempts) == "up_to(4).attempts"
    assert repr(tool.while_transient) == "while_transient"
    assert repr(tool.ignoring_server_advice) == "ignoring_server_advice"
    assert repr(tool.backing_off(tool.exponentially_from(tool.millis(100)))) == (
        "backing_off(exponentially_from(millis(100)))"
    )
    assert repr(tool.constant(tool.millis(250)).capped_at(tool.millis(100))) == (
        "constant(millis(250)).capped_at(millis(100))"
    )
    stage = tool.with_clock(clock.sleep).retrying(tool.while_transient, tool.up_to(4).attempts)
    assert repr(stage) == "retrying(while_transient, up_to(4).attempts, backing_off(exponentially_from(millis(100))))"


def test_a_blocking_system_sleep_under_an_async_tool_is_refused() -> None:
    async def fetch() -> tool.Result[int]:
        return Ok(1)

    stage = tool.system_clock().retrying(tool.up_to(3).attempts)
    assert stage(lambda: Ok(1))() == Ok(1)  # a sync tool is fine
    with pytest.raises(tool.ConfigError, match="asyncio_clock"):
        stage(fetch)



# ---------------------------------------------------------------- 6. typing as users meet it

TYPING_SNIPPET = '''
from __future__ import annotations

from typing import Any

from smullyan import runtime as tool


def get_json() -> Any:  # resp.json(), an untyped SDK
    return {"id": 7}


class UntypedClient:
    def get(self, url):  # type: ignore[no-untyped-def]
        return {"id": 7}


client = UntypedClient()


def name(n: int) -> str:
    return "x"


async def aname(n: int) -> str:
    return "x"


fetch = tool.calling_api(get_json)
result = fetch()
over_untyped = tool.calling_api(lambda: client.get("x"))  # type: ignore[no-untyped-call]
value = over_untyped()
typed: tool.Result[Any] = fetch()

fallback: tool.types.SyncFallingBack[str | None] = tool.falling_back_to(tool.the_value(None))
widened = tool.pipe(tool.calling_api(name), fallback)
reveal_type(widened(1))
reveal_type(tool.calling_api(aname))
reveal_type(tool.pipe(tool.calling_api(aname), tool.with_clock(tool.asyncio_sleep).retrying(tool.up_to(2).attempts)))
'''


@pytest.mark.slow  # a mypy --strict run
def test_any_returning_tools_and_widened_fallbacks_type_check(tmp_path: Any) -> None:
    import subprocess

    snippet = tmp_path / "snippet.py"
    snippet.write_text(TYPING_SNIPPET)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "/dev/null", str(snippet)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert errors == [], proc.stdout
    notes = [line.split("Revealed type is ")[1] for line in proc.stdout.splitlines() if "Revealed type" in line]
    assert "Ok[str | None]" in notes[0] and "Coroutine" not in notes[0]
    assert "AsyncTool[[n: int], str]" in notes[1]
    assert "Coroutine[Any, Any" in notes[2] and "Ok[str]" in notes[2]
