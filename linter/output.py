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
    "format_github",
    "format_json",
    "format_sarif",
    "format_statistics",
    "format_text",
    "rule_catalogue",
    "use_color",
]

FORMATS = ("text", "full", "concise", "json", "sarif", "github")
TOOL_NAME = "smullyan"
#: The repository (pyproject.toml's ``[project.urls] Repository``; a test holds them equal).
REPOSITORY_URL = "https://github.com/smullyan/smullyan"
DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs"
INFORMATION_URI = f"{REPOSITORY_URL}#the-linter"
RULES_URL = f"{DOCS_URL}/rules.md"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
#: Version of the ``--format json`` document (docs/cli.md describes it).
JSON_SCHEMA_VERSION = 2


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


def format_statistics(findings: Sequence[Finding], stream: TextIO) -> None:
    """One line per code: count, code, name; then the total."""
    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    width = max((len(str(n)) for n in counts.values()), default=1)
    for code in sorted(counts):
        stream.write(f"{counts[code]:>{width}}  {code}  {names[code]}\n")
    stream.write(f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in total\n")


def format_summary(
    findings: Sequence[Finding],
    files_checked: int,
    stream: TextIO,
    *,
    fixable: FixablePredicate = _has_fix,
    fixed: int = 0,
) -> None:
    """The closing line; with ``fixed`` (after ``--fix``) how many were fixed; then ruff's
    ``[*] N fixable with the `--fix` option.``"""
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
    if n:
        stream.write(f"[*] {n} fixable with the `--fix` option.\n")


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


def _meta_from_rule(rule: Any) -> RuleMeta:
    code = str(rule.code)
    name = str(getattr(rule, "name", code))
    summary = str(getattr(rule, "summary", "") or getattr(rule, "message", "") or name)
    docs = str(getattr(rule, "docs", "") or summary)
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

    A finding ``--fix`` would fix carries it as ``fixes`` (one ``artifactChange``
    of ``replacements``: ``deletedRegion`` and ``insertedContent``), so code
    review tools can offer it.

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
