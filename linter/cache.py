"""The findings cache, ``.smullyan_cache/``.

What a file's findings depend on: its bytes, its path (``per-file-ignores``),
the configuration, and the linter's own code.  So:

- The cache directory holds one *index* file per namespace; the namespace is a
  hash of the smullyan version, ``Config.fingerprint()`` and a signature of the
  linter's code (the bytes of every module in ``smullyan.linter`` and
  ``smullyan.rules``, so the rule set and any change to a rule start a new
  namespace).  A run reads one index at start and writes it once at the end.
- The index maps each file's absolute path to ``(display path, size, mtime_ns,
  sha256 of the bytes, findings, package)``; the package (from the
  ``__init__.py`` files above it) is part of the key because relative imports
  resolve through it.  The *content key is the sha256*: an entry
  is reused only for the same bytes.  ``size`` and ``mtime_ns`` serve only to
  skip re-hashing: when both equal the recorded entry the file is taken as
  unchanged without being read (as git's index, ruff and mypy do).  An edit that
  keeps the size and the nanosecond mtime identical would go unseen; to make
  that unlikely an entry whose file was modified less than
  :data:`RACY_WINDOW_NS` before it was recorded is marked "racy" and is always
  re-hashed (git's "racily clean" rule).  When size or mtime differ, the file is
  read and hashed; the same sha256 still reuses the findings (``git checkout``,
  ``touch``), a different one re-lints.
- A file whose findings read another module of the project (TFH401 following an
  imported helper: ``linter/imports_disk.py``) records those modules' real paths
  and sha256 in its entry; any hit (by stat or by sha) also requires each of them
  to hash the same now (each read once per run), else the file is re-linted.
  A finding that asked which of the project's classes define a method (TFH402's
  project-local stores) also records which files define it (a ``defines:`` key):
  a new module defining the method re-lints the file (s44).
- Writes are atomic (a temporary file in the same directory, then
  ``os.replace``).  A missing, unreadable or corrupt index is ignored: the run
  lints from scratch.  Nothing here ever fails a run.
- The directory gets a ``.gitignore`` containing ``*`` and a ``CACHEDIR.TAG``,
  as ruff and mypy do.  At most :data:`KEEP_INDEXES` index files are kept (the
  most recently written), so switching configurations does not grow it forever.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .findings import Edit, Finding, Fix

#: imports_disk's key of a dependency that is no file (kept equal by tests/test_cache.py; importing imports_disk here
#: would load the knowledge tables on every warm run)
DEFINES_PREFIX = "defines:"

__all__ = [
    "CACHE_DIR_NAME",
    "Cache",
    "CacheEntry",
    "NotACache",
    "cache_directory",
    "clear",
    "code_signature",
    "file_digest",
    "project_root",
]

CACHE_DIR_NAME = ".smullyan_cache"
INDEX_FORMAT = 4
KEEP_INDEXES = 8
RACY_WINDOW_NS = 2_000_000_000
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by smullyan.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)

#: line, column, end line, end column, code, name, message, and the fix (None, or
#: ``[message, applicability, [[line, column, end_line, end_column, content], ...]]``)
FindingRow = tuple[int, int, int, int, str, str, str, Any]


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _digest_path(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return file_digest(f.read())
    except OSError:
        return None


_signature: str | None = None


def code_signature() -> str:
    """A hash of the smullyan version and of the source of the linter and its rules: every ``.py`` file under
    ``smullyan.linter`` and ``smullyan.rules``, subpackages included (``rules/errors/``, ``linter/knowledge/``: an
    edit to a rule family or a table must not reuse findings cached by the code before it)."""
    global _signature
    if _signature is not None:
        return _signature
    from .. import __version__

    h = hashlib.sha256()
    h.update(str(__version__).encode())
    for package in ("smullyan.linter", "smullyan.rules"):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        try:  # s50: the package's ``__path__`` as imported: a strict editable install puts the source directory
            # on it (``rules/__init__.py``), where a module added since the install lives: its edits count too
            locations += list(getattr(importlib.import_module(package), "__path__", []))
        except ImportError:  # pragma: no cover - the linter is running, so both packages import
            pass
        seen: set[Path] = set()
        for location in sorted(locations):
            root = Path(location)
            modules = [m for m in sorted(root.rglob("*.py")) if m.resolve() not in seen]
            seen.update(m.resolve() for m in modules)
            for module in modules:
                h.update(package.encode() + b"/" + module.relative_to(root).as_posix().encode() + b"\0")
                try:
                    h.update(module.read_bytes())
                except OSError:
                    h.update(b"<unreadable>")
    _signature = h.hexdigest()
    return _signature


@dataclass(frozen=True, slots=True)
class CacheEntry:
    display: str
    size: int
    mtime_ns: int  # -1 when racy: always re-hash
    sha: str
    findings: tuple[FindingRow, ...]
    package: str = ""  # the package the file sat in (relative imports resolve through it)
    deps: tuple[tuple[str, str], ...] = ()  # project modules read for the findings: (real path, sha256)

    def to_findings(self, path: str) -> list[Finding]:
        return [Finding(path, *row[:7], fix=_fix_from_row(row[7])) for row in self.findings]


def _fix_row(fix: Fix | None) -> Any:
    if fix is None:
        return None
    return [fix.message, fix.applicability, [[e.line, e.column, e.end_line, e.end_column, e.content] for e in fix.edits]]


def _fix_from_row(raw: Any) -> Fix | None:
    if raw is None:
        return None
    message, applicability, edits = raw
    return Fix(message, tuple(Edit(*e) for e in edits), applicability)


def _valid_fix_row(raw: Any) -> bool:
    if raw is None:
        return True
    if not (isinstance(raw, list) and len(raw) == 3 and isinstance(raw[0], str) and isinstance(raw[1], str)):
        return False
    edits = raw[2]
    return isinstance(edits, list) and all(
        isinstance(e, list) and len(e) == 5 and all(isinstance(v, int) for v in e[:4]) and isinstance(e[4], str)
        for e in edits
    )


def _rows(findings: Iterable[Finding]) -> tuple[FindingRow, ...]:
    return tuple(
        (f.line, f.column, f.end_line, f.end_column, f.code, f.name, f.message, _fix_row(f.fix)) for f in findings
    )


def _parse_entry(raw: Any) -> CacheEntry | None:
    if not isinstance(raw, list) or len(raw) != 7:
        return None
    display, size, mtime_ns, sha, rows, package, raw_deps = raw
    if not isinstance(raw_deps, list) or not all(
        isinstance(d, list) and len(d) == 2 and all(isinstance(v, str) for v in d) for d in raw_deps
    ):
        return None
    if not (
        isinstance(display, str)
        and isinstance(package, str)
        and isinstance(size, int)
        and isinstance(mtime_ns, int)
        and isinstance(sha, str)
        and isinstance(rows, list)
    ):
        return None
    parsed: list[FindingRow] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 8:
            return None
        line, col, end_line, end_col, code, name, message, fix = row
        if not all(isinstance(v, int) for v in (line, col, end_line, end_col)):
            return None
        if not all(isinstance(v, str) for v in (code, name, message)) or not _valid_fix_row(fix):
            return None
        parsed.append((line, col, end_line, end_col, code, name, message, fix))
    return CacheEntry(display, size, mtime_ns, sha, tuple(parsed), package, tuple((d[0], d[1]) for d in raw_deps))


class Cache:
    """One namespace of the findings cache, loaded once and saved once per run."""

    def __init__(self, directory: Path, namespace: str) -> None:
        self.directory = directory
        self.namespace = namespace
        self.index_path = directory / f"index-{namespace}.json"
        self._entries: dict[str, CacheEntry] = {}
        self._dirty = False
        self._dep_shas: dict[str, str | None] = {}  # a followed module's sha256 now (read once per run)
        self._load()

    @classmethod
    def for_config(cls, directory: Path, config_fingerprint: str) -> Cache:
        """The cache in ``directory`` for this configuration and this linter build."""
        namespace = hashlib.sha256(
            f"{INDEX_FORMAT}\0{code_signature()}\0{config_fingerprint}".encode()
        ).hexdigest()[:20]
        return cls(directory, namespace)

    # ------------------------------------------------------------------ reading

    def _load(self) -> None:
        try:
            with open(self.index_path, encoding="utf-8") as f:
                raw = json.load(f)
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            return
        if not isinstance(raw, dict) or raw.get("format") != INDEX_FORMAT:
            return
        files = raw.get("files")
        if not isinstance(files, dict):
            return
        for key, value in files.items():
            entry = _parse_entry(value)
            if isinstance(key, str) and entry is not None:
                self._entries[key] = entry

    def __len__(self) -> int:
        return len(self._entries)

    def entry(self, path: str) -> CacheEntry | None:
        return self._entries.get(os.path.abspath(path))

    def deps_current(self, entry: CacheEntry) -> bool:
        """Whether every project module the entry's findings read still has the recorded content."""
        for path, sha in entry.deps:
            if path not in self._dep_shas:
                if path.startswith(DEFINES_PREFIX):
                    from .imports_disk import dependency_digest  # only for such an entry: a warm run imports no knowledge

                    self._dep_shas[path] = dependency_digest(path)
                else:
                    self._dep_shas[path] = _digest_path(path)
            if self._dep_shas[path] != sha:
                return False
        return True

    def lookup_stat(
        self, path: str, display: str, size: int, mtime_ns: int, package: str = ""
    ) -> list[Finding] | None:
        """Findings for ``path`` if its size and mtime match a non-racy entry: no hashing."""
        entry = self._entries.get(os.path.abspath(path))
        if (
            entry is not None
            and entry.mtime_ns >= 0
            and entry.display == display
            and entry.package == package
            and entry.size == size
            and entry.mtime_ns == mtime_ns
            and self.deps_current(entry)
        ):
            return entry.to_findings(display)
        return None

    def lookup_sha(self, path: str, display: str, sha: str, package: str = "") -> list[Finding] | None:
        """Findings for ``path`` if its recorded content hash is ``sha``."""
        entry = self._entries.get(os.path.abspath(path))
        if (
            entry is not None
            and entry.display == display
            and entry.sha == sha
            and entry.package == package
            and self.deps_current(entry)
        ):
            return entry.to_findings(display)
        return None

    # ------------------------------------------------------------------ writing

    def record(
        self,
        path: str,
        display: str,
        size: int,
        mtime_ns: int,
        sha: str,
        findings: Iterable[Finding],
        *,
        package: str = "",
        deps: Iterable[tuple[str, str]] = (),
        now_ns: int | None = None,
    ) -> None:
        """Remember the findings for this content (``size``/``mtime_ns`` from before the read)."""
        now = time.time_ns() if now_ns is None else now_ns
        if now - mtime_ns < RACY_WINDOW_NS:
            mtime_ns = -1
        new = CacheEntry(display, size, mtime_ns, sha, _rows(findings), package, tuple(sorted(deps)))
        key = os.path.abspath(path)
        if self._entries.get(key) != new:
            self._entries[key] = new
            self._dirty = True

    def save(self) -> bool:
        """Write the index atomically if anything changed. Never raises; False on failure."""
        if not self._dirty:
            return True
        payload = {
            "format": INDEX_FORMAT,
            "files": {
                key: [e.display, e.size, e.mtime_ns, e.sha, [list(r) for r in e.findings], e.package,
                      [list(d) for d in e.deps]]
                for key, e in self._entries.items()
            },
        }
        tmp_name: str | None = None
        try:
            self._prepare_directory()
            fd, tmp_name = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=self.directory)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(payload, f, separators=(",", ":"))
            os.replace(tmp_name, self.index_path)
            tmp_name = None
            self._dirty = False
            self._prune()
            return True
        except OSError:
            return False
        finally:
            if tmp_name is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp_name)

    def _prepare_directory(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# Created by smullyan automatically.\n*\n"),
                           ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            target = self.directory / name
            if not target.exists():
                with contextlib.suppress(OSError):
                    target.write_text(text, encoding="utf-8")

    def _prune(self) -> None:
        try:
            indexes = sorted(
                self.directory.glob("index-*.json"),
                key=lambda p: p.stat().st_mtime_ns,
                reverse=True,
            )
        except OSError:
            return
        for old in indexes[KEEP_INDEXES:]:
            if old != self.index_path:
                with contextlib.suppress(OSError):
                    old.unlink()


def project_root(config_source: str | None, start: Path | None = None, cwd: Path | None = None) -> Path:
    """The configuration file's directory, else the git work tree around ``start``, else ``cwd``."""
    if config_source:
        return Path(config_source).resolve().parent
    here = Path(os.path.abspath(start or cwd or Path.cwd()))
    if here.is_file() or not here.exists():
        here = here.parent
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return directory
    return Path(os.path.abspath(cwd or Path.cwd()))


def cache_directory(
    config_source: str | None,
    cwd: Path | None = None,
    *,
    start: Path | None = None,
    explicit: Path | None = None,
    environ: dict[str, str] | None = None,
) -> Path:
    """Where the cache lives: ``explicit`` (``--cache-dir``), else ``$SMULLYAN_CACHE_DIR``,
    else ``.smullyan_cache`` at the :func:`project_root`."""
    if explicit is not None:
        return Path(os.path.abspath(explicit))
    env = os.environ if environ is None else environ
    if env.get("SMULLYAN_CACHE_DIR"):
        return Path(os.path.abspath(env["SMULLYAN_CACHE_DIR"]))
    return project_root(config_source, start, cwd) / CACHE_DIR_NAME


class NotACache(Exception):
    """``clear`` refused a directory that smullyan did not create."""


def clear(directory: Path) -> bool:
    """Delete a cache directory; False if there was none. Refuses (NotACache) a directory
    without smullyan's ``CACHEDIR.TAG``, so a mistyped ``--cache-dir`` deletes nothing."""
    import shutil

    if not directory.exists():
        return False
    tag = directory / "CACHEDIR.TAG"
    try:
        ours = tag.read_text(encoding="utf-8") == _CACHEDIR_TAG
    except OSError:
        ours = False
    if not directory.is_dir() or not ours:
        raise NotACache(f"{directory} is not a smullyan cache (no CACHEDIR.TAG written by smullyan); not deleting it")
    shutil.rmtree(directory)
    return True
