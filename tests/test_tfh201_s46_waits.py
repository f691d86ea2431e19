"""Session 46 (issue 23, batch 18's TFH201 false findings): an interactive sign-in started on the person's terminal
(``knowledge.SIGN_IN_SUBCOMMANDS``), a helper handed its command as ``*args``, and a helper's argument handed on by a
private helper of the module (one more level of callers). Each finding here is reported at the base (96c29dd)."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import interactive_sign_in, sign_in_subcommand
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)



def tfh201(src: str, path: str = "m.py") -> list[int]:
    return [f.line for f in lint_source(textwrap.dedent(src), path, BOTH) if f.code in SPLIT]


@pytest.mark.parametrize("argv", [
    ["gh", "auth", "login"], ["gh", "auth", "login", "--web", "-h", "github.com"], ["az", "login", "--tenant", "t"],
    ["gcloud", "auth", "login", "--update-adc"], ["gcloud", "auth", "application-default", "login"],
    ["aws", "sso", "login", "--profile", "p"], ["aws", "configure", "sso"], ["docker", "login", "ghcr.io"],
    ["gcloud", "init"], ["/usr/bin/az.exe", "login"], ["heroku", "login"],
])
def test_interactive_sign_ins(argv: list[str]) -> None:
    assert interactive_sign_in(argv)


@pytest.mark.parametrize("argv", [
    ["gh", "auth", "login", "--with-token"], ["gh", "auth", "status"], ["gh", "auth", "token"],
    ["az", "login", "--identity"], ["az", "login", "--service-principal", "-u", "x", "-p", "y"],
    ["az", "login", "--federated-token", "t"], ["gcloud", "auth", "login", "--cred-file=k.json"],
    ["gcloud", "auth", "print-access-token"], ["docker", "login", "--password-stdin"], ["docker", "pull", "x"],
    ["git", "init"], ["az", "account", "show"], [],
])
def test_non_interactive_forms_are_not_sign_ins(argv: list[str]) -> None:
    assert not interactive_sign_in(argv)


def test_a_sign_in_of_a_program_found_at_run_time() -> None:
    assert sign_in_subcommand(["sso", "login"]) and sign_in_subcommand(["login"])
    assert not sign_in_subcommand(["login", "--with-token"]) and not sign_in_subcommand(["auth", "status"])


def test_a_sign_in_on_the_terminal_is_silent_captured_it_is_reported() -> None:
    src = """\
    import shutil, subprocess
    def sign_in(platform, sso):
        exe = shutil.which(platform)
        cmd = [exe, "sso", "login"] if sso else [exe, "login"]
        ok = subprocess.run(cmd).returncode == 0
        subprocess.run(["gh", "auth", "login"], stdout=None)
        subprocess.run(["gh", "auth", "login"], capture_output=True)
        subprocess.run(["az", "login", "--identity"])
        subprocess.run(["docker", "login", "--username", user, "--password-stdin", endpoint])
        return ok
    """
    assert tfh201(src) == [7, 8, 9]
    given = """\
    import subprocess
    def sign_in(exe, user):
        subprocess.run([exe, "login", "--username", user, "--with-token"])
        subprocess.run([exe, "login", "--username", user])
    """
    assert tfh201(given) == [3]


def test_no_fix_on_a_captured_sign_in() -> None:
    src = 'import subprocess\ndef f():\n    subprocess.run(["az", "login"], capture_output=True)\n'
    (finding,) = [f for f in lint_source(src, "m.py", BOTH) if f.code in SPLIT]
    assert finding.fix is None and "sign-in" in finding.message
    src = ('import subprocess\ndef f(u, p):\n    subprocess.run(["docker", "login", "-u", u, "--password-stdin"], input=p,'
           ' capture_output=True)\n')
    (finding,) = [f for f in lint_source(src, "m.py", BOTH) if f.code in SPLIT]
    assert "sign-in" not in finding.message


def test_star_args_helpers_read_per_call() -> None:
    src = """\
    import asyncio
    async def _run_exec(*args):
        proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        return out
    async def paste():
        return await _run_exec("pbpaste") or await _run_exec("wl-paste", "--no-newline")
    """
    assert tfh201(src) == []
    assert tfh201(src + '    await _run_exec("powershell", "-Command", script)\n') == [4]
    assert tfh201(src + '    await _run_exec("git", "fetch")\n') == [4]


def test_a_parameter_handed_on_one_level() -> None:
    src = """\
    import subprocess
    class D:
        def _git(self, args):
            return subprocess.run(["git", *args], stdout=subprocess.PIPE)
        def _names(self, args):
            return self._git(args)
        def use(self, a):
            return self._names(["diff", "--name-only", a]), self._git(["rev-parse", "HEAD"])
    """
    assert tfh201(src) == []
    assert tfh201(src.replace('"diff", "--name-only", a', '"push", "origin"')) == [4]
    assert tfh201(src.replace("def _names", "def names").replace("self._names", "self.names")) == [4]
