"""Classify every call first: what may be retried, what must be keyed, what must never repeat.

Four bare decorators mark a function (``def`` or ``async def``) with how safe
it is to call twice. They return the very function they were given, so its
signature, its ``async``-ness and its type (for mypy) are unchanged::

    @read_safe            # a read: retry freely
    def get_balance(account: str) -> int: ...

    @idempotent_write     # doing it twice is doing it once (PUT, upsert, set)
    def set_status(order: str, status: str) -> None: ...

    @non_idempotent_write # doing it twice does it twice (POST /charges): key it
    async def charge_card(card: str, cents: int) -> str: ...

    @irreversible         # cannot be undone or repeated (send an e-mail, wire money)
    def send_email(to: str, body: str) -> None: ...

:func:`classification_of` reads the mark back, through ``calling_api(...)``,
``functools.partial`` and the runtime's stages, which carry it forward.

``clock.retrying(...)`` reads it when a pipeline is built and refuses a retry
over a ``non_idempotent_write`` that is not keyed (see
:func:`smullyan.runtime.keyed`) and over any ``irreversible`` tool. An
unclassified tool keeps the behaviour it had.

The linter reads these decorators statically by their qualified names
``smullyan.runtime.<name>`` and ``smullyan.runtime.classification.<name>``.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Final, Literal, TypeVar, get_args

__all__ = [
    "Classification",
    "CLASSIFICATIONS",
    "read_safe",
    "idempotent_write",
    "non_idempotent_write",
    "irreversible",
    "classification_of",
]

Classification = Literal["read_safe", "idempotent_write", "non_idempotent_write", "irreversible"]
"""How safe a call is to repeat, from safest to least safe."""

CLASSIFICATIONS: Final[tuple[Classification, ...]] = get_args(Classification)
"""Every classification, from safest to least safe."""

F = TypeVar("F", bound=Callable[..., Any])

_ATTR: Final = "__smullyan_classification__"


def _mark(fn: F, classification: Classification, decorator: str) -> F:
    if not callable(fn):
        raise TypeError(f"@{decorator} decorates a function, got {fn!r}")
    previous = getattr(fn, _ATTR, None)
    if previous is not None and previous != classification:
        raise TypeError(
            f"{_describe(fn)} is already classified {previous!r}; it cannot also be {classification!r}"
        )
    try:
        setattr(fn, _ATTR, classification)
    except (AttributeError, TypeError):
        raise TypeError(
            f"@{decorator} cannot mark {fn!r} (it takes no attributes); decorate the def itself"
        ) from None
    return fn


def read_safe(fn: F) -> F:
    """Mark ``fn`` as a read: no effect, safe to call any number of times."""
    return _mark(fn, "read_safe", "read_safe")


def idempotent_write(fn: F) -> F:
    """Mark ``fn`` as a write whose repetition has no further effect (a PUT, an upsert)."""
    return _mark(fn, "idempotent_write", "idempotent_write")


def non_idempotent_write(fn: F) -> F:
    """Mark ``fn`` as a write that repeats its effect when repeated: retry it only when keyed."""
    return _mark(fn, "non_idempotent_write", "non_idempotent_write")


def irreversible(fn: F) -> F:
    """Mark ``fn`` as an effect that cannot be undone: it is never retried automatically."""
    return _mark(fn, "irreversible", "irreversible")


def classification_of(fn: object) -> Classification | None:
    """The classification of ``fn``, or None when it has none.

    Looks through ``functools.partial`` and ``__wrapped__`` chains (what
    ``functools.wraps`` leaves); the runtime's own wrappers copy the mark.
    """
    seen = 0
    while fn is not None and seen < 100:
        mark = getattr(fn, _ATTR, None)
        if mark in CLASSIFICATIONS:
            return mark  # type: ignore[no-any-return]
        if isinstance(fn, functools.partial):
            fn = fn.func
        else:
            fn = getattr(fn, "__wrapped__", None)
        seen += 1
    return None


def carry(source: object, target: F) -> F:
    """Copy ``source``'s runtime marks (classification, key, tool name) onto the wrapper ``target``."""
    for attr in _CARRIED:
        value = classification_of(source) if attr == _ATTR else getattr(source, attr, None)
        if value is not None:
            try:
                setattr(target, attr, value)
            except (AttributeError, TypeError):  # pragma: no cover - a wrapper without __dict__
                pass
    try:
        setattr(target, _NAME, tool_name(source))
    except (AttributeError, TypeError):  # pragma: no cover - a wrapper without __dict__
        pass
    return target


_NAME: Final = "__smullyan_tool_name__"


def tool_name(fn: object) -> str:
    """The qualified name of the function the runtime's wrappers around ``fn`` started from.

    ``carry`` passes it on, so a whole pipeline answers with its tool's name
    (``traced(...)``'s default span name), not the name of its outer stage.
    """
    name = getattr(fn, _NAME, None)
    if isinstance(name, str):
        return name
    if isinstance(fn, functools.partial):
        return tool_name(fn.func)
    return _describe(fn)


def _describe(fn: object) -> str:
    return str(getattr(fn, "__qualname__", None) or repr(fn))


_CARRIED: list[str] = [_ATTR]
"""The attributes :func:`carry` copies; the keys module adds its own."""
