"""smullyan.runtime.otel: traced(...) read back through the OpenTelemetry SDK's in-memory exporters.

Every test runs real stages (retry, deadline, fallback, breaker, keyed with a
SQLite ledger) under ``traced(...)`` with no ``observing(...)`` wired, and
reads what the SDK exported: spans, span events, status, metric points. Each
one also checks that no argument, key or exception message reached any
attribute or status description.
"""

from __future__ import annotations

import asyncio
import logging
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the [test] extra installs opentelemetry-sdk")

from opentelemetry import trace  # noqa: E402
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF  # noqa: E402
from opentelemetry.trace import NoOpTracerProvider, StatusCode  # noqa: E402

from smullyan import runtime as tool  # noqa: E402
from smullyan.runtime import _events  # noqa: E402
from smullyan.runtime.otel import METRICS, key_hash, span_event, traced  # noqa: E402

from ledger_support import WallClock  # noqa: E402

SECRET_ARG = "arg-7f3a-secret"
SECRET_KEY = "key-91c2-secret"
SECRET_MESSAGE = "message-55e0-secret"
SECRETS = (SECRET_ARG, SECRET_KEY, SECRET_MESSAGE)


class Telemetry:
    """An SDK tracer provider and meter provider whose output the test reads."""

    def __init__(self, sampler: Any = None) -> None:
        self.spans = InMemorySpanExporter()
        self.tracer_provider = TracerProvider(sampler=sampler) if sampler is not None else TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.spans))
        self.reader = InMemoryMetricReader()
        self.meter_provider = MeterProvider(metric_readers=[self.reader])

    def stage(self, name: str | None = None) -> tool.SyncStage:
        return traced(name, tracer_provider=self.tracer_provider, meter_provider=self.meter_provider)

    def finished(self) -> list[ReadableSpan]:
        return list(self.spans.get_finished_spans())

    def tool_spans(self) -> list[ReadableSpan]:
        return [s for s in self.finished() if s.name.startswith("tool ")]

    def metrics(self) -> dict[str, dict[frozenset[tuple[str, Any]], Any]]:
        """metric name -> {attributes: value (a sum, or a histogram's (count, sum))}."""
        out: dict[str, dict[frozenset[tuple[str, Any]], Any]] = {}
        data = self.reader.get_metrics_data()
        for resource in data.resource_metrics if data is not None else ():
            for scope in resource.scope_metrics:
                assert scope.scope.name == "smullyan.runtime"
                for metric in scope.metrics:
                    assert metric.unit == METRICS[metric.name][0]
                    points = out.setdefault(metric.name, {})
                    for point in metric.data.data_points:
                        key = frozenset((point.attributes or {}).items())
                        points[key] = getattr(point, "value", None)
                        if points[key] is None:
                            points[key] = (point.count, point.sum)  # type: ignore[attr-defined]
        return out

    def assert_nothing_raw(self) -> None:
        """No argument, key or exception message in any span, event or metric attribute, or any status."""
        texts: list[str] = []
        for span in self.finished():
            texts.append(span.name)
            texts.append(span.status.description or "")
            texts.extend(str(v) for v in (span.attributes or {}).values())
            for event in span.events:
                texts.append(event.name)
                texts.extend(str(v) for v in (event.attributes or {}).values())
        for points in self.metrics().values():
            for attributes in points:
                texts.extend(str(v) for _, v in attributes)
        for text in texts:
            for secret in SECRETS:
                assert secret not in text, f"{secret!r} leaked into {text!r}"


def attrs(**pairs: Any) -> frozenset[tuple[str, Any]]:
    return frozenset((k.replace("__", "."), v) for k, v in pairs.items())


def events_of(span: ReadableSpan) -> list[tuple[str, dict[str, Any]]]:
    return [(e.name, dict(e.attributes or {})) for e in span.events]


@pytest.fixture
def otel() -> Telemetry:
    return Telemetry()


class Clock:
    def __init__(self) -> None:
        self.slept: list[int] = []

    def sleep(self, ms: int) -> None:
        self.slept.append(ms)


TOOL = "smullyan.tool.name"


# ---------------------------------------------------------------- retry


