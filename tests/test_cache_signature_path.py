"""Session 50: the cache's code signature hashes the rule packages' ``__path__`` as imported, so a module that lives only
in a directory the package adds to its path (a strict editable install's source directory, where a module added since
the install sits) invalidates cached findings when it changes."""

from __future__ import annotations

from pathlib import Path

import pytest

import smullyan.rules
from smullyan.linter import cache


def _signature() -> str:
    cache._signature = None
    return cache.code_signature()


def test_a_module_only_on_the_packages_path_is_part_of_the_signature(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    before = _signature()
    extra = tmp_path / "rules_src"
    extra.mkdir()
    module = extra / "new_rule_helper.py"
    module.write_text("X = 1\n")
    monkeypatch.setattr(smullyan.rules, "__path__", [*smullyan.rules.__path__, str(extra)])
    with_module = _signature()
    module.write_text("X = 2\n")
    edited = _signature()
    monkeypatch.undo()
    assert len({before, with_module, edited}) == 3
    assert _signature() == before
