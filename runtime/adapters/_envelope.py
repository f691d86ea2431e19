"""Result-returning tools for every adapter: unwrapping, and reading validation errors.

Standard library and the runtime only; no framework here. What passes
through, what an exception becomes, what the model reads and what is logged
live in :mod:`._core`; this module runs a tool through it.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar, Union

from .. import _errors as errors
from .._tools import is_async_callable
from .._mapping import from_exception
from ._core import VARIANTS, WITHHELD, Shell, qualified_names, recover, render, unmark, wire

__all__ = [
    "Classifier",
    "error_of",
    "render",
    "recover",
    "wire",
    "invalid_args_from_validation",
    "unwrapping",
]

Classifier = Callable[[Exception], "errors.ToolError"]
"""Turns an exception raised by a tool into a ToolError (default: ``from_exception``, messages withheld)."""

F = TypeVar("F", bound=Callable[..., Any])

PLAIN = Shell("python")
"""No framework: only what Python itself must see (cancellation, KeyboardInterrupt ...) passes."""


def is_tool_error(value: object) -> bool:
    """True for an instance of one of the seven variants."""
    return isinstance(value, VARIANTS)


def error_of(value: object, classify: Classifier | None = None) -> errors.ToolError:
    """The ToolError that ``value`` (a ToolError, an ``Err``, or an exception) stands for.

    A ``ToolFailure`` gives its own error, whatever ``classify`` is; any other
    exception goes through ``classify`` (default ``from_exception``), which
    must not raise: if it does, the error is ``Unknown`` naming both. For the
    program's side (a client reading a failed call); what a model reads of a
    tool's exception is :meth:`Shell.error_of`.
    """
    if is_tool_error(value):
        return value  # type: ignore[return-value]
    if isinstance(value, errors.Err) and is_tool_error(value.error):
        return value.error  # type: ignore[no-any-return]
    if isinstance(value, errors.ToolFailure):
        return value.error
    if isinstance(value, Exception):
        if classify is None:
            return from_exception(value)
        try:
            return classify(value)
        except Exception as exc:
            return errors.unknown(
                f"{type(value).__name__} (the classifier raised {type(exc).__name__})", value
            )
    return errors.unknown(f"not a tool error: {type(value).__name__}")


VALIDATION_ERRORS: frozenset[str] = frozenset(
    {
        "pydantic_core._pydantic_core.ValidationError",  # pydantic 2
        "pydantic.error_wrappers.ValidationError",  # pydantic 1
        "pydantic.v1.error_wrappers.ValidationError",
    }
)
"""pydantic's validation errors, by qualified class name (nothing imports pydantic to check)."""


def is_validation_error(exc: BaseException) -> bool:
    """True for a pydantic ``ValidationError`` (by qualified class name along the MRO)."""
    return any(name in VALIDATION_ERRORS for name in qualified_names(type(exc)))


def invalid_args_from_validation(
    exc: BaseException, visible: Collection[str] | None = None
) -> errors.ToolError | None:
    """``InvalidArgs`` for a pydantic ``ValidationError``, else None.

    The first error names the path (``loc`` joined by dots), what was expected
    (pydantic's ``msg``) and what came (``input``). ``visible`` is the
    argument names the model sees (None: all): a value the framework injects
    (``InjectedToolArg``, state, config, a run context) is never shown, so
    ``got`` is withheld for a path outside ``visible`` and a mapping ``got``
    keeps only visible keys. A missing field got nothing (``None``), not the
    whole input.
    """
    if not is_validation_error(exc):
        return None
    try:
        details = exc.errors()  # type: ignore[attr-defined]
        first = details[0]
        loc = tuple(first.get("loc") or ())
        path = ".".join(str(part) for part in loc) or "arguments"
        expected = str(first.get("msg") or "a valid value")
        got = None if first.get("type") == "missing" else first.get("input")
    except Exception:
        return None
    more = len(details) - 1
    if more > 0:
        expected += f" (and {more} more error{'s' if more > 1 else ''})"
    if visible is not None:
        if loc and str(loc[0]) not in visible:
            got = f"({WITHHELD})"
        elif isinstance(got, Mapping) and not loc:
            got = {k: v for k, v in got.items() if str(k) in visible}
    return errors.invalid_args(path, expected, _plain(got))


