"""LangChain adapter: real langchain-core tools fail three ways, called the way a tool-calling loop
calls them (a fake chat model's tool calls, answered by tool.invoke(tool_call)); the ToolMessage the
model gets back has status="error", the explanation, and the envelope (text line or artifact)."""

from __future__ import annotations

import asyncio
import email.message
import json
import urllib.error
from typing import Any

import pytest

pytest.importorskip("langchain_core", reason="the [langchain] extra is not installed")

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.tools import BaseTool, ToolException, tool as lc_tool  # noqa: E402

from smullyan import runtime as tool  # noqa: E402
from smullyan.runtime.adapters._core import MARK  # noqa: E402
from smullyan.runtime.adapters import langchain as lc_errors  # noqa: E402


def _http_error(status: int, headers: dict[str, str]) -> urllib.error.HTTPError:
    msg = email.message.Message()
    for key, value in headers.items():
        msg[key] = value
    return urllib.error.HTTPError("https://api.example/issues", status, "error", msg, None)


def fetch(repo: str, number: int) -> tool.Result[str]:
    if "/" not in repo:
        return tool.Err(tool.invalid_args("repo", "owner/name", repo))
    if number == 429:
        raise _http_error(429, {"Retry-After": "30"})
    if repo.startswith("private/"):
        raise PermissionError(f"token cannot read {repo}")
    return tool.Ok(f"{repo}#{number}: Crash on start")


# 1. The plain @tool decorator, with the adapter's handlers set as LangChain documents.
@lc_tool
@lc_errors.reporting_errors
def get_issue(repo: str, number: int) -> tool.Result[str]:
    """Fetch one issue's title."""
    return fetch(repo, number)


get_issue.handle_tool_error = lc_errors.handle_tool_error
get_issue.handle_validation_error = lc_errors.handle_validation_error


# 2. content_and_artifact: the envelope travels as the artifact.
def _get_issue_with_artifact(repo: str, number: int) -> tool.Result[tuple[str, dict[str, Any]]]:
    """Fetch one issue's title, with the raw issue as the artifact."""
    result = fetch(repo, number)
    if isinstance(result, tool.Ok):
        return tool.Ok((result.value, {"number": number}))
    return result


get_issue_artifact = lc_errors.structured_tool(
    _get_issue_with_artifact, name="get_issue_artifact", response_format="content_and_artifact"
)

CASES = [
    ({"repo": "octo/hello", "number": 429}, tool.RateLimited(30_000)),
    ({"repo": "hello", "number": 1}, tool.InvalidArgs("repo", "owner/name", "hello")),
    ({"repo": "private/vault", "number": 1}, tool.Denied("PermissionError (details withheld)")),
]
IDS = ["rate-limited", "invalid-args", "denied"]


def agent_loop(tools: list[BaseTool], arguments: dict[str, Any]) -> list[BaseMessage]:
    """A fake chat model asks for the tool; the loop answers with tool.invoke(tool_call)."""
    [the_tool] = tools
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage("", tool_calls=[{"name": the_tool.name, "args": arguments, "id": "call-1"}]),
                AIMessage("done"),
            ]
        )
    )
    messages: list[BaseMessage] = [HumanMessage("look at the issue")]
    ai = model.invoke(messages)
    messages.append(ai)
    for call in ai.tool_calls:
        messages.append(the_tool.invoke({**call, "type": "tool_call"}))
    messages.append(model.invoke(messages))  # the model reads the ToolMessage
    assert messages[-1].content == "done"
    return messages


def tool_message(messages: list[BaseMessage]) -> ToolMessage:
    [message] = [m for m in messages if isinstance(m, ToolMessage)]
    return message


@pytest.mark.parametrize(("arguments", "expected"), CASES, ids=IDS)
def test_the_model_reads_the_explanation_and_the_envelope_line(
    arguments: dict[str, Any], expected: tool.ToolError
) -> None:
    message = tool_message(agent_loop([get_issue], arguments))
    assert message.status == "error"
    assert message.tool_call_id == "call-1"
    explanation, envelope = str(message.content).split("\n")
    assert explanation == tool.explain(expected)
    assert envelope.startswith(MARK) and json.loads(envelope[len(MARK):]) == tool.dump(expected)
    assert lc_errors.parse(message) == expected


