"""``linter.nodes.chain_root``: the one "root of a call chain" helper (s51), on both trees."""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from smullyan.linter.nodes import chain_root


@pytest.mark.parametrize(
    "source, root",
    [
        ("client.api(x)['items'].get()", "client"),
        ("messages[-1]['content']", "messages"),
        ("self.history.append", "self"),
        ("f()()", "f"),
        ("name", "name"),
    ],
)
def test_root_of_a_chain_on_both_trees(source: str, root: str) -> None:
    a = chain_root(ast.parse(source, mode="eval").body)
    c = chain_root(cst.parse_expression(source))
    assert isinstance(a, ast.Name) and a.id == root
    assert isinstance(c, cst.Name) and c.value == root


def test_a_literal_or_other_root_stays_itself() -> None:
    assert isinstance(chain_root(ast.parse("'sep'.join(x)", mode="eval").body), ast.Constant)
    assert isinstance(chain_root(cst.parse_expression("'sep'.join(x)")), cst.SimpleString)
    assert isinstance(chain_root(cst.parse_expression("(a or b).c()")), cst.BooleanOperation)
