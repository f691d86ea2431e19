"""``traced(...)``: typed tool failures as OpenTelemetry spans, span events and metrics.

``pip install 'smullyan[otel]'`` (``opentelemetry-api``; an SDK and an
exporter are the application's choice). ``import smullyan.runtime`` never
imports this module or OpenTelemetry.

``traced()`` is a stage that goes outermost in a ``pipe(...)``::

    from smullyan import runtime as tool
    from smullyan.runtime.otel import traced

    search = tool.pipe(
        tool.calling_api(search_issues),
        clock.retrying(tool.while_transient, tool.up_to(4).attempts),
        clock.giving_up_after(tool.seconds(10)),
        traced(),
    )

Each call is one span, ``tool <name>``; every runtime event of the stages
inside it (retry, deadline, fallback, breaker, keyed/ledger) becomes a span
event with typed attributes, with no ``observing(...)`` wired by hand: the
call's recorder rides a context variable that every stage emits to. The
span's status is OK for ``Ok`` and ERROR for ``Err``, described by the
error's tag. No attribute ever carries an argument, an idempotency key (only
:func:`key_hash` of it), an exception message or ``explain``'s text (which
quotes both): a trace is read by more people than the tool's inputs are.

With a meter provider the same events feed counters and a histogram (see
:data:`METRICS`).
"""

from __future__ import annotations

import hashlib
import threading
from importlib import metadata
from contextvars import Token
from typing import Any, Awaitable, Callable, Final, Mapping, Union

from . import _events
from ._errors import Err, Ok, ToolError, assert_never, is_retryable
from ._events import (
    Abandoned,
    Attempted,
    Event,
    Failed,
    FellBack,
    GaveUp,
    Succeeded,
    TimedOut,
    Unsatisfied,
    Waiting,
)
from ._retry import ConfigError
from ._tools import SyncStage
from ._write_events import CircuitChanged, LeaseLost, Reconciled, Replayed, TakenOver
from .classification import classification_of, tool_name

try:
    from opentelemetry import context as otel_context
    from opentelemetry import trace
    from opentelemetry.context import Context
    from opentelemetry.metrics import Counter, Histogram, MeterProvider
    from opentelemetry.trace import NoOpTracer, ProxyTracerProvider, Span, Status, StatusCode, Tracer, TracerProvider
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.otel needs the OpenTelemetry API: pip install 'smullyan[otel]'"
    ) from _exc

__all__ = ["traced", "key_hash", "span_event", "SCOPE", "METRICS"]

def _version() -> str:
    """The instrumentation scope's version: the installed distribution's (the runtime reaches nothing above itself)."""
    try:
        return metadata.version("smullyan")
    except metadata.PackageNotFoundError:  # pragma: no cover - a copy of the source that is not installed
        return "0"


_VERSION: Final = _version()

SCOPE: Final = "smullyan.runtime"
"""The instrumentation scope (tracer and meter name) of every span and metric."""

Value = Union[str, bool, int]
Attributes = dict[str, Value]

# span and event attributes
TOOL_NAME: Final = "smullyan.tool.name"
CLASSIFICATION: Final = "smullyan.tool.classification"
ATTEMPTS: Final = "smullyan.attempts"
ATTEMPT: Final = "smullyan.attempt"
TAG: Final = "smullyan.error.tag"
RETRYABLE: Final = "smullyan.error.retryable"
ERROR_TYPE: Final = "error.type"  # OpenTelemetry's own attribute for the class of an error
WAIT_MS: Final = "smullyan.wait_ms"
WAITED_MS: Final = "smullyan.waited_ms"
ADVISED: Final = "smullyan.advised"
REASON: Final = "smullyan.gave_up.reason"
DEADLINE_MS: Final = "smullyan.deadline_ms"
KEY_HASH: Final = "smullyan.key.hash"
RECONCILING: Final = "smullyan.reconciling"
FOUND: Final = "smullyan.found"
CIRCUIT_BEFORE: Final = "smullyan.circuit.before"
CIRCUIT_AFTER: Final = "smullyan.circuit.after"
CIRCUIT_FAILURES: Final = "smullyan.circuit.failures"

