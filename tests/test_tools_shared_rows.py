"""``smullyan tools`` (s52, issue 28's cost): the rows one dispatcher runs by name (plate-core's 189 branches of one
``tools/call`` answer, batch 24) share its functions and helpers, so what is read of those (its helpers, what they
call, their status-tested recursions, the JSON-RPC messages they assign) is read once per function, not once per row:
work bounds (call counts, no timing), and the rows' columns as before."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from smullyan.linter import tools
from smullyan.linter.config import Config
from smullyan.linter.tools import follow, observer, status_retry
from smullyan.rules.retries import jsonrpc_calls

from tools_support import write_tree

HEAD = '''
import json, sys
import httpx

def _write(obj):
    message = {"jsonrpc": "2.0", "result": obj}
    sys.stdout.write(json.dumps(message))

def _fetch(path, retry=True):
    response = httpx.get("https://api.example.com" + path, timeout=5)
    if response.status_code == 503 and retry:
        return _fetch(path, retry=False)
    return response.json()

def _post(path, body):
    return httpx.post("https://api.example.com" + path, json=body, timeout=5).json()

def _handle_tools_call(req_id, params):
    name = params.get("name")
    args = params.get("arguments", {}) or {}
    reply = {"jsonrpc": "2.0", "id": req_id}
    if name == "tool_0":
        payload = _fetch("/0")
'''

BRANCH = '''    elif name == "tool_{i}":
        payload = {call}("/{i}"{extra})
'''

TAIL = '''    else:
        raise ValueError(name)
    reply["result"] = payload
    _write(reply)

def run():
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("method") == "tools/call":
            _handle_tools_call(req.get("id"), req.get("params") or {})
'''


def _server(branches: int) -> str:
    return HEAD + "".join(BRANCH.format(i=i, call="_post" if i % 2 else "_fetch", extra=", args" if i % 2 else "")
                          for i in range(1, branches)) + TAIL


def _is_dispatcher(node: object) -> bool:
    return getattr(node, "name", None) == "_handle_tools_call" or (
        isinstance(node, cst.FunctionDef) and node.name.value == "_handle_tools_call")


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the dispatcher (or its body) is walked: by ``ast.walk`` anywhere, by the status recursions' and by
    the JSON-RPC messages' readers."""
    counts = {"ast": 0, "status": 0, "messages": 0, "links": 0, "reached": 0}
    bodies: set[int] = set()
    walk, in_scope, children, links = ast.walk, status_retry.walk_in_scope, jsonrpc_calls.lexical_children, observer.tool_calls

    def counted_walk(node: ast.AST) -> Any:
        counts["ast"] += _is_dispatcher(node)
        return walk(node)

    def counted_in_scope(node: cst.CSTNode) -> Any:
        counts["status"] += id(node) in bodies
        return in_scope(node)

    def counted_children(node: cst.CSTNode) -> Any:
        counts["messages"] += id(node) in bodies
        return children(node)

    def counted_links(d: Any, *args: Any) -> Any:
        counts["links"] += 1
        return links(d, *args)

    reached_by = getattr(follow, "reached_by", None)  # (none before s52: the reach was walked inside ``join``, per row)

    def counted_reached(*args: Any) -> Any:
        counts["reached"] += 1
        return reached_by(*args)  # type: ignore[misc]

    real_status = status_retry.status_recursions

    def remember(fn: cst.CSTNode, *args: Any) -> Any:
        if _is_dispatcher(fn):
            bodies.add(id(fn.body))  # type: ignore[attr-defined]
        return real_status(fn, *args)

    real_message = jsonrpc_calls._message

    def remember_message(value: cst.BaseExpression, fn: cst.FunctionDef | None, *args: Any) -> Any:
        if fn is not None and _is_dispatcher(fn):
            bodies.add(id(fn.body))
        return real_message(value, fn, *args)

    monkeypatch.setattr(ast, "walk", counted_walk)
    monkeypatch.setattr(status_retry, "walk_in_scope", counted_in_scope)
    monkeypatch.setattr(jsonrpc_calls, "lexical_children", counted_children)
    monkeypatch.setattr(observer, "tool_calls", counted_links)
    monkeypatch.setattr(follow, "reached_by", counted_reached, raising=False)
    monkeypatch.setattr("smullyan.linter.tools.facts.status_recursions", remember)
    monkeypatch.setattr(jsonrpc_calls, "_message", remember_message)
    return counts


def _run(tmp_path: Path, branches: int) -> tuple[dict[str, int], list[tools.Tool]]:
    files = write_tree(tmp_path / str(branches), {"server.py": _server(branches)})
    with pytest.MonkeyPatch.context() as mp:
        counts = _counting(mp)
        found = tools.run(files, Config()).tools
    return counts, found


def test_a_dispatchers_rows_read_its_functions_once_however_many_branches(tmp_path: Path) -> None:
    few, few_rows = _run(tmp_path, 4)
    many, many_rows = _run(tmp_path, 40)
    assert len(few_rows) == 4 and len(many_rows) == 40
    assert many["links"] == few["links"] == 1  # what the dispatcher and its helpers call: followed once
    assert many["reached"] == few["reached"] == 1  # what those reach in the run: found once, merged into each row
    assert many["status"] == few["status"] == 1  # its status-tested recursions: read once
    assert many["messages"] == few["messages"] <= 1  # the JSON-RPC messages it assigns: read once
    assert many["ast"] == few["ast"]  # its helpers (and the rest): read a fixed number of times, not once per row


def test_the_rows_sharing_a_dispatcher_keep_every_column(tmp_path: Path) -> None:
    _counts, rows = _run(tmp_path, 6)
    by_name = {t.name: t for t in rows}
    assert sorted(by_name) == [f"tool_{i}" for i in range(6)]
    first = by_name["tool_0"]
    for t in rows:  # the dispatcher's functions and helpers are each row's: the same calls, class and retries
        assert (t.calls, t.classification, t.retries, t.qualname) == (first.calls, first.classification, first.retries,
                                                                       first.qualname)
    assert first.classification == "non-idempotent-write"
    assert [r.condition for r in first.retries] == ["status 503"] and first.retries[0].helper == "_fetch"
    assert len({t.line for t in rows}) == 1 and len({tuple(t.spans) for t in rows}) == 6  # each its own branch lines
