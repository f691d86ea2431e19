"""s54 (issue 23): TFH201 reads a function's own ``**kw`` through its callers (rules/timeouts/kwargs.py:
caller_kwargs_keys): every caller seen and none passing ``timeout`` is a call without one."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path

CLI = """\
import subprocess
def run(cmd, capture=False, **kw):
    # run the command; this comment mentions run without calling it
    return subprocess.run(cmd, text=True, capture_output=capture, **kw)
def fetch(repo):
    return run(["git", "fetch", repo], capture=True).stdout
"""

CLIENT = """\
import requests
class Client:
    def __init__(self):
        self._session = requests.Session()
    def _post(self, **kwargs):
        return self._session.post(**kwargs)
    def record(self, url, body):
        return self._post(url=url, json=body)
"""


def _lint(tmp_path: Path, files: dict[str, str], target: str) -> list[tuple[int, str]]:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return sorted((f.line, f.code) for f in lint_path(tmp_path / target, Config(select=("TFH201",))))


def test_kwargs_of_a_function_no_caller_fills(tmp_path: Path) -> None:
    files = {"app/__init__.py": "", "app/cli.py": CLI, "app/other.py": "from .cli import run\nrun(['git', 'push'])\n"}
    assert _lint(tmp_path, files, "app/cli.py") == [(4, "TFH201")]


def test_kwargs_silent_when_a_caller_passes_a_timeout_or_spreads(tmp_path: Path) -> None:
    files = {"app/__init__.py": "", "app/cli.py": CLI, "app/other.py": "from .cli import run\nrun(['git', 'push'], timeout=5)\n"}
    assert _lint(tmp_path, files, "app/cli.py") == []
    files["app/other.py"] = "from .cli import run\ndef go(**o):\n    run(['git', 'push'], **o)\n"
    assert _lint(tmp_path / "b", files, "app/cli.py") == []
    files["app/other.py"] = "from . import cli\ncli.run(['git', 'push'])\n"  # reached as a module attribute: not read
    assert _lint(tmp_path / "c", files, "app/cli.py") == []
    files["app/other.py"] = "import threading\nfrom .cli import run\nthreading.Thread(target=run).start()\n"  # handed on
    assert _lint(tmp_path / "d", files, "app/cli.py") == []


def test_kwargs_of_a_method_every_caller_seen(tmp_path: Path) -> None:
    files = {"app/__init__.py": "", "app/client.py": CLIENT}
    assert _lint(tmp_path, files, "app/client.py") == [(6, "TFH201")]
    files["app/client.py"] = CLIENT + "def slow(c):\n    return c._post(url='x', timeout=9)\n"
    assert _lint(tmp_path / "b", files, "app/client.py") == []
