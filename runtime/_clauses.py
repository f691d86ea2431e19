"""The retry clauses: values that ``clock.retrying(*clauses)`` sorts, checks and plans.

Conditions (:data:`while_transient`, :func:`retrying_when`, :func:`retrying_on_result`), bounds
(``up_to(n).attempts``, :func:`within` a shared :class:`Budget`), the schedule
(:func:`backing_off`), server advice (:data:`ignoring_server_advice`,
:func:`trusting_server_advice_up_to`) and observation (:func:`observing`). Each constructor
checks its argument and raises :class:`ConfigError` at build time. The loop that runs them is
in ``_retry.py``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Union

from ._durations import Duration
from ._errors import ToolError, is_retryable
from ._events import Observer
from ._schedules import Schedule, exponentially_from

__all__ = [
    "Budget",
    "ConfigError",
    "Condition",
    "AttemptBound",
    "BudgetBound",
    "BackingOff",
    "Advice",
    "Observing",
    "RetryClause",
    "while_transient",
    "retrying_when",
    "retrying_on_result",
    "ResultCondition",
    "up_to",
    "within",
    "backing_off",
    "ignoring_server_advice",
    "trusting_server_advice_up_to",
    "observing",
    "DEFAULT_ADVICE_CAP",
    "DEFAULT_SCHEDULE",
]


class ConfigError(ValueError):
    """A combinator was built with clauses that cannot work together (raised at build time)."""


# ---------------------------------------------------------------- budget


class Budget:
    """A per-task allowance of *retries*, shared by every tool that uses ``within(budget)``.

    Each retry (an attempt after the first, in any tool under this budget)
    takes one unit; first attempts are free, so a spent budget stops retries,
    never calls. Safe to share between threads and asyncio tasks.
    """

    __slots__ = ("_lock", "_left", "attempts")

    def __init__(self, attempts: int) -> None:
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 0:
            raise ValueError(f"Budget(attempts=...) takes an int >= 0, got {attempts!r}")
        self.attempts = attempts
        self._left = attempts
        self._lock = threading.Lock()

    @property
    def remaining(self) -> int:
        """Retries left."""
        return self._left

    @property
    def spent(self) -> bool:
        """True when no retry is left."""
        return self._left <= 0

    def try_take(self) -> bool:
        """Take one retry if one is left; False (and nothing taken) when spent."""
        with self._lock:
            if self._left <= 0:
                return False
            self._left -= 1
            return True

    def give_back(self) -> None:
        """Return a unit taken by :meth:`try_take` (used when another budget refused)."""
        with self._lock:
            self._left += 1

    def __repr__(self) -> str:
        return f"Budget(attempts={self.attempts}, remaining={self._left})"


# ---------------------------------------------------------------- clauses


def _fn_name(fn: object) -> str:
    return str(getattr(fn, "__qualname__", None) or repr(fn))


@dataclass(frozen=True, slots=True)
class Condition:
    """Retry only while ``predicate(error)`` holds (never for InvalidArgs or Denied)."""

    predicate: Callable[[ToolError], bool]

    def __repr__(self) -> str:
        if self.predicate is is_retryable:
            return "while_transient"
        return f"retrying_when({_fn_name(self.predicate)})"


@dataclass(frozen=True, slots=True)
class ResultCondition:
    """Retry an ``Ok(value)`` while ``predicate(value)`` holds (polling)."""

    predicate: Callable[[Any], bool]

    def __repr__(self) -> str:
        return f"retrying_on_result({_fn_name(self.predicate)})"


@dataclass(frozen=True, slots=True)
class AttemptBound:
    """At most ``attempts`` attempts in one call (1 call + ``attempts - 1`` retries)."""

    attempts: int

    def __repr__(self) -> str:
        return f"up_to({self.attempts}).attempts"


@dataclass(frozen=True, slots=True)
class BudgetBound:
    """Each retry takes a unit from ``budget``."""

    budget: Budget

    def __repr__(self) -> str:
        return f"within({self.budget!r})"


@dataclass(frozen=True, slots=True)
class BackingOff:
    """Wait by ``schedule`` between attempts."""

    schedule: Schedule

    def __repr__(self) -> str:
        return f"backing_off({self.schedule!r})"


@dataclass(frozen=True, slots=True)
class Advice:
    """Whether a server's ``retry_after_ms`` replaces the schedule, and up to what."""

    honour: bool
    cap_ms: int

    def __repr__(self) -> str:
        if not self.honour:
            return "ignoring_server_advice"
        return f"trusting_server_advice_up_to(millis({self.cap_ms}))"


