"""The ToolError union is closed: an eighth variant without decided behaviour fails mypy --strict."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"

EIGHTH = '''

@dataclass(frozen=True, slots=True)
class Throttled:
    tag: ClassVar[Literal["Throttled"]] = "Throttled"
    seconds: int

'''


def _mypy(package_root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-version", "3.10",
         "--config-file", "/dev/null", "-p", "rtcopy"],
        cwd=package_root, capture_output=True, text=True, timeout=600,
    )


pytestmark = pytest.mark.slow  # two mypy --strict runs over a copy of the runtime


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("union")
    control, changed = base / "control", base / "changed"
    for root in (control, changed):
        shutil.copytree(RUNTIME, root / "rtcopy", ignore=shutil.ignore_patterns("__pycache__"))
    errors = changed / "rtcopy" / "_errors.py"
    text = errors.read_text()
    anchor = 'ToolError = Union[RateLimited, InvalidArgs, NotFound, Timeout, Unavailable, Denied, Unknown]'
    assert anchor in text, "the union's definition moved; update this test"
    text = text.replace(anchor, EIGHTH + anchor.replace("Unknown]", "Unknown, Throttled]"))
    errors.write_text(text)
    return control, changed


def test_the_unchanged_runtime_passes_mypy_strict(copies: tuple[Path, Path]) -> None:
    result = _mypy(copies[0])
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_undecided_eighth_variant_fails_mypy_strict(copies: tuple[Path, Path]) -> None:
    result = _mypy(copies[1])
    assert result.returncode == 1, result.stdout + result.stderr
    failing = {line.split(":")[0].replace("\\", "/").rsplit("/", 1)[-1]
               for line in result.stdout.splitlines() if "assert_never" in line and "error" in line}
    # Both decisions the issue names: the retryability table and explain (the wire format too).
    assert {"_errors.py", "_explain.py", "_wire.py"} <= failing, result.stdout