def _flaky(outcomes: list[tool.Result[int]], seen: list[object], is_async: bool) -> Any:
    @tool.read_safe
    def search_issues(query: str) -> tool.Result[int]:
        seen.append((_events.recorder.get() is not None, trace.get_current_span().is_recording()))
        return outcomes.pop(0)

    @tool.read_safe
    async def search_issues_async(query: str) -> tool.Result[int]:
        return search_issues(query)

    return search_issues_async if is_async else search_issues


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_two_failures_then_success_is_one_span_with_every_event(otel: Telemetry, is_async: bool) -> None:
    outcomes: list[tool.Result[int]] = [
        tool.Err(tool.rate_limited(1500, SECRET_MESSAGE)),
        tool.Err(tool.unavailable(SECRET_MESSAGE, 503)),
        tool.Ok(3),
    ]
    seen: list[object] = []
    clock = Clock()
    search = tool.pipe(
        _flaky(outcomes, seen, is_async),
        tool.with_clock(clock.sleep).retrying(tool.while_transient, tool.up_to(4).attempts),
        otel.stage(),
    )
    result = asyncio.run(search(SECRET_ARG)) if is_async else search(SECRET_ARG)
    assert result == tool.Ok(3) and clock.slept == [1500, 200]
    assert seen == [(True, True)] * 3  # the recorder and the span reach the tool, no observer wired

    [span] = otel.tool_spans()
    assert span.name == "tool search_issues" + ("_async" if is_async else "")
    name = span.name.removeprefix("tool ")
    assert dict(span.attributes or {}) == {
        TOOL: name, "smullyan.tool.classification": "read_safe", "smullyan.attempts": 3,
    }
    assert span.status.status_code is StatusCode.OK
    assert events_of(span) == [
        ("smullyan.failed", {"smullyan.attempt": 1, "smullyan.error.tag": "RateLimited", "smullyan.error.retryable": True}),
        ("smullyan.waiting", {"smullyan.attempt": 1, "smullyan.wait_ms": 1500, "smullyan.advised": True}),
        ("smullyan.attempted", {"smullyan.attempt": 2}),
        ("smullyan.failed", {"smullyan.attempt": 2, "smullyan.error.tag": "Unavailable", "smullyan.error.retryable": True}),
        ("smullyan.waiting", {"smullyan.attempt": 2, "smullyan.wait_ms": 200, "smullyan.advised": False}),
        ("smullyan.attempted", {"smullyan.attempt": 3}),
        ("smullyan.succeeded", {"smullyan.attempt": 3, "smullyan.waited_ms": 1700}),
    ]
    assert otel.metrics() == {
        "smullyan.tool.calls": {attrs(smullyan__tool__name=name): 1},
        "smullyan.tool.attempts": {
            attrs(smullyan__tool__name=name, smullyan__error__tag="RateLimited"): 1,
            attrs(smullyan__tool__name=name, smullyan__error__tag="Unavailable"): 1,
            attrs(smullyan__tool__name=name): 1,
        },
        "smullyan.tool.retries": {
            attrs(smullyan__tool__name=name, smullyan__error__tag="RateLimited"): 1,
            attrs(smullyan__tool__name=name, smullyan__error__tag="Unavailable"): 1,
        },
        "smullyan.tool.wait.duration": {
            attrs(smullyan__tool__name=name, smullyan__error__tag="RateLimited", smullyan__advised=True): (1, 1500),
            attrs(smullyan__tool__name=name, smullyan__error__tag="Unavailable", smullyan__advised=False): (1, 200),
        },
    }
    otel.assert_nothing_raw()


def test_a_user_observer_still_gets_every_event_and_the_trace_is_the_same(otel: Telemetry) -> None:
    outcomes: list[tool.Result[int]] = [tool.Err(tool.unavailable("x")), tool.Ok(1)]
    mine: list[object] = []
    search = tool.pipe(
        _flaky(outcomes, [], False),
        tool.with_clock(Clock().sleep).retrying(tool.up_to(3).attempts, tool.observing(mine.append)),
        otel.stage("search"),
    )
    assert search("q") == tool.Ok(1)
    assert [type(e).__name__ for e in mine] == ["Attempted", "Failed", "Waiting", "Attempted", "Succeeded"]
    [span] = otel.tool_spans()
    assert [name for name, _ in events_of(span)] == [
        "smullyan.failed", "smullyan.waiting", "smullyan.attempted", "smullyan.succeeded",
    ]


