"""Events of the safe-write combinators (keyed calls, circuit breaker, saga).

They join :data:`~smullyan.runtime.events.Event`, so one ``observing(callback)``
sees them beside the retry's events.

============== ==============================================================
TakenOver      a keyed call goes on with a key whose earlier attempt (a dead
               worker's, or this call's own after an ambiguous failure) may
               have acted. ``reconciling`` says whether a lookup runs first;
               when False the effect runs again without one: a possible
               duplicate, reported here before it runs.
Reconciled     the reconcile lookup ran for ``key``; ``found`` says whether
               the effect had happened (then its result is returned)
Replayed       a keyed call returned the ledger's stored outcome for ``key``
LeaseLost      the call finished but another owner had taken the key over
               (its lease lapsed while it ran: the heartbeat could not renew
               it): both may have acted
CircuitChanged a circuit breaker moved from ``before`` to ``after``
============== ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

__all__ = [
    "TakenOver",
    "Reconciled",
    "Replayed",
    "LeaseLost",
    "CircuitState",
    "CircuitChanged",
    "WriteEvent",
]


@dataclass(frozen=True, slots=True)
class TakenOver:
    """A keyed call took over ``key`` after an earlier owner's lease ended."""

    key: str
    reconciling: bool


@dataclass(frozen=True, slots=True)
class Reconciled:
    """The lookup for ``key`` ran; ``found``: the effect had happened."""

    key: str
    found: bool


@dataclass(frozen=True, slots=True)
class Replayed:
    """The ledger's stored outcome for ``key`` was returned; the effect did not run again."""

    key: str


@dataclass(frozen=True, slots=True)
class LeaseLost:
    """The call for ``key`` ended after another owner had taken the key over."""

    key: str


CircuitState = Literal["closed", "open", "half_open"]


@dataclass(frozen=True, slots=True)
class CircuitChanged:
    """A circuit breaker went from ``before`` to ``after`` (``failures`` counted in the window)."""

    before: CircuitState
    after: CircuitState
    failures: int


WriteEvent = Union[TakenOver, Reconciled, Replayed, LeaseLost, CircuitChanged]
"""Every event of the safe-write combinators."""
