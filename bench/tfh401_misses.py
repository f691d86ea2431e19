"""TFH401's recall rows by why they are missed (s57, issue 24): pool the misses of several batches by mechanism.

Run: ``.venv/bin/python bench/tfh401_misses.py [--batches 20-29] [--json OUT]``

Reads every TFH401 misses row of ``bench/survey/labels/misses-*.tsv`` whose package is in the batches asked, lints the
files the rows name in the installed packages (``/tmp/smullyan-survey/site/<package>``) in-process with ``--select
TFH401``, and classes each row as ``survey.recall`` finds it:

- ``found``: a finding matches the row (``survey.recall``);
- ``near``: a finding in the same file within :data:`NEAR` lines (the text reported where it is returned or sent, a few
  lines below the row: a counting convention, not a miss of the rule);
- ``audience``: found once the file is linted again as a module of a ``tools/`` package directory (a copy in a
  scratch directory): the rule's "who reads it" gate (``text.py`` ``audience``: ``"unread"``, no evidence that the
  function feeds a tool) is what silences it;
- ``other``: none of these (the rule's reading of the text itself: a kind beside it, a stored state, a helper).

Prints the rows per class with package and batch, and per class the number of packages and of batches.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from collections import defaultdict
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import survey  # noqa: E402

SITE = "/tmp/smullyan-survey/site"
NEAR = 40  # lines: a finding this close to the row in the same file is the row's text reported at another line


def lint(root: str, paths: list[str]) -> list[dict[str, Any]]:
    """TFH401 findings of ``paths`` (relative to ``root``), in-process."""
    from smullyan.linter import cli

    buf, old = io.StringIO(), os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(buf):
            cli.main(["lint", "--no-cache", "--format", "json", "--exit-zero", "-j", "1", "--select", "TFH401", *paths])
    finally:
        os.chdir(old)
    out: list[dict[str, Any]] = json.loads(buf.getvalue() or "[]")
    return out


def classify(row: dict[str, str], findings: list[dict[str, Any]], probe: list[int]) -> str:
    """The class of one misses row (module docstring): ``findings`` are the file's findings (``relpath``, ``line``),
    ``probe`` the lines reported once the file sits in a ``tools/`` directory."""
    if any(c.get("found", 0) for h in survey.recall(findings, [row]).values() for c in h.values()):
        return "found"
    line = int(row["line"])
    if any(f["relpath"] == row["path"] and abs(int(f["line"]) - line) <= NEAR for f in findings):
        return "near"
    if any(abs(n - line) <= 10 for n in probe):
        return "audience"
    return "other"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batches", default="20-29", help="lo-hi (corpus.toml's batch)")
    ap.add_argument("--json", help="write the rows with their class here")
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.batches.split("-"))
    _, misses = survey.load_labels()
    pk = {p.name: p for p in survey.load_corpus().packages}
    rows = [r for r in misses if r["code"] == "TFH401" and r["package"] in pk and lo <= (pk[r["package"]].batch or 0) <= hi]
    files: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        files[r["package"]].add(r["path"])
    findings: list[dict[str, Any]] = []
    for name in sorted(files):
        root = os.path.join(SITE, name)
        paths = [p for p in sorted(files[name]) if os.path.exists(os.path.join(root, p))]
        for f in lint(root, paths) if paths else []:
            f.update(package=name, half=pk[name].half, batch=pk[name].batch, relpath=f["path"],
                     path=os.path.join(root, f["path"]))
            findings.append(f)
    out = []
    by_class: dict[str, list[dict[str, str]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            own = [f for f in findings if f["package"] == r["package"]]
            probe: list[int] = []
            src = os.path.join(SITE, r["package"], r["path"])
            if classify(r, own, []) == "other" and os.path.exists(src):
                root = os.path.join(tmp, r["package"].replace("/", "_"))
                os.makedirs(os.path.join(root, "tools"), exist_ok=True)
                shutil.copy(src, os.path.join(root, "tools", os.path.basename(src)))
                probe = [int(f["line"]) for f in lint(root, [os.path.join("tools", os.path.basename(src))])]
            cls = classify(r, own, probe)
            by_class[cls].append(r)
            out.append({**r, "batch": pk[r["package"]].batch, "class": cls})
    for cls in ("found", "near", "audience", "other"):
        got = by_class.get(cls, [])
        batches = {pk[r["package"]].batch for r in got}
        print(f"{cls}: {len(got)} rows, {len({r['package'] for r in got})} packages, {len(batches)} batches")
        if cls != "found":
            for r in got:
                print(f"  b{pk[r['package']].batch} {r['package']} {r['path']}:{r['line']}  {(r.get('note') or '')[:110]}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
