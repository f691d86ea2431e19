"""`smullyan tools` (issue 28): the tool forms of frameworks nobody here tuned on, found with the
default configuration (MCP servers held as attributes, the low-level server, activity-style
toolkits, tools given to any agent constructor, schemas dispatched by name, semantic-kernel,
langroid, browser-use) and the settings that add the rest."""

from __future__ import annotations

import textwrap

from smullyan.linter import tools
from smullyan.linter.config import Config, from_mapping

OUTSIDE = "/nonexistent-smullyan-test-dir/agent_tools.py"


def names(code: str, config: Config | None = None) -> list[tuple[str, str]]:
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, config or Config()).tools
    return [(t.name, t.framework) for t in found]


def test_mcp_server_held_as_an_attribute() -> None:
    code = """
    from mcp.server.fastmcp import FastMCP

    class Service:
        def __init__(self) -> None:
            self.mcp_server = FastMCP("svc")
            self._register()

        def _register(self) -> None:
            @self.mcp_server.tool(name="lookup")
            def lookup(key: str) -> str:
                return key

            @self.mcp_server.tool()
            def store(key: str, value: str) -> str:
                return value

        def not_a_tool(self) -> None:
            @self.other.tool()
            def helper() -> None: ...
    """
    assert names(code) == [("lookup", "mcp"), ("store", "mcp")]


def test_mcp_server_built_in_a_function_and_mcpserver_reexport() -> None:
    code = """
    from mcp.server import MCPServer

    def create_server():
        server = MCPServer("fetch")

        @server.tool(name="fetch")
        async def fetch(url: str) -> str:
            return url

        return server
    """
    assert names(code) == [("fetch", "mcp")]


def test_mcp_server_handed_to_a_registering_function_by_an_annotated_parameter() -> None:
    code = """
    from fastmcp import FastMCP
    from mcp.server.fastmcp import FastMCP as Server

    def register_index_tools(mcp: FastMCP) -> None:
        @mcp.tool()
        def list_indices() -> list[str]:
            return []

    def register_doc_tools(server: "Server", name: str) -> None:
        @server.tool(name="get_document")
        def get(doc_id: str) -> str:
            return doc_id

    def not_a_server(registry: dict) -> None:
        @registry.tool()
        def helper() -> None: ...
    """
    assert names(code) == [("list_indices", "mcp"), ("get_document", "mcp")]


def test_lowlevel_server_call_tool_one_row_per_listed_tool() -> None:
    code = """
    from mcp.server.lowlevel import Server
    from mcp import types

    server = Server("git")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool(name="git_status", inputSchema={}), types.Tool(name="git_log", inputSchema={})]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list:
        if name == "git_status":
            return []
        return []
    """
    assert names(code) == [("git_status", "mcp"), ("git_log", "mcp")]


def test_activity_style_decorator_from_the_base_class_package() -> None:
    code = """
    from upsonic.tools.base import ToolKit
    from upsonic.tools.config import tool
    from other.lib import tool as other_tool

    class ExaTools(ToolKit):
        @tool
        def search(self, q: str) -> str:
            return q

        def plain(self) -> None: ...

    class FsToolkit(ToolKit):
        def __init__(self) -> None:
            @tool(name="read_file")
            def read(path: str) -> str:
                return path

    class Unrelated(ToolKit):
        @other_tool
        def not_this(self) -> None: ...
    """
    assert names(code) == [("search", "upsonic"), ("read_file", "upsonic")]


def test_tools_given_to_any_agent_constructor_and_the_setting() -> None:
    code = """
    from somefw import ChatAgent, Crew

    def search(q: str) -> str:
        return q

    def lookup(k: str) -> str:
        return k

    def order(k: str) -> str:
        return k

    class Bot:
        def __init__(self) -> None:
            self.tools = [self.ping]
            self.agent = ChatAgent(model="x", tools=self.tools)

        def ping(self) -> str:
            return "pong"

    agent = ChatAgent(tools=[search])
    team = Crew(tools=[order])
    tools = [lookup]
    other = ChatAgent(tools=tools)
    """
    assert sorted(names(code)) == [("lookup", "somefw"), ("ping", "somefw"), ("search", "somefw")]
    config = from_mapping({"tool-list-constructors": ["somefw.Crew"]}, "test")
    assert ("order", "configured") in names(code, config)


