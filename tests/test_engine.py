"""The engine: screening, one traversal, positions, noqa, config, TFH001/TFH002."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, ClassVar

import libcst as cst
from libcst.metadata import ParentNodeProvider
import pytest

from smullyan.linter import engine, positions, registry
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path, lint_source
from smullyan.linter.findings import Finding
from smullyan.linter.rule import Rule

SRC = """\
import requests
import httpx

def f(url):
    requests.get(url)
    return httpx.get(url, timeout=None)
"""


def codes(findings: list[Finding]) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in findings]


def test_positions_and_fields() -> None:
    [a, b] = lint_source(SRC, "m.py", Config.default())
    assert (a.path, a.line, a.column, a.end_line, a.end_column, a.code, a.name) == (
        "m.py", 5, 5, 5, 22, "TFH201", "call-without-timeout"
    )
    assert "requests.get" in a.message and "timeout=" in a.message
    # TFH202 points at the offending argument
    assert (b.line, b.code) == (6, "TFH202")
    assert SRC.splitlines()[5][b.column - 1 : b.end_column - 1] == "timeout=None"


def test_bytes_and_str_agree_and_sorted() -> None:
    as_str = lint_source(SRC, "m.py", Config.default())
    as_bytes = lint_source(SRC.encode(), "m.py", Config.default())
    assert as_str == as_bytes
    keys = [(f.line, f.column, f.code) for f in as_str]
    assert keys == sorted(keys)


@pytest.mark.parametrize(
    "comment, suppressed",
    [
        ("# noqa", True),
        ("# noqa: TFH201", True),
        ("#noqa:TFH201", False),  # flake8 reads only "# noqa" with one space
        ("# NOQA: tfh201", False),  # codes compare case-sensitively in flake8
        ("# NOQA:TFH201", True),
        ("# noqa : TFH202", True),  # no colon right after noqa: flake8 sees a blanket noqa
        ("# noqa: TFH2", True),
        ("# noqa: E501,TFH201", True),
        ("# noqa: TFH202", False),
        ("# no qa", False),
    ],
)
def test_noqa(comment: str, suppressed: bool) -> None:
    src = f"import requests\nrequests.get('x')  {comment}\n"
    found = lint_source(src, "m.py", Config.default())
    assert (found == []) is suppressed
    assert codes(lint_source(src, "m.py", Config.default(), apply_noqa=False)) == [(2, "TFH201")]


def test_config_selection_applies() -> None:
    cfg = Config.default()
    assert codes(lint_source(SRC, "m.py", cfg.with_overrides(select=["TFH202"]))) == [(6, "TFH202")]
    assert codes(lint_source(SRC, "m.py", cfg.with_overrides(ignore=["TFH2"]))) == []
    pfi = Config(per_file_ignores=(("m.py", ("TFH201",)),))
    assert codes(lint_source(SRC, "m.py", pfi)) == [(6, "TFH202")]
    assert codes(lint_source(SRC, "other.py", pfi)) == [(5, "TFH201"), (6, "TFH202")]


def test_unparsable_is_tfh001_at_its_line() -> None:
    [f] = lint_source("x = 1\ny = (\n", "bad.py", Config.default())
    assert f.code == "TFH001" and f.name == "could-not-parse"
    assert f.message.startswith("could not parse: ")
    assert f.line >= 2


def test_tfh001_alone_still_reports_a_parse_error() -> None:
    only_parse = Config.default().with_overrides(select=["TFH001"])
    [f] = lint_source("def f(:\n", "bad.py", only_parse)
    assert f.code == "TFH001"
    assert lint_source("import requests\nrequests.get(u)\n", "ok.py", only_parse) == []
    # whatever is selected (as ruff reports syntax errors); only its full code ignored turns it off
    for narrowed in ({"select": ["TFH2"]}, {"select": ["TFH2"], "ignore": ["TFH0"]}, {"ignore": ["TFH"]}):
        [f] = lint_source("def f(:\n", "bad.py", Config.default().with_overrides(**narrowed))
        assert f.code == "TFH001", narrowed
    assert lint_source("def f(:\n", "bad.py", Config.default().with_overrides(ignore=["TFH001"])) == []
    per_file = Config(per_file_ignores=(("bad.py", ("TFH001",)),), select=("TFH2",))
    assert lint_source("def f(:\n", "bad.py", per_file) == []
    assert [f.code for f in lint_source("def f(:\n", "bad.py", Config(per_file_ignores=(("bad.py", ("TFH",)),)))] == ["TFH001"]


def test_unreadable_file_is_tfh001(tmp_path: Path) -> None:
    [f] = lint_path(tmp_path / "missing.py", Config.default())
    assert f.code == "TFH001" and "cannot read" in f.message


def test_lint_path_reads_bytes_with_cookie(tmp_path: Path) -> None:
    p = tmp_path / "latin.py"
    p.write_bytes("# -*- coding: latin-1 -*-\nimport requests\ns = 'café'\nrequests.post('x')\n".encode("latin-1"))
    assert codes(lint_path(p, Config.default())) == [(4, "TFH201")]


class Boom(Rule):
    code = "TFH999"
    name = "boom"
    summary = "crashes"
    message = "never"
    docs = ""

    def visit_Return(self, node: cst.Return) -> None:
        raise ZeroDivisionError("kaboom")


def test_crashing_rule_is_tfh002_and_others_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_RULES", [*registry.all_rules(), Boom])
    found = lint_source(SRC, "m.py", Config.default())
    assert codes(found) == [(5, "TFH201"), (6, "TFH002"), (6, "TFH202")]
    crash = found[1]
    assert crash.message == "internal error in boom: ZeroDivisionError: kaboom"
    assert crash.name == "internal-error"


def test_no_candidate_means_no_libcst_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = cst.parse_module
    monkeypatch.setattr(engine.cst, "parse_module", lambda src: calls.append(src) or real(src))
    lint_source("import os\nos.getcwd()\n", "m.py", Config.default())
    assert calls == []
    lint_source(SRC, "m.py", Config.default())
    assert len(calls) == 1


def test_positions_only_computed_when_something_was_found(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    real = engine.MetadataWrapper

    def spy(module: cst.Module, **kw: Any) -> Any:
        made.append(module)
        return real(module, **kw)

    monkeypatch.setattr(engine, "MetadataWrapper", spy)
    monkeypatch.setattr(positions, "MetadataWrapper", spy)
    assert lint_source("import requests\nrequests.get('x', timeout=3)\n", "m.py", Config.default()) == []
    assert made == []
    assert lint_source("import requests\nrequests.get('x')\n", "m.py", Config.default())
    assert len(made) == 1


def test_flake8_tree_is_used_for_the_screen() -> None:
    # a tree that says "nothing imported" means no candidate: the source is not parsed
    empty = ast.parse("")
    assert lint_source(SRC, "m.py", Config.default(), tree=empty) == []
    assert codes(lint_source(SRC, "m.py", Config.default(), tree=ast.parse(SRC))) == [(5, "TFH201"), (6, "TFH202")]


def test_codes_argument_narrows_rules() -> None:
    assert codes(lint_source(SRC, "m.py", Config.default(), codes=frozenset({"TFH202"}))) == [(6, "TFH202")]


def test_registry_describes_rules_and_pseudo_codes() -> None:
    rules = registry.all_rules()
    assert [r.code for r in rules] == sorted(r.code for r in rules)
    assert {"TFH201", "TFH202", "TFH401"} <= {r.code for r in rules}
    name, summary, docs = registry.describe("TFH001")
    assert name == "could-not-parse" and summary and "## What it does" in docs
    assert registry.describe("TFH002")[0] == "internal-error"
    assert registry.describe("tfh201")[0] == "call-without-timeout"
    assert registry.describe("call-without-timeout")[0] == "call-without-timeout"
    with pytest.raises(KeyError):
        registry.describe("TFH998")
    assert registry.all_codes()[:2] == ["TFH001", "TFH002"]


TRICKY = '''\
"""Module docstring."""
# a comment before the imports

import requests; import subprocess


@decorator(
    arg=1,
)
def f(x):  # comment
    return requests.get(x)

class C:
    """Doc."""

    # comment
    @property
    def p(self):
        return [subprocess.run(["ls"]),
                requests.post("y")]
def tabs():
\treturn 1
if True: requests.put("z")
x = 1; requests.head("h")
class Outer(Base,
            metaclass=M):
    x = 1; y = 2
    class Inner:
        def m(self):
            a = 1
            return requests.get(
                  "deep")
    def n(self): pass
    z = requests.delete("q")
'''


def test_statement_local_positions_match_full_module_positions() -> None:
    module = cst.parse_module(TRICKY)
    calls: list[cst.CSTNode] = []
    tops: list[int] = []
    for i, stmt in enumerate(module.body):
        for node in _calls_in(stmt):
            calls.append(node)
            tops.append(i)
    assert len(calls) == 7
    wanted: list[tuple[cst.CSTNode, int | None]] = list(zip(calls, tops))
    fast = positions.find_positions(module, ast.parse(TRICKY), wanted, None)
    full = positions.find_positions(module, None, wanted, None)
    assert [fast[n] for n in calls] == [full[n] for n in calls]
    assert [full[n][0] for n in calls] == [11, 19, 20, 23, 24, 31, 34]


def _calls_in(node: cst.CSTNode) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class V(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            if isinstance(n.func, cst.Attribute) and n.func.attr.value in ("get", "run", "post", "put", "head", "delete"):
                found.append(n)

    node.visit(V())
    return found


def test_noqa_follows_flake8_line_grouping() -> None:
    src = (
        "import requests\n"
        "requests.get(\n    'x',\n)  # noqa: TFH201\n"  # inside brackets: each line on its own
        "requests.get(  # noqa\n    'x',\n)\n"
        "x = requests.get('''a\nb''')  # noqa\n"  # a multi-line string is one group
        "y = requests.get('x'\\\n    )  # noqa\n"  # so is a backslash continuation
    )
    assert codes(lint_source(src, "m.py", Config.default())) == [(2, "TFH201")]


class NeedsParents(Rule):
    code = "TFH998"
    name = "needs-parents"
    summary = "test rule with metadata"
    message = "call inside {parent}"
    docs = ""
    METADATA_DEPENDENCIES = (ParentNodeProvider,)

    def visit_Call(self, node: cst.Call) -> None:
        parent = self.get_metadata(ParentNodeProvider, node)
        self.report(node, parent=type(parent).__name__)


def test_metadata_resolved_once_only_for_rules_that_declare_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_rules = registry.all_rules()
    resolved: list[set[object]] = []
    real = engine.MetadataWrapper.resolve_many

    def spy(self: Any, providers: Any) -> Any:
        resolved.append(set(providers))
        return real(self, providers)

    monkeypatch.setattr(engine.MetadataWrapper, "resolve_many", spy)
    # the real rules declare no metadata: a clean candidate file builds no wrapper at all
    lint_source("import requests\nrequests.get('x', timeout=1)\n", "m.py", Config.default())
    assert resolved == []
    monkeypatch.setattr(registry, "_RULES", [*real_rules, NeedsParents])
    found = lint_source("f(g())\n", "m.py", Config.default())
    assert [f.message for f in found] == ["call inside Expr", "call inside Arg"]
    assert sum(ParentNodeProvider in p for p in resolved) == 1  # once for the file


@pytest.mark.parametrize("enabled", [True, False])
def test_cycle_collector_paused_during_a_file_and_restored(monkeypatch: pytest.MonkeyPatch, enabled: bool) -> None:
    import gc

    seen: list[bool] = []
    real = cst.parse_module
    monkeypatch.setattr(engine.cst, "parse_module", lambda src: seen.append(gc.isenabled()) or real(src))
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        assert codes(lint_source(SRC, "m.py", Config.default())) == [(5, "TFH201"), (6, "TFH202")]
        assert seen == [False]
        assert gc.isenabled() is enabled
        monkeypatch.setattr(engine, "_lint_rules", lambda *a: 1 / 0)  # the engine fails: still restored
        assert codes(lint_source(SRC, "m.py", Config.default())) == [(1, "TFH002")]
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_a_definition_libcst_cannot_read_is_left_out_not_reported_as_unparseable() -> None:
    # ``(x): int`` is valid Python (ast accepts it) that libcst's grammar rejects
    src = (
        "import requests\n"
        "def odd(url):\n"
        "    global G\n"
        "    (G): int\n"
        "    return requests.get(url)\n"
        "def fetch(url):\n"
        "    return requests.get(url)\n"
    )
    config = Config.default().with_overrides(select=["TFH201", "TFH0"])
    found = [(f.line, f.code) for f in lint_source(src, "odd.py", config)]
    assert found == [(7, "TFH201")]
