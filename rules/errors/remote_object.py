"""TFH402 (s49, issue 24): a receiver *named* like a remote thing is evidence only when the object is known to be one.

``self.client.get(k)``, ``store.load()``, ``conn.execute(sql)``, ``collection.delete(ids)``: the receiver's words
(``client``, ``store``, ``conn``, ``collection``) say "remote" as often for a local sqlite database, a keychain, an
embedded vector store or an in-process API (batch 21: 9 of the 15 false TFH402 findings, 7 of them a sqlite
database the class itself opens) as for a service. So the name alone is no evidence: the object must be followed
to something that says it comes from a third-party package (an SDK, a driver, a client library), the way
:mod:`.local_store` follows a store to what built it:

- a parameter, attribute or local annotated with a third-party class (``client: QdrantClient``), or a value the
  resolver types as one (a constructor, a helper of the module that returns one);
- a local name the function (or, in a closure, its parent) binds, or ``self.<attr>`` as the methods of the class
  assign it, to a call into a third-party package (``self.client = Pinecone(api_key=k)``, ``client =
  boto3.client("s3")``, ``self._collection = self._client.get_or_create_collection(n)``);
- what a method of the class or a function of the module returns (``self._get_bucket().blob(k).exists()``);
- a part of such an object or what its methods hand out (``client.containers.list()``, ``s3.Object(b, k)``).

An object of a class of the project's own package (``repo: GitRepo``, ``HttpClient.request(...)``) counts too: what
the project implements its method as decides (:func:`~.remote._project_local`, read before this). A parameter with no
annotation, an object handed in, or a value whose origin the file does not show is unknown, and stays silent (the class of finding batches 19-21 read false most often). What a third-party
object does locally (sqlite3, a docker daemon, an embedded store) is decided before this, by the local-work
tables (:mod:`.remote`, :mod:`.local_store`).
"""

from __future__ import annotations

import ast
import sys
import weakref

import libcst as cst

from ...linter.api import Knowledge, Names, dotted, imported_definition, walk_in_scope
from .local_store import attribute_values, binds_anywhere, name_values, self_name

__all__ = ["sdk_object"]

_DEPTH = 10


def sdk_object(receiver: cst.BaseExpression, names: Names, knowledge: Knowledge, tree: ast.Module | None = None,
               path: str | None = None, method: str = "") -> bool:
    """Whether ``receiver`` (the object a method is called on) is an object of a third-party package, followed
    through the file to what built or typed it. ``tree``: the whole file's ``ast`` (the screen's), to read a
    helper the engine stubbed out of the libcst tree (a ``def`` holding no candidate line); ``path``: the linted
    file, to read the return annotation of a project function of another module (``conn = db.get_remote()``)."""
    return _Origin(names, knowledge, tree, path, method).sdk(receiver, _DEPTH)


