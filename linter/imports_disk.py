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

A followed module is read for its definitions only, never linted: read and parsed with ``ast`` once per
process, size-capped (:data:`MAX_BYTES`); what the readers ask of it (its module-level names, its classes'
methods, its imports: :class:`_Summary`) is taken from the tree at once and the tree dropped, memoised by
path, size and mtime; only the definition asked for is parsed with libcst (from its own lines, once); any
read or parse error gives nothing. Every module file read while linting a file is recorded (its path and sha256) in the
:func:`recording` that is active, so the cache can key the linted file's findings on them."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from . import knowledge as kb
from .packages import absolute_module, package_of
from .project_calls import Call as _Call, calls_by_name as _calls_by_name, only_called
from .file_names import file_names
from .disk_summary import ImportStatement, _Class, _From, _Func, _Summary, _summary

if TYPE_CHECKING:
    import libcst as cst

__all__ = ["DEFINES_PREFIX", "MAX_BYTES", "MAX_INDEXED_FILES", "dependency_digest", "digest_of", "imported_definition",
           "imported_method", "imported_by", "project_call_arguments", "project_method_stays_local", "project_only_calls",
           "recording"]

#: a module larger than this is not followed (generated tables, vendored bundles)
MAX_BYTES = 400_000

@dataclass
class _Parsed:
    size: int
    mtime_ns: int
    sha: str  # "" when not read (too large, unreadable)
    summary: _Summary | None  # None: not read or does not parse
    lines: list[str]
    defs: dict[tuple[str, ...], cst.FunctionDef | None] = field(default_factory=dict)  # (name,) / (cls, meth)
    #: s46: every call in the module by the name it calls (:func:`_calls_by_name`), taken in the parse that made the
    #: summary when a caller asked for it (:func:`project_call_arguments`); None: not asked for when it was parsed
    calls: dict[str, list[_Call]] | None = None


_memo: dict[str, _Parsed] = {}  # real path -> the module as read (its summary; a definition's libcst tree on demand)
_read_dirs: set[str] = set()  # s56: the directories of the files :func:`_module` has read (:func:`remember`'s gate)
_read_roots: set[str] = set()  # s56: the package roots with a file among them
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


def recording_active() -> bool:
    """A cache recording is collecting what the current lint reads (:func:`recording`)."""
    return bool(_recorder)


def digest_of(path: str) -> str | None:
    """The sha256 of a file's bytes (None: unreadable), as the cache compares a followed module."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def record_reads(read: list[str], keys: dict[str, str]) -> None:
    """Tell the active cache recording (if any) the files a project reader read, each by its sha256, and its
    ``defines:`` keys with their digests: a change to any of them invalidates the linted file's entry."""
    if not _recorder:
        return
    for file in read:
        sha = digest_of(file)
        if sha is not None:
            _recorder[-1][file] = sha
    _recorder[-1].update(keys)


#: how many directories without ``__init__.py`` may lie between a linted file and its package
_NAMESPACE_DEPTH = 2


def _root(path: str, top: str | None = None) -> tuple[str, str] | None:
    """The linted file's top-level package name and that package's directory (real path).

    s40: with ``top`` (the top-level package a qualified name starts with), a file in a directory without
    ``__init__.py`` (a namespace part, memorisdk's ``memori/memory/``), or in a package below one, belongs
    to the package ``top`` found up to :data:`_NAMESPACE_DEPTH` such directories above it."""
    if not path or path in ("-", "stdin"):
        return None
    directory = os.path.dirname(os.path.abspath(path))
    package = package_of(path)
    hops = 0
    while True:
        if package is not None:
            for _ in range(package.count(".")):
                directory = os.path.dirname(directory)
            if top is None or package.split(".")[0] == top:
                return package.split(".")[0], os.path.realpath(directory)
        if top is None or hops >= _NAMESPACE_DEPTH:
            return None
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
        hops += 1
        package = package_of(os.path.join(directory, "__init__.py"))


