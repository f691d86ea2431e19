"""TFH401 s54 (issue 24): a module a console script runs is the command line; an importer imported only by the
command line passes that on (harflow's ``setup_client`` -> ``clients/__init__`` -> ``clients/vibe``)."""

from __future__ import annotations

from pathlib import Path

from marked_support import marked as _marked, reported as _reported

VIBE = """\
import json


def inspect(path):
    try:
        return json.loads(path.read_text()), None
    except (OSError, ValueError) as exc:
        return None, f"{path} could not be parsed ({exc})"  # command-line
"""

CLIENTS = """\
from .vibe import inspect


def availability(client):
    try:
        client.probe()
    except OSError as exc:
        return {"available": False, "reason": str(exc)}  # command-line
    return {"available": True}
"""

JSONC = "def loads(text):\n    return text\n"

SETUP = """\
import argparse

from . import clients


def main(argv=None):
    args = argparse.ArgumentParser().parse_args(argv)
    print(clients.availability(args))
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("flow")


@mcp.tool()
def run(task: str) -> str:
    try:
        return engine.run(task)
    except OSError as e:
        return f"run failed: {e}"  # reported
"""

APPROVAL = "from ..clients import jsonc\n"

WHEEL_ENTRY_POINTS = """\
[console_scripts]
flow-mcp = flow_mcp.server:main
flow-setup = flow_mcp.setup_client:main
"""

PYPROJECT = """\
[project]
name = "flow-mcp"

[project.scripts]
flow-mcp = "flow_mcp.server:main"
flow-setup = "flow_mcp.setup_client:main"
"""


def _project(tmp_path: Path, *, wheel: bool | str = False, pyproject: bool = False, **extra: str) -> Path:
    pkg = tmp_path / "flow_mcp"
    (pkg / "clients").mkdir(parents=True)
    (pkg / "backends").mkdir()
    files = {"__init__.py": "", "server.py": SERVER, "setup_client.py": SETUP, "clients/__init__.py": CLIENTS,
             "clients/vibe.py": VIBE, "clients/jsonc.py": JSONC, "backends/__init__.py": "",
             "backends/approval.py": APPROVAL, **extra}
    for name, text in files.items():
        (pkg / name).write_text(text)
    if wheel:
        (tmp_path / "flow_mcp-0.1.dist-info").mkdir()
        text = wheel if isinstance(wheel, str) else WHEEL_ENTRY_POINTS
        (tmp_path / "flow_mcp-0.1.dist-info" / "entry_points.txt").write_text(text)
    if pyproject:
        (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    return pkg


def test_a_console_scripts_module_and_what_only_it_imports_report_to_the_person(tmp_path: Path) -> None:
    # a wheel's console_scripts and a checkout's [project.scripts] alike: setup_client is the command line, so
    # clients/__init__ (imported by it alone: backends/approval.py takes only the jsonc submodule) and
    # clients/vibe (imported by clients/__init__ alone) are silent; the server's tool is still reported
    for n, kind in enumerate(({"wheel": True}, {"pyproject": True})):
        pkg = _project(tmp_path / str(n), **kind)
        assert _reported(pkg / "clients" / "__init__.py") == []
        assert _reported(pkg / "clients" / "vibe.py") == []
        assert _reported(pkg / "server.py") == _marked(pkg / "server.py", "reported")


def test_without_a_console_script_or_with_another_importer_the_texts_stay_reported(tmp_path: Path) -> None:
    # no script names setup_client: nothing says it is the command line
    pkg = _project(tmp_path / "a")
    assert _reported(pkg / "clients" / "__init__.py") == _marked(pkg / "clients" / "__init__.py", "command-line")
    assert _reported(pkg / "clients" / "vibe.py") == _marked(pkg / "clients" / "vibe.py", "command-line")
    # the server imports a name of the clients package: a tool may reach it, and so may vibe through it
    pkg = _project(tmp_path / "b", wheel=True, **{"backends/approval.py": "from ..clients import availability\n"})
    assert _reported(pkg / "clients" / "__init__.py") == _marked(pkg / "clients" / "__init__.py", "command-line")
    assert _reported(pkg / "clients" / "vibe.py") == _marked(pkg / "clients" / "vibe.py", "command-line")
    # a console script whose name says it starts a server is no command line (listmonk's `listmonk-mcp = ...server:main`)
    pkg = _project(tmp_path / "d", wheel="[console_scripts]\nflow-mcp = flow_mcp.setup_client:main\n")
    assert _reported(pkg / "clients" / "vibe.py") == _marked(pkg / "clients" / "vibe.py", "command-line")
    # ... even beside a short alias of the same module (local-shell-mcp's `lsm = local_shell_mcp.main:main`)
    pkg = _project(tmp_path / "e", wheel="[console_scripts]\nflow-mcp = flow_mcp.setup_client:main\nfl = flow_mcp.setup_client:main\n")
    assert _reported(pkg / "clients" / "vibe.py") == _marked(pkg / "clients" / "vibe.py", "command-line")
    # a console script that serves tools is no command line (its text registers a tool)
    pkg = _project(tmp_path / "c", wheel=True, **{"setup_client.py": SETUP + "\n@mcp.tool()\ndef t():\n    pass\n"})
    assert _reported(pkg / "clients" / "vibe.py") == _marked(pkg / "clients" / "vibe.py", "command-line")
