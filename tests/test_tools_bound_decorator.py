"""`smullyan tools` (issue 28, session 38, batch 10's leftovers): a project's wrapper of a framework's tool decorator
that binds the decorator the framework builds to a name before applying it (``partial_ = tool(**options)``;
``t = partial_(def_func)``; ``_TOOLS_REGISTRY[t.name] = t``; ``return t``), applied in other modules; and such a
registry in a package that sits below a directory without ``__init__.py`` inside a regular package, imported by its
full dotted name (``from app.server.agent.tools_factory.registry import regist_tool``)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_REGISTRY = """
    from langchain_core.tools import tool

    _TOOLS_REGISTRY = {}


    def regist_tool(*args, title="", description="", return_direct=False):
        def wrapper(def_func):
            partial_ = tool(*args, return_direct=return_direct)
            t = partial_(def_func)
            _TOOLS_REGISTRY[t.name] = t
            return t

        if len(args) == 0:
            return wrapper
        t = tool(*args, return_direct=return_direct)
        _TOOLS_REGISTRY[t.name] = t
        return t
"""

BOUND = {
    "app/__init__.py": "",
    "app/server/__init__.py": "",
    # ``agent`` has no ``__init__.py``: a namespace portion of ``app.server``
    "app/server/agent/tools_factory/__init__.py": "from .registry import regist_tool\n",
    "app/server/agent/tools_factory/registry.py": _REGISTRY,
    "app/server/agent/tools_factory/weather.py": """
        import httpx

        from .registry import regist_tool

        @regist_tool(title="Weather")
        def weather_check(city: str) -> str:
            return httpx.get("https://wttr.in/" + city, timeout=10).text
    """,
    "app/server/agent/tools_factory/kb.py": """
        from app.server.agent.tools_factory.registry import regist_tool

        @regist_tool(title="Knowledge base")
        def search_kb(query: str) -> str:
            return query
    """,
}


def test_a_decorator_bound_to_a_name_then_applied_registers_the_function(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, BOUND))
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("kb.py", "search_kb", "langchain"),
                                                   ("weather.py", "weather_check", "langchain")]


def test_a_name_bound_to_another_call_registers_nothing(tmp_path: Path) -> None:
    # ``partial_`` is bound to a printer, not to the framework's decorator: nothing makes a tool of the function
    registry = _REGISTRY.replace("partial_ = tool(*args, return_direct=return_direct)",
                                 "partial_ = functools.partial(print, *args)").replace(
        "from langchain_core.tools import tool", "import functools").replace(
        "        t = tool(*args, return_direct=return_direct)\n        _TOOLS_REGISTRY[t.name] = t\n        return t\n",
        "        return None\n")
    assert "tool(" not in registry.replace("regist_tool(", "")
    files = dict(BOUND, **{"app/server/agent/tools_factory/registry.py": registry})
    assert tool_rows(write_tree(tmp_path, files)) == []
