"""The pre-commit hook (``.pre-commit-hooks.yaml``), run by pre-commit itself.

pre-commit installs a hook repository at a commit: ``try-repo`` uses the HEAD
commit of the repository it is given, plus only the *tracked* files' uncommitted
changes.  So that the test exercises this working tree exactly as it is (new,
uncommitted files included), it first snapshots the checkout (every file git
does not ignore) into a fresh repository with one commit, and points pre-commit
at that.  pre-commit then builds its own virtualenv from the snapshot (a pip
install, which needs the package index), once for the whole module thanks to a
shared ``PRE_COMMIT_HOME``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

BAD = "import requests\n\n\ndef fetch(url):\n    return requests.post(url)\n"
CLEAN = "import requests\n\n\ndef fetch(url):\n    return requests.post(url, timeout=10)\n"


def _pre_commit_command() -> list[str] | None:
    if importlib.util.find_spec("pre_commit") is not None:
        return [sys.executable, "-m", "pre_commit"]
    exe = shutil.which("pre-commit")
    return [exe] if exe else None


PRE_COMMIT = _pre_commit_command()

pytestmark = [
    pytest.mark.slow,  # pre-commit builds the hook's environment
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed (pip install -e '.[test]')"),
]


def git_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        GIT_AUTHOR_NAME="Test", GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="Test", GIT_COMMITTER_EMAIL="test@example.invalid",
        GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
        PRE_COMMIT_HOME=str(home),
        # the hook env is thrown away after the test: skip byte-compiling its packages
        PIP_NO_COMPILE="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return env


def git(cwd: Path, env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=check)


def _checkout_files() -> list[str]:
    proc = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO, capture_output=True, text=True,
    )
    if proc.returncode == 0:
        return [f for f in proc.stdout.split("\0") if f]
    # not a git checkout (an unpacked sdist): take the tree minus the usual clutter
    skip = {".git", ".venv", "build", "dist", "__pycache__", ".smullyan_cache", ".pytest_cache",
            ".mypy_cache", ".hypothesis", "bench"}
    out = []
    for path in REPO.rglob("*"):
        rel = path.relative_to(REPO)
        if path.is_file() and not (set(rel.parts) & skip) and not rel.parts[0].endswith(".egg-info"):
            out.append(rel.as_posix())
    return out


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return git_env(tmp_path_factory.mktemp("pre-commit-home"))


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> tuple[Path, str]:
    """A one-commit copy of this working tree, as pre-commit will install it."""
    snapshot = tmp_path_factory.mktemp("smullyan-snapshot")
    for rel in _checkout_files():
        src = REPO / rel
        if src.is_file():  # deleted-but-tracked files are skipped
            dst = snapshot / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    assert (snapshot / ".pre-commit-hooks.yaml").is_file()
    git(snapshot, env, "init", "-q")
    git(snapshot, env, "add", "-A")
    git(snapshot, env, "commit", "-q", "--no-verify", "-m", "snapshot")
    rev = git(snapshot, env, "rev-parse", "HEAD").stdout.strip()
    return snapshot, rev


@pytest.fixture
def project(tmp_path: Path, env: dict[str, str]) -> Iterator[Path]:
    git(tmp_path, env, "init", "-q")
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "notes.txt").write_text("requests.post(url)\n")
    yield tmp_path


def pre_commit(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    assert PRE_COMMIT is not None
    return subprocess.run([*PRE_COMMIT, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_try_repo_reports_the_bad_file_and_fails(
    hook_repo: tuple[Path, str], project: Path, env: dict[str, str]
) -> None:
    # try-repo builds the hook's environment in a throw-away store on every call,
    # so one call covers both files; the installed-hook test below shows a clean
    # commit passing and a bad one blocked.
    snapshot, _rev = hook_repo
    git(project, env, "add", "bad.py", "clean.py", "notes.txt")
    proc = pre_commit(project, env, "try-repo", str(snapshot), "smullyan",
                      "--files", "bad.py", "clean.py", "notes.txt")
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "bad.py:5:12: TFH201" in proc.stdout, output
    assert "clean.py:" not in proc.stdout  # nothing to report there
    assert "Failed" in proc.stdout
    # the hook's cache directory ignores itself: the work tree stays clean
    status = git(project, env, "status", "--porcelain", "--untracked-files=all").stdout
    assert ".smullyan_cache" not in status


def test_installed_hook_blocks_the_commit(hook_repo: tuple[Path, str], project: Path, env: dict[str, str]) -> None:
    snapshot, rev = hook_repo
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {snapshot.as_posix()}\n    rev: {rev}\n    hooks:\n      - id: smullyan\n"
    )
    install = pre_commit(project, env, "install")
    assert install.returncode == 0, install.stdout + install.stderr

    git(project, env, "add", ".pre-commit-config.yaml", "clean.py", "notes.txt")
    ok = git(project, env, "commit", "-m", "clean", check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr

    git(project, env, "add", "bad.py")
    blocked = git(project, env, "commit", "-m", "bad", check=False)
    assert blocked.returncode != 0
    assert "bad.py:5:12: TFH201" in blocked.stdout + blocked.stderr
    log = git(project, env, "log", "--format=%s").stdout.split()
    assert log == ["clean"]  # the bad commit did not happen
