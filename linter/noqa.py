"""Suppression comments, read exactly as flake8 reads them, in one place.

The CLI applies everything here; the flake8 plugin leaves the inline
``# noqa`` and ``# flake8: noqa`` to flake8 (which reads them with the very
same regular expressions, copied from ``flake8/defaults.py``; a test holds
them equal) and applies only what flake8 does not know: ``# smullyan: noqa``
and the unused-suppression check (TFH003).

- ``# noqa`` (exactly ``#``, one space, ``noqa``, any case) anywhere on the
  line suppresses every finding on it; ``# noqa: TFH201,TFH202`` (or
  ``# noqa:TFH201``) only those codes, prefixes included (``# noqa: TFH2``).
  As in flake8, codes are compared case-sensitively (``# noqa: tfh201``
  suppresses nothing), ``#noqa`` is not a directive, and a colon not
  directly after ``noqa`` (``# noqa : TFH201``) leaves a blanket ``# noqa``.
  The line searched is flake8's: a multi-line string or a backslash
  continuation is one unit, so a ``# noqa`` after it covers all its lines.
- ``# flake8: noqa`` (or ``# flake8=noqa``) at the start of a line (after
  whitespace) skips the whole file, as flake8 does (with codes after it too:
  flake8 reads ``# flake8: noqa: E501`` as the whole file).
- ``# smullyan: noqa`` at the start of a line skips every TFH finding in
  the file; ``# smullyan: noqa: TFH201,TFH4`` only those codes (prefixes
  included).
- TFH003 (off by default) reports a ``# noqa: ...`` naming a TFH code that
  suppressed nothing on its line, as ruff's RUF100 does; other tools' codes
  and blanket ``# noqa`` are never reported (they may be for other tools).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .findings import Finding
from .source import Text, decode, read, write_atomic

if TYPE_CHECKING:
    from .config import Config

__all__ = [
    "NOQA_FILE",
    "NOQA_INLINE_REGEXP",
    "SMULLYAN_FILE",
    "UNUSED_NOQA",
    "Directive",
    "apply",
    "codes_of",
    "logical_line_texts",
    "suppressed",
]

#: flake8's ``defaults.NOQA_INLINE_REGEXP``, verbatim.
NOQA_INLINE_REGEXP = re.compile(
    r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)
#: flake8's ``defaults.NOQA_FILE``, verbatim.
NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)
#: smullyan's own file-level suppression, on a line of its own.
SMULLYAN_FILE = re.compile(
    r"\s*# smullyan[:=]\s*noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)

UNUSED_NOQA = "TFH003"
_OURS = "TFH"


def codes_of(text: str) -> list[str]:
    """flake8's ``utils.parse_comma_separated_list``: split on commas and whitespace."""
    return [item.strip() for item in re.split(r"[,\s]", text) if item.strip()]


def _covers(codes: Iterable[str], code: str) -> bool:
    wanted = tuple(codes)
    return code in wanted or code.startswith(wanted)


def suppressed(line: str, code: str) -> bool:
    """Whether ``line`` (flake8's noqa text for the finding's line) suppresses ``code``."""
    m = NOQA_INLINE_REGEXP.search(line)
    if m is None:
        return False
    codes = m.group("codes")
    if codes is None:
        return True
    return _covers(codes_of(codes), code)


def _split_lines(text: str) -> list[str]:
    return re.split(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)", text)


def _groups(text: str, lines: Sequence[str]) -> list[tuple[int, int]] | None:
    """flake8's logical units: (first, last) physical line of each; None if it does not tokenize."""
    groups: list[tuple[int, int]] = []
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                groups.append((lo, hi))
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return groups


def logical_line_texts(text: str) -> list[str]:
    """For each physical line, the text searched for ``# noqa`` (index = line - 1).

    Exactly flake8's mapping (``FileProcessor._noqa_line_mapping``): lines are
    grouped between NL/NEWLINE tokens, so a ``# noqa`` after a multi-line
    string or a backslash continuation covers every line of it. Falls back to
    the physical lines when the source does not tokenize (flake8 then reads
    the physical line too).
    """
    lines = _split_lines(text)
    mapping = list(lines)
    for lo, hi in _groups(text, lines) or ():
        if hi > lo:
            joined = "".join(lines[lo - 1 : hi])
            for n in range(lo, min(hi, len(mapping)) + 1):
                mapping[n - 1] = joined
    return mapping


def noqa_rows(text: str) -> dict[int, int]:
    """For each physical line in a multi-line unit, the line a ``# noqa`` for it goes on (the unit's last)."""
    lines = _split_lines(text)
    rows: dict[int, int] = {}
    for lo, hi in _groups(text, lines) or ():
        for n in range(lo, hi + 1):
            rows[n] = hi
    return rows


