"""Which files ``smullyan lint`` picks up: skipped directories, virtualenvs, .gitignore."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from smullyan.linter.discovery import GitIgnore, PathNotFound, discover


def touch(root: Path, *rels: str) -> None:
    for rel in rels:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads the developer's own git config or global excludes file."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    return home


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_walks_python_files_and_reports_paths_relative_to_the_argument(in_tmp: Path) -> None:
    touch(in_tmp, "a.py", "pkg/b.py", "pkg/sub/c.py", "notes.txt", "pkg/data.json")
    assert sorted(discover(["."])) == ["a.py", "pkg/b.py", "pkg/sub/c.py"]
    assert sorted(discover(["pkg"])) == ["pkg/b.py", "pkg/sub/c.py"]
    assert sorted(discover(["./pkg/"])) == ["pkg/b.py", "pkg/sub/c.py"]


@pytest.mark.parametrize(
    "skipped",
    [".git", ".hg", ".venv", "venv", ".tox", ".nox", "build", "dist", "__pycache__",
     "node_modules", ".smullyan_cache"],
)
def test_skips_tool_directories(in_tmp: Path, skipped: str) -> None:
    touch(in_tmp, "keep.py", f"{skipped}/x.py", f"pkg/{skipped}/y.py")
    assert discover(["."]) == ["keep.py"]


def test_skips_any_directory_holding_pyvenv_cfg(in_tmp: Path) -> None:
    touch(in_tmp, "keep.py", "myenv/lib/site.py")
    (in_tmp / "myenv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert discover(["."]) == ["keep.py"]
    # named on the command line, it is linted all the same
    assert discover(["myenv"]) == ["myenv/lib/site.py"]


def test_explicit_files_are_linted_even_if_ignored_or_not_py(in_tmp: Path) -> None:
    touch(in_tmp, "build/gen.py", "script", "ignored.py")
    (in_tmp / ".gitignore").write_text("ignored.py\n")
    assert discover(["."]) == []
    assert discover(["build/gen.py", "script", "ignored.py"]) == ["build/gen.py", "script", "ignored.py"]


def test_missing_path_raises(in_tmp: Path) -> None:
    with pytest.raises(PathNotFound, match="nope.py"):
        discover(["nope.py"])


def test_overlapping_arguments_list_each_file_once(in_tmp: Path) -> None:
    touch(in_tmp, "pkg/a.py")
    assert discover(["pkg", ".", "pkg/a.py"]) == ["pkg/a.py"]


def test_gitignore_patterns(in_tmp: Path) -> None:
    touch(
        in_tmp,
        "keep.py",
        "gen_a.py",
        "docs/conf.py",
        "src/docs/keep2.py",
        "logs/x.py",
        "src/logs.py",
        "deep/a/b/generated/z.py",
        "important_gen.py",
        "tmp/one.py",
        "#hash.py",
    )
    (in_tmp / ".gitignore").write_text(
        "# a comment\n"
        "\n"
        "gen_*.py\n"          # glob, any depth
        "/docs/\n"            # anchored, directory only
        "logs/\n"             # directory only: src/logs.py (a file) stays
        "**/generated/\n"     # leading **
        "tmp/**\n"            # trailing **
        "important_*.py\n"
        "!important_gen.py\n"  # negation, last match wins
        "\\#hash.py\n"         # escaped #
    )
    assert sorted(discover(["."])) == ["important_gen.py", "keep.py", "src/docs/keep2.py", "src/logs.py"]


def test_nested_gitignore_applies_to_its_subtree_only(in_tmp: Path) -> None:
    touch(in_tmp, "a/secret.py", "b/secret.py", "a/inner/keep.py", "a/inner/secret.py")
    (in_tmp / "a" / ".gitignore").write_text("secret.py\n")
    (in_tmp / "a" / "inner" / ".gitignore").write_text("!secret.py\n")
    assert sorted(discover(["."])) == ["a/inner/keep.py", "a/inner/secret.py", "b/secret.py"]


def test_gitignore_above_the_linted_directory_applies_inside_a_repo(in_tmp: Path) -> None:
    (in_tmp / ".git").mkdir()
    (in_tmp / ".gitignore").write_text("src/generated/\n*_pb2.py\n")
    (in_tmp / ".git" / "info").mkdir()
    (in_tmp / ".git" / "info" / "exclude").write_text("local.py\n")
    touch(in_tmp, "src/generated/g.py", "src/mod.py", "src/api_pb2.py", "src/local.py")
    os.chdir(in_tmp / "src")
    assert discover(["."]) == ["mod.py"]
    os.chdir(in_tmp)
    assert discover(["src"]) == ["src/mod.py"]


def test_a_file_below_an_ignored_directory_cannot_be_re_included(in_tmp: Path) -> None:
    touch(in_tmp, "out/keep.py")
    (in_tmp / ".gitignore").write_text("out/\n!out/keep.py\n")
    assert discover(["."]) == []


# Differential test: our matcher against git itself on the same patterns and paths.
PATTERNS = [
    "*.pyc", "build/", "/top.py", "a/**/z.py", "**/cache", "doc/*.py", "!doc/keep.py",
    "x?.py", "[ab]c.py", "[!q]q.py", "dir/**", "name", "foo/bar/", "\\!bang.py", "sp\\ ace.py",
]
PATHS = [
    ("m.pyc", False), ("sub/m.pyc", False), ("build", True), ("sub/build", True), ("sub2/build", False),
    ("top.py", False), ("sub/top.py", False), ("a/z.py", False), ("a/b/c/z.py", False),
    ("b/a/z.py", False), ("cache", True), ("p/q/cache", True), ("p/cache", False),
    ("doc/x.py", False), ("doc/keep.py", False), ("doc/sub/x.py", False), ("x1.py", False),
    ("x12.py", False), ("ac.py", False), ("cc.py", False), ("qq.py", False), ("aq.py", False),
    ("dir/f.py", False), ("dir/g/h.py", False), ("name", False), ("p/name", True),
    ("foo/bar", True), ("x/foo/bar", True), ("!bang.py", False), ("sp ace.py", False),
]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_matcher_agrees_with_git_check_ignore(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("\n".join(PATTERNS) + "\n")
    for rel, is_dir in PATHS:
        p = tmp_path / rel
        if is_dir:
            p.mkdir(parents=True, exist_ok=True)
            (p / ".keep").write_text("")
        elif not p.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text("")
    query = "\n".join(rel + ("/" if is_dir else "") for rel, is_dir in PATHS) + "\n"
    proc = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin", "-v", "-n"],
        cwd=tmp_path, input=query, capture_output=True, text=True,
    )
    git_ignored: set[str] = set()
    for line in proc.stdout.splitlines():
        source, _tab, path = line.partition("\t")
        pattern = source.split(":", 2)[2] if source.count(":") >= 2 else ""
        if source != "::" and not pattern.startswith("!"):
            git_ignored.add(path.rstrip("/"))
    ours = GitIgnore.from_lines(tmp_path, PATTERNS)
    our_ignored = {rel for rel, is_dir in PATHS if ours.match(str(tmp_path / rel), is_dir)}
    assert len(git_ignored) >= 18  # the query really exercised git
    assert our_ignored == git_ignored


def _repo(root: Path) -> None:
    (root / ".git").mkdir()
    touch(root, "app.py", "gen_models.py", "sub/gen_x.py", "scratch.py")


def test_global_excludes_file_from_gitconfig(in_tmp: Path, own_home: Path) -> None:
    _repo(in_tmp)
    (own_home / ".gitconfig").write_text('[user]\n\tname = x\n[core]\n\texcludesFile = "~/my ignore"  \n')
    (own_home / "my ignore").write_text("gen_*.py\n")
    assert discover(["."]) == ["app.py", "scratch.py"]
    # the repository's own config wins, and an empty value turns the file off
    (in_tmp / ".git" / "config").write_text("[core]\n    excludesfile =\n")
    assert discover(["."]) == ["app.py", "gen_models.py", "scratch.py", "sub/gen_x.py"]


def test_global_excludes_default_location_and_precedence(
    in_tmp: Path, own_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _repo(in_tmp)
    (own_home / ".config" / "git").mkdir(parents=True)
    (own_home / ".config" / "git" / "ignore").write_text("gen_*.py\nscratch.py\n")
    (in_tmp / ".gitignore").write_text("!scratch.py\n")  # a .gitignore outranks the global file
    assert discover(["."]) == ["app.py", "scratch.py"]
    xdg = own_home / "xdg"
    (xdg / "git").mkdir(parents=True)
    (xdg / "git" / "ignore").write_text("app.py\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert discover(["."]) == ["gen_models.py", "scratch.py", "sub/gen_x.py"]


def test_global_excludes_file_does_not_apply_outside_a_repository(in_tmp: Path, own_home: Path) -> None:
    touch(in_tmp, "app.py", "gen_models.py")
    (own_home / ".config" / "git").mkdir(parents=True)
    (own_home / ".config" / "git" / "ignore").write_text("gen_*.py\n")
    assert discover(["."]) == ["app.py", "gen_models.py"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_global_excludes_agree_with_git(tmp_path: Path, own_home: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    touch(repo, "app.py", "gen_models.py", "sub/gen_x.py", "scratch.py")
    (own_home / ".gitconfig").write_text("[core]\n\texcludesFile = ~/ignores\n")
    (own_home / "ignores").write_text("gen_*.py\n")
    proc = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"], cwd=repo, capture_output=True, text=True, check=True
    )
    ours = sorted(os.path.relpath(p, repo) for p in discover([str(repo)]))
    assert ours == sorted(proc.stdout.split()) == ["app.py", "scratch.py"]


# --------------------------------------------------------------------------- issue 26, item 7: nothing skipped silently


def test_a_symlinked_directory_in_a_walk_is_skipped_with_a_warning(in_tmp: Path) -> None:
    touch(in_tmp, "real/a.py", "pkg/b.py")
    os.symlink(in_tmp / "real", in_tmp / "pkg" / "link")
    warnings: list[str] = []
    assert discover(["pkg"], warn=warnings.append) == ["pkg/b.py"]
    assert warnings == [
        "skipped pkg/link: a symbolic link to a directory (links are not followed in a walk; "
        "name it on the command line to lint it)"
    ]
    # named on the command line, it is walked
    assert discover(["pkg/link"], warn=warnings.append) == ["pkg/link/a.py"]
    assert len(warnings) == 1


def test_symlink_loops_do_not_hang(in_tmp: Path) -> None:
    touch(in_tmp, "top/a.py", "top/sub/b.py")
    os.symlink(in_tmp / "top", in_tmp / "top" / "sub" / "up")  # top/sub/up -> top: a loop
    os.symlink("self", in_tmp / "top" / "self")  # a link to itself (never resolves)
    warnings: list[str] = []
    assert discover(["top"], warn=warnings.append) == ["top/a.py", "top/sub/b.py"]
    assert warnings == ["skipped top/sub/up: a symbolic link to a directory (links are not followed in a walk; "
                        "name it on the command line to lint it)"]
    assert discover(["top/sub/up"], warn=warnings.append) == ["top/sub/up/a.py", "top/sub/up/sub/b.py"]


def test_an_unreadable_directory_is_a_warning_and_the_walk_goes_on(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    touch(in_tmp, "pkg/a.py", "pkg/locked/b.py", "pkg/z/c.py")
    locked = str(in_tmp / "pkg" / "locked")
    real_scandir = os.scandir

    def scandir(path: str) -> object:  # root reads every directory: refuse this one as a chmod 000 would
        if os.path.abspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    warnings: list[str] = []
    assert discover(["pkg"], warn=warnings.append) == ["pkg/a.py", "pkg/z/c.py"]
    assert warnings == ["cannot read directory pkg/locked: Permission denied; its files are not linted"]
    warnings.clear()
    assert discover(["pkg/locked"], warn=warnings.append) == []
    assert warnings == ["cannot read directory pkg/locked: Permission denied; its files are not linted"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads every directory")
def test_a_chmod_000_directory_is_a_warning(in_tmp: Path) -> None:
    touch(in_tmp, "pkg/a.py", "pkg/locked/b.py")
    (in_tmp / "pkg" / "locked").chmod(0)
    try:
        warnings: list[str] = []
        assert discover(["pkg"], warn=warnings.append) == ["pkg/a.py"]
        assert [w.split(":")[0] for w in warnings] == ["cannot read directory pkg/locked"]
    finally:
        (in_tmp / "pkg" / "locked").chmod(0o755)


def test_the_cli_prints_the_warnings_and_goes_on(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from smullyan.linter.cli import main

    (in_tmp / "pkg").mkdir()
    (in_tmp / "pkg" / "bad.py").write_text("import requests\nrequests.get('u')\n")
    touch(in_tmp, "real/a.py")
    os.symlink(in_tmp / "real", in_tmp / "pkg" / "link")
    assert main(["lint", "--no-cache", "--format", "concise", "pkg"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("pkg/bad.py:2:1: TFH201")
    assert err.splitlines() == ["smullyan: warning: skipped pkg/link: a symbolic link to a directory (links are not "
                                "followed in a walk; name it on the command line to lint it)"]
    assert main(["lint", "--no-cache", "--quiet", "pkg"]) == 1
    assert capsys.readouterr().err == ""  # --quiet: the findings and nothing else


def test_a_file_that_cannot_be_read_is_tfh001_and_the_run_goes_on(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins
    import io

    from smullyan.linter.cli import main

    touch(in_tmp, "pkg/locked.py")
    (in_tmp / "pkg" / "bad.py").write_text("import requests\nrequests.get('u')\n")
    locked = str(in_tmp / "pkg" / "locked.py")
    real_open = builtins.open

    def refusing_open(file: object, *args: object, **kwargs: object) -> object:  # as a chmod 000 would, for root too
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == locked:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", refusing_open)
    monkeypatch.setattr(io, "open", refusing_open)
    assert main(["lint", "--no-cache", "-j1", "--format", "concise", "pkg"]) == 1
    out = capsys.readouterr().out
    assert "pkg/bad.py:2:1: TFH201" in out
    assert "pkg/locked.py:1:1: TFH001 could not parse: cannot read file: Permission denied" in out
