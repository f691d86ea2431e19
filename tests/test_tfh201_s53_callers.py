"""s53 (issue 23, batch 25's overkill, arc-deploy and trobz-deploy): TFH201 or TFH203 for a helper handed its command,
by what its callers hand it (``rules/timeouts/callers.py``): TFH201 when one caller's command reaches another machine
and the helper reads the process's output; TFH203 when no caller's does, or the child is on the person's terminal."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import network_command

BOTH = Config().with_overrides(select=["TFH201", "TFH203"])


def codes(src: str, path: str = "agent/steps.py") -> list[tuple[int, str]]:
    found = lint_source(textwrap.dedent(src), path, BOTH)
    assert not [f for f in found if f.code == "TFH002"], [f.message for f in found]
    return sorted((f.line, f.code) for f in found)


def test_network_command_reads_one_command_by_its_program() -> None:
    assert network_command(["git", "push"]) == "git"
    assert network_command(["git", "-C", "{}", "fetch", "origin"]) == "git"
    assert network_command(["curl", "-X", "POST", "{}"]) == "curl"
    assert network_command(["open", "https://example.com"]) == "https://example.com"
    # local work, a long job, a prompt, a custom scheme: none reaches another machine by its words
    assert network_command(["git", "status"]) is None
    assert network_command(["pip", "install", "x"]) is None
    assert network_command(["open", "stremio:///detail"]) is None
    assert network_command(["git", "stash", "push"]) is None


def test_one_caller_handing_a_remote_command_makes_it_tfh201() -> None:
    src = """\
        import subprocess
        def _run(cmd):
            return subprocess.run(cmd, capture_output=True, text=True)
        def publish():
            _run(["git", "add", "-A"])
            _run(["git", "push"])
        """
    assert codes(src) == [(3, "TFH201")]


def test_callers_of_only_local_commands_leave_it_tfh203() -> None:
    src = """\
        import subprocess
        def _run(cmd):
            return subprocess.run(cmd, capture_output=True, text=True)
        def status(path):
            cmd = ["git", "status", "--porcelain"]
            _run(cmd)
            _run(["pip", "install", path])
        """
    assert codes(src) == [(3, "TFH203")]


def test_a_name_the_caller_assigns_and_a_parameter_it_hands_on_are_read() -> None:
    src = """\
        import subprocess
        class Deployer:
            def run_command(self, cmd, description=""):
                return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout
            def notify(self, url):
                cmd = f"curl -X POST {url}/api/webhooks/deploy"
                return self.run_command(cmd, "webhook")
        def _step(command):
            return subprocess.run(command, capture_output=True)
        def _checked(command):
            return _step(command)
        def pull():
            _checked(["git", "-C", "/srv/app", "pull"])
        """
    assert codes(src) == [(4, "TFH201"), (9, "TFH201")]


def test_data_a_caller_hands_is_not_a_command() -> None:
    # the parameter is an argument of `open`, not the program: a caller's URI does not choose what runs
    src = """\
        import subprocess
        def launch(uri):
            return subprocess.run(["open", uri], capture_output=True)
        def show():
            launch("https://example.com")
        """
    assert codes(src) == []  # `open` of a literal program is TFH201's silent local program


def test_on_the_persons_terminal_it_stays_tfh203() -> None:
    # the s50 foreground decision: a child whose output goes to the terminal is watched by the person
    src = """\
        import subprocess
        def _show(cmd):
            return subprocess.run(cmd)
        def publish():
            cmd = ["git", "push"]
            _show(cmd)
        """
    assert codes(src) == [(3, "TFH203")]


def test_a_class_method_building_the_argv() -> None:
    src = """\
        import subprocess
        class Executor:
            def __init__(self, host):
                self.host = host
            def _argv(self, command):
                argv = ["ssh", "-A"]
                argv += [self.host, command]
                return argv
            def capture(self, command):
                argv = self._argv(command)
                return subprocess.run(argv, capture_output=True, text=True).stdout
        """
    assert codes(src) == [(11, "TFH201")]


def _project(root: Path, caller: str) -> str:
    """``app/gitops.py`` (a ``git(*args)`` helper) and ``app/land.py`` calling it (the readers read a project's modules
    once per process: each case is its own project)."""
    (root / "app").mkdir(parents=True)
    (root / "app/__init__.py").write_text("")
    (root / "app/gitops.py").write_text(GIT_HELPER)
    (root / "app/land.py").write_text(f"from .gitops import git\ndef land(repo):\n    {caller}\n")
    return str(root / "app/gitops.py")


GIT_HELPER = textwrap.dedent("""\
    import subprocess
    def git(*args):
        return subprocess.run(["git", *args], capture_output=True, text=True)
    """)


def test_callers_in_other_modules_of_the_project(tmp_path: Path) -> None:
    local = _project(tmp_path / "local", "git('-C', repo, 'status')")
    assert [c for _, c in codes(GIT_HELPER, local)] == ["TFH203"]
    remote = _project(tmp_path / "remote", "git('-C', repo, 'push', 'origin')")
    assert [c for _, c in codes(GIT_HELPER, remote)] == ["TFH201"]
