"""Issue 24's done-means over the survey: ``smullyan tools``' failures column and TFH401/TFH402 agree on every tool.

Reads the tools JSON of survey runs (``OUT/tools-held-out.json``, written by ``bench/survey.py``,
``bench/tools_recall.py --run`` or ``bench/tool_rows.py run``) and counts the rows where they disagree
(the definitions of ``docs/cli.md``'s failures column and ``tests/test_errors_tools_agree.py``):

- ``401-no-text``: TFH401 is attributed to the tool (its functions or a helper it reaches) but the column has no ``text``;
- ``text-no-401``: the column says ``text`` with no TFH401 finding, and no framework or base method turns raised
  failures into text (``failures_by``);
- ``402-not-silent``: TFH402 is attributed but the column has neither ``fallback`` nor ``swallowed``.

``python bench/tools_agree.py OUT [OUT ...] [--list]``: counts per out dir (and the rows with ``--list``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

KINDS = ("401-no-text", "text-no-401", "402-not-silent")


def disagreements(t: dict[str, Any]) -> list[str]:
    failures, findings = set(t.get("failures") or ()), t.get("findings") or {}
    out = []
    if "TFH401" in findings and "text" not in failures:
        out.append("401-no-text")
    if "text" in failures and t.get("failures_by") is None and "TFH401" not in findings:
        out.append("text-no-401")
    if "TFH402" in findings and not failures & {"fallback", "swallowed"}:
        out.append("402-not-silent")
    return out


def load(path: Path) -> list[dict[str, Any]]:
    files = [path] if path.is_file() else sorted(path.glob("tools-*.json"))
    rows: list[dict[str, Any]] = []
    for f in files:
        doc = json.loads(f.read_text())
        rows.extend(doc["tools"] if isinstance(doc, dict) else doc)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path, nargs="+")
    ap.add_argument("--list", action="store_true", help="print each disagreeing row")
    args = ap.parse_args(argv)
    for out in args.out:
        rows = load(out)
        counts: Counter[str] = Counter()
        bad = 0
        for t in rows:
            kinds = disagreements(t)
            counts.update(kinds)
            bad += bool(kinds)
            if kinds and args.list:
                print(f"  {t.get('package', '?')}\t{t.get('relpath', t['path'])}:{t['line']}\t{t['name']}\t"
                      f"failures={'+'.join(t['failures']) or '-'}\tfindings={'+'.join(t['findings']) or '-'}\t"
                      f"{','.join(kinds)}")
        with401 = sum(1 for t in rows if "TFH401" in (t.get("findings") or {}))
        with402 = sum(1 for t in rows if "TFH402" in (t.get("findings") or {}))
        print(f"{out}: {len(rows)} tools ({with401} with TFH401, {with402} with TFH402), {bad} disagree: "
              + ", ".join(f"{k} {counts[k]}" for k in KINDS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
