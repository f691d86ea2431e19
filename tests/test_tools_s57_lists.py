"""`smullyan tools` (issue 28, session 57): tools registered from a list another module of the run holds, reached
through a module tuple that spreads it (``MCP_TOOLS = (*CONFLUENCE_MCP_TOOLS, *JIRA_MCP_TOOLS)``), through a name bound
to it, or handed whole to a helper of the file whose loop registers a wrapper of each item (atlassian-agent-mcp, batch 20:
``def _register_tools(tools): for fn in tools: mcp.tool(_mcp_adapter(fn), name=_tool_name(fn))``;
``_register_tools(MCP_TOOLS)``). Each row sits at the function's own ``def``; a list of no function of the run: no row."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tools_support import tool_rows, write_tree

_MODULES = {
    "pkg/__init__.py": "",
    "pkg/jira.py": """
        def jira_get_issue(key: str) -> dict:
            return {"key": key}

        def jira_add_comment(key: str, text: str) -> dict:
            return {"key": key, "text": text}

        JIRA_TOOLS = (jira_get_issue, jira_add_comment)
        NOT_TOOLS = (len, print)
        """,
    "pkg/confluence.py": """
        def get_confluence_page(page_id: str) -> dict:
            return {"id": page_id}

        CONFLUENCE_TOOLS = [get_confluence_page]
        """,
}

_ALL = [("confluence.py", "get_confluence_page"), ("jira.py", "jira_add_comment"), ("jira.py", "jira_get_issue")]


def _rows(tmp_path: Path, server: str) -> list[tuple[str, str]]:
    files = write_tree(tmp_path, {**_MODULES, "pkg/server.py": textwrap.dedent(server)})
    return [(file, name) for file, name, _framework, _form in tool_rows(files)]


def test_a_loop_over_a_module_tuple_spreading_imported_lists(tmp_path: Path) -> None:
    server = """
        from fastmcp import FastMCP
        from pkg.confluence import CONFLUENCE_TOOLS
        from pkg.jira import JIRA_TOOLS

        mcp = FastMCP("x")
        MCP_TOOLS = (*CONFLUENCE_TOOLS, *JIRA_TOOLS)
        for fn in MCP_TOOLS:
            mcp.tool()(fn)
        """
    assert _rows(tmp_path, server) == _ALL


def test_a_spread_tuple_handed_whole_to_a_helper_registering_a_wrapper_of_each(tmp_path: Path) -> None:
    server = """
        from fastmcp import FastMCP
        from pkg.confluence import CONFLUENCE_TOOLS
        from pkg.jira import JIRA_TOOLS

        mcp = FastMCP("x")
        MCP_TOOLS = (*CONFLUENCE_TOOLS, *JIRA_TOOLS)

        def _adapter(fn):
            def wrapped(*args, **kwargs):
                return fn(*args, **kwargs)
            return wrapped

        def _register_tools(tools):
            for fn in tools:
                mcp.tool(_adapter(fn), name=fn.__name__)

        _register_tools(MCP_TOOLS)
        """
    assert _rows(tmp_path, server) == _ALL


def test_an_imported_list_bound_to_a_name_handed_to_a_helper(tmp_path: Path) -> None:
    server = """
        from fastmcp import FastMCP
        from pkg.jira import JIRA_TOOLS

        mcp = FastMCP("x")
        TOOLS = JIRA_TOOLS

        def _adapter(fn):
            def wrapped(*args, **kwargs):
                return fn(*args, **kwargs)
            return wrapped

        def _register_tools(tools):
            for fn in tools:
                mcp.tool(_adapter(fn))

        _register_tools(TOOLS)
        """
    assert _rows(tmp_path, server) == _ALL[1:]


def test_no_row_for_a_spread_list_of_no_function_of_the_run(tmp_path: Path) -> None:
    server = """
        from fastmcp import FastMCP
        from pkg.jira import NOT_TOOLS

        mcp = FastMCP("x")
        MCP_TOOLS = (*NOT_TOOLS,)
        for fn in MCP_TOOLS:
            mcp.tool()(fn)
        """
    assert _rows(tmp_path, server) == []
