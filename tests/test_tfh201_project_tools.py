"""s55/s56 (issue 23; gwenflow, loopgpt, oterm, oxygent, sage-agent): a process running a command the linter cannot
read is TFH201, not TFH203, when the function is an agent tool the project registers in another module
(``Agent(tools=[shell])`` in ``agent.py`` for ``def shell(command)`` in ``shell.py``; a class on the project's own tool
base in ``base.py``), as the ``ast``-only tool table finds it (:func:`smullyan.linter.tools.discover_spans`, handed to
:mod:`smullyan.linter.project_tools` by the CLI and the flake8 plugin); a function no tool names stays TFH203; without
a provider (the engine alone) the reading is the file's own."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Iterator

import pytest

from smullyan.linter import cli, project_tools, tools_provider
from smullyan.linter.engine import lint_source
from smullyan.linter.tools import discover_spans, run
from split_support import BOTH

SHELL = textwrap.dedent("""\
    import subprocess


    def shell(command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True).stdout.decode()


    def build(command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True).stdout.decode()
    """)

AGENT = textwrap.dedent("""\
    from agents import Agent

    from .shell import shell

    agent = Agent(name="ops", tools=[shell])
    """)

BASE = textwrap.dedent('''\
    class BaseTool:
        """A tool the agent calls."""

        def run(self, command: str) -> str:
            raise NotImplementedError
    ''')

RUNNER = textwrap.dedent("""\
    import subprocess

    from .base import BaseTool


    class Shell(BaseTool):
        def run(self, command: str) -> str:
            return subprocess.run(command, shell=True, capture_output=True).stdout.decode()
    """)

OTHER = textwrap.dedent("""\
    from .base import BaseTool


    class Echo(BaseTool):
        def run(self, command: str) -> str:
            return command
    """)


@pytest.fixture(autouse=True)
def no_provider() -> Iterator[None]:
    yield
    project_tools.set_provider(None)


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    for name, text in files.items():
        (tmp_path / "app" / name).write_text(text)
    return tmp_path / "app"


def codes(capsys: pytest.CaptureFixture[str], path: Path) -> list[tuple[int, str]]:
    cli.main(["lint", "--no-cache", "--exit-zero", "-j", "1", "--select", "TFH201,TFH203", "--format", "concise",
              str(path)])
    out = capsys.readouterr().out
    return sorted((int(line.split(":")[1]), line.split()[1]) for line in out.splitlines() if " TFH20" in line)


def test_tool_listed_in_another_module_is_tfh201(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = project(tmp_path, {"shell.py": SHELL, "agent.py": AGENT})
    assert codes(capsys, app / "shell.py") == [(5, "TFH201"), (9, "TFH203")]


def test_no_tool_stays_tfh203(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = project(tmp_path, {"shell.py": SHELL, "agent.py": "from .shell import shell\n\nprint(shell('ls'))\n"})
    assert codes(capsys, app / "shell.py") == [(5, "TFH203"), (9, "TFH203")]


def test_method_of_the_projects_own_tool_base_is_tfh201(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the base is the project's tool base by its shape: a tool word, a method left to two subclasses that implement it
    app = project(tmp_path, {"base.py": BASE, "shell.py": RUNNER, "echo.py": OTHER})
    assert codes(capsys, app / "shell.py") == [(8, "TFH201")]


def test_one_subclass_is_no_tool_base(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = project(tmp_path, {"base.py": BASE, "shell.py": RUNNER})
    assert codes(capsys, app / "shell.py") == [(8, "TFH203")]


def test_engine_without_provider_reads_the_file_alone(tmp_path: Path) -> None:
    app = project(tmp_path, {"shell.py": SHELL, "agent.py": AGENT})
    found = lint_source(SHELL, str(app / "shell.py"), BOTH)
    assert sorted((f.line, f.code) for f in found if f.code.startswith("TFH20")) == [(5, "TFH203"), (9, "TFH203")]


def test_engine_with_the_provider_reads_the_project(tmp_path: Path) -> None:
    app = project(tmp_path, {"shell.py": SHELL, "agent.py": AGENT})
    project_tools.set_provider(discover_spans)
    found = lint_source(SHELL, str(app / "shell.py"), BOTH)
    assert sorted((f.line, f.code) for f in found if f.code.startswith("TFH20")) == [(5, "TFH201"), (9, "TFH203")]


def test_ast_table_spans_are_the_tool_runs(tmp_path: Path) -> None:
    """The ``ast``-only table finds the tools ``smullyan tools`` finds, with the same spans."""
    app = project(tmp_path, {"shell.py": SHELL, "agent.py": AGENT, "base.py": BASE, "runner.py": RUNNER,
                             "echo.py": OTHER})
    files = sorted(str(p) for p in app.glob("*.py"))
    full: dict[str, list[tuple[int, int]]] = {}
    for tool in run(files, BOTH).tools:
        full.setdefault(tool.path, []).extend(tool.spans)
    assert discover_spans(files, BOTH) == full
    assert set(full) == {str(app / "shell.py"), str(app / "runner.py"), str(app / "echo.py")}


def test_flake8_plugin_reads_the_project(tmp_path: Path) -> None:
    import subprocess
    import sys

    app = project(tmp_path, {"shell.py": SHELL, "agent.py": AGENT})
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "TFH201,TFH203", "app/shell.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert sorted(line.split(" ")[0] + " " + line.split(" ")[1] for line in res.stdout.splitlines()) == [
        "app/shell.py:5:12: TFH201", "app/shell.py:9:12: TFH203"], res.stderr


def test_cache_follows_a_change_of_a_module_the_table_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The files the table read are the cached finding's dependencies: a sibling subclass that stops implementing
    the base's method (the base is then no tool base) invalidates the entry of the file that asked."""
    app = project(tmp_path, {"base.py": BASE, "shell.py": RUNNER, "echo.py": OTHER})
    args = ["lint", "--cache-dir", str(tmp_path / "cache"), "--exit-zero", "-j", "1", "--select", "TFH201,TFH203",
            "--format", "concise", str(app / "shell.py")]

    def found() -> list[tuple[int, str]]:
        cli.main(args)
        out = capsys.readouterr().out
        return sorted((int(line.split(":")[1]), line.split()[1]) for line in out.splitlines() if " TFH20" in line)

    assert found() == [(8, "TFH201")]
    (app / "echo.py").write_text("from .base import BaseTool\n\n\nclass Echo(BaseTool):\n    pass\n")
    assert found() == [(8, "TFH203")]


def test_spawned_workers_get_the_provider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool whose workers are spawned (macOS and Windows' default) starts them without the parent's tool-table
    reader: the runner hands it on, so `-j N` finds what `-j 1` finds."""
    import multiprocessing

    from smullyan.linter import runner
    from smullyan.linter.config import Config

    files = {"shell.py": SHELL, "agent.py": AGENT}
    files.update({f"m{i:02}.py": f"X = {i}\n" for i in range(runner.POOL_MIN_FILES + 4)})
    app = project(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    paths = sorted(str(p.relative_to(tmp_path)) for p in app.glob("*.py"))
    project_tools.set_provider(tools_provider.tool_spans)
    result = runner.run(paths, Config.default(), jobs=2, mp_context=multiprocessing.get_context("spawn"))
    assert result.workers == 2
    assert [(f.path, f.line, f.code) for f in result.findings] == [("app/shell.py", 5, "TFH201")]
