"""Which agent or MCP frameworks a file imports (a package of the tool tables: ``knowledge.TOOL_DECORATORS``,
``TOOL_BASE_CLASSES``, ``TOOL_WRAPPERS``, ``TOOL_LIST_CONSTRUCTORS``): a run that finds no tool in files importing
one says so on stderr with the settings that register a project's own forms (``report.no_tools_hint``), whatever
the output format."""

from __future__ import annotations

from collections.abc import Iterable

from .. import knowledge as kb

__all__ = ["imported_frameworks"]


def _prefixes() -> frozenset[str]:
    """The tables' modules cut to their first two parts (``mcp.server``, ``google.adk``, ``langchain_core.tools``) and
    their one-part packages whose every key is the package's own (``fastmcp``, ``strands``)."""
    out: set[str] = set()
    for table in (kb.TOOL_DECORATORS, kb.TOOL_BASE_CLASSES, kb.TOOL_WRAPPERS, kb.TOOL_LIST_CONSTRUCTORS):
        for key in table:
            parts = key.split(".")
            if parts[0] != "smullyan":  # the runtime's own decorator is no agent framework
                out.add(".".join(parts[:2]) if len(parts) > 2 else parts[0])
    return frozenset(out)


_PREFIXES = _prefixes()


def imported_frameworks(imports: Iterable[str]) -> frozenset[str]:
    """The top-level packages of the agent or MCP frameworks among a file's imports (their full names:
    ``mcp.server.fastmcp.FastMCP``, ``langchain_core.tools.tool``): an import counts when its first two parts (its
    one part) are a module of the tool tables (``google.adk`` counts, ``google.cloud`` does not)."""
    out: set[str] = set()
    for full in imports:
        parts = full.split(".")
        if ".".join(parts[:2]) in _PREFIXES or parts[0] in _PREFIXES:
            out.add(parts[0])
    return frozenset(out)
