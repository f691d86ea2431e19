"""``smullyan tools`` (s51): a registration in a loop over each module's tool list, ``for module in (issues, meta): for
tool in module.TOOLS: mcp.tool(...)(tool)`` (jira-sync-mcp): each function of each named module's list is a tool
(``linter/tools/remote.py: _each_modules``)."""

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
