"""The flake8 plugin: ``flake8`` reports TFH findings (entry point ``TFH``).

flake8 runs every installed plugin whatever ``--select`` says, so the plugin
asks flake8's own decision engine which TFH codes are selected (``--select``,
``--extend-select``, ``--ignore``, ``--extend-ignore``, defaults) and does no
work at all when none is (it does not even import libcst then: the codes come
from the rule files' names). Only the selected rules run. ``# noqa`` and
``--per-file-ignores`` are left to flake8.

The source comes from flake8's ``lines`` (so ``flake8 -`` on stdin works) and
flake8's ``ast`` tree is reused for the cheap screen. The smullyan
configuration (``[tool.smullyan]`` / ``.smullyan.yaml``, the nearest to each
file, or ``--smullyan-config``) is resolved by the CLI's own function
(``config_files.Resolver``), so a file gets the CLI's configuration: its
``classify``/``timeout-required``/``retry-decorators`` extend the rules, and
its ``select``/``ignore``/``per-file-ignores`` narrow them further.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Sequence

from .registry import codes_from_files

try:
    from flake8.exceptions import ExecutionError as _ExecutionError
except ImportError:  # pragma: no cover - the plugin only runs inside flake8
    _ExecutionError = Exception  # type: ignore[assignment, misc, unused-ignore]


class SmullyanConfigError(_ExecutionError):  # type: ignore[misc, unused-ignore]  # flake8 has no type hints
    """A smullyan configuration error found while flake8 runs: flake8 prints it, no traceback."""

if TYPE_CHECKING:
    from .config import Config
    from .config_files import Resolver

try:
    from importlib.metadata import version as _version

    __version__ = _version("smullyan")
except Exception:  # pragma: no cover - not installed as a distribution
    __version__ = "0.0.0"


def _selected_codes(options: argparse.Namespace) -> frozenset[str] | None:
    """The TFH codes flake8 would report; None when the options cannot be read."""
    try:
        from flake8.style_guide import Decision, DecisionEngine

        decider = DecisionEngine(options)
        return frozenset(c for c in codes_from_files() if decider.decision_for(c) is Decision.Selected)
    except Exception:  # an unexpected flake8 version: run everything, flake8 filters
        return None


class Plugin:
    name = "smullyan"
    version = __version__

    selected: ClassVar[frozenset[str] | None] = None
    config_file: ClassVar[str | None] = None
    extend_select: ClassVar[tuple[str, ...]] = ()
    _resolver: ClassVar["Resolver | None"] = None

    def __init__(self, tree: ast.AST, lines: Sequence[str], filename: str) -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, manager: Any) -> None:
        manager.add_option(
            "--smullyan-config",
            default=None,
            parse_from_config=True,
            help="smullyan configuration file (default: the nearest pyproject.toml "
            "with [tool.smullyan] or .smullyan.yaml above each file)",
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        cls.selected = _selected_codes(options)
        cls.config_file = getattr(options, "smullyan_config", None)
        cls._resolver = None
        # off-by-default codes (TFH003) run when flake8 names them in full
        named = [*(getattr(options, "select", None) or ()), *(getattr(options, "extend_select", None) or ())]
        from .config import OFF_BY_DEFAULT

        cls.extend_select = tuple(sorted(c for c in OFF_BY_DEFAULT if c in named))
        if cls.selected is not None and not cls.selected:
            return
        import importlib.util

        if importlib.util.find_spec("libcst") is None:
            cls._without_libcst(named)
            return
        cls._check_configs(options, getattr(options, "filenames", None) or ["."])
        cls._settle()

    @classmethod
    def _settle(cls) -> None:
        """s56: import the engine and the rules now, in flake8's main process (its ``-j`` workers are forked after
        this and inherit them), then move every object alive (flake8's own, libcst's and smullyan's modules: about
        50,000 on the agent corpus) to the collector's permanent generation (``gc.freeze``). flake8 runs with the
        cycle collector on, and its full collections (35 on the agent corpus) walked these long-lived objects every
        time: 1.02 -> 0.59 s of collector CPU there. Collected cyclic garbage first; nothing frozen is freed by the
        collector later, and all of it lives for the run anyway."""
        import gc

        from . import engine  # noqa: F401  libcst and the engine's modules
        from .registry import all_rules

        all_rules()
        gc.collect()
        gc.freeze()

    @classmethod
    def _without_libcst(cls, named: Sequence[str]) -> None:
        """smullyan without its [flake8] extra: an error when TFH was asked for, else a warning."""
        import sys

        message = "smullyan's rules need libcst, which is not installed: pip install 'smullyan[flake8]'"
        if any(str(code).startswith("TFH") for code in named):
            print(f"flake8: smullyan: error: {message}", file=sys.stderr)
            raise SystemExit(2)
        print(f"flake8: smullyan: warning: {message}; the TFH rules are off", file=sys.stderr)
        cls.selected = frozenset()

    @classmethod
    def _check_configs(cls, options: argparse.Namespace, paths: Sequence[str]) -> None:
        """Read the configuration of each path flake8 was given; a bad one exits 2 with one line."""
        import sys

        from .config import ConfigError

        try:
            for path in paths:
                cls._resolve(path)
            for file in cls._files_flake8_checks(options, paths):
                cls._resolver_instance().for_file(file)
        except ConfigError as exc:
            print(f"flake8: smullyan: error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None

    @classmethod
    def _files_flake8_checks(cls, options: argparse.Namespace, paths: Sequence[str]) -> Iterator[str]:
        """The files flake8 will hand the plugin, found by flake8's own discovery, so that a nested
        configuration any of them reads is checked here, in the main process, before flake8 starts
        its workers (an error raised inside a worker can leave flake8's process pool hanging)."""
        try:
            from flake8.discover_files import expand_paths
        except ImportError:  # pragma: no cover - an old flake8: the workers still report the error
            return iter(())
        try:
            found = expand_paths(
                paths=list(paths),
                stdin_display_name=getattr(options, "stdin_display_name", "stdin"),
                filename_patterns=list(getattr(options, "filename", None) or ["*.py"]),
                exclude=[*(getattr(options, "exclude", None) or ()), *(getattr(options, "extend_exclude", None) or ())],
            )
            stdin = ("-", getattr(options, "stdin_display_name", "stdin"))
            return iter([f for f in found if f not in stdin])
        except (OSError, TypeError):  # an unexpected flake8: the workers still report the error
            return iter(())

    @classmethod
    def _resolver_instance(cls) -> "Resolver":
        """The one resolver of this flake8 run (the CLI's: the nearest configuration to each file)."""
        if cls._resolver is None:
            from .config import ConfigError
            from .config_files import Resolver

            explicit = Path(cls.config_file) if cls.config_file else None
            if explicit is not None and not explicit.is_file():
                raise ConfigError(f"--smullyan-config: configuration file not found: {explicit}")
            extend = cls.extend_select
            cls._resolver = Resolver(
                explicit, (lambda c: c.with_overrides(extend_select=extend, origin="flake8")) if extend else None
            )
        return cls._resolver

    @classmethod
    def _resolve(cls, path: str) -> "Config":
        """The configuration of ``path`` (``-``: the current directory's), as the CLI resolves it."""
        return cls._resolver_instance().for_path(path)

    def _stdin(self) -> bool:
        return self.filename in ("-", "stdin") or not self.filename

    def _config(self) -> "Config":
        from .config import ConfigError

        try:
            resolver = self._resolver_instance()
            return resolver.for_path("-") if self._stdin() else resolver.for_file(self.filename)
        except ConfigError as exc:
            raise SmullyanConfigError(f"smullyan: error: {exc}") from None

    def _excluded(self) -> bool:
        """The smullyan configuration's own ``exclude``/``extend-exclude`` globs hold in flake8 too,
        matched as the CLI matches a named file."""
        return not self._stdin() and self._resolver_instance().is_excluded(self.filename)

    def _source(self) -> "tuple[str | bytes, ast.Module | None]":
        """flake8's text and tree; the file's bytes when flake8 fell back to latin-1."""
        source = "".join(self.lines)
        tree = self.tree if isinstance(self.tree, ast.Module) else None
        if source.isascii() or self.filename in ("-", "stdin") or not self.filename:
            return source, tree
        from .source import from_bytes

        try:
            with open(self.filename, "rb") as f:
                data = f.read()
        except OSError:
            return source, tree
        try:
            from_bytes(data)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            return data, None  # Python would refuse this file: TFH001, as in the CLI
        return source, tree

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        selected = self.selected
        if selected is not None and not selected:
            return
        from .engine import lint_source  # imports libcst: only once a TFH code is selected
        from .project_tools import has_provider, set_provider
        from .tools_provider import tool_spans

        if not has_provider():
            set_provider(tool_spans)  # TFH201/TFH203's split asks the project's tool table (issue 23)

        config = self._config()
        if self._excluded():
            return
        source, tree = self._source()
        findings = lint_source(source, self.filename, config, apply_noqa=False, tree=tree, codes=selected)
        for f in findings:
            yield (f.line, f.column - 1, f"{f.code} {f.message}", type(self))
