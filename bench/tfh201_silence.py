"""Why TFH201 stays silent on each TFH201 misses row (session 55, issue 23; a probe, not rule code).

Monkeypatches ``CallWithoutTimeout.visit_Call`` / ``_check_spec`` with a copy of their branches that, where the rule
would stay silent, emits a TFH201 finding whose message is ``PROBE:<branch>:<qualname>`` (the engine positions it).
The copy mirrors the rule at session 55 (base 0e8fe2d): re-copy the branches when the rule changes.

  .venv/bin/python bench/tfh201_silence.py rows   WORK      # misses rows of batches 1-27 (skips batch 28 files/rows)
  .venv/bin/python bench/tfh201_silence.py lint   WORK      # lint their files with the probe (-j 1, in process)
  .venv/bin/python bench/tfh201_silence.py table  WORK      # reason -> rows, packages; WORK/res.json per row
A row with no PROBE and no finding on its line was never visited: the file screen (candidate_lines) or narrowing.
"""
import csv, glob, tomllib
from pathlib import Path
from collections import Counter, defaultdict

import sys, os, json, io, contextlib
import libcst as cst
from smullyan.rules.timeouts import tfh201_call_without_timeout as M
globals().update({k: v for k, v in vars(M).items() if not k.startswith("__")})
from smullyan.linter.rule import RawFinding
C = M.CallWithoutTimeout

def note(self, node, why):
    self.findings.append(RawFinding(node, self.code, self.name, "PROBE:" + why, None))

def _check_spec(self, node, at, qn, spec):
    k = self.knowledge
    if not spec.required: return note(at, "spec-not-required:" + qn) if False else note(self, at, "spec-not-required:" + qn)
    if has_star(node) and not self._kwargs_lack(node, spec): return note(self, at, "star-kwargs:" + qn)
    if argument(node, spec.keyword, spec.position) is not None: return note(self, at, "has-timeout-arg:" + qn)
    if any(argument(node, kw, None) is not None for kw in spec.carried_by): return note(self, at, "carried-by:" + qn)
    if dsn_may_carry(node, spec): return note(self, at, "dsn:" + qn)
    if id(node) in self.exempt: return note(self, at, "exempt:" + qn)
    if spec.scope_bounds and self.deadlines.get(self._function()): return note(self, at, "deadline:" + qn)
    if spec.scope_bounds and self._caller_bounds(): return note(self, at, "caller-bounds:" + qn)
    if self._interactive(node, qn): return note(self, at, interactive_why(self, node, qn) + ":" + qn)
    if self._owned_wait(node): return note(self, at, "owned-wait:" + qn)
    if decorator_bound(self.names.function, self.names, k): return note(self, at, "decorator-bound:" + qn)
    if self._timer_bounded(node): return note(self, at, "timer-bounded:" + qn)
    if self._client_default(node, qn, spec): return note(self, at, "client-default:" + qn)
    if self._socket_default(node, qn): return note(self, at, "socket-default:" + qn)
    if self._reporter(self.unread_process(node, qn)) is None: return note(self, at, "split-unread(TFH203):" + qn)
    return ORIG_CHECK(self, node, at, qn, spec)
ORIG_CHECK = C._check_spec

