"""What ``follow.join`` does with each helper a tool reaches, once the run's summaries are in: its calls, retries, failure
modes and findings merged into the row, and the row's class read from them all (``follow.py`` walks the graphs)."""

from __future__ import annotations

import re

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import knowledge as kb
from .callees import RETURNED
from .model import CallFact, Tool
from .verbs import name_verb

if TYPE_CHECKING:
    from .follow import Resolver, Summary

__all__ = ["method_dispatchers", "reached_by", "sent_safe", "signing_in"]


def signing_in(tool: Tool, wants: Iterable[str], r: "Resolver", reached: Mapping[str, bool],
               walked: dict[str, frozenset[str]] | None = None) -> frozenset[str]:
    """The reached helpers a tool reaches only through a helper named for signing in (``knowledge.signs_in``:
    ``self._auth.get_token()`` in the request helper): the session's token request, not the tool's effect. A tool
    named for signing in (``refresh_token``) has none aside. (``walked``: the answer kept for the rows sharing these
    ``wants`` and ``reached``, the branches of one dispatcher: walked once.)"""
    if kb.signs_in(tool.name):
        return frozenset()
    if walked is not None and "" in walked:
        return walked[""]
    seen: set[str] = set()
    frontier = [k for q in wants for k in r.resolve_all(q)]
    while frontier:
        key = frontier.pop()
        if key in seen or key not in reached or kb.signs_in(key.rsplit(".", 1)[-1]):
            continue
        seen.add(key)
        frontier += [k for q in r.calls.get(key, ()) for k in r.resolve_all(q)]
    aside = frozenset(reached.keys() - seen)
    if walked is not None:
        walked[""] = aside
    return aside


def _merge(tool: Tool, s: Summary, text: bool, failures: bool = True) -> None:
    have = {(c.what, c.helper): i for i, c in enumerate(tool.calls)}
    for c in s.calls:
        at = have.get((c.what, c.helper))
        if at is None:
            have[(c.what, c.helper)] = len(tool.calls)
            tool.calls.append(c)
        elif tool.calls[at].timeout == "unknown" and c.timeout != "unknown":
            # a helper's row reads its own same-module helpers' calls through the effects model only (their bodies
            # are outside its region, their timeouts unread); that helper's own summary read the call's timeout
            tool.calls[at] = c
    seen_retries = {(r.kind, r.stop, r.wait, r.condition, r.helper) for r in tool.retries}
    for r in s.retries:
        if (r.kind, r.stop, r.wait, r.condition, r.helper) not in seen_retries:
            seen_retries.add((r.kind, r.stop, r.wait, r.condition, r.helper))
            tool.retries.append(r)
    # "raised": what the helper raises is the tool's own raise (or its framework's text); the other modes only of a
    # helper that itself calls out of the process (a local parse check's ``except: return False`` is no tool failure)
    for mode in s.failures if s.calls and failures else ():
        if mode != "raised" and mode not in tool.failures and (text or mode not in ("text", "fallback")):
            tool.failures.append(mode)


def _count(tool: Tool, s: Summary, text: bool, counted: set[tuple[str, int, str]], safe: bool = False) -> None:
    """A reached helper's findings, each site once however many reached helpers read it: those of its own body, and
    of the same-module helpers it calls (a shared token request's TFH201 two calls below the one the tool reaches);
    TFH401 only of its own body and only when its value reaches the tool's result (a same-module helper's text is
    the caller's own business: its own summary, reached, says whether it is passed on); TFH101 (a write retried)
    not of a helper the tool reaches only through calls handed a method that repeats safely (``safe``:
    ``client.request("GET", path)`` through a request helper whose retry loop also carries other tools' POSTs)."""
    for where, line, code, own in s.sites:
        if code == "TFH401" and not (own and text):
            continue
        if code == "TFH101" and safe:
            continue
        if (where, line, code) not in counted:
            counted.add((where, line, code))
            tool.findings[code] = tool.findings.get(code, 0) + 1


