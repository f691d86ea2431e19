"""``smullyan tools`` (s51): a registration in a loop over each module's tool list, ``for module in (issues, meta): for
tool in module.TOOLS: mcp.tool(...)(tool)`` (jira-sync-mcp): each function of each named module's list is a tool
(``linter/tools/remote.py: _each_modules``); and a registration handed another module's lookup of a tool table,
``mcp.tool()(handler_for(name))`` with ``handler_for`` returning ``TOOL_HANDLERS[name]`` (opcua-mcp-server): each
function of the table is a tool (``remote._returned_table``)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

LOOPED = {
    "proj/__init__.py": "",
    "proj/tools/__init__.py": "",
    "proj/tools/issues.py": """
        def search_issues(query: str) -> list:
            return [query]


        def get_issue(key: str) -> dict:
            return {"key": key}


        TOOLS = [search_issues, get_issue]
    """,
    "proj/tools/meta.py": """
        def get_fields() -> list:
            return []


        TOOLS = [get_fields]
    """,
    "proj/server.py": """
        from fastmcp import FastMCP

        from proj.tools import issues, meta

        READ_ONLY = {"readOnlyHint": True}
        mcp = FastMCP(name="proj")

        for module in (issues, meta):
            for tool in module.TOOLS:
                mcp.tool(annotations=READ_ONLY)(tool)
    """,
}


def test_a_registration_over_each_module_s_tool_list_makes_their_functions_tools(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, LOOPED)) == [
        ("issues.py", "get_issue", "mcp", "mcp.tool(...)"),
        ("issues.py", "search_issues", "mcp", "mcp.tool(...)"),
        ("meta.py", "get_fields", "mcp", "mcp.tool(...)"),
    ]


def test_a_loop_over_a_list_of_other_objects_makes_none(tmp_path: Path) -> None:
    # the outer loop binds a module's attribute, not modules of a literal tuple: nothing is read through it
    other = {**LOOPED, "proj/server.py": LOOPED["proj/server.py"].replace("for module in (issues, meta):",
                                                                           "for module in load_plugins():")}
    assert tool_rows(write_tree(tmp_path, other)) == []


LOOKED_UP = {  # opcua-mcp-server's shape: a registration handed another module's lookup of a name table
    "proj/__init__.py": "",
    "proj/values.py": """
        def read_nodes(node_ids: list) -> list:
            return node_ids


        def write_nodes(values: dict) -> dict:
            return values
    """,
    "proj/tools.py": """
        from types import MappingProxyType

        from .values import read_nodes, write_nodes

        TOOL_HANDLERS = MappingProxyType({"read_nodes": read_nodes, "write_nodes": write_nodes})
        TOOL_NAMES = tuple(TOOL_HANDLERS)


        def handler_for(name: str):
            return TOOL_HANDLERS[name]
    """,
    "proj/server.py": """
        from fastmcp import FastMCP

        from .tools import TOOL_NAMES, handler_for


        def create_server() -> FastMCP:
            mcp = FastMCP("proj")
            for name in TOOL_NAMES:
                mcp.tool()(handler_for(name))
            return mcp
    """,
}


def test_a_registration_handed_a_lookup_of_a_tool_table_makes_its_functions_tools(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, LOOKED_UP)) == [
        ("values.py", "read_nodes", "mcp", "mcp.tool(...)"),
        ("values.py", "write_nodes", "mcp", "mcp.tool(...)"),
    ]


def test_a_lookup_that_returns_anything_else_makes_none(tmp_path: Path) -> None:
    tools = LOOKED_UP["proj/tools.py"]
    built = {**LOOKED_UP, "proj/tools.py": tools.replace("return TOOL_HANDLERS[name]",
                                                          "return wrap(TOOL_HANDLERS[name])")}
    assert tool_rows(write_tree(tmp_path / "a", built)) == []
    untooled = {**LOOKED_UP, "proj/tools.py": tools.replace("TOOL_HANDLERS", "COLOURS")}
    assert tool_rows(write_tree(tmp_path / "b", untooled)) == []
