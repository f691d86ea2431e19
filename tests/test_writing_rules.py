"""docs/writing-rules.md stays true: its complete example compiles and passes as a rule.

The example is copied into a temporary module (it is not shipped: its code is
in the reserved TFH9xx range and the registry never sees it) and run through
the same checks as every real rule. Also checks that the rules use the shared
helpers instead of hand-rolling them again.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

from smullyan.linter import registry
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.examples import check_example, expected_findings
from smullyan.linter.rule import Rule, Screen

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "writing-rules.md"


def _example_source() -> str:
    text = GUIDE.read_text()
    section = text.split("## The complete example", 1)[1]
    match = re.search(r"^```python\n(.*?)^```\n(?=\n## The parts)", section, re.S | re.M)
    assert match, "docs/writing-rules.md: no ```python block in 'The complete example'"
    return match.group(1)


@pytest.fixture(scope="module")
def example_rule(tmp_path_factory: pytest.TempPathFactory) -> type[Rule]:
    """The example as the guide says to add it: one file in a family folder, ``rules/timeouts/``.

    The file is written to a temporary directory that joins the family package's path
    for the import only, so it is ``smullyan.rules.timeouts.tfh999_...`` (its relative
    imports resolve as a shipped rule's do) and the registry never sees it.
    """
    import smullyan.rules.timeouts as family

    folder = tmp_path_factory.mktemp("timeouts")
    name = "tfh999_blocking_sleep_in_async"
    (folder / f"{name}.py").write_text(_example_source())
    registry.all_rules()  # filled before the file is on the path
    family.__path__.append(str(folder))
    try:
        module = importlib.import_module(f"{family.__name__}.{name}")
    finally:
        family.__path__.remove(str(folder))
        sys.modules.pop(f"{family.__name__}.{name}", None)
    assert Path(module.__file__ or "").parent == folder
    [rule] = [
        obj for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule
    ]
    return rule


def test_the_example_is_a_complete_rule(example_rule: type[Rule]) -> None:
    assert example_rule.code.startswith(registry.RESERVED_FOR_TESTS)
    assert example_rule.code not in registry.all_codes()  # not shipped
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## How to suppress"):
        assert section in example_rule.docs
    assert example_rule.VALID and example_rule.INVALID
    assert all(expected_findings(src) for src in example_rule.INVALID)
    assert example_rule.candidate_lines.__func__ is not Rule.candidate_lines.__func__  # type: ignore[attr-defined]


def test_the_example_passes_its_own_examples(example_rule: type[Rule]) -> None:
    for kind, examples in (("valid", example_rule.VALID), ("invalid", example_rule.INVALID)):
        for src in examples:
            assert check_example(example_rule, src, kind) == [], src


def test_the_example_finds_the_newcomers_case_and_only_that(example_rule: type[Rule]) -> None:
    config = Config.default().only(example_rule.code)
    src = "import time\nasync def f():\n    time.sleep(1)\n    g = lambda: time.sleep(2)\n"
    found = lint_source(src, "m.py", config, rules=[example_rule])
    assert [(f.line, f.column) for f in found] == [(3, 5)]
    # the screen is tight: an unrelated call imported from `time` is no candidate
    knowledge = config.knowledge()
    assert example_rule.candidate_lines(Screen(ast.parse("from time import time\ntime()\n")), knowledge) == []


# ---------------------------------------------------------------- the rules use the shared helpers


def _rule_trees() -> list[tuple[str, ast.Module]]:
    return [(p.name, ast.parse(p.read_text())) for p in sorted((ROOT / "rules").rglob("tfh*.py"))]


def _src(node: ast.AST) -> str:
    return ast.unparse(node)


@pytest.mark.parametrize(("name", "tree"), _rule_trees(), ids=lambda x: x if isinstance(x, str) else "")
def test_rules_do_not_hand_roll_the_shared_helpers(name: str, tree: ast.Module) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp):
            text = _src(node)
            # the last name of a callee: `f.attr.value if isinstance(f, cst.Attribute) else f.value ...`
            assert not re.search(r"\.attr\.value if isinstance\(\w+, cst\.Attribute\)", text), (name, text)
            # a handler's bound name: `node.name.name.value if node.name ...`
            assert ".name.name.value if" not in text, (name, text)
        if isinstance(node, ast.FunctionDef):
            assert node.name not in ("_last_name", "_handler_name", "_exc_name"), (name, node.name)
    # no stack of their own for scopes the resolver tracks
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            assert node.attr not in ("funcs", "tries", "handlers"), (name, node.attr)


def test_timeout_only_screen_code_left_the_generic_screen() -> None:
    assert not hasattr(Screen, "calls_to") and not hasattr(Screen, "calls_any")
    assert hasattr(Screen, "calls_of")
