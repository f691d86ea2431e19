"""Following a tool into the run's own helpers in other modules (``from .utils import run_kubectl``).

Each file's worker leaves, besides its rows, a :class:`Graph`: for each module-level function and each method of a
module-level class, the run's own functions it calls (resolved the way Python does: through the file's imports,
``utils.run_kubectl`` after ``from pkg import utils``, a method of an object built from one of the run's classes),
and the names the module re-exports. It also leaves a :class:`Summary` of every helper its tools' rows already
covered (its calls out, findings and failure modes, computed in the same traversal). At the end of the run
:func:`needed` walks the tools' calls through the graphs to a small depth; the helpers no worker summarised yet are
described in one more pass over only the files that define them (their functions and their own same-module helpers
as the region), and :func:`join` adds each helper's summary to the rows that reach it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .. import knowledge as kb
from .annotations import annotation_helpers
from .callees import (RETURNED, UNTYPED, callee, method_of_called, method_of_returned, param_methods, returned_names, returns_of,
                      run_in_worker, untyped_method, module_defs as _module_defs)
from .index import Def, Index, helpers_of, span
from .remote import module_sequences
from .merging import (_annotated, _asked, _calls_out, _classify, _count, _local, _merge, _runner, method_dispatchers,
                      reached_by, sent_safe, signing_in)
from .model import CallFact, RetryFact, Tool
from .raising import settle
from .returned import sdk_returns, settle_calls, settle_summaries

__all__ = ["DEPTH", "Graph", "Links", "Resolver", "Summary", "calls_of", "graph_of", "join", "method_dispatchers", "needed", "summary_defs"]

#: how many helpers deep a tool is followed across modules (tool -> helper -> helper -> helper)
DEPTH = 3

_SUMMARY = "summary"  # the framework of a helper's row (never a tool)


@dataclass
class Graph:
    """One file's own functions and what each calls of the run (qualified names)."""

    module: str
    path: str
    calls: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "pkg.mod.f" / "pkg.mod.C.m" -> called
    aliases: dict[str, str] = field(default_factory=dict)  # "pkg.mod.name" -> what the module imported as name
    defined: set[str] = field(default_factory=set)  # every function and method it defines, qualified
    passes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # function -> called ones whose value it returns
    # module-level functions that build MCP tool annotations (``annotations.py``): function -> the class they state
    annotations: dict[str, str] = field(default_factory=dict)
    # module-level tuples and lists of functions, and ``__all__`` (``remote.module_sequences``): name -> elements
    sequences: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # functions annotated to return an object of one of the run's classes, or a tuple holding some: function ->
    # {position ("" for the whole value) -> class} (``def _resolve(ctx) -> tuple[str, OdooClient]``)
    returns: dict[str, dict[str, str]] = field(default_factory=dict)
    # module-level objects of the run's own classes (``godot_server = GodotServer()``): "pkg.mod.name" -> class
    instances: dict[str, str] = field(default_factory=dict)
    sdk: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # functions returning an SDK client (``returned.py``)
    # functions that hand one of the run's functions a literal HTTP method (``self.request("POST", path, ...)``,
    # ``_request(method="DELETE")``): function -> those methods, lower case
    sends: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # module-level classes: "pkg.mod.C" -> their bases of the run, qualified as the file names them
    # (``class ImmichClient(ImmichClientBase, TagsApi)``): a method a class inherits resolves to the base's
    bases: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass
class Summary:
    """What one helper does, read in its own file: its row's calls, findings and failures."""

    calls: list[CallFact]
    findings: dict[str, int]
    failures: list[str]
    caught: bool  # it has an ``except`` clause (its callers' failures are not simply raised)
    retries: list[RetryFact] = field(default_factory=list)  # the retries around or inside it (and its helpers)
    local: bool = False  # its calls and its same-module helpers' all stay on the machine (``local.py``)
    sites: tuple[tuple[str, int, str, bool], ...] = ()  # its region's findings: (file, line, code, in its own body)
    raises: str | None = None  # it never returns: what it raises, ``typed`` or ``raised`` (``raising.py``)
    needs: tuple[str, ...] = ()  # when ``local``: the run's functions its row calls and cannot judge (``row_place``)


