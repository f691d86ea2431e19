"""s54 (issue 23; the lead's session-50 foreground decision): a download or image build the person asks for in their
foreground (``knowledge.FOREGROUND_JOBS``: ``ollama pull``, ``playwright install``, ``nvm install``, ``brew update``,
``docker build``) is silent there, as an install is; on the agent path (a tool, library code whose callers are unknown)
it stays reported."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import foreground_job
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)


def lines(src: str) -> list[int]:
    found = lint_source(textwrap.dedent(src), "app/cli.py", BOTH)
    return [f.line for f in found if f.code in SPLIT]


@pytest.mark.parametrize("argv", [
    ["ollama", "pull", "llama3"], ["python", "-m", "playwright", "install", "chromium"],
    ["npx", "playwright", "install"], ["nvm", "install", "--lts"], ["brew", "update"], ["brew", "reinstall", "x"],
    ["docker", "build", "-t", "img", "."], ["docker", "buildx", "build", "."], ["podman", "build", "."],
    ["mvn", "dependency:resolve"],
])
def test_downloads_and_image_builds_are_foreground_jobs(argv: list[str]) -> None:
    assert foreground_job(argv)


@pytest.mark.parametrize("argv", [
    ["ollama", "run", "llama3"], ["ollama", "push", "m"], ["docker", "push", "img"], ["docker", "pull", "img"],
    ["playwright", "codegen"], ["brew", "services", "start", "x"], ["mvn", "deploy"],
])
def test_other_sub_commands_are_not(argv: list[str]) -> None:
    assert not foreground_job(argv)


def test_silent_in_a_cli_command_captured_or_not() -> None:
    assert lines("""\
        import subprocess
        import typer
        app = typer.Typer()
        @app.command()
        def setup(model: str):
            subprocess.run(["ollama", "pull", model])
            subprocess.run(["python", "-m", "playwright", "install", "chromium"], capture_output=True)
            subprocess.run(["docker", "build", "-t", "agent", "."], check=True)
        """) == []


def test_reported_on_the_agent_path() -> None:
    assert lines("""\
        import subprocess
        def ensure_model(model):
            subprocess.run(["ollama", "pull", model])
        def build_image(tag):
            return subprocess.run(["docker", "build", "-t", tag, "."], capture_output=True)
        """) == [3, 5]


def test_a_remote_sub_command_stays_reported_in_the_foreground_when_captured() -> None:
    assert lines("""\
        import subprocess
        import typer
        app = typer.Typer()
        @app.command()
        def publish(tag: str):
            subprocess.run(["docker", "push", tag], capture_output=True)
        """) == [6]


# s54: a process on the person's terminal in a `try` that handles KeyboardInterrupt: the author expects Ctrl-C from a
# person watching it (batches 20-25: conning's `ssh -t`, oblivion-agent's inspector, crossweave's coding CLI, dulus's
# `ollama pull`; all labelled false)
def test_a_terminal_child_whose_ctrl_c_the_code_handles_is_silent() -> None:
    assert lines("""\
        import subprocess
        def run_interactive(cmd, cwd):
            try:
                return subprocess.call(cmd, cwd=cwd)
            except KeyboardInterrupt:
                return 130
        def shell(argv):
            with subprocess.Popen(argv) as p:
                while True:
                    try:
                        return p.wait()
                    except KeyboardInterrupt:
                        pass
        def pull(model):
            try:
                subprocess.run(["ollama", "pull", model], check=False)
            except (KeyboardInterrupt, OSError):
                return False
        """) == []


def test_captured_a_bare_except_or_in_a_tool_stays_reported() -> None:
    assert lines("""\
        import subprocess
        from langchain_core.tools import tool
        def pull(image):
            try:
                return subprocess.run(["docker", "pull", image], capture_output=True)
            except KeyboardInterrupt:
                return None
        def clone(url):
            try:
                subprocess.run(["git", "clone", url])
            except:
                pass
        @tool
        def shell(command: str) -> str:
            \"\"\"Run a shell command.\"\"\"
            try:
                subprocess.run(command, shell=True)
            except KeyboardInterrupt:
                pass
            return "done"
        """) == [5, 10, 17]
