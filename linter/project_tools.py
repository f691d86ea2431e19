"""Whether a line of a module lies in an agent tool the module's project registers (issue 23; s55, s56).

TFH201/TFH203's split (``rules/timeouts/evidence.py``) reads a tool in the file itself (:func:`.tool_functions.
registered_tool`: decorators, framework base classes). A tool the project declares elsewhere (its own base class in
another module, a registry filled by another module, an ``oterm.tools`` entry point: oterm, loopgpt, gwenflow,
oxygent, sage-agent) is only found by reading the whole project. The reading is the ``ast`` phase of ``smullyan
tools`` (:func:`smullyan.linter.tools.discover_spans`: discovery only, no file linted), which lives in
:mod:`smullyan.linter.tools`, a layer above the rules that the rules may not import (and an import of it from here
would close a cycle: rules -> api -> here -> tools -> rules). So the entry points hand it in as a *provider*
(:func:`set_provider`): the CLI's ``lint`` and the flake8 plugin; a caller of :func:`.engine.lint_source` may do the
same (``set_provider(tools.discover_spans)``). Without one the answer is False: the in-file reading alone.

The rule asks :func:`in_project_tool` only at its last question, after a cheap local gate (a run call about to be
reported as unread whose program a parameter of the enclosing function chooses). The table is built once per
project and process (memoised, like :mod:`.imports_disk`'s summaries); a lint nested in the table's own reading
answers False; a project of more than :data:`MAX_FILES` files is not read for one question. Every project file the
table read is recorded, by its sha256, in the active cache recording: a change to any of them invalidates the
findings of the files that asked (a *new* module registering a tool does not: see docs/performance.md).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .disk_summary import import_statements
from .imports_disk import memoised_imports, record_reads, recording_active
from .packages import absolute_module, package_of

if TYPE_CHECKING:
    from .config import Config

__all__ = ["MAX_FILES", "Provider", "current_provider", "has_provider", "in_project_tool", "project_root", "set_provider"]

#: (the project's files, config) -> {absolute path: [(first line, last line) of each tool's functions and helpers]}
Provider = Callable[[Sequence[str], "Config"], dict[str, list[tuple[int, int]]]]

_PROVIDER: list[Provider] = []
_MEMO: dict[str, "_Project"] = {}  # project root -> what the questions have read of it
_BUSY: set[str] = set()
MAX_FILES = 400  # a larger project is not read for one question
MAX_BYTES = 400_000  # of a file's text scanned for the names
IMPORT_STEPS = 1  # how far the project imports of the asking file are followed
SIBLINGS = 3  # other subclasses of the class's bases read when the first reading finds no tool


def has_provider() -> bool:
    """A tool-table reader is installed."""
    return bool(_PROVIDER)


def current_provider() -> Provider | None:
    """The installed tool-table reader, if any (the runner hands it to its workers: a spawned process starts without)."""
    return _PROVIDER[0] if _PROVIDER else None


def set_provider(provider: Provider | None) -> None:
    """Install (or, with None, remove) the tool-table reader; the CLI and the flake8 plugin call it before a lint."""
    _PROVIDER.clear()
    _MEMO.clear()
    if provider is not None:
        _PROVIDER.append(provider)


def project_root(path: str) -> str | None:
    """The directory of the file's top-level package (``site/oterm/oterm`` for ``site/oterm/oterm/tools/shell.py``);
    None for a file outside any package."""
    package = package_of(path)
    if not package:
        return None
    up = os.path.dirname(os.path.abspath(path))
    for _ in range(package.count(".")):
        up = os.path.dirname(up)
    return up


def _project_files(root: str) -> list[str] | None:
    out: list[str] = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d.isidentifier() and d not in ("tests", "test"))
        out.extend(os.path.join(directory, f) for f in sorted(files) if f.endswith(".py"))
        if len(out) > MAX_FILES:
            return None
    return out


class _Project:
    """One project as the question reads it: its files, their text (read once) and their imports of each other."""

    def __init__(self, root: str, files: list[str]) -> None:
        self.root = root
        self.files = files
        self.top = os.path.basename(root)
        self._texts: dict[str, str] = {}
        self._imports: dict[str, list[str]] = {}
        self._parsed: dict[str, list[tuple[str, tuple[tuple[str, str], ...]]]] = {}
        self.tables: dict[frozenset[str], dict[str, list[tuple[int, int]]]] = {}

    def text(self, path: str) -> str:
        text = self._texts.get(path)
        if text is None:
            try:
                with open(path, "rb") as f:
                    text = f.read(MAX_BYTES).decode("utf-8", "replace")
            except OSError:
                text = ""
            self._texts[path] = text
        return text

    def naming(self, names: Sequence[str]) -> list[str]:
        """The files whose text holds one of ``names`` as a word (a cheap scan; no parse)."""
        pattern = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\b")
        return [f for f in self.files if any(n in self.text(f) for n in names) and pattern.search(self.text(f))]

    def subclassing(self, bases: Sequence[str], but: Sequence[str]) -> list[str]:
        """The :data:`SIBLINGS` smallest files (not in ``but``) defining a class on one of ``bases`` (a text scan): enough
        for a project's own tool base, which its shape makes one with two subclasses that implement its method
        (``tools.ancestry.MIN_IMPLEMENTERS``)."""
        pattern = re.compile(r"^[ \t]*class\s+\w+\s*\([^)\n]*\b(?:" + "|".join(re.escape(b) for b in bases) + r")\b",
                             re.MULTILINE)
        found = [f for f in self.files if f not in but and any(b in self.text(f) for b in bases)
                 and pattern.search(self.text(f))]
        return sorted(found, key=lambda f: (len(self.text(f)), f))[:SIBLINGS]  # the smallest: the cheapest to read

    def module_file(self, module: str) -> str | None:
        """The project file of an absolute module name (``pkg.a.b``: ``<root>/a/b.py`` or ``a/b/__init__.py``)."""
        parts = module.split(".")
        if parts[0] != self.top:
            return None
        base = os.path.join(self.root, *parts[1:])
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
        return None

    def _statements(self, path: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
        """The file's imports (any depth of its body, in the order of the file): (absolute module, ((name, bound
        as), ...)); an ``import m`` is (m, ()). s57: from :mod:`.imports_disk`'s memo when it holds the file (a
        project question read it, or the lint remembered its tree), else from an ``ast`` parse of its text."""
        out = self._parsed.get(path)
        if out is not None:
            return out
        statements = memoised_imports(os.path.realpath(path))
        if statements is None:
            try:
                tree = ast.parse(self.text(path))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                tree = None
            nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))] if tree is not None else []
            statements = import_statements(nodes)
        package = package_of(path)
        out = []
        for module, level, names in statements:
            if names is None:
                out.append((module or "", ()))
                continue
            base = absolute_module(module, level, package)
            if base:
                out.append((base, names))
        self._parsed[path] = out
        return out

    def imports(self, path: str) -> list[str]:
        """The project files ``path`` imports: ``import m``'s module; ``from m import x``'s submodule ``m.x``, else
        ``m`` and, for a package that re-exports ``x`` (``from .hub import FunctionHub`` in its ``__init__.py``), the
        module it takes ``x`` from (one step, as Python binds it)."""
        out = self._imports.get(path)
        if out is not None:
            return out
        found: list[str] = []

        def add(file: str | None) -> None:
            if file is not None and file != path and file not in found:
                found.append(file)

        for base, names in self._statements(path):
            if not names:
                add(self.module_file(base))
                continue
            package = self.module_file(base)
            for name, _ in names:
                sub = self.module_file(f"{base}.{name}")
                if sub is not None:
                    add(sub)
                    continue
                add(package)
                if package is not None and package.endswith("__init__.py"):
                    for origin, bound in self._statements(package):
                        if any(b == name for _, b in bound):
                            add(self.module_file(origin) or self.module_file(f"{origin}.{name}"))
        self._imports[path] = found
        return found

    def imported(self, path: str) -> list[str]:
        """The file and the project modules it imports, :data:`IMPORT_STEPS` steps (its registry decorator's module,
        its class's base)."""
        chosen = [path]
        frontier = list(chosen)
        for _ in range(IMPORT_STEPS):
            nxt = list(dict.fromkeys(i for f in frontier for i in self.imports(f) if i not in chosen))
            chosen += nxt
            frontier = nxt
        return chosen


def in_project_tool(path: str, line: int, names: Sequence[str], config: "Config", bases: Sequence[str] = ()) -> bool:
    """``line`` of ``path`` lies in a tool (its functions and their same-module helpers) the project registers, as
    the tool table reads the files that can make ``names`` (the outermost function's, or its class's) a tool, in
    widening readings, each only when the last found none: (1) the file and the project modules it imports (its
    own registry decorator, its class's base, through a package's re-export; an entry point); (2) with ``bases``
    (its class's), the :data:`SIBLINGS` smallest other subclasses of them (a project's own tool base is known by
    the shape of its subclasses); (3) the project files naming one of ``names`` (a registration, an
    ``Agent(tools=[...])`` list, a table of tools)."""
    if not _PROVIDER:
        return False
    root = project_root(path)
    if root is None or root in _BUSY:
        return False  # the table's own reading asks again: the in-file reading only
    project = _MEMO.get(root)
    if project is None:
        files = _project_files(root)
        project = _MEMO[root] = _Project(root, files or [])
    if not project.files:
        return False  # no package, or too large to read for one question
    path = os.path.abspath(path)
    subset: list[str] = []
    for reading in range(3):
        extra = (project.imported(path) if reading == 0 else (project.subclassing(bases, subset) if bases else []) if reading == 1
                 else [f for f in project.naming(names) if f not in subset])
        if not extra:
            continue
        subset = [*subset, *extra]
        table = _table(project, subset, config)
        if recording_active():  # the cache keys this file's findings on every file the table read
            record_reads([os.path.realpath(f) for f in subset], {})
        if any(start <= line <= end for start, end in table.get(path, ())):
            return True
    return False


def _table(project: _Project, subset: list[str], config: "Config") -> dict[str, list[tuple[int, int]]]:
    key = frozenset(subset)
    table = project.tables.get(key)
    if table is None:
        _BUSY.add(project.root)
        try:
            table = _PROVIDER[0](subset, config)
        except Exception:  # pragma: no cover - the reading never raises; a crash must not break the lint
            table = {}
        finally:
            _BUSY.discard(project.root)
        project.tables[key] = table
    return table
