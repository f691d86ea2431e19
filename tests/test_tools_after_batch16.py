"""`smullyan tools` (issue 28, session 43): the discovery forms batch 16's blind run left (tuned on it after the run).
A low-level MCP server listing a module-level table of ``Tool(...)`` and of a module function's tools
(ozon-mcp-server's ``TOOLS = [Tool(name=...), _tool("orders", ...)]``), its dispatcher handing the call to another
function; a project's ``@tool(name=...)`` decorator handing the function to a nested ``def`` that marks and gives it
back (opensre's ``attach``); a project helper building a tool object and handing it the callable by a setter
(autosre's ``create_tool(name, description, executor)``: ``tool.set_executor(executor)``); a class named for tools
whose run method looks up ``getattr(self, f"t_{name}")`` (lcode's ``Toolbox``); the tools of test modules left
out as demo code is."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tool_rows, write_tree


def test_a_low_level_server_listing_a_module_table_of_tools_and_tool_makers() -> None:
    rows = source_rows("""
        from mcp.server import Server
        from mcp.types import Tool, TextContent

        app = Server("shop")


        def _tool(name: str, description: str, properties: dict | None = None) -> Tool:
            schema = {"type": "object", "properties": properties or {}}
            return Tool(name=name, description=description, inputSchema=schema)


        TOOLS = [
            Tool(name="list_shops", description="shops", inputSchema={}),
            _tool("list_orders", "orders"),
            _tool(description="stock", name="list_stock"),
        ]


        def _visible() -> list[Tool]:
            return [t for t in TOOLS if t.name]


        @app.list_tools()
        async def list_tools() -> list[Tool]:
            return _visible()


        @app.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[TextContent]:
            return await _impl(name, arguments)


        async def _impl(name: str, arguments: dict) -> list[TextContent]:
            if name == "list_shops":
                return []
            if name == "list_orders":
                return []
            return []
        """)
    assert [n for n, _fw, _form in rows] == ["list_orders", "list_shops", "list_stock"]


def test_a_module_function_not_returning_a_named_tool_names_nothing() -> None:
    rows = source_rows("""
        from mcp.server import Server
        from mcp.types import Tool

        app = Server("shop")


        def _label(text: str) -> str:
            return text.upper()


        TOOLS = [Tool(name="list_shops", description=_label("shops"), inputSchema={}), _label("orders")]


        @app.list_tools()
        async def list_tools() -> list[Tool]:
            return TOOLS


        @app.call_tool()
        async def call_tool(name: str, arguments: dict) -> list:
            return []
        """)
    assert [n for n, _fw, _form in rows] == ["list_shops"]


_DECORATOR = """
    from typing import Any, Callable, TypeVar, cast

    from app.registered import REGISTERED_TOOL_ATTR, RegisteredTool

    F = TypeVar("F", bound=Callable[..., Any])


    def tool(func: F | None = None, *, name: str | None = None, description: str | None = None) -> Any:
        def attach(target: F) -> F:
            if name is not None or description is not None:
                setattr(target, REGISTERED_TOOL_ATTR, RegisteredTool(target, name=name, description=description))
            return target

        if func is None:

            def wrapper(inner: F) -> F:
                return cast(F, attach(inner))

            return wrapper
        return attach(func)
    """


def test_a_project_tool_decorator_marking_through_a_nested_def(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/registered.py": """
            REGISTERED_TOOL_ATTR = "__registered_tool__"


            class RegisteredTool:
                def __init__(self, fn, name=None, description=None):
                    self.fn, self.name, self.description = fn, name, description
            """,
        "app/tool_decorator.py": _DECORATOR,
        "app/registry.py": """
            from .registered import REGISTERED_TOOL_ATTR


            def collect(module):
                return [getattr(v, REGISTERED_TOOL_ATTR) for v in vars(module).values() if hasattr(v, REGISTERED_TOOL_ATTR)]
            """,
        "app/s3.py": """
            import boto3

            from app.tool_decorator import tool


            @tool(name="list_s3_objects", description="List objects in a bucket.")
            def list_objects(bucket: str) -> list[str]:
                return boto3.client("s3").list_objects_v2(Bucket=bucket)["Contents"]
            """,
    })
    assert [(f, n) for f, n, _fw, _form in tool_rows(files)] == [("s3.py", "list_s3_objects")]


def test_a_helper_handing_its_callable_to_a_tool_by_a_setter(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "agents/__init__.py": "",
        "agents/react.py": """
            from typing import Any, Callable


            class Tool:
                def __init__(self, name: str, description: str, parameters: dict) -> None:
                    self.name, self.description, self.parameters = name, description, parameters
                    self._executor: Callable[..., str] | None = None

                def set_executor(self, fn: Callable[..., str]) -> None:
                    self._executor = fn


            def create_tool(name: str, description: str, executor: Callable[..., str],
                            parameters: dict[str, Any] | None = None) -> Tool:
                tool = Tool(name=name, description=description, parameters=parameters or {})
                tool.set_executor(executor)
                return tool
            """,
        "agents/logs.py": """
            import httpx

            from .react import Tool, create_tool


            class LogsAgent:
                async def get_tools(self) -> list[Tool]:
                    async def search_logs(query: str) -> str:
                        return httpx.get("https://logs.example", params={"q": query}).text

                    return [create_tool(name="search_logs", description="Search logs", executor=search_logs)]
            """,
    })
    assert [(f, n) for f, n, _fw, _form in tool_rows(files)] == [("logs.py", "search_logs")]


def test_a_tool_class_running_its_prefixed_methods_by_name() -> None:
    rows = source_rows("""
        class Toolbox:
            def run(self, name: str, args: dict) -> str:
                fn = getattr(self, f"t_{name}", None)
                if fn is None:
                    return f"Error: unknown tool {name}"
                return fn(**args)

            def t_read_file(self, path: str) -> str:
                return open(path).read()

            def t_list_dir(self, path: str) -> str:
                return path
        """)
    assert [n for n, _fw, _form in rows] == ["list_dir", "read_file"]


def test_a_prefix_not_saying_tool_outside_a_tool_class_is_no_dispatch() -> None:
    rows = source_rows("""
        class Parser:
            def run(self, kind: str, text: str) -> str:
                return getattr(self, f"p_{kind}")(text)

            def p_json(self, text: str) -> str:
                return text

            def p_yaml(self, text: str) -> str:
                return text
        """)
    assert rows == []


def test_tools_of_test_modules_are_left_out(tmp_path: Path) -> None:
    tool = """
        from fastmcp import FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        def lookup(name: str) -> str:
            return name
        """
    files = write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/server.py": tool,
        "tests/__init__.py": "",
        "tests/test_server.py": tool,
        "app/test_plans.py": tool,  # tools about test plans (alita-sdk's ado/test_plan/): production code
    })
    rows = sorted((f, n) for f, n, _fw, _form in tool_rows(files))
    assert rows == [("server.py", "lookup"), ("test_plans.py", "lookup")]


def test_a_function_named_to_run_tools_branching_on_the_name() -> None:
    rows = source_rows("""
        from app.tools import list_files, read_file, run_command


        def run_tool(tool_name, arguments):
            if tool_name == "list_files":
                return list_files(arguments["path"])
            if tool_name == "read_file":
                return read_file(arguments["path"])
            if tool_name == "run_command":
                return run_command(arguments["command"])
            return f"unknown tool {tool_name}"
        """)
    assert [n for n, _fw, _form in rows] == ["list_files", "read_file", "run_command"]


def test_branches_only_computing_a_value_or_a_function_not_named_to_run_tools_are_no_dispatch() -> None:
    rows = source_rows("""
        def tool_icon(tool_name):
            if tool_name == "list_files":
                return "folder"
            if tool_name == "read_file":
                return "file"
            if tool_name == "run_command":
                return "terminal"
            return ""


        def run_tool_preview(tool_name, arguments):
            if tool_name == "list_files":
                return "ls"
            if tool_name == "read_file":
                return "cat"
            if tool_name == "run_command":
                return "sh"
            return ""


        def render(tool_name, ui):
            if tool_name == "list_files":
                ui.show("folder")
            if tool_name == "read_file":
                ui.show("file")
            if tool_name == "run_command":
                ui.show("terminal")
        """)
    assert rows == []