def _module(path: str, calls: bool = False) -> _Parsed | None:
    """The module at ``path`` (``ast``, memoised by size and mtime), recorded in the active recording. With ``calls``,
    its calls by name too (:attr:`_Parsed.calls`), taken from the same tree: one parse per file per process, unless
    the file was first read for its summary alone and is later asked for its calls (s46)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    memo = _memo.get(path)
    stale = memo is None or memo.size != st.st_size or memo.mtime_ns != st.st_mtime_ns
    if stale or (calls and memo is not None and memo.summary is not None and memo.calls is None):
        memo = _Parsed(st.st_size, st.st_mtime_ns, "", None, [])
        if st.st_size <= MAX_BYTES:
            try:
                with open(path, "rb") as f:
                    data = f.read(MAX_BYTES + 1)
            except OSError:
                return None
            if len(data) <= MAX_BYTES:
                memo.sha = hashlib.sha256(data).hexdigest()
                try:
                    tree = ast.parse(data)
                    memo.lines = data.decode("utf-8").splitlines(keepends=True)
                    memo.summary = _summary(tree)
                    if calls:
                        memo.calls = _calls_by_name(tree)
                except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
                    memo.summary = None  # nothing is followed in a module that does not parse
        _memo[path] = memo
        _read_dirs.add(os.path.dirname(path))
    assert memo is not None
    if memo.sha and _recorder:
        _recorder[-1][path] = memo.sha
    return memo if memo.summary is not None else None


def memoised_imports(path: str) -> tuple[ImportStatement, ...] | None:
    """s57: the import statements of the module at ``path`` (a real path) when the memo already holds it, fresh (by
    size and mtime) and parsed; None otherwise. Nothing is read or recorded: a reader that parses the file itself
    when this says None (:mod:`.project_tools`) asks it first."""
    memo = _memo.get(path)
    if memo is None or memo.summary is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return memo.summary.statements if memo.size == st.st_size and memo.mtime_ns == st.st_mtime_ns else None


def remember(path: str, source: str | bytes, tree: ast.Module) -> None:
    """s56: the linted file's own entry of the memo, taken from the ``ast`` tree the engine already holds (its own parse,
    or flake8's), so that a project question asked later (``importers.importing_modules`` reads every module of the
    project) does not parse the file again. Exactly what :func:`_module` would store: only when the file's bytes on
    disk are the linted source (bytes), or decode as UTF-8 to it (text: flake8's lines), are within :data:`MAX_BYTES`,
    and their summary is taken without error; else nothing (:func:`_module` reads it when asked). Only in a project
    where :func:`_module` has already read a file (a linted file elsewhere costs its summary for nothing), and never
    recorded: remembering is no read of the linted file's dependencies."""
    root = _root(path)
    if root is None or path in _memo:
        return
    directory = root[1]
    if directory not in _read_roots:
        if not any(d == directory or d.startswith(directory + os.sep) for d in _read_dirs):
            return
        _read_roots.add(directory)
    real = os.path.realpath(path)
    if real in _memo:
        return
    try:
        st = os.stat(real)
        if st.st_size > MAX_BYTES:
            return
        with open(real, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES or data != source and (isinstance(source, bytes) or data.decode("utf-8") != source):
            return
        lines = data.decode("utf-8").splitlines(keepends=True)
        summary = _summary(tree)
    except (OSError, ValueError, RecursionError, MemoryError):  # UnicodeDecodeError is a ValueError
        return
    _memo[real] = _Parsed(st.st_size, st.st_mtime_ns, hashlib.sha256(data).hexdigest(), summary, lines)


def _function(parsed: _Parsed, key: tuple[str, ...], node: _Func) -> cst.FunctionDef | None:
    """The libcst tree of one definition, parsed from its own lines (a method inside a stand-in class)."""
    if key not in parsed.defs:
        import libcst

        text = "".join(parsed.lines[node.first - 1 : node.last])
        found: cst.FunctionDef | None = None
        try:
            if len(key) == 1:
                stmt = libcst.parse_module(text).body[0]
            else:
                holder = libcst.parse_module("class _Holder:\n" + text).body[0]
                stmt = holder.body.body[0] if isinstance(holder, libcst.ClassDef) else None  # type: ignore[assignment]
            found = stmt if isinstance(stmt, libcst.FunctionDef) else None
        except Exception:  # noqa: TFH402  a definition libcst cannot parse: not followed
            found = None
        parsed.defs[key] = found
    return parsed.defs[key]


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


_Def = Union[_Func, _Class]


def _lookup(root: tuple[str, str], parts: list[str], name: str, follow: bool) -> tuple[_Parsed, _Def] | None:
    """``name`` defined in module ``top.<parts>``; a re-export followed one step when ``follow``."""
    located = _module_file(root, parts)
    if located is None:
        return None
    parsed = _module(located[0])
    if parsed is None or parsed.summary is None:
        return None
    found = parsed.summary.top.get(name)
    if found is None:
        return None
    if not isinstance(found, _From):
        return parsed, found
    if not follow:
        return None
    source, level, original = found.module, found.level, found.name
    package = ".".join([root[0], *parts]) if located[1] else ".".join([root[0], *parts[:-1]])
    target = absolute_module(source, level, package)
    if target is None:
        return None
    target_parts = target.split(".")
    if target_parts[0] != root[0]:
        return None  # re-exported from another project: not followed
    return _lookup(root, target_parts[1:], original, False)


def _definition(path: str, qualname: str) -> tuple[_Parsed, _Def] | None:
    root = _root(path, qualname.split(".")[0])
    if root is None:
        return None
    parts = qualname.split(".")
    if len(parts) < 2 or parts[0] != root[0]:
        return None
    try:
        return _lookup(root, parts[1:-1], parts[-1], True)
    except (OSError, ValueError, RecursionError):
        return None


def imported_definition(path: str, qualname: str) -> cst.FunctionDef | None:
    """The module-level function that ``qualname`` names in the project of the file at ``path``.

    ``qualname`` is the resolver's (``top.utils.errors.format_error``); None when it is not in the same
    top-level package, the module is missing, unreadable, too large or does not parse, or no function of
    that name is defined there (after following one re-export)."""
    found = _definition(path, qualname)
    if found is None or not isinstance(found[1], _Func):
        return None
    return _function(found[0], (found[1].name,), found[1])


def imported_method(path: str, class_qualname: str, method: str) -> cst.FunctionDef | None:
    """The method ``method`` defined in the body of the project class ``class_qualname`` (its own bases
    are not followed)."""
    found = _definition(path, class_qualname)
    if found is None or not isinstance(found[1], _Class):
        return None
    owner = found[1]
    node = owner.methods.get(method)
    if node is None:
        return None
    return _function(found[0], (owner.name, method), node)


#: a project with more module files than this is not indexed for who imports a module's names
MAX_INDEXED_FILES = 3000

# (package root, kind) -> (module files read, absolute module -> the names ``from module import name`` takes)
_importers: dict[tuple[str, str], tuple[list[str], dict[str, frozenset[str]]]] = {}


def imported_by(path: str, accepts: Callable[[list[str]], bool], kind: str, module: str | None = None
                ) -> frozenset[str]:
    """The names that modules of the linted file's own project import from it (or from the project's
    ``module``, a dotted name: ``from ..incremental import full_build``, relative or absolute; one level, no
    re-exports), among the project's modules whose dotted name's parts (``["pkg", "tools", "build"]``)
    ``accepts``; memoised per project and ``kind`` (the caller's name for ``accepts``). The modules read are
    recorded in the active :func:`recording`."""
    root = _root(path)
    package = package_of(path)
    if root is None or package is None:
        return frozenset()
    if module is None:
        stem = os.path.splitext(os.path.basename(path))[0]
        module = package if stem == "__init__" else f"{package}.{stem}"
    top, directory = root
    key = (directory, kind)
    if key not in _importers:
        files: list[tuple[str, list[str]]] = []
        base = os.path.dirname(directory)
        for current, dirs, names in os.walk(directory):
            dirs[:] = sorted(d for d in dirs if d.isidentifier())
            for name in sorted(names):
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(current, name), base)[: -len(".py")]
                    files.append((os.path.join(current, name), rel.split(os.sep)))
            if len(files) > MAX_INDEXED_FILES:
                break
        read: list[str] = []
        index: dict[str, set[str]] = {}
        if len(files) <= MAX_INDEXED_FILES:
            for file, parts in files:
                if not accepts(parts):
                    continue
                parsed = _module(file)
                if parsed is None or parsed.summary is None:
                    continue
                read.append(file)
                own = ".".join(parts[:-1])  # the package the importing module is in
                for source_name, level, taken in parsed.summary.imports_from:
                    source = absolute_module(source_name, level, own or None)
                    if source is not None and source.split(".")[0] == top:
                        index.setdefault(source, set()).update(taken)
        _importers[key] = (read, {m: frozenset(n) for m, n in index.items()})
    read, found = _importers[key]
    for file in read:
        _module(file)  # recorded: the finding depends on what those modules import
    return found.get(module, frozenset())


def _project_files(directory: str) -> list[str] | None:
    """The ``.py`` files under a package root (identifier-named directories), or None past :data:`MAX_INDEXED_FILES`."""
    files: list[str] = []
    for current, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d.isidentifier())
        files.extend(os.path.join(current, name) for name in sorted(names) if name.endswith(".py"))
        if len(files) > MAX_INDEXED_FILES:
            return None
    return files


