"""The closed union of tool errors, and ``Result``.

Seven frozen, slotted dataclasses make up :data:`ToolError`. Each carries a
class-level ``tag`` equal to its class name: that tag is what crosses JSON and
process boundaries (see :func:`smullyan.runtime.dump`).

The union is closed: every function that decides per variant does so with a
``match`` ending in :func:`assert_never`, so adding an eighth variant without
deciding its behaviour is a ``mypy --strict`` error.
"""

from __future__ import annotations

import reprlib
import sys
from dataclasses import dataclass, fields
from typing import ClassVar, Final, Generic, Literal, NoReturn, TypeVar, Union

if sys.version_info >= (3, 11):
    from typing import assert_never
else:  # pragma: no cover - Python 3.10

    def assert_never(value: NoReturn, /) -> NoReturn:  # noqa: D103
        """Mark a branch that the type checker proves unreachable."""
        raise AssertionError(f"Expected code to be unreachable, but got: {value!r}")


__all__ = [
    "RateLimited",
    "InvalidArgs",
    "NotFound",
    "Timeout",
    "Unavailable",
    "Denied",
    "Unknown",
    "ToolError",
    "TAGS",
    "ToolFailure",
    "Ok",
    "Err",
    "Result",
    "rate_limited",
    "invalid_args",
    "not_found",
    "timeout",
    "unavailable",
    "denied",
    "unknown",
    "is_retryable",
    "assert_never",
]


MAX_MS: Final = 2**53 - 1
"""The longest duration a ToolError carries: the largest integer a JSON peer (JavaScript) reads exactly."""

_safe_repr = reprlib.Repr()
_safe_repr.maxstring = 200
_safe_repr.maxother = 200
_safe_repr.maxlong = 60


