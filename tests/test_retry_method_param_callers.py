"""s45 (batch 17 ``method-param-get-only``): a public request helper whose HTTP method is a parameter, retried
in its own body, is a read retry when every call of it in the project (its top-level package's modules on disk)
sends a read method (a literal GET/HEAD/OPTIONS, or no method and a GET default); a POST, a method that is not a
literal or a ``**kwargs`` call in any module keeps the finding, and so does a helper nothing in the project calls."""

from __future__ import annotations

from pathlib import Path

import pytest

from smullyan.linter import engine
from smullyan.linter.config import Config

HELPER = '''
import time
import httpx


def fetch_with_retry(url, method="GET", retries=3):
    attempt = 0
    while True:
        try:
            with httpx.Client(timeout=10) as client:
                return client.request(method, url)
        except httpx.TransportError:
            attempt += 1
            if attempt >= retries:
                raise
            time.sleep(2 ** attempt)
'''

READERS = {
    "version_check.py": 'from .http_util import fetch_with_retry\n\ndef version():\n'
                        '    return fetch_with_retry("https://pypi.org/pypi/x/json")\n',
    "tools_manager.py": 'from . import http_util\n\ndef latest():\n'
                        '    return http_util.fetch_with_retry("https://api.example/releases/latest", method="GET")\n',
}


def _project(tmp_path: Path, extra: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    helper = root / "http_util.py"
    helper.write_text(HELPER)
    for name, text in extra.items():
        (root / name).write_text(text)
    return helper


def _found(path: Path) -> list[str]:
    return [f.code for f in engine.lint_source(path.read_bytes(), str(path), Config.default()) if f.code == "TFH101"]


def test_every_caller_sends_a_read_method(tmp_path: Path) -> None:
    assert _found(_project(tmp_path, READERS)) == []


@pytest.mark.parametrize("call", [
    'fetch_with_retry("https://api.example/items", "POST")',
    'fetch_with_retry("https://api.example/items", method=verb)',
    'fetch_with_retry("https://api.example/items", **options)',
])
def test_a_caller_that_may_send_a_write_keeps_the_finding(tmp_path: Path, call: str) -> None:
    writer = f'from .http_util import fetch_with_retry\n\ndef create(verb, options):\n    return {call}\n'
    assert _found(_project(tmp_path, {**READERS, "create.py": writer})) == ["TFH101"]


def test_no_caller_in_the_project_keeps_the_finding(tmp_path: Path) -> None:
    assert _found(_project(tmp_path, {})) == ["TFH101"]


def test_outside_a_package_nothing_is_read(tmp_path: Path) -> None:
    helper = _project(tmp_path, READERS)
    (tmp_path / "pkg" / "__init__.py").unlink()
    assert _found(helper) == ["TFH101"]
