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

from ._errors import Err, Result, Timeout
from ._events import Observer, TimedOut

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
    loop_timer: bool = False,
) -> Callable[..., Awaitable[Result[Any]]]:
    """An async deadline around an async tool: the call races ``sleep(limit_ms)``.

    The work runs in the caller's task; a watchdog task awaits the clock's
    sleep and, if it finishes first, cancels the caller's task, which this
    turns into ``Err(Timeout(limit_ms))``. A cancellation from anyone else
    propagates untouched (on 3.11+ told apart with ``Task.uncancel``).

    ``loop_timer=True`` is for the real ``asyncio_sleep`` clock only: the same
    race, with the event loop's ``call_later`` in place of a watchdog task
    (which is what ``asyncio.sleep`` itself does, minus a task per call).
    """

    async def giving_up_after(*args: Any, **kwargs: Any) -> Result[Any]:
        early = _already_expired()
        if early is not None:
            return early
        task = asyncio.current_task()
        if task is None:  # pragma: no cover - awaited outside a task (not under asyncio)
            raise RuntimeError("giving_up_after() on an async clock must run inside an asyncio task")
        cancelling = _cancelling(task)
        fired = False

        def fire() -> None:
            nonlocal fired
            fired = True
            task.cancel()

        timer: asyncio.Future[None] | None = None
        handle: asyncio.TimerHandle | None = None
        if loop_timer:
            handle = asyncio.get_running_loop().call_later(limit_ms / 1000, fire)
        else:

            async def watchdog() -> None:
                await sleep(limit_ms)
                fire()

            timer = asyncio.ensure_future(watchdog())
        scope = DeadlineScope(limit_ms, now, _current.get())
        token = _current.set(scope)
        try:
            result = await tool(*args, **kwargs)
        except asyncio.CancelledError:
            if not fired or _uncancel(task) > cancelling:
                raise  # not ours, or ours and someone else's: let it through
            result = Err(Timeout(limit_ms))
        else:
            if fired:  # the work swallowed our cancellation: the deadline still fired
                _uncancel(task)
                result = Err(Timeout(limit_ms))
        finally:
            _current.reset(token)
            if not fired:
                if handle is not None:
                    handle.cancel()
                if timer is not None:
                    timer.cancel()
        if fired:
            scope.fired = True
        elif timer is not None and timer.done() and not timer.cancelled():
            timer.result()  # the clock's sleep raised: a bug in the clock, surface it
        if scope.fired and observers:
            _emit(observers, limit_ms)
        return result

    return giving_up_after


def _cancelling(task: asyncio.Task[Any]) -> int:
    counter = getattr(task, "cancelling", None)  # Python 3.11+
    return int(counter()) if counter is not None else 0


def _uncancel(task: asyncio.Task[Any]) -> int:
    undo = getattr(task, "uncancel", None)  # Python 3.11+
    return int(undo()) if undo is not None else 0
