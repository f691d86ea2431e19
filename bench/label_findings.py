"""What the evidence scripts share (s57; ``tfh101_evidence.py`` and ``retry_evidence.py`` each had a copy): the label
and misses rows of some codes with their packages' batches, the lint of the files they name (in-process, JSON), and
each row matched to its finding as ``bench/survey.py`` matches a label (``match_labels``) or finds a misses row
(``survey.recall``)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import survey  # noqa: E402  (bench/survey.py: the labels and how a label finds its finding)

from smullyan.linter import cli  # noqa: E402

SITE = Path("/tmp/smullyan-survey/site")

Finding = dict[str, Any]
Row = dict[str, str]


@contextlib.contextmanager
def chdir(path: Path) -> Iterator[None]:
    """``contextlib.chdir`` (3.11+), for 3.10 too."""
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def rows(halves: str, codes: Sequence[str], packages: Sequence[str] = ()) -> list[Row]:
    """The label rows and misses rows (verdict ``miss``) of ``codes`` in ``halves`` (``all`` or a half's name), of
    ``packages`` (empty: every package), each with its package's batch."""
    labels, misses = survey.load_labels()
    batch = {p.name: p.batch for p in survey.load_corpus().packages}
    out = [dict(r) for r in labels if r["code"] in codes] + [{**r, "verdict": "miss"} for r in misses if r["code"] in codes]
    out = [r for r in out if (halves == "all" or r["half"] == halves) and (not packages or r["package"] in packages)]
    for r in out:
        r["batch"] = str(batch.get(r["package"], 0))
    return out


def lint(package: str, root: Path, files: list[str], codes: Sequence[str]) -> list[Finding]:
    """The findings of ``codes`` on ``files`` (relative to ``root``): the CLI's JSON, each with its package, its
    ``relpath`` and its absolute ``path``."""
    buf = io.StringIO()
    with chdir(root), contextlib.redirect_stdout(buf):
        try:
            cli.main(["lint", "--no-cache", "--format", "json", "--exit-zero", "-j", "1", "--select", ",".join(codes), *files])
        except SystemExit:
            pass
    findings: list[Finding] = json.loads(buf.getvalue() or "[]")
    for f in findings:
        f["package"], f["relpath"], f["path"] = package, f["path"], str(root / f["path"])
    return findings


def matched(table: list[Row], lint: Callable[[str, Path, list[str]], list[Finding]],
            pick: Callable[[Row, list[Finding]], Finding | None]) -> Iterator[tuple[Path, Row, Finding | None]]:
    """Each row of ``table`` with its package's directory and its finding (None: not reported): ``lint`` run once
    per package on the files its rows name; a label's finding as ``survey.match_labels`` matches it, a misses row's
    (when ``survey.recall`` finds it) the one ``pick`` chooses among the package's findings."""
    files: dict[str, set[str]] = defaultdict(set)
    for r in table:
        files[r["package"]].add(r["path"])
    for package in sorted(files):
        root = SITE / package
        names = sorted(p for p in files[package] if (root / p).is_file())
        findings = lint(package, root, names) if names else []
        mine = [r for r in table if r["package"] == package]
        for f in findings:
            f["half"] = mine[0]["half"]  # a package is in one half
        hits = {survey._label_key(r): h for r, h, _ in survey.match_labels(findings, [r for r in mine if r["verdict"] != "miss"])}
        for r in mine:
            if r["verdict"] == "miss":
                found = survey.recall(findings, [r])[r["half"]][r["code"]]["found"]
                yield root, r, pick(r, findings) if found else None
            else:
                yield root, r, hits.get(survey._label_key(r))
        print(package, len(findings), file=sys.stderr, flush=True)
