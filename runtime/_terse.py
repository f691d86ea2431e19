"""The terse dialect: keyword-argument spellings of the readable combinators.

Each function here only renames: it builds the very clauses of the readable
dialect and returns what the readable call returns, so both dialects behave
identically (the test suite checks this with hypothesis)::

    tool.terse.retry(times=4, backoff=tool.terse.exponential(100), sleep=sleep, retry_on=tool.is_retryable)
    # is
    tool.with_clock(sleep).retrying(
        tool.retrying_when(tool.is_retryable),
        tool.up_to(4).attempts,
        tool.backing_off(tool.exponentially_from(tool.millis(100))),
    )

Numbers named ``*_ms`` (and the arguments of :func:`exponential`,
:func:`fixed` and :func:`deadline`) are milliseconds.
"""

from __future__ import annotations

from typing import Any, Callable, Coroutine, TypeVar, overload

from ._clock import AsyncClock, SyncClock, with_clock
from ._durations import millis
from ._errors import Result, ToolError
from ._events import Observer
from ._fallback import falling_back_to
from ._retry import (
    Budget,
    ConfigError,
    RetryClause,
    backing_off,
    ignoring_server_advice,
    observing,
    retrying_when,
    trusting_server_advice_up_to,
    up_to,
    within,
)
from ._schedules import RandomSource, Schedule, constant, exponentially_from
from ._tools import AsyncFallingBack, AsyncStage, SyncFallingBack, SyncStage, the_value

__all__ = ["retry", "exponential", "fixed", "deadline", "fallback"]

T = TypeVar("T")
_MISSING: Any = object()
Now = Callable[[], int]


def exponential(
    base_ms: int, factor: float = 2, *, cap_ms: int | None = None, jitter: RandomSource | None = None
) -> Schedule:
    """``exponentially_from(millis(base_ms), factor)``, optionally ``.capped_at`` / ``.with_full_jitter``."""
    schedule = exponentially_from(millis(base_ms), factor)
    if cap_ms is not None:
        schedule = schedule.capped_at(millis(cap_ms))
    if jitter is not None:
        schedule = schedule.with_full_jitter(jitter)
    return schedule


def fixed(ms: int, *, jitter: RandomSource | None = None) -> Schedule:
    """``constant(millis(ms))``, optionally ``.with_full_jitter``."""
    schedule = constant(millis(ms))
    return schedule.with_full_jitter(jitter) if jitter is not None else schedule


@overload
def retry(
    *,
    sleep: Callable[[int], Coroutine[Any, Any, None]],
    times: int | None = None,
    backoff: Schedule | None = None,
    retry_on: Callable[[ToolError], bool] | None = None,
    budget: Budget | None = None,
    honour_advice: bool = True,
    max_advice_ms: int | None = None,
    on_event: Observer | None = None,
    now: Now | None = None,
) -> AsyncStage: ...
@overload
def retry(
    *,
    sleep: Callable[[int], None],
    times: int | None = None,
    backoff: Schedule | None = None,
    retry_on: Callable[[ToolError], bool] | None = None,
    budget: Budget | None = None,
    honour_advice: bool = True,
    max_advice_ms: int | None = None,
    on_event: Observer | None = None,
    now: Now | None = None,
) -> SyncStage: ...
def retry(
    *,
    sleep: Callable[[int], Any],
    times: int | None = None,
    backoff: Schedule | None = None,
    retry_on: Callable[[ToolError], bool] | None = None,
    budget: Budget | None = None,
    honour_advice: bool = True,
    max_advice_ms: int | None = None,
    on_event: Observer | None = None,
    now: Now | None = None,
) -> SyncStage | AsyncStage:
    """``with_clock(sleep, now).retrying(...)`` spelled with keywords.

    ``times`` -> ``up_to(times).attempts``; ``backoff`` -> ``backing_off``;
    ``retry_on`` -> ``retrying_when`` (default: ``while_transient``);
    ``budget`` -> ``within``; ``honour_advice=False`` ->
    ``ignoring_server_advice``; ``max_advice_ms`` ->
    ``trusting_server_advice_up_to(millis(...))``; ``on_event`` -> ``observing``.
    """
    clauses: list[RetryClause] = []
    if retry_on is not None:
        clauses.append(retrying_when(retry_on))
    if times is not None:
        clauses.append(up_to(times).attempts)
    if budget is not None:
        clauses.append(within(budget))
    if backoff is not None:
        clauses.append(backing_off(backoff))
    if not honour_advice:
        clauses.append(ignoring_server_advice)
    if max_advice_ms is not None:
        clauses.append(trusting_server_advice_up_to(millis(max_advice_ms)))
    if on_event is not None:
        clauses.append(observing(on_event))
    clock: SyncClock | AsyncClock = with_clock(sleep, now)
    return clock.retrying(*clauses)


@overload
def deadline(
    ms: int,
    *,
    sleep: Callable[[int], Coroutine[Any, Any, None]],
    now: Now | None = None,
    on_event: Observer | None = None,
) -> AsyncStage: ...
@overload
def deadline(
    ms: int, *, sleep: Callable[[int], None], now: Now | None = None, on_event: Observer | None = None
) -> SyncStage: ...
def deadline(
    ms: int, *, sleep: Callable[[int], Any], now: Now | None = None, on_event: Observer | None = None
) -> SyncStage | AsyncStage:
    """``with_clock(sleep, now).giving_up_after(millis(ms))`` spelled with keywords."""
    clauses = (observing(on_event),) if on_event is not None else ()
    clock: SyncClock | AsyncClock = with_clock(sleep, now)
    return clock.giving_up_after(millis(ms), *clauses)


@overload
def fallback(
    to: Callable[..., Coroutine[Any, Any, Result[T]]], *, on_event: Observer | None = None
) -> AsyncFallingBack[T]: ...
@overload
def fallback(to: Callable[..., Result[T]], *, on_event: Observer | None = None) -> SyncFallingBack[T]: ...
@overload
def fallback(*, value: T, on_event: Observer | None = None) -> SyncFallingBack[T]: ...
def fallback(to: Any = None, *, value: Any = _MISSING, on_event: Observer | None = None) -> Any:
    """``falling_back_to(to)`` or, with ``value=x``, ``falling_back_to(the_value(x))``."""
    clauses = (observing(on_event),) if on_event is not None else ()
    if (to is None) == (value is _MISSING):
        raise ConfigError("fallback() takes a tool or value=..., exactly one of them")
    if to is None:
        return falling_back_to(the_value(value), *clauses)
    return falling_back_to(to, *clauses)
