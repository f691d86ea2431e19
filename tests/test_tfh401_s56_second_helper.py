"""TFH401 (s56, issue 24): an error formatter handed the exception whose text reaches the tool's answer through a
second helper of its module (batch 28's elate: ``return _fail(exc)`` -> ``return _json(payload)``).

Where the formatter's module calls it, the text is followed two helpers deep and reported at each caller's
``return _fail(exc)`` (s49: one finding per text); a formatter only other modules call keeps s49's one-level
reading, so its own ``return`` is reported (a caller in another module follows one helper deep: its second
helper's names are not the caller's, redmine-mcp-server's ``_scrub_error_message``)."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import engine
from smullyan.linter.config import Config

FORMATTER = '''
import json


def _json(payload):
    return json.dumps(payload, ensure_ascii=False)


def _scrub(text):
    return text.replace("secret", "***")


def _fail(exc: Exception) -> str:
    message = f"{type(exc).__name__}: {exc}"
    payload = {"ok": False, "error": message}
    return _json(payload)


def _handle_error(e: Exception, operation: str) -> dict:
    return {"error": f"failed while {operation}: {_scrub(str(e))}"}
'''

TOOL = '''
from mcp.server.fastmcp import FastMCP
from ..utils.errors import _handle_error

mcp = FastMCP("x")


@mcp.tool()
def get_issue(n: int) -> dict:
    try:
        return fetch(n)
    except Exception as e:
        return _handle_error(e, "reading the issue")
'''

LOCAL_TOOL = '''
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
def stop(session: str) -> str:
    try:
        return _json(sessions.stop(session))
    except Exception as exc:
        return _fail(exc)
'''


def _codes(path: Path) -> list[tuple[str, int]]:
    config = Config.default()
    return [(f.code, f.line) for f in engine.lint_source(path.read_bytes(), str(path), config) if f.code == "TFH401"]


def test_a_formatter_called_in_its_module_is_reported_at_the_callers(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(FORMATTER + LOCAL_TOOL)
    lines = server.read_text().splitlines()
    caller = next(i for i, text in enumerate(lines, 1) if "return _fail(exc)" in text)
    own = next(i for i, text in enumerate(lines, 1) if "return _json(payload)" in text)
    handle = next(i for i, text in enumerate(lines, 1) if "_scrub(str(e))" in text)
    # _fail's text at its caller, once; _handle_error, which no function of the module calls, at its own return
    assert _codes(server) == [("TFH401", handle), ("TFH401", caller)]
    assert own not in {line for _, line in _codes(server)}


def test_a_formatter_only_other_modules_call_is_reported_at_its_own_return(tmp_path: Path) -> None:
    (tmp_path / "app" / "utils").mkdir(parents=True)
    (tmp_path / "app" / "tools").mkdir()
    for init in ("app", "app/utils", "app/tools"):
        (tmp_path / init / "__init__.py").write_text("")
    errors = tmp_path / "app" / "utils" / "errors.py"
    errors.write_text(FORMATTER)
    tool = tmp_path / "app" / "tools" / "t.py"
    tool.write_text(TOOL)
    own = next(i for i, text in enumerate(FORMATTER.splitlines(), 1) if "_scrub(str(e))" in text)
    assert ("TFH401", own) in _codes(errors)  # the text is made there, where no caller of the module follows it
    assert _codes(tool) == []  # one finding per text: not again at the caller, which follows one helper deep
