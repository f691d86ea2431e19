"""Clocks: the only way anything in ``smullyan.runtime`` waits or reads the time.

``with_clock(sleep, now=None)`` makes a clock from a sleep function that takes
whole milliseconds: a plain ``def`` gives a :class:`SyncClock`, an
``async def`` gives an :class:`AsyncClock`. ``now()`` (whole milliseconds from
any fixed origin) is optional; a deadline uses it to count the time the work
took as well as the waits.

Nothing here sleeps or reads the time unless you choose
:func:`system_sleep`, :func:`asyncio_sleep`, :func:`system_now`,
:func:`system_clock` or :func:`asyncio_clock`; those are the only places that
call ``time.sleep``, ``asyncio.sleep`` and ``time.monotonic_ns``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Coroutine, overload

from . import _deadline
from . import _retry
from ._durations import Duration
from ._events import Observer
from ._keys import guard_retry  # refuses unsafe writes, keeps one key per logical call (issue 14)
from ._retry import ConfigError, Observing, RetryClause
from ._tools import AsyncStage, SyncStage, is_async_callable

__all__ = [
    "SyncClock",
    "AsyncClock",
    "with_clock",
    "system_sleep",
    "asyncio_sleep",
    "system_now",
    "system_clock",
    "asyncio_clock",
]

Now = Callable[[], int]


def _check_duration(limit: Duration, where: str) -> int:
    if not isinstance(limit, Duration):
        raise TypeError(f"{where} takes a Duration (millis/seconds/minutes), got {limit!r}")
    return limit.ms


def _deadline_observers(clauses: tuple[Observing, ...]) -> tuple[Observer, ...]:
    for clause in clauses:
        if not isinstance(clause, Observing):
            raise ConfigError(f"giving_up_after() takes observing(...) clauses only, got {clause!r}")
    return tuple(clause.callback for clause in clauses)


class SyncClock:
    """A clock whose sleep is a plain function: its stages keep a tool sync (or async)."""

    __slots__ = ("sleep", "now")

    def __init__(self, sleep: Callable[[int], None], now: Now | None = None) -> None:
        self.sleep = sleep
        self.now = now

    def retrying(self, *clauses: RetryClause) -> SyncStage:
        """A retry stage; see :mod:`smullyan.runtime.retry` for the clauses."""
        plan = _retry.make_plan(clauses)
        sleep = self.sleep
        return SyncStage(
            guard_retry(lambda tool: _retry.wrap_sync(plan, tool, sleep)),
            guard_retry(lambda tool: _retry.wrap_async(plan, tool, True, sleep, False)),
            f"retrying({plan.describe()})",
        )

    def giving_up_after(self, limit: Duration, *clauses: Observing) -> SyncStage:
        """A deadline that checks between attempts (a sync clock cannot race a call)."""
        ms = _check_duration(limit, "giving_up_after()")
        observers = _deadline_observers(clauses)
        now = self.now
        return SyncStage(
            lambda tool: _deadline.checking_sync(tool, ms, now, observers),
            lambda tool: _deadline.checking_async(tool, True, ms, now, observers),
            f"giving_up_after({limit!r})",
        )

    def __repr__(self) -> str:
        return f"with_clock({_name(self.sleep)}, now={_name(self.now)})"


class AsyncClock:
    """A clock whose sleep is ``async def``: its stages always give async tools."""

    __slots__ = ("sleep", "now")

    def __init__(self, sleep: Callable[[int], Awaitable[None]], now: Now | None = None) -> None:
        self.sleep = sleep
        self.now = now

    def retrying(self, *clauses: RetryClause) -> AsyncStage:
        """A retry stage that awaits the clock's sleep between attempts."""
        plan = _retry.make_plan(clauses)
        sleep = self.sleep
        return AsyncStage(
            guard_retry(lambda tool: _retry.wrap_async(plan, tool, False, sleep, True)),
            guard_retry(lambda tool: _retry.wrap_async(plan, tool, True, sleep, True)),
            f"retrying({plan.describe()})",
        )

    def giving_up_after(self, limit: Duration, *clauses: Observing) -> AsyncStage:
        """A deadline: an async tool races ``sleep(limit)`` and is cancelled if it loses.

        A sync tool cannot be raced (it blocks the event loop); for it the
        deadline checks between attempts, as on a sync clock.
        """
        ms = _check_duration(limit, "giving_up_after()")
        observers = _deadline_observers(clauses)
        now = self.now
        sleep = self.sleep
        return AsyncStage(
            lambda tool: _deadline.checking_async(tool, False, ms, now, observers),
            lambda tool: _deadline.racing(tool, ms, sleep, now, observers, sleep is asyncio_sleep),
            f"giving_up_after({limit!r})",
        )

    def __repr__(self) -> str:
        return f"with_clock({_name(self.sleep)}, now={_name(self.now)})"


def _name(fn: object) -> str:
    return str(getattr(fn, "__qualname__", fn))


@overload
def with_clock(sleep: Callable[[int], Coroutine[Any, Any, None]], now: Now | None = None) -> AsyncClock: ...
@overload
def with_clock(sleep: Callable[[int], None], now: Now | None = None) -> SyncClock: ...
def with_clock(sleep: Callable[[int], Any], now: Now | None = None) -> SyncClock | AsyncClock:
    """A clock from ``sleep(ms)`` (plain or ``async def``) and, optionally, ``now() -> ms``."""
    if not callable(sleep):
        raise ConfigError(f"with_clock() takes a sleep function of milliseconds, got {sleep!r}")
    if now is not None and not callable(now):
        raise ConfigError(f"with_clock(now=...) takes a function returning milliseconds, got {now!r}")
    if is_async_callable(sleep):
        return AsyncClock(sleep, now)
    return SyncClock(sleep, now)


# ---------------------------------------------------------------- the real clocks (explicit choices)


def system_sleep(ms: int) -> None:
    """Block the thread for ``ms`` milliseconds (``time.sleep``)."""
    time.sleep(ms / 1000)


async def asyncio_sleep(ms: int) -> None:
    """Suspend the task for ``ms`` milliseconds (``asyncio.sleep``)."""
    await asyncio.sleep(ms / 1000)


def system_now() -> int:
    """Milliseconds on the monotonic clock (``time.monotonic_ns() // 1_000_000``)."""
    return time.monotonic_ns() // 1_000_000


def system_clock() -> SyncClock:
    """``with_clock(system_sleep, now=system_now)``: the real clock for sync code."""
    return SyncClock(system_sleep, system_now)


def asyncio_clock() -> AsyncClock:
    """``with_clock(asyncio_sleep, now=system_now)``: the real clock for asyncio code."""
    return AsyncClock(asyncio_sleep, system_now)
