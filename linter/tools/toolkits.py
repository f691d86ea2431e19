"""The methods a toolkit class offers as tools, by the marker its base's entry in ``knowledge.TOOL_BASE_CLASSES`` holds:
``*register`` (agno, agentica, phidata: what ``__init__`` registers as ``self.<method>``), ``*spec_functions``
(llama-index ``BaseToolSpec``: the methods its ``spec_functions`` names), ``*public`` (simonw ``llm.Toolbox``: every public
method the subclass defines), ``*members`` (the Anthropic SDK's toolsets: the members the subclass overrides)."""

from __future__ import annotations

import ast
from collections.abc import Collection

from ..knowledge.toolsets import MEMBERS as MEMBERS
from .index import FUNCS, literal_str

REGISTER = "*register"
SPEC = "*spec_functions"
PUBLIC = "*public"
MARKERS = frozenset({REGISTER, SPEC, PUBLIC, MEMBERS})


def toolkit_methods(cls: ast.ClassDef, marker: str, imports: Collection[str] = (), members: Collection[str] = ()) -> list[str]:
    """The names of the methods of ``cls`` the marker makes tools; ``*members``: those ``cls`` defines of the base's
    ``members`` (the Anthropic SDK's toolsets, ``knowledge.toolsets``)."""
    if marker == MEMBERS:
        return [f.name for f in cls.body if isinstance(f, FUNCS) and f.name in members]
    if marker == REGISTER:
        return _registered_methods(cls, imports)
    if marker == SPEC:
        return _spec_methods(cls)
    return [f.name for f in cls.body if isinstance(f, FUNCS) and not f.name.startswith("_")]


_REGISTERING = frozenset({"append", "extend", "insert", "add", "register"})


def _spec_methods(cls: ast.ClassDef) -> list[str]:
    """llama-index: the methods a ``BaseToolSpec`` subclass names in ``spec_functions`` (a name, or a (sync, async)
    pair of names: the first)."""
    target: ast.expr
    value: ast.expr | None
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "spec_functions" and isinstance(value, (ast.List, ast.Tuple)):
            elts = [e.elts[0] if isinstance(e, ast.Tuple) and e.elts else e for e in value.elts]
            return [text for text in map(literal_str, elts) if text]
    return []


def _registered_methods(cls: ast.ClassDef, imports: Collection[str] = ()) -> list[str]:
    """agno: the methods a Toolkit subclass registers in ``__init__``: ``self.<method>`` (not called)
    in a list, tuple or set, given to ``tools=``, or passed to ``x.append``/``extend``/``insert``/``add``
    or ``self.register`` (not ``atexit.register(self.close)``, not ``db_resolver=self._db``)."""
    methods = {s.name for s in cls.body if isinstance(s, FUNCS)}
    init = next((s for s in cls.body if isinstance(s, FUNCS) and s.name == "__init__"), None)
    if init is None:
        return []
    refs: list[ast.AST] = []
    for n in ast.walk(init):
        if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
            refs.extend(n.elts)
        elif isinstance(n, ast.Call):
            refs.extend(k.value for k in n.keywords if k.arg == "tools")
            f = n.func
            if (
                isinstance(f, ast.Attribute)
                and f.attr in _REGISTERING
                and not (isinstance(f.value, ast.Name) and f.value.id in imports)
            ):
                refs.extend(n.args[:1])
    out: list[str] = []
    for r in refs:
        if (
            isinstance(r, ast.Attribute)
            and isinstance(r.value, ast.Name)
            and r.value.id == "self"
            and r.attr in methods
            and r.attr not in out
        ):
            out.append(r.attr)
    return out


def request_handlers(cls: ast.ClassDef, field: str, classes: Collection[tuple[str, ast.ClassDef]]) -> list[str]:
    """langroid: a ``ToolMessage`` subclass with no ``handle`` of its own is run by the agent method named by the
    default of its ``request`` field (``request: str = "square"``; ``def square(self, msg: SquareTool)`` on the
    ``ChatAgent`` subclass that enables it). -> the paths (``Class.method``) of the file's methods so named whose
    parameter is annotated with the class."""
    request = None
    for stmt in cls.body:
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
            continue
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else stmt.targets[0]
        if isinstance(target, ast.Name) and target.id == field:
            request = literal_str(stmt.value)
    if not request:
        return []
    out = []
    for path, other in classes:
        for fn in other.body:
            if isinstance(fn, FUNCS) and fn.name == request and any(
                    isinstance(a.annotation, (ast.Name, ast.Attribute, ast.Constant))
                    and ast.unparse(a.annotation).strip("'\"").rsplit(".", 1)[-1] == cls.name
                    for a in fn.args.args[1:]):
                out.append(f"{path}.{fn.name}")
    return out
