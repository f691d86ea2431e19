"""`smullyan tools` (issue 28, session 44): an action-name dispatch whose names the module lists to a model.
A function named to run the action (or tool) it is given (``_execute_action(action, args)``, ``_execute_actions``)
whose ``if action == "click":`` branches run something, three at least, is a tool per branch when the module lists
two of the names to the model: a word of a prompt's text or a JSON schema's ``const``/``enum`` (blackreach's browser
actions, devagent's structured-output file actions, batch 16); not when nothing lists them (a reducer's actions).
And a JSON tool manifest beside its dispatcher (bello's ``tools.json``, read by ``Path(__file__).with_name(...)``):
each tool it lists (a name and a parameter schema) is run by the function comparing the called name with them."""

from __future__ import annotations

import json
from pathlib import Path

from tools_support import source_rows, tool_rows, tools_by_name, write_tree

_PROMPT_ACTIONS = '''
    import requests

    PROMPT = """Reply with one JSON action:
    - click: Click element by ID. {"action":"click","element":N}
    - navigate: Go to a URL. {"action":"navigate","args":{"url":"https://..."}}
    - download: Download a file by URL. {"action":"download","args":{"url":"..."}}
    """


    class Agent:
        def _execute_action(self, action: str, args: dict) -> dict:
            action = action.lower()
            if action == "click":
                return self.page.click(args["element"])
            elif action == "navigate":
                return self.page.goto(args["url"])
            elif action == "download":
                return requests.post(args["url"], timeout=30).content
            elif action == "noop":
                return {"ok": True}
            return {"error": action}
'''


def test_an_action_dispatch_whose_names_a_prompt_lists() -> None:
    rows = source_rows(_PROMPT_ACTIONS)
    assert [(n, form) for n, _fw, form in rows] == [
        ("click", "if on the called name"), ("download", "if on the called name"), ("navigate", "if on the called name")]


def test_a_bare_tool_dispatch_whose_names_a_schema_lists_as_const() -> None:
    rows = source_rows('''
        IMPLEMENT_SCHEMA = {"type": "object", "properties": {"actions": {"type": "array", "items": {"anyOf": [
            {"properties": {"tool": {"type": "string", "const": "write_file"}}},
            {"properties": {"tool": {"type": "string", "enum": ["move_file", "delete_file"]}}},
        ]}}}}


        def _execute_actions(workspace, response: dict) -> list[str]:
            changed = []
            for action in response["actions"]:
                tool, arguments = action["tool"], action["arguments"]
                if tool == "move_file":
                    workspace.move_file(arguments["source"], arguments["destination"])
                elif tool == "write_file":
                    workspace.write_file(arguments["path"], arguments["content"])
                elif tool == "delete_file":
                    workspace.delete_file(arguments["path"])
                changed.append(tool)
            return changed
        ''')
    assert [n for n, _fw, _form in rows] == ["delete_file", "move_file", "write_file"]


def test_an_action_dispatch_no_prompt_or_schema_lists_is_no_tool() -> None:
    # a UI reducer's ``handle_action``: the same shape, but the module gives no model its names
    rows = source_rows('''
        def handle_action(state, action: str, payload: dict) -> None:
            if action == "add_item":
                state.items.append(payload["item"])
            elif action == "remove_item":
                state.items.remove(payload["item"])
            elif action == "clear":
                state.items.clear()
        ''')
    assert rows == []
    # named once in a short label is not listing it to a model either
    assert source_rows('''
        LABELS = {"add": "add_item", "remove": "remove_item"}


        def handle_action(state, action: str, payload: dict) -> None:
            if action == "add_item":
                state.items.append(payload["item"])
            elif action == "remove_item":
                state.items.remove(payload["item"])
            elif action == "clear":
                state.items.clear()
        ''') == []


def test_a_function_not_named_to_run_actions_is_no_action_dispatch() -> None:
    rows = source_rows(_PROMPT_ACTIONS.replace("_execute_action", "_describe_action"))
    assert rows == []


