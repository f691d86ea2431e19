"""The engine observer for one file (``engine.Observer``) that :mod:`.describe` hands the lint: it finds the file's
tools from its ``ast`` screen (:meth:`_Observer.region`), marks their lines for the lint and builds the visitor
that gathers their facts; with the two helpers it applies to what it finds (a tool class's literal name, whether
the file may make tools of other modules' functions)."""

from __future__ import annotations

import ast
from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import knowledge as kb
from .catchalls import registry_runners
from .ancestry import Shape, class_shapes, name_tables, text_dispatchers
from .sdk_classes import sdk_constructor_lines, sdk_wrappers
from .commands import Commands, typer_commands
from .follow import Graph, Links, graph_of, helper_paths, summary_defs, tool_calls
from .adoption import adopted_defs
from .remote import Remote, Wanted, free_receivers, injected_names, remote_refs, table_refs
from .dispatch import tool_schema_names
from .forms import discover
from .handlers import filled_from, registered_classes
from .index import Def, Index, class_index, literal_str, module_name, name_from_call, pending_classes, pending_decorators
from .demos import demo_defs
from .markers import marker_keys, read_markers
from .passed_decorators import decorated_by_parameter, passed_decorators
from .servers import module_built, module_factories, module_instances, param_facts, SERVED, Served, unresolved_receivers
from .frameworks import imported_frameworks
from .hints import own_decorators
from .handing import pending_helpers
from .registry_text import registry_texts
from .registries import Registry, pending_callables, registry_decorators, wrapping_decorators
from .model import Tables
from .method_helpers import method_helpers

if TYPE_CHECKING:
    from .facts import ToolFacts
    from ..rule import FileContext, Screen

__all__ = ["Adopt", "Inject"]


