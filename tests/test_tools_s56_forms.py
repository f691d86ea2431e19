"""`smullyan tools` (issue 28, session 56): forms the base missed that recur in packages of different batches (tuned on
batches 1-28, not blind).

- A project's own tool protocol: ``class Tool(Protocol): schema (a property); def run(self, **kwargs) -> str: ...``,
  which the tools implement without naming it as a base (``@dataclass class WebFetchTool: ...``), as a type checker
  matches a class to a protocol by its members (terno-agent, batch 28; zall, batch 21; pxx-orchestrator, batch 23;
  codegopher, batch 17; coderio, batch 20), when some file of the run names the class (builds or lists it).
- Tool schemas a module's own builder function makes (``_tool("echo", ...)`` returning ``{"name": name, "inputSchema":
  ...}``) name the keys of its dispatch table (mcp-ssh-gateway, batch 20), whose lambdas calling another object's method
  skip that entry only; a tool-named table of other modules' ``main`` functions is a command line (kinetic-devops, 28).
"""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name

_PROTOCOL = '''
    from dataclasses import dataclass
    from typing import Any, Protocol


    @dataclass(frozen=True)
    class ToolSchema:
        name: str
        description: str


    class Tool(Protocol):
        """Anything the agent can invoke as a tool."""

        @property
        def schema(self) -> ToolSchema: ...

        def run(self, **kwargs: Any) -> str:
            ...
'''

_TOOLS = '''
    from dataclasses import dataclass
    from typing import Any

    from pkg.core import ToolSchema


    @dataclass
    class WebFetchTool:
        @property
        def schema(self) -> ToolSchema:
            return ToolSchema(name="web_fetch", description="Fetch a URL.")

        def run(self, **kwargs: Any) -> str:
            return kwargs["url"]


    class ReadFileTool:
        @property
        def schema(self) -> ToolSchema:
            return ToolSchema(name="read_file", description="Read a file.")

        def run(self, **kwargs: Any) -> str:
            return open(kwargs["path"]).read()


    class SchemaHelper:  # not named a tool: implements the members, is no tool
        @property
        def schema(self) -> ToolSchema:
            return ToolSchema(name="helper", description="")

        def run(self, **kwargs: Any) -> str:
            return ""


    class HalfTool:  # no ``schema``: does not implement the protocol
        def run(self, **kwargs: Any) -> str:
            return ""


    def _built() -> list[object]:
        web = WebFetchTool()
        read = ReadFileTool()
        return [web, read, SchemaHelper(), HalfTool()]
'''


