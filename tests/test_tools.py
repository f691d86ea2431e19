"""`smullyan tools`: discovery of each framework's tool forms, the per-tool facts, the CLI."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from smullyan.linter import tools
from smullyan.linter.cli import main
from smullyan.linter.config import Config, ConfigError, from_mapping


# A file outside any package, wherever the checkout is: a relative path would take its package from
# the current directory (the repository root holds an __init__.py, so in a checkout named `main`
# the tool's qualified name would be `main.agent_tools.open_ticket`).
OUTSIDE = "/nonexistent-smullyan-test-dir/agent_tools.py"


def describe(code: str, config: Config | None = None, path: str = OUTSIDE) -> list[tools.Tool]:
    return tools.describe_source(textwrap.dedent(code), path, config or Config()).tools


def names(code: str, config: Config | None = None) -> list[tuple[str, str]]:
    return [(t.name, t.framework) for t in describe(code, config)]


# --------------------------------------------------------------------------- discovery per framework


def test_langchain_tool_decorator_forms_and_base_tool() -> None:
    code = """
    from langchain_core.tools import tool, BaseTool, StructuredTool
    from langchain.tools import tool as lc_tool

    @tool
    def search(query: str) -> str:
        '''Search the web.'''
        return query

    @tool("multiply", parse_docstring=True)
    def mult(a: int, b: int) -> int:
        '''Multiply.'''
        return a * b

    @lc_tool
    def other(x: str) -> str:
        '''Other.'''
        return x

    class CustomCalculatorTool(BaseTool):
        name: str = "Calculator"
        description: str = "useful for math"

        def _run(self, a: int, b: int) -> str:
            return str(a * b)

        async def _arun(self, a: int, b: int) -> str:
            return self._run(a, b)

    def add(a: int, b: int) -> int:
        return a + b

    adder = StructuredTool.from_function(func=add, name="adder")

    def not_a_tool():
        return 1
    """
    found = describe(code)
    assert [(t.name, t.framework) for t in found] == [
        ("search", "langchain"), ("multiply", "langchain"), ("other", "langchain"),
        ("Calculator", "langchain"), ("adder", "langchain"),
    ]
    calc = found[3]
    assert calc.form == "BaseTool subclass" and len(calc.spans) == 2  # _run and _arun


def test_openai_agents_function_tool() -> None:
    code = """
    from agents import Agent, function_tool

    @function_tool
    async def fetch_weather(city: str) -> str:
        return "sunny"

    @function_tool(name_override="lookup")
    def look(q: str) -> str:
        return q

    agent = Agent(name="a", tools=[fetch_weather, look])
    """
    # ``name_override`` names the tool the model calls (agents/tool.py)
    assert names(code) == [("fetch_weather", "openai-agents"), ("lookup", "openai-agents")]


def test_fastmcp_tool_on_the_server_object() -> None:
    code = """
    from mcp.server.fastmcp import FastMCP
    from mcp.server.mcpserver import MCPServer

    mcp = FastMCP("Demo")
    server = MCPServer("two")

    @mcp.tool()
    def add(a: int, b: int) -> int:
        return a + b

    @server.tool(name="sub")
    def subtract(a: int, b: int) -> int:
        return a - b

    class mcp_like:  # an attribute named tool on something else
        @staticmethod
        def tool():
            return None

    other = object()
    """
    found = describe(code)
    assert [(t.name, t.framework, t.form) for t in found] == [
        ("add", "mcp", "@mcp.tool"), ("sub", "mcp", "@server.tool"),
    ]


def test_pydantic_ai_agent_tools() -> None:
    code = """
    from pydantic_ai import Agent, RunContext, Tool

    def roll_die() -> str:
        return "4"

    def player_name(ctx: RunContext[str]) -> str:
        return ctx.deps

    def by_list() -> str:
        return "x"

    agent = Agent("openai:gpt-4o", tools=[by_list, Tool(roll_die, takes_ctx=False)])
    second = Tool(player_name, takes_ctx=True)

    @agent.tool
    async def get_player_name(ctx: RunContext[str]) -> str:
        return ctx.deps

    @agent.tool_plain
    def roll() -> str:
        return "6"
    """
    assert sorted(names(code)) == sorted([
        ("by_list", "pydantic-ai"), ("roll_die", "pydantic-ai"), ("player_name", "pydantic-ai"),
        ("get_player_name", "pydantic-ai"), ("roll", "pydantic-ai"),
    ])


def test_crewai_base_tool_and_decorator() -> None:
    code = """
    from crewai.tools import BaseTool, tool
    from pydantic import BaseModel, Field

    class MyToolInput(BaseModel):
        argument: str = Field(..., description="Description of the argument.")

    class MyCustomTool(BaseTool):
        name: str = "Name of my tool"
        description: str = "What this tool does."
        args_schema: type[BaseModel] = MyToolInput

        def _run(self, argument: str) -> str:
            return "Result"

    @tool("Tool Name")
    def my_simple_tool(question: str) -> str:
        '''Tool description for clarity.'''
        return "Tool output"
    """
    assert names(code) == [("Name of my tool", "crewai"), ("Tool Name", "crewai")]


def test_smolagents_tool_and_subclass() -> None:
    code = """
    from smolagents import Tool, tool

    @tool
    def get_travel_duration(start_location: str, destination_location: str) -> str:
        '''Gets the travel time.'''
        return "1h"

    class HFModelDownloadsTool(Tool):
        name = "model_download_counter"
        description = "Most downloaded model."
        inputs = {"task": {"type": "string", "description": "the task"}}
        output_type = "string"

        def forward(self, task: str):
            return task
    """
    assert names(code) == [("get_travel_duration", "smolagents"), ("model_download_counter", "smolagents")]


def test_llamaindex_function_tool_from_defaults() -> None:
    code = """
    from llama_index.core.tools import FunctionTool

    def multiply(a: int, b: int) -> int:
        return a * b

    def make():
        def inner(x: int) -> int:
            return x
        return FunctionTool.from_defaults(fn=inner)

    multiply_tool = FunctionTool.from_defaults(fn=multiply)
    named = FunctionTool.from_defaults(multiply, name="times")
    imported = FunctionTool.from_defaults(fn=len)
    """
    assert names(code) == [("multiply", "llamaindex"), ("inner", "llamaindex")]


def test_agno_toolkit_registers_methods_and_camel_function_tool() -> None:
    code = """
    import atexit
    from agno.tools import Toolkit
    from camel.toolkits import BaseToolkit, FunctionTool

    class FileTools(Toolkit):
        def __init__(self, save: bool = True, **kwargs):
            tools = [self.read_file]
            if save:
                tools.append(self.save_file)
            atexit.register(self._cleanup)
            self.resolver = Resolver(db=self._helper)
            super().__init__(name="file_tools", tools=tools, **kwargs)
            self.register(self.think, name="think")

        def _cleanup(self):
            pass

        def think(self, thought: str) -> str:
            return thought

        def _helper(self):
            return 1

        def read_file(self, name: str) -> str:
            return name

        def save_file(self, name: str) -> str:
            return name

    class MathToolkit(BaseToolkit):
        def add(self, a: int, b: int) -> int:
            return a + b

        def unexposed(self) -> None:
            pass

        def get_tools(self):
            return [FunctionTool(self.add)]
    """
    assert names(code) == [("think", "agno"), ("read_file", "agno"), ("save_file", "agno"), ("add", "camel")]


def test_runtime_classification_decorators_make_tools() -> None:
    code = """
    from smullyan.runtime import non_idempotent_write

    @non_idempotent_write
    def charge(card: str) -> None:
        pass
    """
    found = describe(code)
    assert [(t.name, t.framework, t.classification, t.source) for t in found] == [
        ("charge", "runtime", "non-idempotent-write", "declared")
    ]


def test_names_are_resolved_not_matched_as_text() -> None:
    code = """
    from mylib import BaseTool

    def tool(f):
        return f

    @tool
    def looks_like_one() -> None:
        pass

    class Lookalike(BaseTool):
        def _run(self):
            pass
    """
    assert names(code) == []


def test_configured_decorators_and_base_classes() -> None:
    config = from_mapping({"tool-decorators": ["mycorp.agent.expose"], "tool-base-classes": ["mycorp.agent.Skill"]}, "cfg")
    code = """
    from mycorp.agent import expose, Skill

    @expose
    def ping() -> str:
        return "pong"

    class Search(Skill):
        def run(self, q):
            return q
    """
    assert names(code, config) == [("ping", "configured"), ("Search", "configured")]
    assert names(code) == []


@pytest.mark.parametrize("key", ["tool-decorators", "tool-base-classes"])
def test_bad_tool_config_names_the_key(key: str) -> None:
    with pytest.raises(ConfigError, match=f"`{key}`"):
        from_mapping({key: "not.a.list"}, "pyproject.toml")
    with pytest.raises(ConfigError, match=f"`{key}` has 'not a name'"):
        from_mapping({key: ["not a name"]}, "pyproject.toml")


def test_subclasses_across_files_of_one_run(tmp_path: Path) -> None:
    pkg = tmp_path / "mytools"
    (pkg / "gmail").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "gmail" / "__init__.py").write_text("from .base import GmailBaseTool\n")
    (pkg / "gmail" / "base.py").write_text(
        "from langchain_core.tools import BaseTool\n\nclass GmailBaseTool(BaseTool):\n    api: object = None\n"
    )
    (pkg / "gmail" / "send.py").write_text(textwrap.dedent("""
        from mytools.gmail import GmailBaseTool

        class GmailSendMessage(GmailBaseTool):
            name: str = "send_gmail_message"

            def _run(self, to: str) -> str:
                return to
        """))
    (pkg / "gmail" / "search.py").write_text(textwrap.dedent("""
        from .base import GmailBaseTool

        class GmailSearch(GmailBaseTool):
            name: str = "search_gmail"

            def _run(self, q: str) -> str:
                return q
        """))
    files = sorted(str(p) for p in pkg.rglob("*.py"))
    result = tools.run(files, Config())
    assert sorted(t.name for t in result.tools) == ["search_gmail", "send_gmail_message"]
    assert result.files_checked == 5


# --------------------------------------------------------------------------- facts


INFERENCE = """
import requests
from langchain_core.tools import tool
from smullyan.runtime import read_safe

