"""The field walk answers "is this a node" once per type (s41), and TFH103's and TFH303's recursion reads share
one walk of the module.

``children`` used to ask ``isinstance(value, cst.CSTNode)`` for every field value, through libcst's ABC check;
it now caches the answer per type: it must give exactly what the ``isinstance`` definition gives, on every node
of real code. The two recursion reads (a handler that calls its own function again, and one that calls it with
a count one lower) each walked every module and every function's body; their index of functions is now built
once per module: work counted (calls of the field walk), never timed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from smullyan.linter import nodes
from smullyan.rules.retries import recursion

ROOT = Path(__file__).resolve().parent.parent


def _reference_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []
    for field in nodes._FIELDS.get(type(node)) or nodes._fields_of(type(node)):
        value = getattr(node, field)
        if isinstance(value, cst.CSTNode):
            out.append(value)
        elif type(value) is tuple or type(value) is list:
            out.extend(child for child in value if isinstance(child, cst.CSTNode))
    return out


def _sources() -> list[Path]:
    files = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "rules" / "retries").glob("*.py"))
    return files[:40]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name)
def test_children_is_the_isinstance_definition(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    stack: list[cst.CSTNode] = [module]
    seen = 0
    while stack:
        node = stack.pop()
        got = nodes.children(node)
        assert got == _reference_children(node)
        assert all(a is b for a, b in zip(got, _reference_children(node)))
        stack.extend(node.children)  # libcst's own walk: whitespace and punctuation nodes too
        seen += 1
    assert seen > 1


def test_scope_walk_does_not_enter_nested_scopes() -> None:
    module = cst.parse_module("def f():\n    x = 1\n    def g():\n        y = 2\n    lam = lambda: z\n    class C:\n        w = 3\n")
    fn = module.body[0]
    assert isinstance(fn, cst.FunctionDef)
    walked = list(nodes.walk_in_scope(fn.body))
    assert {n.value for n in walked if isinstance(n, cst.Name)} == {"x", "lam"}  # nothing inside g, C or the lambda
    assert {type(n).__name__ for n in walked} >= {"FunctionDef", "ClassDef", "Lambda"}  # yielded, not entered


SOURCE = '''\
import asyncio


class Store:
    def upsert(self, row):
        try:
            return self.write(row)
        except Exception:
            self.create_table()
            return self.upsert(row)


async def download(url, retry_count=3):
    try:
        return await client.get(url)
    except Exception:
        if retry_count > 0:
            return await download(url, retry_count=retry_count - 1)
        raise
'''


def test_the_two_recursion_reads_share_one_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    real = recursion.children

    def counted(node: Any) -> Any:
        calls[0] += 1
        return real(node)

    monkeypatch.setattr(recursion, "children", counted)
    module = cst.parse_module(SOURCE)
    found = recursion.recursive_retries(module, lambda e: ("builtins.Exception",), frozenset({"builtins.Exception"}))
    first = calls[0]
    counted_ = recursion.counted_recursions(module, lambda h: True, lambda n: False)
    assert first > 0 and calls[0] == first  # the second read walked nothing again
    assert [h.body.body[-1].body[0].value.func.attr.value for h in found] == ["upsert"]  # type: ignore[attr-defined]
    assert [name for _, name in counted_] == ["download"]
    other = cst.parse_module(SOURCE)  # an equal module, another object: walked afresh
    assert recursion.recursive_retries(other, lambda e: ("builtins.Exception",), frozenset({"builtins.Exception"}))
    assert calls[0] == 2 * first