def test_classes_implementing_a_tool_protocol_without_naming_it_are_tools(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": _PROTOCOL, "pkg/tools.py": _TOOLS})
    assert sorted(found) == ["read_file", "web_fetch"]  # named by the schema property's literal
    assert found["web_fetch"].qualname == "pkg.tools.WebFetchTool"
    assert found["web_fetch"].form == "Tool protocol"


def test_a_protocol_that_is_no_tool_makes_no_tools(tmp_path: Path) -> None:
    core = _PROTOCOL.replace("class Tool(Protocol):", "class Renderer(Protocol):")
    assert tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": core, "pkg/tools.py": _TOOLS}) == {}


def test_a_plain_class_named_tool_is_no_protocol(tmp_path: Path) -> None:
    core = _PROTOCOL.replace("class Tool(Protocol):", "class Tool:")  # no Protocol: ``...`` bodies are hooks
    assert tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": core, "pkg/tools.py": _TOOLS}) == {}


_SPEC_PROTOCOL = '''
    from typing import Any, Protocol


    class ToolSpec:
        def __init__(self, name: str, description: str) -> None:
            self.name, self.description = name, description


    class Tool(Protocol):
        spec: ToolSpec

        async def run(self, args: dict[str, Any]) -> str:
            ...
'''

_SPEC_TOOLS = '''
    from typing import Any

    from pkg.core import ToolSpec


    class ReadFile:
        spec = ToolSpec(name="read_file", description="Read a file.")

        async def run(self, args: dict[str, Any]) -> str:
            return open(args["path"]).read()


    class DeleteFile:
        spec = ToolSpec(name="delete_file", description="Delete a file.")

        async def run(self, args: dict[str, Any]) -> str:
            return ""


    class Session:  # runs, but has no ``spec``: not an implementer
        async def run(self, args: dict[str, Any]) -> str:
            return ""


    def _built() -> list[object]:
        read = ReadFile()
        delete = DeleteFile()
        return [read, delete, Session()]
'''


def test_a_protocol_asking_for_a_spec_takes_implementers_not_named_tools(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": _SPEC_PROTOCOL, "pkg/fs.py": _SPEC_TOOLS})
    assert sorted(found) == ["delete_file", "read_file"]
    assert found["read_file"].qualname == "pkg.fs.ReadFile"


_BUILT_SCHEMAS = '''
    def _echo(args: dict) -> dict:
        return {"text": args["message"]}


    def _estimate(args: dict) -> dict:
        return {"tokens": len(args["text"]) // 4}


    HANDLERS = {
        "echo_message": _echo,
        "estimate_tokens": _estimate,
    }


    def _tool(name: str, description: str, properties: dict) -> dict:
        schema = {"type": "object", "properties": properties}
        definition = {"name": name, "description": description, "inputSchema": schema}
        return definition


    TOOLS = [
        _tool("echo_message", "Echo a message back.", {"message": {"type": "string"}}),
        _tool("estimate_tokens", "Estimate tokens.", {"text": {"type": "string"}}),
    ]


    def handle_call(name: str, arguments: dict) -> dict:
        handler = HANDLERS.get(name)
        return handler(arguments)
'''


def test_a_dispatch_dict_beside_schemas_a_module_builder_makes(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"server.py": _BUILT_SCHEMAS})
    assert sorted(found) == ["echo_message", "estimate_tokens"]
    assert found["echo_message"].qualname == "server._echo"


def test_a_builder_of_other_dicts_names_no_schemas(tmp_path: Path) -> None:
    code = _BUILT_SCHEMAS.replace('"inputSchema": schema', '"fields": schema')  # no schema key: not a tool schema
    assert tools_by_name(tmp_path, {"server.py": code}) == {}


def test_an_implementer_may_set_its_spec_in_its_constructor(tmp_path: Path) -> None:
    tools_code = _SPEC_TOOLS.replace('''    class DeleteFile:
        spec = ToolSpec(name="delete_file", description="Delete a file.")
''', '''    class DeleteFile:
        def __init__(self) -> None:
            self.spec = ToolSpec(name="delete_file", description="Delete a file.")
''')
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": _SPEC_PROTOCOL, "pkg/fs.py": tools_code})
    assert sorted(found) == ["delete_file", "read_file"]


_CLI_TABLE = '''
    from typing import Callable

    from .auth import main as auth_main
    from .report import main as report_main

    TOOLS: dict[str, Callable[[], object]] = {
        "auth": auth_main,
        "report": report_main,
    }


    def run(tool_name: str) -> object:
        return TOOLS[tool_name]()
'''


def test_a_tool_named_table_of_modules_main_functions_is_a_command_line(tmp_path: Path) -> None:
    sub = "import sys\n\n\ndef main() -> int:\n    return len(sys.argv)\n"
    files = {"pkg/__init__.py": "", "pkg/auth.py": sub, "pkg/report.py": sub, "pkg/hub.py": _CLI_TABLE}
    assert tools_by_name(tmp_path, files) == {}
    files["pkg/report.py"] = sub.replace("def main()", "def build_report()")  # not every entry a ``main``: a tool table
    files["pkg/hub.py"] = _CLI_TABLE.replace("import main as report_main", "import build_report as report_main")
    assert sorted(tools_by_name(tmp_path, files)) == ["auth", "report"]


_HANDLERS_WITH_A_LAMBDA = '''
    def _tool(name: str, description: str) -> dict:
        return {"name": name, "description": description, "inputSchema": {"type": "object"}}


    TOOLS = [_tool("server_list", "List servers."), _tool("run", "Run a command."), _tool("file", "A file.")]


    class Gateway:
        def __init__(self, files) -> None:
            self.files = files
            self._handlers = {
                "server_list": self._server_list, "run": self._run,
                "file": lambda args: self.files.handle(args),
            }

        def call(self, name: str, args: dict) -> dict:
            return self._handlers[name](args)

        def _server_list(self, args: dict) -> dict:
            return {}

        def _run(self, args: dict) -> dict:
            return {"ran": args["command"]}
'''


def test_a_lambda_calling_another_objects_method_leaves_the_tables_other_rows(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"server.py": _HANDLERS_WITH_A_LAMBDA})
    assert sorted(found) == ["run", "server_list"]  # ``file`` runs another object's method: not this module's


def test_an_implementer_nothing_builds_or_lists_is_no_tool(tmp_path: Path) -> None:
    unbuilt = '''

    class GlobTool:  # implements the protocol; no file builds or lists it
        @property
        def schema(self) -> ToolSchema:
            return ToolSchema(name="glob", description="Match paths.")

        def run(self, **kwargs: Any) -> str:
            return ""
'''
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/core.py": _PROTOCOL, "pkg/tools.py": _TOOLS + unbuilt})
    assert sorted(found) == ["read_file", "web_fetch"]  # never ``glob``: not offered to a model
