"""The closed union of tool errors, and ``Result``.

Seven frozen, slotted dataclasses make up :data:`ToolError`. Each carries a
class-level ``tag`` equal to its class name: that tag is what crosses JSON and
process boundaries (see :mod:`smullyan.runtime.wire`).

The union is closed: every function that decides per variant does so with a
``match`` ending in :func:`assert_never`, so adding an eighth variant without
deciding its behaviour is a ``mypy --strict`` error.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class RateLimited:
    """The tool (or the service behind it) refused the call for now; wait, then retry."""

    tag: ClassVar[Literal["RateLimited"]] = "RateLimited"
    retry_after_ms: int
    limit: str | None = None


@dataclass(frozen=True, slots=True)
class InvalidArgs:
    """An argument was wrong; the same call will fail again until it changes."""

    tag: ClassVar[Literal["InvalidArgs"]] = "InvalidArgs"
    path: str
    expected: str
    got: object


@dataclass(frozen=True, slots=True)
class NotFound:
    """What was asked for does not exist; ``suggestions`` may name near matches."""

    tag: ClassVar[Literal["NotFound"]] = "NotFound"
    searched: str
    suggestions: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Timeout:
    """No answer within ``after_ms`` milliseconds (0 when the duration is not known)."""

    tag: ClassVar[Literal["Timeout"]] = "Timeout"
    after_ms: int


@dataclass(frozen=True, slots=True)
class Unavailable:
    """The service is down or overloaded; ``status`` is the HTTP status when there was one."""

    tag: ClassVar[Literal["Unavailable"]] = "Unavailable"
    reason: str
    status: int | None = None


@dataclass(frozen=True, slots=True)
class Denied:
    """The caller is not allowed; ``required`` names the missing permission when known."""

    tag: ClassVar[Literal["Denied"]] = "Denied"
    reason: str
    required: str | None = None


@dataclass(frozen=True, slots=True)
class Unknown:
    """Anything that could not be classified; ``cause`` keeps the original for debugging."""

    tag: ClassVar[Literal["Unknown"]] = "Unknown"
    message: str
    cause: object = None


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


def rate_limited(retry_after_ms: int, limit: str | None = None) -> ToolError:
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


def unavailable(reason: str, status: int | None = None) -> ToolError:
    """Build an :class:`Unavailable` error."""
    return Unavailable(reason, status)


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
