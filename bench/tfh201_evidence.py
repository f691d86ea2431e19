"""TFH201's labels by the evidence a finding rests on: session 51's audit as a script.

Run: ``.venv/bin/python bench/tfh201_evidence.py [--findings OUT/findings-*.json OUT2 ...] [--codes TFH201]``

Reads every TFH201 label row of ``bench/survey/labels/*.tsv`` (``misses-*`` excluded), finds the labelled call in
the installed source (``/tmp/smullyan-survey/site/<package>`` for batches 1-18, ``/tmp/smullyan-survey-bN/site``
for the held-out halves of batches 19-24) and classifies it by what the finding rests on, with the rule's own
tables (``smullyan.linter.knowledge.processes``/``local_programs``, imported, not copied):

- **a** a network program spelled (``remote_cli``, ``NETWORK_PROGRAMS``, a URL argument, git's network verbs);
- **b** a long job (a process fix refusal that says long / agent session, ``NEVER_ENDING_PROCESSES``);
- **c** a spelled program in no table (``c*sub``: its sub-command is not spelled; else ``c-spelled``);
- **d** a command built at run time: ``d+word`` its literal words hold a network or long-job word
  (``network_or_long_words``), ``d-bare`` none;
- **e** a wait (``communicate()``/``wait()``) on a process, ``e-<kind of the command that started it>``,
  ``e-?`` when the start is not found, ``e-d`` when its command is built at run time;
- **f** an HTTP client call; **g** an SDK/DB client call; **h** other; **?** the file or call not found.

Prints the kind table (true/false/debatable and precision = true / (true + false) per kind and per batch group:
1-18, 19-22, 23, 24, ..., all) over all label rows; with ``--findings`` (survey ``--out`` runs' ``findings-*.json``
files, or the ``--out`` directories) also the rows a finding of ``--codes`` still reports and the rows gone, a label matched
to its finding as ``bench/survey.py`` does (``match_labels``: line, source text, span) and only for the
packages each run linted (its ``counts.json``, else the packages of its findings). ``--tsv FILE`` writes the
per-row kinds in the columns of ``bench/survey/tfh201-evidence-s51.tsv``; ``--check TSV`` says how many rows
agree with that file's kinds and lists the rows that do not.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shlex
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import survey  # noqa: E402  (bench/survey.py: the labels and how a label finds its finding)

from smullyan.linter.knowledge import local_programs as L  # noqa: E402
from smullyan.linter.knowledge import processes as P  # noqa: E402

BASE_SITE = Path("/tmp/smullyan-survey/site")
HELD_OUT_SITES = {n: Path(f"/tmp/smullyan-survey-b{n}/site") for n in range(19, 25)}
AUDIT_TSV = survey.SURVEY / "tfh201-evidence-s51.tsv"
KINDS = ("a", "b", "c", "d", "e", "f", "g", "h", "?")
SUBKINDS = ("c-spelled", "c*sub", "d+word", "d-bare", "e-a", "e-b", "e-c", "e-d", "e-?")
# The table's rows: each kind, c and e with their sub-kinds below them, d by its sub-kinds (d+word, d-bare).
TABLE_ROWS = ("a", "b", "c", "c-spelled", "c*sub", "d+word", "d-bare", "e", "e-a", "e-b", "e-c", "e-d", "e-?", "f", "g",
              "h", "?", "all")

PROC = {"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput", "system", "popen",
        "create_subprocess_exec", "create_subprocess_shell", "spawn", "run_process", "open_process", "execute",
        "spawnu"}
HTTP_VERBS = ("get", "post", "put", "delete", "patch", "head", "request", "stream", "send", "options")
HTTPMOD = re.compile(r"^(requests|httpx|aiohttp|urllib|urllib3|urllib\.request|http\.client)\b")
HTTPNOTE = re.compile(r"requests|httpx|aiohttp|urlopen|urllib|\bHTTP\b|http client|REST|http\.client|\bGET\b|\bPOST\b",
                      re.I)
SDKNOTE = re.compile(r"boto|redis|kubernetes|psycopg|smtp|websocket|imap|grpc|sdk|database|postgres|mysql|mongo|pika|"
                     r"kafka|paramiko|socket|ftp|ldap|sqlalchemy|asyncpg|elasticsearch|openai|anthropic", re.I)


class Row(NamedTuple):
    """One TFH201 label row with its evidence kind (the columns of tfh201-evidence-s51.tsv)."""
    label_file: str
    batch: int
    group: str
    package: str
    path: str
    line: int
    verdict: str
    shape: str
    kind: str
    call: str
    evidence: str
    source: str
    note: str
    half: str

    @property
    def subkind(self) -> str:
        if self.kind == "d":
            return "d+word" if self.evidence.startswith("d+word") else "d-bare"
        if self.kind == "c":
            return "c*sub" if self.evidence.startswith("c*") else "c-spelled"
        if self.kind == "e":
            return self.evidence.split(" ")[0]
        return self.kind

    def tsv(self) -> str:
        return "\t".join([self.label_file, str(self.batch), self.group, self.package, self.path, str(self.line),
                          self.verdict, self.shape, self.kind, self.call, self.evidence, self.source[:100],
                          self.note[:200]])


def batch_of(label_file: str) -> int:
    """The batch a label file reads: ``heldoutN-*`` N, ``heldout-sNN-rulesN`` N, else 1 (batches 1-2's files)."""
    m = re.search(r"heldout(\d+)", label_file) or re.search(r"-rules(\d+)", label_file)
    return int(m.group(1)) if m else 1


def group_of(batch: int) -> str:
    return "1-18" if batch <= 18 else "19-22" if batch <= 22 else str(batch)


def find_file(batch: int, package: str, rel: str, sites: dict[int, Path] | None = None,
              base: Path | None = None) -> Path | None:
    """The installed file: the batch's own site first, then the others (a package installed once)."""
    held = HELD_OUT_SITES if sites is None else sites
    base = BASE_SITE if base is None else base
    roots = ([held[batch]] if batch in held else [base]) + [base, *held.values()]
    for root in roots:
        path = root / package / rel
        if path.exists():
            return path
    return None


# --------------------------------------------------------------------------- reading the source

_PARSED: dict[Path, tuple[list[str], ast.Module] | None] = {}


def _parse(path: Path) -> tuple[list[str], ast.Module] | None:
    if path not in _PARSED:
        try:
            src = path.read_text(encoding="utf-8-sig", errors="replace")  # -sig: a BOM is no syntax error
            _PARSED[path] = (src.splitlines(), ast.parse(src))
        except Exception:  # noqa: BLE001  (unreadable or not Python: the row's kind is ?)
            _PARSED[path] = None
    return _PARSED[path]


def dotted(n: ast.AST) -> str:
    if isinstance(n, ast.Name):
        return n.id
    if isinstance(n, ast.Attribute):
        return dotted(n.value) + "." + n.attr
    if isinstance(n, ast.Call):
        return dotted(n.func) + "()"
    if isinstance(n, ast.Subscript):
        return dotted(n.value) + "[]"
    return "?"


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


class _File:
    """One parsed file: its lines, tree and parent map (the resolution is the audit's, not Python's scopes)."""

    def __init__(self, lines: list[str], tree: ast.Module) -> None:
        self.lines, self.tree, self.par = lines, tree, _parents(tree)

    def assigned(self, name: str, node: ast.AST) -> ast.expr | None:
        """The last assignment to ``name`` above ``node`` in its function, else in the module."""
        scope = node
        while scope in self.par and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scope = self.par[scope]
        line = getattr(node, "lineno", 0)
        best: ast.Assign | ast.AnnAssign | None = None
        scopes = [scope] if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        for sc in [*scopes, self.tree]:
            for n in ast.walk(sc):
                if isinstance(n, ast.Assign) and n.lineno < line:
                    for t in n.targets:
                        if isinstance(t, ast.Name) and t.id == name and (best is None or n.lineno > best.lineno):
                            best = n
                if (isinstance(n, ast.AnnAssign) and n.value is not None and isinstance(n.target, ast.Name)
                        and n.target.id == name and n.lineno < line and (best is None or n.lineno > best.lineno)):
                    best = n
            if best is not None:
                break
        return best.value if best is not None else None

    def words(self, e: ast.expr, node: ast.AST, depth: int = 0) -> tuple[list[str], bool]:
        """The command's words (``{}`` for one the code does not spell) and whether all are spelled."""
        if depth > 3:
            return ["{}"], False
        if isinstance(e, (ast.List, ast.Tuple)):
            out: list[str] = []
            whole = True
            for el in e.elts:
                if isinstance(el, ast.Constant) and isinstance(el.value, str):
                    out.append(el.value)
                elif isinstance(el, ast.Starred):
                    out += self.words(el.value, node, depth + 1)[0]
                    whole = False
                elif dotted(el) == "sys.executable":
                    out.append("sys.executable")
                elif (isinstance(el, ast.Call) and dotted(el.func).endswith("which") and el.args
                      and isinstance(el.args[0], ast.Constant)):
                    out.append(str(el.args[0].value))
                elif isinstance(el, ast.Name) and depth < 3:
                    v = self.assigned(el.id, node)
                    if isinstance(v, ast.Constant) and isinstance(v.value, str):
                        out.append(v.value)
                    else:
                        out.append("{}")
                        whole = False
                else:
                    out.append("{}")
                    whole = False
            return out, whole
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            try:
                return shlex.split(e.value), True
            except ValueError:
                return e.value.split(), True
        if isinstance(e, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in e.values).split(), False
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            a, wa = self.words(e.left, node, depth + 1)
            b, wb = self.words(e.right, node, depth + 1)
            return a + b, wa and wb
        if isinstance(e, ast.Name):
            v = self.assigned(e.id, node)
            if v is not None:
                return self.words(v, node, depth + 1)
        if (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "split"
                and isinstance(e.func.value, ast.Constant)):
            return str(e.func.value.value).split(), True
        return ["{}"], False

    def command_words(self, call: ast.Call, at: ast.AST) -> tuple[list[str], bool] | None:
        """A process call's command: ``create_subprocess_exec``'s arguments, else its first or ``args=``."""
        if dotted(call.func).rsplit(".", 1)[-1] == "create_subprocess_exec":
            words: list[str] = []
            whole = True
            for a in call.args:
                w, wh = self.words(a.value if isinstance(a, ast.Starred) else a, at)
                words += w
                whole = whole and wh and not isinstance(a, ast.Starred)
            return words, whole
        arg = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg in ("args", "cmd", "command")), None)
        return None if arg is None else self.words(arg, at)