METRICS: Final[Mapping[str, tuple[str, str]]] = {
    "smullyan.tool.calls": ("{call}", "Logical tool calls (one per traced call), by tool and, for an Err, tag"),
    "smullyan.tool.attempts": ("{attempt}", "Attempts, by tool and, for a failed attempt, its error's tag"),
    "smullyan.tool.retries": ("{retry}", "Attempts after the first, by tool and the tag of the failure retried"),
    "smullyan.tool.wait.duration": ("ms", "Waits before a retry, by tool, tag and whether a server advised it"),
    "smullyan.tool.fallbacks": ("{fallback}", "Errors replaced by a fallback, by tool and tag"),
    "smullyan.tool.circuit.changes": ("{change}", "Circuit breaker state changes, by tool, before and after"),
}
"""Every metric: name -> (unit, description); names and units in OpenTelemetry's semantic-convention style."""


_OK: Final = Status(StatusCode.OK)


def key_hash(key: str) -> str:
    """The ``smullyan.key.hash`` of an idempotency key: 16 hex digits of its SHA-256, never the key.

    Compute it for a key you hold to find its call in a trace. A key that
    can be guessed (``order-42``) can be recovered from its hash by trying
    guesses: make keys from something unguessable when traces leave your hands.
    """
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _error(attributes: Attributes, error: ToolError) -> Attributes:
    attributes[TAG] = error.tag
    attributes[RETRYABLE] = is_retryable(error)
    return attributes


def span_event(event: Event) -> tuple[str, Attributes]:
    """The span event for a runtime event: its name and its typed attributes (no argument, key or message)."""
    match event:
        case Attempted(attempt):
            return "smullyan.attempted", {ATTEMPT: attempt}
        case Succeeded(attempt, waited_ms):
            return "smullyan.succeeded", {ATTEMPT: attempt, WAITED_MS: waited_ms}
        case Failed(attempt, error):
            return "smullyan.failed", _error({ATTEMPT: attempt}, error)
        case Unsatisfied(attempt, _):
            return "smullyan.unsatisfied", {ATTEMPT: attempt}  # never the value
        case Waiting(attempt, wait_ms, advised):
            return "smullyan.waiting", {ATTEMPT: attempt, WAIT_MS: wait_ms, ADVISED: advised}
        case GaveUp(attempt, error, reason, waited_ms):
            attributes: Attributes = {ATTEMPT: attempt, REASON: reason, WAITED_MS: waited_ms}
            return "smullyan.gave_up", attributes if error is None else _error(attributes, error)
        case TimedOut(after_ms):
            return "smullyan.timed_out", {DEADLINE_MS: after_ms}
        case Abandoned(after_ms):
            return "smullyan.abandoned", {DEADLINE_MS: after_ms}
        case FellBack(error):
            return "smullyan.fell_back", _error({}, error)
        case TakenOver(key, reconciling):
            return "smullyan.taken_over", {KEY_HASH: key_hash(key), RECONCILING: reconciling}
        case Reconciled(key, found):
            return "smullyan.reconciled", {KEY_HASH: key_hash(key), FOUND: found}
        case Replayed(key):
            return "smullyan.replayed", {KEY_HASH: key_hash(key)}
        case LeaseLost(key):
            return "smullyan.lease_lost", {KEY_HASH: key_hash(key)}
        case CircuitChanged(before, after, failures):
            return "smullyan.circuit_changed", {
                CIRCUIT_BEFORE: before, CIRCUIT_AFTER: after, CIRCUIT_FAILURES: failures,
            }
        case _:
            assert_never(event)


# ---------------------------------------------------------------- providers


