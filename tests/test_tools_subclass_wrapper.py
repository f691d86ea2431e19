"""`smullyan tools` (issue 28): a tool wrapper called through a subclass of the framework's class
(``class _ToolWithRequired(StructuredTool)``; ``_ToolWithRequired.from_function(func=manage, ...)`` runs the
classmethod ``StructuredTool`` defines), at any depth through the file's classes; a classmethod of the same name on
a class that derives from no wrapper's class builds no tool."""

from __future__ import annotations

from pathlib import Path

from tools_support import tool_rows, write_tree

SUBCLASSED = """
    from langchain_core.tools import StructuredTool


    class _ToolWithRequired(StructuredTool):
        @property
        def tool_call_schema(self):
            return super().tool_call_schema


    class _Strict(_ToolWithRequired):
        pass


    def create_manage_memory_tool(namespace: str):
        def manage_memory(content: str) -> str:
            return f"stored {content} in {namespace}"

        return _ToolWithRequired.from_function(func=manage_memory, name="manage_memory")


    def create_forget_tool():
        async def forget(key: str) -> str:
            return key

        return _Strict.from_function(forget, name="forget")
    """

NOT_A_WRAPPER = """
    from pydantic import BaseModel


    class Handler(BaseModel):
        @classmethod
        def from_function(cls, func, name=""):
            return cls()


    class Sub(Handler):
        pass


    def build():
        def handle(x: str) -> str:
            return x

        return Sub.from_function(func=handle, name="handle")
    """


def test_the_frameworks_classmethod_called_through_a_subclass(tmp_path: Path) -> None:
    rows = tool_rows(write_tree(tmp_path, {"mem/__init__.py": "", "mem/tools.py": SUBCLASSED}))
    assert rows == [
        ("tools.py", "forget", "langchain", "StructuredTool.from_function"),
        ("tools.py", "manage_memory", "langchain", "StructuredTool.from_function"),
    ]


def test_the_same_classmethod_on_a_class_of_no_framework_is_no_tool(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, {"app/__init__.py": "", "app/handlers.py": NOT_A_WRAPPER})) == []
