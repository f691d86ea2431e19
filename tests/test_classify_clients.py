"""from_exception on the errors real clients raise, built from the real packages (test extras).

The runtime imports none of these packages; it recognises their exceptions by
module and class name along the MRO. Each test builds the exception the way
the client does, with a real response object where the client attaches one.
"""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from email.message import Message
from typing import Any

import pytest

from smullyan import runtime as r

NOW = datetime(2026, 12, 2, 12, 0, 0, tzinfo=timezone.utc)


# ---------------------------------------------------------------- requests


def _requests_response(status: int, headers: dict[str, str] | None = None) -> Any:
    requests = pytest.importorskip("requests")
    resp = requests.Response()
    resp.status_code = status
    resp.headers.update(headers or {})
    resp.url = "https://api.example/items/7"
    return resp


def test_requests_connection_error_is_unavailable() -> None:
    requests = pytest.importorskip("requests")
    import urllib3

    inner = urllib3.exceptions.MaxRetryError(
        None, "/x", urllib3.exceptions.NewConnectionError(None, "Failed to establish a new connection")  # type: ignore[arg-type]
    )
    assert isinstance(r.from_exception(requests.ConnectionError(inner)), r.Unavailable)
    assert isinstance(r.from_exception(requests.ConnectionError("refused")), r.Unavailable)


@pytest.mark.parametrize("name", ["ReadTimeout", "Timeout"])
def test_requests_timeouts_are_timeouts(name: str) -> None:
    requests = pytest.importorskip("requests")
    assert r.from_exception(getattr(requests, name)("timed out")) == r.Timeout(0)


def test_requests_connect_timeout_was_never_sent() -> None:
    requests = pytest.importorskip("requests")
    assert r.from_exception(requests.ConnectTimeout("timed out")) == r.Unavailable("ConnectTimeout: timed out")


def test_requests_http_error_goes_through_from_http_with_its_response() -> None:
    requests = pytest.importorskip("requests")
    resp = _requests_response(503, {"Retry-After": "4"})
    got = r.from_exception(requests.HTTPError("503 Server Error", response=resp))
    assert got == r.Unavailable("HTTP 503 Service Unavailable", 503, 4000)
    resp429 = _requests_response(429, {"retry-after": "2", "X-RateLimit-Limit": "60"})
    assert r.from_exception(requests.HTTPError(response=resp429)) == r.RateLimited(2000, "60")
    assert r.from_exception(requests.HTTPError(response=_requests_response(404))) == r.NotFound(
        "https://api.example/items/7"
    )


def test_requests_real_raise_for_status() -> None:
    pytest.importorskip("requests")
    resp = _requests_response(503)
    resp.reason = "Service Unavailable"
    with pytest.raises(Exception) as info:
        resp.raise_for_status()
    assert r.from_exception(info.value) == r.Unavailable("HTTP 503 Service Unavailable", 503)


def test_requests_invalid_url_is_invalid_args() -> None:
    requests = pytest.importorskip("requests")
    with pytest.raises(Exception) as info:
        requests.get("not a url", timeout=1)
    got = r.from_exception(info.value)
    assert isinstance(got, r.InvalidArgs) and got.path == "url"


# ---------------------------------------------------------------- httpx


def test_httpx_transport_errors() -> None:
    httpx = pytest.importorskip("httpx")
    request = httpx.Request("GET", "https://api.example/x")
    assert isinstance(r.from_exception(httpx.ConnectError("refused", request=request)), r.Unavailable)
    assert r.from_exception(httpx.ReadTimeout("slow", request=request)) == r.Timeout(0)
    assert r.from_exception(httpx.WriteTimeout("slow", request=request)) == r.Timeout(0)
    # never sent: the connection was not made
    assert r.from_exception(httpx.ConnectTimeout("slow", request=request)) == r.Unavailable("ConnectTimeout: slow")
    assert r.from_exception(httpx.PoolTimeout("slow", request=request)) == r.Unavailable("PoolTimeout: slow")
    # sent, outcome unknown
    assert r.from_exception(httpx.RemoteProtocolError("eof", request=request)) == r.Timeout(0)
    assert r.from_exception(httpx.ReadError("reset", request=request)) == r.Timeout(0)


