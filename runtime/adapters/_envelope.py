"""What every adapter shares: the text a model reads, the envelope a program parses.

Standard library and the runtime's public names only; no framework here.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, Union

from smullyan import runtime as tool

__all__ = ["Classifier", "error_of", "render", "recover", "invalid_args_from_validation", "unwrapping"]

Classifier = Callable[[Exception], "tool.ToolError"]
"""Turns an exception raised by a tool into a ToolError (default: ``from_exception``)."""

_VARIANTS: tuple[type, ...] = (
    tool.RateLimited,
    tool.InvalidArgs,
    tool.NotFound,
    tool.Timeout,
    tool.Unavailable,
    tool.Denied,
    tool.Unknown,
)

F = TypeVar("F", bound=Callable[..., Any])


def is_tool_error(value: object) -> bool:
    """True for an instance of one of the seven variants."""
    return isinstance(value, _VARIANTS)


def error_of(value: object, classify: Classifier | None = None) -> tool.ToolError:
    """The ToolError that ``value`` (a ToolError, an ``Err``, or an exception) stands for.

    A ``ToolFailure`` gives its own error, whatever ``classify`` is; any other
    exception goes through ``classify`` (default ``from_exception``), which
    must not raise: if it does, the error is ``Unknown`` naming both.
    """
    if is_tool_error(value):
        return value  # type: ignore[return-value]
    if isinstance(value, tool.Err) and is_tool_error(value.error):
        return value.error  # type: ignore[no-any-return]
    if isinstance(value, tool.ToolFailure):
        return value.error
    if isinstance(value, Exception):
        if classify is None:
            return tool.from_exception(value)
        try:
            return classify(value)
        except Exception as exc:
            return tool.unknown(
                f"{type(value).__name__} (the classifier raised {type(exc).__name__})", value
            )
    return tool.unknown(f"not a tool error: {type(value).__name__}")


def render(error: tool.ToolError) -> str:
    """The text for a framework that carries only text: the explanation, then the envelope.

    ``explain`` is one line (every embedded field is cleaned of line breaks),
    so the JSON envelope is always the last line, where :func:`recover` finds it.
    """
    return f"{tool.explain(error)}\n{tool.dump_json(error)}"


def recover(text: object) -> tool.ToolError | None:
    """The ToolError on the last line of ``text`` (as :func:`render` writes it), or None."""
    if not isinstance(text, str):
        return None
    last = text.rstrip().rpartition("\n")[2].strip()
    if not last.startswith("{"):
        return None
    return tool.parse_json(last)


def invalid_args_from_validation(exc: BaseException) -> tool.ToolError | None:
    """``InvalidArgs`` for a pydantic ``ValidationError`` (read by duck typing), else None.

    The first error names the path (``loc`` joined by dots), what was expected
    (pydantic's ``msg``) and what came (``input``).
    """
    errors = getattr(exc, "errors", None)
    if not callable(errors) or not type(exc).__name__.endswith("ValidationError"):
        return None
    try:
        details = errors()
        first = details[0]
        loc = first.get("loc") or ()
        path = ".".join(str(part) for part in loc) or "arguments"
        expected = str(first.get("msg") or "a valid value")
        got = first.get("input")
    except Exception:
        return None
    more = len(details) - 1
    if more > 0:
        expected += f" (and {more} more error{'s' if more > 1 else ''})"
    return tool.invalid_args(path, expected, _plain(got))


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
        oks = [a for a in args if a is tool.Ok or typing.get_origin(a) is tool.Ok]
        errs = [a for a in args if a is tool.Err or typing.get_origin(a) is tool.Err]
        if not oks and not errs:
            return annotation
        rest = [a for a in args if a not in oks and a not in errs]
        values = [_value_type(a) for a in oks] + rest
        if not values or inspect.Signature.empty in values:
            return inspect.Signature.empty
        return values[0] if len(values) == 1 else Union[tuple(values)]
    if origin is tool.Ok:
        (value,) = typing.get_args(annotation)
        return value
    if annotation is tool.Ok or annotation is tool.Err or origin is tool.Err:
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
"""A runtime stage over a Result-returning tool, e.g. ``clock.retrying(...)`` or ``tool.retry(...)``."""


def unwrapping(
    fn: Callable[..., Any],
    on_error: Callable[[tool.ToolError], Any],
    classify: Classifier | None = None,
    stage: Stage | None = None,
    passing: tuple[type[Exception], ...] = (),
) -> Callable[..., Any]:
    """``fn`` returning its plain value: ``Ok(v)`` gives ``v``; ``Err(e)`` or a raised exception give ``on_error(e)``.

    ``on_error`` returns what the framework should receive, or raises what it
    expects. A plain return value passes through, so the decorated tool may
    return ``Result`` or not. ``stage`` (a runtime retry, deadline or
    fallback stage, or a ``pipe`` of them) runs over the Result-returning
    tool first, so transient errors are retried by the runtime's policy
    before the framework ever sees them. ``async def`` stays ``async def``
    (and a sync tool under an async clock becomes one); the name,
    docstring, parameters and classification mark are kept, and a
    ``Result[T]`` return annotation becomes ``T``. Exceptions of the types in
    ``passing`` (the framework's own signals) propagate untouched.
    """

    def settle(value: object) -> Any:
        if isinstance(value, tool.Ok):
            return value.value
        if isinstance(value, tool.Err):
            return on_error(error_of(value, classify))
        return value

    def as_result(value: object) -> tool.Result[Any]:
        if isinstance(value, (tool.Ok, tool.Err)):
            return value
        return tool.Ok(value)

    attempt: Callable[..., Any]
    if tool.is_async_callable(fn):

        async def async_attempt(*args: Any, **kwargs: Any) -> tool.Result[Any]:
            try:
                return as_result(await fn(*args, **kwargs))
            except passing:
                raise
            except Exception as exc:
                return tool.Err(error_of(exc, classify))

        attempt = async_attempt
    else:

        def sync_attempt(*args: Any, **kwargs: Any) -> tool.Result[Any]:
            try:
                return as_result(fn(*args, **kwargs))
            except passing:
                raise
            except Exception as exc:
                return tool.Err(error_of(exc, classify))

        attempt = sync_attempt

    # The stage sees the tool itself: its name, and its classification mark
    # (classification_of follows __wrapped__), so the runtime's write rules apply.
    setattr(attempt, "__wrapped__", fn)
    attempt.__name__ = attempt.__qualname__ = getattr(fn, "__name__", "tool")
    staged = attempt if stage is None else stage(attempt)
    if tool.is_async_callable(staged) or tool.is_async_callable(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            value = staged(*args, **kwargs)
            if inspect.isawaitable(value):
                value = await value
            return settle(value)

        _retype(async_wrapper, fn)
        return async_wrapper

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return settle(staged(*args, **kwargs))

    _retype(wrapper, fn)
    return wrapper
