"""The OpenAI Agents SDK (``openai-agents`` 0.24): ToolErrors as tool output text, and back.

Tested against ``openai-agents`` 0.24. ``pip install 'smullyan[openai-agents]'``.

The SDK hands the model a failed tool's output as one string, made by the
tool's ``failure_error_function`` (and, for a tool timeout, its
``timeout_error_function``). :func:`failure_error_function` makes it
:func:`~smullyan.runtime.explain` followed by the envelope line (bounded,
sanitised, marked so no successful output can pass for it);
:func:`reporting_errors` lets a tool return ``Result`` and report an ``Err``
the same way::

    @function_tool(failure_error_function=agents_errors.failure_error_function,
                   timeout=5, timeout_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors
    def get_issue(repo: str, number: int) -> tool.Result[Issue]: ...

The SDK's own signals (guardrail tripwires, ``MaxTurnsExceeded``,
``UserError``) and cancellation pass through; its tool timeout becomes
``Timeout``, its argument-validation error ``InvalidArgs``. An exception's own
text is withheld from the model and logged, with the traceback, on
``openai.agents`` at ERROR. :func:`parse` recovers the ToolError from the output (a
string, a run's ``ToolCallOutputItem``, or a ``function_call_output`` input item).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar, overload

from .. import _errors as tool
from ._core import Shell
from ._envelope import Classifier, Stage, invalid_args_from_validation, is_validation_error, recover, render, unwrapping

try:
    import agents.exceptions  # noqa: F401  (the SDK must be there; its classes are matched by name)
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.adapters.openai_agents needs the OpenAI Agents SDK: "
        "pip install 'smullyan[openai-agents]'"
    ) from _exc

__all__ = [
    "SHELL",
    "ErrorText",
    "failure_error_function",
    "failure_error_function_using",
    "error_text",
    "reporting_errors",
    "parse",
]

F = TypeVar("F", bound=Callable[..., Any])


class ErrorText(str):
    """The text the model reads for a failed call, carrying the ToolError it renders.

    A ``str``, so the SDK sends it as it is; :func:`parse` of a run item whose
    ``output`` is one reads ``.error`` without reading the text.
    """

    __slots__ = ("error",)
    error: tool.ToolError

    def __new__(cls, error: tool.ToolError) -> ErrorText:
        text = super().__new__(cls, render(error))
        found = recover(str(text))
        text.error = found if found is not None else error
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (ErrorText, (self.error,))


def _timeout(exc: BaseException) -> tool.ToolError:
    seconds = getattr(exc, "timeout_seconds", 0)
    return tool.Timeout(max(0, round(float(seconds) * 1000)) if isinstance(seconds, (int, float)) else 0)


def _invalid_arguments(exc: BaseException) -> tool.ToolError:
    """The SDK could not read the model's arguments (``ModelBehaviorError`` around pydantic or JSON)."""
    cause = exc.__cause__
    if cause is not None and is_validation_error(cause):
        found = invalid_args_from_validation(cause)
        if found is not None:
            return found
    if isinstance(cause, json.JSONDecodeError):
        return tool.InvalidArgs("arguments", "a JSON object of the tool's parameters", "text that is no JSON")
    return tool.InvalidArgs("arguments", "JSON arguments matching the tool's parameters", None)


SHELL = Shell(
    "openai-agents",
    signals=(
        "agents.exceptions.InputGuardrailTripwireTriggered",
        "agents.exceptions.OutputGuardrailTripwireTriggered",
        "agents.exceptions.ToolInputGuardrailTripwireTriggered",
        "agents.exceptions.ToolOutputGuardrailTripwireTriggered",
        "agents.exceptions.MaxTurnsExceeded",
        "agents.exceptions.UserError",
        "agents.exceptions.MCPToolCancellationError",
        "agents.tool._FunctionToolCancelledError",  # the SDK's Exception around a CancelledError
        "agents.run_internal.run_loop._ToolTaskCancellation",
    ),
    known={
        "agents.exceptions.ToolTimeoutError": _timeout,
        "agents.exceptions.ModelBehaviorError": _invalid_arguments,
    },
    # The SDK logs a handled failure at ERROR only with OPENAI_AGENTS_DONT_LOG_TOOL_DATA=0 (then twice).
    logger="openai.agents",
)
"""What passes through an Agents SDK tool untouched, and what the SDK's own exceptions become."""


