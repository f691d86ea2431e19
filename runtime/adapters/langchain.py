"""LangChain (``langchain-core`` 1.x, LangGraph 1.x): ToolErrors as error ToolMessages, and back.

Tested against ``langchain-core`` 1.8 and ``langgraph`` 1.2. ``pip install 'smullyan[langchain]'``.

A LangChain tool that raises a ``ToolException`` answers the call with a
``ToolMessage`` whose ``status`` is ``"error"`` and whose content is what the
tool's ``handle_tool_error`` makes of the exception. Here:

- :class:`ToolErrorException` is a ``ToolException`` carrying a ToolError
  (and a ``ToolFailure``, so the runtime reads it back unchanged);
- :func:`handle_tool_error` makes the content :func:`~smullyan.runtime.explain`
  followed by the envelope line (bounded, sanitised and marked);
- :func:`handle_validation_error` makes arguments the tool's schema refuses an
  ``InvalidArgs`` the same way (LangChain's default says only "Tool input
  validation error"), never showing an injected argument's value;
- :func:`reporting_errors` lets a tool function return ``Result``, raising
  ``ToolErrorException`` for an ``Err`` or an exception (its text withheld);
- :func:`structured_tool` does all of it in one call, and with
  ``response_format="content_and_artifact"`` the error message's content is the
  explanation alone and the envelope travels as its ``artifact``;
- :func:`parse` recovers the ToolError from a ``ToolMessage``.

LangGraph's control signals (``interrupt()``'s ``GraphInterrupt``, a
``Command`` for the parent graph) and cancellation pass through untouched; a
returned ``Command`` is returned as it is. Retries: ``structured_tool(...).with_retry(...)``
retries a transient error (``RateLimited``, ``Timeout``, ``Unavailable``) the
configured number of times and then answers with the error ToolMessage; under
``ToolRetryMiddleware``, build the tool with ``raise_transient=True`` (a
transient error is then raised as :class:`TransientToolError` for the
middleware to retry) and give the middleware
``retry_on=(TransientToolError,)`` and ``on_failure=retry_failure``.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, NoReturn, TypeVar, overload

from .. import _errors as tool
from .._tools import is_async_callable
from .._explain import explain
from .._wire import parse as parse_wire
from ._core import Shell, is_transient
from ._envelope import Classifier, Stage, invalid_args_from_validation, recover, render, unwrapping, wire

try:
    from langchain_core.messages import ToolMessage
    from langchain_core.runnables import Runnable, RunnableLambda
    from langchain_core.tools import StructuredTool, ToolException
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.adapters.langchain needs langchain-core 1.x: pip install 'smullyan[langchain]'"
    ) from _exc

__all__ = [
    "SHELL",
    "ToolErrorException",
    "TransientToolError",
    "retry_failure",
    "handle_tool_error",
    "handle_validation_error",
    "reporting_errors",
    "structured_tool",
    "error_message",
    "parse",
]

F = TypeVar("F", bound=Callable[..., Any])

SHELL = Shell(
    "langchain",
    signals=(
        "langgraph.errors.GraphBubbleUp",  # GraphInterrupt (interrupt()), ParentCommand (Command.PARENT)
        "langchain_core.tools.base.ToolException",  # the tool's own message for the model: LangChain reports it
    ),
    logger="langchain_core.tools",
)
"""What passes through a LangChain tool untouched, and where its failures are logged."""

# Set while a tool runs under ``_ReportingTool.with_retry``: a transient error is raised for it to retry.
_RETRYING: contextvars.ContextVar[bool] = contextvars.ContextVar("smullyan_langchain_retrying", default=False)


class ToolErrorException(ToolException, tool.ToolFailure):
    """A ``ToolException`` carrying a ToolError; its message is explain + the envelope line.

    So even a tool with ``handle_tool_error=True`` (which sends the message
    as it is) gives the model the explanation and a program the envelope.
    It copies and pickles (it is rebuilt from its error).
    """

    def __init__(self, error: tool.ToolError) -> None:
        Exception.__init__(self, render(error))
        self.error: tool.ToolError = error

    def __str__(self) -> str:
        return render(self.error)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.error,))


class TransientToolError(tool.ToolFailure):
    """A transient ToolError raised for a retry to catch (``with_retry``, ``ToolRetryMiddleware``).

    No ``ToolException``, so the tool's ``handle_tool_error`` leaves it to the
    retry; its message is explain + the envelope line, like
    :class:`ToolErrorException`.
    """

    def __str__(self) -> str:
        return render(self.error)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.error,))


def _error_of_exception(exc: BaseException) -> tool.ToolError:
    if isinstance(exc, tool.ToolFailure):
        return exc.error
    found = invalid_args_from_validation(exc)
    if found is not None:
        return found
    if isinstance(exc, ToolException):
        # The tool raised it with a message for the model, as LangChain means it: shown, bounded.
        return tool.Unknown(str(exc) or type(exc).__name__)
    return SHELL.error_of(exc)


def handle_tool_error(exc: ToolException) -> str:
    """A ``handle_tool_error`` callable: the content of the error ToolMessage.

    A :class:`ToolErrorException` gives its own error; any other
    ``ToolException`` is ``Unknown`` with its message (LangChain's convention:
    a ``ToolException``'s message is written for the model), bounded and
    sanitised.
    """
    return render(_error_of_exception(exc))


def retry_failure(exc: Exception) -> str:
    """An ``on_failure`` for ``ToolRetryMiddleware``: the error ToolMessage's content when retries run out."""
    return render(_error_of_exception(exc))


def _validation_error(exc: Exception, visible: Collection[str] | None) -> tool.ToolError:
    found = invalid_args_from_validation(exc, visible)
    return found or tool.invalid_args("arguments", "arguments matching the tool's schema", None)


def handle_validation_error(exc: Exception) -> str:
    """A ``handle_validation_error`` callable: arguments the schema refused, as ``InvalidArgs``.

    This one does not know the tool, so it cannot tell an injected argument
    from one the model sent; :func:`structured_tool` gives each tool a handler
    that does (``got`` never shows an injected value).
    """
    return render(_validation_error(exc, None))


def _visible_arguments(t: Any) -> frozenset[str] | None:
    """The argument names the model sees (``tool_call_schema``): injected ones are not among them."""
    try:
        schema = t.tool_call_schema
        if isinstance(schema, Mapping):
            return frozenset(schema.get("properties", {}))
        return frozenset(schema.model_fields)
    except Exception:
        return None


def _raise(error: tool.ToolError, cause: BaseException | None) -> NoReturn:
    raise ToolErrorException(error) from cause


def _raise_transient(error: tool.ToolError, cause: BaseException | None) -> NoReturn:
    if is_transient(error):
        raise TransientToolError(error) from cause
    raise ToolErrorException(error) from cause


def _raise_transient_when_retrying(error: tool.ToolError, cause: BaseException | None) -> NoReturn:
    if _RETRYING.get() and is_transient(error):
        raise TransientToolError(error) from cause
    raise ToolErrorException(error) from cause


@overload
def reporting_errors(
    fn: F,
    /,
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
    raise_transient: bool = False,
) -> F: ...
@overload
def reporting_errors(
    fn: None = None,
    /,
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
    raise_transient: bool = False,
) -> Callable[[F], F]: ...
def reporting_errors(
    fn: F | None = None,
    /,
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
    raise_transient: bool = False,
) -> F | Callable[[F], F]:
    """Decorate a tool function: ``Ok(v)`` gives ``v``; an ``Err`` or an exception raises :class:`ToolErrorException`.

    The tool must handle it: give it ``handle_tool_error=handle_tool_error``
    (or use :func:`structured_tool`, which does). ``retrying`` is a runtime
    stage run over the tool first, so transient errors are retried by the
    runtime's policy. ``classify`` maps exceptions (default
    ``from_exception``, the text withheld unless ``show_exception_messages``;
    the traceback is logged on ``langchain_core.tools`` at ERROR). LangGraph's
    signals, a ``ToolException`` the tool raises itself and cancellation pass
    through. ``raise_transient=True`` raises a transient error as
    :class:`TransientToolError` instead, for ``ToolRetryMiddleware`` to retry.
    A ``Result[T]`` return annotation is shown to LangChain as ``T``. Put it
    under ``@tool``.
    """
    on_error = _raise_transient if raise_transient else _raise_transient_when_retrying

    def decorate(f: F) -> F:
        return unwrapping(  # type: ignore[return-value]
            f, on_error, classify, retrying, shell=SHELL, show_exception_messages=show_exception_messages
        )

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

    def with_retry(
        self,
        *,
        retry_if_exception_type: Any = (TransientToolError,),
        stop_after_attempt: int = 3,
        **kwargs: Any,
    ) -> Runnable[Any, Any]:
        """LangChain's ``with_retry``, over the transient errors this tool reports.

        A ``RateLimited``, ``Timeout`` or ``Unavailable`` error is raised (as
        :class:`TransientToolError`) inside the retry, so it runs
        ``stop_after_attempt`` attempts; when they run out, the answer is the
        error ToolMessage (or text) the tool gives without a retry. Any other
        error is answered at once: retrying cannot change it.
        """
        retried = super().with_retry(
            retry_if_exception_type=retry_if_exception_type, stop_after_attempt=stop_after_attempt, **kwargs
        )

        def last_answer(exc: TransientToolError, value: Any) -> Any:
            return _error_output(self, value, exc.error)

        def invoke(value: Any, config: Any = None) -> Any:
            token = _RETRYING.set(True)
            try:
                return retried.invoke(value, config)
            except TransientToolError as exc:
                return last_answer(exc, value)
            finally:
                _RETRYING.reset(token)

        async def ainvoke(value: Any, config: Any = None) -> Any:
            token = _RETRYING.set(True)
            try:
                return await retried.ainvoke(value, config)
            except TransientToolError as exc:
                return last_answer(exc, value)
            finally:
                _RETRYING.reset(token)

        return RunnableLambda(invoke, afunc=ainvoke, name=f"{self.name}_with_retry")


def _error_output(t: StructuredTool, value: Any, error: tool.ToolError) -> Any:
    """What ``t`` answers for ``value`` when it fails with ``error`` (a ToolMessage for a tool call)."""
    artifact = t.response_format == "content_and_artifact"
    if isinstance(value, Mapping) and value.get("type") == "tool_call" and value.get("id") is not None:
        return error_message(error, str(value["id"]), name=t.name, artifact=artifact)
    return render(error)


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
    content, artifact = _explained(error)
    return output.model_copy(update={"content": content, "artifact": artifact})


def _explained(error: tool.ToolError) -> tuple[str, dict[str, object]]:
    """The explanation and the envelope of a structured channel, both bounded."""
    envelope = wire(error)
    shown = parse_wire(envelope)
    return explain(shown if shown is not None else error), envelope


def structured_tool(
    fn: Callable[..., Any],
    *,
    classify: Classifier | None = None,
    retrying: Stage | None = None,
    show_exception_messages: bool = False,
    raise_transient: bool = False,
    **kwargs: Any,
) -> StructuredTool:
    """A LangChain tool of ``fn`` (sync or ``async def``) that reports ToolErrors.

    ``fn`` may return ``Result``; errors become error ToolMessages as
    :func:`reporting_errors` and :func:`handle_tool_error` describe, and
    arguments the schema refuses become ``InvalidArgs``. ``kwargs`` go to
    ``StructuredTool.from_function`` (``name``, ``description``,
    ``response_format``, ``args_schema`` ...). Its ``with_retry`` retries
    transient errors; ``raise_transient=True`` raises them for
    ``ToolRetryMiddleware`` (see :func:`reporting_errors`).
    """
    wrapped = reporting_errors(
        fn,
        classify=classify,
        retrying=retrying,
        show_exception_messages=show_exception_messages,
        raise_transient=raise_transient,
    )
    kwargs.setdefault("handle_tool_error", handle_tool_error)
    own_validation = "handle_validation_error" not in kwargs
    kwargs.setdefault("handle_validation_error", handle_validation_error)
    if is_async_callable(wrapped):
        made = _ReportingTool.from_function(coroutine=wrapped, **kwargs)
    else:
        made = _ReportingTool.from_function(func=wrapped, **kwargs)
    if own_validation:
        visible = _visible_arguments(made)
        made.handle_validation_error = lambda exc: render(_validation_error(exc, visible))
    return made


def error_message(
    error: tool.ToolError, tool_call_id: str, *, name: str | None = None, artifact: bool = False
) -> ToolMessage:
    """An error ``ToolMessage`` for ``error``, for a loop that answers tool calls itself.

    ``artifact=False``: content is explain + the envelope line.
    ``artifact=True``: content is the explanation, the envelope is the artifact.
    """
    if artifact:
        content, envelope = _explained(error)
        return ToolMessage(content, tool_call_id=tool_call_id, name=name, status="error", artifact=envelope)
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
        found = parse_wire(message.artifact)
        if found is not None:
            return found
    return recover(_text(message.content))
