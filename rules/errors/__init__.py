"""The error-handling family: the rules TFH401-TFH403, on one shared model (``model.py``; for TFH401
the exception's text: ``text.py``, its taint ``taint.py``, its screen ``text_screen.py``; for TFH402 the
default values: ``fallback.py``).

As in ``smullyan.rules``: the source directory joins this package's path, so a
rule file added since a strict editable install is found without a reinstall.
Imports nothing (the flake8 plugin lists the rule files without importing libcst).
"""

from pathlib import Path as _Path

_source = str(_Path(__file__).resolve().parent)
if _source not in __path__:
    __path__.append(_source)
