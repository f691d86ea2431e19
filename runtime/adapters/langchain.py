"""LangChain (``langchain-core`` 1.x): ToolErrors as error ToolMessages, and back.

Tested against ``langchain-core`` 1.8. ``pip install 'smullyan[langchain]'``.

A LangChain tool that raises a ``ToolException`` answers the call with a
``ToolMessage`` whose ``status`` is ``"error"`` and whose content is what the
tool's ``handle_tool_error`` makes of the exception. Here:

- :class:`ToolErrorException` is a ``ToolException`` carrying a ToolError
  (and a ``ToolFailure``, so the runtime reads it back unchanged);
- :func:`handle_tool_error` makes the content :func:`~smullyan.runtime.explain`
  followed by the JSON envelope on its own line;
- :func:`handle_validation_error` makes arguments the tool's schema refuses an
  ``InvalidArgs`` the same way (LangChain's default says only "Tool input
  validation error");
- :func:`reporting_errors` lets a tool function return ``Result``, raising
  ``ToolErrorException`` for an ``Err`` or an exception;
- :func:`structured_tool` does all of it in one call, and with
  ``response_format="content_and_artifact"`` the error message's content is the
  explanation alone and the envelope travels as its ``artifact``;
- :func:`parse` recovers the ToolError from a ``ToolMessage``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar, overload

from smullyan import runtime as tool

from ._envelope import Classifier, Stage, error_of, invalid_args_from_validation, recover, render, unwrapping

try:
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import StructuredTool, ToolException
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.adapters.langchain needs langchain-core 1.x: pip install 'smullyan[langchain]'"
    ) from _exc

__all__ = [
    "ToolErrorException",
    "handle_tool_error",
    "handle_validation_error",
    "reporting_errors",
    "structured_tool",
    "error_message",
    "parse",
]

F = TypeVar("F", bound=Callable[..., Any])


class ToolErrorException(ToolException, tool.ToolFailure):
    """A ``ToolException`` carrying a ToolError; its message is explain + the envelope line.

    So even a tool with ``handle_tool_error=True`` (which sends the message
    as it is) gives the model the explanation and a program the envelope.
    """

    def __init__(self, error: tool.ToolError) -> None:
        Exception.__init__(self, render(error))
        self.error: tool.ToolError = error

    def __str__(self) -> str:
        return render(self.error)


def _error_of_exception(exc: BaseException) -> tool.ToolError:
    if isinstance(exc, tool.ToolFailure):
        return exc.error
    found = invalid_args_from_validation(exc)
    if found is not None:
        return found
    return error_of(exc) if isinstance(exc, Exception) else tool.unknown(type(exc).__name__)


def handle_tool_error(exc: ToolException) -> str:
    """A ``handle_tool_error`` callable: the content of the error ToolMessage.

    A :class:`ToolErrorException` gives its own error; any other
    ``ToolException`` goes through ``from_exception`` (``Unknown`` with its
    message).
    """
    return render(_error_of_exception(exc))


def handle_validation_error(exc: Exception) -> str:
    """A ``handle_validation_error`` callable: arguments the schema refused, as ``InvalidArgs``."""
    found = invalid_args_from_validation(exc)
    return render(found or tool.invalid_args("arguments", "arguments matching the tool's schema", str(exc)))


def _raise(error: tool.ToolError) -> NoReturn:
    raise ToolErrorException(error)


@overload
def reporting_errors(fn: F, /, *, classify: Classifier | None = None, retrying: Stage | None = None) -> F: ...
@overload
def reporting_errors(
    fn: None = None, /, *, classify: Classifier | None = None, retrying: Stage | None = None
) -> Callable[[F], F]: ...
def reporting_errors(
    fn: F | None = None, /, *, classify: Classifier | None = None, retrying: Stage | None = None
) -> F | Callable[[F], F]:
    """Decorate a tool function: ``Ok(v)`` gives ``v``; an ``Err`` or an exception raises :class:`ToolErrorException`.

    The tool must handle it: give it ``handle_tool_error=handle_tool_error``
    (or use :func:`structured_tool`, which does). ``retrying`` is a runtime
    stage run over the tool first, so transient errors are retried by the
    runtime's policy. ``classify`` maps exceptions (default
    ``from_exception``). A ``Result[T]`` return annotation is shown to
    LangChain as ``T``. Put it under ``@tool``.
    """

    def decorate(f: F) -> F:
        return unwrapping(f, _raise, classify, retrying, passing=(ToolException,))  # type: ignore[return-value]

    return decorate if fn is None else decorate(fn)


class _ReportingTool(StructuredTool):
    """A StructuredTool whose error ToolMessages carry the envelope as their artifact.

    LangChain builds the error message without an artifact, whatever the
    tool's ``response_format``; for ``content_and_artifact`` this moves the
    envelope from the text to the artifact, leaving the explanation as content.
    """

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return _with_artifact(super().run(*args, **kwargs), self.response_format)

    async def arun(self, *args: Any, **kwargs: Any) -> Any:
        return _with_artifact(await super().arun(*args, **kwargs), self.response_format)


def _with_artifact(output: Any, response_format: str) -> Any:
    if (
        response_format != "content_and_artifact"
        or not isinstance(output, ToolMessage)
        or output.status != "error"
        or output.artifact is not None
    ):
        return output
    error = recover(output.content)
    if error is None:
        return output
    return output.model_copy(update={"content": tool.explain(error), "artifact": tool.dump(error)})


def structured_tool(
    fn: Callable[..., Any],
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    **kwargs: Any,
) -> StructuredTool:
    """A LangChain tool of ``fn`` (sync or ``async def``) that reports ToolErrors.

    ``fn`` may return ``Result``; errors become error ToolMessages as
    :func:`reporting_errors` and :func:`handle_tool_error` describe, and
    arguments the schema refuses become ``InvalidArgs``. ``kwargs`` go to
    ``StructuredTool.from_function`` (``name``, ``description``,
    ``response_format``, ``args_schema`` ...).
    """
    wrapped = reporting_errors(fn, classify=classify, retrying=retrying)
    kwargs.setdefault("handle_tool_error", handle_tool_error)
    kwargs.setdefault("handle_validation_error", handle_validation_error)
    if tool.is_async_callable(wrapped):
        return _ReportingTool.from_function(coroutine=wrapped, **kwargs)
    return _ReportingTool.from_function(func=wrapped, **kwargs)


def error_message(
    error: tool.ToolError, tool_call_id: str, *, name: str | None = None, artifact: bool = False
) -> ToolMessage:
    """An error ``ToolMessage`` for ``error``, for a loop that answers tool calls itself.

    ``artifact=False``: content is explain + the envelope line.
    ``artifact=True``: content is the explanation, the envelope is the artifact.
    """
    if artifact:
        return ToolMessage(
            tool.explain(error), tool_call_id=tool_call_id, name=name, status="error", artifact=tool.dump(error)
        )
    return ToolMessage(render(error), tool_call_id=tool_call_id, name=name, status="error")


def _text(content: object) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [
            block if isinstance(block, str) else str(block.get("text", ""))
            for block in content
            if isinstance(block, str) or (isinstance(block, Mapping) and block.get("type") == "text")
        ]
        return "\n".join(parts)
    return None


def parse(message: object) -> tool.ToolError | None:
    """The ToolError an error ``ToolMessage`` carries (artifact first, then text), or None.

    Also takes the message text itself, or a :class:`ToolErrorException`. A
    ``ToolMessage`` whose status is not ``"error"`` gives None.
    """
    if isinstance(message, tool.ToolFailure):
        return message.error
    if isinstance(message, str):
        return recover(message)
    if not isinstance(message, ToolMessage) or message.status != "error":
        return None
    if message.artifact is not None:
        found = tool.parse(message.artifact)
        if found is not None:
            return found
    return recover(_text(message.content))
