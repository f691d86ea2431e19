"""A hand loop's status test that gives up on the whole 4xx range, 429 included (TFH104; s38 from loops.py).

``if 400 <= status < 500: raise`` in a retry loop makes a 429 permanent. So does a test whose 4xx
range is left by an earlier one (``if status < 400: return``, then ``if status < 500 or attempt > n:
give up``; an ``elif`` after ``if status < 300``).
"""

from __future__ import annotations

import libcst as cst

from .data import Loop
from .literals import _SAMPLE, _whole_4xx, status_set
from .loops import _exits
from .steps import body_stmts as _body_stmts
from .status_loops import all_nodes as _walk


def _gives_up_on_4xx(statuses: frozenset[int]) -> bool:
    """Every 4xx, 3xx at most besides (what is left of ``status < 500`` after ``status < 300`` left)."""
    fours = frozenset(s for s in _SAMPLE if 400 <= s < 500)
    return _whole_4xx(statuses) or (fours <= statuses and all(300 <= s < 500 for s in statuses))


def _permanent_4xx_test(loop: Loop) -> cst.CSTNode | None:
    """In a hand loop: ``if <whole 4xx range>: raise/return/break``, with no 429 handled anywhere in the loop."""
    code = cst.Module([]).code_for_node(loop.node)
    if "429" in code or "TOO_MANY_REQUESTS" in code or "RateLimit" in code or "rate_limit" in code.lower():
        return None
    # s38: the statuses an earlier test of the same block already left on (`if status < 400: return`, then
    # `if status < 500 or attempt > n: give up`), or an earlier branch of the chain took, are not the next test's
    caught = _caught_names(loop)
    for block in [n for n in _walk(loop.node) if isinstance(n, cst.IndentedBlock)]:
        errors_only = caught.get(id(block), frozenset())
        decided: frozenset[int] = frozenset()
        for stmt in block.body:
            branch: cst.BaseStatement | cst.Else | None = stmt
            taken = decided
            while isinstance(branch, cst.If):
                s = status_set(branch.test)
                if s is not None and errors_only & _root_names(branch.test):
                    # s38: the status of a caught error (`except HTTPStatusError as e: if e.response.status_code < 500:
                    # break`) is an error status: `< 500` there is the whole 4xx range
                    s = frozenset(x for x in s if x >= 400)
                stmts = _body_stmts(branch.body)
                exits = bool(stmts) and _exits(stmts[-1])
                if s is not None and exits and (_gives_up_on_4xx(s) or _gives_up_on_4xx(s - taken)):
                    return branch.test
                if s is None:
                    break  # an earlier branch took statuses not read (`in RETRYABLE`): the rest of the chain is unknown
                if exits and branch is stmt and branch.orelse is None:
                    decided |= s
                taken |= s
                branch = branch.orelse
    return None


def _caught_names(loop: Loop) -> dict[int, frozenset[str]]:
    """For each block under an ``except ... as e`` of the loop: the names bound to the caught exception there."""
    out: dict[int, frozenset[str]] = {}
    for handler in [n for n in _walk(loop.node) if isinstance(n, cst.ExceptHandler)]:
        if handler.name is None or not isinstance(handler.name.name, cst.Name):
            continue
        bound = frozenset({handler.name.name.value})
        for block in [n for n in _walk(handler.body) if isinstance(n, cst.IndentedBlock)]:
            out[id(block)] = out.get(id(block), frozenset()) | bound
    return out


def _root_names(test: cst.BaseExpression) -> frozenset[str]:
    """The names at the root of the status attributes a test reads (``e`` of ``e.response.status_code``)."""
    roots = set()
    for n in _walk(test):
        if isinstance(n, cst.Attribute) and n.attr.value in ("status_code", "status"):
            head: cst.BaseExpression = n.value
            while isinstance(head, cst.Attribute):
                head = head.value
            if isinstance(head, cst.Name):
                roots.add(head.value)
    return frozenset(roots)
