"""`smullyan tools` (issue 28): batch 15's missed forms, after its blind run (tuned on it, not blind). A server handed
to a registering function whose parameter says ``Any`` (homeassistant-mcp's ``register_x_tool(mcp: Any, ...)``), also in
a module named ``template`` (tools about templates, not a scaffold); a registration verb on an object of the run's own
class (lingtai's ``agent.add_tool("avatar", handler=mgr.handle)``, the handler a method of an object of a class of the
module; sage's ``agent.tool_registry.register(fn)``); ``Tool.from_function(fn)`` in a loop over a module tuple
(yougile's ``for fn in READ_ONLY``)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_HA_SERVER = """
    from fastmcp import FastMCP
    from .tools import register_control_tool, register_template_tool

    mcp = FastMCP("ha")


    def get_client():
        return None


    register_control_tool(mcp, get_client)
    register_template_tool(mcp, get_client)
    """

_HA_TOOL = """
    from typing import Any


    def register_{name}_tool(mcp: Any, get_client: Any) -> None:
        @mcp.tool(annotations={{"readOnlyHint": True}}, timeout=30)
        async def {name}_call(domain: str) -> dict:
            return {{}}
    """


def test_a_server_handed_to_a_parameter_typed_any(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "ha/__init__.py": "",
        "ha/server.py": _HA_SERVER,
        "ha/tools/__init__.py": "from .control import register_control_tool\n"
                                "from .specialized import register_template_tool\n",
        "ha/tools/control.py": _HA_TOOL.format(name="control"),
        "ha/tools/specialized/__init__.py": "from .template import register_template_tool\n",
        "ha/tools/specialized/template.py": _HA_TOOL.format(name="template"),
    })
    assert tool_rows(files) == [
        ("control.py", "control_call", "mcp", "@mcp.tool"),
        ("template.py", "template_call", "mcp", "@mcp.tool"),
    ]


def test_a_template_module_no_server_is_handed_to_stays_a_scaffold(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "crab/__init__.py": "",
        "crab/core.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef real() -> str:\n    return ''\n",
        "crab/environments/__init__.py": "",
        "crab/environments/template.py": """
            from crab.core import mcp


            @mcp.tool()
            def set_state(value: bool) -> None:
                return None
            """,
    })
    assert tool_rows(files) == [("core.py", "real", "mcp", "@mcp.tool")]


_LT_AGENT = """
    from typing import Any, Callable


    class Agent:
        def __init__(self) -> None:
            self.handlers: dict[str, Callable[[dict], dict]] = {}

        def add_tool(self, name: str, *, schema: dict | None = None,
                     handler: Callable[[dict], dict] | None = None, description: str = "") -> None:
            if handler is not None:
                self.handlers[name] = handler
    """


def test_a_registration_verb_on_an_object_of_the_runs_own_class(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "lt/__init__.py": "",
        "lt/agent.py": _LT_AGENT,
        "lt/tools/__init__.py": "",
        "lt/tools/avatar.py": """
            from __future__ import annotations

            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from lt.agent import Agent


            class AvatarManager:
                def __init__(self, agent: "Agent") -> None:
                    self.agent = agent

                def handle(self, args: dict) -> dict:
                    return {"status": "ok"}


            def setup(agent: "Agent", **kwargs) -> AvatarManager:
                mgr = AvatarManager(agent)
                agent.add_tool("avatar", schema={}, handler=mgr.handle, description="spawn an avatar")
                return mgr
            """,
        "lt/tools/mcp.py": """
            from lt.agent import Agent


            def setup(agent: Agent) -> None:
                def handle_mcp(args: dict) -> dict:
                    return {}

                agent.add_tool("mcp", schema={}, handler=handle_mcp)
            """,
        "lt/llm/__init__.py": "",
        "lt/llm/stream.py": """
            from lt.agent import Agent


            def collect(agent: Agent, call: dict) -> None:
                agent.add_tool("call", handler=call)  # a value, no function of the module: no row
            """,
    })
    assert tool_rows(files) == [
        ("avatar.py", "avatar", "registry", "agent.add_tool(...)"),
        ("mcp.py", "mcp", "registry", "agent.add_tool(...)"),
    ]


def test_a_tool_registry_of_the_runs_agent_registering_nested_functions(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "sg/__init__.py": "",
        "sg/agent.py": """
            class ToolRegistry:
                def __init__(self) -> None:
                    self.tools = {}

                def register(self, fn) -> None:
                    self.tools[fn.__name__] = fn


            class Agent:
                def __init__(self) -> None:
                    self.tool_registry = ToolRegistry()
            """,
        "sg/planning.py": """
            from __future__ import annotations

            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from sg.agent import Agent


            def register_planning_tools(agent: Agent) -> None:
                async def plan_create(name: str) -> str:
                    return name

                agent.tool_registry.register(plan_create)
                agent.hooks.register(plan_create)  # no tool registry's name: no row
            """,
    })
    assert tool_rows(files) == [("planning.py", "plan_create", "registry", "agent.tool_registry.register(...)")]


def test_a_tool_built_in_a_loop_over_a_module_tuple(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "yg/__init__.py": "",
        "yg/smart.py": """
            from fastmcp import FastMCP
            from fastmcp.tools import Tool


            async def yougile_overview() -> dict:
                return {}


            async def yougile_create_task(title: str) -> dict:
                return {}


            READ_ONLY = (yougile_overview,)
            WRITES = (yougile_create_task,)


            def register(mcp: FastMCP) -> None:
                for fn in READ_ONLY:
                    mcp.add_tool(Tool.from_function(fn, output_schema=None))
                for fn in WRITES:
                    mcp.add_tool(Tool.from_function(fn, output_schema=None))
            """,
    })
    assert [r[1] for r in tool_rows(files)] == ["yougile_create_task", "yougile_overview"]


def test_flowllm_tool_ops(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {
        "fm/__init__.py": "",
        "fm/think_tool_op.py": """
            from flowllm.core.context import C
            from flowllm.core.op import BaseAsyncOp, BaseAsyncToolOp


            @C.register_op()
            class ThinkToolOp(BaseAsyncToolOp):
                def build_tool_call(self):
                    return {"name": "think_tool"}

                async def async_execute(self):
                    self.set_output("thought")


            class UrlOp(BaseAsyncOp):  # a flow step, no tool
                async def async_execute(self):
                    return None
            """,
    })
    assert tool_rows(files) == [("think_tool_op.py", "ThinkToolOp", "flowllm", "BaseAsyncToolOp subclass")]