class _Origin:
    def __init__(self, names: Names, knowledge: Knowledge, tree: ast.Module | None, path: str | None, called: str) -> None:
        self.called = called  # the method called on the receiver (an embedded store's ``fetch`` leaves the machine)
        self.names = names
        self.tree = tree
        self.path = path
        self.knowledge = knowledge
        self.method: cst.FunctionDef | None = None  # the method a value read from ``self.<attr>`` was assigned in

    def third(self, qn: str | None) -> bool:
        """``qn`` (a qualified name) is in a package that is neither the standard library, an in-memory library,
        nor the linted file's own."""
        if qn is None or "." not in qn or qn.startswith("."):
            return False  # a builtin, a name of this module, a relative import (the project's own)
        if self._embedded(qn):
            return False  # git.Repo(root), sqlite3.connect(p): an embedded store, local work
        parts = self.knowledge.canonical(qn).split(".")
        own = (self.names.package or "").split(".", 1)[0]
        if own and own in (parts[0], parts[1]):
            return False
        return (parts[0] not in sys.stdlib_module_names and parts[0] not in self.knowledge.in_memory_libraries
                and not parts[0].startswith("_"))

    def _embedded(self, qn: str) -> bool:
        """``qn`` is an embedded store that is always local (``git.Repo``, ``sqlite3.Connection``,
        ``chromadb.PersistentClient``), whatever the attribute it is reached through (``repo.git.diff()``: GitPython
        runs the local ``git``)."""
        k = self.knowledge
        qn = k.canonical(qn)
        # a store that may be remote (LanceDB's ``db://``, MotherDuck's ``md:``) is decided by its location, in
        # :mod:`.local_store`, before this: here it stays a third-party object
        if qn in k.embedded_stores and self.called in k.embedded_stores[qn][2]:
            return False  # repo.remotes.origin.fetch(): GitPython's network methods
        if qn in k.embedded_store_classes:
            return not any(self.called in k.embedded_stores[s][2] for s in k.embedded_stores if qn.startswith(s))
        return qn in k.embedded_stores and not k.embedded_stores[qn][1]

    def _own_class(self, qn: str) -> bool:
        """``qn`` names a class of the linted file's own package (``app.git_repo.GitRepo``)."""
        parts = qn.split(".")
        own = (self.names.package or "").split(".", 1)[0]
        return bool(own) and len(parts) > 1 and parts[0] == own and parts[-1][:1].isupper()

    def typed(self, node: cst.BaseExpression) -> bool:
        """The resolver types ``node`` as an object of a third-party class (an annotation, a constructor)."""
        if self.method is not None:
            return False  # the resolver answers for the function being linted, not the method that assigned it
        ref = self.names.qualify(node)
        if ref is None:
            return False
        if ref[1] and self.third(ref[0]):
            return True
        # a class of the project's own package, or an object of one (``repo: GitRepo``, ``HttpClient.request``): what
        # its method does is the project's, read by the caller (:func:`~.remote._project_local`) before this
        return self._own_class(ref[0])

    def sdk(self, node: cst.BaseExpression, depth: int) -> bool:
        if depth <= 0:
            return False
        depth -= 1
        if isinstance(node, cst.Await):
            return self.sdk(node.expression, depth)
        if isinstance(node, cst.Subscript):
            return self.sdk(node.value, depth)
        if isinstance(node, (cst.Tuple, cst.List)):  # `return Composio(api_key=k), user`: unpacked by the caller
            return any(self.sdk(e.value, depth) for e in node.elements if isinstance(e, cst.Element))
        if isinstance(node, (cst.DictComp, cst.ListComp)):
            return self.sdk(node.value if isinstance(node, cst.DictComp) else node.elt, depth)  # a registry of clients
        if isinstance(node, (cst.BooleanOperation, cst.IfExp)):
            sides = [node.left, node.right] if isinstance(node, cst.BooleanOperation) else [node.body, node.orelse]
            return any(self.sdk(side, depth) for side in sides)
        if self.typed(node):
            return True
        if isinstance(node, cst.Call):
            raw = self.names.qualname(node.func) if self.method is None else None
            raw = raw or self._qualname_in_method(node.func)
            if self.third(raw):
                return True  # boto3.client("s3"), Pinecone(api_key=k), chromadb.HttpClient(host=h)
            if raw is not None and "." in raw and self.path is not None:
                found = imported_definition(self.path, raw)  # def get_remote() -> psycopg.Connection, in app/db.py
                ann = dotted(found.returns.annotation) if found is not None and found.returns is not None else None
                if ann is not None and "." in ann and self.third(ann):
                    return True
            helper = self._helper(node.func)
            if helper is not None:
                return self._follow_returns(helper, depth)
            if isinstance(node.func, cst.Attribute):
                return self.sdk(node.func.value, depth)  # client.containers.get(n): what the object hands out
            return False
        if isinstance(node, cst.Attribute):
            if isinstance(node.value, cst.Name) and node.value.value == self._self():
                assigned = attribute_values(node.attr.value, self.names)
                if any(self._sdk_in(value, method, depth) for value, method in assigned):
                    return True
                prop = self._class_method(node.attr.value)
                return prop is not None and self._follow_returns(prop, depth)  # a property that builds the client
            return self.sdk(node.value, depth)
        if isinstance(node, cst.Name):
            func = self.method or self.names.function
            if not isinstance(func, cst.FunctionDef):
                return False
            if self.third(self._annotation(node.value, func)):
                return True  # def __init__(self, client: chromadb.HttpClient): self.collection = client.get_collection(n)
            values = name_values(node.value, func) or _unpacked(node.value, func)
            outer = self.names.enclosing_function if self.method is None else None
            if not values and outer is not None and not binds_anywhere(node.value, func):
                return any(self._sdk_in(v, None, depth) for v in name_values(node.value, outer))
            return any(self._sdk_in(v, self.method, depth) for v in values)
        return False

    def _sdk_in(self, value: cst.BaseExpression, method: cst.FunctionDef | None, depth: int) -> bool:
        saved = self.method
        self.method = method
        try:
            return self.sdk(value, depth)
        finally:
            self.method = saved

    def _qualname_in_method(self, func: cst.BaseExpression) -> str | None:
        """A callee's qualified name in a value another method assigned: module-level imports only."""
        root = func
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name):
            return None
        text = dotted(func)
        if text is None:
            return None
        module = self._imported_in_method(root.value) or self._dynamic_import(root.value)
        if module is None:
            ref = self.names.module_scope.bindings.get(root.value)
            if ref is None or ref[1]:
                return None
            module = ref[0]
        return module + text[len(root.value):]

    def _annotation(self, name: str, func: cst.FunctionDef) -> str | None:
        """The qualified name of the class a parameter or a local of ``func`` is annotated with."""
        params = func.params
        for p in (*params.posonly_params, *params.params, *params.kwonly_params):
            if p.name.value == name and p.annotation is not None:
                return self._qualname_in_method(p.annotation.annotation)
        for n in walk_in_scope(func.body):
            if isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.target.value == name:
                return self._qualname_in_method(n.annotation.annotation)  # api: LangGraphClient = self.api
        return None

    def _dynamic_import(self, name: str) -> str | None:
        """``boto3 = importlib.import_module("boto3")`` in the function read: the module named by the literal."""
        func = self.method or self.names.function
        values = name_values(name, func) if isinstance(func, cst.FunctionDef) else []
        if len(values) != 1 or not isinstance(values[0], cst.Call) or len(values[0].args) != 1:
            return None
        call = values[0]
        text = dotted(call.func)
        arg = call.args[0].value
        if text is None or text.rsplit(".", 1)[-1] != "import_module" or not isinstance(arg, cst.SimpleString):
            return None
        module = arg.evaluated_value
        return module if isinstance(module, str) else None

    def _imported_in_method(self, name: str) -> str | None:
        """What an import inside the method being followed binds ``name`` to (``import aioboto3`` in
        ``__init__``, ``from google.cloud import storage`` in ``_get_client``): the lazy import of an optional SDK."""
        if self.method is None:
            return None
        for n in walk_in_scope(self.method.body):
            if isinstance(n, cst.Import):
                for alias in n.names:
                    module = dotted(alias.name) or ""
                    bound = alias.asname.name if alias.asname is not None else None
                    if isinstance(bound, cst.Name) and bound.value == name:
                        return module
                    if bound is None and module.split(".", 1)[0] == name:
                        return name
            elif isinstance(n, cst.ImportFrom) and n.module is not None and not n.relative \
                    and not isinstance(n.names, cst.ImportStar):
                for alias in n.names:
                    taken = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(taken, cst.Name) and taken.value == name:
                        return f"{dotted(n.module)}.{dotted(alias.name)}"
        return None

    def _self(self) -> str | None:
        """The name the method being read calls its instance (``self``), through closures (``def _delete(): ...``
        inside a method reads its ``self``)."""
        if self.method is not None:
            return self_name(self.method)
        return next((s.self_name for s in reversed(self.names.stack) if s.self_name is not None), None)

    def _class(self) -> cst.ClassDef | None:
        owner = next((s.node for s in reversed(self.names.stack) if s.kind == "class"), None)
        return owner if isinstance(owner, cst.ClassDef) else None

    def _class_method(self, name: str) -> cst.FunctionDef | None:
        owner = self._class()
        if owner is None or not isinstance(owner.body, cst.IndentedBlock):
            return None
        return next((m for m in owner.body.body if isinstance(m, cst.FunctionDef) and m.name.value == name), None)

    def _helper(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        """A method of this class (``self._get_bucket()``) or a function of this module (``_client()``)."""
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self._self():
            return self._class_method(func.attr.value)
        if isinstance(func, cst.Name) and func.value in self.names.module_scope.defs and self.names.lookup(func.value) is None:
            return self.names.module_scope.defs[func.value]
        return None

    def _follow_returns(self, helper: cst.FunctionDef, depth: int) -> bool:
        if _stub(helper):
            return self._ast_returns(helper.name.value, depth)
        ann = helper.returns.annotation if helper.returns is not None else None
        if isinstance(ann, (cst.Name, cst.Attribute)) and self.third(self._qualname_in_method(ann)):
            return True  # def _bucket(self) -> storage.Bucket
        values = [n.value for n in walk_in_scope(helper.body) if isinstance(n, cst.Return) and n.value is not None]
        return any(self._sdk_in(v, helper, depth) for v in values)

    # ------------------------------------------------ a helper the engine stubbed, read on the screen's ``ast``

    def _ast_returns(self, name: str, depth: int) -> bool:
        """What the helper ``name`` (a method of the enclosing class, else a function of the module) returns, read on
        the whole file's ``ast``: a call into a third-party package (through the module's or the helper's own
        imports: ``from composio import Composio`` ... ``return Composio(api_key=key), user``), a local bound to
        one, or ``self.<attr>`` as the class assigns it."""
        if self.tree is None:
            return False
        owner = self._class()
        index = _index(self.tree)
        scope: list[ast.stmt] = self.tree.body
        if owner is not None:
            cls = index.classes.get(owner.name.value)
            scope = cls.body if cls is not None else []
        fn = next((n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name), None)
        if fn is None:
            return False
        imports, bound, values = index.function(fn)
        local = dict(bound)  # one copy for all the returns, as they consume it
        me = fn.args.args[0].arg if owner is not None and fn.args.args else None
        return any(self._ast_sdk(v, imports, local, me, depth) for v in values)

    def _ast_sdk(self, node: ast.expr, imports: dict[str, str], local: dict[str, ast.expr], me: str | None, depth: int) -> bool:
        if depth <= 0:
            return False
        depth -= 1
        if isinstance(node, ast.Await):
            return self._ast_sdk(node.value, imports, local, me, depth)
        if isinstance(node, ast.Tuple):
            return any(self._ast_sdk(e, imports, local, me, depth) for e in node.elts)
        if isinstance(node, ast.Call):
            text = dotted(node.func)
            root = text.split(".", 1)[0] if text is not None else None
            if root is not None and root in imports and self.third(imports[root] + text[len(root):]):  # type: ignore[index]
                return True
            if isinstance(node.func, ast.Attribute):
                return self._ast_sdk(node.func.value, imports, local, me, depth)
            return False
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == me:
                return any(self._sdk_in(v, m, depth) for v, m in attribute_values(node.attr, self.names))
            return self._ast_sdk(node.value, imports, local, me, depth)
        if isinstance(node, ast.Name) and node.id in local:
            return self._ast_sdk(local.pop(node.id), imports, local, me, depth)
        return False


class _FileIndex:
    """What :meth:`_Origin._ast_returns` reads of one file's ``ast``, read once per file (s50: it walked the whole tree
    for the class, and the helper three times, for every stubbed helper it followed)."""

    def __init__(self, tree: ast.Module) -> None:
        self.classes: dict[str, ast.ClassDef] = {}  # the first class of each name, in ``ast.walk`` order
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef):
                self.classes.setdefault(n.name, n)
        self.imports = _ast_imports(tree.body)
        self._functions: dict[int, tuple[dict[str, str], dict[str, ast.expr], list[ast.expr]]] = {}

    def function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[dict[str, str], dict[str, ast.expr], list[ast.expr]]:
        """The names the module's and ``fn``'s imports bind, ``fn``'s locals bound once by name (the last binding), and
        the values it returns (the locals are the caller's to copy: :meth:`_Origin._ast_sdk` consumes them)."""
        key = id(fn)
        if key not in self._functions:
            nodes = list(ast.walk(fn))
            imports = dict(self.imports)
            imports.update(_ast_imports(nodes))
            local: dict[str, ast.expr] = {}
            for n in nodes:
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                    local[n.targets[0].id] = n.value
            values = [n.value for n in nodes if isinstance(n, ast.Return) and n.value is not None]
            self._functions[key] = (imports, local, values)
        return self._functions[key]


