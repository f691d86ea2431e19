"""How a tool's failures reach the model: what an ``except`` clause, or a return, gives it.

The answers the error-handling rules (TFH401-TFH403) give are read from their
model, ``rules/errors/``: a handler that only swallows is ``ErrorModel``'s
``swallows_cst``, and whether a returned value carries the caught exception's
text (through variables, containers, text builders and one level into
same-module helpers, two inside a formatter its module calls: s56) is TFH401's ``ExceptionText.leak``, asked by the facts
visitor as the traversal goes and handed here as ``text``; a tool where TFH401
reports anything else (the exception object in its result) gets "text" from
``describe.py``. No other test decides "text": the column and TFH401 agree on
every tool (``tests/test_errors_tools_agree.py``). A handler returning a result
that says the failure's kind (a code naming it, not a catch-all) is "typed" by
the same model's ``says_kind``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import libcst as cst

from .. import knowledge as kb
from ..effects import reaches_outside
from ..names import dotted
from ..nodes import is_none, walk_in_scope
from ...rules.errors.model import swallows_cst

__all__ = ["handler_mode", "is_tool_error", "local_work", "per_item_tries", "returns_tool_error", "is_return", "side_step", "status_swallowed", "step_tries",
           "status_typed", "try_bound"]


def is_tool_error(node: cst.BaseExpression, names: Any, knowledge: kb.Knowledge) -> bool:
    if isinstance(node, cst.Call):
        qn = names.qualname(node.func)
        # a ToolError, the runtime's Err(ToolError) (a typed Result), or a framework's typed tool error
        if qn is not None and (qn in knowledge.tool_error_constructors or qn in knowledge.tool_error_classes
                               or qn in knowledge.err_classes or qn.endswith(".ToolError")
                               or qn.rsplit(".", 1)[-1] in ("ToolException", "ModelRetry")):
            return True
    return False


def handler_mode(handler: cst.ExceptHandler, names: Any, knowledge: kb.Knowledge, text: bool = False,
                 bound: frozenset[str] = frozenset(), typed: bool = False) -> str:
    """typed | text | raised | fallback | swallowed: what an ``except`` clause in a tool gives the model
    (``text``: TFH401's taint saw a value carrying the exception's text returned from it; ``typed``: it returns a
    result saying the failure's kind, TFH401's ``says_kind``; ``bound``: the names its ``try`` body binds,
    :func:`try_bound`)."""
    if swallows_cst(handler):
        return "swallowed"
    returned: list[cst.BaseExpression] = []
    for n in walk_in_scope(handler.body):
        if isinstance(n, cst.Raise):
            if n.exc is not None and is_tool_error(n.exc, names, knowledge):
                return "typed"
            return "raised"
        if isinstance(n, cst.Return) and n.value is not None:
            returned.append(n.value)
    for value in returned:
        if is_tool_error(value, names, knowledge):
            return "typed"
    if text:
        # "text" is TFH401's answer alone (its taint, and describe.py's TFH401 findings): the column and the rule
        # agree on every tool; a crafted message or a value without the exception's text is a fallback answer
        return "text"
    if typed:
        # a result that says the kind (``code=ToolErrorCode.TIMEOUT``), by TFH401's reading: not a crafted answer
        return "typed"
    for value in returned:
        if not _empty(value):
            return "fallback"  # a fallback value or a fallback call: the model gets an answer, not silence
    if any(isinstance(n, cst.Call) and "fallback" in (dotted(n.func) or "").lower() for n in walk_in_scope(handler.body)):
        return "fallback"
    if _substitutes(handler, bound):
        return "fallback"
    return "swallowed"


def try_bound(node: cst.Try) -> frozenset[str]:
    """The names a ``try`` body binds by assignment (``file_path = normalise(raw)``)."""
    out: set[str] = set()
    for n in walk_in_scope(node.body):
        if isinstance(n, cst.Assign):
            out.update(t.target.value for t in n.targets if isinstance(t.target, cst.Name))
        elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.value is not None:
            out.add(n.target.value)
    return frozenset(out)


def side_step(node: cst.Try) -> bool:
    """A best-effort step: a ``try`` (inside another ``try`` with handlers, the caller checks) whose body runs
    statements for their effect alone, binding no name and returning nothing (``try: await el.clear_input() except
    Exception: pass``): what the function answers does not come from it, and the enclosing ``try``'s handler answers
    the failures that matter. A ``finally`` of the same kind is clean-up too (s52: a kill sequence on a timeout, ``try:
    process.communicate(timeout=2) except TimeoutExpired: pass finally: os.killpg(...)``)."""
    if node.orelse is not None or try_bound(node):
        return False
    blocks = [node.body, *([node.finalbody.body] if node.finalbody is not None else [])]
    return not any(isinstance(n, (cst.Return, cst.Raise, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.With,
                                  cst.For, cst.While, cst.Yield))
                   for b in blocks for n in walk_in_scope(b))


def step_tries(stmt: cst.BaseStatement) -> list[cst.Try]:
    """The ``try`` statements a statement is, or its ``if`` (no ``else``) holds at its top (s52: ``if _conn is not
    None: try: _conn.identity.get_token(); return _conn except Exception: _conn = None``, the connection rebuilt after
    it: a probe of a cached client): when more work outside follows, a best-effort step (``facts.pre_steps``)."""
    if isinstance(stmt, cst.Try):
        return [stmt]
    if isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock) \
            and not _leaves(stmt.body.body[-1]):  # a branch ending in ``return`` (a dispatcher's) reaches no later work
        # s53: and one ``if`` further in (plex-mcp-server's ``if server is not None: if recent: try:
        # server.library.sections(); return server except: server = None``, the server reconnected after it)
        return [t for s in stmt.body.body
                for t in ([s] if isinstance(s, cst.Try) else step_tries(s) if isinstance(s, cst.If) else [])]
    return []


def default_reported(node: cst.Try, later: Sequence[cst.BaseStatement]) -> bool:
    """A name the ``try`` binds is read by the statements after it outside an ``if`` testing that name (s53, batch
    25 plex-mcp-server's ``media_get_artwork``: ``if hasattr(media, m): try: available_versions = getattr(media, m)()
    except: pass``, then ``"versions_available": len(available_versions)``): when the step fails, the value the name
    held before (``[]``) is what the answer reports, a failure swallowed (a handler doing nothing more than pass, log or
    bind an empty value; one recording the failure, miosa's ``_add_doctor_check(..., f"...: {exc}")``, answers it).
    Read under a test of the name (joshu's ``if diff: result["diff"] = diff``), a missing value is left out: a
    best-effort step; so when any later test reads one of the names (batch 25 opensolr's ``_rag_context``: ``if not
    hits:`` searches another way)."""
    bound = try_bound(node)
    if not all(_leaves_default(h.body) for h in node.handlers):
        return False  # a handler that records the failure (``_add_check(checks, False, f"...: {exc}")``) answers it
    if not bound or any(isinstance(n, cst.If) and {x.value for x in walk_in_scope(n.test) if isinstance(x, cst.Name)}
                        & bound for stmt in later for n in walk_in_scope(stmt)):
        return False  # the code tests what the step left (``if not hits: hits = other_search(...)``): noticed
    return any(name in bound for stmt in later for name in _reads_unguarded(stmt, bound))


def _leaves_default(body: cst.BaseSuite) -> bool:
    """A handler doing nothing the answer could show: ``pass``, logging, or binding a name to an empty value."""
    lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for stmt in lines:
        for small in (stmt.body if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else [None]):
            if isinstance(small, cst.Pass) or (isinstance(small, cst.Assign) and _empty(small.value)):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and (
                    dotted(small.value.func) or "").rsplit(".", 1)[-1].lower().startswith(kb.LOGGING_CALL_PREFIXES):
                continue
            return False
    return True


def _reads_unguarded(node: cst.CSTNode, bound: frozenset[str]) -> list[str]:
    if isinstance(node, cst.If) and {n.value for n in walk_in_scope(node.test) if isinstance(n, cst.Name)} & bound:
        return []
    if isinstance(node, cst.Name):
        return [node.value]
    out: list[str] = []
    for child in node.children:
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and child is not getattr(node, "value", None):
            continue  # a target (``last = now``) is no read
        if isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        out += _reads_unguarded(child, bound)
    return out


def _leaves(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[-1], (cst.Return, cst.Raise, cst.Continue,
                                                                                   cst.Break))


def is_return(stmt: cst.BaseStatement) -> bool:
    """A line that only returns (``return _ok(result)``)."""
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(x, cst.Return) for x in stmt.body)


def _substitutes(handler: cst.ExceptHandler, bound: frozenset[str]) -> bool:
    """The handler binds a name its ``try`` body binds (``bound``) to a substitute the code after it goes on with: a
    value computed by a call (``file_path = Path(raw_path)`` when normalising failed) or a decided answer (``works =
    False`` when the probe could not run). A literal record (``out = {"ok": False}``), an empty value, or a name of
    the handler's own (``title = paper.get("title")`` for its log line) says nothing of the failure."""
    for n in walk_in_scope(handler.body):
        if isinstance(n, cst.Assign) and all(isinstance(t.target, cst.Name) and t.target.value in bound
                                             for t in n.targets):
            value: cst.BaseExpression | None = n.value
        elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.target.value in bound:
            value = n.value
        else:
            continue
        if isinstance(value, cst.Name) and value.value in ("True", "False"):
            return True
        if isinstance(value, cst.Call) and not (dotted(value.func) or "").rsplit(".", 1)[-1].lower().startswith(
                kb.LOGGING_CALL_PREFIXES):
            return True
    return False


def _empty(value: cst.BaseExpression) -> bool:
    """``None``, ``""``, ``[]``, ``{}``, ``()``, ``False``, ``0``: a return that tells the model nothing."""
    if is_none(value) or (isinstance(value, cst.Name) and value.value in ("False",)):
        return True
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value in ("", b"")
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return not value.elements
    if isinstance(value, cst.Dict):
        return not value.elements
    if isinstance(value, cst.Integer):
        return value.value == "0"
    return False


def returns_tool_error(exits: Sequence[cst.BaseExpression], names: Any, knowledge: kb.Knowledge) -> bool:
    return any(is_tool_error(value, names, knowledge) for value in exits)


#: builtins that reach outside or run code: a ``try`` around one of them is no local computation
_OUTSIDE_BUILTINS = frozenset({"open", "input", "exec", "eval", "compile", "__import__", "print", "breakpoint"})


def local_work(body: cst.CSTNode, names: Any, knowledge: kb.Knowledge, imports: frozenset[str]) -> bool:
    """Whether a ``try`` body only computes in memory, by positive evidence: every call in it is a builtin
    (``int(port)``) or a standard-library function (``ipaddress.ip_address(ip)``, ``json.loads(text)``) that does not
    reach outside; a call of anything else (the run's own function, an unresolved method) may fail outside."""
    held = _stdlib_bound(body, names, knowledge, imports)
    for n in walk_in_scope(body):
        if not isinstance(n, cst.Call):
            continue
        if reaches_outside(n, names, knowledge, imports):
            return False
        if _parses_value(n):
            continue
        if held and isinstance(n.func, cst.Attribute) and _of_held(n.func.value, held):
            continue  # s53: ``dt.replace(tzinfo=...)``, ``(dt - now).total_seconds()`` on values computed here
        if isinstance(n.func, cst.Name) and names.is_builtin(n.func.value):
            if n.func.value in _OUTSIDE_BUILTINS or (n.func.value in kb.ITERATING_BUILTINS and not _compares(n)):
                return False  # ``list(cursor)`` runs what it is given
            continue
        qn = names.qualname(n.func)
        root = qn.split(".")[0] if qn is not None else ""
        if root not in sys.stdlib_module_names or root in kb.CALLABLE_RUNNING_MODULES:
            return False  # ``asyncio.to_thread(fetch, ...)`` runs a callable that may reach outside
    return not any(isinstance(n, cst.Await) for n in walk_in_scope(body))


def _compares(call: cst.Call) -> bool:
    """``max(0.0, wait)``: ``max``/``min`` of two or more values given one by one, no iterable walked (s53)."""
    return isinstance(call.func, cst.Name) and call.func.value in ("max", "min") and len(call.args) >= 2 \
        and not any(a.star or a.keyword for a in call.args)


def _stdlib_bound(body: cst.CSTNode, names: Any, knowledge: kb.Knowledge, imports: frozenset[str]) -> set[str]:
    """The names the body binds only to what a standard-library function that reaches nothing outside returns
    (``dt = email.utils.parsedate_to_datetime(value)``, ``now = datetime.datetime.now(tz)``), or to a method of such a
    value (``dt = dt.replace(tzinfo=utc)``): values in memory, whose methods compute (s53, batch 24 sigma's
    ``_parse_retry_after``, a header parsed best-effort)."""
    values: dict[str, list[cst.BaseExpression]] = {}
    for n in walk_in_scope(body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Name):
                    values.setdefault(t.target.value, []).append(n.value)

    def stdlib(value: cst.BaseExpression) -> bool:
        qn = names.qualname(value.func) if isinstance(value, cst.Call) else None
        root = qn.split(".")[0] if qn is not None else ""
        return isinstance(value, cst.Call) and qn is not None and root in sys.stdlib_module_names \
            and root not in kb.CALLABLE_RUNNING_MODULES and not reaches_outside(value, names, knowledge, imports)

    held = {k for k, vs in values.items() if vs}
    while True:  # the largest set whose every binding is a standard-library value or a method of a held one
        keep = {k for k in held if all(stdlib(v) or (isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute)
                                                     and _of_held(v.func.value, held)) for v in values[k])}
        if keep == held:
            return held
        held = keep


def _of_held(node: cst.BaseExpression, held: set[str]) -> bool:
    """An expression of those names alone (``dt``, ``dt - now``)."""
    if isinstance(node, cst.Name):
        return node.value in held
    if isinstance(node, cst.BinaryOperation):
        return _of_held(node.left, held) and _of_held(node.right, held)
    return False


def _parses_value(call: cst.Call) -> bool:
    """A parse of a value already in hand: ``response.json()`` (a received body; an awaited one reads it, and an
    ``await`` makes the body no local work) or a dict's ``data.get("message", default)`` (a key that is no URL path):
    ``try: detail = response.json().get("message") except: pass`` reads a failed response's body, no call out."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    if func.attr.value == "json" and not call.args:
        return True
    if func.attr.value in ("decode", "encode") and call.args and isinstance(call.args[0].value, cst.SimpleString):
        return True  # s53: ``raw.decode("utf-8")``, a codec named: bytes or text in hand
    if func.attr.value == "get" and 1 <= len(call.args) <= 2 and call.args[0].keyword is None \
            and isinstance(call.args[0].value, cst.SimpleString):
        key = call.args[0].value.evaluated_value
        return isinstance(key, str) and "/" not in key and ":" not in key
    return False


_STATUS_ATTRIBUTES = frozenset({"status_code", "status", "ok"})


def _logs_only(body: cst.BaseSuite) -> bool:
    """A block of logging calls and nothing else (``logger.error(...)``, ``print(...)``)."""
    if not isinstance(body, cst.IndentedBlock):
        body_lines: Sequence[cst.CSTNode] = [body]
    else:
        body_lines = body.body
    for stmt in body_lines:
        smalls = stmt.body if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else None
        if not smalls:
            return False
        for small in smalls:
            if isinstance(small, cst.Pass):
                continue
            call = small.value if isinstance(small, cst.Expr) else None
            if not isinstance(call, cst.Call):
                return False
            last = (dotted(call.func) or "").rsplit(".", 1)[-1].lower()
            if not last.startswith(kb.LOGGING_CALL_PREFIXES):
                return False
    return True


def status_swallowed(fn: cst.FunctionDef) -> bool:
    """A response's failure status that is only logged: ``if response.status_code != 200: logger.error(...)`` and the
    function goes on to its normal answer (``return []``), so the model reads an outage as "nothing found"."""
    for n in walk_in_scope(fn.body):
        if not isinstance(n, cst.If) or n.orelse is not None:
            continue
        tested = {a.attr.value for a in walk_in_scope(n.test) if isinstance(a, cst.Attribute)}
        if tested & _STATUS_ATTRIBUTES and _logs_only(n.body):
            return True
    return False


_STATUS_VALUES = frozenset({"status_code", "status"})


def status_typed(fn: cst.FunctionDef) -> bool:
    """A response's failure status answered with a result that carries it: ``if resp.status_code != 200: return
    {"error": f"HTTP {resp.status_code}", "detail": data}``, ``{"error": {"status": resp.status, ...}}``. The model
    reads the status, the failure's kind (a 404 from a 429), as a typed answer says it; a crafted message without the
    status is none (``return "request failed"``)."""
    for n in walk_in_scope(fn.body):
        if not isinstance(n, cst.If):
            continue
        if not any(isinstance(a, cst.Attribute) and a.attr.value in _STATUS_ATTRIBUTES for a in walk_in_scope(n.test)):
            continue
        for r in walk_in_scope(n.body):
            if isinstance(r, cst.Return) and r.value is not None and not _empty(r.value) and any(
                    isinstance(a, cst.Attribute) and a.attr.value in _STATUS_VALUES for a in walk_in_scope(r.value)):
                return True
    return False


def per_item_tries(loop: cst.For | cst.While) -> list[cst.Try]:
    """The ``try`` statements of a loop's body (under its ``if``s too) whose handlers skip to the next item (``for p in
    root.rglob(pattern): if p.is_file(): try: matches.append((p.stat().st_mtime, p)) except OSError: pass``): one item's
    step. Such a handler swallows that item's failure; it catches none of the tool's other failures, which reach the
    framework, or the runner, as the tool raises them."""
    out: list[cst.Try] = []
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.IndentedBlock):
            stack.extend(node.body)
        elif isinstance(node, cst.If):
            stack.extend([node.body, *([node.orelse] if node.orelse is not None else [])])
        elif isinstance(node, cst.Else):
            stack.append(node.body)
        elif isinstance(node, cst.Try) and all(_skips(h.body) for h in node.handlers):
            out.append(node)
    return out


def _skips(body: cst.BaseSuite) -> bool:
    """A handler of ``pass`` or ``continue`` (and logging calls): the loop goes on with the next item."""
    return _logs_only(body) or isinstance(body, cst.IndentedBlock) and all(
        isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, (cst.Pass, cst.Continue)) or (
            isinstance(x, cst.Expr) and isinstance(x.value, cst.Call) and _logs_only(cst.SimpleStatementSuite(body=[x])))
            for x in s.body) for s in body.body)
