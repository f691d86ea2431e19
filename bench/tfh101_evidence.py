"""TFH101's labels by the evidence a finding rests on (s56, issue 23): session 54's pooled audit as a script.

Run: ``.venv/bin/python bench/tfh101_evidence.py [--halves held-out|all] [--upto N] [--tsv FILE] [--package P ...]``

Reads every TFH101 label row and misses row of ``bench/survey/labels/*.tsv`` (``--halves held-out``, the default:
the rows of each batch's held-out half, read blind; ``all`` adds the tuning half), lints the files they name in the
installed packages (``/tmp/smullyan-survey/site/<package>``) in-process with ``--select TFH101`` and records, for each
finding, what it rests on, from the rule's own objects (its ``repeated_writes``/``urllib3_writes`` results, wrapped
while the script runs; nothing is copied from the rule):

- **write**: ``urllib3 policy`` (a ``Retry`` allowing POST/PATCH on a session), ``MCP tool run`` (``call_tool``,
  ``tools/call``), ``SDK/Redis/publish`` (a write known from the tables on a resolved client: ``xadd``, ``publish``,
  an SDK create/send/charge), ``HTTP literal path`` (``POST to '/orders'``), ``HTTP verb a parameter`` (a helper whose
  method a caller gives ``"POST"``, or a public one nothing calls), ``HTTP path unread`` (a POST whose URL the rule
  does not read);
- **cond**: what the retry goes round on: ``every exception``, ``named exceptions``, ``status only`` (a status loop, a
  urllib3 policy), ``condition not read`` (a loop, decorator or configured retry whose condition the model has not read);
- **kind**: the retry (hand loop, tenacity, status loop, configured/imported decorator, ...);
- **name**: whether the code names the effect: the first word of the def holding the retry, the def holding the write,
  or the def of the call that asks for POST, is a write verb of ``knowledge.TOOL_NAME_VERBS`` (``named-write``:
  non-idempotent or irreversible: ``create_issue``, ``send_alert``, ``upload_file``, ``_post``) or a read verb
  (``named-read``: ``get_margin``), else ``unnamed``.

A label is matched to its finding as ``bench/survey.py`` does (``match_labels``); a misses row is found as
``survey.recall`` finds it. Prints, per batch range (``--ranges``, default ``2-18,19-22,23-26,27,28``) and in all,
true/false/debatable of the still-reported labels and the misses rows found, by each evidence column, by write x cond,
and for the candidate splits (``SPLITS``: the side a TFH201/TFH203-style split would keep on by default, and the number
of ranges where that side is >= 90% true). ``--upto N`` keeps batches <= N (the "built on 1-27, 28 as if blind" check).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterator

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import label_findings as shared  # noqa: E402  (the rows, their lint and each row's finding: bench/label_findings.py)

from smullyan.linter import knowledge as kb  # noqa: E402
from smullyan.linter.knowledge import Knowledge  # noqa: E402
from smullyan.rules.retries import tfh101_retry_non_idempotent_write as rule  # noqa: E402
from smullyan.rules.retries.data import Condition  # noqa: E402

SITE = shared.SITE
TAG = " @@EVIDENCE "
HTTP = ("HTTP verb a parameter", "HTTP literal path", "HTTP path unread")
KNOWN = ("every exception", "named exceptions")
VERDICT = {"true": "t", "false": "f", "debatable": "d", "miss": "m"}

#: the candidate splits: name -> the rows the default-on side keeps (the rest would be a new, off-by-default code)
SPLITS: dict[str, Callable[[dict[str, str]], bool]] = {
    "A. a write from the tables on a resolved client (SDK/Redis/publish/MCP)": lambda f: f["write"] in ("MCP tool run", "SDK/Redis/publish"),
    "B. an HTTP write (no urllib3 policy)": lambda f: f["write"] in HTTP,
    "C. the code names a write": lambda f: f["name"] == "named-write" and f["write"] != "urllib3 policy",
    "D. the condition read: every exception or named exceptions": lambda f: f["cond"] in KNOWN,
    "E. D, an HTTP write": lambda f: f["cond"] in KNOWN and f["write"] in HTTP,
    "F. every exception": lambda f: f["cond"] == "every exception",
    "G. D, the code names a write": lambda f: f["cond"] in KNOWN and f["name"] == "named-write",
    "H. D, named write or HTTP verb a parameter": lambda f: f["cond"] in KNOWN and (
        f["name"] == "named-write" or f["write"] == "HTTP verb a parameter"),
    "I. the condition read (a status loop too), no urllib3 policy": lambda f: f["cond"] != "condition not read" and f["write"] != "urllib3 policy",
    "J. the condition read (a status loop or urllib3 policy too)": lambda f: f["cond"] != "condition not read",
}


def _condition(cond: object) -> str:
    if not isinstance(cond, Condition):
        return "condition not read"
    if cond.every_exception:
        return "every exception"
    if cond.exceptions:
        return "named exceptions"
    if cond.statuses is not None:
        return "status only"
    return "condition not read"


def write_kind(what: str, kind: str) -> str:
    """The write column from the finding's ``what`` (the rule's text for the effect) and the retry's kind."""
    if kind == "urllib3":
        return "urllib3 policy"
    if "call_tool" in what or "tools/call" in what:
        return "MCP tool run"
    if "method is a parameter" in what or (what.startswith(("POST ", "PATCH ")) and "as the call of" in what):
        return "HTTP verb a parameter"
    if what.startswith(("POST to ", "PATCH to ")):
        return "HTTP literal path"
    if what.startswith(("POST ", "PATCH ")):
        return "HTTP path unread"
    return "SDK/Redis/publish"


