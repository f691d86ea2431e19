"""CI's other-Pythons step says which versions it could not find, and a missing one does not fail CI."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "other-pythons"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_a_version_that_is_not_on_the_machine_is_named_and_does_not_fail(tmp_path: Path) -> None:
    env = {**os.environ, "PYENV_ROOT": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        ["/bin/bash", str(SCRIPT), "2.9"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Python 2.9: NOT FOUND" in done.stdout
    assert "passed: none; not found: 2.9; failed: none" in done.stdout
    for mode in ("--install-only", "--tests-only"):
        done = subprocess.run(
            ["/bin/bash", str(SCRIPT), mode, "2.9"], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Python 2.9: NOT FOUND" in done.stdout and "failed: none" in done.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_tests_only_fails_a_version_whose_install_did_not_finish(tmp_path: Path) -> None:
    # the running interpreter's version, with no venv installed for it in a copy of the script's tree
    import sys

    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    root = tmp_path / "checkout"
    (root / ".ci").mkdir(parents=True)
    shutil.copy(SCRIPT, root / ".ci" / "other-pythons")
    env = {**os.environ, "PYENV_ROOT": str(tmp_path), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    done = subprocess.run(
        ["/bin/bash", str(root / ".ci" / "other-pythons"), "--tests-only", version],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"Python {version}: could not install" in done.stdout
    assert f"failed: {version}" in done.stdout


def test_ci_runs_the_other_pythons_alongside_the_suite_and_fails_if_either_fails() -> None:
    run = (ROOT / ".ci" / "run").read_text()
    # every install (the main venv's, then the other Pythons') before any test starts: each strict
    # editable install rebuilds the build/__editable__ link tree that every venv imports from
    installed = run.index("make .venv/.installed")
    others_installed = run.index(".ci/other-pythons --install-only ")
    started = run.index(".ci/other-pythons --tests-only ")
    assert installed < others_installed < started < run.index("make test-all ") < run.index('wait "$others_pid"')
    assert '[ "$suite" -eq 0 ] && [ "$others" -eq 0 ]' in run
    assert os.access(SCRIPT, os.X_OK)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_ci_runs_every_test_the_slow_group_included() -> None:
    # `make test` leaves the slow group out; what CI runs (`make test-all`) must not
    # (not a sub-make of the make running this test: its TESTS= would be passed on in MAKEFLAGS)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "TESTS")}
    plan = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "test-all"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert plan.returncode == 0, plan.stderr
    [pytest_line] = [line for line in plan.stdout.splitlines() if " -m pytest " in line]
    assert " -n " in pytest_line and " -m " not in pytest_line.split(" -m pytest ", 1)[1]
    quick = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "test"],
                           capture_output=True, text=True, timeout=60, env=env)
    assert '-m "not slow"' in quick.stdout
    assert '-n "${SMULLYAN_CI_WORKERS:-auto}"' in SCRIPT.read_text()
