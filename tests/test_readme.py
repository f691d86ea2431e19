"""The README's runtime examples, taken verbatim, pass mypy --strict and run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.slow  # a mypy --strict run
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


def _framework_blocks() -> list[str]:
    text = README.read_text()
    section = text.split("## Using it with your framework", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


FRAMEWORKS = ["mcp", "agents", "langchain_core", "pydantic_ai"]


def test_readme_has_one_framework_example_each() -> None:
    blocks = _framework_blocks()
    assert len(blocks) == len(FRAMEWORKS)
    adapters = ["mcp", "openai_agents", "langchain", "pydantic_ai"]
    for block, adapter in zip(blocks, adapters):
        assert f"from smullyan.runtime.adapters import {adapter} as" in block


@pytest.mark.parametrize("index", range(len(FRAMEWORKS)), ids=FRAMEWORKS)
def test_readme_framework_example_runs(index: int) -> None:
    pytest.importorskip(FRAMEWORKS[index], reason="the framework's extra is not installed")
    if FRAMEWORKS[index] == "agents":
        from agents import set_tracing_disabled

        set_tracing_disabled(True)
    block = _framework_blocks()[index]
    exec(compile(block, f"README.md framework example {index + 1}", "exec"), {"__name__": "readme_example"})


def test_readme_writes_example_runs() -> None:
    [block] = [b for b in _blocks() if "def charge_card" in b]
    namespace: dict[str, object] = {}
    exec(block, namespace)  # the block asserts what it shows
    payments = namespace["payments"]
    assert payments.charges == {"order-17:charge": "ch_1"}  # type: ignore[attr-defined]
    assert payments.refunded == ["ch_1"]  # type: ignore[attr-defined]


def _latest_results() -> dict[str, dict[str, str]]:
    """The first results table of docs/performance.md (the latest run): corpus -> column -> figure."""
    text = (README.parent / "docs" / "performance.md").read_text(encoding="utf-8")
    results = text.split("\n## Results", 1)[1]
    rows = [line for line in results.splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    table: dict[str, dict[str, str]] = {}
    for line in rows[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != len(header):
            break
        table[cells[0].split(",")[0].split()[0]] = dict(zip(header, cells))
    return table


def test_readme_speed_figures_are_the_latest_in_performance_md() -> None:
    """The README's figures come from the newest results of docs/performance.md, and every ratio it
    prints is one of them (none left from an older build)."""
    latest = _latest_results()
    stdlib, agent = latest["stdlib"], latest["agent"]
    speed = README.read_text().split("- **Speed**", 1)[1].split("\n- **", 1)[0].split("\n\n", 1)[0]
    speed = " ".join(speed.split())
    assert f"a cold run costs {stdlib['cold CLI']} (stdlib) to {agent['cold CLI']} (an agent framework)" in speed
    assert f"the flake8 plugin adds {stdlib['plugin adds']} to {agent['plugin adds']}" in speed
    cached = sorted({stdlib["cached"], agent["cached"]})
    assert f"a cached re-run {' to '.join(cached)}" in speed
    figures = {v for row in latest.values() for v in row.values()}
    for ratio in re.findall(r"[+]?\d+\.\d+x", speed):
        assert ratio in figures, f"README's {ratio} is not in the latest docs/performance.md results"
