"""The base of the retry rules: :class:`RetryRule`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import libcst as cst

from ...linter.api import RawFix, Rule
from ...linter.api import knowledge as kb
from .model import RetryModel
from .screen import screen_lines

if TYPE_CHECKING:
    from ...linter.api import Screen


class RetryRule(Rule):
    """Base class of the rules that read the retry model (TFH101-TFH104, TFH301-TFH304).

    Not a rule itself (it has no code). It asks for :class:`RetryModel`, screens
    with :func:`screen_lines` (files with no retry-like construct are never
    parsed for it), and calls :meth:`check` once the model has seen the whole
    module: a subclass reads ``model.retries`` there and reports. A rule that also
    needs the lines a retry's work reaches (TFH101) overrides ``candidate_lines``.
    """

    models = (RetryModel,)

    @classmethod
    def candidate_lines(cls, screen: "Screen", knowledge: kb.Knowledge) -> Sequence[int]:
        return screen_lines(screen, knowledge)[0]

    def leave_Module(self, original_node: cst.Module) -> None:
        model: RetryModel = self.ctx.models[RetryModel]
        if model.finished:
            self.check(model)

    def report(
        self, node: cst.CSTNode, message: str | None = None, *, autofix: RawFix | None = None, **fields: Any
    ) -> None:
        """As :meth:`Rule.report`, once per node: a factory's condition is shared by every retry it builds."""
        seen: set[int] = self.__dict__.setdefault("_reported_nodes", set())
        if id(node) in seen:
            return
        seen.add(id(node))
        super().report(node, message, autofix=autofix, **fields)

    def check(self, model: RetryModel) -> None:
        """Report on the module's retries (``model.retries``); called from ``leave_Module``."""
        raise NotImplementedError
