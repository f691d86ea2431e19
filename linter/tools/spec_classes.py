"""A project's own tool definition class built around a function of the module (s51): ``ToolSpec("list_modules",
"List every module ...", _obj({}), _h_list_modules)`` (a dataclass ``name, description, input_schema, handler``),
``ToolDef("list_orders", list_orders, ListOrdersInput, "orders:read", False, "...")``, ``ToolDef("bash", "Run a shell
command ...", obj(...), run=_run_bash)``. The class is the run's own (imported from, or defined in, the module's own
top-level package: another library's ``ToolSpec`` is not read so) and its name says it defines a tool (the word
``Tool`` and then one of ``knowledge.TOOL_SPEC_CLASS_NOUNS``: ``ToolSpec``, ``ToolDef``, ``ToolDefinition``); the call
names the tool by a literal first argument and hands exactly one function of this module: by a keyword that says it
runs (:data:`RUN_KEYWORDS`, a keyword whose first word is one of ``registries.CALLABLE_WORDS``), else among its later
positional arguments (a function or method by name, or the one function a wrapper call is handed: ``_wf(_orient)``).
That function is the tool, named by the literal. A definition with no function of the module (a schema only, a
callable of another library, a parameter) makes none. Used by :mod:`.handed`."""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Callable
from typing import Any, TypeVar

from .. import knowledge as kb
from .index import Index, literal_str
from .references import resolve_ref
from .registries import CALLABLE_WORDS
from .specs import described_ref
from .toolwords import camel_words as _camel_words

__all__ = ["RUN_KEYWORDS", "spec_class", "spec_function", "spec_named"]

_T = TypeVar("_T")

#: keywords that hand a tool definition the function a call of the tool runs, besides ``CALLABLE_WORDS``' (hexiel's
#: ``ToolDef(..., run=_run_bash)``, lovia's ``invoke=``, pi-agent's ``execute=``)
RUN_KEYWORDS = frozenset({"run", "invoke", "execute"})


def spec_named(name: str) -> bool:
    """A class's name that says it defines a tool: ``ToolSpec``, ``ToolDef``, ``MCPToolDefinition``."""
    words = _camel_words(name.rsplit(".", 1)[-1])
    return len(words) >= 2 and "Tool" in words[:-1] and words[-1] in kb.TOOL_SPEC_CLASS_NOUNS


def spec_class(qn: str, module: str, path: str | None = None) -> bool:
    """``qn`` names one of the run's own tool definition classes, by its name (see the module's doc): of the module's
    own top-level package, or (``path``: the module's file) of a top-level module or package beside it, as Python
    imports a project laid out flat (dulus: ``from tool_registry import ToolDef`` in ``memory/tools.py``, with
    ``tool_registry.py`` beside ``memory/``)."""
    if not spec_named(qn):
        return False
    root = qn.split(".")[0]
    return root == module.split(".")[0] or bool(path) and _beside(root, os.path.dirname(os.path.abspath(str(path))),
                                                                  module.count("."))


@functools.lru_cache(maxsize=1024)
def _beside(root: str, directory: str, depth: int) -> bool:
    """A top-level module or package ``root`` in the directory holding the module's top-level package (``depth``:
    how many packages the module's file is below it)."""
    for _ in range(depth):
        directory = os.path.dirname(directory)
    return os.path.isfile(os.path.join(directory, f"{root}.py")) \
        or os.path.isfile(os.path.join(directory, root, "__init__.py"))


def _runs(keyword: str | None) -> bool:
    word = re.sub(r"^a?sync_", "", (keyword or "").lower())
    return word in RUN_KEYWORDS or word.split("_")[0] in CALLABLE_WORDS


def _one_function(arg: ast.expr, resolve: Callable[[ast.expr], _T | None]) -> _T | None:
    """The function an argument hands: itself by name, the one a wrapper call is handed (``_wf(_orient)``), or the
    one a lambda calls with what it is given (``func=lambda p, c: _read(**p)``: dulus)."""
    if isinstance(arg, ast.Lambda):
        body = arg.body.value if isinstance(arg.body, ast.Await) else arg.body
        return resolve(body.func) if isinstance(body, ast.Call) and isinstance(body.func, (ast.Name, ast.Attribute)) \
            else None
    if isinstance(arg, (ast.Name, ast.Attribute)):
        return resolve(arg)
    if isinstance(arg, ast.Call):
        found = [t for t in (resolve(a) for a in (*arg.args, *(k.value for k in arg.keywords))
                             if isinstance(a, (ast.Name, ast.Attribute))) if t is not None]
        return found[0] if len(found) == 1 else None
    return None


def spec_function(call: ast.Call, index: Index, scope_path: str, owner: str | None,
                  outside: Callable[[ast.expr], str | None] | None = None) -> tuple[str, Any] | None:
    """(the tool's literal name, the function of this module it runs) of a tool definition call, or None; with
    ``outside`` (``remote.py``), (the name, the qualified name of the function of another module of the run it runs),
    when it hands none of this module."""
    name = literal_str(call.args[0]) if call.args else None
    by_keyword = name is None and not call.args  # ``ToolDef(name="Read", schema=..., func=...)`` (dulus, s53)
    if by_keyword:
        name = next((literal_str(k.value) for k in call.keywords if k.arg == "name"), None)
    if not name:
        return None
    local: Callable[[ast.expr], Any] = lambda r: resolve_ref(r, index, scope_path, owner)  # noqa: E731
    keyed = [k.value for k in call.keywords if _runs(k.arg)]
    if by_keyword and (not keyed or described_ref(call) is not None):
        return None  # no function handed by a run keyword; or a described spec, :func:`.specs.spec_calls`' row
    handed = keyed if keyed else call.args[1:]
    if outside is not None:  # another module's function, when the call hands none of this module
        if any(_one_function(a, local) is not None for a in handed):
            return None
        local = outside
    found = [t for t in (_one_function(a, local) for a in handed) if t is not None]
    return (name, found[0]) if len(found) == 1 and (not keyed or len(keyed) == 1) else None
