"""The circuit breaker: stop calling a tool that keeps failing, and try again after a cool-down.

The readable form::

    breaker = tool.breaking_after(5).failures(within=tool.seconds(30)).for_(tool.seconds(60), now=now)
    search = tool.pipe(tool.calling_api(search_api), breaker, clock.retrying(...))

and the terse form ``tool.terse.circuit_breaker(failures=5, within_ms=30_000, cool_down_ms=60_000, now=now)``.

``n`` *transient* failures (``RateLimited``, ``Timeout``, ``Unavailable``:
the service is in trouble; ``InvalidArgs`` and the like are the caller's)
within the window open the circuit: calls return
``Err(Unavailable("circuit open ..."))`` at once, without calling the tool.
After the cool-down, one call is let through as a probe (half-open); others
still get the open error meanwhile. The probe's success closes the circuit, its
transient failure opens it for another cool-down.

The state lives in the :class:`CircuitBreaker` (so applying one breaker to
several tools makes them share one circuit, as for one service). It is safe
under threads and asyncio: every decision is a short critical section under a
``threading.Lock``, never held across the tool's call. ``now`` (milliseconds)
is injected; nothing here reads the time. Every state change is reported to
``observing(callback)`` as :class:`~smullyan.runtime.CircuitChanged`.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Callable, TypeVar

from ._write_events import CircuitChanged, CircuitState
from .classification import carry
from ._durations import Duration
from ._errors import MAX_MS, Err, Ok, Result, Unavailable, is_retryable
from ._events import Observer, observers_now
from ._retry import ConfigError, Observing
from ._tools import SyncStage

__all__ = ["CircuitBreaker", "breaking_after", "circuit_breaker"]

T = TypeVar("T")
Now = Callable[[], int]


class CircuitBreaker(SyncStage):
    """A circuit breaker stage (keeps a sync tool sync, an async tool async), and its state."""

    __slots__ = ("threshold", "window_ms", "cool_down_ms", "now", "observers",
                 "_lock", "_failures", "_state", "_opened_at", "_probing")

    def __init__(
        self, threshold: int, window_ms: int, cool_down_ms: int, now: Now, observers: tuple[Observer, ...] = ()
    ) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
            raise ConfigError(f"breaking_after(n) needs an int n >= 1, got {threshold!r}")
        for name, value in (("within", window_ms), ("cool-down", cool_down_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ConfigError(f"a circuit breaker's {name} must be a positive duration, got {value!r}")
        if not callable(now):
            raise ConfigError(f"a circuit breaker takes now=<function returning ms>, got {now!r}")
        super().__init__(self._wrap_sync_tool, self._wrap_async_tool,
                         f"breaking_after({threshold}).failures(within=millis({window_ms}))"
                         f".for_(millis({cool_down_ms}))")
        self.threshold = threshold
        self.window_ms = window_ms
        self.cool_down_ms = cool_down_ms
        self.now = now
        self.observers = observers
        self._lock = threading.Lock()
        self._failures: deque[int] = deque()
        self._state: CircuitState = "closed"
        self._opened_at = 0
        self._probing = False

    @property
    def state(self) -> CircuitState:
        """``closed``, ``open`` or ``half_open`` (as of the last call; the cool-down ends on a call)."""
        return self._state

    # -- decisions, each one short critical section

    def _admit(self) -> tuple[bool, bool, CircuitChanged | None]:
        """May a call go through now, is it the probe, and the state change that caused (if any)."""
        with self._lock:
            if self._state == "closed":
                return True, False, None
            if self._probing:
                return False, False, None
            if self._state == "open" and self.now() - self._opened_at < self.cool_down_ms:
                return False, False, None
            change = None
            if self._state == "open":
                change = CircuitChanged("open", "half_open", len(self._failures))
                self._state = "half_open"
            self._probing = True
            return True, True, change

    def _record(self, result: object, probe: bool) -> CircuitChanged | None:
        if not isinstance(result, (Ok, Err)):
            raise TypeError(f"a tool under a circuit breaker must return Ok or Err, got {result!r}")
        transient = isinstance(result, Err) and is_retryable(result.error)
        with self._lock:
            now = self.now()
            if probe:
                self._probing = False
                if transient:
                    self._state = "open"
                    self._opened_at = now
                    return CircuitChanged("half_open", "open", len(self._failures))
                self._state = "closed"
                self._failures.clear()
                return CircuitChanged("half_open", "closed", 0)
            if not transient or self._state != "closed":
                return None
            failures = self._failures
            failures.append(now)
            while failures and now - failures[0] >= self.window_ms:
                failures.popleft()
            if len(failures) >= self.threshold:
                self._state = "open"
                self._opened_at = now
                return CircuitChanged("closed", "open", len(failures))
            return None

    def _abandoned(self, probe: bool) -> None:
        """The call raised (cancelled): free the probe slot so the next call can probe."""
        if probe:
            with self._lock:
                self._probing = False

    def _emit(self, change: CircuitChanged | None) -> None:
        if change is not None:
            for observer in observers_now(self.observers):
                observer(change)

    def _refusal(self) -> Err[Unavailable]:
        if self._probing:  # another call is the probe: when it ends is not known
            return Err(Unavailable(f"circuit open: {len(self._failures)} transient failures; a probe is running"))
        left = max(0, self.cool_down_ms - (self.now() - self._opened_at))
        return Err(Unavailable(f"circuit open: {len(self._failures)} transient failures; "
                               f"next probe in {left} ms", None, min(left, MAX_MS)))

    # -- wrappers

    def _wrap_sync_tool(self, tool: Callable[..., Result[Any]]) -> Callable[..., Result[Any]]:
        def breaking(*args: Any, **kwargs: Any) -> Result[Any]:
            admitted, probe, change = self._admit()
            self._emit(change)
            if not admitted:
                return self._refusal()
            try:
                result = tool(*args, **kwargs)
            except BaseException:
                self._abandoned(probe)
                raise
            self._emit(self._record(result, probe))
            return result

        return carry(tool, breaking)

    def _wrap_async_tool(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        async def breaking(*args: Any, **kwargs: Any) -> Result[Any]:
            admitted, probe, change = self._admit()
            self._emit(change)
            if not admitted:
                return self._refusal()
            try:
                result = await tool(*args, **kwargs)
            except BaseException:
                self._abandoned(probe)
                raise
            self._emit(self._record(result, probe))
            return result  # type: ignore[no-any-return]

        return carry(tool, breaking)

    def __repr__(self) -> str:
        return f"{self._label} [{self._state}]"


class _Failures:
    __slots__ = ("_n", "_within")

    def __init__(self, n: int, within: int | None) -> None:
        self._n = n
        self._within = within

    def failures(self, *, within: Duration) -> _Failures:
        """Count failures in a sliding window of ``within``."""
        if not isinstance(within, Duration):
            raise ConfigError(f"failures(within=...) takes a Duration, got {within!r}")
        return _Failures(self._n, within.ms)

    def for_(self, cool_down: Duration, *clauses: Observing, now: Now) -> CircuitBreaker:
        """Stay open for ``cool_down`` before one probe; ``now()`` gives milliseconds."""
        if self._within is None:
            raise ConfigError("breaking_after(n) needs .failures(within=...) before .for_(...)")
        if not isinstance(cool_down, Duration):
            raise ConfigError(f"for_() takes a Duration, got {cool_down!r}")
        for clause in clauses:
            if not isinstance(clause, Observing):
                raise ConfigError(f"for_() takes observing(...) clauses only, got {clause!r}")
        return CircuitBreaker(self._n, self._within, cool_down.ms, now, tuple(c.callback for c in clauses))


def breaking_after(n: int) -> _Failures:
    """``breaking_after(5).failures(within=seconds(30)).for_(seconds(60), now=now)``."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"breaking_after(n) needs an int n >= 1, got {n!r}")
    return _Failures(n, None)


def circuit_breaker(
    *, failures: int, within_ms: int, cool_down_ms: int, now: Now,
    on_event: Observer | None = None,
) -> CircuitBreaker:
    """The terse form: ``circuit_breaker(failures=5, within_ms=30_000, cool_down_ms=60_000, now=now)``."""
    return CircuitBreaker(failures, within_ms, cool_down_ms, now, (on_event,) if on_event is not None else ())
