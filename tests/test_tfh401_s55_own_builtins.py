"""s55 (issue 24): a builtin class (``ValueError``, ``KeyError``, ``PermissionError``) that only the project's own
functions raise in the `try`, each with a message written there, is the package's refusal: TFH401 is silent. A
library call that can raise the class itself, a re-raise of another failure's text, a method of another object, or a
message built from a caught failure keeps the finding."""

from __future__ import annotations

import textwrap
from pathlib import Path

from marked_support import marked as _marked, reported as _reported

PATHS = """\
import os
import json
import logging

ROOT = "/srv"
log = logging.getLogger(__name__)


def workspace_dir(cwd):
    log.debug("cwd %s", cwd)  # a logger's method and min() of two values raise no ValueError
    full = os.path.normpath(os.path.join(ROOT, cwd[:min(len(cwd), 256)]))
    if not full.startswith(ROOT):
        raise ValueError(f"cwd {cwd} is outside the workspace")
    return full


def loaded_dir(raw):
    data = json.loads(raw)
    if not data:
        raise ValueError("empty")
    return data


def translated_dir(cwd):
    try:
        return workspace_dir(int(cwd))
    except ValueError as error:
        raise ValueError(str(error))
"""

TOOLS = """\
import subprocess

from mcp.server.fastmcp import FastMCP

from .paths import loaded_dir, translated_dir, workspace_dir

mcp = FastMCP("shell")
PROTECTED = {"etc": "system files"}
DEFAULT = "tmp"  # not the model's input: the s50/s54 input checks do not apply
RAW = "[]"


def _protected(name):
    if name in PROTECTED:
        raise PermissionError(f"{name} is protected")
    return name.strip()


def _lookup(name):
    if name not in PROTECTED:
        raise KeyError("no such area")
    return PROTECTED[name]


@mcp.tool()
def run(command: str, cwd: str = "") -> str:
    try:
        workdir = workspace_dir(DEFAULT)
    except ValueError as e:
        return str(e)  # imported
    return subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True).stdout


@mcp.tool()
def touch(name: str) -> str:
    try:
        target = _protected(DEFAULT)
    except PermissionError as e:
        return f"Error: {e}"  # local
    return subprocess.run(["touch", target], capture_output=True, text=True).stdout


@mcp.tool()
def run_loaded(command: str, raw: str) -> str:
    try:
        workdir = loaded_dir(RAW)
    except ValueError as e:
        return f"Error: {e}"  # reported
    return subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True).stdout


@mcp.tool()
def run_translated(command: str, cwd: str) -> str:
    try:
        workdir = translated_dir(cwd)
    except ValueError as e:
        return f"Error: {e}"  # reported
    return subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True).stdout


@mcp.tool()
def run_counted(command: str, cwd: str, depth: str) -> str:
    try:
        workdir = workspace_dir(cwd)
        levels = int(depth)
    except ValueError as e:
        return f"Error: {e}"  # reported
    return subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True).stdout[:levels]


@mcp.tool()
def area(name: str) -> str:
    try:
        what = _lookup(DEFAULT)
    except KeyError as e:
        return f"Error: {e}"  # reported
    return subprocess.run(["ls", what], capture_output=True, text=True).stdout


@mcp.tool()
def touch_any(name: str) -> str:
    try:
        target = _protected(DEFAULT)
    except Exception as e:
        return f"Error: {e}"  # reported
    return subprocess.run(["touch", target], capture_output=True, text=True).stdout
"""


def _project(tmp_path: Path, paths: str = PATHS, tools: str = TOOLS) -> Path:
    pkg = tmp_path / "shellmcp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "paths.py").write_text(textwrap.dedent(paths))
    (pkg / "tools.py").write_text(textwrap.dedent(tools))
    return pkg / "tools.py"


def test_builtins_only_the_projects_own_checks_raise_are_silent(tmp_path: Path) -> None:
    # an imported check and a module-local one, each raising a caught builtin with a message written there, are the
    # package's refusals; json.loads (a ValueError of its own), a re-raise of another failure's text, int() beside the
    # check, a subscript under KeyError and `except Exception` stay reported
    path = _project(tmp_path)
    assert _reported(path) == _marked(path, "reported")


def test_a_message_formatting_a_failure_is_no_refusal(tmp_path: Path) -> None:
    # `raise ValueError(f"bad cwd: {exc}")`: another failure's text in the message: reported
    paths = PATHS.replace('raise ValueError(f"cwd {cwd} is outside the workspace")',
                          'raise ValueError(f"cwd {cwd} is outside the workspace ({exc})")')
    path = _project(tmp_path, paths)
    assert _reported(path) == _marked(path, "reported", "imported")


def test_a_library_call_in_the_check_keeps_the_finding(tmp_path: Path) -> None:
    # the check itself calls a library that raises ValueError (`Path.relative_to`)
    paths = PATHS.replace("    return full\n", "    cwd.relative_to(ROOT)\n    return full\n", 1)
    path = _project(tmp_path, paths)
    assert _reported(path) == _marked(path, "reported", "imported")
