"""What ``self.<attr>`` holds by its class's own declaration, for the ``local`` judgement (``local.call_place``).

- Another class of the module: a class field annotated with it (``board: Board``), or ``__init__`` binding the
  attribute from a parameter annotated with it (``def __init__(self, board: Board): self.board = board``, also
  ``self.board, self.sender = board, sender``), from its constructor (``self.board = Board(goal)``) or under its
  annotation (``self.board: Board = ...``). A method called on the attribute (``self.board.post(...)``) is the
  run's own method, judged where it is defined (``own:pkg.mod.Board.post``), as ``self.post(...)`` is; one the join
  does not find among the run's functions (a third-party base's) leaves the tool unjudged, as before.
- A builtin value: a class field annotated with a builtin value type (``inboxes: dict[str, list[str]] =
  field(default_factory=dict)``), or ``self.seen: set[str] = set()`` in ``__init__``: its value methods
  (``knowledge.LOCAL_VALUE_METHODS``: ``self.inboxes.setdefault(k, [])``) stay on the machine.

An attribute ``__init__`` (or the class body) binds twice to different things, or that any other method of the class
assigns, says nothing. Read once per class, from its body and ``__init__``'s statements only.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from .. import knowledge as kb
from ..nodes import assignment_targets

__all__ = ["VALUE", "attribute_call", "value_type"]

#: what :func:`attribute_call` answers for a builtin value's method
VALUE = ""

#: annotations of a parameter holding a builtin value (``raw: str``, ``items: list[dict[str, Any]]``, ``p: Path |
#: None``): its methods are the value type's, whoever made it
VALUE_ANNOTATIONS = frozenset({"str", "bytes", "int", "float", "bool", "list", "dict", "set", "frozenset", "tuple",
                               "List", "Dict", "Set", "FrozenSet", "Tuple", "Optional", "None", "Path", "PurePath"})


def value_type(node: cst.BaseExpression) -> bool:
    """An annotation of builtin value types only (:data:`VALUE_ANNOTATIONS`; also ``local.value_params``')."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return value_type(node.left) and value_type(node.right)
    if isinstance(node, cst.Subscript):
        if isinstance(node.value, cst.Name) and node.value.value == "Optional":
            return all(isinstance(e.slice, cst.Index) and value_type(e.slice.value) for e in node.slice)
        return value_type(node.value)
    if isinstance(node, cst.Attribute):  # ``pathlib.Path``, ``typing.List``
        return node.attr.value in VALUE_ANNOTATIONS and isinstance(node.value, cst.Name) and node.value.value in (
            "pathlib", "typing")
    return isinstance(node, cst.Name) and node.value in VALUE_ANNOTATIONS


_cache: dict[int, tuple[cst.ClassDef, dict[str, str | None]]] = {}


def attribute_call(func: cst.Attribute, names: Any) -> str | None:
    """For ``self.<attr>.<method>``: the module's class whose method it is (``"Board"``), :data:`VALUE` for a value
    method of a builtin value, else None."""
    recv = func.value
    if not (isinstance(recv, cst.Attribute) and isinstance(recv.value, cst.Name)):
        return None
    scope = names.stack[-1]
    cls = scope.cls
    if scope.self_name is None or recv.value.value != scope.self_name or cls is None or \
            not isinstance(cls.node, cst.ClassDef):
        return None
    held = _declared(cls.node, names).get(recv.attr.value)
    method = func.attr.value
    if held == VALUE:
        return VALUE if method in kb.LOCAL_VALUE_METHODS else None
    # the class's methods are not read here (the module may be narrowed to stubs, ``narrow.py``): the join finds
    # ``pkg.mod.Board.post`` among the run's functions, or the call is not judged local
    return held if held is not None and held in names.classes else None


def _declared(node: cst.ClassDef, names: Any) -> dict[str, str | None]:
    hit = _cache.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    if len(_cache) > 4096:
        _cache.clear()
    found: dict[str, str | None] = {}
    for stmt in node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    _put(found, small.target.value, _kind(small.annotation.annotation, names))
    init = next((s for s in node.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    others = [s for s in node.body.body if isinstance(s, cst.FunctionDef) and s is not init]
    if init is not None:
        _read_init(init, names, found)
    for fn in others:  # an attribute another method assigns holds what that method puts there
        for attr in _assigned(fn):
            found[attr] = None
    _cache[id(node)] = (node, found)
    return found


def _put(found: dict[str, str | None], attr: str, kind: str | None) -> None:
    found[attr] = kind if attr not in found or found[attr] == kind else None


def _read_init(init: cst.FunctionDef, names: Any, found: dict[str, str | None]) -> None:
    params = init.params.params
    self_name = params[0].name.value if params else None
    notes = {p.name.value: _kind(p.annotation.annotation, names) if p.annotation is not None else None
             for p in (*params, *init.params.kwonly_params)}
    for stmt in init.body.body if isinstance(init.body, cst.IndentedBlock) else ():
        if not isinstance(stmt, cst.SimpleStatementLine):
            for attr in _assigned(stmt, self_name):
                found[attr] = None  # bound under a condition or in a loop: not read
            continue
        for small in stmt.body:
            pairs: list[tuple[cst.BaseExpression, cst.BaseExpression | None, cst.Annotation | None]] = []
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                left, right = small.targets[0].target, small.value
                if isinstance(left, cst.Tuple) and isinstance(right, cst.Tuple) and \
                        len(left.elements) == len(right.elements):
                    pairs = [(t.value, v.value, None) for t, v in zip(left.elements, right.elements)]
                else:
                    pairs = [(left, right, None)]
            elif isinstance(small, cst.Assign):
                pairs = [(t.target, None, None) for t in small.targets]
            elif isinstance(small, cst.AnnAssign):
                pairs = [(small.target, small.value, small.annotation)]
            for target, value, note in pairs:
                bound = _self_attr(target, self_name)
                if bound is None:
                    continue
                kind = _kind(note.annotation, names) if note is not None else None
                if kind is None and isinstance(value, cst.Name):
                    kind = notes.get(value.value)
                elif kind is None and isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and \
                        value.func.value in names.classes and names.module_scope.bindings.get(value.func.value) is None:
                    kind = value.func.value
                _put(found, bound, kind)


def _self_attr(target: cst.BaseExpression, self_name: str | None) -> str | None:
    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == self_name:
        return target.attr.value
    return None


def _assigned(node: cst.CSTNode, self_name: str | None = None) -> set[str]:
    """The ``self.<attr>`` names a statement (or a method, its first parameter being ``self``) assigns."""
    if isinstance(node, cst.FunctionDef):
        params = node.params.params
        self_name = params[0].name.value if params else None
    out: set[str] = set()
    stack: list[cst.CSTNode] = [node.body] if isinstance(node, cst.FunctionDef) else [node]
    while stack:
        n = stack.pop()
        targets = assignment_targets(n)
        for t in targets:
            for e in (t.elements if isinstance(t, (cst.Tuple, cst.List)) else ()):
                targets.append(e.value)
            attr = _self_attr(t, self_name)
            if attr is not None:
                out.add(attr)
        stack.extend(c for c in n.children if not isinstance(c, (cst.FunctionDef, cst.ClassDef, cst.Lambda)))
    return out


def _kind(note: cst.BaseExpression, names: Any) -> str | None:
    """The module's class an annotation names (``Board``, ``"Board"``, ``Board | None``, ``Optional[Board]``), or
    :data:`VALUE` for a builtin value type (``dict[str, list[str]]``); else None."""
    if value_type(note):
        return VALUE
    from ..names_members import local_class

    return local_class(names, note)
