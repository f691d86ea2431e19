"""What a keyed call shares with the code around it: its key, its clauses, its logical call.

The public constants (:data:`IDEMPOTENCY_HEADER`, :data:`MAX_KEY_LENGTH`), the context
variables a keyed call sets and what reads them (:func:`current_key`,
:func:`idempotency_headers`, :func:`extend_lease`), the clauses of ``keyed(...)``
(:func:`reconciling_with`, :func:`recorded_in`), the state of one logical call
(``_CallState``: key, owner token, ambiguity), :func:`never_happened` and
:func:`is_keyed`. ``keyed`` itself is in :mod:`._keys`; the decisions of one keyed
tool (and its lease heartbeat) in :mod:`._keyed_core`.
"""

from __future__ import annotations

import itertools
import os
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Final, Union

from . import classification as _classification
from ._ledger import Ledger
from ._errors import RateLimited, Result, ToolError, Unavailable
from ._events import Event
from ._retry import ConfigError, Observing
from ._tools import is_async_callable

__all__ = [
    "reconciling_with",
    "recorded_in",
    "Reconciling",
    "Recording",
    "KeyedClause",
    "current_key",
    "idempotency_headers",
    "extend_lease",
    "never_happened",
    "is_keyed",
    "IDEMPOTENCY_HEADER",
    "MAX_KEY_LENGTH",
]

IDEMPOTENCY_HEADER: Final = "Idempotency-Key"
"""The header name of the IETF httpapi draft (and Stripe, Adyen, PayPal ...)."""

MAX_KEY_LENGTH: Final = 255
"""The longest key accepted (Stripe's limit)."""

_KEYED_ATTR: Final = "__smullyan_keyed__"
_classification._CARRIED.append(_KEYED_ATTR)

_key: ContextVar[str | None] = ContextVar("smullyan_idempotency_key", default=None)
_lease: ContextVar[tuple[Ledger, str, str] | None] = ContextVar("smullyan_lease", default=None)
_scope: ContextVar[dict[int, _CallState] | None] = ContextVar("smullyan_logical_call", default=None)


def current_key() -> str:
    """The idempotency key of the keyed call running now; ``LookupError`` outside one."""
    key = _key.get()
    if key is None:
        raise LookupError("current_key() is only set inside a tool wrapped by keyed(...)")
    return key


def idempotency_headers(key: str) -> dict[str, str]:
    """``{"Idempotency-Key": key}``, the header of the IETF httpapi idempotency-key draft."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"idempotency_headers() takes a non-empty str key, got {key!r}")
    return {IDEMPOTENCY_HEADER: key}


def extend_lease() -> bool:
    """The heartbeat of a long keyed call: renew its ledger lease. False when it was lost.

    Call it from inside the tool; without a ledger it does nothing and returns True.
    """
    lease = _lease.get()
    if lease is None:
        return True
    ledger, key, owner = lease
    return ledger.extend(key, owner)


# ---------------------------------------------------------------- clauses


Lookup = Callable[[str], Union[Result[Any], Awaitable[Result[Any]]]]


@dataclass(frozen=True, slots=True)
class Reconciling:
    """Look the effect up by key before repeating it."""

    lookup: Callable[[str], Any]
    is_async: bool


@dataclass(frozen=True, slots=True)
class Recording:
    """Record every keyed call in ``ledger``."""

    ledger: Ledger


KeyedClause = Union[Reconciling, Recording, Observing]


def reconciling_with(lookup: Lookup) -> Reconciling:
    """``lookup(key) -> Ok(value)`` (it happened) / ``Err(NotFound)`` (it did not) / other ``Err``."""
    if not callable(lookup):
        raise ConfigError(f"reconciling_with() takes a lookup function of the key, got {lookup!r}")
    return Reconciling(lookup, is_async_callable(lookup))


def recorded_in(ledger: Ledger) -> Recording:
    """Record the keyed call in ``ledger`` (``SQLiteLedger``, ``PostgresLedger`` or your own)."""
    for method in ("begin", "finish", "fail", "release", "abandon", "extend"):
        if not callable(getattr(ledger, method, None)):
            raise ConfigError(f"recorded_in() takes a Ledger; {ledger!r} has no {method}()")
    return Recording(ledger)


# ---------------------------------------------------------------- the logical call


_NOTHING: Final = object()

# Owner tokens: a random prefix per process (made again in a forked child) and a counter.
_OWNERS: list[Any] = [os.urandom(8).hex() + ".", itertools.count()]


def _new_owners() -> None:
    _OWNERS[:] = [os.urandom(8).hex() + ".", itertools.count()]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_owners)


class _CallState:
    """One logical call: its key, its owner token, whether an earlier attempt may have acted,
    a result an earlier attempt could not record, and the events to report."""

    __slots__ = ("key", "owner", "ambiguous", "pending", "outbox")

    def __init__(self, key: str) -> None:
        self.key = key
        self.owner = f"{_OWNERS[0]}{next(_OWNERS[1])}"
        self.ambiguous = False
        self.pending: object = _NOTHING
        self.outbox: list[Event] = []


def never_happened(error: ToolError) -> bool:
    """True when ``error`` proves the request never took effect (see docs/runtime.md's table).

    ``RateLimited``; ``Unavailable`` without an HTTP status (the request was
    never sent: refused, DNS, connect timeout); a 503 with ``Retry-After``.
    A 500, 502, 504 or a 503 without advice, a ``Timeout`` (a read timeout, a
    connection reset or closed after the request went out) and ``Unknown``
    may have taken effect.
    """
    if isinstance(error, RateLimited):
        return True
    if isinstance(error, Unavailable):
        return error.status is None or (error.status == 503 and error.retry_after_ms is not None)
    return False


def is_keyed(tool: object) -> bool:
    """True when ``tool`` is (or wraps) a ``keyed(...)`` tool."""
    return bool(getattr(tool, _KEYED_ATTR, False))