def error_text(error: tool.ToolError) -> str:
    """What the model reads for ``error``: ``explain(error)``, then the marked envelope line."""
    return ErrorText(error)


def _signal(error: Exception) -> BaseException | None:
    """The exception to re-raise when the SDK handed a control signal to the failure function."""
    if not SHELL.passes(error):
        return None
    return getattr(error, "cancelled_error", None) or error


def failure_error_function_using(
    classify: Classifier | None = None, *, show_exception_messages: bool = False
) -> Callable[[Any, Exception], str]:
    """:func:`failure_error_function` with your own exception classifier, or showing exception text."""

    def failure(ctx: Any, error: Exception) -> str:
        signal = _signal(error)
        if signal is not None:
            raise signal
        name = getattr(ctx, "tool_name", None)
        return ErrorText(
            SHELL.error_of(error, classify, show_exception_messages, name if isinstance(name, str) else "tool")
        )

    return failure


_DEFAULT_FAILURE = failure_error_function_using()


def failure_error_function(ctx: Any, error: Exception) -> str:
    """A ``failure_error_function`` (and ``timeout_error_function``) for ``function_tool``.

    A ``ToolFailure`` gives its own error; the SDK's tool timeout
    (``ToolTimeoutError``) becomes ``Timeout``; its argument-validation
    error (``ModelBehaviorError``) ``InvalidArgs``; a control signal
    (guardrail tripwire, cancellation) is raised again, so the run stops as it
    would without this function; anything else is ``from_exception`` of it,
    its text withheld.
    """
    return _DEFAULT_FAILURE(ctx, error)


def _raise(error: tool.ToolError, cause: BaseException | None) -> NoReturn:
    raise tool.ToolFailure(error) from cause


@overload
def reporting_errors(
    fn: F,
    /,
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
) -> F: ...
@overload
def reporting_errors(
    fn: None = None,
    /,
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
) -> Callable[[F], F]: ...
def reporting_errors(
    fn: F | None = None,
    /,
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
) -> F | Callable[[F], F]:
    """Decorate a tool that returns ``Result``: ``Ok(v)`` gives ``v``; ``Err(e)`` is raised as ``ToolFailure(e)``.

    The SDK then reports it through the tool's ``failure_error_function``
    (use :func:`failure_error_function`), so the run's trace marks the call
    failed and the model reads the explanation. An exception the tool raises
    is classified here (``classify``, default ``from_exception`` with its text
    withheld unless ``show_exception_messages``) and raised as a
    ``ToolFailure`` ``from`` it, so the SDK's log shows the original. The
    SDK's signals and cancellation pass through. ``retrying`` is a runtime
    stage run over the tool first, so transient errors are retried by the
    runtime's policy. A ``Result[T]`` return annotation is shown to the SDK as
    ``T``. Put it under ``@function_tool(...)``.
    """

    def decorate(f: F) -> F:
        return unwrapping(  # type: ignore[return-value]
            f, _raise, classify, retrying, shell=SHELL, show_exception_messages=show_exception_messages
        )

    return decorate if fn is None else decorate(fn)


def parse(output: object) -> tool.ToolError | None:
    """The ToolError a tool's output carries, or None.

    ``output`` is the string the model received, a ``ToolCallOutputItem``
    from a run's ``new_items`` (its ``output``), or a ``function_call_output``
    input item (a mapping with ``"output"``). Only text exactly as
    :func:`failure_error_function` writes it counts: a successful output that
    ends in something like an envelope gives None.
    """
    if isinstance(output, Mapping):
        output = output.get("output")
    elif not isinstance(output, str) and hasattr(output, "output"):
        output = output.output
    if isinstance(output, ErrorText):
        return output.error
    return recover(output)