@pytest.mark.parametrize(("arguments", "expected"), CASES, ids=IDS)
def test_content_and_artifact_puts_the_envelope_in_the_artifact(
    arguments: dict[str, Any], expected: tool.ToolError
) -> None:
    message = tool_message(agent_loop([get_issue_artifact], arguments))
    assert message.status == "error"
    assert message.content == tool.explain(expected)  # the model reads only the explanation
    assert message.artifact == tool.dump(expected)  # never sent to the model
    assert lc_errors.parse(message) == expected


def test_success_is_untouched() -> None:
    plain = tool_message(agent_loop([get_issue], {"repo": "octo/hello", "number": 7}))
    assert (plain.status, plain.content) == ("success", "octo/hello#7: Crash on start")
    assert lc_errors.parse(plain) is None
    rich = tool_message(agent_loop([get_issue_artifact], {"repo": "octo/hello", "number": 7}))
    assert (rich.status, rich.content, rich.artifact) == ("success", "octo/hello#7: Crash on start", {"number": 7})
    assert lc_errors.parse(rich) is None


def test_arguments_the_schema_refuses_become_invalid_args() -> None:
    message = tool_message(agent_loop([get_issue], {"repo": "octo/hello", "number": "seven"}))
    error = lc_errors.parse(message)
    assert message.status == "error"
    assert isinstance(error, tool.InvalidArgs) and error.path == "number" and error.got == "seven"
    assert str(message.content).startswith('Invalid argument at "number"')


def test_an_async_tool_through_ainvoke() -> None:
    async def find_repo(name: str) -> str:
        """Find a repository."""
        raise tool.ToolFailure(tool.not_found(name, ["octo/hello"]))

    find = lc_errors.structured_tool(find_repo)
    message = asyncio.run(find.ainvoke({"name": "find_repo", "args": {"name": "helo"}, "id": "c", "type": "tool_call"}))
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert lc_errors.parse(message) == tool.NotFound("helo", ("octo/hello",))


def test_tool_error_exception_is_a_tool_exception_and_a_tool_failure() -> None:
    exc = lc_errors.ToolErrorException(tool.denied("no", "repo:write"))
    assert isinstance(exc, ToolException) and isinstance(exc, tool.ToolFailure)
    assert tool.from_exception(exc) == tool.Denied("no", "repo:write")
    assert lc_errors.parse(exc) == tool.Denied("no", "repo:write")
    assert lc_errors.handle_tool_error(ToolException("plain")).startswith("The tool failed unexpectedly: \"plain\"")


def test_error_message_for_a_loop_of_ones_own() -> None:
    error = tool.rate_limited(1200)
    text = lc_errors.error_message(error, "c1", name="t")
    rich = lc_errors.error_message(error, "c1", artifact=True)
    assert (text.status, rich.status) == ("error", "error")
    assert lc_errors.parse(text) == lc_errors.parse(rich) == error
    assert rich.content == tool.explain(error)


def test_parse_refuses_what_is_not_an_error_envelope() -> None:
    ok = ToolMessage('x\n{"_tag":"Denied","reason":"r"}', tool_call_id="c")  # status success
    assert lc_errors.parse(ok) is None
    assert lc_errors.parse(ToolMessage("boom", tool_call_id="c", status="error")) is None
    assert lc_errors.parse(AIMessage("hi")) is None
    text = lc_errors.handle_tool_error(lc_errors.ToolErrorException(tool.timeout(5)))
    blocks = ToolMessage([{"type": "text", "text": text}], tool_call_id="c", status="error")
    assert lc_errors.parse(blocks) == tool.Timeout(5)


def test_the_schema_the_model_sees_is_the_functions_parameters() -> None:
    assert set(get_issue.args) == {"repo", "number"}
    assert set(get_issue_artifact.args) == {"repo", "number"}
