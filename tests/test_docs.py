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


def test_the_shipped_catalogue_is_what_the_rules_say() -> None:
    # `smullyan rules` / `explain` read linter/rules.json where libcst is missing (the runtime-only
    # install): it must be exactly what the rule classes say, pseudo-rules included
    from smullyan.linter import output, registry

    live = output.rule_catalogue()
    assert [m.code for m in live] == registry.all_codes()
    assert output.shipped_catalogue() == live, (
        "linter/rules.json is stale: run `smullyan rules --json > linter/rules.json`"
    )
    assert output.CATALOGUE_FILE.read_text(encoding="utf-8") == _run("rules", "--json")


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_every_rule_documents_what_why_bad_good_and_suppression(rule: type) -> None:
    docs = rule.docs  # type: ignore[attr-defined]
    for section in SECTIONS:
        assert section in docs, f"{rule.code} docs lack {section!r}"
    assert docs.count("```python") >= 2, f"{rule.code} docs need a bad and a good example"
    explained = _run("explain", rule.code)  # type: ignore[attr-defined]
    assert explained.startswith(f"# {rule.code} {rule.name}")  # type: ignore[attr-defined]


# ---------------------------------------------------------------- docs come from the data


def test_rule_docs_list_the_calls_the_knowledge_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Growing a table grows the rule's docs: no hand-written list to go stale."""
    import importlib

    from smullyan.linter import knowledge

    module = importlib.import_module("smullyan.rules.timeouts.tfh201_call_without_timeout")
    assert "- `subprocess`: `run`, `call`, `check_call`, `check_output`" in module.CallWithoutTimeout.docs
    assert "acme_sdk" not in module.CallWithoutTimeout.docs
    monkeypatch.setattr(knowledge, "TIMEOUTS", {**knowledge.TIMEOUTS, "acme_sdk.Client.fetch": knowledge.TimeoutParam()})
    try:
        fresh = importlib.reload(module)
        assert "- `acme_sdk.Client`: `fetch`" in fresh.CallWithoutTimeout.docs
    finally:
        monkeypatch.undo()
        importlib.reload(module)


def test_every_known_tool_call_is_in_the_tfh402_docs() -> None:
    from smullyan.linter.knowledge import Knowledge
    from smullyan.linter.registry import get_rule

    rule = get_rule("TFH402")
    assert rule is not None
    # the remote reads it reports and the local work it leaves out
    for name in (*Knowledge.tool_calls, *Knowledge.tool_methods, *Knowledge.tool_receiver_words,
                 *Knowledge.remote_receiver_words, *Knowledge.local_io_calls, *Knowledge.local_io_methods,
                 *Knowledge.url_argument_words):
        assert f"`{name}`" in rule.docs, name
    for prefix in (*Knowledge.tool_module_prefixes, *Knowledge.local_io_prefixes):
        assert f"`{prefix.rstrip('.')}`" in rule.docs, prefix


def test_rules_read_knowledge_through_the_context_only() -> None:
    """A rule imports the ``Knowledge`` type and the docs helpers, never the module's tables."""
    import ast

    allowed = {"Knowledge", "markdown_calls", "markdown_words", "TimeoutParam"}
    paths = sorted((DOCS.parent / "rules").rglob("tfh*.py"))
    assert len(paths) == len(all_rules())
    for path in paths:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                # absolute (smullyan.linter.knowledge) or relative (...linter.api) from a family package
                module, names = node.module or "", {a.name for a in node.names}
                if module.endswith("linter.knowledge"):
                    assert names <= allowed, (path.name, sorted(names))
                if module.endswith("linter") or module.endswith("linter.api"):
                    assert "knowledge" not in names, path.name
            if isinstance(node, ast.Import):
                assert "smullyan.linter.knowledge" not in {a.name for a in node.names}, path.name
