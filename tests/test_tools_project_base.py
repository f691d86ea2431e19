"""`smullyan tools` (issue 28): a project's own tool abstraction, found by its shape with no configuration
(a base class whose name or docstring says tool, leaving a method to subclasses that implement it), the
candidate a run that found no tool names, and the settings that make tools of the rest."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from smullyan.linter import tools
from smullyan.linter.cli import main
from smullyan.linter.config import Config, from_mapping
from tools_support import write_tree as _write


def _rows(files: list[str], config: Config | None = None) -> list[tuple[str, str, str]]:
    return sorted((t.name, t.framework, t.form) for t in tools.run(files, config or Config()).tools)


# an agent's own ``Tool`` whose ``apply_ex`` dispatches to ``apply``, which only the subclasses define
DISPATCHING = {
    "agentx/__init__.py": "",
    "agentx/tools/__init__.py": "from .base import Tool, FileTool\n",
    "agentx/tools/base.py": """
        class Tool:
            def apply_ex(self, **kwargs):
                try:
                    return self.apply(**kwargs)
                except Exception as e:
                    return f"Error executing tool: {e}"

        class FileTool(Tool):
            root = "."
        """,
    "agentx/tools/files.py": """
        import requests
        from agentx.tools import FileTool, Tool

        class ReadFileTool(FileTool):
            def apply(self, path: str) -> str:
                return open(path).read()

        class FetchUrlTool(Tool):
            def apply(self, url: str) -> str:
                return requests.get(url).text

            def _helper(self) -> None:
                pass
        """,
}


def test_a_project_tool_base_dispatching_to_a_method_only_subclasses_define(tmp_path: Path) -> None:
    files = _write(tmp_path, DISPATCHING)
    result = tools.run(files, Config())
    rows = {t.name: t for t in result.tools}
    # the subclasses at any depth and through the re-export; neither the base nor the abstract middle class
    assert sorted(rows) == ["FetchUrlTool", "ReadFileTool"]
    fetch = rows["FetchUrlTool"]
    assert (fetch.framework, fetch.form) == ("agentx", "Tool subclass")
    assert [c.timeout for c in fetch.calls] == ["missing"]  # requests.get without a timeout, in ``apply``
    # the base's ``apply_ex`` turns what ``apply`` raises into text
    assert fetch.failures == ["text"] and fetch.failures_by == "agentx.tools.base.Tool.apply_ex"


def test_an_abstract_method_of_a_base_tool_and_a_tool_base(tmp_path: Path) -> None:
    files = _write(tmp_path, {
        "kit/__init__.py": "",
        "kit/core.py": """
            from abc import ABC, abstractmethod

            class BaseTool(ABC):
                name: str

                @property
                @abstractmethod
                def description(self) -> str: ...

                @abstractmethod
                def get_schema(self) -> dict: ...

                @abstractmethod
                async def execute(self, **kwargs) -> str: ...

            class SkillBase:
                def invoke(self, text):
                    raise NotImplementedError("subclasses run the skill")

            class Echo(SkillBase):
                def invoke(self, text):
                    return text

            class Shout(SkillBase):
                def invoke(self, text):
                    return text.upper()
            """,
        "kit/impl.py": """
            from .core import BaseTool

            class Search(BaseTool):
                name = "web_search"

                @property
                def description(self) -> str:
                    return "search"

                def get_schema(self) -> dict:
                    return {}

                async def execute(self, q: str) -> str:
                    return q

            class Shell(BaseTool):
                name = "shell"

                async def execute(self, cmd: str) -> str:
                    return cmd
            """,
    })
    assert _rows(files) == [("Echo", "kit", "SkillBase subclass"), ("Shout", "kit", "SkillBase subclass"),
                            ("shell", "kit", "BaseTool subclass"), ("web_search", "kit", "BaseTool subclass")]
    result = tools.run(files, Config())
    search = next(t for t in result.tools if t.name == "web_search")
    # the method that runs it, not the accessors the base also leaves to it
    assert search.spans == [(14, 15)]


def test_a_frameworks_adapters_of_its_tool_base_are_no_tools(tmp_path: Path) -> None:
    files = _write(tmp_path, {
        "fw/__init__.py": "",
        "fw/base.py": """
            from abc import ABC, abstractmethod

            class Tool(ABC):
                @abstractmethod
                async def execute(self, **kwargs): ...

            class FunctionTool(Tool):
                def __init__(self, function):
                    self.function = function

                async def execute(self, **kwargs):
                    return self.function(**kwargs)

            class MCPTool(Tool):
                async def execute(self, **kwargs):
                    return await self.session.call_tool(self.name, kwargs)

            class LoggedFunctionTool(FunctionTool):
                async def execute(self, **kwargs):
                    return await super().execute(**kwargs)

            class Orchestrator(Tool):
                async def execute(self, **kwargs):
                    return kwargs
            """,
    })
    # one tool of its own is not the shape (FunctionTool and MCPTool wrap what they are given)
    assert _rows(files) == []
    more = _write(tmp_path / "b", {"fw/__init__.py": "", "fw/base.py": (tmp_path / "fw/base.py").read_text() + """