def file_is_skipped(text: str) -> bool:
    """``# flake8: noqa`` on a line of its own: flake8 skips the whole file."""
    return "flake8" in text and any(NOQA_FILE.match(line) for line in _split_lines(text))


def file_level_codes(text: str) -> list[str] | None:
    """``# smullyan: noqa``: None when absent, [] for every code, else the codes named."""
    if "smullyan" not in text.lower():
        return None
    found: list[str] | None = None
    for line in _split_lines(text):
        m = SMULLYAN_FILE.match(line)
        if m is None:
            continue
        if m.group("codes") is None:
            return []
        found = [*(found or []), *codes_of(m.group("codes"))]
    return found


@dataclass(frozen=True)
class Directive:
    """One ``# noqa: CODES`` comment: where it is and the lines it covers."""

    line: int
    column: int  # 1-based, of the ``#``
    codes: tuple[str, ...]  # empty: a blanket ``# noqa``
    first: int
    last: int


def directives(text: str) -> list[Directive]:
    """The inline ``# noqa`` comments of a module (comments only, not strings)."""
    lines = _split_lines(text)
    groups = _groups(text, lines)
    if groups is None:
        return []
    unit = {n: (lo, hi) for lo, hi in groups for n in range(lo, hi + 1)}
    out: list[Directive] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.COMMENT:
                continue
            m = NOQA_INLINE_REGEXP.search(tok.string)
            if m is None:
                continue
            line = tok.start[0]
            lo, hi = unit.get(line, (line, line))
            codes = tuple(codes_of(m.group("codes"))) if m.group("codes") else ()
            out.append(Directive(line, tok.start[1] + m.start() + 1, codes, lo, hi))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return out
    return out


def _unused(
    text: str,
    path: str,
    findings: Sequence[Finding],
    enabled: Callable[[str], bool],
    known: Sequence[str],
) -> list[Finding]:
    """TFH003 for each ``# noqa: TFH...`` code that suppressed nothing on its line."""
    texts = logical_line_texts(text)
    out: list[Finding] = []
    for d in directives(text):
        ours = [c for c in d.codes if c.upper().startswith(_OURS)]
        if not ours:
            continue
        # findings flake8 would match against this directive (its unit's first noqa comment)
        hits = [
            f
            for f in findings
            if d.first <= f.line <= d.last
            and 0 < f.line <= len(texts)
            and (m := NOQA_INLINE_REGEXP.search(texts[f.line - 1])) is not None
            and m.start() == _offset(texts[f.line - 1], text, d)
        ]
        unused, disabled, unknown = [], [], []
        for code in ours:
            if any(_covers([code], f.code) for f in hits):
                continue
            matching = [k for k in known if k.startswith(code)]
            if not matching:
                unknown.append(code)
            elif any(enabled(k) for k in matching):
                unused.append(code)
            else:
                disabled.append(code)
        parts = [
            f"{label}: {', '.join(codes)}"
            for label, codes in (("unused", unused), ("non-enabled", disabled), ("unknown", unknown))
            if codes
        ]
        if parts:
            message = f"unused noqa directive ({'; '.join(parts)}); remove the codes that no longer fire"
            out.append(
                Finding(path, d.line, d.column, d.line, d.column + 6, UNUSED_NOQA, "unused-noqa", message)
            )
    return out


def _offset(unit_text: str, text: str, d: Directive) -> int:
    """Where directive ``d`` sits in its unit's joined text (to tell it from an earlier one)."""
    lines = _split_lines(text)
    before = "".join(lines[d.first - 1 : d.line - 1])
    return len(before) + d.column - 1


def apply(
    findings: Sequence[Finding],
    text: str,
    path: str,
    *,
    inline: bool = True,
    enabled: Callable[[str], bool] | None = None,
    known: Sequence[str] = (),
) -> list[Finding]:
    """The findings that survive the file's suppression comments.

    ``inline``: also apply ``# noqa`` and ``# flake8: noqa`` (the CLI; flake8
    applies them itself). ``enabled(code)``: whether a code is enabled for this
    file; TFH003 is reported only when ``enabled("TFH003")``. ``known``: every
    rule code (to tell an unknown code from a disabled one).
    """
    if inline and file_is_skipped(text):
        return []
    result = list(findings)
    if enabled is not None and enabled(UNUSED_NOQA) and "noqa" in text.lower():
        result.extend(_unused(text, path, [f for f in findings if f.code != UNUSED_NOQA], enabled, known))
    file_codes = file_level_codes(text)
    if file_codes is not None:
        result = [f for f in result if file_codes and not _covers(file_codes, f.code)]
    if inline and result and "noqa" in text.lower():
        texts = logical_line_texts(text)
        result = [f for f in result if not (0 < f.line <= len(texts) and suppressed(texts[f.line - 1], f.code))]
    return result


