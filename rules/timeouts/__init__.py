"""The timeout family: the timeout rules' screen (``screen.py``), the process model
(``process.py``), TFH201's shapes (``shapes.py``) and the rules TFH201-TFH202.

As in ``smullyan.rules``: the source directory joins this package's path, so a
rule file added since a strict editable install is found without a reinstall.
Imports nothing (the flake8 plugin lists the rule files without importing libcst).
"""

from pathlib import Path as _Path

_source = str(_Path(__file__).resolve().parent)
if _source not in __path__:
    __path__.append(_source)
