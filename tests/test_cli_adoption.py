"""The CLI as ruff and flake8 users expect it (issue 9): selectors, exclusion, suppression,
adoption (--add-noqa), introspection (--show-settings/--show-files), output, cache location."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from smullyan.linter.cli import main

BAD = "import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n"
BAD_NONE = "import requests\nrequests.post('y', timeout=None)\n"
DOCS = Path(__file__).resolve().parent.parent / "docs"


def smullyan(cwd: Path, *args: str, stdin: str | None = None,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "SMULLYAN_CACHE_DIR")}
    return subprocess.run(
        [sys.executable, "-m", "smullyan", *args],
        cwd=cwd, input=stdin, capture_output=True, text=True, env={**base, **(env or {})}, timeout=300,
    )


def flake8(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SMULLYAN_CACHE_DIR", raising=False)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "net.py").write_text(BAD)
    (tmp_path / "pkg" / "none.py").write_text(BAD_NONE)
    return tmp_path


def codes(out: str) -> list[str]:
    return [m.group(0) for m in re.finditer(r"^\S+:\d+:\d+: TFH\d+", out, re.M)]


# --------------------------------------------------------------------------- defect 1: selectors


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--select", "TFH999"], "unknown rule selector 'TFH999'"),
        (["--select", "E501"], "unknown rule selector 'E501'"),
        (["--select", ""], "--select"),
        (["--select", "tfh201"], "did you mean 'TFH201'"),
        (["--select", "TFH21"], "did you mean"),
        (["--extend-select", "TFH9"], "--extend-select"),
        (["--ignore", "W605"], "--ignore"),
        (["--extend-ignore", "tfh2"], "did you mean 'TFH2'"),
        (["--per-file-ignores", "tests/*:TFH299"], "TFH299"),
    ],
)
def test_unknown_selectors_on_the_command_line_exit_2(project: Path, args: list[str], needle: str) -> None:
    proc = smullyan(project, "lint", "--no-cache", *args, "pkg")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert needle in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""  # nothing linted, no "No findings"


@pytest.mark.parametrize(
    "body",
    ['select = ["E501"]', 'select = ["tfh201"]', "select = []", 'extend-select = ["TFH9"]',
     'ignore = ["TFH7"]', '[tool.smullyan.per-file-ignores]\n"x.py" = ["E501"]'],
)
def test_unknown_selectors_in_the_config_exit_2(project: Path, body: str) -> None:
    (project / "pyproject.toml").write_text(f"[tool.smullyan]\n{body}\n")
    proc = smullyan(project, "lint", "--no-cache", "pkg")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "pyproject.toml" in proc.stderr and "Traceback" not in proc.stderr


def test_lower_case_is_refused_alike_in_both_places(project: Path) -> None:
    cli = smullyan(project, "lint", "--no-cache", "--select", "tfh201", "pkg")
    (project / "pyproject.toml").write_text('[tool.smullyan]\nselect = ["tfh201"]\n')
    cfg = smullyan(project, "lint", "--no-cache", "pkg")
    assert cli.returncode == cfg.returncode == 2
    assert "did you mean 'TFH201'" in cli.stderr and "did you mean 'TFH201'" in cfg.stderr


# --------------------------------------------------------------------------- extend-*, exclude, per-file-ignores


def test_extend_select_and_extend_ignore_in_config_and_flake8(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.smullyan]\nselect = ["TFH4"]\nextend-select = ["TFH2"]\n'
                                            'extend-ignore = ["TFH202"]\n')
    proc = smullyan(project, "lint", "--no-cache", "--format", "concise", "pkg")
    assert [c.split()[-1] for c in codes(proc.stdout)] == ["TFH201"], proc.stdout + proc.stderr
    f8 = flake8(project, "--select", "TFH", "pkg")
    assert [c.split()[-1] for c in codes(f8.stdout)] == ["TFH201"], f8.stdout + f8.stderr


def test_exclude_and_extend_exclude(project: Path) -> None:
    (project / "generated").mkdir()
    (project / "generated" / "client.py").write_text(BAD)
    (project / "build").mkdir()
    (project / "build" / "x.py").write_text(BAD)
    (project / "pkg" / "net_pb2.py").write_text(BAD)

    def files(*args: str) -> list[str]:
        proc = smullyan(project, "lint", "--show-files", *args)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert files() == ["generated/client.py", "pkg/net.py", "pkg/net_pb2.py", "pkg/none.py"]
    assert files("--extend-exclude", "generated,*_pb2.py") == ["pkg/net.py", "pkg/none.py"]
    # exclude replaces the default list: build/ is linted again
    assert "build/x.py" in files("--exclude", "generated")
    # from the config; a file named on the command line (pre-commit) is excluded too
    (project / ".smullyan.yaml").write_text("extend-exclude: [generated/, '*_pb2.py']\n")
    assert files() == ["pkg/net.py", "pkg/none.py"]
    proc = smullyan(project, "lint", "--no-cache", "generated/client.py", "pkg/net_pb2.py")
    assert proc.returncode == 0 and "TFH" not in proc.stdout, proc.stdout
    assert "no Python files found" in proc.stderr
    # and in flake8
    f8 = flake8(project, "--select", "TFH", ".")
    assert "generated" not in f8.stdout and "net_pb2" not in f8.stdout and "pkg/net.py" in f8.stdout


def test_per_file_ignores_on_the_command_line_replaces_the_configs(project: Path) -> None:
    (project / ".smullyan.yaml").write_text("per-file-ignores:\n  pkg/none.py: [TFH202]\n")
    proc = smullyan(project, "lint", "--no-cache", "--format", "concise", "pkg")
    assert codes(proc.stdout) == ["pkg/net.py:5:12: TFH201"]
    proc = smullyan(project, "lint", "--no-cache", "--format", "concise",
                    "--per-file-ignores", "pkg/net.py:TFH201 other/*:TFH4,TFH2", "pkg")
    assert codes(proc.stdout) == ["pkg/none.py:2:20: TFH202"], proc.stdout + proc.stderr


# --------------------------------------------------------------------------- defect 6: stdin


def test_stdin_filename_alone_reads_stdin(project: Path) -> None:
    proc = smullyan(project, "lint", "--no-cache", "--stdin-filename", "pkg/fromstdin.py", stdin=BAD)
    assert proc.returncode == 1
    assert codes(proc.stdout) == ["pkg/fromstdin.py:5:12: TFH201"], proc.stdout
    proc = smullyan(project, "lint", "--stdin-filename", "x.py", "pkg")
    assert proc.returncode == 2 and "--stdin-filename" in proc.stderr


# --------------------------------------------------------------------------- defect 5: github paths


def test_github_paths_are_relative_to_the_repository_root(project: Path) -> None:
    (project / ".git").mkdir()
    proc = smullyan(project / "pkg", "lint", "--no-cache", "--format", "github", "net.py")
    assert proc.stdout.startswith("::error file=pkg/net.py,line=5,col=12,"), proc.stdout


# --------------------------------------------------------------------------- defect 7: the cache


def test_cache_goes_to_the_project_root(project: Path) -> None:
    (project / ".git").mkdir()
    proc = smullyan(project / "pkg", "lint", "net.py")
    assert proc.returncode == 1
    assert (project / ".smullyan_cache").is_dir() and not (project / "pkg" / ".smullyan_cache").exists()
    # with a config, next to it
    (project / "pkg" / ".smullyan.yaml").write_text("select: [TFH]\n")
    smullyan(project, "lint", "pkg")
    assert (project / "pkg" / ".smullyan_cache").is_dir()


def test_cache_dir_and_clean(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("cache") / "c"
    proc = smullyan(project, "lint", "--cache-dir", str(elsewhere), "pkg")
    assert proc.returncode == 1 and any(elsewhere.glob("index-*.json"))
    assert not (project / ".smullyan_cache").exists()
    env_dir = tmp_path_factory.mktemp("cache") / "e"
    smullyan(project, "lint", "pkg", env={"SMULLYAN_CACHE_DIR": str(env_dir)})
    assert any(env_dir.glob("index-*.json"))
    proc = smullyan(project, "clean", "--cache-dir", str(elsewhere))
    assert proc.returncode == 0 and not elsewhere.exists(), proc.stderr
    # a directory smullyan did not create is never deleted
    proc = smullyan(project, "clean", "--cache-dir", str(project / "pkg"))
    assert proc.returncode == 2 and (project / "pkg" / "net.py").exists() and "not a smullyan cache" in proc.stderr
    smullyan(project, "lint", "pkg")
    assert (project / ".smullyan_cache").is_dir()
    assert smullyan(project, "clean").returncode == 0 and not (project / ".smullyan_cache").exists()


# --------------------------------------------------------------------------- --add-noqa


def test_add_noqa_writes_merges_and_is_idempotent(project: Path) -> None:
    src = (
        "import requests\n"
        "requests.get(u)  # noqa: E501\r\n"
        "requests.get(u)  # a comment\n"
        "requests.post(u, data='''a\n"
        "b''', timeout=None)\n"
        "requests.get(u)  # noqa\n"
    )
    target = project / "pkg" / "edit.py"
    target.write_bytes(src.encode())
    proc = smullyan(project, "lint", "--no-cache", "--add-noqa", "pkg/edit.py")
    assert proc.returncode == 0 and "Added 3 noqa directives to 1 file" in proc.stdout, proc.stdout + proc.stderr
    assert target.read_bytes().decode() == (
        "import requests\n"
        "requests.get(u)  # noqa: E501, TFH201\r\n"
        "requests.get(u)  # a comment  # noqa: TFH201\n"
        "requests.post(u, data='''a\n"
        "b''', timeout=None)  # noqa: TFH202\n"
        "requests.get(u)  # noqa\n"
    )
    assert smullyan(project, "lint", "--no-cache", "pkg/edit.py").returncode == 0
    again = smullyan(project, "lint", "--no-cache", "--add-noqa", "pkg/edit.py")
    assert "Added 0 noqa directives" in again.stdout
    assert smullyan(project, "lint", "--add-noqa", "-").returncode == 2


# --------------------------------------------------------------------------- --show-settings / --show-files


def test_show_settings_says_where_each_value_came_from(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.smullyan]\nignore = ["TFH402"]\n')
    proc = smullyan(project, "lint", "--show-settings", "--extend-select", "TFH003", "pkg")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"# configuration file: {project / 'pyproject.toml'}" in out
    assert f'ignore = ["TFH402"]  # {project / "pyproject.toml"}' in out
    assert 'select = ["TFH", "TFH003"]  # default + command line' in out
    assert "timeout-required = []  # default" in out
    assert "TFH" not in codes(out)


# --------------------------------------------------------------------------- output


def test_concise_and_no_show_source(project: Path) -> None:
    full = smullyan(project, "lint", "--no-cache", "pkg/net.py").stdout.splitlines()
    assert full[0] == "pkg/net.py:5:12: TFH201 " + full[0].split(" TFH201 ")[1]
    assert full[1].strip() == "return requests.get(url)"
    assert full[3] == "    help: https://github.com/smullyan/smullyan/blob/main/docs/rules.md#tfh201-call-without-timeout"
    for flag in (["--format", "concise"], ["--output-format", "concise"], ["--no-show-source"]):
        out = smullyan(project, "lint", "--no-cache", *flag, "pkg/net.py").stdout.splitlines()
        assert out == [full[0], *full[-2:]], flag  # the finding, the summary, "[*] 1 fixable ..."


def test_json_matches_the_documented_schema(project: Path) -> None:
    (project / "pkg" / "multi.py").write_text("import requests\nrequests.get('''a\nb''')\n")
    proc = smullyan(project, "lint", "--no-cache", "--format", "json", "pkg")
    data = json.loads(proc.stdout)
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    schema = json.loads(re.search(r"<!-- json-schema -->\s*```json\n(.*?)```", text, re.S).group(1))
    jsonschema.validate(data, schema)
    multi = next(d for d in data if d["path"] == "pkg/multi.py")
    assert (multi["location"], multi["noqa_row"]) == ({"row": 2, "column": 1}, 3)
    assert multi["filename"] == str(project / "pkg" / "multi.py")
    assert multi["url"].endswith("#tfh201-call-without-timeout")
    assert multi["fix"]["edits"][0]["content"].endswith("timeout=30)")  # the schema's fix object, exercised


@pytest.mark.parametrize(
    ("env", "colour"),
    [({}, False), ({"FORCE_COLOR": "1"}, True), ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False)],
)
def test_force_color_and_no_color(project: Path, env: dict[str, str], colour: bool) -> None:
    out = smullyan(project, "lint", "--no-cache", "pkg/net.py", env=env).stdout
    assert ("\x1b[" in out) is colour


def test_jobs_auto_and_no_files_warning(project: Path) -> None:
    proc = smullyan(project, "lint", "--no-cache", "-j", "auto", "pkg")
    assert proc.returncode == 1
    (project / "empty").mkdir()
    proc = smullyan(project, "lint", "empty")
    assert proc.returncode == 0 and "warning: no Python files found under empty" in proc.stderr
    assert smullyan(project, "lint", "-q", "empty").stderr == ""


def test_in_process_main_accepts_the_new_options(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "--no-cache", "--format", "concise", "--extend-ignore", "TFH2", "pkg"]) == 0
    assert "No findings" in capsys.readouterr().out


def test_every_lint_option_is_documented_in_cli_md() -> None:
    import argparse

    from smullyan.linter.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for command in ("lint", "clean"):
        for action in sub.choices[command]._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help":
                    assert f"`{flag}" in text, f"{command} {flag} is not in docs/cli.md"
    assert "`smullyan clean" in text or "smullyan clean " in text


def test_add_noqa_never_edits_a_string_and_puts_the_comment_where_flake8_reads_it() -> None:
    from smullyan.linter.noqa import add_to_text, logical_line_texts, suppressed

    src = "x = '# noqa: E501'; f()\ny = g(1)  # why\nz = \\\n    h()\n"
    new, changed = add_to_text(src, {1: {"TFH201"}, 2: {"TFH201"}, 3: {"TFH202"}})
    assert changed == 2
    assert new.splitlines() == ["x = '# noqa: E501'; f()", "y = g(1)  # why  # noqa: TFH201", "z = \\",
                                "    h()  # noqa: TFH202"]
    texts = logical_line_texts(new)
    assert suppressed(texts[1], "TFH201") and suppressed(texts[2], "TFH202") and not suppressed(texts[0], "TFH201")
