"""TFH201 on the shapes read in the real-code survey (issues 23 and 28), generalised by what the code
does: processes with no timeout to give stay silent, untimed network calls and processes that can
hang in a tool path stay reported (recall)."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import interactive_process, process_fix_refusal
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)



def tfh201(src: str) -> list[tuple[int, bool]]:
    """(line, has a fix) of each TFH201 finding."""
    return [(f.line, f.fix is not None) for f in lint_source(textwrap.dedent(src), "m.py", BOTH) if f.code in SPLIT]


# --------------------------------------------------------------------------- silent: no timeout to give


@pytest.mark.parametrize("words, why", [
    (["crontab", "-l"], "instant"),
    (["crontab", "-e"], "instant"),
    (["pbcopy"], "instant"),
    (["xclip", "-selection", "clipboard"], "instant"),
    (["notify-send", "done"], "instant"),
    (["node", "--version"], "instant"),
    (["lean", "--print-prefix"], "instant"),
    (["gcc", "-print-search-dirs"], "instant"),
    (["rustc", "--print=sysroot"], "instant"),
    (["ffmpeg", "-h"], "instant"),
    (["python", "-m", "pip", "--version"], "instant"),
    (["pip", "show", "requests"], "instant"),
    (["git", "blame", "--line-porcelain", "f.py"], "instant"),
    (["git", "-C", "repo", "rev-list", "--count", "HEAD"], "instant"),
    (["uv", "python", "pin", "3.12"], "instant"),
    (["cursor", "."], "editor"),
    (["pycharm", "."], "editor"),
    (["lazygit"], "terminal UI"),
    (["fastmcp", "dev", "server.py"], "dev server"),
    (["langgraph", "dev"], "dev server"),
    (["chainlit", "run", "app.py"], "dev server"),
    (["ollama", "serve"], "dev server"),
])
def test_processes_with_no_timeout_to_give(words: list[str], why: str) -> None:
    got = interactive_process(words)
    assert got is not None and why in got, got


@pytest.mark.parametrize("words", [
    ["docker", "version"],  # asks the daemon: may hang
    ["python", "-v"],  # a verbose interpreter, not a version query
    ["node", "--version", "x.js"],  # more than a version query
    ["git", "fetch"],
    ["git", "ls-remote", "origin"],  # network
    ["uv", "sync"],
    ["pip", "install", "x"],
    ["mc", "cp", "a", "s3/b"],  # MinIO's client, not a file manager
    ["ollama", "pull", "llama3"],
])
def test_processes_that_can_hang_are_not_silent(words: list[str]) -> None:
    assert interactive_process(words) is None


def test_the_silent_reads_are_no_fix_refusals_either() -> None:
    # a version query and a local git read need no timeout; a fetch gets none by fix (runs long)
    assert process_fix_refusal(["git", "fetch"], True) is not None
    assert process_fix_refusal(["ruff", "--version"], True) is None


def test_a_cli_commands_foreground_process_is_the_persons_to_stop() -> None:
    src = """\
        import subprocess
        import click
        import typer
        import cyclopts
        app = typer.Typer()
        capp = cyclopts.App()
        @click.group()
        def cli():
            pass
        @cli.command()
        def dev(port):
            subprocess.run(["acme-server", "--port", str(port)])
        @app.command()
        def test(path):
            subprocess.run(["pytest", path], check=True)
        @capp.command
        def docs():
            subprocess.call(["acme-docs", "serve"])
        @click.command()
        def install():
            subprocess.check_call(["pip", "install", "acme"])
        """
    assert tfh201(src) == []


def test_a_cli_command_that_captures_or_a_helper_outside_it_is_still_reported() -> None:
    src = """\
        import subprocess
        import typer
        app = typer.Typer()
        @app.command()
        def status():
            return subprocess.run(["gh", "status"], capture_output=True).stdout
        @app.command()
        def sync():
            subprocess.run(["gh", "sync"], stdout=subprocess.PIPE)
        def helper():
            subprocess.run(["gh", "sync"])
        class Tool:
            def command(self):  # a method called `command` is not a CLI command
                subprocess.run(["gh", "sync"])
        """
    assert [line for line, _ in tfh201(src)] == [6, 9, 11, 14]


def test_a_scripts_main_and_its_main_block_run_processes_for_a_person() -> None:
    src = """\
        import argparse, subprocess
        def main():
            args = argparse.ArgumentParser().parse_args()
            subprocess.run(["gh", args.target])
        def helper():
            subprocess.run(["gh"])
        if __name__ == "__main__":
            subprocess.run(["gh", "serve"])
            main()
        subprocess.run(["gh", "import-time"])
        """
    assert [line for line, _ in tfh201(src)] == [6, 10]


def test_a_decorator_named_command_from_elsewhere_is_no_cli() -> None:
    src = """\
        import subprocess
        from myagent import tools
        @tools.command()
        def run_job(name):
            subprocess.run(["gh", "job", name])
        """
    assert [line for line, _ in tfh201(src)] == [5]


# --------------------------------------------------------------------------- recall: still reported


def test_indirect_clients_are_reported() -> None:
    src = """\
        import importlib
        import subprocess
        import docker
        import requests
        class Search:
            def __init__(self, session=None):
                self.session = session or requests.Session()
            def run(self, q):
                return self.session.get("https://x", params={"q": q})
        def cache(url):
            return importlib.import_module("redis").Redis(host=url)
        def job(image, cmd):
            container = docker.from_env().containers.run(image, detach=True)
            container.exec_run(cmd)
            return container.wait()
        def tool(argv):
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
            out, _ = proc.communicate()
            proc.wait()
            return out
        """
    found = tfh201(src)
    assert [line for line, _ in found] == [9, 11, 14, 15, 18, 19]
    assert dict(found) == {9: True, 11: True, 14: False, 15: False, 18: False, 19: False}


def test_a_tool_running_a_server_command_outside_a_cli_is_reported_without_a_fix_when_unreadable() -> None:
    src = """\
        import subprocess
        def run_tool(cmd):
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout
        def crawl(url):
            return subprocess.check_output(["curl", "-s", url], text=True)
        """
    assert tfh201(src) == [(3, False), (5, False)]
