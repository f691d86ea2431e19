"""OpenAI Agents SDK adapter: a real function_tool fails three ways inside a Runner run driven by
the SDK's own ScriptedModel; the next model call sees explain + the envelope line."""

from __future__ import annotations

import email.message
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
