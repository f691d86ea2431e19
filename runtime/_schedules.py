"""Backoff schedules: how long to wait before each retry.

A :class:`Schedule` maps the number of the retry (1 for the wait after the
first failed attempt) to a wait in whole milliseconds::

    exponentially_from(millis(100))                  # 100, 200, 400, 800, ...
    exponentially_from(millis(100)).capped_at(seconds(1))   # ..., 800, 1000, 1000
    constant(millis(250))                            # 250, 250, 250, ...
    exponentially_from(millis(100)).with_full_jitter(random.Random(7))
                                                     # uniform in [0, 100], [0, 200], ...

Jitter draws from the random source you pass (anything with
``randint(a, b)``, like :class:`random.Random`), so tests can seed it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from ._durations import Duration

__all__ = ["Schedule", "RandomSource", "exponentially_from", "constant"]


class RandomSource(Protocol):
    """A source of random integers; :class:`random.Random` is one."""

    def randint(self, a: int, b: int) -> int:
        """A random integer ``n`` with ``a <= n <= b``."""
        ...


@dataclass(frozen=True, slots=True)
class Schedule:
    """``base_ms * factor ** (retry - 1)``, then capped at ``cap_ms``, then jittered."""

    base_ms: int
    factor: int = 2
    cap_ms: int | None = None
    jitter: RandomSource | None = None

    def __post_init__(self) -> None:
        if self.base_ms < 0:
            raise ValueError(f"a schedule's base wait cannot be negative, got {self.base_ms} ms")
        if isinstance(self.factor, bool) or not isinstance(self.factor, int) or self.factor < 1:
            raise ValueError(f"an exponential factor must be an int >= 1, got {self.factor!r}")
        if self.cap_ms is not None and self.cap_ms < 0:
            raise ValueError(f"a cap cannot be negative, got {self.cap_ms} ms")

    def capped_at(self, cap: Duration) -> Schedule:
        """The same schedule, never waiting longer than ``cap``."""
        if not isinstance(cap, Duration):
            raise TypeError(f"capped_at() takes a Duration (millis/seconds/minutes), got {cap!r}")
        return replace(self, cap_ms=cap.ms)

    def with_full_jitter(self, rng: RandomSource) -> Schedule:
        """The same schedule, each wait drawn uniformly from ``[0, wait]`` with ``rng``."""
        if not callable(getattr(rng, "randint", None)):
            raise TypeError(f"with_full_jitter() takes a random source with randint(a, b), got {rng!r}")
        return replace(self, jitter=rng)

    def wait_ms(self, retry: int) -> int:
        """The wait before retry number ``retry`` (1 = after the first failed attempt)."""
        wait = self.base_ms * int(self.factor ** (retry - 1))
        if self.cap_ms is not None and wait > self.cap_ms:
            wait = self.cap_ms
        if self.jitter is not None:
            wait = self.jitter.randint(0, wait)
        return wait


def exponentially_from(start: Duration, factor: int = 2) -> Schedule:
    """Wait ``start``, then ``start * factor``, then ``start * factor**2``, ..."""
    if not isinstance(start, Duration):
        raise TypeError(f"exponentially_from() takes a Duration (millis/seconds/minutes), got {start!r}")
    return Schedule(start.ms, factor)


def constant(wait: Duration) -> Schedule:
    """Wait the same ``wait`` before every retry."""
    if not isinstance(wait, Duration):
        raise TypeError(f"constant() takes a Duration (millis/seconds/minutes), got {wait!r}")
    return Schedule(wait.ms, 1)
