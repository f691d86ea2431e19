"""Which framework or registry a tool decorator belongs to, as :func:`.forms.discover` reads a decorated function.

:func:`activity_framework`: an activity-style framework's tool decorator (imported from the package of an ancestor
class of the method, or another package's action decorator, or a tools module's ``@tool``); :func:`decorator_registry`:
the project registry a decorator names (one of this file or one of the run's); :func:`framework_of`: the framework a
decorator's qualified name says (its top-level package)."""

from __future__ import annotations

import ast

from .. import knowledge as kb
from .ancestry import local_ancestor_roots
from .index import Index, literal_str, tool_word
from .model import Tables
from .references import resolve_ref
from .registries import Registry, registry_of

__all__ = ["ACTION_WORDS", "activity_framework", "decorator_registry", "framework_of"]


def framework_of(qn: str) -> str:
    return qn.split(".")[0].replace("_", "-")


def activity_framework(qn: str | None, parents: tuple[ast.AST, ...], index: Index, tables: Tables,
                        call: ast.Call | None = None) -> str | None:
    """An activity-style framework's tool decorator: imported from the same top-level package as an ancestor
    class (at any depth, through this file's classes and the run's) of the (innermost) class the decorated
    function is in, its last name a tool word, or (s53) another package's decorator naming the action by a
    literal first argument whose last word is one (node-wire's ``@sdk_action("read_lead")``, ``@nw_action(...)`` on
    a ``BaseConnector`` method); on a module-level function, a tool decorator of another package's ``tools``
    module."""
    if qn is None:
        return None
    root = qn.split(".")[0]
    if not tool_word(qn.rsplit(".", 1)[-1]) and not (
            call is not None and call.args and literal_str(call.args[0]) and root != index.module.split(".")[0]
            and qn.rsplit(".", 1)[-1].lower().rsplit("_", 1)[-1] in ACTION_WORDS):
        return None
    for p in reversed(parents):
        if isinstance(p, ast.ClassDef):
            if any(b.split(".")[0] == root for b in index.bases(p)):
                return framework_of(qn)
            if root in local_ancestor_roots(p, index, tables.ancestor_roots):
                return framework_of(qn)
            return None
    mod = qn.split(".")  # a function's ``@tool`` from another package's tools module (``from cicaddy.tools import tool``)
    return framework_of(qn) if len(mod) > 2 and mod[-1] in kb.TOOL_DECORATOR_WORDS and mod[-2] in ("tool", "tools") \
        and mod[0] != index.module.split(".")[0] else None


#: the last word of another package's decorator (``sdk_action``) that says it makes its method an action an agent calls
ACTION_WORDS = frozenset({"action", "activity"})


def decorator_registry(dec: ast.expr, qn: str | None, path: str, parents: tuple[ast.AST, ...], local: dict[str, Registry],
              index: Index, tables: Tables) -> Registry | None:
    """The project registry decorator ``dec`` names: one of this file (a module-level function, a registry
    object's method, a decorator a factory defines beside the tools), or one of the run's."""
    if qn and qn.startswith(index.module + ".") and qn[len(index.module) + 1:] in local:
        return local[qn[len(index.module) + 1:]]
    head = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(head, ast.Name) and head.id not in index.imports:
        owner = ".".join(p.name for p in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
        target = resolve_ref(head, index, path.rsplit(".", 1)[0] if "." in path else "", owner)
        if target is not None and target[0] in local:
            return local[target[0]]
    hit = registry_of(qn, tables.registries)
    return hit[1] if hit is not None else None
