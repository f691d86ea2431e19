"""``retrying``: the plan and the retry loop (the clauses and :class:`Budget` are in ``_clauses.py``).

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

from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable, Iterator

from ._deadline import DeadlineScope, _current
from ._errors import Denied, Err, InvalidArgs, Ok, RateLimited, Result, Timeout, ToolError, Unavailable, is_retryable
from ._events import (
    Attempted,
    Event,
    Failed,
    GaveUp,
    GiveUpReason,
    Observer,
    Succeeded,
    Unsatisfied,
    Waiting,
    observers_now,
)
from ._clauses import (
    DEFAULT_ADVICE_CAP,
    DEFAULT_SCHEDULE,
    Advice,
    AttemptBound,
    BackingOff,
    Budget,
    BudgetBound,
    Condition,
    ConfigError,
    Observing,
    ResultCondition,
    RetryClause,
    _UpTo,
    backing_off,
    ignoring_server_advice,
    observing,
    retrying_on_result,
    retrying_when,
    trusting_server_advice_up_to,
    up_to,
    while_transient,
    within,
)
from ._schedules import Schedule
from .classification import unsafe_in_traceback

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
    "Attempt",
    "Attempts",
]


# ---------------------------------------------------------------- the plan


@dataclass(frozen=True, slots=True)
class Plan:
    """The clauses of one ``retrying(...)``, checked and sorted."""

    conditions: tuple[Callable[[ToolError], bool], ...]
    result_conditions: tuple[Callable[[Any], bool], ...]
    max_attempts: int | None
    budgets: tuple[Budget, ...]
    schedule: Schedule
    honour_advice: bool
    advice_cap_ms: int
    observers: tuple[Observer, ...]

    def describe(self) -> str:
        parts = [repr(Condition(c)) for c in self.conditions]
        parts.extend(repr(ResultCondition(c)) for c in self.result_conditions)
        if self.max_attempts is not None:
            parts.append(f"up_to({self.max_attempts}).attempts")
        parts.extend(f"within({b!r})" for b in self.budgets)
        parts.append(f"backing_off({self.schedule!r})")
        if not self.honour_advice or self.advice_cap_ms != DEFAULT_ADVICE_CAP.ms:
            parts.append(repr(Advice(self.honour_advice, self.advice_cap_ms)))
        parts.extend(repr(Observing(o)) for o in self.observers)
        return ", ".join(parts)


def make_plan(clauses: tuple[RetryClause, ...]) -> Plan:
    """Sort and check ``clauses``; raise :class:`ConfigError` for a retry that cannot work."""
    conditions: list[Callable[[ToolError], bool]] = []
    result_conditions: list[Callable[[Any], bool]] = []
    bound: AttemptBound | None = None
    budgets: list[Budget] = []
    schedule: BackingOff | None = None
    advice: Advice | None = None
    observers: list[Observer] = []
    for clause in clauses:
        if isinstance(clause, Condition):
            conditions.append(clause.predicate)
        elif isinstance(clause, ResultCondition):
            result_conditions.append(clause.predicate)
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
        elif isinstance(clause, _UpTo):
            raise ConfigError(f"retrying() got up_to({clause._n}) without .attempts: write up_to({clause._n}).attempts")
        else:
            raise ConfigError(
                f"retrying() does not understand {clause!r}; clauses are while_transient, "
                "retrying_when(...), retrying_on_result(...), up_to(n).attempts, within(budget), backing_off(...), "
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
        result_conditions=tuple(result_conditions),
        max_attempts=bound.attempts if bound is not None else None,
        budgets=tuple(budgets),
        schedule=schedule.schedule if schedule is not None else DEFAULT_SCHEDULE,
        honour_advice=advice.honour,
        advice_cap_ms=advice.cap_ms,
        observers=tuple(observers),
    )


# ---------------------------------------------------------------- the write guard (issue 14)


Wrap = Callable[[Callable[..., Any]], Any]
"""What a retry stage does with the tool it is built over: the tool -> the retrying tool."""

WRITE_GUARDS: list[Callable[[Wrap], Wrap]] = []
"""The write guard every retry stage applies: ``_keys.guard_retry`` (refuse an unsafe write,
open one logical call around a keyed tool), installed by :mod:`._keys` when it is imported
(it imports this module, so this module cannot import it); ``smullyan.runtime`` imports both."""


def guarded(wrap: Wrap) -> Wrap:
    """``wrap`` under the write guard, which runs when the stage is built over a tool."""
    if not WRITE_GUARDS:
        raise RuntimeError("the runtime's write guard is not installed: import smullyan.runtime")
    for guard in WRITE_GUARDS:
        wrap = guard(wrap)
    return wrap


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


def _as_result(result: object) -> Result[Any]:
    if isinstance(result, (Ok, Err)):
        return result
    raise TypeError(f"a tool under retrying() must return Ok or Err, got {result!r}")


def _advice(error: ToolError) -> int | None:
    """The server's advised wait carried by ``error`` (None when absent; a negative one is absent)."""
    # only these two variants carry a retry_after_ms field; every other one has no advice to give
    if isinstance(error, RateLimited):  # noqa: TFH503
        advice: int | None = error.retry_after_ms
    elif isinstance(error, Unavailable):
        advice = error.retry_after_ms
    else:
        return None
    return advice if advice is not None and advice >= 0 else None