def visit_Call(self, node):
    k = self.knowledge
    if (last_name(node.func) or "") in k.worker_thread_calls:
        self.worker_lambdas.update(id(a.value) for a in node.args if isinstance(a.value, cst.Lambda))
    qn = self.names.qualname(node.func)
    held_asked = qn is None
    if qn is None:
        qn = self._held_method(node.func)
    if qn is None and isinstance(node.func, cst.Attribute) and self._known_method(node.func.attr.value):
        qn = param_method(self.names, node.func, self.ctx.path, self.ctx.screen, self.held_owners)
    if qn is None:
        qn = runner_default(self.names, node.func, self.classes[-1] if self.classes else None, PROCESS_RUNS)
        if qn is None:
            try: txt = cst.Module([]).code_for_node(node.func)[:50]
            except Exception: txt = "?"
            return note(self, node, "unresolved:" + txt)
        self.runner_calls.add(id(node))
    if qn in k.timeout_wrappers:
        self.wrapper_calls.add(id(node)); self._open(1)
    if k.canonical(qn) in k.forwarding_worker_calls:
        note(self, node, "forwarded:" + qn)
        self._forwarded(node); return
    spec = k.timeout_for(qn)
    if spec is None and not held_asked and isinstance(node.func, cst.Attribute) and self._known_method(node.func.attr.value) \
            and (held := self._held_method(node.func)) is not None and (spec := k.timeout_for(held)) is not None:
        qn = held
    if spec is None and (held := self._global_held(qn)) is not None and (spec := k.timeout_for(held)) is not None:
        qn = held
    if spec is not None:
        self._check_spec(node, node, qn, spec); return
    rule = None
    why = None
    if qn in k.needs_timeout_scope:
        if self.deadlines.get(self._function()): why = "deadline"
        elif id(node) in self.exempt: why = "exempt"
        elif self._caller_bounds(): why = "caller-bounds"
        elif self._owned_wait(node): why = "owned-wait"
        elif self._interactive(node, qn): why = interactive_why(self, node, qn)
        elif self._timer_bounded(node): why = "timer-bounded"
        else:
            rule = self._reporter(self.unread_process(node, qn))
            if rule is not None:
                rule.report(node, f"{qn} has no timeout{rule.unread_note}; {k.needs_timeout_scope[qn]}")
            else: why = "split-unread(TFH203)"
        if why: note(self, node, "scope-" + why + ":" + qn)
    if rule is not self and qn in k.no_timeout_parameter:
        if self.unread_only: pass
        elif self._unbounded_is_fine(node): note(self, node, "ntp-unbounded-fine:" + qn)
        elif decorator_bound(self.names.function, self.names, k): note(self, node, "ntp-decorator-bound:" + qn)
        else: self.report(node, f"{qn} has no timeout; {k.no_timeout_parameter[qn]}")
    if qn not in k.needs_timeout_scope and qn not in k.no_timeout_parameter:
        note(self, node, "no-table:" + qn)
def interactive_why(self, node, qn):
    if self._foreground_cli_process(node, qn): return "interactive-foreground-cli"
    return "interactive-silent-command"
C.visit_Call = visit_Call
C._check_spec = _check_spec

ORIG_CAND = C.candidate_lines.__func__
SPOTS = {}
@classmethod
def candidate_lines(cls, screen, knowledge):
    r = ORIG_CAND(cls, screen, knowledge)
    SPOTS[getattr(screen, "path", None) or len(SPOTS)] = sorted(set(r))
    return r
C.candidate_lines = candidate_lines

from smullyan.linter.cli import main
def cmd_lint():
    jobs = json.load(open("jobs.json"))  # [[pkgdir, [files]]...]
    out = {}
    for pkgdir, files in jobs:
        os.chdir(pkgdir)
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                main(["lint", "--no-cache", "--format", "json", "--exit-zero", "-j", "1", "--select", "TFH201", *files])
            out[pkgdir] = json.loads(buf.getvalue() or "[]")
        except BaseException as e:
            out[pkgdir] = {"error": repr(e)[:200]}
        print(pkgdir, file=sys.stderr, flush=True)
    json.dump(out, open(os.path.join(WORK, "out.json"), "w"))