def spelled_kind(words: list[str], whole: bool) -> str | None:
    """a, b or c for a command whose program is spelled (a shell line: its strongest segment); None if not."""
    argv = P._program_argv(words)
    if not argv or "{}" in argv[0] or argv[0].startswith("$") or argv[0] == "":
        return None
    segs = [argv]
    if argv[0] in P._SHELLS and len(argv) > 2 and argv[1] in P._SHELL_FLAGS:
        line = " ".join(argv[2:]).strip().strip("'\"")
        segs = [P._program_argv(s) for s in P.shell_commands(line)] or [argv]
        if any(s and "{}" in s[0] for s in segs):
            return None
    kinds = []
    for a in segs:
        if not a:
            continue
        h = a[0]
        if h in L._WRAPPERS or h == "sudo":
            rest = [w for w in a[1:] if not w.startswith("-") and "=" not in w]
            if rest:
                a = P._program_argv(rest)
                h = a[0]
            if "{}" in h:
                return None
        refusal = P.process_fix_refusal(a, whole) or ""
        if (P.remote_cli(a) or h in L.NETWORK_PROGRAMS or any("://" in w and not w.startswith("file://") for w in a)
                or (h == "git" and len(a) > 1 and a[1] in L._GIT_NETWORK)):
            kinds.append("a")
        elif ("long" in refusal or "agent session" in refusal or h in L.NEVER_ENDING_PROCESSES
              or " ".join(a[:2]) in L.NEVER_ENDING_PROCESSES):
            kinds.append("b")
        else:
            kinds.append("c")
    return next((k for k in "abc" if k in kinds), "c")


