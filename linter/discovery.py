"""Which files ``smullyan lint`` looks at.

Given the paths on the command line, :func:`discover` yields the Python files to
lint, in a stable order:

- a file named on the command line is always linted, whatever its extension and
  even if ignored (as flake8 and ruff do);
- a directory is walked for ``*.py`` files, skipping version-control and tool
  directories (:data:`SKIP_DIRS`), virtualenvs (any directory that holds a
  ``pyvenv.cfg``) and whatever ``.gitignore`` files ignore.

Why our own ``.gitignore`` matcher instead of ``git check-ignore --stdin``: it
works the same inside and outside a git work tree (a tarball, an sdist, a
pre-commit sandbox), needs no ``git`` binary, costs no subprocess, and the walk
can prune an ignored directory without listing it.  It implements the subset
that real projects use: comments, blank lines, ``*``/``?``/``[...]`` globs,
``**`` (leading, trailing and in the middle), directory-only patterns with a
trailing ``/``, patterns anchored by a leading or inner ``/``, negation with
``!`` (last match wins), backslash escapes, nested ``.gitignore`` files that
apply to their own subtree, the repository's ``.git/info/exclude``, and the
user's global excludes file (``core.excludesFile`` from git's global or the
repository's config, else ``$XDG_CONFIG_HOME/git/ignore``), as git reads them.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

__all__ = [
    "SKIP_DIRS",
    "GitIgnore",
    "ExcludeMatchers",
    "PathNotFound",
    "discover",
    "is_virtualenv",
]

#: Directory names never walked into (unless named on the command line).
SKIP_DIRS: frozenset[str] = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".eggs",
        "build",
        "dist",
        "__pycache__",
        "__pypackages__",
        "node_modules",
        ".smullyan_cache",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)

#: File suffixes picked up when walking a directory.
PYTHON_SUFFIXES: tuple[str, ...] = (".py",)


class PathNotFound(Exception):
    """A path given on the command line does not exist."""

    def __init__(self, path: str) -> None:
        super().__init__(f"path not found: {path}")
        self.path = path


# --------------------------------------------------------------------------- gitignore


@dataclass(frozen=True, slots=True)
class _Pattern:
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate_glob(glob: str) -> str:
    """Translate one gitignore glob (already stripped of ``!``, ``/`` marks) to a regex body."""
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if c == "*":
            if glob.startswith("**", i):
                at_seg_start = i == 0 or glob[i - 1] == "/"
                after = i + 2
                at_seg_end = after == n or glob[after] == "/"
                if at_seg_start and at_seg_end:
                    if after == n:
                        # trailing "**": everything below (at least one character)
                        out.append(".*")
                        i = after
                    else:
                        # "**/": zero or more directories
                        out.append("(?:.*/)?")
                        i = after + 1
                    continue
                # any other run of asterisks is a plain "*"
                while i < n and glob[i] == "*":
                    i += 1
                out.append("[^/]*")
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and glob[j] in "!^":
                j += 1
            if j < n and glob[j] == "]":
                j += 1
            while j < n and glob[j] != "]":
                j += 1
            if j >= n:
                out.append(re.escape(c))  # unterminated class: a literal "["
            else:
                body = glob[i + 1 : j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                body = body.replace("\\", "\\\\")
                out.append(f"(?!/)[{body}]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _compile_line(line: str) -> _Pattern | None:
    line = line.rstrip("\n").rstrip("\r")
    if not line or line.startswith("#"):
        return None
    # trailing spaces are ignored unless escaped with a backslash
    stripped = line.rstrip(" ")
    if stripped != line and stripped.endswith("\\"):
        stripped += " "
    line = stripped
    if not line:
        return None
    negate = False
    if line.startswith("!"):
        negate = True
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dir_only = line.endswith("/")
    if dir_only:
        line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    line = line.lstrip("/")
    if not line:
        return None
    body = _translate_glob(line)
    if not anchored:
        body = "(?:.*/)?" + body
    return _Pattern(re.compile(f"^{body}$", re.DOTALL), negate, dir_only)


@dataclass(frozen=True)
class GitIgnore:
    """The patterns of one ``.gitignore`` (or ``info/exclude``) file, relative to ``base``."""

    base: str  # absolute directory the patterns are relative to
    patterns: tuple[_Pattern, ...]

    @classmethod
    def from_lines(cls, base: str | os.PathLike[str], lines: Sequence[str]) -> GitIgnore:
        compiled = tuple(p for p in map(_compile_line, lines) if p is not None)
        return cls(os.path.abspath(base), compiled)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], base: str | os.PathLike[str]) -> GitIgnore | None:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            return None
        ignore = cls.from_lines(base, lines)
        return ignore if ignore.patterns else None

    def match(self, abspath: str, is_dir: bool) -> bool | None:
        """True if ignored, False if re-included by ``!``, None if no pattern matches."""
        rel = os.path.relpath(abspath, self.base)
        if rel.startswith(".."):
            return None
        rel = rel.replace(os.sep, "/")
        for pattern in reversed(self.patterns):
            if pattern.dir_only and not is_dir:
                continue
            if pattern.regex.match(rel):
                return not pattern.negate
        return None


def _is_ignored(ignores: Sequence[GitIgnore], abspath: str, is_dir: bool) -> bool:
    # The innermost file wins; within a file the last matching line wins.
    for ignore in reversed(ignores):
        verdict = ignore.match(abspath, is_dir)
        if verdict is not None:
            return verdict
    return False


def _find_repo_root(start: str) -> str | None:
    current = start
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _excludes_file(root: str) -> str | None:
    """The user's excludes file for the work tree at ``root``, as git finds it.

    ``core.excludesFile`` from the global config (``$GIT_CONFIG_GLOBAL``, else
    ``$XDG_CONFIG_HOME/git/config`` and ``~/.gitconfig``) or the repository's
    ``.git/config`` (the last one read wins); unset, ``$XDG_CONFIG_HOME/git/ignore``
    (``~/.config/git/ignore``). ``~/`` is expanded. Never raises.
    """
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    explicit_global = os.environ.get("GIT_CONFIG_GLOBAL")
    configs = [explicit_global] if explicit_global else [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    configs.append(os.path.join(root, ".git", "config"))
    value: str | None = None
    for path in configs:
        found = _git_config_value(path, "core", "excludesfile")
        if found is not None:
            value = found
    if value is None:
        return os.path.join(xdg, "git", "ignore")
    if not value:
        return None  # `excludesFile =` turns it off
    return os.path.expanduser(value)


def _git_config_value(path: str, section: str, key: str) -> str | None:
    """The last ``key`` in ``[section]`` of a git config file (no includes, no subsections)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    current = ""
    value: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            header = line[1 : line.find("]")] if "]" in line else line[1:]
            current = header.strip().lower()
            continue
        name, sep, rest = line.partition("=")
        if current != section or name.strip().lower() != key:
            continue
        rest = rest.strip() if sep else ""
        if rest.startswith('"'):
            end = rest.find('"', 1)
            rest = rest[1:end] if end > 0 else rest[1:]
        else:
            for mark in ("#", ";"):
                cut = rest.find(mark)
                if cut >= 0:
                    rest = rest[:cut].rstrip()
        value = rest
    return value


