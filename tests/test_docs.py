"""The docs stay in step with the code: the rule catalogue page, and every rule's docs sections."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from smullyan.linter import cli
from smullyan.linter.registry import all_rules

DOCS = Path(__file__).resolve().parent.parent / "docs"
SECTIONS = ["## What it does", "## Why is this bad?", "## Example", "## Use instead", "suppress"]


def _run(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(list(argv)) == 0
    return out.getvalue()


def test_docs_rules_md_is_generated_from_the_rules() -> None:
    assert (DOCS / "rules.md").read_text() == _run("rules", "--markdown"), (
        "docs/rules.md is stale: run `smullyan rules --markdown > docs/rules.md`"
    )


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_every_rule_documents_what_why_bad_good_and_suppression(rule: type) -> None:
    docs = rule.docs  # type: ignore[attr-defined]
    for section in SECTIONS:
        assert section in docs, f"{rule.code} docs lack {section!r}"
    assert docs.count("```python") >= 2, f"{rule.code} docs need a bad and a good example"
    explained = _run("explain", rule.code)  # type: ignore[attr-defined]
    assert explained.startswith(f"# {rule.code} {rule.name}")  # type: ignore[attr-defined]
