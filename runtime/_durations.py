"""Durations: a length of time with its unit, so ``seconds(10)`` is never read as milliseconds.

A :class:`Duration` is a value, not a number: every combinator that takes a
length of time takes a ``Duration``, so passing a bare ``int`` is a
``mypy --strict`` error. Build one with :func:`millis`, :func:`seconds` or
:func:`minutes`; read it back in milliseconds with ``.ms``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Duration", "millis", "seconds", "minutes"]


@dataclass(frozen=True, slots=True, order=True)
class Duration:
    """A non-negative length of time, stored as whole milliseconds."""

    ms: int

    def __post_init__(self) -> None:
        if isinstance(self.ms, bool) or not isinstance(self.ms, int):
            raise TypeError(f"Duration.ms must be an int, got {type(self.ms).__name__}")
        if self.ms < 0:
            raise ValueError(f"a duration cannot be negative, got {self.ms} ms")

    def __repr__(self) -> str:
        return f"millis({self.ms})"


def _whole_ms(amount: float, per_unit: int, unit: str) -> Duration:
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise TypeError(f"{unit}() takes a number, got {type(amount).__name__}")
    if isinstance(amount, int):
        return Duration(amount * per_unit)
    total = amount * per_unit
    if total != total or total in (float("inf"), float("-inf")):
        raise ValueError(f"{unit}({amount!r}) is not a finite duration")
    return Duration(round(total))


def millis(amount: int) -> Duration:
    """A duration of ``amount`` milliseconds (a whole number)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"millis() takes an int, got {type(amount).__name__}")
    return Duration(amount)


def seconds(amount: float) -> Duration:
    """A duration of ``amount`` seconds (``seconds(0.25)`` is 250 ms; rounded to whole ms)."""
    return _whole_ms(amount, 1000, "seconds")


def minutes(amount: float) -> Duration:
    """A duration of ``amount`` minutes (rounded to whole ms)."""
    return _whole_ms(amount, 60_000, "minutes")