@contextlib.contextmanager
def recording() -> Iterator[None]:
    """While it holds, every TFH101 finding's message ends with ``TAG`` and a JSON record of its evidence."""
    seen: dict[int, dict[str, Any]] = {}
    # the rule module's own names for the writes module's functions (``from .writes import ...``): what ``check`` calls
    repeated, urllib3 = getattr(rule, "repeated_writes"), getattr(rule, "urllib3_writes")
    report = rule.RetryNonIdempotentWrite.report

    def repeated_writes(model: Any, knowledge: Any, inference: bool, module: Any, tree: Any, retries: Any = None) -> Any:
        out = repeated(model, knowledge, inference, module, tree, retries)
        for retry, effect, where in out:
            kind = "status loop" if retries is not None else retry.kind
            seen.setdefault(id(retry.anchor), {"what": effect.what, "where": where, "kind": kind,
                                               "cond": "status only" if retries is not None else _condition(retry.condition)})
        return out

    def urllib3_writes(model: Any, inference: bool) -> Any:
        out = urllib3(model, inference)
        for retry, allowed in out:
            seen.setdefault(id(retry.anchor), {"what": "urllib3 " + allowed, "where": "", "kind": "urllib3",
                                               "cond": "status only"})
        return out

    def tagged(self: Any, node: Any, message: str | None = None, **fields: Any) -> None:
        record = seen.get(id(node))
        if record is not None:
            if message is None:
                message = self.message.format(**{k: v for k, v in fields.items() if k != "autofix"})
                fields = {k: v for k, v in fields.items() if k == "autofix"}
            message += TAG + json.dumps(record)
        report(self, node, message, **fields)

    setattr(rule, "repeated_writes", repeated_writes)
    setattr(rule, "urllib3_writes", urllib3_writes)
    setattr(rule.RetryNonIdempotentWrite, "report", tagged)
    try:
        yield
    finally:
        setattr(rule, "repeated_writes", repeated)
        setattr(rule, "urllib3_writes", urllib3)
        setattr(rule.RetryNonIdempotentWrite, "report", report)


def lint(package: str, root: Path, files: list[str]) -> list[dict[str, Any]]:
    """TFH101's findings on ``files`` (relative to ``root``), each with its evidence record (``evidence``)."""
    with recording():
        findings = shared.lint(package, root, files, ["TFH101"])
    for f in findings:
        message, _, record = f["message"].partition(TAG)
        f["message"], f["evidence"] = message, json.loads(record) if record else None
    return findings


def _defs_at(tree: ast.AST, line: int) -> list[str]:
    return [n.name for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno <= line <= (n.end_lineno or n.lineno)]


def named(source: str, line: int, record: dict[str, Any]) -> str:
    """``named-write``/``named-read``/``unnamed``: the first word of the defs holding the retry (``line``), the write
    (the record's ``where``) and the call that asks for the write method (``as the call of f() at line N``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "unnamed"
    lines = [line]
    for pattern, text in ((r"(\d+)", record.get("where") or ""), (r"as the call of \w+\(\) at line (\d+)", record["what"])):
        m = re.search(pattern, text)
        if m:
            lines.append(int(m.group(1)))
    classes = set()
    for at in lines:
        for name in _defs_at(tree, at):
            words = Knowledge.identifier_words(name)
            if words:
                classes.add(kb.TOOL_NAME_VERBS.get(words[0]))
    if classes & {kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE}:
        return "named-write"
    return "named-read" if kb.READ_SAFE in classes else "unnamed"


def evidence(record: dict[str, Any], source: str, line: int) -> dict[str, str]:
    """A finding's evidence columns (write, cond, kind, name) from its record."""
    return {"write": write_kind(record["what"], record["kind"]), "cond": record["cond"], "kind": record["kind"],
            "name": named(source, line, record)}


def rows(halves: str, packages: list[str]) -> list[dict[str, str]]:
    """TFH101's label rows and misses rows (verdict ``miss``) of ``halves``, each with its package's batch."""
    return shared.rows(halves, ["TFH101"], packages)