def _own(index: Index) -> dict[str, tuple[str, int, ast.AST, str | None]]:
    """The module-level functions and the methods of module-level classes: path -> (path, occurrence, node, class)."""
    out: dict[str, tuple[str, int, ast.AST, str | None]] = {}
    for path, n, node, parents in index.defs:
        if not parents:
            out.setdefault(path, (path, n, node, None))
        elif len(parents) == 1 and isinstance(parents[0], ast.ClassDef):
            out.setdefault(path, (path, n, node, parents[0].name))
    return out


def _object_class(arg: ast.expr, index: Index, roots: frozenset[str]) -> str | None:
    """The run's class of an object handed as an argument: built in the call (``ArxivSearcher()``) or a name
    bound to one (``arxiv = ArxivSearcher()``)."""
    if isinstance(arg, ast.Call):
        qn = index.qualname(arg.func)
    elif isinstance(arg, ast.Name) and arg.id in index.instances and arg.id not in index.imports:
        qn = index.instances[arg.id]
    else:
        return None
    return qn if qn is not None and qn.split(".")[0] in roots and qn.rsplit(".", 1)[-1][:1].isupper() else None


def _bound(call: ast.Call, index: Index, roots: frozenset[str], module_defs: Mapping[str, ast.AST]) -> list[str]:
    """A call of a module-level function of this file handing it objects of the run's classes: the methods of
    those classes it uses on the parameters (``async_search(arxiv_searcher, q)`` with ``def async_search(searcher,
    ...)`` running ``searcher.search``: ``ArxivSearcher.search``). Read at the call site, so each caller follows
    only the class it hands over."""
    f = call.func
    if not (isinstance(f, ast.Name) and f.id in module_defs and f.id not in index.imports):
        return []
    fn = module_defs[f.id]
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    handed = [(positional[i], a) for i, a in enumerate(call.args[:len(positional)]) if not isinstance(a, ast.Starred)]
    handed += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
    out: list[str] = []
    for param, arg in handed:
        cls = _object_class(arg, index, roots)
        if cls is None and isinstance(arg, ast.Call):
            # what one of the run's functions returns, handed on (``_append_note(_client(ctx), ...)``): its methods
            # through that function's annotated return, resolved at the end of the run
            made = callee(arg, index, None, roots, module_defs)
            cls = f"{made}{RETURNED}" if made is not None and not made.rsplit(".", 1)[-1][:1].isupper() else None
        if cls is not None:
            out.extend(f"{cls}.{m}" for m in param_methods(fn, param) if f"{cls}.{m}" not in out)
    return out


def _targets(call: ast.Call, index: Index, cls: str | None, roots: frozenset[str],
             module_defs: Mapping[str, ast.AST]) -> list[str]:
    qn = callee(call, index, cls, roots, module_defs)
    if qn is None:
        return run_in_worker(call, index, cls, roots, module_defs)
    return [qn, *_bound(call, index, roots, module_defs)]


def calls_of(node: ast.AST, index: Index, cls: str | None, roots: frozenset[str]) -> list[str]:
    """The run's own functions ``node`` calls, qualified: a same-module function or method (``helper()``,
    ``self.helper()``) or one of the run's top-level packages through the file's names; the methods of the
    run's objects it hands a same-module function that uses them on its parameter (:func:`_bound`); and a method
    called on what one of the run's functions returned (:data:`RETURNED`)."""
    module_defs = _module_defs(index)
    returned = returned_names(node, index, cls, roots, module_defs)
    out: list[str] = []
    for deco in getattr(node, "decorator_list", ()):  # ``@sp_retry``: the run's decorator runs the function
        if isinstance(deco, (ast.Name, ast.Attribute)):
            qn = callee(ast.Call(func=deco, args=[], keywords=[]), index, cls, roots, module_defs)
            if qn is not None:
                out.append(qn)
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        found = _targets(call, index, cls, roots, module_defs)
        via = (method_of_returned(call, returned) or method_of_called(call, index, cls, roots, module_defs)
               or untyped_method(call, index, module_defs)) if not found else None
        for qn in [*found, *([via] if via else [])]:
            if qn not in out:
                out.append(qn)
    return out


