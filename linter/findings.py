"""What the linter reports: one :class:`Finding` per problem.

Positions are 1-based for both lines and columns, as flake8 prints them
(``path:line:col: CODE message``); ``end_column`` is exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass


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

    def as_flake8(self) -> str:
        """``path:line:col: CODE message``, as flake8 prints a finding."""
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"