class _Observer:
    """The engine observer for one file (see ``engine.Observer``)."""

    models: tuple[type, ...] = ()  # the lint's models: :func:`_lint_models`, set by :func:`describe_source`

    def __init__(self, path: str, tables: Tables, own_roots: frozenset[str], require_complete: bool,
                 summarise: tuple[str, ...] | None = None, adopt: Adopt | None = None, inject: Inject = ()) -> None:
        self.path = path
        self.summarise = summarise  # only these helpers of the file (the run's last pass), no tools
        self.adopt = adopt  # only these functions of the file, made tools by other modules (``remote.py``)
        self.remotes: list[Remote] = []  # what this file's calls make tools of in other modules
        self.inject = inject  # names a loader of the run sets on this module: (name, class of the object)
        self.injected: dict[str, str] = {}  # names this file's loaders set on the modules they run -> class
        self.free: frozenset[str] = frozenset()  # decorator receivers nothing in this module binds
        self.graph: Graph | None = None
        # a tool's first function -> the run's functions it calls, and those whose value it returns
        self.links: dict[tuple[str, int], Links] = {}
        self.tables = tables
        self.own_roots = own_roots
        self.require_complete = require_complete
        self.module = module_name(path)
        self.defs: list[Def] = []
        self.classes: list[tuple[str, list[str]]] = []
        self.dispatch: list[tuple[str, dict[str, str]]] = []
        self.shapes: list[Shape] = []
        self.registries: dict[str, Registry] = {}
        self.wrapping: set[str] = set()
        self.params: list[tuple[str, int | str, str]] = []
        self.exports: list[tuple[str, str]] = []  # module-level objects of a class
        self.factories: list[tuple[str, str]] = []  # module-level functions that build one class -> the class
        self.built: list[tuple[str, str]] = []  # module-level names bound to an imported function's value
        self.markers: dict[str, frozenset[str]] = {}  # registries that only mark: qualified name -> attributes
        self.reads: set[str] = set()  # attributes read off objects by name
        self.pending = False
        self.refs: frozenset[str] = frozenset()
        self.facts: ToolFacts | None = None
        self.sdk_lines: set[int] = set()
        self.sdk_wrapped: dict[int, tuple[str, ...]] = {}  # an SDK client's constructor line -> its methods' wrappers
        self.imported: frozenset[str] = frozenset()  # the data-file frameworks' packages the file imports
        self.frameworks: frozenset[str] = frozenset()  # the agent/MCP frameworks it imports (``frameworks.py``)
        self.decorated: dict[str, int] = {}  # the run's own decorators not in the tables -> functions they decorate here
        self.helpers: dict[str, tuple[str, str, int | None]] = {}  # methods making a tool of a parameter (``method_helpers``)
        self.commands: Commands | None = None  # its Typer apps' commands (``commands.py``)
        self.unserved: dict[str, Registry] = {}  # its ``served:`` registries as they are without a server of the run
        self.registry_text: dict[str, str] = {}  # its registries' framework text (``registry_text.py``)
        self.server_texts: frozenset[str] = frozenset()  # the text wrappers of the MCP servers it imports
        self.screened = False  # the engine handed this file's ``ast`` screen to ``region`` (False: ``ast`` failed)

    def region(self, screen: "Screen", knowledge: kb.Knowledge) -> Collection[int] | None:
        assert isinstance(screen.tree, ast.Module)
        self.screened = True
        self.sdk_lines = sdk_constructor_lines(screen, self.own_roots | {self.module.split(".")[0]})
        if self.sdk_lines:  # a retry wrapper put on a method of the client where it is built: linted with the tools
            self.sdk_wrapped, wrapper_lines = sdk_wrappers(screen.tree, self.sdk_lines)
            self.sdk_lines |= wrapper_lines
        index = Index(screen.tree, screen, self.module, self.tables.params)
        self.graph = graph_of(index, self.path, self.own_roots)
        self.imported = frozenset(r for full in index.imports.values() if (r := full.split(".")[0]) in _DATA_ROOTS)
        self.server_texts = frozenset(t for full in index.imports.values() if (t := kb.MCP_SERVER_TEXT.get(full)))
        self.frameworks = imported_frameworks(index.imports.values())
        if self.summarise is not None:
            self.defs = summary_defs(index, self.summarise)
            return self._lines() if self.defs else None
        if self.adopt is not None:
            self.defs = adopted_defs(index, self.adopt)
            return self._described(index)
        for name, cls in self.inject:
            index.instances.setdefault(name, cls)
        self.free = free_receivers(index)
        if any("module_from_spec" in str(c) for c in index.call_names):
            self.injected = injected_names(index)
        self.classes = class_index(index)
        self.exports = module_instances(index)
        self.factories = module_factories(index)
        self.built = module_built(index)
        self.commands = typer_commands(index)
        chosen: dict[str, tuple[ast.AST, str]] = {}
        self.registries = {f"{self.module}.{p}": r
                           for p, r in registry_decorators(index, Served(self.tables.decorators, self.own_roots,
                                                                          self.tables.decorator_lasts())
                                                           if self.require_complete else self.tables.decorators, chosen).items()}
        self.registry_text = registry_texts(self.module, chosen, index, self.tables.decorators)
        if any(r[0].startswith(SERVED) for r in self.registries.values()):  # what they are if the object is no server
            self.unserved = {f"{self.module}.{p}": r for p, r in registry_decorators(index, self.tables.decorators).items()}
        self.markers = {f"{self.module}.{p}": keys for p, (fn, param) in chosen.items()
                        if (keys := marker_keys(fn, param, index.tree)) is not None}
        self.reads = read_markers(index.tree)
        self.wrapping = {f"{self.module}.{p}" for p in wrapping_decorators(index, self.tables.decorators)}
        self.decorated = own_decorators(index, self.tables.decorators, self.own_roots)
        self.params = param_facts(index, self.tables.servers()) if index.instances else []
        self.params += passed_decorators(index, self.registries, self.own_roots)
        self.dispatch = [(f"{self.module}.{p}", found) for p, node in index.classes
                         if (found := {**text_dispatchers(node), **name_tables(node)})] + registry_runners(index)
        with_bases = {qn for qn, bases in self.classes if bases}
        # s56: a class named a tool with no base may implement the run's tool protocol (``protocols.py``)
        self.shapes = [s for s in class_shapes(index) if s.template or s.qualname in with_bases or s.toolish
                       or s.attrs & _DESCRIBING_ATTRS]
        self.refs = frozenset(n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(index.tree)
                              if isinstance(n, ast.Name) and n.id[:1].isupper()
                              or isinstance(n, ast.Attribute) and n.attr[:1].isupper())
        self.helpers = method_helpers(index, self.tables)
        # a base that may be the project's own tool base (its subclasses here too): decided once the run is known
        configured = {qn for qn, (fw, _) in self.tables.bases.items() if fw == "configured"}
        own_base = any(s.template and (s.toolish or s.tool_named or s.qualname in configured) for s in self.shapes) or any(
            b in configured for _, bases in self.classes for b in bases)  # its methods, once the run is known
        if self.require_complete and (own_base or pending_classes(index, self.tables, self.own_roots)
                                      or pending_decorators(index, self.tables, self.own_roots)
                                      or pending_callables(index, self.tables.project, self.own_roots)
                                      or pending_helpers(index, self.own_roots) or decorated_by_parameter(index)
                                      or unresolved_receivers(index, self.tables.decorator_lasts())
                                      or any(b in self.tables.servers() for _, bases in self.classes for b in bases)):
            self.pending = True
            return None  # described in the second phase, when every class is known
        self.defs = [_card_named(d, index) for d in discover(index, self.tables)]
        self.remotes = remote_refs(index, self.tables, self.own_roots) if _hands_tools(index, self.tables) else []
        self.remotes += table_refs(index, self.own_roots)
        self.remotes += [("=" + qn, "", "dispatch", f"{table}[name]", "") for qn, table in filled_from(index, self.own_roots)]
        self.remotes += [(qns, key, "registry", f"{table}[name]", "") for qns, key, table in registered_classes(index, self.own_roots)]
        return self._described(index)

    def _described(self, index: Index) -> Collection[int] | None:
        if not self.defs:
            return None
        demo = demo_defs(self.defs, index)
        if demo:
            self.defs = [replace(d, demo=True) if id(d) in demo else d for d in self.defs]
        # per first function, the last row's links (what its functions and helpers call): the rows a dispatcher runs
        # by name (189 branches of one ``tools/call`` answer) share them, so they are followed once, not once a row
        last = {d.functions[0]: d for d in self.defs if d.functions}
        self.links = {key: tool_calls(d, index, self.own_roots) for key, d in last.items()}
        # the module-level helpers the tools call are described here too, for the tools of other files that reach them
        self.defs += summary_defs(index, helper_paths(self.defs, index))
        return self._lines()

    def _lines(self) -> set[int]:
        lines: set[int] = set(self.sdk_lines)  # the SDK clients' constructors: their findings are the tools'
        for d in self.defs:
            for start, end in (*d.spans, *d.helper_spans):
                lines.update(range(start, end + 1))
        return lines

    def visitor(self, ctx: "FileContext") -> object:
        from .facts import ToolFacts

        self.facts = ToolFacts(ctx, self.defs, self.module, self.own_roots, self.sdk_wrapped)
        return self.facts


