"""TFH402: a project class whose method runs only local programs is local work (s48, issue 24; batch 19: repoheart's
``GitRepo.get_merge_base`` running ``git merge-base`` through ``self._run``, 1 false; batch 20: brindle's keychain store
running ``security``/``secret-tool``, a module importing ``subprocess`` read as leaving the machine)."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter import engine
from smullyan.linter.config import Config

GIT_REPO = '''
import subprocess
from pathlib import Path


class GitRepo:
    def __init__(self, path="."):
        self._path = Path(path)

    def get_merge_base(self, a, b):
        return self._run("merge-base", a, b).stdout.strip()

    def fetch_remote_branch(self, name):
        return self._run("fetch", "origin", name).stdout

    def run_git_command(self, *argv):
        return self._run(*argv).stdout

    def _run(self, *args, check=True):
        cmd = ["git", *args]
        return subprocess.run(cmd, cwd=self._path, capture_output=True, text=True, check=check)
'''

KEYCHAIN = '''
import subprocess


def _security(args):
    return subprocess.run(["security", *args], capture_output=True, text=True)


class KeychainSecretStore:
    def load_secret(self):
        return _security(["find-generic-password", "-s", "app", "-w"]).stdout


class CloudSecretStore:
    def load_secret(self):
        return subprocess.run(["aws", "secretsmanager", "get-secret-value"], capture_output=True).stdout
'''

CALLER = '''
from app.git_repo import GitRepo


def conflicts(repo: GitRepo, a, b):
    try:
        base = repo.get_merge_base(a, b)
    except Exception:
        return []
    return [base]


def fetched(repo: GitRepo, name):
    try:
        return repo.fetch_remote_branch(name)
    except Exception:
        return ""


def anything(repo: GitRepo, argv):
    try:
        return repo.run_git_command(*argv)
    except Exception:
        return ""


def keychain_secret(keychain_store):
    try:
        return keychain_store.load_secret()
    except Exception:
        return None


def cloud_secret(cloud_store):
    try:
        return cloud_store.load_secret()
    except Exception:
        return None
'''


def _project(tmp_path: Path) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "git_repo.py").write_text(GIT_REPO)
    (tmp_path / "app" / "keychain.py").write_text(KEYCHAIN)
    caller = tmp_path / "app" / "ops.py"
    caller.write_text(CALLER)
    return caller


def _lines(path: Path) -> list[int]:
    return [f.line for f in engine.lint_source(path.read_bytes(), str(path), Config.default()) if f.code == "TFH402"]


def test_a_project_method_whose_every_program_is_local_is_no_remote_read(tmp_path: Path) -> None:
    # at the base: also 8 and 30. ``git merge-base`` through the class's own wrapper, ``security`` through the module's: silent; ``git fetch``, a
    # sub-command from the caller (``run_git_command(*argv)``) stay reported; s49: ``cloud_store.load_secret()`` on an
    # unannotated parameter is silent (a receiver's name is no evidence of a remote read, issue 24)
    assert _lines(_project(tmp_path)) == [16, 23]
