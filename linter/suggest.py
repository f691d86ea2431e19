"""Did-you-mean for configuration mistakes, never broader than what was written.

A suggestion is offered only when one answer is clearly meant: a rule selector gets one of the
same specificity (``TFH9`` is never "did you mean ``TFH``", which selects every rule), and an
unknown key gets a key of the same kind (an ``extend-`` key, which adds to a setting, never a
plain one, which replaces it).
"""

from __future__ import annotations

import difflib
import os

__all__ = ["closest_selector", "key_hint"]


def closest_selector(selector: str, codes: "tuple[str, ...]") -> str | None:
    """The one selector ``selector`` most likely meant, or None when that is a guess.

    Only as specific as what was written (a prefix of the same length: ``TFH9`` is never
    "did you mean ``TFH``", which selects every rule); two swapped characters first
    (``TFH120`` -> ``TFH102``); else the closest (the longest common start first, ``TFH21`` ->
    ``TFH20``), if no other is as close (``TFH9`` is as far from ``TFH1`` as from ``TFH5``: no
    suggestion).
    """
    same_length = sorted({c[: len(selector)] for c in codes if len(c) >= len(selector)})
    for i in range(len(selector) - 1):
        swapped = selector[:i] + selector[i + 1] + selector[i] + selector[i + 2 :]
        if swapped != selector and swapped in same_length:
            return swapped
    scored = sorted(
        ((len(os.path.commonprefix([selector, c])), difflib.SequenceMatcher(None, selector, c).ratio(), c)
         for c in same_length),
        reverse=True,
    )
    if not scored or scored[0][1] < 0.6 or (len(scored) > 1 and scored[1][:2] == scored[0][:2]):
        return None
    return scored[0][2]


def key_hint(key: str, keys: "tuple[str, ...]") -> str:
    """A did-you-mean for an unknown key that keeps its meaning: an ``extend-`` key (which adds
    to a setting) is only ever matched with another ``extend-`` key, a plain key (which
    replaces one) with a plain key."""
    key = key.replace("_", "-").strip().lower()
    extending = key.startswith("extend-")
    candidates = [k for k in keys if k.startswith("extend-") == extending]
    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.75 if extending else 0.6)
    if close:
        return f" (did you mean `{close[0]}`?)"
    if extending:
        forms = ", ".join(f"`{k}`" for k in keys if k.startswith("extend-"))
        return f" (the extend- forms are {forms})"
    return ""
