"""Configuration: the settings, their validation and their meaning.

Where the settings come from (``[tool.smullyan]`` in ``pyproject.toml`` or ``.smullyan.yaml``,
the nearest to each file, as ruff finds it) is :mod:`smullyan.linter.config_files`.

Keys (kebab-case): ``select``, ``extend-select``, ``ignore``,
``extend-ignore``, ``per-file-ignores``, ``exclude``, ``extend-exclude``,
``classify``, ``timeout-required``, ``retry-decorators``, ``clients`` (a project's function or
attribute whose value is a known client), ``tool-decorators``, ``tool-base-classes``,
``tool-list-constructors``, ``tool-registrars`` (the last four for ``smullyan tools``), and for ``--fix``:
``fixable``, ``unfixable`` (rule selectors), ``unsafe-fixes`` (false), ``default-timeout-seconds`` (30,
or a table by kind: ``http``, ``process``, ``network``, ``default``)
and ``default-max-attempts`` (3), the values the fixes write. Any mistake raises
:class:`ConfigError`, whose message names the file, the key and what was
expected. A list setting takes a list, in TOML as in YAML: a string there is an
error that spells out the list (``select = "TFH2"`` -> ``["TFH2"]``); the one text
form is flake8's ``per-file-ignores`` lines (``"glob:CODE,CODE"``). A rule selector
(in ``select``, ``ignore``, their ``extend-`` forms and ``per-file-ignores``) must be
a rule code or a prefix of one (upper case, as in flake8 and ruff); anything else
is an error with a did-you-mean that never selects more than was written (``TFH9``
is not "did you mean ``TFH``"), never a silently empty selection.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from .discovery import SKIP_DIRS
from .suggest import key_hint
from .config_values import PARSERS as _PARSERS, seconds_text, show as _show
from .config_values import ConfigError as ConfigError, Yaml11Bool as Yaml11Bool
from .config_values import check_selectors as check_selectors, known_codes as known_codes
from .config_values import selector_problem as selector_problem
from .knowledge import Knowledge, timeout_kind
from .testmodules import TEST_MODULES, in_test_modules as _in_test_modules, matches as _matches

KEYS = (
    "select",
    "extend-select",
    "ignore",
    "extend-ignore",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "classify",
    "timeout-required",
    "retry-decorators",
    "fixable",
    "unfixable",
    "unsafe-fixes",
    "default-timeout-seconds",
    "default-max-attempts",
    "tool-decorators",
    "tool-base-classes",
    "tool-list-constructors",
    "tool-registrars",
    "clients",
    "test-modules",
    "extend",
)
YAML_NAMES = (".smullyan.yaml", ".smullyan.yml")

#: Rules that run only when selected by their full code (like ruff's RUF100):
#: ``select = ["TFH"]`` does not turn them on, ``extend-select = ["TFH003"]`` does. TFH203 (s52): the processes
#: TFH201 was split from whose command the linter cannot read (right 29-53% of the time on the survey).
OFF_BY_DEFAULT: frozenset[str] = frozenset({"TFH003", "TFH203"})

#: Reported whatever ``select`` says (as ruff reports syntax errors): a file that does not parse
#: was checked by no rule, so ``--select TFH2`` must not make it pass. Only ``ignore`` or
#: ``per-file-ignores`` naming the full code (``TFH001``, not a prefix such as ``TFH``) turn it off.
ALWAYS_SELECTED: frozenset[str] = frozenset({"TFH001"})

#: Directory names never walked into unless ``exclude`` replaces this list.
DEFAULT_EXCLUDE: tuple[str, ...] = tuple(sorted(SKIP_DIRS))


def _prefix_len(code: str, prefixes: tuple[str, ...]) -> int:
    best = -1
    for p in prefixes:
        if code.startswith(p) and len(p) > best:
            best = len(p)
    return best


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("TFH",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    classify: Mapping[str, str] = field(default_factory=dict, hash=False)
    timeout_required: tuple[str, ...] = ()
    retry_decorators: tuple[str, ...] = ()
    #: `smullyan tools`: extra decorators and base classes that make a tool (they change no finding)
    tool_decorators: tuple[str, ...] = ()
    tool_base_classes: tuple[str, ...] = ()
    tool_list_constructors: tuple[str, ...] = ()
    #: calls that make a tool of the function they are handed: (qualified name, keyword, position or None)
    tool_registrars: tuple[tuple[str, str, int | None], ...] = ()
    #: a project's function or attribute -> the client class its value is (``Names`` reads calls through it as
    #: that client's: ``Http().session.post`` as ``requests.Session.post``)
    clients: tuple[tuple[str, str], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    #: which rules' fixes ``--fix`` applies (selectors; ``unfixable`` wins over an equal or shorter ``fixable``)
    fixable: tuple[str, ...] = ("TFH",)
    unfixable: tuple[str, ...] = ()
    #: whether ``--fix`` applies unsafe fixes too (``--unsafe-fixes`` / ``--no-unsafe-fixes`` override it)
    unsafe_fixes: bool = False
    #: what the fixes write: TFH201/TFH202's timeout, TFH301's attempts
    default_timeout_seconds: float = 30
    #: ``default-timeout-seconds`` given by kind (``http = 30, process = 300``): kind -> seconds
    default_timeout_by_kind: tuple[tuple[str, float], ...] = ()
    default_max_attempts: int = 3
    #: the files that are tests (globs, as ``per-file-ignores``): a rule with ``applies_in_tests = False`` is not
    #: run in them (``testmodules.py``); ``()``: none is, every rule runs everywhere
    test_modules: tuple[str, ...] = TEST_MODULES
    source: str | None = None
    #: where each setting came from ("default", the file, "command line"), for --show-settings
    origins: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def default(cls) -> "Config":
        return cls()

    @property
    def root(self) -> Path:
        """The directory per-file-ignores globs are relative to."""
        return Path(self.source).parent if self.source else Path.cwd()

    def is_enabled(self, code: str, path: str | None = None) -> bool:
        """flake8-style prefix selection; ignore wins over a shorter or equal select.

        A code in :data:`OFF_BY_DEFAULT` needs its full code selected; one in
        :data:`ALWAYS_SELECTED` is on unless its full code is ignored.
        """
        if code in ALWAYS_SELECTED:
            ignores = [self.ignore, *(self._ignores_for(path) if path is not None and self.per_file_ignores else ())]
            return all(_prefix_len(code, codes) < len(code) for codes in ignores)
        sel = _prefix_len(code, self.select)
        if sel < 0 or (code in OFF_BY_DEFAULT and sel < len(code)):
            return False
        if _prefix_len(code, self.ignore) >= sel:
            return False
        if path is not None and self.per_file_ignores:
            for codes in self._ignores_for(path):
                if _prefix_len(code, codes) >= 0:
                    return False
        return True

    def is_fixable(self, code: str, path: str | None = None) -> bool:
        """Whether ``--fix`` applies ``code``'s fixes (``fixable`` / ``unfixable``, prefix selection)."""
        fix = _prefix_len(code, self.fixable)
        return fix >= 0 and _prefix_len(code, self.unfixable) < fix

    def _where(self, path: str) -> tuple[str, str, str, str]:
        """``path`` relative to :attr:`root`, as given, its name and its absolute path (``/``-separated)."""
        p = Path(path)
        try:
            rel = os.path.relpath(p.resolve() if p.is_absolute() or p.exists() else p, self.root.resolve())
        except ValueError:  # different drive on Windows
            rel = str(p)
        return (rel.replace(os.sep, "/"), str(path).replace(os.sep, "/"), p.name,
                os.path.abspath(path).replace(os.sep, "/"))

    def _ignores_for(self, path: str) -> list[tuple[str, ...]]:
        where = self._where(path)
        return [codes for glob, codes in self.per_file_ignores if _matches(*where, glob)]

    def is_test_module(self, path: str | None) -> bool:
        """Whether ``path`` is one of the project's tests (``test-modules``; ``testmodules.py``)."""
        if path is None or not self.test_modules or path in ("-", "stdin"):
            return False
        return _in_test_modules(path, self.source, self.test_modules)

    def fingerprint(self) -> str:
        """A stable hash of everything that changes findings (for the cache)."""
        data = {
            "select": list(self.select),
            "ignore": list(self.ignore),
            "per_file_ignores": [[g, list(c)] for g, c in self.per_file_ignores],
            "classify": sorted(self.classify.items()),
            "timeout_required": list(self.timeout_required),
            "retry_decorators": list(self.retry_decorators),
            **({"clients": [list(p) for p in self.clients]} if self.clients else {}),
            "test_modules": list(self.test_modules),
            "root": str(self.root) if self.per_file_ignores or self.test_modules else "",
            # the fixes carried with the findings write these
            "default_timeout_seconds": self.default_timeout_seconds,
            "default_timeout_by_kind": [list(p) for p in self.default_timeout_by_kind],
            "default_max_attempts": self.default_max_attempts,
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    def only(self, *codes: str) -> "Config":
        """A copy that enables exactly ``codes`` and ignores nothing.

        Unlike :meth:`with_overrides` the codes are not checked against the
        registry: this is for rules under test that are not registered (the
        examples checker, the TFH9xx stand-ins), never for user input.
        """
        return replace(self, select=tuple(codes), ignore=())

    def with_overrides(
        self,
        *,
        select: "tuple[str, ...] | list[str] | None" = None,
        ignore: "tuple[str, ...] | list[str] | None" = None,
        extend_select: "tuple[str, ...] | list[str] | None" = None,
        extend_ignore: "tuple[str, ...] | list[str] | None" = None,
        per_file_ignores: "tuple[tuple[str, tuple[str, ...]], ...] | None" = None,
        exclude: "tuple[str, ...] | list[str] | None" = None,
        extend_exclude: "tuple[str, ...] | list[str] | None" = None,
        origin: str = "command line",
    ) -> "Config":
        """A copy with command-line settings applied.

        ``select``/``ignore``/``per_file_ignores``/``exclude`` replace the
        configuration's (as in flake8); the ``extend_*`` forms add to it.
        Every selector is checked (:func:`check_selectors`); exclude globs given
        here are relative to the current directory.
        """
        changes: dict[str, Any] = {}
        origins = dict(self.origins)
        for key, codes in (("select", select), ("ignore", ignore),
                           ("extend-select", extend_select), ("extend-ignore", extend_ignore)):
            if codes is not None:
                if key == "select" and not codes:
                    raise ConfigError(f"{origin}: `--select` is empty: it would select no rule")
                check_selectors(origin, f"--{key}", tuple(codes))
        if select is not None:
            changes["select"] = tuple(select)
            origins["select"] = origin
        if ignore is not None:
            changes["ignore"] = tuple(ignore)
            origins["ignore"] = origin
        if extend_select:
            changes["select"] = (*changes.get("select", self.select), *extend_select)
            origins["select"] = f"{origins.get('select', 'default')} + {origin}"
        if extend_ignore:
            changes["ignore"] = (*changes.get("ignore", self.ignore), *extend_ignore)
            origins["ignore"] = f"{origins.get('ignore', 'default')} + {origin}"
        if per_file_ignores is not None:
            for glob, codes in per_file_ignores:
                check_selectors(origin, f"--per-file-ignores {glob}", codes)
            cwd = os.getcwd()
            changes["per_file_ignores"] = tuple(
                (g if os.path.isabs(g) else os.path.join(cwd, g), c) for g, c in per_file_ignores
            )
            origins["per-file-ignores"] = origin
        if exclude is not None:
            changes["exclude"] = tuple(exclude)
            origins["exclude"] = origin
        if extend_exclude:
            changes["extend_exclude"] = (*self.extend_exclude, *extend_exclude)
            origins["extend-exclude"] = origin
        if not changes:
            return self
        changes["origins"] = origins
        return dataclasses.replace(self, **changes)

    def excludes(self) -> tuple[str, ...]:
        """Every exclude glob: ``exclude`` (default: :data:`DEFAULT_EXCLUDE`) and ``extend-exclude``."""
        return (*self.exclude, *self.extend_exclude)

    def settings(self) -> dict[str, Any]:
        """The resolved settings, keyed as in the configuration file (for --show-settings)."""
        return {
            "select": list(self.select),
            "ignore": list(self.ignore),
            "per-file-ignores": {g: list(c) for g, c in self.per_file_ignores},
            "exclude": list(self.exclude),
            "extend-exclude": list(self.extend_exclude),
            "test-modules": list(self.test_modules),
            "classify": dict(sorted(self.classify.items())),
            "timeout-required": list(self.timeout_required),
            "retry-decorators": list(self.retry_decorators),
            "fixable": list(self.fixable),
            "unfixable": list(self.unfixable),
            "unsafe-fixes": self.unsafe_fixes,
            "default-timeout-seconds": (
                {"default": self.default_timeout_seconds, **dict(self.default_timeout_by_kind)}
                if self.default_timeout_by_kind else self.default_timeout_seconds
            ),
            "default-max-attempts": self.default_max_attempts,
            "tool-decorators": list(self.tool_decorators),
            "tool-base-classes": list(self.tool_base_classes),
            "tool-list-constructors": list(self.tool_list_constructors),
            "tool-registrars": {name: ({"keyword": kw} if kw else {}) | ({"position": pos} if pos is not None else {})
                                for name, kw, pos in self.tool_registrars},
            "clients": dict(self.clients),
        }

    @property
    def timeout_text(self) -> str:
        """``default-timeout-seconds`` as the fixes write it (``30``, ``2.5``)."""
        return seconds_text(self.default_timeout_seconds)

    def timeout_text_for(self, qualname: str) -> str:
        """The seconds a timeout fix writes on a call of ``qualname``: its kind's (``http``, ``process``,
        ``network``) when ``default-timeout-seconds`` is given by kind, else the default."""
        return seconds_text(dict(self.default_timeout_by_kind).get(timeout_kind(qualname), self.default_timeout_seconds))

    def knowledge(self) -> Knowledge:
        """The library knowledge extended by this configuration."""
        return _knowledge_for(self.timeout_required, tuple(sorted(self.classify.items())), self.retry_decorators,
                              self.clients)


_KNOWLEDGE_CACHE: dict[tuple[Any, ...], Knowledge] = {}


def _knowledge_for(
    timeout_required: tuple[str, ...],
    classify: tuple[tuple[str, str], ...],
    retry: tuple[str, ...],
    clients: tuple[tuple[str, str], ...] = (),
) -> Knowledge:
    key = (timeout_required, classify, retry, clients)
    k = _KNOWLEDGE_CACHE.get(key)
    if k is None:
        k = Knowledge.build(timeout_required, dict(classify), retry, clients)
        _KNOWLEDGE_CACHE[key] = k
    return k


# ---------------------------------------------------------------- parsing


def from_mapping(data: Any, source: str | None, where: str = "", base: Config | None = None) -> Config:
    """Validate a parsed mapping (the ``[tool.smullyan]`` table or the YAML document).

    ``base`` (the configuration an ``extend`` key names) gives what the mapping does not set;
    its ``extend-select``, ``extend-ignore`` and ``extend-exclude`` add to the base's."""
    file = source or "<config>"
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{file}: {where or 'the document'} must be a mapping of settings, got {_show(data)}")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _PARSERS:
            raise ConfigError(
                f"{file}: unknown key `{key}`{key_hint(str(key), KEYS)}; expected one of: {', '.join(KEYS)}"
            )
        values[key] = _PARSERS[key](file, value)
    if values.get("select") == ():
        raise ConfigError(f"{file}: `select` is empty: it would select no rule")
    start = Config() if base is None else base
    fields: dict[str, Any] = {}
    origins: dict[str, str] = dict(start.origins)
    for key, value in values.items():
        if key in ("extend-select", "extend-ignore", "extend"):
            continue
        if key == "default-timeout-seconds":  # one number, or seconds by kind (`default` for the rest)
            by_kind = value if isinstance(value, tuple) else ()
            fields["default_timeout_by_kind"] = tuple(p for p in by_kind if p[0] != "default")
            value = dict(by_kind).get("default", Config.default_timeout_seconds) if by_kind else value
        fields[key.replace("-", "_")] = value
        origins[key] = file
    if base is not None and "extend-exclude" in values:
        fields["extend_exclude"] = (*base.extend_exclude, *values["extend-exclude"])
        origins["extend-exclude"] = f"{base.origins.get('extend-exclude', 'default')} + {file}"
    for key, target in (("extend-select", "select"), ("extend-ignore", "ignore")):
        if key in values:
            fields[target] = (*fields.get(target, getattr(start, target)), *values[key])
            origins[target] = f"{origins.get(target, 'default')} + {file} ({key})"
    return replace(start, source=source, origins=origins, **fields)