def _ancestor_ignores(directory: str) -> list[GitIgnore]:
    """``.gitignore`` files that apply to ``directory`` from above, outermost first.

    Inside a git work tree: ``.git/info/exclude`` and every ``.gitignore`` from
    the work tree's root down to ``directory``'s parent.  Outside one: none.
    """
    root = _find_repo_root(directory)
    if root is None:
        return []
    ignores: list[GitIgnore] = []
    user_excludes = _excludes_file(root)
    if user_excludes is not None:
        global_ignore = GitIgnore.from_file(user_excludes, root)
        if global_ignore is not None:
            ignores.append(global_ignore)
    exclude = GitIgnore.from_file(os.path.join(root, ".git", "info", "exclude"), root)
    if exclude is not None:
        ignores.append(exclude)
    chain: list[str] = []
    current = directory
    while True:
        chain.append(current)
        if current == root:
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    for d in reversed(chain[1:]):  # the directory's own .gitignore is read by the walk
        gi = GitIgnore.from_file(os.path.join(d, ".gitignore"), d)
        if gi is not None:
            ignores.append(gi)
    return ignores


# --------------------------------------------------------------------------- walking


def is_virtualenv(directory: str | os.PathLike[str]) -> bool:
    """A directory holding a ``pyvenv.cfg`` is a virtualenv (PEP 405)."""
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def _display(arg: str, rel: str) -> str:
    return os.path.normpath(os.path.join(arg, rel)) if rel else os.path.normpath(arg)


