"""From the outside world to ToolErrors: HTTP responses and Python exceptions.

:func:`from_exception` never raises. :func:`from_http` never raises on any
status or headers; a ``now`` that is not a timezone-aware ``datetime`` is a
programming error, refused at once (``TypeError`` / ``ValueError``).

Exceptions of the HTTP, SDK and RPC clients agent code uses (requests, httpx,
aiohttp, urllib3, openai, anthropic, botocore, grpc) are recognised by module
and class name along the exception's MRO, never by importing those packages:
the runtime stays standard-library only.
"""

from __future__ import annotations

import errno
import math
from collections.abc import Mapping
from typing import Any, Callable, Final

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
from ._http_status import _MAX_ADVICE_MS, _retry_after_ms, _text, from_http, parse_retry_after

__all__ = ["from_http", "from_exception", "parse_retry_after"]


# ---------------------------------------------------------------- exceptions


def from_exception(exc: BaseException) -> ToolError:
    """The ToolError for an exception raised by a tool; never raises.

    ``ToolFailure`` -> its error unchanged. An exception carrying an HTTP
    response (requests ``HTTPError``, httpx ``HTTPStatusError``, aiohttp
    ``ClientResponseError``, openai/anthropic ``APIStatusError``,
    ``urllib.error.HTTPError``) -> :func:`from_http` with that response's
    status and headers, so ``Retry-After`` becomes the wait. Timeouts of any
    client -> Timeout; connection failures -> Unavailable; botocore
    ``ClientError`` by its error code, then its HTTP status; grpc errors by
    status code; ``subprocess.TimeoutExpired`` -> Timeout; network
    ``OSError``s by errno. The full table is in docs/runtime.md. Anything else
    -> Unknown naming the exception type.
    """
    try:
        return _from_exception(exc)
    except Exception:
        try:
            name = type(exc).__name__
        except Exception:  # pragma: no cover - a type without a name
            name = "exception"
        return Unknown(f"unclassifiable exception of type {_text(name)}", exc)


def _message(exc: BaseException) -> str:
    try:
        text = _text(str(exc))
    except Exception:
        text = ""
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


def _status_of(obj: object) -> int | None:
    for attr in ("status_code", "status", "code"):
        value = getattr(obj, attr, None)
        if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 999:
            return value
    return None


def _url_of(*objs: object) -> str | None:
    for obj in objs:
        if obj is None:
            continue
        for path in (("url",), ("request", "url"), ("request_info", "url")):
            value: object = obj
            try:
                for attr in path:
                    value = getattr(value, attr, None)
            except Exception:
                value = None
            if value is not None and not callable(value):
                return _text(value)
    return None


def _from_response(exc: BaseException) -> ToolError | None:
    """``exc.response`` (or ``exc`` itself) as an HTTP response: status and headers."""
    response = getattr(exc, "response", None)
    status = _status_of(response) if response is not None else None
    headers: object = getattr(response, "headers", None) if response is not None else None
    if status is None:
        status = _status_of(exc)
        headers = getattr(exc, "headers", None)
    if status is None or status < 400:
        return None
    error = from_http(status, headers if _has_items(headers) else {}, target=_url_of(response, exc))  # type: ignore[arg-type]
    if isinstance(error, Unknown):
        return Unknown(f"{_message(exc)} ({error.message})", exc)
    return error


def _has_items(obj: object) -> bool:
    return callable(getattr(obj, "items", None))


def _http(exc: BaseException) -> ToolError:
    error = _from_response(exc)
    return error if error is not None else Unavailable(_message(exc))


def _openai_status(exc: BaseException) -> ToolError:
    if getattr(exc, "code", None) == "insufficient_quota":  # a 429 that waiting will not fix
        return Denied(_message(exc), "quota (billing)")
    return _http(exc)


def _timeout(exc: BaseException) -> ToolError:
    return Timeout(0)


def _unavailable(exc: BaseException) -> ToolError:
    return Unavailable(_message(exc))