class Planner(Tool):
    async def execute(self, **kwargs):
        return kwargs
"""})
    assert _rows(more) == [("Orchestrator", "fw", "Tool subclass"), ("Planner", "fw", "Tool subclass")]


def test_one_subclass_is_not_enough_to_call_a_base_a_tool_base(tmp_path: Path) -> None:
    files = _write(tmp_path, {
        "solo/__init__.py": "",
        "solo/m.py": """
            class Tool:
                def run(self):
                    return self.apply()

            class OnlyTool(Tool):
                def apply(self):
                    return 1
            """,
    })
    assert _rows(files) == []


@pytest.mark.parametrize("name, doc, is_tool", [
    ("Action", "", False),  # argparse.Action's shape: no word of tools
    ("Action", "An action the agent can take.", True),
    ("Command", "A shell command.", False),
    ("Command", "A command the LLM may call.", True),
    ("ToolResult", "", False),  # a tool's result, not a tool
    ("ToolRegistry", "", False),
    ("Operation", "Base class of the agent's tools.", False),  # a docstring alone does not make a tool base
    ("ToolCallbacks", "Base class for tool callbacks.", False),
    ("Operation", "", False),
])
def test_what_a_base_class_name_or_docstring_must_say(tmp_path: Path, name: str, doc: str, is_tool: bool) -> None:
    docline = f'"""{doc}"""' if doc else "pass"
    files = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
            class {name}:
                {docline}

                def __call__(self, value):
                    raise NotImplementedError

            class First({name}):
                def __call__(self, value):
                    return value

            class Second({name}):
                def __call__(self, value):
                    return None
            """,
    })
    assert bool(_rows(files)) is is_tool


def test_a_project_base_of_a_framework_tool_is_found_by_the_framework_once(tmp_path: Path) -> None:
    files = _write(tmp_path, {
        "app/__init__.py": "",
        "app/base.py": """
            from langchain_core.tools import BaseTool

            class AppTool(BaseTool):
                def _run(self, q: str) -> str:
                    return self.apply(q)
            """,
        "app/tools.py": """
            from .base import AppTool

            class A(AppTool):
                name = "a"
                def apply(self, q): return q

            class B(AppTool):
                name = "b"
                def apply(self, q): return q
            """,
    })
    # the framework's tables decide (its ``_run``), not the shape: no second, "app" framework row
    assert _rows(files) == [("AppTool", "langchain", "BaseTool subclass")]


HANDLERS = {
    "proj/__init__.py": "",
    "proj/ops.py": """
        import abc

        class Operation(abc.ABC):
            @abc.abstractmethod
            def apply(self, **kw): ...

        class Search(Operation):
            def apply(self, q): return q

        class Read(Operation):
            def apply(self, p): return p
        """,
    "proj/more.py": """
        from .ops import Operation

        class Write(Operation):
            def apply(self, p, t): return t
        """,
}


