"""The formats for CI services: SARIF (code scanning), GitHub workflow commands, GitLab's code
quality report and JUnit XML. Each takes the findings already sorted and writes one document."""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable, TextIO

from .catalogue import INFORMATION_URI, TOOL_NAME, RuleMeta, _version, full_description, rule_catalogue, rule_url, severities
from .findings import Finding

__all__ = [
    "FixablePredicate",
    "build_sarif",
    "default_srcroot",
    "escape_github_data",
    "escape_github_property",
    "format_github",
    "format_gitlab",
    "format_junit",
    "format_sarif",
]

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"

#: Whether ``--fix`` would apply a finding's fix (the CLI passes the configuration's
#: ``fixable``/``unfixable``); by default every fix a finding carries.
FixablePredicate = Callable[[Finding], bool]


def _has_fix(f: Finding) -> bool:
    return f.fix is not None



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


# --------------------------------------------------------------------------- sarif



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
