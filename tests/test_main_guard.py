"""nodes.is_main_test: the one reading of ``if __name__ == "__main__":`` that TFH201's foreground callers
(``foreground_callers``) and the tools report's demo code (``tools/demos``) share (session 52; each had its own)."""

from __future__ import annotations

import ast

import pytest

from smullyan.linter.nodes import is_main_test


def _test(source: str) -> ast.expr:
    stmt = ast.parse(source).body[0]
    assert isinstance(stmt, ast.If)
    return stmt.test


@pytest.mark.parametrize("source", [
    'if __name__ == "__main__":\n    main()\n',
    "if '__main__' == __name__:\n    main()\n",
])
def test_the_guard_either_way_round(source: str) -> None:
    assert is_main_test(_test(source))


@pytest.mark.parametrize("source", [
    'if name == "__main__":\n    pass\n',                 # another name
    'if __name__ == "main":\n    pass\n',                 # another string
    'if __name__:\n    pass\n',                           # no comparison
    'if __name__ == "__main__" == x:\n    pass\n',        # a chain: not the guard
    'if __name__ in ("__main__",):\n    pass\n',          # a tuple, not the string
])
def test_other_tests_are_not_the_guard(source: str) -> None:
    assert not is_main_test(_test(source))