def _invalid_url(exc: BaseException) -> ToolError:
    return InvalidArgs("url", "a valid URL", _message(exc))


def _denied(exc: BaseException) -> ToolError:
    return Denied(_message(exc))


def _invalid(exc: BaseException) -> ToolError:
    return InvalidArgs("request", "arguments the client accepts", _message(exc))


def _urllib3_max_retry(exc: BaseException) -> ToolError:
    reason = getattr(exc, "reason", None)
    if isinstance(reason, BaseException) and reason is not exc:
        return _from_exception(reason)
    return Unavailable(_message(exc))


def _not_sent(exc: BaseException) -> ToolError:
    """The request never reached the server (refused, DNS, connect timeout, TLS): nothing happened."""
    return Unavailable(_message(exc))


def _sent_unknown(exc: BaseException) -> ToolError:
    """The request went out and no (whole) answer came back: the effect may have happened.

    A ``Timeout``, like a read timeout: a keyed write reconciles before it
    repeats the call (see the table in docs/runtime.md).
    """
    return Timeout(0)


def _wrapped_reason(exc: BaseException) -> ToolError:
    """requests' ConnectionError usually wraps urllib3's error (in ``args[0]``): classify that."""
    args = getattr(exc, "args", ())
    inner = args[0] if args else None
    if isinstance(inner, BaseException) and inner is not exc:
        nested = _from_exception(inner)
        if not isinstance(nested, Unknown):
            return nested if not isinstance(nested, Unavailable) else Unavailable(_message(exc))
    return Unavailable(_message(exc))


def _by_cause(exc: BaseException) -> ToolError:
    """An SDK's connection error (openai, anthropic) wraps the transport's: never sent or not, by it.

    Without a recognisable cause the request may have gone out: ambiguous.
    """
    cause = exc.__cause__ if exc.__cause__ is not None else exc.__context__
    if isinstance(cause, BaseException) and cause is not exc:
        nested = _from_exception(cause)
        if isinstance(nested, Unavailable) and nested.status is None:
            return Unavailable(f"{_message(exc)} ({nested.reason})")
    return Timeout(0)


# botocore ClientError codes (Error.Code) that decide more than the HTTP status does.
_AWS_CODES: Final[dict[str, str]] = {
    **dict.fromkeys(
        (
            "Throttling", "ThrottlingException", "ThrottledException", "TooManyRequestsException",
            "RequestLimitExceeded", "ProvisionedThroughputExceededException", "SlowDown",
            "RequestThrottled", "RequestThrottledException", "BandwidthLimitExceeded",
            "LimitExceededException", "TransactionInProgressException",
        ),
        "rate",
    ),
    **dict.fromkeys(
        (
            "AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "UnrecognizedClientException",
            "InvalidClientTokenId", "ExpiredToken", "ExpiredTokenException", "SignatureDoesNotMatch",
            "AuthFailure", "InvalidAccessKeyId", "MissingAuthenticationToken", "NotAuthorized",
        ),
        "denied",
    ),
    **dict.fromkeys(
        ("NoSuchKey", "NoSuchBucket", "ResourceNotFoundException", "NotFound", "NoSuchEntity", "404"),
        "not_found",
    ),
    **dict.fromkeys(
        (
            "ValidationException", "ValidationError", "InvalidParameterValue", "InvalidParameterException",
            "InvalidParameterCombination", "MissingParameter", "InvalidRequestException", "InvalidInput",
            "SerializationException", "MalformedPolicyDocument",
        ),
        "invalid",
    ),
    **dict.fromkeys(
        (
            "ServiceUnavailable", "ServiceUnavailableException", "InternalError", "InternalFailure",
            "InternalServerError", "InternalServerException", "ServiceException", "Unavailable",
        ),
        "unavailable",
    ),
    **dict.fromkeys(("RequestTimeout", "RequestTimeoutException", "RequestExpired"), "timeout"),
}