_HOST = '''
    import json
    import subprocess
    from pathlib import Path

    TOOL_DEFINITIONS = json.loads(Path(__file__).with_name("tools.json").read_text(encoding="utf-8"))
    _NAMES = {entry["name"] for entry in TOOL_DEFINITIONS}


    class ToolHost:
        async def call(self, request: dict) -> dict:
            name = request["name"]
            if name not in _NAMES:
                raise ValueError(f"unknown tool: {name}")
            return await self._execute(name, request["arguments"])

        async def _execute(self, name: str, arguments: dict) -> dict:
            if name == "exec_command":
                return {"out": subprocess.run(arguments["cmd"], shell=True, capture_output=True, timeout=60).stdout}
            if name in {"read_file", "list_directory"}:
                return {"out": Path(arguments["path"]).read_text()}
            raise ValueError(name)
'''

_MANIFEST = json.dumps([
    {"name": "exec_command", "description": "Run a command", "parameters": {"type": "object"}},
    {"name": "read_file", "description": "Read a file", "parameters": {"type": "object"}},
    {"name": "list_directory", "description": "List a directory", "parameters": {"type": "object"}},
    {"name": "view_image", "description": "View an image", "parameters": {"type": "object"}},
])


def test_a_json_tool_manifest_beside_its_dispatcher(tmp_path: Path) -> None:
    # bello's tools.json: every tool it lists is run by the function comparing the called name with its names
    (tmp_path / "tools.json").write_text(_MANIFEST)
    rows = tool_rows(write_tree(tmp_path, {"host.py": _HOST}))
    assert rows == [("host.py", n, "dispatch", "tools.json manifest")
                    for n in ("exec_command", "list_directory", "read_file", "view_image")]
    by_name = tools_by_name(tmp_path, {"host.py": _HOST})
    assert by_name["view_image"].qualname == "host.ToolHost._execute"


def test_a_json_file_that_lists_no_tools_or_no_dispatcher_is_no_manifest(tmp_path: Path) -> None:
    # a settings file beside the module (no parameter schemas), or a manifest no function dispatches on
    (tmp_path / "tools.json").write_text(json.dumps([{"name": "exec_command"}, {"name": "read_file"}]))
    assert tool_rows(write_tree(tmp_path, {"host.py": _HOST})) == []
    (tmp_path / "tools.json").write_text(_MANIFEST)
    quiet = _HOST.replace('name == "exec_command"', "name.startswith('exec')").replace(
        'name in {"read_file", "list_directory"}', "name.endswith('file')")
    assert tool_rows(write_tree(tmp_path, {"host.py": quiet})) == []


def test_the_tools_of_a_class_named_as_a_test_double_are_left_out(tmp_path: Path) -> None:
    # autosre's ``MockSubagent.get_tools``: ``mock_check``, built for its tests, is offered to no model
    rows = tool_rows(write_tree(tmp_path, {"agents.py": '''
        from langchain_core.tools import tool


        @tool
        def check_pods(namespace: str) -> str:
            """List the pods."""
            return namespace


        class MockSubagent:
            """Mock subagent for testing."""

            def get_tools(self) -> list:
                @tool
                def mock_check(target: str) -> str:
                    """Mock tool that returns placeholder data."""
                    return target

                return [mock_check]


        class Mockup:
            """Page mockups for tests (named Mockup: no test double)."""

            def get_tools(self) -> list:
                return [self.mock_search()]

            def mock_search(self):
                return None


        class MockSearchTool:
            """The demo google search mock tool: a tool the package offers."""

            def get_tools(self) -> list:
                @tool
                def render_mockup(page: str) -> str:
                    """Render a page mockup."""
                    return page

                return [render_mockup]
        '''}))
    assert [n for _f, n, _fw, _form in rows] == ["check_pods", "render_mockup"]
