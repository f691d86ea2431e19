"""The rule catalogue: one rule per file, ``tfhNNN_<name>.py`` (see docs/writing-rules.md).

A strict editable install (``make``) links only the files that existed when it
ran; the source directory is added to this package's path so that a rule file
added since is found at once, without a reinstall (a no-op for a normal install).
"""

from pathlib import Path as _Path

_source = str(_Path(__file__).resolve().parent)
if _source not in __path__:
    __path__.append(_source)
