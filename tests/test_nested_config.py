"""One configuration per file, whatever the entry point (issue 26, item 1).

One nested tree is linted through the CLI with a directory argument, through the CLI with
file arguments, through flake8 (the plugin, in a real flake8 run) and through pre-commit's
command line (pre-commit itself, running the hook's entry on the files it selects): the
findings must be identical, and they must be the ones each file's nearest configuration
asks for.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from smullyan.linter import config_files
from smullyan.linter.config_files import Resolver
from smullyan.linter.discovery import discover

REPO = Path(__file__).resolve().parent.parent

TIMEOUT = "import requests\nrequests.get('u')\nrequests.post('u', timeout=None)\n"  # TFH201 (2:1), TFH202 (3:1)
SWALLOW = "def call_tool():\n    try:\n        g()\n    except Exception as e:\n        return str(e)\n"  # TFH401
MYLIB = "import mylib\nmylib.call('x')\n"  # TFH201 only where `timeout-required` names mylib.call

Finding = tuple[str, int, int, str]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """proj/ with a root pyproject, a nested .smullyan.yaml, a nested pyproject and a foreign one."""
    root = tmp_path / "proj"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SMULLYAN_CACHE_DIR", raising=False)
    write(root / "pyproject.toml", '[tool.smullyan]\nignore = ["TFH202"]\n')
    write(root / "pkg" / "a.py", TIMEOUT + MYLIB.replace("import mylib\n", "import mylib  # a\n"))
    write(root / "pkg" / "swallow.py", SWALLOW)
    # pkg/sub: its own YAML; no inheritance, so TFH202 is back on; mylib.call needs a timeout here
    write(root / "pkg" / "sub" / ".smullyan.yaml",
          "select: [TFH2]\ntimeout-required: [mylib.call]\nper-file-ignores:\n  'gen_*.py': [TFH201]\n")
    write(root / "pkg" / "sub" / "x.py", TIMEOUT + MYLIB + SWALLOW)
    write(root / "pkg" / "sub" / "gen_y.py", TIMEOUT)
    # pkg/sub/deeper: a nested pyproject; its extend-exclude holds below it, in a walk and when named
    write(root / "pkg" / "sub" / "deeper" / "pyproject.toml",
          '[tool.smullyan]\nselect = ["TFH4"]\nextend-exclude = ["skipme"]\n')
    write(root / "pkg" / "sub" / "deeper" / "z.py", TIMEOUT + SWALLOW)
    write(root / "pkg" / "sub" / "deeper" / "skipme" / "w.py", TIMEOUT + SWALLOW)
    # a pyproject.toml without [tool.smullyan] configures nothing: pkg/other gets the root's
    write(root / "pkg" / "other" / "pyproject.toml", '[project]\nname = "other"\n')
    write(root / "pkg" / "other" / "o.py", TIMEOUT)
    return root


EXPECTED: set[Finding] = {
    ("pkg/a.py", 2, 1, "TFH201"),  # root config: TFH202 ignored, mylib.call is nothing special
    ("pkg/swallow.py", 5, 9, "TFH401"),
    ("pkg/sub/x.py", 2, 1, "TFH201"),  # .smullyan.yaml: TFH2 only (no TFH401), TFH202 back on
    ("pkg/sub/x.py", 3, 20, "TFH202"),
    ("pkg/sub/x.py", 5, 1, "TFH201"),  # its timeout-required
    ("pkg/sub/gen_y.py", 3, 20, "TFH202"),  # its per-file-ignores, relative to pkg/sub
    ("pkg/sub/deeper/z.py", 8, 9, "TFH401"),  # the nested pyproject: TFH4 only
    ("pkg/other/o.py", 2, 1, "TFH201"),  # the foreign pyproject is skipped: the root's config
}

LINE = re.compile(r"^(?:\./)?(\S+?):(\d+):(\d+): (TFH\d+)", re.M)


def parse(text: str) -> set[Finding]:
    return {(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)) for m in LINE.finditer(text)}


def run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def smullyan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(cwd, sys.executable, "-m", "smullyan", *args)


def python_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))


def cli_directory(root: Path) -> set[Finding]:
    proc = smullyan(root, "lint", "--no-cache", "--format", "json", "pkg")
    assert proc.returncode == 1, proc.stderr
    return {(d["path"], d["line"], d["column"], d["code"]) for d in json.loads(proc.stdout)}


def cli_files(root: Path) -> set[Finding]:
    proc = smullyan(root, "lint", "--no-cache", "--format", "concise", *python_files(root))
    assert proc.returncode == 1, proc.stderr
    return parse(proc.stdout)


def flake8(root: Path) -> set[Finding]:
    proc = run(root, sys.executable, "-m", "flake8", "--isolated", "--select", "TFH", "pkg")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return parse(proc.stdout)


def hook_entry() -> list[str]:
    """The hook's ``entry`` from ``.pre-commit-hooks.yaml``, its program taken from this venv."""
    hook = next(h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text()) if h["id"] == "smullyan")
    program, *rest = shlex.split(hook["entry"])
    assert program == "smullyan"
    script = Path(sys.executable).with_name("smullyan")
    return [str(script) if script.is_file() else f"{sys.executable} -m smullyan", *rest]


