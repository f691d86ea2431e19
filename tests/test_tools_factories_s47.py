"""`smullyan tools` (issue 28, session 47): tools whose function a factory of the module makes, and a tool decorator
applied once per row of a literal table.

- A registration handed a call of a factory of this module (``registry.register(SPEC, _make_search_handler(index))``,
  ``StructuredTool.from_function(func=self._make_get_goal())``): the nested function the factory returns runs the
  tool, as ``Tool(func=factory())`` already did. A factory returning no function of its own gives no row.
- ``for name, description, model in tool_configs: server.tool(name=name, description=description)(handler)`` over a
  literal list of tuples, the handler a loop name or a factory's call bound in the loop: one row per row of the table,
  named by its literal. A loop over a parameter (names the code cannot read) gives none.
"""

from __future__ import annotations

from tools_support import source_rows

_REGISTERED_FACTORY = '''
    from typing import Any

    from .registry import ToolRegistry, ToolSpec

    SEARCH_SPEC = ToolSpec(
        name="symbol_search",
        description="Search symbols.",
        parameters={"type": "object", "properties": {"query": {"type": "string"}}},
    )


    def _make_search_handler(code_index: Any) -> Any:
        def symbol_search(args: dict) -> str:
            return "\\n".join(code_index.find(args["query"]))
        return symbol_search


    def register_code_tools(registry: ToolRegistry, code_index: Any) -> None:
        registry.register(
            SEARCH_SPEC,
            _make_search_handler(code_index),
        )
'''


def test_a_registry_handed_a_factory_of_the_module() -> None:
    assert source_rows(_REGISTERED_FACTORY) == [("symbol_search", "schema", "register(schema, function)")]


def test_a_registry_handed_a_call_that_makes_no_function_of_the_module() -> None:
    code = _REGISTERED_FACTORY.replace("_make_search_handler(code_index),", "build_handler(code_index),")
    assert source_rows(code) == []


def test_a_wrapper_handed_a_method_that_makes_the_function() -> None:
    code = '''
        from langchain_core.tools import StructuredTool


        class GoalMiddleware:
            def __init__(self, prefix: str) -> None:
                self.prefix = prefix
                self.tools = [
                    StructuredTool.from_function(name=f"{prefix}get_goal", description="Read the goal.",
                                                 func=self._make_get_goal()),
                ]

            def _make_get_goal(self):
                def _get_goal(tool_call_id: str, state: dict) -> str:
                    return str(state.get("goal"))
                return _get_goal
    '''
    assert source_rows(code) == [("_get_goal", "langchain", "StructuredTool.from_function")]


_TABLE = '''
    import json

    from mcp.server.fastmcp import FastMCP


    def _create_tool_handler(name, registry, model=None):
        def handler_no_args() -> str:
            payload, is_error = registry.call(name, {})
            if is_error:
                raise RuntimeError(json.dumps(payload))
            return json.dumps(payload)
        return handler_no_args


    def build_mcp_server(registry):
        server = FastMCP("exchange")
        tool_configs = [
            ("ping_exchange", "Check connectivity", None),
            ("list_emails", "List emails", None),
        ]
        for name, description, model in tool_configs:
            handler = _create_tool_handler(name, registry, model)
            server.tool(name=name, description=description)(handler)
        return server
'''


def test_a_tool_decorator_applied_per_row_of_a_literal_table() -> None:
    assert source_rows(_TABLE) == [("list_emails", "mcp", "server.tool(...)"),
                                   ("ping_exchange", "mcp", "server.tool(...)")]


def test_a_literal_table_of_names_and_functions() -> None:
    code = '''
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        def ping() -> str:
            return "pong"


        def echo(text: str) -> str:
            return text


        for tool_name, fn in [("ping_server", ping), ("echo_text", echo)]:
            mcp.tool(name=tool_name)(fn)
    '''
    assert source_rows(code) == [("echo_text", "mcp", "mcp.tool(...)"), ("ping_server", "mcp", "mcp.tool(...)")]


def test_a_loop_over_a_parameter_names_no_row() -> None:
    code = _TABLE.replace("def build_mcp_server(registry):", "def build_mcp_server(registry, tool_configs):").replace(
        '''        tool_configs = [
            ("ping_exchange", "Check connectivity", None),
            ("list_emails", "List emails", None),
        ]
''', "")
    assert source_rows(code) == []


_EXEC_RUNNER = '''
    import json
    import subprocess

    SETUP_TOOLS = [
        {"name": "get_state", "description": "Read the state.", "input_schema": {"type": "object"}},
        {"name": "test_relay", "description": "Ping the relay.", "input_schema": {"type": "object"}},
    ]


    def _setup_exec_tool(name: str, args: dict) -> str:
        if name == "get_state":
            return json.dumps({"ok": True, "state": load_state()})
        if name == "test_relay":
            return subprocess.run(["ping", "-c", "1", args["host"]], capture_output=True, text=True).stdout
        return json.dumps({"error": f"unknown tool {name}"})
'''


def test_a_tool_runner_named_with_exec() -> None:
    """``exec`` is a running word as ``execute`` is: ``_setup_exec_tool(name, args)`` runs the tool it is named."""
    assert source_rows(_EXEC_RUNNER) == [("get_state", "dispatch", "if on the called name"),
                                         ("test_relay", "dispatch", "if on the called name")]


def test_a_function_named_exec_without_tool_runs_nothing() -> None:
    assert source_rows(_EXEC_RUNNER.replace("_setup_exec_tool", "_setup_exec")) == []
