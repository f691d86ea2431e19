"""``falling_back_to``: replace an error with another tool's result, and say so.

``falling_back_to(the_value(cached))`` or ``falling_back_to(other_tool)``: when
the tool returns ``Err(error)``, the fallback is called with the same
arguments and its result is returned. The switch is reported to every
``observing(callback)`` clause as :class:`~smullyan.runtime.events.FellBack`, so it
is never silent when someone is watching.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Coroutine, TypeVar, overload

from ._errors import Ok, Result
from ._events import FellBack, Observer, observers_now
from ._retry import ConfigError, Observing
from ._tools import AsyncFallingBack, SyncFallingBack, is_async_callable

__all__ = ["falling_back_to"]

T = TypeVar("T")


def _observers(clauses: tuple[Observing, ...]) -> tuple[Observer, ...]:
    for clause in clauses:
        if not isinstance(clause, Observing):
            raise ConfigError(f"falling_back_to() takes observing(...) clauses only, got {clause!r}")
    return tuple(clause.callback for clause in clauses)


def _wrap_sync(fallback: Callable[..., Result[Any]], observers: tuple[Observer, ...]) -> Callable[..., Any]:
    def wrap(tool: Callable[..., Result[Any]]) -> Callable[..., Result[Any]]:
        def falling_back(*args: Any, **kwargs: Any) -> Result[Any]:
            result = tool(*args, **kwargs)
            if isinstance(result, Ok):
                return result
            if now := observers_now(observers):
                event = FellBack(result.error)
                for observer in now:
                    observer(event)
            return fallback(*args, **kwargs)

        return falling_back

    return wrap


def _wrap_async(
    fallback: Callable[..., Any], fallback_is_async: bool, tool_is_async: bool, observers: tuple[Observer, ...]
) -> Callable[..., Any]:
    def wrap(tool: Callable[..., Any]) -> Callable[..., Awaitable[Result[Any]]]:
        async def falling_back(*args: Any, **kwargs: Any) -> Result[Any]:
            result = tool(*args, **kwargs)
            if tool_is_async:
                result = await result
            if isinstance(result, Ok):
                return result
            if now := observers_now(observers):
                event = FellBack(result.error)
                for observer in now:
                    observer(event)
            replacement = fallback(*args, **kwargs)
            if fallback_is_async:
                replacement = await replacement
            return replacement  # type: ignore[no-any-return]

        return falling_back

    return wrap


@overload
def falling_back_to(
    fallback: Callable[..., Coroutine[Any, Any, Result[T]]], *clauses: Observing
) -> AsyncFallingBack[T]: ...
@overload
def falling_back_to(fallback: Callable[..., Result[T]], *clauses: Observing) -> SyncFallingBack[T]: ...
def falling_back_to(fallback: Callable[..., Any], *clauses: Observing) -> Any:
    """On ``Err``, return ``fallback(*same_args)`` instead; report :class:`FellBack` to observers."""
    if not callable(fallback):
        raise ConfigError(
            f"falling_back_to() takes a tool or the_value(x), got {fallback!r}; "
            "wrap a plain value as the_value(x)"
        )
    observers = _observers(clauses)
    label = f"falling_back_to({getattr(fallback, '__qualname__', fallback)!r})"
    if is_async_callable(fallback):
        return AsyncFallingBack(
            _wrap_async(fallback, True, False, observers),
            _wrap_async(fallback, True, True, observers),
            label,
        )
    return SyncFallingBack(
        _wrap_sync(fallback, observers),
        _wrap_async(fallback, False, True, observers),
        label,
    )
