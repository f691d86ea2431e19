"""`smullyan tools` (issue 28, session 45, after batch 18's blind run): the registration forms batch 18 showed.

- A module's own tool schemas bound at its top level (``TOOL_DEFS = [{"type": "function", "function": {"name":
  "web_fetch", ...}}]``) naming functions the module defines (``def web_fetch``): a loader finds each by the name.
- ``@tool`` imported from another package's ``tools`` module (``from cicaddy.tools import tool``) on a module-level
  function.
- A project tool base class imported by a name below a directory the project puts on ``sys.path``
  (``pkg/devops_agent/models/tools/base_tool.py`` imported as ``devops_agent.models.tools.base_tool``), and a tool
  class named by a ``name`` property returning a literal.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tool_rows, write_tree

_SCHEMAS = '''
    import requests

    TOOL_DEFS = [
        {"type": "function", "function": {"name": "web_fetch", "description": "Fetch a page.",
                                          "parameters": {"type": "object", "properties": {"url": {"type": "string"}}}}},
        {"type": "function", "function": {"name": "web_search", "description": "Search.",
                                          "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}},
    ]


    def _clean(text):
        return text.strip()


    def web_fetch(url):
        return _clean(requests.get(url, timeout=10).text)


    def web_search(q):
        return requests.get("https://search.example", params={"q": q}, timeout=10).text
'''


def test_a_modules_own_schemas_naming_its_functions() -> None:
    assert source_rows(_SCHEMAS) == [("web_fetch", "schema", "module schema + function"),
                                     ("web_search", "schema", "module schema + function")]


def test_a_single_schema_dict_too() -> None:
    code = '''
        import subprocess

        TOOL_DEF = {"type": "function", "function": {"name": "bash", "description": "Run a command.",
                                                     "parameters": {"type": "object", "properties": {}}}}


        def bash(command):
            return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60).stdout
    '''
    assert source_rows(code) == [("bash", "schema", "module schema + function")]


def test_not_a_schema_of_another_name_nor_one_inside_a_function() -> None:
    code = '''
        TOOL_DEFS = [{"name": "fetch_page", "parameters": {"type": "object"}}]


        def fetch(url):
            return url


        def build():
            return [{"name": "helper", "parameters": {}}]


        def helper():
            return 1
    '''
    assert source_rows(code) == []


def test_tool_decorator_of_another_packages_tools_module() -> None:
    code = '''
        import subprocess

        from cicaddy.tools import tool


        @tool
        def get_recent_tags(limit: int = 5) -> str:
            return subprocess.run(["git", "tag"], capture_output=True, text=True, timeout=30).stdout


        def _helper():
            return 1
    '''
    assert [n for n, _fw, _form in source_rows(code)] == ["get_recent_tags"]


def test_not_a_decorator_of_a_module_that_is_no_tools_module() -> None:
    code = '''
        from someframework.events import tool


        @tool
        def on_event():
            return 1
    '''
    assert source_rows(code) == []


_SYS_PATH_BASE = {
    "outer/__init__.py": "",
    "outer/agent/__init__.py": "",
    "outer/agent/tools/__init__.py": "",
    "outer/agent/tools/base_tool.py": '''
        from abc import ABC, abstractmethod


        class BaseTool(ABC):
            """Base class for all agent tools."""

            @property
            @abstractmethod
            def name(self) -> str: ...

            @abstractmethod
            def run(self, **kwargs) -> str: ...
    ''',
    "outer/agent/tools/shell_tool.py": '''
        import subprocess

        from agent.tools.base_tool import BaseTool


        class ShellTool(BaseTool):
            @property
            def name(self) -> str:
                return "run_command"

            def run(self, command: str) -> str:
                return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=30).stdout


        class ReadTool(BaseTool):
            @property
            def name(self) -> str:
                return "read_file"

            def run(self, path: str) -> str:
                with open(path) as f:
                    return f.read()
    ''',
}


def test_a_tool_base_imported_from_a_sys_path_directory(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _SYS_PATH_BASE))
    assert [(f, n) for f, n, _fw, _form in rows] == [("shell_tool.py", "read_file"), ("shell_tool.py", "run_command")]


_GETTER_TABLE = {
    "pkg/__init__.py": "",
    "pkg/integrations/__init__.py": '''
        class Integration:
            def __init__(self, **config):
                self._tools = {}
                self._setup()

            def _setup(self):
                pass

            def get_tool(self, name):
                """A tool by its name."""
                return self._tools.get(name)
    ''',
    "pkg/integrations/slack.py": '''
        import urllib.request

        from pkg.integrations import Integration


        class SlackIntegration(Integration):
            def _setup(self):
                self._tools = {"send_message": self.send_message, "list_channels": self.list_channels}

            def send_message(self, channel, text):
                return urllib.request.urlopen("https://slack.example/post", timeout=10).read()

            def list_channels(self):
                return urllib.request.urlopen("https://slack.example/list", timeout=10).read()
    ''',
}


def test_a_table_a_base_classs_tool_getter_looks_up_by_name(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _GETTER_TABLE))
    assert [(f, n) for f, n, _fw, _form in rows] == [("slack.py", "list_channels"), ("slack.py", "send_message")]


def test_not_a_table_a_method_not_named_for_tools_looks_up(tmp_path: Path) -> None:
    files = {k: v.replace("def get_tool(self, name)", "def get_setting(self, name)") for k, v in _GETTER_TABLE.items()}
    assert tool_rows(write_tree(tmp_path, files)) == []
