"""s48 (issue 24, the lead's decision): the package's own refusal message is no stringified failure. A handler that
catches only exception classes the project defines, every construction of which passes a message written there,
hands the model a message the package wrote for it: TFH401 is silent. A builtin, a library's class, ``Exception``, or
a class some ``raise`` builds from a variable or from another failure stays reported."""

from __future__ import annotations

import textwrap
from pathlib import Path

from marked_support import marked as _marked, reported as _reported

ERRORS = """\
class ToolError(Exception):
    pass


class PathError(ToolError):
    pass


def check(path, allowed):
    if path.startswith("/"):
        raise PathError(f"path {path} is outside the workspace")
    if path not in allowed:
        raise ToolError("command not allowed")
    if not path:
        raise ToolError
"""

TOOLS = """\
from mcp.server.fastmcp import FastMCP

from .errors import ToolError, check
from . import errors

mcp = FastMCP("files")


@mcp.tool()
def read(path: str) -> str:
    try:
        check(path, ["a"])
        return open(path).read()
    except ToolError as e:
        return f"Error: {e}"  # tool-error


@mcp.tool()
def read_qualified(path: str) -> str:
    try:
        check(path, ["a"])
        return open(path).read()
    except errors.PathError as e:
        return str(e)  # path-error


@mcp.tool()
def read_or_os_error(path: str) -> str:
    try:
        check(path, ["a"])
        return open(path).read()
    except (ToolError, OSError) as e:
        return f"Error: {e}"  # reported


@mcp.tool()
def read_broad(path: str) -> str:
    try:
        check(path, ["a"])
        return open(path).read()
    except Exception as e:
        return f"Error: {e}"  # reported
"""


def _project(tmp_path: Path, errors: str, tools: str = TOOLS) -> Path:
    pkg = tmp_path / "filesmcp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text(textwrap.dedent(errors))
    (pkg / "tools.py").write_text(textwrap.dedent(tools))
    return pkg / "tools.py"


def test_the_packages_own_refusals_are_silent(tmp_path: Path) -> None:
    # the two handlers of the project's own classes (imported by name and through the module) are silent; a tuple
    # with a builtin and `except Exception` catch other code's failures too and stay reported
    path = _project(tmp_path, ERRORS)
    assert _reported(path) == _marked(path, "reported")


def test_a_message_from_a_variable_is_no_refusal(tmp_path: Path) -> None:
    # `raise ToolError(msg)`: the message may be anyone's text (a library's stderr, str(exc))
    errors = ERRORS + """\


def run(cmd, proc):
    if proc.returncode:
        raise ToolError(proc.stderr.strip())
"""
    path = _project(tmp_path, errors)
    assert _reported(path) == _marked(path, "reported", "tool-error")  # PathError's constructions stay refusals


def test_another_failure_formatted_in_is_no_refusal(tmp_path: Path) -> None:
    # a subclass built with a caught exception's text (`f"... {cause}"`) or a failure handed in (`exc`) is a
    # stringified failure: every handler of the family stays reported
    for extra, marks in (
        ("""\


def send(sock, data):
    try:
        sock.send(data)
    except OSError as cause:
        raise PathError(f"sending failed: {cause}") from cause
""", ("reported", "tool-error", "path-error")),  # a PathError is a ToolError: both handlers
        ("""\


def _unavailable(tool, failure: BaseException):
    return ToolError(f"{tool} could not be run ({failure})")
""", ("reported", "tool-error")),
    ):
        (tmp_path / str(len(extra))).mkdir()
        path = _project(tmp_path / str(len(extra)), ERRORS + extra)
        assert _reported(path) == _marked(path, *marks)


def test_a_library_class_of_the_same_name_is_no_refusal(tmp_path: Path) -> None:
    # FastMCP's own ToolError is no class of the project, though the project defines one of that name
    tools = TOOLS.replace("from .errors import ToolError, check", "from .errors import check\nfrom mcp.server.fastmcp.exceptions import ToolError")
    path = _project(tmp_path, ERRORS, tools)
    assert _reported(path) == _marked(path, "reported", "tool-error")


def test_a_class_of_the_module_itself(tmp_path: Path) -> None:
    tools = """\
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("files")


    class Refused(Exception):
        pass


    @mcp.tool()
    def run(cmd: str) -> str:
        try:
            if cmd not in ("ls", "pwd"):
                raise Refused("command not allowed")
            return cmd
        except Refused as e:
            return f"Error: {e}"
    """
    assert _reported(_project(tmp_path, "", tools)) == []
