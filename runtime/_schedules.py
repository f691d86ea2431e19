"""Backoff schedules: how long to wait before each retry.

A :class:`Schedule` maps the number of the retry (1 for the wait after the
first failed attempt) to a wait in whole milliseconds::

    exponentially_from(millis(100))                  # 100, 200, 400, 800, ... at most a minute
    exponentially_from(millis(100)).capped_at(seconds(1))   # ..., 800, 1000, 1000
    exponentially_from(millis(100)).by(1.5)          # 100, 150, 225, 338, ...
    constant(millis(250))                            # 250, 250, 250, ...
    exponentially_from(millis(100)).with_full_jitter(random.Random(7))
                                                     # uniform in [0, 100], [0, 200], ...

Jitter draws from the random source you pass (anything with
``randint(a, b)``, like :class:`random.Random`), so tests can seed it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Protocol

from ._durations import Duration

__all__ = ["Schedule", "RandomSource", "exponentially_from", "constant", "DEFAULT_CAP"]

DEFAULT_CAP: Duration = Duration(60_000)
"""The longest wait an exponential schedule makes unless ``capped_at`` says otherwise: one minute."""

_MAX_WAIT_MS = 2**53 - 1


class RandomSource(Protocol):
    """A source of random integers; :class:`random.Random` is one."""

    def randint(self, a: int, b: int) -> int:
        """A random integer ``n`` with ``a <= n <= b``."""
        ...


@dataclass(frozen=True, slots=True)
class Schedule:
    """``base_ms * factor ** (retry - 1)`` rounded, then capped at ``cap_ms``, then jittered."""

    base_ms: int
    factor: float = 2
    cap_ms: int | None = None
    jitter: RandomSource | None = None

    def __post_init__(self) -> None:
        if self.base_ms < 0:
            raise ValueError(f"a schedule's base wait cannot be negative, got {self.base_ms} ms")
        factor = self.factor
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not math.isfinite(factor) or factor < 1:
            raise ValueError(f"an exponential factor must be a finite number >= 1, got {factor!r}")
        if self.cap_ms is not None and self.cap_ms < 0:
            raise ValueError(f"a cap cannot be negative, got {self.cap_ms} ms")

    def __repr__(self) -> str:
        if self.factor == 1:
            text = f"constant(millis({self.base_ms}))"
        else:
            text = f"exponentially_from(millis({self.base_ms}))"
            if self.factor != 2:
                text += f".by({self.factor!r})"
        if self.cap_ms is not None and not (self.factor != 1 and self.cap_ms == DEFAULT_CAP.ms):
            text += f".capped_at(millis({self.cap_ms}))"
        if self.jitter is not None:
            text += f".with_full_jitter({self.jitter!r})"
        return text

    def by(self, factor: float) -> Schedule:
        """The same schedule growing by ``factor`` (a number >= 1, ``1.5`` allowed) instead of 2."""
        return replace(self, factor=factor)

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
        limit = self.cap_ms if self.cap_ms is not None else _MAX_WAIT_MS
        factor = self.factor
        if self.base_ms == 0 or limit == 0:
            wait = 0
        elif factor == 1:
            wait = self.base_ms
        elif (retry - 1) * math.log(factor) + math.log(self.base_ms) > math.log(limit) + 1:
            wait = limit  # would overflow, or is far past the cap anyway
        elif isinstance(factor, int):
            wait = self.base_ms * factor ** (retry - 1)
        else:
            wait = round(self.base_ms * factor ** (retry - 1))
        if wait > limit:
            wait = limit
        if self.jitter is not None:
            wait = self.jitter.randint(0, wait)
        return wait


def exponentially_from(start: Duration, factor: float = 2) -> Schedule:
    """Wait ``start``, then ``start * factor``, then ``start * factor**2``, ... never more than a minute.

    ``.by(1.5)`` changes the factor; ``.capped_at(d)`` changes the cap (a
    longer one included).
    """
    if not isinstance(start, Duration):
        raise TypeError(f"exponentially_from() takes a Duration (millis/seconds/minutes), got {start!r}")
    return Schedule(start.ms, factor, DEFAULT_CAP.ms)


def constant(wait: Duration) -> Schedule:
    """Wait the same ``wait`` before every retry."""
    if not isinstance(wait, Duration):
        raise TypeError(f"constant() takes a Duration (millis/seconds/minutes), got {wait!r}")
    return Schedule(wait.ms, 1)
