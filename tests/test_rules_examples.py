"""Every rule's own VALID / INVALID examples (adding a rule adds its cases here).

The marker syntax and the checking live in ``smullyan.linter.examples``: in an
INVALID example, a line ending with ``# error: TFH201`` (optionally
``TFH201:12`` for the column, and a quoted message fragment; several items
comma-separated) must produce exactly those findings; no other line may
produce one. VALID examples must produce nothing.
"""

from __future__ import annotations

import re

import libcst as cst
import pytest

from smullyan.linter.examples import Expected, check_example, expected_findings
from smullyan.linter.knowledge import Knowledge
from smullyan.linter.registry import all_rules
from smullyan.linter.rule import Rule, Screen

CASES = [
    pytest.param(rule, kind, i, src, id=f"{rule.code}-{kind}-{i}")
    for rule in all_rules()
    for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, src in enumerate(examples)
]


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
            assert expected_findings(src), f"{rule.code}: INVALID example without a marker"


@pytest.mark.parametrize(("rule", "kind", "index", "src"), CASES)
def test_examples(rule: type[Rule], kind: str, index: int, src: str) -> None:
    problems = check_example(rule, src, kind)
    assert not problems, f"{rule.code} {kind} example {index}:\n" + "\n".join(problems)


# ---------------------------------------------------------------- the checker itself, on a stand-in rule


class CallsNamedBoom(Rule):
    code = "TFH999"  # reserved for tests
    name = "calls-named-boom"
    summary = "test rule"
    message = "{name}() called"
    docs = ""

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        return [c.lineno for c in screen.calls if getattr(c.func, "id", None) == "boom" and c.lineno < 5]

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "boom":
            self.report(node, name="boom")


def test_markers_parse_codes_columns_and_fragments() -> None:
    src = 'a()  # error: TFH201\nb()  # error: TFH201:5, TFH202 "x, y"\nc()  # error: TFH999:1 \'boom()\'\n'
    assert expected_findings(src) == [
        Expected(1, "TFH201"),
        Expected(2, "TFH201", 5),
        Expected(2, "TFH202", None, "x, y"),
        Expected(3, "TFH999", 1, "boom()"),
    ]


def test_column_and_message_are_checked_and_examples_may_be_indented() -> None:
    good = """
        x = boom()  # error: TFH999:5 "boom() called"
    """
    assert check_example(CallsNamedBoom, good, "invalid") == []
    wrong_col = "x = boom()  # error: TFH999:1\n"
    assert check_example(CallsNamedBoom, wrong_col, "invalid") == [
        "expected line 1: TFH999:1, got line 1: TFH999:5 'boom() called'"
    ]
    wrong_msg = 'boom()  # error: TFH999 "never said"\n'
    assert check_example(CallsNamedBoom, wrong_msg, "invalid") == [
        "expected line 1: TFH999 \"never said\", got line 1: TFH999:1 'boom() called'"
    ]
    assert check_example(CallsNamedBoom, "boom()\n", "valid") == ["VALID example produced line 1: TFH999:1 'boom() called'"]
    twice = "boom(boom())  # error: TFH999\n"
    assert check_example(CallsNamedBoom, twice, "invalid") == ["unexpected line 1: TFH999:6 'boom() called'"]


def test_a_finding_hidden_by_the_screen_is_explained() -> None:
    src = "import os\n\n\n\n\ndef f():\n    boom()  # error: TFH999\n"
    assert check_example(CallsNamedBoom, src, "invalid") == [
        "expected line 7: TFH999, got no TFH999 on that line",
        "line 7 was not among TFH999's candidate lines []: the screen (candidate_lines) hid the finding",
    ]
