"""Session 43 (issues 23 and 28, batch 16's blind run): TFH201's harmful fix on a remote CLI whose sub-command the
code does not spell, and its false findings on a local program named through a function that returns it."""

from __future__ import annotations

import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import process_length_unknown


def tfh201(src: str) -> list[tuple[int, bool]]:
    """(line, has a fix) of each TFH201 finding."""
    return [(f.line, f.fix is not None) for f in lint_source(textwrap.dedent(src), "m.py", Config()) if f.code == "TFH201"]


def test_a_remote_cli_needs_a_literal_sub_command_for_a_guessed_default() -> None:
    assert process_length_unknown(["helm"]) == "helm"
    assert process_length_unknown(["kubectl", "--context"]) == "kubectl"
    assert process_length_unknown(["kubectl", "get", "nodes"]) is None
    assert process_length_unknown(["gh", "api", "x"]) is None


def test_a_wrapper_extending_a_remote_cli_with_its_arguments_gets_no_fix() -> None:
    # autosre-ai: `_helm(*args)` builds `["helm"]` then `cmd.extend(args)`; a caller runs
    # `helm upgrade --install ... --wait --timeout 5m` through it: `timeout=30` killed the install
    src = """\
    import subprocess
    class Stack:
        def _helm(self, *args):
            cmd = ["helm"]
            if self.kubeconfig:
                cmd.extend(["--kubeconfig", self.kubeconfig])
            cmd.extend(args)
            return subprocess.run(cmd, capture_output=True, text=True)
        def deploy(self):
            return self._helm("upgrade", "--install", "prom", "chart", "--wait", "--timeout", "5m")
        def nodes(self):
            return subprocess.run(["kubectl", "get", "nodes"], capture_output=True)
    """
    assert tfh201(src) == [(8, False), (12, True)]


def test_a_local_program_a_module_function_returns_is_read_through_the_call() -> None:
    # bello: `ops._git_executable(root)` (the module's `_git_executable` returns "git" or a look-up of "git"),
    # directly and bound to a name a forwarding closure reads; s42's forwarding helper still decides by its callers
    src = """\
    import subprocess
    def _git_executable(ops, cwd):
        if not ops.windows:
            return "git"
        return ops.require_trusted_executable("git", cwd=cwd)
    def snapshot(ops, root, url):
        subprocess.run([ops._git_executable(root), "ls-files", "-z"], cwd=root, capture_output=True)
        git = ops._git_executable(root)
        def run(arguments):
            return subprocess.run([git, *arguments], cwd=root, capture_output=True)
        run(["log", "-1"])
        subprocess.run([ops._git_executable(root), "clone", url], cwd=root)
    def forward(ops, cwd, *argv):
        return subprocess.run([_git_executable(ops, cwd), *argv], cwd=cwd)
    def use(ops, cwd):
        return forward(ops, cwd, "status"), forward(ops, cwd, "fetch")
    """
    assert tfh201(src) == [(12, False), (14, False)]