def test_httpx_status_error_reads_the_real_response() -> None:
    httpx = pytest.importorskip("httpx")
    request = httpx.Request("GET", "https://api.example/x")
    response = httpx.Response(429, headers={"Retry-After": "3"}, request=request)
    with pytest.raises(httpx.HTTPStatusError) as info:
        response.raise_for_status()
    assert r.from_exception(info.value) == r.RateLimited(3000)
    when = (NOW + timedelta(seconds=30)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    dated = httpx.Response(
        503,
        headers={"Retry-After": when, "Date": NOW.strftime("%a, %d %b %Y %H:%M:%S GMT")},
        request=request,
    )
    # the HTTP-date is read against the response's own Date header: no clock needed
    err = httpx.HTTPStatusError("503", request=request, response=dated)
    assert r.from_exception(err) == r.Unavailable("HTTP 503 Service Unavailable", 503, 30_000)
    forbidden = httpx.Response(403, request=request)
    assert isinstance(r.from_exception(httpx.HTTPStatusError("403", request=request, response=forbidden)), r.Denied)


def test_httpx_real_connect_error_from_a_closed_port() -> None:
    httpx = pytest.importorskip("httpx")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(httpx.ConnectError) as info:
        httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
    assert isinstance(r.from_exception(info.value), r.Unavailable)


# ---------------------------------------------------------------- aiohttp


def test_aiohttp_errors() -> None:
    aiohttp = pytest.importorskip("aiohttp")
    from multidict import CIMultiDict, CIMultiDictProxy

    headers = CIMultiDictProxy(CIMultiDict({"Retry-After": "5"}))
    err = aiohttp.ClientResponseError(None, (), status=429, message="Too Many Requests", headers=headers)  # type: ignore[arg-type]
    assert r.from_exception(err) == r.RateLimited(5000)
    err503 = aiohttp.ClientResponseError(None, (), status=503, message="down")  # type: ignore[arg-type]
    assert r.from_exception(err503) == r.Unavailable("HTTP 503 Service Unavailable", 503)
    assert r.from_exception(aiohttp.ServerTimeoutError("slow")) == r.Timeout(0)
    assert r.from_exception(aiohttp.ConnectionTimeoutError("slow")) == r.Unavailable("ConnectionTimeoutError: slow")
    assert r.from_exception(aiohttp.ServerDisconnectedError()) == r.Timeout(0)
    os_err = aiohttp.ClientOSError(errno.ECONNRESET, "reset")
    assert r.from_exception(os_err) == r.Timeout(0)


# ---------------------------------------------------------------- urllib3


def test_urllib3_errors() -> None:
    urllib3 = pytest.importorskip("urllib3")
    exc = urllib3.exceptions
    assert r.from_exception(exc.ReadTimeoutError(None, "/x", "read timed out")) == r.Timeout(0)  # type: ignore[arg-type]
    assert r.from_exception(exc.ConnectTimeoutError("slow")) == r.Unavailable("ConnectTimeoutError: slow")
    assert isinstance(r.from_exception(exc.NewConnectionError(None, "refused")), r.Unavailable)  # type: ignore[arg-type]
    assert r.from_exception(exc.ProtocolError("reset")) == r.Timeout(0)
    wrapped = exc.MaxRetryError(None, "/x", exc.ReadTimeoutError(None, "/x", "slow"))  # type: ignore[arg-type]
    assert r.from_exception(wrapped) == r.Timeout(0)


# ---------------------------------------------------------------- openai, anthropic


@pytest.mark.parametrize("sdk_name", ["openai", "anthropic"])
def test_llm_sdk_errors_carry_their_response(sdk_name: str) -> None:
    sdk = pytest.importorskip(sdk_name)
    httpx_mod = _sdk_httpx(sdk)
    request = httpx_mod.Request("POST", "https://api.example/v1/messages")

    def status_error(cls: Any, status: int, headers: dict[str, str]) -> Any:
        response = httpx_mod.Response(status, headers=headers, request=request)
        return cls("msg", response=response, body=None)

    assert r.from_exception(status_error(sdk.RateLimitError, 429, {"retry-after": "7"})) == r.RateLimited(7000)
    assert r.from_exception(status_error(sdk.RateLimitError, 429, {"retry-after-ms": "1500"})) == r.RateLimited(1500)
    assert r.from_exception(status_error(sdk.InternalServerError, 503, {"retry-after": "2"})) == r.Unavailable(
        "HTTP 503 Service Unavailable", 503, 2000
    )
    assert isinstance(r.from_exception(status_error(sdk.InternalServerError, 529, {})), r.Unavailable)
    assert isinstance(r.from_exception(status_error(sdk.AuthenticationError, 401, {})), r.Denied)
    assert isinstance(r.from_exception(status_error(sdk.BadRequestError, 400, {})), r.InvalidArgs)
    assert isinstance(r.from_exception(status_error(sdk.NotFoundError, 404, {})), r.NotFound)
    assert r.from_exception(sdk.APITimeoutError(request=request)) == r.Timeout(0)
    # without a cause the request may have gone out; with the transport's error, by that error
    assert r.from_exception(sdk.APIConnectionError(request=request)) == r.Timeout(0)
    try:
        try:
            raise httpx_mod.ConnectError("refused", request=request)
        except Exception as cause:
            raise sdk.APIConnectionError(request=request) from cause
    except Exception as wrapped:
        assert isinstance(r.from_exception(wrapped), r.Unavailable)


def _sdk_httpx(sdk: Any) -> Any:
    """The httpx module the SDK builds its responses with (some versions vendor a fork)."""
    import importlib
    import inspect

    annotation = str(inspect.signature(sdk.APIStatusError.__init__).parameters["response"].annotation)
    return importlib.import_module(annotation.split(".")[0].strip("'\""))


def test_openai_insufficient_quota_is_not_waited_on() -> None:
    openai = pytest.importorskip("openai")
    httpx_mod = _sdk_httpx(openai)
    request = httpx_mod.Request("POST", "https://api.openai.com/v1/chat/completions")
    response = httpx_mod.Response(429, request=request)
    err = openai.RateLimitError("quota", response=response, body={"code": "insufficient_quota"})
    assert isinstance(r.from_exception(err), r.Denied)


# ---------------------------------------------------------------- botocore


def _client_error(code: str, status: int, headers: dict[str, str] | None = None) -> Any:
    botocore = pytest.importorskip("botocore.exceptions")
    response = {
        "Error": {"Code": code, "Message": f"{code} happened"},
        "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": headers or {}},
    }
    return botocore.ClientError(response, "GetObject")  # type: ignore[arg-type]


