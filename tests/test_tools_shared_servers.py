"""`smullyan tools` (issue 28, session 35, batch 7): tool decorators spelled through the run's own objects and
classes (a FastMCP server built in one module and imported by the tool modules; a project subclass of FastMCP),
arcade's ``@tool`` and ToolAgents' ``FunctionTool``."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import tool_rows, write_tree

# the server object lives in core.py; each tool module imports it and decorates with its tool method
SHARED_INSTANCE = {
    "bioapp/__init__.py": "",
    "bioapp/core.py": """
        from mcp.server.fastmcp import FastMCP

        mcp_app = FastMCP("bio")
    """,
    "bioapp/genes.py": """
        from bioapp.core import mcp_app

        @mcp_app.tool()
        async def gene_getter(gene_id: str) -> str:
            '''Fetch a gene record.'''
            return await fetch(gene_id)
    """,
}

# a project subclass of the standalone fastmcp server, instantiated beside it, imported by the tool modules
SUBCLASSED = {
    "jenk/__init__.py": "",
    "jenk/server/__init__.py": """
        from fastmcp import FastMCP

        class JobsMCP(FastMCP[dict]):
            def __init__(self, name, **kwargs):
                super().__init__(name, **kwargs)

        mcp = JobsMCP("jobs")
    """,
    "jenk/server/build.py": """
        from jenk.server import mcp

        @mcp.tool(tags=["read"])
        async def get_build(job: str, number: int) -> dict:
            return {"job": job, "number": number}
    """,
}

# an object of a class that is no tool server: its ``tool`` method makes no tool
NOT_A_SERVER = {
    "other/__init__.py": "",
    "other/core.py": """
        class Hammer:
            def tool(self):
                def deco(fn):
                    return fn
                return deco

        hammer = Hammer()
    """,
    "other/use.py": """
        from other.core import hammer

        @hammer.tool()
        def nail(x: int) -> int:
            return x
    """,
}


def test_tool_decorator_of_an_imported_server_object(tmp_path: Path) -> None:
    rows = tools.run(write_tree(tmp_path, SHARED_INSTANCE), Config()).tools
    assert [(t.name, t.framework, t.form) for t in rows] == [("gene_getter", "mcp", "@mcp_app.tool")]
    # the server is FastMCP's: what the tool raises reaches the model as text, as for a local FastMCP object
    assert rows[0].failures == ["text"]


def test_tool_decorator_of_a_server_subclass_object(tmp_path: Path) -> None:
    rows = tools.run(write_tree(tmp_path, SUBCLASSED), Config()).tools
    assert [(t.name, t.framework, t.form) for t in rows] == [("get_build", "mcp", "@mcp.tool")]
    assert rows[0].failures_by == "fastmcp.server.server.FastMCP.call_tool"


def test_method_of_an_object_that_is_no_server_is_no_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, NOT_A_SERVER)) == []


def test_arcade_tool_decorator(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"kit/__init__.py": "", "kit/tools/activity.py": """
        from arcade_mcp_server import Context, tool
        from arcade_tdk import tool as tdk_tool

        @tool(requires_auth=None, requires_secrets=["GITHUB_SERVER_URL"])
        async def set_starred(context: Context, owner: str, name: str) -> dict:
            return {}

        @tdk_tool
        def list_labels(context, repo: str) -> list:
            return []

        def helper(x):
            return x
    """})
    assert tool_rows(files) == [("activity.py", "list_labels", "arcade", "@tdk_tool"),
                                ("activity.py", "set_starred", "arcade", "@tool")]


def test_toolagents_function_tool(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"agentkit/__init__.py": "", "agentkit/files.py": """
        from ToolAgents import FunctionTool
        from ToolAgents.function_tool import AsyncFunctionTool

        def read_file(path: str) -> str:
            '''Read a file.'''
            return open(path).read()

        class WebTools:
            async def fetch(self, url: str) -> str:
                return url

            def get_tools(self):
                return [AsyncFunctionTool(self.fetch)]

        def get_tools():
            return [FunctionTool(read_file)]
    """})
    assert tool_rows(files) == [("files.py", "fetch", "toolagents", "AsyncFunctionTool"),
                                ("files.py", "read_file", "toolagents", "FunctionTool")]


# a project's marker decorators: ``tool`` marks and hands the function to a tracer's decorator, and the tool
# registry reads the mark; ``user_only_tool`` marks with an attribute no module of the run reads
MARKERS = {
    "assist/__init__.py": "",
    "assist/constants.py": """
        from .tracing import tracer

        IS_TOOL = "_is_tool"
        IS_USER_ONLY_TOOL = "_is_user_only_tool"

        def tool(func):
            setattr(func, IS_TOOL, True)
            return tracer.tool(func)

        def user_only_tool(func):
            setattr(func, IS_USER_ONLY_TOOL, True)
            return func
    """,
    "assist/tracing.py": """
        class NoOpTracer:
            def tool(self, func):
                return func

        tracer = NoOpTracer()
    """,
    "assist/registry.py": """
        from .constants import IS_TOOL

        def is_tool(func):
            return getattr(func, IS_TOOL, False)

        class ToolRegistry:
            def __init__(self, funcs):
                self.tools = {f.__name__: f for f in funcs if is_tool(f)}
    """,
    "assist/memories.py": """
        from .constants import tool, user_only_tool

        @tool
        def create_memory(name: str, text: str) -> str:
            return name

        @user_only_tool
        def print_memories() -> str:
            return ""
    """,
}


def test_marker_decorator_read_by_the_run_is_a_registry_and_an_unread_marker_is_not(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, MARKERS)) == [("memories.py", "create_memory", "assist", "@tool")]


def test_marker_read_as_a_private_attribute_keeps_its_registry(tmp_path: Path) -> None:
    files = dict(MARKERS)
    files["assist/registry.py"] = """
        def commands(funcs):
            return [f for f in funcs if f.__dict__.get("x") or f._is_user_only_tool]
    """
    assert ("memories.py", "print_memories", "assist", "@user_only_tool") in tool_rows(write_tree(tmp_path, files))
