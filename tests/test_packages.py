"""Relative imports resolve through the package a file sits in (``linter/packages.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from smullyan.linter.cache import Cache
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path, lint_source
from smullyan.linter.packages import absolute_module, package_of
from smullyan.linter.runner import run


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_package_of_walks_up_init_files(tmp_path: Path) -> None:
    _tree(tmp_path, {"src/mycorp/__init__.py": "", "src/mycorp/api/__init__.py": "", "src/mycorp/api/m.py": ""})
    assert package_of(str(tmp_path / "src/mycorp/api/m.py")) == "mycorp.api"
    assert package_of(str(tmp_path / "src/mycorp/api/__init__.py")) == "mycorp.api"
    assert package_of(str(tmp_path / "src/loose.py")) is None
    assert package_of("-") is None


@pytest.mark.parametrize(
    ("module", "level", "package", "expected"),
    [
        ("x", 0, None, "x"),
        ("rpc", 1, "mycorp", "mycorp.rpc"),
        (None, 1, "mycorp.api", "mycorp.api"),
        ("rpc", 2, "mycorp.api", "mycorp.rpc"),
        (None, 2, "mycorp.api", "mycorp"),
        ("rpc", 3, "mycorp.api", None),  # above the top-level package
        ("rpc", 1, None, None),  # not in a package
    ],
)
def test_absolute_module(module: str | None, level: int, package: str | None, expected: str | None) -> None:
    assert absolute_module(module, level, package) == expected


AGENT = """\
from .rpc import call
from . import rpc
from .. import nothing_above
from .rpc import call as send


def step():
    call("x")
    rpc.call("y")
    send("z")
    rpc.call("w", timeout=5)
"""


def test_configured_names_resolve_through_relative_imports(tmp_path: Path) -> None:
    _tree(tmp_path, {"mycorp/__init__.py": "", "mycorp/rpc.py": "def call(x, timeout=None): ...\n", "mycorp/agent.py": AGENT})
    config = Config(timeout_required=("mycorp.rpc.call",))
    found = lint_path(tmp_path / "mycorp/agent.py", config)
    assert [(f.line, f.code) for f in found] == [(8, "TFH201"), (9, "TFH201"), (10, "TFH201")]
    assert "mycorp.rpc.call" in found[0].message
    # the same text outside any package: nothing to resolve, nothing reported, no error
    assert lint_source(AGENT, str(tmp_path / "agent.py"), config) == []


def test_cache_entry_is_keyed_on_the_package(tmp_path: Path) -> None:
    _tree(tmp_path, {"mycorp/rpc.py": "", "mycorp/agent.py": AGENT})
    config = Config(timeout_required=("mycorp.rpc.call",))
    cache_dir = tmp_path / ".cache"
    target = str(tmp_path / "mycorp/agent.py")
    first = run([target], config, cache=Cache.for_config(cache_dir, config.fingerprint()))
    assert first.findings == []  # no __init__.py: not a package yet
    (tmp_path / "mycorp/__init__.py").write_text("")
    from smullyan.linter import packages

    packages._package_of_dir.cache_clear()
    second = run([target], config, cache=Cache.for_config(cache_dir, config.fingerprint()))
    assert second.files_from_cache == 0
    assert [f.line for f in second.findings] == [8, 9, 10]
    third = run([target], config, cache=Cache.for_config(cache_dir, config.fingerprint()))
    assert third.files_from_cache == 1 and [f.line for f in third.findings] == [8, 9, 10]