# Until a global tracer provider is set, a traced call only reads the API's module global
# (the public get_tracer_provider() reads os.environ on every call: about a microsecond).
_CHEAP_CHECK: Final = hasattr(trace, "_TRACER_PROVIDER")

if _CHEAP_CHECK:

    def _global_provider() -> TracerProvider | None:
        """The global tracer provider once one is set, else None."""
        return trace._TRACER_PROVIDER

else:  # pragma: no cover - an API without the module global: the public call (it reads os.environ)

    def _global_provider() -> TracerProvider | None:
        provider = trace.get_tracer_provider()
        return None if isinstance(provider, ProxyTracerProvider) else provider


class _Metrics:
    """The instruments of one ``traced(...)`` stage."""

    __slots__ = ("calls", "attempts", "retries", "waits", "fallbacks", "circuit")

    def __init__(self, provider: MeterProvider) -> None:
        meter = provider.get_meter(SCOPE, _VERSION)
        (calls, attempts, retries, waits, fallbacks, circuit) = METRICS
        self.calls: Counter = meter.create_counter(calls, *METRICS[calls])
        self.attempts: Counter = meter.create_counter(attempts, *METRICS[attempts])
        self.retries: Counter = meter.create_counter(retries, *METRICS[retries])
        self.waits: Histogram = meter.create_histogram(waits, *METRICS[waits])
        self.fallbacks: Counter = meter.create_counter(fallbacks, *METRICS[fallbacks])
        self.circuit: Counter = meter.create_counter(circuit, *METRICS[circuit])


class _Telemetry:
    """Where one ``traced(...)`` stage's spans and metrics go; the tracer is looked up per call until found."""

    __slots__ = ("_tracer", "_global", "metrics", "idle")

    def __init__(self, tracer_provider: TracerProvider | None, meter_provider: MeterProvider | None) -> None:
        self._tracer: Tracer | None = None
        self._global = tracer_provider is None or isinstance(tracer_provider, ProxyTracerProvider)
        if self._global:
            trace.get_tracer_provider()  # loads a provider named by OTEL_PYTHON_TRACER_PROVIDER, if any
        else:
            assert tracer_provider is not None
            self._tracer = self._usable(tracer_provider)
        self.metrics = _Metrics(meter_provider) if meter_provider is not None else None
        # True while a call need only see ``trace._TRACER_PROVIDER is None`` to skip everything
        self.idle = self._global and self.metrics is None and _CHEAP_CHECK

    @staticmethod
    def _usable(provider: TracerProvider) -> Tracer | None:
        tracer = provider.get_tracer(SCOPE, _VERSION)
        return None if isinstance(tracer, NoOpTracer) else tracer

    def tracer(self) -> Tracer | None:
        """The tracer for this call, or None when spans go nowhere (no provider yet, or a no-op one)."""
        if self._tracer is not None or not self._global:
            return self._tracer
        provider = _global_provider()
        if provider is None:
            return None
        self._tracer = self._usable(provider)  # the global provider is set once: keep its tracer
        self._global = self.idle = False
        return self._tracer


# ---------------------------------------------------------------- one call


