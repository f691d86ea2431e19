"""from_http and from_exception: the outside world, classified; never raising."""

from __future__ import annotations

import asyncio
import socket
import urllib.error
from datetime import datetime, timedelta, timezone
from email.message import Message

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smullyan import runtime as r

NOW = datetime(2026, 12, 2, 12, 0, 0, tzinfo=timezone.utc)


def test_429_reads_retry_after_seconds() -> None:
    assert r.from_http(429, {"Retry-After": "7"}, NOW) == r.RateLimited(7000)
    assert r.from_http(429, {"retry-after": " 0 "}, NOW) == r.RateLimited(0)


def test_429_reads_retry_after_http_date_against_now() -> None:
    when = (NOW + timedelta(seconds=90)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert r.from_http(429, {"Retry-After": when}, NOW) == r.RateLimited(90_000)
    past = (NOW - timedelta(hours=1)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert r.from_http(429, {"Retry-After": past}, NOW) == r.RateLimited(0)


def test_429_without_usable_advice_carries_no_advice() -> None:
    # issue 21: no invented wait; the retry's own schedule (and its jitter) applies
    assert r.from_http(429, {}, NOW) == r.RateLimited(None)
    assert r.from_http(429, {"Retry-After": "soon"}, NOW).retry_after_ms is None  # type: ignore[union-attr]
    assert r.from_http(429, {"Retry-After": "-3"}, NOW).retry_after_ms is None  # type: ignore[union-attr]
    # an HTTP-date cannot be read without `now`: nothing here reads the clock
    date = NOW.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert r.from_http(429, {"Retry-After": date}).retry_after_ms is None  # type: ignore[union-attr]


def test_429_limit_header() -> None:
    assert r.from_http(429, {"X-RateLimit-Limit": "5000", "Retry-After": "1"}, NOW) == r.RateLimited(1000, "5000")


@pytest.mark.parametrize(
    "status, cls",
    [(401, r.Denied), (403, r.Denied), (404, r.NotFound), (410, r.NotFound), (400, r.InvalidArgs),
     (422, r.InvalidArgs), (408, r.Timeout), (504, r.Timeout), (500, r.Unavailable), (502, r.Unavailable),
     (503, r.Unavailable), (599, r.Unavailable), (418, r.Unknown), (302, r.Unknown)],
)
def test_status_table(status: int, cls: type) -> None:
    error = r.from_http(status, {}, NOW)
    assert isinstance(error, cls)
    if cls is r.Unavailable:
        assert error.status == status  # type: ignore[union-attr]


def test_denied_reads_required_scope_and_not_found_names_target() -> None:
    e = r.from_http(403, {"WWW-Authenticate": 'Bearer realm="x", error="insufficient_scope", scope="repo:write"'}, NOW)
    assert e == r.Denied("HTTP 403 Forbidden", "repo:write")
    assert r.from_http(404, {}, NOW, target="/repos/x") == r.NotFound("/repos/x")
    assert r.from_http(504, {}, NOW, elapsed_ms=30_000) == r.Timeout(30_000)


@settings(max_examples=200)
@given(
    st.integers() | st.none() | st.text() | st.booleans(),
    st.dictionaries(st.text(), st.text()),
    st.datetimes(timezones=st.just(timezone.utc)) | st.none(),
)
def test_from_http_never_raises(status: object, headers: dict[str, str], now: datetime | None) -> None:
    headers = {**headers, "Retry-After": headers.get("x", "Wed, 21 Oct 2015 07:28:00 GMT")}
    r.from_http(status, headers, now)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "exc, expected",
    [
        (TimeoutError(), r.Timeout(0)),
        (socket.timeout("timed out"), r.Timeout(0)),
        (asyncio.TimeoutError(), r.Timeout(0)),
        (ConnectionRefusedError(111, "Connection refused"), r.Unavailable("ConnectionRefusedError: [Errno 111] Connection refused")),
        (ConnectionResetError(), r.Timeout(0)),  # reset after the request went out: the outcome is unknown
        (PermissionError(13, "Permission denied", "/etc/shadow"), r.Denied("PermissionError: [Errno 13] Permission denied: '/etc/shadow'")),
        (FileNotFoundError(2, "No such file", "/tmp/nope"), r.NotFound("/tmp/nope")),
        (IsADirectoryError(21, "Is a directory", "/tmp"), None),
        (urllib.error.URLError("no route"), r.Unavailable("URLError: <urlopen error no route>")),
        (socket.gaierror(-2, "Name or service not known"), None),
    ],
)
def test_from_exception_table(exc: BaseException, expected: r.ToolError | None) -> None:
    got = r.from_exception(exc)
    if expected is not None:
        assert got == expected
    else:
        assert isinstance(got, (r.InvalidArgs, r.Unavailable))


def test_from_exception_http_error_uses_status() -> None:
    hdrs = Message()
    hdrs["Retry-After"] = "3"
    exc = urllib.error.HTTPError("https://api.example/x", 429, "Too Many", hdrs, None)
    assert r.from_exception(exc) == r.RateLimited(3000)
    exc404 = urllib.error.HTTPError("https://api.example/x", 404, "nf", Message(), None)
    assert r.from_exception(exc404) == r.NotFound("https://api.example/x")


def test_anything_else_is_unknown_naming_the_type() -> None:
    err = r.from_exception(ValueError("bad value"))
    assert isinstance(err, r.Unknown) and err.message == "ValueError: bad value"
    assert isinstance(err.cause, ValueError)

    class Nasty(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no str for you")

    nasty = r.from_exception(Nasty())
    assert isinstance(nasty, r.Unknown) and "Nasty" in nasty.message


# ---------------------------------------------------------------- server advice (issue 13, item 2)


@pytest.mark.parametrize("status", [502, 503, 504])
def test_retry_after_is_read_on_502_503_504(status: int) -> None:
    got = r.from_http(status, {"Retry-After": "12"}, NOW)
    assert isinstance(got, r.Unavailable) and got.retry_after_ms == 12_000 and got.status == status
    assert r.from_http(503, {}, NOW) == r.Unavailable("HTTP 503 Service Unavailable", 503)
    assert r.from_http(504, {}, NOW) == r.Timeout(0)


def test_negative_advice_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="retry_after_ms"):
        r.RateLimited(-5000)
    with pytest.raises(ValueError, match="retry_after_ms"):
        r.Unavailable("down", 503, -1)


def test_a_naive_or_non_datetime_now_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        r.from_http(429, {"Retry-After": "3"}, datetime(2026, 1, 1))
    with pytest.raises(TypeError, match="datetime"):
        r.from_http(429, {"Retry-After": "3"}, 1_700_000_000)  # type: ignore[arg-type]
    # a zone other than UTC is read as that zone, not as UTC
    plus2 = timezone(timedelta(hours=2))
    when = (NOW + timedelta(seconds=60)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert r.from_http(429, {"Retry-After": when}, NOW.astimezone(plus2)) == r.RateLimited(60_000)


def test_bytes_keyed_headers_work() -> None:
    assert r.from_http(429, {b"Retry-After": b"4", b"X-RateLimit-Limit": b"10"}, NOW) == r.RateLimited(4000, "10")
    assert r.from_http(503, {b"retry-after": b"2"}) == r.Unavailable(
        "HTTP 503 Service Unavailable", 503, 2000
    )


def test_retry_after_ms_header_and_date_header() -> None:
    assert r.from_http(429, {"retry-after-ms": "250", "Retry-After": "9"}) == r.RateLimited(250)
    when = (NOW + timedelta(seconds=5)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    date = NOW.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert r.from_http(429, {"Retry-After": when, "Date": date}) == r.RateLimited(5000)
