"""Packaging: a stdlib-only runtime install, the linter behind extras, Project-URLs, a complete sdist."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from smullyan.linter import output

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def test_the_runtime_install_pulls_in_nothing() -> None:
    assert PROJECT["dependencies"] == []


def test_extras_nest_and_the_hook_installs_the_lint_extra() -> None:
    extras = PROJECT["optional-dependencies"]
    assert {"libcst>=1.1", "pyyaml>=6"} <= set(extras["lint"])
    assert set(extras["lint"]) <= set(extras["flake8"]) and "flake8>=6" in extras["flake8"]
    assert set(extras["flake8"]) <= set(extras["test"])  # `make test` installs .[test]: it gets everything
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    normalise = lambda reqs: {r.replace("'", '"').replace(" ", "") for r in reqs}  # noqa: E731
    assert normalise(hook["additional_dependencies"]) == normalise(extras["lint"])


def test_project_urls_and_the_urls_in_reports_agree() -> None:
    urls = PROJECT["urls"]
    assert urls["Repository"] == output.REPOSITORY_URL
    assert output.INFORMATION_URI.startswith(urls["Repository"])
    assert output.rule_url("TFH201", "call-without-timeout").startswith(urls["Repository"] + "/blob/main/docs/")


BLOCK_LIBCST = "import sys; sys.modules['libcst'] = None\n"
#: the runtime-only install (`pip install smullyan`): neither libcst nor yaml can be imported
BLOCK_LINT_EXTRA = "import sys; sys.modules['libcst'] = sys.modules['yaml'] = None\n"


def _cli_without_the_lint_extra(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    script = BLOCK_LINT_EXTRA + f"from smullyan.linter.cli import main\nsys.exit(main({command!r}))\n"
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", [["lint", "."], ["tools", "."]])
def test_the_cli_without_its_dependencies_says_so_in_one_line(tmp_path: Path, command: list[str]) -> None:
    proc = _cli_without_the_lint_extra(command, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "pip install 'smullyan[lint]'" in proc.stderr and "libcst" in proc.stderr


@pytest.mark.parametrize(
    "command", [["rules"], ["rules", "--markdown"], ["explain", "TFH201"], ["explain", "retry-everything"], ["explain", "TFH001"]]
)
def test_rules_and_explain_work_without_the_lint_extra(tmp_path: Path, command: list[str]) -> None:
    # the shipped catalogue (linter/rules.json) answers: the same text as with the rules importable
    proc = _cli_without_the_lint_extra(command, tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    with_rules = subprocess.run(
        [sys.executable, "-m", "smullyan", *command], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert with_rules.returncode == 0 and proc.stdout == with_rules.stdout
    assert proc.stdout.count("TFH") >= (18 if command == ["rules"] else 1)


def test_an_unknown_rule_without_the_lint_extra_is_one_line(tmp_path: Path) -> None:
    proc = _cli_without_the_lint_extra(["explain", "TFH999"], tmp_path)
    assert proc.returncode == 2 and proc.stderr == "smullyan: error: unknown rule: TFH999 (`smullyan rules` lists them)\n"


@pytest.mark.parametrize(("select", "status", "word"), [(["TFH"], 2, "error"), (None, 0, "warning")])
def test_the_flake8_plugin_without_libcst(select: list[str] | None, status: int, word: str) -> None:
    script = BLOCK_LIBCST + (
        "import argparse\n"
        "from smullyan.linter.flake8_plugin import Plugin\n"
        f"opts = argparse.Namespace(select={select!r}, ignore=None, extend_select=None, extend_ignore=None,\n"
        "    extended_default_select=['C90','F','E','W','TFH'], extended_default_ignore=[], smullyan_config=None)\n"
        "Plugin.parse_options(opts)\n"
        "import ast\n"
        "assert list(Plugin(ast.parse('x = 1'), ['x = 1\\n'], 'a.py').run()) == []\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == status, proc.stderr
    assert f"smullyan: {word}:" in proc.stderr and "smullyan[flake8]" in proc.stderr
    assert "Traceback" not in proc.stderr


def _snapshot(dest: Path) -> Path:
    """Every file of the checkout that git does not ignore (new files included)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


def _the_runtime_only_wheel_explains_the_rules(wheel: Path, venv: Path) -> None:
    """The wheel in a venv that has nothing else (no libcst, no yaml): `pip install smullyan`."""
    import zipfile

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()
    with zipfile.ZipFile(wheel) as whl:
        assert "smullyan/linter/rules.json" in whl.namelist()
        whl.extractall(purelib)
    bare = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    for command in (["rules"], ["explain", "TFH201"]):
        proc = subprocess.run([str(python), "-m", "smullyan", *command], capture_output=True, text=True,
                              timeout=120, env=bare, cwd=venv)
        here = subprocess.run([sys.executable, "-m", "smullyan", *command], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and proc.stdout == here.stdout, proc.stderr
    lint = subprocess.run([str(python), "-m", "smullyan", "lint", "."], capture_output=True, text=True,
                          timeout=120, env=bare, cwd=venv)
    assert lint.returncode == 2 and "pip install 'smullyan[lint]'" in lint.stderr
    assert subprocess.run([str(python), "-c", "import libcst"], capture_output=True, env=bare).returncode != 0


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="needs a git checkout")
def test_the_sdist_is_complete_and_its_tests_run(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    build = subprocess.run(  # the sdist, then the wheel built from the sdist
        [sys.executable, "-m", "build", "--outdir", str(tmp_path / "dist"), str(src)],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    [sdist] = (tmp_path / "dist").glob("smullyan-*.tar.gz")
    [wheel] = (tmp_path / "dist").glob("smullyan-*.whl")
    _the_runtime_only_wheel_explains_the_rules(wheel, tmp_path / "bare")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        tar.extractall(tmp_path / "unpacked", filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(
            tmp_path / "unpacked"
        )
    tracked = {
        str(p.relative_to(src)) for p in src.rglob("*")
        if p.is_file() and p.relative_to(src).parts[0] in ("tests", "docs", "examples")
    }
    assert tracked and tracked <= names, sorted(tracked - names)
    assert {"Makefile", ".pre-commit-hooks.yaml", "README.md", "LICENSE", "tests/conftest.py",
            "tests/strategies.py", "tests/data/sarif-schema-2.1.0.json"} <= names
    [root] = (tmp_path / "unpacked").iterdir()
    # the unpacked tests run (they read docs/, README.md, tests/data from the sdist itself)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_docs.py", "tests/test_readme.py", "tests/test_sarif.py"],
        cwd=root, capture_output=True, text=True, timeout=600, env=env,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
