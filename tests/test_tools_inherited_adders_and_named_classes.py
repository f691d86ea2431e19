"""`smullyan tools` (issue 28): the registration forms batch 14 showed (tuned after its blind run). A base class's
method handing what it is given to a server (``self._add_tool(server=server, method=self.search_cases, name=...)``,
falcon-mcp) called by subclasses in other files, through any depth of bases; ``@server.tool()`` on mcp's low-level
``Server`` (quickbooks-mcp); lovia's ``@tool`` (named by a factory's ``name`` parameter default too); a tool class
named by an upper-case ``NAME`` class attribute (wizolt)."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows as rows, tool_rows, write_tree

_BASE = """
    from typing import Any, Callable

    from mcp.server import FastMCP


    def offload_to_thread(fn):
        return fn


    class BaseModule:
        def _add_tool(self, server: FastMCP, method: Callable[..., Any], name: str) -> None:
            server.add_tool(offload_to_thread(method), name=f"falcon_{name}")

        def _add_resource(self, server: FastMCP, resource: Any) -> None:
            server.add_resource(resource=resource)
    """


def test_a_base_method_adding_tools_called_by_subclasses_in_other_files(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "fm/__init__.py": "",
        "fm/modules/__init__.py": "",
        "fm/modules/base.py": _BASE,
        "fm/modules/cases.py": """
            from mcp.server import FastMCP

            from fm.modules.base import BaseModule


            class CasesModule(BaseModule):
                def register_tools(self, server: FastMCP) -> None:
                    self._add_tool(server=server, method=self.search_cases, name="search_cases")
                    self._add_tool(server, self.get_case, "get_case")
                    self._add_resource(server, self.not_a_tool)

                def search_cases(self, query: str) -> str:
                    return query

                def get_case(self, ident: str) -> str:
                    return ident

                def not_a_tool(self) -> str:
                    return ""
            """,
        # two levels of bases, each in its own file (falcon-mcp's ``_CloudRisksMixin(_CloudBase)``)
        "fm/modules/cloud_base.py": """
            from fm.modules.base import BaseModule


            class CloudBase(BaseModule):
                pass
            """,
        "fm/modules/cloud_risks.py": """
            from fm.modules.cloud_base import CloudBase


            class RisksMixin(CloudBase):
                def register(self, server) -> None:
                    self._add_tool(server=server, method=self.search_risks, name="search_risks")

                def search_risks(self) -> str:
                    return ""
            """,
    })
    assert tool_rows(files) == [("cases.py", "get_case", "mcp", "_add_tool"),
                                ("cases.py", "search_cases", "mcp", "_add_tool"),
                                ("cloud_risks.py", "search_risks", "mcp", "_add_tool")]


def test_not_a_base_method_adding_tools(tmp_path: Path) -> None:
    # the base's method stores what it is given in a plain list: no server, no tool
    files = write_tree(tmp_path, {
        "fm/__init__.py": "",
        "fm/base.py": """
            class BaseModule:
                def _add_hook(self, method, name):
                    self.hooks.append(method)
            """,
        "fm/cases.py": """
            from fm.base import BaseModule


            class CasesModule(BaseModule):
                def register(self) -> None:
                    self._add_hook(method=self.on_case, name="on_case")

                def on_case(self) -> None:
                    pass
            """,
    })
    assert tool_rows(files) == []


def test_tool_on_the_low_level_server() -> None:
    assert rows("""
        from mcp.server import Server


        def register_account_tools(server: Server, qbo) -> None:
            @server.tool()
            async def get_account_balances(account_type: str = "All") -> str:
                return qbo.get(account_type)

            @server.list_tools()
            async def listed() -> list:
                return []
        """) == [("get_account_balances", "mcp", "@server.tool")]


def test_lovia_tool_and_a_factory_naming_it() -> None:
    assert rows("""
        from lovia import tool


        @tool
        def now() -> str:
            return ""


        def web_search(impl, *, name: str = "web_search"):
            @tool(name=name, retries=2)
            async def _search(query: str) -> str:
                return await impl.search(query)

            return _search


        def web_fetch(impl, name: str = "web_fetch", label=None):
            @tool(name=label)
            async def _read(url: str) -> str:
                return await impl.read(url)

            return _read
        """) == [("_read", "lovia", "@tool"), ("now", "lovia", "@tool"), ("web_search", "lovia", "@tool")]


def test_a_tool_class_named_by_an_upper_case_name() -> None:
    assert rows("""
        from crewai.tools import BaseTool


        class ReadTool(BaseTool):
            NAME = "Read"

            def _run(self, path: str) -> str:
                return open(path).read()


        class WriteTool(BaseTool):
            name: str = "write"
            NAME = "Write"

            def _run(self, path: str) -> str:
                return path
        """) == [("Read", "crewai", "BaseTool subclass"), ("write", "crewai", "BaseTool subclass")]