def passed_of(node: ast.AST, index: Index, cls: str | None, roots: frozenset[str]) -> set[str]:
    """The run's functions whose value ``node`` hands on to its caller: called in a ``return`` (``return
    helper(...)``, ``return json.dumps(helper(...))``) or assigned to a name a ``return`` uses (``result =
    helper(...)`` ... ``return {"error": result["error"]}``). Only through these does a helper's exception text
    reach what the tool returns; a caller that reads the helper's result and returns something of its own
    (``return []``) drops it."""
    module_defs = _module_defs(index)
    assigned: dict[str, set[str]] = {}
    returned: list[ast.expr] = []
    bound_to = returned_names(node, index, cls, roots, module_defs)

    def targets(call: ast.Call) -> list[str]:
        found = _targets(call, index, cls, roots, module_defs)
        via = (method_of_returned(call, bound_to) or method_of_called(call, index, cls, roots, module_defs)) \
            if not found else None
        return [*found, via] if via else found

    for n in ast.walk(node):
        if isinstance(n, ast.Assign) and isinstance(n.value, (ast.Call, ast.Await)):
            inner = n.value.value if isinstance(n.value, ast.Await) else n.value
            qns = targets(inner) if isinstance(inner, ast.Call) else []
            for t in n.targets if qns else ():
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, set()).update(qns)
        elif isinstance(n, ast.Return) and n.value is not None:
            returned.append(n.value)
    out: set[str] = set()
    for value in returned:
        for n in ast.walk(value):
            if isinstance(n, ast.Call):
                out.update(targets(n))
            elif isinstance(n, ast.Name):
                out.update(assigned.get(n.id, ()))
    return out


def graph_of(index: Index, path: str, roots: frozenset[str]) -> Graph:
    graph = Graph(index.module, path)
    for key, (_p, _n, node, cls) in _own(index).items():
        graph.defined.add(f"{index.module}.{key}")
        called = tuple(q for q in calls_of(node, index, cls, roots) if q != f"{index.module}.{key}")
        if called:
            graph.calls[f"{index.module}.{key}"] = called
            graph.passes[f"{index.module}.{key}"] = tuple(filter(passed_of(node, index, cls, roots).__contains__, called))
    for local, full in index.imports.items():
        if full.split(".")[0] in roots:
            graph.aliases[f"{index.module}.{local}"] = full
    graph.annotations = annotation_helpers(
        {f"{index.module}.{key}": node for key, (_p, _n, node, cls) in _own(index).items() if cls is None}, index.qualname)
    graph.sequences, graph.sdk = module_sequences(index), sdk_returns(index, roots)
    for stmt in index.tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name):
            cls = index.instances.get(stmt.targets[0].id)
            if cls is not None and cls.split(".")[0] in roots:
                graph.instances[f"{index.module}.{stmt.targets[0].id}"] = cls
    module_defs = _module_defs(index)
    for key, (_p, _n, node, cls) in _own(index).items():
        sent = _sent_methods(node, index, cls, roots, module_defs)
        if sent:
            graph.sends[f"{index.module}.{key}"] = sent
    for path, cls_node in index.classes:
        if "." not in path:
            graph.bases[f"{index.module}.{path}"] = tuple(b for b in index.bases(cls_node) if b.split(".")[0] in roots)
    for key, (_p, _n, node, _cls) in _own(index).items():
        returned = returns_of(node, index, roots, cls)
        if returned:
            graph.returns[f"{index.module}.{key}"] = returned
    return graph


def _sent_methods(fn: ast.AST, index: Index, cls: str | None, roots: frozenset[str],
                  module_defs: Mapping[str, ast.AST]) -> tuple[str, ...]:
    """The HTTP methods ``fn`` hands the run's own request helpers as a literal: ``self.request("POST", path)`` in a
    client's ``post`` method, ``_request(method="DELETE", ...)``. The helper sends whatever it is given (its own
    call's method is a parameter, unclassified); the literal here says what this call of it does."""
    out: list[str] = []
    for call in ast.walk(fn):
        if not isinstance(call, ast.Call):
            continue
        arg = next((k.value for k in call.keywords if k.arg == "method"), call.args[0] if call.args else None)
        verb = arg.value.lower() if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
        if verb is not None and verb in kb.HTTP_METHOD_CLASSES and verb not in out and _targets(call, index, cls, roots, module_defs):
            out.append(verb)
    return tuple(out)


