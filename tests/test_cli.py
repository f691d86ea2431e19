"""The ``smullyan`` command line, end to end, and the process-pool runner."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smullyan.linter import engine, runner
from smullyan.linter.cli import main
from smullyan.linter.config import Config
from smullyan.linter.findings import Finding

TIMEOUT_BAD = "import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n"
STRINGIFIED = (
    "def tool():\n"
    "    try:\n"
    "        return work()\n"
    "    except Exception as e:\n"
    "        return str(e)\n"
)
CLEAN = "import requests\n\n\ndef fetch(url):\n    return requests.get(url, timeout=10)\n"


def smullyan(cwd: Path, *args: str, stdin: str | None = None,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "smullyan", *args],
        cwd=cwd, input=stdin, capture_output=True, text=True,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "net.py").write_text(TIMEOUT_BAD)
    (tmp_path / "pkg" / "tools.py").write_text(STRINGIFIED)
    (tmp_path / "pkg" / "clean.py").write_text(CLEAN)
    return tmp_path


def lint(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["lint", "--no-cache", *args])
    out, err = capsys.readouterr()
    return code, out, err


def finding_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if ": TFH" in line]


# --------------------------------------------------------------------------- exit codes


def test_exit_codes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint(capsys, "pkg/clean.py")[0] == 0
    code, out, _ = lint(capsys, "pkg")
    assert code == 1
    assert finding_lines(out) == [
        "pkg/net.py:5:12: TFH201 " + finding_lines(out)[0].split(" TFH201 ", 1)[1],
        finding_lines(out)[1],
    ]
    assert finding_lines(out)[1].startswith("pkg/tools.py:5:")
    assert lint(capsys, "--exit-zero", "pkg")[0] == 0


def test_default_path_is_the_current_directory(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lint(capsys)
    assert code == 1
    assert {line.split(":")[0] for line in finding_lines(out)} == {"pkg/net.py", "pkg/tools.py"}
    assert "(3 files checked)" in out


def test_text_shows_the_source_line_and_a_caret(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = lint(capsys, "pkg/net.py")
    lines = out.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("pkg/net.py:5:12: TFH201"))
    assert lines[i + 1] == "    return requests.get(url)"
    assert lines[i + 2] == "           " + "^" * len("requests.get(url)")
    assert "\x1b[" not in out  # not a terminal: no colour


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--select", "TFH4"], {"TFH401"}),
        (["--ignore", "TFH2"], {"TFH401"}),
        (["--select", "TFH", "--ignore", "TFH201"], {"TFH401"}),
        (["--select", "TFH201,TFH401"], {"TFH201", "TFH401"}),
        (["--select", "TFH", "--extend-ignore", "TFH2"], {"TFH401"}),
        (["--select", "TFH2", "--extend-select", "TFH4"], {"TFH201", "TFH401"}),
    ],
)
def test_select_and_ignore(project: Path, capsys: pytest.CaptureFixture[str],
                           args: list[str], expected: set[str]) -> None:
    code, out, _ = lint(capsys, *args, "pkg")
    assert {line.split()[1] for line in finding_lines(out)} == expected
    assert code == (1 if expected else 0)


def test_noqa_is_honoured(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pkg" / "net.py").write_text(TIMEOUT_BAD.replace("get(url)", "get(url)  # noqa: TFH201"))
    assert finding_lines(lint(capsys, "pkg/net.py")[1]) == []


def test_gitignored_files_are_skipped_unless_named(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("net.py\n")
    _, out, _ = lint(capsys, ".")
    assert not any(line.startswith("pkg/net.py") for line in finding_lines(out))
    _, out, _ = lint(capsys, "pkg/net.py")
    assert finding_lines(out)[0].startswith("pkg/net.py:5:12: TFH201")


# --------------------------------------------------------------------------- errors: exit 2, no traceback


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["lint", "missing.py"], "path not found: missing.py"),
        (["lint", "--jobs", "0", "."], "--jobs"),
        (["lint", "--jobs", "many", "."], "--jobs"),
        (["lint", "--format", "xml", "."], "--format"),
        (["lint", "--select", "TFH-2", "."], "--select"),
        (["lint", "--config", "nowhere.toml", "."], "nowhere.toml"),
        (["lint", "--output", "no/such/dir/out.txt", "."], "out.txt"),
        (["explain", "TFH999"], "TFH999"),
        (["frobnicate"], "frobnicate"),
        ([], "usage"),
    ],
)
def test_usage_errors_exit_2_without_a_traceback(project: Path, args: list[str], needle: str) -> None:
    proc = smullyan(project, *args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.parametrize(
    ("filename", "text", "needle"),
    [
        ("pyproject.toml", "[tool.smullyan]\nselectt = ['TFH']\n", "selectt"),
        ("pyproject.toml", "[tool.smullyan]\nselect = 3\n", "select"),
        ("pyproject.toml", "[tool.smullyan\n", "pyproject.toml"),
        (".smullyan.yaml", "classify:\n  requests.post: maybe\n", "classify"),
        (".smullyan.yaml", "select: [TFH\n", ".smullyan.yaml"),
    ],
)
def test_config_errors_exit_2_with_the_message(project: Path, filename: str, text: str, needle: str) -> None:
    (project / filename).write_text(text)
    proc = smullyan(project, "lint", "pkg")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_explicit_config_file_is_used(project: Path) -> None:
    (project / "strict.yaml").write_text("select: [TFH4]\n")
    (project / "cfg.smullyan.yaml").write_text("select: [TFH4]\n")
    proc = smullyan(project, "lint", "--no-cache", "--config", "strict.yaml", "pkg")
    codes = {line.split()[1] for line in finding_lines(proc.stdout)}
    assert codes == {"TFH401"}, proc.stderr


def test_config_found_by_walking_up_from_the_linted_path(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pkg" / "pyproject.toml").write_text('[tool.smullyan]\nignore = ["TFH201"]\n')
    _, out, _ = lint(capsys, "pkg")
    assert {line.split()[1] for line in finding_lines(out)} == {"TFH401"}


# --------------------------------------------------------------------------- formats, output, stdin


def test_json_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lint(capsys, "--format", "json", "pkg")
    data = json.loads(out)
    assert code == 1
    assert [(d["path"], d["line"], d["column"], d["code"]) for d in data] == [
        ("pkg/net.py", 5, 12, "TFH201"), ("pkg/tools.py", 5, 9, "TFH401"),
    ]
    assert {"path", "line", "column", "end_line", "end_column", "code", "name", "message",
            "filename", "location", "end_location", "url", "noqa_row", "fix"} <= set(data[0])
    assert data[0]["name"] == "call-without-timeout"


def test_github_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = lint(capsys, "--format", "github", "pkg/net.py")
    assert out.startswith("::error file=pkg/net.py,line=5,col=12,endLine=5,endColumn=29,title=TFH201::")


def test_statistics_and_quiet(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ruff's --statistics: the counts instead of the findings, then the summary
    _, out, _ = lint(capsys, "--statistics", "pkg")
    assert "1\tTFH201\tcall-without-timeout" in out.splitlines()
    assert "1\tTFH401\tstringified-exception" in out.splitlines()
    assert finding_lines(out) == []
    assert "Found 2 findings in 2 files (3 files checked)." in out
    _, out, _ = lint(capsys, "--statistics", "--unsafe-fixes", "pkg")  # TFH201's fix would apply: marked
    assert "1\tTFH201\t[*] call-without-timeout" in out.splitlines()
    assert "1\tTFH401\t[ ] stringified-exception" in out.splitlines()
    _, quiet, _ = lint(capsys, "--quiet", "pkg")
    assert "Found" not in quiet and len(finding_lines(quiet)) == 2


def test_statistics_never_corrupt_json_on_stdout(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = lint(capsys, "--format", "json", "--statistics", "pkg")
    assert json.loads(out) == [  # ruff's statistics JSON
        {"code": "TFH201", "name": "call-without-timeout", "count": 1, "fixable": False},
        {"code": "TFH401", "name": "stringified-exception", "count": 1, "fixable": False},
    ]
    _, out, err = lint(capsys, "--format", "sarif", "--statistics", "pkg")
    assert len(json.loads(out)["runs"][0]["results"]) == 2
    assert "TFH201" in err


def test_output_file_alias_select_all_and_target_version(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lint(capsys, "--output-file", "report.txt", "--target-version", "py310", "pkg")
    assert code == 1 and out == ""
    assert len(finding_lines((project / "report.txt").read_text())) == 2
    with pytest.raises(SystemExit) as exit_:
        lint(capsys, "--target-version", "py2", "pkg")
    assert exit_.value.code == 2 and "--target-version" in capsys.readouterr().err
    # ALL: every rule, the off-by-default TFH003 included (here: an unused noqa)
    (project / "pkg" / "clean.py").write_text(CLEAN + "x = 1  # noqa: TFH201\n")
    _, out, _ = lint(capsys, "--format", "concise", "--select", "ALL", "pkg")
    assert [line.split()[1] for line in finding_lines(out)] == ["TFH003", "TFH201", "TFH401"]
    _, out, _ = lint(capsys, "--format", "concise", "--select", "ALL", "--ignore", "TFH4", "pkg")
    assert [line.split()[1] for line in finding_lines(out)] == ["TFH003", "TFH201"]
    _, out, _ = lint(capsys, "--format", "concise", "pkg")
    assert [line.split()[1] for line in finding_lines(out)] == ["TFH201", "TFH401"]


def test_gitlab_junit_and_json_v2_from_the_command_line(project: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import xml.etree.ElementTree as ET

    monkeypatch.setenv("CI_PROJECT_DIR", str(project))
    code, out, _ = lint(capsys, "--format", "gitlab", str(project / "pkg"))
    assert code == 1
    assert sorted(i["location"]["path"] for i in json.loads(out)) == ["pkg/net.py", "pkg/tools.py"]
    code, out, _ = lint(capsys, "--format", "junit", "pkg")
    assert code == 1 and ET.fromstring(out).get("failures") == "2"
    code, out, _ = lint(capsys, "--format", "json-v2", "pkg")
    doc = json.loads(out)
    assert code == 1 and doc["version"] == 2 and doc["summary"]["files_checked"] == 3
    assert {f["code"]: f["severity"] for f in doc["findings"]} == {"TFH201": "error", "TFH401": "error"}
    assert [f["fix"]["applicability"] for f in doc["findings"] if f["fix"]] == ["unsafe"]
    code, out, _ = lint(capsys, "--format", "json-v2", "--exit-zero", str(project / "pkg" / "clean.py"))
    assert code == 0 and json.loads(out)["findings"] == []


def test_output_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lint(capsys, "--format", "json", "--output", "report.json", "pkg")
    assert code == 1 and out == ""
    assert len(json.loads((project / "report.json").read_text())) == 2


def test_stdin(project: Path) -> None:
    proc = smullyan(project, "lint", "-", "--stdin-filename", "pkg/piped.py", stdin=TIMEOUT_BAD)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("pkg/piped.py:5:12: TFH201")
    assert lines[1] == "    return requests.get(url)"
    proc = smullyan(project, "lint", "-", stdin=CLEAN)
    assert proc.returncode == 0
    proc = smullyan(project, "lint", "-", stdin="def f(:\n")
    assert proc.stdout.startswith("stdin:1:") and "TFH001" in proc.stdout


def test_stdin_filename_is_matched_by_per_file_ignores(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.smullyan.per-file-ignores]\n"tests/*" = ["TFH201"]\n')
    proc = smullyan(project, "lint", "-", "--stdin-filename", "tests/test_x.py", stdin=TIMEOUT_BAD)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_unparsable_file_is_a_finding_and_the_run_goes_on(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pkg" / "broken.py").write_text("def f(:\n    pass\n")
    code, out, _ = lint(capsys, "pkg")
    codes = [(line.split(":")[0], line.split()[1]) for line in finding_lines(out)]
    assert ("pkg/broken.py", "TFH001") in codes and ("pkg/net.py", "TFH201") in codes


@pytest.mark.parametrize("where", ["arguments", "pyproject"])
def test_a_syntax_error_is_reported_whatever_is_selected(project: Path, where: str) -> None:
    # as ruff reports syntax errors: `--select TFH2` (the docs' pre-commit example) must not let
    # a file that no rule could check pass with "No findings"
    (project / "pkg" / "broken.py").write_text("import requests\ndef f(:\n    requests.get(u)\n")
    select = ["--select", "TFH2"] if where == "arguments" else []
    if where == "pyproject":
        (project / "pyproject.toml").write_text('[tool.smullyan]\nselect = ["TFH4"]\nignore = ["TFH0", "TFH2"]\n')
    proc = smullyan(project, "lint", "--no-cache", *select, "pkg/broken.py", "pkg/clean.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert [line.split()[:2] for line in finding_lines(proc.stdout)] == [["pkg/broken.py:2:7:", "TFH001"]]
    # the one way to turn it off is to name it (or exclude the file)
    ignored = smullyan(project, "lint", "--no-cache", *select, "--extend-ignore", "TFH001", "pkg/broken.py")
    assert ignored.returncode == 0 and "No findings" in ignored.stdout, ignored.stdout + ignored.stderr


# --------------------------------------------------------------------------- rules, explain, entry points


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from smullyan.linter import registry

    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == sorted([*registry.PSEUDO_RULES, *(r.code for r in registry.all_rules())])
    assert "call-without-timeout" in out


@pytest.mark.parametrize("spelling", ["TFH201", "tfh201", "call-without-timeout"])
def test_explain(capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    from smullyan.linter import registry

    assert main(["explain", spelling]) == 0
    out = capsys.readouterr().out
    from smullyan.linter.output import with_fix_safety

    rule = next(r for r in registry.all_rules() if r.code == "TFH201")
    # the rule's docs, with its fix's applicability said in its Fix section
    assert with_fix_safety(rule.docs, rule.fix_applicability).strip() in out
    assert "this fix is **unsafe**" in out and "--unsafe-fixes" in out


def test_explain_pseudo_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "TFH001"]) == 0
    assert "could-not-parse" in capsys.readouterr().out


def test_python_m_smullyan_and_console_script(tmp_path: Path) -> None:
    proc = smullyan(tmp_path, "--version")
    assert proc.returncode == 0 and proc.stdout.startswith("smullyan ")
    script = Path(sys.executable).parent / "smullyan"
    if script.exists():
        proc = subprocess.run([str(script), "rules"], capture_output=True, text=True)
        assert proc.returncode == 0 and "TFH201" in proc.stdout


# --------------------------------------------------------------------------- --jobs


def test_jobs_n_prints_exactly_what_jobs_1_prints(tmp_path: Path) -> None:
    for i in range(24):
        (tmp_path / f"m{i:02}.py").write_text(TIMEOUT_BAD if i % 3 else STRINGIFIED + TIMEOUT_BAD)
    one = smullyan(tmp_path, "lint", "--no-cache", "-j1", "--format", "json", ".")
    two = smullyan(tmp_path, "lint", "--no-cache", "-j2", "--format", "json", ".")
    assert one.returncode == two.returncode == 1
    assert len(json.loads(one.stdout)) == 32
    assert one.stdout == two.stdout


def fake_lint_source(source: bytes | str, path: str, config: Config, **kw: object) -> list[Finding]:
    """A stand-in engine: one finding per line containing BAD; CRASH kills the process."""
    text = source.decode() if isinstance(source, bytes) else source
    if "CRASH" in text:
        os._exit(3)
    if "RAISE" in text:
        raise RuntimeError("engine bug")
    return [Finding(path, n, 1, n, 4, "TFH201", "call-without-timeout", "bad")
            for n, line in enumerate(text.splitlines(), 1) if "BAD" in line]


@pytest.fixture
def fork_engine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> multiprocessing.context.BaseContext:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs the fork start method to hand the stand-in engine to workers")
    monkeypatch.setattr(engine, "lint_source", fake_lint_source)
    monkeypatch.chdir(tmp_path)
    return multiprocessing.get_context("fork")


def test_a_worker_crash_loses_no_other_file(fork_engine: multiprocessing.context.BaseContext, tmp_path: Path) -> None:
    files = []
    for i in range(30):
        name = f"f{i:02}.py"
        (tmp_path / name).write_text("ok\nBAD\n" if i != 7 else "BAD\nCRASH\n")
        files.append(name)
    result = runner.run(files, Config.default(), jobs=2, mp_context=fork_engine)
    assert result.workers == 2
    by_file = {f.path: f for f in result.findings}
    assert len(result.findings) == 30
    assert by_file["f07.py"].code == "TFH002" and "worker process" in by_file["f07.py"].message
    for name in files:
        if name != "f07.py":
            assert (by_file[name].line, by_file[name].code) == (2, "TFH201")


def test_an_exception_in_the_engine_is_a_finding_not_a_crash(
    fork_engine: multiprocessing.context.BaseContext, tmp_path: Path
) -> None:
    files = []
    for i in range(12):
        (tmp_path / f"g{i:02}.py").write_text("RAISE\n" if i == 3 else "BAD\n")
        files.append(f"g{i:02}.py")
    for jobs in (1, 2):
        result = runner.run(files, Config.default(), jobs=jobs, mp_context=fork_engine)
        assert [(f.path, f.code) for f in result.findings] == [
            (name, "TFH002" if name == "g03.py" else "TFH201") for name in files
        ]
        assert "RuntimeError: engine bug" in result.findings[3].message


def test_small_runs_and_jobs_1_stay_in_process(fork_engine: multiprocessing.context.BaseContext, tmp_path: Path) -> None:
    for i in range(runner.POOL_MIN_FILES + 4):
        (tmp_path / f"h{i:02}.py").write_text("BAD\n")
    files = sorted(p.name for p in tmp_path.glob("h*.py"))
    assert runner.run(files[:3], Config.default(), jobs=8, mp_context=fork_engine).workers == 0
    assert runner.run(files, Config.default(), jobs=1, mp_context=fork_engine).workers == 0
    pooled = runner.run(files, Config.default(), jobs=2, mp_context=fork_engine)
    assert pooled.workers == 2 and len(pooled.findings) == len(files)
