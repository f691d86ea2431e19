"""Session 54 (issue 23): an interactive session a process opens for the person at the terminal (`kubectl exec -it POD --
bash`, `docker run -it`, `ssh -t host`, `ssh host` with no command) is theirs to end: TFH201/TFH203 stay silent when
it is started attached (nothing captured), and the fix never writes a timeout on one (a blind batch found `--fix`
adding `timeout=30` to `kubectl exec -it`, which would kill the person's shell after 30 s)."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter import fixes
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import interactive_session
from split_support import BOTH, SPLIT

N = None  # a word the code does not spell


@pytest.mark.parametrize("argv", [
    ["kubectl", "exec", "-it", N, "--", "bash"], ["kubectl", "exec", "-ti", "-n", "ns", N, "--", "sh"],
    ["kubectl", "-n", "ns", "exec", "-it", N], ["kubectl", "exec", "--stdin", "--tty", N, "--", "sh"],
    ["kubectl", "exec", "-i", "-t", N], ["kubectl", "attach", "-it", N], ["kubectl", "run", "-it", "--rm", N],
    ["oc", "exec", "-it", N, "--", "bash"], ["docker", "exec", "-it", N, "bash"], ["docker", "run", "--rm", "-it", N],
    ["docker", "run", "--rm", "-v", "a:/b", "-it", N], ["docker", "container", "exec", "-it", N, "sh"],
    ["podman", "exec", "--interactive", "--tty", N, "sh"], ["/usr/bin/docker", "attach", N], ["nerdctl", "run", "-it", N],
    ["ssh", "-t", N], ["ssh", "-tt", N, "tmux attach"], ["ssh", "-p", "2222", "-t", N, "htop"], ["ssh", N],
    ["ssh", "-F", N, N], ["ssh", "-o", "BatchMode=no", N], ["ssh", "-p22", N],
])
def test_interactive_sessions(argv: list[str | None]) -> None:
    assert interactive_session(argv, True)


@pytest.mark.parametrize("argv, complete", [
    (["kubectl", "exec", N, "--", "ls"], True), (["kubectl", "exec", "-i", N, "--", "sh"], True),
    (["kubectl", "get", "pods", "-t"], True), (["docker", "exec", N, "grep", "-it", "x"], True),
    (["docker", "run", "-itd", N], True), (["docker", "run", "-it", "--detach", N], True),
    (["docker", "attach", "--no-stdin", N], True), (["docker", "build", "-t", N, "."], True),
    (["ssh", N, "uptime"], True), (["ssh", N], False), (["ssh", "-N", "-L", "8080:x:80", N], True),
    (["ssh", "-T", N], True), (["ssh", "-t", "-n", N], True), (["ssh", "-O", "exit", N], True),
    (["ssh-keygen", "-t", "ed25519"], True), (["scp", N, N], True), ([N, "exec", "-it"], True), ([], True),
])
def test_not_interactive_sessions(argv: list[str | None], complete: bool) -> None:
    assert not interactive_session(argv, complete)


def lines(src: str) -> list[int]:
    return [f.line for f in lint_source(textwrap.dedent(src), "m.py", BOTH) if f.code in SPLIT]


def test_a_session_on_the_terminal_is_silent_captured_it_is_reported() -> None:
    src = """\
    import subprocess
    def shell(pod, container, host, args, target):
        subprocess.run(["kubectl", "exec", "-it", pod, "--", "bash"])
        subprocess.run(["docker", "exec", "-it", container, "sh"])
        subprocess.run(["ssh", "-t", host])
        subprocess.run(["ssh", host])
        proc = subprocess.Popen(["kubectl", "attach", "-it", pod])
        proc.wait()
        subprocess.run(f"docker exec -it {container} bash", shell=True)
        subprocess.run(["kubectl", "exec", "-it", pod, "--", "ls"], capture_output=True)
        subprocess.run(["ssh", "-t", host, "ls"], stdout=subprocess.PIPE)
        subprocess.run(["kubectl", "exec", pod, "--", "ls"])
        subprocess.run(["ssh", host, *args])
        subprocess.run(f"ssh {target}", shell=True)
        subprocess.run(f"ssh -t {target}", shell=True)
    """
    assert lines(src) == [10, 11, 12, 13, 14]


def test_no_fix_writes_a_timeout_on_a_session() -> None:
    src = textwrap.dedent("""\
    import subprocess
    def shell(pod, host):
        subprocess.run(["kubectl", "exec", "-it", pod, "--", "bash"], capture_output=True)
        subprocess.run(["kubectl", "exec", "--stdin", "--tty", pod, "--", "sh"], **{"check": True})
        subprocess.run(["kubectl", "exec", pod, "--", "ls"], capture_output=True)
    """)
    fixed = fixes.fix_text(src, "m.py", Config(), unsafe=True).text.splitlines()
    assert "timeout" not in fixed[2] and "timeout" not in fixed[3]
    assert fixed[4].endswith("timeout=30)")


def test_a_session_built_by_a_method_is_read_through_it() -> None:
    src = """\
    import subprocess
    class Remote:
        def ssh_base(self):
            return ["ssh", "-o", "BatchMode=yes", self.host]
        def run_interactive(self, line):
            full = [*self.ssh_base(), "-t", "--", line]
            return subprocess.run(full).returncode
        def run(self, line):
            full = [*self.ssh_base(), "--", line]
            return subprocess.run(full).returncode
        def run_captured(self, line):
            return subprocess.run([*self.ssh_base(), "-t", "--", line], capture_output=True)
    """
    assert lines(src) == [10, 12]