@dataclass(frozen=True, slots=True)
class Observing:
    """Send every event to ``callback``."""

    callback: Observer

    def __repr__(self) -> str:
        return f"observing({_fn_name(self.callback)})"


RetryClause = Union[Condition, ResultCondition, AttemptBound, BudgetBound, BackingOff, Advice, Observing]
"""Anything ``retrying(...)`` accepts."""


class _UpTo:
    """``up_to(n)``: not a clause yet; ``.attempts`` makes it one."""

    __slots__ = ("_n",)

    def __init__(self, n: int) -> None:
        self._n = n

    @property
    def attempts(self) -> AttemptBound:
        """At most ``n`` attempts: 1 call and ``n - 1`` retries."""
        return AttemptBound(self._n)

    def __repr__(self) -> str:
        return f"up_to({self._n}) (incomplete: write up_to({self._n}).attempts)"


def up_to(n: int) -> _UpTo:
    """``up_to(4).attempts``: at most 4 attempts (1 call + 3 retries)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"up_to(n).attempts needs an int n >= 1, got {n!r}")
    return _UpTo(n)


while_transient: Condition = Condition(is_retryable)
"""Retry RateLimited, Timeout and Unavailable; never InvalidArgs, Denied, NotFound or Unknown."""


def retrying_when(predicate: Callable[[ToolError], bool]) -> Condition:
    """Retry only while ``predicate(error)`` is true (combined with other conditions: all must hold).

    A predicate narrows the retryability table; it can opt NotFound and Unknown
    in, but InvalidArgs and Denied are never retried, whatever it says.
    """
    if not callable(predicate):
        raise ConfigError(f"retrying_when() takes a predicate on ToolError, got {predicate!r}")
    return Condition(predicate)


def retrying_on_result(predicate: Callable[[Any], bool]) -> ResultCondition:
    """Also retry an ``Ok(value)`` while ``predicate(value)`` is true: polling until a job is done.

    The attempts, schedule, budget and deadline apply as for errors; when the
    retry gives up, the last ``Ok`` is returned as it is.
    """
    if not callable(predicate):
        raise ConfigError(f"retrying_on_result() takes a predicate on the Ok value, got {predicate!r}")
    return ResultCondition(predicate)


def within(budget: Budget) -> BudgetBound:
    """Each retry takes a unit from the shared ``budget``; none left, no retry."""
    if not isinstance(budget, Budget):
        raise ConfigError(f"within() takes a Budget, got {budget!r}")
    return BudgetBound(budget)


def backing_off(schedule: Schedule) -> BackingOff:
    """Wait by ``schedule`` before each retry (``exponentially_from(...)``, ``constant(...)``)."""
    if not isinstance(schedule, Schedule):
        raise ConfigError(f"backing_off() takes a Schedule, got {schedule!r}")
    return BackingOff(schedule)


DEFAULT_ADVICE_CAP: Duration = Duration(60_000)
"""The longest server advice trusted by default: one minute."""

DEFAULT_SCHEDULE: Schedule = exponentially_from(Duration(100))
"""The schedule when no ``backing_off`` clause is given: 100 ms, 200 ms, 400 ms, ... up to a minute."""

ignoring_server_advice: Advice = Advice(False, 0)
"""Use the local schedule even for RateLimited errors."""


def trusting_server_advice_up_to(cap: Duration) -> Advice:
    """Wait a RateLimited error's ``retry_after_ms`` when it is at most ``cap``; give up if longer."""
    if not isinstance(cap, Duration):
        raise ConfigError(f"trusting_server_advice_up_to() takes a Duration, got {cap!r}")
    return Advice(True, cap.ms)


def observing(callback: Observer) -> Observing:
    """Report every attempt, success, failure, wait, give-up, timeout and fallback to ``callback``."""
    if not callable(callback):
        raise ConfigError(f"observing() takes a callable, got {callback!r}")
    return Observing(callback)
