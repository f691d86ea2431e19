"""TFH402's embedded stores (s45, issue 24): a method of an object built by a store that lives in the process or
on local disk is local work, whatever the receiver is named.

``self.db = lancedb.connect("./data")`` ... ``self.table = self.db.open_table(name)`` ... ``self.table.count_rows()``:
the receiver's words (``db``, ``table``) say "remote store", the constructor says "a directory on this machine".
The object is followed from the receiver back to what built it: a local name the function binds (``db =
sqlite3.connect(p)``, ``async with aiosqlite.connect(p) as db``), an attribute every method of the class assigns
(``self.conn = ...`` in ``__init__``; ``None`` aside, ``param or lancedb.connect(...)`` read as the object built),
or a method of such an object (``self.db.open_table(t)``, ``repo.index``). The constructors, the argument that
names their location and the locations that make them remote are data (``EMBEDDED_STORES`` in
``linter/knowledge/fallbacks.py``): a location must show it is local when the store can also be remote (a
literal without a remote prefix, a path-named argument, ``pathlib.Path``/``os.path``), never a name.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import Knowledge, Names, dotted, imported_definition, last_name, walk_in_scope

__all__ = ["attribute_values", "binds_anywhere", "embedded_store", "name_values", "opened_on_path", "self_name"]

_DEPTH = 6
_ON_PATH = "<opened on a path>"
_PATH_CALLS = ("pathlib.Path", "pathlib.PurePath", "os.path.", "os.getcwd", "tempfile.")


def embedded_store(func: cst.Attribute, names: Names, knowledge: Knowledge, path: str | None = None) -> bool:
    """``func`` (a method called) belongs to an object an embedded store built on a local location, and is not one
    of the store's methods that leave the machine (GitPython's ``fetch``/``push``). ``path``: the linted file, to
    read the return annotation of a project function in another module (``conn = db.get_db()``)."""
    store = _Reader(names, knowledge, path).store_of(func.value, _DEPTH)
    return store is not None and func.attr.value not in knowledge.embedded_stores.get(store, ("", (), frozenset()))[2]


class _Reader:
    """Follows an object back to the constructor that built it, within one file (and a project helper's annotation)."""

    def __init__(self, names: Names, knowledge: Knowledge, path: str | None) -> None:
        self.names = names
        self.knowledge = knowledge
        self.path = path
        self.method: cst.FunctionDef | None = None  # the method a value read from ``self.<attr>`` was assigned in

    def store_of(self, node: cst.BaseExpression, depth: int) -> str | None:
        """The embedded store (its constructor's or class's qualified name) whose object ``node`` is, or None."""
        if depth <= 0:
            return None
        depth -= 1
        k = self.knowledge
        if isinstance(node, cst.Await):
            return self.store_of(node.expression, depth)
        if isinstance(node, cst.Call):
            qn = self._qualname(node.func)
            if qn is not None and qn in k.embedded_stores:
                return qn if _local_location(node, qn, self.names, k) else None
            if (last_name(node.func) or "").lstrip("_")[:1].isupper() and opened_on_path(node, self.names, k):
                return _ON_PATH  # Repository(self.repo_path): an object of a local path, whatever its class
            returned = self._returns_store(node, qn)
            if returned is not None:
                return returned
            if isinstance(node.func, cst.Attribute):
                return self.store_of(node.func.value, depth)  # self.db.open_table(t): what the store hands out
            return None
        if isinstance(node, cst.Subscript):
            return self.store_of(node.value, depth)
        if isinstance(node, (cst.BooleanOperation, cst.IfExp)):
            sides = [node.left, node.right] if isinstance(node, cst.BooleanOperation) else [node.body, node.orelse]
            found = {self.store_of(side, depth) for side in sides if not isinstance(side, cst.Name)}
            found.discard(None)
            return next(iter(found)) if len(found) == 1 else None  # ``connection or lancedb.connect(uri)``
        if isinstance(node, cst.Attribute):
            func = self.method or self.names.function
            if isinstance(node.value, cst.Name) and isinstance(func, cst.FunctionDef) and node.value.value == _self_name(func):
                return self._agreed(_attribute_values(node.attr.value, self.names), depth)
            return self.store_of(node.value, depth)  # repo.index.diff(...): a part of the store
        if isinstance(node, cst.Name):
            ref = self.names.qualify(node)
            if ref is not None and ref[1] and k.canonical(ref[0]) in k.embedded_store_classes:
                return ref[0]  # conn: sqlite3.Connection
            func = self.method or self.names.function
            if isinstance(func, cst.FunctionDef):
                values = _name_values(node.value, func)
                outer = self.names.enclosing_function if self.method is None else None
                if not values and outer is not None and not _binds_anywhere(node.value, func):
                    values = _name_values(node.value, outer)  # a closure reads its parent's ``repo``
                return self._agreed([(v, self.method) for v in values], depth)
        return None

    def _agreed(self, values: list[tuple[cst.BaseExpression, cst.FunctionDef | None]], depth: int) -> str | None:
        """The one store every value (``None`` aside) was built by; None when any value is not one."""
        values = [(v, m) for v, m in values if not (isinstance(v, cst.Name) and v.value == "None")]
        if not values:
            return None
        found: set[str | None] = set()
        saved = self.method
        for value, method in values:
            self.method = method
            found.add(self.store_of(value, depth))
        self.method = saved
        return next(iter(found)) if len(found) == 1 else None

    def _qualname(self, func: cst.BaseExpression) -> str | None:
        """The callee's qualified name; in a value another method assigned, through that method's own imports
        (``import lancedb`` inside ``__init__``)."""
        raw = self.names.qualname(func)
        if raw is None and self.method is not None:
            text = dotted(func)
            root = text.split(".", 1)[0] if text is not None else None
            for n in walk_in_scope(self.method.body):
                if isinstance(n, cst.Import) and text is not None:
                    for alias in n.names:
                        module = dotted(alias.name) or ""
                        bound = alias.asname.name if alias.asname is not None else None
                        if isinstance(bound, cst.Name) and bound.value == root:
                            raw = module + text[len(root or ""):]
                        elif bound is None and module.split(".", 1)[0] == root:
                            raw = text
        return self.knowledge.canonical(raw) if raw is not None else None

    def _returns_store(self, call: cst.Call, qn: str | None) -> str | None:
        """A function annotated to return an embedded store's object: the module's own (the resolver reads its
        annotation), or a project function of another module (``def get_db() -> sqlite3.Connection``)."""
        k = self.knowledge
        ref = self.names.qualify(call)
        if ref is not None and ref[1] and k.canonical(ref[0]) in k.embedded_store_classes:
            return ref[0]
        if qn is None or "." not in qn or self.path is None:
            return None
        found = imported_definition(self.path, qn)
        ann = dotted(found.returns.annotation) if found is not None and found.returns is not None else None
        return ann if ann is not None and ann in k.embedded_store_classes else None


def _local_location(call: cst.Call, qn: str, names: Names, knowledge: Knowledge) -> bool:
    """The store's location (its keyword, else its first positional argument) is on this machine: any location when
    the store cannot be remote, else a literal without a remote prefix, a path-named value, ``Path``/``os.path``."""
    keyword, remote, _ = knowledge.embedded_stores[qn]
    if not remote:
        return True
    arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
    if arg is None:
        arg = next((a.value for a in call.args if a.keyword is None and not a.star), None)
    return arg is None or _local_value(arg, remote, names, knowledge, _DEPTH)


def _local_value(value: cst.BaseExpression, remote: tuple[str, ...], names: Names, knowledge: Knowledge, depth: int) -> bool:
    if depth <= 0:
        return False
    if isinstance(value, (cst.SimpleString, cst.ConcatenatedString)):
        text = value.evaluated_value
        return isinstance(text, str) and not text.lower().startswith(remote)
    if isinstance(value, cst.FormattedString):
        head = value.parts[0] if value.parts else None
        return isinstance(head, cst.FormattedStringText) and len(head.value) > 1 and not head.value.lower().startswith(remote)
    if isinstance(value, cst.Call):
        raw = names.qualname(value.func)
        qn = knowledge.canonical(raw) if raw is not None else ""
        if qn.startswith(_PATH_CALLS):
            return True
        if qn == "str" and len(value.args) == 1:
            return _local_value(value.args[0].value, remote, names, knowledge, depth - 1)
    last = last_name(value)
    if last is not None and last.lower().split("_")[-1] in knowledge.local_path_argument_words:
        return True
    func = names.function
    if isinstance(value, cst.Name) and isinstance(func, cst.FunctionDef):
        bound = _name_values(value.value, func)
        return len(bound) == 1 and _local_value(bound[0], remote, names, knowledge, depth - 1)
    return False


def opened_on_path(call: cst.Call, names: Names, knowledge: Knowledge) -> bool:
    """A constructor handed only filesystem paths (``AuthProfileStore(AUTH_PROFILES_PATH)``, ``Store(Path(p))``)."""
    if not call.args:
        return False
    for arg in call.args:
        value = arg.value
        if isinstance(value, cst.Call):
            qn = names.qualname(value.func)
            if qn is None or knowledge.canonical(qn) not in ("pathlib.Path", "pathlib.PurePath"):
                return False
            continue
        parts = (last_name(value) or "").lower().split("_")
        if parts[-1] not in knowledge.local_path_argument_words:
            return False
    return True


def _self_name(func: cst.FunctionDef) -> str | None:
    params = [*func.params.posonly_params, *func.params.params]
    return params[0].name.value if params else None


def _name_values(name: str, func: cst.FunctionDef) -> list[cst.BaseExpression]:
    """What ``func`` binds ``name`` to: assignments and ``with ... as name``; empty when it binds it otherwise too
    (a loop, a parameter), or not at all."""
    if any(p.name.value == name for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)):
        return []
    out: list[cst.BaseExpression] = []
    for n in walk_in_scope(func.body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Name) and t.target.value == name:
                    out.append(n.value)
                elif _binds(t.target, name):
                    return []
        elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.target.value == name and n.value is not None:
            out.append(n.value)
        elif isinstance(n, cst.WithItem) and n.asname is not None and isinstance(n.asname.name, cst.Name) \
                and n.asname.name.value == name:
            out.append(n.item)
        elif isinstance(n, (cst.For, cst.AugAssign, cst.NamedExpr)) and _binds(n.target, name):
            return []
    return out


