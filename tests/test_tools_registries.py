"""`smullyan tools` (issue 28): tools registered by a call rather than a framework's decorator line, found with the
default configuration: a project's own registry decorator (defined in one module, applied in many), a tool decorator
applied by a call, a server handed to a registering function by another file, a tool class built around a callable,
livekit's ``function_tool``; and the look-alikes that are no tool."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.linter.tools.index import tool_word
from tools_support import OUTSIDE, write_tree as _write, tool_rows as _rows


def _names(code: str) -> list[tuple[str, str, str]]:
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    return [(t.name, t.framework, t.form) for t in found]


# a server package whose tool modules register through the package's own decorator, re-exported by the registry
# package; a resource registry of the same shape and a logging decorator beside it
REGISTRY = {
    "unitysrv/__init__.py": "",
    "unitysrv/registry/__init__.py": "from .tool_registry import scene_tool\nfrom .resources import scene_resource\n",
    "unitysrv/registry/tool_registry.py": """
        _tool_registry = []

        def scene_tool(name=None, description=None, group="core"):
            def decorator(func):
                _tool_registry.append({"func": func, "name": name or func.__name__, "group": group})
                return func
            return decorator

        def registered():
            return list(_tool_registry)
    """,
    "unitysrv/registry/resources.py": """
        _resources = []

        def scene_resource(uri):
            def decorator(func):
                _resources.append((uri, func))
                return func
            return decorator
    """,
    "unitysrv/logs.py": """
        import functools

        def traced(func):
            @functools.wraps(func)
            def wrapper(*args, **kwargs):
                return func(*args, **kwargs)
            return wrapper
    """,
    "unitysrv/tools/__init__.py": "",
    "unitysrv/tools/objects.py": """
        from unitysrv.registry import scene_resource, scene_tool
        from unitysrv.logs import traced

        @scene_tool(description="Move an object")
        async def move_object(ctx, name: str) -> dict:
            return {"moved": name}

        @scene_tool("delete_object")
        async def remove(ctx, name: str) -> dict:
            return {"deleted": name}

        @scene_resource("scene://objects")
        def objects() -> list:
            return []

        @traced
        def helper() -> None: ...
    """,
}


def test_a_projects_registry_decorator_applied_in_another_module(tmp_path: Path) -> None:
    rows = _rows(_write(tmp_path, REGISTRY))
    assert rows == [("objects.py", "delete_object", "unitysrv", "@scene_tool"),
                    ("objects.py", "move_object", "unitysrv", "@scene_tool")]


def test_a_marking_decorator_names_the_tool_by_its_name_parameter(tmp_path: Path) -> None:
    files = {
        "leansrv/__init__.py": "",
        "leansrv/registry.py": """
            from dataclasses import dataclass

            @dataclass
            class ToolDefinition:
                name: str
                options: dict

            def tool(name, **options):
                def decorate(function):
                    setattr(function, "__leansrv_tool__", ToolDefinition(name, options))
                    return function
                return decorate

            def cached(function):
                setattr(function, "__cached__", True)
                return function
        """,
        "leansrv/goals.py": """
            from .registry import cached, tool

            @tool("lean_goal", title="Goal")
            def goal(ctx, file: str) -> str:
                return file

            @cached
            def not_a_tool(x: int) -> int:
                return x
        """,
    }
    assert _rows(_write(tmp_path, files)) == [("goals.py", "lean_goal", "leansrv", "@tool")]


def test_a_local_decorator_that_hands_the_function_to_a_framework_tool_decorator() -> None:
    code = """
    from pydantic_ai.toolsets import FunctionToolset

    def console_toolset(texts):
        toolset = FunctionToolset()

        def described(text_id, tool_name=None):
            def register(fn):
                fn.__doc__ = texts[text_id]
                registered = toolset.tool(description=texts[text_id])(fn)
                return registered
            return register

        @described("ls")
        async def ls(ctx, path: str = ".") -> str:
            return path

        @described("hashline_read", "read_file")
        async def read_file(ctx, path: str) -> str:
            return path

        return toolset
    """
    assert _names(code) == [("ls", "pydantic-ai", "@described"), ("read_file", "pydantic-ai", "@described")]


def test_a_registry_object_method_used_as_a_decorator() -> None:
    code = """
    class ToolRegistry:
        def __init__(self):
            self._tools = {}

        def register(self, fn):
            self._tools[fn.__name__] = fn
            return fn

    class Handlers:
        def __init__(self):
            self.handlers = {}

        def on(self, fn):
            self.handlers[fn.__name__] = fn
            return fn

    registry = ToolRegistry()
    events = Handlers()

    @registry.register
    def search(q: str) -> str:
        return q

    @events.on
    def started() -> None: ...
    """
    assert _names(code) == [("search", "agent-tools", "@registry.register")]


SERVER = {
    "cwsrv/__init__.py": "",
    "cwsrv/server.py": """
        from mcp.server.fastmcp import FastMCP
        from cwsrv.logs.tools import LogsTools
        from cwsrv.metrics import register_metric_tools

        mcp = FastMCP("cw")
        logs = LogsTools()
        logs.register(mcp)
        register_metric_tools(server=mcp)
    """,
    "cwsrv/logs/tools.py": """
        class LogsTools:
            def register(self, mcp):
                mcp.tool(name="describe_log_groups")(self.describe_log_groups)
                mcp.tool()(self.cancel_query)

            async def describe_log_groups(self, ctx, prefix: str = "") -> list:
                return []

            async def cancel_query(self, ctx, query_id: str) -> bool:
                return True

        class Other:
            def wire(self, registry):
                registry.tool(name="not_a_tool")(self.helper)

            def helper(self) -> None: ...
    """,
    "cwsrv/metrics.py": """
        def register_metric_tools(server):
            @server.tool(name="get_metric_data")
            def get_metric_data(namespace: str) -> dict:
                return {}
    """,
}


def test_a_server_handed_to_a_registering_function_by_another_files_call(tmp_path: Path) -> None:
    rows = _rows(_write(tmp_path, SERVER))
    assert rows == [("metrics.py", "get_metric_data", "mcp", "@server.tool"),
                    ("tools.py", "cancel_query", "mcp", "mcp.tool(...)"),
                    ("tools.py", "describe_log_groups", "mcp", "mcp.tool(...)")]
    row = next(t for t in tools.run(_write(tmp_path, SERVER), Config()).tools if t.name == "cancel_query")
    assert row.failures_by is not None  # FastMCP turns what the method raises into an error result


def test_a_tool_class_built_around_a_callable() -> None:
    code = """
    from lionlike.protocols.tool import Tool
    from lionlike.protocols.box import Toolbox

    class CodingToolkit:
        def bind(self, branch):
            async def reader(path: str) -> str:
                return path

            async def bash(command: str) -> str:
                return command

            def post(result):
                return result

            tool_defs = [("reader", reader, object), ("bash", bash, object)]
            tools = [Tool(func_callable=func, request_options=cls, postprocessor=post)
                     for name, func, cls in tool_defs]
            for name, func, cls in tool_defs:
                tools.append(Tool(func_callable=func))
            tools.append(Tool(postprocessor=post))
            tools.append(Toolbox(func=post))
            return tools

    def connect(endpoint):
        async def _connect(**kwargs):
            return await endpoint.call(kwargs)
        return Tool(func_callable=_connect, tool_schema={})
    """
    assert _names(code) == [("reader", "lionlike", "Tool(func_callable=...)"),
                            ("bash", "lionlike", "Tool(func_callable=...)"),
                            ("_connect", "lionlike", "Tool(func_callable=...)")]


def test_livekit_function_tool_at_module_level_and_as_a_call() -> None:
    code = """
    from livekit.agents import function_tool
    from livekit.agents.llm import Toolset

    @function_tool
    async def lookup_weather(location: str) -> str:
        return location

    @function_tool(name="end_call")
    async def hang_up() -> None: ...

    class EndCallTool(Toolset):
        def __init__(self):
            self._tool = function_tool(self._end_call, name="end_the_call")

        async def _end_call(self) -> None: ...
    """
    assert _names(code) == [("lookup_weather", "livekit", "@function_tool"), ("end_call", "livekit", "@function_tool"),
                            ("end_the_call", "livekit", "function_tool")]


def test_a_decorator_name_that_says_tool() -> None:
    assert all(tool_word(n) for n in ("tool", "tool_api", "mcp_for_unity_tool", "register_tools", "action"))
    assert not any(tool_word(n) for n in ("on_tool_start", "after_tool_call", "tool_error_handler", "toolkit", "cached"))


def test_an_activity_style_decorator_whose_name_says_tool(tmp_path: Path) -> None:
    files = {
        "actpkg/__init__.py": "",
        "actpkg/base.py": """
            def tool_api(func):
                return func

            def on_tool_start(func):
                return func

            class BaseAction:
                def __call__(self, name, **kwargs):
                    return getattr(self, name)(**kwargs)
        """,
        "actpkg/maps.py": """
            from actpkg.base import BaseAction, on_tool_start, tool_api

            class Maps(BaseAction):
                @tool_api
                def get_route(self, start: str, end: str) -> dict:
                    return {}

                @on_tool_start
                def log(self) -> None: ...
        """,
    }
    assert _rows(_write(tmp_path, files)) == [("maps.py", "get_route", "actpkg", "@tool_api")]


def test_tool_handlers_that_describe_themselves_and_run_the_tool(tmp_path: Path) -> None:
    handlers = """
        class ToolHandler:
            def __init__(self, name):
                self.name = name

            def get_tool_description(self):
                raise NotImplementedError()

            def run_tool(self, args):
                raise NotImplementedError()

        class ListNotes(ToolHandler):
            def get_tool_description(self):
                return {"name": self.name}

            def run_tool(self, args):
                return []

        class DeleteNote(ToolHandler):
            def get_tool_description(self):
                return {"name": self.name}

            def run_tool(self, args):
                return True
    """
    executors = """
        class ToolExecutor:
            def execute(self, tool, args):
                raise NotImplementedError()

        class LocalExecutor(ToolExecutor):
            def execute(self, tool, args):
                return tool(**args)

        class DockerExecutor(ToolExecutor):
            def execute(self, tool, args):
                return tool(**args)
    """
    rows = _rows(_write(tmp_path, {"notes/__init__.py": "", "notes/tools.py": handlers, "notes/run.py": executors}))
    assert rows == [("tools.py", "DeleteNote", "notes", "ToolHandler subclass"),
                    ("tools.py", "ListNotes", "notes", "ToolHandler subclass")]


def test_the_decorator_that_registers_a_tool_is_no_call_out_of_it() -> None:
    code = """
    from mcp.server.lowlevel import Server
    from mcp import types

    server = Server("shell")

    @server.list_tools()
    async def list_tools():
        return [types.Tool(name="show_rules", inputSchema={})]

    @server.call_tool()
    async def call_tool(name, arguments):
        return [types.TextContent(type="text", text="rules")]
    """
    row = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools[0]
    assert (row.name, row.calls, row.classification) == ("show_rules", [], "unknown")


def test_a_function_of_an_enclosing_scope_handed_to_a_tool_call_in_a_nested_one() -> None:
    code = """
    from livekit.agents.llm import function_tool

    class Classifier:
        def save(self) -> None: ...

        async def classify(self) -> None:
            async def save_prediction(label: str) -> None: ...

            async def run() -> None:
                tools = [function_tool(save_prediction)]
                other = [function_tool(save)]  # the class body does not enclose the method
    """
    assert [n for n, _, _ in _names(code)] == ["save_prediction"]


def test_framework_tool_constructors_given_the_callable_by_keyword() -> None:
    code = """
    from agents import FunctionTool
    from strands.tools.tools import PythonAgentTool as StrandTool

    def openai_tool(name, schema, client):
        async def on_invoke_tool(ctx, input_str: str) -> str:
            return await client.call(name, input_str)
        return FunctionTool(name=name, description="", params_json_schema=schema, on_invoke_tool=on_invoke_tool)

    def strands_tool(name, spec, client):
        def callback_wrapper(tool_input, **kwargs):
            return client.call(name, tool_input)
        return StrandTool(tool_name=name, tool_spec=spec, callback=callback_wrapper)
    """
    assert _names(code) == [("on_invoke_tool", "openai-agents", "FunctionTool"),
                            ("callback_wrapper", "strands", "PythonAgentTool")]


def test_a_registering_function_imported_through_its_packages_reexport(tmp_path: Path) -> None:
    files = {
        "pptsrv/__init__.py": "",
        "pptsrv/tools/__init__.py": "from .chart_tools import register_chart_tools\n",
        "pptsrv/tools/chart_tools.py": """
            def register_chart_tools(app, presentations):
                @app.tool()
                def update_chart_data(slide_index: int) -> dict:
                    return {}
        """,
        "pptsrv/server.py": """
            from mcp.server.fastmcp import FastMCP
            from pptsrv.tools import register_chart_tools

            app = FastMCP("ppt")
            register_chart_tools(app, {})
        """,
    }
    assert _rows(_write(tmp_path, files)) == [("chart_tools.py", "update_chart_data", "mcp", "@app.tool")]
