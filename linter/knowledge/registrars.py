"""Tool registration by verb: which ``receiver.verb(...)`` registers a tool (``mcp.tool()``, ``agent.add_tool(f)``,
``functions_registry.register_function(f, ...)``), by the verb and the receiver's name, and the receivers that register
none (a web app, a plugin manager, ``atexit``). The one table read by TFH401's tool evidence (``rules/errors/text.py``)
and by tools discovery (``linter/tools/registries.py``), through :func:`registration_framework`; split out of
:mod:`.tools`."""

from __future__ import annotations

import re
from typing import Final, Mapping

# Registration by verb: the one table read by TFH401's tool evidence (rules/errors/text.py) and by tools discovery
# (linter/tools/registries.py), through :func:`registration_framework`. A method that registers the function it
# decorates or is handed as a tool of the object holding it: ``@X.tool``/``@X.tool(...)``, ``X.tool(...)(f)``,
# ``X.add_tool(f)`` / ``X.add_tool(wrapper(f))``, ``X.tool_plain``, ``X.register_function(f, descriptor)``, where X's
# name (or its last ``_`` word: ``mcp_server``, ``coder_agent``, ``functions_registry``) is a registrar's -> the
# framework shown. Verbs whose own name says tool (``@X.register_tool``, ``@X.function_tool``) register on any
# receiver (their framework is X's, else ""); a receiver the run knows to be something else (a web app, a plugin
# manager, ``atexit``: :data:`NOT_TOOL_REGISTRARS`) registers nothing, whatever the verb.
TOOL_REGISTRATION_VERBS: Final[Mapping[str, bool]] = {
    # verb -> whether the verb alone says tool (else the receiver's name must be a registrar's)
    "tool": False, "tool_plain": False, "add_tool": False, "register_function": False,
    # ``agent.tool_registry.register(fn)`` (sage): only on a receiver named for a tool registry
    "register": False,
    "function_tool": True, "tool_method": True, "register_tool": True, "toolkit_tool": True,
}
TOOL_REGISTRAR_NAMES: Final[Mapping[str, str]] = {
    "mcp": "mcp", "fastmcp": "mcp", "server": "mcp", "app": "mcp",
    "agent": "pydantic-ai", "toolset": "pydantic-ai",
    # a project's own registry of the model's functions (agentkit's ``functions_registry.register_function(fn, ...)``)
    "functions_registry": "registry", "function_registry": "registry", "tools_registry": "registry",
    "tool_registry": "registry",
}
# Web frameworks by top-level package: a module importing one and no tool framework calls its untyped ``app`` /
# ``server`` that framework's object (linter/tools/registries.py ``verb_framework``).
WEB_FRAMEWORK_ROOTS: Final[frozenset[str]] = frozenset(
    {"flask", "fastapi", "starlette", "quart", "sanic", "django", "aiohttp", "litestar", "bottle", "tornado", "werkzeug"}
)
# Receivers that register no tool whatever the verb: the object's class or module, by qualified name or a package it
# is in (a web app or router, a pluggy plugin manager, ``atexit``, a CLI group, a task queue, a signal).
NOT_TOOL_REGISTRARS: Final[frozenset[str]] = WEB_FRAMEWORK_ROOTS | frozenset(
    {"atexit", "pluggy", "typer", "click", "celery", "blinker", "signal", "socketio", "gradio", "streamlit"}
)


def _registrar_key(name: str) -> tuple[str, str]:
    """A receiver's name as the registrar table keys it: whole (snake case, ``MCPToolServer`` -> ``mcp_tool_server``)
    and its last word."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name.lstrip("_")).lower()
    return snake, snake.rsplit("_", 1)[-1]


def not_a_registrar(qualname: str) -> bool:
    """The object (its class's or module's qualified name) is known to be no tool registry (:data:`NOT_TOOL_REGISTRARS`)."""
    parts = qualname.split(".")
    return any(".".join(parts[:i]) in NOT_TOOL_REGISTRARS for i in range(1, len(parts) + 1))


def registration_framework(verb: str, receiver: str, receiver_class: str | None = None) -> str | None:
    """``receiver.verb`` registers a tool (:data:`TOOL_REGISTRATION_VERBS`): -> the framework its name shows ("" when
    only the verb says tool), else None. ``receiver``: the receiver's own name (``mcp``, ``self.server`` ->
    ``server``; ``self``/``cls`` -> the class's name when ``receiver_class`` gives it); ``receiver_class``: what the
    run knows the receiver is (a class or module's qualified name), None when nothing: a known non-registry vetoes."""
    says_tool = TOOL_REGISTRATION_VERBS.get(verb)
    if says_tool is None:
        return None
    if receiver_class is not None:
        if not_a_registrar(receiver_class):
            return None
        if receiver in ("self", "cls"):
            receiver = receiver_class.rsplit(".", 1)[-1]
    whole, last = _registrar_key(receiver)
    framework = TOOL_REGISTRAR_NAMES.get(whole, TOOL_REGISTRAR_NAMES.get(last))
    return framework if framework is not None else "" if says_tool else None
