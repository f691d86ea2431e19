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
import types
from contextvars import ContextVar
from typing import Any, Awaitable, Callable, Coroutine, Generator

from ._errors import Err, Result, Timeout
from ._events import Abandoned, Observer, TimedOut, observers_now

_CoroutineType = types.CoroutineType

__all__ = ["DeadlineScope", "current_scope"]

Now = Callable[[], int]


class DeadlineScope:
    """One call's deadline: ``limit_ms`` from ``start``; nested scopes see their parents."""

    __slots__ = ("limit_ms", "now", "start", "waited", "parent", "fired")

    def __init__(self, limit_ms: int, now: Now | None, parent: DeadlineScope | None) -> None:
        self.limit_ms = limit_ms
        self.now = now
        self.start = 0 if now is None else now()
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
    for observer in observers_now(observers):
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
        if scope.fired:
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
        if scope.fired:
            _emit(observers, limit_ms)
        return result  # type: ignore[no-any-return]

    return giving_up_after


class _Resume:
    """Awaiting this continues driving ``coro`` from where it suspended (on ``first``).

    Only for an attempt the deadline abandoned: the rest of it runs as a task of
    its own, which nobody awaits.
    """

    __slots__ = ("coro", "first")

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        pending = self.first
        self.first = None
        _, value = yield from _drive(self.coro, pending)
        return value


def _drive(
    coro: Coroutine[Any, Any, Any], pending: Any, stop: Callable[[], bool] | None = None
) -> Generator[Any, Any, tuple[bool, Any]]:
    """Step ``coro``, suspended on ``pending``, with what its awaiting task sends or throws in.

    Ends with ``(True, value)`` when the coroutine returns ``value``, or with
    ``(False, pending)`` when ``stop()`` is true before a step (the coroutine is
    then suspended on ``pending``, and the caller decides what becomes of it).
    Closing the awaiting task closes the coroutine.
    """
    while stop is None or not stop():
        try:
            sent = yield pending
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as exc:  # noqa: B036 - a cancellation is passed on to the tool
            try:
                pending = coro.throw(exc)
            except StopIteration as end:
                return True, end.value
        else:
            try:
                pending = coro.send(sent)
            except StopIteration as end:
                return True, end.value
    return False, pending


async def _rest(coro: Coroutine[Any, Any, Any], first: Any) -> Any:
    return await _Resume(coro, first)


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


async def _one_turn(loop: asyncio.AbstractEventLoop) -> None:
    """Let every callback already scheduled run once (a cancelled task gets to stop)."""
    turn = loop.create_future()
    loop.call_soon(_resolve, turn)
    await turn


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve an abandoned attempt's outcome, so asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


def _timed_out(
    scope: DeadlineScope, limit_ms: int, observers: tuple[Observer, ...], abandoned: bool
) -> Result[Any]:
    scope.fired = True  # TimedOut is reported by the caller, as for a deadline a retry saw pass
    if abandoned and (observers := observers_now(observers)):
        event = Abandoned(limit_ms)
        for observer in observers:
            observer(event)
    return Err(Timeout(limit_ms))


async def _race(
    task: asyncio.Future[Any],
    scope: DeadlineScope,
    limit_ms: int,
    sleep: Callable[[int], Awaitable[None]],
    observers: tuple[Observer, ...],
    loop_timer: bool,
    in_thread: bool,
) -> Result[Any]:
    """Wait for ``task`` or the deadline, whichever is first; on the deadline, cancel and do not wait."""
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[None] = loop.create_future()
    task.add_done_callback(lambda _: _resolve(waiter))
    fired = False

    def fire() -> None:
        nonlocal fired
        fired = True
        _resolve(waiter)

    left = max(0, scope.own_remaining()) if scope.now is not None else limit_ms
    handle: asyncio.TimerHandle | None = None
    timer: asyncio.Future[None] | None = None
    if loop_timer:
        handle = loop.call_later(left / 1000, fire)
    else:

        async def watchdog() -> None:
            await sleep(left)
            fire()

        timer = asyncio.ensure_future(watchdog())
    try:
        await waiter
    except BaseException:  # the caller was cancelled: the attempt goes with it
        task.cancel()
        task.add_done_callback(_consume)
        raise
    finally:
        if handle is not None:
            handle.cancel()
        if timer is not None and not timer.done():
            timer.cancel()
    if task.done():
        return task.result()  # type: ignore[no-any-return]  # the attempt finished first
    if timer is not None and timer.done() and not timer.cancelled() and timer.exception() is not None:
        task.cancel()
        task.add_done_callback(_consume)
        timer.result()  # the clock's sleep raised: a bug in the clock, surface it
    task.cancel()
    if not in_thread:
        await _one_turn(loop)
    abandoned = in_thread or not task.done()
    if task.done():
        _consume(task)
    else:
        task.add_done_callback(_consume)
    return _timed_out(scope, limit_ms, observers, abandoned)


