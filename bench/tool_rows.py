"""Score ``smullyan tools`` rows against the tool rows read column by column (``bench/survey/tool-rows.tsv``).

The TSV holds, per row read in docs/real-code-survey.md's "Batch N: the 20 tool rows read column by column" tables,
one line per column: ``batch  package  tool  column  expected``. ``tool`` is the row's name, optionally
``name@path-part`` when a package has several rows of that name. Columns and how ``expected`` is read
(alternatives separated by ``|``, each one accepted):

- ``name``: ``tool`` (the row is a tool of that name), ``not-a-tool`` (the row should not exist: every column
  wrong) or ``=NAME`` (the tool's right name: the row is looked for under it; under the read name it is wrong);
- ``class``: the row's classification (``read-safe``, ``idempotent-write``, ``non-idempotent-write``, ``irreversible``,
  ``local``, ``unknown``);
- ``calls``: ``none`` (no call listed), ``some`` (at least one) or ``&``-joined parts, each a text one listed call's ``what`` (or helper) holds,
  optionally ``text:timeout`` with the call's timeout status (``value``, ``missing``, ``unknown``, ``default`` ...);
- ``retry``: ``none``, ``some`` or ``known`` (some, each with a known wait and condition);
- ``key``: ``present``, ``missing``, ``not-needed`` or ``unknown``;
- ``failures``: the set of modes, ``+``-joined (``text+swallowed``; order free; ``-`` for none);
- ``findings``: the set of codes, ``+``-joined (``TFH201+TFH401``), or ``none``.

``python bench/tool_rows.py run OUT`` runs ``smullyan tools`` (as ``bench/survey.py`` does) on the rows' packages,
installed under ``$TMPDIR/smullyan-survey/site``, into ``OUT/tools-held-out.json``; ``python bench/tool_rows.py score
OUT [OUT2]`` prints right/read per column per batch (and the change from OUT to OUT2), and the rows right in every
column; ``--batch N`` (repeatable) keeps only those batches' rows (and, for ``run``, their packages). A survey run's out dir (``bench/survey.py --half held-out``) scores the same way.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TSV = HERE / "survey" / "tool-rows.tsv"
COLUMNS = ("class", "calls", "retry", "key", "failures", "findings")
Row = tuple[int, str, str]


def load(path: Path = TSV) -> dict[Row, dict[str, str]]:
    rows: dict[Row, dict[str, str]] = {}
    with path.open(newline="") as fh:
        for rec in csv.reader(fh, delimiter="\t"):
            if not rec or rec[0].startswith("#") or rec[0] == "batch":
                continue
            batch, package, tool, column, expected = rec[:5]
            rows.setdefault((int(batch), package, tool), {})[column] = expected
    return rows


def _find(tools: list[dict[str, Any]], package: str, tool: str) -> dict[str, Any] | None:
    name, _, where = tool.partition("@")
    hits = [t for t in tools if t["package"] == package and t["name"] == name and where in t.get("relpath", t["path"])]
    return hits[0] if hits else None


_STATUSES = frozenset({"value", "default", "missing", "infinite", "scope", "unknown", "none-possible", "n/a"})


def _call_ok(part: str, calls: list[dict[str, Any]]) -> bool:
    text, _, status = part.rpartition(":")
    if status not in _STATUSES:
        text, status = part, ""
    return any((text.lower() in c["what"].lower() or text.lower() in (c.get("helper") or "").lower())
               and (not status or c["timeout"] == status) for c in calls)


def right(column: str, expected: str, t: dict[str, Any]) -> bool:
    for alt in expected.split("|"):
        if column == "class" and t["classification"] == alt:
            return True
        if column == "calls" and (not t["calls"] if alt == "none" else bool(t["calls"]) if alt == "some"
                                  else all(_call_ok(p, t["calls"]) for p in alt.split("&"))):
            return True
        if column == "retry" and (bool(t["retries"]) == (alt != "none")) and (alt != "known" or all(
                r["wait"] != "unknown" and r["condition"] != "unknown" for r in t["retries"])):
            return True
        if column == "key" and t["key"] == alt:
            return True
        if column == "failures" and set(t["failures"]) == (set() if alt == "-" else set(alt.split("+"))):
            return True
        if column == "findings" and set(t["findings"]) == (set() if alt == "none" else set(alt.split("+"))):
            return True
    return False


def score(out: Path, rows: dict[Row, dict[str, str]]) -> dict[Row, dict[str, bool]]:
    tools: list[dict[str, Any]] = []
    for name in ("tools-held-out.json", "tools-tuning.json"):
        if (out / name).exists():
            tools += json.loads((out / name).read_text())
    result: dict[Row, dict[str, bool]] = {}
    for key, cols in rows.items():
        name = cols.get("name", "tool")
        t = _find(tools, key[1], name[1:] + key[2].partition("@")[1] + key[2].partition("@")[2]
                  if name.startswith("=") else key[2])
        tool_row = name != "not-a-tool"
        result[key] = {c: bool(tool_row and t is not None and c in cols and right(c, cols[c], t)) for c in COLUMNS}
    return result


def report(outs: list[Path], rows: dict[Row, dict[str, str]]) -> str:
    scores = [score(o, rows) for o in outs]
    batches = sorted({k[0] for k in rows})
    lines = ["| batch | rows | " + " | ".join(COLUMNS) + " | all columns |", "|---" * (len(COLUMNS) + 3) + "|"]
    for batch in [*batches, None]:
        keys = [k for k in rows if batch is None or k[0] == batch]
        cells = []
        for c in (*COLUMNS, "all"):
            counts = [sum(1 for k in keys if (all(s[k].values()) if c == "all" else s[k][c])) for s in scores]
            cells.append(" -> ".join(str(n) for n in counts))
        lines.append(f"| {batch if batch is not None else 'all'} | {len(keys)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def run(out: Path, rows: dict[Row, dict[str, str]], smullyan: Path, work: Path) -> None:
    sys.path.insert(0, str(HERE))
    from survey import source_files  # noqa: E402  (bench/survey.py: the same files the survey reads)

    out.mkdir(parents=True, exist_ok=True)
    tools: list[dict[str, Any]] = []
    for package in sorted({k[1] for k in rows}):
        target = work / "site" / package
        names = [str(f) for f in source_files(target)]
        proc = subprocess.run([str(smullyan), "tools", "--format", "json", "--quiet", "-j", "1", *names], cwd=target,
                              capture_output=True, text=True)
        doc = json.loads(proc.stdout or "null")
        for t in (doc["tools"] if isinstance(doc, dict) else doc or []):
            t["package"], t["half"], t["relpath"] = package, "held-out", os.path.relpath(t["path"], target)
            tools.append(t)
        print(f"{package}: {len(names)} files", file=sys.stderr)
    (out / "tools-held-out.json").write_text(json.dumps(tools, indent=1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("command", choices=("run", "score", "show"))
    ap.add_argument("out", type=Path, nargs="+")
    ap.add_argument("--rows", type=Path, default=TSV)
    ap.add_argument("--smullyan", type=Path, default=HERE.parent / ".venv" / "bin" / "smullyan")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "smullyan-survey")
    ap.add_argument("--batch", type=int, action="append", default=[],
                    help="only the rows of this batch (repeatable; default: every batch)")
    args = ap.parse_args(argv)
    rows = load(args.rows)
    if args.batch:
        rows = {k: v for k, v in rows.items() if k[0] in args.batch}
    if args.command == "run":
        run(args.out[0], rows, args.smullyan, args.work)
    elif args.command == "score":
        print(report(args.out, rows))
    else:  # show: each row's columns, wrong ones marked, in the last out dir
        s = score(args.out[-1], rows)
        for k, cols in s.items():
            wrong = [c for c, ok in cols.items() if not ok]
            print(f"{k[0]}\t{k[1]}\t{k[2]}\t" + ("all right" if not wrong else "wrong: " + ", ".join(wrong)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
