"""``giving_up_after``: bound how long the caller waits.

The deadline stage opens a *scope* (a :mod:`contextvars` variable) for the
duration of one call. Retries inside it read the scope: they do not start a
wait that would end at or past the deadline, and they do not start an attempt
once it has passed. How the scope measures elapsed time:

- with ``now`` on the deadline's clock: ``now() - start``, which counts the
  work as well as the waits;
- without ``now``: the sum of the waits the retries inside have made (the
  deadline cannot see how long the work itself took).

For an async tool on an async clock the call also *races* the clock's sleep:
if the sleep finishes first the attempt's task is cancelled and the call
returns ``Err(Timeout(after_ms))``. A sync call cannot be interrupted, so a
sync deadline only checks between attempts.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import Any, Awaitable, Callable

from .errors import Err, Result, Timeout
from .events import Observer, TimedOut

__all__ = ["DeadlineScope", "current_scope"]

Now = Callable[[], int]


class DeadlineScope:
    """One call's deadline: ``limit_ms`` from ``start``; nested scopes see their parents."""

    __slots__ = ("limit_ms", "now", "start", "waited", "parent", "fired")

    def __init__(self, limit_ms: int, now: Now | None, parent: DeadlineScope | None) -> None:
        self.limit_ms = limit_ms
        self.now = now
        self.start = now() if now is not None else 0
        self.waited = 0
        self.parent = parent
        self.fired = False

    def own_remaining(self) -> int:
        """Milliseconds left before this scope's own deadline (may be negative)."""
        if self.now is not None:
            return self.limit_ms - (self.now() - self.start)
        return self.limit_ms - self.waited

    def remaining(self) -> int:
        """Milliseconds left before the nearest deadline, this scope's or an enclosing one's."""
        left = self.own_remaining()
        scope = self.parent
        while scope is not None:
            left = min(left, scope.own_remaining())
            scope = scope.parent
        return left

    def expired(self) -> DeadlineScope | None:
        """The innermost scope whose deadline has passed, if any."""
        scope: DeadlineScope | None = self
        while scope is not None:
            if scope.own_remaining() <= 0:
                return scope
            scope = scope.parent
        return None

    def add_wait(self, ms: int) -> None:
        """Record a wait made inside this scope (and every enclosing one)."""
        scope: DeadlineScope | None = self
        while scope is not None:
            scope.waited += ms
            scope = scope.parent


_current: ContextVar[DeadlineScope | None] = ContextVar("smullyan_deadline", default=None)


def current_scope() -> DeadlineScope | None:
    """The deadline scope of the running call, if it runs under ``giving_up_after``."""
    return _current.get()


def _emit(observers: tuple[Observer, ...], after_ms: int) -> None:
    event = TimedOut(after_ms)
    for observer in observers:
        observer(event)


def _already_expired() -> Result[Any] | None:
    parent = _current.get()
    if parent is None:
        return None
    gone = parent.expired()
    if gone is None:
        return None
    gone.fired = True
    return Err(Timeout(gone.limit_ms))


def checking_sync(
    tool: Callable[..., Result[Any]], limit_ms: int, now: Now | None, observers: tuple[Observer, ...]
) -> Callable[..., Result[Any]]:
    """A sync deadline around a sync tool: checks between attempts, never interrupts one."""

    def giving_up_after(*args: Any, **kwargs: Any) -> Result[Any]:
        early = _already_expired()
        if early is not None:
            return early
        scope = DeadlineScope(limit_ms, now, _current.get())
        token = _current.set(scope)
        try:
            result = tool(*args, **kwargs)
        finally:
            _current.reset(token)
        if scope.fired and observers:
            _emit(observers, limit_ms)
        return result

    return giving_up_after


def checking_async(
    tool: Callable[..., Any],
    tool_is_async: bool,
    limit_ms: int,
    now: Now | None,
    observers: tuple[Observer, ...],
) -> Callable[..., Awaitable[Result[Any]]]:
    """A checking deadline whose result is awaitable (the tool or the clock is async, not both)."""

    async def giving_up_after(*args: Any, **kwargs: Any) -> Result[Any]:
        early = _already_expired()
        if early is not None:
            return early
        scope = DeadlineScope(limit_ms, now, _current.get())
        token = _current.set(scope)
        try:
            result = tool(*args, **kwargs)
            if tool_is_async:
                result = await result
        finally:
            _current.reset(token)
        if scope.fired and observers:
            _emit(observers, limit_ms)
        return result  # type: ignore[no-any-return]

    return giving_up_after


def racing(
    tool: Callable[..., Awaitable[Result[Any]]],
    limit_ms: int,
    sleep: Callable[[int], Awaitable[None]],
    now: Now | None,
    observers: tuple[Observer, ...],
) -> Callable[..., Awaitable[Result[Any]]]:
    """An async deadline around an async tool: the call races ``sleep(limit_ms)``; the loser is cancelled."""

    async def giving_up_after(*args: Any, **kwargs: Any) -> Result[Any]:
        early = _already_expired()
        if early is not None:
            return early
        scope = DeadlineScope(limit_ms, now, _current.get())
        token = _current.set(scope)
        try:
            # The task copies the current context, so the work sees the scope.
            work: asyncio.Future[Result[Any]] = asyncio.ensure_future(tool(*args, **kwargs))
        finally:
            _current.reset(token)
        timer: asyncio.Future[None] = asyncio.ensure_future(sleep(limit_ms))
        try:
            done, _ = await asyncio.wait((work, timer), return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            # We are cancelled (or interrupted) while waiting: take both children down with us.
            work.cancel()
            timer.cancel()
            raise
        if work in done:
            timer.cancel()
            result = work.result()  # re-raises what the work raised
            if scope.fired and observers:
                _emit(observers, limit_ms)
            return result
        # The clock won. A sleep that failed is a bug in the clock: surface it.
        timer.result()
        work.cancel()
        await asyncio.wait((work,))
        if not work.cancelled():
            work.exception()  # retrieve it so asyncio does not log "never retrieved"
        scope.fired = True
        if observers:
            _emit(observers, limit_ms)
        return Err(Timeout(limit_ms))

    return giving_up_after