def test_botocore_client_error_by_code_then_status() -> None:
    assert r.from_exception(_client_error("ThrottlingException", 400)) == r.RateLimited(None, "ThrottlingException")
    assert r.from_exception(_client_error("SlowDown", 503, {"retry-after": "3"})) == r.RateLimited(3000, "SlowDown")
    assert isinstance(r.from_exception(_client_error("AccessDenied", 403)), r.Denied)
    assert isinstance(r.from_exception(_client_error("NoSuchKey", 404)), r.NotFound)
    assert isinstance(r.from_exception(_client_error("ValidationException", 400)), r.InvalidArgs)
    unavailable = r.from_exception(_client_error("ServiceUnavailable", 503))
    assert isinstance(unavailable, r.Unavailable) and unavailable.status == 503
    # an unlisted code falls back to the HTTP status
    assert isinstance(r.from_exception(_client_error("SomethingNew", 502)), r.Unavailable)
    assert isinstance(r.from_exception(_client_error("SomethingNew", 418)), r.Unknown)


def test_botocore_transport_errors() -> None:
    be = pytest.importorskip("botocore.exceptions")
    assert isinstance(r.from_exception(be.ConnectTimeoutError(endpoint_url="https://s3")), r.Unavailable)
    assert r.from_exception(be.ConnectionClosedError(endpoint_url="https://s3")) == r.Timeout(0)
    assert r.from_exception(be.ReadTimeoutError(endpoint_url="https://s3")) == r.Timeout(0)
    assert isinstance(r.from_exception(be.EndpointConnectionError(endpoint_url="https://s3")), r.Unavailable)
    assert isinstance(r.from_exception(be.NoCredentialsError()), r.Denied)


