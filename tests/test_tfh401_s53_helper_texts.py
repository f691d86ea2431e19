"""s53 (issue 24): a same-module helper's text beside a literal ``None`` (``return None, str(exc)``, s44) is read as the
text is read in place: a handler catching only the project's own refusals (batch 25's quick-mcp-shell
``_settings_or_error``: ``except ConfigurationError as exc: return None, str(exc)``, every ``ConfigurationError`` a
sentence of the package) or giving format-repair feedback on a parse in memory (screaming-frog's
``_compile_row_filter``: ``except re.error as e`` around ``re.compile`` of the model's filter) hands on no stringified
failure, so the tool's ``return err`` is silent; a helper catching anything else stays followed. And a name an
unpacking gives a new value (``target, err = _resolve_export_file(...)``) no longer holds an earlier text."""

from __future__ import annotations

from pathlib import Path

from marked_support import marked as _marked, reported as _reported

CONFIG = """\
import os


class ConfigurationError(ValueError):
    pass


def settings():
    value = os.environ.get("SHELL_TIMEOUT", "30")
    if not value.isdigit():
        raise ConfigurationError(f"{value!r} must be a positive integer")
    return int(value)
"""

SERVER = """\
import re
import subprocess

from mcp.server.fastmcp import FastMCP

from .config import ConfigurationError, settings

mcp = FastMCP("shell")


def _settings_or_error():
    try:
        return settings(), None
    except ConfigurationError as exc:
        return None, str(exc)


def _run_or_error(command, timeout):
    try:
        return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=timeout), None
    except OSError as exc:
        return None, f"could not start: {exc}"  # reported


def _pattern_or_error(pattern):
    try:
        return re.compile(pattern), None
    except re.error as e:
        return None, f"invalid pattern: {e}"


@mcp.tool()
def run_command(command: str, grep: str = ".") -> str:
    timeout, error = _settings_or_error()
    if error:
        return f"configuration error: {error}"
    rx, error = _pattern_or_error(grep)
    if error:
        return error
    proc, error = _run_or_error(command, timeout)
    if error:
        return error  # reported
    return "\\n".join(line for line in proc.stdout.splitlines() if rx.search(line))
"""


def _project(tmp_path: Path, config: str = CONFIG) -> Path:
    pkg = tmp_path / "shellmcp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(config)
    (pkg / "server.py").write_text(SERVER)
    return pkg / "server.py"


def test_a_helpers_refusal_or_format_repair_text_is_no_stringified_failure(tmp_path: Path) -> None:
    # the refusal's and the pattern's texts are silent at the tool's returns; the spawn error's text is reported, in
    # the helper (a module with tools) and at the tool's return
    path = _project(tmp_path)
    assert _reported(path) == _marked(path, "reported")


def test_a_helper_catching_a_class_also_built_from_a_failure_stays_followed(tmp_path: Path) -> None:
    # ConfigurationError also built from an OSError's text: no refusal, so its text reaches the model
    config = CONFIG + '''

def load(path):
    try:
        return open(path).read()
    except OSError as e:
        raise ConfigurationError(str(e))
'''
    path = _project(tmp_path, config)
    configuration = [i for i, line in enumerate(path.read_text().splitlines(), 1)
                     if "configuration error" in line or "return None, str(exc)" in line]
    assert _reported(path) == sorted(configuration + _marked(path, "reported"))


INSTALL = """\
import json
from pathlib import Path


def _compute(path: Path):
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        return None, f"cannot read {path}: {e}"  # command-line
    return data, ""


def apply(paths):
    lines = []
    for path in paths:
        try:
            path.write_text("{}")
        except OSError as e:
            lines.append(f"{path}: {e}")
    return lines  # command-line
"""

MAIL_SERVER = """\
from mcp.server.fastmcp import FastMCP


def build_app():
    mcp = FastMCP("mail")

    @mcp.tool()
    def search(query: str) -> str:
        try:
            return client.search(query)
        except OSError as e:
            return f"search failed: {e}"  # reported

    return mcp
"""

CLI = """\
import argparse

from . import install
from .server import build_app


def main(argv=None):
    args = argparse.ArgumentParser().parse_args(argv)
    if args.cmd == "serve":
        build_app().run()
    for line in install.apply(args.paths):
        print(line)
"""


def _mail_project(tmp_path: Path, **extra: str) -> Path:
    pkg = tmp_path / "mailmcp"
    pkg.mkdir(parents=True)
    for name, text in {"__init__": "", "install": INSTALL, "server": MAIL_SERVER, "cli": CLI, **extra}.items():
        (pkg / f"{name}.py").write_text(text)
    return pkg


def test_a_module_only_the_command_line_imports_reports_to_the_person(tmp_path: Path) -> None:
    # install.py's only evidence for tools is the package's MCP name, and only cli.py imports it: silent; the server,
    # imported by cli.py alone too, registers a tool in its factory: reported
    pkg = _mail_project(tmp_path)
    assert _reported(pkg / "install.py") == []
    assert _reported(pkg / "server.py") == _marked(pkg / "server.py", "reported")


def test_a_module_another_module_imports_stays_reported(tmp_path: Path) -> None:
    # a module that is not the command line imports it (here the package's __init__): a tool may reach it
    pkg = _mail_project(tmp_path, __init__="from .install import apply\n")
    assert _reported(pkg / "install.py") == _marked(pkg / "install.py", "command-line")
    # and a module nothing imports says nothing either way: reported as before
    pkg2 = _mail_project(tmp_path / "other", cli="import argparse\n")
    assert _reported(pkg2 / "install.py") == _marked(pkg2 / "install.py", "command-line")
