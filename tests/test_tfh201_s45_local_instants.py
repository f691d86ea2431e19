"""Session 45 (issue 23, batch 17's TFH201 false findings after s44): a local instant as a property of the knowledge
(``LOCAL_INSTANT_SUBCOMMANDS``: a local daemon's, a multiplexer's or the desktop's client asked only about or to set
this machine's state), and a helper handed its whole command read through its module's literal lists."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import (
    LOCAL_INSTANT_SUBCOMMANDS, Knowledge, interactive_process, local_instant, local_program, remote_cli,
)
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)


def tfh201(src: str, path: str = "m.py") -> list[int]:
    return [f.line for f in lint_source(textwrap.dedent(src), path, BOTH) if f.code in SPLIT]


@pytest.mark.parametrize("argv", [
    ["ollama", "show", "llama3", "--json"], ["ollama", "list"], ["ollama", "ps"],
    ["adb", "start-server"], ["adb", "devices", "-l"], ["adb", "kill-server"],
    ["tmux", "send-keys", "-t", "s", "ls", "Enter"], ["tmux", "capture-pane", "-p"], ["tmux", "kill-session", "-t", "s"],
    ["tmux", "new-session", "-d", "-s", "s"], ["tmux", "new-session", "-ds", "s"], ["tmux", "has-session", "-t", "s"],
    ["Set-Clipboard"], ["powershell", "-command", "Set-Clipboard"],
])
def test_local_instants_are_silent(argv: list[str]) -> None:
    assert interactive_process(argv) is not None
    assert local_program(argv, True) is not None


@pytest.mark.parametrize("argv", [
    ["ollama", "pull", "llama3"], ["ollama", "run", "llama3"], ["adb", "shell", "ls"], ["adb", "-s", "x", "devices"],
    ["adb", "pull", "/sdcard/x"], ["tmux", "new-session", "-s", "s"], ["tmux", "attach", "-t", "s"], ["ollama"],
])
def test_the_programs_other_sub_commands_keep_their_reading(argv: list[str]) -> None:
    assert not local_instant(argv)
    if argv[0] != "tmux":  # an attached tmux session is a terminal UI: silent as the person's, not as an instant
        assert local_program(argv, True) is None


def test_the_table_is_knowledge_data() -> None:
    assert Knowledge.build().interactive_process(["ollama", "list"]) is not None
    assert {"ollama", "adb", "tmux"} <= set(LOCAL_INSTANT_SUBCOMMANDS)
    assert not remote_cli(["adb", "devices"])  # TFH402's reading agrees: a local daemon's instant is not remote


def test_a_helper_handed_whole_literal_lists() -> None:
    src = """\
    import subprocess
    def _run(cmd, cwd):
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True)
    def cleanup(root, path, branch):
        _run(["git", "diff", "--stat"], root)
        _run(["git", "worktree", "remove", "--force", path], cwd=root)
        _run(("git", "branch", "-D", branch), root)
    class Repo:
        def _git(self, cmd):
            return subprocess.check_output(cmd, text=True)
        def head(self):
            return self._git(["git", "rev-parse", "HEAD"])
    """
    assert tfh201(src) == []


@pytest.mark.parametrize("call", [
    '_run(["git", "push", "origin", branch], root)',  # remote
    '_run(cmd, root)',  # a name: built elsewhere
    '_run([git, "status"], root)',  # no literal program
    '_run(*argv)',  # spread
    '_run(["git", "merge", branch], root)',  # may wait for a person
])
def test_a_helper_handed_anything_else_stays_reported(call: str) -> None:
    src = f"""\
    import subprocess
    def _run(cmd, cwd):
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    def use(root, branch, cmd, git, argv):
        _run(["git", "status"], root)
        {call}
    """
    assert tfh201(src) == [3]


def test_a_helper_another_project_module_imports_stays_reported(tmp_path: Path) -> None:
    helper = textwrap.dedent("""\
        import subprocess
        def _run(cmd):
            return subprocess.check_output(cmd, text=True)
        def root():
            return _run(["git", "rev-parse", "--show-toplevel"])
        """)
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/git.py").write_text(helper)
    (tmp_path / "app/alone.py").write_text(helper)
    (tmp_path / "app/cli.py").write_text("from .git import _run\n\ndef go(argv):\n    return _run(argv)\n")
    assert tfh201(helper, str(tmp_path / "app/git.py")) == [3]
    assert tfh201(helper, str(tmp_path / "app/alone.py")) == []


@pytest.mark.parametrize(("argv", "silent"), [
    (["git", "merge", "b", "--no-edit", "-m", "msg"], True), (["git", "merge", "--abort"], True),
    (["git", "merge", "--ff-only", "b"], True), (["git", "revert", "--no-edit", "x"], True),
    (["git", "cherry-pick", "-n", "x"], True), (["git", "rebase", "--abort"], True),
    (["git", "merge", "b"], False), (["git", "revert", "x"], False), (["git", "rebase", "main"], False),
    (["git", "rebase", "-m", "main"], False), (["git", "cherry-pick", "-e", "x"], False),
])
def test_a_merge_that_cannot_open_an_editor(argv: list[str], silent: bool) -> None:
    assert (local_program(argv, True) is not None) is silent


def test_a_merge_with_its_message_after_an_unspelled_branch() -> None:
    # dobby: `_run(["git", "merge", branch, "--no-edit", "-m", msg], cwd)`: the flags after the branch are read
    src = """\
    import asyncio
    async def _run(cmd, cwd):
        proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE, cwd=cwd)
        out, _ = await proc.communicate()
        return out
    async def land(root, branch, msg):
        await _run(["git", "merge", branch, "--no-edit", "-m", msg], cwd=root)
        await _run(["git", "merge", "--abort"], cwd=root)
    """
    assert tfh201(src) == []
    assert tfh201(src.replace('"--no-edit", "-m", msg', '"--stat"')) == [4]


def test_the_editor_held_in_a_field_of_an_editor_options_object() -> None:
    src = """\
    import shlex, subprocess
    class EditorConfig:
        command: str
    def edit(cfg: EditorConfig, path):
        subprocess.run([*shlex.split(cfg.command), path])
    def run(cfg: "Settings", path):
        subprocess.run([*shlex.split(cfg.command), path])
    """
    assert tfh201(src) == [7]
