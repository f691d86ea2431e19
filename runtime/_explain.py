"""``explain``: one sentence a model can act on, per ToolError variant.

Every field embedded in the sentence is text from a tool or a remote server,
so it must not speak for itself: each one is quoted, stripped of control and
format characters (newlines included), and cut to a bounded length. A hostile
``reason`` cannot end the sentence and append instructions of its own.
"""

from __future__ import annotations

import reprlib
import unicodedata
from typing import Final

from ._errors import (
    Denied,
    InvalidArgs,
    NotFound,
    RateLimited,
    Timeout,
    ToolError,
    Unavailable,
    Unknown,
    assert_never,
)

__all__ = ["explain", "quote", "MAX_FIELD_CHARS"]

MAX_FIELD_CHARS: Final = 120
"""The longest an embedded field may be, in characters, before it is cut."""

MAX_SUGGESTIONS: Final = 5

_repr = reprlib.Repr()
_repr.maxstring = MAX_FIELD_CHARS
_repr.maxother = MAX_FIELD_CHARS
_repr.maxlevel = 3


# Invisible code points outside category Cf: variation selectors, the combining grapheme
# joiner, Hangul fillers, Khmer inherent vowels, Mongolian selectors, the whole tag and
# variation-selector-supplement plane block.
_INVISIBLE_RANGES: Final = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# Quotation marks that read like a double quote (after NFKC): all become an apostrophe, so
# the only double quotes in a sentence are the ones quote() puts around a field.
_QUOTES: Final = frozenset(
    "\"'`\u00ab\u00bb\u02ba\u02bb\u02bc\u02bd\u02ee\u05f3\u05f4\u2018\u2019\u201a\u201b\u201c\u201d"
    "\u201e\u201f\u2032\u2033\u2034\u2035\u2036\u2037\u2039\u203a\u2057\u275b\u275c\u275d\u275e"
    "\u275f\u2760\u276e\u276f\u2e42\u3003\u301d\u301e\u301f\uff02\uff07"
)


def _invisible(code: int) -> bool:
    for low, high in _INVISIBLE_RANGES:
        if low <= code <= high:
            return True
    return False


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "\t\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029" or cat in ("Zl", "Zp", "Zs"):
            out.append(" ")
        elif cat in ("Cc", "Cf", "Cs", "Co", "Cn") or _invisible(ord(ch)):
            continue  # control, format (bidi overrides, zero-width, tags), surrogates, unassigned, invisible
        elif ch in _QUOTES or (cat in ("Pi", "Pf")):
            out.append("'")
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def quote(value: object, limit: int = MAX_FIELD_CHARS) -> str:
    """``value`` as a quoted, single-line, bounded string that cannot break out.

    The text is NFKC-normalised; control, format, private-use, unassigned and
    invisible characters (variation selectors, tag characters, fillers) are
    removed; line and paragraph separators become spaces; every quotation
    mark that could pass for a double quote becomes ``'``, so the closing
    quote is always the one this function adds.
    """
    try:
        text = value if isinstance(value, str) else _repr.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    # Bound the work before cleaning: a megabyte of reason costs nothing.
    text = _clean(text[: limit * 4])
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f'"{text}"'


def _duration(ms: int) -> str:
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms / 1000
    if seconds < 120:
        return f"{seconds:g} s"
    return f"{seconds / 60:.1f} min"


def explain(error: ToolError) -> str:
    """A sentence for a model: what happened, and what to do about it."""
    match error:
        case RateLimited(retry_after_ms, limit):
            what = "Rate limited" + (f" (limit {quote(limit)})" if limit is not None else "")
            if retry_after_ms is None:
                return f"{what}. Wait before calling this tool again; calling at once will be refused again."
            return (
                f"{what}. Wait at least {_duration(max(0, retry_after_ms))} before calling this "
                "tool again; calling sooner will be refused again."
            )
        case InvalidArgs(path, expected, got):
            return (
                f"Invalid argument at {quote(path)}: expected {quote(expected)}, got "
                f"{quote(got)}. Change this argument and call again; the same arguments will "
                "fail the same way."
            )
        case NotFound(searched, suggestions):
            if suggestions:
                shown = ", ".join(quote(s) for s in suggestions[:MAX_SUGGESTIONS])
                more = " (and more)" if len(suggestions) > MAX_SUGGESTIONS else ""
                return (
                    f"Nothing found for {quote(searched)}. Did you mean {shown}{more}? Call "
                    "again with one of these; do not retry the same input."
                )
            return (
                f"Nothing found for {quote(searched)}. Check the name or search for it first; "
                "do not retry the same input."
            )
        case Timeout(after_ms):
            after = f" after {_duration(after_ms)}" if after_ms > 0 else ""
            return (
                f"The tool timed out{after}. It may succeed if retried later or with a smaller "
                "request; if it changes anything, check whether it took effect before repeating it."
            )
        case Unavailable(reason, status, retry_after_ms):
            code = f" (HTTP {status})" if status is not None and f"HTTP {status}" not in reason else ""
            when = "later" if retry_after_ms is None else f"in {_duration(retry_after_ms)} at the earliest"
            return (
                f"The service is unavailable{code}: {quote(reason)}. Retry {when}, or use "
                "another source for this information."
            )
        case Denied(reason, required):
            needs = f" Requires: {quote(required)}." if required is not None else ""
            return (
                f"Permission denied: {quote(reason)}.{needs} Do not retry; this needs a "
                "different approach or an escalation."
            )
        case Unknown(message, _):
            return (
                f"The tool failed unexpectedly: {quote(message)}. Do not assume it succeeded; "
                "report the failure or try a different approach."
            )
        case _:
            assert_never(error)