# ---------------------------------------------------------------- grpc


@pytest.mark.parametrize(
    "code, cls",
    [("UNAVAILABLE", r.Unavailable), ("DEADLINE_EXCEEDED", r.Timeout), ("RESOURCE_EXHAUSTED", r.RateLimited),
     ("PERMISSION_DENIED", r.Denied), ("UNAUTHENTICATED", r.Denied), ("NOT_FOUND", r.NotFound),
     ("INVALID_ARGUMENT", r.InvalidArgs), ("INTERNAL", r.Unknown)],
)
def test_grpc_status_codes(code: str, cls: type) -> None:
    grpc = pytest.importorskip("grpc")
    import grpc.aio

    err = grpc.aio.AioRpcError(getattr(grpc.StatusCode, code), None, None, details="it went wrong")
    assert isinstance(r.from_exception(err), cls)


# ---------------------------------------------------------------- subprocess and OSError


def test_subprocess_errors() -> None:
    with pytest.raises(subprocess.TimeoutExpired) as info:
        subprocess.run([sys.executable, "-c", "import time; time.sleep(5)"], timeout=0.2)
    assert r.from_exception(info.value) == r.Timeout(200)
    with pytest.raises(subprocess.CalledProcessError) as failed:
        subprocess.run([sys.executable, "-c", "raise SystemExit(3)"], check=True)
    got = r.from_exception(failed.value)
    assert isinstance(got, r.Unknown) and "exit status 3" in got.message
    assert r.from_exception(subprocess.CalledProcessError(127, ["nosuchtool", "x"])) == r.NotFound("nosuchtool")


@pytest.mark.parametrize(
    "code, cls",
    [(errno.ECONNREFUSED, r.Unavailable), (errno.ECONNRESET, r.Timeout), (errno.EHOSTUNREACH, r.Unavailable),
     (errno.ENETUNREACH, r.Unavailable), (errno.ETIMEDOUT, r.Timeout)],
)
def test_network_oserrors_by_errno(code: int, cls: type) -> None:
    class LibraryOSError(OSError):  # a library subclass keeps its class, not the errno's
        pass

    assert isinstance(r.from_exception(OSError(code, "net")), cls)
    assert isinstance(r.from_exception(LibraryOSError(code, "net")), cls)


def test_urllib_http_error_503_reads_retry_after() -> None:
    import urllib.error

    hdrs = Message()
    hdrs["Retry-After"] = "9"
    exc = urllib.error.HTTPError("https://api.example/x", 503, "down", hdrs, None)
    assert r.from_exception(exc) == r.Unavailable("HTTP 503 Service Unavailable", 503, 9000)


# ---------------------------------------------------------------- the pipeline the README shows


def test_a_requests_read_timeout_is_retried_under_while_transient() -> None:
    requests = pytest.importorskip("requests")
    calls: list[int] = []

    def get() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise requests.ReadTimeout("read timed out")
        return "body"

    slept: list[int] = []
    fetch = r.pipe(
        r.calling_api(get),
        r.with_clock(slept.append).retrying(r.while_transient, r.up_to(4).attempts),
    )
    assert fetch() == r.Ok("body")
    assert len(calls) == 3 and slept == [100, 200]
    assert "timed out" in r.explain(r.from_exception(requests.ReadTimeout("x")))
