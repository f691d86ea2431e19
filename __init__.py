"""smullyan: typed tool errors for LLM agents, and a linter for tool-failure handling.

- ``smullyan.runtime``: the dependency-free runtime library.
- ``smullyan.linter``: the lint engine, CLI and flake8 plugin.
- ``smullyan.rules``: the rule catalogue (one rule per file).
"""

__version__ = "0.1.0"
