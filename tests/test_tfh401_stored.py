"""TFH401: exception text a handler stores on the instance and a method of the class returns later (s45, issue 24
item 2: ``self.last_error = str(e)`` ... ``return {"error": self.last_error}``), reported only where the method
answers a tool; and a provider's response typed by its stop reason is the assistant's turn, not a tool's result."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import engine
from smullyan.linter.config import Config

TOOL_CLASS = '''
from langchain_core.tools import BaseTool


class Runner(BaseTool):
    def execute(self, code):
        try:
            self.output = self.sandbox.run(code)
        except Exception as e:
            self.error = {"message": repr(e)}
            self.failed = f"Failed: {type(e).__name__}: {e}"

    def _run(self, code):
        self.execute(code)
        return self.failed or self.output

    def _arun(self, code):
        yield self.error

    def get_status(self):
        return {"error": self.failed}

    def to_dict(self):
        return {"error": self.failed}
'''

UNREAD_CLASS = '''
class Run:
    def execute(self):
        try:
            self.result = self.call()
        except Exception as e:
            self.error = f"Failed: {e}"

    def finish(self):
        return self.error
'''

OTHER_CLASS = '''
from langchain_core.tools import BaseTool


class Worker:
    def work(self):
        try:
            self.call()
        except Exception as e:
            self.error = str(e)


class Reader(BaseTool):
    def _run(self, q):
        return self.error
'''

RESPONSE = '''
from langchain_core.tools import tool


@tool
def ask(question: str) -> dict:
    """Ask the model."""
    try:
        return client.chat(question)
    except Exception as e:
        return {"content": f"API error: {e}", "finish_reason": "error"}
'''


def _lines(tmp_path: Path, source: str) -> list[int]:
    path = tmp_path / "mod.py"
    path.write_text(source)
    config = Config.default()
    return [f.line for f in engine.lint_source(path.read_bytes(), str(path), config) if f.code == "TFH401"]


def test_a_tool_method_returning_stored_text_is_reported_and_a_status_reader_is_not(tmp_path: Path) -> None:
    lines = _lines(tmp_path, TOOL_CLASS)
    src = TOOL_CLASS.splitlines()
    assert [src[n - 1].strip() for n in lines] == ["return self.failed or self.output", "yield self.error"]


def test_a_class_nothing_says_a_model_reads_is_not_reported(tmp_path: Path) -> None:
    assert _lines(tmp_path, UNREAD_CLASS) == []


def test_an_attribute_stored_by_another_class_is_not_followed(tmp_path: Path) -> None:
    assert _lines(tmp_path, OTHER_CLASS) == []


def test_a_response_typed_by_its_stop_reason_is_not_a_tool_result(tmp_path: Path) -> None:
    assert _lines(tmp_path, RESPONSE) == []
