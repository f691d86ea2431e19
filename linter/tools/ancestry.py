"""What a class inherits across the files of a run: tool bases, the packages its ancestors come from, and the base
methods that turn its tools' exceptions into text.

Phase 1 records each file's classes with their bases (``index.class_index``) and, per class, its *text dispatchers*
(:func:`text_dispatchers`): a method whose ``try`` runs the tool (a ``self`` method, or a callable it is given) and
whose broad handler returns the exception as text (``except Exception as e: return ErrorArtifact(str(e))`` in a base
``run``). :func:`resolve` then follows the bases through the run's classes (at any depth, re-exports through an
``__init__.py`` included) and gives phase 2 three tables: the run's tool classes, the top-level packages of each
class's ancestors (an activity-style decorator imported from one of them makes a tool of its methods), and each
class's inherited dispatchers."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from typing import TYPE_CHECKING

from ...rules.errors.model import catches_broadly
from .index import CALLED_NAME, FUNCS, Index, lookups
from .reexports import dealias

if TYPE_CHECKING:
    from .model import Tables

__all__ = ["Resolved", "inherited", "local_ancestor_roots", "name_tables", "resolve", "text_dispatchers", "stub_run", "tool_base", "tool_classes"]

#: a call whose result is the exception's text (``str(e)``, ``repr(e)``), or the traceback's
_TEXT_CALLS = frozenset({"str", "repr", "format_exc", "format_exception", "format_exception_only"})

Resolved = tuple[
    dict[str, frozenset[str]],  # class -> top-level packages of its ancestors (other than its own)
    dict[str, dict[str, str]],  # class -> {called method or "*" -> "pkg.mod.Base.dispatcher"}
]


def _text_of(node: ast.AST, name: str) -> bool:
    """``str(e)``, ``repr(e)``, ``f"...{e}"``, ``e.args``, ``traceback.format_exc()`` somewhere in ``node``."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            last = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if last in ("str", "repr") and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == name:
                return True
            if last in _TEXT_CALLS - {"str", "repr"}:
                return True
        elif isinstance(n, ast.FormattedValue) and isinstance(n.value, ast.Name) and n.value.id == name:
            return True
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name and n.attr == "args":
            return True
    return False


def _handler_gives_text(handler: ast.ExceptHandler, method: ast.AST) -> bool:
    """A broad ``except ... as e`` that returns the exception's text, or puts it in a name the method returns."""
    if handler.name is None or not catches_broadly(handler, None):
        return False
    returned = {r.value.id for r in ast.walk(method) if isinstance(r, ast.Return) and isinstance(r.value, ast.Name)}
    for stmt in handler.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Raise):
                return False
            if isinstance(n, ast.Return) and n.value is not None and _text_of(n.value, handler.name):
                return True
            if isinstance(n, ast.Assign) and _text_of(n.value, handler.name) and any(
                isinstance(t, ast.Name) and t.id in returned for t in n.targets
            ):
                return True
    return False


def _callees(body: Iterable[ast.stmt], params: set[str]) -> set[str]:
    """The ``self`` methods a body calls, and ``"*"`` when it calls a callable parameter or ``getattr(self, ...)(...)``."""
    out: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                out.add(f.attr)
            elif isinstance(f, ast.Name) and f.id in params:
                out.add("*")
            elif isinstance(f, ast.Call) and isinstance(f.func, ast.Name) and f.func.id == "getattr":
                out.add("*")
    return out


def text_dispatchers(cls: ast.ClassDef) -> dict[str, str]:
    """{method a dispatcher runs (``"*"``: a callable it is given) -> the dispatcher's name} for the class's own
    methods whose ``try`` runs it and turns its exception into text (one level into ``self`` methods)."""
    methods = {s.name: s for s in cls.body if isinstance(s, FUNCS)}
    out: dict[str, str] = {}
    for name, m in methods.items():
        params = {a.arg for a in (*m.args.posonlyargs, *m.args.args, *m.args.kwonlyargs)} - {"self", "cls"}
        for t in ast.walk(m):
            if not isinstance(t, ast.Try) or not any(_handler_gives_text(h, m) for h in t.handlers):
                continue
            called = _callees(t.body, params)
            for callee in sorted(called):  # one level: ``run`` -> ``self.try_run(activity)`` -> ``activity(...)``
                inner = methods.get(callee)
                if inner is not None and inner is not m:
                    inner_params = {a.arg for a in (*inner.args.posonlyargs, *inner.args.args)} - {"self", "cls"}
                    called |= _callees(inner.body, inner_params)
            for callee in sorted(called):
                # a callable it is given: only a public entry point (``run``), not a private ``_safe(fn)``
                if callee != name and not (callee == "*" and name.startswith("_")):
                    out.setdefault(callee, name)
    return out