Excluded = Callable[[str, str], bool]  # (name, absolute path) -> skip?


def exclude_matcher(globs: Sequence[str], root: str | None = None) -> Excluded:
    """flake8/ruff-style exclusion: a glob matches a file or directory's name, its path
    relative to ``root`` (the configuration's directory), or its absolute path."""
    plain = frozenset(g for g in globs if not any(ch in g for ch in "*?[/" + os.sep))
    patterns = [g.rstrip("/").replace(os.sep, "/") for g in globs if g not in plain]
    base = os.path.abspath(root or os.getcwd())

    def excluded(name: str, abspath: str) -> bool:
        if name in plain:
            return True
        if not patterns:
            return False
        absolute = abspath.replace(os.sep, "/")
        rel = os.path.relpath(abspath, base).replace(os.sep, "/")
        for g in patterns:
            if g.startswith("./"):
                g = g[2:]
            if fnmatch.fnmatchcase(name, g) or fnmatch.fnmatchcase(absolute, g) or (
                not rel.startswith("../") and fnmatch.fnmatchcase(rel, g)
            ):
                return True
        return False

    return excluded


def _default_excluded(name: str, abspath: str) -> bool:
    return name in SKIP_DIRS


#: An absolute directory (and its entries' names, when listed) -> the exclude globs for its entries
#: and the directory they are relative to (the configuration that applies there:
#: ``config_files.Resolver.excludes_for``).
ExcludesFor = Callable[[str, "set[str] | None"], "tuple[Sequence[str], str | None]"]
Warn = Callable[[str], None]


class ExcludeMatchers:
    """The exclusion matchers of each directory, built once per distinct (globs, root)."""

    def __init__(self, excludes: Sequence[str] | None, root: str | None, excludes_for: ExcludesFor | None) -> None:
        self._fixed = (None if excludes is None else tuple(excludes), root)
        self._excludes_for = excludes_for
        self._built: dict[tuple[tuple[str, ...] | None, str | None], tuple[Excluded, Excluded | None, str | None]] = {}

    def __call__(self, abs_dir: str, names: set[str] | None = None) -> tuple[Excluded, Excluded | None, str | None]:
        """For ``abs_dir``'s entries (their ``names``, when listed): every exclude glob, only the
        user's (they also skip a named path), and the directory they are relative to."""
        if self._excludes_for is None:
            key = self._fixed
        else:
            globs, root = self._excludes_for(abs_dir, names)
            key = (tuple(globs), root)
        built = self._built.get(key)
        if built is None:
            globs_, root_ = key
            every = _default_excluded if globs_ is None else exclude_matcher(globs_, root_)
            user = [g for g in globs_ or () if g not in SKIP_DIRS]
            built = (every, exclude_matcher(user, root_) if user else None, root_)
            self._built[key] = built
        return built


def _walk(
    arg: str,
    abs_dir: str,
    rel_dir: str,
    ignores: list[GitIgnore],
    is_root: bool,
    matchers: ExcludeMatchers,
    warn: Warn | None,
) -> Iterator[str]:
    try:
        with os.scandir(abs_dir) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        if warn is not None:
            warn(f"cannot read directory {_display(arg, rel_dir)}: {exc.strerror or exc}; its files are not linted")
        return
    names = {e.name for e in entries}
    if not is_root and "pyvenv.cfg" in names:
        return
    if ".gitignore" in names:
        gi = GitIgnore.from_file(os.path.join(abs_dir, ".gitignore"), abs_dir)
        if gi is not None:
            ignores = [*ignores, gi]
    excluded = matchers(abs_dir, names)[0]
    subdirs: list[os.DirEntry[str]] = []
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            linked_dir = not is_dir and entry.is_symlink() and entry.is_dir()
        except OSError:
            continue
        if is_dir or linked_dir:
            if excluded(entry.name, entry.path) or _is_ignored(ignores, entry.path, True):
                continue
            if linked_dir:
                # never followed while walking (no loops, no file reached twice), but never silently
                if warn is not None:
                    warn(f"skipped {_display(arg, os.path.join(rel_dir, entry.name))}: a symbolic link to a "
                         "directory (links are not followed in a walk; name it on the command line to lint it)")
                continue
            subdirs.append(entry)
            continue
        if not entry.name.endswith(PYTHON_SUFFIXES) or excluded(entry.name, entry.path):
            continue
        try:
            if not entry.is_file():
                continue
        except OSError:
            continue
        if _is_ignored(ignores, entry.path, False):
            continue
        yield _display(arg, os.path.join(rel_dir, entry.name))
    for entry in subdirs:
        yield from _walk(arg, entry.path, os.path.join(rel_dir, entry.name), ignores, False, matchers, warn)