def _runner(tool: Tool, r: "Resolver", summaries: Mapping[str, Summary], counted: set[tuple[str, int, str]],
            reached: Mapping[str, bool]) -> None:
    """The run's own runner that answers what the tool raises with text (``failures_by``: a base class's ``run``, a
    registry's ``execute_tool``, a dispatch table's runner: ``except Exception as e: return str(e)`` around every
    tool): the model reads that text for this tool, so the runner's findings (its TFH401 at the catch-all) and its
    retries around the tool are the row's, as the ``text (runner)`` failure is. Its own body only: the other tools it
    runs are not this one's."""
    if tool.failures_by is None or "text" not in tool.failures:
        return
    for key in r.resolve_all(tool.failures_by):
        s = summaries.get(key)
        if s is None or reached.get(key, False):
            continue  # reached as a helper whose text the tool returns: counted (one it only calls, a decorator: not)
        _count(tool, replace(s, sites=tuple(x for x in s.sites if x[3])), True, counted)
        seen = {(x.kind, x.stop, x.wait, x.condition, x.helper) for x in tool.retries}
        tool.retries.extend(x for x in s.retries if (x.kind, x.stop, x.wait, x.condition, x.helper) not in seen)


_ASKED = re.compile(r"^([A-Z]+) through (.+), as the call of \w+\(\) at line \d+ asks$")


def _asked(tool: Tool, sent: Iterable[str]) -> None:
    """A shared request helper whose method is a parameter lists each method its callers hand it (``POST through
    httpx.AsyncClient.request, as the call of request() at line 120 asks``): a row keeps only the methods its own
    calls hand it (``sent``: ``client.get(...)`` -> ``self.request("GET", ...)``), and the helper's call whose
    method is the parameter is the one it asks for (``GET through httpx.AsyncClient.request``), classed by it."""
    verbs = {v.upper() for v in sent}
    if not verbs:
        return
    asked = {(m.group(2), c.helper) for c in tool.calls if (m := _ASKED.match(c.what))}
    if not asked:
        return
    verb = next(iter(verbs)) if len(verbs) == 1 else None
    said = {(m.group(2), c.helper, m.group(1)) for c in tool.calls if (m := _ASKED.match(c.what))}
    calls: list[CallFact] = []
    for c in tool.calls:
        m = _ASKED.match(c.what)
        under = m.group(2) if m is not None else c.what
        if (under, c.helper) not in asked or (m is not None and m.group(1) in verbs) or (m is None and verb is None):
            calls.append(c)  # not the helper's, this row's own method, or the helper's call left as it is
        elif verb is not None and (under, c.helper, verb) not in said:
            said.add((under, c.helper, verb))  # the helper's call, with the method this row hands it
            calls.append(replace(c, what=f"{verb} through {under}", cls=kb.HTTP_METHOD_CLASSES.get(verb.lower())))
    tool.calls = calls


def _calls_out(key: str, r: "Resolver", summaries: Mapping[str, Summary]) -> bool:
    """Whether a helper, or one it calls, lists a call out of the process (its request helper's)."""
    s = summaries.get(key)
    return bool(s is not None and (s.calls or any(
        (h := summaries.get(k)) is not None and h.calls for q in r.calls.get(key, ()) for k in r.resolve_all(q))))


