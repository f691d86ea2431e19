"""linter/imports_members.py (s54, issue 23): what an attribute of a project class's instance holds, read from the
class's own module; and TFH201 on a client held that way, reached from another module."""

from __future__ import annotations

from pathlib import Path

from smullyan.linter.imports_members import imported_member

ADAPTER = """\
from dataclasses import dataclass, field
from requests import Session
@dataclass
class Http:
    session: Session = field(init=False)
    label: str = "x"
    def __post_init__(self):
        self.session = Session()
class Plain:
    def __init__(self):
        self.client = Session()
        self.name = "p"
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_fields_and_init_assignments_of_another_module(tmp_path: Path) -> None:
    _write(tmp_path, {"app/__init__.py": "from .http_adapter import Http\n", "app/http_adapter.py": ADAPTER,
                      "app/pipeline.py": ""})
    linted = str(tmp_path / "app/pipeline.py")
    assert imported_member(linted, "app.http_adapter.Http", "session") == ("requests.Session", True)
    assert imported_member(linted, "app.http_adapter.Plain", "client") == ("requests.Session", True)
    assert imported_member(linted, "app.Http", "session") == ("requests.Session", True)  # one re-export followed
    assert imported_member(linted, "app.http_adapter.Http", "label") is None  # not an object of a known class
    assert imported_member(linted, "app.http_adapter.Plain", "name") is None
    assert imported_member(linted, "app.http_adapter.Missing", "session") is None
    assert imported_member(linted, "requests.Session", "adapters") is None  # another project's class: not read


def test_tfh201_on_a_held_client_across_modules(tmp_path: Path) -> None:
    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_path

    _write(tmp_path, {"app/__init__.py": "", "app/http_adapter.py": ADAPTER, "app/pipeline.py": """\
from app.http_adapter import Http, Plain
def trigger(url):
    with Http().session.post(url, json={}) as response:
        return response.json()
def fetch(url):
    h = Plain()
    return h.client.get(url)
def bounded(url):
    return Http().session.get(url, timeout=10)
class Runner:
    def __init__(self):
        self.http = Http()
    def go(self, url):
        return self.http.session.get(url)
"""})
    found = lint_path(tmp_path / "app/pipeline.py", Config.default())
    assert sorted((f.line, f.code) for f in found) == [(3, "TFH201"), (7, "TFH201"), (14, "TFH201")]
