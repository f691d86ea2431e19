"""TFH402: an embedded store opened on a local location is local work whatever the receiver is named (s45, issue 24:
logicore's LanceDB table, gitdirector's repository read in a closure; ``EMBEDDED_STORES`` in
``linter/knowledge/fallbacks.py``), and a location that may be remote keeps the read remote."""

from __future__ import annotations

from pathlib import Path

import pytest

from smullyan.linter import engine
from smullyan.linter.config import Config


def _lines(tmp_path: Path, source: str) -> list[int]:
    path = tmp_path / "mod.py"
    path.write_text(source)
    return [f.line for f in engine.lint_source(path.read_bytes(), str(path), Config.default()) if f.code == "TFH402"]


STORE = '''
import {module}
class Store:
    def __init__(self, where):
        self.db = {module}.connect({location})
        self.table = self.db.open_table("t")
    def count(self):
        try:
            return self.table.count_rows()
        except Exception:
            return 0
'''


@pytest.mark.parametrize(
    ("module", "location", "reported"),
    [
        ("lancedb", '"./data/lancedb"', False),
        ("lancedb", "self.db_path", False),
        ("lancedb", "os.path.join(home, 'lancedb')", False),
        ("lancedb", '"db://project"', True),
        ("lancedb", '"s3://bucket/db"', True),
        ("lancedb", "where", True),  # a location that does not say: still a remote read
        ("duckdb", '"md:analytics"', True),
        ("duckdb", '"cache.duckdb"', False),
        ("aiosqlite", "where", False),  # a SQLite file is local wherever it is
    ],
)
def test_the_location_decides(tmp_path: Path, module: str, location: str, reported: bool) -> None:
    source = STORE.format(module=module, location=location)
    if "os.path" in location:
        source = "import os\nhome = '~'\n" + source
    assert bool(_lines(tmp_path, source)) is reported


def test_a_persistent_chroma_is_local_and_an_http_one_remote(tmp_path: Path) -> None:
    source = '''
import chromadb
def search(persist_dir, q):
    client = chromadb.PersistentClient(path=persist_dir)
    collection = client.get_collection("m")
    try:
        return collection.query(query_texts=[q])
    except Exception:
        return []
def remote_search(host, q):
    collection = chromadb.HttpClient(host=host).get_collection("m")
    try:
        return collection.query(query_texts=[q])
    except Exception:
        return []
'''
    assert _lines(tmp_path, source) == [14]  # remote_search's handler only


def test_a_store_from_a_project_helper_annotated_so_is_local(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "db.py").write_text(
        "import sqlite3\ndef get_db() -> sqlite3.Connection:\n    return sqlite3.connect(PATH)\n"
        "import psycopg\ndef get_remote() -> psycopg.Connection:\n    return psycopg.connect(DSN)\n")
    caller = tmp_path / "app" / "reviews.py"
    caller.write_text('''
from app import db
def active():
    try:
        conn = db.get_db()
        return conn.execute("SELECT 1").fetchone()
    except Exception:
        return None
def remote():
    try:
        conn = db.get_remote()
        return conn.execute("SELECT 1").fetchone()
    except Exception:
        return None
''')
    found = [f.line for f in engine.lint_source(caller.read_bytes(), str(caller), Config.default()) if f.code == "TFH402"]
    assert found == [13]
