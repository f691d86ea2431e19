"""Real-code survey: lint a pinned corpus of agent codebases, split into a tuning and a held-out half.

Run: ``make survey`` (= ``.venv/bin/python bench/survey.py``). Options: ``--half tuning|held-out|both``,
``--sample N`` findings per rule (20), ``--tool-sample N`` tool functions (20), ``--seed``,
``--work DIR`` (scratch, outside the repository; default ``$TMPDIR/smullyan-survey``),
``--samples-for`` which halves get readable samples (default: tuning only; the held-out half's
samples are written only when asked for by name, at the end, after tuning), ``--merge-only``
(no install or lint: re-merge the labels into the last run's output), ``--batch N`` (only the
packages of corpus.toml's ``batch = N``), ``--out DIR`` (output elsewhere than ``WORK/out``).

1. Reads ``bench/survey/corpus.toml`` (name, version, half) and checks the split against
   :func:`half_of`.
2. Installs each pinned package with ``pip install --no-deps --target WORK/site/NAME`` (only its
   source is needed; one directory per package, so no two distributions share a file).
3. Lints each package's ``.py`` files, one CLI run per package (cross-module facts stay inside
   one codebase, as a user runs it): ``smullyan lint --no-cache --format json --exit-zero``
   (default configuration = every rule), and ``smullyan tools --format json --quiet``.
4. Writes to ``WORK/out``: ``findings-<half>.json``, ``tools-<half>.json``, ``counts.json``,
   ``summary.md`` (per half, per package, per rule counts; tools per package; labelled
   precision and recall), and for the halves in ``--samples-for``: ``samples/<half>/<CODE>.txt``
   (a seeded sample per rule, round-robin over the packages, with the enclosing function's
   source) and ``samples/<half>/tools.txt`` (seeded tool functions with their findings marked,
   read for misses).
5. Merges the labels in ``bench/survey/labels/``: ``*.tsv`` except ``misses-*.tsv`` label
   findings (half, package, path, line, code, verdict, shape, note; verdict true|false|debatable);
   ``misses-*.tsv`` list what reading a tool function found (half, package, path, line, code,
   tool, shape, note; code ``-`` = read, nothing the rules should report). Precision per rule
   and half = true / (true + false) over the labelled findings this run still reports
   (debatable counted apart); a label whose finding is gone is counted as ``gone``; recall =
   harmful sites a finding of that code covers / harmful sites read (covers: its lines hold the site's line; or its
   source line is the site's nearby; or it returns the name the site stored the text into, nearby or in the same
   ``except`` clause; or it starts inside the loop the site's line opens: :func:`recall`). Labels are matched by line, then
   by their optional ``source`` column (the line's text) within MOVE_WINDOW lines, then by span
   (:func:`match_labels`); the findings no label matches go to ``unlabelled.tsv``, marked ``new``
   when no ``labels/*.keys`` baseline lists them.
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the [test] extra installs tomli
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

HERE = Path(__file__).resolve().parent
SURVEY = HERE / "survey"
CORPUS = SURVEY / "corpus.toml"
LABELS = SURVEY / "labels"
BIN = Path(sys.executable).parent
HALVES = ("tuning", "held-out")
VERDICTS = ("true", "false", "debatable")
LABEL_COLUMNS = ("half", "package", "path", "line", "code", "verdict", "shape", "note")
MISS_COLUMNS = ("half", "package", "path", "line", "code", "tool", "shape", "note")
# An optional last column in either kind of file: the source line at `line` (stripped), so a label
# still finds its finding when a rule change moves where the finding starts (see `match_labels`).
SOURCE_COLUMN = "source"
# How far (lines) a finding's start may move and still be matched by its source text: a rule change moves
# an anchor within one construct (a loop's header, a call's first line), and a wider window would pair a
# label with another site whose line reads the same (`except Exception as e:`, `return {`).
MOVE_WINDOW = 12
# s52: TFH203 is TFH201 split by the evidence a finding rests on (the same calls): a label of either code labels a
# finding of either at the same site, and precision counts it under the finding's code.
SITE_CODES = {"TFH203": "TFH201"}


def site_code(code: str) -> str:
    return SITE_CODES.get(code, code)


# --------------------------------------------------------------------------- the corpus and its split


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    half: str
    batch: int = 1  # when it was chosen (corpus.toml's header); the half is the rule's in every batch


@dataclass(frozen=True)
class Corpus:
    salt: str
    previously_tuned: tuple[str, ...]
    excluded: tuple[str, ...]
    packages: tuple[Package, ...]


def half_of(name: str, salt: str, previously_tuned: Iterable[str]) -> str:
    """The split rule: previously tuned -> tuning; else sha256(salt + name)'s last byte even -> tuning."""
    if name in set(previously_tuned):
        return "tuning"
    digest = hashlib.sha256((salt + name).encode("utf-8")).digest()
    return "tuning" if digest[-1] % 2 == 0 else "held-out"


