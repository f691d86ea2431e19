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


def log_tool_error(tool_name, exception, operation=""):
    error_text = f"Error {operation}: {exception}" if operation else f"Error: {exception}"
    text: str = error_text.strip()
    return [{"type": "text", "text": text}]


async def handle_error(ctx, error, operation):
    response = {"status": "error", "operation": operation}
    response.update({"detail": str(error)})
    return response


def log_only(tool_name, exception):
    error_text = f"Error: {exception}"
    print(tool_name, error_text)
    return [{"type": "text", "text": "the tool failed"}]


def tool_failure(message, error_code="failed"):
    return {"ok": False, "error_code": error_code, "message": message}


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
async def get_issue(n: int) -> str:
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
        ("..utils.errors import log_tool_error", "log_tool_error('get_issue', e, 'reading')", ""),
        ("..utils.errors import handle_error", "await handle_error(None, e, 'get_issue')", ""),
    ],
)
def test_an_imported_helper_that_returns_the_text_is_followed(tmp_path: Path, imp: str, call: str, init: str) -> None:
    assert _codes(_project(tmp_path, imp, call, init=init)) == [("TFH401", 14)]


@pytest.mark.parametrize(
    ("imp", "call"),
    [
        ("..utils.errors import kind_only", "kind_only(e)"),  # only the type's name
        ("..utils.errors import log_only", "log_only('get_issue', e)"),  # the text is only logged
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


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('tool_failure(str(e), "rate_limited")', []),  # the signature: the kind binds error_code
        ('tool_failure(str(e), error_code="rate_limited")', []),  # the same by keyword
        ('tool_failure(str(e))', [("TFH401", 14)]),  # the default is a catch-all: the kind is only in the text
        ('tool_failure(str(e), "failed")', [("TFH401", 14)]),  # a catch-all given positionally
    ],
)
def test_a_kind_given_positionally_types_the_failure_by_the_imported_signature(
    tmp_path: Path, call: str, expected: list[tuple[str, int]]
) -> None:
    """s40 (rootly's ``MCPError.tool_error(str(e), "permission_error")``): a positional argument binds the parameter
    the factory's signature names, read from the project's module as a helper is."""
    assert _codes(_project(tmp_path, "..utils.errors import tool_failure", call)) == expected


# --------------------------------------------------------------------------- the cache and the flake8 plugin


def _cached_run(tool: Path, cache_dir: Path) -> tuple[list[tuple[str, int]], int]:
    from smullyan.linter import runner
    from smullyan.linter.cache import Cache

    config = Config.default()
    result = runner.run([str(tool)], config, jobs=1, cache=Cache.for_config(cache_dir, config.fingerprint()))
    return [(f.code, f.line) for f in result.findings if f.code == "TFH401"], result.files_from_cache


def test_the_cache_is_keyed_on_the_followed_module(tmp_path: Path) -> None:
    import os

    tool = _project(tmp_path, "..utils.errors import describe", "describe(e)")
    old = tool.stat().st_mtime_ns - 3600 * 10**9  # outside the racy window: a stat hit is possible
    os.utime(tool, ns=(old, old))
    helper = tmp_path / "app" / "utils" / "errors.py"
    cache_dir = tmp_path / "cache"
    assert _cached_run(tool, cache_dir) == ([("TFH401", 14)], 0)
    assert _cached_run(tool, cache_dir) == ([("TFH401", 14)], 1)  # unchanged: from the cache
    # the helper no longer returns the text: the linted file is unchanged, its finding goes
    helper.write_text(ERRORS.replace('return f"Error: unexpected: {str(e)}"', 'return "Error: unexpected."'))
    assert _cached_run(tool, cache_dir) == ([], 0)
    assert _cached_run(tool, cache_dir) == ([], 1)
    # and back
    helper.write_text(ERRORS)
    assert _cached_run(tool, cache_dir) == ([("TFH401", 14)], 0)