def name_tables(cls: ast.ClassDef) -> dict[str, str]:
    """The ``self`` attributes a method of the class indexes by the name of the model's tool call (``name =
    tool_call.function.name`` ... ``self._lookup[name](arguments)``, ``self.handlers.get(call.function.name)``): a
    table of tools whatever fills it, here or in a subclass (ai-shell's ``ToolKitBase.process_tool_calls`` over the
    ``_lookup`` dict its generated ``ToolKit`` fills). -> {``"[attr]"`` -> the method}: kept beside the text
    dispatchers, so a subclass in another file inherits it; ``get_tool(self, name)`` indexes it by its parameter."""
    out: dict[str, str] = {}
    for m in cls.body:
        if not isinstance(m, FUNCS):
            continue  # local names bound to the call's name (a tool getter's parameters)
        named = {a.arg for a in m.args.args[1:]} if {"get", "tool"} <= set(m.name.lower().split("_")) else set()
        for n in ast.walk(m):
            if isinstance(n, ast.Assign) and CALLED_NAME.search(ast.unparse(n.value)):
                named |= {t.id for t in n.targets if isinstance(t, ast.Name)}
        for table, key in lookups(m):
            if not (isinstance(table, ast.Attribute) and isinstance(table.value, ast.Name) and table.value.id == "self"):
                continue
            if isinstance(key, ast.Name) and key.id in named or isinstance(key, (ast.Name, ast.Attribute)) \
                    and CALLED_NAME.search(ast.unparse(key)):
                out.setdefault(f"[{table.attr}]", m.name)
    return out


def same_class(run_qn: str, base: str) -> bool:
    """A base class name may name this class of the run: the same top-level package (a re-export), or the run's
    name is the base's tail below a namespace package (``devon_agent/`` without ``__init__.py``: the file
    ``devon_agent/tool.py`` is module ``tool``, imported as ``devon_agent.tool``), or its tail below a ``sys.path``
    directory (``pkg/agent/tools/base.py`` imported as ``agent.tools.base``: package, module, class at least)."""
    return run_qn.split(".")[0] == base.split(".")[0] or ("." in run_qn and base.endswith("." + run_qn)) or (
        base.count(".") >= 2 and run_qn.endswith("." + base))


def resolve(classes: Iterable[tuple[str, list[str]]], dispatch: Iterable[tuple[str, dict[str, str]]]) -> Resolved:
    """Two of the tables phase 2 reads (:func:`tool_classes` is the third), from every class of the run."""
    bases_of = dict(dealias(classes)[0])
    own_dispatch = dict(dispatch)  # one entry a class (its own dispatchers and the runners elsewhere: merged)
    by_last: dict[str, list[str]] = {}
    for qn in bases_of:
        by_last.setdefault(qn.rsplit(".", 1)[-1], []).append(qn)

    def in_run(base: str) -> str | None:
        if base in bases_of:
            return base
        # a re-export (``from pkg.tools import Base``): the one class of that name in that package
        same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if same_class(q, base)]
        return same[0] if len(same) == 1 else None

    roots: dict[str, frozenset[str]] = {}
    texts: dict[str, dict[str, str]] = {}
    for qn in bases_of:
        # breadth first: the nearest ancestor's answer wins
        seen, queue, found_roots = {qn}, [qn], set()
        text: dict[str, str] = {}
        while queue:
            current = queue.pop(0)
            # an ancestor's dispatcher, not the class's own methods (a tool method calling another in a try)
            for k, m in (own_dispatch.get(current, {}) if current != qn else {}).items():
                text.setdefault(k, m if "." in m else f"{current}.{m}")  # a runner elsewhere: its qualified name
            for base in bases_of.get(current, ()):
                found_roots.add(base.split(".")[0])
                run_class = in_run(base)
                if run_class is not None and run_class not in seen:
                    seen.add(run_class)
                    queue.append(run_class)
        found_roots.discard(qn.split(".")[0])
        if found_roots:
            roots[qn] = frozenset(found_roots)
        if text:
            texts[qn] = text
    return roots, texts