def summary_defs(index: Index, wanted: Iterable[str]) -> list[Def]:
    """Rows to describe the helpers ``wanted`` (paths in this file: ``f``, ``C.m``) with their same-module helpers."""
    own = _own(index)
    out: list[Def] = []
    for want in wanted:
        entry = own.get(want)
        if entry is None:
            continue
        path, n, node, cls = entry
        helpers = _same_module_helpers(node, index, cls)
        out.append(Def(path, _SUMMARY, _SUMMARY, f"{index.module}.{path}", span(node)[0], ((path, n),), (span(node),),
                       tuple(span(h) for _p, _k, h in helpers), tuple((p, k) for p, k, _h in helpers)))
    return out


def _same_module_helpers(fn: ast.AST, index: Index, cls: str | None) -> list[tuple[str, int, ast.AST]]:
    """The same-module functions and methods of its class a helper calls, and theirs, :data:`DEPTH` levels down: read
    in the helper's own summary (``self._execute(...)`` -> ``self._execute_once(...)`` -> ``self._models.execute_kw``,
    ``self._get_headers()`` -> ``self._get_auth_token()`` -> ``requests.post``), as the run would not follow them
    across modules past :data:`DEPTH`."""
    out: list[tuple[str, int, ast.AST]] = []
    seen = {id(fn)}
    frontier = [fn]
    for _ in range(DEPTH):
        nxt: list[ast.AST] = []
        for f in frontier:
            for h in helpers_of(f, index, cls):
                if id(h[2]) not in seen:
                    seen.add(id(h[2]))
                    out.append(h)
                    nxt.append(h[2])
        frontier = nxt
    return out


def is_summary(d: Def | Tool) -> bool:
    return d.framework == _SUMMARY


def helper_paths(defs: Iterable[Def], index: Index) -> list[str]:
    """The module-level functions and methods among ``defs``' helpers (summarised where they are already parsed)."""
    own = _own(index)
    return list(dict.fromkeys(p for d in defs for p, _n in d.helpers if p in own))


#: per tool: the run's functions it calls; those whose value it returns; those it hands only a literal HTTP method
#: that repeats safely (``client.request("GET", path)``, ``"DELETE"``: :func:`sent_safe`)
Links = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def tool_calls(d: Def, index: Index, roots: frozenset[str]) -> Links:
    """The run's functions a tool's functions and same-module helpers call, less those in its row; those whose value
    they return (``passed_of``); and those it calls only with a literal method that repeats safely (:func:`sent_safe`)."""
    by_key = {(p, n): (node, parents) for p, n, node, parents in index.defs}
    mine = {f"{index.module}.{p}" for p, _n in (*d.functions, *d.helpers)}
    out: list[str] = []
    passed: set[str] = set()
    verbs: dict[str, set[str | None]] = {}
    for key in (*d.functions, *d.helpers):
        hit = by_key.get(key)
        if hit is None:
            continue
        node, parents = hit
        cls = ".".join(p.name for p in parents) if parents and isinstance(parents[-1], ast.ClassDef) else None  # type: ignore[attr-defined]
        for qn in calls_of(node, index, cls, roots):
            if qn not in mine and qn not in out:
                out.append(qn)
        passed |= passed_of(node, index, cls, roots)
        for qn, verb in _sent_to(node, index, cls, roots):
            verbs.setdefault(qn, set()).add(verb)
    return tuple(out), tuple(q for q in out if q in passed), tuple(q for q in out if sent_safe(verbs.get(q, {None})))


def _sent_to(fn: ast.AST, index: Index, cls: str | None, roots: frozenset[str]) -> list[tuple[str, str | None]]:
    """Each of the run's functions ``fn`` calls, with the literal HTTP method the call hands it (``method=`` or the
    first argument: ``client.request("GET", path)``), or None."""
    module_defs = _module_defs(index)
    returned = returned_names(fn, index, cls, roots, module_defs)
    out: list[tuple[str, str | None]] = []
    for call in ast.walk(fn):
        if not isinstance(call, ast.Call):
            continue
        found = _targets(call, index, cls, roots, module_defs)
        if not found:
            via = method_of_returned(call, returned) or method_of_called(call, index, cls, roots, module_defs)
            found = [via] if via else []
        if not found:
            continue
        arg = next((k.value for k in call.keywords if k.arg == "method"), call.args[0] if call.args else None)
        verb = arg.value.lower() if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
        out.extend((qn, verb if verb in kb.HTTP_METHOD_CLASSES else None) for qn in found)
    return out