def _command_kind(words: list[str], whole: bool) -> tuple[str, str]:
    """(kind, evidence) of a process's command: a/b/c spelled, c*sub, d (+word)."""
    k = spelled_kind(words, whole)
    ws = " ".join(words)[:80]
    argv = P._program_argv(words)
    if k == "c" and len(argv) > 1 and "{}" in argv[1]:
        return "c", "c*sub-unspelled | " + ws
    if k is None:
        ev = L.network_or_long_words(words)
        return "d", ("d+word:" + ev + " | " if ev else "") + ws
    return k, ws


def _wait_kind(f: _File, n: ast.Call) -> str:
    """``e-<kind>`` of the process a ``communicate()``/``wait()`` waits on, and its words."""
    rec = n.func.value if isinstance(n.func, ast.Attribute) else None
    v: ast.AST | None = None
    if isinstance(rec, ast.Name):
        v = f.assigned(rec.id, n)
    elif isinstance(rec, ast.Attribute):
        for m in ast.walk(f.tree):
            if isinstance(m, ast.Assign) and any(dotted(t) == dotted(rec) for t in m.targets):
                v = m.value
    if isinstance(rec, ast.Call):
        v = rec
    if isinstance(v, ast.Await):
        v = v.value
    if not isinstance(v, ast.Call):
        return "e-? "
    started = dotted(v.func).rsplit(".", 1)[-1]
    if started not in PROC:
        return "e-? " + started
    cmd = f.command_words(v, n)
    if cmd is None:
        return "e-d "
    words, whole = cmd
    return "e-" + (spelled_kind(words, whole) or "d") + " " + " ".join(words)[:80]