def test_the_flake8_plugin_follows_as_the_cli_does(tmp_path: Path) -> None:
    import ast

    from smullyan.linter.flake8_plugin import Plugin

    tool = _project(tmp_path, "..utils.errors import describe", "describe(e)")
    text = tool.read_text()
    plugin = Plugin(ast.parse(text), text.splitlines(keepends=True), str(tool))
    flake8_lines = [(line, msg.split()[0]) for line, _col, msg, _t in plugin.run() if msg.startswith("TFH401")]
    assert flake8_lines == [(line, code) for code, line in _codes(tool)] == [(14, "TFH401")]


# --------------------------------------------------------------------------- s41: imported by a tools module

BUILD = '''
def full_build(root):
    errors = []
    for f in root:
        try:
            parse(f)
        except Exception as e:
            errors.append({"file": f, "error": str(e)})
    return {"errors": errors}


def summarise(root):
    try:
        return parse(root)
    except Exception as e:
        return f"failed: {e}"


class Builder:
    def build(self, root):
        try:
            return parse(root)
        except Exception as e:
            return f"failed: {e}"
'''


@pytest.mark.parametrize(
    ("importer", "text", "expected"),
    [
        # a tools module imports full_build: its result is a tool's answer; a class it imports (Builder) is not
        # evidence for its methods
        ("app/tools/build.py", "from ..incremental import full_build, Builder\n", [("TFH401", 9)]),
        ("app/tools/build.py", "from app.incremental import full_build\n", [("TFH401", 9)]),
        ("app/mcp_server.py", "from .incremental import full_build\n", [("TFH401", 9)]),
        # a module not named for tools, a test of the tools, an import of another name: no evidence
        ("app/cli.py", "from .incremental import full_build, Builder\n", []),
        ("app/tests/test_tools.py", "from ..incremental import full_build\n", []),
        ("app/tools/build.py", "from ..other import full_build\n", []),
    ],
)
def test_a_function_a_tools_module_imports_by_name_has_tool_evidence(
    tmp_path: Path, importer: str, text: str, expected: list[tuple[str, int]]
) -> None:
    """s41 (code-review-graph's ``full_build``, imported by ``tools/build.py``): nothing in ``incremental.py``
    names tools, but a tools module of the same project imports the function by name."""
    for rel in ("app/__init__.py", "app/tools/__init__.py", "app/tests/__init__.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    (tmp_path / importer).write_text(text)
    module = tmp_path / "app" / "incremental.py"
    module.write_text(BUILD)
    assert _codes(module) == expected


PLATFORM = '''
from app.channel import Channel


class Platform:
    def __init__(self, channel):
        self.channel = channel or Channel()

    async def running(self):
        while True:
            message_id, (agent_id, message, action) = await self.channel.receive_from()
            result = await getattr(self, {name})(agent_id, message)
            await self.channel.send_to((message_id, agent_id, result))

    async def follow(self, agent_id, followee_id):
        try:
            return {{"success": True, "id": self.db.follow(agent_id, followee_id)}}
        except Exception as e:
            return {{"success": False, "error": str(e)}}
'''


@pytest.mark.parametrize(
    ("name", "tools", "expected"),
    [
        ("action.value", "from ..channel import Channel\n", [("TFH401", 19)]),
        ('"follow"', "from ..channel import Channel\n", []),  # calls one method it names: no dispatch by name
        ('f"{{action}}_handler"', "from ..channel import Channel\n", []),  # an attribute read by prefix
        ("action.value", "from ..other import Channel\n", []),  # the tools share nothing with it
    ],
)
def test_a_class_serving_tools_by_name_over_a_shared_channel(
    tmp_path: Path, name: str, tools: str, expected: list[tuple[str, int]]
) -> None:
    """s41 (camel-oasis's ``Platform``): the agent's tools module sends each action over a ``Channel`` to a class
    that calls its own method by the action's name and sends the result back: that result is the tool's answer."""
    for rel in ("app/__init__.py", "app/agent/__init__.py", "app/channel.py", "app/other.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("class Channel:\n    pass\n" if rel.endswith(("channel.py", "other.py")) else "")
    (tmp_path / "app" / "agent" / "agent_action.py").write_text(tools)
    module = tmp_path / "app" / "platform.py"
    module.write_text(PLATFORM.format(name=name))
    assert _codes(module) == expected
