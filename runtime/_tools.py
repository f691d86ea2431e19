"""Tools, stages and ``pipe``: the plumbing the combinators share.

A *tool* is a callable that returns a :data:`~smullyan.runtime.Result` (a sync
tool) or an awaitable of one (an ``async def`` tool). A *stage* turns a tool
into another tool: ``clock.retrying(...)``, ``clock.giving_up_after(...)`` and
``falling_back_to(...)`` are stages, and :func:`pipe` applies them left to
right.

Whether a tool is async is decided once, when a stage is applied, with
:func:`inspect.iscoroutinefunction`; nothing is inspected per call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import types
from typing import Any, Awaitable, Callable, Coroutine, Generic, ParamSpec, Protocol, TypeVar, Union, overload

from ._errors import Err, Ok, Result, ToolError, Unknown
from .classification import carry

__all__ = [
    "calling_api",
    "the_value",
    "pipe",
    "SyncStage",
    "AsyncStage",
    "is_async_callable",
]

P = ParamSpec("P")
T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E")
F = TypeVar("F")
G = TypeVar("G")
H = TypeVar("H")

Classifier = Callable[[Exception], ToolError]
"""Turns an exception raised by an API into a ToolError; must not raise."""

_CoroutineType = types.CoroutineType


def is_async_callable(fn: object) -> bool:
    """True for an ``async def`` function, method, partial of one, or object with ``async def __call__``."""
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 - an instance whose __call__ is async
    return call is not None and inspect.iscoroutinefunction(call)


# ---------------------------------------------------------------- calling_api


T_co = TypeVar("T_co", covariant=True)


class AsyncTool(Protocol[P, T_co]):
    """What ``calling_api`` makes of an ``async def``: awaiting its call gives ``Result[T]``.

    A protocol rather than a plain ``Callable`` so that a function whose return
    type is ``Any`` (``resp.json()``, an untyped SDK) is not taken for an
    ``async def`` by mypy: such a tool is typed ``Any``, and calling it is not
    an untyped call.
    """

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Coroutine[Any, Any, Result[T_co]]: ...  # noqa: D102


@overload
def calling_api(  # type: ignore[overload-overlap]  # an async def is not a sync tool of a coroutine
    fn: Callable[P, Coroutine[Any, Any, T]], classify: Classifier | None = None
) -> AsyncTool[P, T]: ...
@overload
def calling_api(fn: Callable[P, T], classify: Classifier | None = None) -> Callable[P, Result[T]]: ...
def calling_api(fn: Callable[..., Any], classify: Classifier | None = None) -> Callable[..., Any]:
    """Turn ``fn`` (sync or ``async def``) into a tool that returns a Result and never raises ``Exception``.

    An ``Exception`` raised by ``fn`` becomes ``Err(classify(exc))``;
    ``classify`` defaults to :func:`~smullyan.runtime.from_exception`.
    ``BaseException``s that are not ``Exception`` (``KeyboardInterrupt``,
    ``SystemExit``, ``asyncio.CancelledError``) always propagate.

    ``fn`` is async when it is an ``async def`` (or a ``functools.partial`` of
    one); a plain function or lambda that *returns* a coroutine is a mistake
    this reports with ``TypeError`` on the first call, rather than returning
    ``Ok(<coroutine>)``.
    """
    if classify is None:
        from ._mapping import from_exception

        classify = from_exception
    cls = classify

    if is_async_callable(fn):

        async def async_tool(*args: Any, **kwargs: Any) -> Result[Any]:
            try:
                return Ok(await fn(*args, **kwargs))
            except Exception as exc:
                return Err(_classified(cls, exc))

        _name(async_tool, fn)
        return async_tool

    def sync_tool(*args: Any, **kwargs: Any) -> Result[Any]:
        try:
            value = fn(*args, **kwargs)
        except Exception as exc:
            return Err(_classified(cls, exc))
        if type(value) is _CoroutineType or isinstance(value, _FUTURES):
            _discard(value)
            raise TypeError(
                f"{_describe(fn)} returned {'a coroutine' if type(value) is _CoroutineType else 'a Future'}: "
                "pass an `async def` function (or functools.partial of one) to calling_api, "
                "not a function that starts the work and returns its awaitable"
            )
        return Ok(value)

    _name(sync_tool, fn)
    return sync_tool


_FUTURES = (asyncio.Future, concurrent.futures.Future)


def _discard(value: object) -> None:
    if type(value) is _CoroutineType:
        value.close()
    elif isinstance(value, _FUTURES):
        value.cancel()


def _classified(classify: Classifier, exc: Exception) -> ToolError:
    """``classify(exc)``; a classifier that raises gives ``Unknown`` naming both, with ``exc`` as the cause."""
    try:
        return classify(exc)
    except Exception as bug:
        name = getattr(classify, "__qualname__", None) or type(classify).__name__
        return Unknown(f"the classifier {name} raised {type(bug).__name__} on {type(exc).__name__}", exc)


def _describe(fn: object) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


def _name(wrapper: Callable[..., Any], fn: object) -> None:
    wrapper.__qualname__ = f"calling_api({_describe(fn)})"
    wrapper.__name__ = wrapper.__qualname__
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    wrapper._smullyan_fn = fn  # type: ignore[attr-defined]  # keyed() reads fn's signature and return type
    carry(fn, wrapper)


# ---------------------------------------------------------------- the_value


def the_value(value: T) -> Callable[..., Ok[T]]:
    """A sync tool that ignores its arguments and returns ``Ok(value)`` (for ``falling_back_to``)."""
    result = Ok(value)

    def constant_tool(*args: Any, **kwargs: Any) -> Ok[T]:
        return result

    constant_tool.__qualname__ = constant_tool.__name__ = f"the_value({value!r})"
    return constant_tool


# ---------------------------------------------------------------- stages

SyncWrap = Callable[[Callable[..., Any]], Callable[..., Any]]


class _Stage:
    """What every stage shares: a wrapper for sync tools, one for async tools, and a label.

    The subclasses differ only in their typed ``__call__`` overloads (which
    kind of tool comes out); the kind of tool going in is decided here, once,
    when the stage is applied.
    """

    __slots__ = ("_wrap_sync", "_wrap_async", "_label")

    def __init__(self, wrap_sync: SyncWrap, wrap_async: SyncWrap, label: str) -> None:
        self._wrap_sync = wrap_sync
        self._wrap_async = wrap_async
        self._label = label

    def _apply(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        if is_async_callable(tool):
            return carry(tool, self._wrap_async(tool))
        return carry(tool, self._wrap_sync(tool))

    def __repr__(self) -> str:
        return self._label


class SyncStage(_Stage):
    """A stage that keeps the tool's kind: a sync tool stays sync, an async tool stays async.

    ``clock.retrying(...)`` and ``clock.giving_up_after(...)`` on a clock made
    from a sync sleep are sync stages.
    """

    __slots__ = ()

    @overload
    def __call__(
        self, tool: Callable[P, Awaitable[Result[T]]]
    ) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
    @overload
    def __call__(self, tool: Callable[P, Result[T]]) -> Callable[P, Result[T]]: ...
    def __call__(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        return self._apply(tool)


class AsyncStage(_Stage):
    """A stage whose result is always an async tool (its clock, or its fallback, is async)."""

    __slots__ = ()

    @overload
    def __call__(
        self, tool: Callable[P, Awaitable[Result[T]]]
    ) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
    @overload
    def __call__(self, tool: Callable[P, Result[T]]) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
    def __call__(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        return self._apply(tool)


class SyncFallingBack(_Stage, Generic[T]):
    """``falling_back_to(sync_fallback)``: keeps the tool's kind; the fallback yields ``Result[T]``."""

    __slots__ = ()

    @overload
    def __call__(
        self, tool: Callable[P, Awaitable[Result[T]]]
    ) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
    @overload
    def __call__(self, tool: Callable[P, Result[T]]) -> Callable[P, Result[T]]: ...
    def __call__(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        return self._apply(tool)


class AsyncFallingBack(_Stage, Generic[T]):
    """``falling_back_to(async_fallback)``: the result is always an async tool."""

    __slots__ = ()

    @overload
    def __call__(
        self, tool: Callable[P, Awaitable[Result[T]]]
    ) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
    @overload
    def __call__(self, tool: Callable[P, Result[T]]) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
    def __call__(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        return self._apply(tool)


# ---------------------------------------------------------------- pipe

AnyStage = Union[SyncStage, AsyncStage, SyncFallingBack[T], AsyncFallingBack[T]]
"""Any of this module's stages, for a tool whose results are ``Result[T]``."""


# The first overloads type a tool followed by this module's stages: mypy cannot
# infer a chain of overloaded callables through generic ``Callable[[A], B]``
# parameters, so the kind of the result (sync or awaitable) is computed here:
# sync only when the tool and every stage are sync. The later overloads are the
# plain, generic left-to-right composition.
@overload
def pipe(x: A, /) -> A: ...
@overload
def pipe(  # type: ignore[overload-overlap]  # all-sync stages on a sync tool stay sync
    x: Callable[P, Result[T]], /, *stages: SyncStage | SyncFallingBack[T]
) -> Callable[P, Result[T]]: ...
@overload
def pipe(
    x: Callable[P, Awaitable[Result[T]]], /, *stages: AnyStage[T]
) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
@overload
def pipe(x: Callable[P, Result[T]], /, *stages: AnyStage[T]) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
@overload
def pipe(x: A, f1: Callable[[A], B], /) -> B: ...
@overload
def pipe(x: A, f1: Callable[[A], B], f2: Callable[[B], C], /) -> C: ...
@overload
def pipe(x: A, f1: Callable[[A], B], f2: Callable[[B], C], f3: Callable[[C], D], /) -> D: ...
@overload
def pipe(
    x: A, f1: Callable[[A], B], f2: Callable[[B], C], f3: Callable[[C], D], f4: Callable[[D], E], /
) -> E: ...
@overload
def pipe(
    x: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    /,
) -> F: ...
@overload
def pipe(
    x: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    f6: Callable[[F], G],
    /,
) -> G: ...
@overload
def pipe(
    x: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    f6: Callable[[F], G],
    f7: Callable[[G], H],
    /,
) -> H: ...
def pipe(x: Any, /, *fns: Callable[[Any], Any]) -> Any:
    """Apply ``fns`` to ``x`` left to right: ``pipe(x, f, g) == g(f(x))``."""
    for fn in fns:
        x = fn(x)
    return x
