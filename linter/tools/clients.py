"""Calls on SDK client objects (``knowledge.CLIENT_CLASSES``): which object a receiver is, and what its method does.

An object is known by positive evidence only, resolved the way Python binds it: the name resolver's objects
(``client = AdminClient(conf)``, ``self.client`` set in ``__init__``, a parameter annotated ``client: AdminClient``),
a call of one of the module's functions or methods annotated to return a client class (``def get_client(self) ->
AdminClient``: ``client = self.get_client(name)``, also through another object, ``self.base._get_client()``) or
returning one it builds, and what a client's own method or subscript gives (``db = mongo["app"]``, ``coll =
db[name]``). A name bound here holds in its function; ``self.x`` for the class.

A third-party SDK's client (``knowledge.SDK_CLIENT_CLASS_SUFFIXES``: ``hcloud.Client``, ``tavily.TavilyClient``) built
elsewhere in the module: a module global (``client = Client(...)``, or ``client: Optional[Client] = None`` set by a
function's ``global client``), ``self.x`` set in any method (``__init__``, ``__post_init__``; the class imported
there too), or a local bound to its constructor: a method called on it or on an API namespace under it
(``client.ssh_keys.delete(key)``) is a call out, unclassified; its timeout the constructor's when the timeout tables
know the class (``Client(token=t)``: missing), else unknown.

Another package's object not named like a client (``sdk_classes.third_party_class``: ``opensandbox.Sandbox``, agent_jupyter_toolkit's
``NotebookActions``), bound to a local from its constructor, a classmethod factory, ``async with`` or a helper annotated to
return the class, or built inline: a method **awaited** on it is a call out, unclassified, timeout unknown (s57). The
``await`` is the gate that keeps a pure helper's object (a parsed model, a soup) out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import ast

import libcst as cst

from .. import knowledge as kb
from ..names import dotted
from ..nodes import dotted as nodes_dotted
from .callees import RETURNED
from .sdk_classes import sdk_client_class, third_party_class, timeout_status

if TYPE_CHECKING:
    from ...rules.retries.data import Retry
    from ..names import Names

__all__ = ["PENDING", "ClientObjects", "pending_what"]

#: a listed call's ``what`` prefix while the function whose value it is called on is not yet resolved (``returned.py``)
PENDING = "?"


def pending_what(qn: str, rest: list[str], method: str) -> str:
    return f"{PENDING}{qn}{PENDING}{'.'.join([*rest, method])}"


KeyOf = Callable[[str | None], str | None]  # a receiver's text -> its key (a local name: in its function)


class ClientObjects:
    """The client objects of one module, filled as the traversal goes."""

    def __init__(self, names: "Names", key_of: KeyOf, roots: frozenset[str] = frozenset(),
                 own: frozenset[str] = frozenset(), wrapped: Mapping[int, tuple[str, ...]] | None = None,
                 module: str = "") -> None:
        self.names = names
        self.module = module
        self.returned: dict[int, str] = {}  # id(call) on what a call of the run's function gives -> pending ``what``
        self.roots = roots  # the file's imported top-level packages
        self.own = own  # the run's own top-level packages
        # third-party SDK client objects: module globals and ``self.x`` -> (class, its constructor call's line and
        # timeout status), and locals bound here (key -> class, or None where a local shadows a global)
        self.sdk_globals: dict[str, tuple[str, int, str] | None] = {}
        self.sdk_attributes: dict[str, tuple[str, int, str] | None] = {}
        #: ``self.x`` -> the run's class of the object a method sets it to from a parameter annotated with that class
        #: (``def __init__(self, manager: SandboxManager): self.manager = manager``); None when two disagree
        self.own_attributes: dict[str, str | None] = {}
        self.sdk_bound: dict[str, tuple[str, int, str] | None] = {}
        self.run_bound: dict[str, str] = {}  # local key -> the run's function it holds the value of (``returned.py``)
        self._local_imports: dict[int, dict[str, str]] = {}
        self.sdk_calls: dict[int, tuple[int, str]] = {}  # id(call) on an SDK client -> its constructor's line, timeout
        self.wrapped = wrapped or {}  # constructor line -> module functions wrapping the client's methods there
        self._wrappers = frozenset(n for names in self.wrapped.values() for n in names)
        self._in_wrapper: str | None = None
        self.wrapped_by: dict[int, str] = {}  # id(loop or call) inside such a wrapper -> the wrapper's name
        self.key_of = key_of
        self.returning: dict[str, str | None] = {}  # function or method name -> the client class it returns
        self.bound: dict[str, str] = {}  # receiver key -> client class
        self.attributes: dict[str, str | None] = {}  # ``self.x`` -> the client class its class declares or sets
        #: another package's object not named like a client (:func:`third_party_class`): local key -> its class; a
        #: method awaited on it is a call out (``sandbox = await Sandbox.connect(...)``; ``await sandbox.files.write(...)``)
        self.third_bound: dict[str, str] = {}
        #: the module's functions and methods annotated to return such a class (``def _get() -> Sandbox``), by name
        self.third_returning: dict[str, str | None] = {}
        self.awaited: set[int] = set()  # id(call) of the calls an ``await`` waits on (``facts.visit_Await``)

    def enter(self, name: str | None, top: bool) -> None:
        """The traversal enters (``name``) or leaves (None) a function, at the module's top level or not."""
        if top:
            self._in_wrapper = name if name in self._wrappers else None

    def mark(self, node: cst.CSTNode) -> None:
        if self._in_wrapper is not None:
            self.wrapped_by[id(node)] = self._in_wrapper

    def wrapper_retries(self, retries: Iterable[Retry], lines: Iterable[int]) -> list[tuple[Retry, str]]:
        """The retries inside the wrappers put on the methods of the SDK clients built at ``lines``."""
        wrappers = {w for line in lines for w in self.wrapped.get(line, ())}
        return [(r, self.wrapped_by[id(r.anchor)]) for r in retries if self.wrapped_by.get(id(r.anchor)) in wrappers]

    def scan(self, tree: ast.AST) -> None:
        """The module's functions and methods (any class depth) that return a client object: read from the whole
        file's ``ast`` (the traversal sees only the tools' region)."""
        if isinstance(tree, ast.Module):
            self._sdk_globals(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                self._attributes(node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._sdk_global_function(node)
                third = self._third_named(node.returns) if node.returns is not None else None
                if self.third_returning.get(node.name, third) != third:
                    self.third_returning[node.name] = None  # two definitions disagree
                else:
                    self.third_returning[node.name] = third
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
        # its methods annotated to return an SDK client: ``self._sd = self._build_client(config)`` with
        # ``def _build_client(config) -> ServiceDesk``
        built = {f.name: f.returns for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.returns}
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            typed = {a.arg: a.annotation for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)
                     if a.annotation is not None}
            for stmt in fn.body if typed else ():
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in typed:
                    own = self._own_class(typed[stmt.value.id])
                    for t in stmt.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            key = f"self.{t.attr}"
                            self.own_attributes[key] = own if self.own_attributes.get(key, own) == own else None
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Await) and isinstance(n.value.value, ast.Call):
                    for t in n.targets:  # ``self._sandbox = await AsyncSandbox.create(...)``
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            self._sdk_record(self.sdk_attributes, f"self.{t.attr}", n.value.value, fn)
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
                    f = n.value.func
                    for t in n.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            self._attribute(f"self.{t.attr}", self._named(n.value.func))
                            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" \
                                    and (ann := built.get(f.attr)) is not None and (sdk := self._sdk_class(ann, fn)):
                                self.sdk_attributes.setdefault(f"self.{t.attr}", (sdk, n.value.lineno, "unknown"))
                            else:
                                self._sdk_record(self.sdk_attributes, f"self.{t.attr}", n.value, fn)

    def _sdk_globals(self, tree: ast.Module) -> None:
        """Module globals holding a third-party SDK client: built at the top (``client = Client(...)``), or declared
        there (``client: Optional[Client] = None``) and built by a function that says ``global client``; at the top
        inside a ``try`` or an ``if`` too (``try: api = client.CustomObjectsApi() except Exception: api = None``)."""
        stack: list[ast.stmt] = list(tree.body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (ast.Try, ast.If)):
                stack.extend([*stmt.body, *stmt.orelse, *(s for h in getattr(stmt, "handlers", ()) for s in h.body),
                              *getattr(stmt, "finalbody", ())])
            elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        self._sdk_record(self.sdk_globals, t.id, stmt.value, None)

    def _sdk_global_function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A function that says ``global client`` and builds it: ``client = Client(token=t)``."""
        declared = {n for s in fn.body if isinstance(s, ast.Global) for n in s.names}
        if not declared:
            return
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
                for t in n.targets:
                    if isinstance(t, ast.Name) and t.id in declared:
                        self._sdk_record(self.sdk_globals, t.id, n.value, fn)

    def _sdk_record(self, table: dict[str, tuple[str, int, str] | None], key: str, call: ast.Call,
                    fn: ast.AST | None) -> None:
        cls = self._sdk_class(call.func, fn)
        if cls is None:
            return
        keywords = [(k.arg, isinstance(k.value, ast.Constant) and k.value.value is None) for k in call.keywords]
        positional = [isinstance(a, ast.Constant) and a.value is None for a in call.args]
        fact = (cls, call.lineno, timeout_status(cls, keywords, positional))
        if table.get(key, fact) != fact:
            table[key] = None  # two constructors disagree
        else:
            table[key] = fact

    def _sdk_class(self, node: ast.expr, fn: ast.AST | None) -> str | None:
        """The third-party SDK client class a constructor names (through the module's imports, or the function's
        own: ``from tavily import TavilyClient`` inside ``__post_init__``)."""
        text = nodes_dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        ref = self.names.lookup(head)
        if ref is None and fn is not None:  # imported in the function (read only then)
            local = self._local_imports.get(id(fn))
            if local is None:
                local = self._local_imports[id(fn)] = _local_imports(fn)
            ref = (local[head], False) if head in local else None
        if ref is None or ref[1]:
            return None
        qualname = ref[0]
        qualname = kb.canonical(f"{qualname}.{rest}" if rest else qualname)
        return qualname if self.sdk_client_class(qualname) else kb.SDK_CLIENT_CONSTRUCTORS.get(qualname)

    def sdk_client_class(self, qualname: str) -> bool:
        return sdk_client_class(qualname, self.own)

    def sdk_call(self, call: cst.Call, tabled: bool) -> tuple[str, None] | None:
        """(``Client.ssh_keys.delete``, no class) for a method called on a third-party SDK client object or an API
        namespace under it (two attributes deep at most; not a call the timeout tables read, ``tabled``); its
        constructor's line and the call's timeout status in :attr:`sdk_calls`."""
        func = call.func
        if tabled or not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method.startswith("_") or method in kb.SDK_LOCAL_METHODS:
            return None
        text = dotted(func.value)
        if text is None:
            made = self._third_value(func.value) if id(call) in self.awaited else None
            if made is not None:  # ``await NotebookActions(manager).run_all()``
                self.sdk_calls[id(call)] = 0, "unknown"
                return f"{made.rsplit('.', 1)[-1]}.{method}", None
            self._returned_call(call, func, method)
            return None
        parts = text.split(".")
        root, rest = (".".join(parts[:2]), parts[2:]) if parts[0] == "self" and len(parts) > 1 else (parts[0], parts[1:])
        if len(rest) > 2 or any(p.startswith("_") for p in rest):
            return None
        fact = self._sdk_object(root)
        if fact is None and id(call) in self.awaited and (third := self._third_object(root)) is not None:
            fact = third, 0, "unknown"  # an awaited method of another package's object: a call out
        if fact is None:
            key = self.key_of(root)
            if key is not None and key in self.run_bound and not root.startswith("self"):
                # ``conn = get_connection()``; ``conn.load_balancer.amphorae()``: pending, as on the call itself
                self.returned[id(call)] = pending_what(self.run_bound[key], rest, method)
            return None
        cls, line, status = fact
        self.sdk_calls[id(call)] = line, status
        return ".".join([cls.rsplit(".", 1)[-1], *rest, method]), None

    def _returned_call(self, call: cst.Call, func: cst.Attribute, method: str) -> None:
        """A method called on what a call of the run's own function gives, or on a namespace under it
        (``get_client(token).services.get(slug)``): pending until the join knows whether that function returns an
        SDK client (``returned.py``)."""
        node, rest = func.value, list[str]()
        while isinstance(node, cst.Attribute):
            rest.insert(0, node.attr.value)
            node = node.value
        if not isinstance(node, cst.Call) or len(rest) > 2 or any(p.startswith("_") for p in rest):
            return
        qn = self.names.qualname(node.func)
        if qn is None and isinstance(node.func, cst.Name):
            qn = node.func.value
        if qn is None or (qn.split(".")[0] not in self.own if "." in qn else not self.module):
            return
        self.returned[id(call)] = pending_what(qn if "." in qn else f"{self.module}.{qn}", rest, method)

    def _sdk_object(self, root: str) -> tuple[str, int, str] | None:
        key = self.key_of(root)
        if key is not None and key in self.sdk_bound:
            return self.sdk_bound[key]
        if root.startswith("self."):
            return self.sdk_attributes.get(root)
        if root.startswith("self"):
            return None
        scope = self.names.stack[-1]
        for outer in reversed(self.names.stack[1:]):
            if outer.kind == "function" and root in outer.bindings and root not in outer.globals:
                return self._sdk_param(outer.node, root)  # a local, or a parameter annotated with an SDK client
            if outer is scope and root in outer.globals:
                break
        return self.sdk_globals.get(root)

    def _third_object(self, root: str) -> str | None:
        key = self.key_of(root)
        return self.third_bound.get(key) if key is not None and not root.startswith("self") else None

    def _sdk_param(self, fn: cst.CSTNode | None, name: str) -> tuple[str, int, str] | None:
        """A parameter of ``fn`` annotated with a third-party SDK client class (``def register(mcp: FastMCP, client:
        AsyncTermixClient)``, its tools calling ``client.tunnel.get_status()``): built by the caller, timeout unknown."""
        params = fn.params if isinstance(fn, cst.FunctionDef) else None
        for p in (*params.posonly_params, *params.params, *params.kwonly_params) if params is not None else ():
            ref = self.names.qualify(p.annotation.annotation) if p.name.value == name and p.annotation else None
            if ref is not None and not ref[1] and self.sdk_client_class(kb.canonical(ref[0])):
                return kb.canonical(ref[0]), 0, "unknown"
        return None

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

    def _annotated(self, node: ast.expr) -> str | None:
        """The qualified name an annotation or constructor names through the module's imports (``Optional[X]``,
        ``X | None``, ``"X"`` too)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(node, ast.Subscript) and (nodes_dotted(node.value) or "").rsplit(".", 1)[-1] == "Optional":
            return self._annotated(node.slice)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [s for s in (node.left, node.right) if not (isinstance(s, ast.Constant) and s.value is None)]
            return self._annotated(sides[0]) if len(sides) == 1 else None
        text = nodes_dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        ref = self.names.lookup(head) if head else None
        if ref is None or ref[1]:
            return None
        return f"{ref[0]}.{rest}" if rest else ref[0]

    def _named(self, node: ast.expr) -> str | None:
        """The client class an annotation or constructor names (:meth:`_annotated`)."""
        qn = self._annotated(node)
        return self._known(qn) if qn is not None else None

    def _third_named(self, node: ast.expr) -> str | None:
        """Another package's class a return annotation names (``-> Sandbox``, ``-> "Sandbox | None"``)."""
        qn = self._annotated(node)
        if qn is None:
            return None
        qn = kb.canonical(qn)
        return qn if third_party_class(qn, self.roots, self.own) == qn else None

    def _third_value(self, value: cst.BaseExpression) -> str | None:
        """Another package's class of the object ``value`` gives: its constructor or a classmethod factory called
        (``NotebookActions(manager)``, ``await Sandbox.connect(sid)``), or one of the module's functions or ``self``'s
        methods annotated to return one (``await _get_or_connect_sandbox(sid)``)."""
        value = value.expression if isinstance(value, cst.Await) else value
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        ref = self.names.qualify(func)
        if ref is not None and not ref[1]:
            return third_party_class(kb.canonical(ref[0]), self.roots, self.own)
        if isinstance(func, cst.Name) and ref is None:
            return self.third_returning.get(func.value)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            return self.third_returning.get(func.attr.value)
        return None

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
        if not key.startswith("self."):
            self.sdk_bound[key] = self._sdk_value(value)
            third = self._third_value(value) if self.sdk_bound[key] is None else None
            if third is not None:
                self.third_bound[key] = third
            else:
                self.third_bound.pop(key, None)
            made = self._run_call(value)
            if made is not None:
                self.run_bound[key] = made
            else:
                self.run_bound.pop(key, None)

    def _run_call(self, value: cst.BaseExpression) -> str | None:
        """The run's function a local is bound to a call of (``conn = get_openstack_connection()``), qualified."""
        value = value.expression if isinstance(value, cst.Await) else value
        if not isinstance(value, cst.Call):
            return None
        qn = self.names.qualname(value.func)
        if qn is None and isinstance(value.func, cst.Name):
            qn = value.func.value
        if qn is None:
            qn = self._typed_method(value.func)
        if qn is None or (qn.split(".")[0] not in self.own if "." in qn else not self.module):
            return None
        return qn if "." in qn else f"{self.module}.{qn}"

    def _own_class(self, note: ast.expr) -> str | None:
        """The run's class an annotation names through the module's imports (``manager: SandboxManager``)."""
        text = nodes_dotted(note)
        head, _, rest = (text or "").partition(".")
        ref = self.names.lookup(head) if head else None
        if ref is None or ref[1]:
            return None
        qn = f"{ref[0]}.{rest}" if rest else ref[0]
        return qn if qn.split(".")[0] in self.own else None

    def _typed_method(self, func: cst.BaseExpression) -> str | None:
        """``sandbox._require_sandbox`` where ``sandbox`` is a parameter of an enclosing function annotated with one
        of the run's classes (``def __init__(self, sandbox: E2BSandbox)``): that class's method, qualified."""
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):  # ``get_session().get_client``
            made = self._run_call(func.value)
            return f"{made}{RETURNED}.{func.attr.value}" if made is not None and RETURNED not in made else None
        if isinstance(func, cst.Attribute) and dotted(func.value) in self.own_attributes:
            own = self.own_attributes[dotted(func.value) or ""]  # ``self.manager.get``
            return f"{own}.{func.attr.value}" if own is not None else None
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return None
        name = func.value.value
        for outer in reversed(self.names.stack[1:]):
            if outer.kind != "function" or name not in outer.bindings:
                continue
            params = outer.node.params if isinstance(outer.node, cst.FunctionDef) else None
            for p in (*params.posonly_params, *params.params, *params.kwonly_params) if params is not None else ():
                ref = self.names.qualify(p.annotation.annotation) if p.name.value == name and p.annotation else None
                if ref is not None and not ref[1] and ref[0].split(".")[0] in self.own:
                    return f"{ref[0]}.{func.attr.value}"
            return None
        return None

    def _sdk_value(self, value: cst.BaseExpression) -> tuple[str, int, str] | None:
        """A local bound to a third-party SDK client's constructor (``client = TavilyClient(api_key=k)``; ``sandbox =
        await AsyncSandbox.create()``: ``knowledge.SDK_CLIENT_CONSTRUCTORS``)."""
        value = value.expression if isinstance(value, cst.Await) else value
        if not isinstance(value, cst.Call):
            return None
        ref = self.names.qualify(value.func)
        if ref is None or ref[1]:
            return None
        cls = kb.canonical(ref[0])
        cls = cls if self.sdk_client_class(cls) else kb.SDK_CLIENT_CONSTRUCTORS.get(cls, "")
        if not cls:
            return None
        keywords = [(a.keyword.value if a.keyword is not None else None if a.star == "**" else "", _none(a.value))
                    for a in value.args if a.keyword is not None or a.star == "**"]
        positional = [_none(a.value) for a in value.args if a.keyword is None and not a.star]
        return cls, 0, timeout_status(cls, keywords, positional)

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
        last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        if last in kb.WORKER_THREAD_CALLS:  # ``asyncio.to_thread(req.execute)``: a chain's send handed to a thread
            bound = next((a.value for a in call.args[:2] if isinstance(a.value, cst.Attribute)
                          and a.value.attr.value in kb.CLIENT_CHAIN_CALLS), None)
            return self.call(cst.Call(func=bound)) if bound is not None else None
        if not isinstance(func, cst.Attribute):
            return None
        chained = kb.CLIENT_CHAIN_CALLS.get(func.attr.value)
        if chained is not None and self.roots & set(chained) and not call.args and isinstance(func.value, cst.Call) \
                and isinstance(func.value.func, cst.Attribute):
            method = func.value.func.attr.value
            return f"{method}().{func.attr.value}", kb.CLIENT_CHAIN_METHODS.get(method)
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



def _local_imports(fn: ast.AST) -> dict[str, str]:
    """The names a function's own ``import``/``from ... import`` statements bind (absolute imports only)."""
    out: dict[str, str] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level:
            for a in n.names:
                out[a.asname or a.name] = f"{n.module}.{a.name}"
        elif isinstance(n, ast.Import):
            for a in n.names:
                out[a.asname or a.name.partition(".")[0]] = a.name if a.asname else a.name.partition(".")[0]
    return out


def _none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"
