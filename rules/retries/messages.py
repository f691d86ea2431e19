"""A message loop, not a retry (issue 23): each round receives the next message and handles it.

Moved out of ``loops.py`` (s51): :func:`receives` (a call that receives one message: ``ws.recv()``,
``queue.get()``, ``api.get_updates()``), :func:`receives_first` (a ``while``'s attempt starts by receiving), and
:func:`receives_item` (s51, batch 23 session-peer): a ``for`` loop with no success exit whose body, before its
``try``, binds a name to a received message that the ``try`` reads (``for _ in range(budget): request = await
channel.recv(); try: result = await dispatch(request) except Exception: result = refused; await
channel.send(result)``): a failure handles this message, the next round receives another; nothing is sent again.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import dotted, knowledge
from .status_loops import all_nodes as _walk
from .steps import body_stmts as _body_stmts


def receives(call: cst.Call) -> bool:
    """A call that receives one message: by its method (``knowledge.MESSAGE_RECEIVE_METHODS``), its name's words
    (a fetch of messages), or a channel's ``get``/``read``/``poll`` (``MESSAGE_CHANNEL_METHODS`` on a receiver named like one)."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value in ("anext",)
    if not isinstance(func, cst.Attribute):
        return False
    last = func.attr.value
    if last in knowledge.MESSAGE_RECEIVE_METHODS:
        return True
    words = knowledge.identifier_words(last)
    if len(words) > 1 and words[0] in knowledge.MESSAGE_FETCH_VERBS and set(words[1:]) & knowledge.MESSAGE_FETCH_NOUNS:
        return True  # s43: `await api.get_updates(...)`, `bot.getUpdates()`: a fetch of the next messages, by its name
    if _names_a_receive(call):
        return True  # s51: `client.get("/api/agent/poll")`, `self._api("getUpdates", ...)`: the endpoint it names
    if last in knowledge.MESSAGE_CHANNEL_METHODS:
        held = func.value.value if isinstance(func.value, cst.Subscript) else func.value  # self.queues["llm"].get()
        receiver = (dotted(held) or "").lower().rsplit(".", 1)[-1]
        return any(w in receiver for w in knowledge.MESSAGE_CHANNEL_WORDS) or receiver in ("q", "rx")
    return False


def _endpoint_text(node: cst.BaseExpression) -> str | None:
    """A literal's text, or an f-string's text after its last placeholder (``f"{base}/getUpdates"``)."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[-1], cst.FormattedStringText):
        return node.parts[-1].value
    return None


def _names_a_receive(call: cst.Call) -> bool:
    """s51 (batch 23 susatest-agent's ``GET /api/agent/poll``; hellochusquis' ``_api("getUpdates", ...)``): the call's
    first argument names the endpoint it asks, by a literal, and the endpoint's last path segment names a fetch of
    the next messages the way a method's name does (``getUpdates``, ``/messages/poll`` aside: its last segment) or is
    ``poll``/``longpoll`` alone: a long-poll, which answers with the next queued item."""
    first = next((a.value for a in call.args if a.keyword is None and not a.star), None)
    text = _endpoint_text(first) if first is not None else None
    if not text:
        return False
    segment = text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    if not segment.replace("_", "").replace("-", "").isalnum():
        return False
    words = knowledge.identifier_words(segment.replace("-", "_"))
    if words in (["poll"], ["longpoll"], ["long", "poll"]):
        return True
    return len(words) > 1 and words[0] in knowledge.MESSAGE_FETCH_VERBS and bool(set(words[1:]) & knowledge.MESSAGE_FETCH_NOUNS)


def receives_first(trynode: cst.Try) -> bool:
    """The ``try``'s first statement receives one message (``msg = await ws.recv()``, ``item = queue.get()``)."""
    stmts = list(_body_stmts(trynode.body))
    while stmts and ((isinstance(stmts[0], cst.If) and _skips_round(stmts[0])) or _alias(stmts[0])):
        # s36: `if not connected: sleep(...); continue` before the receive skips a round; s53 (batch 25 dulus_mcp
        # `local-stdout-parse-loop`): `out = self._process.stdout` then `if out is None: break` call nothing
        stmts.pop(0)
    if not stmts or not isinstance(stmts[0], cst.SimpleStatementLine):
        return False
    for small in stmts[0].body:
        value = getattr(small, "value", None)
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call) and value.func is not None:
            # asyncio.wait_for(ws.recv(), 5): the receive is the argument
            inner = [a.value for a in value.args if isinstance(a.value, (cst.Call, cst.Await))]
            candidates = [value] + [i.expression if isinstance(i, cst.Await) else i for i in inner]
            if any(isinstance(c, cst.Call) and receives(c) for c in candidates):
                return True
    return False


def _alias(stmt: cst.BaseStatement) -> bool:
    """``out = self._process.stdout``: a plain assignment that calls nothing (a name for what the receive reads)."""
    return (isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, cst.Assign) for s in stmt.body)
            and not any(isinstance(n, (cst.Call, cst.Await)) for n in _walk(stmt)))


def _skips_round(guard: cst.If) -> bool:
    """A guard whose branch ends the round (``continue``/``return``/``break``) and receives nothing itself."""
    body = _body_stmts(guard.body)
    last = body[-1] if body else None
    ends = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Continue, cst.Return, cst.Break))
    return ends and not any(isinstance(n, cst.Call) and receives(n) for n in _walk(guard))


def _received(value: cst.BaseExpression | None) -> bool:
    """``await channel.recv()``, ``queue.get()``, ``asyncio.wait_for(ws.recv(), 5)``."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return False
    inner = [a.value.expression if isinstance(a.value, cst.Await) else a.value for a in value.args]
    return any(isinstance(c, cst.Call) and receives(c) for c in [value, *inner])


def receives_item(loop: cst.For | cst.While, trynode: cst.Try) -> bool:
    """A statement of the loop's body before its ``try`` binds a name to a received message, and the ``try``
    reads the name: each round works on the message it received (see the module's docstring)."""
    names: set[str] = set()
    for stmt in _body_stmts(loop.body):
        if stmt is trynode:
            break
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and _received(small.value):
                names |= {t.target.value for t in small.targets if isinstance(t.target, cst.Name)}
            elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and _received(small.value):
                names.add(small.target.value)
    else:
        return False
    return bool(names) and any(isinstance(n, cst.Name) and n.value in names for n in _walk(trynode.body))
