"""The words of a name (``ToolDefinition`` -> ``Tool``, ``Definition``) and whether a registry's or marker's name says
tool, what :mod:`.registries` reads to tell a tool registry from other stores."""

from __future__ import annotations

import re

from .index import EVENT_WORDS

__all__ = ["camel_words", "says_tool"]


def camel_words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z0-9]+|[A-Z]+", name)


def says_tool(text: str) -> bool:
    """A registry's name (``_tool_registry``, ``TOOLS``, ``self._tools``) or a marker's class (``ToolDefinition``);
    not a registry of hooks around tools (``_before_tool_call_hooks``)."""
    words = {w.lower() for part in re.split(r"[._]", text) for w in camel_words(part)}
    return bool(words & {"tool", "tools"}) and not words & EVENT_WORDS
