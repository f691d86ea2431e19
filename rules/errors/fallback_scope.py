"""TFH402's "the fallback is the answer asked for" readings, beyond the predicates and cleanup of the rule itself.

Each is positive evidence, read on the function or the handler, that the default value a handler returns
after a remote read is not "there is nothing" passed off as an answer:

- :func:`probe`: the function asks whether a server is there (``probe``, ``_query_health``, ``heartbeat``):
  ``None`` is "no server on this port", whatever value it hands back;
- :func:`write_status`: the function creates or sends (``upload_file``, ``post_message``, ``save_report``):
  ``None``/``False`` reads "it did not happen", never "nothing there" (deleting and cancelling stay reported:
  their ``False`` reads "nothing to delete");
- :func:`fills_negative_cache`: the handler stores the miss in a cache (``self._name_negative_cache[k] =
  deadline``): the author chose to remember the failure and answer empty until it expires;
- :func:`documented_in_docstring`: the function's docstring says the soft failure is the design
  ("intentionally soft", "best-effort", "never raises", "falls back");
- :func:`head_only`: a ``False`` whose only remote read is an HTTP ``HEAD`` (``requests.head(url)``): the
  question is "does this address answer", and False is that answer;
- :func:`status_only`: a ``False`` in a function whose every other return is a success test of a response's status
  (``return response.status_code == 200``, ``return r.ok``) and which never reads the response's content: the
  question is "does the service answer" (s46: harombe's ``check_ollama_running``), and False is that answer.
"""

from __future__ import annotations

import re

import libcst as cst

from ...linter.api import Knowledge, Names, walk_in_scope
from .remote import remote_evidence

__all__ = ["documented_in_docstring", "fills_negative_cache", "head_only", "probe", "status_only", "write_status"]


def _name(func: cst.FunctionDef | cst.Lambda | None) -> str:
    return func.name.value.lstrip("_").lower() if isinstance(func, cst.FunctionDef) else ""


def probe(func: cst.FunctionDef | cst.Lambda | None, knowledge: Knowledge) -> bool:
    """The function's name says it probes for a server (``probe``, ``_query_health``, ``send_heartbeat``)."""
    name = _name(func)
    return bool(name) and any(part in name for part in knowledge.probe_name_parts)


def write_status(func: cst.FunctionDef | cst.Lambda | None, knowledge: Knowledge) -> bool:
    """The function's first word (``a`` async prefix allowed: ``aupload``) is a verb that creates or sends."""
    first = _name(func).split("_")[0]
    verbs = knowledge.write_status_verbs
    return bool(first) and (first in verbs or (first.startswith("a") and first[1:] in verbs))


def _cache_target(node: cst.BaseExpression) -> bool:
    """``self._negative_cache[k]``, ``cache[k]``, ``self._misses_cache``: an assignment target named for a cache."""
    while isinstance(node, cst.Subscript):
        node = node.value
    last = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""
    return "cache" in last.lower()


def fills_negative_cache(handler: cst.ExceptHandler) -> bool:
    """The handler stores the miss in a cache (an assignment to a target named for a cache): a remembered
    failure, answered empty on purpose until it expires."""
    for n in walk_in_scope(handler.body):
        if isinstance(n, cst.Assign) and any(_cache_target(t.target) for t in n.targets):
            return True
        if isinstance(n, (cst.AnnAssign, cst.AugAssign)) and _cache_target(n.target):
            return True
    return False


