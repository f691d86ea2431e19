"""Text, JSON and GitHub output, on synthetic findings."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from smullyan.linter.findings import Finding
from smullyan.linter.output import (
    SourceLines,
    escape_github_data,
    escape_github_property,
    format_fix_summary,
    format_github,
    format_gitlab,
    format_json,
    format_json_envelope,
    format_junit,
    format_statistics,
    format_statistics_json,
    format_summary,
    format_text,
    use_color,
)


def F(path: str, line: int, col: int, end_col: int, code: str = "TFH201", *, end_line: int | None = None,
      name: str = "call-without-timeout", message: str = "pass timeout= to this call") -> Finding:
    return Finding(path, line, col, line if end_line is None else end_line, end_col, code, name, message)


def render(findings: list[Finding], sources: dict[str, bytes], **kw: object) -> str:
    out = io.StringIO()
    format_text(findings, out, sources=SourceLines(sources), **kw)  # type: ignore[arg-type]
    return out.getvalue()


def test_text_is_flake8_form_with_source_and_caret() -> None:
    src = b"import requests\n\ndef f(url):\n    return requests.post(url)\n"
    text = render([F("a.py", 4, 12, 30)], {"a.py": src})
    assert text.splitlines() == [
        "a.py:4:12: TFH201 pass timeout= to this call",
        "    return requests.post(url)",
        "           " + "^" * 18,
        "    help: https://github.com/smullyan/smullyan/blob/main/docs/rules.md#tfh201-call-without-timeout",
    ]
    # concise: the first line only
    assert render([F("a.py", 4, 12, 30)], {"a.py": src}, show_source=False).splitlines() == [
        "a.py:4:12: TFH201 pass timeout= to this call",
    ]


def test_caret_on_a_multi_line_finding_runs_to_the_end_of_the_first_line() -> None:
    src = b"x = call(\n    1)\n"
    lines = render([F("m.py", 1, 5, 6, end_line=2)], {"m.py": src}).splitlines()
    assert lines[1:3] == ["    x = call(", "        ^^^^^"]


def test_caret_keeps_tabs_and_counts_wide_characters() -> None:
    src = "if x:\n\ts = '漢字'; f(1)\n".encode()
    lines = render([F("t.py", 2, 12, 16)], {"t.py": src}).splitlines()
    shown, caret = lines[1], lines[2]
    assert shown == "    s = '漢字'; f(1)"
    # 's = ' + two wide characters (4 cells) + "'; " -> the caret sits under "f"
    assert caret == "    " + " " * (4 + 1 + 4 + 3) + "^^^^"


def test_tab_inside_the_line_is_kept_in_the_caret_padding() -> None:
    src = b"x =\tf(1)\n"
    caret = render([F("t.py", 1, 5, 9)], {"t.py": src}).splitlines()[2]
    assert caret == "    " + "   \t" + "^^^^"


def test_source_lines_split_like_python_not_like_splitlines() -> None:
    # A form feed is not a line break for Python: line 2 is the call.
    src = b"a = 1\x0c  # page\nrequests.get(u)\r\nb = 2\r"
    sources = SourceLines({"f.py": src})
    assert sources.line("f.py", 2) == "requests.get(u)"
    assert sources.line("f.py", 3) == "b = 2"
    assert sources.line("f.py", 9) is None


def test_source_lines_decode_pep263_and_bom(tmp_path: Path) -> None:
    latin = tmp_path / "latin.py"
    latin.write_bytes("# -*- coding: latin-1 -*-\nname = 'café'\n".encode("latin-1"))
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfx = 'ok'\n")
    sources = SourceLines()
    assert sources.line(str(latin), 2) == "name = 'café'"
    assert sources.line(str(bom), 1) == "x = 'ok'"
    assert sources.line(str(tmp_path / "missing.py"), 1) is None


def test_text_without_a_readable_source_still_prints_the_finding() -> None:
    assert render([F("gone.py", 1, 1, 2)], {}, show_source=False) == "gone.py:1:1: TFH201 pass timeout= to this call\n"
    assert render([F("gone.py", 1, 1, 2)], {}).splitlines()[1].startswith("    help: https://")


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_tty_and_never_with_no_color() -> None:
    assert use_color(FakeTTY(), {}) is True
    assert use_color(FakeTTY(), {"NO_COLOR": "1"}) is False
    assert use_color(io.StringIO(), {}) is False
    coloured = render([F("a.py", 1, 1, 2)], {"a.py": b"x\n"}, color=True)
    plain = render([F("a.py", 1, 1, 2)], {"a.py": b"x\n"}, color=False)
    assert "\x1b[" in coloured and "\x1b[" not in plain


def test_statistics_count_per_code() -> None:
    findings = [F("a.py", 1, 1, 2), F("b.py", 2, 1, 2),
                F("a.py", 3, 1, 2, "TFH401", name="stringified-exception")]
    out = io.StringIO()
    format_statistics(findings, out, fixable=lambda f: False)
    # ruff's (flake8's) form: count, code, name, tab-separated, most frequent first
    assert out.getvalue().splitlines() == [
        "2\tTFH201\tcall-without-timeout",
        "1\tTFH401\tstringified-exception",
    ]
    out = io.StringIO()
    format_statistics(findings, out, fixable=lambda f: f.code == "TFH201")
    assert out.getvalue().splitlines() == [
        "2\tTFH201\t[*] call-without-timeout",
        "1\tTFH401\t[ ] stringified-exception",
    ]
    out = io.StringIO()
    format_statistics_json(findings, out, fixable=lambda f: f.code == "TFH201")
    assert json.loads(out.getvalue()) == [
        {"code": "TFH201", "name": "call-without-timeout", "count": 2, "fixable": True},
        {"code": "TFH401", "name": "stringified-exception", "count": 1, "fixable": False},
    ]


def test_summary_counts_hidden_unsafe_fixes_as_ruff_does() -> None:
    findings = [F("a.py", 1, 1, 2), F("a.py", 2, 1, 2), F("a.py", 3, 1, 2)]

    def summary(fixable: set[int], hidden: set[int], fixing: bool = False) -> list[str]:
        out = io.StringIO()
        format_summary(findings, 1, out, fixable=lambda f: f.line in fixable, hidden=lambda f: f.line in hidden,
                       fixing=fixing)
        return out.getvalue().splitlines()[1:]

    assert summary({1}, {2, 3}) == [
        "[*] 1 fixable with the `--fix` option (2 hidden fixes can be enabled with the `--unsafe-fixes` option)."]
    assert summary(set(), {2}) == ["No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."]
    assert summary({1, 2}, set()) == ["[*] 2 fixable with the `--fix` option."]
    assert summary(set(), {1, 3}, fixing=True) == [
        "2 unsafe fixes not applied (they change run-time behaviour): add `--unsafe-fixes` to apply them."]
    assert summary(set(), set()) == []


def test_fix_summary_per_file_and_code() -> None:
    out = io.StringIO()
    format_fix_summary([F("b.py", 1, 1, 2), F("a.py", 1, 1, 2), F("a.py", 2, 1, 2),
                        F("a.py", 3, 1, 2, "TFH202", name="infinite-timeout")], out, applied=True)
    assert out.getvalue().splitlines() == [
        "Fixed 4 findings:", "- a.py:", "    2 \u00d7 TFH201 (call-without-timeout)",
        "    1 \u00d7 TFH202 (infinite-timeout)", "- b.py:", "    1 \u00d7 TFH201 (call-without-timeout)",
    ]


def test_gitlab_code_quality_report(tmp_path: Path) -> None:
    """GitLab's required fields (description, check_name, fingerprint, severity, location.path,
    location.lines.begin), paths relative to the project, fingerprints unique and stable."""
    findings = [F(str(tmp_path / "pkg" / "a.py"), 3, 1, 2), F(str(tmp_path / "pkg" / "a.py"), 3, 1, 2),
                F(str(tmp_path / "b.py"), 1, 5, 9, "TFH401", name="stringified-exception", end_line=2)]

    def report() -> list[dict[str, object]]:
        out = io.StringIO()
        format_gitlab(findings, out, root=tmp_path)
        return json.loads(out.getvalue())  # type: ignore[no-any-return]

    issues = report()
    assert [set(i) for i in issues] == [{"description", "check_name", "fingerprint", "severity", "location"}] * 3
    assert issues[0]["location"] == {"path": "pkg/a.py", "lines": {"begin": 3, "end": 3}}
    assert issues[2]["location"] == {"path": "b.py", "lines": {"begin": 1, "end": 2}}
    assert issues[0]["check_name"] == "TFH201" and issues[0]["severity"] == "major"
    assert issues[0]["description"] == "TFH201: pass timeout= to this call"
    prints = [i["fingerprint"] for i in issues]
    assert len(set(prints)) == 3 and prints == [i["fingerprint"] for i in report()]


def test_junit_as_ruff_writes_it() -> None:
    import xml.etree.ElementTree as ET

    out = io.StringIO()
    format_junit([F("pkg/a.py", 1, 8, 9, message="x < y & \x01"), F("pkg/a.py", 6, 5, 9),
                  F("b.py", 1, 4, 5, "TFH401", name="stringified-exception")], out)
    root = ET.fromstring(out.getvalue())
    assert (root.tag, root.get("name"), root.get("tests"), root.get("failures")) == ("testsuites", "smullyan", "3", "3")
    suites = root.findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("package")) for s in suites] == [
        ("pkg/a.py", "2", "2", "smullyan"), ("b.py", "1", "1", "smullyan")]
    case = suites[0].find("testcase")
    assert case is not None and case.attrib == {"name": "smullyan.TFH201", "classname": "pkg/a", "line": "1", "column": "8"}
    failure = case.find("failure")
    assert failure is not None and failure.get("message") == "x < y & \ufffd"
    assert failure.text == "line 1, col 8, x < y & \ufffd"
    empty = io.StringIO()
    format_junit([], empty)
    assert ET.fromstring(empty.getvalue()).get("failures") == "0"


def test_json_v2_envelope_carries_version_summary_and_severity() -> None:
    from smullyan.linter.output import RuleMeta

    out = io.StringIO()
    catalogue = [RuleMeta("TFH201", "call-without-timeout", "s", "d", "error"),
                 RuleMeta("TFH401", "stringified-exception", "s", "d", "warning")]
    findings = [F("a.py", 1, 1, 2), F("b.py", 1, 1, 2, "TFH401", name="stringified-exception")]
    format_json_envelope(findings, out, files_checked=5, catalogue=catalogue, fixable=lambda f: False)
    doc = json.loads(out.getvalue())
    assert doc["version"] == 2 and doc["tool"]["name"] == "smullyan"
    assert doc["summary"] == {"findings": 2, "files_checked": 5, "files_with_findings": 2, "fixable": 0, "fixed": 0}
    assert [f["severity"] for f in doc["findings"]] == ["error", "warning"]
    plain = io.StringIO()
    format_json(findings, plain)
    assert [{k: v for k, v in f.items() if k != "severity"} for f in doc["findings"]] == json.loads(plain.getvalue())


def test_summary() -> None:
    out = io.StringIO()
    format_summary([F("a.py", 1, 1, 2), F("a.py", 2, 1, 2)], 7, out)
    format_summary([], 1, out)
    assert out.getvalue().splitlines() == [
        "Found 2 findings in 1 file (7 files checked).",
        "No findings (1 file checked).",
    ]


def test_json_is_a_list_of_objects_with_every_field() -> None:
    findings = [F("a.py", 4, 12, 30), F("b/c.py", 1, 1, 5, "TFH401", name="stringified-exception",
                                        message='do not return str(e): "quote" é')]
    out = io.StringIO()
    format_json(findings, out)
    data = json.loads(out.getvalue())
    assert [{k: d[k] for k in list(d)[:8]} for d in data] == [
        {"path": f.path, "line": f.line, "column": f.column, "end_line": f.end_line,
         "end_column": f.end_column, "code": f.code, "name": f.name, "message": f.message}
        for f in findings
    ]
    # ruff's fields, for tools built for `ruff --output-format json`
    first = data[0]
    assert first["filename"] == os.path.abspath("a.py")
    assert first["location"] == {"row": 4, "column": 12} and first["end_location"] == {"row": 4, "column": 30}
    assert first["url"].endswith("docs/rules.md#tfh201-call-without-timeout")
    assert first["noqa_row"] == 4 and first["fix"] is None


def test_json_of_no_findings_is_an_empty_list() -> None:
    out = io.StringIO()
    format_json([], out)
    assert json.loads(out.getvalue()) == []


@pytest.mark.parametrize(
    ("raw", "data", "prop"),
    [
        ("plain", "plain", "plain"),
        ("100%", "100%25", "100%25"),
        ("a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"),
        ("k:v,w", "k:v,w", "k%3Av%2Cw"),
        ("%0A literal", "%250A literal", "%250A literal"),
    ],
)
def test_github_escaping(raw: str, data: str, prop: str) -> None:
    assert escape_github_data(raw) == data
    assert escape_github_property(raw) == prop


def test_github_annotations() -> None:
    findings = [
        F("src/a,b.py", 4, 12, 30, message="pass timeout=\nnow: 100%"),
    ]
    out = io.StringIO()
    format_github(findings, out)
    assert out.getvalue() == (
        "::error file=src/a%2Cb.py,line=4,col=12,endLine=4,endColumn=30,title=TFH201"
        "::pass timeout=%0Anow: 100%25\n"
    )