def tool_classes(
    classes: Iterable[tuple[str, list[str]]], tables: "Tables"
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every class of the run that derives, directly or through other classes of the run, from a tool base."""
    bases_of = dict(dealias(classes)[0])
    by_last: dict[str, list[str]] = {}
    for qn in bases_of:
        by_last.setdefault(qn.rsplit(".", 1)[-1], []).append(qn)
    known: dict[str, tuple[str, tuple[str, ...]]] = {}

    def lookup(base: str) -> tuple[str, tuple[str, ...]] | None:
        if base in tables.bases:
            return tables.bases[base]
        if base in known:
            return known[base]
        if base not in bases_of:  # a re-export (``from pkg.tools import Base``): the one class of that name
            same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if same_class(q, base)]
            if len(same) == 1:
                return tables.bases.get(same[0]) or known.get(same[0])
        return None

    changed = True
    while changed:
        changed = False
        for qn, bases in bases_of.items():
            if qn in known:
                continue
            for b in bases:
                hit = lookup(b)
                if hit is not None:
                    known[qn] = hit
                    changed = True
                    break
    return known


def local_ancestor_roots(cls: ast.ClassDef, index: Index, ancestor_roots: Mapping[str, frozenset[str]]) -> set[str]:
    """The top-level packages of a class's ancestors: its bases, the bases of this file's classes it derives
    from, and what the run's table knows of the others."""
    out: set[str] = set()
    for path, node in index.classes:  # the run's answer for the class itself (re-exports resolved there)
        if node is cls:
            out |= ancestor_roots.get(f"{index.module}.{path}", frozenset())
    seen: set[int] = {id(cls)}
    queue = [cls]
    while queue:
        current = queue.pop(0)
        for base in index.bases(current):
            out.add(base.split(".")[0])
            out |= ancestor_roots.get(base, frozenset())
            local = index.local_classes.get(base[len(index.module) + 1:]) if base.startswith(index.module + ".") else None
            if local is not None and id(local) not in seen:
                seen.add(id(local))
                queue.append(local)
    return out


def inherited(cls_path: str, index: Index, text_dispatch: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """The text dispatchers a class of this file inherits: this file's base classes', and the run's table for
    itself and its bases in other files (nearest first). Its own methods are not one: a tool method that
    calls another in a ``try`` does not change what the other gives when the model calls it."""
    out: dict[str, str] = {}
    seen: set[str] = {cls_path}
    queue = [cls_path]
    while queue:
        path = queue.pop(0)
        node = index.local_classes.get(path)
        qn = f"{index.module}.{path}"
        if node is None:
            continue
        if path != cls_path:  # an ancestor's dispatcher, not the class's own methods
            for k, m in {**text_dispatchers(node), **name_tables(node)}.items():
                out.setdefault(k, f"{qn}.{m}")
        for k, v in text_dispatch.get(qn, {}).items():
            out.setdefault(k, v)
        for base in index.bases(node):
            if base.startswith(index.module + ".") and base[len(index.module) + 1:] in index.local_classes:
                local = base[len(index.module) + 1:]
                if local not in seen:
                    seen.add(local)
                    queue.append(local)
            else:
                for k, v in text_dispatch.get(base, {}).items():
                    out.setdefault(k, v)
    return out


# --------------------------------------------------------------------------- a project's own tool base class

#: a class name's last word (``Base``/``Abstract``... left out) that says "tool": ``Tool``, ``BaseTool``, ``ToolBase``
TOOL_CLASS_WORDS = frozenset({"Tool", "Skill"})
#: words that say "tool" only beside a docstring that does (``argparse.Action``, ``distutils.cmd.Command`` are not)
AMBIGUOUS_CLASS_WORDS = frozenset({"Action", "Command", "Function"})
_NEUTRAL_WORDS = frozenset({"Base", "Abstract", "Abc", "ABC", "Interface", "Protocol", "Generic"})
#: a docstring that says the class is a tool an agent or a model calls
_TOOL_DOC = re.compile(r"\b(tools?|agents?|LLMs?|language models?)\b", re.IGNORECASE)
#: template methods that describe the tool rather than run it
_ACCESSOR_PREFIXES = ("get_", "set_", "is_", "has_", "to_", "from_", "_get", "_set", "validate", "_validate")
_ACCESSOR_PARTS = ("name", "description", "schema", "docstring", "param", "spec", "signature", "register", "state",
                   "config", "convert")
#: a subclass named so wraps a function, a remote tool or an agent given to it (``FunctionTool``, ``MCPTool``):
#: the framework's adapter, not a tool of its own
_ADAPTER_WORDS = frozenset({"Function", "Functional", "Callable", "Mcp", "MCP", "Proxy", "Remote", "Client", "Agent",
                            "Wrapper", "Wrapped", "Adapter", "Dynamic", "Generic", "Lambda", "Toolkit"})


def _literal_named(cls: ast.ClassDef) -> bool:
    """The class body names the tool by a literal: ``name = "mcp"``, ``NAME: ClassVar[str] = "MCP"``."""
    for s in cls.body:
        target, value = (s.targets[0], s.value) if isinstance(s, ast.Assign) and len(s.targets) == 1 \
            else (s.target, s.value) if isinstance(s, ast.AnnAssign) else (None, None)
        if isinstance(target, ast.Name) and target.id in ("name", "NAME") and isinstance(value, ast.Constant) \
                and isinstance(value.value, str) and value.value:
            return True
    return False


def _adapter_named(name: str) -> bool:
    """Every word before the last is an adapter's (``FunctionTool``, ``MCPTool``, ``RemoteAgentTool``): the
    framework's adapter of what it is given; not a tool that acts on one (``SpawnHumanAgentTool``)."""
    words = _words(name.lstrip("_"))
    return len(words) > 1 and all(w in _ADAPTER_WORDS for w in words[:-1])


@dataclass(frozen=True)
class Shape:
    """What phase 1 records of each class for finding a project's own tool base: its methods, the methods it
    leaves to its subclasses (abstract, ``raise NotImplementedError``, or called on ``self`` but not defined:
    ``apply_ex`` running ``self.apply(...)``), and whether its name or docstring says tool."""

    qualname: str
    defines: frozenset[str]
    template: tuple[str, ...]
    toolish: bool
    # the name has the word ``Tool`` before another (``ToolHandler``), and it leaves to its subclasses both their
    # description or schema (``get_tool_description``) and a method that runs the tool (``run_tool``, ``execute``):
    # each subclass is one tool (a ``ToolExecutor``'s subclasses run other tools and describe none)
    tool_named: bool = False
    # the last names of the classes its methods build (``BarkTextToSpeechTool()`` in gentopia's ``TTS._run``)
    builds: frozenset[str] = frozenset()
    # named as an adapter of what it is given (``FunctionTool``, ``MCPTool``) and naming no tool of its own: a class
    # that names itself by a literal (``NAME = "MCP"``: wizolt's MCP gateway tool) is one tool, not an adapter
    adapter: bool = False


_NO_SHAPE = Shape("", frozenset(), (), False)


def _words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z0-9]+|[A-Z]+", name)


def says_tool(cls: ast.ClassDef) -> bool:
    """The class's name ends in a tool word (``Tool``, ``BaseTool``, ``ToolBase``, ``Skill``), or in an ambiguous
    one (``Action``, ``Command``, ``Function``) with a docstring that speaks of tools, agents or models."""
    words = [w for w in _words(cls.name) if w not in _NEUTRAL_WORDS]
    last = words[-1] if words else ""
    if last in TOOL_CLASS_WORDS:
        return True
    doc = ast.get_docstring(cls) or ""
    first = doc.strip().split("\n\n")[0]
    # a docstring alone is not enough: "Base class for tool callbacks", "Processes tool calls" are no tool
    return last in AMBIGUOUS_CLASS_WORDS and bool(_TOOL_DOC.search(first))


#: what a method that describes a tool to the model speaks of
_DESCRIBING = ("description", "schema", "spec", "definition")
#: the first word of a method that runs a tool (``run``, ``run_tool``, ``execute``, ``invoke``, ``__call__``)
_RUN_WORDS = frozenset({"run", "arun", "call", "acall", "execute", "aexecute", "invoke", "ainvoke", "forward"})


def runs_tool(method: str) -> bool:
    """A method name that says it runs the tool: its first word a run verb (``run_tool``, ``execute``)."""
    words = [w for w in method.lower().split("_") if w]
    return bool(words) and words[0] in _RUN_WORDS


def _is_accessor(name: str) -> bool:
    low = name.lower()
    return low.startswith(_ACCESSOR_PREFIXES) or any(p in low for p in _ACCESSOR_PARTS)


def _abstract(fn: ast.AST, abc: bool) -> bool:
    decorators = getattr(fn, "decorator_list", [])
    names = [ast.unparse(d).rsplit(".", 1)[-1] for d in decorators]
    if "abstractmethod" in names:
        return True
    if any(n in ("property", "staticmethod", "classmethod", "overload") or n.endswith((".setter", "cached_property"))
           for n in names):
        return False
    body = [s for s in getattr(fn, "body", []) if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                        and isinstance(s.value.value, str))]
    if len(body) != 1:
        return False
    only = body[0]
    if isinstance(only, ast.Raise) and only.exc is not None:
        exc = only.exc.func if isinstance(only.exc, ast.Call) else only.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    # ``...`` or ``pass`` only in an ABC or a Protocol: elsewhere it is an optional hook
    return abc and (isinstance(only, ast.Pass) or (isinstance(only, ast.Expr) and isinstance(only.value, ast.Constant)
                                                   and only.value.value is Ellipsis))


