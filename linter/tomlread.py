"""The one TOML reader of the linter: the standard library's ``tomllib`` on Python 3.11+, ``tomli``
(the ``[lint]`` extra) on 3.10, None when neither is there (each reader then says so or skips)."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib as toml
else:  # pragma: no cover - Python 3.10
    try:
        import tomli as toml
    except ImportError:  # pragma: no cover
        toml = None  # type: ignore[assignment, unused-ignore]

__all__ = ["toml"]
