"""Issue 28, "Fixes that never hurt", on batch 4's shapes: no default timeout on transfers, benchmarks
and load tests, or non-idempotent HTTP writes (the finding stays, with advice); the seconds by kind
(``default-timeout-seconds`` as a table); the program a ``shutil.which`` found; a CLI's exit code that
is its child's."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from smullyan.linter import fixes
from smullyan.linter.cli import main
from smullyan.linter.config import Config, ConfigError, from_mapping
from smullyan.linter.engine import lint_source
from smullyan.linter.findings import Finding


def fix(src: str, config: Config | None = None) -> str:
    return fixes.fix_text(src, "m.py", config or Config()).text


def found(src: str, code: str = "TFH201", config: Config | None = None) -> list[Finding]:
    # s52: TFH201 was split by evidence: TFH203 (off by default, selected here) reports the processes whose command the
    # linter cannot read, with TFH201's fixes and refusals; these tests are about the fix, so they count either code
    config = (config or Config()).with_overrides(extend_select=["TFH203"])
    codes = (code, "TFH203") if code == "TFH201" else (code,)
    return [f for f in lint_source(src, "m.py", config) if f.code in codes]


@pytest.mark.parametrize("command, program", [
    ('["aws", "s3", "cp", path, "s3://bucket/"]', "`aws s3`"),
    ('["aws", "s3", "sync", path, "s3://bucket/"]', "`aws s3`"),
    ('["gsutil", "-m", "cp", "-r", path, "gs://bucket"]', "`gsutil`"),
    ('["rclone", "copy", path, "remote:"]', "`rclone`"),
    ('["rsync", "-a", path, "host:/srv"]', "`rsync`"),
    ('["scp", path, "host:/tmp"]', "`scp`"),
    ('["azcopy", "copy", path, "https://acct.blob.core.windows.net/c"]', "`azcopy`"),
    ('[sys.executable, "-m", "locust", "--headless", "--run-time", "5m", *extra]', "`locust`"),
    ('["k6", "run", "load.js"]', "`k6`"),
    ('["wrk", "-d", "60s", "http://localhost:8000"]', "`wrk`"),
    ('["hyperfine", "make test"]', "`hyperfine`"),
    ('["acme", "upload", path]', "`acme upload`"),
    ('["pre-commit", "run", "--files", path]', "`pre-commit`"),
    ('"cd out && gsutil cp report.html gs://bucket/"', "`gsutil`"),
    ('["docker", "buildx", "build", "--load", "--tag", path, "."]', "`docker buildx build`"),
    ('["docker", "image", "pull", path]', "`docker image pull`"),
    ('["git", "commit", "--amend", path]', "`git commit`"),  # s42: with no message (an editor); `-m` is silent
    ('["robocopy", path, "C:/work/case", "/E"]', "`robocopy`"),
])
def test_no_fix_for_a_transfer_or_a_load_test(command: str, program: str) -> None:
    shell = ", shell=True" if command.startswith('"') else ""
    src = f"import subprocess, sys\ndef f(path, extra):\n    subprocess.run({command}{shell}, check=True)\n"
    reported = found(src)
    assert len(reported) == 1 and reported[0].fix is None, [f.message for f in reported]
    assert f"{program} runs long by nature" in reported[0].message
    assert fix(src) == src


def test_a_session_recorder_without_a_command_is_an_interactive_shell() -> None:
    # `script -q log` (an f-string run through a shell) hands a shell to the person: no finding, no fix
    src = 'import subprocess\ndef shell(log):\n    subprocess.run(f"script -q {log}", shell=True)\n'
    assert found(src) == []
    assert fix(src) == src


@pytest.mark.parametrize("command, reported, fixed", [
    ('["script", "-q", "-c", "pip install -r r.txt", log]', "`pip` runs long by nature", False),
    ('f"script -q -c {cmd} {log}"', "built at run time", False),
    ('["script", "-q", "/tmp/s.log", "make"]', "`make` runs long by nature", False),
    ('["script", "-q", "-c", "ls -l", log]', None, True),
])
def test_a_session_recorder_with_a_command_is_read_as_that_command(command: str, reported: str | None, fixed: bool) -> None:
    shell = ", shell=True" if command.startswith("f") else ""
    src = f"import subprocess\ndef f(cmd, log):\n    subprocess.run({command}{shell})\n"
    findings = found(src)
    assert len(findings) == 1
    assert (findings[0].fix is not None) is fixed, findings[0].message
    if reported is not None:
        assert reported in findings[0].message


def test_a_quick_command_keeps_its_fix() -> None:
    src = 'import subprocess\nsubprocess.run(["aws", "sts", "get-caller-identity"], check=True)\n'
    assert fix(src) == 'import subprocess\nsubprocess.run(["aws", "sts", "get-caller-identity"], check=True, timeout=30)\n'


WRITES = textwrap.dedent('''\
    import requests
    import urllib.request
    session = requests.Session()
    def writes(url, body):
        requests.post(url, json=body)
        session.patch(url, json=body)
        requests.request("POST", url, json=body)
        session.request(method="patch", url=url)
        urllib.request.urlopen(url, body)
        urllib.request.urlopen(url, data=body)
    ''')


def test_a_non_idempotent_http_write_is_reported_with_advice_and_no_fix() -> None:
    reported = found(WRITES)
    assert [f.line for f in reported] == [5, 6, 7, 8, 9, 10]
    for f in reported:
        assert f.fix is None, f.message
        assert "may act on the server even when the timeout fires" in f.message
        assert "outcome is unknown" in f.message
    assert "a POST may act" in reported[0].message and "a PATCH may act" in reported[1].message
    assert fix(WRITES) == WRITES


def test_reads_idempotent_writes_and_keyed_posts_keep_the_fix() -> None:
    src = textwrap.dedent('''\
        import requests
        import urllib.request
        def calls(url, body, key):
            requests.get(url)
            requests.head(url)
            requests.put(url, json=body)
            requests.delete(url)
            requests.request("GET", url)
            requests.post(url, json=body, headers={"Idempotency-Key": key})
            requests.post("https://api.example.com/v1/search", json=body)
            urllib.request.urlopen(url)
        ''')
    reported = found(src)
    assert len(reported) == 8 and all(f.fix is not None for f in reported), [f.message for f in reported]
    assert fix(src).count("timeout=30") == 8


def test_a_graphql_mutation_is_a_write_and_a_graphql_query_a_read() -> None:
    src = textwrap.dedent('''\
        import requests
        def calls(endpoint, name):
            remove = """
            mutation Remove($name: String!) { remove_item(name: $name) }
            """
            requests.post(endpoint + "/graphql", json={"query": remove, "variables": {"name": name}})
            requests.post("https://api.example.com/graphql", json={"query": "mutation { reset }"})
            requests.post("https://api.example.com/graphql", json={"query": "query { items { name } }"})
        ''')
    reported = found(src)
    assert [(f.line, f.fix is None) for f in reported] == [(6, True), (7, True), (8, False)]
    assert "a GraphQL mutation may act on the server" in reported[0].message


def test_a_configured_class_decides_too() -> None:
    src = 'import requests\ndef f(url):\n    requests.get(url)\n'
    config = from_mapping({"classify": {"requests.get": "irreversible"}}, "pyproject.toml")
    reported = found(src, config=config)
    assert len(reported) == 1 and reported[0].fix is None and "may act on the server" in reported[0].message


def test_tfh202_none_on_a_post_is_reported_without_a_fix() -> None:
    src = 'import requests\ndef f(url):\n    requests.post(url, json={}, timeout=None)\n    requests.get(url, timeout=None)\n'
    reported = found(src, "TFH202")
    assert [f.fix is None for f in reported] == [True, False]
    assert "may act on the server" in reported[0].message
    assert fix(src) == src.replace("requests.get(url, timeout=None)", "requests.get(url, timeout=30)")


# ------------------------------------------------------------------------ default-timeout-seconds by kind

MIXED = textwrap.dedent('''\
    import requests, socket, subprocess
    requests.get("https://x")
    subprocess.run(["kubectl", "get", "pods"])
    socket.create_connection(("h", 80))
    requests.get("https://x", timeout=None)
    ''')


def test_default_timeout_seconds_by_kind() -> None:
    config = from_mapping({"default-timeout-seconds": {"http": 20, "process": 300}}, "pyproject.toml")
    assert fix(MIXED, config) == textwrap.dedent('''\
        import requests, socket, subprocess
        requests.get("https://x", timeout=20)
        subprocess.run(["kubectl", "get", "pods"], timeout=300)
        socket.create_connection(("h", 80), timeout=30)
        requests.get("https://x", timeout=20)
        ''')
    config = from_mapping({"default-timeout-seconds": {"network": 5, "default": 12.5}}, "pyproject.toml")
    out = fix(MIXED, config)
    assert "socket.create_connection((\"h\", 80), timeout=5)" in out and out.count("timeout=12.5") == 3
    assert config.settings()["default-timeout-seconds"] == {"default": 12.5, "network": 5}


def test_a_number_after_a_table_resets_the_kinds() -> None:
    base = from_mapping({"default-timeout-seconds": {"http": 20}}, "base.toml")
    config = from_mapping({"default-timeout-seconds": 7}, "pyproject.toml", base=base)
    assert fix(MIXED, config).count("timeout=7") == 4


@pytest.mark.parametrize("value, words", [
    ({"https": 20}, ["unknown kind `https`", "did you mean `http`", "http, process, network, default"]),
    ({"http": "20"}, ["`default-timeout-seconds.http`", "positive number"]),
    ({"process": 0}, ["`default-timeout-seconds.process`", "positive number"]),
    ({}, ["`default-timeout-seconds` is an empty table"]),
])
def test_default_timeout_seconds_by_kind_is_validated(value: object, words: list[str]) -> None:
    with pytest.raises(ConfigError) as err:
        from_mapping({"default-timeout-seconds": value}, "pyproject.toml")
    for w in words:
        assert w in str(err.value)


def test_a_bad_kind_is_exit_2_naming_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.smullyan.default-timeout-seconds]\nhttp = 30\nprocesses = 300\n")
    f = tmp_path / "a.py"
    f.write_text(MIXED)
    code = main(["lint", "--no-cache", "--fix", str(f)])
    err = capsys.readouterr().err
    assert code == 2 and "`default-timeout-seconds` has unknown kind `processes`" in err
    assert f.read_text() == MIXED


# ------------------------------------------------------------------------------- false findings, batch 4


def test_a_program_found_with_shutil_which_is_read_as_that_program() -> None:
    src = textwrap.dedent('''\
        import shutil, subprocess
        def commit():
            git = shutil.which("git")
            if not git:
                return None
            return subprocess.run([git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        def origin():
            git = shutil.which("git")
            return subprocess.run([git, "fetch", "origin"], capture_output=True)
        def hooks(files):
            hook = shutil.which("pre-commit")
            subprocess.run([hook, "run", "--files", *files], check=False)
        def pods(namespace):
            kubectl = shutil.which("kubectl")
            subprocess.run([kubectl, "get", "pods", "-n", namespace], check=False)
        ''')
    reported = found(src)
    assert [f.line for f in reported] == [9, 12, 15]  # rev-parse is instant; fetch is a network call
    assert reported[0].fix is None and "`git fetch` runs long" in reported[0].message
    assert reported[1].fix is None and "`pre-commit` runs long" in reported[1].message
    assert reported[2].fix is not None  # a query of a remote service, now known: the fix is offered


def test_a_cli_whose_exit_code_is_its_childs_is_not_reported() -> None:
    src = textwrap.dedent('''\
        import subprocess, sys
        def foreground(argv):
            child = subprocess.Popen(argv)
            sys.exit(child.wait())
        def background(argv):
            child = subprocess.Popen(argv)
            code = child.wait()
            return code
        ''')
    assert [f.line for f in found(src)] == [7]


def test_a_generation_whose_body_is_built_in_a_local_name_gets_no_default_timeout() -> None:
    """Batch 6: ``data = {"model": ..., "messages": [...], **kwargs}`` then ``json=data``: the body is read
    from the dict assigned to the name in the same function, so the generation keeps its finding and gets no
    30 s default (a non-streaming generation answers only when it is done)."""
    src = textwrap.dedent('''\
        import requests
        def chat(url, headers, prompt, **kwargs):
            data = {"model": "m", "messages": [{"role": "user", "content": prompt}], **kwargs}
            return requests.post(url, headers=headers, json=data).json()
        ''')
    reported = found(src)
    assert len(reported) == 1 and reported[0].fix is None, [f.message for f in reported]
    assert "generation" in reported[0].message
    assert fix(src) == src
    other = found(src.replace('"messages"', '"query"'))  # no prompt in the body: an ordinary POST, refused as a write
    assert len(other) == 1 and "generation" not in other[0].message, [f.message for f in other]


def test_tfh202_a_client_whose_requests_stream_gets_stream_advice_and_no_fix() -> None:
    streaming = textwrap.dedent('''\
        import httpx
        async def proxy(url):
            client = httpx.AsyncClient(timeout=None)
            return await client.send(client.build_request("GET", url), stream=True)
        ''')
    reported = found(streaming, "TFH202")
    assert len(reported) == 1 and reported[0].fix is None
    assert "silence between chunks" in reported[0].message
    assert fix(streaming) == streaming
    # the same client used for plain requests: still a client's default (the requests it serves may be
    # anywhere: batch 9's MCP stream client and streaming chat session were cut at 30 s by the old fix)
    plain = streaming.replace('client.send(client.build_request("GET", url), stream=True)', "client.get(url)")
    reported = found(plain, "TFH202")
    assert len(reported) == 1 and reported[0].fix is None and "client's default" in reported[0].message
    assert fix(plain) == plain


def test_tfh202_a_client_default_gets_no_fix_but_a_timeout_object_handed_to_one_request_does() -> None:
    src = textwrap.dedent('''\
        import aiohttp, httpx
        class Chat:
            timeout: aiohttp.ClientTimeout = aiohttp.ClientTimeout(total=None)
        def client():
            return httpx.AsyncClient(timeout=None)
        def one(url):
            return httpx.get(url, timeout=httpx.Timeout(None))
        ''')
    reported = found(src, "TFH202")
    assert [f.fix is None for f in reported] == [True, True, False]
    assert all("client's default" in f.message for f in reported[:2])
    assert fix(src) == src.replace("httpx.Timeout(None)", "httpx.Timeout(30)")


def test_a_session_whose_request_the_class_wraps_with_its_configured_timeout_gets_no_fix() -> None:
    """s48 (batch 20, python-substack): ``self._session.request`` replaced by a wrapper that fills the object's
    configured timeout: a literal ``timeout=30`` on ``self._session.post`` would override it. The finding stays (the
    default ``timeout=None`` leaves it unbounded), with no fix; a session the class does not wrap keeps its fix."""
    src = textwrap.dedent("""\
        import requests
        class Api:
            def __init__(self, timeout=None):
                self.timeout = timeout
                self._session = requests.Session()
                original = self._session.request
                def _request(*args, **kwargs):
                    if kwargs.get("timeout") is None and self.timeout is not None:
                        kwargs["timeout"] = self.timeout
                    return original(*args, **kwargs)
                self._session.request = _request
                self._plain = requests.Session()
            def login(self, url):
                return self._session.post(url, json={})
            def ping(self, url):
                return self._plain.get(url)
        """)
    wrapped, plain = found(src)
    assert wrapped.line == 14 and wrapped.fix is None and "replaces `self._session.request`" in wrapped.message
    assert plain.line == 16 and plain.fix is not None
    assert "self._session.post(url, json={})" in fix(src) and "self._plain.get(url, timeout=30)" in fix(src)
