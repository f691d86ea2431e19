"""Tool spec dicts that carry the function running them: ``{"description": ..., "input_schema": Args.model_json_
schema(), "function": list_indices_tool}``, alone with a literal ``"name"`` or as the value under the tool's name in
a registry dict (``TOOL_REGISTRY = {"ListIndexTool": {...}, ...}``). The description and the input schema are what
a model is shown, the callable is what its call runs (``knowledge.tools.TOOL_SPEC_KEYS``): one row per spec whose
callable is a function of the same module (of another module of the run: ``remote.py``).

Tool descriptions (``knowledge.tools.TOOL_DESCRIPTION_KEYS``: a name, what the tool does, its parameters) given to a
function as an attribute (``f.tool_info = {"tool_name": "f", "tool_description": ...}``: :func:`attached_descriptions`),
or listed in a module-level table that names each function only by its name (:func:`described_names`; the function
is looked up in the run by ``remote.py``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import TypeVar

from ..knowledge import TOOL_DESCRIPTION_KEYS, TOOL_SPEC_KEYS
from .index import FUNCS, literal_str, tool_word

_N = TypeVar("_N", bound=ast.AST)


def _scope_nodes(node: ast.AST, kind: type[_N]) -> Iterator[_N]:
    """The nodes of a kind (dict literals, calls) of a scope (the module, a function), not those of the functions and
    classes in it."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, kind):
            yield n
        stack.extend(ast.iter_child_nodes(n))


def _scope_dicts(node: ast.AST) -> Iterator[ast.Dict]:
    """The dict literals of a scope (the module, a function), not those of the functions and classes in it."""
    return _scope_nodes(node, ast.Dict)


def _called(run: ast.expr | None) -> ast.expr | None:
    """A spec's callable; a lambda that only calls a function (``handler=lambda _: fetch_history()``): that function."""
    body = run.body.value if isinstance(run, ast.Lambda) and isinstance(run.body, ast.Await) else getattr(run, "body", None)
    return body.func if isinstance(run, ast.Lambda) and isinstance(body, ast.Call) else run


def _spec_run(d: ast.Dict) -> ast.expr | None:
    """The callable of a tool spec dict (a description, an input schema and a callable, by their keys)."""
    keys = {literal_str(k): v for k, v in zip(d.keys, d.values) if k is not None}
    described, schema, run = TOOL_SPEC_KEYS
    if not keys.keys() & described or not keys.keys() & schema:
        return None
    return _called(next((keys[k] for k in sorted(keys.keys() & run)), None))  # type: ignore[type-var]


#: a tool name a model can call (the function-calling APIs' ``^[a-zA-Z0-9_-]{1,64}$``)
_CALL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: keys a spec whose "name" is a title (``"Create PayPal Order"``) gives its called name by
_CALLED_KEYS = ("method", "tool_name", "function_name")


def _own_name(d: ast.Dict) -> str | None:
    """The spec's literal "name", or, when that is a title no model can call, its called name by another key."""
    keys = {literal_str(k): literal_str(v) for k, v in zip(d.keys, d.values) if k is not None}
    own = keys.get("name")
    if own is not None and not _CALL_NAME.fullmatch(own):
        return next((keys[k] for k in _CALLED_KEYS if keys.get(k) and _CALL_NAME.fullmatch(keys[k] or "")), own)
    return own


def spec_tools(scope: ast.AST) -> Iterator[tuple[str, ast.expr, int]]:
    """(tool name, the callable's expression, the spec's line) of every tool spec dict in the scope."""
    inner: set[int] = set()
    for d in _scope_dicts(scope):
        for key, value in zip(d.keys, d.values):
            name = literal_str(key) if key is not None else None
            if name is None or not isinstance(value, ast.Dict) or id(value) in inner:
                continue
            run = _spec_run(value)
            if run is not None:
                inner.add(id(value))
                yield _own_name(value) or name, run, value.lineno
    for d in _scope_dicts(scope):
        if id(d) in inner:
            continue
        run = _spec_run(d)
        own = _own_name(d)
        if run is not None and own is not None:
            yield own, run, d.lineno
    yield from _listed_specs(scope)
    yield from spec_calls(scope)


def scope_calls(scope: ast.AST) -> Iterator[ast.Call]:
    """The calls of a scope (the module, a function), not those of the functions and classes in it."""
    return _scope_nodes(scope, ast.Call)


def _written(text: ast.expr) -> bool:
    """Text the module writes: a literal, an f-string, a concatenation, or a name (``_DESCRIPTION``), not another
    object's field (``spec.description``)."""
    return literal_str(text) is not None or isinstance(text, (ast.JoinedStr, ast.Name)) or (
        isinstance(text, ast.BinOp) and _written(text.left) and _written(text.right))


