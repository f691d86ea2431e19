"""`smullyan tools` (issue 28, session 35, batch 7): tool spec dicts that carry the function they run (a
description, an input schema and the callable: what a low-level MCP server lists and runs)."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree


def test_registry_of_spec_dicts_and_a_named_spec(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"srv/__init__.py": "", "srv/tools.py": """
        from .params import ListIndicesArgs, SearchArgs
        from .generic import generic_tool

        async def list_indices_tool(args):
            return [{"type": "text", "text": "..."}]

        async def search_index_tool(args):
            return []

        TOOL_REGISTRY = {
            "ListIndexTool": {
                "description": "Lists indices.",
                "input_schema": ListIndicesArgs.model_json_schema(),
                "function": list_indices_tool,
            },
            "SearchIndexTool": {
                "display_name": "SearchIndexTool",
                "description": "Searches an index.",
                "input_schema": SearchArgs.model_json_schema(),
                "function": search_index_tool,
            },
            "GenericApiTool": {  # a function of another module: not this module's row
                "description": "Any API.",
                "input_schema": {},
                "function": generic_tool,
            },
        }

        class Strategy:
            def _execute_web_search(self, args):
                return "..."

            def tools(self):
                return [{
                    "name": "web_search",
                    "description": "Search the web.",
                    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
                    "executor": self._execute_web_search,
                }]
    """})
    assert tool_rows(files) == [("tools.py", "ListIndexTool", "schema", "tool spec dict"),
                                ("tools.py", "SearchIndexTool", "schema", "tool spec dict"),
                                ("tools.py", "web_search", "schema", "tool spec dict")]


def test_dict_without_a_schema_is_no_tool_spec(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"app/__init__.py": "", "app/hooks.py": """
        def on_start():
            pass

        def on_stop():
            pass

        HOOKS = {
            "start": {"description": "runs first", "handler": on_start},
            "stop": {"parameters": {}, "handler": on_stop},
        }
    """})
    assert tool_rows(files) == []


def test_project_tool_base_in_a_namespace_package(tmp_path: Path) -> None:
    # ``agentns/`` has no ``__init__.py``: ``agentns/tool.py`` is module ``tool``, its subclasses import it as
    # ``agentns.tool``; the tool base is still the run's own
    files = write_tree(tmp_path, {"agentns/tool.py": """
        from abc import ABC, abstractmethod

        class Tool(ABC):
            @abstractmethod
            def function(self, context, **kwargs):
                ...

            def __call__(self, context, *args, **kwargs):
                return self.function(context, *args, **kwargs)
    """, "agentns/tools/__init__.py": "", "agentns/tools/nav.py": """
        from agentns.tool import Tool

        class CodeSearch(Tool):
            def function(self, context, query: str):
                return query

        class CodeGoTo(Tool):
            def function(self, context, line: int):
                return line
    """})
    assert [(name, form) for _, name, _, form in tool_rows(files)] == [("CodeGoTo", "Tool subclass"),
                                                                        ("CodeSearch", "Tool subclass")]
