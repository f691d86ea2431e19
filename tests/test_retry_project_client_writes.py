"""Retry shapes that need more than one file: a write sent through a method of the
project's own client class defined in another module (memorisdk's ``Api.post`` re-sent in a loop), also
from a directory without ``__init__.py`` inside the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from smullyan.linter import engine
from smullyan.linter.config import Config

NETWORK = '''
import requests


class Api:
    def __init__(self, base):
        self.base = base

    def _session(self):
        return requests.Session()

    def post(self, route, json=None):
        r = self._session().post(self.base + route, json=json, timeout=10)
        return r.status_code

    def get(self, route):
        return self._session().get(self.base + route, timeout=10).json()

    def patch(self, route, json=None):
        self._cache.update({route: json})  # no HTTP call: a local cache
'''

CALLER = '''
import time

from pkg._network import Api


def send(config, payload):
    api = Api(config)
    for attempt in range(3):
        try:
            status = api.{verb}("cloud/messages"{args})
            if status == 201:
                return
        except Exception:
            pass
        time.sleep(2 ** attempt)
'''


def _project(tmp_path: Path, caller_dir: str, verb: str, args: str) -> Path:
    root = tmp_path / "pkg"
    root.mkdir(exist_ok=True)
    (root / "__init__.py").write_text("")
    (root / "_network.py").write_text(NETWORK)
    where = root / caller_dir if caller_dir else root
    where.mkdir(parents=True, exist_ok=True)
    caller = where / "manager.py"
    caller.write_text(CALLER.format(verb=verb, args=args))
    return caller


def _codes(path: Path) -> list[tuple[str, int]]:
    found = engine.lint_source(path.read_bytes(), str(path), Config.default())
    return [(f.code, f.line) for f in found if f.code == "TFH101"]


@pytest.mark.parametrize("caller_dir", ["", "memory", "memory/augmentation"])
def test_a_project_client_post_retried_is_a_write(tmp_path: Path, caller_dir: str) -> None:
    if caller_dir == "memory/augmentation":
        (tmp_path / "pkg" / "memory" / "augmentation").mkdir(parents=True)
        (tmp_path / "pkg" / "memory" / "augmentation" / "__init__.py").write_text("")
    caller = _project(tmp_path, caller_dir, "post", ", payload")
    assert _codes(caller) == [("TFH101", 9)]


@pytest.mark.parametrize("verb", ["get", "patch"])
def test_a_project_client_read_or_non_http_method_is_not_a_write(tmp_path: Path, verb: str) -> None:
    caller = _project(tmp_path, "", verb, "")
    assert _codes(caller) == []


def test_a_client_outside_the_project_is_not_read(tmp_path: Path) -> None:
    caller = _project(tmp_path, "", "post", ", payload")
    (tmp_path / "pkg" / "__init__.py").unlink()  # no package: nothing is followed
    assert _codes(caller) == []
