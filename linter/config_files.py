"""Where a configuration comes from: the files, read strictly, and which one applies to a path.

One answer to "which configuration applies to this file" for every entry point:
:meth:`Resolver.for_path`. ``smullyan lint DIR`` (every file the walk finds), ``smullyan lint
FILE ...`` (what pre-commit runs), ``--stdin-filename``, ``smullyan tools`` and the flake8 plugin
all ask it, so a file gets the same findings however it was named. The rules are ruff's:

- the nearest directory, walking up from the file's own directory, that holds a
  ``.smullyan.yaml`` (or ``.smullyan.yml``) or a ``pyproject.toml`` with a ``[tool.smullyan]``
  table wins; in one directory ``.smullyan.yaml`` comes first; a ``pyproject.toml`` without
  the table is skipped;
- no implicit merging: the nearest file is used alone and the files above it are ignored (a
  key it does not set has its default), unless it says ``extend = "../pyproject.toml"``: then
  it starts from that file's settings (which may extend another), sets its own keys over them,
  and its ``extend-select``/``extend-ignore``/``extend-exclude`` add to them; the extended
  file's globs keep meaning what they meant in its own directory;
- the globs in it (``per-file-ignores``, ``exclude``) are relative to its directory, and its
  ``exclude``/``extend-exclude`` apply to the walk below it;
- ``--config FILE`` (flake8: ``--smullyan-config``) is used for every file;
- command-line settings (``--select``, ...) override every file found (the ``overrides``
  function given to the resolver).

Answers are cached per directory: a walk over a tree checks each directory once and reads
each configuration file once.

Reading is as strict for YAML as for TOML: a duplicate key, a YAML 1.1 boolean spelt ``yes``,
``no``, ``on`` or ``off`` (TOML has only ``true``/``false``) and a syntax error are errors
naming the file and the line, in one line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from .config import YAML_NAMES, Config, ConfigError, Yaml11Bool, from_mapping
from .discovery import ExcludeMatchers, named_path_excluded
from .tomlread import toml as _toml

__all__ = ["Resolver", "find_config_file", "load_config", "load_file"]


# --------------------------------------------------------------------------- TOML


def _read_toml(path: Path) -> Any:
    if _toml is None:  # pragma: no cover - Python 3.10 without tomli
        raise ConfigError(f"{path}: reading TOML on Python 3.10 needs tomli: pip install 'smullyan[lint]'")
    try:
        with path.open("rb") as f:
            return _toml.load(f)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8 ({e.reason})") from None
    except _toml.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {' '.join(str(e).split())}") from None


def _smullyan_table(doc: Any) -> Any:
    tool = doc.get("tool") if isinstance(doc, dict) else None
    if isinstance(tool, dict) and "smullyan" in tool:
        return tool["smullyan"]
    return None


def _load_toml(path: Path, required: bool, chain: tuple[str, ...] = ()) -> Config | None:
    table = _smullyan_table(_read_toml(path))
    if table is None:
        if required:
            raise ConfigError(f"{path}: has no [tool.smullyan] table")
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `tool.smullyan` must be a table of settings")
    return _config_from(table, path, "[tool.smullyan]", chain)


# --------------------------------------------------------------------------- extend (ruff's explicit inheritance)


def _config_from(data: Any, path: Path, where: str, chain: tuple[str, ...]) -> Config:
    """The settings of one file; with ``extend``, on top of the file it names (whose own globs
    keep their meaning: made absolute, relative to its directory)."""
    own = from_mapping(data, str(path), where)  # checks every key, `extend` included
    extend = data.get("extend") if isinstance(data, dict) else None
    if extend is None:
        return own
    target = Path(os.path.expanduser(str(extend).strip()))
    target = Path(os.path.abspath(target if target.is_absolute() else path.parent / target))
    if str(target) in chain:
        raise ConfigError(f"{path}: `extend` makes a cycle: {' -> '.join([*chain, str(target)])}")
    if not target.is_file():
        raise ConfigError(f"{path}: `extend`: {target}: configuration file not found")
    base = _rebased(load_file(target, _chain=chain), Path(os.path.abspath(path.parent)))
    return from_mapping(data, str(path), where, base=base)


def _rebased(config: Config, directory: Path) -> Config:
    """``config`` with its relative path globs (those with a ``/``) made absolute, so that they
    mean, under another file's directory, what they meant in their own."""
    home = config.root.resolve() if config.source else None
    if home is None or home == directory.resolve():
        return config

    def fix(glob: str) -> str:
        g = glob[2:] if glob.startswith("./") else glob
        return glob if os.path.isabs(g) or "/" not in g.rstrip("/") else os.path.join(str(home), g)

    return replace(
        config,
        per_file_ignores=tuple((fix(g), codes) for g, codes in config.per_file_ignores),
        exclude=tuple(fix(g) for g in config.exclude),
        extend_exclude=tuple(fix(g) for g in config.extend_exclude),
        # the default (no file set it) means the same under any directory
        test_modules=tuple(fix(g) for g in config.test_modules) if "test-modules" in config.origins
        else config.test_modules,
    )


