"""Output formats of ``smullyan lint``: text, json, sarif, github.

Every formatter takes the findings already sorted (path, line, column, code)
and writes one complete document to a text stream.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TextIO

from .findings import Finding
from .source import decode

__all__ = [
    "FORMATS",
    "RuleMeta",
    "SourceLines",
    "build_sarif",
    "escape_github_data",
    "escape_github_property",
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
    "rule_catalogue",
    "use_color",
]

FORMATS = ("text", "full", "concise", "json", "json-v2", "sarif", "github", "gitlab", "junit")
TOOL_NAME = "smullyan"
#: The repository (pyproject.toml's ``[project.urls] Repository``; a test holds them equal).
REPOSITORY_URL = "https://github.com/smullyan/smullyan"
DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs"
INFORMATION_URI = f"{REPOSITORY_URL}#the-linter"
RULES_URL = f"{DOCS_URL}/rules.md"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
#: Version of the ``--format json`` document (docs/cli.md describes it).
JSON_SCHEMA_VERSION = 2
#: ``version`` of the ``--format json-v2`` envelope (its finding objects are those of ``json``, plus ``severity``).
JSON_ENVELOPE_VERSION = 2


def rule_url(code: str, name: str) -> str:
    """The rule's entry in docs/rules.md (GitHub's anchor for ``## TFH201 call-without-timeout``)."""
    return f"{RULES_URL}#{code.lower()}-{name}"


def _version() -> str:
    from .. import __version__

    return str(__version__)


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

#: Whether ``--fix`` would apply a finding's fix (the CLI passes the configuration's
#: ``fixable``/``unfixable``); by default every fix a finding carries.
FixablePredicate = Callable[[Finding], bool]


def _has_fix(f: Finding) -> bool:
    return f.fix is not None


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


def severities(catalogue: Sequence[RuleMeta] | None = None) -> dict[str, str]:
    """Each rule's severity (its SARIF level: ``error``, ``warning``, ``note``), by code."""
    return {m.code: m.level for m in (rule_catalogue() if catalogue is None else catalogue)}


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


# --------------------------------------------------------------------------- gitlab, junit

#: GitLab's code quality severities, by the rule's level
_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "note": "info"}


def format_gitlab(
    findings: Sequence[Finding],
    stream: TextIO,
    *,
    root: Path | None = None,
    catalogue: Sequence[RuleMeta] | None = None,
) -> None:
    """GitLab's code quality report (``artifacts: reports: codequality``): a JSON list of issues with
    ``description``, ``check_name``, ``fingerprint``, ``severity`` and ``location`` (``path`` relative
    to ``root``, by default ``$CI_PROJECT_DIR`` else the current directory, and ``lines.begin``/``end``),
    as ruff writes it. Fingerprints are unique within the report and stable across runs that do not
    move the finding's code, path or message."""
    import hashlib

    base = Path(os.path.abspath(root or os.environ.get("CI_PROJECT_DIR") or Path.cwd()))
    levels = severities(catalogue)
    seen: set[str] = set()
    issues = []
    for f in findings:
        path = _repository_path(f.path, base) if f.path != "stdin" else f.path
        salt = ""
        while True:
            fingerprint = hashlib.sha256("\0".join((salt, f.code, path, f.message)).encode()).hexdigest()[:32]
            if fingerprint not in seen:
                break
            salt = fingerprint
        seen.add(fingerprint)
        issues.append({
            "check_name": f.code,
            # GitLab shows the description, not the check name: both, as ruff does
            "description": f"{f.code}: {f.message}",
            "severity": _GITLAB_SEVERITY.get(levels.get(f.code, "error"), "major"),
            "fingerprint": fingerprint,
            "location": {"path": path, "lines": {"begin": f.line, "end": max(f.line, f.end_line)}},
        })
    json.dump(issues, stream, indent=2, ensure_ascii=False)
    stream.write("\n")