def _plain(value: object) -> object:
    """JSON-friendly ``got``: dicts and lists stay, anything else odd becomes its repr."""
    if value is None or isinstance(value, (bool, int, float, str, list, Mapping)):
        return value
    return repr(value)


# ---------------------------------------------------------------- Result-returning tools


def _value_type(annotation: object) -> object:
    """``T`` for ``Result[T]``/``Ok[T]``; ``annotation`` itself when it is no Result.

    ``inspect.Signature.empty`` when it is a Result whose value type cannot be
    told (``Err[...]`` alone, or a bare ``Ok``).
    """
    origin = typing.get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        args = typing.get_args(annotation)
        oks = [a for a in args if a is errors.Ok or typing.get_origin(a) is errors.Ok]
        errs = [a for a in args if a is errors.Err or typing.get_origin(a) is errors.Err]
        if not oks and not errs:
            return annotation
        rest = [a for a in args if a not in oks and a not in errs]
        values = [_value_type(a) for a in oks] + rest
        if not values or inspect.Signature.empty in values:
            return inspect.Signature.empty
        return values[0] if len(values) == 1 else Union[tuple(values)]
    if origin is errors.Ok:
        (value,) = typing.get_args(annotation)
        return value
    if annotation is errors.Ok or annotation is errors.Err or origin is errors.Err:
        return inspect.Signature.empty
    return annotation


def _retype(wrapper: Callable[..., Any], fn: Callable[..., Any]) -> None:
    """Give ``wrapper`` ``fn``'s signature with ``Result[T]`` returned as ``T``.

    Frameworks build a tool's schema from its signature and annotations, and
    some its output schema from the return type: they must see ``T``. A
    return annotation that cannot be resolved and names a Result is dropped
    rather than shown to the framework as a string it cannot resolve.
    """
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    raw = signature.return_annotation
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:
        hints = None
    if hints is not None:
        params = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()]
        returned = _value_type(hints.get("return", raw))
        signature = signature.replace(parameters=params, return_annotation=returned)
    elif isinstance(raw, str) and any(word in raw for word in ("Result", "Ok", "Err")):
        signature = signature.replace(return_annotation=inspect.Signature.empty)
    else:
        signature = signature.replace(return_annotation=_value_type(raw))
    annotations = {p.name: p.annotation for p in signature.parameters.values() if p.annotation is not p.empty}
    if signature.return_annotation is not inspect.Signature.empty:
        annotations["return"] = signature.return_annotation
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.__annotations__ = annotations


Stage = Callable[[Callable[..., Any]], Callable[..., Any]]
"""A runtime stage over a Result-returning tool, e.g. ``clock.retrying(...)`` or ``tool.terse.retry(...)``."""


# The exceptions caught during one call, so the error that ends it can be raised ``from`` its
# cause. One list per call, shared by the tasks a stage may start (they copy the context).
_CAUGHT: contextvars.ContextVar[list[tuple[errors.ToolError, BaseException]] | None] = contextvars.ContextVar(
    "smullyan_adapters_caught", default=None
)


def _cause_of(error: errors.ToolError, caught: list[tuple[errors.ToolError, BaseException]]) -> BaseException | None:
    for seen, exc in reversed(caught):
        if seen is error:
            return exc
    return None


