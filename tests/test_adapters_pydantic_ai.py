"""pydantic-ai adapter: a real agent tool fails three ways under FunctionModel; InvalidArgs is a
retry prompt, Denied a terminal failure, a rate limit is retried by the runtime's clock."""

from __future__ import annotations

import email.message
import logging
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


# ---------------------------------------------------------------- issue 22: signals, secrets, budgets, validation


def _tool_returns(result: Any) -> list[Any]:
    return [p for m in result.all_messages() for p in getattr(m, "parts", []) if outcome(p) is not None]


def test_approval_required_passes_through_and_the_run_defers_the_call() -> None:
    from pydantic_ai import ApprovalRequired, DeferredToolRequests

    agent: Agent[None, Any] = Agent(TestModel(), output_type=[str, DeferredToolRequests])  # type: ignore[arg-type]

    @agent.tool
    @ai_errors.reporting_errors
    def delete_repo(ctx: RunContext[None], name: str) -> str:
        """Needs a human's approval."""
        if not ctx.tool_call_approved:
            raise ApprovalRequired()
        return "deleted"

    result = agent.run_sync("go")
    assert isinstance(result.output, DeferredToolRequests)
    assert [call.tool_name for call in result.output.approvals] == ["delete_repo"]
    assert ai_errors.parse_all(result.all_messages()) == []


def test_call_deferred_passes_through_too() -> None:
    from pydantic_ai import CallDeferred, DeferredToolRequests

    agent: Agent[None, Any] = Agent(TestModel(), output_type=[str, DeferredToolRequests])  # type: ignore[arg-type]

    @agent.tool_plain
    @ai_errors.reporting_errors
    def run_elsewhere(job: str) -> str:
        """Runs outside the agent."""
        raise CallDeferred()

    result = agent.run_sync("go")
    assert isinstance(result.output, DeferredToolRequests)
    assert [call.tool_name for call in result.output.calls] == ["run_elsewhere"]


def test_a_nested_agents_usage_limit_still_stops_the_run() -> None:
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.usage import UsageLimits

    inner: Agent[None, str] = Agent(TestModel())
    outer: Agent[None, str] = Agent(TestModel(call_tools=["delegate"]))

    @outer.tool_plain
    @ai_errors.reporting_errors
    async def delegate(task: str) -> str:
        """Hands the task to a sub-agent with no request budget."""
        return (await inner.run(task, usage_limits=UsageLimits(request_limit=0))).output

    with pytest.raises(UsageLimitExceeded):
        outer.run_sync("go")


def test_an_unexpected_exception_is_withheld_logged_and_chained(caplog: pytest.LogCaptureFixture) -> None:
    agent: Agent[None, str] = Agent(TestModel(call_tools=["lookup"]))

    @agent.tool_plain
    @ai_errors.reporting_errors
    def lookup(user: str) -> str:
        """Look a user up."""
        raise ValueError("bad row: dsn=postgres://admin:hunter2@db.internal/prod")

    with caplog.at_level(logging.ERROR, logger="pydantic_ai"):
        result = agent.run_sync("go")
    [part] = _tool_returns(result)
    assert outcome(part) == "failed" and "hunter2" not in str(part.content)
    assert ai_errors.parse(part) == tool.Unknown("ValueError (details withheld)")
    [record] = [r for r in caplog.records if r.name == "pydantic_ai"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "hunter2" in str(record.exc_info[1])


def test_show_exception_messages_is_the_opt_in_for_development() -> None:
    agent: Agent[None, str] = Agent(TestModel(call_tools=["lookup"]))

    @agent.tool_plain
    @ai_errors.reporting_errors(show_exception_messages=True)
    def lookup(user: str) -> str:
        """Look a user up."""
        raise ValueError("row 7 is missing")

    [part] = _tool_returns(agent.run_sync("go"))
    error = ai_errors.parse(part)
    assert isinstance(error, tool.Unknown) and error.message == "ValueError: row 7 is missing"


def test_the_retry_prompt_says_the_budget_left_and_the_last_one_is_a_failure() -> None:
    agent: Agent[None, str] = Agent(TestModel(call_tools=["find"]), retries=2)
    seen: list[tuple[int, int]] = []

    @agent.tool
    @ai_errors.reporting_errors
    def find(ctx: RunContext[None], name: str) -> str:
        """Never finds it."""
        seen.append((ctx.retry, ctx.max_retries))
        return tool.Err(tool.not_found(name))  # type: ignore[return-value]

    result = agent.run_sync("go")  # no UnexpectedModelBehavior: the budget ends in a ToolFailed
    parts = _tool_returns(result)
    assert seen == [(0, 2), (1, 2), (2, 2)]
    assert [outcome(p) for p in parts] == ["retried", "retried", "failed"]
    texts = [str(p.content) for p in parts]
    assert "Retries of this tool left: 2." in texts[0] and "Retries of this tool left: 1." in texts[1]
    assert "No retries of this tool are left." in texts[2]
    assert all(isinstance(ai_errors.parse(p), tool.NotFound) for p in parts)


def test_arguments_pydantic_ai_refuses_become_a_typed_invalid_args_retry() -> None:
    try:
        capability = ai_errors.typed_validation_errors()
    except RuntimeError:  # a pydantic-ai without capabilities (what pip gives on Python 3.10)
        import pydantic_ai

        assert not hasattr(pydantic_ai, "capabilities") or "AbstractCapability" not in dir(pydantic_ai.capabilities)
        return
    calls: list[ModelMessage] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls.append(messages[-1])
        if len(calls) == 1:
            return ModelResponse(parts=[ToolCallPart("get", {"number": "seven"}, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    agent: Agent[None, str] = Agent(FunctionModel(script), capabilities=[capability])

    @agent.tool_plain
    def get(number: int) -> str:
        """Get one."""
        return str(number)

    assert agent.run_sync("go").output == "done"
    [part] = [p for p in calls[1].parts if outcome(p) == "retried"]
    error = ai_errors.parse(part)
    assert isinstance(error, tool.InvalidArgs) and (error.path, error.got) == ("number", "seven")
