"""The names a project file's bytes call and define, and its ``class`` statements, read once per process (no parse).

:func:`.imports_disk._defining` asks which files of a project hold ``def <name>(`` or ``<name>(``: the project-wide
readers ask it once per name while linting, and a warm run asks it again for every ``defines:`` key of its cache
entries (:func:`.imports_disk.dependency_digest`). Reading each file's names once, as two sets, answers every such
question with one read of each file, not one per name. s57: TFH401's project refusals
(:mod:`.project_refusals`) screen the same files for the capitalised names they call and the classes they define
with their bases (:func:`file_classes`): taken in the same read, so a project's files are read once for both.
"""

from __future__ import annotations

import re

__all__ = ["file_classes", "file_names"]

_CALLED_NAME = re.compile(rb"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_DEFINED_NAME = re.compile(rb"def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")
#: a ``class`` statement with bases: its name and the text between its parentheses
_CLASS = re.compile(rb"^[ \t]*class\s+(\w+)\s*\(([^)]*)\)", re.MULTILINE)

_Names = tuple[frozenset[bytes], frozenset[bytes]]
_Classes = dict[str, frozenset[str]]

# file -> ((the ASCII names its bytes follow with `(`, the names it defines with `def`), or None when unreadable;
#          its classes with the last names of their bases)
_names: dict[str, tuple[_Names | None, _Classes]] = {}


def _read(file: str, max_bytes: int) -> tuple[_Names | None, _Classes]:
    entry = _names.get(file)
    if entry is None:
        try:
            with open(file, "rb") as handle:
                data = handle.read(max_bytes + 1)
        except OSError:
            entry = (None, {})
        else:
            classes: _Classes = {}
            for m in _CLASS.finditer(data):
                bases = {b.strip().rsplit(b".", 1)[-1].decode("ascii", "replace") for b in m.group(2).split(b",")}
                classes[m.group(1).decode("ascii", "replace")] = frozenset(bases)
            entry = ((frozenset(_CALLED_NAME.findall(data)), frozenset(_DEFINED_NAME.findall(data))), classes)
        _names[file] = entry
    return entry


def file_names(file: str, max_bytes: int) -> _Names | None:
    """The names ``file``'s first ``max_bytes`` + 1 bytes follow with ``(`` and those it defines with ``def``."""
    return _read(file, max_bytes)[0]


def file_classes(file: str, max_bytes: int) -> _Classes:
    """The classes ``file``'s first ``max_bytes`` + 1 bytes define with bases (``class A(b.Base, C):``), each with the
    last names of its bases (``{"A": {"Base", "C"}}``); empty when unreadable."""
    return _read(file, max_bytes)[1]
