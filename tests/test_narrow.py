"""``linter/narrow.py``: definitions without a candidate become stubs; nothing else moves."""

from __future__ import annotations

import ast
import random
import sysconfig
from pathlib import Path

import libcst as cst
import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.narrow import narrow
from smullyan.linter.rule import Screen

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _narrow(text: str, wanted: set[int]) -> str | None:
    tree = ast.parse(text)
    return narrow(text, tree, wanted, Screen(tree).binders)


SOURCE = """\
import requests

URL = "https://x"


@decorator(
    arg=1,
)
def quiet():
    x = 1
    return x


def loud():
    return requests.get(URL)


class Client:
    \"\"\"doc\"\"\"
    retries = 3

    def __init__(self):
        self.session = requests.Session()

    def helper(self):
        return 2

    def fetch(self):
        return self.session.get(URL)

    class Inner:
        def deep(self):
            pass


class Other:
    def f(self):
        return 1
"""


def test_stubs_definitions_without_a_candidate_and_keeps_lines() -> None:
    out = _narrow(SOURCE, {15, 29})  # requests.get in loud(); self.session.get in fetch()
    assert out is not None
    before, after = SOURCE.splitlines(), out.splitlines()
    assert len(before) == len(after)
    # kept definitions, byte for byte
    for n in (*range(14, 16), *range(18, 21), *range(22, 24), *range(28, 30)):
        assert after[n - 1] == before[n - 1], n
    # stubs: same name, same indentation, on the definition's first line, its logical line going on to the
    # definition's last (s56: ``\`` continuations, not empty lines, which libcst builds three nodes for each)
    assert after[5] == "def quiet(): ...\\"
    assert after[6:11] == ["\\"] * 4 + [""]
    assert after[24:26] == ["    def helper(): ...\\", ""]
    assert after[30:33] == ["    class Inner: ...\\", "\\", ""]
    assert after[35:38] == ["class Other: ...\\", "\\", ""]
    # __init__ assigns self.session, which fetch() reads: kept although it holds no candidate
    assert after[21] == "    def __init__(self):"
    # the result parses, and to the same statement shape wherever a statement was kept
    tree = ast.parse(out)
    assert [type(s).__name__ for s in tree.body] == [type(s).__name__ for s in ast.parse(SOURCE).body]
    cst.parse_module(out)


def test_nothing_to_drop_gives_none() -> None:
    assert _narrow(SOURCE, set(range(1, 40))) is None
    assert _narrow("x = 1\n", {1}) is None


def test_global_statement_keeps_its_function() -> None:
    src = (
        "import requests\nclient = None\ndef init():\n    global client\n    client = requests.Session()\n"
        "def use():\n    return client.get('u')\ndef other():\n    return 1\n"
    )
    out = _narrow(src, {7})
    assert out is not None
    assert "    global client\n    client = requests.Session()\n" in out
    assert "def other(): ...\\\n\n" in out
    assert [(f.code, f.line) for f in lint_source(src, "m.py", Config.default())] == [("TFH201", 7)]


def test_crlf_tabs_and_missing_final_newline() -> None:
    src = "import requests\r\nclass A:\r\n\tdef a(self):\r\n\t\treturn 1\r\n\tdef b(self):\r\n\t\treturn requests.get('u')"
    out = _narrow(src, {6})
    assert out is not None
    assert out.split("\r\n")[2] == "\tdef a(): ...\\"
    assert out.split("\r\n")[3] == ""
    cst.parse_module(out)
    assert out.endswith("\t\treturn requests.get('u')")
    ast.parse(out)


def test_bare_carriage_return_is_left_alone() -> None:
    src = "def a():\r    return 1\rdef b():\n    return 2\n"
    assert _narrow(src, {4}) is None


def test_stdlib_any_spots_keeps_shape_and_parses() -> None:
    """Whatever lines are wanted, the result parses (ast and libcst) with the kept lines intact."""
    rng = random.Random(7)
    for name in ("subprocess.py", "smtplib.py", "asyncio/base_events.py", "argparse.py", "typing.py"):
        text = (STDLIB / name).read_text(encoding="utf-8")
        n = text.count("\n")
        for _ in range(3):
            wanted = {rng.randint(1, n) for _ in range(rng.randint(1, 8))}
            out = _narrow(text, wanted)
            assert out is not None
            assert out.count("\n") >= n
            tree = ast.parse(out)
            assert len(tree.body) == len(ast.parse(text).body)
            lines, new = text.splitlines(), out.splitlines()
            for w in wanted:
                assert new[w - 1] == lines[w - 1]
            cst.parse_module(out)


def test_finding_in_a_method_through_an_attribute_set_elsewhere() -> None:
    """The engine narrows, and still resolves self.session built in __init__."""
    src = SOURCE + "\n" + "\n".join(f"def pad{i}():\n    return {i}\n" for i in range(30))
    findings = lint_source(src, "m.py", Config.default())
    assert [(f.code, f.line) for f in findings] == [("TFH201", 15), ("TFH201", 29)]


def test_decorator_expression_below_its_at_sign() -> None:
    src = "import requests\n@(\n    deco\n)\ndef a():\n    return 1\n@\\\nother\ndef b():\n    return 2\ndef c():\n    return requests.get('u')\n"
    out = _narrow(src, {12})
    assert out is not None
    assert out.splitlines()[1:10] == ["def a(): ...\\", "\\", "\\", "\\", "", "def b(): ...\\", "\\", "\\", ""]
    ast.parse(out)
    assert [(f.code, f.line) for f in lint_source(src, "m.py", Config.default())] == [("TFH201", 12)]


def test_engine_falls_back_to_the_whole_file_when_the_narrowed_text_does_not_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from smullyan.linter import engine

    monkeypatch.setattr(engine, "narrow", lambda *args: "def (:\n")
    findings = lint_source(SOURCE, "m.py", Config.default())
    assert [(f.code, f.line) for f in findings] == [("TFH201", 15), ("TFH201", 29)]


def test_a_stub_keeps_a_one_line_return_annotation() -> None:
    """s48: the resolver reads what a helper returns from its annotation, stubbed or not."""
    src = (
        "import sqlite3\n"
        "def _connect() -> sqlite3.Connection:\n    return sqlite3.connect('x')\n"
        "async def _name() -> 'Café':\n    return 1\n"
        "def _long() -> dict[\n    str, int\n]:\n    return {}\n"
        "def _none():\n    return 2\n"
        "def f():\n    return 3\n"
    )
    out = _narrow(src, {13})
    assert out is not None
    lines = out.splitlines()
    assert lines[1] == "def _connect() -> sqlite3.Connection: ...\\"
    assert lines[3] == "def _name() -> 'Café': ...\\"
    assert lines[5] == "def _long(): ...\\"  # an annotation over several lines: a plain stub
    assert lines[9] == "def _none(): ...\\"
    assert lines[12] == "    return 3"
    ast.parse(out)
    cst.parse_module(out)