def spec_calls(scope: ast.AST) -> Iterator[tuple[str, ast.expr, int]]:
    """A call building a tool spec by keyword, a description the module writes (a literal), an input schema and the
    callable (``knowledge.tools.TOOL_SPEC_KEYS``): ``ToolSpec(name="write", description="Save a file.",
    parameters=_PARAMS, run=_run_write)``, ``ControlSpec(id="saas_enable", ..., run=_run_enable)``; named by its
    literal ``name`` (or ``id``, or another called-name key), else by a literal first positional argument, the
    name a registry's method takes first (``registry.add("read_file", description=..., parameters=..., handler=
    read_file_handler)``). A spec copying another's fields (``description=
    spec.description``) writes no description: none (:func:`_written`)."""
    for call in _scope_nodes(scope, ast.Call):
        keys = {k.arg: k.value for k in call.keywords if k.arg is not None}
        ref = described_ref(call)
        if ref is None:
            continue
        name = next((text for k in ("name", "id", *_CALLED_KEYS) if (text := literal_str(keys.get(k)))), None)
        if name is None and "name" not in keys and call.args:  # ``registry.add("read_file", description=..., ...)``
            name = literal_str(call.args[0])
        if name is not None and _CALL_NAME.fullmatch(name.replace(".", "_")):
            yield name, ref, call.lineno


def described_ref(call: ast.Call) -> ast.expr | None:
    """The callable a call building a tool spec by keyword hands (:func:`spec_calls`: a description the module writes,
    an input schema and the callable), or None: the call is no such spec."""
    described, schema, run_keys = TOOL_SPEC_KEYS
    keys = {k.arg: k.value for k in call.keywords if k.arg is not None}
    ref = _called(next((keys[k] for k in sorted(keys.keys() & run_keys)), None))
    if not isinstance(ref, (ast.Name, ast.Attribute)) or not keys.keys() & schema \
            or not any(_written(keys[k]) for k in keys.keys() & described):
        return None
    return ref


def _listed_specs(scope: ast.AST) -> Iterator[tuple[str, ast.expr, int]]:
    """A list named for tools (``tools_definition = [{"func": get_user_info}, {"func": f, "name": "x"}]``) whose every
    element is a dict handing a function by a callable's key (``knowledge.tools.TOOL_SPEC_KEYS``): the function's
    docstring is its description; named by the entry's literal "name", else the function's own."""
    _described, _schema, run_keys = TOOL_SPEC_KEYS
    for stmt in getattr(scope, "body", []):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and tool_word(stmt.targets[0].id) and isinstance(stmt.value, (ast.List, ast.Tuple)) and stmt.value.elts):
            continue
        found: list[tuple[str, ast.expr, int]] = []
        for el in stmt.value.elts:
            keys = {literal_str(k): v for k, v in zip(el.keys, el.values) if k is not None} \
                if isinstance(el, ast.Dict) else {}
            if keys.keys() & _described and keys.keys() & _schema:
                break  # a full spec: the loop above has it
            ref = next((keys[k] for k in sorted(keys.keys() & run_keys)), None)  # type: ignore[type-var]
            if not isinstance(ref, (ast.Name, ast.Attribute)):
                break
            name = _own_name(el) if isinstance(el, ast.Dict) else None
            found.append((name or (ref.id if isinstance(ref, ast.Name) else ref.attr), ref, el.lineno))
        else:
            yield from found


def _described(d: ast.Dict, parameters: bool) -> str | None:
    """The literal name of a tool description dict (a name and a description, and with ``parameters`` a parameters
    key, by ``TOOL_DESCRIPTION_KEYS``), else None."""
    keys = {literal_str(k): v for k, v in zip(d.keys, d.values) if k is not None}
    named, described, params = TOOL_DESCRIPTION_KEYS
    if not keys.keys() & described or (parameters and not keys.keys() & params):
        return None
    return next((text for k in sorted(keys.keys() & named) if (text := literal_str(keys[k]))), None)  # type: ignore[type-var]


def attached_descriptions(scope: ast.AST) -> Iterator[tuple[ast.Name, str, str]]:
    """A tool description dict assigned to an attribute of a name in the scope's own statements (not those of the
    functions and classes in it): ``upload.tool_info = {"tool_name": "upload", "tool_description": ...}``.
    -> (the name, the tool's name, the attribute)."""
    stack = list(getattr(scope, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.value, ast.Dict):
            t = n.targets[0]
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id not in ("self", "cls"):
                name = _described(n.value, parameters=False)
                if name is not None:
                    yield t.value, name, t.attr
            continue
        if isinstance(n, ast.stmt):
            stack.extend(ast.iter_child_nodes(n))


def described_names(tree: ast.Module) -> list[tuple[str, int]]:
    """The tools a module-level table describes by name alone: a list or tuple (or a dict of them) assigned at the
    top level whose elements are tool description dicts with a name, a description and parameters, and no callable
    (those are :func:`spec_tools`). -> (the name, the entry's line)."""
    out: list[tuple[str, int]] = []
    for stmt in tree.body:
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        groups = ([value] if isinstance(value, (ast.List, ast.Tuple))
                  else [v for v in value.values if isinstance(v, (ast.List, ast.Tuple))] if isinstance(value, ast.Dict)
                  else [])
        for group in groups:
            for el in group.elts:
                if isinstance(el, ast.Dict) and _spec_run(el) is None:
                    name = _described(el, parameters=True)
                    if name is not None and name.isidentifier():
                        out.append((name, el.lineno))
    return out