class _Resolver:
    def __init__(self, graphs: Iterable[Graph]) -> None:
        self.modules: dict[str, str] = {}
        self.calls: dict[str, tuple[str, ...]] = {}
        self.aliases: dict[str, str] = {}
        self.defined: set[str] = set()
        self.passes: dict[str, tuple[str, ...]] = {}
        self.twice: set[str] = set()  # modules more than one file of the run is named as: not followed
        self.annotations: dict[str, str] = {}
        self.returns: dict[str, dict[str, str]] = {}
        self.instances: dict[str, str] = {}
        self.bases: dict[str, tuple[str, ...]] = {}
        self.sends: dict[str, tuple[str, ...]] = {}
        self.sdk: dict[str, tuple[str, str, str]] = {}
        self._subclasses: dict[str, list[str]] | None = None  # ``_mixed_in``'s index, built on first use
        self._by_name: dict[str, list[str]] | None = None  # ``named``'s index, built on first use
        self._methods: dict[str, list[str]] | None = None  # ``methods_named``'s
        self._forwards = 0  # how deep :meth:`resolve_all` is in functions handing on another's value
        for g in graphs:
            self.annotations.update(g.annotations)
            self.returns.update(g.returns)
            self.instances.update(g.instances)
            self.bases.update(g.bases)
            self.sends.update(g.sends)
            self.sdk.update(g.sdk)
            self.passes.update(g.passes)
            if self.modules.get(g.module, g.path) != g.path:
                self.twice.add(g.module)
            self.modules.setdefault(g.module, g.path)
            self.calls.update(g.calls)
            self.aliases.update(g.aliases)
            self.defined.update(g.defined)

    def resolve(self, qn: str, inherit: bool = False) -> str | None:
        """The definition ``qn`` names: itself, or what a module re-exported under it (``pkg.tools.run_kubectl``
        after ``from .utils import run_kubectl`` in ``pkg/tools/__init__.py``), a few hops; a method called on what a
        function returned (``pkg.core._resolve->1.get_fields``) through that function's annotated return."""
        if qn.startswith(UNTYPED):
            methods = self.methods_named(qn[len(UNTYPED):])
            return methods[0] if len(methods) == 1 else None
        if RETURNED in qn:
            keys = self.resolve_all(qn)
            return keys[0] if len(keys) == 1 else None
        qn = self._namespace(qn)
        for _ in range(4):
            if qn in self.defined:
                where = self.where(qn)
                return qn if where is not None and where[2] not in self.twice else None
            nxt = self.aliases.get(qn)
            if nxt is None:
                head, _, last = qn.rpartition(".")  # a method of a re-exported class
                nxt = f"{self.aliases[head]}.{last}" if head in self.aliases else None
                if nxt is None and head in self.instances:  # a method of a module's object of the run's class
                    nxt = f"{self.instances[head]}.{last}"
                if nxt is None and inherit and self.alias(head) in self.bases:
                    return self._inherited(self.alias(head), last)
            if nxt is None or nxt == qn:
                return None
            qn = nxt
        return None

    def _mro(self, cls: str, depth: int = 4) -> list[str]:
        """``cls`` and the run's classes it derives from, depth first in the order its bases are named (the
        method resolution order of single and mixin inheritance; a diamond's shared base is met once)."""
        out = [cls]
        if depth:
            for base in self.bases.get(cls, ()):
                out.extend(b for b in self._mro(self.alias(base), depth - 1) if b not in out)
        return out

    def _inherited(self, cls: str, method: str) -> str | None:
        """A method a class of the run does not define itself: its bases' (``ImmichClient.update_tag``, defined by
        the mixin ``TagsApi``), else, for a mixin calling ``self._request`` that only the classes mixing it in
        define (``class ImmichClient(ImmichClientBase, TagsApi)``), the one definition those classes' bases give."""
        for c in self._mro(cls)[1:]:
            if f"{c}.{method}" in self.defined:
                return self.resolve(f"{c}.{method}")
        if self._subclasses is None:
            self._subclasses = {}
            for sub, bases in sorted(self.bases.items()):
                for b in bases:
                    self._subclasses.setdefault(self.alias(b), []).append(sub)
        found = {d for sub in self._subclasses.get(cls, ()) for c in self._mro(sub)
                 if f"{c}.{method}" in self.defined and (d := self.resolve(f"{c}.{method}")) is not None}
        return found.pop() if len(found) == 1 else None

    def resolve_all(self, qn: str) -> list[str]:
        """The definitions ``qn`` may name: :meth:`resolve`'s one, or for a method called on what a function returned,
        that method of each class its annotation names (``-> Office365Client | GraphClient``: both ``get``s)."""
        if RETURNED not in qn:
            key = self.resolve(qn, inherit=True)  # a call follows a method the class inherits; a form's lookup does not
            return [key] if key is not None else []
        head, _, rest = qn.partition(RETURNED)
        pos, _, method = rest.partition(".")
        fn = self.resolve(head)
        classes = self.returns.get(fn, {}).get(pos, "") if fn is not None and method else ""
        if fn is None and method and not pos and self.alias(head) in self.bases:
            classes = self.alias(head)  # one of the run's classes called: ``ActionstepClient().list_users()``
        if self._forwards > 3:  # a function handing on another's value (``callees.forwarded``), a few hops
            return []
        self._forwards += 1
        try:
            return [k for c in classes.split("|") if c and (k := self.resolve(f"{c}.{method}", inherit=True)) is not None]
        finally:
            self._forwards -= 1

    def alias(self, qn: str) -> str:
        """What a module's name stands for through the run's re-exports (a few hops), else itself."""
        qn = self._namespace(qn)
        for _ in range(4):
            nxt = self.aliases.get(qn)
            if nxt is None or nxt == qn:
                break
            qn = self._namespace(nxt)
        return qn

    def _namespace(self, qn: str) -> str:
        """A module of a directory without ``__init__.py`` is named from that directory (``internet.scrape``), while
        its importers spell the full path (``pkg.toolsets.internet.internet.scrape``): the definition whose file is
        at that path."""
        if qn in self.defined:
            return qn
        parts = qn.split(".")
        for cut in range(1, len(parts) - 1):
            short = ".".join(parts[cut:])
            where = self.where(short) if short in self.defined else None
            if where is None and short in self.aliases and qn not in self.aliases:  # a name a package re-exports (``tools.user.get_user_info``)
                module = short.rpartition(".")[0]
                where = (self.modules[module], "", module) if module in self.modules else None
            if where is not None:
                path = where[0].replace("\\", "/").removesuffix(".py").removesuffix("/__init__")
                if path.endswith("/" + "/".join([*parts[:cut], *where[2].split(".")])):
                    return short
        return qn

    def named(self, name: str) -> list[str]:
        """The module-level functions of the run with this name (qualified), sorted."""
        if self._by_name is None:
            self._by_name = {}
            for qn in sorted(self.defined):
                where = self.where(qn)
                if where is not None and "." not in where[1]:
                    self._by_name.setdefault(where[1], []).append(qn)
        return list(self._by_name.get(name, ()))

    def methods_named(self, name: str) -> list[str]:
        """The methods of the run's classes with this name (qualified), sorted."""
        if self._methods is None:
            self._methods = {}
            for qn in sorted(self.defined):
                where = self.where(qn)
                if where is not None and where[1].count(".") == 1:
                    self._methods.setdefault(where[1].split(".")[1], []).append(qn)
        return list(self._methods.get(name, ()))

    def where(self, qn: str) -> tuple[str, str, str] | None:
        """(file, path in it, module) of a function the run defines: ``pkg.mod.f`` or ``pkg.mod.C.m``."""
        parts = qn.split(".")
        for cut in (len(parts) - 1, len(parts) - 2):
            module = ".".join(parts[:cut])
            if cut > 0 and module in self.modules:
                return self.modules[module], ".".join(parts[cut:]), module
        return None


