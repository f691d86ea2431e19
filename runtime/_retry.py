"""``retrying``: the clauses, the shared :class:`Budget`, and the retry loop.

Clauses are values; ``clock.retrying(*clauses)`` sorts them by kind, checks
them and precomputes everything once, when the stage is built. The success
path of the built tool is one call, one ``isinstance`` check, one return.

Kinds of clause (order does not matter):

- conditions: :data:`while_transient`, :func:`retrying_when` (all must hold;
  with none, ``while_transient`` applies);
- bounds: ``up_to(n).attempts``, :func:`within` a :class:`Budget` (at least one
  is required: an unbounded retry is refused when it is built);
- schedule: :func:`backing_off` (default ``exponentially_from(millis(100))``);
- server advice: :data:`ignoring_server_advice` or
  :func:`trusting_server_advice_up_to` (default: trusted up to one minute);
- observation: :func:`observing` (any number).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Union

from ._deadline import DeadlineScope, _current
from ._durations import Duration
from ._errors import Err, Ok, RateLimited, Result, Timeout, ToolError, is_retryable
from ._events import Attempted, Event, Failed, GaveUp, GiveUpReason, Observer, Succeeded, Waiting
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


@dataclass(frozen=True, slots=True)
class Condition:
    """Retry only while ``predicate(error)`` holds."""

    predicate: Callable[[ToolError], bool]


@dataclass(frozen=True, slots=True)
class AttemptBound:
    """At most ``attempts`` attempts in one call (1 call + ``attempts - 1`` retries)."""

    attempts: int


@dataclass(frozen=True, slots=True)
class BudgetBound:
    """Each retry takes a unit from ``budget``."""

    budget: Budget


@dataclass(frozen=True, slots=True)
class BackingOff:
    """Wait by ``schedule`` between attempts."""

    schedule: Schedule


@dataclass(frozen=True, slots=True)
class Advice:
    """Whether a RateLimited error's ``retry_after_ms`` replaces the schedule, and up to what."""

    honour: bool
    cap_ms: int


@dataclass(frozen=True, slots=True)
class Observing:
    """Send every event to ``callback``."""

    callback: Observer


RetryClause = Union[Condition, AttemptBound, BudgetBound, BackingOff, Advice, Observing]
"""Anything ``retrying(...)`` accepts."""


class _UpTo:
    __slots__ = ("_n",)

    def __init__(self, n: int) -> None:
        self._n = n

    @property
    def attempts(self) -> AttemptBound:
        """At most ``n`` attempts: 1 call and ``n - 1`` retries."""
        return AttemptBound(self._n)


