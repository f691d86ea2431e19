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
    lint_source(WORKER, "worker.py", Config(select=("TFH401",)))
    assert parses[0] == 1 and calls[0] == 0  # parsed (TFH401 is a candidate here) without the check
    assert cst.CSTNode.__dict__["__post_init__"] is check
    assert [f.code for f in lint_source("def f(:\n", "bad.py", Config())] == ["TFH001"]
    assert cst.CSTNode.__dict__["__post_init__"] is check  # restored after a failed parse too
    cst.Name("x")
    assert calls[0] == 1  # a node built by hand is checked as ever
