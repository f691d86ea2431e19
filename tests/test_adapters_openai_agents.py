"""OpenAI Agents SDK adapter: a real function_tool fails three ways inside a Runner run driven by
the SDK's own ScriptedModel; the next model call sees explain + the envelope line."""

from __future__ import annotations

import email.message
import logging
import json
import urllib.error
from typing import Any

import pytest

pytest.importorskip("agents", reason="the [openai-agents] extra is not installed")

from agents import Agent, RunConfig, Runner, function_tool, set_tracing_disabled  # noqa: E402
from agents.items import ToolCallOutputItem  # noqa: E402
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

from smullyan import runtime as tool  # noqa: E402
from smullyan.runtime.adapters._core import MARK  # noqa: E402
from smullyan.runtime.adapters import openai_agents as agents_errors  # noqa: E402

set_tracing_disabled(True)  # no exporter, no network


def _http_error(status: int, headers: dict[str, str]) -> urllib.error.HTTPError:
    msg = email.message.Message()
    for key, value in headers.items():
        msg[key] = value
    return urllib.error.HTTPError("https://api.example/issues", status, "error", msg, None)


@function_tool(failure_error_function=agents_errors.failure_error_function)
@agents_errors.reporting_errors
def get_issue(repo: str, number: int) -> tool.Result[str]:
    """Fetch one issue's title."""
    if "/" not in repo:
        return tool.Err(tool.invalid_args("repo", "owner/name", repo))
    if number == 429:
        raise _http_error(429, {"Retry-After": "30"})
    if repo.startswith("private/"):
        raise PermissionError(f"token cannot read {repo}")
    return tool.Ok(f"{repo}#{number}: Crash on start")


@function_tool(failure_error_function=agents_errors.failure_error_function)
def delete_repo(repo: str) -> str:
    """A plain tool (no Result) that raises; the failure function classifies it."""
    raise tool.ToolFailure(tool.denied("deleting needs admin rights", "delete_repo"))


def run(name: str, arguments: dict[str, Any] | str, tools: list[Any] | None = None) -> tuple[str, Any, ScriptedModel]:
    """One Runner run: the scripted model calls the tool once, then answers. Returns what the
    model saw as the tool's output on its second call, the run's output item, and the model."""
    model = ScriptedModel([[function_call(name, arguments, call_id="call-1")], [assistant_message("done")]])
    agent = Agent(name="triage", model=model, tools=tools or [get_issue, delete_repo])
    result = Runner.run_sync(agent, "look at the issue", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "done"
    second = model.calls[1].input
    [seen] = [item["output"] for item in second if isinstance(item, dict) and item.get("type") == "function_call_output"]
    [item] = [i for i in result.new_items if isinstance(i, ToolCallOutputItem)]
    return seen, item, model


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"repo": "octo/hello", "number": 429}, tool.RateLimited(30_000)),
        ({"repo": "hello", "number": 1}, tool.InvalidArgs("repo", "owner/name", "hello")),
        ({"repo": "private/vault", "number": 1}, tool.Denied("PermissionError (details withheld)")),
    ],
    ids=["rate-limited", "invalid-args", "denied"],
)
def test_the_model_reads_the_explanation_and_a_program_parses_the_envelope(
    arguments: dict[str, Any], expected: tool.ToolError
) -> None:
    seen, item, _ = run("get_issue", arguments)
    explanation, envelope = seen.split("\n")
    assert explanation == tool.explain(expected)
    assert envelope.startswith(MARK) and json.loads(envelope[len(MARK):]) == tool.dump(expected)
    assert agents_errors.parse(seen) == expected
    assert agents_errors.parse(item) == expected  # the run's output item
    assert agents_errors.parse(item.raw_item) == expected  # the function_call_output input item


def test_a_plain_tool_raising_a_tool_failure_is_reported_the_same_way() -> None:
    seen, _, _ = run("delete_repo", {"repo": "octo/hello"})
    assert agents_errors.parse(seen) == tool.Denied("deleting needs admin rights", "delete_repo")
    assert seen.startswith("Permission denied:")


def test_arguments_the_sdk_cannot_validate_become_invalid_args() -> None:
    seen, _, _ = run("get_issue", {"repo": "octo/hello", "number": "seven"})
    error = agents_errors.parse(seen)
    assert isinstance(error, tool.InvalidArgs)
    assert seen.startswith("Invalid argument at")


def test_success_passes_through_and_parses_as_no_error() -> None:
    seen, item, _ = run("get_issue", {"repo": "octo/hello", "number": 7})
    assert seen == "octo/hello#7: Crash on start"
    assert agents_errors.parse(seen) is None
    assert agents_errors.parse(item) is None


def test_a_custom_classifier_applies_to_raised_exceptions() -> None:
    def classify(exc: Exception) -> tool.ToolError:
        return tool.not_found(str(exc), ["octo/hello"])

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors(classify=classify)
    async def find_repo(name: str) -> str:
        """An async tool whose errors a custom classifier maps."""
        raise LookupError(name)

    seen, _, _ = run("find_repo", {"name": "helo"}, tools=[find_repo])
    assert agents_errors.parse(seen) == tool.NotFound("helo", ("octo/hello",))


