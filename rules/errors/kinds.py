"""A failure's kind read from something other than the exception's text (s47, batch 19's false findings).

Two shapes type a failure beside its text, as ``e.status_code`` does (``taint.py``'s ``_kind_of``):

- a kind attribute of the caught exception formatted into a field of its own (``reason=f"upstream failure
  ({e.kind})"``, aster's ``UpstreamError.kind``): the field says the kind, the text is only the detail;
- a code from a same-module classifier of the exception (``code = _classify_error(e)``, ``info =
  _classify_error(e)`` ... ``code=info["code"]``, remoteshell's): a function every ``return`` of which gives one
  of a closed set of codes (string literals that read as identifiers, ``"auth_failed"``, ``"rate-limit"``, or enum
  members ``ErrorKind.TIMEOUT``), directly or under one key of a returned dict literal, with at least two codes
  that are no catch-all (``GENERIC_ERROR_CODE_WORDS``): one constant code for every failure types nothing, as
  for the tools' failures column (``linter/tools/failures.py``).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ...linter.api import string_literal, walk_in_scope

__all__ = ["BARE", "classified_keys", "formats_kind", "typed_container", "typed_returns"]

# the key a classifier returning a bare code is read under
BARE = ""


def formats_kind(value: cst.BaseExpression, exc: set[str], attributes: frozenset[str]) -> bool:
    """``f"upstream failure ({e.kind})"``: a formatted string holding a kind attribute of the caught exception
    (``attributes``: ``ERROR_DISCRIMINATOR_ATTRIBUTES``) and nothing else of it (the caller checks the text)."""
    if not isinstance(value, cst.FormattedString):
        return False
    return any(
        isinstance(part, cst.FormattedStringExpression) and isinstance(part.expression, cst.Attribute)
        and isinstance(part.expression.value, cst.Name) and part.expression.value.value in exc
        and part.expression.attr.value in attributes
        for part in value.parts
    )


def _code(value: cst.BaseExpression) -> str | None:
    """A literal code: ``"auth_failed"``, ``"rate-limit"`` (an identifier once ``-``/``.`` read as ``_``), or an
    enum member ``ErrorKind.TIMEOUT``; not a sentence, not a computed value."""
    text = string_literal(value)
    if text is not None:
        return text if text.replace("-", "_").replace(".", "_").isidentifier() else None
    if isinstance(value, cst.Attribute) and isinstance(value.value, (cst.Name, cst.Attribute)) \
            and value.attr.value.isupper():
        return value.attr.value
    return None


def classified_keys(helper: cst.FunctionDef, catch_all: Callable[[str], bool]) -> frozenset[str]:
    """The keys under which every ``return`` of ``helper`` gives a code of a closed set (:data:`BARE`: the return
    value itself), with at least two distinct codes that ``catch_all`` does not call a catch-all."""
    returns = [n.value for n in walk_in_scope(helper.body) if isinstance(n, cst.Return) and n.value is not None]
    if len(returns) < 2:
        return frozenset()
    codes: dict[str, set[str]] | None = None
    for value in returns:
        found: dict[str, str] = {}
        bare = _code(value)
        if bare is not None:
            found[BARE] = bare
        elif isinstance(value, cst.Dict):
            for el in value.elements:
                key = string_literal(el.key) if isinstance(el, cst.DictElement) else None
                code = _code(el.value) if key is not None else None
                if key is not None and code is not None:
                    found[key] = code
        if codes is None:
            codes = {k: {v} for k, v in found.items()}
        else:
            codes = {k: codes[k] | {v} for k, v in found.items() if k in codes}
        if not codes:
            return frozenset()
    return frozenset(k for k, vs in (codes or {}).items() if len({v for v in vs if not catch_all(v)}) >= 2)


def typed_container(node: cst.CSTNode, discriminated: Callable[[cst.Dict | cst.Call], bool]) -> str | None:
    """s52 (issue 24: a typed-error helper): the local name of a container this statement adds a kind to, as
    ``discriminated`` reads a dict literal (``out.update({"code": "INVALID_INPUT", "retryable": False})``,
    ``out.update(code=...)``, ``out["error_code"] = code``): the text the container holds is then the detail of a
    typed error, as in a dict literal holding both; None for anything else. Added after the text, only a kind the
    program chose types it (:func:`_chosen`): a status copied from the exception when it has one (``out["http_status"]
    = e.response.status_code`` on an HTTP error's branch), or a helper's parameter most callers leave out
    (``response["error_type"] = error_type``), leaves the other failures untyped."""
    pairs: list[tuple[cst.BaseExpression | None, cst.BaseExpression]] = []
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
            and node.func.attr.value == "update":
        target = node.func.value
        pairs = [(el.key, el.value) for a in node.args if isinstance(a.value, cst.Dict) for el in a.value.elements
                 if isinstance(el, cst.DictElement)]
        pairs += [(cst.SimpleString(repr(a.keyword.value)), a.value) for a in node.args if a.keyword is not None]
    elif isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript):
        sub = node.targets[0].target
        index = sub.slice[0].slice if len(sub.slice) == 1 else None
        if not isinstance(sub.value, cst.Name) or not isinstance(index, cst.Index):
            return None
        target, pairs = sub.value, [(index.value, node.value)]  # out["code"] = "TIMEOUT"
    else:
        return None
    kept = [cst.DictElement(k, v) for k, v in pairs if k is not None and _chosen(v)]
    return target.value if kept and discriminated(cst.Dict(kept)) else None


def _chosen(value: cst.BaseExpression) -> bool:
    """A kind the program chose: a literal (``"INVALID_INPUT"``, ``429``, ``False``) or an enum member
    (``ErrorCode.TIMEOUT``); not a value copied from the exception or handed in (``e.response.status_code``,
    ``status``, a parameter), which is there only when that exception has one."""
    if isinstance(value, (cst.SimpleString, cst.Integer)):
        return True
    if isinstance(value, cst.Name):
        return value.value in ("True", "False")
    return isinstance(value, cst.Attribute) and isinstance(value.value, (cst.Name, cst.Attribute)) \
        and value.attr.value.isupper()


def typed_returns(helper: cst.FunctionDef, discriminated: Callable[[cst.Dict | cst.Call], bool]) -> frozenset[int]:
    """The ``return out`` statements of a helper whose body adds a kind to ``out`` (:func:`typed_container`): the
    ids of those ``Return`` nodes."""
    typed = {typed_container(n, discriminated) for n in walk_in_scope(helper.body)} - {None}
    return frozenset(id(n) for n in walk_in_scope(helper.body) if isinstance(n, cst.Return)
                     and isinstance(n.value, cst.Name) and n.value.value in typed)