# --------------------------------------------------------------------------- YAML, strictly

_YAML11_BOOL_TAG = "tag:smullyan,2025:yaml11-bool"
_YAML11_BOOLS = ("yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF")


class _StrictYamlError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


_LOADER: Any = None


def _strict_loader() -> Any:
    """A ``yaml.SafeLoader`` that refuses duplicate keys and reads ``yes``/``no``/``on``/``off``
    as :class:`Yaml11Bool` (only ``true``/``false`` are booleans)."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import re

    import yaml

    class StrictLoader(yaml.SafeLoader):  # type: ignore[misc, unused-ignore]  # pyyaml has no type hints
        pass

    bool_tag = "tag:yaml.org,2002:bool"
    StrictLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != bool_tag]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    StrictLoader.add_implicit_resolver(
        bool_tag, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    StrictLoader.add_implicit_resolver(
        _YAML11_BOOL_TAG, re.compile("^(?:" + "|".join(_YAML11_BOOLS) + ")$"), list("yYnNoO")
    )
    StrictLoader.add_constructor(
        _YAML11_BOOL_TAG, lambda loader, node: Yaml11Bool(loader.construct_scalar(node))
    )

    def construct_mapping(loader: Any, node: Any, deep: bool = False) -> Any:
        loader.flatten_mapping(node)
        seen: set[Any] = set()
        for key_node, _value in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:  # an unhashable key: SafeLoader's own error says so
                break
            if duplicate:
                raise _StrictYamlError(
                    key_node.start_mark.line + 1,
                    f"duplicate key `{key}` (YAML would keep only the last one; write each key once)",
                )
        return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

    StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    _LOADER = StrictLoader
    return _LOADER


def _yaml_error(path: Path, exc: Any) -> ConfigError:
    """One line: ``file:line:column: invalid YAML: problem (context)``."""
    mark = getattr(exc, "problem_mark", None)
    where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    text = f"{problem} ({context})" if context else str(problem)
    return ConfigError(f"{where}: invalid YAML: {' '.join(text.split())}")


def _load_yaml(path: Path, chain: tuple[str, ...] = ()) -> Config:
    try:
        import yaml
    except ImportError:
        raise ConfigError(f"{path}: reading YAML needs pyyaml: pip install 'smullyan[lint]'") from None

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: invalid YAML: not UTF-8 ({e.reason})") from None
    try:
        data = yaml.load(text, Loader=_strict_loader())  # a SafeLoader: builds only plain data
    except _StrictYamlError as e:
        raise ConfigError(f"{path}:{e.line}: {e}") from None
    except yaml.YAMLError as e:
        raise _yaml_error(path, e) from None
    return _config_from(data, path, "", chain)


# --------------------------------------------------------------------------- files


def load_file(path: Path, *, _chain: tuple[str, ...] = ()) -> Config:
    """Load one configuration file (``--config``, or the one found), and the files it extends."""
    if not path.is_file():
        raise ConfigError(f"{path}: configuration file not found")
    chain = (*_chain, os.path.abspath(path))
    if path.suffix in (".yaml", ".yml"):
        return _load_yaml(path, chain)
    if path.suffix == ".toml":
        cfg = _load_toml(path, required=True, chain=chain)
        assert cfg is not None
        return cfg
    raise ConfigError(f"{path}: unsupported configuration file; expected pyproject.toml or .smullyan.yaml")


_CONFIG_NAMES = (*YAML_NAMES, "pyproject.toml")


def _config_in(directory: str, names: "frozenset[str] | set[str] | None" = None) -> str | None:
    """The configuration file in ``directory`` itself, if any (``names``: the directory's entries,
    when the caller has listed it: then only a name that is there costs a ``stat``)."""
    for name in _CONFIG_NAMES:
        if names is not None and name not in names:
            continue
        candidate = os.path.join(directory, name)
        if not os.path.isfile(candidate):
            continue
        if name != "pyproject.toml" or _smullyan_table(_project_toml(Path(candidate))) is not None:
            return candidate
    return None


def _project_toml(path: Path) -> Any:
    """A ``pyproject.toml`` met on the way up from a linted file. One that is not valid TOML is
    skipped when it never names smullyan (a cookiecutter or Jinja template shipped in a package:
    it configures nothing of ours, and failing the whole run on it loses every finding); one that
    names smullyan is the user's broken configuration: its error stands."""
    try:
        return _read_toml(path)
    except ConfigError:
        try:
            mentions = b"smullyan" in path.read_bytes()
        except OSError:
            mentions = True
        if mentions:
            raise
        return None


