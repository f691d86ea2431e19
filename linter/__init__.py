"""The lint engine (see docs/architecture.md).

As in ``smullyan.rules``: the source directory joins this package's path, so a
module added since a strict editable install is importable without a reinstall.
"""

from pathlib import Path as _Path

_source = str(_Path(__file__).resolve().parent)
if _source not in __path__:
    __path__.append(_source)
