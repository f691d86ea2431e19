"""Shared by the ``smullyan tools`` tests that lint a small tree of files: write it, list its tools."""

from __future__ import annotations

import textwrap
from pathlib import Path

from smullyan.linter import tools
from smullyan.linter.config import Config

# A path outside any project: a file linted alone, with no run-level facts from its neighbours.
OUTSIDE = "/nonexistent-smullyan-test-dir/agent_tools.py"


def write_tree(root: Path, files: dict[str, str]) -> list[str]:
    """Write ``files`` (relative path -> dedented source) under ``root``; every ``.py`` path under it, sorted."""
    for rel, code in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))
    return sorted(str(p) for p in root.rglob("*.py"))


def tool_rows(files: list[str]) -> list[tuple[str, str, str, str]]:
    """(file name, tool name, framework, form) of every tool found in ``files`` with the default configuration."""
    return sorted((Path(t.path).name, t.name, t.framework, t.form) for t in tools.run(files, Config()).tools)


def source_rows(code: str) -> list[tuple[str, str, str]]:
    """(tool name, framework, form) of every tool found in one dedented source, linted alone (``OUTSIDE``)."""
    found = tools.describe_source(textwrap.dedent(code), OUTSIDE, Config()).tools
    return sorted((t.name, t.framework, t.form) for t in found)


def tools_by_name(root: Path, files: dict[str, str], config: Config | None = None) -> dict[str, tools.Tool]:
    """Every tool found in the tree ``files`` written under ``root`` (one run, the default configuration unless
    ``config``), by name."""
    return {t.name: t for t in tools.run(write_tree(root, files), config or Config()).tools}