class Resolver:
    """Which configuration applies to each path; the one answer for the CLI, pre-commit and flake8.

    ``explicit`` (``--config``) is used for every path. ``overrides`` is applied to every
    configuration found (the command line's settings). Cached per directory and per file;
    a :class:`ConfigError` (an invalid file) propagates to the caller.
    """

    def __init__(self, explicit: Path | None = None, overrides: Callable[[Config], Config] | None = None) -> None:
        self.explicit = explicit
        self._overrides = overrides
        self._nearest: dict[str, str | None] = {}  # absolute directory -> its configuration file
        self._configs: dict[str | None, Config] = {}  # configuration file (None: defaults) -> Config
        self._matchers: ExcludeMatchers | None = None
        self._by_given: dict[str, Config] = {}  # a directory as the caller spelt it -> Config
        self._excludes: dict[str | None, tuple[tuple[str, ...], str]] = {}

    def config_file(
        self, directory: str | os.PathLike[str], names: "frozenset[str] | set[str] | None" = None
    ) -> str | None:
        """The configuration file that applies to the files in ``directory`` (None: the defaults);
        ``names``, the directory's entries when the caller has listed them, spares the ``stat``s."""
        if self.explicit is not None:
            return str(self.explicit)
        current = os.path.abspath(directory)
        pending: list[str] = []
        found: str | None = None
        while True:
            if current in self._nearest:
                found = self._nearest[current]
                break
            pending.append(current)
            here = _config_in(current, names if len(pending) == 1 else None)
            if here is not None:
                found = here
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for d in pending:
            self._nearest[d] = found
        return found

    def for_directory(
        self, directory: str | os.PathLike[str], names: "frozenset[str] | set[str] | None" = None
    ) -> Config:
        """The configuration of the files directly in ``directory``."""
        return self._config_of(self.config_file(directory, names))

    def _config_of(self, source: str | None) -> Config:
        config = self._configs.get(source)
        if config is None:
            config = Config.default() if source is None else load_file(Path(source))
            if self._overrides is not None:
                config = self._overrides(config)
            self._configs[source] = config
        return config

    def for_file(self, path: str | os.PathLike[str]) -> Config:
        """The configuration of one file (it need not exist: ``--stdin-filename``)."""
        given = os.path.dirname(os.fspath(path))
        config = self._by_given.get(given)
        if config is None:  # the files of one directory share its spelling: one lookup per directory
            config = self.for_directory(os.path.dirname(os.path.abspath(path)))
            self._by_given[given] = config
        return config

    def for_path(self, path: str | os.PathLike[str]) -> Config:
        """The configuration of a file, or of the files directly in a directory; ``-`` is the
        current directory."""
        if os.fspath(path) == "-":
            return self.for_directory(os.getcwd())
        absolute = os.path.abspath(path)
        return self.for_directory(absolute) if os.path.isdir(absolute) else self.for_file(absolute)

    def excludes_for(
        self, directory: str, names: "frozenset[str] | set[str] | None" = None
    ) -> tuple[tuple[str, ...], str]:
        """The exclude globs that apply to the entries of ``directory``, and what they are relative to
        (for :func:`smullyan.linter.discovery.discover`, which passes the entries' ``names``)."""
        source = self.config_file(directory, names)
        found = self._excludes.get(source)
        if found is None:
            config = self._config_of(source)
            found = self._excludes[source] = (config.excludes(), str(config.root))
        return found

    def is_excluded(self, path: str | os.PathLike[str]) -> bool:
        """Whether the user's exclude globs skip ``path`` when it is named (pre-commit, flake8), each
        name on its way down matched with its own directory's configuration, as the walk does."""
        if self._matchers is None:
            self._matchers = ExcludeMatchers(None, None, self.excludes_for)
        return named_path_excluded(os.fspath(path), self._matchers)


def find_config_file(start: Path) -> Path | None:
    """The nearest ``.smullyan.yaml`` or ``pyproject.toml`` with ``[tool.smullyan]`` (``start``: a
    file, or a directory whose own files are meant)."""
    start = start.absolute()
    found = Resolver().config_file(start if start.is_dir() else start.parent)
    return None if found is None else Path(found)


def load_config(start: Path, explicit: Path | None = None) -> Config:
    """``explicit`` wins; else the nearest configuration file above ``start``; else the defaults."""
    return Resolver(Path(explicit) if explicit is not None else None).for_path(start)
