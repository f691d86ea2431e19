"""`smullyan tools` (issue 28): a tool factory that is an async generator and hands its tool over by ``yield``
(NVIDIA NeMo Agent toolkit: ``@register_function(config_type=...)`` on ``async def f(config, builder)`` yielding
``FunctionInfo.from_fn(inner, description=...)``): the tool is the nested function it yields, whose body is the
tool's; the factory's other nested helpers are not tools."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config
from tools_support import write_tree

NAT_TOOLS = """
    import httpx
    from nat.builder.builder import Builder
    from nat.builder.function_info import FunctionInfo
    from nat.cli.register_workflow import register_function
    from nat.data_models.function import FunctionBaseConfig


    class WeatherConfig(FunctionBaseConfig, name="weather"):
        base_url: str


    @register_function(config_type=WeatherConfig)
    async def weather_tool(config: WeatherConfig, builder: Builder):

        def _format(payload: dict) -> str:
            return str(payload)

        async with httpx.AsyncClient() as client:

            async def _get_weather(city: str) -> str:
                response = await client.get(config.base_url, params={"q": city})
                return _format(response.json())

            yield FunctionInfo.from_fn(_get_weather, description="The weather in a city.")


    @register_function(config_type=WeatherConfig)
    async def prebuilt_tool(config: WeatherConfig, builder: Builder):
        yield FunctionInfo.from_fn(builder.get_function("other"), description="Built elsewhere.")
    """


def test_the_tool_is_the_nested_function_the_factory_yields(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"nat_tools/__init__.py": "", "nat_tools/weather.py": NAT_TOOLS})
    rows = {t.name: t for t in tools.run(files, Config()).tools}
    assert sorted((n, t.framework, t.form) for n, t in rows.items()) == [
        ("prebuilt_tool", "nvidia-nat", "@register_function"),  # yields no function of its own: the factory's row
        ("weather_tool", "nvidia-nat", "@register_function factory"),
    ]
    weather = rows["weather_tool"]
    # the row's facts are the yielded function's: its HTTP call (httpx's default timeout)
    assert weather.spans == [(21, 23)]  # ``_get_weather``
    assert [(c.what, c.timeout) for c in weather.calls] == [("GET through httpx.AsyncClient.get", "default")]


def test_a_generator_under_another_decorator_is_no_tool(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"app/__init__.py": "", "app/gen.py": """
        import contextlib

        @contextlib.asynccontextmanager
        async def session(config):
            async def _inner(x: str) -> str:
                return x
            yield _inner
        """})
    assert tools.run(files, Config()).tools == []
