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


def logical_line_texts(text: str) -> list[str]:
    """For each physical line, the text searched for ``# noqa`` (index = line - 1).

    Exactly flake8's mapping: lines are grouped between NL/NEWLINE tokens, so
    a ``# noqa`` after a multi-line string or a backslash continuation covers
    every line of it (a call split inside brackets is one group per line).
    Falls back to the physical lines when the source does not tokenize.
    """
    import io
    import re
    import tokenize

    lines = re.split(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)", text)
    mapping = list(lines)
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                if hi > lo:
                    joined = "".join(lines[lo - 1 : hi])
                    for n in range(lo, min(hi, len(mapping)) + 1):
                        mapping[n - 1] = joined
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError, ValueError):
        pass
    return mapping
