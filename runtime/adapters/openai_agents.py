"""The OpenAI Agents SDK (``openai-agents`` 0.24): ToolErrors as tool output text, and back.

Tested against ``openai-agents`` 0.24. ``pip install 'smullyan[openai-agents]'``.

The SDK hands the model a failed tool's output as one string, made by the
tool's ``failure_error_function``. :func:`failure_error_function` makes it
:func:`~smullyan.runtime.explain` followed by the JSON envelope on its own
line; :func:`reporting_errors` lets a tool return ``Result`` and report an
``Err`` the same way::

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors
    def get_issue(repo: str, number: int) -> tool.Result[Issue]: ...

:func:`parse` recovers the ToolError from the output (a string, a run's
``ToolCallOutputItem``, or a ``function_call_output`` input item).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar, overload

from smullyan import runtime as tool

from ._envelope import Classifier, Stage, error_of, invalid_args_from_validation, recover, render, unwrapping

try:
    from agents.exceptions import ModelBehaviorError
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.adapters.openai_agents needs the OpenAI Agents SDK: "
        "pip install 'smullyan[openai-agents]'"
    ) from _exc

__all__ = ["failure_error_function", "failure_error_function_using", "error_text", "reporting_errors", "parse"]

F = TypeVar("F", bound=Callable[..., Any])

_INVALID_JSON = "Invalid JSON input for tool"


def error_text(error: tool.ToolError) -> str:
    """What the model reads for ``error``: ``explain(error)``, then the JSON envelope on its own line."""
    return render(error)


def _classify(ctx: Any, error: Exception, classify: Classifier | None) -> tool.ToolError:
    if isinstance(error, ModelBehaviorError) and str(error).startswith(_INVALID_JSON):
        # The SDK could not validate the model's arguments against the tool's schema
        # (it keeps pydantic's details only when it may log tool data).
        cause = error.__cause__
        found = invalid_args_from_validation(cause) if cause is not None else None
        arguments = getattr(ctx, "tool_arguments", None)
        return found or tool.invalid_args(
            "arguments",
            "JSON arguments matching the tool's parameters",
            arguments if isinstance(arguments, str) else str(error),
        )
    return error_of(error, classify)


def failure_error_function(ctx: Any, error: Exception) -> str:
    """A ``failure_error_function`` for ``function_tool``: the exception as a ToolError, for the model.

    A ``ToolFailure`` gives its own error; the SDK's own "Invalid JSON input"
    error (the model's arguments did not match the schema) becomes
    ``InvalidArgs``; anything else goes through ``from_exception``.
    """
    return render(_classify(ctx, error, None))


def failure_error_function_using(classify: Classifier) -> Callable[[Any, Exception], str]:
    """:func:`failure_error_function` with your own exception classifier."""

    def failure(ctx: Any, error: Exception) -> str:
        return render(_classify(ctx, error, classify))

    return failure


def _raise(error: tool.ToolError) -> NoReturn:
    raise tool.ToolFailure(error)


@overload
def reporting_errors(fn: F, /, *, classify: Classifier | None = None, retrying: Stage | None = None) -> F: ...
@overload
def reporting_errors(
    fn: None = None, /, *, classify: Classifier | None = None, retrying: Stage | None = None
) -> Callable[[F], F]: ...
def reporting_errors(
    fn: F | None = None, /, *, classify: Classifier | None = None, retrying: Stage | None = None
) -> F | Callable[[F], F]:
    """Decorate a tool that returns ``Result``: ``Ok(v)`` gives ``v``; ``Err(e)`` is raised as ``ToolFailure(e)``.

    The SDK then reports it through the tool's ``failure_error_function``
    (use :func:`failure_error_function`), so the run's trace marks the call
    failed and the model reads the explanation. An exception the tool raises
    is classified here (``classify``, default ``from_exception``), so a custom
    classifier applies. ``retrying`` is a runtime stage run over the tool
    first, so transient errors are retried by the runtime's policy. A
    ``Result[T]`` return annotation is shown to the SDK as ``T``. Put it
    under ``@function_tool(...)``.
    """

    def decorate(f: F) -> F:
        return unwrapping(f, _raise, classify, retrying)  # type: ignore[return-value]

    return decorate if fn is None else decorate(fn)


def parse(output: object) -> tool.ToolError | None:
    """The ToolError a tool's output carries, or None.

    ``output`` is the string the model received, a ``ToolCallOutputItem``
    from a run's ``new_items`` (its ``output``), or a ``function_call_output``
    input item (a mapping with ``"output"``).
    """
    if isinstance(output, Mapping):
        output = output.get("output")
    elif not isinstance(output, str) and hasattr(output, "output"):
        output = output.output
    return recover(output)