def _repr_field(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**60:
        return f"<int of {value.bit_length()} bits>"
    if isinstance(value, (str, type(None))):
        return repr(value)
    try:
        return _safe_repr.repr(value)
    except Exception:
        return f"<{type(value).__name__} (repr failed)>"


def _clean_str(error: object, name: str, optional: bool = False) -> None:
    value = getattr(error, name)
    if value is None and optional:
        return
    if not isinstance(value, str):
        cls = type(error).__name__
        want = "a str or None" if optional else "a str"
        raise TypeError(f"{cls}.{name} must be {want}, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates cannot be sent: replaced, so the error stays sendable
        object.__setattr__(error, name, value.encode("utf-8", "replace").decode("utf-8"))


def _check_int(error: object, name: str, low: int, high: int, optional: bool = False) -> None:
    value = getattr(error, name)
    if value is None and optional:
        return
    cls = type(error).__name__
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{cls}.{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{cls}.{name} must be between {low} and {high}, got {_repr_field(value)}")


class _Variant:
    """What the seven variants share: a ``repr`` that never raises (hostile causes, huge ints)."""

    __slots__ = ()

    def __repr__(self) -> str:
        parts = ", ".join(f"{f.name}={_repr_field(getattr(self, f.name))}" for f in fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({parts})"


@dataclass(frozen=True, slots=True, repr=False)
class RateLimited(_Variant):
    """The tool (or the service behind it) refused the call for now; wait, then retry.

    ``retry_after_ms`` is the wait the service advised (``Retry-After``), or
    ``None`` when it advised none: a retry then waits its own schedule.
    """

    tag: ClassVar[Literal["RateLimited"]] = "RateLimited"
    retry_after_ms: int | None = None
    limit: str | None = None

    def __post_init__(self) -> None:
        _check_int(self, "retry_after_ms", 0, MAX_MS, optional=True)
        _clean_str(self, "limit", optional=True)


@dataclass(frozen=True, slots=True, repr=False)
class InvalidArgs(_Variant):
    """An argument was wrong; the same call will fail again until it changes."""

    tag: ClassVar[Literal["InvalidArgs"]] = "InvalidArgs"
    path: str
    expected: str
    got: object

    def __post_init__(self) -> None:
        _clean_str(self, "path")
        _clean_str(self, "expected")


@dataclass(frozen=True, slots=True, repr=False)
class NotFound(_Variant):
    """What was asked for does not exist; ``suggestions`` may name near matches."""

    tag: ClassVar[Literal["NotFound"]] = "NotFound"
    searched: str
    suggestions: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        _clean_str(self, "searched")
        raw = self.suggestions
        if raw is None:
            return
        if not isinstance(raw, (tuple, list)) or not all(isinstance(s, str) for s in raw):
            raise TypeError("NotFound.suggestions must be a tuple of str or None")
        cleaned = tuple(s.encode("utf-8", "replace").decode("utf-8") for s in raw)
        if cleaned != raw or not isinstance(raw, tuple):
            object.__setattr__(self, "suggestions", cleaned)


@dataclass(frozen=True, slots=True, repr=False)
class Timeout(_Variant):
    """No answer within ``after_ms`` milliseconds (0 when the duration is not known)."""

    tag: ClassVar[Literal["Timeout"]] = "Timeout"
    after_ms: int

    def __post_init__(self) -> None:
        _check_int(self, "after_ms", 0, MAX_MS)


@dataclass(frozen=True, slots=True, repr=False)
class Unavailable(_Variant):
    """The service is down or overloaded.

    ``status`` is the HTTP status when there was one; ``retry_after_ms`` is the
    server's advice (a ``Retry-After`` on a 502/503/504) when it gave one.
    """

    tag: ClassVar[Literal["Unavailable"]] = "Unavailable"
    reason: str
    status: int | None = None
    retry_after_ms: int | None = None

    def __post_init__(self) -> None:
        _clean_str(self, "reason")
        _check_int(self, "status", 0, 999, optional=True)
        _check_int(self, "retry_after_ms", 0, MAX_MS, optional=True)


@dataclass(frozen=True, slots=True, repr=False)
class Denied(_Variant):
    """The caller is not allowed; ``required`` names the missing permission when known."""

    tag: ClassVar[Literal["Denied"]] = "Denied"
    reason: str
    required: str | None = None

    def __post_init__(self) -> None:
        _clean_str(self, "reason")
        _clean_str(self, "required", optional=True)


@dataclass(frozen=True, slots=True, repr=False)
class Unknown(_Variant):
    """Anything that could not be classified; ``cause`` keeps the original for debugging."""

    tag: ClassVar[Literal["Unknown"]] = "Unknown"
    message: str
    cause: object = None

    def __post_init__(self) -> None:
        _clean_str(self, "message")


ToolError = Union[RateLimited, InvalidArgs, NotFound, Timeout, Unavailable, Denied, Unknown]
"""The closed union of the seven tool errors."""

TAGS: Final[tuple[str, ...]] = (
    "RateLimited",
    "InvalidArgs",
    "NotFound",
    "Timeout",
    "Unavailable",
    "Denied",
    "Unknown",
)
"""Every variant's tag, in declaration order."""


class ToolFailure(Exception):
    """An exception that carries a :data:`ToolError`.

    For code that must raise (a framework that expects exceptions), raise
    ``ToolFailure(not_found("repo x"))``; :func:`~smullyan.runtime.from_exception`
    turns it back into the same error, unchanged.
    """

    def __init__(self, error: ToolError) -> None:
        super().__init__(error)
        self.error: ToolError = error

    def __str__(self) -> str:
        return f"{self.error.tag}: {self.error!r}"


# ---------------------------------------------------------------- Result

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Ok(Generic[T_co]):
    """A successful result."""

    value: T_co


@dataclass(frozen=True, slots=True)
class Err(Generic[E_co]):
    """A failed result; ``error`` is a :data:`ToolError`."""

    error: E_co


Result = Union[Ok[T], Err[ToolError]]
"""``Ok[T] | Err[ToolError]``: what a tool returns instead of raising."""


# ---------------------------------------------------------------- constructors


def rate_limited(retry_after_ms: int | None = None, limit: str | None = None) -> ToolError:
    """Build a :class:`RateLimited` error."""
    return RateLimited(retry_after_ms, limit)


def invalid_args(path: str, expected: str, got: object) -> ToolError:
    """Build an :class:`InvalidArgs` error."""
    return InvalidArgs(path, expected, got)


def not_found(searched: str, suggestions: tuple[str, ...] | list[str] | None = None) -> ToolError:
    """Build a :class:`NotFound` error (a list of suggestions is stored as a tuple)."""
    return NotFound(searched, tuple(suggestions) if suggestions is not None else None)


def timeout(after_ms: int) -> ToolError:
    """Build a :class:`Timeout` error."""
    return Timeout(after_ms)


def unavailable(reason: str, status: int | None = None, retry_after_ms: int | None = None) -> ToolError:
    """Build an :class:`Unavailable` error."""
    return Unavailable(reason, status, retry_after_ms)


def denied(reason: str, required: str | None = None) -> ToolError:
    """Build a :class:`Denied` error."""
    return Denied(reason, required)


def unknown(message: str, cause: object = None) -> ToolError:
    """Build an :class:`Unknown` error."""
    return Unknown(message, cause)


# ---------------------------------------------------------------- retryability


def is_retryable(error: ToolError) -> bool:
    """The retryability table: RateLimited, Timeout and Unavailable are transient.

    InvalidArgs, Denied and NotFound fail the same way again; Unknown is not
    retried because nobody knows whether the first call took effect.
    """
    match error:
        case RateLimited() | Timeout() | Unavailable():
            return True
        case InvalidArgs() | Denied() | NotFound() | Unknown():
            return False
        case _:
            assert_never(error)
