"""Every example in every rule's docs, linted as printed (issue 26).

A rule's docs (``smullyan explain``, and docs/rules.md, generated from them) show a bad
example under ``## Example`` and a good one under ``## Use instead``. Each block is linted
exactly as printed, with every rule on: a bad example must give the rule's own code and no
other, a good example no finding at all. Every ``python`` block of a rule's docs sits under
one of those two captions, so none escapes the check.

The examples of rules other helpers own that do not hold yet are listed in ``KNOWN``
(strict xfail: the day one is fixed, the test says so and the entry goes).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smullyan.linter.config import OFF_BY_DEFAULT, Config
from smullyan.linter.engine import lint_source
from smullyan.linter.examples import EXAMPLE_PATH
from smullyan.linter.registry import all_rules
from smullyan.linter.rule import Rule

CAPTIONS = {"example": "bad", "use instead": "good"}

#: (code, caption kind, index) -> why it fails today (the rule's owner fixes the docs, then deletes the entry)
KNOWN: dict[tuple[str, str, int], str] = {
}


def doc_examples(docs: str) -> list[tuple[str, str, int, str]]:
    """``(caption, kind, index, source)`` of each ``python`` block, by the heading above it
    (``kind``: ``bad``, ``good``, or the caption itself when it is neither)."""
    out: list[tuple[str, str, int, str]] = []
    caption = ""
    counts: dict[str, int] = {}
    fenced = False
    block: list[str] | None = None
    for line in docs.splitlines():
        if line.startswith("```"):
            if fenced:
                if block is not None:
                    kind = CAPTIONS.get(caption.lower(), caption)
                    index = counts.get(kind, 0)
                    counts[kind] = index + 1
                    out.append((caption, kind, index, "\n".join(block) + "\n"))
                fenced, block = False, None
            else:
                fenced = True
                block = [] if line.strip() == "```python" else None
            continue
        if fenced:
            if block is not None:
                block.append(line)
        elif re.match(r"#{1,6} ", line):
            caption = line.lstrip("#").strip()
    return out


CASES = [
    pytest.param(
        rule, kind, index, src, id=f"{rule.code}-{kind}-{index}",
        marks=[pytest.mark.xfail(reason=KNOWN[(rule.code, kind, index)], strict=True)]
        if (rule.code, kind, index) in KNOWN else [],
    )
    for rule in all_rules()
    for _, kind, index, src in doc_examples(rule.docs)
]


def test_every_rule_shows_a_bad_and_a_good_example_and_nothing_else() -> None:
    for rule in all_rules():
        kinds = [kind for _, kind, _, _ in doc_examples(rule.docs)]
        assert "bad" in kinds and "good" in kinds, rule.code
        assert set(kinds) <= {"bad", "good"}, (rule.code, kinds)  # a python block under another caption


def test_the_known_failures_name_real_examples() -> None:
    real = {(rule.code, kind, index) for rule in all_rules() for _, kind, index, _ in doc_examples(rule.docs)}
    assert set(KNOWN) <= real


@pytest.mark.parametrize(("rule", "kind", "index", "src"), CASES)
def test_docs_example_gives_what_its_caption_claims(rule: type[Rule], kind: str, index: int, src: str) -> None:
    config = Config.default()
    if rule.code in OFF_BY_DEFAULT:  # an off-by-default rule's example is what a user sees after selecting it
        config = config.with_overrides(extend_select=[rule.code])
    found = lint_source(src, EXAMPLE_PATH, config)
    shown = [f"{f.line}:{f.column}: {f.code} {f.message}" for f in found]
    if kind == "bad":
        assert found and {f.code for f in found} == {rule.code}, (
            f"{rule.code}'s bad example should give {rule.code} and nothing else; got {shown}")
    else:
        assert not found, f"{rule.code}'s good example should give no finding; got {shown}"


def test_the_extractor_reads_captions_and_skips_other_fences() -> None:
    docs = "## Example\n```python\nbad()\n```\n```\nnot python\n```\n## Use instead\n```python\ngood()\n```\n"
    assert doc_examples(docs) == [("Example", "bad", 0, "bad()\n"), ("Use instead", "good", 0, "good()\n")]


# ---------------------------------------------------------------- the docs name only what is in the repository

ROOT = Path(__file__).resolve().parent.parent


def test_writing_rules_names_no_path_outside_the_repository() -> None:
    """Every path docs/writing-rules.md names (in backticks or as a link) is a file or folder of the
    repository, written relative to its root: no absolute path, no ``..``, no machine's directory."""
    text = (ROOT / "docs" / "writing-rules.md").read_text(encoding="utf-8")
    named = re.findall(r"`([^`\s]*/[^`\s]*)`", text) + re.findall(r"\]\(([^)#\s]+)", text)
    named += [m.split()[-1] for m in re.findall(r"`([^`]*\s[^`\s]*/[^`\s]*)`", text)]  # `pytest tests/x.py`
    assert named, "the guide names no path at all"
    for token in named:
        path = token.split(":", 1)[0].rstrip(".,")
        if not re.search(r"\w", path):
            continue  # `ignore`/`per-file-ignores`: two names and a slash between them
        if "://" in token or path.endswith("/") and "<" in path:
            continue
        assert not path.startswith(("/", "~", "..")), f"docs/writing-rules.md names {token!r}, outside the repository"
        if "<" in path:  # a pattern: rules/<family>/tfhNNN_<name>.py
            assert (ROOT / path.split("<", 1)[0]).exists(), token
            continue
        link_base = ROOT / "docs" if token in re.findall(r"\]\(([^)#\s]+)", text) else ROOT
        assert (link_base / path).exists() or (ROOT / path).exists(), f"docs/writing-rules.md names {token!r}: no such path"
