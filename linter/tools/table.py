"""The project's tool table from ``ast`` alone (s56, issue 23): where each tool's functions lie, for a rule's question.

TFH201/TFH203's split asks whether a process call lies in an agent tool the project registers in *another* module
(its own base class, a registry filled elsewhere, an ``Agent(tools=[...])`` list, a package entry point). The
``smullyan tools`` run answers that, but describing a tool lints its file (facts, findings): session 55 measured
+120-420% CPU where the question was asked. :func:`discover_spans` runs the same discovery
(:func:`.describe.run` with ``lint=False``: both phases of :class:`~.index.Index` + :func:`~.forms.discover`, the
cross-module forms of ``remote.py``, entry points from dist-info) and keeps each tool's spans: its functions and the
same-module helpers they call. No file is linted or parsed with libcst. The linter reaches it through the provider
the CLI and the flake8 plugin install (:mod:`smullyan.linter.project_tools`): this package imports the rules, so the
rules' layer may not import it.
"""

from __future__ import annotations

from .describe import discover_spans  # defined beside ``run`` (which installs it for its own lint): no import cycle

__all__ = ["discover_spans"]
