"""A project's own imports, followed on disk: which module file of the same project a name comes from.

A rule that follows a helper (TFH401: does the formatter the handler hands the exception to return its
text?) asks here for the definition an imported name refers to. The module is found the way Python finds
it, but only inside the linted file's own project:

- the linted file's *package root* is the top-level package found by walking up the ``__init__.py``
  files above it (``linter/packages.py``); a file outside any package has none, and nothing is followed;
- a name qualified as ``top.a.b.f`` (the resolver has already turned relative imports and aliases into
  qualified names) is looked for in ``<root>/a/b.py`` or ``<root>/a/b/__init__.py`` (a directory
  without ``__init__.py`` counts too: a namespace package), then ``top.a`` with ``b.f`` as a class member;
  a name the module only re-exports (``from .errors import f`` in a package's ``__init__.py``) is followed
  one step;
- never a module outside the root (another installed package, the standard library): the real path of
  the followed file must be under the real path of the root.

A followed module is read for its definitions only, never linted: read and parsed (libcst) once per
process, memoised by path, size and mtime, size-capped (:data:`MAX_BYTES`); any read or parse error
gives nothing. Every module file read while linting a file is recorded (its path and sha256) in the
:func:`recording` that is active, so the cache can key the linted file's findings on them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .packages import absolute_module, package_of

if TYPE_CHECKING:
    import libcst as cst

__all__ = ["MAX_BYTES", "digest_of", "imported_definition", "imported_method", "recording"]

#: a module larger than this is not followed (generated tables, vendored bundles)
MAX_BYTES = 400_000

_Memo = tuple[int, int, str, "cst.Module | None"]
_memo: dict[str, _Memo] = {}  # real path -> (size, mtime_ns, sha256, parsed module or None)
_recorder: list[dict[str, str]] = []  # the active recordings: real path -> sha256 of what was read


@contextlib.contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Collect the project modules read while the block runs (path -> sha256), for the cache."""
    deps: dict[str, str] = {}
    _recorder.append(deps)
    try:
        yield deps
    finally:
        _recorder.pop()


def digest_of(path: str) -> str | None:
    """The sha256 of a file's bytes (None: unreadable), as the cache compares a followed module."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _root(path: str) -> tuple[str, str] | None:
    """The linted file's top-level package name and that package's directory (real path)."""
    if not path or path in ("-", "stdin"):
        return None
    directory = os.path.dirname(os.path.abspath(path))
    package = package_of(path)
    if package is None:
        return None
    depth = package.count(".")
    top_dir = directory
    for _ in range(depth):
        top_dir = os.path.dirname(top_dir)
    return package.split(".")[0], os.path.realpath(top_dir)


def _module(path: str) -> cst.Module | None:
    """The parsed module at ``path`` (memoised by size and mtime), recorded in the active recording."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    memo = _memo.get(path)
    if memo is None or memo[0] != st.st_size or memo[1] != st.st_mtime_ns:
        memo = (st.st_size, st.st_mtime_ns, "", None)
        if st.st_size <= MAX_BYTES:
            try:
                with open(path, "rb") as f:
                    data = f.read(MAX_BYTES + 1)
            except OSError:
                return None
            module = None
            if len(data) <= MAX_BYTES:
                import libcst

                try:
                    module = libcst.parse_module(data)
                except Exception:  # noqa: TFH402  any parse failure of a followed module: nothing is followed
                    module = None
            memo = (st.st_size, st.st_mtime_ns, hashlib.sha256(data).hexdigest(), module)
        _memo[path] = memo
    if memo[2] and _recorder:
        _recorder[-1][path] = memo[2]
    return memo[3]


def _module_file(root: tuple[str, str], parts: list[str]) -> tuple[str, bool] | None:
    """The file of module ``top.<parts>`` under the root, and whether it is a package's ``__init__.py``."""
    top_dir = root[1]
    base = os.path.join(top_dir, *parts)
    for candidate, is_init in ((base + ".py", False), (os.path.join(base, "__init__.py"), True)):
        if os.path.isfile(candidate):
            real = os.path.realpath(candidate)
            if real.startswith(top_dir + os.sep):
                return real, is_init
            return None  # a symbolic link out of the project
    return None


def _top_level(module: cst.Module, name: str) -> cst.FunctionDef | cst.ClassDef | tuple[str | None, int, str] | None:
    """The module-level ``def``/``class`` named ``name``, or where it is imported from (module, level, name)."""
    import libcst as cst

    found: cst.FunctionDef | cst.ClassDef | tuple[str | None, int, str] | None = None
    for stmt in module.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and stmt.name.value == name:
            found = stmt  # the last binding wins, as at run time
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        local = alias.asname.name if alias.asname is not None else alias.name
                        if isinstance(local, cst.Name) and local.value == name and isinstance(alias.name, cst.Name):
                            source = _dotted(small.module) if small.module is not None else None
                            found = (source, len(small.relative), alias.name.value)
    return found


def _dotted(node: cst.BaseExpression) -> str | None:
    import libcst as cst

    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def _lookup(
    root: tuple[str, str], parts: list[str], name: str, follow: bool
) -> cst.FunctionDef | cst.ClassDef | None:
    """``name`` defined in module ``top.<parts>``; a re-export followed one step when ``follow``."""
    located = _module_file(root, parts)
    if located is None:
        return None
    module = _module(located[0])
    if module is None:
        return None
    found = _top_level(module, name)
    if found is None or not isinstance(found, tuple):
        return found
    if not follow:
        return None
    source, level, original = found
    package = ".".join([root[0], *parts]) if located[1] else ".".join([root[0], *parts[:-1]])
    target = absolute_module(source, level, package)
    if target is None:
        return None
    target_parts = target.split(".")
    if target_parts[0] != root[0]:
        return None  # re-exported from another project: not followed
    return _lookup(root, target_parts[1:], original, False)


def imported_definition(path: str, qualname: str) -> cst.FunctionDef | cst.ClassDef | None:
    """The module-level function or class that ``qualname`` names in the project of the file at ``path``.

    ``qualname`` is the resolver's (``top.utils.errors.format_error``); None when it is not in the same
    top-level package, the module is missing, unreadable, too large or does not parse, or the name is
    not defined there (after following one re-export)."""
    root = _root(path)
    if root is None:
        return None
    parts = qualname.split(".")
    if len(parts) < 2 or parts[0] != root[0]:
        return None
    try:
        return _lookup(root, parts[1:-1], parts[-1], True)
    except (OSError, ValueError, RecursionError):
        return None


def imported_method(path: str, class_qualname: str, method: str) -> cst.FunctionDef | None:
    """The method ``method`` defined in the body of the project class ``class_qualname`` (its own bases
    are not followed)."""
    import libcst as cst

    owner = imported_definition(path, class_qualname)
    if not isinstance(owner, cst.ClassDef) or not isinstance(owner.body, cst.IndentedBlock):
        return None
    found: cst.FunctionDef | None = None
    for stmt in owner.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == method:
            found = stmt
    return found
