"""``string_literal`` (linter/nodes.py): the one reader of a string literal's text, in its three modes (s42: it
replaced four private copies in effects.py, the union model, the error taint and the timeout kwargs)."""

from __future__ import annotations

import libcst as cst
import pytest

from smullyan.linter.api import string_literal


def _expr(src: str) -> cst.BaseExpression:
    return cst.parse_expression(src)


@pytest.mark.parametrize(
    "src, plain, concatenated, pieces",
    [
        ('"a"', "a", "a", "a"),
        ("r'a\\n'", "a\\n", "a\\n", "a\\n"),
        ('"""a"""', "a", "a", "a"),
        ('b"a"', None, None, None),
        ('"a" "b"', None, "ab", "ab"),
        ('"a" f"{x}b"', None, None, "ab"),
        ('b"a" b"b"', None, None, None),
        ('f"x={x}!"', None, None, "x=!"),
        ('f"{x}"', None, None, None),
        ('"a" + x', None, None, "a{}"),
        ('x + "b"', None, None, "{}b"),
        ("x + y", None, None, None),
        ("x", None, None, None),
        ("1", None, None, None),
    ],
)
def test_string_literal_modes(src: str, plain: str | None, concatenated: str | None, pieces: str | None) -> None:
    node = _expr(src)
    assert string_literal(node) == plain
    assert string_literal(node, concatenated=True) == concatenated
    assert string_literal(node, pieces=True) == pieces


def test_no_node_is_no_text() -> None:
    assert string_literal(None) is None
    assert string_literal(None, pieces=True) is None
