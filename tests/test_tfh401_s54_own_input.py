"""s54 (issue 24, the lead's decision "the model's own input"): a ``try`` whose every call only computes on the tool's
own parameters hands the model its input error (``rules/errors/input_check.py``, ``_of_input_only``): a path the
model gave resolved (``Path(path).expanduser().resolve()``), a project helper of the model's value whose body (one
level; imported ones read from disk) neither awaits nor calls out nor touches files (hyperresearch-codex's
``run_directory(root, args["run_id"])``), ``time.time()`` beside it (lovia). Still reported: a helper that opens a
file, a path method that reads, a third-party call, a value the input did not make, ``fn(**arguments)``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from marked_support import marked as _marked, reported as _reported

PATHS = """\
from pathlib import Path


class InvalidRunId(ValueError):
    pass


def run_directory(root, run_id):
    if not run_id or "/" in run_id:
        raise InvalidRunId(f"bad run id {run_id!r}")
    return Path(root) / "runs" / run_id


def read_report(root, run_id):
    with open(Path(root) / run_id / "report.md") as f:
        return f.read()
"""

SERVER = """\
import time
from pathlib import Path

import numexpr
from mcp.server.fastmcp import FastMCP

from .paths import read_report, run_directory

mcp = FastMCP("runs")
ROOT = Path("/srv/runs")


def _next_fire(expr, now):
    return now + 60 * int(expr.split()[0])


def _load(path):
    return Path(path).read_text()


@mcp.tool()
def report_path(run_id: str) -> str:
    try:
        p = run_directory(ROOT, run_id) / "final_report.md"
    except ValueError as error:
        return str(error)  # own-input
    return str(p)


@mcp.tool()
def list_dir(directory: str) -> str:
    try:
        base = Path(directory).expanduser().resolve()
    except Exception as exc:
        return f"Invalid directory path: {exc}"  # own-input
    return str(base)


@mcp.tool()
def schedule(expr: str) -> str:
    try:
        fire = _next_fire(expr, now=time.time())
    except ValueError as exc:
        return f"Couldn't schedule that: {exc}"  # own-input
    return str(fire)


@mcp.tool()
def report(run_id: str) -> str:
    try:
        return read_report(ROOT, run_id)
    except OSError as exc:
        return f"failed: {exc}"  # reported


@mcp.tool()
def load(path: str) -> str:
    try:
        return _load(path)
    except OSError as exc:
        return f"failed: {exc}"  # reported


@mcp.tool()
def show(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError as exc:
        return f"failed: {exc}"  # reported


@mcp.tool()
def calc(expression: str) -> str:
    try:
        return str(numexpr.evaluate(expression))
    except Exception as exc:
        return f"error: {exc}"  # reported


@mcp.tool()
def clamp(timeout: int) -> str:
    settings = _load("settings.toml")
    try:
        return str(_next_fire(settings, timeout))
    except ValueError as exc:
        return f"bad timeout: {exc}"  # reported
"""


def _project(tmp_path: Path) -> Path:
    pkg = tmp_path / "runsmcp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "paths.py").write_text(textwrap.dedent(PATHS))
    (pkg / "server.py").write_text(SERVER)
    return pkg / "server.py"


def test_a_try_computing_only_on_the_models_input_hands_it_its_error(tmp_path: Path) -> None:
    path = _project(tmp_path)
    assert _marked(path, "own-input")
    assert _reported(path) == _marked(path, "reported")


def test_an_imported_helper_that_reads_a_file_is_the_tools_work(tmp_path: Path) -> None:
    # the same helper made to read a file: its OSError is the machine's, not the model's input
    path = _project(tmp_path)
    paths = path.parent / "paths.py"
    paths.write_text(paths.read_text().replace('    return Path(root) / "runs" / run_id',
                                               '    return (Path(root) / "runs" / run_id).read_text()'))
    assert _reported(path) == sorted([*_marked(path, "reported"), _marked(path, "own-input")[0]])
