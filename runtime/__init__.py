"""smullyan.runtime: typed tool errors and the combinators that handle them.

Standard library only. Nothing here sleeps or reads the time on its own:
whatever waits or reads time takes a clock.
"""

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
from ._mapping import from_exception, from_http
from ._wire import dump, dump_json, parse, parse_json

__all__ = [
    "TAGS",
    "Denied",
    "Err",
    "InvalidArgs",
    "NotFound",
    "Ok",
    "RateLimited",
    "Result",
    "Timeout",
    "ToolError",
    "ToolFailure",
    "Unavailable",
    "Unknown",
    "assert_never",
    "denied",
    "dump",
    "dump_json",
    "explain",
    "from_exception",
    "from_http",
    "invalid_args",
    "is_retryable",
    "not_found",
    "parse",
    "parse_json",
    "rate_limited",
    "timeout",
    "unavailable",
    "unknown",
]

# ---------------------------------------------------------------- combinators (issue 3)
# retry / deadline / fallback with an injected clock, both dialects; the names
# are listed once, in combinators.__all__.
from . import _combinators
from ._combinators import *  # noqa: E402,F401,F403

__all__ += _combinators.__all__

# ---------------------------------------------------------------- safe writes (issue 14)
# classify every call; the linter reads these decorators by these qualified names.
from .classification import (  # noqa: E402
    CLASSIFICATIONS,
    Classification,
    classification_of,
    idempotent_write,
    irreversible,
    non_idempotent_write,
    read_safe,
)

__all__ += [
    "CLASSIFICATIONS",
    "Classification",
    "classification_of",
    "idempotent_write",
    "irreversible",
    "non_idempotent_write",
    "read_safe",
]

from ._breaker import CircuitBreaker, breaking_after, circuit_breaker  # noqa: E402
from ._keys import (  # noqa: E402
    IDEMPOTENCY_HEADER,
    MAX_KEY_LENGTH,
    KeyedClause,
    Reconciling,
    Recording,
    current_key,
    extend_lease,
    idempotency_headers,
    keyed,
    reconciling_with,
    recorded_in,
)
from ._ledger import (  # noqa: E402
    DEFAULT_LEASE,
    DEFAULT_TTL,
    JSON_CODEC,
    SCHEMA,
    Begin,
    Codec,
    Done,
    FailedEarlier,
    InProgress,
    Ledger,
    Mismatch,
    SQLiteLedger,
    Started,
    fingerprint_of,
    wall_now,
    wall_sleep,
)
from ._ledger_postgres import PostgresLedger  # noqa: E402  (psycopg is imported when one is made)
from ._saga import Proposal, Proposals, Saga, SagaOutcome, Step, saga, step  # noqa: E402
from ._write_events import (  # noqa: E402
    CircuitChanged,
    CircuitState,
    LeaseLost,
    Reconciled,
    Replayed,
    TakenOver,
    WriteEvent,
)

__all__ += [
    "CircuitBreaker", "breaking_after", "circuit_breaker",
    "IDEMPOTENCY_HEADER", "MAX_KEY_LENGTH", "KeyedClause", "Reconciling", "Recording",
    "current_key", "extend_lease", "idempotency_headers", "keyed", "reconciling_with", "recorded_in",
    "DEFAULT_LEASE", "DEFAULT_TTL", "JSON_CODEC", "SCHEMA", "Begin", "Codec", "Done", "FailedEarlier",
    "InProgress", "Ledger", "Mismatch", "SQLiteLedger", "Started", "fingerprint_of", "wall_now", "wall_sleep",
    "PostgresLedger",
    "Proposal", "Proposals", "Saga", "SagaOutcome", "Step", "saga", "step",
    "CircuitChanged", "CircuitState", "LeaseLost", "Reconciled", "Replayed", "TakenOver", "WriteEvent",
]