def cmd_rows():
    from collections import defaultdict
    corp = tomllib.load(open(str(Path(__file__).parent / "survey") + "/corpus.toml", "rb"))
    pk = corp.get("package") or corp.get("packages")
    upto = int(os.environ.get("TFH201_UPTO", "27"))  # 28: batch 28's held-out half is tuning data since session 56
    since = int(os.environ.get("TFH201_FROM", "0"))  # s57: TFH201_FROM=20 TFH201_UPTO=29 pools batches 20-29
    batch = {p["name"]: p.get("batch") for p in pk if since <= (p.get("batch") or 0) <= upto}
    rows = []
    for f in sorted(glob.glob(str(Path(__file__).parent / "survey") + "/labels/misses-*.tsv")):
        if ("28" in os.path.basename(f) and upto < 28) or "tools" in f: continue
        held = os.path.basename(f)[len("misses-heldout"):-len(".tsv")]
        if held.isdigit() and not since <= int(held) <= upto: continue  # s57: never open a later (blind) batch's file
        lines = [l for l in open(f) if not l.startswith("#")]
        if lines and not lines[0].startswith("half\t"):  # misses-heldout28.tsv has no header line
            lines.insert(0, "half\tpackage\tpath\tline\tcode\ttool\tshape\tnote\tsource\n")
        for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
            if (r.get("code") or "").startswith("TFH201") and r["package"] in batch:
                r["batch"] = batch[r["package"]]; rows.append(r)
    print(len(rows), len({r["package"] for r in rows}))
    json.dump(rows, open("rows.json", "w"))
    files = defaultdict(set)
    for r in rows: files[r["package"]].add(r["path"])
    jobs = [[f"/tmp/smullyan-survey/site/{p}", sorted(x for x in v if os.path.isfile(f"/tmp/smullyan-survey/site/{p}/{x}"))] for p, v in sorted(files.items())]
    json.dump(jobs, open("jobs.json", "w")); print(len(jobs), sum(len(j[1]) for j in jobs))


def cmd_table():
    argv = []
    rows = json.load(open("rows.json")); out = json.load(open("out.json"))
    PRI = ["split-unread", "scope-", "has-timeout-arg", "star-kwargs", "carried-by", "dsn", "exempt", "deadline", "caller-bounds",
           "interactive", "owned-wait", "decorator-bound", "timer-bounded", "ntp-", "spec-not-required", "forwarded", "no-table", "unresolved"]
    def pri(m):
        r = m[6:]
        for i, p in enumerate(PRI):
            if r.startswith(p): return i
        return 99
    res = []
    for r in rows:
        pkg = f"/tmp/smullyan-survey/site/{r['package']}"
        fs = out.get(pkg)
        if fs is None: res.append((r, "not-linted", [])); continue
        if isinstance(fs, dict): res.append((r, "error", [])); continue
        L = int(r["line"])
        here = [f for f in fs if f["path"].endswith(r["path"]) and (f["line"] == L or f["line"] <= L <= f.get("end_line", f["line"]))]
        real = [f for f in here if not f["message"].startswith("PROBE:")]
        if real: res.append((r, "found", [f["message"][:60] for f in real])); continue
        near = [f for f in fs if f["path"].endswith(r["path"]) and abs(f["line"] - L) <= 2 and not f["message"].startswith("PROBE:")]
        if near: res.append((r, "found~", [f["message"][:60] for f in near])); continue
        pr = sorted((f["message"] for f in here if f["line"] == L), key=pri) or sorted((f["message"] for f in here), key=pri)
        if not pr: res.append((r, "not-visited", [])); continue
        m = pr[0][6:]
        kind = m.split(":", 1)[0]
        qn = m.split(":", 1)[1] if ":" in m else ""
        if kind == "no-table": kind = "no-table:" + qn
        res.append((r, kind, pr))
    json.dump([(r, k, p) for r, k, p in res], open("res.json", "w"))
    c = Counter(k if not k.startswith("no-table") else "no-table" for r, k, p in res)
    for k, n in c.most_common():
        sel = [r for r, kk, p in res if (kk if not kk.startswith("no-table") else "no-table") == k]
        pk = Counter(r["package"] for r in sel); bt = sorted({r["batch"] or 0 for r in sel})
        print(f"{k:28} {n:4} pkgs {len(pk):3} batches {len(bt):2} top {pk.most_common(4)}")


if __name__ == "__main__":
    WORK = os.path.abspath(sys.argv[2])
    os.makedirs(WORK, exist_ok=True)
    os.chdir(WORK)
    {"rows": cmd_rows, "lint": cmd_lint, "table": cmd_table}[sys.argv[1]]()