def _properties(cls: ast.ClassDef) -> set[str]:
    return {s.name for s in cls.body if isinstance(s, FUNCS)
            and any(ast.unparse(d).rsplit(".", 1)[-1] in ("property", "cached_property") for d in s.decorator_list)}


def _handed_on(cls: ast.ClassDef) -> set[str]:
    """The methods the class's own code refers to as ``self.<m>`` without calling them (a bound method handed on)."""
    called = {id(n.func) for n in ast.walk(cls) if isinstance(n, ast.Call)}
    return {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute) and id(n) not in called
            and isinstance(n.value, ast.Name) and n.value.id == "self" and isinstance(n.ctx, ast.Load)}


def class_shapes(index: Index) -> list[Shape]:
    """A :class:`Shape` for every class of the file."""
    out: list[Shape] = []
    for path, cls in index.classes:
        methods = {s.name: s for s in cls.body if isinstance(s, FUNCS)}
        attrs = {t.id for s in cls.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                 for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) if isinstance(t, ast.Name)}
        abc = any(ast.unparse(b).rsplit(".", 1)[-1] in ("ABC", "Protocol") for b in cls.bases) or any(
            k.arg == "metaclass" and ast.unparse(k.value).rsplit(".", 1)[-1] == "ABCMeta" for k in cls.keywords)
        template: list[str] = []
        props = _properties(cls)
        handed = _handed_on(cls)
        # a tool class that says it is a base (``BaseTool``, "Base class for calling tools"): its no-op run method
        # (``def run(self, params): pass``; not a no-op ``__call__``) is left to its subclasses, not an optional hook
        words = _words(cls.name.lstrip("_"))
        base = says_tool(cls) and ("Base" in words[:1] + words[-1:]
                                   or bool(_BASE_DOC.search((ast.get_docstring(cls) or "").strip().split("\n")[0])))
        for name, fn in methods.items():
            # abstract, or a no-op hook the class hands on as a function (``func = self.run``) to the wrapper
            # that runs it: ``MotleyTool.run`` is ``pass`` until a subclass overrides it
            if name not in props and (_abstract(fn, abc) or ((name in handed or base and runs_tool(name)
                                                              and not name.startswith("__")) and _abstract(fn, True))):
                template.append(name)
        for fn in methods.values():  # dispatched: ``self.apply(...)`` / ``getattr(self, "apply")`` with no ``apply`` here
            for n in ast.walk(fn):
                called: str | None = None
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                        and n.func.value.id == "self":
                    called = n.func.attr
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" \
                        and len(n.args) >= 2 and isinstance(n.args[0], ast.Name) and n.args[0].id == "self" \
                        and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str):
                    called = n.args[1].value
                if called and called not in methods and called not in attrs and called not in template:
                    template.append(called)
        # each subclass describes itself to the model (a description or schema left to it) and runs the tool
        describes = any(_is_accessor(m) and any(w in m.lower() for w in _DESCRIBING) for m in template)
        template = [m for m in template if not _is_accessor(m) and (m == "__call__" or not m.startswith("__"))]
        builds = frozenset(last for fn in methods.values() for n in ast.walk(fn) if isinstance(n, ast.Call)
                           and (last := ast.unparse(n.func).rsplit(".", 1)[-1])[:1].isupper())
        out.append(Shape(f"{index.module}.{path}", frozenset(methods), tuple(template), says_tool(cls),
                         "Tool" in _words(cls.name)[:-1] and describes and any(runs_tool(m) for m in template), builds,
                         _adapter_named(cls.name) and not _literal_named(cls)))
    return out


