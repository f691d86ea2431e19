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
    format_github,
    format_json,
    format_statistics,
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
    format_statistics(findings, out)
    assert out.getvalue().splitlines() == [
        "2  TFH201  call-without-timeout",
        "1  TFH401  stringified-exception",
        "3 findings in total",
    ]


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
