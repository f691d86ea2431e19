"""Whether a project's registry decorator's tools reach a framework that answers what they raise with text.

A registry decorator hands the function to a framework's tool decorator (``def guarded(mcp, ...): ...;
mcp.tool(name=...)(wrapper)``, :func:`handed_text`), or stores it in a registry its module later mounts on one
(``_REGISTRY[name] = _Entry(spec, wrapper, fn)`` and ``def register_all(mcp: MCPServer): ...
mcp.add_tool(entry.wrapper, ...)``, :func:`module_text`). Either way the framework's wrapper
(``knowledge.TOOL_DECORATOR_TEXT``: FastMCP/MCPServer's ``_handle_call_tool``) runs every tool the registry
collects, in whatever module the tool is defined: the tool's raised failures are that wrapper's text
(``failures_by``). The run's registries' texts are read in the first phase (``describe.py``) and handed to the
modules using them through ``Tables.registry_text``."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .. import knowledge as kb
from .index import Index
from .wrappers import wrapper_text

__all__ = ["handed_text", "module_text", "mounted_texts", "registry_texts"]


def handed_text(fn: ast.AST, index: Index, decorators: Mapping[str, str], aliases: Mapping[str, str]) -> str | None:
    """The framework wrapper that turns the exceptions of the tools a registry decorator hands to a framework's tool
    decorator into text (``def register(fn): ...; return self.mcp.tool(**options)(wrapper)``: FastMCP's)."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Call) and (qn := index.qualname(n.func.func)) in decorators:
            return wrapper_text(aliases.get(qn or "", qn), n.func)
    return None


def module_text(index: Index) -> str | None:
    """The framework wrapper of a registration the module makes by a call handing a value on (``mcp.add_tool(
    entry.wrapper, name=...)``, ``mcp.tool(name=n)(fn)``): a module holding a registry that stores the functions
    mounts them so. A registration whose wrapper does not answer with text (or is turned off) gives None."""
    for n in ast.walk(index.tree):
        if not isinstance(n, ast.Call) or not n.args:
            continue
        head = n.func.func if isinstance(n.func, ast.Call) else n.func
        qn = index.qualname(head)
        if qn is not None and qn in kb.TOOL_DECORATOR_TEXT:
            return wrapper_text(qn, n.func if isinstance(n.func, ast.Call) else n)
    return None


def mounted_texts(index: Index) -> dict[str, str]:
    """{``<module>.*`` -> the framework wrapper} for the lists of another module of the project this one mounts on a
    framework in a loop (payping's ``from .registry import TOOLS``; ``for fn, title, sends in TOOLS:
    mcp.add_tool(compact(fn), ...)``): the registry decorators of that module, which store the functions in the list
    and hand them to no framework themselves, collect tools that wrapper runs (``describe.run`` gives them the text)."""
    out: dict[str, str] = {}
    own = index.module.split(".")[0]
    for loop in ast.walk(index.tree):
        if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Name):
            continue
        full = index.imports.get(loop.iter.id, "")
        if not full.startswith(own + ".") or full.rpartition(".")[0] == index.module:
            continue
        for n in (c for s in loop.body for c in ast.walk(s)):
            if not isinstance(n, ast.Call) or not n.args:
                continue
            head = n.func.func if isinstance(n.func, ast.Call) else n.func
            qn = index.qualname(head)
            if qn is not None and qn in kb.TOOL_DECORATOR_TEXT \
                    and (text := wrapper_text(qn, n.func if isinstance(n.func, ast.Call) else n)) is not None:
                out[f"{full.rpartition('.')[0]}.*"] = text
                break
    return out


def registry_texts(module: str, chosen: Mapping[str, tuple[ast.AST, str]], index: Index,
                   decorators: Mapping[str, str]) -> dict[str, str]:
    """{a registry decorator of this module, qualified -> the framework wrapper answering its tools' raises}."""
    out: dict[str, str] = {}
    stored: list[str | None] = []  # the module's own registration, read once when a registry needs it
    for path, (fn, _param) in chosen.items():
        text = handed_text(fn, index, decorators, {})
        if text is None:
            if not stored:
                stored.append(module_text(index))
            text = stored[0]
        if text is not None:
            out[f"{module}.{path}"] = text
    return {**mounted_texts(index), **out}
