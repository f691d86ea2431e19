"""`smullyan tools` (issue 28): a decorator whose name says tool but whose body only wraps the function (tracing,
logging) makes no tool; the body of a decorator the run defines decides, not its name. Also the names a low-level
MCP server lists when they are not literals."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import OUTSIDE, write_tree as _write, tool_rows as _rows


# a framework's tool base whose run methods carry a tracing decorator named after tools, defined in another module
TRACED = {
    "tracepkg/__init__.py": "",
    "tracepkg/trace.py": """
        import asyncio
        import functools

        def trace_tool(func):
            @functools.wraps(func)
            async def wrapper_async(*args, **kwargs):
                return await func(*args, **kwargs)

            @functools.wraps(func)
            def wrapper_sync(*args, **kwargs):
                return func(*args, **kwargs)

            return wrapper_async if asyncio.iscoroutinefunction(func) else wrapper_sync

        def timed_tool(label):
            def deco(fn):
                def wrapper(*args, **kwargs):
                    return fn(*args, **kwargs)
                return wrapper
            return deco

        def tool_api(func=None, *, explode_return=False):
            if callable(func):
                @functools.wraps(func)
                def wrapper(self, *args, **kwargs):
                    return func(self, *args, **kwargs)
                wrapper.api_description = {"name": func.__name__}
                return wrapper

            def decorate(func):
                @functools.wraps(func)
                def wrapper(self, *args, **kwargs):
                    return func(self, *args, **kwargs)
                wrapper.api_description = {"name": func.__name__}
                return wrapper
            return decorate

        _tools = []

        def register_tool(func):
            @functools.wraps(func)
            def wrapper(*args, **kwargs):
                return func(*args, **kwargs)
            _tools.append(wrapper)
            return wrapper
    """,
    "tracepkg/base.py": """
        class Component:
            pass
    """,
    "tracepkg/tool.py": """
        from tracepkg.base import Component
        from tracepkg.trace import register_tool, timed_tool, tool_api, trace_tool

        class Tool(Component):
            @trace_tool
            def run(self, **kwargs):
                return self.execute(**kwargs)

            @timed_tool("x")
            def langchain_run(self, text):
                return self.execute(text=text)

            @register_tool
            def search(self, q: str) -> str:
                return q

            @tool_api(explode_return=True)
            def fetch(self, url: str) -> str:
                return url

            def execute(self, **kwargs):
                raise NotImplementedError
    """,
}


def test_a_tracing_decorator_named_after_tools_makes_no_tool(tmp_path: Path) -> None:
    # trace_tool and timed_tool only wrap: no row; register_tool wraps and stores the wrapper, tool_api marks it
    # (``wrapper.api_description``, what a metaclass collects): rows
    assert _rows(_write(tmp_path, TRACED)) == [("tool.py", "fetch", "tracepkg", "@tool_api"),
                                               ("tool.py", "search", "tracepkg", "@register_tool")]


def test_an_unknown_decorator_named_after_tools_still_makes_a_tool(tmp_path: Path) -> None:
    # the name heuristic stays when the run does not define the decorator (its body is not there to decide)
    files = {
        "actpkg/__init__.py": "",
        "actpkg/maps.py": """
            from actpkg.base import BaseAction, tool_api

            class Maps(BaseAction):
                @tool_api
                def get_route(self, start: str) -> dict:
                    return {}
        """,
    }
    assert _rows(_write(tmp_path, files)) == [("maps.py", "get_route", "actpkg", "@tool_api")]


def test_a_lowlevel_server_lists_names_through_a_helper_and_constants() -> None:
    code = """
    from enum import Enum
    from mcp.server.lowlevel import Server
    from mcp import types

    READ_INBOX = "read_inbox"

    class ToolName(str, Enum):
        FETCH = "fetch"

    def _read_inbox_tool():
        return types.Tool(name=READ_INBOX, inputSchema={})

    def _operator_tools():
        return [_read_inbox_tool(), types.Tool(name="send_message", inputSchema={}),
                types.Tool(name=ToolName.FETCH.value, inputSchema={})]

    def build(client):
        server = Server("team")

        @server.list_tools()
        async def list_tools():
            if client.member:
                return [types.Tool(name=tool.card.name, inputSchema={}) for tool in client.tools.values()]
            return _operator_tools()

        @server.call_tool()
        async def call_tool(name, arguments):
            return []

        return server
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert sorted(t.name for t in found) == ["fetch", "read_inbox", "send_message"]


