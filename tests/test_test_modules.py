"""Test modules (``linter/testmodules.py``): the rules about production behaviour are not run in a project's tests.

The default is a ``tests/`` directory at any depth and ``conftest.py`` (not pytest's ``test_*.py`` names: agent code
names its tools about tests so); ``test-modules``
in the configuration replaces it (``[]``: every rule runs everywhere); the CLI, the flake8 plugin and ``smullyan
tools`` agree; a bad value is exit 2 naming the key.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from smullyan.linter.catalogue import find_rule
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.registry import all_rules
from smullyan.linter.testmodules import is_test_module
from smullyan.linter.tools.demos import demo_module

UNTIMED = "import requests\nrequests.get('https://api.example.com')\n"
TYPO = "def f(e):\n    return e.tag == 'Timout'\n"


def smullyan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "smullyan", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    for rel in ("pkg/x.py", "tests/test_x.py", "pkg/tests/helpers.py", "pkg/y_test.py", "conftest.py",
                "test_utils/db.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(UNTIMED)
    return tmp_path


def found(res: subprocess.CompletedProcess[str]) -> list[str]:
    return sorted(f"{Path(f['path']).as_posix()} {f['code']}" for f in json.loads(res.stdout or "[]"))


@pytest.mark.parametrize(("path", "test"), [
    ("tests/test_x.py", True), ("tests/e2e/kubernetes/trigger_alert.py", True), ("pkg/tests/helpers.py", True),
    ("conftest.py", True), ("pkg/conftest.py", True),
    ("pkg/client.py", False), ("test_utils/db.py", False), ("pkg/testsuite/a.py", False), ("pkg/tests.py", False),
    ("pkg/latest_results.py", False),
    # tools about tests, production code: alita-sdk's Azure DevOps test plans, agentverse's executor
    ("alita_sdk/tools/ado/test_plan/test_plan_wrapper.py", False), ("agentverse/executor/code_test.py", False),
])
def test_the_default_is_the_tests_directories(path: str, test: bool) -> None:
    assert is_test_module(path) is test
    assert Config().is_test_module(path) is test


def test_a_rule_is_silent_in_tests_and_reports_in_the_package(project: Path) -> None:
    res = smullyan(project, "lint", "--no-cache", "--format", "json", ".")
    assert res.returncode == 1, res.stderr
    assert found(res) == ["pkg/x.py TFH201", "pkg/y_test.py TFH201", "test_utils/db.py TFH201"]


def test_lint_source_sees_the_path(tmp_path: Path) -> None:
    config = Config(source=str(tmp_path / "pyproject.toml"))
    assert [f.code for f in lint_source(UNTIMED, str(tmp_path / "pkg" / "x.py"), config)] == ["TFH201"]
    assert lint_source(UNTIMED, str(tmp_path / "tests" / "test_x.py"), config) == []
    # a rule about a fact of the code (a tag no variant has) runs in tests too
    assert [f.code for f in lint_source(TYPO, str(tmp_path / "tests" / "test_x.py"), config)] == ["TFH504"]


def test_a_checkout_kept_under_a_tests_directory_is_not_a_test_module(tmp_path: Path) -> None:
    root = tmp_path / "tests" / "proj"  # ~/tests/proj: where the checkout lives says nothing of its files
    config = Config(source=str(root / "pyproject.toml"))
    assert [f.code for f in lint_source(UNTIMED, str(root / "pkg" / "x.py"), config)] == ["TFH201"]
    assert lint_source(UNTIMED, str(root / "tests" / "test_x.py"), config) == []


def test_the_config_key_turns_it_back_and_replaces_the_default(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.smullyan]\ntest-modules = []\n")
    res = smullyan(project, "lint", "--no-cache", "--format", "json", ".")
    assert len(found(res)) == 6, res.stdout + res.stderr
    (project / "pyproject.toml").write_text('[tool.smullyan]\ntest-modules = ["test_utils/*", "*_test.py"]\n')
    res = smullyan(project, "lint", "--no-cache", "--format", "json", ".")
    assert found(res) == ["conftest.py TFH201", "pkg/tests/helpers.py TFH201", "pkg/x.py TFH201",
                          "tests/test_x.py TFH201"]


@pytest.mark.parametrize(("value", "expected"), [
    ('"tests/*"', 'must be a list of file globs (like ["tests/*", "test_*.py"]; [] for none), got a string'),
    ("true", "must be a list of file globs"),
    ('["tests/*", " "]', "it holds an empty glob"),
])
def test_a_bad_value_names_the_key(project: Path, value: str, expected: str) -> None:
    (project / "pyproject.toml").write_text(f"[tool.smullyan]\ntest-modules = {value}\n")
    res = smullyan(project, "lint", "--no-cache", ".")
    assert res.returncode == 2
    assert "`test-modules`" in res.stderr and expected in res.stderr, res.stderr


def test_a_misspelt_key_suggests_it(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.smullyan]\ntest-module = []\n")
    res = smullyan(project, "lint", "--no-cache", ".")
    assert res.returncode == 2 and "test-modules" in res.stderr, res.stderr


def test_the_flake8_plugin_agrees(project: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "TFH", "."], cwd=project,
                         capture_output=True, text=True, timeout=120)
    paths = sorted(line.split(":")[0] for line in res.stdout.splitlines())
    assert paths == ["./pkg/x.py", "./pkg/y_test.py", "./test_utils/db.py"], res.stdout + res.stderr
    (project / "pyproject.toml").write_text("[tool.smullyan]\ntest-modules = []\n")
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "TFH", "."], cwd=project,
                         capture_output=True, text=True, timeout=120)
    assert len(res.stdout.splitlines()) == 6, res.stdout + res.stderr


def test_unused_noqa_in_tests_says_non_enabled(tmp_path: Path) -> None:
    config = Config(source=str(tmp_path / "pyproject.toml"), select=("TFH", "TFH003"))
    text = "import requests\nrequests.get('https://x')  # noqa: TFH201\n"
    [finding] = lint_source(text, str(tmp_path / "tests" / "test_x.py"), config)
    assert finding.code == "TFH003" and "non-enabled: TFH201" in finding.message


def test_every_rule_says_whether_it_runs_in_tests_and_its_docs_say_so() -> None:
    runs = {r.code for r in all_rules() if r.applies_in_tests}
    assert runs == {"TFH504"}  # the policy: docs/real-code-survey.md "Session 44: rules in test modules"
    for r in all_rules():
        meta = find_rule(r.code)
        assert meta is not None
        docs = meta.docs
        assert "## Test modules" in docs
        assert ("Run in test modules too" in docs) is r.applies_in_tests


def test_tools_and_the_engine_share_the_predicate() -> None:
    assert demo_module("opensre.tests.tools.test_registry") and demo_module("tests.tools.test_registry")
    assert demo_module("pkg.conftest") and demo_module("pkg.tests")
    assert not demo_module("pkg.test_utils.db") and not demo_module("pkg.latest")
    assert not demo_module("alita_sdk.tools.ado.test_plan.test_plan_wrapper")
