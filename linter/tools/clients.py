"""Calls on SDK client objects (``knowledge.CLIENT_CLASSES``): which object a receiver is, and what its method does.

An object is known by positive evidence only, resolved the way Python binds it: the name resolver's objects
(``client = AdminClient(conf)``, ``self.client`` set in ``__init__``, a parameter annotated ``client: AdminClient``),
a call of one of the module's functions or methods annotated to return a client class (``def get_client(self) ->
AdminClient``: ``client = self.get_client(name)``, also through another object, ``self.base._get_client()``) or
returning one it builds, and what a client's own method or subscript gives (``db = mongo["app"]``, ``coll =
db[name]``). A name bound here holds in its function; ``self.x`` for the class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import ast

import libcst as cst

from .. import knowledge as kb
from ..names import dotted
from ..nodes import dotted as nodes_dotted

if TYPE_CHECKING:
    from ..names import Names

__all__ = ["ClientObjects"]

KeyOf = Callable[[str | None], str | None]  # a receiver's text -> its key (a local name: in its function)


class ClientObjects:
    """The client objects of one module, filled as the traversal goes."""

    def __init__(self, names: "Names", key_of: KeyOf, roots: frozenset[str] = frozenset()) -> None:
        self.names = names
        self.roots = roots  # the file's imported top-level packages
        self.key_of = key_of
        self.returning: dict[str, str | None] = {}  # function or method name -> the client class it returns
        self.bound: dict[str, str] = {}  # receiver key -> client class
        self.attributes: dict[str, str | None] = {}  # ``self.x`` -> the client class its class declares or sets

    def scan(self, tree: ast.AST) -> None:
        """The module's functions and methods (any class depth) that return a client object: read from the whole
        file's ``ast`` (the traversal sees only the tools' region)."""
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                self._attributes(node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                cls = self._returns(node)
                if node.name in self.returning and self.returning[node.name] != cls:
                    self.returning[node.name] = None  # two definitions disagree: neither is trusted
                else:
                    self.returning[node.name] = cls

    def _attributes(self, cls: ast.ClassDef) -> None:
        """``self.x`` a class declares a client (``sock: socket.socket = None`` in its body) or sets to one in any of
        its methods (``self.sock = socket.socket(...)`` in ``connect``): held for the class, read where the
        traversal does not pass the assignment (a summary of ``send_command`` alone)."""
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                self._attribute(f"self.{stmt.target.id}", self._named(stmt.annotation))
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
                    for t in n.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            self._attribute(f"self.{t.attr}", self._named(n.value.func))

    def _attribute(self, key: str, cls: str | None) -> None:
        if cls is None:
            return
        if self.attributes.get(key, cls) != cls:
            self.attributes[key] = None  # two classes disagree
        else:
            self.attributes[key] = cls

    def _returns(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        if fn.returns is not None:
            return self._named(fn.returns)
        values = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
        if len(values) == 1 and isinstance(values[0], ast.Call):
            return self._named(values[0].func)  # ``return pymongo.MongoClient(uri)``
        return None

    def _named(self, node: ast.expr) -> str | None:
        """The client class an annotation or constructor names through the module's imports (``Optional[X]``,
        ``X | None``, ``"X"`` too)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(node, ast.Subscript) and (nodes_dotted(node.value) or "").rsplit(".", 1)[-1] == "Optional":
            return self._named(node.slice)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [s for s in (node.left, node.right) if not (isinstance(s, ast.Constant) and s.value is None)]
            return self._named(sides[0]) if len(sides) == 1 else None
        text = nodes_dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        ref = self.names.lookup(head)
        if ref is None or ref[1]:
            return None
        return self._known(f"{ref[0]}.{rest}" if rest else ref[0])

    @staticmethod
    def _known(qualname: str) -> str | None:
        name = kb.canonical(qualname)
        return name if name in kb.CLIENT_CLASSES else None

    def bind(self, key: str | None, value: cst.BaseExpression) -> None:
        if key is None:
            return
        cls = self.of(value)
        if cls is not None:
            self.bound[key] = cls
        else:
            self.bound.pop(key, None)

    def of(self, expr: cst.BaseExpression) -> str | None:
        """The client class of the object ``expr`` gives, or None when nothing says so."""
        if isinstance(expr, cst.Await):
            return self.of(expr.expression)
        ref = self.names.qualify(expr)
        if ref is not None and ref[1] and self._known(ref[0]) is not None:
            return self._known(ref[0])
        if isinstance(expr, (cst.Name, cst.Attribute)):
            key = self.key_of(dotted(expr))
            if key is not None and key in self.bound:
                return self.bound[key]
            if key is not None and key.startswith("self."):
                return self.attributes.get(key)
        if isinstance(expr, cst.Subscript):
            owner = self.of(expr.value)
            return kb.CLIENT_CLASSES[owner].gives.get(kb.CLIENT_SUBSCRIPT) if owner is not None else None
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute):
                owner = self.of(func.value)
                if owner is not None:
                    return kb.CLIENT_CLASSES[owner].gives.get(func.attr.value)
                if isinstance(func.value, (cst.Name, cst.Attribute)) and (dotted(func.value) or "").startswith("self"):
                    return self.returning.get(func.attr.value)
            elif isinstance(func, cst.Name) and self.names.qualname(func) is None:
                return self.returning.get(func.value)
        return None

    def call(self, call: cst.Call) -> tuple[str, str | None] | None:
        """(``AdminClient.list_topics``, its class) for a call of a known method on a client object."""
        func = call.func
        if not isinstance(func, cst.Attribute):
            return None
        chained = kb.CLIENT_CHAIN_CALLS.get(func.attr.value)
        if chained is not None and self.roots & set(chained) and not call.args and isinstance(func.value, cst.Call) \
                and isinstance(func.value.func, cst.Attribute):
            return f"{func.value.func.attr.value}().{func.attr.value}", None
        owner = self.of(func.value)
        if owner is None:
            ref = self.names.qualify(func.value)
            module = kb.CLIENT_MODULES.get(ref[0]) if ref is not None and not ref[1] else None
            cls = module.methods.get(func.attr.value) if module is not None else None
            return (f"{module.short}.{func.attr.value}", cls) if module is not None and cls is not None else None
        spec = kb.CLIENT_CLASSES[owner]
        cls = spec.methods.get(func.attr.value)
        if cls is None and spec.any_method and not func.attr.value.startswith("_"):
            return f"{spec.short}.{func.attr.value}", None  # a remote procedure: a call out, unclassified
        if cls is None and func.attr.value in spec.sends:
            return f"{spec.short}.{func.attr.value}", None  # a socket's send: a call out, what it does unknown
        return (f"{spec.short}.{func.attr.value}", cls) if cls is not None else None

