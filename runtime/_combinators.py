"""Runtime combinators: retry, deadline, fallback, with an injected clock, in two dialects.

This module gathers the public names; the code lives in
:mod:`._durations`, :mod:`._clock`, :mod:`._schedules`, :mod:`._retry`,
:mod:`._deadline`, :mod:`._fallback`, :mod:`._tools`, :mod:`._events` and
:mod:`._terse`. Read ``docs/runtime.md`` for the guide.

The readable dialect::

    from smullyan import runtime as tool

    clock = tool.with_clock(sleep)
    fetch_issue = tool.pipe(
        tool.calling_api(lambda: gh.get_issue(n), classify),
        clock.retrying(
            tool.while_transient,
            tool.up_to(4).attempts,
            tool.backing_off(tool.exponentially_from(tool.millis(100))),
        ),
        clock.giving_up_after(tool.seconds(10)),
        tool.falling_back_to(tool.the_value(cached)),
    )
    result = fetch_issue()
"""

from __future__ import annotations

from ._clock import (
    AsyncClock,
    SyncClock,
    asyncio_clock,
    asyncio_sleep,
    system_clock,
    system_now,
    system_sleep,
    with_clock,
)
from ._deadline import DeadlineScope, current_scope
from ._durations import Duration, millis, minutes, seconds
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
from ._fallback import falling_back_to
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
    ConfigError,
    Observing,
    ResultCondition,
    RetryClause,
    backing_off,
    ignoring_server_advice,
    observing,
    retrying_on_result,
    retrying_when,
    trusting_server_advice_up_to,
    up_to,
    while_transient,
    within,
)
from ._schedules import RandomSource, Schedule, constant, exponentially_from
from ._terse import deadline, exponential, fallback, fixed, retry
from ._tools import (
    AsyncFallingBack,
    AsyncStage,
    SyncFallingBack,
    SyncStage,
    calling_api,
    is_async_callable,
    pipe,
    the_value,
)

__all__ = [
    # durations
    "Duration",
    "millis",
    "seconds",
    "minutes",
    # clocks
    "SyncClock",
    "AsyncClock",
    "with_clock",
    "system_sleep",
    "asyncio_sleep",
    "system_now",
    "system_clock",
    "asyncio_clock",
    # tools and stages
    "calling_api",
    "the_value",
    "pipe",
    "SyncStage",
    "AsyncStage",
    "SyncFallingBack",
    "AsyncFallingBack",
    "is_async_callable",
    # retry clauses
    "Budget",
    "ConfigError",
    "Condition",
    "AttemptBound",
    "BudgetBound",
    "BackingOff",
    "Advice",
    "Observing",
    "RetryClause",
    "while_transient",
    "retrying_when",
    "retrying_on_result",
    "ResultCondition",
    "Attempts",
    "Attempt",
    "up_to",
    "within",
    "backing_off",
    "ignoring_server_advice",
    "trusting_server_advice_up_to",
    "observing",
    "DEFAULT_ADVICE_CAP",
    "DEFAULT_SCHEDULE",
    # schedules
    "Schedule",
    "RandomSource",
    "exponentially_from",
    "constant",
    # deadline and fallback
    "DeadlineScope",
    "current_scope",
    "falling_back_to",
    # events
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
    "Event",
    "Observer",
    # terse dialect
    "retry",
    "exponential",
    "fixed",
    "deadline",
    "fallback",
]
