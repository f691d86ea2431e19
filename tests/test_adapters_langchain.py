"""LangChain adapter: real langchain-core tools fail three ways, called the way a tool-calling loop
calls them (a fake chat model's tool calls, answered by tool.invoke(tool_call)); the ToolMessage the
model gets back has status="error", the explanation, and the envelope (text line or artifact)."""

from __future__ import annotations

import asyncio
import email.message
import logging
import json
import urllib.error
from typing import Annotated, Any

import pytest

pytest.importorskip("langchain_core", reason="the [langchain] extra is not installed")

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.tools import BaseTool, InjectedToolArg, InjectedToolCallId, ToolException  # noqa: E402
from langchain_core.tools import tool as lc_tool  # noqa: E402
from langgraph.prebuilt import InjectedState  # noqa: E402  (the [test] extra installs langgraph)
from langgraph.types import Command  # noqa: E402

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


# ---------------------------------------------------------------- issue 22: LangGraph signals, retries, injected values


def _tool_call(name: str, args: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def test_a_langgraph_interrupt_passes_through_and_the_run_resumes() -> None:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode
    from langgraph.types import interrupt

    def ask_human(question: str) -> str:
        """Ask a human."""
        return f"human said {interrupt({'question': question})}"

    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode([lc_errors.structured_tool(ask_human)]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    app = graph.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "1"}}
    first = app.invoke({"messages": [AIMessage("", tool_calls=[_tool_call("ask_human", {"question": "ok?"})])]}, config)
    assert "__interrupt__" in first
    assert [i.value for i in first["__interrupt__"]] == [{"question": "ok?"}]
    assert not any(isinstance(m, ToolMessage) for m in first["messages"])
    resumed = app.invoke(Command(resume="yes"), config)
    message = resumed["messages"][-1]
    assert isinstance(message, ToolMessage) and message.status == "success" and message.content == "human said yes"


