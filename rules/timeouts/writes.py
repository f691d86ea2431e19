"""Whether a timeout fix on an HTTP request would change "slow" into "unknown whether it acted".

A timeout that fires on a read (GET, HEAD) or an idempotent write (PUT, DELETE) leaves nothing to
wonder about: the caller may send it again. One that fires on a non-idempotent write (POST,
PATCH, a GraphQL mutation, or a call the project's ``classify`` says writes or is irreversible) leaves the request
maybe done on the server (an order placed, a message sent, an agent turn half run): the caller
cannot tell, and a default bound the author never chose may cut a request that was slow by design.
TFH201 and TFH202 keep the finding there and offer no fix (the message says what to decide). The
classes come from the shared effect model (``linter/effects.py``: the method, ``request("POST",
...)``, a POST whose URL names a read, an idempotency key), the same that TFH101 reads.
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from ...linter.api import (
    Knowledge,
    Names,
    classify_call,
    dotted,
    has_idempotency_key,
    keyword_arg,
    knowledge as kb,
    positional,
)


Binding = Callable[[str], "cst.BaseExpression | None"]


def _graphql_mutation(node: cst.Call, binding: Binding | None) -> bool:
    """A GraphQL mutation: the body's ``query`` is text that starts with ``mutation`` (literal, or a
    local name bound once to such text). The shared model reads a POST to a GraphQL URL as a read."""
    body = keyword_arg(node, "json")
    if body is None or not isinstance(body.value, cst.Dict):
        return False
    for el in body.value.elements:
        key = getattr(el, "key", None)
        if not (isinstance(key, cst.SimpleString) and key.evaluated_value == "query"):
            continue
        value = getattr(el, "value", None)
        if isinstance(value, cst.Name) and binding is not None:
            value = binding(value.value)
        text = value.evaluated_value if isinstance(value, (cst.SimpleString, cst.ConcatenatedString)) else None
        return isinstance(text, str) and text.lstrip().startswith("mutation")
    return False


def _method_chosen_at_run_time(node: cst.Call, qn: str) -> str | None:
    """``session.request(method=self.method, ...)``: the method an HTTP client's generic request sends,
    when it is not a literal (it may be a POST: a guard ``if self.method == "POST":`` around it, a
    generic wrapper's parameter); how the code names it, or None (literal, or no generic request)."""
    owner, _, last = qn.rpartition(".")
    if last not in ("request", "stream") or not (owner in kb.HTTP_CLIENTS or qn in kb.HTTP_CLIENTS):
        return None
    arg = keyword_arg(node, "method")
    if arg is None:
        pos = positional(node)
        arg = pos[0] if pos else None
    if arg is None or isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString)):
        return None
    return dotted(arg.value) or "an expression"


def http_write_refusal(
    node: cst.Call, qn: str, names: Names, knowledge: Knowledge, binding: Binding | None = None
) -> str | None:
    """Why a default timeout must not be added to this HTTP request (a write whose outcome the
    timeout would make unknown), or None (a read, an idempotent or keyed write, not HTTP).
    ``binding``: the one value a local name is bound to (to read a GraphQL body's query)."""
    if qn == "urllib.request.urlopen":
        data = keyword_arg(node, "data")
        if data is None:
            pos = positional(node)
            data = pos[1] if len(pos) > 1 else None
        if data is None or (isinstance(data.value, cst.Name) and data.value.value == "None"):
            return None
        what = "a POST"
    else:
        chosen = _method_chosen_at_run_time(node, qn)
        if chosen is not None and classify_call(node, names, knowledge, {}, frozenset()) is None:
            return (
                f"the method is chosen at run time (`{chosen}`) and may be a write (POST, PATCH) that acts on the "
                "server even when the timeout fires; choose a bound above the slowest request you accept and handle "
                "its timeout"
            )
        found = classify_call(node, names, knowledge, {}, frozenset())
        if found is not None and found[0] == kb.READ_SAFE and found[1].startswith("POST") and _graphql_mutation(node, binding):
            found = (kb.NON_IDEMPOTENT_WRITE, "POST (a GraphQL mutation)")
        if found is None or found[0] not in kb.WRITE_CLASSES:
            return None
        if has_idempotency_key(node, ()):
            return None
        method = found[1].split()[0]
        what = f"a {method}" if method.isupper() else f"{found[1]} (a write)"
        if "GraphQL" in found[1]:
            what = "a GraphQL mutation"
    return (
        f"{what} may act on the server even when the timeout fires: a default would turn a slow request into "
        "one whose outcome is unknown; choose a bound above the slowest request you accept and handle its timeout"
    )