class _Call:
    """One traced call: its span, and the recorder its stages' events reach (through the context variable)."""

    __slots__ = (
        "span", "recording", "metrics", "metric_attributes", "attempt", "ended", "last_tag", "open", "lock",
        "context_token", "recorder_token",
    )

    def __init__(self, span: Span | None, metrics: _Metrics | None, metric_attributes: Attributes) -> None:
        self.span = span
        self.recording = span is not None and span.is_recording()
        self.metrics = metrics
        self.metric_attributes = metric_attributes
        self.attempt = 1  # the attempt running now: the span itself is attempt 1
        self.ended = 0  # attempts whose end was reported (Failed, Unsatisfied)
        self.last_tag: str | None = None
        self.open = True
        self.lock = threading.Lock()  # a sync attempt abandoned in its worker thread may still report
        self.context_token: Token[Context] | None = None
        self.recorder_token: Token[_events.Observer | None] | None = None

    def _tagged(self, tag: str | None) -> Attributes:
        """The metric attributes: the tool's (shared, never changed), with ``tag`` in a copy."""
        if tag is None:
            return self.metric_attributes
        return {**self.metric_attributes, TAG: tag}

    def __call__(self, event: Event) -> None:
        with self.lock:
            if self.open:  # else an abandoned attempt goes on after the call returned: dropped
                self._record(event)

    def close(self) -> None:
        """The call has returned: nothing more is recorded."""
        with self.lock:
            self.open = False

    def _record(self, event: Event) -> None:
        metrics = self.metrics
        if isinstance(event, Attempted):
            self.attempt = max(self.attempt, event.attempt)
            if event.attempt == 1:
                return  # the span is the first attempt
            if metrics is not None:
                metrics.retries.add(1, self._tagged(self.last_tag))
        elif isinstance(event, Succeeded):
            if event.attempt == 1:
                return  # reported only when someone observes; the span's status says it
        elif isinstance(event, Failed):
            self.ended += 1
            self.last_tag = event.error.tag
            if metrics is not None:
                metrics.attempts.add(1, self._tagged(event.error.tag))
        elif isinstance(event, Unsatisfied):
            self.ended += 1
            self.last_tag = None
            if metrics is not None:
                metrics.attempts.add(1, self._tagged(None))
        elif metrics is not None:
            if isinstance(event, Waiting):
                attributes = {**self._tagged(self.last_tag), ADVISED: event.advised}
                metrics.waits.record(event.wait_ms, attributes)
            elif isinstance(event, FellBack):
                metrics.fallbacks.add(1, self._tagged(event.error.tag))
            elif isinstance(event, CircuitChanged):
                metrics.circuit.add(
                    1, {**self.metric_attributes, CIRCUIT_BEFORE: event.before, CIRCUIT_AFTER: event.after}
                )
        if self.recording:
            assert self.span is not None
            name, attributes = span_event(event)
            self.span.add_event(name, attributes)

    def finish(self, result: object) -> None:
        """The call returned ``result``: status, attempts, metrics; end the span."""
        tag = result.error.tag if isinstance(result, Err) else None
        span = self.span
        if self.recording:
            assert span is not None
            span.set_attribute(ATTEMPTS, self.attempt)
            if isinstance(result, Err):
                span.set_attributes(_error({ERROR_TYPE: result.error.tag}, result.error))
                span.set_status(Status(StatusCode.ERROR, result.error.tag))
            elif isinstance(result, Ok):
                span.set_status(_OK)
        metrics = self.metrics
        if metrics is not None:
            unreported = self.attempt - self.ended  # the attempt that returned (or was cut off by a deadline)
            if unreported > 0:
                metrics.attempts.add(unreported, self._tagged(tag))
            metrics.calls.add(1, self._tagged(tag))
        if span is not None:
            span.end()

    def crash(self, exc: BaseException) -> None:
        """The call raised ``exc`` (cancelled, or a bug): ERROR by the exception's class, never its message."""
        span = self.span
        if self.recording:
            assert span is not None
            kind = type(exc)
            span.set_attribute(ATTEMPTS, self.attempt)
            span.set_attribute(ERROR_TYPE, f"{kind.__module__}.{kind.__qualname__}")
            span.set_status(Status(StatusCode.ERROR, kind.__name__))
        if span is not None:
            span.end()


