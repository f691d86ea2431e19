"""`smullyan tools` (issue 28, session 35): tools whose registration the run shows by what it hands over: a server
wrapped by the project's own class and handed to registering functions (some called through a loop over a tuple of
them), whose server parameter is untyped or annotated with a string the module never imports."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

# a server that wraps FastMCP in a filter of its own and hands the wrapper to each module's registering function
WRAPPED = {
    "k8srv/__init__.py": "",
    "k8srv/toolsets.py": """
        class ToolsetServer:
            def __init__(self, server, enabled):
                self._server = server
                self.enabled = frozenset(enabled)

            def tool(self, **kwargs):
                def decorator(fn):
                    if fn.__name__ not in self.enabled:
                        return fn
                    return self._server.tool(**kwargs)(fn)
                return decorator
    """,
    "k8srv/server.py": """
        from fastmcp import FastMCP
        from k8srv.toolsets import ToolsetServer
        from k8srv.tools import register_pod_tools, register_helm_tools, register_node_tools

        class Server:
            def __init__(self, enabled):
                self.server = FastMCP("k8s")
                self.enabled = enabled

            def setup_tools(self):
                registrar = ToolsetServer(self.server, self.enabled)
                register_pod_tools(registrar, False)
                for register in (register_helm_tools, register_node_tools, register_local_tools):
                    register(registrar, False)

        def register_local_tools(server, flag):
            @server.tool(name="version")
            def version() -> str:
                return "1"
    """,
    "k8srv/tools/__init__.py": """
        from .pods import register_pod_tools
        from .helm import register_helm_tools
        from .nodes import register_node_tools
    """,
    "k8srv/tools/pods.py": """
        def register_pod_tools(server: "FastMCP", non_destructive: bool):
            @server.tool(name="get_pods")
            def get_pods(namespace: str = "") -> dict:
                return {}
    """,
    "k8srv/tools/helm.py": """
        def register_helm_tools(server, non_destructive: bool):
            @server.tool()
            def install_helm_chart(name: str) -> dict:
                return {}
    """,
    "k8srv/tools/nodes.py": """
        def register_node_tools(server: "FastMCP", non_destructive: bool):
            @server.tool()
            def get_nodes() -> dict:
                return {}
    """,
    # handed no server: a plain object wrapping a dict, and a function the run never calls
    "k8srv/other.py": """
        class Cache:
            def __init__(self, store):
                self.store = store

        def build():
            cache = Cache({})
            attach(cache)

        def attach(registry):
            @registry.tool()
            def not_a_tool() -> None: ...
    """,
}


def test_a_wrapped_server_handed_to_registering_functions_directly_and_through_a_loop(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, WRAPPED))
    assert rows == [("helm.py", "install_helm_chart", "mcp", "@server.tool"),
                    ("nodes.py", "get_nodes", "mcp", "@server.tool"),
                    ("pods.py", "get_pods", "mcp", "@server.tool"),
                    ("server.py", "version", "mcp", "@server.tool")]


def test_an_unwrapped_registrar_is_not_a_server(tmp_path: Path) -> None:
    files = dict(WRAPPED)
    files["k8srv/server.py"] = files["k8srv/server.py"].replace('FastMCP("k8s")', 'dict(name="k8s")')
    # since session 39 a registration verb on an untyped receiver named for a registrar (``server.tool``) decides by
    # itself (``knowledge.TOOL_REGISTRAR_NAMES``); a receiver of another name (``registrar``, ``registry``) does not
    for rel in ("k8srv/tools/pods.py", "k8srv/tools/helm.py", "k8srv/tools/nodes.py", "k8srv/server.py"):
        files[rel] = files[rel].replace("server", "registrar").replace("k8srv.registrar", "k8srv.server")
    assert tool_rows(write_tree(tmp_path, files)) == []


# a framework's tool base and the project's classes derived from it: bases (abstract, named or documented as one,
# a wrapper running the callable it is given, run methods that run nothing) and the tools derived from them
BASES = {
    "teamsrv/__init__.py": "",
    "teamsrv/core.py": """
        class Tool:
            def __init__(self, card):
                self.card = card

            async def invoke(self, inputs, **kwargs):
                raise NotImplementedError
    """,
    "teamsrv/function.py": """
        from teamsrv.core import Tool

        class LocalFunction(Tool):
            def __init__(self, card, func):
                super().__init__(card)
                self._func = func

            async def invoke(self, inputs, **kwargs):
                return self._func(**inputs)
    """,
    "teamsrv/tools.py": """
        from abc import ABC, abstractmethod
        from teamsrv.core import Tool
        from teamsrv.function import LocalFunction

        class TeamTool(Tool, ABC):
            \"\"\"Base class for team tools.\"\"\"

            async def stream(self, inputs, **kwargs):
                raise NotImplementedError("no streaming")

        class BaseEvolutionTool(Tool):
            tool_name = ""

            async def invoke(self, inputs, **kwargs):
                return self.to_output(inputs)

        class AsyncTool(TeamTool):
            async def invoke(self, inputs, **kwargs):
                return await self.run_background(inputs)

            @abstractmethod
            async def run_background(self, inputs): ...

        class _SendBase(TeamTool, ABC):
            async def invoke(self, inputs, **kwargs):
                return await self._dispatch(inputs)

        class SendMessageTool(_SendBase):
            async def _dispatch(self, inputs):
                return "sent"

        class ReportTool(_SendBase):
            async def _dispatch(self, inputs):
                return "reported"

        class EvolveTool(BaseEvolutionTool):
            async def invoke(self, inputs, **kwargs):
                return "evolved"

        class KnowledgeBaseTool(Tool):
            async def invoke(self, inputs, **kwargs):
                return "found"

        class AskHumanTool(Tool):
            def __init__(self, card, input_handler):
                super().__init__(card)
                self.input_handler = input_handler

            async def invoke(self, inputs, **kwargs):
                return self.input_handler(inputs["question"])

        def search(query: str) -> str:
            return query

        def make_tools(card):
            return [LocalFunction(card=card, func=search)]
    """,
}


def test_tool_bases_are_no_tools_and_their_subclasses_are(tmp_path: Path) -> None:
    rows = [(name, tool, form) for name, tool, _framework, form in tool_rows(write_tree(tmp_path, BASES))]
    assert rows == [("tools.py", "AskHumanTool", "Tool subclass"),
                    ("tools.py", "EvolveTool", "BaseEvolutionTool subclass"),
                    ("tools.py", "KnowledgeBaseTool", "Tool subclass"),
                    ("tools.py", "ReportTool", "_SendBase subclass"),
                    ("tools.py", "SendMessageTool", "_SendBase subclass"),
                    ("tools.py", "search", "LocalFunction(func=...)")]


def test_a_subclass_row_runs_the_bases_method_and_its_own_override(tmp_path: Path) -> None:
    from smullyan.linter import tools
    from smullyan.linter.config import Config

    found = {t.name: t for t in tools.run(write_tree(tmp_path, BASES), Config()).tools}
    send, report = found["SendMessageTool"], found["ReportTool"]
    assert send.qualname.endswith("tools.SendMessageTool") and report.qualname.endswith("tools.ReportTool")
    assert len(send.spans) == 2  # _SendBase.invoke and its own _dispatch
    assert send.spans[0] == report.spans[0] and send.spans[1] != report.spans[1]


def test_a_helper_that_makes_a_tool_of_the_function_it_is_given(tmp_path: Path) -> None:
    files = dict(BASES)
    files["teamsrv/cron.py"] = """
        from aviary.core import Tool
        from teamsrv.function import LocalFunction

        def _make_tool(*, name, card, func):
            return LocalFunction(card=card, func=func)

        def make_tool(fn):
            return Tool.from_function(fn, concurrency_safe=True)

        def describe(fn):
            return fn.__doc__

        def create_tools(backend, card):
            async def list_jobs() -> list:
                return await backend.list_jobs()

            async def delete_job(job_id: str) -> bool:
                return await backend.delete_job(job_id)

            def reset() -> None:
                backend.reset()

            describe(reset)
            return [_make_tool(name="cron_list_jobs", card=card, func=list_jobs),
                    _make_tool(name="cron_delete_job", card=card, func=delete_job),
                    make_tool(reset)]
    """
    rows = [r for r in tool_rows(write_tree(tmp_path, files)) if r[0] == "cron.py"]
    assert rows == [("cron.py", "cron_delete_job", "teamsrv", "_make_tool(func=...)"),
                    ("cron.py", "cron_list_jobs", "teamsrv", "_make_tool(func=...)"),
                    ("cron.py", "reset", "aviary", "make_tool(fn=...)")]


def test_a_projects_tool_decorator_that_wraps_the_function_in_a_tool_object(tmp_path: Path) -> None:
    files = dict(BASES)
    files["teamsrv/decorator.py"] = """
        from teamsrv.function import LocalFunction

        def tool(func=None, *, name=None, card=None):
            def decorator(func_):
                return _create(func_, name=name or func_.__name__)
            if func is not None:
                return decorator(func)
            return decorator

        def _create(func, *, name):
            local = LocalFunction(card={"name": name}, func=func)
            return local

        def traced(func=None):
            def decorator(func_):
                return Timer(func_)
            return decorator

        class Timer:
            def __init__(self, fn):
                self.fn = fn
    """
    files["teamsrv/memory.py"] = """
        from teamsrv.decorator import tool, traced

        def create_memory_tools(ctx):
            @tool(name="memory_search", card={"id": "m"})
            async def memory_search(query: str) -> dict:
                return await ctx.search(query)

            @traced()
            def not_a_tool() -> None: ...

            return [memory_search]
    """
    rows = [r for r in tool_rows(write_tree(tmp_path, files)) if r[0] == "memory.py"]
    assert rows == [("memory.py", "memory_search", "teamsrv", "@tool")]


def test_a_tool_that_acts_on_agents_is_no_adapter_of_one(tmp_path: Path) -> None:
    files = {
        "fw/__init__.py": "",
        "fw/base.py": """
            from abc import ABC, abstractmethod

            class Tool(ABC):
                @abstractmethod
                async def execute(self, **kwargs): ...

            class AgentTool(Tool):
                def __init__(self, agent):
                    self.agent = agent

                async def execute(self, **kwargs):
                    return await self.agent.run(**kwargs)

            class TracedAgentTool(AgentTool):
                async def execute(self, **kwargs):
                    return await super().execute(**kwargs)

            class SpawnHumanAgentTool(Tool):
                async def execute(self, **kwargs):
                    return await self.team.spawn_human(**kwargs)

            class Planner(Tool):
                async def execute(self, **kwargs):
                    return kwargs
        """,
    }
    rows = [(name, form) for _file, name, _fw, form in tool_rows(write_tree(tmp_path, files))]
    assert rows == [("Planner", "Tool subclass"), ("SpawnHumanAgentTool", "Tool subclass")]


def test_tools_dispatched_by_if_branches_on_the_called_name(tmp_path: Path) -> None:
    files = {
        "memsrv/__init__.py": "",
        "memsrv/provider.py": """
            import json

            SEARCH_SCHEMA = {"name": "mem_search", "description": "Search memories",
                             "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}
            ADD_SCHEMA = {"name": "mem_add", "description": "Store a fact",
                          "parameters": {"type": "object", "properties": {"fact": {"type": "string"}}}}

            class Provider:
                def get_tool_schemas(self):
                    return [SEARCH_SCHEMA, ADD_SCHEMA]

                async def handle_tool_call(self, tool_name: str, args: dict) -> str:
                    if tool_name == "mem_search":
                        return json.dumps(await self.client.search(args["query"]))
                    elif tool_name == "mem_add":
                        await self.client.add(args["fact"])
                        return "stored"
                    return json.dumps({"error": "unknown tool"})

                def render(self, kind: str) -> str:
                    if kind == "mem_search":
                        return "search"
                    if kind == "mem_add":
                        return "add"
                    return ""
        """,
        "memsrv/events.py": """
            def on_event(event_name: str) -> str:
                if event_name == "start":
                    return "a"
                if event_name == "stop":
                    return "b"
                return ""
        """,
    }
    rows = tool_rows(write_tree(tmp_path, files))
    assert rows == [("provider.py", "mem_add", "dispatch", "if on the called name"),
                    ("provider.py", "mem_search", "dispatch", "if on the called name")]
