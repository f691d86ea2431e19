"""The resolver's scope queries (where a node is) and the screen's ``calls_of``.

Each snippet marks calls with ``# where: <what>``; a probe visitor asks the
resolver at every call and the answer must be exactly what the marker says.
These are the questions every rule used to answer with its own stack.
"""

from __future__ import annotations

import ast
import re

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from smullyan.linter.engine import _Dispatch
from smullyan.linter.names import Names
from smullyan.linter.rule import Screen


def _describe(names: Names) -> str:
    func = names.function
    fn = "-" if func is None else ("lambda" if isinstance(func, cst.Lambda) else func.name.value)
    handler = names.handler
    h = "-" if handler is None else (handler.name or "bare")
    outer = ",".join(x.name or "bare" for x in names.handlers)
    loop = names.loop
    lp = "-" if loop is None else type(loop).__name__.lower()
    tr = "try" if names.enclosing_try is not None else "-"
    return f"fn={fn} async={int(names.is_async)} handler={h} handlers={outer or '-'} loop={lp} {tr}"


class _Probe:
    def __init__(self, names: Names) -> None:
        self.names = names
        self.seen: list[tuple[cst.Call, str]] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.seen.append((node, _describe(self.names)))


def where(src: str) -> dict[int, str]:
    module = cst.parse_module(src)
    names = Names(module)
    probe = _Probe(names)
    _Dispatch([("names", names), ("probe", probe)]).walk(module)
    pos = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    out: dict[int, str] = {}
    for node, text in probe.seen:
        out.setdefault(pos[node].start.line, text)
    return out


def marked(src: str) -> dict[int, str]:
    return {n: m.group(1) for n, line in enumerate(src.splitlines(), 1) if (m := re.search(r"# where: (.*?)\s*$", line))}


SRC = """\
import asyncio, time
f()  # where: fn=- async=0 handler=- handlers=- loop=- -
async def main():
    time.sleep(1)  # where: fn=main async=1 handler=- handlers=- loop=- -
    cb = lambda: time.sleep(1)  # where: fn=lambda async=0 handler=- handlers=- loop=- -
    def inner():
        time.sleep(1)  # where: fn=inner async=0 handler=- handlers=- loop=- -
    class Local:
        x = time.sleep(1)  # where: fn=main async=1 handler=- handlers=- loop=- -
    for attempt in range(3):  # where: fn=main async=1 handler=- handlers=- loop=- -
        try:
            g()  # where: fn=main async=1 handler=- handlers=- loop=for try
        except ValueError as e:
            h(e)  # where: fn=main async=1 handler=e handlers=e loop=for try
            try:
                k()  # where: fn=main async=1 handler=e handlers=e loop=for try
            except:
                m()  # where: fn=main async=1 handler=bare handlers=e,bare loop=for try
                def later():
                    n()  # where: fn=later async=0 handler=- handlers=- loop=- -
        else:
            o()  # where: fn=main async=1 handler=- handlers=- loop=for try
    else:
        p()  # where: fn=main async=1 handler=- handlers=- loop=- -
    while q():  # where: fn=main async=1 handler=- handlers=- loop=- -
        r()  # where: fn=main async=1 handler=- handlers=- loop=while -
    while True: s()  # where: fn=main async=1 handler=- handlers=- loop=while -
"""


def test_scope_queries_answer_where_a_node_is() -> None:
    assert where(SRC) == marked(SRC)


def test_a_class_body_inside_a_handler_is_still_in_it() -> None:
    src = "try:\n    pass\nexcept Exception as exc:\n    class C:\n        b()  # where: fn=- async=0 handler=exc handlers=exc loop=- try\n"
    assert where(src) == marked(src)


class _Builtins:
    def __init__(self, names: Names) -> None:
        self.names = names
        self.seen: list[tuple[str, bool]] = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self.seen.append((node.func.value, self.names.is_builtin(node.func.value)))


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("str(1)\n", [("str", True)]),
        ("def str(x):\n    return x\nstr(1)\n", [("str", False)]),
        ("class Exception(BaseException): pass\nException()\n", [("Exception", False)]),
        ("from mylib import open\nopen('p')\n", [("open", False)]),
        ("def f(type):\n    return type(1)\ntype(2)\n", [("type", False), ("type", True)]),
        ("def f():\n    global len\n    return len([])\nlen = 3\n", [("len", False)]),
        ("class C:\n    repr = 1\n    def m(self):\n        return repr(self)\n", [("repr", True)]),
        ("helper()\n", [("helper", False)]),
    ],
)
def test_is_builtin_sees_shadowing(src: str, expected: list[tuple[str, bool]]) -> None:
    module = cst.parse_module(src)
    names = Names(module)
    probe = _Builtins(names)
    _Dispatch([("names", names), ("probe", probe)]).walk(module)
    assert probe.seen == expected


# ---------------------------------------------------------------- Screen.calls_of


def calls_of(src: str, *qualified: str) -> list[int]:
    return [c.lineno for c in Screen(ast.parse(src)).calls_of(set(qualified))]


def test_calls_of_resolves_imports_and_aliases() -> None:
    src = """\
import time
import time as t
from time import sleep
from time import sleep as nap
from time import time as now
time.sleep(1)
t.sleep(1)
sleep(1)
nap(1)
now()
time.time()
"""
    assert calls_of(src, "time.sleep") == [6, 7, 8, 9]


def test_calls_of_ignores_the_unrelated_call_that_calls_to_admitted() -> None:
    # the stumble: a `time.sleep` rule made this file a candidate through `time()`
    assert calls_of("from time import time\ntime()\n", "time.sleep") == []
    assert calls_of("import os\nos.sleep()\nsleep()\n", "time.sleep") == []  # time is not imported at all


def test_calls_of_keeps_what_only_the_resolver_can_decide() -> None:
    src = """\
import requests
s = requests.Session()
s.get("x")
get = requests.get
get("x")
requests.Session().get("x")
requests.post("x")
"""
    assert calls_of(src, "requests.Session.get", "requests.get") == [3, 5, 6]
    # an import rebound by an assignment may mean something else: kept
    assert calls_of("import time\nimport fake as time\ntime = other\ntime.sleep()\n", "time.sleep") == [4]


def test_calls_of_builtins_are_dotless_names() -> None:
    src = "open('p')\nio.open('p')\nfrom x import open\n"
    assert calls_of(src, "open") == []  # the only bare open is the one the import binds
    assert calls_of("open('p')\n", "open") == [1]


def test_calls_of_canonicalises() -> None:
    src = "from requests.sessions import Session\nSession().get('x')\nimport requests.api\nrequests.api.get('x')\n"
    assert calls_of(src, "requests.Session.get", "requests.get") == [2, 4]