class _Traced:
    """``traced(...)`` applied to one tool: its span's name and fixed attributes."""

    __slots__ = ("telemetry", "span_name", "span_attributes", "metric_attributes")

    def __init__(self, telemetry: _Telemetry, name: str | None, tool: Callable[..., Any]) -> None:
        name = name if name is not None else tool_name(tool).rpartition("<locals>.")[2]
        self.telemetry = telemetry
        self.span_name = f"tool {name}"
        self.span_attributes: Attributes = {TOOL_NAME: name}
        classification = classification_of(tool)
        if classification is not None:
            self.span_attributes[CLASSIFICATION] = classification
        self.metric_attributes: Attributes = {TOOL_NAME: name}

    def begin(self) -> _Call | None:
        """Start the call's span and make it current; None when there is nothing to record."""
        tracer = self.telemetry.tracer()
        metrics = self.telemetry.metrics
        if tracer is None and metrics is None:
            return None
        span = tracer.start_span(self.span_name, attributes=self.span_attributes) if tracer is not None else None
        call = _Call(span, metrics, self.metric_attributes)
        if span is not None:
            call.context_token = otel_context.attach(trace.set_span_in_context(span))
        if call.recording or metrics is not None:
            call.recorder_token = _events.recorder.set(call)
        return call

    @staticmethod
    def leave(call: _Call) -> None:
        """Restore the caller's context (same task, same thread as :meth:`begin`); later events are dropped."""
        call.close()
        if call.recorder_token is not None:
            _events.recorder.reset(call.recorder_token)
        if call.context_token is not None:
            otel_context.detach(call.context_token)


def _wrap_sync(traced: _Traced, tool: Callable[..., Any]) -> Callable[..., Any]:
    telemetry = traced.telemetry

    def traced_call(*args: Any, **kwargs: Any) -> Any:
        if telemetry.idle and trace._TRACER_PROVIDER is None:  # no provider yet: nothing to do
            return tool(*args, **kwargs)
        call = traced.begin()
        if call is None:
            return tool(*args, **kwargs)
        try:
            result = tool(*args, **kwargs)
        except BaseException as exc:
            traced.leave(call)
            call.crash(exc)
            raise
        traced.leave(call)
        call.finish(result)
        return result

    return traced_call


def _wrap_async(traced: _Traced, tool: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    telemetry = traced.telemetry

    async def traced_call(*args: Any, **kwargs: Any) -> Any:
        if telemetry.idle and trace._TRACER_PROVIDER is None:  # no provider yet: nothing to do
            return await tool(*args, **kwargs)
        call = traced.begin()
        if call is None:
            return await tool(*args, **kwargs)
        try:
            result = await tool(*args, **kwargs)
        except BaseException as exc:
            traced.leave(call)
            call.crash(exc)
            raise
        traced.leave(call)
        call.finish(result)
        return result

    return traced_call


def traced(
    name: str | None = None,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
) -> SyncStage:
    """A stage that makes each call one span, ``tool <name>``; put it last (outermost) in ``pipe(...)``.

    ``name`` defaults to the tool's qualified name. ``tracer_provider``
    defaults to the global one (``trace.set_tracer_provider``); while none is
    set the stage only checks for one (well under a microsecond per call).
    Metrics are recorded only with a ``meter_provider``. The stage keeps the
    tool's kind: a sync tool stays sync, an async one async.
    """
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ConfigError(f"traced() takes a non-empty tool name, got {name!r}")
    if tracer_provider is not None and not callable(getattr(tracer_provider, "get_tracer", None)):
        raise ConfigError(f"traced(tracer_provider=...) takes an OpenTelemetry TracerProvider, got {tracer_provider!r}")
    if meter_provider is not None and not callable(getattr(meter_provider, "get_meter", None)):
        raise ConfigError(f"traced(meter_provider=...) takes an OpenTelemetry MeterProvider, got {meter_provider!r}")
    telemetry = _Telemetry(tracer_provider, meter_provider)
    return SyncStage(
        lambda tool: _wrap_sync(_Traced(telemetry, name, tool), tool),
        lambda tool: _wrap_async(_Traced(telemetry, name, tool), tool),
        f"traced({name!r})" if name is not None else "traced()",
    )
