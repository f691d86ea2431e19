"""A traced tool run by each framework's own run loop, through its adapter: where does its span sit?

pydantic-ai and MCP emit OpenTelemetry themselves: the ``tool <name>`` span
must be a child of the framework's tool span (``execute_tool <name>``,
``tools/call <name>``), and an MCP client's traced call the parent of the
server's span. The OpenAI Agents SDK (its own tracing) and LangChain (callbacks)
emit no OpenTelemetry spans: the tool's span must sit under the caller's span.
No adapter passes anything by hand; context variables carry the span.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the [test] extra installs opentelemetry-sdk")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from smullyan import runtime as tool  # noqa: E402
from smullyan.runtime.otel import traced  # noqa: E402


class Spans:
    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider()
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))

    def parent_of(self, name: str) -> str | None:
        """The name of the parent of the one finished span called ``name`` (same trace), or None."""
        spans = list(self.exporter.get_finished_spans())
        [span] = [s for s in spans if s.name == name]
        if span.parent is None:
            return None
        [parent] = [s for s in spans if s.context.span_id == span.parent.span_id]
        assert parent.context.trace_id == span.context.trace_id
        return parent.name

    def events_of(self, name: str) -> list[str]:
        [span] = [s for s in self.exporter.get_finished_spans() if s.name == name]
        return [e.name for e in span.events]


def flaky() -> Any:
    """A tool body that fails once with Unavailable, then returns a title."""
    outcomes: list[tool.Result[str]] = [tool.Err(tool.unavailable("503")), tool.Ok("Crash on start")]

    def get_issue(repo: str, number: int) -> tool.Result[str]:
        """Fetch one issue's title."""
        return outcomes.pop(0)

    return get_issue


def staged(spans: Spans | None) -> Any:
    """The stage an adapter runs over the tool: a retry, then traced() outermost."""
    provider = spans.provider if spans is not None else None
    return lambda t: tool.pipe(
        t, tool.with_clock(lambda ms: None).retrying(tool.up_to(3).attempts), traced(tracer_provider=provider)
    )


def test_pydantic_ai_a_tool_span_sits_under_the_frameworks_execute_tool_span() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.models.instrumented import InstrumentationSettings
    from pydantic_ai.models.test import TestModel

    from smullyan.runtime.adapters import pydantic_ai as ai_errors

    spans = Spans()
    agent: Agent[None, str] = Agent(TestModel())
    agent.instrument = InstrumentationSettings(tracer_provider=spans.provider)
    agent.tool_plain(ai_errors.reporting_errors(flaky(), retrying=staged(spans)))
    assert "Crash on start" in agent.run_sync("look at the issue").output
    assert spans.parent_of("tool get_issue") == "execute_tool get_issue"
    assert spans.events_of("tool get_issue")[:2] == ["smullyan.failed", "smullyan.waiting"]


MCP_BOTH_SIDES = """
import asyncio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from smullyan import runtime as tool
from smullyan.runtime.adapters import mcp as mcp_errors
from smullyan.runtime.otel import traced

spans = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(spans))
trace.set_tracer_provider(provider)  # MCP's server spans use the global provider, and so does traced()
outcomes = [tool.Err(tool.unavailable("503")), tool.Ok("Crash on start")]
server = MCPServer("issues")

@server.tool(annotations=ToolAnnotations(read_only_hint=True))
@mcp_errors.reporting_errors(
    retrying=lambda t: tool.pipe(t, tool.with_clock(lambda ms: None).retrying(tool.up_to(3).attempts), traced())
)
def get_issue(repo: str, number: int) -> tool.Result[str]:
    \"\"\"Fetch one issue's title.\"\"\"
    return outcomes.pop(0)

async def main():
    async with Client(server) as client:
        [remote] = (await client.list_tools()).tools
        call = tool.pipe(mcp_errors.calling_tool(client, remote), traced("client.get_issue"))
        return await call(repo="octo/hello", number=1)

assert isinstance(asyncio.run(main()), tool.Ok)
done = {s.context.span_id: s for s in spans.get_finished_spans()}
for s in done.values():
    parent = done[s.parent.span_id] if s.parent is not None and s.parent.span_id in done else None
    same = parent is not None and parent.context.trace_id == s.context.trace_id
    print(f"{s.name} <- {parent.name if parent else None} [{s.kind.name}]{' same trace' if same else ''}")
"""


def test_mcp_the_server_span_holds_the_tool_span_and_the_client_span_holds_the_server_span() -> None:
    pytest.importorskip("mcp")
    out = subprocess.run([sys.executable, "-c", MCP_BOTH_SIDES], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = set(out.stdout.splitlines())
    assert "tool get_issue <- tools/call get_issue [INTERNAL] same trace" in lines
    assert "tools/call get_issue <- tool client.get_issue [SERVER] same trace" in lines  # the context crosses MCP
    assert "tool client.get_issue <- None [INTERNAL]" in lines


def test_openai_agents_a_tool_span_sits_under_the_callers_span() -> None:
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner, function_tool
    from agents.testing import ScriptedModel, assistant_message, function_call

    from smullyan.runtime.adapters import openai_agents as agents_errors

    spans = Spans()
    get_issue = function_tool(failure_error_function=agents_errors.failure_error_function)(
        agents_errors.reporting_errors(flaky(), retrying=staged(spans))
    )
    model = ScriptedModel([[function_call("get_issue", {"repo": "octo/hello", "number": 1}, call_id="call-1")], [assistant_message("done")]])
    agent = Agent(name="triage", model=model, tools=[get_issue])
    with spans.provider.get_tracer("test").start_as_current_span("agent turn"):
        result = Runner.run_sync(agent, "look at the issue", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "done"
    assert spans.parent_of("tool get_issue") == "agent turn"


@pytest.mark.parametrize("how", ["invoke", "ainvoke"])
def test_langchain_a_tool_span_sits_under_the_callers_span(how: str) -> None:
    pytest.importorskip("langchain_core")
    from smullyan.runtime.adapters import langchain as lc_errors

    spans = Spans()
    the_tool = lc_errors.structured_tool(flaky(), name="get_issue", retrying=staged(spans))
    call = {"name": "get_issue", "args": {"repo": "octo/hello", "number": 1}, "id": "call-1", "type": "tool_call"}
    with spans.provider.get_tracer("test").start_as_current_span("agent turn"):
        message = the_tool.invoke(call) if how == "invoke" else asyncio.run(the_tool.ainvoke(call))
    assert message.content == "Crash on start"
    assert spans.parent_of("tool get_issue") == "agent turn"
