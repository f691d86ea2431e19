"""`smullyan tools` (issue 28, session 38, batch 10's leftovers): a project's registry object whose ``tool(description)``
method stores, under the function's name, the function or an async wrapper of it (``self.func_dict[func.__name__] =
(description, async_func)``, ``async_func = func`` or a ``functools.wraps(func)`` wrapper) and gives it back. Objects
of the class in other modules decorate their tools with it, the class imported from where it is defined or through
its package's re-export."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_HUB = """
    import asyncio
    import functools


    class FunctionHub:
        def __init__(self, name):
            self.name = name
            self.func_dict = {}

        def tool(self, description):
            def decorator(func):
                if asyncio.iscoroutinefunction(func):
                    async_func = func
                else:
                    @functools.wraps(func)
                    async def async_func(*args, **kwargs):
                        return await asyncio.get_running_loop().run_in_executor(None, func, *args)

                self.func_dict[func.__name__] = (description, async_func)
                return async_func

            return decorator
"""

HUB = {
    "oxy/__init__.py": "from .hub.function_hub import FunctionHub\n",
    "oxy/hub/__init__.py": "",
    "oxy/hub/function_hub.py": _HUB,
    "oxy/preset/__init__.py": "",
    "oxy/preset/math_tools.py": """
        from oxy import FunctionHub

        math_tools = FunctionHub(name="math_tools")

        @math_tools.tool(description="Add two numbers.")
        def add(a: int, b: int) -> int:
            return a + b
    """,
    "oxy/preset/http_tools.py": """
        import httpx

        from oxy.hub.function_hub import FunctionHub

        http_tools = FunctionHub(name="http_tools")

        @http_tools.tool(description="GET a URL.")
        async def http_get(url: str) -> str:
            async with httpx.AsyncClient(timeout=10) as client:
                return (await client.get(url)).text
    """,
}


def test_a_hub_storing_a_wrapper_under_the_function_name_makes_tools(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, HUB))
    assert [(f, n) for f, n, _, _ in rows] == [("http_tools.py", "http_get"), ("math_tools.py", "add")]


def test_a_store_whose_names_say_nothing_of_tools_makes_no_tools(tmp_path: Path) -> None:
    # a memoising decorator: it stores a wrapper of the function too, but neither it nor its store says tool
    files = dict(HUB, **{"oxy/hub/function_hub.py": _HUB.replace("def tool(", "def cached(").replace(
        "func_dict", "memo")})
    files["oxy/preset/math_tools.py"] = HUB["oxy/preset/math_tools.py"].replace("math_tools.tool(", "math_tools.cached(")
    files["oxy/preset/http_tools.py"] = HUB["oxy/preset/http_tools.py"].replace("http_tools.tool(", "http_tools.cached(")
    assert tool_rows(write_tree(tmp_path, files)) == []


def test_a_tool_method_that_gives_back_something_else_is_no_registry(tmp_path: Path) -> None:
    # what the decorator returns is neither the function nor a wrapper of it: not a decorator that registers
    files = dict(HUB, **{"oxy/hub/function_hub.py": _HUB.replace("return async_func", "return description")})
    assert tool_rows(write_tree(tmp_path, files)) == []
