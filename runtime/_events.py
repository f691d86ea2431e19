"""Typed events reported to :func:`~smullyan.runtime.observing` callbacks.

Every combinator that takes an ``observing(callback)`` clause calls the
callback with one of these frozen dataclasses, synchronously, at the moment
the thing happens. They are plain values: log them, count them, turn them into
spans. A callback that raises propagates (an observer bug is not a tool error).

========== ==========================================================
Attempted  an attempt is about to start (``attempt`` counts from 1)
Succeeded  that attempt returned ``Ok``; ``waited_ms`` is the time this call waited
Failed     that attempt returned ``Err(error)``
Unsatisfied that attempt returned ``Ok(value)`` that ``retrying_on_result`` rejects
Waiting    the retry will sleep ``wait_ms`` before the next attempt;
           ``advised`` is true when the wait is a server's ``retry_after_ms``
GaveUp     the retry stops and returns ``Err(error)``; ``reason`` says why
TimedOut   ``giving_up_after`` fired and returns ``Err(Timeout(after_ms))``
Abandoned  an attempt that ignored the deadline's cancellation is left running
FellBack   ``falling_back_to`` replaced ``Err(error)`` with the fallback
========== ==========================================================

Every stage sends its events through :func:`observers_now`: its own
observers, and the recorder of the enclosing ``traced(...)`` call
(:mod:`smullyan.runtime.otel`) when there is one, carried by a context
variable, so the stages inside a traced call need no observer wired by hand.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable, Literal, Union

from ._errors import ToolError
from ._write_events import CircuitChanged, LeaseLost, Reconciled, Replayed, TakenOver

__all__ = [
    "Attempted",
    "Succeeded",
    "Failed",
    "Unsatisfied",
    "Abandoned",
    "Waiting",
    "GaveUp",
    "GiveUpReason",
    "TimedOut",
    "FellBack",
    "Event",
    "Observer",
]

GiveUpReason = Literal[
    "not_retryable",  # a condition clause said no (e.g. InvalidArgs under while_transient)
    "attempts",  # up_to(n).attempts reached
    "budget",  # a shared Budget is spent
    "advice_too_long",  # RateLimited.retry_after_ms is over the trusted cap
    "deadline",  # the next wait would end past the deadline, or the deadline has passed
]


@dataclass(frozen=True, slots=True)
class Attempted:
    """Attempt number ``attempt`` (1-based) is about to run."""

    attempt: int


@dataclass(frozen=True, slots=True)
class Succeeded:
    """Attempt number ``attempt`` returned ``Ok``; the call waited ``waited_ms`` in all before it."""

    attempt: int
    waited_ms: int = 0


@dataclass(frozen=True, slots=True)
class Failed:
    """Attempt number ``attempt`` returned ``Err(error)``."""

    attempt: int
    error: ToolError


@dataclass(frozen=True, slots=True)
class Unsatisfied:
    """Attempt number ``attempt`` returned ``Ok(value)``, which ``retrying_on_result`` sends back."""

    attempt: int
    value: object


@dataclass(frozen=True, slots=True)
class Waiting:
    """After attempt ``attempt`` failed, the retry sleeps ``wait_ms`` before the next one."""

    attempt: int
    wait_ms: int
    advised: bool


@dataclass(frozen=True, slots=True)
class GaveUp:
    """The retry stopped after attempt ``attempt`` and returns ``Err(error)``.

    ``error`` is None when the last attempt returned an ``Ok`` that
    ``retrying_on_result`` rejected (that ``Ok`` is returned); ``waited_ms`` is
    the time the call waited in all.
    """

    attempt: int
    error: ToolError | None
    reason: GiveUpReason
    waited_ms: int = 0


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The deadline fired: the call returns ``Err(Timeout(after_ms))``."""

    after_ms: int


@dataclass(frozen=True, slots=True)
class FellBack:
    """The tool returned ``Err(error)``; the fallback's result is returned instead."""

    error: ToolError


@dataclass(frozen=True, slots=True)
class Abandoned:
    """The deadline fired and the attempt it cancelled did not stop: it is left running, not awaited."""

    after_ms: int


Event = Union[
    Attempted, Succeeded, Failed, Unsatisfied, Waiting, GaveUp, TimedOut, Abandoned, FellBack,
    TakenOver, Reconciled, Replayed, LeaseLost, CircuitChanged,  # safe writes (issue 14)
]
"""Every event an observer can receive."""

Observer = Callable[[Event], None]
"""A callback that receives events."""


recorder: ContextVar[Observer | None] = ContextVar("smullyan_recorder", default=None)
"""The recorder of the enclosing ``traced(...)`` call (``smullyan.runtime.otel`` sets it), if any."""


def observers_now(observers: tuple[Observer, ...]) -> tuple[Observer, ...]:
    """Whom an event goes to now: ``observers``, then the enclosing traced call's recorder, if any."""
    current = recorder.get()
    return observers if current is None else (*observers, current)
