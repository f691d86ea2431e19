"""What the combinators report: the events an ``observing(callback)`` clause receives.

One ``observing(callback)`` sees every event of the stage it is given to:
the retry's (:class:`Attempted` ... :class:`GaveUp`), the deadline's
(:class:`TimedOut`, :class:`Abandoned`), the fallback's (:class:`FellBack`)
and the safe writes' (:class:`TakenOver`, :class:`Reconciled`,
:class:`Replayed`, :class:`LeaseLost`, :class:`CircuitChanged`). ``Event`` is
their union, ``Observer`` the callback's type::

    from smullyan.runtime.events import Event, GaveUp

    def log(event: Event) -> None:
        if isinstance(event, GaveUp):
            print(event.reason, event.error)
"""

from ._events import (
    Abandoned,
    Attempted,
    Event,
    Failed,
    FellBack,
    GaveUp,
    GiveUpReason,
    Observer,
    Succeeded,
    TimedOut,
    Unsatisfied,
    Waiting,
)
from ._write_events import CircuitChanged, CircuitState, LeaseLost, Reconciled, Replayed, TakenOver, WriteEvent

__all__ = [
    # the retry, the deadline, the fallback
    "Attempted",
    "Succeeded",
    "Failed",
    "Unsatisfied",
    "Waiting",
    "GaveUp",
    "GiveUpReason",
    "TimedOut",
    "Abandoned",
    "FellBack",
    # the safe writes (keyed calls, circuit breaker)
    "TakenOver",
    "Reconciled",
    "Replayed",
    "LeaseLost",
    "CircuitChanged",
    "CircuitState",
    "WriteEvent",
    # every event, and the callback that receives them
    "Event",
    "Observer",
]
