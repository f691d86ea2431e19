"""s51 (issue 23; the lead's session-50 foreground decision): a helper that only the person's commands call, across the
project's modules, runs in their foreground (``linter/foreground_callers.py``): its long job, or its process on their
terminal, is silent as in the command's own body. One caller that is a tool (or module code, a thread's target, an
import under another name) keeps it reported; a remote command it captures stays reported in any case."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from smullyan.linter.engine import lint_source
from smullyan.linter.foreground_callers import summarise
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)


HELPERS = textwrap.dedent("""\
    import subprocess
    def install(pkg):
        subprocess.run(["pip", "install", pkg])
    def push(remote):
        subprocess.run(["git", "push", remote])
    def fetch(remote):
        return subprocess.run(["git", "fetch", remote], capture_output=True).stdout
    def setup():
        install("mytool")
    """)

CLI = """\
    import argparse
    import typer
    from .helpers import fetch, push, setup
    app = typer.Typer()
    @app.command()
    def upgrade():
        setup()
        fetch("origin")
    def cmd_deploy(args):
        push(args.remote)
    def main():
        parser = argparse.ArgumentParser()
        parser.add_subparsers().add_parser("deploy").set_defaults(func=cmd_deploy)
        args = parser.parse_args()
        args.func(args)
    """


def tfh201(path: Path) -> list[int]:
    found = lint_source(path.read_text(), str(path), BOTH)
    assert not [f for f in found if f.code == "TFH002"], [f.message for f in found]
    return [f.line for f in found if f.code in SPLIT]


def project(tmp_path: Path, *others: str) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/helpers.py").write_text(HELPERS)
    (tmp_path / "app/cli.py").write_text(textwrap.dedent(CLI))
    for i, other in enumerate(others):
        (tmp_path / f"app/other{i}.py").write_text(textwrap.dedent(other))
    return tmp_path / "app/helpers.py"


def test_helpers_only_commands_call_run_in_the_foreground(tmp_path: Path) -> None:
    # `install` through `setup` (a typer command's helper), `push` from an argparse sub-command's handler: silent;
    # `fetch` captures a remote command's output: reported as in the command's own body
    assert tfh201(project(tmp_path)) == [7]


@pytest.mark.parametrize(("other", "reported"), [
    # a tool calls the helper (through `setup`) too
    ("""\
    from mcp.server.fastmcp import FastMCP
    from .helpers import setup
    mcp = FastMCP("x")
    @mcp.tool()
    def prepare() -> str:
        setup()
        return "ok"
    """, [3, 7]),
    # handed on: a thread's target (someone else calls it)
    ("import threading\nfrom .helpers import push\nthreading.Thread(target=push, args=('origin',)).start()\n", [5, 7]),
    # imported under another name: its calls are not all seen
    ("from .helpers import push as p\nfrom .helpers import setup as s\ndef go():\n    p('origin')\n    s()\n", [3, 5, 7]),
    # module-level code calls it (at import, by whoever imports the module)
    ("from .helpers import push, setup\nsetup()\npush('origin')\n", [3, 5, 7]),
])
def test_one_caller_off_the_foreground_keeps_them_reported(tmp_path: Path, other: str, reported: list[int]) -> None:
    assert tfh201(project(tmp_path, other)) == reported


def test_a_main_block_is_a_command_and_a_lambda_is_not() -> None:
    tree = __import__("ast").parse(textwrap.dedent("""\
        import threading
        def worker():
            threading.Thread(target=lambda: step()).start()
        if __name__ == "__main__":
            run()
        """))
    callers = summarise(tree).callers
    assert callers["run"] == frozenset({("", True, "")})
    assert callers["step"] == frozenset({("", False, "")})
    assert callers["Thread"] == frozenset({("worker", False, "threading")})  # `threading.Thread`: that module's


@pytest.mark.parametrize("worker", [False, True])
def test_a_call_on_another_imported_module_is_not_the_helpers(tmp_path: Path, worker: bool) -> None:
    # `subprocess.run(...)` in a tool is no call of the project's own `run` (s51: susatest-agent's `run_wrapper.run`)
    tool = """\
    import subprocess
    from mcp.server.fastmcp import FastMCP
    mcp = FastMCP("x")
    @mcp.tool()
    def status() -> str:
        return subprocess.run(["git", "status"], capture_output=True, text=True, timeout=5).stdout
    """
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/wrapper.py").write_text("import subprocess\ndef run(argv):\n    return subprocess.call(argv)\n")
    (tmp_path / "app/cli.py").write_text(textwrap.dedent("""\
        import sys
        from . import wrapper
        def main():
            sys.exit(wrapper.run(sys.argv[1:]))
        """))
    (tmp_path / "app/tool.py").write_text(textwrap.dedent(tool))
    if worker:  # a worker calls the same helper: no longer only the person's command
        (tmp_path / "app/worker.py").write_text("from . import wrapper\ndef job(argv):\n    wrapper.run(argv)\n")
    assert tfh201(tmp_path / "app/wrapper.py") == ([3] if worker else [])