_GRACE_MS = 100  # how long an attempt the deadline cancelled may take to stop before it is abandoned
_ABANDONED = object()


class _Attempt:
    """Drives one attempt's coroutine in the caller's task, under the deadline.

    Awaiting it runs the tool exactly as ``await coro`` would: every step in
    the caller's task, every future the tool awaits handed to that task, every
    exception thrown in passed on. When the deadline fires it cancels the
    caller's task (as ``asyncio.timeout`` does), so the tool sees
    ``CancelledError`` where it waits and unwinds in that same task. A tool
    that is still running ``_GRACE_MS`` after that (it swallowed the
    cancellation) is handed, as it stands, to a task of its own and
    abandoned: awaiting then returns ``_ABANDONED``.
    """

    __slots__ = (
        "coro", "first", "task", "baseline", "fired", "grace_over", "broken", "handle", "timer", "waiter",
        "left", "sleep", "loop_timer",
    )

    def __init__(
        self,
        coro: Coroutine[Any, Any, Any],
        first: Any,
        task: asyncio.Task[Any],
        left: int,
        sleep: Callable[[int], Awaitable[None]],
        loop_timer: bool,
    ) -> None:
        self.coro = coro
        self.first = first
        self.task = task
        cancelling = getattr(task, "cancelling", None)  # Python 3.11+
        self.baseline: int = cancelling() if cancelling is not None else 0
        self.fired = False
        self.grace_over = False
        self.broken: BaseException | None = None
        self.handle: asyncio.TimerHandle | None = None
        self.timer: asyncio.Future[None] | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.left = left
        self.sleep = sleep
        self.loop_timer = loop_timer

    def _after(self, ms: int, then: Callable[[], None]) -> None:
        """Call ``then`` in ``ms`` on the deadline's clock (the loop's timer for the real one)."""
        if self.loop_timer:
            self.handle = asyncio.get_running_loop().call_later(ms / 1000, then)
        else:
            self.timer = asyncio.ensure_future(self._watch(ms, then))

    async def _watch(self, ms: int, then: Callable[[], None]) -> None:
        try:
            await self.sleep(ms)
        except Exception as exc:  # noqa: BLE001 - the clock's sleep raised: a bug in the clock, surfaced
            if not self.fired:
                self.broken = exc
                self._fire()
            return
        then()

    def _fire(self) -> None:
        if not self.fired:
            self.fired = True
            self.task.cancel()

    def _end_grace(self) -> None:
        self.grace_over = True
        if self.waiter is not None:
            _resolve(self.waiter)

    def _disarm(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        if self.timer is not None:
            if not self.timer.done():
                self.timer.cancel()
            self.timer = None

    def ours(self) -> bool:
        """Whether the cancellation the attempt ended with was the deadline's (and take it back)."""
        uncancel = getattr(self.task, "uncancel", None)
        if uncancel is None:  # Python 3.10 counts no cancellations: the deadline fired, so it is ours
            return True
        return uncancel() <= self.baseline  # type: ignore[no-any-return]

    def __await__(self) -> Generator[Any, Any, Any]:
        pending = self.first  # the tool's first step ran in the caller's task already, and suspended
        self.first = None
        self._after(self.left, self._fire)
        try:
            returned, value = yield from _drive(self.coro, pending, lambda: self.fired)
            if returned:
                return value
            # cancelled by the deadline and still running: wait while it unwinds, up to the grace
            self._disarm()
            self._after(_GRACE_MS, self._end_grace)
            return (yield from self._unwinding(value))
        finally:
            self._disarm()

    def _unwinding(self, pending: Any) -> Generator[Any, Any, Any]:
        coro = self.coro
        loop = asyncio.get_running_loop()
        while True:
            if self.grace_over:  # it ignored the cancellation: the rest runs on its own, not awaited
                rest = asyncio.ensure_future(_rest(coro, pending))
                rest.add_done_callback(_consume)
                return _ABANDONED
            waiter = self.waiter = loop.create_future()
            blocking = asyncio.isfuture(pending)
            wake: Callable[[Any], None] = lambda _: _resolve(waiter)  # noqa: E731
            if blocking:
                pending.add_done_callback(wake)
            else:  # a bare yield (sleep(0)): one turn of the loop
                loop.call_soon(_resolve, waiter)
            try:
                yield from waiter
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # noqa: B036 - the caller is cancelled: passed on to the tool
                if blocking:
                    pending.remove_done_callback(wake)
                    pending.cancel()
                try:
                    pending = coro.throw(exc)
                except StopIteration as stop:
                    return stop.value
                continue
            finally:
                self.waiter = None
            if blocking:
                pending.remove_done_callback(wake)
                if not pending.done():  # the grace ended first
                    continue
            try:
                pending = coro.send(None)
            except StopIteration as stop:
                return stop.value


def _left(scope: DeadlineScope, limit_ms: int) -> int:
    return max(0, scope.own_remaining()) if scope.now is not None else limit_ms


async def _bounded(
    attempt: _Attempt, scope: DeadlineScope, limit_ms: int, observers: tuple[Observer, ...]
) -> Result[Any]:
    """Await the attempt; the deadline's own cancellation (and only it) becomes ``Err(Timeout)``."""
    try:
        value = await attempt
    except asyncio.CancelledError:
        if not attempt.fired or not attempt.ours():
            raise  # the caller's cancellation (or the deadline's and someone else's): it propagates
        if attempt.broken is not None:
            raise attempt.broken from None
        return _timed_out(scope, limit_ms, observers, False)
    if not attempt.fired:
        return value  # type: ignore[no-any-return]
    attempt.ours()  # it went on after the deadline's cancellation: take the cancellation back
    if attempt.broken is not None:
        raise attempt.broken
    return _timed_out(scope, limit_ms, observers, value is _ABANDONED)


def racing(
    tool: Callable[..., Awaitable[Result[Any]]],
    limit_ms: int,
    sleep: Callable[[int], Awaitable[None]],
    now: Now | None,
    observers: tuple[Observer, ...],
    loop_timer: bool = False,
) -> Callable[..., Awaitable[Result[Any]]]:
    """An async deadline around an async tool: one attempt, one task (the caller's).

    The whole attempt runs in the caller's task, as ``await tool()`` would, so
    the tool's cancel scopes, ``asyncio.timeout``, task groups and context
    variables behave as without the deadline. If it finishes without
    suspending nothing is armed. Once it suspends, the clock's ``sleep`` (the
    loop's ``call_later`` for the real ``asyncio_sleep``) is the deadline:
    when it fires, the caller's task is cancelled the way ``asyncio.timeout``
    cancels it, and the deadline's own cancellation (counted with
    ``Task.cancelling``/``uncancel``) becomes ``Err(Timeout(limit_ms))``; any
    other cancellation propagates. An attempt that is still running
    ``_GRACE_MS`` after it was cancelled is abandoned to a task of its own
    (reported as ``Abandoned``). Outside any task (a coroutine driven by
    hand) there is no task to cancel: the rest of the attempt gets a task of
    its own, raced, as before issue 21.
    """

    async def giving_up_after(*args: Any, **kwargs: Any) -> Result[Any]:
        parent = _current.get()
        if parent is not None:
            gone = parent.expired()
            if gone is not None:
                gone.fired = True
                return Err(Timeout(gone.limit_ms))
        scope = DeadlineScope(limit_ms, now, parent)
        token = _current.set(scope)
        result: Result[Any]
        try:
            coro = tool(*args, **kwargs)
            if type(coro) is not _CoroutineType:
                coro = _awaited(coro)
            try:
                first = coro.send(None)  # the first step, in the caller's task, as `await` runs it
            except StopIteration as done:  # finished without suspending: nothing to arm
                result = done.value
            else:
                task = asyncio.current_task()
                if task is None:  # a coroutine driven by hand, in no task: the rest gets one, raced
                    rest = asyncio.ensure_future(_rest(coro, first))  # copies the scope
                    result = await _race(rest, scope, limit_ms, sleep, observers, loop_timer, False)
                else:
                    result = await _bounded(_Attempt(coro, first, task, _left(scope, limit_ms), sleep, loop_timer),
                                            scope, limit_ms, observers)
        finally:
            _current.reset(token)
        if scope.fired:
            _emit(observers, limit_ms)
        return result

    return giving_up_after


def racing_thread(
    tool: Callable[..., Result[Any]],
    limit_ms: int,
    sleep: Callable[[int], Awaitable[None]],
    now: Now | None,
    observers: tuple[Observer, ...],
    loop_timer: bool = False,
) -> Callable[..., Awaitable[Result[Any]]]:
    """An async deadline around a sync tool: the tool runs in a worker thread, raced against the clock.

    A thread cannot be stopped: when the deadline fires the caller gets
    ``Err(Timeout)`` on time and the call is abandoned (reported as
    ``Abandoned``) to finish in its thread; its result is dropped.
    """

    async def giving_up_after(*args: Any, **kwargs: Any) -> Result[Any]:
        early = _already_expired()
        if early is not None:
            return early
        scope = DeadlineScope(limit_ms, now, _current.get())
        token = _current.set(scope)
        try:
            task = asyncio.ensure_future(asyncio.to_thread(tool, *args, **kwargs))  # copies the scope
        finally:
            _current.reset(token)
        result = await _race(task, scope, limit_ms, sleep, observers, loop_timer, True)
        if scope.fired:
            _emit(observers, limit_ms)
        return result

    return giving_up_after
