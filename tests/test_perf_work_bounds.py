"""Work bounds (call counts, no timing) for the shortcuts session 42's performance work added: each holds that the
cheap answer is taken where it must be, and that the slow path still runs where it can matter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.rules.errors import evidence

WORKER = '''\
class Worker:
    def helper(self):
        return 1

    def run(self, name):
        try:
            return self.helper()
        except Exception as e:
            return f"failed: {e}"
'''

DISPATCHER = WORKER + '''
    def serve(self, name):
        return getattr(self, name)()
'''


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = evidence.serves_by_name

    def counted(*args: Any) -> bool:
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(evidence, "serves_by_name", counted)
    return calls


@pytest.mark.parametrize("source, read", [(WORKER, False), (DISPATCHER, True)])
def test_a_class_is_read_for_serving_by_name_only_when_the_module_calls_getattr_self(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, source: str, read: bool
) -> None:
    calls = _counted(monkeypatch)
    path = tmp_path / "worker.py"
    path.write_text(source)
    lint_source(source, str(path), Config(select=("TFH401",)))
    assert (calls[0] > 0) is read


def test_the_engine_parses_without_libcsts_node_check_and_restores_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst as cst

    calls = [0]
    real = cst.Name._validate

    def counted(self: cst.Name) -> None:
        calls[0] += 1
        real(self)

    monkeypatch.setattr(cst.Name, "_validate", counted)
    from smullyan.linter import engine

    parses = [0]
    parse = engine._parse_module

    def counted_parse(text: str | bytes) -> cst.Module:
        parses[0] += 1
        return parse(text)

    monkeypatch.setattr(engine, "_parse_module", counted_parse)
    check = cst.CSTNode.__dict__["__post_init__"]
    typed = WORKER.replace('f"failed: {e}"', 'f"failed: {type(e).__name__}"')  # no finding: no fix nodes built
    assert lint_source(typed, "tools/worker.py", Config(select=("TFH401",))) == []
    assert parses[0] == 1 and calls[0] == 0  # parsed (TFH401 is a candidate in a tools module) without the check
    assert cst.CSTNode.__dict__["__post_init__"] is check
    assert [f.code for f in lint_source("def f(:\n", "bad.py", Config())] == ["TFH001"]
    assert cst.CSTNode.__dict__["__post_init__"] is check  # restored after a failed parse too
    cst.Name("x")
    assert calls[0] == 1  # a node built by hand is checked as ever


# ---------------------------------------------------------------- TFH401's screen reads where the text can go (s42)

_UNREAD = """\
import json

class Store:
    def load(self, key):
        try:
            data = json.loads(self.read(key))
        except ValueError as e:
            return {"ok": False, "error": str(e)}
        return data
"""

# handlers the screen no longer admits: the text reaches nothing TFH401 reports
_NOT_PARSED = {
    "unread": _UNREAD,  # no evidence that a model reads what `load` returns
    "ends-in-raise": """\
from langchain_core.tools import tool

@tool
def fetch(url):
    try:
        return get(url)
    except OSError as e:
        detail = str(e)
        raise RuntimeError(detail)
""",
    "returns-only-before": """\
from langchain_core.tools import tool

@tool
def fetch(url):
    if not url:
        return "no url"
    try:
        get(url)
    except OSError as e:
        detail = str(e)
        log(detail)
""",
}

# the same kind of handler with each piece of evidence the rule reads: still parsed, still reported
_PARSED = {
    "tools-module": ("tools/store.py", _UNREAD),
    "tool-decorator": ("store.py", """\
import json
from langchain_core.tools import tool as t

@t
def load(key):
    try:
        data = json.loads(read(key))
    except ValueError as e:
        return {"ok": False, "error": str(e)}
    return data
"""),
    "tool-base-class": ("store.py", _UNREAD.replace("import json\n", "import json\nfrom langchain_core.tools import BaseTool as B\n")
                        .replace("class Store:", "class Store(B):").replace("def load(self, key)", "def _run(self, key)")),
    "tool-result": ("store.py", _UNREAD.replace('return {"ok": False, "error": str(e)}', "return ActionResult(error=str(e))")),
    "message": ("store.py", _UNREAD.replace("import json\n", "import json\nfrom langchain_core.messages import ToolMessage as TM\n")
                .replace('return {"ok": False, "error": str(e)}', 'self.history.append(TM(content=str(e), tool_call_id="1"))')),
    "chat-dict": ("store.py", _UNREAD.replace('return {"ok": False, "error": str(e)}',
                                              'self.history.append({"role": "tool", "content": str(e)})')),
    "named-for-tools": ("store.py", _UNREAD.replace("class Store:", "class StoreToolkit:")),
}


def _counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from smullyan.linter import engine

    parses = [0]
    parse = engine._parse_module

    def counted_parse(text: str | bytes) -> Any:
        parses[0] += 1
        return parse(text)

    monkeypatch.setattr(engine, "_parse_module", counted_parse)
    return parses


def _unfiltered(monkeypatch: pytest.MonkeyPatch) -> None:
    """TFH401's screen as it was before it read where the text goes."""
    from smullyan.rules.errors import text_screen

    monkeypatch.setattr(text_screen, "_may_reach_model", lambda screen, knowledge: lambda line: True)
    monkeypatch.setattr(text_screen, "_ends_without_sink", lambda handler, screen, knowledge: False)


