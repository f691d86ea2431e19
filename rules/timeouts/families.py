"""s52: the fix TFH201 offers on a call of a generated SDK API class (``knowledge.API_FAMILIES``: kubernetes), and a
connection string that may carry a driver's timeout (``psycopg2.connect(dsn)``).

Such a call is one request, and ``_request_timeout=30`` bounds it, unless the call opens a stream read for as long
as it runs (``watch=True``, a log's ``follow=True``, ``_preload_content=False``: ``knowledge.API_STREAM_KEYWORDS``)
or the table says the call is never fixed (a watch's ``timeout_seconds``): a default would cut it. The finding stays.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, TimeoutParam, argument, string_literal


def dsn_may_carry(node: cst.Call, spec: TimeoutParam) -> bool:
    """``psycopg2.connect(dsn)``: a connection string may name the timeout (``connect_timeout=5`` in it). True when
    the call's string names ``spec.keyword``, or is not a literal the linter can read (it may carry it)."""
    if spec.dsn is None:
        return False
    given = argument(node, *spec.dsn)
    if given is None:
        return False
    text = string_literal(given.value, concatenated=True)
    return text is None or spec.keyword in text


def sdk_fix_refusal(node: cst.Call, qn: str, spec: TimeoutParam, knowledge: Knowledge) -> str | None:
    """Why no default ``spec.keyword`` is written on ``node`` (a call of ``qn``), or None."""
    if spec.no_fix:
        return spec.no_fix
    if knowledge.timeouts.get(qn) is not None or knowledge.timeout_for(qn) is None:
        return None  # not a family method: the tables' own calls keep their refusals
    for keyword, streaming in knowledge.api_stream_keywords.items():
        given = argument(node, keyword, None)
        value = given.value if given is not None else None
        if isinstance(value, cst.Name) and value.value == str(streaming):
            return (f"`{keyword}={streaming}` streams the response for as long as it runs: bound the silence "
                    "between reads with (connect, read) seconds you choose")
    return None