def test_tool_schemas_dispatched_by_name() -> None:
    code = """
    TOOLS = [{"name": "get_weather", "parameters": {"type": "object"}},
             {"name": "get_time", "parameters": {"type": "object"}}]

    def get_weather(city: str) -> str:
        return city

    def get_time(tz: str) -> str:
        return tz

    DISPATCH = {"get_weather": get_weather, "get_time": get_time}
    HEADERS = {"a": "b", "c": "d"}
    """
    assert names(code) == [("get_weather", "schema"), ("get_time", "schema")]


def test_no_dispatch_dict_without_a_schema() -> None:
    code = """
    def a() -> None: ...
    def b() -> None: ...
    HANDLERS = {"a": a, "b": b}
    """
    assert names(code) == []


def test_semantic_kernel_langroid_browser_use_forms() -> None:
    code = """
    from semantic_kernel.functions import kernel_function
    from langroid.agent.tool_message import ToolMessage
    from browser_use.tools.registry.service import Registry

    class TimePlugin:
        @kernel_function(name="now", description="now")
        def now(self) -> str:
            return ""

    class SquareTool(ToolMessage):
        request: str = "square"

        def handle(self) -> str:
            return "4"

    class Tools:
        def __init__(self) -> None:
            self.registry = Registry[int]([])

            @self.registry.action("Go back")
            async def go_back() -> None: ...
    """
    # a ToolMessage is named by its ``request`` (the name the model calls it by)
    assert names(code) == [("now", "semantic-kernel"), ("square", "langroid"), ("go_back", "browser-use")]


def test_google_adk_agentscope_metagpt_forms() -> None:
    code = """
    from google.adk.tools import BaseTool, FunctionTool
    from agentscope.tool import ToolBase
    from metagpt.tools.tool_registry import register_tool
    from mirascope import llm

    @llm.tool
    def weather(city: str) -> str:
        return city

    def get_time(tz: str) -> str:
        return tz

    time_tool = FunctionTool(func=get_time)

    class LoadResource(BaseTool):
        async def run_async(self, *, args, tool_context):
            return args

    class Bash(ToolBase):
        async def call(self, command: str):
            return command

    @register_tool(tags=["web"])
    async def scrape(url: str) -> str:
        return url

    @register_tool()
    class Editor:
        def read(self, path: str) -> str:
            return path

        def _private(self) -> None: ...
    """
    assert sorted(names(code)) == sorted([
        ("get_time", "google-adk"), ("LoadResource", "google-adk"), ("Bash", "agentscope"),
        ("scrape", "metagpt"), ("Editor", "metagpt"), ("weather", "mirascope"),
    ])


def test_namespace_package_spelling_of_a_framework_base() -> None:
    # google/ has no __init__.py: linted in place, google-adk's own modules are named adk.tools.*
    code = """
    from adk.tools.base_tool import BaseTool

    class Finish(BaseTool):
        async def run_async(self, *, args, tool_context):
            return args
    """
    assert names(code) == [("Finish", "google-adk")]


# --------------------------------------------------------------------------- the text layout (issue 26 item 5)

LAYOUT_CODE = """
import requests
from smullyan.runtime import read_safe

@read_safe
def search_the_web_for_things_with_a_long_name(query: str) -> str:
    try:
        return requests.get("https://example.com/a/very/long/path/for/searching/things", params={"q": query}).text
    except Exception as e:
        return f"error: {e}"
"""


def _text(width: int, wide: bool = False, code: str = LAYOUT_CODE) -> str:
    import io

    from smullyan.linter.tools import report as tools_report

    run = tools.ToolRun(tools=tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools, files_checked=1)
    out = io.StringIO()
    tools_report.format_text(run, out, width=width, wide=wide)
    return out.getvalue()


