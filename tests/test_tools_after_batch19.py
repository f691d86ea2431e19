"""`smullyan tools` (issue 28, session 46): batch 19's registration forms that recur (after its blind run).

- A call handing a registry a tool schema and, apart, the function that runs it: ``registry.register(_SCHEMA_RUN,
  _handle_run)`` (an OpenAI-style schema dict, annotated or not), ``reg.register(READ_SPEC, read_file)`` (a spec built
  by keyword, the function nested in the registering one), a plugin module's ``reg(TOOL_NAME, TOOL_FUNC,
  TOOL_SCHEMA)`` (the schema's name a module constant, the function bound to an alias).
- A tool spec whose callable is a lambda that only calls a function (``ReActTool(name="recent_deploys", description=...,
  handler=lambda _: fetch_expanded(), parameters=...)``): that function runs the tool.
- A hand-written MCP server's (or agent's) tool runner comparing its first parameter, or its parameter ``name``, with
  the module's tool schemas' names (``def call_tool(self, name, arguments): if name == "write_to_terminal": ...``,
  ``def execute_tool(relay, name, args)``): a row per name, as a ``match name:`` had. A function comparing the
  called name that only reads values (an activity feed's summary of the call) runs no tool: no row.
"""

from __future__ import annotations

from tools_support import source_rows

_FORM = ("schema", "register(schema, function)")

_SCHEMA_AND_HANDLER = '''
    import subprocess
    from typing import Any, Dict


    class ToolRegistry:
        def __init__(self):
            self._handlers = {}

        def register(self, schema, handler):
            self._handlers[schema["function"]["name"]] = handler


    async def _handle_run(command: str, **_: Any) -> dict:
        return {"output": subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60).stdout}


    _SCHEMA_RUN: Dict[str, Any] = {
        "type": "function",
        "function": {"name": "run_powershell", "description": "Run a command.", "parameters": {"type": "object"}},
    }


    def build_default_registry() -> ToolRegistry:
        registry = ToolRegistry()
        registry.register(_SCHEMA_RUN, _handle_run)
        return registry
'''


def test_a_schema_handed_to_a_registry_beside_its_handler() -> None:
    assert source_rows(_SCHEMA_AND_HANDLER) == [("run_powershell", *_FORM)]


def test_a_spec_built_by_keyword_and_a_nested_function() -> None:
    code = '''
        from pathlib import Path

        from .registry import ToolRegistry, ToolSpec

        READ_SPEC = ToolSpec(name="read_file", description="Read a file.", parameters={"type": "object"})


        def build_default_registry(root):
            reg = ToolRegistry()

            def read_file(args):
                return (Path(root) / args["path"]).read_text()

            reg.register(READ_SPEC, read_file)
            return reg
    '''
    assert source_rows(code) == [("read_file", *_FORM)]


def test_a_plugin_modules_register_hook_with_constants() -> None:
    code = '''
        TOOL_NAME = "analyze_emails"

        def execute(days: int = 7) -> str:
            from .email_module import EmailModule
            return EmailModule().analyze_recent(days)

        TOOL_FUNC = execute
        TOOL_SCHEMA = {
            "type": "function",
            "function": {"name": TOOL_NAME, "description": "Stats.", "parameters": {"type": "object"}},
        }
        _check = lambda: True

        def register(reg): reg(TOOL_NAME, TOOL_FUNC, TOOL_SCHEMA, check_fn=_check)
    '''
    assert source_rows(code) == [("analyze_emails", *_FORM)]


def test_not_a_schema_without_parameters_nor_a_call_that_does_not_register_nor_no_function() -> None:
    code = '''
        SCHEMA = {"type": "function", "function": {"name": "lookup", "description": "Look up.", "parameters": {}}}
        META = {"name": "lookup"}
        TOOL_FUNC = None


        def _lookup(q):
            return q


        def main(client, registry):
            print(SCHEMA, _lookup)
            registry.register(META, _lookup)
            registry.register(SCHEMA, TOOL_FUNC)
            client.chat(tools=[SCHEMA])
    '''
    assert source_rows(code) == []


_LAMBDA_SPEC = '''
    from ..agents.react import ReActTool


    class DeployWorker:
        async def run(self, incident, react):
            async def fetch_expanded() -> int:
                return await self.k8s.list_replica_sets(incident.service)

            return await react.run_llm(
                goal="Find deploys",
                tools=[
                    ReActTool(
                        name="recent_deploys",
                        description="List replica set deploy events",
                        handler=lambda _: fetch_expanded(),
                        parameters={"type": "object", "properties": {}},
                    ),
                    ReActTool(
                        name="constant",
                        description="Answer a constant",
                        handler=lambda _: {"ok": True},
                        parameters={"type": "object", "properties": {}},
                    ),
                ],
            )
'''


def test_a_spec_whose_callable_is_a_lambda_calling_a_function_but_not_one_answering_a_value() -> None:
    assert source_rows(_LAMBDA_SPEC) == [("recent_deploys", "schema", "tool spec dict")]


_SCHEMAS = '''
    TOOLS = [
        {"name": "write_to_terminal", "description": "Write.", "inputSchema": {"type": "object"}},
        {"name": "read_terminal_output", "description": "Read.", "inputSchema": {"type": "object"}},
    ]
'''


def test_a_tool_runners_name_parameter_compared_with_the_schemas() -> None:
    code = _SCHEMAS + '''

    class MCPServer:
        def list_tools(self):
            return {"tools": TOOLS}

        def call_tool(self, name, arguments):
            if name == "write_to_terminal":
                return self.executor.write(arguments["command"])
            elif name == "read_terminal_output":
                return self.reader.read(arguments["linesOfOutput"])
            raise KeyError(name)


    def execute_tool(relay, name, args):
        if name == "write_to_terminal":
            return relay.submit_task("write", args)
        elif name == "read_terminal_output":
            return relay.submit_task("read", args)
    '''
    rows = source_rows(code)
    assert rows.count(("write_to_terminal", "dispatch", "if on the called name")) == 2
    assert rows.count(("read_terminal_output", "dispatch", "if on the called name")) == 2
    assert len(rows) == 4


def test_not_a_summary_of_the_call_nor_a_function_not_named_to_run_tools() -> None:
    code = _SCHEMAS + '''

    def _feed_summary(tool_name, arguments, text):
        s = {"tool": tool_name}
        if tool_name == "write_to_terminal":
            s["command"] = arguments.get("command", "")[:80]
        elif tool_name == "read_terminal_output":
            s["count"] = len(text.strip().split("\\n"))
        return s


    def label(name, args):
        if name == "write_to_terminal":
            return run_write(args)
        elif name == "read_terminal_output":
            return run_read(args)
    '''
    assert source_rows(code) == []