def unsatisfied(plan: Plan, result: Result[Any]) -> bool:
    """True when ``result`` is an ``Ok`` that the plan's result conditions send back for another try."""
    if not plan.result_conditions or not isinstance(result, Ok):
        return False
    value = result.value
    return all(condition(value) for condition in plan.result_conditions)


def after_attempt(plan: Plan, attempt: int, result: Result[Any], waited: int) -> int | Result[Any]:
    """Attempt ``attempt`` returned ``result`` (an Err, or an unsatisfying Ok): the next wait, or what to return.

    What is returned is ``result`` itself when the retry gives up (not
    retryable, bound, budget, advice too long, or a wait that would end past
    the deadline), or ``Err(Timeout)`` when a deadline has already passed.
    """
    observers = observers_now(plan.observers)
    reason: GiveUpReason | None = None
    error: ToolError | None = None
    if isinstance(result, Ok):
        if observers:
            _emit(observers, Unsatisfied(attempt, result.value))
    else:
        error = _as_result(result).error  # type: ignore[union-attr]
        assert error is not None
        if observers:
            _emit(observers, Failed(attempt, error))
        if isinstance(error, (InvalidArgs, Denied)):
            reason = "not_retryable"  # whatever a predicate says: the same call fails the same way
        else:
            for condition in plan.conditions:
                if not condition(error):
                    reason = "not_retryable"
                    break
    wait = 0
    advised = False
    if reason is None and plan.max_attempts is not None and attempt >= plan.max_attempts:
        reason = "attempts"
    if reason is None:
        advice = _advice(error) if error is not None and plan.honour_advice else None
        if advice is not None:
            wait = advice
            advised = True
            if wait > plan.advice_cap_ms:
                reason = "advice_too_long"
        else:
            wait = plan.schedule.wait_ms(attempt)
    scope = _current.get()
    if reason is None and scope is not None:
        gone = scope.expired()
        if gone is not None:  # the deadline has passed while the attempt ran
            return _timed_out(plan, attempt, gone, waited)
        if wait >= scope.remaining():
            reason = "deadline"  # the wait would end at or past the deadline: give up now
    if reason is None and plan.budgets and not _take_all(plan.budgets):
        reason = "budget"
    if reason is not None:
        if observers:
            _emit(observers, GaveUp(attempt, error, reason, waited))
        return result
    if observers:
        _emit(observers, Waiting(attempt, wait, advised))
    if scope is not None:
        scope.add_wait(wait)
    return wait


def _timed_out(plan: Plan, attempt: int, gone: DeadlineScope, waited: int) -> Err[ToolError]:
    gone.fired = True
    timed_out = Timeout(gone.limit_ms)
    if observers := observers_now(plan.observers):
        _emit(observers, GaveUp(attempt, timed_out, "deadline", waited))
    return Err(timed_out)


def before_attempt(plan: Plan, attempt: int, waited: int) -> Err[ToolError] | None:
    """After a wait: ``Err(Timeout)`` if a deadline has passed meanwhile, else None (go on)."""
    scope = _current.get()
    if scope is None:
        return None
    gone = scope.expired()
    return None if gone is None else _timed_out(plan, attempt, gone, waited)


# ---------------------------------------------------------------- the loops


