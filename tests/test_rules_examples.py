"""Every rule's own VALID / INVALID examples (adding a rule adds its cases here).

In an INVALID example, a line ending with ``# error: TFH201`` (several codes
comma-separated) must produce exactly those findings; no other line may
produce one. VALID examples must produce nothing.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.registry import all_rules

MARK = re.compile(r"#\s*error:\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)\s*$")

CASES = [
    pytest.param(rule, kind, i, src, id=f"{rule.code}-{kind}-{i}")
    for rule in all_rules()
    for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, src in enumerate(examples)
]


def expected_marks(src: str) -> Counter[tuple[int, str]]:
    out: Counter[tuple[int, str]] = Counter()
    for n, line in enumerate(src.splitlines(), 1):
        m = MARK.search(line)
        if m:
            for code in re.split(r"\s*,\s*", m.group("codes")):
                out[(n, code)] += 1
    return out


def test_every_rule_has_examples_and_metadata() -> None:
    rules = all_rules()
    assert rules, "no rule discovered"
    for rule in rules:
        assert re.fullmatch(r"TFH[1-8][0-9]{2}", rule.code)  # TFH9xx: reserved for tests
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
        assert rule.VALID and rule.INVALID, rule.code
        assert rule.summary and rule.message
        for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## How to suppress"):
            assert section in rule.docs, (rule.code, section)
        for src in rule.INVALID:
            assert expected_marks(src), f"{rule.code}: INVALID example without a marker"


@pytest.mark.parametrize(("rule", "kind", "index", "src"), CASES)
def test_examples(rule: type, kind: str, index: int, src: str) -> None:
    # only this rule: other rules may legitimately fire on the same snippet
    config = Config.default().with_overrides(select=[rule.code, "TFH0"])
    findings = lint_source(src, "example.py", config)
    assert not [f for f in findings if f.code in ("TFH001", "TFH002")], findings
    got = Counter((f.line, f.code) for f in findings)
    if kind == "valid":
        assert not got, f"VALID example produced {[f.as_flake8() for f in findings]}"
    else:
        assert got == expected_marks(src), [f.as_flake8() for f in findings]