def test_giving_up_is_an_error_span_described_by_the_tag(otel: Telemetry) -> None:
    def fetch(path: str) -> str:
        raise ConnectionError(SECRET_MESSAGE)  # from_exception: Unavailable, its reason the message

    failing = tool.pipe(
        tool.calling_api(fetch),
        tool.with_clock(Clock().sleep).retrying(tool.up_to(2).attempts, tool.backing_off(tool.constant(tool.millis(50)))),
        otel.stage(),
    )
    result = failing(SECRET_ARG)
    assert isinstance(result, tool.Err) and SECRET_MESSAGE in repr(result.error)
    [span] = otel.tool_spans()
    assert span.name == "tool fetch"
    assert span.status.status_code is StatusCode.ERROR and span.status.description == "Unavailable"
    assert dict(span.attributes or {}) == {
        TOOL: "fetch", "smullyan.attempts": 2, "error.type": "Unavailable",
        "smullyan.error.tag": "Unavailable", "smullyan.error.retryable": True,
    }
    assert events_of(span)[-1] == (
        "smullyan.gave_up",
        {"smullyan.attempt": 2, "smullyan.gave_up.reason": "attempts", "smullyan.waited_ms": 50,
         "smullyan.error.tag": "Unavailable", "smullyan.error.retryable": True},
    )
    metrics = otel.metrics()
    assert metrics["smullyan.tool.calls"] == {attrs(smullyan__tool__name="fetch", smullyan__error__tag="Unavailable"): 1}
    assert metrics["smullyan.tool.attempts"] == {
        attrs(smullyan__tool__name="fetch", smullyan__error__tag="Unavailable"): 2,
    }
    otel.assert_nothing_raw()


def test_an_invalid_argument_gives_up_at_once_and_its_value_stays_out(otel: Telemetry) -> None:
    def check(value: str) -> tool.Result[str]:
        return tool.Err(tool.invalid_args("query", "a repo name", value))

    checked = tool.pipe(check, tool.with_clock(Clock().sleep).retrying(tool.up_to(3).attempts), otel.stage())
    assert checked(SECRET_ARG) == tool.Err(tool.invalid_args("query", "a repo name", SECRET_ARG))
    [span] = otel.tool_spans()
    assert [(n, a.get("smullyan.gave_up.reason")) for n, a in events_of(span)] == [
        ("smullyan.failed", None), ("smullyan.gave_up", "not_retryable"),
    ]
    assert span.status.description == "InvalidArgs"
    otel.assert_nothing_raw()


# ---------------------------------------------------------------- deadline


class Gate:
    """An async clock whose long sleeps (the deadline's) end when the tool says it hangs."""

    def __init__(self) -> None:
        self.hanging = asyncio.Event()
        self.slept: list[int] = []

    async def sleep(self, ms: int) -> None:
        self.slept.append(ms)
        if ms >= 1000:
            await self.hanging.wait()


