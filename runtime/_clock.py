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
from ._errors import ToolError
from ._retry import Attempts, ConfigError, Observing, RetryClause
from ._tools import AsyncStage, SyncStage, is_async_callable

Classifier = Callable[[Exception], ToolError]

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


def _classifier(classify: Classifier | None) -> Classifier:
    if classify is None:
        from ._mapping import from_exception

        return from_exception
    if not callable(classify):
        raise ConfigError(f"attempts(classify=...) takes a function from Exception to ToolError, got {classify!r}")
    return classify


def _blocking_under_async(sleep: Callable[[int], Any]) -> Callable[[Callable[..., Any]], Any]:
    """The async-tool wrapper of a sync clock: refused for the real blocking sleep."""

    def refuse(tool: Callable[..., Any]) -> Any:
        raise ConfigError(
            f"a clock built on system_sleep would block the event loop while {_name(tool)} waits: "
            "use tool.asyncio_clock() (or with_clock(asyncio_sleep)) for an async tool; "
            "a sync sleep is only right for an instant fake in tests"
        )

    return refuse


class SyncClock:
    """A clock whose sleep is a plain function: its stages keep a tool sync (or async).

    Under an async tool, a sync sleep blocks the event loop while it waits:
    that is right only for an instant fake in tests, and refused for
    :func:`system_sleep`.
    """

    __slots__ = ("sleep", "now")

    def __init__(self, sleep: Callable[[int], None], now: Now | None = None) -> None:
        self.sleep = sleep
        self.now = now

    def retrying(self, *clauses: RetryClause) -> SyncStage:
        """A retry stage; see ``docs/runtime.md`` for the clauses."""
        plan = _retry.make_plan(clauses)
        sleep = self.sleep
        return SyncStage(
            _retry.guarded(lambda tool: _retry.wrap_sync(plan, tool, sleep)),
            _retry.guarded(
                _blocking_under_async(sleep)
                if sleep is system_sleep
                else lambda tool: _retry.wrap_async(plan, tool, True, sleep, False)
            ),
            f"retrying({plan.describe()})",
        )

    def attempts(self, *clauses: RetryClause, classify: Classifier | None = None) -> Attempts:
        """The retry as a loop, for code that cannot be wrapped::

            for attempt in clock.attempts(tool.up_to(4).attempts):
                with attempt:                  # an Exception here is classified and retried
                    body = fetch(url)
            result = ...                       # see Attempts.result
        """
        return Attempts(_retry.make_plan(clauses), self.sleep, False, _classifier(classify))

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


def _in_thread(tool: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A sync tool as an async one whose every call runs in a worker thread (the loop stays free)."""

    def in_thread(*args: Any, **kwargs: Any) -> Awaitable[Any]:
        return asyncio.to_thread(tool, *args, **kwargs)

    return in_thread


class AsyncClock:
    """A clock whose sleep is ``async def``: its stages always give async tools.

    A sync tool under its stages runs in a worker thread (``asyncio.to_thread``)
    for each attempt, so it never blocks the event loop and a deadline can
    return on time.
    """

    __slots__ = ("sleep", "now")

    def __init__(self, sleep: Callable[[int], Awaitable[None]], now: Now | None = None) -> None:
        self.sleep = sleep
        self.now = now

    def retrying(self, *clauses: RetryClause) -> AsyncStage:
        """A retry stage that awaits the clock's sleep between attempts."""
        plan = _retry.make_plan(clauses)
        sleep = self.sleep
        return AsyncStage(
            _retry.guarded(lambda tool: _retry.wrap_async(plan, _in_thread(tool), True, sleep, True)),
            _retry.guarded(lambda tool: _retry.wrap_async(plan, tool, True, sleep, True)),
            f"retrying({plan.describe()})",
        )

    def attempts(self, *clauses: RetryClause, classify: Classifier | None = None) -> Attempts:
        """The retry as an ``async for`` loop, for code that cannot be wrapped (see :class:`Attempts`)."""
        return Attempts(_retry.make_plan(clauses), self.sleep, True, _classifier(classify))

    def giving_up_after(self, limit: Duration, *clauses: Observing) -> AsyncStage:
        """A deadline: the call races ``sleep(limit)``; the caller gets ``Err(Timeout)`` on time.

        An async tool that loses is cancelled (and abandoned if it ignores the
        cancellation); a sync tool runs in a worker thread (``asyncio.to_thread``)
        so the event loop stays free, and is abandoned to finish there if it loses.
        """
        ms = _check_duration(limit, "giving_up_after()")
        observers = _deadline_observers(clauses)
        now = self.now
        sleep = self.sleep
        loop_timer = sleep is asyncio_sleep
        return AsyncStage(
            lambda tool: _deadline.racing_thread(tool, ms, sleep, now, observers, loop_timer),
            lambda tool: _deadline.racing(tool, ms, sleep, now, observers, loop_timer),
            f"giving_up_after({limit!r})",
        )

    def __repr__(self) -> str:
        return f"with_clock({_name(self.sleep)}, now={_name(self.now)})"


def _name(fn: object) -> str:
    return str(getattr(fn, "__qualname__", fn))


def _is_seconds_sleep(fn: object) -> bool:
    """``time.sleep`` or ``asyncio.sleep`` (recognised by module and name; they take seconds)."""
    module = getattr(fn, "__module__", None)
    return getattr(fn, "__name__", None) == "sleep" and module in ("time", "asyncio", "asyncio.tasks")


@overload
def with_clock(sleep: Callable[[int], Coroutine[Any, Any, None]], now: Now | None = None) -> AsyncClock: ...
@overload
def with_clock(sleep: Callable[[int], None], now: Now | None = None) -> SyncClock: ...
def with_clock(sleep: Callable[[int], Any], now: Now | None = None) -> SyncClock | AsyncClock:
    """A clock from ``sleep(ms)`` (plain or ``async def``) and, optionally, ``now() -> ms``."""
    if not callable(sleep):
        raise ConfigError(f"with_clock() takes a sleep function of milliseconds, got {sleep!r}")
    if _is_seconds_sleep(sleep):
        raise ConfigError(
            f"with_clock({_name(sleep)}) would wait 1000x too long: a clock's sleep takes milliseconds, "
            "time.sleep and asyncio.sleep take seconds; use tool.system_sleep / tool.asyncio_sleep "
            "(or tool.system_clock() / tool.asyncio_clock())"
        )
    if now is not None and not callable(now):
        raise ConfigError(f"with_clock(now=...) takes a function returning milliseconds, got {now!r}")
    if is_async_callable(sleep):
        return AsyncClock(sleep, now)
    return SyncClock(sleep, now)


# ---------------------------------------------------------------- the real clocks (explicit choices)


_MAX_SLEEP_MS = 2**31 - 1  # about 24.8 days: past every schedule's cap, and within time.sleep's range


def system_sleep(ms: int) -> None:
    """Block the thread for ``ms`` milliseconds (``time.sleep``); refuses a negative or absurd wait."""
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= _MAX_SLEEP_MS:
        raise ValueError(f"system_sleep() takes whole milliseconds from 0 to {_MAX_SLEEP_MS}, got {ms!r}")
    time.sleep(ms / 1000)


async def asyncio_sleep(ms: int) -> None:
    """Suspend the task for ``ms`` milliseconds (``asyncio.sleep``); refuses a negative or absurd wait."""
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= _MAX_SLEEP_MS:
        raise ValueError(f"asyncio_sleep() takes whole milliseconds from 0 to {_MAX_SLEEP_MS}, got {ms!r}")
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