def load_corpus(path: Path = CORPUS) -> Corpus:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    split = data["split"]
    packages = tuple(Package(p["name"], p["version"], p["half"], int(p.get("batch", 1))) for p in data["package"])
    return Corpus(split["salt"], tuple(split["previously_tuned"]), tuple(split["excluded"]), packages)


def check_corpus(corpus: Corpus) -> list[str]:
    """Every way the stored corpus disagrees with its rule; empty when it is sound."""
    problems: list[str] = []
    names = [p.name for p in corpus.packages]
    for name, n in Counter(names).items():
        if n > 1:
            problems.append(f"{name}: listed {n} times")
    for p in corpus.packages:
        if p.name in corpus.excluded:
            problems.append(f"{p.name}: excluded from the survey, yet listed")
        want = half_of(p.name, corpus.salt, corpus.previously_tuned)
        if p.half != want:
            problems.append(f"{p.name}: half {p.half!r}, the rule gives {want!r}")
    return problems


# --------------------------------------------------------------------------- install and lint


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def install(pkg: Package, site: Path) -> Path:
    target = site / pkg.name
    stamp = target / ".survey-pin"
    pin = f"{pkg.name}=={pkg.version}"
    if stamp.exists() and stamp.read_text() == pin:
        return target
    log(f"installing {pin}")
    if target.exists():
        subprocess.run(["rm", "-rf", str(target)], check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-compile", "--target", str(target), pin],
        check=True,
    )
    stamp.write_text(pin)
    return target


def source_files(target: Path) -> list[Path]:
    out: list[Path] = []
    for f in sorted(target.rglob("*.py")):
        rel = f.relative_to(target).parts
        if rel[0] == "bin" or rel[0].endswith(".dist-info") or "__pycache__" in rel:
            continue
        out.append(f)
    return out


