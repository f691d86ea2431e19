"""A tool wrapper reached through a subclass: ``_ToolWithRequired.from_function(func=manage_memory, ...)`` where
``class _ToolWithRequired(StructuredTool)`` calls the classmethod its framework base defines, so the call builds a
tool of the function as ``StructuredTool.from_function`` does. The class is one of the file's (at any depth through
its classes); its bases are resolved from the file's imports, as Python does. Used by :mod:`.forms`. And the framework
method that turns what a tool of a decorator raises into text (:func:`wrapper_text`), for every registration form."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TypeVar

from .. import knowledge as kb
from .index import Index

__all__ = ["decorator_text", "wrapper_of", "wrapper_text"]

T = TypeVar("T")


def wrapper_of(qn: str, index: Index, wrappers: Mapping[str, T]) -> tuple[str, T] | None:
    """The wrapper entry a call's qualified name reaches: itself, ``pkg.*.method`` (a method of any class of the
    package: pipecat's ``register_function`` on every provider's LLM service), or ``Base.method`` for ``Cls.method``
    where ``Cls`` is a class of this file deriving from ``Base`` (the first base, depth first, that has it)."""
    if qn in wrappers:
        return qn, wrappers[qn]
    owner, _, method = qn.rpartition(".")
    anywhere = f"{qn.split('.', 1)[0]}.*.{method}"  # a method of any class of the package (pipecat's services)
    if anywhere in wrappers and "." in owner:
        return anywhere, wrappers[anywhere]
    prefix = index.module + "."
    seen: set[str] = set()
    queue = [owner]
    while queue:
        current = queue.pop(0)
        if current in seen or not current.startswith(prefix):
            continue
        seen.add(current)
        cls = index.local_classes.get(current[len(prefix):])
        if cls is None:
            continue
        for base in index.bases(cls):
            if f"{base}.{method}" in wrappers:
                return f"{base}.{method}", wrappers[f"{base}.{method}"]
            queue.append(base)
    return None


def wrapper_text(qn: str | None, call: ast.Call | None) -> str | None:
    """The framework wrapper that turns what a tool of this decorator raises into text
    (``knowledge.TOOL_DECORATOR_TEXT``), unless the decorator call turns it off (``failure_error_function=None``)."""
    entry = kb.TOOL_DECORATOR_TEXT.get(qn or "")
    if entry is None:
        return None
    wrapper, off = entry
    if off and call is not None and any(k.arg == off and isinstance(k.value, ast.Constant) and k.value.value is None
                                        for k in call.keywords):
        return None
    return wrapper


def decorator_text(fn: ast.AST, index: Index, aliases: Mapping[str, str]) -> str | None:
    """The framework wrapper answering with text what the function ``fn`` raises, by its decorators (a low-level
    server's ``@server.call_tool()`` dispatcher: ``Server.call_tool``): the rows of the tools its ``if name ==``
    branches run raise into it (s50)."""
    for dec in getattr(fn, "decorator_list", ()):
        call = dec if isinstance(dec, ast.Call) else None
        qn = index.qualname(call.func if call is not None else dec)
        if (text := wrapper_text(aliases.get(qn or "", qn), call)) is not None:
            return text
    return None
