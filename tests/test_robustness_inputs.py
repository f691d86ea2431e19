"""Odd but valid inputs lint; broken inputs give TFH001; nothing raises."""

from __future__ import annotations

import codecs
import sys

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source

CALL = "import requests\nrequests.get('x')\n"


def lint(src: bytes | str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_source(src, "m.py", Config.default())]


def test_pep263_cookie() -> None:
    src = "# -*- coding: latin-1 -*-\nimport requests\nname = 'Müller'\nrequests.get(name)\n"
    assert lint(src.encode("latin-1")) == [(4, "TFH201")]
    src16 = "# coding: cp1252\nimport requests\nx = '€'\nrequests.get(x)  # noqa\n"
    assert lint(src16.encode("cp1252")) == []


def test_bom() -> None:
    assert lint(codecs.BOM_UTF8 + CALL.encode()) == [(2, "TFH201")]
    assert lint("\ufeff" + CALL) == [(2, "TFH201")]
    assert lint(codecs.BOM_UTF8 + b"import requests\nrequests.get('x')  # noqa: TFH201\n") == []


def test_crlf_and_lone_cr() -> None:
    crlf = "import requests\r\n\r\nrequests.get('x')\r\nrequests.get('y')  # noqa\r\n"
    assert lint(crlf) == [(3, "TFH201")]
    assert lint(crlf.encode()) == [(3, "TFH201")]


def test_tabs_and_form_feeds() -> None:
    src = "import requests\n\x0c\ndef f():\n\tif True:\n\t\treturn requests.get('x')\n\x0c\n"
    [f] = lint_source(src, "m.py", Config.default())
    assert (f.line, f.code) == (5, "TFH201")
    assert f.column == 10  # two tabs then "return " (libcst counts characters)


def test_empty_and_comment_only() -> None:
    assert lint(b"") == []
    assert lint("") == []
    assert lint("# just a comment\n") == []
    assert lint("\n\n\n") == []
    assert lint("import requests") == []  # no trailing newline


def test_fifty_thousand_lines() -> None:
    body = "".join(f"x{i} = {i}\n" for i in range(49_998))
    src = "import requests\n" + body + "requests.get('x')\n"
    assert len(src.splitlines()) == 50_000
    assert lint(src) == [(50_000, "TFH201")]


NEW_SYNTAX = {
    "match (3.10)": """\
import requests
def f(cmd):
    match cmd:
        case {"url": url}:
            return requests.get(url)
        case [first, *rest] if rest:
            return first
        case _:
            return None
""",
    "except* (3.11)": """\
import requests
def f():
    try:
        pass
    except* ValueError as group:
        return requests.get("x")
""",
    "walrus and positional-only": """\
import requests
def f(a, /, b, *, c):
    if (r := requests.get(a)) is not None:
        return r
""",
    "PEP 695 generics (3.12)": """\
import requests
type Alias[T] = list[T]
def first[T](xs: list[T]) -> T:
    requests.get("x")
    return xs[0]
class Box[T]:
    pass
""",
}
EXPECT_LINE = {"match (3.10)": 5, "except* (3.11)": 6, "walrus and positional-only": 3, "PEP 695 generics (3.12)": 4}


@pytest.mark.parametrize("name", list(NEW_SYNTAX))
def test_newer_syntax_lints(name: str) -> None:
    # PEP 695 is newer than Python 3.11's own parser; libcst still parses it
    assert lint(NEW_SYNTAX[name]) == [(EXPECT_LINE[name], "TFH201")]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 701 f-strings need 3.12")
def test_pep701_fstrings() -> None:
    src = 'import requests\nx = f"{"nested"}"\nrequests.get(x)\n'
    assert lint(src) == [(3, "TFH201")]


@pytest.mark.parametrize(
    "src, line",
    [
        ("def f(:\n    pass\n", 1),
        ("x = 1\ny = (\n", 2),
        ("print 'python 2'\n", 1),
        (b"x = '\xff\xfe'\n", 1),
        (b"x = 1\x00\n", 1),
        (b"# coding: no-such-codec\nx = 1\n", 1),
        ("if True:\n  x = 1\n    y = 2\n", 3),
    ],
)
def test_unparsable_gives_one_tfh001(src: bytes | str, line: int) -> None:
    [f] = lint_source(src, "m.py", Config.default())
    assert f.code == "TFH001" and f.message.startswith("could not parse: ")
    assert f.line == line


def test_deep_nesting_and_huge_literal() -> None:
    deep = "import requests\nx = " + "(" * 90 + "1" + ")" * 90 + "\nrequests.get('x')\n"
    assert lint(deep) == [(3, "TFH201")]
    chain = "import requests\nx = " + " + ".join(["1"] * 1000) + "\nrequests.get('x')\n"
    assert lint(chain) == [(3, "TFH201")]
    # like Lib/pydoc_data/topics.py: one enormous dict literal of strings
    topics = "topics = {" + ",\n".join(f"'k{i}': 'text {i} ' * 1" for i in range(2000)) + "}\n"
    assert lint("import subprocess\n" + topics) == []


def test_no_rule_enabled_runs_no_rule_but_a_syntax_error_is_still_reported() -> None:
    assert lint_source("import requests\nrequests.get(u)\n", "m.py", Config(select=())) == []
    # TFH001 whatever is selected (as ruff reports syntax errors), unless ignored by its full code
    assert [f.code for f in lint_source("def f(:\n", "m.py", Config(select=()))] == ["TFH001"]
    assert lint_source("def f(:\n", "m.py", Config(select=(), ignore=("TFH001",))) == []
