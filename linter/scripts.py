"""A project's declared entry points, read beside its top-level package: the ``console_scripts`` of an installed
distribution's ``*.dist-info/entry_points.txt`` and a source checkout's ``pyproject.toml`` (``[project.scripts]``,
``[tool.poetry.scripts]``, ``[project.entry-points.<group>]``).

:func:`ini_entries` parses an ``entry_points.txt`` (also read by ``linter/tools/entrypoints.py`` for tool groups);
:func:`console_script_modules` (s54, issue 24) names the modules of a top-level package that a console script
runs (``harflow-setup = harflow_mcp.setup_client:main``): the project's command line, whatever the module is called.
Reading never raises: a file over :data:`MAX_BYTES`, unreadable or malformed gives nothing."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from typing import Any

from .tomlread import toml as _toml

__all__ = ["MAX_BYTES", "MAX_DISTRIBUTIONS", "SERVER_SCRIPT_WORDS", "console_script_modules", "distribution_entry_files",
           "ini_entries", "read_small", "read_toml"]

#: an entry-point file larger than this is not read
MAX_BYTES = 200_000
#: at most this many ``*.dist-info`` directories are looked at in one directory
MAX_DISTRIBUTIONS = 2_000

_OBJECT = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(?::\s*[A-Za-z_][\w.]*)?\s*(?:\[.*\])?\s*$")


def read_small(path: str) -> str | None:
    """The text of ``path``, or None when it is larger than :data:`MAX_BYTES`, unreadable or not UTF-8."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):
        return None


def read_toml(path: str, needle: str) -> dict[str, Any] | None:
    """The ``pyproject.toml`` at ``path`` parsed, when its text mentions ``needle`` (``"scripts"``, ``"entry-points"``);
    None when it does not, or is too large, unreadable, malformed, or no TOML reader is installed (never raises)."""
    text = read_small(path)
    if text is None or _toml is None or needle not in text:
        return None
    try:
        data = _toml.loads(text)
    except Exception:  # malformed: no entries, never a crash
        return None
    return data if isinstance(data, dict) else None


def distribution_entry_files(directory: str) -> list[str]:
    """The ``entry_points.txt`` files of the installed distributions (``*.dist-info``) in ``directory``, by name, at
    most :data:`MAX_DISTRIBUTIONS` distributions looked at."""
    try:
        dists = sorted(e.name for e in os.scandir(directory) if e.name.endswith(".dist-info") and e.is_dir())
    except OSError:
        dists = []
    paths = (os.path.join(directory, dist, "entry_points.txt") for dist in dists[:MAX_DISTRIBUTIONS])
    return [path for path in paths if os.path.isfile(path)]


def ini_entries(text: str) -> Iterator[tuple[str, str, str]]:
    """(group, name, object reference) of an ``entry_points.txt``."""
    group = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip()
        elif "=" in line and group:
            name, _, ref = line.partition("=")
            yield group, name.strip(), ref.strip()


def _toml_scripts(path: str) -> Iterator[tuple[str, str]]:
    """(name, object reference) of a ``pyproject.toml``'s console scripts."""
    data = read_toml(path, "scripts")
    if data is None:
        return
    project = data.get("project")
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    for table in (project.get("scripts") if isinstance(project, dict) else None,
                  poetry.get("scripts") if isinstance(poetry, dict) else None):
        for name, ref in table.items() if isinstance(table, dict) else ():
            if isinstance(ref, str):
                yield name, ref


#: words of a console script's name or its module's that say it starts a server (``listmonk-mcp =
#: listmonk_mcp.server:main``, ``harflow-mcp``): what it runs answers a client, it is no command for a person
SERVER_SCRIPT_WORDS = frozenset({"mcp", "server", "serve", "stdio", "daemon", "agent", "bot"})
_WORD = re.compile(r"[^a-z0-9]+")


def _serves(name: str, module: str) -> bool:
    """The script starts a server (:data:`SERVER_SCRIPT_WORDS` in its name or its module's last part)."""
    words = set(_WORD.split(name.lower())) | set(_WORD.split(module.rsplit(".", 1)[-1].lower()))
    return bool(words & SERVER_SCRIPT_WORDS)


@functools.lru_cache(maxsize=256)
def console_script_modules(directory: str, top: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The dotted modules of the top-level package ``top`` (whose directory is ``directory``) that a console script
    runs for a person (not one whose name or module says it starts a server: :func:`_serves`), and the files they were read from (for the cache): ``*.dist-info/entry_points.txt`` beside the package,
    ``pyproject.toml`` beside it or one directory up (a ``src/`` layout)."""
    base = os.path.dirname(directory)
    refs: list[tuple[str, str]] = []
    read: list[str] = []
    for path in distribution_entry_files(base):
        text = read_small(path)
        if text is not None and "console_scripts" in text:
            read.append(path)
            refs.extend((name, ref) for group, name, ref in ini_entries(text)
                        if group in ("console_scripts", "gui_scripts"))
    for where in (base, os.path.dirname(base)):
        path = os.path.join(where, "pyproject.toml")
        if os.path.isfile(path):
            read.append(path)
            refs.extend(_toml_scripts(path))
    modules: set[str] = set()
    servers: set[str] = set()
    for name, ref in refs:
        m = _OBJECT.match(ref)
        if m is not None and m.group(1).split(".")[0] == top:
            (servers if _serves(name, m.group(1)) else modules).add(m.group(1))
    # a module any script names as a server is one, whatever its other aliases say (local-shell-mcp's ``lsm``)
    return frozenset(modules - servers), tuple(read)
