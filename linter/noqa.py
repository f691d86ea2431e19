"""``# noqa`` comments, as flake8 reads them (also ``#noqa:TFH201``, any case).

``# noqa`` alone suppresses every finding on its line; ``# noqa: TFH201,TFH202``
only those codes (prefixes match, like flake8: ``# noqa: TFH2`` covers TFH201).
"""

from __future__ import annotations

import re

NOQA_RE = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)


def suppressed(line: str, code: str) -> bool:
    """Whether ``line`` carries a noqa comment that covers ``code``."""
    if "noqa" not in line.lower():
        return False
    m = NOQA_RE.search(line)
    if m is None:
        return False
    codes = m.group("codes")
    if not codes:
        return True
    wanted = {c.upper() for c in re.split(r"[,\s]+", codes.strip()) if c}
    return code in wanted or code.startswith(tuple(wanted))
