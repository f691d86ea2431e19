"""`smullyan tools` (issue 28, session 38, batch 11's missed forms): a project decorator whose return hands the
function to a known server's tool decorator in each branch of a conditional (``return mcp.tool(annotations=a)(func)
if a else mcp.tool()(func)``); a tool base class that says it is a base (``BaseTool``, "Base class for ...") whose
run method is a no-op (``def run(self, params): pass``) left to its subclasses, without ``ABC``; and nekro-agent's
``@plugin.mount_sandbox_method(...)`` on a ``NekroPlugin`` (knowledge data)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

_CONDITIONAL_REGISTRY = """
    from fastmcp import FastMCP

    mcp = FastMCP("demo")
    ANNOTATIONS = {"scan": {"readOnlyHint": True}}


    def annotated_tool(func):
        ann = ANNOTATIONS.get(func.__name__)
        return mcp.tool(annotations=ann)(func) if ann else mcp.tool()(func)


    def traced(func):
        return trace(func) if DEBUG else func


    @annotated_tool
    async def scan(host: str) -> str:
        return host


    @annotated_tool
    async def stop(session_id: int) -> str:
        return str(session_id)


    @traced
    def helper(x: int) -> int:
        return x
"""


def test_a_conditional_return_handing_the_function_to_a_server_registers_it(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {"srv/__init__.py": "", "srv/server.py": _CONDITIONAL_REGISTRY}))
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("server.py", "scan", "mcp"), ("server.py", "stop", "mcp")]


def test_a_conditional_return_that_registers_nothing_makes_no_tool(tmp_path: Path) -> None:
    code = _CONDITIONAL_REGISTRY.replace("@annotated_tool", "@traced")
    assert tool_rows(write_tree(tmp_path, {"srv/__init__.py": "", "srv/server.py": code})) == []


_BASE = """
    class BaseTool:
        \"\"\"Base class for calling tools\"\"\"

        def run(self, params) -> None:
            pass

        def get_tool_call_format(self) -> dict:
            pass
"""
_SUBCLASSES = {
    "kit/tools/search.py": """
        import requests

        from kit.base import BaseTool

        class WebSearch(BaseTool):
            def run(self, params):
                return requests.get("https://example.org/search", params=params, timeout=5).text

            def get_tool_call_format(self):
                return {"name": "web_search"}
    """,
    "kit/tools/notes.py": """
        from kit.base import BaseTool

        class Notebook(BaseTool):
            def run(self, params):
                return params["text"]
    """,
}


def test_a_base_tool_whose_run_is_a_no_op_is_a_tool_base(tmp_path: Path) -> None:
    files = {"kit/__init__.py": "", "kit/tools/__init__.py": "", "kit/base.py": _BASE, **_SUBCLASSES}
    rows = tool_rows(write_tree(tmp_path, files))
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("notes.py", "Notebook", "kit"), ("search.py", "WebSearch", "kit")]


def test_a_no_op_run_on_a_class_that_does_not_say_it_is_a_base_stays_an_optional_hook(tmp_path: Path) -> None:
    base = _BASE.replace("class BaseTool:", "class SearchTool:").replace("Base class for calling tools",
                                                                          "Searches the web").replace("BaseTool", "SearchTool")
    subclasses = {k: v.replace("BaseTool", "SearchTool") for k, v in _SUBCLASSES.items()}
    files = {"kit/__init__.py": "", "kit/tools/__init__.py": "", "kit/base.py": base, **subclasses}
    assert tool_rows(write_tree(tmp_path, files)) == []


_NEKRO = {
    "myplugin/__init__.py": "",
    "myplugin/dice.py": """
        from nekro_agent.api.plugin import NekroPlugin, SandboxMethodType

        plugin = NekroPlugin(name="dice", module_name="dice", description="roll a die")


        @plugin.mount_sandbox_method(SandboxMethodType.TOOL, name="roll", description="roll a die")
        async def roll(_ctx, sides: int) -> int:
            return sides


        @plugin.mount_prompt_inject_method(name="dice_prompt")
        async def dice_prompt(_ctx) -> str:
            return "You can roll a die."
    """,
}


def test_a_nekro_plugin_sandbox_method_is_a_tool_and_its_prompt_inject_method_is_not(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, _NEKRO))
    assert [(f, n, fw) for f, n, fw, _ in rows] == [("dice.py", "roll", "nekro-agent")]
