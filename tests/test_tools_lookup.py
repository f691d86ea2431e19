"""`smullyan tools` (issue 28): a table of functions a tool-call handler indexes by the call's name (ai-shell's
``ToolKit._lookup``, filled by a generated subclass, indexed by ``ToolKitBase.process_tool_calls`` with ``name =
tool_call.function.name``): each key is a tool run by the function it names. Not tools: a dict of callbacks that no
handler indexes by the tool call's name. And a class base named through the one star import of its file (gentopia's
``from gentopia.tools.basetool import *``) is the star-imported module's class."""

from __future__ import annotations

from pathlib import Path

from tools_support import source_rows as rows, tool_rows, write_tree


def test_a_lookup_table_indexed_by_the_tool_calls_name_in_the_same_class() -> None:
    assert rows("""
        class ToolKit:
            def __init__(self):
                self._lookup = {"cat": self.cat, "grep_files": self.grep}
                self._hooks = {"start": self.on_start, "stop": self.on_stop}

            def cat(self, arguments):
                return open(arguments["path"]).read()

            def grep(self, arguments):
                return ""

            def on_start(self):
                pass

            def on_stop(self):
                pass

            def process(self, tool_call):
                name = tool_call.function.name
                return self._lookup[name](tool_call.function.arguments)

            def fire(self, event):
                self._hooks[event]()
        """) == [("cat", "dispatch", "self._lookup[name]"), ("grep_files", "dispatch", "self._lookup[name]")]


def test_a_dict_of_callbacks_no_handler_indexes_by_a_tool_name_is_no_table() -> None:
    assert rows("""
        class Widget:
            def __init__(self):
                self.handlers = {"click": self.on_click, "hover": self.on_hover}

            def on_click(self):
                pass

            def on_hover(self):
                pass

            def dispatch(self, event_name):
                return self.handlers[event_name]()
        """) == []


LOOKUP = {
    "kit/__init__.py": "",
    "kit/support.py": """
        class ToolKitBase:
            def __init__(self):
                self._lookup = {}

            async def process_tool_calls(self, run):
                for tool_call in run.tool_calls:
                    name = tool_call.function.name
                    if name in self._lookup:
                        result = self._lookup[name](tool_call.function.arguments)
        """,
    "kit/toolkit.py": """
        from kit.support import ToolKitBase

        class ToolKit(ToolKitBase):
            def __init__(self):
                super().__init__()
                self._lookup = {"ls": self.ls, "head": self.head}

            def ls(self, arguments):
                return []

            def head(self, arguments):
                return ""
        """,
}


def test_a_lookup_table_filled_in_a_subclass_of_another_module(tmp_path: Path) -> None:
    assert tool_rows(write_tree(tmp_path, LOOKUP)) == [
        ("toolkit.py", "head", "dispatch", "self._lookup[name]"), ("toolkit.py", "ls", "dispatch", "self._lookup[name]")]


STAR = {
    "gp/__init__.py": "",
    "gp/tools/__init__.py": "",
    "gp/tools/basetool.py": """
        from abc import ABC, abstractmethod

        class BaseTool(ABC):
            \"\"\"A tool the agent calls.\"\"\"
            name: str
            description: str

            @abstractmethod
            def _run(self, *args, **kwargs):
                ...

            def run(self, *args, **kwargs):
                return self._run(*args, **kwargs)
        """,
    "gp/tools/calculator.py": """
        from gp.tools.basetool import *

        class Calculator(BaseTool):
            name = "calculator"
            description = "computes"

            def _run(self, expression):
                return str(eval(expression))
        """,
    "gp/tools/weather.py": """
        from gp.tools.basetool import *

        class GetWeather(BaseTool):
            name = "get_weather"
            description = "weather"

            def _run(self, city):
                return city
        """,
}


def test_a_base_class_named_through_the_files_one_star_import(tmp_path: Path) -> None:
    assert [r[:2] for r in tool_rows(write_tree(tmp_path, STAR))] == [
        ("calculator.py", "calculator"), ("weather.py", "get_weather")]


WRAPPED = {
    "gw/__init__.py": "",
    "gw/tools/__init__.py": "",
    "gw/tools/basetool.py": STAR["gp/tools/basetool.py"],
    "gw/tools/clients.py": """
        class GradioTool:
            \"\"\"A tool backed by a Gradio app.\"\"\"

            def create_job(self, query):
                raise NotImplementedError

            def run(self, query):
                return self.create_job(query)

        class BarkTextToSpeechTool(GradioTool):
            def create_job(self, query):
                return query

        class WhisperTool(GradioTool):
            def create_job(self, query):
                return query
        """,
    "gw/tools/speech.py": """
        from gw.tools.basetool import BaseTool
        from gw.tools.clients import BarkTextToSpeechTool

        class TTS(BaseTool):
            name = "text_to_speech"

            def _run(self, text):
                return BarkTextToSpeechTool().run(text)

        class Echo(BaseTool):
            name = "echo"

            def _run(self, text):
                return text
        """,
}


def test_a_base_whose_tools_the_tools_of_another_base_build_is_no_tool_base(tmp_path: Path) -> None:
    # the Gradio client classes are what gentopia's own tools wrap: the model calls ``TTS``, not the client
    assert [r[:2] for r in tool_rows(write_tree(tmp_path, WRAPPED))] == [("speech.py", "echo"), ("speech.py", "text_to_speech")]
