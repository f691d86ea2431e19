"""`smullyan tools` (issue 28): names resolved through the run's own modules, as Python does. A project module that
re-exports a framework's tool decorator or tool base (``from praisonaiagents.tools import tool`` in
``mypkg/decorator.py``), imported from there by the tool modules (``from mypkg.decorator import tool``), at any depth
(``mypkg/__init__.py`` re-exporting it again); a re-exported server object; and what is not a re-export."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree


REEXPORTED = {
    "mypkg/__init__.py": "from .decorator import tool\nfrom .base import BaseTool\n",
    "mypkg/decorator.py": """
        import logging
        from praisonaiagents.tools import tool, FunctionTool
        """,
    "mypkg/base.py": "from praisonaiagents.tools.base import BaseTool as BaseTool\n",
    "mypkg/search.py": """
        import requests
        from .decorator import tool

        @tool
        def web_search(query: str) -> str:
            return requests.get("https://example.com", params={"q": query}, timeout=5).text

        def not_a_tool(x: int) -> int:
            return x
        """,
    "mypkg/more.py": """
        from mypkg import tool, BaseTool

        @tool(name="fetch")
        def fetch_page(url: str) -> str:
            return url

        class ArxivTool(BaseTool):
            name = "arxiv"

            def run(self, action: str = "search", query: str = "") -> dict:
                return {"action": action, "query": query}

            def _parse(self, text: str) -> str:
                return text
        """,
    "mypkg/tools/weather.py": """
        from mypkg.base import BaseTool

        class WeatherBase(BaseTool):
            pass

        class WeatherTool(WeatherBase):
            def run(self, city: str) -> str:
                return city
        """,
}


def test_a_framework_decorator_and_base_re_exported_through_the_projects_modules(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, REEXPORTED))
    assert rows == [
        ("more.py", "arxiv", "praisonai", "BaseTool subclass"),  # named by its ``name`` attribute
        ("more.py", "fetch", "praisonai", "@tool"),
        ("search.py", "web_search", "praisonai", "@tool"),
        ("weather.py", "WeatherTool", "praisonai", "WeatherBase subclass"),  # the empty middle class is none
    ]


def test_the_same_names_imported_straight_from_the_framework(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/tools.py": """
            from praisonaiagents.tools import BaseTool, tool

            @tool
            def add(a: int, b: int) -> int:
                return a + b

            class Echo(BaseTool):
                def run(self, text: str) -> str:
                    return text
            """,
    }))
    assert rows == [("tools.py", "Echo", "praisonai", "BaseTool subclass"), ("tools.py", "add", "praisonai", "@tool")]


def test_a_project_name_that_shadows_an_import_or_imports_something_else_is_no_tool(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {
        "lib/__init__.py": "",
        # imports the framework's decorator, then defines its own ``tool`` (a plain wrapper): the module's own wins
        "lib/deco.py": """
            from praisonaiagents.tools import tool

            def tool(fn):
                return fn
            """,
        # re-exports a class that is not a tool base
        "lib/base.py": "from collections import OrderedDict as BaseTool\n",
        "lib/use.py": """
            from lib.deco import tool
            from lib.base import BaseTool

            @tool
            def helper(x: int) -> int:
                return x

            class Cache(BaseTool):
                def run(self, key: str) -> str:
                    return key
            """,
    }))
    assert rows == []


def test_a_server_object_re_exported_by_the_package(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {
        "srv/__init__.py": "from .core import mcp_app\n",
        "srv/core.py": """
            from mcp.server.fastmcp import FastMCP

            mcp_app = FastMCP("demo")
            """,
        "srv/tools.py": """
            from srv import mcp_app

            @mcp_app.tool()
            def ping(host: str) -> str:
                return host
            """,
    }))
    assert rows == [("tools.py", "ping", "mcp", "@mcp_app.tool")]


def test_a_cycle_of_re_exports_does_not_hang(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {
        "cyc/__init__.py": "",
        "cyc/a.py": "from cyc.b import thing\n",
        "cyc/b.py": "from cyc.a import thing\n",
        "cyc/c.py": """
            from cyc.a import thing

            @thing
            def f() -> None:
                pass
            """,
    }))
    assert rows == []
