"""The flake8 plugin, run through flake8 itself in a subprocess."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from smullyan.linter.flake8_plugin import Plugin, _selected_codes

BAD = "import requests\nrequests.get('x')\nrequests.post('y', timeout=None)\n"


def flake8(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text("import requests\nrequests.get('x')  # noqa: TFH201\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "c.py").write_text("import subprocess\nsubprocess.run(['kubectl', 'get', 'pods'])\n")
    return tmp_path


def test_findings_in_flake8_format_and_noqa(project: Path) -> None:
    res = flake8(project, "--select", "TFH", "a.py", "b.py")
    assert res.returncode == 1, res.stderr
    lines = sorted(res.stdout.splitlines())
    assert lines[0].startswith("a.py:2:1: TFH201 requests.get has no timeout")
    assert lines[1].startswith("a.py:3:20: TFH202 requests.post gets timeout=None")
    assert len(lines) == 2  # b.py's finding is suppressed by its noqa


def test_stdin(project: Path) -> None:
    res = flake8(project, "--select", "TFH", "-", stdin=BAD)
    assert [line.split(" ")[1] for line in res.stdout.splitlines()] == ["TFH201", "TFH202"]
    assert res.stdout.startswith("stdin:2:1: TFH201")


def test_version_lists_the_plugin(project: Path) -> None:
    res = flake8(project, "--version")
    assert "smullyan:" in res.stdout


def test_selection_ignore_per_file_ignores_and_jobs(project: Path) -> None:
    # the default selection includes the plugin's codes
    res = flake8(project, "-j2", ".")
    codes = sorted(line.split(":")[0] + " " + line.split(" ")[1] for line in res.stdout.splitlines() if " TFH" in line)
    assert codes == ["./a.py TFH201", "./a.py TFH202", "./scripts/c.py TFH201"], res.stdout + res.stderr
    res = flake8(project, "--extend-ignore", "TFH201", ".")
    assert [line.split(" ")[1] for line in res.stdout.splitlines()] == ["TFH202"]
    res = flake8(project, "--per-file-ignores", "scripts/*:TFH201", "--select", "TFH", ".")
    assert "scripts/c.py" not in res.stdout and "a.py:2:1: TFH201" in res.stdout
    res = flake8(project, "--select", "E9,F", ".")
    assert "TFH" not in res.stdout


def test_smullyan_config_is_read(project: Path) -> None:
    (project / ".smullyan.yaml").write_text("ignore: [TFH202]\ntimeout-required: [mylib.fetch]\n")
    (project / "d.py").write_text("import mylib\nmylib.fetch('x')\n")
    res = flake8(project, "--select", "TFH", "a.py", "d.py")
    codes = sorted(line.split(" ")[0] + line.split(" ")[1] for line in res.stdout.splitlines())
    assert codes == ["a.py:2:1:TFH201", "d.py:2:1:TFH201"], res.stdout + res.stderr


def _options(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(
        select=None, extend_select=None, ignore=None, extend_ignore=None,
        extended_default_select=["C90", "F", "E", "W", "TFH"], extended_default_ignore=[],
    )
    base.update(kw)
    return argparse.Namespace(**base)


def test_selected_codes_follow_flake8_decisions() -> None:
    assert _selected_codes(_options(select=["E9", "F"])) == frozenset()
    default = _selected_codes(_options())
    assert default is not None and {"TFH001", "TFH201", "TFH401"} <= default
    only = _selected_codes(_options(select=["TFH2"]))
    assert only is not None and "TFH201" in only and "TFH401" not in only
    assert "TFH201" not in (_selected_codes(_options(extend_ignore=["TFH201"])) or ())
    assert "TFH401" in (_selected_codes(_options(select=["E9"], extend_select=["TFH4"])) or ())


def test_plugin_does_nothing_when_nothing_is_selected(monkeypatch: pytest.MonkeyPatch) -> None:
    import ast

    monkeypatch.setattr(Plugin, "selected", frozenset())
    lines = BAD.splitlines(keepends=True)
    assert list(Plugin(ast.parse(BAD), lines, "a.py").run()) == []
    monkeypatch.setattr(Plugin, "selected", frozenset({"TFH201"}))
    monkeypatch.setattr(Plugin, "_resolver", None)
    out = list(Plugin(ast.parse(BAD), lines, "a.py").run())
    assert [(line, col, msg.split(" ")[0]) for line, col, msg, _ in out] == [(2, 0, "TFH201")]


def test_codes_from_file_names_match_the_rule_classes() -> None:
    from smullyan.linter.registry import all_codes, codes_from_files

    assert codes_from_files() == all_codes()


def test_nothing_selected_never_imports_libcst() -> None:
    """flake8 loads every plugin; with no TFH code selected this one costs no libcst import."""
    script = (
        "import sys, argparse\n"
        "from smullyan.linter.flake8_plugin import Plugin\n"
        "opts = argparse.Namespace(select=['E9','F'], ignore=None, extend_select=None, extend_ignore=None,\n"
        "    extended_default_select=['C90','F','E','W','TFH'], extended_default_ignore=[], smullyan_config=None)\n"
        "Plugin.parse_options(opts)\n"
        "assert Plugin.selected == frozenset(), Plugin.selected\n"
        "import ast\n"
        "assert list(Plugin(ast.parse('x = 1'), ['x = 1\\n'], 'a.py').run()) == []\n"
        "print('libcst' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("files", "args", "needle"),
    [
        ({"pyproject.toml": "[tool.smullyan]\nselectt = ['TFH']\n"}, ["a.py"], "unknown key `selectt`"),
        ({".smullyan.yaml": "select: [E501]\n"}, ["a.py"], "unknown rule selector 'E501'"),
        ({}, ["--smullyan-config", "missing.toml", "a.py"], "missing.toml"),
        ({}, ["--smullyan-config", "missing.toml", "-j2", "."], "missing.toml"),
    ],
)
def test_a_bad_config_is_one_line_not_a_traceback(project: Path, files: dict[str, str], args: list[str],
                                                  needle: str) -> None:
    for name, text in files.items():
        (project / name).write_text(text)
    res = flake8(project, "--select", "TFH", *args)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    [line] = res.stderr.splitlines()
    assert line.startswith("flake8: smullyan: error: ") and needle in line


def test_a_bad_config_found_deeper_down_stops_flake8_without_a_traceback(project: Path) -> None:
    (project / "scripts" / ".smullyan.yaml").write_text("ignroe: [TFH201]\n")
    res = flake8(project, "--select", "TFH", ".")
    # found in the main process, before flake8 starts its workers: exit 2 and one line, as for the top-level file
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Traceback" not in res.stderr + res.stdout and res.stdout == ""
    assert "flake8: smullyan: error: " in res.stderr and "unknown key `ignroe`" in res.stderr
    # excluded from flake8's run: not read, as flake8 never hands the plugin a file there
    skipped = flake8(project, "--select", "TFH", "--extend-exclude", "scripts", ".")
    assert skipped.returncode == 1 and skipped.stderr == "", skipped.stderr  # a.py's findings, no error
    assert skipped.stdout.startswith("./a.py:2:1: TFH201"), skipped.stdout


def test_selected_rules_are_imported_and_frozen_before_the_files() -> None:
    """s56: with a TFH code selected, parse_options imports the engine and the rules in flake8's main process and
    moves what is alive then to the collector's permanent generation (flake8's full collections no longer walk it)."""
    script = (
        "import sys, argparse, gc\n"
        "from smullyan.linter.flake8_plugin import Plugin\n"
        "opts = argparse.Namespace(select=['E9','F','TFH'], ignore=None, extend_select=None, extend_ignore=None,\n"
        "    extended_default_select=['C90','F','E','W','TFH'], extended_default_ignore=[], smullyan_config=None,\n"
        "    filenames=['a.py'])\n"
        "assert gc.get_freeze_count() == 0\n"
        "Plugin.parse_options(opts)\n"
        "print('smullyan.rules.timeouts.tfh201_call_without_timeout' in sys.modules, gc.get_freeze_count() > 20000)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True True"
