"""pydantic-ai (``pydantic-ai-slim`` 2.x): each ToolError as the retry or the failure it is.

Tested against ``pydantic-ai-slim`` 2.68 (Python 3.11+) and 2.54 (the newest pip installs on Python
3.10, which still sends a retry as a ``RetryPromptPart``). ``pip install 'smullyan[pydantic-ai]'``.

pydantic-ai sends a tool's ``ModelRetry`` back as a retry prompt until the
tool's retry budget runs out, and a ``ToolFailed`` as a terminal failure the
model sees but is not asked to repeat. :func:`reporting_errors` picks by the
error's variant:

- ``InvalidArgs``, ``NotFound``: ``ModelRetry``; the model should change the call.
- ``Denied``, ``Unknown``, and a transient error the runtime gave up on:
  ``ToolFailed``; the same call cannot succeed now, so it is never a retry prompt.
- ``RateLimited``, ``Timeout``, ``Unavailable``: retried by the runtime's policy
  when you pass ``retrying=clock.retrying(...)`` (server advice, backoff, budget),
  not by the model's retry budget; what is left after it is a ``ToolFailed``.

Either way the message is :func:`~smullyan.runtime.explain` followed by the
envelope line (bounded, sanitised and marked), and :func:`parse` recovers the
ToolError from the tool return part in the run's messages. pydantic-ai's own
signals pass through untouched (``ModelRetry``, ``ToolFailed``,
``CallDeferred``, ``ApprovalRequired``, ``UsageLimitExceeded`` of a nested
agent, a cancelled run ...); an unexpected exception's text is withheld from
the model and its traceback logged on ``pydantic_ai`` at ERROR::

    @agent.tool_plain
    @ai_errors.reporting_errors(retrying=clock.retrying(tool.up_to(3).attempts))
    def get_issue(repo: str, number: int) -> tool.Result[Issue]: ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar, overload

from .. import _errors as tool
from ._core import Shell
from ._envelope import Classifier, Stage, invalid_args_from_validation, is_validation_error, recover, render, unwrapping

try:
    from pydantic_ai.exceptions import ModelRetry, ToolFailed
except ImportError as _exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "smullyan.runtime.adapters.pydantic_ai needs pydantic-ai 2.x: pip install 'smullyan[pydantic-ai]'"
    ) from _exc

__all__ = [
    "SHELL",
    "typed_validation_errors",
    "to_exception",
    "raise_for",
    "reporting_errors",
    "parse",
    "parse_all",
    "asks_model_to_retry",
]

F = TypeVar("F", bound=Callable[..., Any])

SHELL = Shell(
    "pydantic-ai",
    signals=(
        f"pydantic_ai.exceptions.{name}"
        for name in (
            "ModelRetry",
            "ToolFailed",
            "CallDeferred",
            "ApprovalRequired",
            "SkipModelRequest",
            "RetryModelRequest",
            "SkipToolValidation",
            "SkipToolExecution",
            "UsageLimitExceeded",
            "ConcurrencyLimitExceeded",
            "RunCancelled",
            "UserError",
        )
    ),
    logger="pydantic_ai",
)
"""What passes through a pydantic-ai tool untouched, and where its failures are logged."""


def asks_model_to_retry(error: tool.ToolError) -> bool:
    """True for the variants the model can fix by changing the call: ``InvalidArgs``, ``NotFound``."""
    match error:
        case tool.InvalidArgs() | tool.NotFound():
            return True
        case tool.RateLimited() | tool.Timeout() | tool.Unavailable() | tool.Denied() | tool.Unknown():
            return False
        case _:
            tool.assert_never(error)


def to_exception(error: tool.ToolError, ctx: Any = None) -> ModelRetry | ToolFailed:
    """``ModelRetry`` for an error the model should fix by changing the call, else ``ToolFailed``.

    With the tool's ``RunContext`` (``ctx``), the retry prompt says how many
    retries the tool has left (``ctx.max_retries - ctx.retry``); once none are
    left it is a ``ToolFailed`` instead: one more ``ModelRetry`` would end the
    run with ``UnexpectedModelBehavior``.
    """
    if not asks_model_to_retry(error):
        return ToolFailed(render(error))
    retry, budget = getattr(ctx, "retry", None), getattr(ctx, "max_retries", None)
    if not isinstance(retry, int) or not isinstance(budget, int):
        return ModelRetry(render(error))
    left = budget - retry
    if left <= 0:
        return ToolFailed(render(error, "No retries of this tool are left."))
    return ModelRetry(render(error, f"Retries of this tool left: {left}."))


def raise_for(error: tool.ToolError, cause: BaseException | None = None, ctx: Any = None) -> NoReturn:
    """Raise :func:`to_exception` of ``error`` (for a tool body that has an ``Err`` in hand), ``from cause``."""
    raise to_exception(error, ctx) from cause


def _context(args: tuple[Any, ...]) -> Any:
    """The RunContext of an ``@agent.tool`` call (its first argument), or None."""
    if args and hasattr(args[0], "max_retries") and hasattr(args[0], "retry"):
        return args[0]
    return None


def _raise_in_context(error: tool.ToolError, cause: BaseException | None, args: tuple[Any, ...]) -> NoReturn:
    raise to_exception(error, _context(args)) from cause


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
    """Decorate a tool: ``Ok(v)`` gives ``v``; an ``Err`` or a raised exception ends as :func:`to_exception`.

    ``retrying`` is a runtime stage (``clock.retrying(...)``, ``tool.terse.retry(...)``,
    or a ``pipe`` with a deadline) run over the tool first, so transient
    errors are retried by the runtime, and only what remains reaches the
    model. ``classify`` maps raised exceptions (default ``from_exception``,
    the exception's text withheld unless ``show_exception_messages``).
    pydantic-ai's own signals the tool raises (``ModelRetry``, ``ToolFailed``,
    ``ApprovalRequired``, ``CallDeferred``, ``UsageLimitExceeded`` ...) pass
    through to pydantic-ai unchanged.
    Put it under ``@agent.tool`` / ``@agent.tool_plain`` (or pass the
    decorated function to ``Tool(...)``); a ``RunContext`` first parameter is
    passed through.
    """

    def decorate(f: F) -> F:
        return unwrapping(  # type: ignore[return-value]
            f,
            _raise_in_context,
            classify,
            retrying,
            shell=SHELL,
            show_exception_messages=show_exception_messages,
            with_arguments=True,
        )

    return decorate if fn is None else decorate(fn)


def parse(part: object) -> tool.ToolError | None:
    """The ToolError a failed or retried tool return carries, or None.

    ``part`` is a ``ToolReturnPart`` (``outcome`` ``"failed"`` or
    ``"retried"``), a legacy ``RetryPromptPart``, a ``ModelRetry`` /
    ``ToolFailed``, or the message text itself.
    """
    if isinstance(part, str):
        return recover(part)
    if isinstance(part, (ModelRetry, ToolFailed)):
        return recover(part.message)
    if isinstance(part, Exception):
        return None
    outcome = getattr(part, "outcome", None)
    kind = getattr(part, "part_kind", None)
    if kind == "tool-return" and outcome not in ("failed", "retried"):
        return None
    if kind not in ("tool-return", "retry-prompt"):
        return None
    return recover(getattr(part, "content", None))


def parse_all(messages: Iterable[Any]) -> list[tool.ToolError]:
    """Every ToolError in a run's messages (``result.all_messages()``), in order."""
    found: list[tool.ToolError] = []
    for message in messages:
        for part in getattr(message, "parts", ()):
            error = parse(part)
            if error is not None:
                found.append(error)
    return found