def _botocore_client_error(exc: BaseException) -> ToolError:
    raw = getattr(exc, "response", None)
    response: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    raw_error, raw_meta = response.get("Error"), response.get("ResponseMetadata")
    error: Mapping[str, Any] = raw_error if isinstance(raw_error, Mapping) else {}
    meta: Mapping[str, Any] = raw_meta if isinstance(raw_meta, Mapping) else {}
    code = error.get("Code")
    message = _message(exc)
    status = meta.get("HTTPStatusCode")
    status = status if isinstance(status, int) and not isinstance(status, bool) else None
    raw_headers = meta.get("HTTPHeaders")
    headers: Mapping[str, Any] = raw_headers if isinstance(raw_headers, Mapping) else {}
    kind = _AWS_CODES.get(code) if isinstance(code, str) else None
    if kind == "rate":
        wait = _retry_after_ms(headers, None)
        return RateLimited(wait, _text(code))
    if kind == "denied":
        return Denied(message)
    if kind == "not_found":
        return NotFound(_text(error.get("Message") or code))
    if kind == "invalid":
        return InvalidArgs("request", "parameters the service accepts", message)
    if kind == "unavailable":
        return Unavailable(message, status)
    if kind == "timeout":
        return Timeout(0)
    if status is not None and status >= 400:
        mapped = from_http(status, headers)
        if isinstance(mapped, (Unavailable, Denied, InvalidArgs)) and not isinstance(mapped, RateLimited):
            if isinstance(mapped, Unavailable):
                return Unavailable(message, status, mapped.retry_after_ms)
            if isinstance(mapped, Denied):
                return Denied(message, mapped.required)
            return InvalidArgs("request", "parameters the service accepts", message)
        if not isinstance(mapped, Unknown):
            return mapped
    return Unknown(message, exc)


# gRPC status codes (grpc.StatusCode names) -> what they become.
_GRPC: Final[dict[str, Callable[[str], ToolError]]] = {
    "DEADLINE_EXCEEDED": lambda m: Timeout(0),
    "UNAVAILABLE": lambda m: Unavailable(m),
    "ABORTED": lambda m: Unavailable(m),  # a concurrency conflict: retry the whole call
    "RESOURCE_EXHAUSTED": lambda m: RateLimited(),
    "PERMISSION_DENIED": lambda m: Denied(m),
    "UNAUTHENTICATED": lambda m: Denied(m, "authentication"),
    "NOT_FOUND": lambda m: NotFound(m),
    "INVALID_ARGUMENT": lambda m: InvalidArgs("request", "arguments the service accepts", m),
    "OUT_OF_RANGE": lambda m: InvalidArgs("request", "arguments in range", m),
    "FAILED_PRECONDITION": lambda m: InvalidArgs("request", "a state the operation needs", m),
    "ALREADY_EXISTS": lambda m: InvalidArgs("request", "a resource that does not exist yet", m),
}


def _grpc(exc: BaseException) -> ToolError:
    code_fn = getattr(exc, "code", None)
    code = code_fn() if callable(code_fn) else None
    name = getattr(code, "name", None)
    details_fn = getattr(exc, "details", None)
    details = details_fn() if callable(details_fn) else None
    message = f"gRPC {name}: {_text(details)}" if details else f"gRPC {name}"
    make = _GRPC.get(name) if isinstance(name, str) else None
    return make(message) if make is not None else Unknown(message, exc)


def _subprocess_timeout(exc: BaseException) -> ToolError:
    seconds = getattr(exc, "timeout", None)
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and math.isfinite(seconds):
        return Timeout(max(0, min(round(seconds * 1000), _MAX_ADVICE_MS)))
    return Timeout(0)


def _called_process(exc: BaseException) -> ToolError:
    code = getattr(exc, "returncode", None)
    cmd = getattr(exc, "cmd", None)
    program = cmd[0] if isinstance(cmd, (list, tuple)) and cmd else cmd
    if code in (126, 127) and program is not None:  # the shell could not run it / did not find it
        return NotFound(_text(program))
    return Unknown(_message(exc), exc)


_Classify = Callable[[BaseException], ToolError]