def _nearest(r: dict[str, str], findings: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A found misses row's finding: the one whose lines hold the site, else the nearest one in the file."""
    line, same = int(r["line"]), [f for f in findings if f["relpath"] == r["path"]]
    return min(same, key=lambda f: (not f["line"] <= line <= f.get("end_line", f["line"]), abs(f["line"] - line)), default=None)


def classify(table: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Each row with its finding's evidence (``None``: not reported at this head)."""
    out: list[dict[str, Any]] = []
    for root, r, hit in shared.matched(table, lint, _nearest):
        record = hit["evidence"] if hit is not None else None
        ev = evidence(record, (root / hit["relpath"]).read_text(encoding="utf-8"), hit["line"]) if hit and record else None
        out.append({**r, "evidence": ev})
    return out


def group(batch: str, ranges: list[tuple[int, int]]) -> str:
    n = int(batch)
    for lo, hi in ranges:
        if lo <= n <= hi:
            return f"{lo}-{hi}" if lo != hi else str(lo)
    return "other"


def _cell(c: Counter[tuple[str, str]], g: str) -> str:
    return f"{c[(g, 't')]}/{c[(g, 'f')]}/{c[(g, 'd')]}"


def _prec(c: Counter[tuple[str, str]], g: str) -> str:
    t, f = c[(g, "t")], c[(g, "f")]
    return f"{100 * t / (t + f):.0f}%" if t + f else "-"


def report(done: list[dict[str, Any]], ranges: list[tuple[int, int]]) -> str:
    groups = [f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in ranges] + ["all"]
    live = [r for r in done if r["evidence"] is not None]
    gone = Counter(VERDICT[r["verdict"]] for r in done if r["evidence"] is None)
    lines = [f"rows {len(done)}: labels {sum(r['verdict'] != 'miss' for r in done)}, misses {sum(r['verdict'] == 'miss' for r in done)}; "
             f"not reported now: t/f/d {gone['t']}/{gone['f']}/{gone['d']}, misses rows {gone['m']}"]

    def count(key: Callable[[dict[str, Any]], object]) -> dict[object, Counter[tuple[str, str]]]:
        t: dict[object, Counter[tuple[str, str]]] = defaultdict(Counter)
        for r in live:
            v, g = key(r), group(r["batch"], ranges)
            t[v][(g, VERDICT[r["verdict"]])] += 1
            t[v][("all", VERDICT[r["verdict"]])] += 1
        return t

    head = "| " + " | ".join(groups) + " | prec | misses rows found |"
    for column in ("write", "cond", "kind", "name", "write x cond"):
        t = count(lambda r: " / ".join(r["evidence"][c] for c in column.split(" x ")))
        lines += ["", f"| {column} {head}", "|---" * (len(groups) + 3) + "|"]
        lines += [f"| {v} | " + " | ".join(_cell(c, g) for g in groups) + f" | {_prec(c, 'all')} | {c[('all', 'm')]} |"
                  for v, c in sorted(t.items(), key=lambda kv: str(kv[0]))]
    lines += ["", f"| split | side {head} ranges >= 90% |", "|---" * (len(groups) + 5) + "|"]
    for name, keep in SPLITS.items():
        t = count(lambda r: bool(keep(r["evidence"])))
        for side in (True, False):
            c = t[side]
            ok = sum(1 for g in groups[:-1] if c[(g, "t")] + c[(g, "f")] and c[(g, "t")] >= 0.9 * (c[(g, "t")] + c[(g, "f")]))
            lines.append(f"| {name if side else ''} | {'on' if side else 'off'} | " + " | ".join(_cell(c, g) for g in groups)
                         + f" | {_prec(c, 'all')} | {c[('all', 'm')]} | {ok if side else ''} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--halves", choices=("held-out", "all"), default="held-out")
    ap.add_argument("--ranges", default="2-18,19-22,23-26,27,28")
    ap.add_argument("--upto", type=int, default=None, help="keep batches <= N")
    ap.add_argument("--package", action="append", default=[])
    ap.add_argument("--tsv", type=Path, help="write the per-row evidence here")
    args = ap.parse_args(argv)
    ranges = [(int(a), int(b or a)) for a, _, b in (r.partition("-") for r in args.ranges.split(","))]
    table = [r for r in rows(args.halves, args.package) if args.upto is None or int(r["batch"]) <= args.upto]
    done = classify(table)
    print(report(done, ranges))
    if args.tsv:
        cols = ("half", "batch", "package", "path", "line", "verdict", "shape")
        with args.tsv.open("w", encoding="utf-8") as fh:
            fh.write("\t".join((*cols, "write", "cond", "kind", "name")) + "\n")
            for r in done:
                ev = r["evidence"] or {"write": "-", "cond": "-", "kind": "-", "name": "-"}
                fh.write("\t".join([*(r.get(c, "") for c in cols), ev["write"], ev["cond"], ev["kind"], ev["name"]]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
