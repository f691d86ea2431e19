"""`smullyan tools` (issue 28, session 46): registration forms that recur across packages.

- A call building a tool spec by keyword (``ToolSpec(name="write", description=..., parameters=..., run=_run_write)``,
  ``ControlSpec(id="saas_enable", ..., run=...)``): a description the module writes, an input schema and the callable;
  in the function's module or, at a module's top level, naming a function imported from another module of the run.
- A tool class handed a wrapper defined elsewhere around one function of this module (``func=self._safe_tool_func(
  "tree", self.tree)``, the wrapper inherited from another module's base): the wrapped function is the tool.
- A low-level MCP server's ``call_tool`` dispatcher that looks the called name up in a table giving each name a row
  of its own: one row per tool, the table's.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tool_rows, write_tree

_SPEC_CALL = '''
    import subprocess

    from .kernel import ToolSpec, define_tool

    _DESCRIPTION = "Run a shell command."


    async def _run_bash(inp, ctx):
        return subprocess.run(inp["command"], shell=True, capture_output=True, text=True, timeout=60).stdout


    async def _run_write(inp, ctx):
        with open(inp["path"], "w") as f:
            f.write(inp["content"])
        return "saved"


    bash_tool = define_tool(ToolSpec(name="bash", description=_DESCRIPTION, parameters={"type": "object"}, run=_run_bash))
    write_tool = define_tool(
        ToolSpec(
            name="write",
            description=("Save a UTF-8 text file " "at the given path."),
            parameters={"type": "object", "properties": {"path": {"type": "string"}}},
            run=_run_write,
        )
    )
'''


def test_a_tool_spec_built_by_a_call_with_its_callable() -> None:
    assert source_rows(_SPEC_CALL) == [("bash", "schema", "tool spec dict"), ("write", "schema", "tool spec dict")]


def test_not_a_spec_copying_another_specs_fields_nor_one_without_a_schema() -> None:
    code = '''
        from .kernel import ToolSpec, Job


        def instantiate(spec):
            async def run(inp, ctx):
                return await spec.run(inp)

            return ToolSpec(name="copied", description=spec.description, parameters=spec.parameters, run=run)


        def _nightly():
            return 1


        JOB = Job(name="nightly", description="Nightly cleanup.", run=_nightly)
    '''
    assert source_rows(code) == []


_SPEC_ACROSS = {
    "pkg/__init__.py": "",
    "pkg/handlers.py": '''
        import urllib.request


        async def run_enable(gateway, inp):
            return urllib.request.urlopen("https://saas.example/enable", timeout=10).read()


        async def run_status(gateway, inp):
            return urllib.request.urlopen("https://saas.example/status", timeout=10).read()
    ''',
    "pkg/control.py": '''
        from dataclasses import dataclass

        from pkg.handlers import run_enable, run_status


        @dataclass
        class ControlSpec:
            id: str
            description: str
            parameters: dict
            run: object


        CONTROL_SPECS = (
            ControlSpec(id="saas_enable", description="Enable a toolkit.", parameters={"type": "object"}, run=run_enable),
            ControlSpec(id="saas_status", description="Connection status.", parameters={"type": "object"}, run=run_status),
        )
    ''',
}


def test_a_spec_call_naming_a_function_of_another_module(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _SPEC_ACROSS))
    assert [(f, n) for f, n, _fw, _form in rows] == [("handlers.py", "saas_enable"), ("handlers.py", "saas_status")]


_WRAPPED = {
    "pkg/__init__.py": "",
    "pkg/protocol.py": '''
        class Backend:
            def _safe_tool_func(self, tool_name, method):
                def _safe(*args, **kwargs):
                    try:
                        return method(*args, **kwargs)
                    except TimeoutError as e:
                        return str(e)
                return _safe
    ''',
    "pkg/local.py": '''
        import os
        import shutil

        from langchain_core.tools import StructuredTool

        from pkg.protocol import Backend


        class LocalBackend(Backend):
            def tree(self, path):
                return "\\n".join(os.listdir(path))

            def delete(self, path):
                os.remove(path)

            @property
            def tools(self):
                return [
                    StructuredTool(name="tree", description="Show a tree.", func=self._safe_tool_func("tree", self.tree)),
                    StructuredTool(name="delete", description="Delete a file.",
                                   func=self._safe_tool_func("delete", self.delete)),
                ]
    ''',
}


def test_a_tool_class_handed_an_inherited_wrapper_around_a_method(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _WRAPPED))
    assert [(f, n) for f, n, _fw, _form in rows] == [("local.py", "delete"), ("local.py", "tree")]


def test_not_a_wrapper_handed_no_function_or_two(tmp_path: Path) -> None:
    files = dict(_WRAPPED)
    files["pkg/local.py"] = files["pkg/local.py"].replace('self._safe_tool_func("tree", self.tree)',
                                                          'self._safe_tool_func("tree", "tree")').replace(
        'self._safe_tool_func("delete", self.delete)', 'self._safe_tool_func(self.tree, self.delete)')
    assert tool_rows(write_tree(tmp_path, files)) == []


_LOOKUP_SERVER = '''
    import urllib.request

    from mcp.server import Server
    from mcp.types import TextContent, Tool

    TOOLS = [
        Tool(name="get_issue", description="An issue.", inputSchema={"type": "object"}),
        Tool(name="create_issue", description="Create an issue.", inputSchema={"type": "object"}),
    ]


    async def _handle_get_issue(arguments):
        return urllib.request.urlopen("https://jira.example/issue", timeout=10).read()


    async def _handle_create_issue(arguments):
        return urllib.request.urlopen("https://jira.example/create", timeout=10).read()


    _TOOL_HANDLERS = {
        "get_issue": _handle_get_issue,
        "create_issue": _handle_create_issue,
    }


    def serve():
        server = Server("jira")

        @server.list_tools()
        async def _list_tools():
            return TOOLS

        @server.call_tool()
        async def _call_tool(name, arguments):
            handler = _TOOL_HANDLERS.get(name)
            if handler is None:
                return [TextContent(type="text", text="Unknown tool")]
            return [TextContent(type="text", text=await handler(arguments))]
'''


def test_a_lookup_dispatchers_names_the_table_gives_rows_once() -> None:
    assert source_rows(_LOOKUP_SERVER) == [("create_issue", "schema", "dispatch dict"),
                                           ("get_issue", "schema", "dispatch dict")]


def test_a_listed_name_the_table_lacks_keeps_the_dispatchers_row() -> None:
    code = _LOOKUP_SERVER.replace('''        "create_issue": _handle_create_issue,
''', "").replace('''    _TOOL_HANDLERS = {''', '''    _TOOL_HANDLERS = {
        "list_issues": _handle_create_issue,''')
    assert ("get_issue", "schema", "dispatch dict") in source_rows(code)
    assert ("create_issue", "mcp", "@server.call_tool") in source_rows(code)
