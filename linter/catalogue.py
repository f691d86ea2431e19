"""The rule catalogue: every rule's code, name, summary, docs and level, and where its docs live.

From the rule classes when the linter is installed; from the copy shipped in the package
(``rules.json``, ``smullyan rules --json``) in the runtime-only install, so ``smullyan rules`` and
``explain`` need neither libcst nor the rules. Used by every output format (``linter/output.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CATALOGUE_FILE",
    "RuleMeta",
    "catalogue_json",
    "find_rule",
    "full_description",
    "rule_catalogue",
    "rule_url",
    "section",
    "severities",
    "shipped_catalogue",
    "with_fix_safety",
    "with_test_modules",
]

TOOL_NAME = "smullyan"
#: The repository (pyproject.toml's ``[project.urls] Repository``; a test holds them equal).
REPOSITORY_URL = "https://github.com/smullyan/smullyan"
DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs"
INFORMATION_URI = f"{REPOSITORY_URL}#the-linter"
RULES_URL = f"{DOCS_URL}/rules.md"


def rule_url(code: str, name: str) -> str:
    """The rule's entry in docs/rules.md (GitHub's anchor for ``## TFH201 call-without-timeout``)."""
    return f"{RULES_URL}#{code.lower()}-{name}"


def _version() -> str:
    from .. import __version__

    return str(__version__)




@dataclass(frozen=True)
class RuleMeta:
    code: str
    name: str
    summary: str
    docs: str
    level: str = "error"  # SARIF: "error" | "warning" | "note"


_PSEUDO_FALLBACK = {
    "TFH001": RuleMeta(
        "TFH001",
        "could-not-parse",
        "The file could not be read or parsed, so no rule could check it.",
        "## could-not-parse (TFH001)\n\nThe file could not be read or parsed as Python, so "
        "no rule checked it. Fix the syntax error (or the encoding) the message names.\n",
    ),
    "TFH002": RuleMeta(
        "TFH002",
        "internal-error",
        "A rule crashed on this file; the other rules' findings are still reported.",
        "## internal-error (TFH002)\n\nA rule (or a worker process) failed on this file. "
        "This is a bug in smullyan: please report it with the file. The other rules' "
        "findings for the file are still reported.\n",
    ),
}


#: What a rule's "Fix" section gains, by the rule's ``fix_applicability`` (the rule files need not say it)
FIX_SAFETY = {
    "unsafe": "Fix safety: this fix is **unsafe** (it changes what the program does at run time), so "
    "`smullyan lint --fix` applies it only with `--unsafe-fixes` (or `unsafe-fixes = true` in the "
    "configuration); `smullyan lint --diff --unsafe-fixes` shows it first.",
    "safe": "Fix safety: this fix is **safe** (the program behaves as before): `smullyan lint --fix` applies it.",
}


def with_fix_safety(docs: str, applicability: str) -> str:
    """``docs`` with the fix's applicability stated at the end of its ``## Fix`` section (if it has one)."""
    note = FIX_SAFETY.get(applicability)
    match = re.search(r"^#{2,3} Fix[^\n]*\n", docs, re.MULTILINE)
    if note is None or match is None or note in docs:
        return docs
    following = re.search(r"^#{1,6} ", docs[match.end():], re.MULTILINE)
    end = match.end() + following.start() if following else len(docs)
    body = docs[:end].rstrip("\n")
    return body + "\n\n" + note + "\n" + ("\n" + docs[end:] if following else "")


#: What a rule's docs gain, by the rule's ``applies_in_tests`` (the rule files need not say it)
IN_TESTS = {
    False: "## Test modules\nNot run in test modules (the `test-modules` setting; by default a file under a "
    "`tests/` directory at any depth, and `conftest.py`): this rule is about what code does against "
    "the world in production, and a test runs against fakes or a harness, under its runner's own time limit, "
    "and hands what it gets to an assertion, not a model. `test-modules = []` runs it there too.\n",
    True: "## Test modules\nRun in test modules too (the `test-modules` setting): what it finds is wrong "
    "wherever it is written.\n",
}


def with_test_modules(docs: str, applies: bool) -> str:
    """``docs`` with whether the rule runs in test modules stated at the end (``testmodules.py``)."""
    note = IN_TESTS[applies]
    return docs if note in docs else docs.rstrip("\n") + "\n\n" + note


