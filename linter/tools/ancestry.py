"""What a class inherits across the files of a run: tool bases, the packages its ancestors come from, and the base
methods that turn its tools' exceptions into text.

Phase 1 records each file's classes with their bases (``index.class_index``) and, per class, its *text dispatchers*
(:func:`text_dispatchers`): a method whose ``try`` runs the tool (a ``self`` method, or a callable it is given) and
whose broad handler returns the exception as text (``except Exception as e: return ErrorArtifact(str(e))`` in a base
``run``). :func:`resolve` then follows the bases through the run's classes (at any depth, re-exports through an
``__init__.py`` included) and gives phase 2 three tables: the run's tool classes, the top-level packages of each
class's ancestors (an activity-style decorator imported from one of them makes a tool of its methods), and each
class's inherited dispatchers. The run's own tool base classes (:func:`project_tool_bases`) are found by the bases and
by what each class is, read by :mod:`.tool_bases` (split out in s52; its readings are re-exported here)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from typing import TYPE_CHECKING

from ...rules.errors.model import catches_broadly
from .index import CALLED_NAME, FUNCS, Index, lookups
from .reexports import dealias
# what a class is (split out, s52): re-exported, so the tools' modules import the class readings from here as before
from .tool_bases import _NO_SHAPE, Shape, _adapter_named, class_shapes, runs_tool, says_tool, stub_run, tool_base

if TYPE_CHECKING:
    from .model import Tables

__all__ = ["MIN_CANDIDATE_IMPLEMENTERS", "MIN_IMPLEMENTERS", "Resolved", "Shape", "class_shapes", "inherited", "local_ancestor_roots",
           "name_tables", "project_tool_bases", "resolve", "run_class", "says_tool", "text_dispatchers", "stub_run", "tool_base", "tool_classes"]

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


def run_class(classes: Iterable[str], may_name: Callable[[str, str], bool] | None = None) -> Callable[[str], str | None]:
    """s57: the class of the run (of ``classes``, qualified names) a base names: the base itself, else the one class of
    the run of its last name (``may_name(class, base)``: among those that name may name; :func:`same_class` for
    :func:`resolve`; :func:`.protocols.protocol_links`, matching by members, takes any), else None."""
    run = dict.fromkeys(classes)
    by_last: dict[str, list[str]] = {}
    for qn in run:
        by_last.setdefault(qn.rsplit(".", 1)[-1], []).append(qn)

    def in_run(base: str) -> str | None:
        if base in run:
            return base
        same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if may_name is None or may_name(q, base)]
        return same[0] if len(same) == 1 else None

    return in_run


def resolve(classes: Iterable[tuple[str, list[str]]], dispatch: Iterable[tuple[str, dict[str, str]]]) -> Resolved:
    """Two of the tables phase 2 reads (:func:`tool_classes` is the third), from every class of the run."""
    bases_of = dict(dealias(classes)[0])
    own_dispatch = dict(dispatch)  # one entry a class (its own dispatchers and the runners elsewhere: merged)
    # a re-export (``from pkg.tools import Base``): the one class of that name in that package
    in_run = run_class(bases_of, same_class)

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
                parent = in_run(base)
                if parent is not None and parent not in seen:
                    seen.add(parent)
                    queue.append(parent)
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