def format_junit(findings: Sequence[Finding], stream: TextIO) -> None:
    """JUnit XML as ruff writes it: one ``testsuite`` per file, one failed ``testcase`` per finding
    (``name="smullyan.CODE"``, ``classname`` the path without ``.py``, ``line``, ``column``); a run
    without findings is one passed test case."""
    from xml.sax.saxutils import quoteattr, escape

    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    total = len(findings)
    out.append(f'<testsuites name="{TOOL_NAME}" tests="{max(total, 1)}" failures="{total}" errors="0">')
    if not findings:
        out.append(f'    <testsuite name="{TOOL_NAME}" tests="1" disabled="0" errors="0" failures="0" package="{TOOL_NAME}">')
        out.append('        <testcase name="No findings"/>')
        out.append("    </testsuite>")
    for path, items in by_path.items():
        classname = path[:-3] if path.endswith(".py") else path
        out.append(
            f'    <testsuite name={quoteattr(path)} tests="{len(items)}" disabled="0" errors="0" '
            f'failures="{len(items)}" package="{TOOL_NAME}">'
        )
        for f in items:
            out.append(
                f'        <testcase name={quoteattr(f"{TOOL_NAME}.{f.code}")} classname={quoteattr(classname)} '
                f'line="{f.line}" column="{f.column}">'
            )
            out.append(
                f"            <failure message={quoteattr(f.message)}>"
                f"{escape(f'line {f.line}, col {f.column}, {f.message}')}</failure>"
            )
            out.append("        </testcase>")
        out.append("    </testsuite>")
    out.append("</testsuites>")
    stream.write("\n".join(_xml_text(line) for line in out) + "\n")


_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a message may quote any source)."""
    return _XML_ILLEGAL.sub("\ufffd", text)


# --------------------------------------------------------------------------- github


def escape_github_data(text: str) -> str:
    """Escape a workflow command's message (``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_github_property(text: str) -> str:
    """Escape a workflow command's property value (also ``:`` and ``,``)."""
    return escape_github_data(text).replace(":", "%3A").replace(",", "%2C")


def _repository_path(path: str, root: Path) -> str:
    """``path`` relative to ``root`` with forward slashes; absolute when outside it."""
    abspath = Path(os.path.abspath(path))
    try:
        return abspath.relative_to(root).as_posix()
    except ValueError:
        return abspath.as_posix()


def format_github(findings: Sequence[Finding], stream: TextIO, *, root: Path | None = None) -> None:
    """GitHub Actions workflow commands: one ``::error`` annotation per finding.

    ``file=`` is relative to ``root``, by default the git work tree around the
    current directory (GitHub resolves it against the repository root, so a
    step that runs in a subdirectory still annotates the right file).
    """
    root = Path(os.path.abspath(root or default_srcroot()))
    for f in findings:
        props = ",".join(
            f"{key}={escape_github_property(str(value))}"
            for key, value in (
                ("file", _repository_path(f.path, root)),
                ("line", f.line),
                ("col", f.column),
                ("endLine", f.end_line),
                ("endColumn", f.end_column),
                ("title", f.code),
            )
        )
        stream.write(f"::error {props}::{escape_github_data(f.message)}\n")


# --------------------------------------------------------------------------- rule metadata


@dataclass(frozen=True)
class RuleMeta:
    code: str
    name: str
    summary: str
    docs: str
    level: str = "error"  # SARIF: "error" | "warning" | "note"


_PSEUDO_FALLBACK = {
    "TFH001": RuleMeta(
        "TFH001",
        "could-not-parse",
        "The file could not be read or parsed, so no rule could check it.",
        "## could-not-parse (TFH001)\n\nThe file could not be read or parsed as Python, so "
        "no rule checked it. Fix the syntax error (or the encoding) the message names.\n",
    ),
    "TFH002": RuleMeta(
        "TFH002",
        "internal-error",
        "A rule crashed on this file; the other rules' findings are still reported.",
        "## internal-error (TFH002)\n\nA rule (or a worker process) failed on this file. "
        "This is a bug in smullyan: please report it with the file. The other rules' "
        "findings for the file are still reported.\n",
    ),
}


#: What a rule's "Fix" section gains, by the rule's ``fix_applicability`` (the rule files need not say it)
FIX_SAFETY = {
    "unsafe": "Fix safety: this fix is **unsafe** (it changes what the program does at run time), so "
    "`smullyan lint --fix` applies it only with `--unsafe-fixes` (or `unsafe-fixes = true` in the "
    "configuration); `smullyan lint --diff --unsafe-fixes` shows it first.",
    "safe": "Fix safety: this fix is **safe** (the program behaves as before): `smullyan lint --fix` applies it.",
}


