"""`smullyan tools` (issue 28, session 37, batch 10): a server object built by a project function of another
module (``mcp = build_server(...)`` where ``build_server`` returns ``MCPServer(...)`` or ``FastMCP(...)``, chosen
by a try/except import) is that server, and the tool modules that import it and decorate with ``@mcp.tool()``
define tools."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_SDK = """
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:
        from mcp.server.fastmcp import FastMCP as Server


    def build_server(*, name, version):
        try:
            return Server(name=name, version=version)
        except TypeError:
            server = Server(name=name)
            server.version = version
            return server
"""

BUILT = {
    "houd/__init__.py": "",
    "houd/_sdk.py": _SDK,
    "houd/server.py": """
        from houd._sdk import build_server

        mcp = build_server(name="houdini", version="1.0")
    """,
    "houd/tools/__init__.py": "",
    "houd/tools/nodes.py": """
        from houd.server import mcp

        @mcp.tool()
        def create_node(kind: str) -> str:
            return kind

        @mcp.tool()
        async def delete_node(path: str) -> str:
            return path
    """,
}


def test_server_built_by_a_function_of_another_module_makes_tools(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, BUILT))
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("nodes.py", "create_node", "mcp"), ("nodes.py", "delete_node", "mcp")]


def test_a_function_returning_something_else_too_builds_no_server(tmp_path: Path) -> None:
    # one return is not a server: the object may be anything, so its ``tool`` method makes no tool
    files = dict(BUILT, **{"houd/_sdk.py": _SDK.replace("            return server\n",
                                                         "            return server.inner\n")})
    assert tool_rows(write_tree(tmp_path, files)) == []


def test_a_name_rebound_to_another_value_builds_no_server(tmp_path: Path) -> None:
    files = dict(BUILT, **{"houd/_sdk.py": _SDK.replace("            server.version = version\n",
                                                         "            server = wrap(server)\n")})
    assert tool_rows(write_tree(tmp_path, files)) == []


def test_a_factory_of_a_class_with_no_tool_method_makes_no_tools(tmp_path: Path) -> None:
    files = dict(BUILT, **{"houd/_sdk.py": """
        class Hammer:
            def tool(self):
                return lambda fn: fn

        def build_server(*, name, version):
            return Hammer()
    """})
    assert tool_rows(write_tree(tmp_path, files)) == []


# agentica's toolkit: a ``Tool`` subclass registers its methods in ``__init__``; a helper it does not register is none
AGENTICA = {
    "myagent/__init__.py": "",
    "myagent/arxiv.py": """
        from agentica.tools.base import Tool

        class ArxivTool(Tool):
            def __init__(self, read: bool = True):
                super().__init__(name="arxiv")
                self.register(self.search_papers, concurrency_safe=True)
                if read:
                    self.register(self.read_paper)

            def search_papers(self, query: str) -> str:
                return self._format(query)

            def read_paper(self, paper_id: str) -> str:
                return paper_id

            def _format(self, text: str) -> str:
                return text
    """,
    "myagent/other.py": """
        from myagent.registry import Tool

        class Plain(Tool):
            def __init__(self):
                self.register(self.run_it)

            def run_it(self) -> str:
                return "x"
    """,
    "myagent/registry.py": """
        class Tool:
            def register(self, fn):
                pass
    """,
}


def test_agentica_tool_subclass_registered_methods_are_tools(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, AGENTICA))
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("arxiv.py", "read_paper", "agentica"),
                                                     ("arxiv.py", "search_papers", "agentica")]