def _candidates(f: _File, line: int, source: str) -> list[ast.Call]:
    """The calls on the label's line, else on a line within 12 with its source text, else those covering it."""
    calls = [n for n in ast.walk(f.tree) if isinstance(n, ast.Call)]
    cand = [n for n in calls if n.lineno == line]
    if not cand and source:
        key = re.sub(r"\s+", " ", source).strip()[:40]
        for d in range(0, 13):
            for ln in (line - d, line + d):
                if 1 <= ln <= len(f.lines) and key and key[:25] in re.sub(r"\s+", " ", f.lines[ln - 1]).strip():
                    cand = [n for n in calls if n.lineno == ln]
                    if cand:
                        break
            if cand:
                break
    if not cand:
        cand = sorted((n for n in calls if n.lineno <= line <= (n.end_lineno or n.lineno)),
                      key=lambda n: (n.end_lineno or n.lineno) - n.lineno)
    return cand


def classify(path: Path, line: int, source: str = "", note: str = "", shape: str = "") -> tuple[str, str, str]:
    """(kind, call, evidence) of the labelled call at ``path:line``."""
    parsed = _parse(path)
    if parsed is None:
        return "?", "noparse", ""
    f = _File(*parsed)
    cand = _candidates(f, line, source)
    if not cand:
        return "?", "nocall", ""

    def rank(n: ast.Call) -> int:
        fn = dotted(n.func)
        last = fn.rsplit(".", 1)[-1]
        return 0 if last in ("communicate", "wait") or last in PROC or HTTPMOD.match(fn) else 1

    cand.sort(key=lambda n: (rank(n), -((n.end_lineno or n.lineno) - n.lineno)))
    n = cand[0]
    fn = dotted(n.func)
    last = fn.rsplit(".", 1)[-1]
    if last == "communicate":
        return "e", fn, _wait_kind(f, n)
    if (last == "wait" and fn not in ("asyncio.wait", "concurrent.futures.wait", "wait")
            and not re.search(r"event|cond|lock|barrier|asyncio\.wait_for", fn, re.I)):
        return "e", fn, _wait_kind(f, n)
    if fn == "asyncio.to_thread" and n.args and dotted(n.args[0]).rsplit(".", 1)[-1] in PROC:
        n = ast.Call(func=n.args[0], args=n.args[1:], keywords=n.keywords, lineno=n.lineno,
                     end_lineno=n.end_lineno, col_offset=0)
        fn = dotted(n.func)
        last = fn.rsplit(".", 1)[-1]
    if last in ("subprocess_run", "real_run"):
        last = "run"
    if isinstance(n.func, ast.Name):  # an alias, `real_run = subprocess.run`: the function it names
        target = f.assigned(n.func.id, n)
        if isinstance(target, (ast.Name, ast.Attribute)) and dotted(target).rsplit(".", 1)[-1] in PROC:
            fn = dotted(target)
            last = fn.rsplit(".", 1)[-1]
    if last in PROC and (re.search(r"subprocess|^os\.|asyncio|pexpect|anyio|trio|^_?sp\.|^sh\.", fn)
                         or last in ("Popen", "create_subprocess_exec", "create_subprocess_shell", "check_output",
                                     "check_call")
                         or (last == "run" and re.search(r"subprocess|process|command|argv|git|cli|install",
                                                         note + shape, re.I))):
        cmd = f.command_words(n, n)
        if cmd is None:
            return "d", fn, "noarg"
        kind, evidence = _command_kind(*cmd)
        return kind, fn, evidence
    if last == "exec_run":
        return "g", fn, "docker-sdk exec_run"
    if HTTPMOD.match(fn) or last == "urlopen" or re.search(r"http|requests", shape):
        return "f", fn, ""
    if (last in HTTP_VERBS
            and HTTPNOTE.search(note) and not SDKNOTE.search(note.split("|")[0][:80])):
        return "f", fn, "bynote"
    if HTTPNOTE.search(note[:160]) and not re.search(r"subprocess|process|CLI|command", note[:160]):
        return "f", fn, "bynote"
    if SDKNOTE.search(note[:200]):
        return "g", fn, "bynote"
    if last in HTTP_VERBS and re.search(r"session(\(\))?$", fn.rsplit(".", 1)[0], re.I):
        return "f", fn, "session"  # an HTTP session's verb (`self.session.delete(...)`, `self.__session().patch(...)`)
    return "h", fn, ""