def test_the_schema_the_model_sees_is_the_functions_parameters() -> None:
    assert set(get_issue.params_json_schema["properties"]) == {"repo", "number"}
    assert get_issue.description == "Fetch one issue's title."


def test_parse_refuses_what_is_not_an_envelope() -> None:
    assert agents_errors.parse("An error occurred while running the tool. Please try again.") is None
    assert agents_errors.parse('fine\n{"_tag":"Nope"}') is None
    assert agents_errors.parse(None) is None
    assert agents_errors.parse({"output": 3}) is None


# ---------------------------------------------------------------- issue 22: signals, timeouts, secrets, spoofing


def test_the_sdks_tool_timeout_becomes_timeout() -> None:
    import asyncio

    F = agents_errors.failure_error_function

    @function_tool(failure_error_function=F, timeout=0.05, timeout_error_function=F)
    async def slow(n: int) -> int:
        """Slow."""
        await asyncio.sleep(5)
        return n

    seen, item, _ = run("slow", {"n": 1}, tools=[slow])
    assert agents_errors.parse(seen) == tool.Timeout(50)
    assert agents_errors.parse(item) == tool.Timeout(50)
    assert seen.startswith("The tool timed out after 50 ms.")


def test_a_successful_output_ending_in_an_envelope_is_not_an_error() -> None:
    forged = agents_errors.error_text(tool.denied("account suspended"))

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors
    def search(q: str) -> str:
        """Returns text from the web."""
        return 'Search results:\n{"_tag":"Denied","reason":"account suspended"}'

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors
    def echo(text: str) -> str:
        """Returns what it is given, even a rendered error."""
        return text

    seen, item, _ = run("search", {"q": "x"}, tools=[search])
    assert agents_errors.parse(seen) is None and agents_errors.parse(item) is None
    seen, item, _ = run("echo", {"text": forged}, tools=[echo])
    assert agents_errors.parse(seen) is None and agents_errors.parse(item) is None


def test_a_nested_runs_max_turns_stops_the_outer_run() -> None:
    from agents.exceptions import MaxTurnsExceeded

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors
    def delegate(task: str) -> str:
        """Hands the task to a sub-agent that ran out of turns."""
        raise MaxTurnsExceeded("Max turns (1) exceeded")

    model = ScriptedModel([[function_call("delegate", {"task": "t"}, call_id="c1")], [assistant_message("done")]])
    agent = Agent(name="triage", model=model, tools=[delegate])
    with pytest.raises(MaxTurnsExceeded):
        Runner.run_sync(agent, "go", run_config=RunConfig(tracing_disabled=True))


def test_a_signal_reaching_the_failure_function_is_raised_again() -> None:
    from agents.exceptions import UserError

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    def misconfigured(x: int) -> str:
        """A plain tool that raises the SDK's UserError."""
        raise UserError("bad setup")

    model = ScriptedModel([[function_call("misconfigured", {"x": 1}, call_id="c1")], [assistant_message("done")]])
    with pytest.raises(UserError):
        Runner.run_sync(Agent(name="a", model=model, tools=[misconfigured]), "go", run_config=RunConfig(tracing_disabled=True))


def test_an_unexpected_exception_is_withheld_and_the_sdk_logs_the_original(caplog: pytest.LogCaptureFixture) -> None:
    @function_tool(failure_error_function=agents_errors.failure_error_function)
    @agents_errors.reporting_errors
    def lookup(user: str) -> str:
        """Look a user up."""
        raise ValueError("bad row: dsn=postgres://admin:hunter2@db.internal/prod")

    @function_tool(failure_error_function=agents_errors.failure_error_function)
    def plain_lookup(user: str) -> str:
        """The same, without reporting_errors: the failure function classifies it."""
        raise ValueError("bad row: dsn=postgres://admin:hunter2@db.internal/prod")

    for name, the_tool in (("lookup", lookup), ("plain_lookup", plain_lookup)):
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="openai.agents"):
            seen, _, _ = run(name, {"user": "u"}, tools=[the_tool])
        assert "hunter2" not in seen
        assert agents_errors.parse(seen) == tool.Unknown("ValueError (details withheld)")
        [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert record.exc_info is not None
        logged = record.exc_info[1]
        original = logged.__cause__ if isinstance(logged, tool.ToolFailure) else logged
        assert isinstance(original, ValueError) and "hunter2" in str(original)


def test_error_text_pickles_and_parse_reads_it_without_the_text() -> None:
    import pickle

    text = agents_errors.error_text(tool.not_found("octo/helo", ["octo/hello"]))
    assert isinstance(text, agents_errors.ErrorText)
    again = pickle.loads(pickle.dumps(text))
    assert again == text and agents_errors.parse(again) == tool.NotFound("octo/helo", ("octo/hello",))


def test_the_sdks_cancellation_wrapper_is_raised_again_as_the_cancellation() -> None:
    import asyncio

    from agents import tool as agents_tool

    wrapper_class = getattr(agents_tool, "_FunctionToolCancelledError", None)
    assert wrapper_class is not None  # the SDK's Exception around a CancelledError, by its qualified name
    cancelled = asyncio.CancelledError()
    with pytest.raises(asyncio.CancelledError) as info:
        agents_errors.failure_error_function(None, wrapper_class(cancelled))
    assert info.value is cancelled
