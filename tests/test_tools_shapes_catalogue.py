"""Issue 28 (session 41 audit): the tool forms the issue lists that no test covered, one test per form,
each found with the default configuration from one source linted alone."""

from __future__ import annotations

from tools_support import source_rows


def test_autogen_function_tool_wrapping_a_module_function() -> None:
    code = """
    from autogen_core.tools import FunctionTool

    async def get_weather(city: str) -> str:
        return city

    def not_a_tool() -> None: ...

    weather = FunctionTool(get_weather, description="weather in a city")
    """
    assert [name for name, framework, _ in source_rows(code) if framework == "autogen"] == ["get_weather"]


def test_autogen_base_tool_subclass_runs_its_run_method() -> None:
    code = """
    from autogen_core import CancellationToken
    from autogen_core.tools import BaseTool
    from pydantic import BaseModel

    class Args(BaseModel):
        q: str

    class Result(BaseModel):
        text: str

    class SearchTool(BaseTool[Args, Result]):
        def __init__(self) -> None:
            super().__init__(Args, Result, "search", "search the web")

        async def run(self, args: Args, cancellation_token: CancellationToken) -> Result:
            return Result(text=args.q)

    class Unrelated:
        async def run(self, args, cancellation_token): ...
    """
    rows = source_rows(code)
    assert [(name, framework) for name, framework, _ in rows] == [("SearchTool", "autogen")], rows
