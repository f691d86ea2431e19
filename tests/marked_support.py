"""Tests that write a small project to disk with its expected findings marked by a trailing comment (``# reported``)
and compare them with what one rule reports (the TFH401 tests of sessions 48-54 share these two)."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def marked(path: Path, *marks: str) -> list[int]:
    """The lines of the file at ``path`` ending with ``# <mark>`` for one of ``marks``."""
    return [i for i, line in enumerate(path.read_text().splitlines(), 1) if any(line.endswith(f"# {m}") for m in marks)]


def reported(path: Path, code: str = "TFH401") -> list[int]:
    """The lines ``code`` reports in the file at ``path``, linted alone with only that rule selected."""
    findings = lint_source(path.read_text(), str(path), Config.default().with_overrides(select=[code]))
    return sorted(f.line for f in findings if f.code == code)
