"""``lexical_children`` is libcst's ``children``: the same nodes, in the same order, read from the fields (s50)."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import libcst as cst
import pytest

from smullyan.linter import lexical
from smullyan.linter.lexical import lexical_children

ROOT = Path(__file__).resolve().parent.parent

# every form of the grammar the linter meets, in one module (decorators, async, walrus, match, f-strings with a
# format spec, star imports, position-only and keyword-only parameters, comments and blank lines)
SAMPLE = '''\
"""Docstring."""
from __future__ import annotations
from os import *
from . import sibling as other, thing
import a.b as c, d  # a comment


@decorator(1, key=2)
@other.deco
async def f(a, /, b: int = 1, *args: str, c, d=2, **kw) -> dict[str, int] | None:
    """Doc."""
    global g
    x = y = [i * 2 for i in range(3) if i if not i] ; z: int = 3
    x += 1
    w = {k: v for k, v in kw.items()}, {*args}, {**kw}, (yield), (await g(*args, **kw))
    if (n := len(x)) > 1 and not b or c is not None:
        return f"{x!r:>{n}} {y=} {z:.2f}" "tail" r'raw'
    elif x in y:
        pass
    else:
        del x[0], y[1:2:3]
    for i, j in zip(a, b):
        continue
    else:
        break
    while True:
        break
    try:
        raise ValueError("x") from None
    except (KeyError, TypeError) as e:
        assert e, "msg"
    else:
        ...
    finally:
        nonlocal_value = lambda q, *r, s=1, **t: q if r else s
    try:
        pass
    except* OSError:
        pass
    async with open(x) as h, open(y):
        async for item in h:
            print(item, sep="", end="\\n")
    with (open(a) as p1, open(b) as p2):
        pass
    match command.split():
        case [action, *rest] if rest:
            return {"a": action, **rest}
        case Point(x=0, y=yy) | {"k": 1, **others}:
            return -x ** 2 // 3 @ m << 1 >> 2 & 3 | 4 ^ ~5
        case (1 | 2) as num:
            return num
        case _:
            return None


class C(Base, metaclass=Meta):
    attr: int = 0

    def method(self) -> None:
        self.attr -= 1
        return self.attr[::2], self.attr[1], x if y else z
'''


def _nodes(module: cst.Module) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def _same(node: cst.CSTNode) -> bool:
    mine, theirs = lexical_children(node), node.children
    return len(mine) == len(theirs) and all(a is b for a, b in zip(mine, theirs))


def visited_fields() -> dict[str, str]:
    """The table :mod:`smullyan.linter.lexical` records, read from libcst's own ``_visit_and_replace_children``."""
    out: dict[str, str] = {}
    for name in dir(cst):
        cls = getattr(cst, name)
        if isinstance(cls, type) and issubclass(cls, cst.CSTNode) and not inspect.isabstract(cls) \
                and dataclasses.is_dataclass(cls):
            source = inspect.getsource(cls._visit_and_replace_children)
            out[cls.__name__] = " ".join(dict.fromkeys(re.findall(r'visit_\w+\(\s*self,\s*"(\w+)"', source)))
    return out


needs_table_release = pytest.mark.skipif(
    lexical._installed_libcst() != lexical.TABLE_LIBCST,
    reason="another libcst release: lexical_children falls back to libcst's children (tested below)")


@needs_table_release
def test_the_table_is_libcsts_visiting_order() -> None:
    assert lexical._VISITED == visited_fields()


def test_the_table_is_used_only_for_its_libcst_release() -> None:
    assert bool(lexical._ORDER) == (lexical._installed_libcst() == lexical.TABLE_LIBCST)


def test_every_node_of_the_sample_has_libcsts_children() -> None:
    module = cst.parse_module(SAMPLE)
    nodes = _nodes(module)
    assert len({type(n) for n in nodes}) > 100  # the sample covers most node types
    assert all(_same(n) for n in nodes)


@pytest.mark.parametrize("path", ["linter/engine.py", "linter/names.py", "rules/retries/paths.py",
                                  "rules/errors/taint.py", "runtime/_retry.py"])
def test_every_node_of_real_modules_has_libcsts_children(path: str) -> None:
    module = cst.parse_module((ROOT / path).read_text())
    assert all(_same(n) for n in _nodes(module))


def test_a_class_not_in_the_table_falls_back_to_libcst() -> None:
    node = cst.parse_expression("f(x)")
    saved = lexical._ORDER.pop(cst.Call)
    try:
        assert [type(c) for c in lexical_children(node)] == [type(c) for c in node.children]
    finally:
        lexical._ORDER[cst.Call] = saved
