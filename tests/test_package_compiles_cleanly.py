"""Every module of the package compiles with no warning on the oldest supported Python (s55: an invalid escape in a
docstring, ``\\ s``, is silent on 3.11 but a SyntaxWarning on 3.13, printed on stderr by every command that imports
it: the flake8 plugin's and the CLI's clean-stderr tests failed only under 3.13)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(p for folder in ("runtime", "linter", "rules") for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_module_compiles_with_no_warning(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an invalid escape: DeprecationWarning (3.11), SyntaxWarning (3.12+)
        compile(path.read_text(encoding="utf-8"), str(path), "exec")


def test_the_modules_are_found() -> None:
    assert len(MODULES) > 100