# A docstring that says the soft failure is the design (``The failure is intentionally soft``, ``best-effort``,
# ``Never raises``, ``falls back to ...``, ``with graceful error handling``: clickup's who-am-i spaces, batch 11; ``Fails
# open``, ``Returns None on any failure``, ``Defensive against ...``: s42). Not ``optional``: docstrings use it for arguments.
_DOCSTRING_DESIGN = re.compile(
    r"\bintentional(?:ly)?\b|\bdeliberate(?:ly)?\b|\bby\s+design\b|\bbest[\s-]effort\b|\bnever\s+raises?\b"
    r"|\bfall(?:s|ing)?[\s-]*back\b|\bnon[\s-]?fatal\b|\bsoft[\s-]?fail|\bgraceful(?:ly)?\b"
    # s42 (batches 11-14's transport-error handlers): "Fails open", "Returns None on any failure", "Defensive against ..."
    r"|\bfails?[\s-]+open\b|\breturns?\s+None\s+on\s+(?:any\s+)?(?:failure|error)|\bdefensive(?:ly)?\b",
    re.IGNORECASE,
)


def documented_in_docstring(func: cst.FunctionDef | cst.Lambda | None) -> bool:
    """The function's docstring says the soft failure is the design."""
    if not isinstance(func, cst.FunctionDef):
        return False
    doc = func.get_docstring(clean=False)
    return doc is not None and _DOCSTRING_DESIGN.search(doc) is not None


def head_only(body: cst.BaseSuite, names: Names, knowledge: Knowledge, imports: frozenset[str]) -> bool:
    """Every call in the ``try`` that could reach a server is an HTTP ``HEAD`` (``requests.head(url)``,
    ``await client.head(url)``): what it asks is whether the address answers."""
    heads = 0
    for n in walk_in_scope(body):
        if not isinstance(n, cst.Call):
            continue
        if isinstance(n.func, cst.Attribute) and n.func.attr.value == "head":
            heads += 1
            continue
        if remote_evidence(n, names, knowledge, imports) is not None:
            return False
    return heads > 0


# What a success test of a response reads (``r.status_code == 200``, ``r.ok``, ``r.is_success``), and what reads the
# answer's content instead (``r.json()``, ``r.text``): a function that touches the content asks for more than "does it
# answer". (s46)
_STATUS_ATTRS = frozenset({"status_code", "status"})
_SUCCESS_ATTRS = frozenset({"ok", "is_success"})
_CONTENT_ATTRS = frozenset({"json", "text", "content", "read", "aread", "body", "iter_lines", "iter_content", "data",
                            "headers"})


def _two_hundred(node: cst.BaseExpression) -> bool:
    """An integer literal 200-299, or a tuple/list/set of only such literals."""
    if isinstance(node, cst.Integer):
        return 200 <= int(node.value) <= 299
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return bool(node.elements) and all(_two_hundred(e.value) for e in node.elements)
    return False


def _success_test(node: cst.BaseExpression | None) -> bool:
    """``r.status_code == 200``, ``resp.status in (200, 204)``, ``r.ok``, ``r.is_success``, ``bool(r.ok)``."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "bool" and len(node.args) == 1:
        node = node.args[0].value
    if isinstance(node, cst.Attribute):
        return node.attr.value in _SUCCESS_ATTRS
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        left, (target,) = node.left, node.comparisons
        return (isinstance(left, cst.Attribute) and left.attr.value in _STATUS_ATTRS
                and isinstance(target.operator, (cst.Equal, cst.In)) and _two_hundred(target.comparator))
    return False


def status_only(func: cst.FunctionDef | cst.Lambda | None, returns: list[cst.Return]) -> bool:
    """Every ``return`` of the function (``returns``) but ``False`` ones is a success test of a response's status, at
    least one is, and the function reads nothing of the response's content (``.json()``, ``.text``, ``.content``):
    what it asks is whether the service answers, so ``False`` on a failure is that answer, not "nothing there"."""
    if not isinstance(func, cst.FunctionDef):
        return False
    tests = 0
    for r in returns:
        if isinstance(r.value, cst.Name) and r.value.value == "False":
            continue
        if not _success_test(r.value):
            return False
        tests += 1
    if not tests:
        return False
    return not any(isinstance(n, cst.Attribute) and n.attr.value in _CONTENT_ATTRS for n in walk_in_scope(func.body))
