"""TFH501-TFH504 read the variants from the runtime: an eighth variant in a scratch copy is asked for at once.

The copy is the whole package (runtime, linter, rules) under a temporary
``smullyan/`` directory, with ``Throttled`` added to the union and to ``TAGS``;
the linter then runs in a subprocess that imports that copy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from smullyan.rules.union.model import near_miss, nearest_tag
from smullyan.linter.knowledge import Knowledge
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source

ROOT = Path(__file__).resolve().parent.parent

EIGHTH = '''

@dataclass(frozen=True, slots=True)
class Throttled:
    tag: ClassVar[Literal["Throttled"]] = "Throttled"
    seconds: int

'''

SEVEN = textwrap.dedent(
    """\
    from smullyan.runtime import (Denied, InvalidArgs, NotFound, RateLimited, Timeout,
                                  ToolError, Unavailable, Unknown, assert_never)

    def advise(error: ToolError) -> str:
        match error:
            case RateLimited() | Timeout() | Unavailable():
                return "retry"
            case InvalidArgs() | Denied() | NotFound() | Unknown():
                return "stop"

    def closed(error: ToolError) -> str:
        match error:
            case RateLimited() | Timeout() | Unavailable():
                return "retry"
            case InvalidArgs() | Denied() | NotFound() | Unknown():
                return "stop"
            case _:
                assert_never(error)

    def chain(e: ToolError) -> str:
        if isinstance(e, (RateLimited, Timeout, Unavailable)):
            return "retry"
        elif isinstance(e, (InvalidArgs, Denied, NotFound, Unknown)):
            return "stop"
        return "?"

    def tagged(e: ToolError) -> bool:
        return e.tag == "Throttled"
    """
)


def _lint_json(package_parent: Path, target: Path) -> list[dict[str, object]]:
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys; from smullyan.linter.cli import main; sys.exit(main(sys.argv[1:]))",
         "lint", "--no-cache", "--format", "json", "--exit-zero", "--select", "TFH5", str(target)],
        cwd=package_parent, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(package_parent), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    return data if isinstance(data, list) else data["findings"]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("eighth")
    pkg = base / "pkg" / "smullyan"
    ignore = shutil.ignore_patterns("__pycache__")
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "__main__.py"):
        shutil.copy(ROOT / name, pkg / name)
    for folder in ("runtime", "linter", "rules"):
        shutil.copytree(ROOT / folder, pkg / folder, ignore=ignore)
    errors = pkg / "runtime" / "_errors.py"
    text = errors.read_text()
    union = "ToolError = Union[RateLimited, InvalidArgs, NotFound, Timeout, Unavailable, Denied, Unknown]"
    tags = '    "Unknown",\n)'
    assert union in text and tags in text, "the union's definition moved; update this test"
    text = text.replace(union, EIGHTH + union.replace("Unknown]", "Unknown, Throttled]"))
    text = text.replace(tags, '    "Unknown",\n    "Throttled",\n)')
    errors.write_text(text)
    target = base / "src" / "agent.py"
    target.parent.mkdir()
    target.write_text(SEVEN)
    return base / "pkg", target


def test_the_seven_variants_in_the_real_runtime_leave_only_the_unknown_tag(tmp_path: Path) -> None:
    target = tmp_path / "agent.py"
    target.write_text(SEVEN)
    findings = lint_source(SEVEN, str(target), Config.default().with_overrides(select=["TFH5"]))
    assert [(f.code, f.line) for f in findings] == [("TFH504", 28)], [f.as_flake8() for f in findings]


def test_an_eighth_variant_is_asked_for_by_every_rule(scratch: tuple[Path, Path]) -> None:
    parent, target = scratch
    got = {(f["code"], f["line"]): f["message"] for f in _lint_json(parent, target)}
    assert set(got) == {("TFH501", 5), ("TFH503", 21)}, got
    assert "has no arm for Throttled;" in str(got[("TFH501", 5)])
    assert "no branch for Throttled;" in str(got[("TFH503", 21)])
    # the closed match's wildcard now absorbs Throttled, but it is assert_never: no TFH502;
    # and "Throttled" is a real tag now: no TFH504


@pytest.mark.parametrize(
    ("text", "nearest"),
    [("RateLimit", "RateLimited"), ("Notfound", "NotFound"), ("TimeOut", "Timeout"), ("Unavailble", "Unavailable"),
     ("invalid_args", "InvalidArgs"), ("Unknwon", "Unknown"), ("Denyed", "Denied")],
)
def test_near_misses_name_the_real_tag(text: str, nearest: str) -> None:
    tags = Knowledge.tool_error_variants
    assert near_miss(text, tags)
    assert nearest_tag(text, tags) == nearest


@pytest.mark.parametrize("text", ["RateLimited", "a", "latest", "v1.0", "Some", "None", "Error", "Done", "Found"])
def test_real_tags_and_strangers_are_not_near_misses(text: str) -> None:
    assert not near_miss(text, Knowledge.tool_error_variants)
