"""bench/tfh201_evidence.py: a TFH201 label row's evidence kind, read from the installed source (fixture rows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_support import load_bench

ev = load_bench("tfh201_evidence")

CALLS = '''\
import subprocess
import requests


def fetch(url):
    return requests.get(url)


def push():
    subprocess.run(["git", "push", "origin", "main"], capture_output=True)


def install(name):
    subprocess.run(["pip", "install", name], check=True)


def local_tool():
    subprocess.run(["mytool", "--flag"], capture_output=True)


def model_command(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True)


def clone(git, url):
    subprocess.run([git, "clone", url], capture_output=True)


def grep(root):
    proc = subprocess.Popen(["rg", "--json", root], stdout=subprocess.PIPE)
    out, _ = proc.communicate()
    return out


def wait_on(cmd):
    p = subprocess.Popen(cmd)
    p.wait()


class Client:
    def close(self):
        self.session.delete(self.url)


real_run = subprocess.run


def probe():
    return real_run(["mytool", "probe"], capture_output=True)


def words(args):
    return subprocess.run(["git", *args], capture_output=True)


def add(a, b):
    return sum([a, b])
'''

# (line, verdict, expected sub-kind, the evidence's start)
ROWS = [
    (6, "true", "f", ""),                         # requests.get: an HTTP client
    (10, "true", "a", "git push"),               # a network program spelled
    (14, "true", "b", "pip install"),            # a long job
    (18, "false", "c-spelled", "mytool"),        # a spelled program in no table
    (22, "true", "d-bare", "{}"),                # a command built at run time, no word of the network
    (26, "true", "d+word", "d+word:clone"),      # built at run time, its words name the network
    (31, "true", "e-c", "e-c rg --json"),        # a wait on a process whose program is spelled, in no table
    (37, "false", "e-d", "e-d {}"),              # a wait on a process whose command is built at run time
    (42, "true", "f", "session"),                # an HTTP session's verb
    (49, "false", "c-spelled", "mytool probe"),  # an alias of subprocess.run
    (53, "debatable", "c*sub", "c*sub"),         # git, its sub-command unspelled
    (57, "false", "h", ""),                      # nothing the audit reads
]


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    pkg = tmp_path / "site" / "demo" / "demo"
    pkg.mkdir(parents=True)
    (pkg / "calls.py").write_text(CALLS, encoding="utf-8")
    (pkg / "bom.py").write_bytes(b"\xef\xbb\xbfimport requests\n\n\ndef post(url):\n    return requests.post(url)\n")
    return tmp_path / "site"


def _label(line: int, verdict: str, path: str = "demo/calls.py") -> dict[str, str]:
    return {"half": "held-out", "package": "demo", "path": path, "line": str(line), "code": "TFH201",
            "verdict": verdict, "shape": "-", "note": "fixture", "source": ""}


@pytest.mark.parametrize(("line", "verdict", "kind", "evidence"), ROWS, ids=[f"{r[0]}-{r[2]}" for r in ROWS])
def test_each_fixture_row_gets_its_kind(site: Path, line: int, verdict: str, kind: str, evidence: str) -> None:
    row = ev.classify_row("heldout7-timeout.tsv", _label(line, verdict), sites={}, base=site)
    assert (row.subkind, row.batch, row.group) == (kind, 7, "1-18")
    assert row.evidence.startswith(evidence)


def test_bom_and_missing_file(site: Path) -> None:
    assert ev.classify_row("heldout23-timeout.tsv", _label(5, "true", "demo/bom.py"), sites={}, base=site).kind == "f"
    gone = ev.classify_row("heldout23-timeout.tsv", _label(5, "true", "demo/nowhere.py"), sites={}, base=site)
    assert (gone.kind, gone.call, gone.group) == ("?", "nofile", "23")


def test_batch_of_a_label_file() -> None:
    assert [ev.batch_of(n) for n in ("heldout24-timeout.tsv", "heldout-s44-rules17.tsv", "tuning-timeout.tsv")] == [
        24, 17, 1]
    assert [ev.group_of(b) for b in (1, 18, 19, 22, 23, 30)] == ["1-18", "1-18", "19-22", "19-22", "23", "30"]


def test_still_reported_rows_and_the_table(site: Path) -> None:
    table = [ev.classify_row("heldout23-timeout.tsv", _label(line, verdict), sites={}, base=site)
             for line, verdict, _k, _e in ROWS]
    # the run reports the git push (at its line) and the HTTP session's verb (a finding whose span covers the label)
    findings = [
        {"half": "held-out", "package": "demo", "relpath": "demo/calls.py", "line": 10, "end_line": 10, "code": "TFH201"},
        {"half": "held-out", "package": "demo", "relpath": "demo/calls.py", "line": 41, "end_line": 42, "code": "TFH299"},
        {"half": "held-out", "package": "other", "relpath": "x.py", "line": 1, "end_line": 1, "code": "TFH201"},
    ]
    linted = {("held-out", "demo")}
    hits = {r.line for r, hit in ev.reported(table, findings, linted) if hit}
    assert hits == {10}
    hits = {r.line for r, hit in ev.reported(table, findings, linted, ("TFH201", "TFH299")) if hit}
    assert hits == {10, 42}
    assert ev.reported(table, findings, {("held-out", "other")}) == []  # a package not linted is not "gone"
    text = ev.kind_table("t", table, ["23", "all"])
    assert "| a | 1/0/0 100% | 1/0/0 100% |" in text
    assert "| - c*sub | 0/0/1 - | 0/0/1 - |" in text
    assert "| e | 1/1/0 50% | 1/1/0 50% |" in text
    assert "| **all** | 7/4/1 64% | 7/4/1 64% |" in text