def test_a_returned_command_passes_through_to_the_graph() -> None:
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    def hand_over(note: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command[Any]:
        """Updates the graph's state."""
        return Command(update={"messages": [ToolMessage(f"noted {note}", tool_call_id=tool_call_id)]})

    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode([lc_errors.structured_tool(hand_over)]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    out = graph.compile().invoke({"messages": [AIMessage("", tool_calls=[_tool_call("hand_over", {"note": "n"})])]})
    assert out["messages"][-1].content == "noted n"


def _flaky(calls: list[int], exc: Exception) -> Any:
    def fetch(url: str) -> str:
        """Fetch a URL."""
        calls.append(1)
        raise exc

    return fetch


def test_with_retry_runs_the_configured_attempts_on_a_transient_error_then_answers() -> None:
    calls: list[int] = []
    retried = lc_errors.structured_tool(_flaky(calls, ConnectionResetError("reset by peer"))).with_retry(
        stop_after_attempt=3, wait_exponential_jitter=False
    )
    message = retried.invoke(_tool_call("fetch", {"url": "u"}))
    assert len(calls) == 3
    assert isinstance(message, ToolMessage) and message.status == "error" and message.tool_call_id == "c1"
    # a reset may come after the request was sent: outcome unknown, a Timeout(0) since issue 20 (docs/runtime.md)
    assert lc_errors.parse(message) == tool.Timeout(0)
    calls.clear()
    assert isinstance(asyncio.run(retried.ainvoke(_tool_call("fetch", {"url": "u"}))), ToolMessage)
    assert len(calls) == 3


def test_with_retry_does_not_repeat_an_error_retrying_cannot_fix() -> None:
    calls: list[int] = []
    retried = lc_errors.structured_tool(_flaky(calls, PermissionError("no"))).with_retry(stop_after_attempt=3)
    message = retried.invoke(_tool_call("fetch", {"url": "u"}))
    assert len(calls) == 1 and isinstance(lc_errors.parse(message), tool.Denied)


def test_tool_retry_middleware_retries_a_tool_that_raises_transient_errors() -> None:
    from langchain.agents import create_agent
    from langchain.agents.middleware import ToolRetryMiddleware

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # the fake model calls what it is told
            return self

    for raise_transient, attempts in ((True, 3), (False, 1)):
        calls: list[int] = []
        fetch = lc_errors.structured_tool(_flaky(calls, TimeoutError()), raise_transient=raise_transient)
        model = Model(
            messages=iter([AIMessage("", tool_calls=[{"name": "fetch", "args": {"url": "u"}, "id": "c1"}]), AIMessage("done")])
        )
        retry = ToolRetryMiddleware(
            max_retries=2,
            retry_on=(lc_errors.TransientToolError,),
            initial_delay=0,
            jitter=False,
            on_failure=lc_errors.retry_failure,
        )
        out = create_agent(model, [fetch], middleware=[retry]).invoke({"messages": [HumanMessage("go")]})
        [message] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
        assert len(calls) == attempts
        assert message.status == "error" and lc_errors.parse(message) == tool.Timeout(0)


def test_an_injected_argument_never_reaches_the_model() -> None:
    def charge(amount: int, api_key: Annotated[str, InjectedToolArg]) -> tool.Result[str]:
        """Charge the card."""
        return tool.Ok("ok")

    for response_format in ("content", "content_and_artifact"):
        t = lc_errors.structured_tool(charge, response_format=response_format)
        assert list(t.tool_call_schema.model_json_schema()["properties"]) == ["amount"]
        for args in ({"api_key": "sk_live_SECRET"}, {"amount": "x", "api_key": "sk_live_SECRET"}):
            message = t.invoke(_tool_call("charge", args))  # the model forgot or mangled `amount`
            assert message.status == "error"
            assert "SECRET" not in str(message.content) and "SECRET" not in json.dumps(message.artifact)
            error = lc_errors.parse(message)
            assert isinstance(error, tool.InvalidArgs) and error.path == "amount"
        wrong_key = t.invoke(_tool_call("charge", {"amount": 1, "api_key": 7}))
        assert "7" not in json.dumps(lc_errors.parse(wrong_key).got)  # type: ignore[union-attr]


def test_tool_error_exceptions_copy_and_pickle() -> None:
    import copy
    import pickle

    for exc in (lc_errors.ToolErrorException(tool.not_found("x")), lc_errors.TransientToolError(tool.timeout(5))):
        for again in (copy.copy(exc), copy.deepcopy(exc), pickle.loads(pickle.dumps(exc))):
            assert type(again) is type(exc) and again.error == exc.error and str(again) == str(exc)


def test_an_unexpected_exception_is_withheld_and_logged_at_error(caplog: pytest.LogCaptureFixture) -> None:
    def lookup(user: str) -> str:
        """Look a user up."""
        raise ValueError("bad row: dsn=postgres://admin:hunter2@db.internal/prod")

    with caplog.at_level(logging.ERROR, logger="langchain_core.tools"):
        message = lc_errors.structured_tool(lookup).invoke(_tool_call("lookup", {"user": "u"}))
    assert message.status == "error" and "hunter2" not in str(message.content)
    assert lc_errors.parse(message) == tool.Unknown("ValueError (details withheld)")
    [record] = [r for r in caplog.records if r.name == "langchain_core.tools"]
    assert record.levelno == logging.ERROR and "hunter2" in str(record.exc_info[1])  # type: ignore[index]
    shown = lc_errors.structured_tool(lookup, show_exception_messages=True).invoke(_tool_call("lookup", {"user": "u"}))
    assert "hunter2" in str(shown.content)  # the opt-in, for development


def test_cancellation_passes_through_a_tool_call() -> None:
    async def slow(n: int) -> str:
        """Cancelled while it runs."""
        raise asyncio.CancelledError()

    t = lc_errors.structured_tool(slow)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(t.ainvoke(_tool_call("slow", {"n": 1})))


def test_injected_graph_state_never_reaches_the_model_through_a_tool_node() -> None:
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    class State(MessagesState):
        api_key: str

    def charge(amount: int, state: Annotated[dict[str, Any], InjectedState]) -> str:
        """Charge the card with the key in the graph's state."""
        return f"charged {amount}"

    graph = StateGraph(State)
    graph.add_node("tools", ToolNode([lc_errors.structured_tool(charge)]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    call = _tool_call("charge", {})  # the model forgot the amount: pydantic's input is every argument, state too
    out = graph.compile().invoke({"messages": [AIMessage("", tool_calls=[call])], "api_key": "sk_live_SECRET"})
    message = out["messages"][-1]
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert "SECRET" not in str(message.content)
    error = lc_errors.parse(message)
    assert isinstance(error, tool.InvalidArgs) and (error.path, error.got) == ("amount", None)
