"""smullyan.runtime: typed tool errors and the combinators that handle them.

Standard library only. Nothing here sleeps or reads the time on its own:
whatever waits or reads time takes a clock.
"""

from .errors import (
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
from .explain import explain
from .mapping import from_exception, from_http
from .wire import dump, dump_json, parse, parse_json

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
