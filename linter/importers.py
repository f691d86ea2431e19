"""Who imports a module of the linted file's own project: its importers read from the modules ``imports_disk`` follows.

:func:`importing_modules` (s53) gives every module of the project that imports the linted module, with its source
text (TFH401's evidence that the module is the project's command line); :func:`shares_import` says whether the
linted module imports a name that one of the project's modules of a kind imports from the same module too
(:func:`.imports_disk.imported_by`). Both are memoised per project and record the modules they read in the active
:func:`.imports_disk.recording`."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable

from .imports_disk import _module, _project_files, _root, imported_by, record_reads
from .packages import absolute_module, package_of
from .scripts import console_script_modules

__all__ = ["console_scripts", "importing_modules", "shares_import"]


_importing: dict[str, dict[str, list[tuple[str, tuple[str, ...]]]]] = {}  # project directory -> module -> importers
_EVERY = "\0every"  # the key of every module read in a project's index


def importing_modules(path: str) -> list[tuple[tuple[str, ...], str, str]] | None:
    """s53: the modules of the linted file's own project that import the module at ``path`` (``from .install import
    plan``, ``from . import install``, ``import pkg.install``; any depth of the importer, not re-exports), each as
    (its dotted name's parts, its source text, its file); None outside a package or when the project is too large to
    index (:data:`MAX_INDEXED_FILES`). s54: a package's ``__init__`` is imported by ``from . import clients``,
    ``import pkg.clients`` and ``from .clients import Name``, not by ``from .clients import jsonc`` where ``jsonc``
    is a submodule (harflow's ``backends/mcp_approval.py`` reads only ``clients/jsonc.py``). Memoised per project;
    the modules read are recorded in the active :func:`recording`."""
    root = _root(path)
    package = package_of(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if root is None or package is None:
        return None
    module = package if stem == "__init__" else f"{package}.{stem}"
    top, directory = root
    if directory not in _importing:
        base = os.path.dirname(directory)
        listed = _project_files(directory)  # None past MAX_INDEXED_FILES
        index: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        if listed is not None:
            for file in listed:
                parts = tuple(os.path.relpath(file, base)[: -len(".py")].split(os.sep))
                parsed = _module(file)
                index.setdefault(_EVERY, []).append((file, parts))
                if parsed is None or parsed.summary is None:
                    continue
                own = ".".join(parts[:-1])
                sources: set[str] = set()
                for source_name, level, taken in parsed.summary.imports_from:
                    source = absolute_module(source_name, level, own or None)
                    if source is not None and source.split(".")[0] == top:
                        if not all(_submodule(base, source, name) for name in taken):
                            sources.add(source)  # s54: not ``from .clients import jsonc`` alone (a package's submodule)
                        sources.update(f"{source}.{name}" for name in taken)  # ``from . import install``
                sources.update(m for m, _ in parsed.summary.imported if m.split(".")[0] == top)
                for source in sources:
                    index.setdefault(source, []).append((file, parts))
        else:
            index = {"": []}  # too large: nothing said
        _importing[directory] = index
    index = _importing[directory]
    if "" in index and len(index) == 1:
        return None
    for file, _ in index.get(_EVERY, []):
        _module(file)  # recorded: the finding depends on what every module of the project imports
    out: list[tuple[tuple[str, ...], str, str]] = []
    for file, parts in index.get(module, []):
        parsed = _module(file)
        if parsed is not None and os.path.realpath(file) != os.path.realpath(path):
            out.append((parts, "".join(parsed.lines), file))
    return out


def _submodule(base: str, source: str, name: str) -> bool:
    """``name`` is a submodule or subpackage of the package ``source`` (under the directory ``base``)."""
    directory = os.path.join(base, *source.split("."))
    return os.path.isfile(os.path.join(directory, name + ".py")) or os.path.isdir(os.path.join(directory, name))


def console_scripts(path: str) -> frozenset[str]:
    """s54: the dotted modules of the linted file's top-level package that a console script declared beside it runs
    (:func:`.scripts.console_script_modules`: ``harflow-setup = harflow_mcp.setup_client:main``); the files read are
    recorded in the active :func:`recording`."""
    root = _root(path)
    if root is None:
        return frozenset()
    top, directory = root
    modules, read = console_script_modules(directory, top)
    record_reads(list(read), {})
    return modules


def shares_import(path: str, tree: ast.Module, accepts: Callable[[list[str]], bool], kind: str) -> bool:
    """The module at ``path`` (its ``ast`` tree) imports, at its top level, a name of its own project that one
    of the project's modules ``accepts`` imports from the same module too (see :func:`imported_by`): camel-oasis's
    platform and its agent's tools module both import ``Channel`` from ``oasis.social_platform.channel``."""
    package = package_of(path)
    if package is None:
        return False
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            source = absolute_module(node.module, node.level, package)
            if source is not None and source.split(".")[0] == package.split(".")[0]:
                if {a.name for a in node.names} & imported_by(path, accepts, kind, module=source):
                    return True
    return False