def test_a_lowlevel_server_whose_names_are_all_computed_is_one_row_named_by_its_function() -> None:
    code = """
    from mcp.server.lowlevel import Server
    from mcp import types

    server = Server("proxy")

    @server.list_tools()
    async def list_tools():
        return [types.Tool(name=t.card.name, inputSchema={}) for t in REMOTE]

    @server.call_tool()
    async def call_tool(name, arguments):
        return []
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert [t.name for t in found] == ["call_tool"]


def test_a_handler_class_registers_its_methods_on_the_server_its_constructor_is_given(tmp_path: Path) -> None:
    files = {
        "eksx/__init__.py": "",
        "eksx/handler.py": """
            class PodHandler:
                def __init__(self, mcp, allow_write: bool = False):
                    self.mcp = mcp
                    self.allow_write = allow_write
                    self.mcp.tool(name="list_pods")(self.list_pods)

                async def list_pods(self, namespace: str) -> str:
                    return namespace
        """,
        "eksx/server.py": """
            from mcp.server.mcpserver import MCPServer
            from eksx.handler import PodHandler

            mcp = None

            def create_server(mode: str = "iam"):
                return MCPServer("eks", instructions=mode)

            def main():
                global mcp
                mcp = create_server()
                PodHandler(mcp, True)
        """,
    }
    assert _rows(_write(tmp_path, files)) == [("handler.py", "list_pods", "mcp", "self.mcp.tool(...)")]


def test_promptflow_tool_on_a_module_level_function() -> None:
    code = """
    from promptflow._internal import tool
    from promptflow.core import tool as core_tool

    @tool(streaming_option_parameter="stream")
    def llm(prompt: str, stream: bool = False) -> str:
        return prompt

    @core_tool
    def render(template: str) -> str:
        return template

    def helper() -> None: ...
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert [(t.name, t.framework) for t in found] == [("llm", "promptflow"), ("render", "promptflow")]


def test_aviary_tool_from_function_on_nested_functions() -> None:
    code = """
    from aviary.tools import Tool

    class DummyEnv:
        async def reset(self):
            def cast_float(x: str) -> float:
                return float(x)

            def unused(x: str) -> str:
                return x

            self.tools = [Tool.from_function(cast_float, allow_empty_param_descriptions=True)]
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    assert [(t.name, t.framework) for t in found] == [("cast_float", "aviary")]


def test_a_run_tool_class_built_around_a_nested_function(tmp_path: Path) -> None:
    # LocalFunction is no ``...Tool`` by name, but a subclass of the project's Tool base: built around a callable,
    # the callable is the tool; a class of the project that is no tool class (``Job(func=...)``) is not
    files = {
        "fwk/__init__.py": "",
        "fwk/tool/__init__.py": "from fwk.tool.base import Tool\nfrom fwk.tool.function import LocalFunction\n",
        "fwk/tool/base.py": """
            from abc import ABC, abstractmethod

            class Tool(ABC):
                def __init__(self, card):
                    self.card = card

                @abstractmethod
                async def invoke(self, inputs: dict) -> object: ...

                @abstractmethod
                async def stream(self, inputs: dict) -> object: ...
        """,
        "fwk/tool/function.py": """
            from fwk.tool.base import Tool

            class LocalFunction(Tool):
                def __init__(self, card, func):
                    super().__init__(card)
                    self.func = func

                async def invoke(self, inputs: dict) -> object:
                    return await self.func(**inputs)

                async def stream(self, inputs: dict) -> object:
                    yield await self.invoke(inputs)
        """,
        "fwk/tool/shell.py": """
            from fwk.tool.base import Tool

            class ShellTool(Tool):
                async def invoke(self, inputs: dict) -> object:
                    return inputs

                async def stream(self, inputs: dict) -> object:
                    yield inputs
        """,
        "fwk/jobs.py": "class Job:\n    def __init__(self, func):\n        self.func = func\n",
        "fwk/files.py": """
            from fwk.jobs import Job
            from fwk.tool import LocalFunction

            def make_write_tool(sandbox):
                async def write_file(**inputs):
                    return inputs

                async def cleanup():
                    return None

                Job(func=cleanup)
                return LocalFunction(card=None, func=write_file)
        """,
    }
    rows = [r for r in _rows(_write(tmp_path, files)) if r[0] == "files.py"]
    assert rows == [("files.py", "write_file", "fwk", "LocalFunction(func=...)")]


def test_a_tool_class_adapting_itself_to_another_framework_is_no_second_tool() -> None:
    # the adapter runs the class's own tool (its row); an agent adapted to a tool is a tool of its own (a proxy row)
    code = """
    from crewai.tools import BaseTool
    from langchain.tools import Tool as LangchainTool

    class SearchTool(BaseTool):
        name: str = "search"

        def _run(self, query: str) -> str:
            return query

        def langchain_run(self, text: str) -> str:
            return self._run(text)

        def as_langchain(self) -> LangchainTool:
            return LangchainTool(name=self.name, func=self.langchain_run, description="search")

    class Agent:
        def langchain_run(self, text: str) -> str:
            return text

        def as_langchain_tool(self) -> LangchainTool:
            return LangchainTool(name="agent", func=self.langchain_run, description="an agent")
    """
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    rows = sorted((t.name, t.form, t.line) for t in found)
    assert rows == [("langchain_run", "Tool(func=...)", 18), ("search", "BaseTool subclass", 5)]
