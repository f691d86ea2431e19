"""What the linter reports: one :class:`Finding` per problem, and the :class:`Fix` it may carry.

Positions are 1-based for both lines and columns, as flake8 prints them
(``path:line:col: CODE message``); ``end_column`` is exclusive. Columns count
code points, as libcst and SARIF's ``unicodeCodePoints`` do.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, order=True)
class Edit:
    """Replace the text from (``line``, ``column``) up to (``end_line``, ``end_column``) with ``content``.

    An insertion has an empty range. Positions are in the decoded source (BOM
    removed); a position one line past the last line means the end of the file.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    """What ``smullyan lint --fix`` would change for one finding (ruff's ``fix`` object)."""

    message: str
    edits: tuple[Edit, ...]
    #: ruff's words: ``--fix`` applies "safe" fixes (run-time behaviour kept), ``--unsafe-fixes`` also the
    #: "unsafe" ones (the program does something else at run time, on purpose); a rule's fixes are unsafe
    #: unless the rule declares them safe (``Rule.fix_applicability``)
    applicability: str = "unsafe"


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    message: str
    # not part of the finding's identity: two runs that differ only in whether
    # the fix was computed report the same finding
    fix: Fix | None = field(default=None, compare=False)

    def as_flake8(self) -> str:
        """``path:line:col: CODE message``, as flake8 prints a finding."""
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"
