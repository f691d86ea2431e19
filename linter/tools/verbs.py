"""A tool's class by the verb of its name, when nothing else decides (``knowledge.TOOL_NAME_VERBS``), and the key a
naturally idempotent write does without (``knowledge.NATURALLY_IDEMPOTENT_VERBS``)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .. import knowledge as kb
from .model import Tool

__all__ = ["BY_NAME", "name_verb", "by_name", "read_named", "read_post"]

#: the evidence of a class read from the tool's name (the table's class cell shows "(by name)")
BY_NAME = "by name"

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def _words(name: str) -> list[str]:
    return [w.lower() for part in re.split(r"[^A-Za-z0-9]+", name) for w in _CAMEL.findall(part)]


def name_verb(name: str, verbs: Mapping[str, str] = kb.TOOL_ROW_NAME_VERBS) -> str | None:
    """The verb of a tool's name that the tables know: its first word, else its last, else the first one between
    (``get_best_run`` -> get, ``helm_repo_list`` -> list, ``tempo_fetch_traces_sample`` -> fetch,
    ``MongoDBAggregate`` -> None); ``verbs``: the rows' table, or the rules' where a call's class is weighed against
    the name (``merging``: a token's ``refresh`` is no verb that outweighs its sign-in POST)."""
    words = _words(name)
    if not words:
        return None
    for w in (words[0], words[-1], *words[1:-1]):
        if w in verbs:
            return w
    return None


def by_name(tool: Tool) -> None:
    """A row nothing classed (no declaration, no classified call, not local) is classed by its name's verb, shown as
    inferred "by name"; a write named for a delete, a set or an update needs no idempotency key."""
    verb = name_verb(tool.name)
    if verb is None:
        return
    if tool.classification == "unknown":
        cls = kb.TOOL_ROW_NAME_VERBS[verb]
        tool.classification, tool.source, tool.evidence = cls, "inferred", f"{BY_NAME} ({verb})"
        if cls in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
            tool.key = "not-needed"
        elif tool.key == "unknown":
            keyed = [c.keyed for c in tool.calls if c.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
            tool.key = "present" if keyed and all(keyed) else "missing"
    elif tool.classification == kb.IDEMPOTENT_WRITE and tool.source == "inferred" and tool.evidence.startswith(
            "DELETE ") and kb.TOOL_NAME_VERBS.get(verb) == kb.IRREVERSIBLE:
        # an HTTP DELETE is idempotent (sent twice, it deletes once); what the name says it removes stays removed
        tool.classification, tool.evidence = kb.IRREVERSIBLE, f"{tool.evidence}; {BY_NAME} ({verb})"
        tool.key = "not-needed" if verb in kb.NATURALLY_IDEMPOTENT_VERBS else tool.key
    elif tool.classification == kb.NON_IDEMPOTENT_WRITE and tool.source == "inferred" and tool.evidence.startswith(
            ("POST ", "PATCH ")) and kb.TOOL_NAME_VERBS.get(verb) == kb.IDEMPOTENT_WRITE:
        # a POST is the method of every GraphQL or RPC call, a state set's too (``_post("FavoriteTweet", ...)`` for
        # ``like_tweet``, ``_post("UpdateList", ...)``): the name's idempotent verb says more (a read-named tool's
        # POST stays a write unless the function sending it is read-named, ``verbs.read_post``); s52: so does a PATCH,
        # a partial update that sets the fields it names (``update_issue`` sending ``PATCH /repos/o/r/issues/1``);
        # s53: not the rows' own verbs (a token's ``refresh`` keeps its POST, s49)
        cls = kb.TOOL_NAME_VERBS[verb]
        tool.classification, tool.evidence, tool.key = cls, f"{tool.evidence}; {BY_NAME} ({verb})", "not-needed"
    if tool.key == "missing" and verb in kb.NATURALLY_IDEMPOTENT_VERBS:
        tool.key = "not-needed"


def read_named(name: str) -> bool:
    """A function named as a read: its name (leading underscores aside) starts with a read word, or its last word is
    one (``search_papers``, ``_query``, ``serper_search``, ``web_search``)."""
    words = name.lstrip("_").lower().split("_")
    return name.lstrip("_").lower().startswith(kb.READ_POST_FUNCTION_PREFIXES) or words[-1] in ("search", "query", "lookup")


def read_post(cls: str | None, what: str, read_named: bool) -> bool:
    return read_named and cls == kb.NON_IDEMPOTENT_WRITE and what.startswith("POST ")
