"""No module of the package is over ~600 lines (issue 25: a house you can see).

A rule file is counted without its own documentation and examples (the class's ``docs``,
``VALID`` and ``INVALID``): a rule carries those beside its code on purpose (one rule, one file,
Fixit-style), and a rule with many examples is not a large module. Everything else, the engine,
the family models, the runtime, the knowledge tables, counts every line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 600
EMBEDDED = {"docs", "VALID", "INVALID"}
FILES = sorted(p for folder in ("linter", "rules", "runtime") for p in (ROOT / folder).rglob("*.py"))


def counted_lines(path: Path) -> int:
    """The module's lines, less a rule class's ``docs``/``VALID``/``INVALID`` assignments."""
    text = path.read_text(encoding="utf-8")
    total = len(text.splitlines())
    if not path.name.startswith("tfh"):
        return total
    embedded = 0
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else (
                    [stmt.target] if isinstance(stmt, ast.AnnAssign) else [])
                if any(isinstance(t, ast.Name) and t.id in EMBEDDED for t in targets):
                    assert stmt.end_lineno is not None
                    embedded += stmt.end_lineno - stmt.lineno + 1
    return total - embedded


def test_the_package_has_files_to_measure() -> None:
    assert len(FILES) > 100
    assert any(p.name.startswith("tfh") for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_the_limit(path: Path) -> None:
    assert counted_lines(path) <= LIMIT, f"{path.relative_to(ROOT)}: split it (issue 25)"


def test_a_rule_file_counts_its_code_but_not_its_examples(tmp_path: Path) -> None:
    rule = tmp_path / "tfh999_example.py"
    rule.write_text(
        "class R:\n"
        "    docs = '''\n" + "x\n" * 50 + "'''\n"
        "    VALID = [\n" + "    'a',\n" * 50 + "]\n"
        "    INVALID: list[str] = ['b']\n"
        "    def check(self) -> None:\n"
        "        pass\n"
    )
    assert counted_lines(rule) == 3  # the class line and check's two
    other = tmp_path / "model.py"
    other.write_text(rule.read_text())
    assert counted_lines(other) == len(rule.read_text().splitlines())