# (top-level package, class name) -> classifier, looked up along the MRO, most derived first.
# httpx2 is the httpx fork some SDK versions vendor.
_BY_NAME: Final[dict[tuple[str, str], _Classify]] = {
    # requests (its exceptions are OSErrors with no errno)
    ("requests", "HTTPError"): _http,
    ("requests", "ConnectTimeout"): _not_sent,  # also a Timeout: nothing was sent
    ("requests", "Timeout"): _timeout,  # ReadTimeout
    ("requests", "ConnectionError"): _wrapped_reason,  # SSLError, ProxyError too
    ("requests", "ChunkedEncodingError"): _sent_unknown,  # the answer broke off
    ("requests", "ContentDecodingError"): _sent_unknown,
    ("requests", "RetryError"): _unavailable,
    ("requests", "InvalidURL"): _invalid_url,
    ("requests", "MissingSchema"): _invalid_url,
    ("requests", "InvalidSchema"): _invalid_url,
    ("requests", "URLRequired"): _invalid_url,
    ("requests", "InvalidHeader"): _invalid,
    # urllib3
    ("urllib3", "MaxRetryError"): _urllib3_max_retry,
    ("urllib3", "TimeoutError"): _timeout,  # ReadTimeoutError
    ("urllib3", "ConnectTimeoutError"): _not_sent,  # NewConnectionError, NameResolutionError
    ("urllib3", "ProtocolError"): _sent_unknown,  # reset or closed after the request went out
    ("urllib3", "SSLError"): _not_sent,
    ("urllib3", "ProxyError"): _not_sent,
    ("urllib3", "ResponseError"): _unavailable,
    ("urllib3", "LocationValueError"): _invalid_url,
    # aiohttp
    ("aiohttp", "ClientResponseError"): _http,
    ("aiohttp", "ConnectionTimeoutError"): _not_sent,  # aiohttp >= 3.10: the connect timed out
    ("aiohttp", "ServerTimeoutError"): _timeout,  # SocketTimeoutError: the read timed out
    ("aiohttp", "ClientConnectorError"): _not_sent,  # refused, DNS, TLS handshake
    ("aiohttp", "ServerFingerprintMismatch"): _not_sent,
    ("aiohttp", "ClientConnectionError"): _sent_unknown,  # ServerDisconnectedError, ClientOSError
    ("aiohttp", "ClientPayloadError"): _sent_unknown,
    ("aiohttp", "InvalidURL"): _invalid_url,
}
for _httpx in ("httpx", "httpx2"):
    _BY_NAME.update(
        {
            (_httpx, "HTTPStatusError"): _http,
            (_httpx, "TimeoutException"): _timeout,  # ReadTimeout, WriteTimeout
            (_httpx, "ConnectTimeout"): _not_sent,
            (_httpx, "PoolTimeout"): _not_sent,
            (_httpx, "ConnectError"): _not_sent,
            (_httpx, "NetworkError"): _sent_unknown,  # ReadError, WriteError, CloseError
            (_httpx, "RemoteProtocolError"): _sent_unknown,  # disconnected without a response
            (_httpx, "ProxyError"): _not_sent,
            (_httpx, "LocalProtocolError"): _invalid,
            (_httpx, "InvalidURL"): _invalid_url,
            (_httpx, "UnsupportedProtocol"): _invalid_url,
        }
    )
for _sdk in ("openai", "anthropic"):
    _BY_NAME.update(
        {
            (_sdk, "APIStatusError"): _openai_status,  # RateLimitError, InternalServerError, ...
            (_sdk, "APITimeoutError"): _by_cause,  # a ConnectTimeout underneath: never sent
            (_sdk, "APIConnectionError"): _by_cause,
        }
    )
