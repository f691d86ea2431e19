"""The entry points' provider of the project's tool table (issue 23; s57: one function where the CLI and the flake8
plugin each had a copy).

:mod:`.project_tools` asks the tool table through a provider the entry points install (``set_provider``): the
``ast`` phase of ``smullyan tools`` (:func:`.tools.discover_spans`), imported the first time a rule asks. Only the
entry points (and this module, which only they import) may import :mod:`.tools` (``pyproject.toml``'s contracts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import Config

__all__ = ["tool_spans"]


def tool_spans(files: Sequence[str], config: "Config") -> dict[str, list[tuple[int, int]]]:
    """:mod:`.project_tools`'s provider: the project's tool table from ``ast`` only (:func:`.tools.discover_spans`),
    :mod:`.tools` imported the first time a rule asks."""
    from .tools import discover_spans

    return discover_spans(files, config)
