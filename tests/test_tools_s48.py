"""`smullyan tools` (issue 28, session 48, after batch 20's blind run): two tool forms batch 20 missed.

- A tool class's call naming the tool by a literal first argument and handing it one function of this module by a
  later positional argument: ``Tool("edit_file", "Edit a file.", handler, {...})`` (omga-cli, batch 20: a project's
  own ``Tool(name, description, handler, schema)``), ``Tool("Read", "...", {...}, read)`` (brindle's native agent,
  batch 20). Not the children of a tool family: a call written inside the arguments of another class's call, or
  bound to a name handed to one (lingtai's ``ToolFamily("shell", [ChildTool("run", SCHEMA, self._run)])``, batch 15,
  whose reading counts the family, not its actions); not a call whose first argument is no literal.
- A ``{"name": fn}`` dispatch dict beside the tools' schemas whose values are lambdas calling a function of this
  module (wow-agent's ``EXECUTORS = {"run_bash": lambda a: _run_bash(a["command"]), ...}``, batch 20): each runs
  the function its lambda calls; a value naming another module's function (``todo.apply``) gives no row of this file
  but leaves the table a table of functions. A lambda calling another module's function leaves the table silent, as
  a table of values does.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tools_by_name

_POSITIONAL = '''
    from tools.base import Tool


    def edit_file_tool(root):
        def handler(path, old_string, new_string):
            return {"path": path}

        return Tool(
            "edit_file",
            "Surgically edit a file by replacing an exact string match.",
            handler,
            {"parameters": {"type": "object", "properties": {"path": {"type": "string"}}}},
        )
'''


def test_a_tool_class_named_first_and_handed_a_function_later(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {
        "tools/__init__.py": "",
        "tools/base.py": '''
            class Tool:
                def __init__(self, name, description, handler, schema):
                    self.name, self.handler = name, handler
        ''',
        "tools/edit.py": _POSITIONAL,
    })
    assert sorted(found) == ["edit_file"]
    assert (found["edit_file"].form, found["edit_file"].line) == ("Tool(<name>, ..., <function>)", 6)


def test_another_librarys_tool_class_named_first_stays_silent() -> None:
    assert source_rows(_POSITIONAL.replace("from tools.base import Tool", "from mylib.tools import Tool")) == []


def test_a_list_of_tool_objects_handed_their_run_function_last() -> None:
    code = '''
        from dataclasses import dataclass


        @dataclass
        class Tool:
            name: str
            description: str
            parameters: dict
            run: object


        def core_tools(cwd):
            def read(args):
                return open(args["path"]).read()

            def bash(args):
                return "ran"

            tools = [
                Tool("Read", "Read a text file.", {"type": "object"}, read),
                Tool("Bash", "Run a shell command.", {"type": "object"}, bash),
            ]
            tools.append(Tool("Done", "Report the result.", {"type": "object"}, lambda args: "ok"))
            return tools
    '''
    assert [r[0] for r in source_rows(code)] == ["Bash", "Read"]


def test_the_children_of_a_tool_family_stay_silent() -> None:
    code = '''
        from lingtai.tools.tool_family import ChildTool, ToolFamily


        class Shell:
            def _family(self):
                children = [
                    ChildTool("start", {"type": "object"}, self._start_child),
                    ChildTool("stop", {"type": "object"}, self._stop_child),
                ]
                return ToolFamily("task_card", children)

            def build(self):
                return ToolFamily("shell", [ChildTool("run", {"type": "object"}, self._run)])

            def _start_child(self, input_):
                return {}

            def _stop_child(self, input_):
                return {}

            def _run(self, input_):
                return {}
    '''
    assert source_rows(code) == []


def test_a_tool_class_named_by_no_literal_stays_silent() -> None:
    code = '''
        from tools.base import Tool


        def make(name):
            def handler(path):
                return path

            return Tool(name, "A tool.", handler, {})
    '''
    assert source_rows(code) == []


_LAMBDAS = '''
    from wow_agent import todo

    TOOLS_SCHEMA = [
        {"type": "function", "function": {"name": "run_bash", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "todo_write", "parameters": {"type": "object"}}},
    ]


    def _run_bash(command, timeout):
        return command


    def _read_file(path):
        return path


    EXECUTORS = {
        "run_bash": lambda a: _run_bash(a["command"], int(a.get("timeout", 60))),
        "read_file": lambda a: _read_file(a["path"]),
        "todo_write": todo.apply,
    }


    def execute(name, args):
        fn = EXECUTORS.get(name)
        if fn is None:
            return f"unknown tool: {name}"
        return fn(args)
'''


def test_a_dispatch_dict_of_lambdas() -> None:
    assert source_rows(_LAMBDAS) == [("read_file", "schema", "dispatch dict"), ("run_bash", "schema", "dispatch dict")]


def test_lambdas_calling_another_modules_functions_stay_silent() -> None:
    code = '''
        from osint.runners import run_email, run_whois

        TOOLS = [
            {"name": "search_email", "input_schema": {"type": "object"}},
            {"name": "search_whois", "input_schema": {"type": "object"}},
        ]

        _TOOL_MAP = {
            "search_email": lambda a: run_email(a["email"]),
            "search_whois": lambda a: run_whois(a["domain"]),
        }
    '''
    assert source_rows(code) == []


def test_a_dispatch_dict_of_lambdas_and_another_modules_function(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {
        "wow_agent/__init__.py": "",
        "wow_agent/todo.py": '''
            def apply(args):
                return "ok"
        ''',
        "wow_agent/tools.py": _LAMBDAS,
    })
    assert sorted(found) == ["read_file", "run_bash", "todo_write"]
    assert found["todo_write"].path.endswith("todo.py")
