"""The flake8 plugin: ``flake8`` reports TFH findings (entry point ``TFH``).

flake8 runs every installed plugin whatever ``--select`` says, so the plugin
asks flake8's own decision engine which TFH codes are selected (``--select``,
``--extend-select``, ``--ignore``, ``--extend-ignore``, defaults) and does no
work at all when none is (it does not even import libcst then: the codes come
from the rule files' names). Only the selected rules run. ``# noqa`` and
``--per-file-ignores`` are left to flake8.

The source comes from flake8's ``lines`` (so ``flake8 -`` on stdin works) and
flake8's ``ast`` tree is reused for the cheap screen. The smullyan
configuration (``[tool.smullyan]`` / ``.smullyan.yaml``, found from the file's
directory, or ``--smullyan-config``) is read as by the CLI: its
``classify``/``timeout-required``/``retry-decorators`` extend the rules, and
its ``select``/``ignore``/``per-file-ignores`` narrow them further.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Sequence

from .registry import codes_from_files

if TYPE_CHECKING:
    from .config import Config

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
    _configs: ClassVar[dict[str, "Config"]] = {}

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
        cls._configs = {}

    def _config(self) -> "Config":
        from .config import load_config

        explicit = Path(self.config_file) if self.config_file else None
        if self.filename in ("-", "stdin") or not self.filename:
            directory = Path.cwd()
        else:
            directory = Path(self.filename).absolute().parent
        key = str(directory)
        config = self._configs.get(key)
        if config is None:
            config = load_config(directory, explicit)
            self._configs[key] = config
        return config

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        selected = self.selected
        if selected is not None and not selected:
            return
        from .engine import lint_source  # imports libcst: only once a TFH code is selected

        config = self._config()
        source = "".join(self.lines)
        tree = self.tree if isinstance(self.tree, ast.Module) else None
        findings = lint_source(source, self.filename, config, apply_noqa=False, tree=tree, codes=selected)
        for f in findings:
            yield (f.line, f.column - 1, f"{f.code} {f.message}", type(self))