def up_to(n: int) -> _UpTo:
    """``up_to(4).attempts``: at most 4 attempts (1 call + 3 retries)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"up_to(n).attempts needs an int n >= 1, got {n!r}")
    return _UpTo(n)


while_transient: Condition = Condition(is_retryable)
"""Retry RateLimited, Timeout and Unavailable; never InvalidArgs, Denied, NotFound or Unknown."""


def retrying_when(predicate: Callable[[ToolError], bool]) -> Condition:
    """Retry only while ``predicate(error)`` is true (combined with other conditions: all must hold)."""
    if not callable(predicate):
        raise ConfigError(f"retrying_when() takes a predicate on ToolError, got {predicate!r}")
    return Condition(predicate)


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
"""The schedule when no ``backing_off`` clause is given: 100 ms, 200 ms, 400 ms, ..."""

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


# ---------------------------------------------------------------- the plan


@dataclass(frozen=True, slots=True)
class Plan:
    """The clauses of one ``retrying(...)``, checked and sorted."""

    conditions: tuple[Callable[[ToolError], bool], ...]
    max_attempts: int | None
    budgets: tuple[Budget, ...]
    schedule: Schedule
    honour_advice: bool
    advice_cap_ms: int
    observers: tuple[Observer, ...]

    def describe(self) -> str:
        parts = []
        if self.max_attempts is not None:
            parts.append(f"up_to({self.max_attempts}).attempts")
        parts.extend(f"within({b!r})" for b in self.budgets)
        parts.append(f"backing_off({self.schedule!r})")
        return ", ".join(parts)


def make_plan(clauses: tuple[RetryClause, ...]) -> Plan:
    """Sort and check ``clauses``; raise :class:`ConfigError` for a retry that cannot work."""
    conditions: list[Callable[[ToolError], bool]] = []
    bound: AttemptBound | None = None
    budgets: list[Budget] = []
    schedule: BackingOff | None = None
    advice: Advice | None = None
    observers: list[Observer] = []
    for clause in clauses:
        if isinstance(clause, Condition):
            conditions.append(clause.predicate)
        elif isinstance(clause, AttemptBound):
            if bound is not None:
                raise ConfigError("retrying() got two attempt bounds; give one up_to(n).attempts")
            bound = clause
        elif isinstance(clause, BudgetBound):
            if any(b is clause.budget for b in budgets):
                raise ConfigError("retrying() got the same budget twice")
            budgets.append(clause.budget)
        elif isinstance(clause, BackingOff):
            if schedule is not None:
                raise ConfigError("retrying() got two backing_off(...) clauses; give one")
            schedule = clause
        elif isinstance(clause, Advice):
            if advice is not None:
                raise ConfigError(
                    "retrying() got two server-advice clauses "
                    "(ignoring_server_advice / trusting_server_advice_up_to); give one"
                )
            advice = clause
        elif isinstance(clause, Observing):
            observers.append(clause.callback)
        else:
            raise ConfigError(
                f"retrying() does not understand {clause!r}; clauses are while_transient, "
                "retrying_when(...), up_to(n).attempts, within(budget), backing_off(...), "
                "ignoring_server_advice, trusting_server_advice_up_to(...), observing(...)"
            )
    if bound is None and not budgets:
        raise ConfigError(
            "retrying() needs a bound: add up_to(n).attempts or within(budget); "
            "a retry with neither could loop for ever"
        )
    if not conditions:
        conditions.append(is_retryable)
    advice = advice if advice is not None else Advice(True, DEFAULT_ADVICE_CAP.ms)
    return Plan(
        conditions=tuple(conditions),
        max_attempts=bound.attempts if bound is not None else None,
        budgets=tuple(budgets),
        schedule=schedule.schedule if schedule is not None else DEFAULT_SCHEDULE,
        honour_advice=advice.honour,
        advice_cap_ms=advice.cap_ms,
        observers=tuple(observers),
    )


# ---------------------------------------------------------------- decisions (slow path only)


def _emit(observers: tuple[Observer, ...], event: Event) -> None:
    for observer in observers:
        observer(event)


def _take_all(budgets: tuple[Budget, ...]) -> bool:
    taken: list[Budget] = []
    for budget in budgets:
        if not budget.try_take():
            for back in taken:
                back.give_back()
            return False
        taken.append(budget)
    return True


def _as_err(result: object) -> Err[ToolError]:
    if isinstance(result, Err):
        return result
    raise TypeError(f"a tool under retrying() must return Ok or Err, got {result!r}")


def after_failure(plan: Plan, attempt: int, result: Err[ToolError]) -> int | Err[ToolError]:
    """Attempt ``attempt`` returned ``result``: the wait before the next attempt, or the Err to return.

    The Err is ``result`` itself when the retry gives up (not retryable,
    bound, budget, advice too long, or a wait that would end past the
    deadline), or ``Err(Timeout)`` when a deadline has already passed.
    """
    error = result.error
    observers = plan.observers
    if observers:
        _emit(observers, Failed(attempt, error))
    reason: GiveUpReason | None = None
    wait = 0
    advised = False
    for condition in plan.conditions:
        if not condition(error):
            reason = "not_retryable"
            break
    if reason is None and plan.max_attempts is not None and attempt >= plan.max_attempts:
        reason = "attempts"
    if reason is None:
        if plan.honour_advice and isinstance(error, RateLimited):
            wait = max(0, error.retry_after_ms)
            advised = True
            if wait > plan.advice_cap_ms:
                reason = "advice_too_long"
        else:
            wait = plan.schedule.wait_ms(attempt)
    scope = _current.get()
    if reason is None and scope is not None:
        gone = scope.expired()
        if gone is not None:  # the deadline has passed while the attempt ran
            return _timed_out(plan, attempt, gone)
        if wait >= scope.remaining():
            reason = "deadline"  # the wait would end at or past the deadline: give up now
    if reason is None and plan.budgets and not _take_all(plan.budgets):
        reason = "budget"
    if reason is not None:
        if observers:
            _emit(observers, GaveUp(attempt, error, reason))
        return result
    if observers:
        _emit(observers, Waiting(attempt, wait, advised))
    if scope is not None:
        scope.add_wait(wait)
    return wait


def _timed_out(plan: Plan, attempt: int, gone: DeadlineScope) -> Err[ToolError]:
    gone.fired = True
    timed_out = Timeout(gone.limit_ms)
    if plan.observers:
        _emit(plan.observers, GaveUp(attempt, timed_out, "deadline"))
    return Err(timed_out)


def before_attempt(plan: Plan, attempt: int) -> Err[ToolError] | None:
    """After a wait: ``Err(Timeout)`` if a deadline has passed meanwhile, else None (go on)."""
    scope = _current.get()
    if scope is None:
        return None
    gone = scope.expired()
    return None if gone is None else _timed_out(plan, attempt, gone)


# ---------------------------------------------------------------- the loops


def wrap_sync(plan: Plan, tool: Callable[..., Result[Any]], sleep: Callable[[int], None]) -> Callable[..., Result[Any]]:
    """A sync retry around a sync tool with a sync sleep."""
    observers = plan.observers

    def slow(result: object, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Result[Any]:
        attempt = 1
        while True:
            wait = after_failure(plan, attempt, _as_err(result))
            if not isinstance(wait, int):
                return wait
            sleep(wait)
            early = before_attempt(plan, attempt)
            if early is not None:
                return early
            attempt += 1
            if observers:
                _emit(observers, Attempted(attempt))
            result = tool(*args, **kwargs)
            if isinstance(result, Ok):
                if observers:
                    _emit(observers, Succeeded(attempt))
                return result

    if observers:

        def retrying_observed(*args: Any, **kwargs: Any) -> Result[Any]:
            _emit(observers, Attempted(1))
            result = tool(*args, **kwargs)
            if isinstance(result, Ok):
                _emit(observers, Succeeded(1))
                return result
            return slow(result, args, kwargs)

        return retrying_observed

    def retrying(*args: Any, **kwargs: Any) -> Result[Any]:
        result = tool(*args, **kwargs)
        if isinstance(result, Ok):
            return result
        return slow(result, args, kwargs)

    return retrying


def wrap_async(
    plan: Plan,
    tool: Callable[..., Any],
    tool_is_async: bool,
    sleep: Callable[[int], Any],
    sleep_is_async: bool,
) -> Callable[..., Awaitable[Result[Any]]]:
    """An async retry: the tool, the sleep, or both are async."""
    observers = plan.observers

    async def slow(result: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Result[Any]:
        attempt = 1
        while True:
            wait = after_failure(plan, attempt, _as_err(result))
            if not isinstance(wait, int):
                return wait
            if sleep_is_async:
                await sleep(wait)
            else:
                sleep(wait)
            early = before_attempt(plan, attempt)
            if early is not None:
                return early
            attempt += 1
            if observers:
                _emit(observers, Attempted(attempt))
            result = tool(*args, **kwargs)
            if tool_is_async:
                result = await result
            if isinstance(result, Ok):
                if observers:
                    _emit(observers, Succeeded(attempt))
                return result

    if observers:

        async def retrying_observed(*args: Any, **kwargs: Any) -> Result[Any]:
            _emit(observers, Attempted(1))
            result = tool(*args, **kwargs)
            if tool_is_async:
                result = await result
            if isinstance(result, Ok):
                _emit(observers, Succeeded(1))
                return result
            return await slow(result, args, kwargs)

        return retrying_observed

    if tool_is_async:

        async def retrying(*args: Any, **kwargs: Any) -> Result[Any]:
            result = await tool(*args, **kwargs)
            if isinstance(result, Ok):
                return result
            return await slow(result, args, kwargs)

        return retrying

    async def retrying_sync_tool(*args: Any, **kwargs: Any) -> Result[Any]:
        result = tool(*args, **kwargs)
        if isinstance(result, Ok):
            return result
        return await slow(result, args, kwargs)

    return retrying_sync_tool
