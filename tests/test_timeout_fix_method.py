"""Issue 28, "Fixes that never hurt": a generic HTTP request whose method is chosen at run time may be a
write (batch 5's held-out fixes: ``requests.request(method=self.method, ...)`` under ``if self.method ==
"POST"``, inside a loop whose ``except Timeout: continue`` the fix would have made live)."""

from __future__ import annotations

import textwrap

from smullyan.linter import fixes
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.findings import Finding


def found(src: str, code: str = "TFH201") -> list[Finding]:
    return [f for f in lint_source(src, "m.py", Config()) if f.code == code]


SRC = textwrap.dedent('''\
    import httpx
    import requests
    from requests import Timeout
    class Operation:
        def call(self, body):
            if self.method == "POST" or self.method == "PATCH":
                for _ in range(3):
                    try:
                        return requests.request(method=self.method, url=self.url, data=body)
                    except Timeout:
                        continue
            return requests.request("GET", self.url)
    def send(session: requests.Session, verb, url):
        return session.request(verb.upper(), url)
    def stream(verb, url):
        with requests.request(verb, url, stream=True) as r:
            return r.content
    def literal(session: requests.Session, url):
        return session.request("DELETE", url)
    ''')


def test_a_method_chosen_at_run_time_gets_the_finding_and_no_fix() -> None:
    reported = {f.line: f for f in found(SRC)}
    assert sorted(reported) == [9, 12, 14, 16, 19]
    for line in (9, 14, 16):
        assert reported[line].fix is None, line
        assert "the method is chosen at run time" in reported[line].message
    assert "`self.method`" in reported[9].message
    # a literal read or idempotent write keeps its fix
    assert reported[12].fix is not None and reported[19].fix is not None
    out = fixes.fix_text(SRC, "m.py", Config(), unsafe=True).text
    assert "data=body)" in out and 'request("GET", self.url, timeout=30)' in out


def test_tfh202_none_on_a_method_chosen_at_run_time_has_no_fix() -> None:
    src = "import requests\ndef f(m, url):\n    return requests.request(m, url, timeout=None)\n"
    (finding,) = found(src, "TFH202")
    assert finding.fix is None and "the method is chosen at run time" in finding.message


def test_a_long_process_keeps_its_finding_with_advice_and_no_fix() -> None:
    src = textwrap.dedent('''\
        import subprocess
        def setup(repo, path):
            subprocess.run(["npm", "install"], cwd=path, check=True)
            subprocess.run(["docker", "buildx", "build", "-t", "img", path], check=True)
            subprocess.run(["git", "clone", repo, path], check=True)
        ''')
    reported = found(src)
    assert [f.line for f in reported] == [3, 4, 5]
    for f in reported:
        assert f.fix is None
        assert "runs long by nature: a default would cut a healthy run; choose a bound above" in f.message
