"""`smullyan tools` (issue 28): tools made in one module of the run by a call in another (``linter/tools/remote.py``).
A framework's tool constructor given a function imported from another module (``FunctionTool(run_report)``), a tool
decorator applied by a call to each function of a tuple another module defines, an agent's ``tools=[...]`` of imported
functions, and a wrapper maker run over the names another module exports (``for name in tools.__all__: f =
globals()[name]; make(name, f)`` where ``make`` decorates a wrapper that calls ``f`` with a tool decorator). Each row
sits at the function's own ``def``, once, with that function's facts; a name that is no function of the run: no row."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config

from tools_support import tool_rows, write_tree

IMPORTED_CONSTRUCTOR = {
    "pkg/__init__.py": "",
    "pkg/reports.py": """
        import requests

        def run_report(property_id: str) -> dict:
            return requests.get("https://example.com/report", params={"p": property_id}).json()

        def get_summaries() -> list:
            return []

        def not_a_tool(x: int) -> int:
            return x
        """,
    "pkg/coordinator.py": """
        from google.adk.tools.function_tool import FunctionTool
        from pkg.reports import run_report, get_summaries
        from pkg import reports

        run_report_tool = FunctionTool(run_report)
        TOOLS = [FunctionTool(get_summaries), FunctionTool(reports.run_report), FunctionTool(len)]
        """,
}


def test_a_framework_tool_constructor_given_a_function_of_another_module(tmp_path: Path) -> None:
    files = write_tree(tmp_path, IMPORTED_CONSTRUCTOR)
    run = tools.run(files, Config())
    rows = sorted((Path(t.path).name, t.name, t.line, t.framework, t.form) for t in run.tools)
    # at each function's own def, once (``run_report`` is handed twice), none for ``len`` or ``not_a_tool``
    assert rows == [("reports.py", "get_summaries", 7, "google-adk", "FunctionTool"),
                    ("reports.py", "run_report", 4, "google-adk", "FunctionTool")]
    report = next(t for t in run.tools if t.name == "run_report")
    assert [c.what for c in report.calls] == ["GET to 'https://example.com/report'"]  # its own call out
    assert report.calls[0].timeout == "missing"


LOOPED_TUPLE = {
    "srv/__init__.py": "",
    "srv/plans.py": """
        async def plans_validate(plan: dict) -> dict:
            return plan

        async def plans_publish(plan: dict) -> dict:
            return plan

        def _helper() -> None:
            pass

        PLAN_TOOLS = (plans_validate, plans_publish)
        """,
    "srv/server.py": """
        from fastmcp import FastMCP
        from srv import plans

        PLAN_TOOLS = plans.PLAN_TOOLS
        server = FastMCP("x")

        def register() -> None:
            for tool in PLAN_TOOLS:
                server.tool(annotations={"readOnlyHint": True})(tool)
        """,
}


def test_a_tool_decorator_applied_over_a_tuple_another_module_defines(tmp_path: Path) -> None:
    files = write_tree(tmp_path, LOOPED_TUPLE)
    assert tool_rows(files) == [("plans.py", "plans_publish", "mcp", "server.tool(...)"),
                                ("plans.py", "plans_validate", "mcp", "server.tool(...)")]


AGENT_LIST = {
    "app/__init__.py": "",
    "app/weather.py": """
        def get_weather(city: str) -> str:
            return city
        """,
    "app/agent.py": """
        from google.adk.agents import Agent
        from app.weather import get_weather
        from app.missing import not_in_the_run

        root_agent = Agent(name="a", model="m", tools=[get_weather, not_in_the_run])
        """,
}


def test_an_agents_tools_list_of_imported_functions(tmp_path: Path) -> None:
    files = write_tree(tmp_path, AGENT_LIST)
    assert tool_rows(files) == [("weather.py", "get_weather", "google", "Agent(tools=[...])")]


EXPORTED_NAMES = {
    "gh/__init__.py": "",
    "gh/tools/__init__.py": """
        from .repos import list_repos, create_repo

        __all__ = ["list_repos", "create_repo"]
        """,
    "gh/tools/repos.py": """
        import httpx

        async def list_repos(params: dict) -> str:
            return httpx.get("https://api.example.com/repos", timeout=5).text

        async def create_repo(params: dict) -> str:
            return httpx.post("https://api.example.com/repos", json=params, timeout=5).text

        async def not_exported(params: dict) -> str:
            return ""
        """,
    "gh/server.py": """
        from typing import Any, Callable
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("gh")

        def conditional_tool(*args: Any, **kwargs: Any) -> Callable[..., Any]:
            if ENABLED:
                return mcp.tool(*args, **kwargs)
            return lambda f: f

        from .tools import __all__ as all_tools
        from .tools import *

        def register_all_tools() -> None:
            for tool_name in all_tools:
                tool_func = globals()[tool_name]

                def make_wrapper(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
                    @conditional_tool(name=name)
                    async def wrapper(params: Any) -> Any:
                        return await func(params)
                    return wrapper

                make_wrapper(tool_name, tool_func)
        """,
}


def test_a_wrapper_maker_run_over_the_names_another_module_exports(tmp_path: Path) -> None:
    files = write_tree(tmp_path, EXPORTED_NAMES)
    run = tools.run(files, Config())
    rows = sorted((Path(t.path).name, t.name, t.framework, t.form) for t in run.tools)
    assert rows == [("repos.py", "create_repo", "mcp", "@conditional_tool wrapper in make_wrapper()"),
                    ("repos.py", "list_repos", "mcp", "@conditional_tool wrapper in make_wrapper()")]
    create = next(t for t in run.tools if t.name == "create_repo")
    assert [(c.what, c.timeout_value) for c in create.calls] == [("POST to 'https://api.example.com/repos'", "5")]


NOT_A_FUNCTION = {
    "lib/__init__.py": "",
    "lib/things.py": """
        class Searcher:
            def __call__(self, q: str) -> str:
                return q

        search = Searcher()
        NAMES = ("a", "b")
        """,
    "lib/use.py": """
        from google.adk.tools import FunctionTool
        from lib.things import search, Searcher, NAMES

        t1 = FunctionTool(search)
        t2 = FunctionTool(Searcher)
        for n in NAMES:
            FunctionTool(n)
        """,
}


def test_no_row_for_a_name_that_is_no_function_of_the_run(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, NOT_A_FUNCTION)) == []


ALREADY_A_TOOL = {
    "dup/__init__.py": "",
    "dup/tools.py": """
        from langchain_core.tools import tool

        @tool
        def lookup(q: str) -> str:
            \"\"\"Look up.\"\"\"
            return q
        """,
    "dup/agent.py": """
        from google.adk.tools import FunctionTool
        from dup.tools import lookup

        wrapped = FunctionTool(lookup)
        """,
}


def test_a_function_already_a_tool_in_its_own_module_keeps_one_row(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, ALREADY_A_TOOL)) == [("tools.py", "lookup", "langchain", "@tool")]


LOADER = {
    "fw/__init__.py": "",
    "fw/framework.py": """
        import importlib.util

        class Registry:
            def register_function(self, **kwargs):
                def deco(fn):
                    self.functions[fn.__name__] = fn
                    return fn
                return deco

            def load_pack(self, path: str) -> None:
                spec = importlib.util.spec_from_file_location("pack", path)
                module = importlib.util.module_from_spec(spec)
                module.func = self
                spec.loader.exec_module(module)
        """,
    "fw/packs/weather.py": """
        @func.register_function(metadata={"description": "Weather for a city."})
        def get_weather(city: str) -> str:
            return city

        @other.register_function()
        def not_injected(city: str) -> str:
            return city
        """,
    "fw/packs/local.py": """
        func = object()

        @func.register_function()
        def bound_here(city: str) -> str:
            return city
        """,
}


def test_a_name_the_runs_loader_sets_on_the_modules_it_runs(tmp_path: Path) -> None:
    # ``module.func = self`` on a module built by ``module_from_spec``: a pack's unbound ``func`` is the loader's object;
    # ``other`` is set by no loader, and a module binding ``func`` itself is not the loader's
    cfg = Config(tool_decorators=("fw.framework.Registry.register_function",))
    rows = sorted((Path(t.path).name, t.name, t.form) for t in tools.run(write_tree(tmp_path, LOADER), cfg).tools)
    assert rows == [("weather.py", "get_weather", "@func.register_function")]