def test_80_columns_one_block_per_tool_every_fact_kept() -> None:
    text = _text(80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "search_the_web_for_things_with_a_long_name" in text
    assert "agent_tools.py:5" in text
    assert "NO TIMEOUT" in text and "failures: text" in text and "TFH201" in text


def test_wide_prints_the_table_uncut() -> None:
    text = _text(80, wide=True)
    head = text.splitlines()[0]
    assert head.split()[:3] == ["tool", "where", "framework"]
    assert "https://example.com/a/very/long/path/for/searching/things" in text
    assert "…" not in text


def test_no_tool_says_which_settings_would_find_them() -> None:
    text = _text(80, code="x = 1\n")
    assert "tool-decorators" in text and "tool-base-classes" in text and "tool-list-constructors" in text
    assert all(len(line) <= 80 for line in text.splitlines())


# --------------------------------------------------------------------------- facts that agree with lint


def _tool(code: str) -> tools.Tool:
    (t,) = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    return t


def test_kill_and_reap_communicate_is_not_no_timeout() -> None:
    t = _tool("""
    import subprocess
    from langchain_core.tools import tool

    @tool
    def run_ls() -> str:
        '''ls'''
        proc = subprocess.Popen(["ls"], stdout=subprocess.PIPE)
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        return out
    """)
    assert [c.timeout for c in t.calls if c.what.endswith("communicate")] == ["value", "n/a"]
    assert "TFH201" not in t.findings


def test_traceback_text_is_text_and_a_fallback_is_not_swallowed() -> None:
    text = _tool("""
    import traceback
    from langchain_core.tools import tool

    @tool
    def a(x: str) -> str:
        '''a'''
        try:
            return run(x)
        except Exception:
            return traceback.format_exc()
    """)
    assert text.failures == ["text"]
    fallback = _tool("""
    from langchain_core.tools import tool

    @tool
    def b(x: str) -> str:
        '''b'''
        try:
            return primary(x)
        except KeyError:
            return use_fallback(x)
    """)
    assert fallback.failures == ["fallback"]
    swallowed = _tool("""
    from langchain_core.tools import tool

    @tool
    def c(x: str) -> str:
        '''c'''
        try:
            return primary(x)
        except KeyError:
            return ""
    """)
    assert swallowed.failures == ["swallowed"]


def test_failures_follow_the_helpers_the_findings_do() -> None:
    t = _tool("""
    from langchain_core.tools import tool

    def _fetch(x):
        try:
            return primary(x)
        except Exception as e:
            return f"failed: {e}"

    @tool
    def d(x: str) -> str:
        '''d'''
        return _fetch(x)
    """)
    assert t.failures == ["text"]


def test_calls_on_a_helpers_return_value_are_followed() -> None:
    t = _tool("""
    import requests
    from langchain_core.tools import tool

    class Api:
        def _session(self) -> requests.Session:
            return requests.Session()

        @tool
        def e(self, url: str) -> str:
            '''e'''
            return self._session().post(url, json={}).text
    """)
    assert [(c.timeout) for c in t.calls if "post" in c.what.lower() or "POST" in c.what] == ["missing"]


def test_text_put_in_a_name_in_the_handler_and_returned_after_it_is_text_not_swallowed() -> None:
    # the caught exception's text followed as TFH401 follows it (rules/errors/text.py): assigned in the
    # handler, returned after the try; the handler alone returns nothing
    t = _tool("""
    from langchain_core.tools import tool

    @tool
    def f(x: str) -> dict:
        '''f'''
        try:
            out = {"ok": True, "data": primary(x)}
        except Exception as e:
            out = {"ok": False, "why": str(e)}
        return out
    """)
    assert t.failures == ["text"]
    assert "TFH401" in t.findings
    kept = _tool("""
    from langchain_core.tools import tool

    @tool
    def g(x: str) -> dict:
        '''g'''
        try:
            out = {"ok": True, "data": primary(x)}
        except Exception:
            out = {"ok": False}
        return out
    """)
    assert kept.failures == ["swallowed"]


def test_dispatch_dict_must_name_the_schemas_it_dispatches() -> None:
    # a dict of hooks by name beside a schema built from variables is no tool dispatch
    code = """
    class Loop:
        def schema(self, tool):
            return {"name": tool.name, "parameters": tool.parameters}

        async def _on_start(self) -> None: ...
        async def _on_end(self) -> None: ...

        async def step(self) -> None:
            await run_step(hooks={"_on_start": self._on_start, "_on_end": self._on_end})
    """
    assert names(code) == []
    # the OpenAI form: the name nested under "function"
    code = """
    TOOLS = [{"type": "function", "function": {"name": "add", "parameters": {}}},
             {"type": "function", "function": {"name": "sub", "parameters": {}}}]

    def add(a: int, b: int) -> int:
        return a + b

    def sub(a: int, b: int) -> int:
        return a - b

    HANDLERS = {"add": add, "sub": sub}
    """
    assert names(code) == [("add", "schema"), ("sub", "schema")]


def test_a_tool_factory_runs_the_function_it_returns() -> None:
    code = """
    import requests
    from inspect_ai.tool import Tool, ToolDef, tool

    @tool
    def fetch(timeout: int = 10) -> Tool:
        \"\"\"Builds the fetch tool.\"\"\"
        prefix = "https://"

        async def execute(url: str) -> str:
            \"\"\"Fetch a page.\"\"\"
            return requests.get(prefix + url).text

        return execute

    @tool(name="shell", parallel=False)
    def bash(background: bool = False) -> Tool:
        async def run(cmd: str) -> str:
            return cmd
        if not background:
            return run
        return ToolDef(run, name="shell").as_tool()

    @tool
    def built_elsewhere() -> Tool:
        return make_tool()

    @tool
    def wrapped() -> Tool:
        async def execute(text: str) -> str:
            return text
        tool_def = ToolDef(execute, name="wrapped")
        return tool_def.as_tool()
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    rows = [(t.name, t.framework, t.form, t.qualname.rsplit(".", 2)[-2:], t.line) for t in found]
    assert rows == [
        ("fetch", "inspect-ai", "@tool factory", ["fetch", "execute"], 5),
        ("shell", "inspect-ai", "@tool factory", ["bash", "run"], 16),
        ("built_elsewhere", "inspect-ai", "@tool", ["agent_tools", "built_elsewhere"], 24),
        ("wrapped", "inspect-ai", "@tool factory", ["wrapped", "execute"], 28),
    ]
    # the facts are the returned function's: its call without a timeout
    assert [c.timeout for c in found[0].calls] == ["missing"]


def test_a_project_registry_decorator_on_a_tool_class() -> None:
    code = """
    import requests
    from myagent.tools.base import BaseTool, register_tool

    @register_tool("web_fetch")
    class FetchTool(BaseTool):
        def call(self, params: dict) -> str:
            return self._get(params["url"])

        def _get(self, url: str) -> str:
            return requests.get(url).text

        def parameters(self) -> dict:
            return {}

    @register_tool("notes")
    class Notes(BaseTool):
        def add(self, text: str) -> None: ...

    @register_tool("settings")
    class Settings:  # neither it nor a base is named as a tool
        def call(self) -> None: ...

    @register_tool("other")
    class Elsewhere(BaseModel):  # the decorator's package is none of its ancestors'
        def call(self) -> None: ...
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert [(t.name, t.framework, t.form) for t in found] == [
        ("web_fetch", "myagent", "@register_tool class"), ("notes", "myagent", "@register_tool class")]
    # the entry point runs it (and the helper it calls), not every public method
    assert [c.timeout for c in found[0].calls] == ["missing"]


def test_methods_run_by_the_called_name_through_a_prefix() -> None:
    code = """
    import requests

    class Surfer:
        async def run_call(self, name: str, args: dict) -> str:
            attr = f"_execute_tool_{name}"
            handler = getattr(self, attr, None)
            if handler is None:
                raise ValueError(name)
            return await handler(args)

        async def _execute_tool_visit(self, args: dict) -> str:
            return requests.get(args["url"]).text

        async def _execute_tool_back(self, args: dict) -> str:
            return "ok"

    class Settings:  # a prefix that says no tool: options looked up by key
        def get(self, key: str) -> object:
            return getattr(self, "opt_" + key)()

        def opt_a(self) -> int: ...
        def opt_b(self) -> int: ...
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert [(t.name, t.framework, t.line) for t in found] == [("visit", "dispatch", 12), ("back", "dispatch", 15)]
    assert [c.timeout for c in found[0].calls] == ["missing"]


def test_a_match_on_the_called_name() -> None:
    code = """
    import requests

    class FileAgent:
        async def on_calls(self, calls: list) -> None:
            for call in calls:
                tool_name = call.name
                match tool_name:
                    case "fetch":
                        async def _fetch() -> str:
                            return requests.get(call.url).text
                        await self.guarded(_fetch)
                    case "page_up" | "page_down":
                        self.page(tool_name)
                    case _:
                        raise ValueError(tool_name)

        def render(self, kind: str) -> None:
            match kind:  # not a called name
                case "a":
                    pass
                case "b":
                    pass
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert sorted((t.name, t.line) for t in found) == [("fetch", 9), ("page_down", 13), ("page_up", 13)]
    rows = {t.name: t for t in found}
    # the case that wraps its code in a function is that function; the others are the case's own lines
    assert rows["fetch"].qualname.endswith("on_calls._fetch") and rows["fetch"].findings == {"TFH201": 1}
    assert rows["page_up"].qualname.endswith("FileAgent.on_calls") and rows["page_up"].findings == {}
