"""Test modules: which files are a project's tests, the one answer the engine and ``smullyan tools`` share.

A test module is what pytest collects and the code beside it (its default ``python_files``, and the
``tests`` packages projects keep them in): a file in a directory named ``tests`` (at any depth: opensre's
``tests/e2e/kubernetes/trigger_alert.py``, cognee's ``cognee/tests/deployment/mcp_harness.py``), or named
``test_*.py``, ``*_test.py`` or ``conftest.py``. Those are :data:`TEST_MODULES`, the default of the
``test-modules`` setting (globs, fnmatch-style as ``per-file-ignores``: relative to the configuration's
directory; one without a ``/`` matches the file's name only). A rule whose class says ``applies_in_tests = False``
is not run in them (``engine``); ``smullyan tools`` lists no tool defined in one (``tools/demos.py``).
``test-modules = []`` makes no file a test module: every rule runs everywhere, as before.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Sequence

__all__ = ["TEST_MODULES", "matches", "is_test_module"]

#: pytest's own file patterns and the ``tests`` packages (fnmatch's ``*`` crosses ``/``)
TEST_MODULES: tuple[str, ...] = ("tests/*", "*/tests/*", "test_*.py", "*_test.py", "conftest.py")


def matches(rel: str, raw: str, name: str, absolute: str, glob: str, *, names_only: bool = False) -> bool:
    """Whether ``glob`` matches a file, given its path relative to the configuration's directory (``rel``),
    as given (``raw``), its name and its absolute path: the matching of ``per-file-ignores`` (an absolute glob
    matches the absolute path; a glob without ``/`` the name too; a directory glob what is under it).
    ``names_only``: a glob without ``/`` matches the name only (``test_*.py`` is not ``test_utils/db.py``)."""
    g = glob.replace(os.sep, "/")
    if g.startswith("./"):
        g = g[2:]
    if names_only and "/" not in g:
        return fnmatch.fnmatchcase(name, g)
    if os.path.isabs(glob):
        return fnmatch.fnmatchcase(absolute, g) or fnmatch.fnmatchcase(absolute, g.rstrip("/") + "/*")
    return (
        fnmatch.fnmatchcase(rel, g)
        or fnmatch.fnmatchcase(raw, g)
        or ("/" not in g and fnmatch.fnmatchcase(name, g))
        or fnmatch.fnmatchcase(rel, g.rstrip("/") + "/*")
    )


def is_test_module(rel: str, globs: Sequence[str] = TEST_MODULES) -> bool:
    """Whether the file at ``rel`` (a ``/``-separated path relative to the project, or a module's dotted name
    spelt as one: ``tests/tools/test_registry.py``) is a test module by ``globs``."""
    name = rel.rsplit("/", 1)[-1]
    return any(matches(rel, rel, name, rel, g, names_only=True) for g in globs if not os.path.isabs(g))