#: subclasses that implement a template method before a class is taken for a tool base (zero configuration),
#: and before it is named as a candidate when no tool was found
MIN_IMPLEMENTERS = 2
MIN_CANDIDATE_IMPLEMENTERS = 3


def project_tool_bases(
    classes: Iterable[tuple[str, list[str]]], shapes: Iterable[Shape], tables: "Tables",
) -> tuple[dict[str, tuple[str, tuple[str, ...]]], list[tuple[str, str, int]]]:
    """The run's own tool base classes, found by their shape: a class whose name or docstring says tool
    (:func:`says_tool`), that leaves a method to its subclasses, with at least :data:`MIN_IMPLEMENTERS`
    subclasses of the run (at any depth) that implement it, and no tool base of a framework among its
    ancestors (those are found by the tables). -> ({class: (framework = its top-level package, the methods)},
    and the candidates a run that found no tool names: [(class, method, implementers)], most first, for any
    class, tool word or not, with :data:`MIN_CANDIDATE_IMPLEMENTERS`). A configured ``tool-base-classes``
    class of the run also runs the methods it leaves to its subclasses."""
    classes = dealias(classes)[0]
    bases_of = dict(classes)
    shape_of = {s.qualname: s for s in shapes}
    by_last: dict[str, list[str]] = {}
    for qn in bases_of:
        by_last.setdefault(qn.rsplit(".", 1)[-1], []).append(qn)

    def in_run(base: str) -> str | None:
        if base in bases_of:
            return base
        same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if same_class(q, base)]
        return same[0] if len(same) == 1 else None

    children: dict[str, list[str]] = {}
    for qn, bases in bases_of.items():
        for b in bases:
            parent = in_run(b)
            if parent is not None and parent != qn:
                children.setdefault(parent, []).append(qn)
    framework_tools = tool_classes(classes, tables)
    framework_ancestors: set[str] = set()  # the interfaces a framework's tool base implements (autogen's ``Tool``)
    for qn in [*framework_tools, *(q for q in tables.bases if q in bases_of)]:
        queue = [qn]
        while queue:
            for b in bases_of.get(queue.pop(), ()):
                parent = in_run(b)
                if parent is not None and parent not in framework_ancestors:
                    framework_ancestors.add(parent)
                    queue.append(parent)
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    candidates: list[tuple[str, str, int]] = []
    tools_of: dict[str, list[str]] = {}  # each base found: its descendants that implement what it leaves
    for qn, shape in shape_of.items():
        configured = qn in tables.bases and tables.bases[qn][0] == "configured"
        if not shape.template or qn in framework_tools or (
                not configured and (qn in tables.bases or qn in framework_ancestors)):
            continue
        seen, queue, descendants = {qn}, [qn], []
        while queue:
            for child in children.get(queue.pop(0), ()):
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
                    descendants.append(child)
        counts = {m: sum(1 for d in descendants if m in shape_of.get(d, _NO_SHAPE).defines)
                  for m in shape.template}
        implemented = tuple(m for m in shape.template if counts[m])
        if not implemented:
            continue
        if configured:
            found[qn] = ("configured", tuple(dict.fromkeys((*tables.bases[qn][1], *implemented))))
            continue
        adapters: list[str] = []  # descendants named as adapters, and theirs (``LoggedFunctionTool``)
        for d in descendants:  # breadth first: a parent before its children
            named_adapter = shape_of[d].adapter if d in shape_of else _adapter_named(d.rsplit(".", 1)[-1])
            if named_adapter or any(in_run(b) in adapters for b in bases_of.get(d, ())):
                adapters.append(d)
        real = {m: sum(1 for d in descendants if d not in adapters and m in shape_of.get(d, _NO_SHAPE).defines)
                for m in implemented}
        runners = [m for m in implemented if real[m]] if shape.toolish else [m for m in implemented if real[m] and runs_tool(m)]
        if (shape.toolish or shape.tool_named) and runners and max(real[m] for m in runners) >= MIN_IMPLEMENTERS:
            implemented = implemented if shape.toolish else tuple(runners)
            found[qn] = (qn.split(".")[0].replace("_", "-"), implemented)
            tools_of[qn] = [d for d in descendants
                            if d not in adapters and shape_of.get(d, _NO_SHAPE).defines & set(runners or implemented)]
            for a in adapters:  # a framework's adapters of this base (and their subclasses) are no rows
                found.setdefault(a, ("", ()))
            continue
        best = max(implemented, key=lambda m: counts[m])
        if counts[best] >= MIN_CANDIDATE_IMPLEMENTERS:
            candidates.append((qn, best, counts[best]))
    candidates.sort(key=lambda c: (-c[2], c[0]))
    # a base half of whose tools (or more) the tools of another base build in their methods is a client layer they
    # wrap, not tools the model calls (gentopia's vendored ``GradioTool`` classes: 5 of 10 built in its ``BaseTool``
    # tools' ``_run``)
    built = {qn: frozenset().union(*(shape_of.get(d, _NO_SHAPE).builds for d in ds)) for qn, ds in tools_of.items()}
    for qn, ds in tools_of.items():
        names = [d.rsplit(".", 1)[-1] for d in ds]
        if any(other != qn and 2 * sum(n in built[other] for n in names) >= len(names) for other in tools_of):
            del found[qn]
    return found, candidates


