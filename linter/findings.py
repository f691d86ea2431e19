"""What the linter reports: one :class:`Finding` per problem, and the :class:`Fix` it may carry.

Positions are 1-based for both lines and columns, as flake8 prints them
(``path:line:col: CODE message``); ``end_column`` is exclusive. Columns count
code points, as libcst and SARIF's ``unicodeCodePoints`` do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import Config


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


# Which fixes apply: read by ``--fix`` and by every report's "fixable" marks, with no libcst import
# (a run answered from the cache never loads libcst; the edits themselves are made in ``linter.fixes``).
SAFE = "safe"
UNSAFE = "unsafe"


def applies(fix: Fix | None, unsafe: bool) -> bool:
    """Whether ``fix`` is applied: a safe fix always, an unsafe one only with ``unsafe`` (``--unsafe-fixes``)."""
    return fix is not None and (fix.applicability == SAFE or (unsafe and fix.applicability == UNSAFE))


def offered(findings: Sequence[Finding], config: Config) -> list[Finding]:
    """The findings whose fix the configuration's ``fixable``/``unfixable`` allow, safe or not."""
    return [f for f in findings if f.fix is not None and config.is_fixable(f.code, f.path)]


def fixable(findings: Sequence[Finding], config: Config, *, unsafe: bool = True) -> list[Finding]:
    """The findings ``--fix`` would fix: a fix that ``fixable``/``unfixable`` allow and that applies
    (:func:`applies`: safe, or unsafe with ``unsafe``)."""
    return [f for f in offered(findings, config) if applies(f.fix, unsafe)]