_INDEXES: weakref.WeakKeyDictionary[ast.Module, _FileIndex] = weakref.WeakKeyDictionary()


def _index(tree: ast.Module) -> _FileIndex:
    """The file's :class:`_FileIndex`, kept while its tree lives (the screen's tree: one per linted file)."""
    index = _INDEXES.get(tree)
    if index is None:
        index = _INDEXES[tree] = _FileIndex(tree)
    return index


def _stub(func: cst.FunctionDef) -> bool:
    """``def name(): ...``: a definition the engine narrowed away (``linter/narrow.py``)."""
    body = func.body
    return isinstance(body, cst.SimpleStatementSuite) and len(body.body) == 1 and isinstance(body.body[0], cst.Expr) \
        and isinstance(body.body[0].value, cst.Ellipsis)


def _unpacked(name: str, func: cst.FunctionDef) -> list[cst.BaseExpression]:
    """``client, user_id = _client()``: the call a tuple assignment unpacks into ``name``."""
    out: list[cst.BaseExpression] = []
    for n in walk_in_scope(func.body):
        if isinstance(n, cst.Assign) and isinstance(n.value, (cst.Call, cst.Await)):
            for t in n.targets:
                if isinstance(t.target, (cst.Tuple, cst.List)) and any(
                        isinstance(e.value, cst.Name) and e.value.value == name for e in t.target.elements):
                    out.append(n.value)
    return out


def _ast_imports(nodes: list[ast.stmt] | list[ast.AST]) -> dict[str, str]:
    """The names imports bind (``import boto3``, ``from google.cloud import storage``), absolute imports only."""
    out: dict[str, str] = {}
    for n in nodes:
        if isinstance(n, ast.Import):
            for a in n.names:
                out[a.asname or a.name.split(".", 1)[0]] = a.name if a.asname else a.name.split(".", 1)[0]
        elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
            for a in n.names:
                out[a.asname or a.name] = f"{n.module}.{a.name}"
    return out
