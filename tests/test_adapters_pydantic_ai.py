"""pydantic-ai adapter: a real agent tool fails three ways under FunctionModel; InvalidArgs is a
retry prompt, Denied a terminal failure, a rate limit is retried by the runtime's clock."""

from __future__ import annotations

import email.message
import json
import urllib.error
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="the [pydantic-ai] extra is not installed")

from pydantic_ai import Agent, RunContext  # noqa: E402
from pydantic_ai.exceptions import ModelRetry, ToolFailed  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.models.test import TestModel  # noqa: E402

from smullyan import runtime as tool  # noqa: E402
from smullyan.runtime.adapters._core import MARK  # noqa: E402
from smullyan.runtime.adapters import pydantic_ai as ai_errors  # noqa: E402


def _http_error(status: int, headers: dict[str, str]) -> urllib.error.HTTPError:
    msg = email.message.Message()
    for key, value in headers.items():
        msg[key] = value
    return urllib.error.HTTPError("https://api.example/issues", status, "error", msg, None)


class FakeClock:
    def __init__(self) -> None:
        self.slept: list[int] = []

    def sleep(self, ms: int) -> None:
        self.slept.append(ms)


def build(clock: FakeClock, limited: list[int]) -> Agent[None, str]:
    """An agent whose model calls get_issue once with the test's arguments, then answers."""
    agent: Agent[None, str] = Agent(FunctionModel(_script))

    @agent.tool_plain
    @ai_errors.reporting_errors(
        retrying=tool.with_clock(clock.sleep).retrying(tool.up_to(3).attempts),
    )
    def get_issue(repo: str, number: int) -> tool.Result[str]:
        """Fetch one issue's title."""
        if "/" not in repo:
            return tool.Err(tool.invalid_args("repo", "owner/name", repo))
        if number == 429 and limited:
            limited.pop()
            raise _http_error(429, {"Retry-After": "30"})
        if repo.startswith("private/"):
            raise PermissionError(f"token cannot read {repo}")
        return tool.Ok(f"{repo}#{number}: Crash on start")

    return agent


SEEN: list[ToolReturnPart | RetryPromptPart] = []


def outcome(part: object) -> object:
    """A tool result's outcome. pydantic-ai 2.68 (the version the adapter targets, Python 3.11+)
    sends a retry as a ToolReturnPart with outcome "retried"; the releases pip picks on Python
    3.10 (2.54) still send a RetryPromptPart. The adapter reads both; so do these tests."""
    if isinstance(part, RetryPromptPart):
        return "retried"
    return getattr(part, "outcome", None)


def _script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    last = messages[-1]
    assert isinstance(last, ModelRequest)
    returns = [p for p in last.parts if isinstance(p, (ToolReturnPart, RetryPromptPart)) and p.tool_name]
    if not returns:
        arguments = json.loads(next(p.content for p in last.parts if hasattr(p, "content") and isinstance(p.content, str)))
        return ModelResponse(parts=[ToolCallPart("get_issue", arguments, tool_call_id="call-1")])
    SEEN.extend(returns)
    return ModelResponse(parts=[TextPart("done")])


def run(arguments: dict[str, Any], *, limited: int = 0) -> tuple[Any, FakeClock, Any]:
    SEEN.clear()
    clock = FakeClock()
    result = build(clock, [429] * limited).run_sync(json.dumps(arguments))
    assert result.output == "done"
    [part] = SEEN
    return part, clock, result


def test_invalid_args_is_a_retry_prompt_the_model_can_act_on() -> None:
    expected = tool.InvalidArgs("repo", "owner/name", "hello")
    part, clock, result = run({"repo": "hello", "number": 1})
    assert outcome(part) == "retried"
    explanation, envelope = part.content.split("\n")
    assert explanation == tool.explain(expected)
    assert envelope.startswith(MARK) and json.loads(envelope[len(MARK):]) == tool.dump(expected)
    assert ai_errors.parse(part) == expected
    assert ai_errors.parse_all(result.all_messages()) == [expected]
    assert clock.slept == []  # not a transient error: the runtime does not retry it


def test_denied_is_a_terminal_failure_never_a_retry_prompt() -> None:
    expected = tool.Denied("PermissionError (details withheld)")
    part, clock, _ = run({"repo": "private/vault", "number": 1})
    assert part.outcome == "failed"
    assert part.content.split("\n")[0] == tool.explain(expected)
    assert "Fix the errors" not in part.model_response_str()
    assert ai_errors.parse(part) == expected
    assert clock.slept == []


def test_a_rate_limit_is_retried_by_the_runtime_clock_not_the_model() -> None:
    part, clock, _ = run({"repo": "octo/hello", "number": 429}, limited=2)
    assert part.outcome == "success"
    assert part.content == "octo/hello#429: Crash on start"
    assert clock.slept == [30_000, 30_000]  # the server's Retry-After, twice
    assert ai_errors.parse(part) is None


def test_a_rate_limit_the_runtime_gives_up_on_is_a_terminal_failure_with_the_wait() -> None:
    expected = tool.RateLimited(30_000)
    part, clock, _ = run({"repo": "octo/hello", "number": 429}, limited=5)
    assert clock.slept == [30_000, 30_000]  # 3 attempts
    assert part.outcome == "failed"
    assert part.content.split("\n")[0] == tool.explain(expected)
    assert "Wait at least 30 s" in part.content
    assert ai_errors.parse(part) == expected


def test_not_found_asks_for_a_different_call_and_the_rest_do_not() -> None:
    assert isinstance(ai_errors.to_exception(tool.not_found("x", ["y"])), ModelRetry)
    assert isinstance(ai_errors.to_exception(tool.invalid_args("p", "int", "x")), ModelRetry)
    for error in (tool.denied("x"), tool.unknown("x"), tool.rate_limited(1), tool.timeout(1), tool.unavailable("x")):
        failed = ai_errors.to_exception(error)
        assert isinstance(failed, ToolFailed)
        assert ai_errors.parse(failed) == error


def test_the_tools_own_model_retry_passes_through_untouched_and_context_is_kept() -> None:
    agent: Agent[None, str] = Agent(TestModel(call_tools=["ask"]))
    calls: list[str] = []

    @agent.tool
    @ai_errors.reporting_errors
    async def ask(ctx: RunContext[None], question: str) -> str:
        """Raises its own ModelRetry the first time."""
        calls.append(question)
        if len(calls) == 1:
            raise ModelRetry("ask a real question")
        return "answer"

    result = agent.run_sync("go")
    retried = [p for m in result.all_messages() for p in getattr(m, "parts", []) if outcome(p) == "retried"]
    assert [p.content for p in retried] == ["ask a real question"]
    assert ai_errors.parse(retried[0]) is None  # not a ToolError: no envelope
    assert len(calls) == 2


def test_the_schema_the_model_sees_is_the_functions_parameters() -> None:
    agent = build(FakeClock(), [])
    seen: list[AgentInfo] = []

    def look(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info)
        return ModelResponse(parts=[TextPart("done")])

    with agent.override(model=FunctionModel(look)):
        agent.run_sync("hi")
    [definition] = seen[0].function_tools
    assert set(definition.parameters_json_schema["properties"]) == {"repo", "number"}
    assert definition.description == "Fetch one issue's title."
