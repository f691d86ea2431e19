"""Tools recall: ``smullyan tools`` rows against the tools counted by reading (``bench/survey/heldoutN-tools.tsv``).

Run: ``.venv/bin/python bench/tools_recall.py OUT TSV`` where OUT is a ``bench/survey.py --out`` directory
(its ``tools-held-out.json``, or ``tools-tuning.json`` with ``--half tuning``). ``--run --batch N`` first runs
``smullyan tools`` alone (no lint: the quick loop) over the batch's installed packages, as ``survey.py`` does
(the same files, one run per package, default configuration), and writes ``OUT/tools-<half>.json``.

A reading row is found when a row of the same package has its name (the ``tool`` column against the row's
``name``, or the last part of its ``qualname``), or sits in its file within ``--window`` lines (3), the
rule every batch's tools table used. Prints per package found / right / by reading (found = rows of the
package; right = found rows that match a reading row), the totals, and the found rows that match no reading
row (``--unmatched``: all of them; else the count per package).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import survey  # noqa: E402  (bench/survey.py: the corpus, the files and the CLI run)


def reading_rows(tsv: Path) -> list[dict[str, str]]:
    lines = [ln for ln in tsv.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def run_tools(batch: int, half: str, out: Path, jobs: int, packages: list[str] | None,
              work: Path | None = None) -> None:
    corpus = survey.load_corpus()
    site = (work or Path(survey.tempfile.gettempdir()) / "smullyan-survey") / "site"
    rows: list[dict[str, Any]] = []
    for pkg in corpus.packages:
        if pkg.batch != batch or pkg.half != half or (packages and pkg.name not in packages):
            continue
        target = site / pkg.name
        files = survey.source_files(target)
        if not files:
            continue
        doc = survey.run_cli(["tools", "--format", "json", "--quiet", "-j", str(jobs), *map(str, files)], target)
        for item in doc["tools"]:
            item["package"], item["half"] = pkg.name, pkg.half
            item["relpath"] = os.path.relpath(item["path"], target)
            rows.append(item)
        print(f"{pkg.name}: {sum(1 for r in rows if r['package'] == pkg.name)} tools", file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"tools-{half}.json").write_text(json.dumps(rows, indent=1))


def matches(found: dict[str, Any], row: dict[str, str], window: int) -> bool:
    names = {found.get("name", ""), str(found.get("qualname") or "").rsplit(".", 1)[-1]}
    if row["tool"] in names:
        return True
    return found.get("relpath") == row["path"] and abs(int(found["line"]) - int(row["line"])) <= window


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("tsv", type=Path)
    ap.add_argument("--half", default="held-out", choices=survey.HALVES)
    ap.add_argument("--run", action="store_true", help="run smullyan tools over the batch first")
    ap.add_argument("--batch", type=int)
    ap.add_argument("--package", action="append", help="with --run: only these packages")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--work", type=Path, help="with --run: the survey's work dir (its site/), as survey.py's --work")
    ap.add_argument("--window", type=int, default=3)
    ap.add_argument("--unmatched", action="store_true", help="list every found row that matches no reading row")
    args = ap.parse_args(argv)
    if args.run:
        if args.batch is None:
            ap.error("--run needs --batch")
        run_tools(args.batch, args.half, args.out, args.jobs, args.package, args.work)
    found = json.loads((args.out / f"tools-{args.half}.json").read_text())
    reading = reading_rows(args.tsv)
    by_pkg_found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in found:
        by_pkg_found[f["package"]].append(f)
    by_pkg_read: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in reading:
        by_pkg_read[r["package"]].append(r)
    total = [0, 0, 0, 0]  # found, right, by reading, reading rows found
    unmatched: list[dict[str, Any]] = []
    print(f"{'package':28} {'found':>6} {'right':>6} {'read':>6} {'recall':>7} {'false':>6}")
    for pkg in sorted(set(by_pkg_found) | set(by_pkg_read)):
        fs, rs = by_pkg_found[pkg], by_pkg_read[pkg]
        right = [f for f in fs if any(matches(f, r, args.window) for r in rs)]
        hit = [r for r in rs if any(matches(f, r, args.window) for f in fs)]
        bad = [f for f in fs if f not in right]
        unmatched += bad
        print(f"{pkg:28} {len(fs):6} {len(right):6} {len(rs):6} {len(hit):7} {len(bad):6}")
        for i, n in enumerate((len(fs), len(right), len(rs), len(hit))):
            total[i] += n
    pct = 100 * total[3] / total[2] if total[2] else 0.0
    print(f"{'all':28} {total[0]:6} {total[1]:6} {total[2]:6} {total[3]:7} {len(unmatched):6}"
          f"   recall {total[3]}/{total[2]} = {pct:.0f}%")
    if args.unmatched:
        print("\nfound rows matching no reading row:")
        for f in sorted(unmatched, key=lambda f: (f["package"], f["relpath"], f["line"])):
            print(f"  {f['package']}\t{f['relpath']}:{f['line']}\t{f['name']}\t{f.get('form', '')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
