"""A tool wrapper reached through a subclass: ``_ToolWithRequired.from_function(func=manage_memory, ...)`` where
``class _ToolWithRequired(StructuredTool)`` calls the classmethod its framework base defines, so the call builds a
tool of the function as ``StructuredTool.from_function`` does. The class is one of the file's (at any depth through
its classes); its bases are resolved from the file's imports, as Python does. Used by :mod:`.forms`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from .index import Index

__all__ = ["wrapper_of"]

T = TypeVar("T")


def wrapper_of(qn: str, index: Index, wrappers: Mapping[str, T]) -> tuple[str, T] | None:
    """The wrapper entry a call's qualified name reaches: itself, or ``Base.method`` for ``Cls.method`` where ``Cls``
    is a class of this file deriving from ``Base`` (the first base, depth first, that has it)."""
    if qn in wrappers:
        return qn, wrappers[qn]
    owner, _, method = qn.rpartition(".")
    prefix = index.module + "."
    seen: set[str] = set()
    queue = [owner]
    while queue:
        current = queue.pop(0)
        if current in seen or not current.startswith(prefix):
            continue
        seen.add(current)
        cls = index.local_classes.get(current[len(prefix):])
        if cls is None:
            continue
        for base in index.bases(cls):
            if f"{base}.{method}" in wrappers:
                return f"{base}.{method}", wrappers[f"{base}.{method}"]
            queue.append(base)
    return None