def needed(wants: Iterable[Links], graphs: Iterable[Graph],
           done: Mapping[str, Summary]) -> dict[str, list[str]]:
    """The helpers the tools reach within :data:`DEPTH` that no worker summarised yet: file -> paths in it."""
    r = _Resolver(graphs)
    out: dict[str, list[str]] = {}
    frontier = {q for w in wants for q in w[0]}
    seen: set[str] = set()
    for _ in range(DEPTH):
        nxt: set[str] = set()
        for key in (k for qn in frontier for k in r.resolve_all(qn)):
            if key in seen:
                continue
            seen.add(key)
            if key not in done:
                where = r.where(key)
                if where is not None:
                    out.setdefault(where[0], []).append(where[1])
            nxt.update(r.calls.get(key, ()))
        frontier = nxt
    return out


def join(rows: Iterable[tuple[Tool, Links, bool, bool]], graphs: Iterable[Graph],
         summaries: Mapping[str, Summary]) -> None:
    """Add to each row (tool; the run's functions it calls and those whose value it returns; whether its ``raised``
    only means nothing of its own catches; whether it has no same-module helper) what the helpers it reaches within :data:`DEPTH` do: their calls out,
    findings and failure modes. What a helper answers in place of a failure (its TFH401 findings, its ``text`` and
    ``fallback`` modes) counts only when every caller on the way returns the value it got (``passed_of``); one that
    swallows a failure hands its callers nothing whatever they do with it."""
    r = settle_summaries(_Resolver(graphs), summaries)  # calls on an SDK client a function returns (``returned.py``)
    # the rows one dispatcher runs by name (plate-core's 189 ``tools/call`` branches) share their links: what those
    # reach is found once for them all, then merged into each row
    shared: dict[Links, tuple[set[str], list[tuple[str, str]], dict[str, bool], dict[str, frozenset[str]]]] = {}
    for tool, links, uncaught, direct in rows:
        wants = links[0]
        if links not in shared:
            shared[links] = (*reached_by(r, links, DEPTH), {})
        unsafe, sent, reached, walked = shared[links]
        caught = False
        counted: set[tuple[str, int, str]] = set()
        # the framework's text for what the tool raises (``failures_by``), held apart while the helpers merge: a
        # helper's own ``text`` is kept whatever becomes of it
        framework = uncaught and tool.failures_by is not None and "text" in tool.failures
        # a tool whose own work between it and the catching helpers may raise (a same-module helper, its loop over the
        # listing) keeps the framework's text; one handing the call straight on does not
        raises = False  # a reached helper calling out lets a failure through: the framework's text stays
        if framework:
            tool.failures.remove("text")
        settle(tool, r.resolve_all, summaries)  # ``except X as e: raise_tool_error(e)``: what that helper raises
        aside = signing_in(tool, wants, r, reached, walked)  # reached only through a sign-in helper: not the tool's effect
        signin: set[tuple[str, str | None]] = set()
        mine = {(c.what, c.helper) for c in tool.calls}
        for key, text in reached.items():
            s = summaries.get(key)
            if s is not None:
                (signin if key in aside else mine).update((c.what, c.helper) for c in s.calls)
                _merge(tool, s, text, key not in aside)
                _count(tool, s, text, counted, key not in unsafe)
                caught = caught or (s.caught and bool(s.calls) and key not in aside)
                raises = raises or (bool(s.calls) and "raised" in s.failures)
        settle_calls(tool, r)  # ``get_client(token).services.get(slug)``: an SDK client's method
        _asked(tool, {v for v, k in sent if summaries.get(k) is not None})  # a request helper's method: this tool's
        _classify(tool, [(v, k) for v, k in sent if summaries.get(k) is not None and _calls_out(k, r, summaries)],
                  frozenset(signin - mine))
        if uncaught and caught and "raised" in tool.failures and len(tool.failures) > 1:
            tool.failures.remove("raised")  # as a same-module helper's handler does
        if framework and "text" not in tool.failures:
            if caught and direct and not raises and tool.failures:
                tool.failures_by = None  # a reached helper's handler answers the failure (KiCad's logged ``None``)
            else:
                tool.failures.insert(0, "text")
        _runner(tool, r, summaries, counted, reached)  # the run's runner answering what the tool raises with text
        tool.text_with_tfh401()  # a helper's TFH401 that reaches the result, even one calling nothing out
        _annotated(tool, r)
        _local(tool, r, reached, summaries)
        tool.findings = dict(sorted(tool.findings.items()))


#: the run's resolver of qualified names to its definitions (``adoption.adopted`` asks it)
Resolver = _Resolver
