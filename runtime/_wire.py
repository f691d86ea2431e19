"""The wire format: ToolErrors as JSON-ready dicts, and back.

The format is shared with the TypeScript library the design comes from::

    {"_tag": "RateLimited", "retryAfterMs": 1200, "limit": "60/min"}

Keys are camelCase, absent optionals are omitted. :func:`parse` validates
and never casts: an unknown tag, a missing or mistyped field, a bool where an
int belongs, a negative or non-finite duration, or non-list suggestions give
``None``. It never raises, whatever it is given.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Final

from ._errors import (
    Denied,
    InvalidArgs,
    NotFound,
    RateLimited,
    Timeout,
    ToolError,
    Unavailable,
    Unknown,
    assert_never,
)

__all__ = ["dump", "dump_json", "parse", "parse_json", "MAX_JSON_BYTES", "MAX_JSON_DEPTH"]

MAX_JSON_BYTES: Final = 1_000_000
"""Default bound on the size of a payload :func:`parse_json` accepts (bytes of UTF-8)."""

MAX_JSON_DEPTH: Final = 64
"""Default bound on the nesting depth of a payload :func:`parse_json` accepts."""

_JSONValue = object


def _jsonable(value: object, depth: int = 0) -> object:
    """``value`` as something ``json.dumps`` accepts, without losing JSON values.

    JSON values (None, bool, int, finite float, str, lists and str-keyed dicts
    of them) pass unchanged; tuples become lists; anything else becomes its
    ``repr`` (an exception becomes ``"TypeName: message"``).
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        # Python refuses to print ints of more than 4300 digits; a JSON peer reads 2**53 exactly
        return value if value.bit_length() <= _MAX_INT_BITS else f"<int of {value.bit_length()} bits>"
    if isinstance(value, str):
        return _sendable(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth >= MAX_JSON_DEPTH:
        return "..."
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, depth + 1) for v in value]
    try:
        if isinstance(value, Mapping):
            return {_sendable(str(k)): _jsonable(v, depth + 1) for k, v in value.items()}
        if isinstance(value, BaseException):
            return _sendable(f"{type(value).__name__}: {value}")
        return _sendable(repr(value))
    except Exception:
        return f"<{type(value).__name__}>"


_MAX_INT_BITS: Final = 4000  # about 1200 digits: far under the 4300-digit limit of int <-> str


