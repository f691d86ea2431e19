"""bench/tfh101_evidence.py: what a TFH101 finding rests on, recorded from the rule while it lints (fixture files)."""

from __future__ import annotations

from pathlib import Path

from bench_support import load_bench

ev = load_bench("tfh101_evidence")

CLIENT = '''\
import time
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


class Client:
    def __init__(self):
        self.session = requests.Session()

    def request(self, method, path, body=None):
        for attempt in range(3):
            try:
                return self.session.request(method, "https://api.example.com" + path, json=body, timeout=10)
            except requests.RequestException:
                time.sleep(2 ** attempt)

    def create_issue(self, title):
        return self.request("POST", "/issues", {"title": title})


def send_alert(url, text):
    for attempt in range(3):
        try:
            return requests.post(url, json={"text": text}, timeout=5)
        except Exception:
            time.sleep(attempt)


def mounted():
    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, allowed_methods=["GET", "POST"])))
    return session
'''


def test_lint_records_what_each_finding_rests_on(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(CLIENT, encoding="utf-8")
    before = (ev.rule.repeated_writes, ev.rule.urllib3_writes, ev.rule.RetryNonIdempotentWrite.report)
    findings = ev.lint("fixture", tmp_path, ["client.py"])
    # the rule is itself again once the lint is done
    assert (ev.rule.repeated_writes, ev.rule.urllib3_writes, ev.rule.RetryNonIdempotentWrite.report) == before
    by_line = {f["line"]: f for f in findings}
    assert sorted(by_line) == [12, 23, 32]
    assert all(ev.TAG not in f["message"] and f["code"] == "TFH101" for f in findings)
    source = CLIENT
    kinds = {line: ev.evidence(f["evidence"], source, line) for line, f in by_line.items()}
    assert kinds[12] == {"write": "HTTP verb a parameter", "cond": "named exceptions", "kind": "loop", "name": "named-write"}
    assert kinds[23] == {"write": "HTTP path unread", "cond": "every exception", "kind": "loop", "name": "named-write"}
    assert kinds[32] == {"write": "urllib3 policy", "cond": "status only", "kind": "urllib3", "name": "unnamed"}


def test_write_kinds_from_the_rules_text() -> None:
    assert ev.write_kind("POST to '/v1/tunnels'", "loop") == "HTTP literal path"
    assert ev.write_kind("POST through httpx.AsyncClient.post", "loop") == "HTTP path unread"
    assert ev.write_kind("POST through httpx.Client.request, as the call of _send() at line 141 asks", "loop") == \
        "HTTP verb a parameter"
    assert ev.write_kind("requests.request(method=...) in retry(), whose method is a parameter: a caller's POST is re-sent",
                         "tenacity") == "HTTP verb a parameter"
    assert ev.write_kind("mcp.ClientSession.call_tool", "tenacity") == "MCP tool run"
    assert ev.write_kind("pipe.xadd()", "configured") == "SDK/Redis/publish"
    assert ev.write_kind("urllib3 GET, POST", "urllib3") == "urllib3 policy"


def test_named_reads_the_defs_of_the_retry_the_write_and_the_caller() -> None:
    source = "def get_margin(s):\n    return s.post('/m')\n\n\ndef _request(m):\n    pass\n\n\ndef archive():\n    _request('POST')\n"
    assert ev.named(source, 2, {"what": "POST through requests.Session.post", "where": "2"}) == "named-read"
    assert ev.named(source, 6, {"what": "POST through requests.Session.request, as the call of _request() at line 10 asks",
                                "where": "6"}) == "unnamed"  # archive: an idempotent write, no non-idempotent verb
    assert ev.named("def send(x):\n    pass\n", 2, {"what": "x", "where": ""}) == "named-write"


def test_report_counts_each_side_of_a_split_per_range() -> None:
    def row(batch: str, verdict: str, cond: str) -> dict[str, object]:
        return {"batch": batch, "verdict": verdict,
                "evidence": {"write": "HTTP path unread", "cond": cond, "kind": "loop", "name": "unnamed"}}

    done = [row("5", "true", "every exception"), row("20", "true", "every exception"), row("24", "true", "named exceptions"),
            row("24", "false", "condition not read"), row("24", "miss", "named exceptions"),
            {"batch": "24", "verdict": "false", "evidence": None}]
    text = ev.report(done, [(2, 18), (19, 22), (23, 26)])
    assert text.splitlines()[0] == "rows 6: labels 5, misses 1; not reported now: t/f/d 0/1/0, misses rows 0"
    line = next(x for x in text.splitlines() if x.startswith("| D. "))
    assert line == "| D. the condition read: every exception or named exceptions | on | 1/0/0 | 1/0/0 | 1/0/0 | 3/0/0 | 100% | 1 | 3 |"
