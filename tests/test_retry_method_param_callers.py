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


def test_each_project_file_is_parsed_once_for_every_name_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """s46: the files holding calls are parsed once (the summary and the calls from one ``ast`` tree), however many
    names are asked about, and give the same calls as before; a file first read for its summary alone is parsed once
    more when its calls are asked for, never once per name."""
    import ast

    from smullyan.linter import imports_disk

    helper = _project(tmp_path, {**READERS, "both.py": "from .http_util import fetch_with_retry\n"
                                 "def sync():\n    fetch_with_retry('u', method='POST')\n    version()\n"})
    parsed: list[int] = []
    real = ast.parse

    def counting(source: object, *args: object, **kwargs: object) -> ast.Module:
        parsed.append(len(source))  # type: ignore[arg-type]
        return real(source, *args, **kwargs)  # type: ignore[arg-type,return-value]

    monkeypatch.setattr(imports_disk.ast, "parse", counting)
    imports_disk._memo.clear()
    imports_disk._call_sites.clear()
    calls = imports_disk.project_call_arguments(str(helper), "fetch_with_retry")
    more = imports_disk.project_call_arguments(str(helper), "version")
    again = imports_disk.project_call_arguments(str(helper), "fetch_with_retry")
    # http_util.py (its def), version_check.py, tools_manager.py, both.py: four files, four parses
    assert len(parsed) == 4
    assert calls == again and sorted(c[0].get("method") or "-" for c in calls or []) == ["-", "GET", "POST"]
    assert more is not None and len(more) == 1 and more[0][1] == ()
    summary_only = str(tmp_path / "pkg" / "version_check.py")
    imports_disk._memo.clear()
    imports_disk._call_sites.clear()
    parsed.clear()
    imports_disk._module(summary_only)
    imports_disk.project_call_arguments(str(helper), "fetch_with_retry")
    imports_disk.project_call_arguments(str(helper), "version")
    assert len(parsed) == 5  # version_check.py twice (summary first, then its calls), the three others once
