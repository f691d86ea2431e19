"""The findings cache: content-keyed, skips unchanged files without hashing, never fatal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smullyan.linter import cache as cache_mod
from smullyan.linter import engine, runner
from smullyan.linter.cache import Cache
from smullyan.linter.config import Config
from smullyan.linter.findings import Finding

BAD = "import requests\n\n\ndef f(url):\n    return requests.get(url)\n"
GOOD = "import requests\n\n\ndef f(url):\n    return requests.get(url, timeout=5)\n"
OLD = time.time_ns() - 3600 * 10**9  # an hour ago: outside the racy window


def F(path: str, line: int = 1) -> Finding:
    return Finding(path, line, 1, line, 5, "TFH201", "call-without-timeout", "pass timeout=")


def write(path: Path, text: str, *, old: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if old:
        os.utime(path, ns=(OLD, OLD))


class Counters:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.linted: list[str] = []
        self.hashed = 0
        real_lint = engine.lint_source
        real_digest = cache_mod.file_digest

        def lint_source(source: bytes | str, path: str, config: Config, **kw: object) -> list[Finding]:
            self.linted.append(path)
            return real_lint(source, path, config, **kw)  # type: ignore[arg-type]

        def digest(data: bytes) -> str:
            self.hashed += 1
            return real_digest(data)

        monkeypatch.setattr(engine, "lint_source", lint_source)
        monkeypatch.setattr(runner, "file_digest", digest)

    def reset(self) -> None:
        self.linted.clear()
        self.hashed = 0


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for i in range(5):
        write(tmp_path / "pkg" / f"m{i}.py", BAD if i % 2 == 0 else GOOD)
    return tmp_path


def run(files: list[str], config: Config | None = None, cache_dir: Path | None = None) -> runner.RunResult:
    config = config or Config.default()
    cache = Cache.for_config(cache_dir or Path(cache_mod.CACHE_DIR_NAME), config.fingerprint())
    return runner.run(files, config, jobs=1, cache=cache)


FILES = [f"pkg/m{i}.py" for i in range(5)]


# --------------------------------------------------------------------------- the index


def test_record_save_load_round_trip(tmp_path: Path) -> None:
    c = Cache(tmp_path / "c", "ns")
    c.record("a.py", "a.py", 10, OLD, "sha-a", [F("a.py", 3)])
    assert c.save()
    again = Cache(tmp_path / "c", "ns")
    assert again.lookup_stat("a.py", "a.py", 10, OLD) == [F("a.py", 3)]
    assert again.lookup_stat("a.py", "a.py", 11, OLD) is None  # size differs
    assert again.lookup_stat("a.py", "a.py", 10, OLD + 1) is None  # mtime differs
    assert again.lookup_sha("a.py", "a.py", "sha-a") == [F("a.py", 3)]
    assert again.lookup_sha("a.py", "a.py", "sha-b") is None
    assert again.lookup_sha("a.py", "other/a.py", "sha-a") is None  # reported under another path
    assert Cache(tmp_path / "c", "other-namespace").lookup_sha("a.py", "a.py", "sha-a") is None


def test_a_recently_modified_file_is_racy_and_always_rehashed(tmp_path: Path) -> None:
    c = Cache(tmp_path / "c", "ns")
    now = time.time_ns()
    c.record("a.py", "a.py", 10, now - 10**8, "sha", [], now_ns=now)
    assert c.lookup_stat("a.py", "a.py", 10, now - 10**8) is None
    assert c.lookup_sha("a.py", "a.py", "sha") == []


def test_directory_gets_gitignore_and_cachedir_tag_and_no_temp_files(tmp_path: Path) -> None:
    c = Cache(tmp_path / "c", "ns")
    c.record("a.py", "a.py", 1, OLD, "s", [])
    assert c.save()
    names = sorted(p.name for p in (tmp_path / "c").iterdir())
    assert names == [".gitignore", "CACHEDIR.TAG", "index-ns.json"]
    assert (tmp_path / "c" / ".gitignore").read_text().splitlines()[-1] == "*"


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\xff garbage",
        b'{"format": 1, "files": {"/a.py": ["a.py", 1]}}',
        b'{"format": 1, "files": []}',
        b'{"format": 999, "files": {}}',
        b"[1, 2, 3]",
        b'{"format": 1, "files": {"/a.py": ["a.py", 1, 2, "s", [[1, 2, 3]]]}}',
        b'{"format": 1, "fi',
    ],
)
def test_a_corrupt_index_is_ignored(tree: Path, content: bytes) -> None:
    first = run(FILES)
    index = next(Path(cache_mod.CACHE_DIR_NAME).glob("index-*.json"))
    index.write_bytes(content)
    again = run(FILES)
    assert again.findings == first.findings
    assert again.files_linted == 5
    assert len(Cache(index.parent, index.stem.removeprefix("index-"))) == 5  # rewritten whole


def test_keeps_a_bounded_number_of_indexes(tmp_path: Path) -> None:
    d = tmp_path / "c"
    for i in range(cache_mod.KEEP_INDEXES + 3):
        c = Cache(d, f"ns{i}")
        c.record("a.py", "a.py", 1, OLD, "s", [])
        assert c.save()
    assert len(list(d.glob("index-*.json"))) == cache_mod.KEEP_INDEXES


def test_an_unwritable_cache_directory_is_not_fatal(tree: Path) -> None:
    (tree / "blocked").write_text("a file where the cache directory should be")
    result = run(FILES, cache_dir=tree / "blocked" / "cache")
    assert len(result.findings) == 3


# --------------------------------------------------------------------------- runs


def test_second_run_neither_lints_nor_hashes_unchanged_files(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counters = Counters(monkeypatch)
    cold = run(FILES)
    assert sorted(counters.linted) == FILES
    assert counters.hashed == 5
    assert [f.path for f in cold.findings] == ["pkg/m0.py", "pkg/m2.py", "pkg/m4.py"]
    counters.reset()
    warm = run(FILES)
    assert warm.findings == cold.findings
    assert counters.linted == [] and counters.hashed == 0
    assert warm.files_from_cache == 5 and warm.files_linted == 0


def test_a_changed_file_is_linted_again(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counters = Counters(monkeypatch)
    run(FILES)
    counters.reset()
    write(tree / "pkg" / "m0.py", GOOD)  # fixed: same size? no matter, content differs
    result = run(FILES)
    assert counters.linted == ["pkg/m0.py"]
    assert [f.path for f in result.findings] == ["pkg/m2.py", "pkg/m4.py"]


def test_same_size_same_mtime_edit_is_the_documented_blind_spot_but_racy_edits_are_seen(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counters = Counters(monkeypatch)
    path = tree / "pkg" / "m1.py"
    write(path, GOOD, old=False)  # modified just now: recorded as racy
    run(FILES)
    counters.reset()
    # an edit of the same size within the same mtime tick: caught because the entry is racy
    st = path.stat()
    path.write_text(GOOD.replace("timeout=5", "timeout=7"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    result = run(FILES)
    assert counters.linted == ["pkg/m1.py"]
    assert len(result.findings) == 3


def test_touched_file_with_the_same_bytes_is_hashed_but_not_linted(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counters = Counters(monkeypatch)
    cold = run(FILES)
    counters.reset()
    os.utime(tree / "pkg" / "m2.py", ns=(OLD + 10**9, OLD + 10**9))
    warm = run(FILES)
    assert counters.linted == [] and counters.hashed == 1
    assert warm.findings == cold.findings
    counters.reset()
    run(FILES)  # and the new mtime was recorded
    assert counters.hashed == 0


def test_config_or_linter_changes_start_a_new_namespace(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counters = Counters(monkeypatch)
    run(FILES)
    counters.reset()
    quiet = Config.default().with_overrides(ignore=("TFH201",))
    assert run(FILES, quiet).findings == []
    assert len(counters.linted) == 5
    counters.reset()
    monkeypatch.setattr(cache_mod, "_signature", "a different linter build")
    run(FILES)
    assert len(counters.linted) == 5


def test_unreadable_file_is_reported_and_not_cached(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = "pkg/vanished.py"
    result = run([*FILES, missing])
    codes = {(f.path, f.code) for f in result.findings}
    assert (missing, "TFH001") in codes
    c = Cache.for_config(Path(cache_mod.CACHE_DIR_NAME), Config.default().fingerprint())
    assert c.entry(missing) is None and c.entry(FILES[0]) is not None


# --------------------------------------------------------------------------- command line


def smullyan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "smullyan", *args], cwd=cwd, capture_output=True, text=True)


def test_cli_writes_the_cache_next_to_the_config_and_no_cache_disables_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.smullyan]\nselect = ["TFH"]\n')
    write(tmp_path / "src" / "a.py", BAD)
    proc = smullyan(tmp_path / "src", "lint", "--no-cache", ".")
    assert proc.returncode == 1, proc.stderr
    assert not (tmp_path / ".smullyan_cache").exists() and not (tmp_path / "src" / ".smullyan_cache").exists()
    proc = smullyan(tmp_path / "src", "lint", ".")
    assert proc.returncode == 1
    index = list((tmp_path / ".smullyan_cache").glob("index-*.json"))
    assert len(index) == 1
    data = json.loads(index[0].read_text())
    assert [entry[0] for entry in data["files"].values()] == ["a.py"]
    again = smullyan(tmp_path / "src", "lint", ".")
    assert again.stdout == proc.stdout and again.returncode == 1


def test_the_code_signature_changes_with_a_file_in_a_rule_subpackage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit under ``rules/errors/`` or ``linter/knowledge/`` (a subpackage) must not reuse findings cached by the
    code before it: the signature hashes every ``.py`` file below the two packages, not only their top level."""
    import importlib.machinery
    import importlib.util

    from smullyan.linter import cache as cache_module

    roots = {name: tmp_path / name.rsplit(".", 1)[-1] for name in ("smullyan.linter", "smullyan.rules")}
    for root in roots.values():
        (root / "family").mkdir(parents=True)
        (root / "__init__.py").write_text("")
        (root / "family" / "rule.py").write_text("X = 1\n")

    def find_spec(name: str, package: str | None = None) -> importlib.machinery.ModuleSpec | None:
        if name not in roots:
            return None
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [str(roots[name])]
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.setattr(cache_module, "_signature", None)
    before = cache_module.code_signature()
    monkeypatch.setattr(cache_module, "_signature", None)
    assert cache_module.code_signature() == before  # the same files give the same signature
    (roots["smullyan.rules"] / "family" / "rule.py").write_text("X = 2\n")
    monkeypatch.setattr(cache_module, "_signature", None)
    assert cache_module.code_signature() != before