@pytest.mark.parametrize("name", sorted(_NOT_PARSED))
def test_tfh401_admits_no_handler_whose_text_reaches_no_report(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    source = _NOT_PARSED[name]
    config = Config(select=("TFH401",))
    parses = _counted_parses(monkeypatch)
    assert lint_source(source, "store.py", config) == []
    assert parses[0] == 0  # not a candidate: libcst never parses the file
    _unfiltered(monkeypatch)
    assert lint_source(source, "store.py", config) == []  # and the rule finds nothing there either
    assert parses[0] == 1


@pytest.mark.parametrize("name", sorted(_PARSED))
def test_tfh401_keeps_every_handler_with_evidence(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path, source = _PARSED[name]
    config = Config(select=("TFH401",))
    parses = _counted_parses(monkeypatch)
    found = lint_source(source, path, config)
    assert parses[0] == 1 and [f.code for f in found] == ["TFH401"]
    _unfiltered(monkeypatch)
    assert lint_source(source, path, config) == found


def test_tfh401_reads_the_whole_module_without_a_path() -> None:
    """A screen that is not told the file's path (``Screen(tree)``) keeps every handler, as before."""
    import ast

    from smullyan.linter.rule import Screen
    from smullyan.rules.errors.tfh401_stringified_exception import StringifiedException

    knowledge = Config.default().knowledge()
    tree = ast.parse(_UNREAD)
    assert StringifiedException.candidate_lines(Screen(tree), knowledge) == [7]
    assert StringifiedException.candidate_lines(Screen(tree, None, "store.py"), knowledge) == []


# exercises the retry and error models (the file's models), narrowing (``unused`` is stubbed), TFH401's scopes,
# the exit-code functions of the timeout screen and the retry model's number literals
CYCLIC = '''\
import subprocess
import sys
import time

import requests
from tenacity import retry


def unused():
    return 1


@retry
def get(url):
    return requests.get(url, timeout=1e1)


class Tools:
    def fetch(self, url):
        for attempt in range(3):
            try:
                return requests.post(url, json={"n": 1_000, "delay": 1e-3})
            except Exception:
                time.sleep(0.5)

    def run(self, cmd):
        try:
            return subprocess.run(cmd).stdout
        except OSError as exc:
            return f"failed: {exc}"


def main():
    return Tools().run(["ls"])


if __name__ == "__main__":
    sys.exit(main())
'''


@pytest.mark.parametrize("flake8", [True, False])
def test_a_linted_file_leaves_no_cyclic_garbage(tmp_path: Path, flake8: bool) -> None:
    """A file's tree, models and screen are freed by reference counting when its lint returns: nothing of the
    linter, libcst or ``ast`` is left for the cycle collector (in flake8 it ran over every file's tree)."""
    import ast
    import gc

    path = tmp_path / "tools" / "agent.py"
    path.parent.mkdir()
    path.write_text(CYCLIC)
    config = Config()
    tree = ast.parse(CYCLIC) if flake8 else None
    assert lint_source(CYCLIC, str(path), config, apply_noqa=not flake8, tree=tree)  # warm: caches filled once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        findings = lint_source(CYCLIC, str(path), config, apply_noqa=not flake8, tree=tree)
        gc.collect()
        left = [(type(o), getattr(o, "__qualname__", "")) for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert {f.code for f in findings} >= {"TFH103", "TFH201", "TFH301", "TFH401"}
    # only ``ast.literal_eval``'s nested helpers (libcst's ``evaluated_value`` calls it): a few objects per string read
    ours = [(t.__qualname__, name) for t, name in left if t.__module__.split(".")[0] in ("smullyan", "libcst", "ast")]
    functions = {name for t, name in left if t.__name__ == "function"}
    assert ours == [] and functions <= {"literal_eval.<locals>._convert", "literal_eval.<locals>._convert_num",
                                        "literal_eval.<locals>._convert_signed_num",
                                        "literal_eval.<locals>._raise_malformed_node"}, (ours, functions)
    assert len(left) < 200