def run_cli(args: list[str], cwd: Path) -> Any:
    proc = subprocess.run([str(BIN / "smullyan"), *args], cwd=cwd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"smullyan {args[0]} exited {proc.returncode}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout or "null")


def survey_package(pkg: Package, target: Path, jobs: int, select: str | None = None,
                   tools_too: bool = True) -> dict[str, Any]:
    files = source_files(target)
    names = [str(f) for f in files]
    lines = sum(f.read_bytes().count(b"\n") for f in files)
    findings: list[dict[str, Any]] = []
    tools: list[dict[str, Any]] = []
    if names:
        # s52: TFH203 (off by default) is measured beside TFH201, the rule it was split from
        chosen = ["--select", select] if select else ["--extend-select", "TFH203"]
        findings = run_cli(["lint", "--no-cache", "--format", "json", "--exit-zero", "-j", str(jobs), *chosen, *names],
                           target)
        if tools_too:
            doc = run_cli(["tools", "--format", "json", "--quiet", "-j", str(jobs), *names], target)
            tools = list(doc["tools"]) if isinstance(doc, dict) else list(doc or [])
    for item in (*findings, *tools):
        item["package"] = pkg.name
        item["half"] = pkg.half
        item["relpath"] = os.path.relpath(item["path"], target)
    return {"files": len(files), "lines": lines, "findings": findings, "tools": tools}


# --------------------------------------------------------------------------- samples


def _key(f: dict[str, Any]) -> tuple[Any, ...]:
    return (f["package"], f["relpath"], f["line"], f.get("column", 0), f.get("code", f.get("name", "")))


def round_robin(items: list[dict[str, Any]], n: int, rng: random.Random) -> list[dict[str, Any]]:
    """Up to ``n`` items, shuffled per package, taken one package at a time so none dominates."""
    by_pkg: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for it in sorted(items, key=_key):
        by_pkg[it["package"]].append(it)
    pools = {pkg: rng.sample(v, len(v)) for pkg, v in sorted(by_pkg.items())}
    chosen: list[dict[str, Any]] = []
    while len(chosen) < n and any(pools.values()):
        for pkg in sorted(pools):
            if pools[pkg] and len(chosen) < n:
                chosen.append(pools[pkg].pop())
    return chosen


def sample_findings(findings: list[dict[str, Any]], per_code: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    by_code: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in findings:
        by_code[f["code"]].append(f)
    return {code: round_robin(items, per_code, random.Random(f"{seed}:{code}")) for code, items in sorted(by_code.items())}


def _enclosing(path: str, line: int) -> tuple[int, int] | None:
    """The innermost def/class around ``line`` (from its first decorator), or None."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return None
    best: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            end = node.end_lineno or node.lineno
            if start <= line <= end and (best is None or start >= best[0]):
                best = (start, end)
    return best


def context(path: str, line: int, end_line: int, marks: dict[int, list[str]] | None = None,
            max_before: int = 40, after: int = 6) -> str:
    text = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    span = _enclosing(path, line)
    lo = max(1, line - 8) if span is None else max(span[0], line - max_before)
    hi = min(len(text), max(line, end_line) + after)
    if span is not None:
        hi = min(hi, span[1])
    out = []
    for n in range(lo, hi + 1):
        mark = ">" if line <= n <= end_line else " "
        tail = f"   <<< {' '.join(marks[n])}" if marks and n in marks else ""
        out.append(f"{mark}{n:6d}  {text[n - 1]}{tail}")
    return "\n".join(out)


def tool_source(tool: dict[str, Any], marks: dict[int, list[str]], max_lines: int = 120) -> str:
    path, line = tool["path"], int(tool["line"])
    text = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    span = None
    try:
        tree = ast.parse("\n".join(text))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                if start <= line <= node.lineno:
                    span = (start, node.end_lineno or node.lineno)
                    break
    except SyntaxError:
        pass
    lo, hi = span if span else (line, line + 40)
    hi = min(hi, lo + max_lines, len(text))
    return "\n".join(
        f" {n:6d}  {text[n - 1]}" + (f"   <<< {' '.join(marks[n])}" if n in marks else "") for n in range(lo, hi + 1)
    )


def write_samples(half: str, findings: list[dict[str, Any]], tools: list[dict[str, Any]], out: Path,
                  per_code: int, tool_sample: int, seed: int) -> None:
    dest = out / "samples" / half
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("*.txt"):
        old.unlink()
    for code, chosen in sample_findings(findings, per_code, seed).items():
        parts = [
            f"#{i} {f['half']}\t{f['package']}\t{f['relpath']}\t{f['line']}\t{f['code']}\n"
            f"   {f['message']}\n" + context(f["path"], f["line"], f.get("end_line", f["line"]))
            for i, f in enumerate(chosen, 1)
        ]
        (dest / f"{code}.txt").write_text("\n\n".join(parts) + "\n")
    marks: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for f in findings:
        marks[f["path"]][f["line"]].append(f["code"])
    chosen_tools = round_robin(tools, tool_sample, random.Random(f"{seed}:tools"))
    parts = []
    for i, t in enumerate(chosen_tools, 1):
        calls = "; ".join(f"{c.get('what', '?')} timeout={c.get('timeout', '?')}" for c in t.get("calls", []))
        parts.append(
            f"#{i} {t['half']}\t{t['package']}\t{t['relpath']}\t{t['line']}\t{t['name']}\n"
            f"   framework={t['framework']} form={t['form']} class={t['classification']} key={t['key']} "
            f"failures={','.join(t['failures'])} findings={t['findings']}\n   calls: {calls or '-'}\n"
            + tool_source(t, marks[t["path"]])
        )
    (dest / "tools.txt").write_text("\n\n".join(parts) + "\n")


# --------------------------------------------------------------------------- labels


def read_tsv(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    with path.open(encoding="utf-8", newline="") as fh:
        for n, raw in enumerate(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE), 1):  # source text has quotes
            if not raw or raw[0].startswith("#") or raw[0] == columns[0]:
                continue
            if len(raw) not in (len(columns), len(columns) + 1):
                raise SystemExit(f"{path}:{n}: {len(raw)} columns, want {len(columns)} ({', '.join(columns)}) "
                                 f"or {len(columns) + 1} (and {SOURCE_COLUMN})")
            row = dict(zip((*columns, SOURCE_COLUMN), raw))
            if row["half"] not in HALVES or not row["line"].isdigit():
                raise SystemExit(f"{path}:{n}: bad half or line: {raw}")
            if "verdict" in row and row["verdict"] not in VERDICTS:
                raise SystemExit(f"{path}:{n}: verdict {row['verdict']!r} not one of {VERDICTS}")
            rows.append(row)
    return rows


def load_labels(directory: Path = LABELS) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    labels: list[dict[str, str]] = []
    misses: list[dict[str, str]] = []
    for path in sorted(directory.glob("*.tsv")):
        if path.name.startswith("misses-"):
            misses.extend(read_tsv(path, MISS_COLUMNS))
        else:
            labels.extend(read_tsv(path, LABEL_COLUMNS))
    return labels, misses


def labelled_packages(prefixes: Sequence[str], directory: Path = LABELS) -> set[str]:
    """Packages with a label or misses row whose code starts with one of ``prefixes`` (``TFH1``, ``TFH201``)."""
    labels, misses = load_labels(directory)
    wanted = tuple(p.strip() for p in prefixes if p.strip())
    return {r["package"] for r in (*labels, *misses) if r["code"].startswith(wanted)}


_LINES: dict[str, list[str] | None] = {}


def source_line(path: str | None, line: int) -> str | None:
    """Line ``line`` of the installed file ``path``, stripped; None when it cannot be read."""
    if not path:
        return None
    if path not in _LINES:
        try:
            _LINES[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            _LINES[path] = None
    lines = _LINES[path]
    return norm(lines[line - 1]) if lines is not None and 0 < line <= len(lines) else None


def norm(text: str) -> str:
    """Source text as labels store it: whitespace runs collapsed to one space (no tab), stripped."""
    return " ".join(text.split())


def _label_key(row: dict[str, str]) -> tuple[str, str, str, int, str]:
    # s52: a site labelled under TFH201 and under TFH203 (the code split from it) is one label
    return (row["half"], row["package"], row["path"], int(row["line"]), site_code(row["code"]))


def _finding_key(f: dict[str, Any]) -> tuple[str, str, str, int, str]:
    return (f["half"], f["package"], f["relpath"], int(f["line"]), f["code"])


def match_labels(findings: list[dict[str, Any]], labels: list[dict[str, str]]
                 ) -> list[tuple[dict[str, str], dict[str, Any] | None, str]]:
    """Each distinct label with the finding it labels in this run (or None) and how it was matched.

    A label names (half, package, path, line, code) and optionally the source line's text. The source is
    pinned, so line numbers stay put, but a rule change can move where its finding starts (a loop's
    first line instead of its ``try``, a call's first line instead of its argument). So, within the same
    file and code, each finding matched at most once: ``line`` = the same start line; ``source`` = a
    finding within MOVE_WINDOW lines whose first line has the label's source text (a moved start), nearest
    first; ``span`` = a finding whose lines cover the label's line. Unmatched labels are ``gone``.
    """
    by_file: dict[tuple[str, str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for f in findings:
        by_file[(f["half"], f["package"], f["relpath"], site_code(f["code"]))].append(f)
    taken: set[int] = set()
    rows: list[dict[str, str]] = []
    seen: set[tuple[Any, ...]] = set()
    for row in labels:
        if _label_key(row) not in seen:
            seen.add(_label_key(row))
            rows.append(row)
    matched: dict[int, tuple[dict[str, Any] | None, str]] = {}

    def candidates(row: dict[str, str]) -> list[dict[str, Any]]:
        pool = by_file[(row["half"], row["package"], row["path"], site_code(row["code"]))]
        return sorted((f for f in pool if id(f) not in taken), key=lambda f: abs(int(f["line"]) - int(row["line"])))

    def same_line(row: dict[str, str], f: dict[str, Any]) -> bool:
        return int(f["line"]) == int(row["line"])

    def same_text(row: dict[str, str], f: dict[str, Any]) -> bool:
        return (bool(row.get(SOURCE_COLUMN)) and abs(int(f["line"]) - int(row["line"])) <= MOVE_WINDOW
                and source_line(f.get("path"), int(f["line"])) == norm(row[SOURCE_COLUMN]))

    def covers(row: dict[str, str], f: dict[str, Any]) -> bool:
        return int(f["line"]) <= int(row["line"]) <= int(f.get("end_line", f["line"]))

    tiers: tuple[tuple[str, Callable[[dict[str, str], dict[str, Any]], bool]], ...] = (
        ("line", same_line), ("source", same_text), ("span", covers))
    for how, test in tiers:
        for i, row in enumerate(rows):
            if i in matched:
                continue
            hit = next((f for f in candidates(row) if test(row, f)), None)
            if hit is not None:
                taken.add(id(hit))
                matched[i] = (hit, how)
    return [(row, *matched.get(i, (None, "gone"))) for i, row in enumerate(rows)]


def precision(findings: list[dict[str, Any]], labels: list[dict[str, str]]) -> dict[str, dict[str, Counter[str]]]:
    """half -> code -> {true, false, debatable, gone-*, moved}: labelled findings this run still reports
    (matched by :func:`match_labels`), those gone, and how many were matched elsewhere than their line."""
    table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for row, hit, how in match_labels(findings, labels):
        code = str(hit["code"]) if hit is not None else row["code"]
        table[row["half"]][code][row["verdict"] if hit is not None else f"gone-{row['verdict']}"] += 1
        if hit is not None and how != "line":
            table[row["half"]][code]["moved"] += 1
    return table


def unlabelled(findings: list[dict[str, Any]], labels: list[dict[str, str]],
               baseline: set[tuple[str, str, int, str, str]]) -> list[dict[str, Any]]:
    """The findings no label matches, in file order; ``new`` = not in the recorded baseline (``*.keys``):
    neither a baseline finding at the same file, line and code, nor one of the same code within MOVE_WINDOW
    lines whose line text is this finding's (a moved start)."""
    hits = {id(f) for _, f, _ in match_labels(findings, labels) if f is not None}
    at_line = {(pkg, path, line, code) for pkg, path, line, code, _ in baseline}
    texts: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for pkg, path, line, code, text in baseline:
        texts[(pkg, path, code, text)].append(line)
    out = []
    for f in sorted(findings, key=_key):
        if id(f) in hits:
            continue
        text = source_line(f.get("path"), int(f["line"])) or ""
        base = (f["package"], f["relpath"], int(f["line"]), f["code"]) in at_line or any(
            abs(at - int(f["line"])) <= MOVE_WINDOW for at in texts.get((f["package"], f["relpath"], f["code"], text), ()))
        out.append({**f, "source": text, "new": "no" if base else "yes"})
    return out


def load_baseline(directory: Path = LABELS) -> set[tuple[str, str, int, str, str]]:
    """``*.keys`` files: every finding of a baseline run (package, path, line, code, source line text)."""
    keys: set[tuple[str, str, int, str, str]] = set()
    for path in sorted(directory.glob("*.keys")):
        for raw in csv.reader(path.open(encoding="utf-8", newline=""), delimiter="\t", quoting=csv.QUOTE_NONE):
            if raw and not raw[0].startswith("#") and raw[0] != "package":
                if len(raw) != 5 or not raw[2].isdigit():
                    raise SystemExit(f"{path}: {raw}: want package, path, line, code, source")
                keys.add((raw[0], raw[1], int(raw[2]), raw[3], norm(raw[4])))
    return keys


def write_unlabelled(out: Path, findings: list[dict[str, Any]], labels: list[dict[str, str]]) -> Path:
    """WORK/out/unlabelled.tsv: label-file rows (verdict ``?``) for each finding no label matches."""
    rows = unlabelled(findings, labels, load_baseline())
    dest = out / "unlabelled.tsv"
    with dest.open("w", encoding="utf-8", newline="") as fh:
        fh.write("\t".join(("# new", *LABEL_COLUMNS, SOURCE_COLUMN)) + "\n")
        for f in rows:
            fh.write("\t".join((f["new"], f["half"], f["package"], f["relpath"], str(f["line"]), f["code"], "?", "-",
                                norm(str(f.get("message", "")))[:160], f["source"])) + "\n")
    return dest


def recall(findings: list[dict[str, Any]], misses: list[dict[str, str]]) -> dict[str, dict[str, Counter[str]]]:
    """half -> code -> {found, missed}: harmful sites read in tool functions, covered by a finding of that code
    (its lines cover the site's line, or it starts within MOVE_WINDOW lines on a line with the site's ``source``, or
    the site's line assigns the text to a name, ``msg = f"...{e}"``, and a finding starting within MOVE_WINDOW lines
    after it uses that name: the return of the text the site built)."""
    spans: dict[tuple[str, str, str], list[tuple[int, int]]] = defaultdict(list)
    texts: dict[tuple[str, str, str], list[tuple[int, str]]] = defaultdict(list)
    paths: dict[tuple[str, str, str], str | None] = defaultdict(lambda: None)
    for f in findings:
        paths[(f["package"], f["relpath"], f["code"])] = f.get("path")
        spans[(f["package"], f["relpath"], f["code"])].append((int(f["line"]), int(f.get("end_line", f["line"]))))
        text = source_line(f.get("path"), int(f["line"]))
        if text:
            texts[(f["package"], f["relpath"], f["code"])].append((int(f["line"]), text))
    roots: dict[str, str] = {}  # package -> its installed directory, from any finding's path and relpath
    callers: dict[tuple[str, str], list[tuple[str, int, int]]] = defaultdict(list)
    for f in findings:
        path, rel = f.get("path"), f["relpath"]
        if path and str(path).endswith(rel):
            roots.setdefault(f["package"], str(path)[: len(str(path)) - len(rel)])
        if path:
            callers[(f["package"], f["code"])].append((str(path), int(f["line"]), int(f.get("end_line", f["line"]))))
    table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for row in misses:
        line = int(row["line"])
        if row["code"] == "-":
            table[row["half"]]["-"]["read"] += 1
            continue

        def covered(code: str) -> bool:
            where = (row["package"], row["path"], code)
            return any(lo <= line <= hi for lo, hi in spans[where]) or (
                bool(row.get(SOURCE_COLUMN)) and any(abs(at - line) <= MOVE_WINDOW and text == norm(row[SOURCE_COLUMN])
                                                     for at, text in texts[where])) or _returns_assigned(
                row, paths[where], spans[where]) or _inside_loop(paths[where], line, spans[where]) or (
                code.startswith("TFH4") and row["package"] in roots and _helper_reported(
                    roots[row["package"]] + row["path"], line, callers[(row["package"], code)]))

        hit = covered(row["code"])
        table[row["half"]][row["code"]]["found" if hit else "missed"] += 1
        split = [c for c, site in SITE_CODES.items() if site == row["code"]]
        if split:  # s52: what the default rule and the code split from it find together (`TFH201+TFH203`)
            table[row["half"]]["+".join((row["code"], *split))]["found" if hit or any(map(covered, split)) else "missed"] += 1
    return table


_ASSIGNED = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]=]*\]\s*)?(?::[^=]*)?=[^=]")  # s44: or an item, result["error"] = ...