_DATA_ROOTS = frozenset(root for _, _, root, *_ in kb.TOOL_DATA_FILES.values())

#: functions of a file another module makes tools of: (path in the file, tool name or "", framework, form, text by)
Adopt = tuple[Wanted, ...]
#: names a loader of the run sets on a module it runs: (name, the class of the object it sets)
Inject = tuple[tuple[str, str], ...]


def _hands_tools(index: Index, tables: Tables) -> bool:
    """A call here may make a tool of a function (the last names of the tables' decorators, wrappers and list
    constructors; a name ending in ``Tool`` or ``Agent``): worth :func:`remote.remote_refs`."""
    lasts = {q.rsplit(".", 1)[-1] for q in (*tables.decorators, *tables.wrappers, *tables.lists)} \
        | kb.TOOL_REGISTRATION_VERBS.keys()
    return any((last := str(c).rsplit(".", 1)[-1]) in lasts or last.endswith(("Tool", "Agent")) for c in index.call_names) \
        or bool(tool_schema_names(index.tree))  # a ``{"name": fn}`` dispatch dict of imported functions


def _card_named(d: Def, index: Index) -> Def:
    """A tool class named by its class name whose ``__init__`` hands its base a literal name: ``super().__init__(
    name="x")``, or a card built in the call, ``super().__init__(ToolCard(name="x", ...))`` /
    ``super().__init__(build_tool_card(name="x"))``, a card builder's first argument (``ToolCard("x")``,
    ``build_tool_card("x", ...)``), or such a card assigned to a name first: the model sees that name."""
    path = d.qualname[len(index.module) + 1:] if d.qualname.startswith(index.module + ".") else ""
    cls = index.local_classes.get(path)
    if cls is None or d.name != cls.name:
        return d
    init = next((s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"),
                None)
    names: set[str] = set()
    built = {t.id: n.value for n in (ast.walk(init) if init is not None else ()) if isinstance(n, ast.Assign)
             and isinstance(n.value, ast.Call) for t in n.targets if isinstance(t, ast.Name)}  # card = ToolCard(...)
    for node in ast.walk(init) if init is not None else ():
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "super"):
            continue
        for kw in node.keywords:
            if kw.arg == "name" and literal_str(kw.value) is not None:
                names.add(literal_str(kw.value) or "")
        for arg in (*node.args, *(k.value for k in node.keywords if k.arg is not None and "card" in k.arg.lower())):
            if isinstance(arg, ast.Name):
                arg = built.get(arg.id, arg)
            if isinstance(arg, ast.Call):
                callee = arg.func.attr if isinstance(arg.func, ast.Attribute) else getattr(arg.func, "id", "")
                found = name_from_call(arg, positional="card" in callee.lower())  # ToolCard("x"), build_tool_card("x")
                if found:
                    names.add(found)
    return replace(d, name=names.pop()) if len(names) == 1 else d


#: class attributes that describe a tool (``spec = ToolSpec(...)``): the class may implement a tool protocol
_DESCRIBING_ATTRS = frozenset({"spec", "schema", "tool_spec", "definition"})
