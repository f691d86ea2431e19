"""The retry family: the retry model (``model.py`` over ``recognise.py`` and ``work.py``, one
reader per retry library ``read_*.py``), hand loops (``loops.py``), their paths (``paths.py``),
handlers (``handlers.py``) and waits (``waits.py``), the ``ast`` screen (``screen.py``), the
``RetryRule`` base (``base.py``), and the rules TFH101-TFH104 and TFH301-TFH304.

As in ``smullyan.rules``: the source directory joins this package's path, so a
rule file added since a strict editable install is found without a reinstall.
Imports nothing (the flake8 plugin lists the rule files without importing libcst).
"""

from pathlib import Path as _Path

_source = str(_Path(__file__).resolve().parent)
if _source not in __path__:
    __path__.append(_source)
