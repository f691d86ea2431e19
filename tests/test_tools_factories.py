"""`smullyan tools` (issue 28): tools built in a loop or by a factory. A framework wrapper called in a ``for`` loop over
the values of a dict the class fills by name (memary's ``self.tools["search"] = self.search``, then
``FunctionTool.from_defaults(fn=func)`` for each ``func in self.tools.values()``); a factory method wrapping the function
it is given with a tool class's builder (vectara-agentic's ``create_tool(function)`` returning
``VectaraTool.from_defaults(fn=function)``) called over a literal list of functions, nested, imported, or methods of
another module's class. Not tools: a loop over a parameter, a dict of values."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows as rows, tool_rows, write_tree


def test_a_wrapper_in_a_loop_over_a_dict_the_class_fills_by_name() -> None:
    assert rows("""
        from llama_index.core.tools import FunctionTool
        from llama_index.core.agent import ReActAgent

        class Agent:
            def __init__(self, defaults):
                self.tools = {}
                self.settings = {"depth": 3}
                for tool in defaults:
                    if tool == "search":
                        self.tools["search"] = self.search
                    elif tool == "locate":
                        self.tools["locate"] = self.locate

            def search(self, query: str) -> str:
                return query

            def locate(self, place: str) -> str:
                return place

            def _init_agent(self):
                fns = []
                for func in self.tools.values():
                    fns.append(FunctionTool.from_defaults(fn=func))
                for value in self.settings.values():
                    print(value)
                self.agent = ReActAgent.from_tools(fns)
        """) == [("locate", "llamaindex", "FunctionTool.from_defaults"),
                 ("search", "llamaindex", "FunctionTool.from_defaults")]


def test_a_wrapper_in_a_loop_over_a_parameter_makes_no_row() -> None:
    assert rows("""
        from llama_index.core.tools import FunctionTool

        def search(query: str) -> str:
            return query

        def wrap_all(fns):
            return [FunctionTool.from_defaults(fn=f) for f in fns]
        """) == []


FACTORY = """
    from typing import Callable
    from pkg.base import VectaraTool
    from pkg.catalog import Catalog, get_bad_topics

    class ToolsFactory:
        def create_tool(self, function: Callable, eligible: bool = True) -> VectaraTool:
            return VectaraTool.from_defaults(fn=function, description=function.__doc__)

        def standard_tools(self):
            tc = Catalog()
            return [self.create_tool(tool) for tool in [tc.summarize_text, tc.rephrase_text]]

        def guardrail_tools(self):
            return [self.create_tool(get_bad_topics, eligible=False)]

        def legal_tools(self):
            def summarize_legal_text(text: str) -> str:
                \"\"\"Summarize legal text.\"\"\"
                return text

            def critique_as_judge(text: str) -> str:
                \"\"\"Critique the document.\"\"\"
                return text

            return [self.create_tool(tool, eligible=False) for tool in [summarize_legal_text, critique_as_judge]]
"""

CATALOG = """
    class Catalog:
        def summarize_text(self, text: str) -> str:
            return text

        def rephrase_text(self, text: str) -> str:
            return text

        def unused(self) -> None:
            pass


    def get_bad_topics() -> list[str]:
        return ["politics"]
"""

BASE = """
    from llama_index.core.tools import FunctionTool

    class VectaraTool(FunctionTool):
        pass
"""


def test_a_factory_method_wrapping_the_function_it_is_given(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/catalog.py": CATALOG,
                                  "pkg/tools.py": FACTORY})
    assert sorted(r[:2] for r in tool_rows(files)) == [
        ("catalog.py", "get_bad_topics"), ("catalog.py", "rephrase_text"), ("catalog.py", "summarize_text"),
        ("tools.py", "critique_as_judge"), ("tools.py", "summarize_legal_text"),
    ]


def test_an_abstract_method_handed_on_a_parameter_typed_with_the_base_is_no_tool(tmp_path: Path) -> None:
    files = write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": """
        from abc import ABC, abstractmethod

        class BaseTool(ABC):
            @abstractmethod
            async def execute(self, *args, **kwargs):
                raise NotImplementedError
        """, "pkg/server.py": """
        from fastmcp.tools.tool import FunctionTool
        from pkg.base import BaseTool

        class Collection:
            def add_tool(self, tool: BaseTool):
                self.mcp.add_tool(FunctionTool(name=tool.name, fn=tool.execute))
        """})
    assert tool_rows(files) == []
