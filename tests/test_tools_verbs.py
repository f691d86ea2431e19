"""`smullyan tools` (issue 28): registration by verb on a receiver nothing types (``knowledge.TOOL_REGISTRATION_VERBS``,
``TOOL_REGISTRAR_NAMES``): ``mcp.tool(name=...)(self.m)`` in a ``register(self, mcp)`` method, ``@agent.tool`` on an
unannotated ``agent`` parameter, ``server.add_tool(wrap(self.m))``, and a project helper that forwards its function
parameter to such a verb (``_register_tool(name, fn)``) called with functions of other modules. Not tools: ``app.route``,
``hooks.add_tool`` (no registrar's name), ``server.add_item`` (no verb), a receiver that resolves to a known non-tool."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows as rows, tool_rows, write_tree


def test_a_decorator_applied_to_a_bound_method_on_an_untyped_parameter() -> None:
    assert rows("""
        class RuntimeTools:
            def register(self, mcp):
                mcp.tool(name='create_agent_runtime')(self.create_agent_runtime)
                mcp.tool()(self.list_agent_runtimes)

            def create_agent_runtime(self, name: str) -> dict:
                return {}

            def list_agent_runtimes(self) -> list:
                return []

            def helper(self) -> None:
                pass
        """) == [("create_agent_runtime", "mcp", "mcp.tool(...)"), ("list_agent_runtimes", "mcp", "mcp.tool(...)")]


def test_an_agent_parameter_decorator_and_call() -> None:
    assert rows("""
        def register_file_tools(agent):
            @agent.tool
            def read_file(ctx, path: str) -> str:
                return path

            @agent.tool(retries=2)
            def list_files(ctx, directory: str) -> list:
                return []

        def register_invoke(coder_agent):
            coder_agent.tool(invoke_agent)

        def invoke_agent(ctx, prompt: str) -> str:
            return prompt
        """) == [("invoke_agent", "pydantic-ai", "coder_agent.tool(...)"), ("list_files", "pydantic-ai", "@agent.tool"),
                 ("read_file", "pydantic-ai", "@agent.tool")]


def test_add_tool_through_a_wrapper_on_a_server_attribute() -> None:
    assert rows("""
        def _mcp_tool(fn):
            return fn

        class Server:
            def serve(self):
                self.server.add_tool(_mcp_tool(self.fetch))
                self.server.add_tool(self.get)

            async def fetch(self, url: str) -> str:
                return url

            async def get(self, url: str) -> str:
                return url
        """) == [("fetch", "mcp", "self.server.add_tool(...)"), ("get", "mcp", "self.server.add_tool(...)")]


def test_no_tool_without_a_registrar_or_a_verb() -> None:
    assert rows("""
        from flask import Flask

        flask_app = Flask(__name__)

        def wire(app, hooks, server, registry):
            app.route("/x")(handler)
            hooks.add_tool(handler)
            server.add_item(handler)
            registry.register_hook(handler)
            flask_app.tool(handler)

        def handler() -> str:
            return "ok"
        """) == []


HELPER = {
    "pkg/__init__.py": "",
    "pkg/tools/__init__.py": "",
    "pkg/tools/workflows.py": """
        def list_workflows(ctx, max_results: int = 10) -> dict:
            return {}

        def not_registered(x: int) -> int:
            return x
        """,
    "pkg/server.py": """
        from typing import Any, Callable
        from mcp.server.fastmcp import FastMCP
        from pkg.tools.workflows import list_workflows

        mcp = FastMCP("x")

        def paginating(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
            return fn

        def _register_tool(name: str, fn: Callable[..., Any]) -> None:
            mcp.tool(name=name)(paginating(name, fn))

        _register_tool('ListAHOWorkflows', list_workflows)
        """,
}


def test_a_helper_forwarding_its_function_to_a_verb_through_a_wrapper(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, HELPER)) == [
        ("workflows.py", "ListAHOWorkflows", "mcp", "_register_tool(fn=...)")]


def test_add_tool_on_a_typed_server_through_a_wrapper() -> None:
    assert rows("""
        from mcp.server import MCPServer

        def _mcp_tool(fn):
            return fn

        class Scraper:
            def build(self):
                server = MCPServer(name="s")
                server.add_tool(_mcp_tool(self.browser_open), title="Open browser")
                server.add_tool(self.fetch, name="fetch_page")
                return server

            async def browser_open(self, url: str) -> str:
                return url

            async def fetch(self, url: str) -> str:
                return url
        """) == [("browser_open", "mcp", "server.add_tool(...)"), ("fetch_page", "mcp", "server.add_tool(...)")]


def test_register_function_on_a_functions_registry_parameter() -> None:
    # agentkit's ``register_tools``: ``functions_registry.register_function(fn, descriptor)`` (the registrar's name)
    assert rows("""
        def register_tools(functions_registry, descriptor):
            functions_registry.register_function(send_message_tool, descriptor, pass_context=True)
            callbacks.register_function(not_a_tool)

        def send_message_tool(recipient: str, content: str) -> str:
            return content

        def not_a_tool() -> None:
            pass
        """) == [("send_message_tool", "registry", "functions_registry.register_function(...)")]


def test_the_verb_guess_is_vetoed_where_the_module_builds_a_web_app() -> None:
    # ``app``/``server`` in a module importing Flask/FastAPI and no tool framework is the web app, untyped or not
    assert rows("""
        from fastapi import FastAPI

        def wire(app, server):
            app.tool(handler)
            server.add_tool(handler)

        def handler() -> str:
            return "ok"
        """) == []
    # the same module importing a tool framework keeps the guess
    assert rows("""
        from fastapi import FastAPI
        import mcp

        def wire(app):
            app.tool()(handler)

        def handler() -> str:
            return "ok"
        """) == [("handler", "mcp", "app.tool(...)")]


def test_one_table_one_predicate() -> None:
    # TFH401's tool evidence and discovery read the same verbs through ``knowledge.registration_framework``
    from smullyan.linter import knowledge as kb

    assert kb.registration_framework("tool", "mcp_server") == "mcp"
    assert kb.registration_framework("tool_plain", "coder_agent") == "pydantic-ai"
    assert kb.registration_framework("register_function", "functions_registry") == "registry"
    assert kb.registration_framework("register_tool", "anything") == ""  # the verb says tool by itself
    assert kb.registration_framework("tool", "hooks") is None
    assert kb.registration_framework("route", "app") is None  # not a registration verb
    assert kb.registration_framework("tool", "app", "fastapi.FastAPI") is None  # a known web app
    assert kb.registration_framework("register_tool", "pm", "pluggy.PluginManager") is None
    assert kb.registration_framework("tool", "self", "pkg.server.WeatherServer") == "mcp"  # the class's name
    assert kb.registration_framework("tool", "mcp", "pkg.server_core.mcp") == "mcp"  # imported from the project