def _meta_from_rule(rule: Any) -> RuleMeta:
    code = str(rule.code)
    name = str(getattr(rule, "name", code))
    summary = str(getattr(rule, "summary", "") or getattr(rule, "message", "") or name)
    docs = str(getattr(rule, "docs", "") or summary)
    docs = with_fix_safety(docs, str(getattr(rule, "fix_applicability", "unsafe")))
    docs = with_test_modules(docs, bool(getattr(rule, "applies_in_tests", True)))
    level = str(getattr(rule, "level", "error"))
    if level not in ("error", "warning", "note"):
        level = "error"
    return RuleMeta(code, name, summary, docs, level)


def _describe(code: str) -> RuleMeta | None:
    try:
        from . import registry
    except ImportError:
        return _PSEUDO_FALLBACK.get(code)
    describe = getattr(registry, "describe", None)
    if describe is not None:
        try:
            described = describe(code)
        except (KeyError, LookupError, ValueError):
            described = None
        if described is not None:
            if isinstance(described, tuple):
                name, summary, docs = described[:3]
                return RuleMeta(code, str(name), str(summary), str(docs))
            return _meta_from_rule(described)
    return _PSEUDO_FALLBACK.get(code)


#: Every rule's metadata and docs, generated into the package (``smullyan rules --json``), so
#: that ``smullyan rules`` and ``explain`` work in the runtime-only install (``pip install
#: smullyan``: no libcst, no yaml), where the rule classes cannot be imported. A test holds it
#: equal to what the rules say.
CATALOGUE_FILE = Path(__file__).resolve().parent / "rules.json"


def catalogue_json(catalogue: Sequence[RuleMeta]) -> str:
    """The catalogue as :data:`CATALOGUE_FILE` holds it (``smullyan rules --json``)."""
    rows = [
        {"code": m.code, "name": m.name, "summary": m.summary, "level": m.level, "docs": m.docs}
        for m in catalogue
    ]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def shipped_catalogue() -> list[RuleMeta]:
    """The catalogue from :data:`CATALOGUE_FILE`, as generated (not from the rules)."""
    rows = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    return [RuleMeta(r["code"], r["name"], r["summary"], r["docs"], r["level"]) for r in rows]


def rule_catalogue() -> list[RuleMeta]:
    """Every rule the linter knows, the pseudo-rules (TFH001-TFH003) included, sorted by code.

    From the rules themselves; without libcst (the runtime-only install) from the shipped copy.
    """
    import importlib.util

    if importlib.util.find_spec("libcst") is None:
        return shipped_catalogue()
    from . import registry

    metas: dict[str, RuleMeta] = {}
    for code in registry.PSEUDO_RULES:
        meta = _describe(code)
        if meta is not None:
            metas[code] = meta
    for rule in registry.all_rules():
        metas[str(rule.code)] = _meta_from_rule(rule)
    return [metas[c] for c in sorted(metas)]


def find_rule(code_or_name: str, catalogue: Iterable[RuleMeta] | None = None) -> RuleMeta | None:
    """A rule by code (case-insensitive) or kebab-case name."""
    wanted = code_or_name.strip()
    for meta in catalogue if catalogue is not None else rule_catalogue():
        if meta.code.upper() == wanted.upper() or meta.name == wanted.lower():
            return meta
    return None


def section(markdown: str, title: str) -> str | None:
    """The text of the ``## title`` section of a rule's docs (any heading level, case-insensitive,
    headings inside code fences ignored), without its fenced code blocks; None when absent."""
    wanted = title.strip().lower()
    found: list[str] | None = None
    fenced = False
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            if found is not None:
                found.append("\0fence")
            continue
        if not fenced and re.match(r"#{1,6}\s", stripped):
            heading = stripped.lstrip("#").strip().rstrip(":").lower()
            if found is not None:
                break
            if heading == wanted:
                found = []
            continue
        if found is not None and not fenced:
            found.append(line)
    if found is None:
        return None
    paragraphs = re.split(r"\n\s*\n", "\n".join(x for x in found if x != "\0fence"))
    text = "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())
    return text or None


def full_description(meta: RuleMeta) -> str:
    """SARIF ``fullDescription``: the rule's "What it does" section, else its summary."""
    return section(meta.docs, "What it does") or meta.summary


def severities(catalogue: Sequence[RuleMeta] | None = None) -> dict[str, str]:
    """Each rule's severity (its SARIF level: ``error``, ``warning``, ``note``), by code."""
    return {m.code: m.level for m in (rule_catalogue() if catalogue is None else catalogue)}