def _binds_anywhere(name: str, func: cst.FunctionDef) -> bool:
    """``func`` binds ``name`` itself (a parameter, an assignment, a loop, a ``with``), so it is not its parent's."""
    params = func.params
    if any(p.name.value == name for p in (*params.posonly_params, *params.params, *params.kwonly_params)):
        return True
    if any(isinstance(p, cst.Param) and p.name.value == name for p in (params.star_arg, params.star_kwarg)):
        return True
    for n in walk_in_scope(func.body):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.Assign):
            targets = [t.target for t in n.targets]
        elif isinstance(n, (cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr)):
            targets = [n.target]
        elif isinstance(n, cst.WithItem) and n.asname is not None:
            targets = [n.asname.name]
        if any(_binds(t, name) for t in targets):
            return True
    return False


def _binds(target: cst.BaseExpression, name: str) -> bool:
    return any(isinstance(n, cst.Name) and n.value == name for n in walk_in_scope(target))


def _attribute_values(attr: str, names: Names) -> list[tuple[cst.BaseExpression, cst.FunctionDef | None]]:
    """What the methods of the enclosing class assign to ``self.<attr>`` (through their compound statements)."""
    owner = next((s.node for s in reversed(names.stack) if s.kind == "class"), None)
    if not isinstance(owner, cst.ClassDef) or not isinstance(owner.body, cst.IndentedBlock):
        return []
    out: list[tuple[cst.BaseExpression, cst.FunctionDef | None]] = []
    for method in owner.body.body:
        if not isinstance(method, cst.FunctionDef):
            continue
        me = _self_name(method)
        for n in walk_in_scope(method.body):
            targets: list[cst.BaseExpression] = []
            value: cst.BaseExpression | None = None
            if isinstance(n, cst.Assign):
                targets, value = [t.target for t in n.targets], n.value
            elif isinstance(n, cst.AnnAssign):
                targets, value = [n.target], n.value
            elif isinstance(n, cst.AugAssign):
                targets = [n.target]
            if any(isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == me
                   and t.attr.value == attr for t in targets):
                if value is None:
                    return []
                out.append((value, method))
    return out


# the followers :mod:`.remote_object` shares (s49): what a name, ``self.<attr>`` or a method's receiver is bound to
attribute_values = _attribute_values
binds_anywhere = _binds_anywhere
name_values = _name_values
self_name = _self_name
