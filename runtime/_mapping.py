"""From the outside world to ToolErrors: HTTP responses and Python exceptions.

Neither :func:`from_http` nor :func:`from_exception` ever raises.
"""

from __future__ import annotations

import email.utils
import math
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Final

from ._errors import (
    Denied,
    InvalidArgs,
    NotFound,
    RateLimited,
    Timeout,
    ToolError,
    ToolFailure,
    Unavailable,
    Unknown,
)

__all__ = ["from_http", "from_exception", "parse_retry_after", "DEFAULT_RETRY_AFTER_MS"]

DEFAULT_RETRY_AFTER_MS: Final = 1000
"""The wait a 429 implies when the server gives no (valid) ``Retry-After``."""

_REASONS: Final[dict[int, str]] = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    408: "Request Timeout",
    410: "Gone",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """Case-insensitive header lookup (``name`` in lower case)."""
    try:
        for key, value in headers.items():
            if isinstance(key, str) and key.lower() == name:
                return str(value).strip()
    except Exception:
        return None
    return None


def _aware(now: datetime) -> datetime:
    return now if now.tzinfo is not None else now.replace(tzinfo=timezone.utc)


def parse_retry_after(value: str | None, now: datetime) -> int | None:
    """``Retry-After`` in milliseconds: delta-seconds or an HTTP-date against ``now``.

    ``None`` when absent or malformed; a date in the past is 0.
    """
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return int(value) * 1000
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None:  # pragma: no cover - older Pythons returned None
        return None
    delta = (_aware(when) - _aware(now)).total_seconds()
    if not math.isfinite(delta):
        return None
    return max(0, math.ceil(delta * 1000))


def from_http(
    status: int,
    headers: Mapping[str, str] | None = None,
    now: datetime | None = None,
    *,
    target: str | None = None,
    elapsed_ms: int = 0,
) -> ToolError:
    """The ToolError for an HTTP failure status.

    429 -> RateLimited (``Retry-After`` read as delta-seconds or an HTTP-date
    against ``now``; ``X-RateLimit-Limit`` as the limit); 401/403 -> Denied;
    404/410 -> NotFound (``target`` names what was asked for); 400/422 ->
    InvalidArgs; 408/504 -> Timeout (``elapsed_ms`` when known); 500/502/503
    and other 5xx -> Unavailable with the status; anything else -> Unknown.
    ``now`` is required to read an HTTP-date; without it such a header counts
    as absent (nothing here reads the clock by itself).
    """
    try:
        if isinstance(status, bool) or not isinstance(status, int):
            return Unknown(f"not an HTTP status: {status!r}")
        hdrs: Mapping[str, str] = headers if headers is not None else {}
        reason = f"HTTP {status} {_REASONS.get(status, '')}".rstrip()
        what = target if target is not None else "the requested resource"
        if status == 429:
            raw = _header(hdrs, "retry-after")
            wait: int | None = None
            if raw is not None and raw.isascii() and raw.isdigit():
                wait = int(raw) * 1000
            elif now is not None:
                wait = parse_retry_after(raw, now)
            return RateLimited(
                DEFAULT_RETRY_AFTER_MS if wait is None else wait,
                _header(hdrs, "x-ratelimit-limit") or _header(hdrs, "ratelimit-policy"),
            )
        if status in (401, 403):
            return Denied(reason, _required_scope(hdrs))
        if status in (404, 410):
            return NotFound(what)
        if status in (400, 422):
            return InvalidArgs("request", "a request the server accepts", reason)
        if status in (408, 504):
            return Timeout(max(0, elapsed_ms))
        if 500 <= status <= 599:
            return Unavailable(reason, status)
        return Unknown(f"unexpected {reason}")
    except Exception as exc:  # pragma: no cover - defensive: never raise
        return Unknown(f"could not classify HTTP status {status!r}", exc)


def _required_scope(headers: Mapping[str, str]) -> str | None:
    """The scope a ``WWW-Authenticate: Bearer ... scope="..."`` challenge asks for."""
    challenge = _header(headers, "www-authenticate")
    if not challenge:
        return None
    for part in challenge.split(","):
        key, _, value = part.strip().partition("=")
        if key.strip().lower().endswith("scope") and value:
            return value.strip().strip('"') or None
    return None


def from_exception(exc: BaseException) -> ToolError:
    """The ToolError for an exception raised by a tool.

    ``ToolFailure`` -> its error unchanged; ``urllib.error.HTTPError`` -> as
    :func:`from_http`; ``TimeoutError`` (and ``socket.timeout``,
    ``asyncio.TimeoutError``) -> Timeout; ``ConnectionError`` and other
    network ``OSError``s -> Unavailable; ``PermissionError`` -> Denied;
    ``FileNotFoundError`` -> NotFound; ``IsADirectoryError`` /
    ``NotADirectoryError`` -> InvalidArgs; anything else -> Unknown naming the
    exception type.
    """
    try:
        return _from_exception(exc)
    except Exception:
        return Unknown(f"unclassifiable exception of type {type(exc).__name__}")


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = ""
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


def _from_exception(exc: BaseException) -> ToolError:
    if isinstance(exc, ToolFailure):
        return exc.error
    # urllib's HTTPError is both a URLError and a response: read its status.
    import urllib.error  # stdlib; imported here to keep import of the runtime light

    if isinstance(exc, urllib.error.HTTPError):
        return from_http(exc.code, dict(exc.headers.items()) if exc.headers else {}, target=exc.url)
    if isinstance(exc, TimeoutError) or type(exc).__name__ == "TimeoutError":
        # socket.timeout is TimeoutError since 3.10; asyncio.TimeoutError and
        # concurrent.futures.TimeoutError are on 3.11 (same name on 3.10).
        return Timeout(0)
    if isinstance(exc, PermissionError):
        return Denied(_message(exc))
    if isinstance(exc, FileNotFoundError):
        return NotFound(str(exc.filename) if exc.filename is not None else _message(exc))
    if isinstance(exc, (IsADirectoryError, NotADirectoryError)):
        path = str(exc.filename) if exc.filename is not None else "path"
        expected = "a file" if isinstance(exc, IsADirectoryError) else "a directory"
        return InvalidArgs(path, expected, _message(exc))
    if isinstance(exc, ConnectionError):
        return Unavailable(_message(exc))
    if isinstance(exc, urllib.error.URLError):
        return Unavailable(_message(exc))
    import socket

    if isinstance(exc, socket.gaierror):
        return Unavailable(f"name resolution failed: {_message(exc)}")
    return Unknown(_message(exc), exc)