def _classify(tool: Tool, sent: Sequence[tuple[str, str]] = (), aside: frozenset[tuple[str, str | None]] = frozenset()
              ) -> None:
    """An unclassified row's class from the strongest call it lists, once every helper's calls are in (merging one
    helper at a time, the first helper's GET would class a tool whose later helper sends a DELETE); else, when its
    name has no verb the tables know (a POST to ``/search/metadata`` sent for ``search_smart`` is a read), from the
    HTTP method a function it calls hands the run's request helper (``sent``: ``PortainerClient.post`` sending
    ``self.request("POST", ...)``), whose own call's method is a parameter."""
    if tool.classification == "unknown":
        order = (kb.IRREVERSIBLE, kb.NON_IDEMPOTENT_WRITE, kb.IDEMPOTENT_WRITE, kb.READ_SAFE)
        dispatchers = method_dispatchers(tool.calls)
        # a sign-in helper's token request (reached through one, or listed under one by a request helper's summary,
        # ``_request`` -> ``_headers`` -> ``_get_token``): not the tool's, unless the tool is named for signing in
        own_signin = kb.signs_in(tool.name) and name_verb(tool.name, kb.TOOL_NAME_VERBS) is None  # ``get_token``,
        # not ``revoke_tokens``
        classified = [c for c in tool.calls if c.cls in order and c.helper not in dispatchers
                      and (c.what, c.helper) not in aside and (own_signin or not kb.signs_in(c.helper or ""))]
        # the tool's own name says more (``verbs.py``; the rules' verbs)
        if not classified and sent and name_verb(tool.name, kb.TOOL_NAME_VERBS) is None:
            verb, key = min(sent, key=lambda e: order.index(kb.HTTP_METHOD_CLASSES[e[0]]))
            cls = kb.HTTP_METHOD_CLASSES[verb]
            tool.classification, tool.source = cls, "inferred"
            tool.evidence = f"{verb.upper()} through {key.rsplit('.', 1)[-1]}()"
            tool.key = "not-needed" if cls in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE) else "missing"
        if classified:
            strongest = min(classified, key=lambda c: order.index(c.cls or ""))
            tool.classification, tool.source = strongest.cls or "unknown", "inferred"
            tool.evidence = strongest.what + (f" in {strongest.helper}()" if strongest.helper else "")
            if tool.classification in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                tool.key = "not-needed"
            elif tool.classification in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE):
                writes = [c for c in classified if c.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
                tool.key = "present" if all(c.keyed for c in writes) else "missing"


def _annotated(tool: Tool, r: "Resolver") -> None:
    """The class the run's own annotation helper states for a tool (``@mcp.tool(annotations=read_only())``): declared,
    as MCP annotations given literally are; a class the tool's calls suggest gives way to it."""
    if tool.annotated is None or tool.source in ("declared", "configured"):
        return
    key = r.resolve(tool.annotated)
    cls = r.annotations.get(key) if key is not None else None
    if cls is None:
        return
    tool.classification, tool.source, tool.evidence = cls, "declared", "MCP annotations"
    if cls in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
        tool.key = "not-needed"
    else:
        writes = [c.keyed for c in tool.calls if c.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
        tool.key = "present" if writes and all(writes) else "missing"


def _local(tool: Tool, r: "Resolver", reached: Mapping[str, bool], summaries: Mapping[str, Summary]) -> None:
    """The ``local`` class (``local.py``): nothing declared or inferred, no call out listed, the tool's own calls all
    local, and every helper of the run it reaches in other modules, within :data:`DEPTH`, judged local too (each one
    found, summarised local, and calling only helpers reached or held in its own row: a same-module helper its
    summary judged with it, however deep)."""
    if tool.local is None or tool.classification != "unknown" or not all(c.local for c in tool.calls):
        return
    if any(not _met(q, r, reached) for q in tool.local):
        return
    for key in reached:
        s = summaries.get(key)
        if s is None or not s.local or not all(c.local for c in s.calls) or any(
                not _met(q, r, reached) and not _held(q, key, s, r) for q in r.calls.get(key, ())
                if not q.rsplit(".", 1)[-1][:1].isupper() and (RETURNED not in q or r.resolve_all(q))):
            return  # (``self._path(x).unlink()``: no method of the run; a class it builds: judged a value where it is
            # built, ``local.call_place``)
    tool.classification, tool.source, tool.key = kb.LOCAL_CLASS, "inferred", "not-needed"
    tool.evidence = "every call stays on the machine"


def _met(q: str, r: "Resolver", reached: Mapping[str, bool]) -> bool:
    """The run's function named is found and reached (judged local with the row), or is a value's method the run
    does not define, on an object of the run's class or one of its attributes (``config.model_dump()``,
    ``config.machines.append(m)`` with ``config: MachinesConfig``): a text, mapping or list method, or a model's
    (``knowledge.LOCAL_FOREIGN_METHODS``, ``PURE_METHODS``)."""
    keys = r.resolve_all(q)
    if keys:
        return all(k in reached for k in keys)
    head, _, method = q.rpartition(".")
    return method in kb.LOCAL_FOREIGN_METHODS | kb.PURE_METHODS and (
        r.alias(head) in r.bases or r.alias(head.rpartition(".")[0]) in r.bases)


def _held(q: str, key: str, s: Summary, r: "Resolver") -> bool:
    """A same-module function ``key``'s summary read in its own row (``follow._same_module_helpers``): its calls are
    in ``s.local``; one its row does not hold is among ``s.needs``."""
    found = r.resolve(q)
    where = r.where(key)
    module = where[2] if where is not None else key.rsplit(".", 1)[0]
    return found is not None and found.startswith(module + ".") and q not in s.needs and \
        f"{module}.{q.rsplit('.', 1)[-1]}" not in s.needs


_HTTP_WRITES = ("POST ", "PUT ", "PATCH ", "DELETE ")


def method_dispatchers(calls: Iterable[CallFact]) -> set[str]:
    """Helpers that send both a GET and a write (``if method == "GET": requests.get(...) else: requests.post(...)``):
    the method is their caller's choice, so their calls do not classify the tool that reaches them."""
    calls = list(calls)
    reads = {c.helper for c in calls if c.helper is not None and c.what.startswith("GET ")}
    return {c.helper for c in calls if c.helper is not None and c.helper in reads and c.what.startswith(_HTTP_WRITES)}


def sent_safe(verbs: Iterable[str | None]) -> bool:
    """Every call hands a literal HTTP method that repeats safely: a read or an idempotent write (``GET``,
    ``DELETE``, ``PUT``), never a ``POST`` or ``PATCH`` (``knowledge.HTTP_METHOD_CLASSES``)."""
    verbs = list(verbs)
    return bool(verbs) and all(v is not None and kb.HTTP_METHOD_CLASSES.get(v) in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE)
                               for v in verbs)


def _reach(r: "Resolver", wants: Iterable[str], depth: int) -> set[str]:
    """The run's functions reached from ``wants`` within ``depth`` helpers (``follow.DEPTH``)."""
    out: set[str] = set()
    frontier = list(wants)
    for _ in range(depth):
        nxt: list[str] = []
        for key in (k for qn in frontier for k in r.resolve_all(qn)):
            if key not in out:
                out.add(key)
                nxt.extend(r.calls.get(key, ()))
        frontier = nxt
    return out


def reached_by(r: "Resolver", links: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], depth: int
               ) -> tuple[set[str], list[tuple[str, str]], dict[str, bool]]:
    """What a row's links reach: the helpers reached other than through a call handed a method that repeats safely
    (a shared request helper's retry, TFH101, is the tool's only when its own call through it is a POST or PATCH);
    the HTTP methods the run's functions it calls hand their request helper (``client.post(...)`` ->
    ``PortainerClient.post`` -> ``self.request("POST", ...)``); each helper reached, ``depth`` deep (``follow.DEPTH``)
    -> whether its text reaches the tool's result."""
    wants, passing, safe_sent = links
    reached: dict[str, bool] = {}
    frontier = [(q, q in passing) for q in wants]
    unsafe = _reach(r, [q for q in wants if q not in safe_sent], depth)
    sent = [(v, k) for qn in wants for k in r.resolve_all(qn) for v in r.sends.get(k, ())]
    for _ in range(depth):
        nxt: list[tuple[str, bool]] = []
        for key, text in ((k, t) for qn, t in frontier for k in r.resolve_all(qn)):
            if key in reached and (reached[key] or not text):
                continue
            reached[key] = text
            passes = r.passes.get(key, ())
            nxt.extend((q, text and q in passes) for q in r.calls.get(key, ()))
        frontier = nxt
    return unsafe, sent, reached
