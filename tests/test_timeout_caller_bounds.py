"""Session 38 (issues 23 and 28, batch 10's false TFH201): a call a timeout decorator bounds, a wait that
reaps a process already gone, `command -v`; and the long scanners, linters and test runners that
keep their finding but get no default timeout."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import TIMEOUT_DECORATORS, interactive_process, process_fix_refusal
from split_support import BOTH, SPLIT  # s52: TFH201 and TFH203 together (see split_support)



def tfh201(src: str) -> list[tuple[int, bool]]:
    """(line, has a fix) of each TFH201 finding."""
    return [(f.line, f.fix is not None) for f in lint_source(textwrap.dedent(src), "m.py", BOTH) if f.code in SPLIT]


@pytest.mark.parametrize("imports, decorator", [
    ("from timeout_decorator import timeout as tm", "tm(60)"),
    ("import timeout_decorator", "timeout_decorator.timeout(seconds=5, use_signals=False)"),
    ("from wrapt_timeout_decorator import timeout", "timeout(dec_timeout='instance.limit')"),
    ("from func_timeout import func_set_timeout", "func_set_timeout(2.5)"),
    ("import pytest", "pytest.mark.timeout(10)"),
])
def test_a_timeout_decorator_bounds_the_calls_of_its_function(imports: str, decorator: str) -> None:
    src = f"""\
    import subprocess, requests
    {imports}
    @{decorator}
    def work(path):
        subprocess.run(["pylint", path], check=True)
        return requests.get("https://x")
    def unbounded(path):
        subprocess.run(["pylint", path], check=True)
    """
    assert [line for line, _ in tfh201(src)] == [8]


@pytest.mark.parametrize("decorator", ["timeout()", "timeout(None)", "timeout(0)", "timeout(seconds=None)", "timeout",
                                       "other.timeout(60)"])
def test_a_decorator_that_bounds_nothing_or_is_not_known_leaves_the_finding(decorator: str) -> None:
    src = f"""\
    import subprocess, other
    from timeout_decorator import timeout
    @{decorator}
    def work(path):
        subprocess.run(["pylint", path], check=True)
    """
    assert [line for line, _ in tfh201(src)] == [5]


def test_the_table_names_the_seconds_parameter_of_each_decorator() -> None:
    assert TIMEOUT_DECORATORS["timeout_decorator.timeout"] == ("seconds", 0)
    assert all(position == 0 for _, position in TIMEOUT_DECORATORS.values())


def test_a_wait_after_the_signal_found_no_process_is_silent_only_for_the_same_process() -> None:
    src = """\
    import os, signal, subprocess
    def stop(argv):
        proc = subprocess.Popen(argv)
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=5)
        except ProcessLookupError:
            proc.wait()
    def stop_other(argv, other):
        proc = subprocess.Popen(argv)
        try:
            os.kill(other.pid, signal.SIGTERM)
        except ProcessLookupError:
            proc.wait()
    def no_signal(argv):
        proc = subprocess.Popen(argv)
        try:
            os.getpgid(proc.pid)
        except ProcessLookupError:
            proc.wait()
    """
    assert [line for line, _ in tfh201(src)] == [14, 20]


def test_a_wait_after_the_output_was_read_to_its_end_stays_reported() -> None:
    # the wait returns once the pipes close, but the read before it is where the process waits, unbounded
    src = """\
    import asyncio, subprocess
    def streamed(argv):
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
        for line in proc.stdout:
            print(line)
        return proc.wait()
    async def drained(argv):
        proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
        out = await proc.stdout.read()
        await proc.wait()
        return out
    """
    assert [line for line, _ in tfh201(src)] == [6, 10]


def test_command_v_is_an_instant_lookup() -> None:
    assert interactive_process(["command", "-v", "brew"]) is not None
    assert interactive_process(["command", "brew", "update"]) is None


@pytest.mark.parametrize("words", [
    ["depscan", "--reports-dir", "r"], ["pip-audit", "-r", "requirements.txt"], ["python3", "-m", "pylint", "src"],
    ["mypy", "--strict", "src"], ["npx", "jest"], ["jest", "--ci"], ["python", "-m", "unittest", "discover"],
    ["osv-scanner", "-r", "."], ["gitleaks", "detect"],
])
def test_scanners_linters_and_test_runners_get_no_default_timeout(words: list[str]) -> None:
    why = process_fix_refusal(words, True)
    assert why is not None and "runs long by nature" in why


def test_a_quick_local_tool_is_silent_and_a_remote_query_keeps_its_fix() -> None:
    assert process_fix_refusal(["ruff", "check", "src"], True) is None
    assert tfh201('import subprocess\nsubprocess.run(["ruff", "check", "."])\n') == []  # s43: a local program named
    assert tfh201('import subprocess\nsubprocess.run(["kubectl", "get", "pods"])\n') == [(2, True)]
    assert tfh201('import subprocess\nsubprocess.run(["depscan", "--src", "."])\n') == [(2, False)]


@pytest.mark.parametrize("command", [
    '["Rscript", "analysis.R", path]', '["findMotifsGenome.pl", peaks, "hg38", out]', '["iqtree2", "-s", path]',
    '["exiftool", "-json", path]', '"homer2 denovo -i x", shell=True',
])
def test_a_local_program_the_code_names_is_silent(command: str) -> None:
    # s43: TFH201's default: the author chose the program and knows its run time (batches 10-11's harmful fixes were
    # 30 s cut into these local computations; now there is neither finding nor fix)
    src = f"import subprocess\ndef f(path, peaks, out):\n    subprocess.run({command})\n"
    assert [f for f in lint_source(src, "m.py", BOTH) if f.code in SPLIT] == []


@pytest.mark.parametrize("command", [
    '["Rscript", "-e", path]', '["ping", peaks]', '["tail", "-f", path]', '["exiftool", "https://x.org/a.jpg"]',
    '["git", "push", "origin", "main"]', '["docker", "wait", out]',
])
def test_a_program_whose_run_time_is_unknown_gets_no_guessed_default(command: str) -> None:
    # batch 10's and 11's harmful fixes were all 30 s cut into local computations (a scan, HOMER, R, IQ-TREE)
    src = f"import subprocess\ndef f(path, peaks, out):\n    subprocess.run({command})\n"
    found = [f for f in lint_source(src, "m.py", BOTH) if f.code in SPLIT]
    assert len(found) == 1 and found[0].fix is None
    assert "no default is guessed" in found[0].message or "runs long" in found[0].message


def test_a_configured_process_timeout_is_written_on_a_program_of_unknown_run_time() -> None:
    from smullyan.linter.config import from_mapping

    config = from_mapping({"default-timeout-seconds": {"default": 30, "process": 600}}, None)
    src = 'import subprocess\nsubprocess.run(["ping", "-c", "3", "example.org"])\nsubprocess.run(["depscan", "--src", "."])\n'
    found = [f for f in lint_source(src, "m.py", config) if f.code in SPLIT]
    assert [(f.line, f.fix is not None) for f in found] == [(2, True), (3, False)]