def _create(payload):
    return requests.post("https://api.example.com/tickets", json=payload)

@tool
def open_ticket(title: str) -> str:
    '''Open a ticket.'''
    return _create({"title": title}).text

@tool
@read_safe
def search_tickets(q: str) -> str:
    '''Search.'''
    return requests.post("https://api.example.com/tickets/query", json={"q": q}, timeout=10).text
"""


def test_a_tool_whose_helper_posts_is_a_non_idempotent_write() -> None:
    ticket = describe(INFERENCE)[0]
    assert (ticket.name, ticket.classification, ticket.source) == ("open_ticket", "non-idempotent-write", "inferred")
    assert "_create()" in ticket.evidence and "POST" in ticket.evidence
    assert ticket.key == "missing"
    [call] = ticket.calls
    assert (call.cls, call.timeout, call.helper) == ("non-idempotent-write", "missing", "_create")
    assert ticket.findings == {"TFH201": 1}  # the helper's call, attributed to the tool


def test_a_tool_declared_read_safe_stays_read_safe() -> None:
    search = describe(INFERENCE)[1]
    assert (search.classification, search.source, search.key) == ("read-safe", "declared", "not-needed")
    [call] = search.calls
    assert (call.timeout, call.timeout_value) == ("value", "10")


def test_classify_config_names_the_tool() -> None:
    config = from_mapping({"classify": {"agent_tools.open_ticket": "idempotent-write"}}, "cfg")
    ticket = describe(INFERENCE, config)[0]
    assert (ticket.classification, ticket.source, ticket.key) == ("idempotent-write", "configured", "not-needed")


def test_unknown_when_nothing_is_known() -> None:
    [t] = describe("""
    from langchain_core.tools import tool

    @tool
    def think(x: str) -> str:
        '''Think.'''
        return x.upper()
    """)
    assert (t.classification, t.source, t.calls, t.failures) == ("unknown", "unknown", [], ["raised"])


def test_idempotency_key_timeouts_and_mcp_annotations() -> None:
    [pay, wipe] = describe("""
    import uuid
    import requests
    from mcp.server.fastmcp import FastMCP
    from mcp.types import ToolAnnotations

    mcp = FastMCP("pay")

    @mcp.tool()
    def pay(amount: int) -> str:
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        return requests.post("https://pay.example.com/charges", json={"a": amount}, headers=headers, timeout=None).text

    @mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
    def wipe(path: str) -> str:
        return path
    """)
    assert (pay.classification, pay.key) == ("non-idempotent-write", "present")
    assert pay.calls[0].timeout == "infinite"
    assert (wipe.classification, wipe.source, wipe.evidence, wipe.key) == ("irreversible", "declared", "MCP annotations", "missing")


def test_retries_around_and_inside_a_tool() -> None:
    [bounded, forever, loop] = describe("""
    import requests
    from tenacity import retry, stop_after_attempt, wait_exponential, retry_if_exception_type
    from langchain_core.tools import tool

    @tool
    @retry(stop=stop_after_attempt(3), wait=wait_exponential(), retry=retry_if_exception_type(requests.Timeout))
    def fetch(url: str) -> str:
        '''Fetch.'''
        return requests.get(url, timeout=5).text

    @tool
    @retry
    def forever(url: str) -> str:
        '''Forever.'''
        return requests.get(url, timeout=5).text

    @tool
    def polled(url: str) -> str:
        '''Loop.'''
        for attempt in range(4):
            try:
                return requests.get(url, timeout=5).text
            except requests.RequestException:
                continue
        return "gave up"
    """)
    [r] = bounded.retries
    assert (r.kind, r.stop, r.wait, r.condition, r.bounded) == ("tenacity", "3 attempts", "yes", "Timeout", True)
    [r] = forever.retries
    assert (r.stop, r.wait, r.condition, r.bounded) == ("never", "none", "any exception", False)
    [r] = loop.retries
    assert r.kind == "loop"
    assert loop.failures == ["raised"]  # the handler that goes round is the retry, not a swallow


def test_a_retry_wrapped_around_a_tool_function() -> None:
    [t] = describe("""
    import requests
    from smullyan import runtime as tool
    from llama_index.core.tools import FunctionTool

    clock = tool.with_clock(lambda s: None)

    def fetch(url: str) -> str:
        return requests.get(url, timeout=5).text

    safe_fetch = tool.pipe(tool.calling_api(fetch), clock.retrying(tool.while_transient, tool.up_to(3).attempts))
    fetch_tool = FunctionTool.from_defaults(fn=fetch)
    """)
    [r] = t.retries
    assert (r.kind, r.stop, r.bounded) == ("runtime", "3 attempts", True)


@pytest.mark.parametrize(
    ("handler", "mode"),
    [
        ("return f'Error: {e}'", "text"),
        ("return str(e)", "text"),
        ("raise", "raised"),
        ("raise RuntimeError('x') from e", "raised"),
        ("return None", "swallowed"),
        ("pass", "swallowed"),
        ("return tool.unavailable(str(e))", "typed"),
        ("raise tool.InvalidArgs(str(e))", "typed"),
    ],
)
def test_how_failures_reach_the_model(handler: str, mode: str) -> None:
    [t] = describe(f"""
    import requests
    from smullyan import runtime as tool
    from langchain_core.tools import tool as lc_tool

    @lc_tool
    def get(url: str) -> str:
        '''Get.'''
        try:
            return requests.get(url, timeout=3).text
        except requests.RequestException as e:
            {handler}
    """)
    assert t.failures == [mode]


def test_subprocess_and_sdk_calls_are_listed() -> None:
    [t] = describe("""
    import subprocess
    import stripe
    from smolagents import tool

    @tool
    def deploy(ref: str) -> str:
        '''Deploy.'''
        subprocess.run(["git", "push", ref], check=True)
        stripe.Charge.create(amount=100)
        return "ok"
    """)
    whats = {c.what: c.timeout for c in t.calls}
    assert whats == {"subprocess.run": "missing", "stripe.Charge.create": "unknown"}
    assert t.classification == "non-idempotent-write"


def test_a_file_with_no_tools_costs_no_parse_and_gives_no_row() -> None:
    result = tools.describe_source("import requests\nrequests.get('x')\n", "m.py", Config())
    assert result.tools == [] and result.errors == []


# --------------------------------------------------------------------------- CLI


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.smullyan]\n")
    (tmp_path / "agent_tools.py").write_text(INFERENCE)
    return tmp_path


def test_cli_json_schema_and_fail_on(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--format", "json", "-j1", str(project)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == tools.SCHEMA_VERSION
    assert doc["summary"]["tools"] == 2 and doc["summary"]["unkeyed_writes"] == 1
    assert doc["summary"]["by_classification"]["read-safe"] == 1
    row = doc["tools"][0]
    assert set(row) >= {"name", "path", "line", "framework", "form", "classification", "source", "evidence",
                        "calls", "retries", "budget", "key", "failures", "findings"}
    assert main(["tools", "--format", "json", "--fail-on", "unkeyed-write,unbounded-retry", str(project)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["fail_on"] == {"unkeyed-write": [f"{project / 'agent_tools.py'}:9:open_ticket"], "unbounded-retry": []}
    assert main(["tools", "--fail-on", "unbounded-retry", "-q", str(project)]) == 0


def test_cli_text_fits_the_width_and_markdown(project: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["tools", str(project)]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[0].splitlines()
    assert all(len(line) <= 100 for line in table)
    assert "open_ticket" in out and "2 tools in 1 of 1 files" in out
    assert main(["tools", "--format", "markdown", str(project)]) == 0
    md = capsys.readouterr().out
    assert md.startswith("| tool | where |") and "| `open_ticket` |" in md


def test_cli_errors_exit_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tools", "--fail-on", "unkeyed-writes", str(project)])
    assert exc.value.code == 2
    assert "did you mean 'unkeyed-write'" in capsys.readouterr().err
    (project / "pyproject.toml").write_text('[tool.smullyan]\ntool-decorators = "x"\n')
    assert main(["tools", str(project)]) == 2
    err = capsys.readouterr().err
    assert "`tool-decorators`" in err and "Traceback" not in err
    assert main(["tools", str(project / "missing")]) == 2


def test_a_def_defined_twice_is_matched_in_order_and_bad_files_do_not_crash(tmp_path: Path) -> None:
    found = describe("""
    import requests
    from langchain_core.tools import tool

    try:
        import fast
    except ImportError:
        @tool
        def get(url: str) -> str:
            '''Slow.'''
            return requests.get(url).text
    else:
        @tool
        def get(url: str) -> str:
            '''Fast.'''
            return requests.get(url, timeout=1).text
    """)
    assert [(t.line, t.calls[0].timeout) for t in found] == [(8, "missing"), (13, "value")]
    (tmp_path / "broken.py").write_text("from langchain_core.tools import tool\n@tool\ndef f(:\n")
    (tmp_path / "weird.py").write_text("from langchain_core.tools import tool\n@tool\ndef f(x):\n    (y): int = 1\n")
    result = tools.run([str(tmp_path / "broken.py"), str(tmp_path / "weird.py")], Config())
    assert [t.name for t in result.tools] == ["f"]


def test_a_request_on_a_client_built_with_a_timeout_has_the_clients() -> None:
    [t] = describe('''
    import httpx
    from agno.tools import tool

    @tool
    async def sentiment(ticker: str) -> str:
        """Sentiment."""
        async with httpx.AsyncClient(timeout=12) as client:
            return (await client.get(f"https://api.example.com/{ticker}")).text
    ''')
    assert [(c.timeout, c.timeout_value) for c in t.calls] == [("value", "12")]


def test_an_unbounded_retry_loop_is_flagged_through_the_budget_rules(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = '''
import time
import requests
from langchain_core.tools import tool

@tool
def forever(url: str) -> str:
    """Forever."""
    while True:
        try:
            return requests.get(url, timeout=5).text
        except requests.RequestException:
            time.sleep(1)

@tool
def counted(url: str, n: int) -> str:
    """Counted."""
    for _ in range(n):
        try:
            return requests.get(url, timeout=5).text
        except requests.RequestException:
            time.sleep(1)
    return "gave up"
'''
    (tmp_path / "loops.py").write_text(code)
    forever, counted = tools.run([str(tmp_path / "loops.py")], Config()).tools
    assert (forever.retries[0].bounded, forever.findings) == (None, {"TFH302": 1})
    assert (counted.retries[0].stop, counted.retries[0].bounded) == ("for loop", True)
    assert main(["tools", "-q", "--fail-on", "unbounded-retry", str(tmp_path)]) == 1
    assert "forever" in capsys.readouterr().out


def test_a_frameworks_own_base_classes_are_not_tools(tmp_path: Path) -> None:
    pkg = tmp_path / "smolagents"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tools.py").write_text(textwrap.dedent('''
        class BaseTool:
            pass

        class Tool(BaseTool):
            def forward(self, *args):
                raise NotImplementedError

        class PipelineTool(Tool):
            def forward(self, inputs):
                return inputs

        class Transcriber(PipelineTool):
            name = "transcriber"

            def forward(self, inputs):
                return inputs
        '''))
    found = tools.run([str(pkg / "__init__.py"), str(pkg / "tools.py")], Config()).tools
    assert [(t.name, t.form) for t in found] == [("transcriber", "PipelineTool subclass")]


def test_an_aliased_client_function_is_classified_by_what_it_resolves_to() -> None:
    [pr] = describe('''
    from requests import post as send
    from langchain_core.tools import tool

    @tool
    def open_pull_request(repo: str) -> dict:
        """Open a pull request."""
        return send(f"https://api.github.com/repos/{repo}/pulls", json={}, timeout=10).json()
    ''')
    assert (pr.classification, pr.source, pr.key) == ("non-idempotent-write", "inferred", "missing")


def test_a_handler_that_returns_the_runtimes_err_is_typed_not_text() -> None:
    [issue] = describe('''
    import requests
    from smullyan import runtime as tool
    from smullyan.runtime import Err, Ok

    @tool.read_safe
    def get_issue(url: str):
        try:
            return Ok(requests.get(url, timeout=10).json())
        except requests.RequestException as e:
            return Err(tool.from_exception(e))
    ''')
    assert issue.failures == ["typed"]