def with_fix_safety(docs: str, applicability: str) -> str:
    """``docs`` with the fix's applicability stated at the end of its ``## Fix`` section (if it has one)."""
    note = FIX_SAFETY.get(applicability)
    match = re.search(r"^#{2,3} Fix[^\n]*\n", docs, re.MULTILINE)
    if note is None or match is None or note in docs:
        return docs
    following = re.search(r"^#{1,6} ", docs[match.end():], re.MULTILINE)
    end = match.end() + following.start() if following else len(docs)
    body = docs[:end].rstrip("\n")
    return body + "\n\n" + note + "\n" + ("\n" + docs[end:] if following else "")


def _meta_from_rule(rule: Any) -> RuleMeta:
    code = str(rule.code)
    name = str(getattr(rule, "name", code))
    summary = str(getattr(rule, "summary", "") or getattr(rule, "message", "") or name)
    docs = str(getattr(rule, "docs", "") or summary)
    docs = with_fix_safety(docs, str(getattr(rule, "fix_applicability", "unsafe")))
    level = str(getattr(rule, "level", "error"))
    if level not in ("error", "warning", "note"):
        level = "error"
    return RuleMeta(code, name, summary, docs, level)


def _describe(code: str) -> RuleMeta | None:
    try:
        from . import registry
    except ImportError:
        return _PSEUDO_FALLBACK.get(code)
    describe = getattr(registry, "describe", None)
    if describe is not None:
        try:
            described = describe(code)
        except (KeyError, LookupError, ValueError):
            described = None
        if described is not None:
            if isinstance(described, tuple):
                name, summary, docs = described[:3]
                return RuleMeta(code, str(name), str(summary), str(docs))
            return _meta_from_rule(described)
    return _PSEUDO_FALLBACK.get(code)


#: Every rule's metadata and docs, generated into the package (``smullyan rules --json``), so
#: that ``smullyan rules`` and ``explain`` work in the runtime-only install (``pip install
#: smullyan``: no libcst, no yaml), where the rule classes cannot be imported. A test holds it
#: equal to what the rules say.
CATALOGUE_FILE = Path(__file__).resolve().parent / "rules.json"


def catalogue_json(catalogue: Sequence[RuleMeta]) -> str:
    """The catalogue as :data:`CATALOGUE_FILE` holds it (``smullyan rules --json``)."""
    rows = [
        {"code": m.code, "name": m.name, "summary": m.summary, "level": m.level, "docs": m.docs}
        for m in catalogue
    ]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def shipped_catalogue() -> list[RuleMeta]:
    """The catalogue from :data:`CATALOGUE_FILE`, as generated (not from the rules)."""
    rows = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    return [RuleMeta(r["code"], r["name"], r["summary"], r["docs"], r["level"]) for r in rows]


def rule_catalogue() -> list[RuleMeta]:
    """Every rule the linter knows, the pseudo-rules (TFH001-TFH003) included, sorted by code.

    From the rules themselves; without libcst (the runtime-only install) from the shipped copy.
    """
    import importlib.util

    if importlib.util.find_spec("libcst") is None:
        return shipped_catalogue()
    from . import registry

    metas: dict[str, RuleMeta] = {}
    for code in registry.PSEUDO_RULES:
        meta = _describe(code)
        if meta is not None:
            metas[code] = meta
    for rule in registry.all_rules():
        metas[str(rule.code)] = _meta_from_rule(rule)
    return [metas[c] for c in sorted(metas)]


def find_rule(code_or_name: str, catalogue: Iterable[RuleMeta] | None = None) -> RuleMeta | None:
    """A rule by code (case-insensitive) or kebab-case name."""
    wanted = code_or_name.strip()
    for meta in catalogue if catalogue is not None else rule_catalogue():
        if meta.code.upper() == wanted.upper() or meta.name == wanted.lower():
            return meta
    return None


# --------------------------------------------------------------------------- sarif


def section(markdown: str, title: str) -> str | None:
    """The text of the ``## title`` section of a rule's docs (any heading level, case-insensitive,
    headings inside code fences ignored), without its fenced code blocks; None when absent."""
    wanted = title.strip().lower()
    found: list[str] | None = None
    fenced = False
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            if found is not None:
                found.append("\0fence")
            continue
        if not fenced and re.match(r"#{1,6}\s", stripped):
            heading = stripped.lstrip("#").strip().rstrip(":").lower()
            if found is not None:
                break
            if heading == wanted:
                found = []
            continue
        if found is not None and not fenced:
            found.append(line)
    if found is None:
        return None
    paragraphs = re.split(r"\n\s*\n", "\n".join(x for x in found if x != "\0fence"))
    text = "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())
    return text or None