def unwrapping(
    fn: Callable[..., Any],
    on_error: Callable[..., Any],
    classify: Classifier | None = None,
    stage: Stage | None = None,
    *,
    shell: Shell = PLAIN,
    show_exception_messages: bool = False,
    with_arguments: bool = False,
) -> Callable[..., Any]:
    """``fn`` returning its plain value: ``Ok(v)`` gives ``v``; ``Err(e)`` or a raised exception give ``on_error``.

    ``on_error(error, cause)`` gets the error and the exception it came from
    (None for a returned ``Err``), and the call's positional arguments too
    (``on_error(error, cause, args)``) with ``with_arguments``; it returns
    what the framework should receive, or raises what it expects (``from
    cause``). A plain return value passes through, so the decorated tool may
    return ``Result`` or not; a string has the envelope mark removed
    (:func:`._core.unmark`). An exception ``shell.passes`` (the framework's
    control signals, cancellation) propagates untouched; any other becomes
    ``shell.error_of`` of it (messages withheld unless
    ``show_exception_messages``, logged on the framework's logger).
    ``stage`` (a runtime retry, deadline or fallback stage, or a ``pipe`` of
    them) runs over the Result-returning tool first, so transient errors are
    retried by the runtime's policy before the framework ever sees them.
    ``async def`` stays ``async def`` (and a sync tool under an async clock
    becomes one); the name, docstring, parameters and classification mark are
    kept, and a ``Result[T]`` return annotation becomes ``T``.
    """
    name = getattr(fn, "__name__", "tool")
    passes = shell.passes
    to_error = shell.error_of
    Ok, Err = errors.Ok, errors.Err

    def fail(error: errors.ToolError, cause: BaseException | None, args: tuple[Any, ...]) -> Any:
        return on_error(error, cause, args) if with_arguments else on_error(error, cause)

    def settle(value: object, cause_of: Callable[[errors.ToolError], BaseException | None], args: tuple[Any, ...]) -> Any:
        cls = type(value)
        if cls is Ok:
            plain = value.value  # type: ignore[attr-defined]
            return plain if type(plain) is not str else unmark(plain)
        if cls is Err or isinstance(value, Err):
            error = error_of(value, classify)
            return fail(error, cause_of(error), args)
        if isinstance(value, Ok):
            return unmark(value.value)
        return unmark(value)

    def no_cause(error: errors.ToolError) -> None:
        return None

    if stage is None:
        # One frame around the tool, the cause at hand.
        if is_async_callable(fn):

            @functools.wraps(fn)
            async def async_direct(*args: Any, **kwargs: Any) -> Any:
                try:
                    value = await fn(*args, **kwargs)
                except BaseException as exc:
                    if passes(exc):
                        raise
                    return fail(to_error(exc, classify, show_exception_messages, name), exc, args)
                return settle(value, no_cause, args)

            _retype(async_direct, fn)
            return async_direct

        @functools.wraps(fn)
        def direct(*args: Any, **kwargs: Any) -> Any:
            try:
                value = fn(*args, **kwargs)
            except BaseException as exc:
                if passes(exc):
                    raise
                return fail(to_error(exc, classify, show_exception_messages, name), exc, args)
            return settle(value, no_cause, args)

        _retype(direct, fn)
        return direct

    def caught(exc: BaseException) -> errors.Result[Any]:
        error = to_error(exc, classify, show_exception_messages, name)
        record = _CAUGHT.get()
        if record is not None:
            record.append((error, exc))
        return Err(error)

    attempt: Callable[..., Any]
    if is_async_callable(fn):

        async def async_attempt(*args: Any, **kwargs: Any) -> errors.Result[Any]:
            try:
                value = await fn(*args, **kwargs)
            except BaseException as exc:
                if passes(exc):
                    raise
                return caught(exc)
            return value if isinstance(value, (Ok, Err)) else Ok(value)

        attempt = async_attempt
    else:

        def sync_attempt(*args: Any, **kwargs: Any) -> errors.Result[Any]:
            try:
                value = fn(*args, **kwargs)
            except BaseException as exc:
                if passes(exc):
                    raise
                return caught(exc)
            return value if isinstance(value, (Ok, Err)) else Ok(value)

        attempt = sync_attempt

    # The stage sees the tool itself: its name, and its classification mark
    # (classification_of follows __wrapped__), so the runtime's write rules apply.
    setattr(attempt, "__wrapped__", fn)
    attempt.__name__ = attempt.__qualname__ = name
    staged = attempt if stage is None else stage(attempt)
    if is_async_callable(staged) or is_async_callable(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            record: list[tuple[errors.ToolError, BaseException]] = []
            token = _CAUGHT.set(record)
            try:
                value = staged(*args, **kwargs)
                if inspect.isawaitable(value):
                    value = await value
            finally:
                _CAUGHT.reset(token)
            return settle(value, functools.partial(_cause_of, caught=record), args)

        _retype(async_wrapper, fn)
        return async_wrapper

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        record: list[tuple[errors.ToolError, BaseException]] = []
        token = _CAUGHT.set(record)
        try:
            value = staged(*args, **kwargs)
        finally:
            _CAUGHT.reset(token)
        return settle(value, functools.partial(_cause_of, caught=record), args)

    _retype(wrapper, fn)
    return wrapper