#: the words of a base class's docstring's first line that say so (``Base class for team tools.``)
_BASE_DOC = re.compile(r"^(an? )?(abstract|base)\b", re.IGNORECASE)


def stub_run(fn: ast.AST) -> bool:
    """A run method that runs nothing: abstract, ``raise NotImplementedError``, ``pass``/``...``, or a generator
    that never yields (``if False: yield``)."""
    if _abstract(fn, True):
        return True
    body = [s for s in getattr(fn, "body", []) if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                        and isinstance(s.value.value, str))]
    return len(body) == 1 and isinstance(body[0], ast.If) and isinstance(body[0].test, ast.Constant) \
        and body[0].test.value is False and not body[0].orelse


#: the first words of a constructor parameter that hands a wrapper the function it runs (not ``handler=``,
#: ``callback=``: a tool may report through one)
_RUNS_GIVEN = frozenset({"func", "function", "fn", "callable", "coroutine"})


def _holds_callable(cls: ast.ClassDef, runs: list[ast.AST], words: frozenset[str]) -> bool:
    """The class runs a callable its constructor is given (``def __init__(self, card, func): self._func = func``,
    ``invoke`` calling ``self._func(**inputs)``): its instances built around functions are the tools."""
    init = next((s for s in cls.body if isinstance(s, FUNCS) and s.name == "__init__"), None)
    if init is None:
        return False
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)
              if a.arg.lower().split("_")[0] in words & _RUNS_GIVEN}
    held = {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign)
            and any(isinstance(x, ast.Name) and x.id in params for x in ast.walk(n.value))
            for t in n.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    return bool(held) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in held
                              and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
                              for fn in runs for n in ast.walk(fn))


