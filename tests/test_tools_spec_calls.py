"""``smullyan tools``: a tool spec call written in a function naming another module's function (s50), and the hint a
JSON run that finds no tool in files importing an agent framework prints on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smullyan.linter.cli import main
from tools_support import tool_rows, write_tree

REGISTRY = {
    "proj/__init__.py": "",
    "proj/tools/__init__.py": """
        from proj.tools.files import read_file_handler
        from proj.tools.tool import ToolRegistry


        def build_registry() -> ToolRegistry:
            registry = ToolRegistry()
            registry.add(
                "read_file",
                description="Read a file within the working directory.",
                parameters={"type": "object", "properties": {"path": {"type": "string"}}},
                handler=read_file_handler,
            )
            return registry
    """,
    "proj/tools/files.py": """
        def read_file_handler(args, ctx):
            with open(args["path"]) as f:
                return f.read()
    """,
    "proj/tools/tool.py": """
        class ToolRegistry:
            def __init__(self):
                self._tools = {}

            def add(self, name, *, description, parameters, handler):
                self._tools[name] = (description, parameters, handler)
    """,
}

DEFINITIONS = {
    "proj/__init__.py": "",
    "proj/bash.py": """
        import subprocess


        def handle_bash_tool(args, context):
            return subprocess.run(args["command"], shell=True, capture_output=True, text=True, timeout=60).stdout
    """,
    "proj/registry.py": """
        from proj import bash as _bash
        from proj.types import ToolDefinition


        class ToolRegistry:
            def __init__(self):
                self._tools = {}
                self._register_builtins()

            def _register_builtins(self):
                self.register(ToolDefinition(name="bash", description="Execute shell commands.",
                                             parameters={"command": {"type": "string"}}, handler=_bash.handle_bash_tool))

            def register(self, definition):
                self._tools[definition.name] = definition
    """,
    "proj/types.py": """
        from dataclasses import dataclass, field
        from typing import Any, Callable


        @dataclass
        class ToolDefinition:
            name: str
            description: str = ""
            parameters: dict = field(default_factory=dict)
            handler: Callable[..., Any] | None = None
    """,
}


def test_a_registry_method_spelling_a_tool_out_in_a_function_names_an_imported_function(tmp_path: Path) -> None:
    # ``registry.add("read_file", description=..., parameters=..., handler=f)`` in a package's ``__init__``: the
    # name by the literal first argument, the function of the submodule it imports
    assert tool_rows(write_tree(tmp_path, REGISTRY)) == [("files.py", "read_file", "schema", "tool spec table")]


def test_a_tool_definition_built_in_a_method_names_a_function_of_another_module(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, DEFINITIONS)) == [("bash.py", "bash", "schema", "tool spec table")]


def test_a_spec_without_a_description_or_a_schema_or_handing_a_parameter_is_none(tmp_path: Path) -> None:
    no_schema = {**REGISTRY, "proj/tools/__init__.py": REGISTRY["proj/tools/__init__.py"].replace(
        "parameters=", "tags=")}
    assert tool_rows(write_tree(tmp_path / "a", no_schema)) == []
    handed = {**REGISTRY, "proj/tools/__init__.py": """
        def build_registry(registry, read_file_handler):
            registry.add("read_file", description="Read a file.", parameters={}, handler=read_file_handler)
    """}
    assert tool_rows(write_tree(tmp_path / "b", handed)) == []


MISSED = {
    "proj/__init__.py": "",
    "proj/server.py": """
        from mcp.server.fastmcp import FastMCP
        from proj.table import TABLE

        mcp = FastMCP("demo")


        def serve():
            for name, fn in TABLE.items():
                mcp.add_tool(fn, name=name)
    """,
    "proj/table.py": "TABLE = {}\n",
}


def test_a_json_run_finding_no_tool_in_files_importing_a_framework_hints_on_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_tree(tmp_path, MISSED)
    assert main(["tools", "--format", "json", "-j", "1", str(tmp_path / "proj")]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["tools"] == []  # the document is data: no hint in it
    err = " ".join(captured.err.split())
    assert "smullyan: hint: these files import mcp but no tool was found in them." in err
    assert "tool-decorators" in err and "tool-base-classes" in err and "tool-list-constructors" in err
    # --quiet, and a project importing no agent framework: nothing on stderr
    assert main(["tools", "--format", "json", "--quiet", "-j", "1", str(tmp_path / "proj")]) == 0
    assert capsys.readouterr().err == ""
    plain = {**MISSED, "proj/server.py": "from proj.table import TABLE\n\n\ndef serve():\n    return list(TABLE)\n"}
    write_tree(tmp_path / "b", plain)
    assert main(["tools", "--format", "json", "-j", "1", str(tmp_path / "b" / "proj")]) == 0
    assert "hint" not in capsys.readouterr().err
