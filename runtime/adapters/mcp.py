"""The official MCP Python SDK (``mcp`` 2.x): ToolErrors as error tool results, and back.

Tested against ``mcp`` 2.3 (the server class is ``mcp.server.mcpserver.MCPServer``
and the wire types have snake_case fields: ``is_error``, ``structured_content``,
``read_only_hint``). ``pip install 'smullyan[mcp]'``.

Server side::

    server = MCPServer("issues")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    @mcp_errors.reporting_errors
    def get_issue(repo: str, number: int) -> tool.Result[Issue]:
        ...

A returned ``Err`` or a raised exception becomes a ``CallToolResult`` with
``is_error`` set, the explanation as its text content and the wire envelope
as its structured content, both bounded and sanitised. An exception's own
text is withheld (the type is named) and its traceback logged on
``mcp.server.mcpserver.server`` at ERROR, as bare MCP does; ``MCPError``
(``UrlElicitationRequiredError`` ...) and cancellation pass through to the SDK.
:func:`reporting_argument_errors` gives arguments the SDK's validation
refuses an ``InvalidArgs`` envelope too.

Client side: :func:`parse` recovers the ToolError from a received result;
:func:`classification` reads a tool's ``ToolAnnotations`` into the runtime's
call classification, and :func:`calling_tool` makes a classified tool of a
remote one, so ``retrying(...)`` refuses what the server says must not repeat.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar, overload

from .. import _errors as tool
from ..classification import Classification, idempotent_write, irreversible, non_idempotent_write, read_safe
from .._explain import explain
from .._wire import parse as parse_wire
from ._core import Shell
from ._envelope import Classifier, Stage, error_of, invalid_args_from_validation, is_validation_error, unwrapping, wire

try:
    from mcp.types import CallToolResult, TextContent, Tool, ToolAnnotations
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.adapters.mcp needs the official MCP SDK 2.x: pip install 'smullyan[mcp]'"
    ) from _exc

__all__ = [
    "SHELL",
    "error_result",
    "reporting_errors",
    "reporting_argument_errors",
    "parse",
    "classification",
    "calling_tool",
]

F = TypeVar("F", bound=Callable[..., Any])
S = TypeVar("S")

SHELL = Shell(
    "mcp",
    signals=(
        "mcp.shared.exceptions.MCPError",  # 2.x: a JSON-RPC error (UrlElicitationRequiredError ...)
        "mcp.shared.exceptions.McpError",  # 1.x spelling
    ),
    logger="mcp.server.mcpserver.server",
)
"""What passes through an MCP tool untouched, and where its failures are logged."""


def error_result(error: tool.ToolError) -> CallToolResult:
    """``error`` as an MCP tool result: error flag, ``explain`` as text, the envelope as structured content.

    Both bounded and sanitised (``MAX_TEXT_BYTES``, ``MAX_ENVELOPE_BYTES``).
    """
    envelope = wire(error)
    shown = parse_wire(envelope)
    return CallToolResult(
        content=[TextContent(type="text", text=explain(shown if shown is not None else error))],
        structured_content=envelope,
        is_error=True,
    )


def _error_result(error: tool.ToolError, cause: BaseException | None) -> CallToolResult:
    return error_result(error)


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
    """Decorate a server tool: a returned ``Err`` or a raised exception becomes :func:`error_result`.

    ``Ok(v)`` (or a plain return value) is returned as ``v``, so the server
    converts it as usual; a ``Result[T]`` return annotation is shown to the
    server as ``T``, so its output schema is ``T``'s. Put it under
    ``@server.tool(...)``. ``classify`` maps exceptions (default
    ``from_exception`` with the exception's text withheld: the client reads
    ``Unknown("ValueError (details withheld)")``, the log has the traceback;
    ``show_exception_messages=True`` shows the text, for development); a
    ``ToolFailure`` always gives its own error. ``MCPError`` and cancellation
    propagate to the SDK unchanged. ``retrying`` is a runtime stage
    (``clock.retrying(...)``, or a ``pipe`` with a deadline) run over the tool
    first, so transient errors are retried by the runtime's policy before the
    client sees them.
    """

    def decorate(f: F) -> F:
        return unwrapping(  # type: ignore[return-value]
            f, _error_result, classify, retrying, shell=SHELL, show_exception_messages=show_exception_messages
        )

    return decorate if fn is None else decorate(fn)


def reporting_argument_errors(server: S) -> S:
    """``server`` (an ``MCPServer``) answering arguments its input schema refuses with an ``InvalidArgs`` envelope.

    The SDK validates a call's arguments before the tool runs, and answers a
    refusal with pydantic's text. This wraps the server's public
    ``call_tool``: a ``ToolError`` whose cause is a pydantic ``ValidationError``
    becomes :func:`error_result` of ``InvalidArgs`` (the path, what was
    expected, what came); everything else is the SDK's as before. Returns
    ``server``.
    """
    call_tool = getattr(server, "call_tool")

    @functools.wraps(call_tool)
    async def checked(name: str, arguments: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return await call_tool(name, arguments, *args, **kwargs)
        except Exception as exc:
            cause = exc.__cause__
            if SHELL.passes(exc) or cause is None or not is_validation_error(cause):
                raise
            error = invalid_args_from_validation(cause)
            if error is None:
                raise
            if SHELL.logger is not None:
                SHELL.logger.info("Tool %r rejected arguments: %s", name, error.tag)
            return error_result(error)

    setattr(server, "call_tool", checked)
    return server


def parse(result: object) -> tool.ToolError | None:
    """The ToolError a received tool result carries, or None.

    ``result`` is a ``CallToolResult`` or its wire dict (``isError``,
    ``structuredContent``). None when the result is not an error, or is an
    error without a valid envelope (a server that does not use this adapter).
    """
    if isinstance(result, CallToolResult):
        is_error, structured = result.is_error, result.structured_content
    elif isinstance(result, Mapping):
        is_error = bool(result.get("isError", result.get("is_error", False)))
        structured = result.get("structuredContent", result.get("structured_content"))
    else:
        return None
    if not is_error:
        return None
    return parse_wire(structured)


def classification(annotations: ToolAnnotations | Tool | Mapping[str, Any] | None) -> Classification | None:
    """The runtime's classification for an MCP tool, read from its ``ToolAnnotations``.

    ``read_only_hint`` -> ``read_safe``; otherwise ``idempotent_hint`` ->
    ``idempotent_write``; otherwise ``destructive_hint`` false (additive only)
    -> ``non_idempotent_write``; otherwise (destructive and not idempotent)
    -> ``irreversible``. A missing hint takes the MCP default (read-only
    false, destructive true, idempotent false), as the spec says a client
    should assume. No annotations at all -> None: the server said nothing,
    and an unclassified tool keeps the runtime's ordinary behaviour.
    Annotations are hints from the server: classify a tool you do not trust
    yourself, with the runtime's decorators.
    """
    if isinstance(annotations, Tool):
        annotations = annotations.annotations
    if annotations is None:
        return None
    if isinstance(annotations, ToolAnnotations):
        read_only = annotations.read_only_hint
        destructive = annotations.destructive_hint
        idempotent = annotations.idempotent_hint
    elif isinstance(annotations, Mapping):
        read_only = annotations.get("readOnlyHint", annotations.get("read_only_hint"))
        destructive = annotations.get("destructiveHint", annotations.get("destructive_hint"))
        idempotent = annotations.get("idempotentHint", annotations.get("idempotent_hint"))
    else:
        raise TypeError(f"expected ToolAnnotations, a Tool or a mapping, got {type(annotations).__name__}")
    if read_only is True:
        return "read_safe"
    if idempotent is True:
        return "idempotent_write"
    if destructive is False:
        return "non_idempotent_write"
    return "irreversible"


_MARKS: dict[str, Callable[[Any], Any]] = {
    "read_safe": read_safe,
    "idempotent_write": idempotent_write,
    "non_idempotent_write": non_idempotent_write,
    "irreversible": irreversible,
}


class ToolCaller(Protocol):
    """What :func:`calling_tool` needs: ``mcp.Client`` and ``mcp.ClientSession`` both are."""

    def call_tool(self, name: str, arguments: dict[str, Any] | None = ...) -> Awaitable[CallToolResult]: ...


def calling_tool(
    client: ToolCaller, remote: Tool
) -> Callable[..., Awaitable[tool.Result[CallToolResult]]]:
    """A runtime tool calling ``remote`` through ``client``, classified from its annotations.

    ``await call(**arguments)`` gives ``Ok(result)`` for a successful result,
    ``Err(error)`` for an error result (its envelope, or ``Unknown`` with its
    text when it has none) and ``Err(from_exception(exc))`` when the call
    raises (a protocol error, a closed connection). The function carries
    :func:`classification` of ``remote``, so the runtime's write rules
    (``retrying`` refuses an ``irreversible`` tool, or an unkeyed
    ``non_idempotent_write``) apply to it as to a local tool.
    """

    async def call(**arguments: Any) -> tool.Result[CallToolResult]:
        try:
            result = await client.call_tool(remote.name, arguments)
        except Exception as exc:
            return tool.Err(error_of(exc))
        if not result.is_error:
            return tool.Ok(result)
        error = parse(result)
        if error is None:
            text = " ".join(c.text for c in result.content if isinstance(c, TextContent))
            error = tool.unknown(text or f"tool {remote.name} failed", None)
        return tool.Err(error)

    call.__name__ = call.__qualname__ = remote.name
    call.__doc__ = remote.description
    kind = classification(remote)
    return _MARKS[kind](call) if kind is not None else call
