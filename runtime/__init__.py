"""smullyan.runtime: typed tool errors and the combinators that handle them.

Standard library only. Nothing here sleeps or reads the time on its own:
whatever waits or reads time takes a clock.

The front door lists what a program calls; four public modules hold the rest:

- :mod:`smullyan.runtime.events`: what ``observing(callback)`` receives;
- :mod:`smullyan.runtime.types`: the types of clauses, stages, clocks,
  schedules, classifications, and the shared state (``Budget``), with
  ``is_async_callable`` and ``current_scope``;
- :mod:`smullyan.runtime.ledger`: the ledgers of keyed calls
  (``SQLiteLedger``, ``PostgresLedger``, the ``Ledger`` protocol);
- :mod:`smullyan.runtime.terse`: the terse dialect (``retry(times=4, ...)``,
  ``circuit_breaker(failures=5, ...)``).

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

from ._breaker import breaking_after
from ._clock import asyncio_clock, asyncio_sleep, system_clock, system_now, system_sleep, with_clock
from ._durations import millis, minutes, seconds
from ._errors import (
    TAGS,
    Denied,
    Err,
    InvalidArgs,
    NotFound,
    Ok,
    RateLimited,
    Result,
    Timeout,
    ToolError,
    ToolFailure,
    Unavailable,
    Unknown,
    assert_never,
    denied,
    invalid_args,
    is_retryable,
    not_found,
    rate_limited,
    timeout,
    unavailable,
    unknown,
)
from ._explain import explain
from ._fallback import falling_back_to
from ._http_status import from_http
from ._key_state import current_key, extend_lease, idempotency_headers, reconciling_with, recorded_in
from ._keys import keyed
from ._mapping import from_exception
from ._retry import (
    ConfigError,
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
from ._saga import Proposals, saga, step
from ._schedules import constant, exponentially_from
from ._tools import calling_api, pipe, the_value
from ._wire import dump, dump_json, parse, parse_json

# the classification decorators: the linter reads them by these qualified names
from .classification import (
    classification_of,
    idempotent_write,
    irreversible,
    non_idempotent_write,
    read_safe,
)

# the four public modules, reachable as tool.events, tool.types, tool.ledger, tool.terse
from . import events, ledger, terse, types

__all__ = [
    # errors and Result
    "ToolError",
    "RateLimited",
    "InvalidArgs",
    "NotFound",
    "Timeout",
    "Unavailable",
    "Denied",
    "Unknown",
    "TAGS",
    "rate_limited",
    "invalid_args",
    "not_found",
    "timeout",
    "unavailable",
    "denied",
    "unknown",
    "is_retryable",
    "Ok",
    "Err",
    "Result",
    "ToolFailure",
    "ConfigError",
    "assert_never",
    # the wire format, explain, mapping exceptions and HTTP answers
    "dump",
    "dump_json",
    "parse",
    "parse_json",
    "explain",
    "from_exception",
    "from_http",
    # durations
    "millis",
    "seconds",
    "minutes",
    # clocks
    "with_clock",
    "system_clock",
    "asyncio_clock",
    "system_sleep",
    "asyncio_sleep",
    "system_now",
    # the combinators
    "calling_api",
    "the_value",
    "pipe",
    "falling_back_to",
    # retry clauses and schedules
    "while_transient",
    "retrying_when",
    "retrying_on_result",
    "up_to",
    "within",
    "backing_off",
    "ignoring_server_advice",
    "trusting_server_advice_up_to",
    "observing",
    "exponentially_from",
    "constant",
    # classification
    "read_safe",
    "idempotent_write",
    "non_idempotent_write",
    "irreversible",
    "classification_of",
    # idempotency keys
    "keyed",
    "reconciling_with",
    "recorded_in",
    "current_key",
    "idempotency_headers",
    "extend_lease",
    # sagas
    "saga",
    "step",
    "Proposals",
    # the circuit breaker
    "breaking_after",
]