def test_no_tool_found_names_the_likely_base_and_the_config_line(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    files = _write(tmp_path, HANDLERS)
    result = tools.run(files, Config())
    assert result.tools == [] and result.candidates == [("proj.ops.Operation", "apply", 3)]
    assert main(["tools", "-j", "1", str(tmp_path / "proj")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "No tool found" in out
    assert ('A likely tool base class: proj.ops.Operation (3 subclasses implement apply()). If its subclasses are '
            'tools, add to [tool.smullyan] in pyproject.toml: tool-base-classes = ["proj.ops.Operation"]') in out
    # two subclasses are not a likely candidate
    fewer = {k: v for k, v in HANDLERS.items() if k != "proj/more.py"}
    assert tools.run(_write(tmp_path / "b", fewer), Config()).candidates == []


def test_the_config_line_it_names_finds_them_with_the_method_the_base_leaves(tmp_path: Path) -> None:
    _write(tmp_path, HANDLERS)
    (tmp_path / "pyproject.toml").write_text('[tool.smullyan]\ntool-base-classes = ["proj.ops.Operation"]\n')
    files = sorted(str(p) for p in tmp_path.rglob("*.py"))
    config = from_mapping({"tool-base-classes": ["proj.ops.Operation"]}, "test")
    assert _rows(files, config) == [("Read", "configured", "Operation subclass"),
                                    ("Search", "configured", "Operation subclass"),
                                    ("Write", "configured", "Operation subclass")]


def test_tool_list_constructors_from_pyproject_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.smullyan]\ntool-list-constructors = ["myfw.Crew"]\n')
    (tmp_path / "crew.py").write_text(textwrap.dedent("""
        from myfw import Crew

        def lookup(order_id: str) -> str:
            return order_id

        crew = Crew(tools=[lookup])
        """))
    monkeypatch.chdir(tmp_path)
    assert main(["tools", "--format", "json", "-j", "1", "crew.py"]) == 0
    out = capsys.readouterr().out
    assert '"name": "lookup"' in out and '"framework": "configured"' in out
    (tmp_path / "pyproject.toml").write_text("[tool.smullyan]\n")
    assert main(["tools", "--format", "json", "-j", "1", "crew.py"]) == 0
    assert '"name": "lookup"' not in capsys.readouterr().out


def test_tools_help_says_what_a_run_with_no_tool_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tools", "--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps at hyphens
    assert "namesthelikeliestbaseclass" in text and "tool-base-classesline" in text


# --------------------------------------------------------------------------- frameworks whose wrapper gives text


def test_framework_wrappers_that_turn_raised_failures_into_text(tmp_path: Path) -> None:
    (tmp_path / "wrapped.py").write_text(textwrap.dedent("""
        import requests
        from agents import function_tool
        from langchain_core.tools import tool
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")

        @function_tool
        def a(url: str) -> str:
            return requests.get(url, timeout=5).text

        @function_tool(failure_error_function=None)
        def b(url: str) -> str:
            return requests.get(url, timeout=5).text

        @mcp.tool()
        def c(url: str) -> str:
            return requests.get(url, timeout=5).text

        @tool
        def d(url: str) -> str:
            return requests.get(url, timeout=5).text
        """))
    rows = {t.name: (t.failures, t.failures_by) for t in tools.run([str(tmp_path / "wrapped.py")], Config()).tools}
    assert rows == {
        "a": (["text"], "agents.tool._FailureHandlingFunctionToolInvoker.__call__"),
        "b": (["raised"], None),  # the decorator turned the wrapper off: the exception propagates
        "c": (["text"], "mcp.server.mcpserver.server.MCPServer._handle_call_tool"),
        "d": (["raised"], None),  # langchain's BaseTool.run handles only ToolException
    }


def test_a_request_on_a_helpers_return_value_has_that_clients_timeout(tmp_path: Path) -> None:
    (tmp_path / "svc.py").write_text(textwrap.dedent("""
        import httpx
        from langchain_core.tools import tool

        class Svc:
            def _client(self) -> httpx.Client:
                return httpx.Client(timeout=10)

            @tool
            def send(self, body: str) -> str:
                \"\"\"Send.\"\"\"
                return self._client().post("https://x.example/api", json={"b": body}).text

        @tool
        def send2(body: str) -> str:
            \"\"\"Send.\"\"\"
            return _http().post("https://x.example/api", json={"b": body}).text

        def _http() -> httpx.Client:
            return httpx.Client(timeout=None)
        """))
    rows = {t.name: t for t in tools.run([str(tmp_path / "svc.py")], Config()).tools}
    assert [(c.cls, c.timeout, c.timeout_value) for c in rows["send"].calls] == [("non-idempotent-write", "value", "10")]
    assert [(c.cls, c.timeout) for c in rows["send2"].calls] == [("non-idempotent-write", "infinite")]


def test_a_framework_tool_class_that_adapts_another_tool_is_no_row(tmp_path: Path) -> None:
    (tmp_path / "adapters.py").write_text(textwrap.dedent("""
        from smolagents import Tool

        class LangChainToolWrapper(Tool):
            def forward(self, *args, **kwargs):
                return self.langchain_tool.run(*args, **kwargs)

        class McpToolAdapter(Tool):
            def forward(self, **kwargs):
                return self.session.call_tool(self.name, kwargs)

        class Lookup(Tool):
            name = "lookup"
            def forward(self, q):
                return q
        """))
    assert _rows([str(tmp_path / "adapters.py")]) == [("lookup", "smolagents", "Tool subclass")]


def test_a_no_op_run_the_base_hands_to_its_wrapper_is_left_to_subclasses(tmp_path: Path) -> None:
    # a tool base whose ``run`` does nothing until a subclass overrides it: the base hands ``self.run`` on to the
    # framework object it builds, so the subclasses' ``run`` is what the model calls
    files = _write(tmp_path, {
        "crew/__init__.py": "",
        "crew/base.py": """
            class CrewTool:
                def __init__(self, name: str) -> None:
                    func = None
                    if type(self).run is not CrewTool.run:
                        func = self.run
                    self.inner = make_framework_tool(name, func)

                def run(self, *args, **kwargs):
                    pass

                def on_start(self):
                    pass
            """,
        "crew/tools.py": """
            import requests
            from crew.base import CrewTool

            class SearchTool(CrewTool):
                def run(self, query: str) -> str:
                    return requests.get("https://example.com", params={"q": query}).text

            class EchoTool(CrewTool):
                def run(self, text: str) -> str:
                    return text

                def on_start(self):
                    print("start")

            class QuietTool(CrewTool):
                def on_start(self):
                    print("quiet")
            """,
    })
    result = tools.run(files, Config())
    rows = {t.name: t for t in result.tools}
    # ``on_start`` is a no-op hook too, but the base never hands it on: QuietTool, overriding only it, is no tool
    assert sorted(rows) == ["EchoTool", "SearchTool"]
    assert [c.timeout for c in rows["SearchTool"].calls] == ["missing"]


def test_a_no_op_method_only_called_is_an_optional_hook_not_a_tool_method(tmp_path: Path) -> None:
    files = _write(tmp_path, {
        "hooks/__init__.py": "",
        "hooks/base.py": """
            class BaseTool:
                def execute(self) -> None:
                    self.before()

                def before(self):
                    pass
            """,
        "hooks/tools.py": """
            from hooks.base import BaseTool

            class A(BaseTool):
                def before(self):
                    print("a")

            class B(BaseTool):
                def before(self):
                    print("b")
            """,
    })
    assert _rows(files) == []


ACTIONS = {
    "acts/__init__.py": "",
    "acts/core.py": """
        import functools
        import time

        class Action:
            def __init__(self, fn):
                self.fn = fn
                self.name = fn.__name__

        def action(fn):
            return Action(fn)

        def timed(fn):
            @functools.wraps(fn)
            def inner(*args, **kwargs):
                start = time.monotonic()
                try:
                    return fn(*args, **kwargs)
                finally:
                    print(time.monotonic() - start)
            return inner
        """,
    "acts/desktop.py": """
        from acts.core import action, timed

        @action
        def click(x: int, y: int) -> None:
            \"\"\"Click at a point.\"\"\"

        @action
        def write_text(text: str) -> None:
            \"\"\"Type text.\"\"\"

        @action
        def scroll(amount: int) -> None:
            \"\"\"Scroll.\"\"\"

        @timed
        def setup_a() -> None: ...

        @timed
        def setup_b() -> None: ...

        @timed
        def setup_c() -> None: ...

        @timed
        def setup_d() -> None: ...
        """,
}


def test_no_tool_found_names_the_projects_own_decorator_and_the_config_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run finding no tool names the project's decorator applied most (not ``timed``: it only wraps the function it
    is given), and the line it names finds them."""
    files = _write(tmp_path, ACTIONS)
    result = tools.run(files, Config())
    assert result.tools == [] and result.decorators == [("acts.core.action", 3)]
    assert main(["tools", "-j", "1", str(tmp_path / "acts")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "No tool found" in out and "tool-decorators (the decorator that makes a tool)" in out
    assert ('A likely tool decorator: acts.core.action (3 functions). If the functions it decorates are tools, add to '
            '[tool.smullyan] in pyproject.toml: tool-decorators = ["acts.core.action"]') in out
    config = from_mapping({"tool-decorators": ["acts.core.action"]}, "test")
    assert sorted(t.name for t in tools.run(files, config).tools) == ["click", "scroll", "write_text"]
    # a run that finds tools names no decorator
    assert tools.run(files, config).decorators == []
