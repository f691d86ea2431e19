"""`smullyan tools` (issue 28) on the Strands Agents SDK (PyPI ``strands-agents``, import ``strands``), with the
default configuration: ``@tool`` (``strands``, ``strands.tools``, ``strands.tools.decorator``), module-based
tools (``TOOL_SPEC`` and the function named after the module, as strands/tools/loader.py loads them),
``AgentTool``/``PythonAgentTool`` subclasses (``stream``) and ``PythonAgentTool(name, spec, func)``. Each form
is a small project run through the CLI's JSON output; names are resolved through the imports, never by text."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from smullyan.linter.cli import main


def rows(project: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert main(["tools", "--format", "json", "-j1", str(project)]) == 0
    doc = json.loads(capsys.readouterr().out)
    return list(doc["tools"])


def write(project: Path, relative: str, code: str) -> Path:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(code))
    return path


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.smullyan]\n")
    return tmp_path


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# --------------------------------------------------------------------------- @tool


def test_tool_decorator_every_import_spelling(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(project, "agent_tools.py", """
        import strands
        import strands.tools.decorator
        from strands import tool
        from strands.tools import tool as strands_tool

        @tool
        def forecast(city: str) -> str:
            return city

        @strands.tool(name="get_weather", description="Weather for a city")
        def weather(city: str) -> str:
            return city

        @strands_tool(description="Search")
        async def search(q: str) -> str:
            return q

        @strands.tools.decorator.tool
        def lookup(key: str) -> str:
            return key

        class Database:
            @tool(name="query_db")
            def query(self, sql: str) -> str:
                return sql
        """)
    found = rows(project, capsys)
    assert [(r["name"], r["framework"], r["form"], r["line"]) for r in found] == [
        ("forecast", "strands", "@tool", line_of(path, "@tool")),
        ("get_weather", "strands", "@strands.tool", line_of(path, "@strands.tool(")),
        ("search", "strands", "@strands_tool", line_of(path, "@strands_tool(")),
        ("lookup", "strands", "@strands.tools.decorator.tool", line_of(path, "@strands.tools.decorator.tool")),
        ("query_db", "strands", "@tool", line_of(path, '@tool(name="query_db")')),
    ]
    assert {r["path"] for r in found} == {str(path)}
    assert [r["qualname"] for r in found][-1] == "agent_tools.Database.query"


def test_tool_name_is_taken_by_keyword_only(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # strands' ``tool(func=None, description=None, inputSchema=None, name=None, ...)``: a positional string is
    # not a name (it is the function parameter), so the row keeps the function's name
    write(project, "agent_tools.py", """
        from strands import tool

        @tool(description="Fetch a page")
        def fetch(url: str) -> str:
            return url

        @tool("Store a page")
        def store(url: str) -> str:
            return url

        @tool(name="read_page")
        def read(url: str) -> str:
            return url
        """)
    assert [(r["name"], r["framework"]) for r in rows(project, capsys)] == [
        ("fetch", "strands"), ("store", "strands"), ("read_page", "strands")]


def test_a_local_tool_decorator_is_not_strands(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "helpers.py", """
        import strands

        def tool(fn):
            return fn

        @tool
        def not_a_tool(x: str) -> str:
            return x

        class Thing:
            @strands.agent.tool
            def also_not(self) -> None: ...
        """)
    write(project, "other.py", """
        from mylib import tool

        @tool
        def neither(x: str) -> str:
            return x
        """)
    assert rows(project, capsys) == []


def test_decorated_tool_failures_and_agent_tools_list(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "agent_tools.py", """
        import requests
        from strands import Agent, tool

        @tool
        def wiki(title: str) -> dict:
            try:
                r = requests.get("https://en.wikipedia.org/wiki/" + title, timeout=10)
                return {"status": "success", "content": [{"text": r.text}]}
            except requests.RequestException as e:
                return {"status": "error", "content": [{"text": f"Error: {e}"}]}

        @tool
        def post(body: str) -> str:
            return requests.post("https://example.com/items", json={"b": body}).text

        agent = Agent(tools=[wiki, post])
        """)
    found = {r["name"]: r for r in rows(project, capsys)}
    assert set(found) == {"wiki", "post"}  # one row each: the decorator, not also the ``tools=[...]`` list
    assert found["wiki"]["form"] == "@tool" and found["wiki"]["failures"] == ["text"]
    # strands' ``@tool`` wrapper (``DecoratedFunctionTool.stream``) returns what ``post`` raises as an error result
    assert found["post"]["failures"] == ["text"]
    assert found["post"]["failures_by"] == "strands.tools.decorator.DecoratedFunctionTool.stream"
    assert found["wiki"]["failures_by"] is None  # its own handler gives the text
    assert [(c["what"].split(" ")[0], c["timeout"]) for c in found["post"]["calls"]] == [("POST", "missing")]


# --------------------------------------------------------------------------- module-based tools

MODULE_TOOL = """
    from typing import Any

    import requests
    from strands.types.tools import ToolResult, ToolUse

    TOOL_SPEC = {
        "name": "weather",
        "description": "Get the weather for a city",
        "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    }


    def _url(city: str) -> str:
        return "https://wttr.in/" + city


    def weather(tool: ToolUse, **kwargs: Any) -> ToolResult:
        tool_use_id = tool["toolUseId"]
        try:
            r = requests.get(_url(tool["input"]["city"]))
            return {"toolUseId": tool_use_id, "status": "success", "content": [{"text": r.text}]}
        except Exception as e:
            return {"toolUseId": tool_use_id, "status": "error", "content": [{"text": f"Error: {e}"}]}
    """


def test_module_tool_tool_spec_and_the_function_named_after_the_module(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(project, "tools/weather.py", MODULE_TOOL)
    [row] = rows(project, capsys)
    assert (row["name"], row["framework"], row["form"]) == ("weather", "strands", "TOOL_SPEC module")
    assert (row["path"], row["line"]) == (str(path), line_of(path, "def weather("))
    assert row["qualname"].endswith("weather.weather")
    # the error dict with the exception's text is text to the model; the GET has no timeout
    assert row["failures"] == ["text"]
    assert [(c["what"].split(" ")[0], c["timeout"]) for c in row["calls"]] == [("GET", "missing")]


def test_module_tool_named_by_the_spec_and_annotated_spec_and_package_init(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the loader wants the function named after the module (for a package: its name); the model sees the
    # spec's "name"; ``TOOL_SPEC: ToolSpec = {...}`` is the same assignment
    pkg = write(project, "mytools/__init__.py", "")
    assert pkg.exists()
    init = write(project, "mytools/search/__init__.py", """
        from strands.types.tools import ToolSpec

        TOOL_SPEC: ToolSpec = {"name": "web_search", "description": "Search", "inputSchema": {"json": {}}}

        def search(tool, **kwargs):
            raise NotImplementedError(tool["input"])
        """)
    [row] = rows(project, capsys)
    assert (row["name"], row["framework"], row["line"]) == ("web_search", "strands", line_of(init, "def search("))
    assert row["failures"] == ["raised"]  # no handler: the framework sees the exception


def test_module_tool_negatives(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a TOOL_SPEC whose module has no function named after it (the loader raises "missing function")
    write(project, "misc.py", MODULE_TOOL)
    # the keys the registry needs are missing ("inputSchema")
    write(project, "lookup.py", """
        TOOL_SPEC = {"name": "lookup", "description": "Look up"}

        def lookup(tool, **kwargs):
            return {"status": "success", "content": []}
        """)
    # not a dict literal; and a function named after its module without any TOOL_SPEC
    write(project, "built.py", """
        from specs import make_spec

        TOOL_SPEC = make_spec("built")

        def built(tool, **kwargs):
            return {}
        """)
    write(project, "plain.py", """
        SPEC = {"name": "plain", "description": "x", "inputSchema": {}}

        def plain(tool, **kwargs):
            return {}
        """)
    # a method named after the module is not the module's function
    write(project, "nested.py", """
        TOOL_SPEC = {"name": "nested", "description": "x", "inputSchema": {}}

        class Holder:
            def nested(self, tool):
                return {}
        """)
    assert rows(project, capsys) == []


def test_decorated_tools_come_before_the_module_spec(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # load_tools_from_module returns the module's @tool functions when it has any, and ignores TOOL_SPEC
    write(project, "convert.py", """
        from strands import tool

        TOOL_SPEC = {"name": "convert", "description": "x", "inputSchema": {}}

        def convert(tool_use, **kwargs):
            return {}

        @tool
        def to_upper(text: str) -> str:
            return text.upper()
        """)
    assert [(r["name"], r["form"]) for r in rows(project, capsys)] == [("to_upper", "@tool")]


# --------------------------------------------------------------------------- classes and PythonAgentTool(...)


def test_agent_tool_subclasses_and_python_agent_tool(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(project, "agent_tools.py", """
        import subprocess
        from strands.tools import PythonAgentTool
        from strands.tools.tools import AgentTool as Base
        from strands.types.tools import AgentTool

        SPEC = {"name": "echo", "description": "Echo", "inputSchema": {"json": {}}}

        class ShellTool(AgentTool):
            @property
            def tool_name(self) -> str:
                return "run_shell"

            async def stream(self, tool_use, invocation_state, **kwargs):
                out = subprocess.run(["ls"], capture_output=True)
                yield {"toolUseId": tool_use["toolUseId"], "status": "success", "content": [{"text": str(out)}]}

        class Other(Base):
            async def stream(self, tool_use, invocation_state, **kwargs):
                yield {}

        class Wrapped(PythonAgentTool):
            async def stream(self, tool_use, invocation_state, **kwargs):
                yield {}

        def echo(tool_use, **kwargs):
            return {"status": "success", "content": [{"text": tool_use["input"]}]}

        echo_tool = PythonAgentTool("echo", SPEC, echo)
        """)
    found = [(r["name"], r["framework"], r["form"], r["line"]) for r in rows(project, capsys)]
    assert found == [
        ("run_shell", "strands", "AgentTool subclass", line_of(path, "class ShellTool")),
        ("Other", "strands", "AgentTool subclass", line_of(path, "class Other")),
        ("Wrapped", "strands", "PythonAgentTool subclass", line_of(path, "class Wrapped")),
        ("echo", "strands", "PythonAgentTool", line_of(path, "def echo(")),
    ]


def test_an_agent_tool_of_another_package_is_not_strands(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "agent_tools.py", """
        from mylib.tools import AgentTool, PythonAgentTool

        class ShellTool(AgentTool):
            async def stream(self, tool_use, invocation_state, **kwargs):
                yield {}

        def echo(tool_use, **kwargs):
            return {}

        echo_tool = PythonAgentTool("echo", {}, echo)
        """)
    assert rows(project, capsys) == []


def test_agent_tool_subclass_across_files_of_the_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "mypkg/__init__.py", "")
    write(project, "mypkg/base.py", """
        from strands.types.tools import AgentTool

        class HttpTool(AgentTool):
            timeout: float = 10.0
        """)
    leaf = write(project, "mypkg/status.py", """
        from mypkg.base import HttpTool

        class StatusTool(HttpTool):
            @property
            def tool_name(self) -> str:
                return "status"

            async def stream(self, tool_use, invocation_state, **kwargs):
                yield {"status": "success", "content": []}
        """)
    found = [(r["name"], r["framework"], r["form"], r["path"]) for r in rows(project, capsys)]
    assert found == [("status", "strands", "HttpTool subclass", str(leaf))]


def test_a_tool_name_property_names_only_strands_classes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "agent_tools.py", """
        from langchain_core.tools import BaseTool

        class Search(BaseTool):
            @property
            def tool_name(self) -> str:
                return "not_the_name"

            def _run(self, q: str) -> str:
                return q
        """)
    assert [(r["name"], r["framework"]) for r in rows(project, capsys)] == [("Search", "langchain")]