def _returns_assigned(row: dict[str, str], path: str | None, spans: list[tuple[int, int]]) -> bool:
    """The site's line assigns a name (``error_msg = f"...{e}"``) or an item of it (``result["error"] = ...``), or lies in
    a call that stores into a name's container (``failed.append({"error": str(exc)})``, s45), and a finding starts after it
    with that name in its lines: within MOVE_WINDOW lines, or (s45) anywhere in the ``except`` clause that holds the site
    (``error_message = str(ex)``, a hook, a message sent, then ``return ToolResult(content=error_message, ...)``)."""
    line = int(row["line"])
    stored = _stored_name(path, line)
    if stored is None:
        found = _ASSIGNED.match(source_line(path, line) or "")
        if found is None:
            return False
        stored = (found.group(1), line, line)
    name = re.compile(rf"\b{stored[0]}\b")
    last = max(line + MOVE_WINDOW, stored[2])
    return any(line < lo <= last and lo > stored[1] and any(name.search(source_line(path, n) or "") for n in range(lo, hi + 1))
               for lo, hi in spans)


_TREES: dict[str, ast.Module | None] = {}
_CONTAINER_STORES = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "put", "put_nowait"})


def _tree(path: str | None) -> ast.Module | None:
    """The installed file ``path`` parsed once; None when it cannot be read or parsed."""
    if not path:
        return None
    if path not in _TREES:
        try:
            _TREES[path] = ast.parse(Path(path).read_text(encoding="utf-8", errors="replace"))
        except (OSError, SyntaxError, ValueError):
            _TREES[path] = None
    return _TREES[path]


