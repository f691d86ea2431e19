"""Output formats of ``smullyan lint``: text, json and json-v2 here; the CI formats (sarif, github,
gitlab, junit) in ``linter/output_ci.py`` and the rule catalogue in ``linter/catalogue.py``, both
re-exported from here (``output.format_sarif``, ``output.rule_catalogue``).

Every formatter takes the findings already sorted (path, line, column, code)
and writes one complete document to a text stream.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from .catalogue import (
    CATALOGUE_FILE,
    DOCS_URL,
    FIX_SAFETY,
    INFORMATION_URI,
    REPOSITORY_URL,
    RULES_URL,
    TOOL_NAME,
    RuleMeta,
    _version,
    catalogue_json,
    find_rule,
    full_description,
    rule_catalogue,
    rule_url,
    section,
    severities,
    shipped_catalogue,
    with_fix_safety,
)
from .findings import Finding
from .output_ci import (
    SARIF_SCHEMA_URI,
    FixablePredicate,
    _has_fix,
    build_sarif,
    default_srcroot,
    escape_github_data,
    escape_github_property,
    format_github,
    format_gitlab,
    format_junit,
    format_sarif,
)
from .source import decode

__all__ = [
    "CATALOGUE_FILE",
    "DOCS_URL",
    "FIX_SAFETY",
    "FORMATS",
    "INFORMATION_URI",
    "REPOSITORY_URL",
    "RULES_URL",
    "SARIF_SCHEMA_URI",
    "TOOL_NAME",
    "FixablePredicate",
    "RuleMeta",
    "SourceLines",
    "build_sarif",
    "catalogue_json",
    "default_srcroot",
    "escape_github_data",
    "escape_github_property",
    "find_rule",
    "format_fix_summary",
    "format_github",
    "format_gitlab",
    "format_json",
    "format_json_envelope",
    "format_junit",
    "format_sarif",
    "format_statistics",
    "format_statistics_json",
    "format_text",
    "full_description",
    "rule_catalogue",
    "rule_url",
    "section",
    "severities",
    "shipped_catalogue",
    "use_color",
    "with_fix_safety",
]

FORMATS = ("text", "full", "concise", "json", "json-v2", "sarif", "github", "gitlab", "junit")
#: Version of the ``--format json`` document (docs/cli.md describes it).
JSON_SCHEMA_VERSION = 2
#: ``version`` of the ``--format json-v2`` envelope (its finding objects are those of ``json``, plus ``severity``).
JSON_ENVELOPE_VERSION = 2


# --------------------------------------------------------------------------- colour


def use_color(stream: TextIO, environ: Mapping[str, str] | None = None, *, to_file: bool = False) -> bool:
    """Colour on a terminal; never when ``NO_COLOR`` is set (https://no-color.org); always
    (even into a pipe, for CI logs) when ``FORCE_COLOR`` is set (https://force-color.org),
    except into an ``--output`` file. ``NO_COLOR`` wins over ``FORCE_COLOR``."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") or to_file:
        return False
    if env.get("FORCE_COLOR", ""):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


class _Style:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def _wrap(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def path(self, text: str) -> str:
        return self._wrap(text, "1")

    def code(self, text: str) -> str:
        return self._wrap(text, "1;31")

    def caret(self, text: str) -> str:
        return self._wrap(text, "31")

    def dim(self, text: str) -> str:
        return self._wrap(text, "2")


# --------------------------------------------------------------------------- source lines

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class SourceLines:
    """Reads (once per file) the lines that text output shows under each finding.

    Lines split where Python's tokenizer splits them (``\\n``, ``\\r\\n``, ``\\r``),
    not where ``str.splitlines`` would (form feeds, ``\\u2028``), so line numbers agree.
    """

    def __init__(self, overrides: Mapping[str, bytes] | None = None) -> None:
        self._overrides = dict(overrides or {})
        self._lines: dict[str, list[str] | None] = {}
        self._texts: dict[str, str | None] = {}
        self._rows: dict[str, dict[int, int]] = {}

    def text(self, path: str) -> str | None:
        """The whole decoded source (BOM removed), or None when unreadable."""
        if path not in self._texts:
            data = self._overrides.get(path)
            if data is None:
                try:
                    data = Path(path).read_bytes()
                except OSError:
                    data = None
            self._texts[path] = None if data is None else decode(data)
        return self._texts[path]

    def noqa_row(self, path: str, lineno: int) -> int:
        """The line a ``# noqa`` for a finding on ``lineno`` goes on (the end of a multi-line string)."""
        from .noqa import noqa_rows

        if path not in self._rows:
            text = self.text(path)
            self._rows[path] = noqa_rows(text) if text is not None else {}
        return self._rows[path].get(lineno, lineno)

    def line(self, path: str, lineno: int) -> str | None:
        if path not in self._lines:
            text = self.text(path)
            self._lines[path] = None if text is None else _LINE_BREAK.split(text)
        lines = self._lines[path]
        if lines is None or not 1 <= lineno <= len(lines):
            return None
        return lines[lineno - 1]


def _width(text: str) -> int:
    """Terminal cells taken by ``text`` (wide East Asian characters take two)."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def _pad(prefix: str) -> str:
    """Blank space as wide as ``prefix``, keeping its tabs so the caret lines up anywhere."""
    return "".join("\t" if ch == "\t" else " " * _width(ch) for ch in prefix)


def _source_excerpt(finding: Finding, line: str, style: _Style) -> list[str]:
    """The source line (dedented, indented by four) and a caret line under the finding."""
    stripped = line.lstrip(" \t\f")
    cut = len(line) - len(stripped)
    shown = stripped.rstrip()
    if not shown:
        return []
    start = max(0, finding.column - 1 - cut)
    start = min(start, len(shown))
    if finding.end_line == finding.line and finding.end_column > finding.column:
        end = min(len(shown), finding.end_column - 1 - cut)
    else:
        end = len(shown)
    underline = max(1, _width(shown[start:end]))
    caret = _pad(shown[:start]) + "^" * underline
    return ["    " + shown, "    " + style.caret(caret)]


# --------------------------------------------------------------------------- fixes


def fix_dict(f: Finding) -> dict[str, Any] | None:
    """ruff's ``fix`` object: applicability, message, edits with 1-based locations."""
    if f.fix is None:
        return None
    return {
        "applicability": f.fix.applicability,
        "message": f.fix.message,
        "edits": [
            {
                "content": e.content,
                "location": {"row": e.line, "column": e.column},
                "end_location": {"row": e.end_line, "column": e.end_column},
            }
            for e in f.fix.edits
        ],
    }


# --------------------------------------------------------------------------- text


def format_text(
    findings: Sequence[Finding],
    stream: TextIO,
    *,
    sources: SourceLines | None = None,
    color: bool = False,
    show_source: bool = True,
    fixable: FixablePredicate = _has_fix,
) -> None:
    """flake8's ``path:line:col: CODE message``, then the source line, a caret and the rule's URL.

    ``show_source=False`` is the concise form: the first line only. A finding
    ``--fix`` would fix is marked ``[*]`` after its code, as ruff marks it.
    """
    style = _Style(color)
    sources = sources or SourceLines()
    for f in findings:
        mark = " [*]" if fixable(f) else ""
        stream.write(
            f"{style.path(f.path)}:{f.line}:{f.column}: {style.code(f.code)}{mark} {f.message}\n"
        )
        if show_source:
            line = sources.line(f.path, f.line)
            if line is not None:
                for row in _source_excerpt(f, line, style):
                    stream.write(row + "\n")
            stream.write("    " + style.dim(f"help: {rule_url(f.code, f.name)}") + "\n")


def statistics(findings: Sequence[Finding], fixable: FixablePredicate = _has_fix) -> list[dict[str, Any]]:
    """ruff's ``--statistics`` rows: ``code``, ``name``, ``count``, ``fixable`` (whether ``--fix``, as
    configured, would fix every one of them), most frequent first (then by code)."""
    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    fixes = {code: all(fixable(f) for f in findings if f.code == code) for code in counts}
    return [
        {"code": code, "name": names[code], "count": counts[code], "fixable": fixes[code]}
        for code in sorted(counts, key=lambda c: (-counts[c], c))
    ]


def format_statistics(findings: Sequence[Finding], stream: TextIO, *, fixable: FixablePredicate = _has_fix) -> None:
    """ruff's (and flake8's) ``--statistics`` lines: ``count<TAB>code<TAB>name``, most frequent first;
    ``[*] ``/``[ ] `` before the name when some code is fixable."""
    rows = statistics(findings, fixable)
    if not rows:
        return
    count_w = max(len(str(r["count"])) for r in rows)
    code_w = max(len(r["code"]) for r in rows)
    any_fixable = any(r["fixable"] for r in rows)
    for r in rows:
        mark = ("[*] " if r["fixable"] else "[ ] ") if any_fixable else ""
        stream.write(f"{r['count']:>{count_w}}\t{r['code']:<{code_w}}\t{mark}{r['name']}\n")


def format_statistics_json(findings: Sequence[Finding], stream: TextIO, *, fixable: FixablePredicate = _has_fix) -> None:
    """``--statistics --format json``: ruff's list of ``{code, name, count, fixable}``."""
    json.dump(statistics(findings, fixable), stream, indent=2, ensure_ascii=False)
    stream.write("\n")


def _plural(n: int, word: str, suffix: str = "s") -> str:
    return f"{n} {word}{suffix if n != 1 else ''}"


def hidden_fixes_hint(hidden: int, *, fixing: bool) -> str:
    """What ``--fix`` left out: ``hidden`` unsafe fixes, and how to apply them."""
    if fixing:
        return (f"{_plural(hidden, 'unsafe fix', 'es')} not applied (they change run-time behaviour): "
                "add `--unsafe-fixes` to apply them.")
    return f"No fixes available ({_plural(hidden, 'hidden fix', 'es')} can be enabled with the `--unsafe-fixes` option)."


def format_summary(
    findings: Sequence[Finding],
    files_checked: int,
    stream: TextIO,
    *,
    fixable: FixablePredicate = _has_fix,
    fixed: int = 0,
    hidden: FixablePredicate | None = None,
    fixing: bool = False,
) -> None:
    """The closing line; with ``fixed`` (after ``--fix``) how many were fixed; then ruff's
    ``[*] N fixable with the `--fix` option.``, and how many unsafe fixes ``hidden`` holds back
    (with ``fixing``, after ``--fix``: how many were not applied, and how to apply them)."""
    files = "file" if files_checked == 1 else "files"
    done = f"Fixed {fixed} finding{'s' if fixed != 1 else ''}; " if fixed else ""
    if not findings:
        stream.write(f"{done}{'n' if done else 'N'}o findings ({files_checked} {files} checked).\n")
        return
    affected = len({f.path for f in findings})
    remaining = " remaining" if fixed else ""
    stream.write(
        f"{done}{'f' if done else 'F'}ound {len(findings)} finding{'s' if len(findings) != 1 else ''}{remaining} in "
        f"{affected} file{'s' if affected != 1 else ''} ({files_checked} {files} checked).\n"
    )
    n = sum(1 for f in findings if fixable(f))
    unsafe = sum(1 for f in findings if hidden(f)) if hidden is not None else 0
    if fixing:
        if n:
            stream.write(f"[*] {n} fixable with the `--fix` option.\n")
        if unsafe:
            stream.write(hidden_fixes_hint(unsafe, fixing=True) + "\n")
    elif n and unsafe:
        stream.write(f"[*] {n} fixable with the `--fix` option "
                     f"({_plural(unsafe, 'hidden fix', 'es')} can be enabled with the `--unsafe-fixes` option).\n")
    elif n:
        stream.write(f"[*] {n} fixable with the `--fix` option.\n")
    elif unsafe:
        stream.write(hidden_fixes_hint(unsafe, fixing=False) + "\n")


def format_fix_summary(fixed: Sequence[Finding], stream: TextIO, *, applied: bool) -> None:
    """``--show-fixes``: what was (``applied``) or would be fixed, per file and code, as ruff lists it."""
    if not fixed:
        return
    verb = "Fixed" if applied else "Would fix"
    stream.write(f"{verb} {_plural(len(fixed), 'finding')}:\n")
    by_path: dict[str, Counter[tuple[str, str]]] = {}
    for f in fixed:
        by_path.setdefault(f.path, Counter())[(f.code, f.name)] += 1
    for path in sorted(by_path):
        stream.write(f"- {path}:\n")
        counts = by_path[path]
        for (code, name), n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            stream.write(f"    {n} \u00d7 {code} ({name})\n")


# --------------------------------------------------------------------------- json


def finding_dict(
    f: Finding, sources: SourceLines | None = None, fixable: FixablePredicate = _has_fix
) -> dict[str, Any]:
    """One finding: smullyan's own fields, then ruff's (docs/cli.md, schema version 2)."""
    return {
        "path": f.path,
        "line": f.line,
        "column": f.column,
        "end_line": f.end_line,
        "end_column": f.end_column,
        "code": f.code,
        "name": f.name,
        "message": f.message,
        # ruff's --output-format json fields
        "filename": os.path.abspath(f.path) if f.path != "stdin" else f.path,
        "location": {"row": f.line, "column": f.column},
        "end_location": {"row": f.end_line, "column": f.end_column},
        "url": rule_url(f.code, f.name),
        "noqa_row": sources.noqa_row(f.path, f.line) if sources is not None else f.line,
        "fix": fix_dict(f) if fixable(f) else None,
        "cell": None,
    }


def format_json(
    findings: Sequence[Finding],
    stream: TextIO,
    *,
    sources: SourceLines | None = None,
    fixable: FixablePredicate = _has_fix,
) -> None:
    """A JSON list with one object per finding (ruff's shape, plus smullyan's fields)."""
    sources = sources or SourceLines()
    json.dump([finding_dict(f, sources, fixable) for f in findings], stream, indent=2, ensure_ascii=False)
    stream.write("\n")




def format_json_envelope(
    findings: Sequence[Finding],
    stream: TextIO,
    *,
    files_checked: int,
    sources: SourceLines | None = None,
    fixable: FixablePredicate = _has_fix,
    offered: FixablePredicate = _has_fix,
    fixed: int = 0,
    catalogue: Sequence[RuleMeta] | None = None,
) -> None:
    """``--format json-v2``: one object with a ``version``, the tool, a summary and the findings
    (``json``'s objects, each with its rule's ``severity``); docs/cli.md has the schema."""
    sources = sources or SourceLines()
    levels = severities(catalogue)
    rows = []
    for f in findings:
        row = finding_dict(f, sources, offered)
        row["severity"] = levels.get(f.code, "error")
        rows.append(row)
    document = {
        "version": JSON_ENVELOPE_VERSION,
        "tool": {"name": TOOL_NAME, "version": _version()},
        "summary": {
            "findings": len(findings),
            "files_checked": files_checked,
            "files_with_findings": len({f.path for f in findings}),
            "fixable": sum(1 for f in findings if fixable(f)),
            "fixed": fixed,
        },
        "findings": rows,
    }
    json.dump(document, stream, indent=2, ensure_ascii=False)
    stream.write("\n")

