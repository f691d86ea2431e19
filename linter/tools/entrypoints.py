"""Tools declared as package entry points: ``[oterm.tools] date_time = oterm.tools.date_time:date_time`` in an
installed distribution's ``entry_points.txt``, or ``[project.entry-points."oterm.tools"]`` in a source checkout's
``pyproject.toml``; the application loads the group and hands each object to its model as a tool.

Read only beside the run's own packages: the directory holding a top-level package of the run (a ``site-packages``
directory, a checkout's root or its ``src/``) for ``*.dist-info/entry_points.txt``, and that directory and its parent
for ``pyproject.toml``. A group counts when its name says tools (a dotted, dashed or snake-case word ``tool``/
``tools``: ``oterm.tools``, ``llm_tools``; never ``console_scripts``), an entry when its object is a module-level
function of a package of the run (``module:function``), or a class (``module:Class``: the first of
``handlers.RUN_METHODS`` it defines), which :func:`~.adoption.adopted` then resolves and its file
describes as a tool. Reading never raises: a file over :data:`MAX_BYTES`, unreadable or malformed gives no entry,
and at most :data:`MAX_DISTRIBUTIONS` distributions are looked at per directory."""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Iterator

from ..packages import package_of
from ..scripts import MAX_BYTES, MAX_DISTRIBUTIONS, distribution_entry_files, ini_entries as _ini_entries
from ..scripts import read_small as _read, read_toml
from .handlers import RUN_METHODS
from .remote import Remote


__all__ = ["MAX_BYTES", "MAX_DISTRIBUTIONS", "entry_point_refs", "tool_group"]

_WORDS = re.compile(r"[._\-]")
_OBJECT = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*:\s*([A-Za-z_]\w*)\s*(?:\[.*\])?\s*$")


def tool_group(group: str) -> bool:
    """An entry-point group whose name says its entries are tools (``oterm.tools``, ``llm-tools``)."""
    return bool({"tool", "tools"} & set(_WORDS.split(group.lower())))


def _roots(files: Iterable[str]) -> dict[str, set[str]]:
    """The directories holding the run's top-level packages -> those packages' names."""
    out: dict[str, set[str]] = {}
    for f in files:
        package = package_of(f)
        if not package:
            continue
        top = package.split(".")[0]
        up = os.path.abspath(f)
        for _ in range(len(package.split(".")) + 1):
            up = os.path.dirname(up)
        out.setdefault(up, set()).add(top)
    return out


def _toml_entries(path: str) -> Iterator[tuple[str, str, str]]:
    """(group, name, object reference) of a ``pyproject.toml``'s ``[project.entry-points.<group>]`` tables."""
    data = read_toml(path, "entry-points")
    if data is None:
        return
    groups = data.get("project", {}).get("entry-points", {}) if isinstance(data.get("project"), dict) else {}
    for group, table in groups.items() if isinstance(groups, dict) else ():
        for name, ref in table.items() if isinstance(table, dict) else ():
            if isinstance(ref, str):
                yield group, name, ref


def _entries(directory: str) -> Iterator[tuple[str, str, str, str]]:
    """(file, group, name, object reference) of the entry points declared in ``directory``."""
    for path in distribution_entry_files(directory):
        text = _read(path)
        for group, name, ref in _ini_entries(text or ""):
            yield path, group, name, ref
    for where in (directory, os.path.dirname(directory)):
        path = os.path.join(where, "pyproject.toml")
        if os.path.isfile(path):
            for group, name, ref in _toml_entries(path):
                yield path, group, name, ref


def entry_point_refs(files: Collection[str]) -> list[Remote]:
    """The module-level functions of the run's packages that a tool entry-point group beside them names."""
    out: dict[str, Remote] = {}
    for directory, tops in sorted(_roots(files).items()):
        for _path, group, name, ref in _entries(directory):
            m = _OBJECT.match(ref)
            if not tool_group(group) or m is None or m.group(1).split(".")[0] not in tops:
                continue
            qn = f"{m.group(1)}.{m.group(2)}"
            # a class (agentik's ``http_fetch = agentik.tools.http_fetch:HttpFetchTool``, no tool base): the first run
            # method it defines, as a registered class's (``handlers.RUN_METHODS``); a function: itself
            refs = "|".join([*(f"{qn}.{method}" for method in RUN_METHODS), qn])
            out.setdefault(qn, (refs, name, group.split(".")[0], f"{group} entry point", ""))
    return list(out.values())
