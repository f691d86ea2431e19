"""Test modules: which files are a project's tests, the one answer the engine and ``smullyan tools`` share.

A test module is a file in a directory named ``tests`` at any depth (where pytest's ``testpaths`` usually point:
opensre's ``tests/e2e/kubernetes/trigger_alert.py``, cognee's ``cognee/tests/deployment/mcp_harness.py``), or a
``conftest.py``. Those are :data:`TEST_MODULES`, the default of the ``test-modules`` setting (globs, fnmatch-style
as ``per-file-ignores``: relative to the configuration's directory; one without a ``/`` matches the file's name
only). pytest's file names (``test_*.py``, ``*_test.py``) are not in it: in agent code they also name the tools
about tests (alita-sdk's ``tools/ado/test_plan/test_plan_wrapper.py``, Azure DevOps test plans; sage-ai-cli's
``tools/test_eval_ops.py``; agentverse's ``executor/code_test.py``), production code whose findings count; a project
whose tests sit beside its code adds them (``test-modules = ["tests/*", "*/tests/*", "conftest.py", "test_*.py"]``).
A rule whose class says ``applies_in_tests = False`` is not run in a test module (``engine``); ``smullyan tools``
lists no tool defined in one (``tools/demos.py``). ``test-modules = []`` makes no file a test module: every rule
runs everywhere, as before.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Sequence
from typing import Optional

__all__ = ["TEST_MODULES", "in_test_modules", "matches", "is_test_module"]

#: the ``tests`` directories at any depth (fnmatch's ``*`` crosses ``/``) and pytest's ``conftest.py``
TEST_MODULES: tuple[str, ...] = ("tests/*", "*/tests/*", "conftest.py")


def matches(rel: str, raw: str, name: str, absolute: str, glob: str) -> bool:
    """Whether ``glob`` matches a file, given its path relative to the configuration's directory (``rel``),
    as given (``raw``), its name and its absolute path: the matching of ``per-file-ignores`` (an absolute glob
    matches the absolute path; a glob without ``/`` the name too; a directory glob what is under it)."""
    g = glob.replace(os.sep, "/")
    if g.startswith("./"):
        g = g[2:]
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
    by_path, by_name, _ = _compiled(tuple(globs))  # the patterns :func:`in_test_modules` matches; no absolute one here
    return bool((by_name is not None and by_name.match(rel.rsplit("/", 1)[-1]))
                or (by_path is not None and by_path.match(rel)))


def in_test_modules(path: str, source: str | None, globs: Sequence[str]) -> bool:
    """Whether the file at ``path`` is a test module by ``globs`` of the configuration read from ``source`` (its
    directory is what they are relative to; ``None``: the current directory): one compiled pattern per setting,
    paths as given made absolute, no file-system call (the engine asks once per linted file); unlike
    ``per-file-ignores``' :func:`matches`, a glob without ``/`` matches the name only (``test_*.py`` is not
    ``test_utils/db.py``)."""
    absolute = os.path.abspath(path)
    root = os.path.dirname(os.path.abspath(source)) if source else os.getcwd()
    if absolute.startswith(root + os.sep):
        rel = absolute[len(root) + 1:]
    else:
        try:
            rel = os.path.relpath(absolute, root)
        except ValueError:  # another drive on Windows
            rel = absolute
    if os.sep != "/":
        rel, path, absolute = rel.replace(os.sep, "/"), path.replace(os.sep, "/"), absolute.replace(os.sep, "/")
    by_path, by_name, by_absolute = _compiled(tuple(globs))
    return bool(
        (by_name is not None and by_name.match(absolute.rsplit("/", 1)[-1]))
        # a relative glob never meets the directories above the project (a checkout kept under ``~/tests/``)
        or (by_path is not None and (by_path.match(rel) or (not os.path.isabs(path) and by_path.match(path))))
        or (by_absolute is not None and by_absolute.match(absolute))
    )


_Pattern = Optional["re.Pattern[str]"]


@functools.lru_cache(maxsize=64)
def _compiled(globs: tuple[str, ...]) -> tuple[_Pattern, _Pattern, _Pattern]:
    """``globs`` as three patterns: of the relative (or given) path, of the name, of the absolute path."""
    paths: list[str] = []
    names: list[str] = []
    absolutes: list[str] = []
    for glob in globs:
        g = glob.replace(os.sep, "/")
        if g.startswith("./"):
            g = g[2:]
        if "/" not in g:
            names.append(fnmatch.translate(g))
        elif os.path.isabs(glob):
            absolutes += [fnmatch.translate(g), fnmatch.translate(g.rstrip("/") + "/*")]
        else:
            paths += [fnmatch.translate(g), fnmatch.translate(g.rstrip("/") + "/*")]

    def one(parts: list[str]) -> _Pattern:
        return re.compile("|".join(f"(?:{p})" for p in parts)) if parts else None

    return one(paths), one(names), one(absolutes)
