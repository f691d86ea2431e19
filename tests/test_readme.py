"""The README's runtime examples, taken verbatim, pass mypy --strict and run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.DOTALL)


def _program() -> str:
    """Every Python block of the README, in order: together they are one program."""
    blocks = _blocks()
    assert len(blocks) >= 4, "the README's runtime section lost its examples"
    return "\n\n".join(blocks)


def test_readme_examples_run(tmp_path: Path) -> None:
    program = tmp_path / "readme_examples.py"
    program.write_text(_program())
    proc = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Rate limited. Wait at least 7 s" in proc.stdout


def test_readme_examples_pass_mypy_strict(tmp_path: Path) -> None:
    program = tmp_path / "readme_examples.py"
    program.write_text(_program())
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "/dev/null", str(program)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_readme_fake_clock_pattern_runs() -> None:
    [block] = [b for b in _blocks() if "class FakeClock" in b]
    namespace: dict[str, object] = {}
    exec("from smullyan import runtime as tool\n" + block, namespace)
    test = namespace["test_backs_off_100_then_200"]
    assert callable(test)
    test()


def test_readme_starts_with_the_two_commands() -> None:
    head = README.read_text().split("\n\n", 3)[:3]
    assert any("make demo" in part and "make test" in part for part in head)


def test_readme_writes_example_runs() -> None:
    [block] = [b for b in _blocks() if "def charge_card" in b]
    namespace: dict[str, object] = {}
    exec(block, namespace)  # the block asserts what it shows
    payments = namespace["payments"]
    assert payments.charges == {"order-17:charge": "ch_1"}  # type: ignore[attr-defined]
    assert payments.refunded == ["ch_1"]  # type: ignore[attr-defined]
