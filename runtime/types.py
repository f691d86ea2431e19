"""The types of the runtime's values: clauses, stages, clocks, schedules, and the state they share.

You rarely construct these (the functions of :mod:`smullyan.runtime` do); you
name them in annotations, and you construct the shared state. Two readers of
such values live here too: :func:`is_async_callable` (is this tool or stage
async?) and :func:`current_scope` (the deadline running now, if any)::

    from smullyan import runtime as tool
    from smullyan.runtime.types import Budget, RetryClause, SyncStage

    budget = Budget(attempts=20)                  # shared by every call that uses it
    clauses: list[RetryClause] = [tool.up_to(4).attempts, tool.within(budget)]
    stage: SyncStage = tool.system_clock().retrying(*clauses)
"""

from ._breaker import CircuitBreaker
from ._clock import AsyncClock, SyncClock
from ._deadline import DeadlineScope, current_scope
from ._durations import Duration
from ._key_state import IDEMPOTENCY_HEADER, MAX_KEY_LENGTH, KeyedClause, Reconciling, Recording
from ._retry import (
    DEFAULT_ADVICE_CAP,
    DEFAULT_SCHEDULE,
    Advice,
    Attempt,
    AttemptBound,
    Attempts,
    BackingOff,
    Budget,
    BudgetBound,
    Condition,
    Observing,
    ResultCondition,
    RetryClause,
)
from ._saga import Proposal, Saga, SagaOutcome, Step
from ._schedules import RandomSource, Schedule
from ._tools import AsyncFallingBack, AsyncStage, SyncFallingBack, SyncStage, is_async_callable
from .classification import CLASSIFICATIONS, Classification

__all__ = [
    # durations and clocks
    "Duration",
    "SyncClock",
    "AsyncClock",
    # stages (what pipe applies)
    "SyncStage",
    "AsyncStage",
    "SyncFallingBack",
    "AsyncFallingBack",
    "CircuitBreaker",
    "is_async_callable",
    # retry clauses, their defaults, and the shared budget
    "RetryClause",
    "Condition",
    "ResultCondition",
    "AttemptBound",
    "BudgetBound",
    "BackingOff",
    "Advice",
    "Observing",
    "Budget",
    "DEFAULT_ADVICE_CAP",
    "DEFAULT_SCHEDULE",
    # the retry as a loop
    "Attempts",
    "Attempt",
    # schedules
    "Schedule",
    "RandomSource",
    # the running deadline
    "DeadlineScope",
    "current_scope",
    # classifications (the decorators and classification_of are on the front door)
    "Classification",
    "CLASSIFICATIONS",
    # keyed calls
    "KeyedClause",
    "Reconciling",
    "Recording",
    "IDEMPOTENCY_HEADER",
    "MAX_KEY_LENGTH",
    # sagas
    "Step",
    "Saga",
    "SagaOutcome",
    "Proposal",
]
