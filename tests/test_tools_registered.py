"""`smullyan tools` (issue 28): a project's own registry decorator that stores an object built around the function
(``TOOLS_REGISTRY[name] = Tool.from_function(fn, name=name)``) and gives the function back, used from a module of
a namespace portion of the package (a directory without ``__init__.py`` inside a regular package, as Python
imports it); and what such a decorator is not (a registry whose names do not say tool)."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.tools import module_name
from tools_support import tool_rows, write_tree

DECORATORS = """
    from typing import Callable, Optional
    from .registries import TOOLS_REGISTRY, TASK_REGISTRY
    from .models import Tool, Task


    def register_tool(_fn=None, name: Optional[str] = None):
        def decorator(executor_fn: Callable):
            tool_name = name or executor_fn.__name__
            TOOLS_REGISTRY[tool_name] = Tool.from_function(executor_fn, name=tool_name)
            return executor_fn

        if callable(_fn):
            return decorator(_fn)
        return decorator


    def register_task(task_type: str):
        def decorator(fn: Callable):
            TASK_REGISTRY[task_type] = Task(fn)
            return fn
        return decorator
    """

TREE = {
    "agentpkg/__init__.py": "from .src.utilities.decorators import register_tool\n",
    "agentpkg/src/__init__.py": "",
    # no __init__.py: a namespace portion of agentpkg.src
    "agentpkg/src/utilities/decorators.py": DECORATORS,
    "agentpkg/src/utilities/registries.py": "TOOLS_REGISTRY = {}\nTASK_REGISTRY = {}\n",
    "agentpkg/src/tools/__init__.py": "",
    "agentpkg/src/tools/weather.py": """
        import httpx
        from agentpkg.src.utilities.decorators import register_tool, register_task

        @register_tool
        def get_weather(city: str) -> str:
            return httpx.get("https://example.com", params={"q": city}, timeout=5).text

        @register_tool(name="forecast")
        def get_forecast(city: str) -> str:
            return city

        @register_task("summarise")
        def summarise(text: str) -> str:
            return text[:100]
        """,
    # (a module named ``examples`` would be demo code: left out)
    "agentpkg/arithmetic.py": """
        from agentpkg import register_tool

        @register_tool
        def add(a: int, b: int) -> int:
            return a + b
        """,
}


def test_a_registry_storing_a_tool_built_around_the_function(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, TREE))
    assert rows == [
        ("arithmetic.py", "add", "agentpkg", "@register_tool"),
        ("weather.py", "forecast", "agentpkg", "@register_tool"),
        ("weather.py", "get_weather", "agentpkg", "@register_tool"),
    ]


def test_a_namespace_portion_inside_a_regular_package_is_named_as_python_imports_it(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    assert module_name(str(tmp_path / "agentpkg/src/utilities/decorators.py")) == "agentpkg.src.utilities.decorators"
    assert module_name(str(tmp_path / "agentpkg/src/tools/weather.py")) == "agentpkg.src.tools.weather"
    # outside any regular package: the file's stem, as before
    loose = tmp_path / "scripts" / "run.py"
    loose.parent.mkdir()
    loose.write_text("")
    assert module_name(str(loose)) == "run"
