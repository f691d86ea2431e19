"""Session 44 (issue 23, batch 16's TFH201 false findings after s43): the local program read through the next
indirection (a function of another project module, a protocol's method the project implements, a helper called as
a method of the object it takes first, a loop over literal sub-commands), and the waits already bounded (a kill done
by the module's own helper or by ``taskkill``, a wait after the output loop reached EOF)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter import imports_disk, imports_programs
from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import local_program
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)



def tfh201(src: str, path: str = "m.py") -> list[int]:
    return [f.line for f in lint_source(textwrap.dedent(src), path, BOTH) if f.code in SPLIT]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


OPS = """\
    import shutil


    def _git_executable(cwd):
        return shutil.which("git") or "git"


    def _kubectl():
        return "kubectl"
    """

SERVICES = """\
    from typing import Protocol


    class Services(Protocol):
        def _git_executable(self, cwd) -> str: ...
    """

FACADE = """\
    from app import ops as _ops


    def _git_executable(cwd):
        return _ops._git_executable(cwd)
    """

CALLER = """\
    import subprocess
    from app import ops
    from app.ops import _git_executable, _kubectl
    from app.services import Services


    def snapshot(root, services: Services):
        subprocess.run([_git_executable(root), "ls-files", "-z"], cwd=root, capture_output=True)
        subprocess.run([ops._git_executable(root), "log", "-1"], cwd=root, capture_output=True)
        subprocess.run([services._git_executable(root), "rev-parse", "HEAD"], cwd=root, capture_output=True)
        subprocess.run([_kubectl(), "get", "pods"], capture_output=True)
        subprocess.run([ops._git_executable(root), "fetch"], cwd=root)
    """


def test_a_program_another_project_module_returns_is_read_from_its_summary(tmp_path: Path) -> None:
    # bello: `from .ops import _git_executable`, `ops._git_executable(root)` (a module), and a protocol's method
    # (`services: Services`) whose every implementation in the project returns git (one through a facade module
    # delegating to `_ops._git_executable`); a remote program (`kubectl get`) or a remote git sub-command is reported
    _write(tmp_path, {"app/__init__.py": "", "app/ops.py": OPS, "app/services.py": SERVICES,
                      "app/facade.py": FACADE, "app/caller.py": CALLER})
    caller = tmp_path / "app/caller.py"
    assert tfh201(caller.read_text(), str(caller)) == [11, 12]
    assert imports_programs.project_program(str(caller), "app.ops._git_executable", "_git_executable") == "git"
    assert imports_programs.project_program(str(caller), "app.services.Services._git_executable", "_git_executable") == "git"
    assert imports_programs.project_program(str(caller), None, "_kubectl") == "kubectl"


def test_implementations_that_disagree_name_no_program(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/ops.py": OPS, "app/services.py": SERVICES,
                      "app/other.py": "def _git_executable(cwd):\n    return 'hg'\n", "app/caller.py": CALLER})
    caller = tmp_path / "app/caller.py"
    assert imports_programs.project_program(str(caller), "app.services.Services._git_executable", "_git_executable") is None
    assert tfh201(caller.read_text(), str(caller)) == [10, 11, 12]


def test_the_summary_keeps_the_returned_program_not_the_tree(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "", "app/ops.py": OPS, "app/facade.py": FACADE, "app/t.py": ""})
    linted = str(tmp_path / "app/t.py")
    assert imports_programs.project_program(linted, "app.facade._git_executable", "_git_executable") == "git"
    parsed = imports_disk._memo[str((tmp_path / "app/facade.py").resolve())]
    assert parsed.summary is not None
    fn = parsed.summary.top["_git_executable"]
    assert isinstance(fn, imports_disk._Func) and fn.program is None and fn.delegate == "_ops._git_executable"


def test_a_helper_called_through_the_object_it_takes_first_and_a_loop_over_literal_sub_commands() -> None:
    # bello: `def _run_git(ops, /, cwd, args)` called as `ops._run_git(root, ["config", ...])`; a closure called
    # with a loop variable over literal sub-commands; `[git, *args]` with `args` a loop variable over literal pairs
    src = """\
    import subprocess
    def _run_git(ops, /, cwd, args):
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    def init(ops, root):
        ops._run_git(root, ["init", "-q"])
        ops._run_git(root, ["config", "--local", "user.name", "x"])
    def scrub(root):
        def run(arguments):
            return subprocess.run(["git", *arguments], cwd=root, capture_output=True)
        for arguments, label in ((["reflog", "expire", "--all"], "expire"), (["prune", "--expire=now"], "prune")):
            run(arguments)
    def capture(root):
        for label, args in (("head", ["rev-parse", "HEAD"]), ("index", ["ls-files", "--stage"])):
            subprocess.run(["git", *args], cwd=root, capture_output=True)
    def remote(root):
        for args in (["fetch"], ["status"]):
            subprocess.run(["git", *args], cwd=root)
    """
    assert tfh201(src) == [17]


def test_git_remote_reads_its_own_configuration() -> None:
    assert local_program(["git", "remote"], True) is not None
    assert local_program(["git", "remote", "remove", "origin"], True) is not None
    assert local_program(["git", "remote"], False) is None  # `["git", "remote", *rest]`: may be `update`
    assert local_program(["git", "remote", "update"], True) is None
    assert local_program(["git", "remote", "show", "origin"], True) is None
    assert local_program(["git", "remote", "add", "-f", "o", "u"], True) is None


def test_a_wait_after_the_module_s_own_kill_helper_or_taskkill() -> None:
    # bello: the deadline loop's kill is `_abort_and_recover(process, ...)`, whose body kills its parameter; the
    # Windows branch kills the tree with `taskkill /PID <pid> /T /F`, then reaps it
    src = """\
    import asyncio
    from asyncio import create_subprocess_exec
    async def _abort_and_recover(process, helper):
        try:
            await asyncio.wait_for(process.wait(), 5)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()
    async def watch(argv, deadline, helper):
        process = await asyncio.create_subprocess_exec(*argv)
        waiter = asyncio.create_task(process.wait())
        done, _ = await asyncio.wait({waiter}, timeout=deadline)
        if not done:
            await _abort_and_recover(process, helper)
        return done
    async def stop(process, taskkill):
        try:
            killer = await create_subprocess_exec("taskkill", "/PID", str(process.pid), "/T", "/F")
            await killer.wait()
        except OSError:
            process.kill()
        await process.wait()
    async def unbounded(argv, helper):
        process = await asyncio.create_subprocess_exec(*argv)
        waiter = asyncio.create_task(process.wait())
        done, _ = await asyncio.wait({waiter}, timeout=5)
        await _abort_and_recover(helper, process)
        return done
    """
    assert tfh201(src) == [25]


def test_a_wait_after_the_output_was_read_to_eof_stays_reported() -> None:
    # decided (s44): lcode's job pump, arbor's run, biomni's 25 GB clone, cognee's installer: the wait returns once
    # the process exits, but the read before it is where it waits, unbounded; silencing the wait would leave the whole
    # process unreported. A local program the code names is silent anyway.
    src = """\
    import subprocess
    class Job:
        proc: subprocess.Popen
        def pump(self):
            for line in self.proc.stdout:
                self.output += line
            self.proc.wait()
    def fetch(folder):
        process = subprocess.Popen(["git", "clone", "https://huggingface.co/org/model", folder], stdout=subprocess.PIPE)
        for line in iter(process.stdout.readline, ""):
            print(line)
        process.wait()
    def local():
        process = subprocess.Popen(["git", "log", "--oneline"], stdout=subprocess.PIPE, text=True)
        for line in process.stdout:
            print(line)
        process.wait()
    """
    assert tfh201(src) == [7, 12]