def _name_words(name: str) -> frozenset[str]:
    """``PosixNotificationStoreAdapter`` / ``_notification_store`` -> their lower-case words."""
    return frozenset(w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+", name))


def _stays_local(summary: _Summary, top: str, runs_local: bool = False) -> bool:
    """A module that imports nothing that leaves the machine: only the project's own modules (a relative import is
    the project's own), the standard library less its network, process and thread parts (``OUTSIDE_STDLIB_PREFIXES``)
    and in-memory libraries; ``subprocess`` too for a method that runs only local programs (``runs_local``, s48)."""
    for module, name in summary.imported:
        root = module.split(".")[0]
        if root == top or root in kb.IN_MEMORY_LIBRARIES or (runs_local and module == "subprocess"):
            continue
        if root not in sys.stdlib_module_names:
            return False
        if f"{module}.".startswith(kb.OUTSIDE_STDLIB_PREFIXES) or (
                name is not None and f"{module}.{name}".startswith(kb.OUTSIDE_STDLIB_PREFIXES)):
            return False
    return True


# (package root, method) -> (class name's words, abstract, its module stays local) of each class defining it, the
# module files that define it, and the digest of which files do (:func:`_defines_key`)
_methods: dict[tuple[str, str], tuple[list[tuple[frozenset[str], bool, bool]], list[str], str]] = {}
_project_file_lists: dict[str, list[str]] = {}


def _project_listing(directory: str) -> list[str]:
    """The project's module files under ``directory`` (its top-level package), listed once per process."""
    if directory not in _project_file_lists:
        _project_file_lists[directory] = _project_files(directory) or []
    return _project_file_lists[directory]

#: a recorded dependency that is no file: which files of a project define a method (``defines:<method>:<root dir>``)
DEFINES_PREFIX = "defines:"


def _defines_key(directory: str, method: str) -> str:
    return f"{DEFINES_PREFIX}{method}:{directory}"


def _defining(files: list[str], method: str, calls: bool = False) -> list[str]:
    """The files among ``files`` whose bytes hold ``def <method>(`` (``calls``: ``<method>(`` anywhere; s47: the route
    screen, ``knowledge.ROUTE_SCREEN``, for :data:`knowledge.ROUTES_KEY`: ``linter/project_routes.py``)."""
    if method != kb.ROUTES_KEY and method.isascii():  # by the names each file calls and defines, read once (file_names)
        return [f for f in files if (n := file_names(f, MAX_BYTES)) is not None and method.encode() in n[0 if calls else 1]]
    needle = kb.ROUTE_SCREEN if method == kb.ROUTES_KEY else re.compile((rb"\b" if calls else rb"def\s+") + method.encode() + rb"\s*\(")
    out = []
    for file in files:
        try:
            with open(file, "rb") as handle:
                if needle.search(handle.read(MAX_BYTES + 1)):
                    out.append(file)
        except OSError:
            continue
    return out


def _files_digest(files: list[str]) -> str:
    return hashlib.sha256("\n".join(files).encode("utf-8", "surrogateescape")).hexdigest()


def dependency_digest(key: str) -> str | None:
    """What a recorded dependency is now, as the cache compares it: a followed module's sha256 (:func:`digest_of`),
    or, for a :data:`DEFINES_PREFIX` key, the digest of which files of the project define the method, read afresh (a
    new module defining it changes what :func:`project_method_stays_local` answers; s44)."""
    if not key.startswith(DEFINES_PREFIX):
        return digest_of(key)
    method, _, directory = key[len(DEFINES_PREFIX):].partition(":")
    if method.endswith("("):  # s45: which files call a function (:func:`project_call_arguments`)
        return _files_digest(_defining(_project_files(directory) or [], method[:-1], calls=True))
    return _files_digest(_defining(_project_files(directory) or [], method))


def project_method_stays_local(path: str, receiver: str, method: str) -> bool:
    """Whether ``<receiver>.<method>(...)`` in the file at ``path`` is, by the project's own classes, local work:
    the receiver's last name has two words or more (``_notification_store``), or one word and the method two or more
    (``store.get_bello_config``: a name of the project's own API, not an SDK's ``get``/``snapshot``; s44), the
    project (the linted file's
    top-level package) defines ``method`` in at least one class whose name has all of them
    (``PosixNotificationStoreAdapter``), and every such class that implements it (not abstract) is in a module
    that imports nothing that leaves the machine. Per project and method, once per process: the files' bytes
    are screened for ``def <method>`` and only those are parsed (``ast``) and recorded."""
    wanted = _name_words(receiver)
    root = _root(path)
    if (len(wanted) < 2 and len(_name_words(method)) < 2) or root is None or not method.isidentifier():
        return False
    top, directory = root
    files = _project_listing(directory)
    key = (directory, method)
    if key not in _methods:
        classes: list[tuple[frozenset[str], bool, bool]] = []
        read: list[str] = []
        defining = _defining(files, method)
        for file in defining:
            parsed = _module(file)
            if parsed is None or parsed.summary is None:
                continue
            read.append(file)
            for cls in parsed.summary.classes:
                for abstract in cls.abstract.get(method, ()):
                    classes.append((_name_words(cls.name), abstract, _stays_local(parsed.summary, top, method in cls.runs_local)))
        _methods[key] = (classes, read, _files_digest(defining))
    found, files, which = _methods[key]
    for file in files:
        _module(file)  # recorded: the finding depends on those classes
    if _recorder:
        _recorder[-1][_defines_key(directory, method)] = which  # and on which files define the method (a new one)
    concrete = [local for words, abstract, local in found if wanted <= words and not abstract]
    return bool(concrete) and all(concrete)


# (package root, function) -> each call of it in the project (a project_calls.Call), the files read, which hold it
_call_sites: dict[tuple[str, str], tuple[list[_Call], list[str], str]] = {}


def project_call_arguments(path: str, function: str) -> list[_Call] | None:
    """Every call ``function(...)``/``x.function(...)`` in the linted file's project (its top-level package's
    modules on disk, the linted file among them; s45): per call, its keywords and positionals as literal strings
    (None: not a literal), on an attribute, spreading ``*``/``**``, each list's words (s48). None when the
    project is not known or too large. Per project and name, once per process: files are screened for
    ``<function>(`` and only those parsed (``ast``) and recorded, with which files hold it."""
    root = _root(path)
    if root is None or not function.isidentifier():
        return None
    directory = root[1]
    listing = _project_listing(directory)
    key = (directory, function)
    if key not in _call_sites:
        holding = _defining(listing, function, calls=True)
        calls: list[_Call] = []
        read: list[str] = []
        for file in holding:
            parsed = _module(file, calls=True)
            if parsed is None or parsed.calls is None:
                continue
            read.append(file)
            calls.extend(parsed.calls.get(function, ()))
        _call_sites[key] = (calls, read, _files_digest(holding))
    found, read_files, which = _call_sites[key]
    for file in read_files:
        _module(file)  # recorded: the finding depends on those calls
    if _recorder:
        _recorder[-1][_defines_key(directory, function + "(")] = which  # and on which files call it (a new one)
    return found if listing else None


def project_only_calls(path: str, function: str) -> bool:
    """s48: every project module that mentions ``function`` only calls it or imports it unrenamed
    (:func:`.project_calls.only_called`): :func:`project_call_arguments` sees each use. Those modules are recorded."""
    root = _root(path)
    listing = _project_listing(root[1]) if root is not None and function.isidentifier() else []
    for file in listing:
        try:
            with open(file, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError:
            return False
        if function.encode() in data:  # recorded: a changed mention changes the answer
            if _recorder:
                _recorder[-1][file] = hashlib.sha256(data).hexdigest()
            if len(data) > MAX_BYTES or not only_called(data, function):
                return False
    return bool(listing)
