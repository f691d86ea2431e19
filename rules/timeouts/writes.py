"""Whether a timeout fix on an HTTP request would change "slow" into "unknown whether it acted".

A timeout that fires on a read (GET, HEAD) or an idempotent write (PUT, DELETE) leaves nothing to
wonder about: the caller may send it again. One that fires on a non-idempotent write (POST,
PATCH, or a call the project's ``classify`` says writes or is irreversible) leaves the request
maybe done on the server (an order placed, a message sent, an agent turn half run): the caller
cannot tell, and a default bound the author never chose may cut a request that was slow by design.
TFH201 and TFH202 keep the finding there and offer no fix (the message says what to decide). The
classes come from the shared effect model (``linter/effects.py``: the method, ``request("POST",
...)``, a POST whose URL names a read, an idempotency key), the same that TFH101 reads.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, Names, classify_call, has_idempotency_key, keyword_arg, knowledge as kb, positional


def http_write_refusal(node: cst.Call, qn: str, names: Names, knowledge: Knowledge) -> str | None:
    """Why a default timeout must not be added to this HTTP request (a write whose outcome the
    timeout would make unknown), or None (a read, an idempotent or keyed write, not HTTP)."""
    if qn == "urllib.request.urlopen":
        data = keyword_arg(node, "data")
        if data is None:
            pos = positional(node)
            data = pos[1] if len(pos) > 1 else None
        if data is None or (isinstance(data.value, cst.Name) and data.value.value == "None"):
            return None
        what = "a POST"
    else:
        found = classify_call(node, names, knowledge, {}, frozenset())
        if found is None or found[0] not in kb.WRITE_CLASSES:
            return None
        if has_idempotency_key(node, ()):
            return None
        method = found[1].split()[0]
        what = f"a {method}" if method.isupper() else f"{found[1]} (a write)"
    return (
        f"{what} may act on the server even when the timeout fires: a default would turn a slow request into "
        "one whose outcome is unknown; choose a bound above the slowest request you accept and handle its timeout"
    )
