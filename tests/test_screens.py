"""A rule's cheap ast screen, and the narrowing built on it, never hide a finding.

Both exist for speed only: linting with every screen forced open (and so nothing narrowed)
must give the same findings as linting with the screens, and linting with the narrowing
switched off the same as with it. Checked on every rule's own examples, on examples/, and
on a slice of the standard library that holds the network, subprocess and except-heavy modules.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from smullyan.linter.config import Config
from smullyan.linter import engine
from smullyan.linter.engine import lint_source
from smullyan.linter.registry import all_rules

ROOT = Path(__file__).resolve().parent.parent
STDLIB = Path(sysconfig.get_paths()["stdlib"])
STDLIB_SLICE = [
    "subprocess.py", "smtplib.py", "ftplib.py", "urllib/request.py", "http/client.py",
    "socket.py", "asyncio/base_events.py", "asyncio/subprocess.py", "imaplib.py", "poplib.py",
    "shutil.py", "logging/handlers.py", "xmlrpc/client.py", "pdb.py", "pydoc.py", "platform.py",
    "mimetypes.py", "zipfile.py", "tarfile.py", "concurrent/futures/process.py",
]


def _sources() -> list[tuple[str, str]]:
    out = []
    for rule in all_rules():
        for i, src in enumerate([*rule.VALID, *rule.INVALID]):
            out.append((f"{rule.code}-example-{i}.py", src))
    for path in sorted((ROOT / "examples").rglob("*.py")):
        out.append((str(path.relative_to(ROOT)), path.read_text()))
    for name in STDLIB_SLICE:
        path = STDLIB / name
        if path.exists():
            out.append((name, path.read_text(encoding="utf-8", errors="replace")))
    return out


def test_screens_hide_no_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config.default()
    sources = _sources()
    screened = {name: lint_source(src, name, config) for name, src in sources}
    assert sum(len(f) for f in screened.values()) > 0  # the corpus does exercise the rules
    for rule in all_rules():
        monkeypatch.setattr(rule, "is_candidate", classmethod(lambda cls, screen, knowledge: True))
        monkeypatch.setattr(rule, "candidate_lines", classmethod(lambda cls, screen, knowledge: None))
    unscreened = {name: lint_source(src, name, config) for name, src in sources}
    assert screened == unscreened


def test_narrowing_hides_no_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config.default()
    sources = _sources()
    calls: list[bool] = []
    real = engine.narrow

    def counting(*args: object) -> str | None:
        out = real(*args)  # type: ignore[arg-type]
        calls.append(out is not None)
        return out

    monkeypatch.setattr(engine, "narrow", counting)
    narrowed = {name: lint_source(src, name, config) for name, src in sources}
    assert sum(calls) >= 10  # the corpus does exercise the narrowing
    monkeypatch.setattr(engine, "narrow", lambda *args: None)
    whole = {name: lint_source(src, name, config) for name, src in sources}
    assert narrowed == whole


# Rules that cannot say on which lines their findings grow, with the reason. Each one turns the
# narrowing off for every file it admits, so the speed targets in docs/performance.md assume
# this stays empty or small; add a rule here only with a measurement.
WHOLE_FILE_RULES: dict[str, str] = {}


def test_every_rule_names_its_candidate_lines() -> None:
    from smullyan.linter.rule import Rule

    for rule in all_rules():
        localised = rule.candidate_lines.__func__ is not Rule.candidate_lines.__func__  # type: ignore[attr-defined]
        assert localised or rule.code in WHOLE_FILE_RULES, (
            f"{rule.code} does not implement candidate_lines: libcst would parse every file it admits "
            "whole; implement it, or list the rule in WHOLE_FILE_RULES with the reason and a measurement"
        )