def _base_name(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _stored_name(path: str | None, line: int) -> tuple[str, int, int] | None:
    """(name, the storing statement's last line, the last line of the ``except`` clause holding it or 0) when ``line``
    lies in a simple statement that stores into a name: an assignment (its target's base name) or a call of a
    container's store method (``name.append(...)``); None otherwise, or when the file does not parse."""
    tree = _tree(path)
    if tree is None:
        return None
    best: tuple[str, int, int] | None = None
    handlers = [h for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler)
                and h.lineno <= line <= (h.end_lineno or h.lineno)]
    handler_end = min((h.end_lineno or h.lineno for h in handlers), default=0)
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        name: str | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            name = _base_name(node.targets[0]) or _unpacked_name(node)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            name = _base_name(node.target)
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
              and node.value.func.attr in _CONTAINER_STORES):
            name = _base_name(node.value.func.value)
        if name is not None:
            best = (name, node.end_lineno or node.lineno, handler_end)
    return best


def _unpacked_name(node: ast.Assign) -> str | None:
    """s47: ``output, failed = ToolOutput(f"error: {e}"), True``: the first name given an item that is not a constant."""
    target, value = node.targets[0], node.value
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) and len(target.elts) == len(value.elts):
        return next((t.id for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name)
                     and not isinstance(v, ast.Constant)), None)
    return None