STORE_LOCAL = '''
import json
from pathlib import Path


class StateStore:
    def get_app_config(self):
        return json.loads(Path("config.json").read_text())
'''

STORE_REMOTE = '''
import httpx


class RemoteStateStore:
    def get_app_config(self):
        return httpx.get("https://example.com/config").json()
'''

# s49: the caller's object typed by a third-party class (a receiver's name alone is no evidence of a remote read)
STORE_CALLER = '''import sdk_agents
def goal_setting(app: sdk_agents.App):
    try:
        return app.ports.store.get_app_config().goal
    except Exception:
        return None
'''


def test_a_new_module_defining_a_method_the_findings_asked_about_relints_the_file(tmp_path: Path) -> None:
    """s44: TFH402 asks which of the project's classes define ``get_app_config`` (all local: no finding); the cache
    records which files define it, so a module added later that implements it remotely brings the finding back."""
    from smullyan.linter import imports_disk

    assert cache_mod.DEFINES_PREFIX == imports_disk.DEFINES_PREFIX
    (tmp_path / "pyproject.toml").write_text('[tool.smullyan]\nselect = ["TFH402"]\n')
    for init in ("app/__init__.py", "app/kernel/__init__.py"):
        write(tmp_path / init, "")
    write(tmp_path / "app" / "kernel" / "state.py", STORE_LOCAL)
    write(tmp_path / "app" / "kernel" / "settings.py", STORE_CALLER)
    cold = smullyan(tmp_path, "lint", "app")
    assert cold.returncode == 0, cold.stdout + cold.stderr
    warm = smullyan(tmp_path, "lint", "app")
    assert warm.returncode == 0, warm.stdout + warm.stderr
    write(tmp_path / "app" / "kernel" / "remote.py", STORE_REMOTE)
    after = smullyan(tmp_path, "lint", "app")
    assert after.returncode == 1 and "settings.py:5:" in after.stdout, after.stdout + after.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_run_answered_from_the_cache_never_imports_libcst(tmp_path: Path, fmt: str) -> None:
    """A cached re-run costs no libcst import (docs/performance.md: cached <= 0.1x of cold): the findings,
    their fix marks and the report come from the cache and libcst-free modules."""
    (tmp_path / "a.py").write_text('import requests\n\n\ndef f():\n    return requests.get("https://x")\n')
    old = time.time() - 3600
    os.utime(tmp_path / "a.py", (old, old))  # not racy: a file written this second is always linted again
    script = (
        "import sys\n"
        "from smullyan.linter.cli import main\n"
        "try:\n"
        f"    code = main(['lint', '--format', '{fmt}', 'a.py'])\n"
        "except SystemExit as e:\n"
        "    code = e.code\n"
        "print('libcst' in sys.modules, code, file=sys.stderr)\n"
    )
    first = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert first.stderr.strip().splitlines()[-1] == "True 1", first.stderr  # the first run parses (and finds TFH201)
    second = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert second.stdout == first.stdout
    assert second.stderr.strip().splitlines()[-1] == "False 1", second.stderr


