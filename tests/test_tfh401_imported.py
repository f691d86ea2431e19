"""TFH401 follows a helper imported from another module of the same project (and a method inherited from a
base class imported from one), one level, the way it follows a same-module helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from smullyan.linter import engine
from smullyan.linter.config import Config

ERRORS = '''
def describe(e):
    if isinstance(e, TimeoutError):
        return "Error: timed out, try again."
    return f"Error: unexpected: {str(e)}"


def kind_only(e):
    return f"Error: {type(e).__name__}"


def passthrough(message):
    return {"ok": False, "error": message}


class ToolBase:
    def format_error_result(self, message):
        return {"status": "error", "message": message}

    def quiet_result(self, message):
        return {"status": "error"}
'''

TOOL = '''
from mcp.server.fastmcp import FastMCP

from {imp}

mcp = FastMCP("x")


@mcp.tool()
def get_issue(n: int) -> str:
    try:
        return fetch(n)
    except Exception as e:
        return {call}
'''


def _project(tmp_path: Path, imp: str, call: str, *, init: str = "") -> Path:
    (tmp_path / "app" / "utils").mkdir(parents=True)
    (tmp_path / "app" / "tools").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "utils" / "__init__.py").write_text(init)
    (tmp_path / "app" / "tools" / "__init__.py").write_text("")
    (tmp_path / "app" / "utils" / "errors.py").write_text(ERRORS)
    tool = tmp_path / "app" / "tools" / "t.py"
    tool.write_text(TOOL.format(imp=imp, call=call))
    return tool


def _codes(path: Path) -> list[tuple[str, int]]:
    config = Config.default()
    return [(f.code, f.line) for f in engine.lint_source(path.read_bytes(), str(path), config) if f.code == "TFH401"]


@pytest.mark.parametrize(
    ("imp", "call", "init"),
    [
        ("..utils.errors import describe", "describe(e)", ""),
        ("..utils.errors import describe as fmt", "fmt(e)", ""),
        ("..utils import errors", "errors.describe(e)", ""),
        ("app.utils.errors import describe", "describe(e)", ""),
        ("..utils.errors import passthrough", "passthrough(str(e))", ""),
        ("..utils import public", "public(e)", "from .errors import describe as public\n"),
    ],
)
def test_an_imported_helper_that_returns_the_text_is_followed(tmp_path: Path, imp: str, call: str, init: str) -> None:
    assert _codes(_project(tmp_path, imp, call, init=init)) == [("TFH401", 14)]


@pytest.mark.parametrize(
    ("imp", "call"),
    [
        ("..utils.errors import kind_only", "kind_only(e)"),  # only the type's name
        ("..utils.errors import missing", "missing(e)"),  # not defined there: not followed
        ("..utils.nowhere import describe", "describe(e)"),  # no such module
        ("elsewhere.errors import describe", "describe(e)"),  # another package: never read
    ],
)
def test_an_imported_helper_that_does_not_return_the_text_is_not_reported(tmp_path: Path, imp: str, call: str) -> None:
    assert _codes(_project(tmp_path, imp, call)) == []


def test_a_module_outside_the_project_is_not_read(tmp_path: Path) -> None:
    tool = _project(tmp_path, "elsewhere.errors import describe", "describe(e)")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "__init__.py").write_text("")
    (tmp_path / "elsewhere" / "errors.py").write_text(ERRORS)
    assert _codes(tool) == []


INHERITED = '''
from ..utils.errors import ToolBase


class Search(ToolBase):
    def _run(self, query):
        try:
            return self.client.search(query)
        except Exception as e:
            return self.{method}(str(e))
'''


@pytest.mark.parametrize(("method", "expected"), [("format_error_result", [("TFH401", 10)]), ("quiet_result", [])])
def test_a_method_inherited_from_an_imported_base_class(tmp_path: Path, method: str, expected: list[tuple[str, int]]) -> None:
    tool = _project(tmp_path, "..utils.errors import describe", "describe(e)")
    tool.write_text(INHERITED.format(method=method))
    (tmp_path / "app" / "utils" / "errors.py").write_text(
        ERRORS.replace("class ToolBase:", "class ToolBase(BaseTool):").replace(
            '\ndef describe', 'from langchain_core.tools import BaseTool\n\n\ndef describe', 1
        )
    )
    assert _codes(tool) == expected
