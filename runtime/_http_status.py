"""HTTP failures to ToolErrors: :func:`from_http` and ``Retry-After`` (:func:`parse_retry_after`).

:func:`from_http` never raises on any status or headers; a ``now`` that is not
a timezone-aware ``datetime`` is a programming error, refused at once
(``TypeError`` / ``ValueError``). Exceptions are mapped in :mod:`._mapping`,
which reads an exception's response through :func:`from_http`.
"""

from __future__ import annotations

import email.utils
import math
from datetime import datetime
from typing import Any, Final, Iterable, Protocol

from ._errors import (
    Denied,
    InvalidArgs,
    NotFound,
    RateLimited,
    Timeout,
    ToolError,
    Unavailable,
    Unknown,
)

__all__ = ["from_http", "parse_retry_after"]

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
    529: "Overloaded",
}

# Retry-After is honoured on 429 and on these (RFC 9110 section 10.2.3 allows it on 503;
# gateways send it on 502/504 too).
_ADVICE_STATUSES: Final = frozenset({502, 503, 504})

class Headers(Protocol):
    """Anything with ``items()`` of (name, value) pairs: a dict, ``email.message.Message``,
    ``requests``' ``CaseInsensitiveDict``, ``httpx.Headers``, aiohttp's ``CIMultiDict``."""

    def items(self) -> Iterable[tuple[Any, Any]]: ...  # noqa: D102


_MAX_ADVICE_MS: Final = 2**53 - 1  # the largest integer a JSON peer (JavaScript) reads exactly


def _text(value: object) -> str:
    """``value`` as text safe to keep in an error: a str, lone surrogates replaced."""
    text = value if isinstance(value, str) else str(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def _header(headers: object, name: str) -> str | None:
    """Case-insensitive header lookup (``name`` in lower case); str or bytes keys and values."""
    try:
        items = headers.items()  # type: ignore[attr-defined]
        for key, value in items:
            if isinstance(key, (bytes, bytearray)):
                key = bytes(key).decode("latin-1")
            if isinstance(key, str) and key.lower() == name:
                if isinstance(value, (bytes, bytearray)):
                    value = bytes(value).decode("latin-1")
                return _text(value).strip()
    except Exception:
        return None
    return None


def _check_now(now: object) -> datetime | None:
    if now is None:
        return None
    if not isinstance(now, datetime):
        raise TypeError(f"now must be a timezone-aware datetime, got {type(now).__name__}")
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError(
            "now must be a timezone-aware datetime (a naive one would be read in an unknown "
            "zone): pass datetime.now(timezone.utc)"
        )
    return now


def parse_retry_after(value: str | None, now: datetime | None) -> int | None:
    """``Retry-After`` in milliseconds: delta-seconds, or an HTTP-date against ``now``.

    ``None`` when absent or malformed, or an HTTP-date without ``now``; a date
    in the past is 0. ``now`` must be timezone-aware.
    """
    now = _check_now(now)
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return min(int(value[:16]) * 1000, _MAX_ADVICE_MS)
    if now is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None or when.tzinfo is None:  # pragma: no cover - older Pythons returned None
        return None
    try:
        delta = (when - now).total_seconds()
    except OverflowError:  # pragma: no cover - dates at datetime's limits
        return None
    if not math.isfinite(delta):
        return None
    return min(max(0, math.ceil(delta * 1000)), _MAX_ADVICE_MS)


def _retry_after_ms(headers: object, now: datetime | None) -> int | None:
    """The server's advice: ``retry-after-ms`` (OpenAI, Azure), else ``Retry-After``.

    An HTTP-date is read against ``now``, else against the response's own
    ``Date`` header (the server's clock, so skew cannot distort it).
    """
    raw_ms = _header(headers, "retry-after-ms")
    if raw_ms is not None:
        try:
            ms = float(raw_ms)
        except ValueError:
            ms = math.nan
        if math.isfinite(ms) and ms >= 0:
            return min(math.ceil(ms), _MAX_ADVICE_MS)
    raw = _header(headers, "retry-after")
    if raw is None:
        return None
    if now is None:
        date = _header(headers, "date")
        if date is not None:
            try:
                server_now = email.utils.parsedate_to_datetime(date)
            except (TypeError, ValueError, IndexError, OverflowError):
                server_now = None
            if server_now is not None and server_now.tzinfo is not None:
                now = server_now
    return parse_retry_after(raw, now)


def from_http(
    status: int,
    headers: Headers | None = None,
    now: datetime | None = None,
    *,
    target: str | None = None,
    elapsed_ms: int = 0,
) -> ToolError:
    """The ToolError for an HTTP failure status.

    429 -> RateLimited (the wait from ``retry-after-ms`` or ``Retry-After``,
    delta-seconds or an HTTP-date; ``X-RateLimit-Limit`` as the limit);
    401/403 -> Denied; 404/410 -> NotFound (``target`` names what was asked
    for); 400/422 -> InvalidArgs; 408 -> Timeout (``elapsed_ms`` when known);
    500 and other 5xx -> Unavailable with the status; 502/503/504 with a
    ``Retry-After`` -> Unavailable carrying that wait (504 without one ->
    Timeout); anything else -> Unknown.

    An HTTP-date is read against ``now`` (timezone-aware), else against the
    response's ``Date`` header; with neither it counts as absent (nothing here
    reads the clock). Header keys may be str or bytes, any case.
    """
    now = _check_now(now)
    try:
        if isinstance(status, bool) or not isinstance(status, int):
            return Unknown(f"not an HTTP status: {_text(repr(status))[:100]}")
        hdrs: object = headers if headers is not None else {}
        reason = f"HTTP {status} {_REASONS.get(status, '')}".rstrip()
        what = _text(target) if target is not None else "the requested resource"
        if status == 429:
            wait = _retry_after_ms(hdrs, now)
            return RateLimited(  # no Retry-After: no advice (the retry's own schedule applies)
                wait,
                _header(hdrs, "x-ratelimit-limit") or _header(hdrs, "ratelimit-policy"),
            )
        if status in (401, 403):
            return Denied(reason, _required_scope(hdrs))
        if status in (404, 410):
            return NotFound(what)
        if status in (400, 422):
            return InvalidArgs("request", "a request the server accepts", reason)
        if status in _ADVICE_STATUSES:
            advice = _retry_after_ms(hdrs, now)
            if advice is not None:
                return Unavailable(reason, status, advice)
        if status in (408, 504):
            return Timeout(elapsed_ms if isinstance(elapsed_ms, int) and elapsed_ms > 0 else 0)
        if 500 <= status <= 599:
            return Unavailable(reason, status)
        return Unknown(f"unexpected {reason}")
    except Exception as exc:  # pragma: no cover - defensive: never raise
        return Unknown(f"could not classify HTTP status {status!r}", exc)


def _required_scope(headers: object) -> str | None:
    """The scope a ``WWW-Authenticate: Bearer ... scope="..."`` challenge asks for."""
    challenge = _header(headers, "www-authenticate")
    if not challenge:
        return None
    for part in challenge.split(","):
        key, _, value = part.strip().partition("=")
        if key.strip().lower().endswith("scope") and value:
            return value.strip().strip('"') or None
    return None
