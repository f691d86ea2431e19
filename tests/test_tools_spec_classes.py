"""``smullyan tools`` (s51): a project's own tool definition class (``ToolSpec``, ``ToolDef``) named by a literal first
argument and handed one function of the module, by a later positional argument or by a keyword that says it runs
(``linter/tools/spec_classes.py``)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

SPEC = """
    from dataclasses import dataclass
    from typing import Any, Callable


    @dataclass(frozen=True)
    class ToolSpec:
        name: str
        description: str
        input_schema: dict[str, Any]
        handler: Callable[..., Any]
"""

POSITIONAL = {  # fsr-agentic-toolkit's shape: the class in one module, the registry in another
    "proj/__init__.py": "",
    "proj/spec.py": SPEC,
    "proj/verbs.py": """
        from .spec import ToolSpec


        def _h_list_modules(client):
            return client.get("/api/3/modules")


        def _h_get_record(client, module, ref):
            return client.get(f"/api/3/{module}/{ref}")


        def _wf(run):
            def handler(**kwargs):
                return run(**kwargs).to_tool()
            return handler


        def _orient(*, goal=""):
            return goal


        _TOOLS = (
            ToolSpec("list_modules", "List every module.", {"type": "object"}, _h_list_modules),
            ToolSpec("get_record", "Fetch one record.", {"type": "object"}, _h_get_record),
            ToolSpec("orient", "What this box has for a goal.", {"type": "object"}, _wf(_orient)),
        )
        REGISTRY = {t.name: t for t in _TOOLS}
    """,
}

KEYWORD = {  # hexiel's shape: ``ToolDef(name, description, parameters, run=fn)`` in a builder function
    "proj/__init__.py": "",
    "proj/tools.py": """
        import subprocess
        from dataclasses import dataclass


        @dataclass
        class ToolDef:
            name: str
            description: str
            parameters: dict
            readonly: bool = False
            run: object = None


        def _run_bash(args, ctx):
            return subprocess.run(args["command"], shell=True, capture_output=True, text=True, timeout=60).stdout


        def _read(args, ctx):
            with open(args["path"]) as f:
                return f.read()


        def build_tools():
            return [
                ToolDef("bash", "Run a shell command.", {"type": "object"}, run=_run_bash),
                ToolDef("read", "Read a text file.", {"type": "object"}, readonly=True, run=_read),
            ]
    """,
}


def test_a_tool_spec_class_handed_a_function_by_position_makes_it_a_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, POSITIONAL)) == [
        ("verbs.py", "get_record", "proj", "ToolSpec(<name>, ..., <function>)"),
        ("verbs.py", "list_modules", "proj", "ToolSpec(<name>, ..., <function>)"),
        ("verbs.py", "orient", "proj", "ToolSpec(<name>, ..., <function>)"),  # the one function ``_wf`` is handed
    ]


def test_a_tool_definition_class_handed_a_function_by_a_run_keyword_makes_it_a_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, KEYWORD)) == [
        ("tools.py", "bash", "proj", "ToolDef(<name>, ..., <function>)"),
        ("tools.py", "read", "proj", "ToolDef(<name>, ..., <function>)"),
    ]


def test_no_literal_name_no_function_of_the_module_or_another_library_s_class_makes_none(tmp_path: Path) -> None:
    verbs = POSITIONAL["proj/verbs.py"]
    unnamed = {**POSITIONAL, "proj/verbs.py": verbs.replace('ToolSpec("', 'ToolSpec(PREFIX + "')}
    assert tool_rows(write_tree(tmp_path / "a", unnamed)) == []
    schema_only = {**POSITIONAL, "proj/verbs.py": """
        from .spec import ToolSpec

        _TOOLS = (ToolSpec("list_modules", "List every module.", {"type": "object"}, print),)
    """}
    assert tool_rows(write_tree(tmp_path / "b", schema_only)) == []
    library = {"proj/__init__.py": "", "proj/verbs.py": verbs.replace("from .spec import ToolSpec",
                                                                       "from otherlib.spec import ToolSpec")}
    assert tool_rows(write_tree(tmp_path / "c", library)) == []
    not_a_definition = {**POSITIONAL, "proj/spec.py": SPEC.replace("ToolSpec", "ToolResult"),
                        "proj/verbs.py": verbs.replace("ToolSpec", "ToolResult")}
    assert tool_rows(write_tree(tmp_path / "d", not_a_definition)) == []


IMPORTED = {  # dostuff's shape: the definitions module imports each tool's function from its own module
    "proj/__init__.py": "",
    "proj/files.py": """
        def read_file(path: str) -> str:
            with open(path) as f:
                return f.read()
    """,
    "proj/web.py": """
        import urllib.request


        def web_fetch(url: str) -> bytes:
            return urllib.request.urlopen(url, timeout=10).read()
    """,
    "proj/definitions.py": """
        from dataclasses import dataclass
        from typing import Any, Callable

        from proj.files import read_file
        from proj.web import web_fetch


        @dataclass(frozen=True)
        class ToolSpec:
            name: str
            impl: Callable[..., Any]
            kind: str


        _TOOLS = [
            ToolSpec("read_file", read_file, "read"),
            ToolSpec("web_fetch", web_fetch, "network"),
        ]
        TOOL_MAP = {t.name: t for t in _TOOLS}
    """,
}


def test_a_tool_spec_class_handed_another_module_s_function_makes_that_function_the_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, IMPORTED)) == [
        ("files.py", "read_file", "proj", "ToolSpec(<name>, ..., <function>)"),
        ("web.py", "web_fetch", "proj", "ToolSpec(<name>, ..., <function>)"),
    ]