def tool_base(cls: ast.ClassDef, runs: list[ast.AST], named: bool, words: frozenset[str]) -> bool:
    """A class derived from a tool base that is itself a base, not a tool: it declares itself abstract (an abstract
    method of its own, ``ABC`` among its bases, ``metaclass=ABCMeta``), its name or docstring says it is a base
    (``BaseEvolutionTool``, ``_WorktreeToolBase``, "Base class for team tools") and it names no tool (``named``: a
    literal ``name``), it holds a callable its constructor is given and runs that (``LocalFunction(card, func)``),
    or every run method it defines runs nothing (``runs``: those methods; see :func:`_stub`)."""
    if not runs or all(stub_run(fn) for fn in runs):
        return True
    if any(isinstance(s, FUNCS) and "abstractmethod" in {ast.unparse(d).rsplit(".", 1)[-1] for d in s.decorator_list}
           for s in cls.body):
        return True
    if any(ast.unparse(b).rsplit(".", 1)[-1] == "ABC" for b in cls.bases) \
            or any(k.arg == "metaclass" and ast.unparse(k.value).rsplit(".", 1)[-1] == "ABCMeta" for k in cls.keywords):
        return True
    doc = (ast.get_docstring(cls) or "").strip().split("\n")[0]
    words_of = _words(cls.name.lstrip("_"))
    if not named and ("Base" in words_of[:1] + words_of[-1:] or _BASE_DOC.search(doc)):
        return True
    return _holds_callable(cls, runs, words)