def _inside_loop(path: str | None, line: int, spans: list[tuple[int, int]]) -> bool:
    """The site's line opens a loop (``for attempt in range(...):``, the retry site as read) and a finding of the
    site's code starts inside that loop (TFH103 is reported at the loop's ``except Exception`` clause) (s45)."""
    tree = _tree(path)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and node.lineno == line:
            return any(line < lo <= (node.end_lineno or line) for lo, _ in spans)
    return False


def _exception_helper(path: str | None, line: int) -> str | None:
    """s55: the name of the innermost function holding ``line`` when a parameter of it is annotated as an exception
    class (``def api_error(message: str, exc: Exception)``, ``e: BaseException | None``, ``err: httpx.HTTPError``)."""
    tree = _tree(path)
    if tree is None:
        return None
    best: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno > best.lineno:
                best = node
    if best is None:
        return None
    a = best.args
    for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs):
        parts = re.split(r"[|\[\],\s]+", ast.unparse(arg.annotation)) if arg.annotation is not None else []
        if any(p.rsplit(".", 1)[-1].endswith(("Error", "Exception")) for p in parts if p):
            return best.name
    return None


def _helper_reported(path: str, line: int, calls: list[tuple[str, int, int]]) -> bool:
    """s55 (issue 24): the site lies in a helper handed the caught exception (:func:`_exception_helper`: an error
    formatter, ``return {"error": f"{message}: {exc}"}``) and a finding of the site's code lies on a line that calls
    the helper by name (``return api_error("Failed to fetch requesters", e)``). TFH401 reports such a helper's text at
    each caller's return, one finding per text (s49, rules/errors/exc_params.py), while a recall row counts the
    formatter once, at the helper (node804's ``api_error``, vsphere's ``_handle_error``, influencers-club's
    ``_error_response``: found at every caller, missed by the row's line)."""
    name = _exception_helper(path, line)
    if name is None:
        return False
    called = re.compile(rf"(?<![\w.])(?:self\.|cls\.)?{re.escape(name)}\s*\(")
    return any(called.search(source_line(p, n) or "") for p, lo, hi in calls for n in range(lo, hi + 1))