def pre_commit(root: Path) -> set[Finding]:
    """pre-commit itself picks the files (``types: [python]``) and runs the hook's entry on them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", PRE_COMMIT_HOME=str(root.parent / "pc-home"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    hook = next(h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text()) if h["id"] == "smullyan")
    local = {"repos": [{"repo": "local", "hooks": [{
        "id": "smullyan", "name": "smullyan", "language": "system", "types": hook["types"],
        "entry": shlex.join(hook_entry()), "args": ["--no-cache"], "require_serial": hook["require_serial"],
    }]}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(local))
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "smullyan"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert "Failed" in proc.stdout, proc.stdout + proc.stderr
    return parse(proc.stdout)


def test_every_entry_point_gives_each_file_its_nearest_configuration(tree: Path) -> None:
    by_directory = cli_directory(tree)
    assert by_directory == EXPECTED
    assert cli_files(tree) == EXPECTED
    assert flake8(tree) == EXPECTED


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_gives_the_same_findings(tree: Path) -> None:
    pytest.importorskip("pre_commit")
    assert pre_commit(tree) == EXPECTED == cli_directory(tree)


def test_an_invalid_nested_configuration_fails_every_entry_point(tree: Path) -> None:
    bad = tree / "pkg" / "sub" / "deeper" / "pyproject.toml"
    bad.write_text('[tool.smullyan]\nselect = ["TFH4"]\nextend-exclud = ["skipme"]\n')
    for args in (["pkg"], ["pkg/sub/deeper/z.py"], python_files(tree)):
        proc = smullyan(tree, "lint", "--no-cache", *args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert proc.stdout == ""
        assert proc.stderr.startswith(f"smullyan: error: {bad}: unknown key `extend-exclud`")
        assert "did you mean `extend-exclude`" in proc.stderr and "Traceback" not in proc.stderr
    proc = run(tree, sys.executable, "-m", "flake8", "--isolated", "--select", "TFH", "pkg")
    assert proc.returncode != 0
    assert f"{bad}: unknown key `extend-exclud`" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_show_settings_says_which_configuration_applied(tree: Path) -> None:
    one = smullyan(tree, "lint", "--show-settings", "pkg/sub/x.py")
    assert one.returncode == 0, one.stderr
    assert f"# configuration file: {tree / 'pkg' / 'sub' / '.smullyan.yaml'}" in one.stdout
    assert f'select = ["TFH2"]  # {tree / "pkg" / "sub" / ".smullyan.yaml"}' in one.stdout
    assert 'timeout-required = ["mylib.call"]' in one.stdout
    assert one.stdout.count("# configuration file:") == 1
    walk = smullyan(tree, "lint", "--show-settings", "pkg").stdout
    blocks = {re.search(r"# configuration file: (.*)", b).group(1): b for b in walk.split("\n\n")}
    assert set(blocks) == {str(tree / "pyproject.toml"), str(tree / "pkg" / "sub" / ".smullyan.yaml"),
                           str(tree / "pkg" / "sub" / "deeper" / "pyproject.toml")}
    assert "pkg/sub/x.py" in blocks[str(tree / "pkg" / "sub" / ".smullyan.yaml")]
    assert "# files: 2 " in blocks[str(tree / "pkg" / "sub" / ".smullyan.yaml")]  # x.py, gen_y.py
    assert "# files: 1 " in blocks[str(tree / "pkg" / "sub" / "deeper" / "pyproject.toml")]  # skipme/ excluded


def test_command_line_settings_override_every_configuration(tree: Path) -> None:
    proc = smullyan(tree, "lint", "--no-cache", "--format", "concise", "--select", "TFH401", "pkg")
    assert parse(proc.stdout) == {("pkg/swallow.py", 5, 9, "TFH401"), ("pkg/sub/x.py", 10, 9, "TFH401"),
                                  ("pkg/sub/deeper/z.py", 8, 9, "TFH401")}


def test_explicit_config_is_used_for_every_file(tree: Path) -> None:
    proc = smullyan(tree, "lint", "--no-cache", "--format", "concise", "--config", "pyproject.toml", "pkg")
    found = parse(proc.stdout)
    assert ("pkg/sub/deeper/skipme/w.py", 2, 1, "TFH201") in found  # the nested extend-exclude is not read
    assert not any(code == "TFH202" for *_rest, code in found)  # the root's ignore holds everywhere


def test_the_cache_follows_the_configuration_of_each_file(tree: Path) -> None:
    cache = ["--cache-dir", str(tree.parent / "cache"), "--format", "concise"]
    first = smullyan(tree, "lint", *cache, "pkg")
    assert parse(first.stdout) == EXPECTED
    # the same files named one by one (pre-commit) hit the same entries and agree
    assert parse(smullyan(tree, "lint", *cache, *python_files(tree)).stdout) == EXPECTED
    # only the nested configuration changes: its files' findings change, from the cache or not
    (tree / "pkg" / "sub" / ".smullyan.yaml").write_text("select: [TFH4]\n")
    after = parse(smullyan(tree, "lint", *cache, "pkg").stdout)
    assert {f for f in after if f[0].startswith("pkg/sub/") and "deeper" not in f[0]} == {
        ("pkg/sub/x.py", 10, 9, "TFH401")}
    assert {f for f in after if not f[0].startswith("pkg/sub/")} == {
        f for f in EXPECTED if not f[0].startswith("pkg/sub/")}
    assert parse(smullyan(tree, "lint", *cache, "pkg/sub/x.py").stdout) == {("pkg/sub/x.py", 10, 9, "TFH401")}


def test_configurations_are_resolved_once_per_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "pyproject.toml", "[tool.smullyan]\n")
    write(tmp_path / "a" / ".smullyan.yaml", "select: [TFH2]\n")
    for d in ("a/b/c", "a/b/d", "e/f"):
        for n in range(3):
            write(tmp_path / d / f"m{n}.py", "x = 1\n")
    looked: list[str] = []
    loaded: list[Path] = []
    real_in, real_load = config_files._config_in, config_files.load_file
    monkeypatch.setattr(config_files, "_config_in", lambda d, names=None: looked.append(d) or real_in(d, names))
    monkeypatch.setattr(config_files, "load_file", lambda p: loaded.append(p) or real_load(p))
    resolver = Resolver()
    found = discover([str(tmp_path)], excludes_for=resolver.excludes_for)  # the walk asks for each directory
    assert len(found) == 9
    files = sorted(tmp_path.rglob("*.py"))
    configs = {f.relative_to(tmp_path).as_posix(): resolver.for_file(f).source for f in files * 3}
    assert len(looked) == len(set(looked))  # each directory looked at once
    assert sorted(loaded) == [tmp_path / "a" / ".smullyan.yaml", tmp_path / "pyproject.toml"]
    assert configs["a/b/c/m0.py"] == str(tmp_path / "a" / ".smullyan.yaml")
    assert configs["e/f/m2.py"] == str(tmp_path / "pyproject.toml")


# --------------------------------------------------------------------------- extend: ruff's explicit inheritance


def test_extend_starts_from_the_named_file(tree: Path) -> None:
    root_cfg = tree / "pyproject.toml"
    root_cfg.write_text('[tool.smullyan]\nignore = ["TFH202"]\nretry-decorators = ["mycorp.retry"]\n'
                        'extend-exclude = ["pkg/sub/generated"]\n'
                        '[tool.smullyan.per-file-ignores]\n"pkg/sub/gen_*.py" = ["TFH201"]\n')
    sub_cfg = tree / "pkg" / "sub" / ".smullyan.yaml"
    sub_cfg.write_text("extend: ../../pyproject.toml\nextend-ignore: [TFH401]\nextend-exclude: [skipped]\n")
    write(tree / "pkg" / "sub" / "generated" / "g.py", TIMEOUT)  # the root's path glob, still relative to the root
    write(tree / "pkg" / "sub" / "skipped" / "s.py", TIMEOUT)
    config = Resolver().for_file(tree / "pkg" / "sub" / "x.py")
    assert config.source == str(sub_cfg)
    assert config.ignore == ("TFH202", "TFH401") and config.retry_decorators == ("mycorp.retry",)
    assert config.origins["retry-decorators"] == str(root_cfg)
    assert config.origins["ignore"] == f"{root_cfg} + {sub_cfg} (extend-ignore)"
    found = parse(smullyan(tree, "lint", "--no-cache", "--format", "concise", "pkg/sub").stdout)
    # gen_y.py: the root's per-file-ignores; generated/ and skipped/: excluded; deeper/ has its own file
    assert found == {("pkg/sub/x.py", 2, 1, "TFH201"), ("pkg/sub/deeper/z.py", 8, 9, "TFH401")}
    named = parse(smullyan(tree, "lint", "--no-cache", "--format", "concise",
                           *[f for f in python_files(tree) if f.startswith("pkg/sub/")]).stdout)
    assert named == found
    # a key set here replaces the extended one
    sub_cfg.write_text("extend: ../../pyproject.toml\nignore: []\nselect: [TFH2]\n")
    assert Resolver().for_file(tree / "pkg" / "sub" / "x.py").ignore == ()


def test_extend_mistakes_name_the_file(tree: Path) -> None:
    sub_cfg = tree / "pkg" / "sub" / ".smullyan.yaml"
    for body, needle in [
        ("extend: nope.toml\n", f"{sub_cfg}: `extend`: {tree / 'pkg' / 'sub' / 'nope.toml'}: configuration file not found"),
        ("extend: ../other/pyproject.toml\n", f"{tree / 'pkg' / 'other' / 'pyproject.toml'}: has no [tool.smullyan] table"),
        ("extend: [a]\n", f"{sub_cfg}: `extend` must be the path of a configuration file"),
        ("extend: .smullyan.yaml\n", f"{sub_cfg}: `extend` makes a cycle: {sub_cfg} -> {sub_cfg}"),
    ]:
        sub_cfg.write_text(body)
        proc = smullyan(tree, "lint", "--no-cache", "pkg")
        assert proc.returncode == 2 and proc.stderr.startswith(f"smullyan: error: {needle}"), proc.stderr
