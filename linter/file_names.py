"""The names a project file's bytes call and define, read once per process (no parse).

:func:`.imports_disk._defining` asks which files of a project hold ``def <name>(`` or ``<name>(``: the project-wide
readers ask it once per name while linting, and a warm run asks it again for every ``defines:`` key of its cache
entries (:func:`.imports_disk.dependency_digest`). Reading each file's names once, as two sets, answers every such
question with one read of each file, not one per name.
"""

from __future__ import annotations

import re

__all__ = ["file_names"]

_CALLED_NAME = re.compile(rb"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_DEFINED_NAME = re.compile(rb"def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")

# file -> (the ASCII names its bytes follow with `(`, the names it defines with `def`), or None when unreadable
_names: dict[str, tuple[frozenset[bytes], frozenset[bytes]] | None] = {}


def file_names(file: str, max_bytes: int) -> tuple[frozenset[bytes], frozenset[bytes]] | None:
    """The names ``file``'s first ``max_bytes`` + 1 bytes follow with ``(`` and those it defines with ``def``."""
    if file not in _names:
        try:
            with open(file, "rb") as handle:
                data = handle.read(max_bytes + 1)
        except OSError:
            _names[file] = None
        else:
            _names[file] = (frozenset(_CALLED_NAME.findall(data)), frozenset(_DEFINED_NAME.findall(data)))
    return _names[file]
