"""`smullyan tools` (issue 28): handler tables filled from other modules (seleniumboot-mcp's ``TOOL_HANDLERS =
{**browser.get_handlers(), ...}`` looked up by ``call_tool``'s ``params.name``): a method of the run returns
``{"name": self.method, ...}``, a dispatcher in another module merges it into a table it indexes by the tool call's
name; each key is a tool run by the method its value names. Not tools: a merged table no dispatcher indexes by the
tool call's name, and a returned dict of values."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

TOOLS = """
    class BrowserTools:
        def get_tools(self):
            return []

        def get_handlers(self) -> dict:
            return {"start_browser": self._start, "navigate": self._navigate}

        async def _start(self, args):
            return "started"

        async def _navigate(self, args):
            return "ok"


    class MigrateTools:
        def get_handlers(self):
            return {"migrate": self._migrate}

        async def _migrate(self, args):
            return "done"


    class Labels:
        def get_handlers(self):
            return {"title": "Title", "body": "Body"}
"""

SERVER = """
    from srv.tools import BrowserTools, MigrateTools, Labels

    browser = BrowserTools()
    migrate = MigrateTools()
    labels = Labels()

    TOOL_HANDLERS = {
        **browser.get_handlers(),
        **migrate.get_handlers(),
    }
    TEXTS = {**labels.get_handlers()}


    async def call_tool(ctx, params):
        name = params.name
        handler = TOOL_HANDLERS.get(name)
        if not handler:
            return f"Unknown tool: {name}"
        return await handler(params.arguments or {})
"""


def test_a_table_merged_from_returned_dicts_of_another_module(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"srv/__init__.py": "", "srv/tools.py": TOOLS, "srv/server.py": SERVER})
    assert tool_rows(files) == [
        ("tools.py", "migrate", "dispatch", "TOOL_HANDLERS[name]"),
        ("tools.py", "navigate", "dispatch", "TOOL_HANDLERS[name]"),
        ("tools.py", "start_browser", "dispatch", "TOOL_HANDLERS[name]"),
    ]


def test_a_table_updated_in_a_loop_over_objects_and_indexed_by_the_calls_name(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"srv/__init__.py": "", "srv/tools.py": TOOLS, "srv/agent.py": """
        from srv.tools import BrowserTools, MigrateTools

        class Agent:
            def __init__(self):
                self.handlers = {}
                browser = BrowserTools()
                migrate = MigrateTools()
                for kit in (browser, migrate):
                    self.handlers.update(kit.get_handlers())

            def run(self, tool_call):
                return self.handlers[tool_call.function.name](tool_call.function.arguments)
        """})
    assert [r[1] for r in tool_rows(files)] == ["migrate", "navigate", "start_browser"]


def test_a_merged_table_nothing_indexes_by_a_tool_calls_name_is_no_table(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"srv/__init__.py": "", "srv/tools.py": TOOLS, "srv/events.py": """
        from srv.tools import BrowserTools

        browser = BrowserTools()
        CALLBACKS = {**browser.get_handlers()}


        def fire(event):
            return CALLBACKS[event]({})


        def on_tool(event):
            return CALLBACKS[event.kind]({})
        """})
    assert tool_rows(files) == []


def test_a_returned_dict_of_values_is_no_table(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"srv/__init__.py": "", "srv/tools.py": TOOLS, "srv/server.py": """
        from srv.tools import Labels

        labels = Labels()
        TOOL_HANDLERS = {**labels.get_handlers()}


        def call_tool(ctx, params):
            return TOOL_HANDLERS[params.name]
        """})
    assert tool_rows(files) == []


REGISTRY = {
    "mem/__init__.py": "",
    "mem/actions/__init__.py": """
        from .base import BaseAction
        from .cluster import ClusterAction
        from .suggest import SuggestAction

        ACTION_REGISTRY = {
            "cluster_memories": ClusterAction,
            "generate_suggestions": SuggestAction,
        }
        """,
    "mem/actions/base.py": """
        class BaseAction:
            def __init__(self, core):
                self.core = core

            def execute(self, **kwargs):
                raise NotImplementedError
        """,
    "mem/actions/cluster.py": """
        from .base import BaseAction

        class ClusterAction(BaseAction):
            def execute(self, character_name: str):
                return {"success": True}
        """,
    "mem/actions/suggest.py": """
        from .base import BaseAction

        class SuggestAction(BaseAction):
            def run(self, text: str):
                return {"success": True}
        """,
    "mem/agent.py": """
        from .actions import ACTION_REGISTRY

        class MemoryAgent:
            def __init__(self, core):
                self.actions = {name: cls(core) for name, cls in ACTION_REGISTRY.items()}
        """,
}


def test_a_module_level_registry_of_classes_named_for_actions(tmp_path: Path) -> None:
    """Each key is a tool run by its class's run method (the first of execute, run, ... the class defines)."""
    files = write_tree(tmp_path, REGISTRY)
    assert tool_rows(files) == [
        ("cluster.py", "cluster_memories", "registry", "ACTION_REGISTRY[name]"),
        ("suggest.py", "generate_suggestions", "registry", "ACTION_REGISTRY[name]"),
    ]


def test_a_registry_not_named_for_actions_or_of_values_is_none(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {**REGISTRY, "mem/actions/__init__.py": """
        from .cluster import ClusterAction
        from .suggest import SuggestAction

        HANDLERS = {"cluster_memories": ClusterAction, "generate_suggestions": SuggestAction}
        ACTION_LABELS = {"cluster_memories": "Cluster", "generate_suggestions": SuggestAction}
        """, "mem/agent.py": ""})
    assert tool_rows(files) == []


def test_a_registry_of_tool_classes_adds_no_second_row(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"kit/__init__.py": "", "kit/search.py": """
        from langchain_core.tools import BaseTool

        class SearchTool(BaseTool):
            name: str = "search"
            description: str = "Search."

            def _run(self, query: str) -> str:
                return query

        class FetchTool(BaseTool):
            name: str = "fetch"
            description: str = "Fetch."

            def _run(self, url: str) -> str:
                return url
        """, "kit/registry.py": """
        from kit.search import SearchTool, FetchTool

        TOOL_REGISTRY = {"search": SearchTool, "fetch": FetchTool}
        """})
    assert [r[1] for r in tool_rows(files)] == ["fetch", "search"]