def full_description(meta: RuleMeta) -> str:
    """SARIF ``fullDescription``: the rule's "What it does" section, else its summary."""
    return section(meta.docs, "What it does") or meta.summary


def default_srcroot(start: Path | None = None) -> Path:
    """The git work tree containing ``start`` (default: the current directory), else ``start``."""
    here = Path(os.path.abspath(start or Path.cwd()))
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return directory
    return here


def _artifact_location(path: str, root: Path) -> dict[str, Any]:
    abspath = Path(os.path.abspath(path))
    try:
        rel = abspath.relative_to(root)
    except ValueError:
        return {"uri": abspath.as_uri()}
    return {"uri": urllib.parse.quote(rel.as_posix()), "uriBaseId": "%SRCROOT%"}


def build_sarif(
    findings: Sequence[Finding],
    catalogue: Sequence[RuleMeta],
    *,
    root: Path | None = None,
    version: str | None = None,
    fixable: FixablePredicate = _has_fix,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run: the rule metadata and one result per finding.

    A finding whose fix the configuration allows carries it as ``fixes`` (one
    ``artifactChange`` of ``replacements``: ``deletedRegion`` and
    ``insertedContent``), so code review tools can offer it, with its
    applicability (``safe``/``unsafe``) in the fix's ``properties``.

    ``root`` is ``%SRCROOT%``: result URIs are relative to it, with forward
    slashes, as GitHub code scanning expects.  By default it is the root of the
    git work tree around the current directory (so running from a subdirectory
    still gives repository-relative paths), else the current directory.
    Relative finding paths are relative to the current directory.
    """
    root = Path(os.path.abspath(root or default_srcroot()))
    metas = {m.code: m for m in catalogue}
    for f in findings:  # a code the catalogue does not know still gets a rule entry
        if f.code not in metas:
            metas[f.code] = RuleMeta(f.code, f.name, f.name, f.name)
    ordered = [metas[c] for c in sorted(metas)]
    index = {m.code: i for i, m in enumerate(ordered)}
    rules = [
        {
            "id": m.code,
            "name": m.name,
            "shortDescription": {"text": m.summary},
            "fullDescription": {"text": full_description(m)},
            "helpUri": rule_url(m.code, m.name),
            "help": {"text": m.docs, "markdown": m.docs},
            "defaultConfiguration": {"level": m.level},
            "properties": {"tags": ["tool-failure-handling"]},
        }
        for m in ordered
    ]
    results = []
    for f in findings:
        start_line = max(1, f.line)
        start_col = max(1, f.column)
        end_line = max(start_line, f.end_line)
        end_col = max(1, f.end_column)
        if end_line == start_line and end_col < start_col:
            end_col = start_col
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": metas[f.code].level,
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact_location(f.path, root),
                        "region": {
                            "startLine": start_line,
                            "startColumn": start_col,
                            "endLine": end_line,
                            "endColumn": end_col,
                        },
                    }
                }
            ],
        }
        if f.fix is not None and fixable(f):
            result["fixes"] = [
                {
                    "description": {"text": f.fix.message},
                    # ruff's label: "safe" (`--fix` applies it) or "unsafe" (only `--unsafe-fixes` does)
                    "properties": {"applicability": f.fix.applicability},
                    "artifactChanges": [
                        {
                            "artifactLocation": _artifact_location(f.path, root),
                            "replacements": [
                                {
                                    "deletedRegion": {
                                        "startLine": e.line,
                                        "startColumn": e.column,
                                        "endLine": e.end_line,
                                        "endColumn": e.end_column,
                                    },
                                    "insertedContent": {"text": e.content},
                                }
                                for e in f.fix.edits
                            ],
                        }
                    ],
                }
            ]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": version or _version(),
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def format_sarif(
    findings: Sequence[Finding],
    stream: TextIO,
    *,
    catalogue: Sequence[RuleMeta] | None = None,
    root: Path | None = None,
    fixable: FixablePredicate = _has_fix,
) -> None:
    log = build_sarif(findings, rule_catalogue() if catalogue is None else catalogue, root=root, fixable=fixable)
    json.dump(log, stream, indent=2, ensure_ascii=False)
    stream.write("\n")