def test_a_deadline_that_fires_ends_the_span_once_in_the_callers_context(
    otel: Telemetry, caplog: pytest.LogCaptureFixture
) -> None:
    tracer = otel.tracer_provider.get_tracer("test")

    async def scenario() -> tuple[tool.Result[int], list[bool]]:
        gate = Gate()
        calls: list[int] = []

        async def slow_search(query: str) -> tool.Result[int]:
            calls.append(1)
            if len(calls) == 1:
                return tool.Err(tool.unavailable(SECRET_MESSAGE))
            with tracer.start_as_current_span("http GET"):  # the tool's own span, inside the attempt
                gate.hanging.set()
                await asyncio.Event().wait()  # never answers: the deadline cancels it
            return tool.Ok(1)

        clock = tool.with_clock(gate.sleep)
        search = tool.pipe(
            slow_search,
            clock.retrying(tool.up_to(3).attempts),
            clock.giving_up_after(tool.seconds(5)),
            otel.stage(),
        )
        with tracer.start_as_current_span("agent turn") as turn:
            result = await search(SECRET_ARG)
            after = [trace.get_current_span() is turn, _events.recorder.get() is None]
        await asyncio.sleep(0)
        return result, after

    with caplog.at_level(logging.WARNING):
        result, after = asyncio.run(scenario())
    assert result == tool.Err(tool.Timeout(5000))
    assert after == [True, True]  # the caller's span and recorder are its own again
    assert not [r for r in caplog.records if "ended span" in r.getMessage() or "end()" in r.getMessage()]
    spans = {s.name: s for s in otel.finished()}
    assert sorted(spans) == ["agent turn", "http GET", "tool slow_search"]
    span = spans["tool slow_search"]
    assert span.parent is not None and span.parent.span_id == spans["agent turn"].context.span_id
    http = spans["http GET"]
    assert http.parent is not None and http.parent.span_id == span.context.span_id
    assert span.status.status_code is StatusCode.ERROR and span.status.description == "Timeout"
    assert events_of(span) == [
        ("smullyan.failed", {"smullyan.attempt": 1, "smullyan.error.tag": "Unavailable", "smullyan.error.retryable": True}),
        ("smullyan.waiting", {"smullyan.attempt": 1, "smullyan.wait_ms": 100, "smullyan.advised": False}),
        ("smullyan.attempted", {"smullyan.attempt": 2}),
        ("smullyan.timed_out", {"smullyan.deadline_ms": 5000}),
    ]
    assert otel.metrics()["smullyan.tool.attempts"] == {
        attrs(smullyan__tool__name="slow_search", smullyan__error__tag="Unavailable"): 1,
        attrs(smullyan__tool__name="slow_search", smullyan__error__tag="Timeout"): 1,
    }
    otel.assert_nothing_raw()