def apply_to_source(
    findings: Sequence[Finding],
    source: bytes | str | Text,
    path: str,
    config: Config,
    *,
    inline: bool = True,
    codes: frozenset[str] | None = None,
) -> list[Finding]:
    """:func:`apply` for a module's source (bytes decoded as Python does) under ``config``.

    ``codes`` narrows what counts as enabled further (the flake8 plugin passes
    what flake8 selected).
    """
    from .config import known_codes

    skipped: frozenset[str] = frozenset()

    def enabled(code: str) -> bool:
        return config.is_enabled(code, path) and (codes is None or code in codes) and code not in skipped

    check_unused = enabled(UNUSED_NOQA)
    if check_unused and config.is_test_module(path):  # the rules the engine does not run here are non-enabled
        from .registry import all_rules

        skipped = frozenset(r.code for r in all_rules() if not r.applies_in_tests)
    if not findings and not check_unused:
        return []
    text = source.get() if isinstance(source, Text) else decode(source)
    if "noqa" not in text.lower():
        return list(findings)
    return apply(findings, text, path, inline=inline, enabled=enabled, known=known_codes() if check_unused else ())


# --------------------------------------------------------------------------- --add-noqa

#: Findings ``--add-noqa`` never writes a directive for (they are about the file, or about noqa).
_NOT_SUPPRESSIBLE_BY_ADDING = frozenset({"TFH001", "TFH002", UNUSED_NOQA})


def add_to_text(text: str, codes_by_line: dict[int, set[str]]) -> tuple[str, int]:
    """``text`` with ``# noqa: CODES`` added for each line's codes; returns (text, lines changed).

    The directive goes where flake8 reads it: on the last line of the finding's
    unit (after a multi-line string or a backslash continuation). An existing
    ``# noqa: X`` there is extended (``# noqa: X, TFH201``); a blanket ``# noqa``
    already covers everything. Source that does not tokenize is left alone.
    """
    lines = _split_lines(text)
    groups = _groups(text, lines)
    if groups is None:
        return text, 0
    rows = {n: hi for lo, hi in groups for n in range(lo, hi + 1)}
    wanted: dict[int, set[str]] = {}
    for line, codes in codes_by_line.items():
        row = rows.get(line, line)
        wanted.setdefault(row, set()).update(codes)
    comments: dict[int, tuple[int, str]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT and tok.end[0] in wanted:
                comments[tok.end[0]] = (tok.start[1], tok.string)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return text, 0
    changed = 0
    for row, codes in sorted(wanted.items()):
        if not 0 < row <= len(lines):
            continue
        raw = lines[row - 1]
        body = raw.rstrip("\r\n")
        ending = raw[len(body):]
        comment = comments.get(row)
        m = NOQA_INLINE_REGEXP.search(body)
        if m is not None and (comment is None or m.start() < comment[0]):
            continue  # flake8 would read a "# noqa" inside a string first: no comment can help here
        if m is not None and m.group("codes") is None:
            continue  # a blanket noqa: nothing to add
        if m is not None:
            present = codes_of(m.group("codes"))
            missing = sorted(c for c in codes if not _covers(present, c))
            if not missing:
                continue
            start, end = m.span("codes")
            existing = m.group("codes").rstrip(", \t")
            tail = m.group("codes")[len(existing):]
            body = body[:start] + existing + ", " + ", ".join(missing) + (tail or "") + body[end:]
        else:
            directive = f"# noqa: {', '.join(sorted(codes))}"
            trimmed = body.rstrip()
            body = f"{trimmed}  {directive}" if comment is not None or trimmed else directive
        lines[row - 1] = body + ending
        changed += 1
    return "".join(lines), changed


def add_noqa(findings: Sequence[Finding]) -> tuple[int, int]:
    """Write ``# noqa: CODE`` for every finding into its file; returns (directives, files).

    The file keeps its encoding (PEP 263 cookie, BOM) and line endings; a file
    that does not decode strictly, or does not tokenize, is left alone.
    """
    by_file: dict[str, dict[int, set[str]]] = {}
    for f in findings:
        if f.code in _NOT_SUPPRESSIBLE_BY_ADDING:
            continue
        by_file.setdefault(f.path, {}).setdefault(f.line, set()).add(f.code)
    added = files = 0
    for path, codes_by_line in sorted(by_file.items()):
        try:
            source = read(path)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            continue
        new, changed = add_to_text(source.text, codes_by_line)
        if not changed:
            continue
        try:
            write_atomic(path, source.encode(new))
        except (OSError, UnicodeEncodeError):
            continue
        added += changed
        files += 1
    return added, files