_BY_NAME.update(
    {
        ("botocore", "ClientError"): _botocore_client_error,
        ("botocore", "ConnectTimeoutError"): _not_sent,
        ("botocore", "ReadTimeoutError"): _timeout,
        ("botocore", "ConnectionError"): _not_sent,  # EndpointConnectionError, SSLError, ProxyConnectionError
        ("botocore", "HTTPClientError"): _sent_unknown,  # ConnectionClosedError, ...
        ("botocore", "NoCredentialsError"): _denied,
        ("botocore", "PartialCredentialsError"): _denied,
        ("botocore", "ParamValidationError"): _invalid,
        ("grpc", "RpcError"): _grpc,
        ("subprocess", "TimeoutExpired"): _subprocess_timeout,
        ("subprocess", "CalledProcessError"): _called_process,
    }
)

# errno values of network failures (on plain OSErrors and library subclasses of OSError).
_NETWORK_ERRNOS: Final = frozenset(
    getattr(errno, name)
    for name in (
        "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN",
        "ENETRESET", "EHOSTDOWN", "EPIPE", "ENOTCONN", "ESHUTDOWN", "EADDRNOTAVAIL",
    )
    if hasattr(errno, name)
)
# ... of which these can come after the request went out: the outcome is unknown.
_SENT_ERRNOS: Final = frozenset(
    getattr(errno, name) for name in ("ECONNRESET", "ECONNABORTED", "ENETRESET", "EPIPE") if hasattr(errno, name)
)
_TIMEOUT_ERRNOS: Final = frozenset(getattr(errno, n) for n in ("ETIMEDOUT",) if hasattr(errno, n))


def _by_name(exc: BaseException) -> ToolError | None:
    for cls in type(exc).__mro__:
        module = getattr(cls, "__module__", None)
        if not isinstance(module, str) or module == "builtins":
            continue
        classify = _BY_NAME.get((module.partition(".")[0], cls.__name__))
        if classify is not None:
            return classify(exc)
    return None


def _from_exception(exc: BaseException) -> ToolError:
    if isinstance(exc, ToolFailure):
        return exc.error
    # urllib's HTTPError is both a URLError and a response: read its status.
    import urllib.error  # stdlib; imported here to keep import of the runtime light

    if isinstance(exc, urllib.error.HTTPError):
        return from_http(exc.code, exc.headers if exc.headers is not None else {}, target=_text(exc.url))
    named = _by_name(exc)
    if named is not None:
        return named
    if isinstance(exc, TimeoutError) or type(exc).__name__ == "TimeoutError":
        # socket.timeout is TimeoutError since 3.10; asyncio.TimeoutError and
        # concurrent.futures.TimeoutError are on 3.11 (same name on 3.10).
        return Timeout(0)
    if isinstance(exc, PermissionError):
        return Denied(_message(exc))
    if isinstance(exc, FileNotFoundError):
        return NotFound(_text(exc.filename) if exc.filename is not None else _message(exc))
    if isinstance(exc, (IsADirectoryError, NotADirectoryError)):
        path = _text(exc.filename) if exc.filename is not None else "path"
        expected = "a file" if isinstance(exc, IsADirectoryError) else "a directory"
        return InvalidArgs(path, expected, _message(exc))
    if isinstance(exc, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)) or (
        isinstance(exc, ConnectionError) and exc.errno in _SENT_ERRNOS
    ):  # reset, aborted, broken pipe, http.client.RemoteDisconnected: the request may have gone out
        return Timeout(0)
    if isinstance(exc, ConnectionError):  # refused, or no detail
        return Unavailable(_message(exc))
    if isinstance(exc, urllib.error.URLError):
        reason = exc.reason
        if isinstance(reason, BaseException) and reason is not exc:
            nested = _from_exception(reason)
            if isinstance(nested, Timeout):
                return nested
        return Unavailable(_message(exc))
    import socket

    if isinstance(exc, socket.gaierror):
        return Unavailable(f"name resolution failed: {_message(exc)}")
    if isinstance(exc, OSError):
        code: Any = exc.errno
        if code in _TIMEOUT_ERRNOS:
            return Timeout(0)
        if code in _SENT_ERRNOS:
            return Timeout(0)
        if code in _NETWORK_ERRNOS:
            return Unavailable(_message(exc))
    return Unknown(_message(exc), exc)
