"""`smullyan tools` (issue 28, session 49, after batch 21's blind run): a tool form batch 21 missed.

- A registry decorator factory that builds a tool object first and hands it the function by an attribute after:
  ``def register_tool(name, description, parameters=None): def decorator(func): tool = ToolDef(name, description,
  parameters); tool.handler = func; TOOL_REGISTRY[name] = tool; return func`` (korgex, batch 21, 77 tools; the same
  storing idiom, ``handoff_tool = HandoffTool(agent=agent); handoff_tool.handler = awaitable;
  llm_tools.func_list.append(handoff_tool)``, is astrbot's ``register_agent``, batch 10). Not an object of a class
  whose name does not say tool (``hook = Hook(name); hook.handler = func``): stored, and counted only when the
  decorator's or the registry's name says tool, as before.
"""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows, tools_by_name

_BASE = '''
    TOOL_REGISTRY = {}


    class ToolDef:
        def __init__(self, name, description, parameters=None):
            self.name, self.description, self.parameters = name, description, parameters or []
            self.handler = None


    def register_tool(name, description, parameters=None):
        def decorator(func):
            tool = ToolDef(name, description, parameters)
            tool.handler = func
            TOOL_REGISTRY[name] = tool
            return func
        return decorator


    def dispatch_tool(tool_name, raw_args):
        return TOOL_REGISTRY[tool_name].handler(**raw_args)
'''

_TOOLS = '''
    from pkg.tool_base import register_tool


    @register_tool("read_file", "Reads the file.", [])
    def read_file(path, context=None):
        with open(path) as f:
            return f.read()


    @register_tool("run_in_bash_session", "Runs a bash command.")
    def run_bash(command, context=None):
        return command
'''


def test_a_tool_object_handed_the_function_by_an_attribute(tmp_path: Path) -> None:
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tool_base.py": _BASE, "pkg/tools_impl.py": _TOOLS})
    assert sorted(found) == ["read_file", "run_in_bash_session"]
    assert found["run_in_bash_session"].line == 11


def test_an_object_whose_class_does_not_say_tool_stays_silent(tmp_path: Path) -> None:
    base = _BASE.replace("ToolDef", "Hook").replace("TOOL_REGISTRY", "HOOKS").replace("register_tool", "register_hook")
    tools = _TOOLS.replace("register_tool", "register_hook")
    assert tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tool_base.py": base, "pkg/tools_impl.py": tools}) == {}


_REGISTRY = '''
    from dataclasses import dataclass


    @dataclass
    class Tool:
        name: str
        description: str
        parameters: dict
        handler: object


    class Registry:
        def __init__(self):
            self._tools = {}

        def register(self, tool):
            self._tools[tool.name] = tool

        def tool(self, name, description, parameters, *, side_effect=False):
            def decorate(fn):
                self.register(Tool(name=name, description=description, parameters=parameters, handler=fn))
                return fn
            return decorate

        def dispatch(self, name, arguments):
            return self._tools[name].handler(**arguments)


    registry = Registry()
'''

_WEB = '''
    from pkg.registry import registry


    @registry.tool("web_fetch", "Fetch a page.", {"type": "object"})
    def fetch(url):
        return url
'''


def test_a_registry_method_of_an_object_another_module_imports(tmp_path: Path) -> None:
    """cbyzt-ycode (batch 21): ``registry = Registry()``, ``@registry.tool("web_fetch", ...)`` in the tool modules;
    celltype-cli (batch 16): ``registry = ToolRegistry()`` in ``ct/tools/__init__.py``, ``@registry.register(...)``."""
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/registry.py": _REGISTRY, "pkg/web.py": _WEB})
    assert sorted(found) == ["web_fetch"]
    assert found["web_fetch"].line == 5


def test_a_method_of_an_object_that_registers_nothing_stays_silent(tmp_path: Path) -> None:
    plain = _REGISTRY.replace("self.register(Tool(name=name, description=description, parameters=parameters, "
                              "handler=fn))", "print(name)")
    assert tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/registry.py": plain, "pkg/web.py": _WEB}) == {}


_TOOLBOX = '''
    def _tool(name, description, properties):
        return {"name": name, "description": description, "input_schema": {"type": "object", "properties": properties}}


    TOOLS = [_tool("bash", "Run a command.", {}), _tool("read_file", "Read a file.", {})]


    class Toolbox:
        def call(self, name, args):
            handler = getattr(self, f"_{name}", None)
            if handler is None:
                return f"Unknown tool: {name}", True
            return handler(**args)

        def _abs(self, path):
            return path

        def _git(self, args):
            return args

        def _bash(self, command):
            return self._git(command)

        def _read_file(self, path):
            return open(self._abs(path)).read()
'''


def test_a_prefix_that_does_not_say_tool_keeps_the_methods_the_schemas_name(tmp_path: Path) -> None:
    """repo-bug-hunter (batch 21): ``getattr(self, f"_{name}")`` in ``Toolbox.call``; its helpers ``_abs``, ``_git``
    were 11 false rows."""
    found = tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": _TOOLBOX})
    assert sorted(found) == ["bash", "read_file"]


def test_methods_no_other_method_calls_stay_tools_without_a_literal(tmp_path: Path) -> None:
    """flywheel-relay (batch 21): ``getattr(self, f"_t_{name}")`` over nine ``_t_`` methods, six of them named by a
    literal of the module: the three others are called by no method of the class, so they stay tools."""
    code = _TOOLBOX.replace('TOOLS = [_tool("bash", "Run a command.", {}), _tool("read_file", "Read a file.", {})]', "")
    assert sorted(tools_by_name(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": code})) == ["bash", "read_file"]


_ACTIONS = '''
    TOOLS = [
        {"type": "function", "function": {"name": "bash", "parameters": {}}},
        {"type": "function", "function": {"name": "manage_plugins", "parameters": {"type": "object", "properties": {
            "action": {"type": "string", "enum": ["list", "install", "delete"]}}}}},
        {"type": "function", "function": {"name": "read_file", "parameters": {}}},
    ]


    def execute_tool(name, args, harness):
        if name == "bash":
            return harness.run(args["command"])
        elif name == "manage_plugins":
            action = args.get("action")
            if action == "list":
                return harness.plugins()
            elif action == "install":
                return harness.install(args["url"])
            elif action == "delete":
                return harness.delete(args["name"])
        elif name == "read_file":
            return open(args["path"]).read()
        return "unknown"
'''


def test_actions_compared_inside_the_called_names_branch_are_no_tools() -> None:
    """xdharness (batch 21): ``manage_plugins``' ``action == "list"``, ``"install"``... were 7 false rows."""
    names = sorted(r[0] for r in source_rows(_ACTIONS))
    assert "list" not in names and "install" not in names and "delete" not in names
    assert {"bash", "manage_plugins", "read_file"} <= set(names)