""


# --------------------------------------------------------------------------- the label rows


def label_rows(labels_dir: Path = survey.LABELS, code: str = "TFH201") -> Iterable[tuple[str, dict[str, str]]]:
    """(label file name, row) of every ``code`` label (misses excluded), files in name order."""
    for path in sorted(labels_dir.glob("*.tsv")):
        if not path.name.startswith("misses-"):
            for row in survey.read_tsv(path, survey.LABEL_COLUMNS):
                if row["code"] == code:
                    yield path.name, row


def classify_row(label_file: str, row: dict[str, str], sites: dict[int, Path] | None = None,
                 base: Path | None = None) -> Row:
    batch = batch_of(label_file)
    path = find_file(batch, row["package"], row["path"], sites, base)
    source = row.get(survey.SOURCE_COLUMN) or ""
    if path is None:
        kind, call, evidence = "?", "nofile", ""
    else:
        try:
            kind, call, evidence = classify(path, int(row["line"]), source, row["note"], row["shape"])
        except Exception as e:  # noqa: BLE001  (one odd file must not stop the table; the row says why)
            kind, call, evidence = "?", "err:" + repr(e)[:60], ""
    return Row(label_file, batch, group_of(batch), row["package"], row["path"], int(row["line"]), row["verdict"],
               row["shape"], kind, call, evidence, source, row["note"], row["half"])


def rows(labels_dir: Path = survey.LABELS, sites: dict[int, Path] | None = None, base: Path | None = None) -> list[Row]:
    return [classify_row(name, row, sites, base) for name, row in label_rows(labels_dir)]


# --------------------------------------------------------------------------- still reported by a run


def load_findings(paths: list[Path]) -> tuple[list[dict[str, Any]], set[tuple[str, str]]]:
    """The findings of survey runs and the (half, package) pairs each run linted (its counts.json)."""
    findings: list[dict[str, Any]] = []
    linted: set[tuple[str, str]] = set()
    for path in paths:
        fs = json.loads(path.read_text(encoding="utf-8"))
        findings += fs
        counts = path.parent / "counts.json"
        if counts.exists():
            linted |= {(c["half"], name) for name, c in json.loads(counts.read_text(encoding="utf-8")).items()}
        else:
            linted |= {(f["half"], f["package"]) for f in fs}
    return findings, linted


def reported(table: list[Row], findings: list[dict[str, Any]], linted: set[tuple[str, str]],
             codes: tuple[str, ...] = ("TFH201",)) -> list[tuple[Row, bool]]:
    """Each row of a linted package: whether a finding of ``codes`` still reports it (survey's matching)."""
    ours = [{**f, "code": "TFH201"} for f in findings if f["code"] in codes]
    live = [r for r in table if (r.half, r.package) in linted]
    labels = [{"half": r.half, "package": r.package, "path": r.path, "line": str(r.line), "code": "TFH201",
               "verdict": r.verdict, survey.SOURCE_COLUMN: r.source} for r in live]
    hits = {survey._label_key(row): hit is not None for row, hit, _how in survey.match_labels(ours, labels)}
    return [(r, hits[(r.half, r.package, r.path, r.line, "TFH201")]) for r in live]


# --------------------------------------------------------------------------- the table


def _groups(table: Iterable[Row]) -> list[str]:
    gs = {r.group for r in table}
    return sorted(gs, key=lambda g: int(g.split("-")[0])) + ["all"]