def typed_validation_errors() -> Any:
    """A capability for ``Agent(capabilities=[...])``: arguments the tool's schema refuses as ``InvalidArgs``.

    pydantic-ai validates a call's arguments before the tool runs and sends
    pydantic's error list as the retry prompt. With this capability the
    prompt is :func:`to_exception` of ``InvalidArgs`` (the path, what was
    expected, what came; never a value outside the tool's schema), so
    :func:`parse` reads it like any other. Needs a pydantic-ai with
    capabilities (``AbstractCapability.on_tool_validate_error``); on one
    without them it raises ``RuntimeError`` saying so.
    """
    try:
        from pydantic_ai.capabilities import AbstractCapability
    except ImportError as exc:
        raise RuntimeError("this pydantic-ai has no capabilities (on_tool_validate_error): upgrade it") from exc

    class TypedValidationErrors(AbstractCapability[Any]):
        async def on_tool_validate_error(
            self, ctx: Any, *, call: Any, tool_def: Any, args: Any, error: BaseException
        ) -> Any:
            if not is_validation_error(error):
                raise error
            schema = getattr(tool_def, "parameters_json_schema", None) or {}
            visible = frozenset(schema.get("properties", {})) if isinstance(schema, dict) else None
            found = invalid_args_from_validation(error, visible)
            if found is None:
                raise error
            raise to_exception(found, ctx) from error

    return TypedValidationErrors()