def _sendable(text: str) -> str:
    """``text`` without lone surrogates (they cannot be encoded), each replaced by U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


def dump(error: ToolError) -> dict[str, object]:
    """The wire form of ``error``: ``{"_tag": ..., camelCaseField: value, ...}``."""
    out: dict[str, object] = {"_tag": error.tag}
    match error:
        case RateLimited(retry_after_ms, limit):
            if retry_after_ms is not None:
                out["retryAfterMs"] = retry_after_ms
            if limit is not None:
                out["limit"] = limit
        case InvalidArgs(path, expected, got):
            out["path"] = path
            out["expected"] = expected
            out["got"] = _jsonable(got)
        case NotFound(searched, suggestions):
            out["searched"] = searched
            if suggestions is not None:
                out["suggestions"] = list(suggestions)
        case Timeout(after_ms):
            out["afterMs"] = after_ms
        case Unavailable(reason, status, retry_after_ms):
            out["reason"] = reason
            if status is not None:
                out["status"] = status
            if retry_after_ms is not None:
                out["retryAfterMs"] = retry_after_ms
        case Denied(reason, required):
            out["reason"] = reason
            if required is not None:
                out["required"] = required
        case Unknown(message, cause):
            out["message"] = message
            if cause is not None:
                out["cause"] = _jsonable(cause)
        case _:
            assert_never(error)
    return out


def dump_json(error: ToolError) -> str:
    """:func:`dump` as a compact JSON string."""
    return json.dumps(dump(error), separators=(",", ":"), ensure_ascii=False)


class _Invalid(Exception):
    """Internal: the payload does not describe a ToolError."""


_MISSING: Final = object()


def _str(d: Mapping[str, object], key: str) -> str:
    v = d.get(key, _MISSING)
    if not isinstance(v, str):
        raise _Invalid(key)
    return v


def _opt_str(d: Mapping[str, object], key: str) -> str | None:
    v = d.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise _Invalid(key)
    return v


def _int(v: object, key: str) -> int:
    # bool is an int subclass: a bool is never a number here.
    if isinstance(v, bool):
        raise _Invalid(key)
    if isinstance(v, int):
        return v
    # A JSON number written as 1200.0 (JavaScript has one number type) is
    # accepted when it is finite and integral; anything else is refused.
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    raise _Invalid(key)


def _duration(d: Mapping[str, object], key: str) -> int:
    n = _int(d.get(key, _MISSING), key)
    if n < 0:
        raise _Invalid(key)
    return n


def _parse(value: object) -> ToolError:
    if not isinstance(value, Mapping):
        raise _Invalid("_tag")
    tag = value.get("_tag")
    if tag == "RateLimited":
        advice = None if value.get("retryAfterMs") is None else _duration(value, "retryAfterMs")
        return RateLimited(advice, _opt_str(value, "limit"))
    if tag == "InvalidArgs":
        if "got" not in value:
            raise _Invalid("got")
        return InvalidArgs(_str(value, "path"), _str(value, "expected"), value["got"])
    if tag == "NotFound":
        raw = value.get("suggestions")
        suggestions: tuple[str, ...] | None = None
        if raw is not None:
            if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
                raise _Invalid("suggestions")
            suggestions = tuple(raw)
        return NotFound(_str(value, "searched"), suggestions)
    if tag == "Timeout":
        return Timeout(_duration(value, "afterMs"))
    if tag == "Unavailable":
        status_raw = value.get("status")
        status = None if status_raw is None else _int(status_raw, "status")
        advice = None if value.get("retryAfterMs") is None else _duration(value, "retryAfterMs")
        return Unavailable(_str(value, "reason"), status, advice)
    if tag == "Denied":
        return Denied(_str(value, "reason"), _opt_str(value, "required"))
    if tag == "Unknown":
        return Unknown(_str(value, "message"), value.get("cause"))
    raise _Invalid("_tag")


def parse(value: object) -> ToolError | None:
    """The ToolError that ``value`` (a decoded wire dict) describes, or ``None``.

    Validates, never casts; never raises. Unknown extra keys are ignored, so
    a newer peer may add fields.
    """
    try:
        return _parse(value)
    except Exception:
        return None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """Maximum nesting depth of JSON ``text`` (strings skipped)."""
    deepest = depth = 0
    for m in _BRACKETS.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> object:
    raise _Invalid(f"{name} is not JSON")  # NaN, Infinity, -Infinity: Python extensions to JSON


def _has_lone_surrogate(value: object, depth: int) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if depth > MAX_JSON_DEPTH:
        return False
    if isinstance(value, list):
        return any(_has_lone_surrogate(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k, depth + 1) or _has_lone_surrogate(v, depth + 1) for k, v in value.items())
    return False


def parse_json(
    text: str | bytes,
    *,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
) -> ToolError | None:
    """:func:`parse` from a JSON string; ``None`` when it is not a ToolError.

    Payloads over ``max_bytes`` or nested deeper than ``max_depth`` are refused
    before they are decoded, so a hostile payload cannot exhaust memory or the
    stack. ``NaN`` / ``Infinity`` literals and lone surrogates (``"\\ud800"``)
    are not JSON a peer can read: refused too. Never raises.
    """
    try:
        if isinstance(text, (bytes, bytearray)):
            if len(text) > max_bytes:
                return None
            text = bytes(text).decode("utf-8")
        elif not isinstance(text, str):
            return None
        # A str of n characters is at most 4n bytes of UTF-8 and at least n.
        if len(text) > max_bytes or (
            len(text) * 4 > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes
        ):
            return None
        if _depth(text) > max_depth:
            return None
        value = json.loads(text, parse_constant=_refuse_constant)
        if _has_lone_surrogate(value, 0):
            return None
        return parse(value)
    except Exception:  # includes RecursionError, UnicodeDecodeError, JSONDecodeError
        return None
