"""`smullyan tools` (issue 28): the discovery forms left after batch 14 (tuned on it, not blind). A tool class handed
its function by position (``Tool(list_skills)``, nested, under a function-local import; ``Tool(make_handoff(m))``;
``[Tool(getattr(self, name)) for name in TOOL_NAMES]``: gwenflow) or by ``invoke=`` (lovia's proxies), never the tool
facility's own wrapper of the function it is given; a registration call spelling a tool out by position
(``plugin.tool(name, description, schema, fn)``: wizolt's layout plugin); a list named for functions of objects of the
run's classes (continuedev's ``ChatWithFunctions.functions``); a class named by a module constant; a class named as an
adapter that names itself by a literal (wizolt's ``MCPTool``, ``NAME = "MCP"``); mcp's ``@apps.tool(...)``; entry-point
classes (agentik)."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows as rows, tool_rows, write_tree

_GW_TOOL = """
    from typing import Any, Callable


    class BaseTool:
        name: str = ""

        def _run(self, **kwargs: Any) -> Any:
            raise NotImplementedError


    class Tool(BaseTool):
        def __init__(self, function: Callable[..., Any], *, name: str | None = None) -> None:
            self.function = function
            self.name = name or function.__name__

        def _run(self, **kwargs: Any) -> Any:
            return self.function(**kwargs)
    """


def test_a_tool_class_handed_its_function_by_position(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "gw/__init__.py": "",
        "gw/tools/__init__.py": "from gw.tools.tool import BaseTool, Tool\n",
        "gw/tools/tool.py": _GW_TOOL,
        "gw/memory.py": """
            TOOL_NAMES = ("read_memory", "memory_write")


            class MemoryToolset:
                def get_tools(self):
                    from gw.tools import Tool

                    return [Tool(getattr(self, name)) for name in TOOL_NAMES if self.enabled(name)]

                def enabled(self, name: str) -> bool:
                    return True

                def read_memory(self, path: str) -> str:
                    return path

                def memory_write(self, path: str, text: str) -> str:
                    return text

                def not_listed(self) -> str:
                    return ""
            """,
        "gw/skills.py": """
            class Skills:
                def get_tools(self):
                    from gw.tools import Tool

                    def list_skills() -> str:
                        return "none"

                    def make_handoff(member):
                        def _handoff(task: str) -> str:
                            return member.run(task)

                        return _handoff

                    return [Tool(list_skills), Tool(make_handoff(self), name="ask_member")]
            """,
        # the facility for the user's own functions: a parameter, not a tool of the package
        "gw/agent.py": """
            from gw.tools import Tool


            class Agent:
                def tool(self, func):
                    self.tools.append(Tool(func))
                    return func
            """,
    })
    assert tool_rows(files) == [("memory.py", "memory_write", "gw", "Tool(<function>)"),
                                ("memory.py", "read_memory", "gw", "Tool(<function>)"),
                                ("skills.py", "_handoff", "gw", "Tool(<function>)"),
                                ("skills.py", "list_skills", "gw", "Tool(<function>)")]


def test_a_tool_class_handed_its_function_by_invoke_not_the_facilitys_own_wrapper() -> None:
    assert rows("""
        from lovia.tools import Tool


        def agent_as_tool(agent, name: str):
            async def invoke(args, ctx):
                return await agent.run(args["input"])

            return Tool(name=name, description="", parameters={}, invoke=invoke)


        class MCPServer:
            def tools(self, names):
                return [Tool(name=n, description="", parameters={}, invoke=self._make_invoke(n)) for n in names]

            def _make_invoke(self, tool_name: str):
                async def invoke(args, ctx):
                    return await self._call(tool_name, args)

                return invoke


        def tool(name=None):
            def make(func):
                async def invoke(args, ctx):
                    return func(**args)

                return Tool(name=name or func.__name__, description="", parameters={}, invoke=invoke)

            return make
        """) == [("invoke", "lovia", "Tool(invoke=...)"), ("invoke", "lovia", "Tool(invoke=...)")]


def test_a_registration_call_spelling_a_tool_out_by_position() -> None:
    assert rows("""
        import json


        def setup(plugin, hooks):
            async def list_shortcuts(ctx, args):
                return json.dumps(await plugin.ui.shortcuts.list())

            async def on_start(ctx, args):
                return None

            plugin.tool("list_shortcuts", "List user shortcuts.", {"type": "object"}, list_shortcuts, read_only=True)
            hooks.tool(on_start)  # no name, no description: not spelled out
            hooks.tool("start", on_start)  # a name alone is not enough
        """) == [("list_shortcuts", "registry", "plugin.tool(...)")]


def test_a_list_named_for_functions_of_objects_of_the_runs_classes(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "cd/__init__.py": "",
        "cd/core.py": """
            class Step:
                name: str = ""

                async def run(self, sdk):
                    raise NotImplementedError
            """,
        "cd/main.py": """
            from cd.core import Step


            class EditHighlightedCodeStep(Step):
                async def run(self, sdk):
                    await sdk.edit(self.user_input)
            """,
        "cd/chat.py": """
            from typing import List

            from cd.core import Step
            from cd.main import EditHighlightedCodeStep


            class AddFileStep(Step):
                async def describe(self, models) -> str:
                    return "added"

                async def run(self, sdk):
                    await sdk.add_file(self.filename, self.file_contents)


            class ChatWithFunctions(Step):
                functions: List[Step] = [AddFileStep(filename=""), EditHighlightedCodeStep(user_input="")]
                steps: List[Step] = [AddFileStep(filename=""), EditHighlightedCodeStep(user_input="")]

                async def run(self, sdk):
                    return [step.name for step in self.functions]
            """,
    })
    assert tool_rows(files) == [
        ("chat.py", "AddFileStep", "registry", "ChatWithFunctions.functions[name]"),
        ("main.py", "EditHighlightedCodeStep", "registry", "ChatWithFunctions.functions[name]")]


def test_not_a_list_of_values_or_of_other_packages_objects() -> None:
    assert rows("""
        from datetime import timedelta


        class Job:
            def run(self):
                return None


        TOOLS = [Job(), "echo"]
        FUNCTIONS = [timedelta(1), timedelta(2)]
        """) == []


def test_a_tool_class_named_by_a_module_constant_and_an_adapter_named_class_naming_itself(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "wz/__init__.py": "",
        "wz/base.py": """
            class Tool:
                async def call(self) -> str:
                    raise NotImplementedError
            """,
        "wz/tools.py": """
            from wz.base import Tool

            FINAL_RESULT_TOOL = "final_result"


            class ReadTool(Tool):
                async def call(self) -> str:
                    return open(self.path).read()


            class FinalResultTool(Tool):
                name: str = FINAL_RESULT_TOOL

                async def call(self) -> str:
                    return ""


            class MCPTool(Tool):
                NAME = "MCP"

                async def call(self) -> str:
                    return await self.session.mcp.call_tool(self.server, self.tool, self.arguments)


            class FunctionTool(Tool):
                async def call(self) -> str:
                    return self.function()
            """,
    })
    assert tool_rows(files) == [("tools.py", "MCP", "wz", "Tool subclass"),
                                ("tools.py", "ReadTool", "wz", "Tool subclass"),
                                ("tools.py", "final_result", "wz", "Tool subclass")]


def test_the_mcp_apps_extensions_tool_decorator() -> None:
    assert rows("""
        from mcp.server.apps import Apps
        from mcp.server.mcpserver import MCPServer

        apps = Apps()


        @apps.tool(resource_uri="ui://sales/dashboard", description="Show the dashboard")
        def sales_dashboard(region: str) -> str:
            return region


        server = MCPServer("lab", extensions=[apps])
        """) == [("sales_dashboard", "mcp", "@apps.tool")]


def test_entry_point_classes(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "ag/__init__.py": "",
        "ag/tools/__init__.py": "",
        "ag/tools/http_fetch.py": """
            import httpx


            class HttpFetchTool:
                name = "http_fetch"

                def run(self, url: str) -> str:
                    return httpx.get(url, timeout=10).text
            """,
        "ag/tools/clock.py": """
            import time


            def now() -> float:
                return time.time()
            """,
    })
    (tmp_path / "ag-1.0.dist-info").mkdir()
    (tmp_path / "ag-1.0.dist-info" / "entry_points.txt").write_text(
        "[ag.tools]\nhttp_fetch = ag.tools.http_fetch:HttpFetchTool\nnow = ag.tools.clock:now\n")
    assert tool_rows(files) == [("clock.py", "now", "ag", "ag.tools entry point"),
                                ("http_fetch.py", "http_fetch", "ag", "ag.tools entry point")]