def wrap_sync(plan: Plan, tool: Callable[..., Result[Any]], sleep: Callable[[int], None]) -> Callable[..., Result[Any]]:
    """A sync retry around a sync tool with a sync sleep."""
    observers = plan.observers

    def slow(result: Result[Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Result[Any]:
        observers = observers_now(plan.observers)
        attempt = 1
        waited = 0
        while True:
            wait = after_attempt(plan, attempt, result, waited)
            if not isinstance(wait, int):
                return wait
            sleep(wait)
            waited += wait
            early = before_attempt(plan, attempt, waited)
            if early is not None:
                return early
            attempt += 1
            if observers:
                _emit(observers, Attempted(attempt))
            result = tool(*args, **kwargs)
            if isinstance(result, Ok) and not unsatisfied(plan, result):
                if observers:
                    _emit(observers, Succeeded(attempt, waited))
                return result

    if observers or plan.result_conditions:

        def retrying_observed(*args: Any, **kwargs: Any) -> Result[Any]:
            if observers:
                _emit(observers, Attempted(1))
            result = tool(*args, **kwargs)
            if isinstance(result, Ok) and not unsatisfied(plan, result):
                if observers:
                    _emit(observers, Succeeded(1, 0))
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
        observers = observers_now(plan.observers)
        attempt = 1
        waited = 0
        while True:
            wait = after_attempt(plan, attempt, result, waited)
            if not isinstance(wait, int):
                return wait
            if sleep_is_async:
                await sleep(wait)
            else:
                sleep(wait)
            waited += wait
            early = before_attempt(plan, attempt, waited)
            if early is not None:
                return early
            attempt += 1
            if observers:
                _emit(observers, Attempted(attempt))
            result = tool(*args, **kwargs)
            if tool_is_async:
                result = await result
            if isinstance(result, Ok) and not unsatisfied(plan, result):
                if observers:
                    _emit(observers, Succeeded(attempt, waited))
                return result

    if observers or plan.result_conditions:

        async def retrying_observed(*args: Any, **kwargs: Any) -> Result[Any]:
            if observers:
                _emit(observers, Attempted(1))
            result = tool(*args, **kwargs)
            if tool_is_async:
                result = await result
            if isinstance(result, Ok) and not unsatisfied(plan, result):
                if observers:
                    _emit(observers, Succeeded(1, 0))
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


# ---------------------------------------------------------------- the block form


class Attempt:
    """One attempt of :class:`Attempts`: use it as ``with attempt:`` or call :meth:`record`.

    Inside ``with attempt:``, an ``Exception`` is classified (``from_exception``
    by default) and recorded as ``Err``; it does not propagate. A block that
    ends normally without :meth:`record` counts as ``Ok(None)``.
    """

    __slots__ = ("number", "_owner")

    def __init__(self, number: int, owner: Attempts) -> None:
        self.number = number
        self._owner = owner

    def record(self, result: Result[Any]) -> Result[Any]:
        """This attempt's outcome is ``result`` (an ``Ok`` or ``Err``); returns it."""
        self._owner._outcome = _as_result(result)
        return result

    def __enter__(self) -> Attempt:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        hidden = unsafe_in_traceback(exc.__traceback__)
        if hidden is not None:  # issue 21: the block would run a marked write again
            raise ConfigError(
                f"clock.attempts(...) around {hidden[1]} (@{hidden[0]}), which raised "
                f"{type(exc).__name__}, is refused: retrying the block can repeat the effect. Call it "
                "once and reconcile, or retry keyed(tool, ...) under clock.retrying(...)."
            ) from exc
        self._owner._outcome = Err(self._owner._classify(exc))
        return True

    def __repr__(self) -> str:
        return f"<attempt {self.number}>"


class Attempts:
    """``for attempt in clock.attempts(...)`` / ``async for``: the retry loop for code that cannot be wrapped.

    The same clauses as ``retrying(...)``. After the loop, :attr:`result` is
    the last outcome (the ``Ok``, or the ``Err`` the retry gave up with);
    :attr:`attempts_made` and :attr:`waited_ms` are this loop's statistics.
    A sync clock's attempts can be iterated with ``for`` and ``async for``; an
    async clock's only with ``async for``.
    """

    __slots__ = ("_plan", "_sleep", "_sleep_is_async", "_classify", "_outcome", "result", "attempts_made", "waited_ms")

    def __init__(
        self,
        plan: Plan,
        sleep: Callable[[int], Any],
        sleep_is_async: bool,
        classify: Callable[[Exception], ToolError],
    ) -> None:
        self._plan = plan
        self._sleep = sleep
        self._sleep_is_async = sleep_is_async
        self._classify = classify
        self._outcome: Result[Any] | None = None
        self.result: Result[Any] | None = None
        self.attempts_made = 0
        self.waited_ms = 0

    def _after(self, attempt: int) -> int | None:
        """The wait before the next attempt, or None when the loop is over (``result`` set)."""
        plan = self._plan
        outcome: Result[Any] = self._outcome if self._outcome is not None else Ok(None)
        self._outcome = None
        if isinstance(outcome, Ok) and not unsatisfied(plan, outcome):
            if observers := observers_now(plan.observers):
                _emit(observers, Succeeded(attempt, self.waited_ms))
            self.result = outcome
            return None
        wait = after_attempt(plan, attempt, outcome, self.waited_ms)
        if not isinstance(wait, int):
            self.result = wait
            return None
        return wait

    def _start(self, attempt: int) -> Attempt:
        self.attempts_made = attempt
        if observers := observers_now(self._plan.observers):
            _emit(observers, Attempted(attempt))
        return Attempt(attempt, self)

    def __iter__(self) -> Iterator[Attempt]:
        if self._sleep_is_async:
            raise TypeError("an async clock's attempts(...) are iterated with `async for`")
        self.result, self.attempts_made, self.waited_ms = None, 0, 0
        attempt = 1
        while True:
            yield self._start(attempt)
            wait = self._after(attempt)
            if wait is None:
                return
            self._sleep(wait)
            self.waited_ms += wait
            early = before_attempt(self._plan, attempt, self.waited_ms)
            if early is not None:
                self.result = early
                return
            attempt += 1

    async def __aiter__(self) -> AsyncIterator[Attempt]:
        self.result, self.attempts_made, self.waited_ms = None, 0, 0
        attempt = 1
        while True:
            yield self._start(attempt)
            wait = self._after(attempt)
            if wait is None:
                return
            if self._sleep_is_async:
                await self._sleep(wait)
            else:
                self._sleep(wait)
            self.waited_ms += wait
            early = before_attempt(self._plan, attempt, self.waited_ms)
            if early is not None:
                self.result = early
                return
            attempt += 1

    def __repr__(self) -> str:
        return f"attempts({self._plan.describe()})"
