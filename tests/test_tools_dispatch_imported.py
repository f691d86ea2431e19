"""`smullyan tools` (issue 28, session 38, batch 10's leftovers): tool schemas dispatched by name where the
``{"name": fn}`` dict hands the model's call to functions imported from other modules of the project (a row per
function, at its own ``def``, named by the dict's key), and schemas written as a dict keyed by the tool's name
(``{"end_call": {"description": ..., "parameters": {...}}}``) rather than a list of dicts with a ``"name"``."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_FUNCTIONS = {
    "agent/__init__.py": "",
    "agent/tools/__init__.py": "",
    "agent/tools/read.py": """
        import os

        def view_files(files):
            return [open(f).read() for f in files]

        def list_files(folder="."):
            return os.listdir(folder)
    """,
    "agent/tools/control.py": """
        def check_step_complete():
            return {"status": "done"}
    """,
}

LISTED = dict(_FUNCTIONS, **{"agent/tools/core.py": """
    from agent.tools.control import check_step_complete
    from agent.tools.read import list_files, view_files


    def available_functions():
        return {
            "view_files": view_files,
            "list_files": list_files,
            "step_complete": check_step_complete,
        }


    def function_definitions():
        return [
            {"name": "view_files", "description": "Show files.",
             "parameters": {"type": "object", "properties": {"files": {"type": "array"}}}},
            {"name": "list_files", "description": "List a folder.",
             "parameters": {"type": "object", "properties": {"folder": {"type": "string"}}}},
            {"name": "step_complete", "description": "Mark the step done.",
             "parameters": {"type": "object", "properties": {}}},
        ]
"""})

KEYED = dict(_FUNCTIONS, **{"agent/tools/core.py": """
    from agent.tools.control import check_step_complete
    from agent.tools.read import list_files, view_files

    HANDLERS = {"view_files": view_files, "list_files": list_files, "step_complete": check_step_complete}

    PRESETS = {
        "view_files": {"description": "Show files.", "parameters": {"type": "object", "properties": {}}},
        "list_files": {"description": "List a folder.", "parameters": {"type": "object", "properties": {}}},
        "step_complete": {"description": "Mark the step done.", "parameters": {"type": "object", "properties": {}}},
    }


    def tools_for(names):
        return [{"type": "function", "function": {"name": n, **PRESETS[n]}} for n in names]
"""})

EXPECTED = [("control.py", "step_complete", "schema", "dispatch dict"), ("read.py", "list_files", "schema", "dispatch dict"),
            ("read.py", "view_files", "schema", "dispatch dict")]


def test_a_dispatch_dict_of_imported_functions_beside_a_schema_list_makes_tools(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, LISTED)) == EXPECTED


def test_schemas_keyed_by_the_tool_name_make_the_dispatch_dict_tools(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, KEYED)) == EXPECTED


def test_a_dict_of_imported_functions_with_no_schemas_makes_no_tools(tmp_path: Path) -> None:
    # event handlers by name: no schema names them, so nothing says a model calls them
    files = dict(_FUNCTIONS, **{"agent/tools/core.py": """
        from agent.tools.read import list_files, view_files

        HANDLERS = {"view_files": view_files, "list_files": list_files}
    """})
    assert tool_rows(write_tree(tmp_path, files)) == []


def test_a_dict_keyed_by_name_without_parameters_is_no_schema(tmp_path: Path) -> None:
    # help texts keyed by command name are not tool schemas
    files = dict(_FUNCTIONS, **{"agent/tools/core.py": KEYED["agent/tools/core.py"].replace(
        ', "parameters": {"type": "object", "properties": {}}', "")})
    assert tool_rows(write_tree(tmp_path, files)) == []


def test_a_dispatch_dict_with_a_function_from_outside_the_project_makes_no_tools(tmp_path: Path) -> None:
    # one value is a library function: the dict is not the project's own dispatch of its schemas
    files = dict(LISTED, **{"agent/tools/core.py": LISTED["agent/tools/core.py"].replace(
        '"step_complete": check_step_complete', '"step_complete": shutil.rmtree').replace(
        "from agent.tools.control import check_step_complete", "import shutil")})
    assert tool_rows(write_tree(tmp_path, files)) == []
