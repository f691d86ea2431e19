"""TFH402: a write's status flag is no silent fallback (s47, the lead's decision on batch 19's labels).

A ``try`` whose only calls out are writes (a delete, an update, an insert: :func:`only_writes`) and whose handler
answers ``False`` tells the caller "it did not happen": a status, not "there is nothing". TFH402 is about a *read*
whose failure reads as an empty answer, so such a handler is not reported. A call is a write by what the classifier
knows of it (``effects.classify_call``: an HTTP ``DELETE``/``PUT``/``PATCH``, a ``POST`` to no read endpoint, an
SDK's known writes), else by the first word of its method's name (``delete_object``, ``index.delete``,
``upsert``: a write verb of ``TOOL_NAME_VERBS``), or, for ``execute``, by its SQL text (``DELETE FROM ...``,
through a name the function binds to it). A ``try`` that also reads (``collection.get(ids)`` before the delete)
stays reported: its ``False`` also answers "not there".

Unless the contract says ``False`` is "not found" (:func:`false_reads_missing`): the function's docstring, an
enclosing function's, or the same method's in a base class of the project (``AgentMemory.delete_by_id``: "Returns
True if deleted, False if not found"; batch 4's vanna, whose UI shows the ``False`` as "Memory Not Found"): there
the caller reads an outage as "nothing to delete", and it stays reported.
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from ...linter.api import Knowledge, Names, classify_call, imported_method, string_literal, walk_in_scope
from ...linter.api import knowledge as kb
from .remote import remote_evidence

__all__ = ["false_reads_missing", "only_writes"]

_WRITE_CLASSES = frozenset({kb.IDEMPOTENT_WRITE, kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE})
_SQL_WRITE = re.compile(r"^\s*(?:INSERT|UPDATE|DELETE|REPLACE|MERGE|UPSERT|TRUNCATE|DROP)\b", re.IGNORECASE)
_SQL_METHODS = frozenset({"execute", "executemany", "executescript"})


def _sql_text(node: cst.BaseExpression, names: Names, scope: cst.CSTNode | None) -> str | None:
    """The SQL text an ``execute`` argument holds: a literal, a call wrapping one (``self._prepare_sql("DELETE
    ...")``), or a name the function binds once to either (``sql = ...``)."""
    text = string_literal(node, concatenated=True, pieces=True)
    if text is not None:
        return text
    if isinstance(node, cst.Call) and node.args:
        return _sql_text(node.args[0].value, names, None)
    if isinstance(node, cst.Name) and scope is not None:
        bound = [a.value for a in walk_in_scope(scope) if isinstance(a, cst.Assign) and len(a.targets) == 1
                 and isinstance(a.targets[0].target, cst.Name) and a.targets[0].target.value == node.value]
        texts = {_sql_text(b, names, None) for b in bound}
        if len(texts) >= 1 and None not in texts and all(_SQL_WRITE.match(t or "") for t in texts):
            return next(iter(texts))
    return None


def _is_write(call: cst.Call, names: Names, knowledge: Knowledge, imports: frozenset[str],
              scope: cst.CSTNode | None) -> bool | None:
    """True: a write; False: a read (or unknown: counted as a read); None: the end of a transaction (``commit``)."""
    known = classify_call(call, names, knowledge, {}, imports)
    if known is not None:
        return known[0] in _WRITE_CLASSES
    func = call.func
    method = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if method in knowledge.write_flag_neutral_methods:
        return None
    if method in _SQL_METHODS and call.args:
        return bool(_SQL_WRITE.match(_sql_text(call.args[0].value, names, scope) or ""))
    words = knowledge.identifier_words(method)
    return bool(words) and kb.TOOL_NAME_VERBS.get(words[0]) in _WRITE_CLASSES


def only_writes(body: cst.BaseSuite, names: Names, knowledge: Knowledge, imports: frozenset[str],
                constants: frozenset[str], path: str | None) -> bool:
    """Every call in the ``try`` with evidence that it reaches outside (:func:`~.remote.remote_evidence`) is a write,
    and one at least is."""
    scope = names.function
    writes = 0
    for n in walk_in_scope(body):
        if type(n) is not cst.Call or remote_evidence(n, names, knowledge, imports, constants, path) is None:
            continue
        verdict = _is_write(n, names, knowledge, imports, scope)
        if verdict is False:
            return False
        writes += verdict is True
    return writes > 0


# A contract that says the ``False`` answers "not there" (``Returns True if deleted, False if not found``).
_MISSING = re.compile(r"\bFalse\b[^.\n]*\b(?:not\s+(?:found|exist|present)|does\s*n[o']t\s+exist|no\s+such|missing|absent)",
                      re.IGNORECASE)


def _says_missing(doc: str | None) -> bool:
    return doc is not None and _MISSING.search(doc) is not None


def false_reads_missing(names: Names, path: str, tree: ast.AST) -> bool:
    """The function's docstring, an enclosing function's, or the docstring of the same method in a base class
    of the one defining it (in the module, read on its whole ``ast`` tree, which narrowing leaves whole, or
    imported from the project) says ``False`` means "not found"."""
    method: cst.FunctionDef | None = None
    owner: cst.ClassDef | None = None
    for scope in reversed(names.stack):
        if scope.kind == "function" and isinstance(scope.node, cst.FunctionDef):
            if _says_missing(scope.node.get_docstring(clean=False)):
                return True
            method = scope.node
        elif scope.kind == "class" and isinstance(scope.node, cst.ClassDef):
            owner = scope.node
            break
    if owner is None or method is None:
        return False
    wanted = method.name.value
    for base in owner.bases:
        if base.keyword is not None:
            continue
        qn = names.qualname(base.value)
        if qn is not None and "." in qn:
            found = imported_method(path, qn, wanted)
            if found is not None and _says_missing(found.get_docstring(clean=False)):
                return True
        elif isinstance(base.value, cst.Name) and isinstance(tree, ast.Module):
            for cls in tree.body:
                if isinstance(cls, ast.ClassDef) and cls.name == base.value.value:
                    for fn in cls.body:
                        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name == wanted \
                                and _says_missing(ast.get_docstring(fn, clean=False)):
                            return True
    return False
