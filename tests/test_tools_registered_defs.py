"""``smullyan tools`` (s53): a project's own tool definition class named by a ``name=`` keyword and handed its function
by a run keyword (a lambda calling it too), imported from a top-level module beside a flat layout (dulus'
``register_tool(ToolDef(name=..., schema=..., func=...))``); an mcp 2.x low-level ``Server(on_call_tool=handler)``
whose handler hands ``params.name`` on to ``if name == ...`` branches (datamcp); another package's action decorator
naming the action by a literal (node-wire's ``@sdk_action("read_lead")`` on a ``BaseConnector`` method)."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tool_rows, write_tree

REGISTRY = """
    from dataclasses import dataclass
    from typing import Any, Callable


    @dataclass
    class ToolDef:
        name: str
        schema: dict
        func: Callable[..., str]
        read_only: bool = False


    _registry: dict[str, ToolDef] = {}


    def register_tool(tool_def: ToolDef) -> None:
        _registry[tool_def.name] = tool_def
"""

FLAT = {  # dulus' layout: top-level modules, no package above them
    "tool_registry.py": REGISTRY,
    "memory/__init__.py": "",
    "memory/tools.py": """
        from tool_registry import ToolDef, register_tool


        def _memory_save(params, config):
            return "saved"


        def _read(path):
            with open(path) as f:
                return f.read()


        register_tool(ToolDef(name="MemorySave", schema={"name": "MemorySave"}, func=_memory_save, read_only=False))


        def _register_builtins():
            defs = [ToolDef(name="Read", schema={}, func=lambda p, c: _read(**p), read_only=True)]
            for td in defs:
                register_tool(td)
    """,
}


def test_a_tool_definition_named_by_keyword_from_a_flat_module_beside_makes_its_function_a_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, FLAT)) == [
        ("tools.py", "MemorySave", "tool-registry", "ToolDef(<name>, ..., <function>)"),
        ("tools.py", "Read", "tool-registry", "ToolDef(<name>, ..., <function>)"),  # the function the lambda calls
    ]


def test_no_function_a_computed_name_or_a_class_of_no_module_of_the_run_makes_none(tmp_path: Path) -> None:
    tools = FLAT["memory/tools.py"]
    builtin = {**FLAT, "memory/tools.py": tools.replace("func=_memory_save", "func=print").replace(
        "func=lambda p, c: _read(**p)", "func=lambda p, c: print(p)")}
    assert tool_rows(write_tree(tmp_path / "a", builtin)) == []
    computed = {**FLAT, "memory/tools.py": tools.replace('name="MemorySave"', 'name=PREFIX + "Save"').replace(
        'name="Read"', "name=NAME")}
    assert tool_rows(write_tree(tmp_path / "b", computed)) == []
    elsewhere = {"memory/__init__.py": "", "memory/tools.py": tools}  # ``tool_registry`` is another library's
    assert tool_rows(write_tree(tmp_path / "c", elsewhere)) == []


LOWLEVEL = '''
import json
from mcp.server import Server
from mcp.types import TextContent


async def call_tool(name, arguments):
    if name == "get_project_id":
        return [TextContent(type="text", text=json.dumps({"project": arguments["project"]}))]
    result = await _dispatch(name=name, arguments=arguments)
    return [TextContent(type="text", text=json.dumps(result))]


async def _dispatch(name, arguments, snapshot=None):
    if name == "connect_database":
        return {"connected": arguments["host"]}
    if name == "introspect_schema" and snapshot is not None:
        return {"tables": snapshot}
    if name == "run_dbt":
        return {"ran": arguments.get("select")}
    raise ValueError(f"Unknown tool: {name}")


async def _on_call_tool(ctx, params):
    return await call_tool(params.name, params.arguments or {})


app = Server("datamcp", on_call_tool=_on_call_tool)
'''

BRANCHES = "tools/call: if on the called name"


def test_a_low_level_server_s_on_call_tool_handler_hands_the_called_name_to_its_branches() -> None:
    assert source_rows(LOWLEVEL) == [
        ("connect_database", "dispatch", BRANCHES),
        ("get_project_id", "dispatch", BRANCHES),  # answered by the handler's callee before it hands the name on
        ("introspect_schema", "dispatch", BRANCHES),
        ("run_dbt", "dispatch", BRANCHES),
    ]


def test_the_same_handler_given_to_anything_else_or_branches_on_another_attribute_are_no_tools() -> None:
    assert source_rows(LOWLEVEL.replace("on_call_tool=", "on_list_tools=")) == []
    assert source_rows(LOWLEVEL.replace("from mcp.server import Server", "from otherlib import Server")) == []
    assert source_rows(LOWLEVEL.replace("call_tool(params.name,", "call_tool(params.uri,")) == []


CONNECTOR = '''
from node_wire_runtime import BaseConnector, nw_action, sdk_action
from .audit import audit_action


class SalesforceConnector(BaseConnector):
    @nw_action("create_lead")
    async def create_lead(self, params, *, trace_id):
        return await self._execute_rest("POST", "Lead", params, trace_id)

    @sdk_action("read_lead", alias_tolerant=True)
    async def read_lead(self, params, *, trace_id):
        return await self._execute_rest("GET", f"Lead/{params.id}", None, trace_id)

    @sdk_action
    async def ping(self, params):
        return "pong"

    @audit_action("delete_lead")
    async def delete_lead(self, params, *, trace_id):
        return await self._execute_rest("DELETE", f"Lead/{params.id}", None, trace_id)
'''


def test_another_package_s_action_decorator_naming_the_action_on_its_connector_s_method_makes_a_tool() -> None:
    # not ``@sdk_action`` without a name, nor ``audit_action`` of the project's own package
    assert source_rows(CONNECTOR) == [
        ("create_lead", "node-wire-runtime", "@nw_action"),
        ("read_lead", "node-wire-runtime", "@sdk_action"),
    ]


def test_an_action_decorator_on_a_class_of_another_package_s_base_is_no_tool() -> None:
    other = CONNECTOR.replace("from node_wire_runtime import BaseConnector, nw_action, sdk_action",
                              "from node_wire_runtime import nw_action, sdk_action\nfrom crm import BaseConnector")
    assert source_rows(other) == []


def test_a_described_tool_spec_named_by_keyword_keeps_the_spec_call_form(tmp_path: Path) -> None:
    # ``ToolSpec(name=..., description="...", parameters=..., func=...)``: read as a tool spec call before s53; its
    # row stays that form's (pcli-agent, hipson, joshu)
    described = {**FLAT, "memory/tools.py": FLAT["memory/tools.py"].replace(
        'schema={"name": "MemorySave"}', 'description="Save a memory.", parameters={"type": "object"}')}
    rows = tool_rows(write_tree(tmp_path, described))
    assert ("tools.py", "MemorySave", "schema", "tool spec dict") in rows
    assert ("tools.py", "Read", "tool-registry", "ToolDef(<name>, ..., <function>)") in rows