def test_an_abandoned_attempt_reports_nothing_after_the_span_ended(
    otel: Telemetry, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> tuple[tool.Result[int], int]:
        gate = Gate()
        done = asyncio.Event()
        calls: list[int] = []

        async def stubborn(query: str) -> tool.Result[int]:
            calls.append(1)
            if len(calls) > 1:
                return tool.Err(tool.unavailable("again"))
            gate.hanging.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                for _ in range(5):  # ignores the cancellation and goes on for a while: abandoned
                    await asyncio.sleep(0)
            done.set()
            return tool.Err(tool.unavailable("late"))

        clock = tool.with_clock(gate.sleep)
        search = tool.pipe(
            stubborn, clock.retrying(tool.up_to(3).attempts), clock.giving_up_after(tool.seconds(5)), otel.stage(),
        )
        result = await search("q")
        ended = len(otel.tool_spans()[0].events)
        await asyncio.wait_for(done.wait(), 5)
        for _ in range(20):  # let the abandoned retry run on
            await asyncio.sleep(0)
        return result, ended

    with caplog.at_level(logging.WARNING):
        result, ended = asyncio.run(scenario())
    assert result == tool.Err(tool.Timeout(5000))
    [span] = otel.tool_spans()
    names = [name for name, _ in events_of(span)]
    assert "smullyan.abandoned" in names and names.count("smullyan.timed_out") == 1
    assert len(span.events) == ended  # the late Failed/Waiting of the abandoned retry went nowhere
    assert not [r for r in caplog.records if r.name.startswith("opentelemetry")]


def test_a_sync_tool_abandoned_in_its_thread_reports_nothing_after_the_span_ended(
    otel: Telemetry, caplog: pytest.LogCaptureFixture
) -> None:
    import threading

    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    calls: list[bool] = []

    def blocking(query: str) -> tool.Result[int]:  # a sync tool: the async deadline runs it in a thread
        calls.append(_events.recorder.get() is not None)
        if len(calls) == 1:
            started.set()
            release.wait(10)
        elif len(calls) == 3:
            finished.set()
        return tool.Err(tool.unavailable("late"))

    async def fired_when_started(ms: int) -> None:
        while not started.is_set():
            await asyncio.sleep(0.001)

    async def scenario() -> tuple[tool.Result[int], int]:
        search = tool.pipe(
            blocking,
            tool.with_clock(Clock().sleep).retrying(tool.up_to(3).attempts),  # runs in the thread too
            tool.with_clock(fired_when_started).giving_up_after(tool.seconds(5)),
            otel.stage(),
        )
        result = await search("q")
        ended = len(otel.tool_spans()[0].events)
        release.set()
        await asyncio.to_thread(finished.wait, 10)
        return result, ended

    with caplog.at_level(logging.WARNING):
        result, ended = asyncio.run(scenario())
    assert result == tool.Err(tool.Timeout(5000))
    assert calls == [True, True, True]  # the thread saw the call's recorder; its late events went nowhere
    [span] = otel.tool_spans()
    assert len(span.events) == ended and [n for n, _ in events_of(span)][-1] == "smullyan.timed_out"
    assert not [r for r in caplog.records if r.name.startswith("opentelemetry")]


def test_a_sync_deadline_a_retry_would_overrun(otel: Telemetry) -> None:
    clock = tool.with_clock(Clock().sleep)
    search = tool.pipe(
        lambda: tool.Err(tool.unavailable("x")),
        clock.retrying(tool.up_to(5).attempts, tool.backing_off(tool.constant(tool.millis(400)))),
        clock.giving_up_after(tool.millis(1000)),
        otel.stage("search"),
    )
    assert search() == tool.Err(tool.unavailable("x"))
    [span] = otel.tool_spans()
    gave_up = [a for n, a in events_of(span) if n == "smullyan.gave_up"]
    assert [a["smullyan.gave_up.reason"] for a in gave_up] == ["deadline"]


# ---------------------------------------------------------------- fallback, breaker, keyed


def test_a_fallback_is_an_event_and_the_span_is_ok(otel: Telemetry) -> None:
    def live(repo: str) -> str:
        raise TimeoutError(SECRET_MESSAGE)

    issues = tool.pipe(tool.calling_api(live), tool.falling_back_to(tool.the_value(["cached"])), otel.stage())
    assert issues(SECRET_ARG) == tool.Ok(["cached"])
    [span] = otel.tool_spans()
    assert span.status.status_code is StatusCode.OK
    assert events_of(span) == [("smullyan.fell_back", {"smullyan.error.tag": "Timeout", "smullyan.error.retryable": True})]
    assert otel.metrics()["smullyan.tool.fallbacks"] == {
        attrs(smullyan__tool__name="live", smullyan__error__tag="Timeout"): 1,
    }
    otel.assert_nothing_raw()


def test_a_circuit_that_opens_is_an_event_and_a_metric(otel: Telemetry) -> None:
    now = WallClock()
    breaker = tool.breaking_after(2).failures(within=tool.seconds(30)).for_(tool.seconds(60), now=now)
    down = tool.pipe(lambda: tool.Err(tool.unavailable("503")), breaker, otel.stage("status"))
    down(), down()
    assert down() == tool.Err(tool.unavailable("circuit open: 2 transient failures; next probe in 60000 ms", retry_after_ms=60_000))
    first, second, refused = otel.tool_spans()
    assert events_of(first) == []
    assert events_of(second) == [("smullyan.circuit_changed", {
        "smullyan.circuit.before": "closed", "smullyan.circuit.after": "open", "smullyan.circuit.failures": 2,
    })]
    assert refused.status.description == "Unavailable"
    assert otel.metrics()["smullyan.tool.circuit.changes"] == {
        attrs(smullyan__tool__name="status", smullyan__circuit__before="closed", smullyan__circuit__after="open"): 1,
    }


def test_a_keyed_write_replayed_from_the_ledger_shows_the_key_hash_only(otel: Telemetry, tmp_path: Path) -> None:
    charges: list[str] = []

    @tool.non_idempotent_write
    def charge(order: str, cents: int) -> str:
        charges.append(order)
        return f"ch_{len(charges)}"

    ledger = tool.ledger.SQLiteLedger(tmp_path / "ledger.db", now=WallClock())
    pay = tool.pipe(
        tool.keyed(tool.calling_api(charge), tool.recorded_in(ledger), key_from=lambda order, cents: f"{SECRET_KEY}:{order}"),
        tool.with_clock(Clock().sleep).retrying(tool.while_transient, tool.up_to(3).attempts),
        otel.stage(),
    )
    assert pay(SECRET_ARG, 500) == tool.Ok("ch_1")
    assert pay(SECRET_ARG, 500) == tool.Ok("ch_1")  # the ledger's stored outcome: no second charge
    assert charges == [SECRET_ARG]
    first, replayed = otel.tool_spans()
    assert first.name == replayed.name == "tool charge"
    assert dict(replayed.attributes or {})["smullyan.tool.classification"] == "non_idempotent_write"
    assert events_of(first) == []
    assert events_of(replayed) == [("smullyan.replayed", {"smullyan.key.hash": key_hash(f"{SECRET_KEY}:{SECRET_ARG}")})]
    assert replayed.status.status_code is StatusCode.OK
    otel.assert_nothing_raw()


def test_every_event_maps_to_typed_attributes_without_its_key_or_value() -> None:
    error = tool.unavailable(SECRET_MESSAGE)
    samples: dict[type, object] = {
        tool.events.Attempted: tool.events.Attempted(2), tool.events.Succeeded: tool.events.Succeeded(2, 10),
        tool.events.Failed: tool.events.Failed(1, error), tool.events.Unsatisfied: tool.events.Unsatisfied(1, SECRET_ARG),
        tool.events.Waiting: tool.events.Waiting(1, 10, False), tool.events.GaveUp: tool.events.GaveUp(1, None, "budget", 0),
        tool.events.TimedOut: tool.events.TimedOut(5), tool.events.Abandoned: tool.events.Abandoned(5), tool.events.FellBack: tool.events.FellBack(error),
        tool.events.TakenOver: tool.events.TakenOver(SECRET_KEY, True), tool.events.Reconciled: tool.events.Reconciled(SECRET_KEY, False),
        tool.events.Replayed: tool.events.Replayed(SECRET_KEY), tool.events.LeaseLost: tool.events.LeaseLost(SECRET_KEY),
        tool.events.CircuitChanged: tool.events.CircuitChanged("open", "half_open", 3),
    }
    assert set(samples) == set(typing.get_args(tool.events.Event))
    names = set()
    for event in samples.values():
        name, attributes = span_event(event)  # type: ignore[arg-type]
        names.add(name)
        assert name.startswith("smullyan.") and attributes
        for key, value in attributes.items():
            assert key.startswith("smullyan.") and type(value) in (str, bool, int)
            assert all(secret not in str(value) for secret in SECRETS)
    assert len(names) == len(samples)
    assert key_hash(SECRET_KEY) == key_hash(SECRET_KEY) != key_hash(SECRET_KEY + "x")
    assert len(key_hash(SECRET_KEY)) == 16 and int(key_hash(SECRET_KEY), 16) >= 0


# ---------------------------------------------------------------- spans, context, providers


def test_a_raising_tool_is_an_error_by_class_and_the_exception_propagates(otel: Telemetry) -> None:
    def broken(query: str) -> tool.Result[int]:
        raise RuntimeError(SECRET_MESSAGE)

    with pytest.raises(RuntimeError, match=SECRET_MESSAGE):
        tool.pipe(broken, otel.stage())(SECRET_ARG)
    [span] = otel.tool_spans()
    assert span.status.status_code is StatusCode.ERROR and span.status.description == "RuntimeError"
    assert dict(span.attributes or {})["error.type"] == "builtins.RuntimeError"
    assert span.events == ()  # no exception event: its message is raw text
    assert _events.recorder.get() is None and not trace.get_current_span().is_recording()
    otel.assert_nothing_raw()


def test_a_traced_tool_inside_a_traced_tool_is_its_child_with_its_own_events(otel: Telemetry) -> None:
    clock = tool.with_clock(Clock().sleep)
    inner_outcomes: list[tool.Result[int]] = [tool.Err(tool.unavailable("x")), tool.Ok(2)]
    lookup = tool.pipe(lambda: inner_outcomes.pop(0), clock.retrying(tool.up_to(2).attempts), otel.stage("lookup"))

    def plan() -> tool.Result[int]:
        found = lookup()
        return tool.Ok(found.value * 10) if isinstance(found, tool.Ok) else found

    assert tool.pipe(plan, clock.retrying(tool.up_to(2).attempts), otel.stage("plan"))() == tool.Ok(20)
    spans = {s.name: s for s in otel.tool_spans()}
    inner, outer = spans["tool lookup"], spans["tool plan"]
    assert inner.parent is not None and inner.parent.span_id == outer.context.span_id
    assert [n for n, _ in events_of(inner)] == ["smullyan.failed", "smullyan.waiting", "smullyan.attempted", "smullyan.succeeded"]
    assert events_of(outer) == []


def test_names_labels_and_bad_arguments(otel: Telemetry) -> None:
    def get_issue(number: int) -> int:
        return number

    assert repr(traced()) == "traced()" and repr(traced("issues")) == "traced('issues')"
    tool.pipe(tool.calling_api(get_issue), tool.with_clock(Clock().sleep).retrying(tool.up_to(2).attempts), otel.stage())(1)
    tool.pipe(tool.calling_api(get_issue), otel.stage("github.get_issue"))(1)
    assert [s.name for s in otel.tool_spans()] == ["tool get_issue", "tool github.get_issue"]
    assert "smullyan.tool.classification" not in (otel.tool_spans()[0].attributes or {})  # unclassified
    for bad in ("", "  ", 3):
        with pytest.raises(tool.ConfigError, match="tool name"):
            traced(bad)  # type: ignore[arg-type]
    with pytest.raises(tool.ConfigError, match="TracerProvider"):
        traced(tracer_provider=object())  # type: ignore[arg-type]
    with pytest.raises(tool.ConfigError, match="MeterProvider"):
        traced(meter_provider="meter")  # type: ignore[arg-type]


@pytest.fixture
def no_global_provider() -> Iterator[None]:
    if getattr(trace, "_TRACER_PROVIDER", None) is not None:
        pytest.skip("a global tracer provider was set in this process")
    yield


def _recording_seen() -> tuple[list[object], Any]:
    seen: list[object] = []

    def probe() -> tool.Result[int]:
        seen.append((_events.recorder.get(), trace.get_current_span().is_recording()))
        return tool.Err(tool.unavailable("x")) if len(seen) == 1 else tool.Ok(len(seen))

    return seen, probe


@pytest.mark.parametrize("case", ["no global provider", "no-op provider", "sampled out"])
def test_nothing_is_recorded_when_spans_go_nowhere(case: str, no_global_provider: None) -> None:
    seen, probe = _recording_seen()
    sampled_out = Telemetry(sampler=ALWAYS_OFF)
    stage = {
        "no global provider": traced(),
        "no-op provider": traced(tracer_provider=NoOpTracerProvider()),
        "sampled out": traced(tracer_provider=sampled_out.tracer_provider),
    }[case]
    traced_probe = tool.pipe(probe, tool.with_clock(Clock().sleep).retrying(tool.up_to(2).attempts), stage)
    assert traced_probe() == tool.Ok(2)
    assert seen == [(None, False), (None, False)]
    assert sampled_out.finished() == []


def test_metrics_alone_need_no_tracer(no_global_provider: None) -> None:
    otel = Telemetry()
    counted = tool.pipe(lambda: tool.Err(tool.denied("no")), traced("deny", meter_provider=otel.meter_provider))
    counted(), counted()
    assert otel.metrics()["smullyan.tool.calls"] == {attrs(smullyan__tool__name="deny", smullyan__error__tag="Denied"): 2}


GLOBAL_PROVIDER = """
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from smullyan import runtime as tool
from smullyan.runtime.otel import traced

ping = tool.pipe(lambda: tool.Ok(1), traced("ping"))  # built before any provider is set
assert ping() == tool.Ok(1)
spans = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(spans))
trace.set_tracer_provider(provider)
assert ping() == tool.Ok(1)
print([s.name for s in spans.get_finished_spans()])
"""


def test_the_global_provider_is_found_once_it_is_set() -> None:
    out = subprocess.run([sys.executable, "-c", GLOBAL_PROVIDER], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['tool ping']"


def test_without_opentelemetry_the_module_says_what_to_install() -> None:
    code = "import sys; sys.modules['opentelemetry'] = None\nimport smullyan.runtime.otel\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "pip install 'smullyan[otel]'" in out.stderr.splitlines()[-1]


def test_the_docs_console_setup_runs_as_printed() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "runtime.md").read_text()
    section = docs.split("## Tracing: OpenTelemetry", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None
    out = subprocess.run([sys.executable, "-c", found.group(1)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith("Ok(value=['#7'])")
    printed = re.findall(r'"name": "([^"]+)"', out.stdout)
    assert printed == ["tool search_issues"] + [
        f"smullyan.{e}" for e in ("failed", "waiting", "attempted", "failed", "waiting", "attempted", "succeeded")
    ]
    assert printed == re.findall(r'"name": "([^"]+)"', section.split("```text", 1)[1].split("```", 1)[0])
