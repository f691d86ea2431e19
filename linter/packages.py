"""Which package a file belongs to, and what its relative imports mean (standard library only).

Kept apart from the resolver so that the runner can key the cache on a file's
package without importing libcst.
"""

from __future__ import annotations

import functools
import os


def package_of(path: str) -> str | None:
    """The package a file belongs to, as Python would import it: ``a.b`` for ``a/b/m.py``.

    Found by walking up the directories that hold an ``__init__.py``; None for
    stdin, or for a file outside any package (then relative imports stay
    unresolved).
    """
    if not path or path in ("-", "stdin"):
        return None
    return _package_of_dir(os.path.dirname(os.path.abspath(path)))


@functools.lru_cache(maxsize=4096)
def _package_of_dir(directory: str) -> str | None:
    parts: list[str] = []
    current = directory
    while os.path.isfile(os.path.join(current, "__init__.py")):
        name = os.path.basename(current)
        if not name.isidentifier():
            break
        parts.append(name)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return ".".join(reversed(parts)) or None


def absolute_module(module: str | None, level: int, package: str | None) -> str | None:
    """``from ..x import y`` in package ``a.b`` imports from ``a.x``; None when it cannot be said."""
    if level == 0:
        return module
    if package is None:
        return None
    parts = package.split(".")
    if level - 1 >= len(parts):
        return None  # above the top-level package: an ImportError at run time
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)
