"""TFH102/TFH103/TFH104/TFH3xx labels by what a finding rests on (s56, issue 23): ``tfh101_evidence.py`` widened.

Run: ``.venv/bin/python bench/retry_evidence.py [--codes TFH102,...] [--halves held-out|all] [--upto N] [--tsv FILE]``

Reads every label and misses row of ``--codes`` (default TFH102, TFH103, TFH104, TFH301-TFH304) in
``bench/survey/labels/*.tsv`` (``--halves held-out``, the default: each batch's held-out half, read blind), lints the
files they name in the installed packages in-process with ``--select`` those codes, matches each label to its finding
as ``bench/survey.py`` does, and records what the finding rests on, read with ``ast`` at the finding's line (the
retry's own statement):

- **loop**: ``while True``, ``while <cond>``, ``for range``, ``for <other>``, ``decorator/config`` (no loop at the
  finding's line: a tenacity/backoff decorator, a configured retry), ``recursion``;
- **wait**: a call in the loop whose name reads as a wait the rule did not take as one (``sleep``/``wait``/
  ``backoff``/``delay``/``throttle``/``limit``/``acquire``/``pause``/``cooldown``, an awaited ``Event.wait``):
  ``wait-like call``, else ``none``;
- **handler**: what the broad handler does: ``re-raises`` (a bare ``raise`` or ``raise ... from``), ``narrows`` (an
  ``isinstance``/status test on the exception), ``plain``;
- **body**: ``message loop`` (the loop's try starts by receiving: ``recv``/``next``/``input``/``accept``/
  ``readline``/``get_message``), else ``retry``.

Prints t/f/d per batch range of the still-reported labels by code x each column (``tfh101_evidence``'s tables).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import label_findings as shared  # noqa: E402  (the rows, their lint and each row's finding: bench/label_findings.py)
import tfh101_evidence as t101  # noqa: E402  (its batch ranges and cells)

SITE = t101.SITE
CODES = ("TFH102", "TFH103", "TFH104", "TFH301", "TFH302", "TFH303", "TFH304")
WAIT = re.compile(r"sleep|wait|backoff|delay|throttl|limit|acquire|pause|cooldown|cool_down|jitter", re.I)
RECEIVE = re.compile(r"^(recv|receive|next|input|accept|readline|__anext__|get_message|read_message|fetch_message)", re.I)


def _name(call: ast.Call) -> str:
    fn = call.func
    return fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""


def _enclosing(tree: ast.AST, line: int) -> ast.AST | None:
    """The innermost loop (else def) whose lines hold ``line``."""
    best: ast.AST | None = None
    for n in ast.walk(tree):
        if isinstance(n, (ast.While, ast.For, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef)):
            if n.lineno <= line <= (n.end_lineno or n.lineno):
                if best is None or n.lineno >= best.lineno:
                    best = n
    return best


def evidence(source: str, line: int) -> dict[str, str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {"loop": "-", "wait": "-", "handler": "-", "body": "-"}
    node = _enclosing(tree, line)
    if isinstance(node, ast.While):
        loop = "while True" if isinstance(node.test, ast.Constant) and node.test.value else "while <cond>"
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        it = node.iter
        loop = "for range" if isinstance(it, ast.Call) and _name(it) == "range" else "for <other>"
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        calls_self = any(isinstance(c, ast.Call) and _name(c) == node.name for c in ast.walk(node))
        loop = "recursion" if calls_self else "decorator/config"
    else:
        loop = "decorator/config"
    scope = node if node is not None else tree
    waits = sorted({_name(c) for c in ast.walk(scope) if isinstance(c, ast.Call) and WAIT.search(_name(c))
                    and _name(c) not in ("sleep",)})
    plain_sleep = any(isinstance(c, ast.Call) and _name(c) == "sleep" for c in ast.walk(scope))
    wait = "sleep" if plain_sleep else ("wait-like call: " + ",".join(waits[:2]) if waits else "none")
    handler = "plain"
    for h in ast.walk(scope):
        if isinstance(h, ast.ExceptHandler) and (h.type is None or (isinstance(h.type, ast.Name) and h.type.id in ("Exception", "BaseException"))):
            if any(isinstance(r, ast.Raise) for r in ast.walk(h)):
                handler = "re-raises"
            elif any(isinstance(c, ast.Call) and _name(c) == "isinstance" for c in ast.walk(h)) or any(
                    isinstance(a, ast.Attribute) and a.attr in ("status_code", "status", "code") for a in ast.walk(h)):
                handler = "narrows"
    body = "retry"
    if isinstance(node, (ast.While, ast.For, ast.AsyncFor)):
        first = node.body[0] if node.body else None
        if isinstance(first, ast.Try) and first.body:
            calls = [c for c in ast.walk(first.body[0]) if isinstance(c, ast.Call)]
            if calls and RECEIVE.match(_name(calls[0]) or ""):
                body = "message loop"
    return {"loop": loop, "wait": wait, "handler": handler, "body": body}


def classify(table: list[dict[str, str]], codes: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def first(r: dict[str, str], findings: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((f for f in findings if f["relpath"] == r["path"] and f["code"] == r["code"]), None)

    for root, r, hit in shared.matched(table, lambda p, root, files: shared.lint(p, root, files, codes), first):
        ev = evidence((root / hit["relpath"]).read_text(encoding="utf-8"), hit["line"]) if hit else None
        out.append({**r, "evidence": ev, "message": hit["message"] if hit else ""})
    return out


def report(done: list[dict[str, Any]], ranges: list[tuple[int, int]], codes: list[str]) -> str:
    groups = [f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in ranges] + ["all"]
    lines: list[str] = []
    for code in codes:
        mine = [r for r in done if r["code"] == code]
        live = [r for r in mine if r["evidence"] is not None]
        gone = Counter(t101.VERDICT[r["verdict"]] for r in mine if r["evidence"] is None)
        lines += ["", f"## {code}: rows {len(mine)}; not reported now t/f/d {gone['t']}/{gone['f']}/{gone['d']}, misses {gone['m']}"]
        for column in ("loop", "wait", "handler", "body"):
            t: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
            for r in live:
                v, g = r["evidence"][column].split(":")[0], t101.group(r["batch"], ranges)
                t[v][(g, t101.VERDICT[r["verdict"]])] += 1
                t[v][("all", t101.VERDICT[r["verdict"]])] += 1
            lines += ["", f"| {column} | " + " | ".join(groups) + " | prec | misses found |", "|---" * (len(groups) + 3) + "|"]
            lines += [f"| {v} | " + " | ".join(t101._cell(c, g) for g in groups) + f" | {t101._prec(c, 'all')} | {c[('all', 'm')]} |"
                      for v, c in sorted(t.items())]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--codes", default=",".join(CODES))
    ap.add_argument("--halves", choices=("held-out", "all"), default="held-out")
    ap.add_argument("--ranges", default="2-18,19-22,23-26,27,28")
    ap.add_argument("--upto", type=int, default=28, help="keep batches <= N (28: batch 29 is blind)")
    ap.add_argument("--tsv", type=Path)
    args = ap.parse_args(argv)
    codes = args.codes.split(",")
    ranges = [(int(a), int(b or a)) for a, _, b in (r.partition("-") for r in args.ranges.split(","))]
    table = [r for r in shared.rows(args.halves, codes) if int(r["batch"]) <= args.upto]
    done = classify(table, codes)
    print(report(done, ranges, codes))
    if args.tsv:
        cols = ("half", "batch", "package", "path", "line", "code", "verdict", "shape")
        with args.tsv.open("w", encoding="utf-8") as fh:
            fh.write("\t".join((*cols, "loop", "wait", "handler", "body", "message", "note")) + "\n")
            for r in done:
                ev = r["evidence"] or {"loop": "-", "wait": "-", "handler": "-", "body": "-"}
                fh.write("\t".join([*(r.get(c, "") for c in cols), *ev.values(), r["message"][:200],
                                    r.get("note", "").replace("\t", " ")[:300]]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