def _cell(c: Counter[str]) -> str:
    t, f, d = c["true"], c["false"], c["debatable"]
    return f"{t}/{f}/{d} " + (f"{100 * t / (t + f):.0f}%" if t + f else "-")


def kind_table(title: str, table: list[Row], groups: list[str]) -> str:
    """One markdown table: a row per kind (and e's sub-kinds), a column per batch group, t/f/d and precision."""
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for r in table:
        for g in (r.group, "all"):
            for k in {r.kind, r.subkind, "all"}:
                counts[(k, g)][r.verdict] += 1
    out = [f"{title} ({len(table)} rows)", "", "| kind | " + " | ".join(groups) + " |",
           "|---|" + "---:|" * len(groups)]
    for k in TABLE_ROWS:
        if any(counts[(k, g)] for g in groups):
            name = f"**{k}**" if k == "all" else (f"- {k}" if k[:2] in ("c-", "c*", "e-") else k)
            out.append(f"| {name} | " + " | ".join(_cell(counts[(k, g)]) for g in groups) + " |")
    return "\n".join(out) + "\n"


def check(table: list[Row], audit: Path) -> tuple[int, list[str]]:
    """How many rows have the audit tsv's kind (and sub-kind); the rows that differ, one line each."""
    theirs: dict[tuple[str, str, str, int], list[str]] = defaultdict(list)
    for line in audit.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            c = line.split("\t")
            theirs[(c[0], c[3], c[4], int(c[5]))].append(c[8] + "\t" + c[10])
    same, diff = 0, []
    for r in table:
        pool = theirs.get((r.label_file, r.package, r.path, r.line))
        if not pool:
            diff.append(f"not in {audit.name}: {r.label_file} {r.package} {r.path}:{r.line} {r.subkind}")
            continue
        kind, ev = pool.pop(0).split("\t", 1)
        other = r._replace(kind=kind, evidence=ev)
        if other.subkind == r.subkind:
            same += 1
        else:
            diff.append(f"{r.label_file} {r.package} {r.path}:{r.line}: {other.subkind} in {audit.name}, now {r.subkind}"
                        f" ({r.call} {r.evidence[:60]})")
    diff += [f"only in {audit.name}: {k}" for k, v in theirs.items() for _ in v]
    return same, diff


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--findings", type=Path, nargs="+", action="extend", default=[],
                    help="survey runs' findings-<half>.json files, or their --out directories (every findings-*.json "
                         "in them; repeatable): also the rows they still report")
    ap.add_argument("--codes", default="TFH201",
                    help="comma-separated codes whose findings report a TFH201 label (TFH201)")
    ap.add_argument("--labels", type=Path, default=survey.LABELS, help="the labels directory (bench/survey/labels)")
    ap.add_argument("--tsv", type=Path, help="write the per-row kinds here (tfh201-evidence-s51.tsv's columns)")
    ap.add_argument("--check", type=Path, nargs="?", const=AUDIT_TSV,
                    help=f"compare the kinds with an audit tsv ({AUDIT_TSV.relative_to(HERE.parent)})")
    args = ap.parse_args(argv)
    table = rows(args.labels)
    groups = _groups(table)
    print(kind_table("All TFH201 label rows", table, groups))
    if args.findings:
        codes = tuple(c.strip() for c in args.codes.split(",") if c.strip())
        files = [f for p in args.findings for f in (sorted(p.glob("findings-*.json")) if p.is_dir() else [p])]
        findings, linted = load_findings(files)
        status = reported(table, findings, linted, codes)
        print(f"Packages linted by the runs: {len({p for _h, p in linted})}; label rows of them: {len(status)}\n")
        print(kind_table(f"Still reported by {'/'.join(codes)}", [r for r, hit in status if hit], groups))
        print(kind_table("Gone", [r for r, hit in status if not hit], groups))
    if args.tsv:
        head = [ln for ln in AUDIT_TSV.read_text(encoding="utf-8").splitlines() if ln.startswith("# columns")]
        args.tsv.write_text("\n".join([*head, *(r.tsv() for r in table)]) + "\n", encoding="utf-8")
    if args.check:
        same, diff = check(table, args.check)
        print(f"{same} of {len(table)} rows have {args.check.name}'s kind ({len(diff)} lines differ)")
        for line in diff:
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