# --------------------------------------------------------------------------- report


def pct(num: int, den: int) -> str:
    return f"{100 * num / den:.0f}%" if den else "-"


def summary(corpus: Corpus, results: dict[str, dict[str, Any]], labels: list[dict[str, str]],
            misses: list[dict[str, str]]) -> str:
    out: list[str] = []
    findings = [f for r in results.values() for f in r["findings"]]
    codes = sorted({f["code"] for f in findings})
    for half in HALVES:
        pkgs = [p for p in corpus.packages if p.half == half and p.name in results]
        if not pkgs:
            continue
        out.append(f"## {half} half ({len(pkgs)} packages)\n")
        out.append("| package | version | files | lines | tools | " + " | ".join(codes) + " | total |")
        out.append("|---|---|---:|---:|---:|" + "---:|" * (len(codes) + 1))
        total: Counter[str] = Counter()
        tf = tl = tt = 0
        for p in pkgs:
            r = results[p.name]
            c = Counter(f["code"] for f in r["findings"])
            total += c
            tf, tl, tt = tf + r["files"], tl + r["lines"], tt + len(r["tools"])
            out.append(f"| {p.name} | {p.version} | {r['files']} | {r['lines']:,} | {len(r['tools'])} | "
                       + " | ".join(str(c.get(k, 0)) for k in codes) + f" | {sum(c.values())} |")
        out.append(f"| **all** | | {tf} | {tl:,} | {tt} | " + " | ".join(str(total.get(k, 0)) for k in codes)
                   + f" | {sum(total.values())} |\n")
    prec = precision(findings, labels)
    rec = recall(findings, misses)
    unl = unlabelled(findings, labels, load_baseline())
    for half in HALVES:
        if half not in prec and half not in rec:
            continue
        out.append(f"## labels, {half} half\n")
        out.append("| rule | findings | labelled | true | false | debatable | precision t/(t+f) | gone (t/f/d) "
                   "| moved | unlabelled (new) |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
        count = Counter(f["code"] for f in findings if f["half"] == half)
        loose = Counter(f["code"] for f in unl if f["half"] == half)
        fresh = Counter(f["code"] for f in unl if f["half"] == half and f["new"] == "yes")
        for code, c in sorted(prec.get(half, {}).items()):
            t, fa, d = c["true"], c["false"], c["debatable"]
            gone = f"{c['gone-true']}/{c['gone-false']}/{c['gone-debatable']}"
            out.append(f"| {code} | {count.get(code, 0)} | {t + fa + d} | {t} | {fa} | {d} | {pct(t, t + fa)} | {gone} "
                       f"| {c['moved']} | {loose.get(code, 0)} ({fresh.get(code, 0)}) |")
        if half in rec:
            out.append("\n| rule | harmful sites read | found | missed | recall |")
            out.append("|---|---:|---:|---:|---:|")
            for code, c in sorted(rec[half].items()):
                if code == "-":
                    continue
                out.append(f"| {code} | {c['found'] + c['missed']} | {c['found']} | {c['missed']} | "
                           f"{pct(c['found'], c['found'] + c['missed'])} |")
            read = len({(m["package"], m["path"], m["tool"]) for m in misses if m["half"] == half})
            out.append(f"\ntool functions read: {read}")
        out.append("")
    if prec:
        out.append("moved = labels matched to a finding by source text or span, not by line; unlabelled = findings of\n"
                   "the rule no label matches (new = not in the baseline keys, labels/*.keys), listed in unlabelled.tsv.\n")
    return "\n".join(out) + "\n"


def merge_only(corpus: Corpus, out: Path) -> int:
    """Rebuild summary.md from the last run's counts and findings with the labels as they are now."""
    counts_path = out / "counts.json"
    if not counts_path.exists():
        raise SystemExit(f"{counts_path} not found: run the survey once first")
    counts: dict[str, Any] = json.loads(counts_path.read_text())
    results: dict[str, dict[str, Any]] = {
        name: {"files": c["files"], "lines": c["lines"], "findings": [], "tools": [None] * c["tools"]}
        for name, c in counts.items()
    }
    for half in HALVES:
        path = out / f"findings-{half}.json"
        if path.exists():
            for f in json.loads(path.read_text()):
                if f["package"] in results:
                    results[f["package"]]["findings"].append(f)
    labels, misses = load_labels()
    labels = [r for r in labels if r["package"] in results]
    misses = [r for r in misses if r["package"] in results]
    text = summary(corpus, results, labels, misses)
    (out / "summary.md").write_text(text)
    write_unlabelled(out, [f for r in results.values() for f in r["findings"]], labels)
    print(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--half", choices=(*HALVES, "both"), default="both", help="which halves to lint (both)")
    ap.add_argument("--samples-for", choices=(*HALVES, "both", "none"), default="tuning",
                    help="which halves get readable samples (tuning; held-out only at the end)")
    ap.add_argument("--sample", type=int, default=20, help="findings per rule to sample (20)")
    ap.add_argument("--tool-sample", type=int, default=20, help="tool functions to sample for misses (20)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--select", default=None,
                    help="only these codes or prefixes (lint's --select; precision of other rules is then empty)")
    ap.add_argument("--package", action="append", help="only these packages (repeatable)")
    ap.add_argument("--batch", type=int, action="append",
                    help="only the packages of this batch (corpus.toml's `batch`; repeatable)")
    ap.add_argument("--labelled-for", default=None, metavar="CODES",
                    help="only packages with a label or misses row whose code starts with one of these "
                         "comma-separated prefixes (e.g. TFH1,TFH201): a quick re-measure of one rule family")
    ap.add_argument("--no-tools", action="store_true", help="skip `smullyan tools` (rule measurements only)")
    ap.add_argument("--out", type=Path, default=None,
                    help="where the output goes (WORK/out); the installs stay in WORK/site")
    ap.add_argument("--merge-only", action="store_true",
                    help="no install or lint: re-merge the labels into the last run's output (WORK/out)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "smullyan-survey",
                    help="scratch directory outside the repository ($TMPDIR/smullyan-survey)")
    args = ap.parse_args(argv)

    corpus = load_corpus()
    problems = check_corpus(corpus)
    if problems:
        raise SystemExit("bench/survey/corpus.toml disagrees with its split rule:\n  " + "\n  ".join(problems))
    repo = HERE.parent
    work = args.work.resolve()
    if work == repo or repo in work.parents:
        raise SystemExit(f"--work {work} is inside the repository; use a scratch directory outside it")
    out = (args.out or work / "out").resolve()
    if out == repo or repo in out.parents:
        raise SystemExit(f"--out {out} is inside the repository; use a scratch directory outside it")
    out.mkdir(parents=True, exist_ok=True)
    halves = HALVES if args.half == "both" else (args.half,)
    chosen = [p for p in corpus.packages if p.half in halves and (not args.package or p.name in args.package)
              and (not args.batch or p.batch in args.batch)]
    if args.labelled_for:
        chosen = [p for p in chosen if p.name in labelled_packages(args.labelled_for.split(","))]
    results: dict[str, dict[str, Any]] = {}
    if args.merge_only:
        return merge_only(corpus, out)
    for pkg in chosen:
        target = install(pkg, work / "site")
        results[pkg.name] = survey_package(pkg, target, args.jobs, args.select, tools_too=not args.no_tools)
        r = results[pkg.name]
        log(f"{pkg.half:8} {pkg.name}: {r['files']} files, {len(r['tools'])} tools, "
            f"{dict(sorted(Counter(f['code'] for f in r['findings']).items()))}")
    for half in halves:
        fs = [f for p in chosen if p.half == half for f in results[p.name]["findings"]]
        ts = [t for p in chosen if p.half == half for t in results[p.name]["tools"]]
        (out / f"findings-{half}.json").write_text(json.dumps(fs, indent=1))
        (out / f"tools-{half}.json").write_text(json.dumps(ts, indent=1))
        if args.samples_for in (half, "both"):
            write_samples(half, fs, ts, out, args.sample, args.tool_sample, args.seed)
    counts = {
        p.name: {"version": p.version, "half": p.half, "files": results[p.name]["files"],
                 "lines": results[p.name]["lines"], "tools": len(results[p.name]["tools"]),
                 "findings": dict(sorted(Counter(f["code"] for f in results[p.name]["findings"]).items()))}
        for p in chosen
    }
    (out / "counts.json").write_text(json.dumps(counts, indent=1))
    labels, misses = load_labels()
    labels = [r for r in labels if r["package"] in results]  # a half or package not run is not "gone"
    misses = [r for r in misses if r["package"] in results]
    text = summary(corpus, results, labels, misses)
    (out / "summary.md").write_text(text)
    write_unlabelled(out, [f for r in results.values() for f in r["findings"]], labels)
    print(text)
    log(f"out: {out} (summary.md, unlabelled.tsv, counts.json, findings-*.json, tools-*.json, samples/)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