def discover(
    paths: Sequence[str],
    *,
    excludes: Sequence[str] | None = None,
    root: str | None = None,
    excludes_for: ExcludesFor | None = None,
    warn: Warn | None = None,
) -> list[str]:
    """The files to lint under ``paths``, each as a path usable from the current directory.

    Each returned path is the command-line argument joined with the file's path
    below it (``src`` -> ``src/pkg/mod.py``, ``.`` -> ``pkg/mod.py``), normalised,
    and listed once even when two arguments overlap.  Raises :class:`PathNotFound`
    for an argument that does not exist.  ``-`` (stdin) is not handled here.

    ``excludes`` (the configuration's ``exclude`` + ``extend-exclude``; default
    :data:`SKIP_DIRS`) are globs matched against each name, each path relative
    to ``root`` and each absolute path. The globs that are not defaults also
    apply to a path named on the command line (so ``exclude`` holds under
    pre-commit, which names every file, as ruff's ``force-exclude`` does); the
    default list and ``.gitignore`` never skip a named path. ``excludes_for``,
    when given, replaces ``excludes`` and ``root`` with each directory's own (the
    nearest configuration's, as ruff walks): a nested configuration's globs apply
    below it.

    ``warn`` hears of what is skipped that the user may not expect: a directory
    that cannot be read, a symbolic link to a directory met in a walk (never
    followed, so a link loop cannot hang the walk). A directory named on the
    command line is walked even when it is such a link.
    """
    matchers = ExcludeMatchers(excludes, root, excludes_for)
    seen: set[str] = set()
    result: list[str] = []

    def add(display: str) -> None:
        key = os.path.normcase(os.path.abspath(display))
        if key not in seen:
            seen.add(key)
            result.append(display)

    for arg in paths:
        if not os.path.exists(arg):
            raise PathNotFound(arg)
        is_dir = os.path.isdir(arg)
        abs_arg = os.path.abspath(arg)
        if named_path_excluded(arg, matchers):
            continue
        if is_dir:
            for display in _walk(arg, abs_arg, "", _ancestor_ignores(abs_arg), True, matchers, warn):
                add(display)
        else:
            add(os.path.normpath(arg))
    return result


def path_is_excluded(
    arg: str,
    custom: Excluded | None,
    root: str | None,
    custom_for: Callable[[str], Excluded | None] | None = None,
) -> bool:
    """A path named on the command line is skipped when it, or a directory between it and
    the project root (else the current directory), matches a user-given exclude glob.

    ``custom_for`` (a directory -> the user's globs for its entries) matches each of those
    names with the configuration of the directory it sits in, as the walk does; without it
    ``custom`` matches them all."""
    abspath = os.path.abspath(arg)

    def matches(current: str) -> bool:
        matcher = custom if custom_for is None else custom_for(os.path.dirname(current))
        return matcher is not None and matcher(os.path.basename(current), current)

    bases = [os.path.abspath(root or os.getcwd()), os.getcwd()]
    if custom_for is not None:  # every name from the outermost base down, each with its own directory's globs
        bases.sort(key=len)
    for base in bases:
        rel = os.path.relpath(abspath, base)
        if rel == "." or rel.startswith(".."):
            continue
        current = abspath
        for _ in rel.split(os.sep):
            if matches(current):
                return True
            current = os.path.dirname(current)
        return False
    return matches(abspath)


def named_path_excluded(arg: str, matchers: ExcludeMatchers) -> bool:
    """Whether a path named on the command line (or handed over by flake8) is skipped: each
    name on its way down is matched by the user globs of the directory it sits in."""
    abspath = os.path.abspath(arg)
    root = matchers(os.path.dirname(abspath))[2]
    return path_is_excluded(arg, None, root, lambda directory: matchers(directory)[1])


def display_path(path: str | os.PathLike[str]) -> str:
    """Normalise a path as :func:`discover` would print it."""
    return os.path.normpath(os.fspath(path))