def test_every_defines_key_a_lint_records_is_what_the_warm_run_recomputes(tmp_path: Path) -> None:
    """s49: the own-refusal reader (s48, ``project_refusals``) recorded ``defines:<Class>(`` keys with the digest of
    the files *defining* the class, while the warm run recomputes such a key as the files *calling* ``<Class>(``: the
    two never agreed, so every file whose finding asked about a refusal was linted again on each cached run
    (openai-agents: 6 files, cached re-run 0.31x of cold). Each recorded key must equal what the cache recomputes."""
    from smullyan.linter import imports_disk

    write(tmp_path / "app" / "__init__.py", "")
    write(tmp_path / "app" / "errors.py", "class PathRefused(Exception):\n    pass\n\n\nclass Other(PathRefused):\n    pass\n")
    write(tmp_path / "app" / "tool.py", (
        "import requests\n"
        "from .errors import PathRefused\n\n\n"
        "def read(path):\n"
        "    if '..' in path:\n"
        "        raise PathRefused('path outside the workspace')\n"
        "    try:\n"
        "        return requests.get(path, timeout=5).text\n"
        "    except PathRefused as e:\n"
        "        return str(e)\n"
    ))
    config = Config.default()
    with imports_disk.recording() as deps:
        engine.lint_source((tmp_path / "app" / "tool.py").read_text(), str(tmp_path / "app" / "tool.py"), config)
    keys = {k: v for k, v in deps.items() if k.startswith(cache_mod.DEFINES_PREFIX)}
    assert any(k.startswith(f"{cache_mod.DEFINES_PREFIX}PathRefused(") for k in keys), deps  # the reader did ask
    assert {k: imports_disk.dependency_digest(k) for k in keys} == keys
