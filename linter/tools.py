"""``smullyan tools``: find every tool an agent can call and describe its failure design.

Two phases over the files of a run, both on the process pool when ``--jobs`` asks:

1. **Index** (``ast`` only): each file's tool forms (decorators, wrapper calls,
   ``tools=[...]`` lists, subclasses of the frameworks' tool base classes) and
   the classes it defines with their bases, resolved from the file's imports
   (relative ones through its package). A file whose tools depend on nothing
   outside it (every base class is known or not from this project) is
   described at once, from the same ``ast`` tree.
2. **Describe** the rest, once the classes of every file are known (``class
   SendMessage(GmailBaseTool)`` in one file, ``class GmailBaseTool(BaseTool)``
   in another).

Describing a file is one lint of it (``engine.lint_source`` with an
:class:`~smullyan.linter.engine.Observer`): the tool definitions and the
same-module helpers they call are the observer's region, so narrowing keeps
them, only the rules with a candidate line in that region run, and the
:class:`ToolFacts` visitor rides the same traversal as the resolver, the
retry model (:mod:`~smullyan.rules.retries.model`, which also classifies calls
through :mod:`~smullyan.linter.effects`) and the rules. Findings are
attributed to a tool by the line ranges of its functions and helpers.

Names are resolved as the screens resolve them: the file's imports, a
module-level or local ``x = Class(...)`` (``mcp = FastMCP(...)``;
``@mcp.tool()`` is ``FastMCP.tool``), classes of the same module.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection

import libcst as cst

from . import knowledge as kb
from .names import dotted
from .nodes import argument, has_star, is_none, keyword_arg, walk_in_scope
from .packages import package_of
from ..rules.retries import paths as retry_paths
from ..rules.retries.model import Condition, Retry, RetryModel, Stop, Wait
from .effects import declared_class

if TYPE_CHECKING:
    from .config import Config
    from .findings import Finding
    from .rule import FileContext, Screen

__all__ = [
    "SCHEMA_VERSION",
    "CallFact",
    "RetryFact",
    "Tool",
    "ToolRun",
    "Tables",
    "run",
    "describe_source",
]

#: Version of the JSON document ``smullyan tools --format json`` prints (docs/cli.md).
SCHEMA_VERSION = 1

_ORDER = (kb.IRREVERSIBLE, kb.NON_IDEMPOTENT_WRITE, kb.IDEMPOTENT_WRITE, kb.READ_SAFE)
_RUN = "*register"


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Tables:
    """What makes a tool: the library's tables extended by the configuration, plus the
    classes of this run known to be tools (qualified name -> framework, run methods)."""

    decorators: Mapping[str, str]
    bases: Mapping[str, tuple[str, tuple[str, ...]]]
    wrappers: Mapping[str, tuple[str, str, int | None]]
    lists: Mapping[str, str]
    project: frozenset[str] = frozenset()  # the run's own classes among ``bases``

    @classmethod
    def build(cls, config: "Config") -> "Tables":
        decorators = dict(kb.TOOL_DECORATORS)
        for name in config.tool_decorators:
            decorators.setdefault(name, "configured")
        bases = dict(kb.TOOL_BASE_CLASSES)
        for name in config.tool_base_classes:
            bases.setdefault(name, ("configured", kb.CONFIGURED_TOOL_METHODS))
        # a namespace package (``google/`` without ``__init__.py``) names its modules from the level
        # below when linted in place (``adk.tools.base_tool``): the tables hold both spellings
        for name in list(decorators):
            root, _, rest = name.partition(".")
            if root in _NAMESPACE_ROOTS and rest:
                decorators.setdefault(rest, decorators[name])
        for name in list(bases):
            root, _, rest = name.partition(".")
            if root in _NAMESPACE_ROOTS and rest:
                bases.setdefault(rest, bases[name])
        lists = dict(kb.TOOL_LIST_CONSTRUCTORS)
        for name in getattr(config, "tool_list_constructors", ()):
            lists.setdefault(name, "configured")
        wrappers = dict(kb.TOOL_WRAPPERS)
        for name in list(wrappers):
            root, _, rest = name.partition(".")
            if root in _NAMESPACE_ROOTS and rest:
                wrappers.setdefault(rest, wrappers[name])
        return cls(decorators, bases, wrappers, lists)

    def with_classes(self, classes: Mapping[str, tuple[str, tuple[str, ...]]]) -> "Tables":
        return Tables(self.decorators, {**classes, **self.bases}, self.wrappers, self.lists,
                      frozenset(c for c in classes if c not in self.bases))


#: top-level namespace packages (no ``__init__.py``) of the frameworks in the tables
_NAMESPACE_ROOTS = frozenset({"google"})


# --------------------------------------------------------------------------- results


@dataclass
class CallFact:
    """One call out of the process a tool makes (directly or in a helper)."""

    what: str  # "POST to 'https://...'", "requests.get", "subprocess.run"
    cls: str | None  # one of knowledge.CLASSES, None: not classified
    timeout: str  # value | default | missing | infinite | scope | unknown | none-possible | n/a
    timeout_value: str | None = None
    keyed: bool = False
    helper: str | None = None


@dataclass
class RetryFact:
    kind: str
    stop: str  # "3 attempts", "30 s", "never", "unknown"
    wait: str  # "backoff", "none", "unknown"
    condition: str
    bounded: bool | None  # None: unknown
    helper: str | None = None


@dataclass
class Tool:
    """One row of the table."""

    name: str
    path: str
    line: int
    framework: str
    form: str
    qualname: str
    classification: str  # one of knowledge.CLASSES, or "unknown"
    source: str  # declared | configured | inferred | unknown
    evidence: str  # what it was declared or inferred from
    calls: list[CallFact] = field(default_factory=list)
    retries: list[RetryFact] = field(default_factory=list)
    budget: bool = False
    key: str = "unknown"  # present | missing | not-needed | unknown
    failures: list[str] = field(default_factory=list)  # typed | text | fallback | raised | swallowed
    findings: dict[str, int] = field(default_factory=dict)
    spans: list[tuple[int, int]] = field(default_factory=list)  # line ranges findings are attributed by

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("spans")
        data["calls"] = [asdict(c) for c in self.calls]
        data["retries"] = [asdict(r) for r in self.retries]
        return data


@dataclass
class ToolRun:
    tools: list[Tool] = field(default_factory=list)
    files_checked: int = 0
    files_described: int = 0
    errors: list["Finding"] = field(default_factory=list)  # TFH001/TFH002 in files that hold tools


# --------------------------------------------------------------------------- ast side: discovery


@dataclass(frozen=True)
class _Def:
    """A tool found by the screen: the functions that run it and where."""

    name: str
    framework: str
    form: str
    qualname: str
    line: int
    functions: tuple[tuple[str, int], ...]  # (def path "Cls.meth", occurrence) of the functions that run it
    spans: tuple[tuple[int, int], ...]  # line ranges of those functions
    helper_spans: tuple[tuple[int, int], ...]  # and of the same-module helpers they call
    helpers: tuple[tuple[str, int], ...] = ()


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def module_name(path: str) -> str:
    """The dotted module a file is (``pkg.sub.mod``; ``pkg.sub`` for its ``__init__.py``)."""
    stem = Path(path).stem
    package = package_of(path)
    if stem == "__init__":
        return package or stem
    return f"{package}.{stem}" if package else stem


def _span(node: ast.AST) -> tuple[int, int]:
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])  # type: ignore[attr-defined]
    return start, node.end_lineno or node.lineno  # type: ignore[attr-defined]


def _literal_str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class _Index:
    """One file's definitions, names and tool forms, from its ``ast`` tree."""

    def __init__(self, tree: ast.Module, screen: "Screen", module: str) -> None:
        self.tree = tree
        self.module = module
        self.call_names = screen.call_names
        self.imports: dict[str, str] = {}
        for local, full in screen.import_bindings:
            self.imports[local] = full
        self.instances: dict[str, str] = {}  # name (or ``self.attr``) -> class qualname of the object assigned to it
        self.lists: dict[str, list[ast.expr]] = {}  # name (or ``self.attr``) -> the elements of a list assigned to it
        self.defs: list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]] = []  # (path, occurrence, node, parents)
        self.classes: list[tuple[str, ast.ClassDef]] = []  # (path, node)
        self._seen: dict[str, int] = {}
        self._walk(tree.body, (), ())
        self.local_classes = {path: node for path, node in self.classes}

    def _walk(self, body: Sequence[ast.stmt], path: tuple[str, ...], parents: tuple[ast.AST, ...]) -> None:
        for stmt in body:
            if isinstance(stmt, (*_FUNCS, ast.ClassDef)):
                key = ".".join((*path, stmt.name))
                if isinstance(stmt, ast.ClassDef):
                    self.classes.append((key, stmt))
                else:
                    n = self._seen.get(key, 0)
                    self._seen[key] = n + 1
                    self.defs.append((key, n, stmt, parents))
                self._walk(stmt.body, (*path, stmt.name), (*parents, stmt))
                continue
            assigned = (stmt.targets if isinstance(stmt, ast.Assign)
                        else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else [])
            value = getattr(stmt, "value", None)
            if assigned and isinstance(value, ast.Call):
                func = value.func.value if isinstance(value.func, ast.Subscript) else value.func  # Registry[Ctx](...)
                qn = self.qualname(func)
                if qn is not None and qn.rsplit(".", 1)[-1][:1].isupper():
                    for target in assigned:
                        bound = _target_key(target)
                        if bound is not None:
                            self.instances[bound] = qn
            elif assigned and isinstance(value, (ast.List, ast.Tuple)):
                for target in assigned:
                    bound = _target_key(target)
                    if bound is not None:
                        self.lists.setdefault(bound, []).extend(value.elts)
            for name in ("body", "handlers", "cases", "orelse", "finalbody"):  # source order
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    for part in inner:
                        if isinstance(part, (ast.ExceptHandler, ast.match_case)):
                            self._walk(part.body, path, parents)
                    self._walk([s for s in inner if isinstance(s, ast.stmt)], path, parents)

    def qualname(self, node: ast.AST) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        root = node.id
        if root == "self" and parts and f"self.{parts[-1]}" in self.instances:  # self.mcp = FastMCP(...)
            base = self.instances[f"self.{parts.pop()}"]
        elif root in self.imports:
            base = self.imports[root]
        elif root in self.instances:
            base = self.instances[root]
        elif any(path == root for path, _ in self.classes):
            base = f"{self.module}.{root}"
        else:
            return None
        return kb.canonical(".".join([base, *reversed(parts)]))

    def bases(self, cls: ast.ClassDef) -> list[str]:
        out = []
        for b in cls.bases:
            if isinstance(b, ast.Subscript):  # BaseTool[Args], Generic[T]
                b = b.value
            qn = self.qualname(b)
            if qn is not None:
                out.append(qn)
        return out


def _target_key(target: ast.AST) -> str | None:
    """``name`` or ``self.attr``: the assignment targets an instance or a tool list is followed through."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return f"self.{target.attr}"
    return None


def _class_index(index: _Index) -> list[tuple[str, list[str]]]:
    """(qualified class name, qualified bases) of every class the file defines."""
    return [(f"{index.module}.{path}", index.bases(node)) for path, node in index.classes]


def _pending(index: _Index, tables: Tables, own_roots: frozenset[str]) -> bool:
    """Whether a class here derives from one this file cannot judge alone (a class of the same project)."""
    local = {f"{index.module}.{path}" for path, _ in index.classes}
    for _, node in index.classes:
        for base in index.bases(node):
            if base in tables.bases or base in local:
                continue
            if base.split(".")[0] in own_roots:
                return True
    return False


def _helpers_of(fn: ast.AST, index: _Index, cls_path: str | None) -> list[tuple[str, int, ast.AST]]:
    """The same-module functions (module level) and methods of the enclosing class that ``fn`` calls."""
    module_defs = {path: (path, n, node) for path, n, node, parents in index.defs if not parents}
    out: list[tuple[str, int, ast.AST]] = []
    seen: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        key: str | None = None
        if isinstance(f, ast.Name) and f.id in module_defs and f.id not in index.imports:
            key = f.id
        elif (
            cls_path is not None
            and isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Name)
            and f.value.id in ("self", "cls")
        ):
            key = f"{cls_path}.{f.attr}"
        if key is None or key in seen:
            continue
        seen.add(key)
        for path, n, node2, _parents in index.defs:
            if path == key and node2 is not fn:
                out.append((path, n, node2))
                break
    return out


#: frameworks whose tool decorator takes the description first (``@registry.action("Go back")``)
_DESCRIPTION_FIRST = frozenset({"browser-use", "semantic-kernel"})


def _name_from_call(call: ast.Call, positional: bool = True) -> str | None:
    for kw in call.keywords:
        if kw.arg == "name":
            return _literal_str(kw.value)
    return _literal_str(call.args[0]) if call.args and positional else None


def _class_tool_name(cls: ast.ClassDef) -> str:
    for stmt in cls.body:
        target: ast.AST | None = None
        value: ast.AST | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        if isinstance(target, ast.Name) and target.id == "name":
            text = _literal_str(value)
            if text:
                return text
    return cls.name


def discover(index: _Index, tables: Tables) -> list[_Def]:
    """Every tool the file defines (``tables.bases`` holds the project's tool classes too)."""
    found: dict[tuple[str, int], _Def] = {}
    by_path: dict[str, list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]]] = {}
    for entry in index.defs:
        by_path.setdefault(entry[0], []).append(entry)

    def enclosing_class(parents: tuple[ast.AST, ...]) -> str | None:
        if parents and isinstance(parents[-1], ast.ClassDef):
            names = [p.name for p in parents]  # type: ignore[attr-defined]
            return ".".join(names)
        return None

    def add(name: str, framework: str, form: str, functions: list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]],
            line: int, qualname: str, by_name: bool = False) -> None:
        key: tuple[str, int] = (functions[0][0], functions[0][1])
        if by_name:  # several tools run by one dispatcher (``@server.call_tool()``, a dispatch dict)
            key = (f"{functions[0][0]}:{name}", functions[0][1])
        if key in found:
            return
        helpers: list[tuple[str, int, ast.AST]] = []
        for path, _n, node, parents in functions:
            for h in _helpers_of(node, index, enclosing_class(parents)):
                if all(h[0] != f[0] for f in functions) and all(h[0] != x[0] for x in helpers):
                    helpers.append(h)
        found[key] = _Def(
            name, framework, form, qualname, line,
            tuple((p, n) for p, n, _, _ in functions),
            tuple(_span(node) for _, _, node, _ in functions),
            tuple(_span(node) for _, _, node in helpers),
            tuple((p, n) for p, n, _ in helpers),
        )

    # decorators: @tool, @tool("name"), @mcp.tool(...), @agent.tool_plain, @read_safe
    listed = _listed_tool_names(index)
    for entry in index.defs:
        path, n, node, parents = entry
        for dec in node.decorator_list:  # type: ignore[attr-defined]
            call = dec if isinstance(dec, ast.Call) else None
            qn = index.qualname(call.func if call is not None else dec)
            framework = tables.decorators.get(qn or "")
            if framework is None:
                framework = _activity_framework(qn, parents, index)
            if framework is None:
                continue
            if (qn or "").endswith(".call_tool") and framework == "mcp":
                head = call.func if call is not None else dec
                for tool_name in listed or [node.name]:  # type: ignore[attr-defined]
                    add(tool_name, framework, f"@{ast.unparse(head)}", [entry], _span(node)[0],
                        f"{index.module}.{path}", by_name=True)
                break
            name = (_name_from_call(call, positional=framework not in _DESCRIPTION_FIRST)
                    if call is not None and framework != "runtime" else None) or node.name  # type: ignore[attr-defined]
            head = call.func if call is not None else dec
            add(name, framework, f"@{ast.unparse(head)}", [entry], _span(node)[0], f"{index.module}.{path}")
            break

    # a tool decorator on a class (metagpt ``@register_tool()`` class): its public methods run it
    for cls_path, cls in index.classes:
        for dec in cls.decorator_list:
            qn = index.qualname(dec.func if isinstance(dec, ast.Call) else dec)
            framework = tables.decorators.get(qn or "")
            if framework is None or framework == "runtime":
                continue
            members = [by_path[f"{cls_path}.{s.name}"][0] for s in cls.body
                       if isinstance(s, _FUNCS) and not s.name.startswith("_") and f"{cls_path}.{s.name}" in by_path]
            if members:
                add(_class_tool_name(cls), framework, f"@{ast.unparse(dec.func if isinstance(dec, ast.Call) else dec)} class",
                    members, cls.lineno, f"{index.module}.{cls_path}")
            break

    # subclasses of tool base classes (through other classes of this file too)
    bases = dict(tables.bases)
    hits: dict[str, tuple[str, tuple[str, tuple[str, ...]]]] = {}  # class path -> (base's last name, (framework, methods))
    changed = True
    while changed:
        changed = False
        for cls_path, cls in index.classes:
            if cls_path in hits:
                continue
            own = f"{index.module}.{cls_path}"
            if own in tables.bases and own not in tables.project:
                continue  # a framework's own tool base class (``smolagents.tools.PipelineTool``): not a tool
            if own in tables.bases and index.bases(cls):  # found a tool class by the run's class index
                hits[cls_path] = (index.bases(cls)[0].rsplit(".", 1)[-1], tables.bases[own])
                changed = True
                continue
            for b in index.bases(cls):
                if b in bases:
                    hits[cls_path] = (b.rsplit(".", 1)[-1], bases[b])
                    bases[f"{index.module}.{cls_path}"] = bases[b]
                    changed = True
                    break
    for cls_path, cls in index.classes:
        if cls_path not in hits:
            continue
        base_name, (framework, methods) = hits[cls_path]
        if methods == (_RUN,):
            for m in _registered_methods(cls, index.imports):
                fns = by_path.get(f"{cls_path}.{m}")
                if fns:
                    add(m, framework, f"{base_name} method", [fns[0]], _span(fns[0][2])[0], f"{index.module}.{cls_path}.{m}")
            continue
        fns = [by_path[f"{cls_path}.{m}"][0] for m in methods if f"{cls_path}.{m}" in by_path]
        if fns:
            add(_class_tool_name(cls), framework, f"{base_name} subclass", fns, cls.lineno, f"{index.module}.{cls_path}")

    # wrapper calls (FunctionTool.from_defaults(fn=f), FunctionTool(self.m)) and tools=[f, g] lists
    lasts = {q.rsplit(".", 1)[-1] for q in (*tables.wrappers, *tables.lists)}
    agents = any(str(c).endswith(_AGENT_SUFFIX) for c in index.call_names)
    scopes = [("", 0, index.tree, ()), *index.defs] if agents or index.call_names & lasts else []
    for entry_path, _n, fn_node, parents in scopes:
        owner = enclosing_class(parents) if fn_node is not index.tree else None
        for call in _direct_calls(fn_node):
            qn = index.qualname(call.func)
            if qn is None:
                continue
            refs: list[tuple[ast.AST, str, str]] = []
            if qn in tables.wrappers:
                framework, keyword, position = tables.wrappers[qn]
                arg = next((k.value for k in call.keywords if k.arg == keyword), None)
                if arg is None and position is not None and len(call.args) > position:
                    arg = call.args[position]
                if arg is not None:
                    parts = qn.split(".")
                    form = ".".join(parts[-2:]) if parts[-1].startswith("from_") else parts[-1]
                    refs.append((arg, framework, form))
            elif qn in tables.lists or qn.rsplit(".", 1)[-1].endswith(_AGENT_SUFFIX):
                framework = tables.lists.get(qn) or _framework_of(qn)
                arg = next((k.value for k in call.keywords if k.arg == "tools"), None)
                elts = _list_elements(arg, index, entry_path if fn_node is not index.tree else "")
                refs.extend((el, framework, f"{qn.rsplit('.', 1)[-1]}(tools=[...])") for el in elts)
            for ref, framework, form in refs:
                target = _resolve_ref(ref, index, entry_path if fn_node is not index.tree else "", owner)
                if target is not None:
                    name = _name_from_call(call) if qn in tables.wrappers else None
                    tpath = target[0]
                    add(name or tpath.rsplit(".", 1)[-1], framework, form, [target], _span(target[2])[0],
                        f"{index.module}.{tpath}")

    # tool schemas dispatched by name: a ``{"name": fn}`` dict beside a JSON schema of the tools
    if _has_tool_schema(index.tree):
        for entry_path, _n, fn_node, parents in [("", 0, index.tree, ()), *index.defs]:
            owner = enclosing_class(parents) if fn_node is not index.tree else None
            for d in _direct_nodes(fn_node, ast.Dict):
                pairs = [(_literal_str(k), v) for k, v in zip(d.keys, d.values) if k is not None]
                if len(pairs) < 2 or any(k is None for k, _ in pairs):
                    continue
                targets = [(k, _resolve_ref(v, index, entry_path if fn_node is not index.tree else "", owner))
                           for k, v in pairs]
                if any(t is None for _, t in targets):
                    continue
                for k, t in targets:
                    assert k is not None and t is not None
                    add(k, "schema", "dispatch dict", [t], _span(t[2])[0], f"{index.module}.{t[0]}", by_name=True)
    return sorted(found.values(), key=lambda d: d.line)


#: a call whose callee's last name ends so takes a ``tools=`` list (``Agent``, ``AssistantAgent``)
_AGENT_SUFFIX = "Agent"


def _framework_of(qn: str) -> str:
    return qn.split(".")[0].replace("_", "-")


def _list_elements(arg: ast.AST | None, index: _Index, scope_path: str) -> list[ast.expr]:
    """``tools=[f, g]``, or ``tools=name`` / ``tools=self.tools`` where a list was assigned to that name."""
    if isinstance(arg, (ast.List, ast.Tuple)):
        return list(arg.elts)
    key = _target_key(arg) if arg is not None else None
    if key is not None:
        return list(index.lists.get(key, []))
    return []


def _direct_nodes(node: ast.AST, kind: type[ast.Dict]) -> list[ast.Dict]:
    out: list[ast.Dict] = []
    stack = list(getattr(node, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*_FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, kind):
            out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return out


_SCHEMA_KEYS = frozenset({"parameters", "input_schema", "inputSchema"})


def _has_tool_schema(tree: ast.Module) -> bool:
    """A dict literal with a ``"name"`` key and a ``"parameters"``/``"input_schema"`` key: a tool's JSON schema."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Dict):
            keys = {_literal_str(k) for k in n.keys if k is not None}
            if "name" in keys and keys & _SCHEMA_KEYS:
                return True
    return False


def _listed_tool_names(index: _Index) -> list[str]:
    """The names a low-level MCP server's ``@server.list_tools()`` function lists (``Tool(name="fetch", ...)``)."""
    out: list[str] = []
    for _path, _n, node, _parents in index.defs:
        if not any((index.qualname(d.func if isinstance(d, ast.Call) else d) or "").endswith(".list_tools")
                   for d in node.decorator_list):  # type: ignore[attr-defined]
            continue
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and (index.qualname(call.func) or "").rsplit(".", 1)[-1] == "Tool":
                name = _name_from_call(call)
                if name is None:
                    name = next((str(getattr(k.value, "value", "")) for k in call.keywords
                                 if k.arg == "name" and isinstance(k.value, ast.Attribute)), None)
                if name and name not in out:
                    out.append(name)
    return out


def _activity_framework(qn: str | None, parents: tuple[ast.AST, ...], index: _Index) -> str | None:
    """An activity-style framework's tool decorator: imported from the same top-level package as a base
    class of the (innermost) class the decorated function is in, its last name a tool word."""
    if qn is None or qn.rsplit(".", 1)[-1] not in kb.TOOL_DECORATOR_WORDS:
        return None
    root = qn.split(".")[0]
    for p in reversed(parents):
        if isinstance(p, ast.ClassDef):
            if any(b.split(".")[0] == root for b in index.bases(p)):
                return _framework_of(qn)
            return None
    return None


def _direct_calls(node: ast.AST) -> Iterable[ast.Call]:
    """Calls in a body, not descending into nested definitions (they are walked on their own)."""
    out: list[ast.Call] = []
    stack = list(getattr(node, "body", [])) + list(getattr(node, "decorator_list", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*_FUNCS, ast.ClassDef, ast.Lambda)):
            if isinstance(n, ast.ClassDef):
                stack.extend(n.decorator_list)
            continue
        if isinstance(n, ast.Call):
            out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    out.sort(key=lambda c: (c.lineno, c.col_offset))  # the first wrapping of a function names its row
    return out


def _resolve_ref(
    ref: ast.AST, index: _Index, scope_path: str, cls_path: str | None
) -> tuple[str, int, ast.AST, tuple[ast.AST, ...]] | None:
    """The same-module def a function reference names: ``search`` (nested in the scope, else module
    level) or ``self.search`` (a method of the enclosing class)."""
    if isinstance(ref, ast.Name):
        candidates = [f"{scope_path}.{ref.id}"] if scope_path else []
        candidates.append(ref.id)
    elif (
        isinstance(ref, ast.Attribute)
        and isinstance(ref.value, ast.Name)
        and ref.value.id in ("self", "cls")
        and cls_path is not None
    ):
        candidates = [f"{cls_path}.{ref.attr}"]
    else:
        return None
    for want in candidates:
        for entry in index.defs:
            if entry[0] == want:
                return entry
    return None


_REGISTERING = frozenset({"append", "extend", "insert", "add", "register"})


def _registered_methods(cls: ast.ClassDef, imports: Collection[str] = ()) -> list[str]:
    """agno: the methods a Toolkit subclass registers in ``__init__``: ``self.<method>`` (not called)
    in a list, tuple or set, given to ``tools=``, or passed to ``x.append``/``extend``/``insert``/``add``
    or ``self.register`` (not ``atexit.register(self.close)``, not ``db_resolver=self._db``)."""
    methods = {s.name for s in cls.body if isinstance(s, _FUNCS)}
    init = next((s for s in cls.body if isinstance(s, _FUNCS) and s.name == "__init__"), None)
    if init is None:
        return []
    refs: list[ast.AST] = []
    for n in ast.walk(init):
        if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
            refs.extend(n.elts)
        elif isinstance(n, ast.Call):
            refs.extend(k.value for k in n.keywords if k.arg == "tools")
            f = n.func
            if (
                isinstance(f, ast.Attribute)
                and f.attr in _REGISTERING
                and not (isinstance(f.value, ast.Name) and f.value.id in imports)
            ):
                refs.extend(n.args[:1])
    out: list[str] = []
    for r in refs:
        if (
            isinstance(r, ast.Attribute)
            and isinstance(r.value, ast.Name)
            and r.value.id == "self"
            and r.attr in methods
            and r.attr not in out
        ):
            out.append(r.attr)
    return out


# --------------------------------------------------------------------------- libcst side: facts


def _expr_text(node: cst.CSTNode, limit: int = 24) -> str:
    try:
        text = cst.Module([]).code_for_node(node)
    except Exception:
        return "?"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.value
    if isinstance(node, cst.Tuple) and all(isinstance(e.value, (cst.Integer, cst.Float)) for e in node.elements):
        return "(" + ", ".join(e.value.value for e in node.elements) + ")"  # type: ignore[attr-defined]
    return None


class ToolFacts:
    """The engine visitor for one file: records, per function the screen asked about, its calls
    out, timeouts, handlers and budgets, then assembles the rows when the module is left."""

    def __init__(self, ctx: "FileContext", defs: list[_Def], module: str) -> None:
        self.ctx = ctx
        self.names = ctx.names
        self.knowledge = ctx.knowledge
        self.defs = defs
        self.module = module
        self.wanted: set[tuple[str, int]] = set()
        for d in defs:
            self.wanted.update(d.functions)
            self.wanted.update(d.helpers)
        self.nodes: dict[tuple[str, int], cst.FunctionDef] = {}
        self.declared: dict[int, str] = {}
        self._path: list[str] = []
        self._seen: dict[str, int] = {}
        self._tracked: list[cst.FunctionDef | None] = []  # innermost def: a wanted one, or None
        self.calls: dict[int, list[tuple[cst.Call, str, str, str | None]]] = {}  # id(def) -> (call, qn, status, value)
        self.handlers: dict[int, list[cst.ExceptHandler]] = {}
        self.exits: dict[int, list[cst.BaseExpression]] = {}  # id(def) -> what its return/raise statements give
        self.budget: set[int] = set()
        self.owner: dict[int, int] = {}  # id(anchor node) -> id(wanted def holding it)
        self._client_timeouts: dict[str, tuple[str, str | None]] = {}  # receiver text -> its constructor's timeout
        self._scopes = 0  # open timeout scopes (async with asyncio.timeout(...), asyncio.wait_for(...))
        self._scope_nodes: list[int] = []
        self._reaps: set[int] = set()  # id(call): communicate()/wait() right after kill()
        self.tools: list[Tool] = []

    # traversal ------------------------------------------------------------

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._path.append(node.name.value)
        self._tracked.append(self._tracked[-1] if self._tracked else None)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._path.pop()
        self._tracked.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        key = ".".join((*self._path, node.name.value))
        n = self._seen.get(key, 0)
        self._seen[key] = n + 1
        self._path.append(node.name.value)
        if (key, n) in self.wanted:
            self.nodes[(key, n)] = node
            self._tracked.append(node)
            cls = declared_class(node, self.names)
            if cls is not None:
                self.declared[id(node)] = cls
        else:
            self._tracked.append(self._tracked[-1] if self._tracked else None)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._path.pop()
        self._tracked.pop()

    def _current(self) -> cst.FunctionDef | None:
        return self._tracked[-1] if self._tracked else None

    def visit_For(self, node: cst.For) -> None:
        self._own(node)

    def visit_While(self, node: cst.While) -> None:
        self._own(node)

    def _own(self, node: cst.CSTNode) -> None:
        fn = self._current()
        if fn is not None:
            self.owner[id(node)] = id(fn)

    def visit_Return(self, node: cst.Return) -> None:
        self._exit(node.value)

    def visit_Raise(self, node: cst.Raise) -> None:
        self._exit(node.exc)

    def _exit(self, value: cst.BaseExpression | None) -> None:
        fn = self._current()
        if value is not None and fn is not None and self.names.function is fn:
            self.exits.setdefault(id(fn), []).append(value)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        fn = self._current()
        if fn is not None and self.names.function is fn:
            self.handlers.setdefault(id(fn), []).append(node)
        # the clean-up ``proc.kill()`` then ``proc.communicate()``: reaping a killed process, not a wait
        # (TFH201 exempts it the same way)
        killed: str | None = None
        for stmt in node.body.body:
            for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [None]):
                value = getattr(small, "value", None)
                if isinstance(value, cst.Await):
                    value = value.expression
                f = value.func if isinstance(value, cst.Call) else None
                if killed is not None and isinstance(f, cst.Attribute) and f.attr.value in ("communicate", "wait") \
                        and isinstance(f.value, cst.Name) and f.value.value == killed:
                    self._reaps.add(id(value))
                killed = None
                if isinstance(f, cst.Attribute) and f.attr.value in ("kill", "terminate") and isinstance(f.value, cst.Name):
                    killed = f.value.value

    def visit_With(self, node: cst.With) -> None:
        n = sum(
            1 for item in node.items
            if isinstance(item.item, cst.Call) and self.names.qualname(item.item.func) in self.knowledge.timeout_scopes
        )
        if n:
            self._scopes += n
            self._scope_nodes.append(id(node))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_client(node.asname.name, node.item)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind_client(t.target, node.value)

    def _bind_client(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """``client = httpx.Client(timeout=10)`` / ``async with httpx.AsyncClient(timeout=t) as client``:
        a request on ``client`` without its own timeout has the client's."""
        name = self._client_key(dotted(target))
        if name is None or not isinstance(value, cst.Call):
            return
        spec = self.knowledge.timeouts.get(self.names.qualname(value.func) or "")
        arg = argument(value, spec.keyword, spec.position) if spec is not None else None
        if arg is not None:
            if is_none(arg.value):
                self._client_timeouts[name] = ("infinite", None)
            else:
                self._client_timeouts[name] = ("value", _number(arg.value) or _expr_text(arg.value))

    def _client_key(self, name: str | None) -> str | None:
        """``self.client`` holds for the whole class; a local name only in its function."""
        if name is None or name.startswith("self."):
            return name
        fn = self.names.function
        return f"{id(fn)}:{name}" if fn is not None else name

    def leave_With(self, node: cst.With) -> None:
        if self._scope_nodes and self._scope_nodes[-1] == id(node):
            self._scope_nodes.pop()
            self._scopes -= sum(
                1 for item in node.items
                if isinstance(item.item, cst.Call) and self.names.qualname(item.item.func) in self.knowledge.timeout_scopes
            )

    def visit_Call(self, node: cst.Call) -> None:
        fn = self._current()
        if fn is None:
            return
        self.owner[id(node)] = id(fn)
        qn = self.names.qualname(node.func)
        if keyword_arg(node, "budget") is not None or (qn or "").rsplit(".", 1)[-1] == "Budget":
            self.budget.add(id(fn))
        if qn is None:
            return
        k = self.knowledge
        if qn in k.timeout_wrappers:
            self._scopes += 1
            self._scope_nodes.append(id(node))
        if qn in kb.TOOL_NOT_EXTERNAL:
            return
        status, value = "", None
        spec = k.timeouts.get(qn)
        if spec is not None:
            arg = argument(node, spec.keyword, spec.position)
            if arg is not None:
                if is_none(arg.value):
                    status = "infinite" if spec.none_is_infinite else "default"
                else:
                    value = _number(arg.value) or _expr_text(arg.value)
                    status = "value"
            elif has_star(node):
                status = "unknown"
            elif self._scopes:
                status = "scope"
            elif isinstance(node.func, cst.Attribute) and self._client_key(dotted(node.func.value)) in self._client_timeouts:
                status, value = self._client_timeouts[self._client_key(dotted(node.func.value)) or ""]
            elif id(node) in self._reaps:
                status = "n/a"
            elif spec.required:
                status = "missing"
            else:
                status, value = "default", spec.default
        elif qn in k.needs_timeout_scope:
            status = "scope" if self._scopes else "missing"
        elif qn in kb.TOOL_PROCESS_CALLS:
            status = "none-possible"
        if status:
            self.calls.setdefault(id(fn), []).append((node, qn, status, value))

    def leave_Call(self, node: cst.Call) -> None:
        if self._scope_nodes and self._scope_nodes[-1] == id(node):
            self._scope_nodes.pop()
            self._scopes -= 1

    def leave_Module(self, node: cst.Module) -> None:
        model: RetryModel = self.ctx.models[RetryModel]
        by_owner: dict[int, list[Retry]] = {}
        wanted = {id(v) for v in self.nodes.values()}
        for retry in model.retries:
            # around: a retry decorator on the tool or a helper, or a controller given it
            targets = [id(fn) for fn in model.retried_functions(retry) if id(fn) in wanted]
            inside = self.owner.get(id(retry.anchor))  # a retry loop or call inside one
            for fn_id in dict.fromkeys([*targets, *([inside] if inside is not None else [])]):
                by_owner.setdefault(fn_id, []).append(retry)
        for d in self.defs:
            fns = [self.nodes[k] for k in d.functions if k in self.nodes]
            if not fns:
                continue
            helpers = [self.nodes[k] for k in d.helpers if k in self.nodes]
            self.tools.append(self._row(d, fns, helpers, model, by_owner))

    # rows -----------------------------------------------------------------

    def _row(
        self, d: _Def, fns: list[cst.FunctionDef], helpers: list[cst.FunctionDef],
        model: RetryModel, by_owner: dict[int, list[Retry]],
    ) -> Tool:
        tool = Tool(d.name, self.ctx.path, d.line, d.framework, d.form, d.qualname, "unknown", "unknown", "",
                    spans=[*d.spans, *d.helper_spans])
        effects = []
        for fn in fns:
            effects.extend(model.function_effects(fn))
        by_node = {id(e.node): e for e in effects}
        # calls out: every classified call and every call the timeout tables know, here and one level down
        seen: set[int] = set()
        for fn, helper in [*((f, None) for f in fns), *((h, h.name.value) for h in helpers)]:
            if helper is not None and self.declared.get(id(fn)) in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                continue
            for call, qn, status, value in self.calls.get(id(fn), []):
                seen.add(id(call))
                e = by_node.get(id(call))
                tool.calls.append(CallFact(e.what if e else qn, e.cls if e else None, status, value,
                                           bool(e and e.keyed), helper))
        for e in effects:
            if id(e.node) not in seen and isinstance(e.node, cst.Call):
                seen.add(id(e.node))
                tool.calls.append(CallFact(e.what, e.cls, "n/a" if e.what.endswith("()") and "." not in e.what else "unknown",
                                           None, e.keyed, e.helper))
        # classification: declared, configured, inferred, unknown
        declared = next((self.declared[id(fn)] for fn in fns if id(fn) in self.declared), None)
        configured = self.knowledge.classify.get(d.qualname)
        if declared is not None:
            tool.classification, tool.source = declared, "declared"
            dec = fns[0].decorators
            tool.evidence = "MCP annotations" if d.framework == "mcp" and d.form != "@read_safe" and any(
                isinstance(x.decorator, cst.Call) and keyword_arg(x.decorator, "annotations") for x in dec
            ) else "decorator"
        elif configured is not None:
            tool.classification, tool.source, tool.evidence = configured, "configured", "classify"
        else:
            classified = [e for e in effects if e.cls in _ORDER]
            if classified:
                strongest = min(classified, key=lambda e: _ORDER.index(e.cls))
                tool.classification, tool.source = strongest.cls, "inferred"
                tool.evidence = strongest.what + (f" in {strongest.helper}()" if strongest.helper else "")
        # idempotency key
        if tool.classification in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
            tool.key = "not-needed"
        elif tool.classification in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE):
            writes = [e for e in effects if e.cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE)]
            tool.key = "present" if writes and all(e.keyed for e in writes) else "missing"
        # retries around or inside it (and in its helpers)
        for fn, helper in [*((f, None) for f in fns), *((h, h.name.value) for h in helpers)]:
            for retry in by_owner.get(id(fn), []):
                tool.retries.append(_retry_fact(retry, helper))
            if id(fn) in self.budget:
                tool.budget = True
        # how failures reach the model (the tool's own functions)
        modes: list[str] = []
        going_round = {id(h) for rs in by_owner.values() for r in rs if r.loop is not None for h in r.loop.handlers}
        caught_anywhere = False
        for fn in [*fns, *helpers]:  # the same functions the findings are attributed by
            # a handler of a retry loop sends the call round again; what follows the loop decides
            handlers = [h for h in self.handlers.get(id(fn), []) if id(h) not in going_round]
            caught_anywhere = caught_anywhere or bool(handlers)
            for h in handlers:
                mode = _handler_mode(h, self.names, self.knowledge)
                if mode not in modes:
                    modes.append(mode)
            if _returns_tool_error(self.exits.get(id(fn), []), self.names, self.knowledge) and "typed" not in modes:
                modes.append("typed")
        if not caught_anywhere and "raised" not in modes:
            modes.insert(0, "raised")
        tool.failures = modes
        return tool


def _retry_fact(retry: Retry, helper: str | None) -> RetryFact:
    stop = retry.stop
    if isinstance(stop, Stop):
        if stop.never:
            stop_text, bounded = "never", False
        elif stop.attempts is not None:
            stop_text, bounded = f"{stop.attempts} attempts", True
        elif stop.seconds is not None:
            stop_text, bounded = f"{stop.seconds:g} s", True
        else:
            stop_text, bounded = "bounded", True
    elif retry.loop is not None and isinstance(retry.loop.node, cst.For):
        stop_text, bounded = "for loop", True  # as many attempts as the loop has items
    elif retry.loop is not None and retry_paths.bound(retry.loop) is not None:
        stop_text, bounded = "exit in loop", True
    else:
        stop_text, bounded = "unknown", None
    wait = retry.wait
    wait_text = ("none" if wait.none else "yes") if isinstance(wait, Wait) else "unknown"
    cond = retry.condition
    if isinstance(cond, Condition):
        if cond.every_exception:
            cond_text = "any exception"
        elif cond.exceptions:
            cond_text = ", ".join(e.rsplit(".", 1)[-1] for e in cond.exceptions)
        elif cond.tags:
            cond_text = ", ".join(sorted(cond.tags))
        elif cond.statuses is not None:
            cond_text = "status " + ",".join(str(s) for s in sorted(cond.statuses))
        else:
            cond_text = "default"
    else:
        cond_text = "unknown"
    return RetryFact(retry.kind, stop_text, wait_text, cond_text, bounded, helper)


def _is_tool_error(node: cst.BaseExpression, names: Any, knowledge: kb.Knowledge) -> bool:
    if isinstance(node, cst.Call):
        qn = names.qualname(node.func)
        # a ToolError, the runtime's Err(ToolError) (a typed Result), or a framework's typed tool error
        if qn is not None and (qn in knowledge.tool_error_constructors or qn in knowledge.tool_error_classes
                               or qn in knowledge.err_classes or qn.endswith(".ToolError")
                               or qn.rsplit(".", 1)[-1] in ("ToolException", "ModelRetry")):
            return True
    return False


def _handler_mode(handler: cst.ExceptHandler, names: Any, knowledge: kb.Knowledge) -> str:
    """typed | text | raised | swallowed: what an ``except`` clause in a tool gives the model."""
    bound = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
    returned: list[cst.BaseExpression] = []
    for n in walk_in_scope(handler.body):
        if isinstance(n, cst.Raise):
            if n.exc is not None and _is_tool_error(n.exc, names, knowledge):
                return "typed"
            return "raised"
        if isinstance(n, cst.Return) and n.value is not None:
            returned.append(n.value)
    for value in returned:
        if _is_tool_error(value, names, knowledge):
            return "typed"
    for value in returned:
        if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.BinaryOperation)):
            if not _empty(value):
                return "text"
            continue
        if isinstance(value, cst.Call) and (names.qualname(value.func) or "") in _TEXT_OF_FAILURE:
            return "text"  # return traceback.format_exc() / str(e)
        if bound is not None and any(isinstance(x, cst.Name) and x.value == bound for x in walk_in_scope(value)):
            return "text"
        if isinstance(value, (cst.Dict, cst.Call)):
            for x in walk_in_scope(value):  # {"error": ...}, json.dumps({"error": ...}), ErrorResult(...)
                if isinstance(x, cst.SimpleString) and "error" in x.value.lower():
                    return "text"
                if isinstance(x, cst.Name) and "error" in x.value.lower():
                    return "text"
    for value in returned:
        if not _empty(value):
            return "fallback"  # a fallback value or a fallback call: the model gets an answer, not silence
    if any(isinstance(n, cst.Call) and "fallback" in (dotted(n.func) or "").lower() for n in walk_in_scope(handler.body)):
        return "fallback"
    return "swallowed"


_TEXT_OF_FAILURE = frozenset({"traceback.format_exc", "traceback.format_exception", "traceback.format_exception_only",
                              "str", "repr"})


def _empty(value: cst.BaseExpression) -> bool:
    """``None``, ``""``, ``[]``, ``{}``, ``()``, ``False``, ``0``: a return that tells the model nothing."""
    if is_none(value) or (isinstance(value, cst.Name) and value.value in ("False",)):
        return True
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value in ("", b"")
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return not value.elements
    if isinstance(value, cst.Dict):
        return not value.elements
    if isinstance(value, cst.Integer):
        return value.value == "0"
    return False


def _returns_tool_error(exits: Sequence[cst.BaseExpression], names: Any, knowledge: kb.Knowledge) -> bool:
    return any(_is_tool_error(value, names, knowledge) for value in exits)


# --------------------------------------------------------------------------- one file


class _Observer:
    """The engine observer for one file (see ``engine.Observer``)."""

    models: tuple[type, ...] = (RetryModel,)

    def __init__(self, path: str, tables: Tables, own_roots: frozenset[str], require_complete: bool) -> None:
        self.path = path
        self.tables = tables
        self.own_roots = own_roots
        self.require_complete = require_complete
        self.module = module_name(path)
        self.defs: list[_Def] = []
        self.classes: list[tuple[str, list[str]]] = []
        self.pending = False
        self.facts: ToolFacts | None = None

    def region(self, screen: "Screen", knowledge: kb.Knowledge) -> Collection[int] | None:
        assert isinstance(screen.tree, ast.Module)
        index = _Index(screen.tree, screen, self.module)
        self.classes = _class_index(index)
        if self.require_complete and _pending(index, self.tables, self.own_roots):
            self.pending = True
            return None  # described in the second phase, when every class is known
        self.defs = discover(index, self.tables)
        if not self.defs:
            return None
        lines: set[int] = set()
        for d in self.defs:
            for start, end in (*d.spans, *d.helper_spans):
                lines.update(range(start, end + 1))
        return lines

    def visitor(self, ctx: "FileContext") -> object:
        self.facts = ToolFacts(ctx, self.defs, self.module)
        return self.facts


@dataclass
class _FileResult:
    path: str
    tools: list[Tool]
    classes: list[tuple[str, list[str]]]
    pending: bool
    errors: list["Finding"]


def describe_source(
    source: bytes | str, path: str, config: "Config", tables: Tables | None = None,
    own_roots: frozenset[str] = frozenset(), require_complete: bool = False,
) -> _FileResult:
    """Describe the tools of one module's source (never raises: a crash is a TFH002 error)."""
    from . import engine

    tables = tables or Tables.build(config)
    observer = _Observer(path, tables, own_roots, require_complete)
    try:
        findings = engine.lint_source(source, path, config, observer=observer)
    except Exception as exc:  # pragma: no cover - lint_source never raises
        findings = [engine._pseudo(path, engine.INTERNAL_ERROR, 1, 1, f"internal error: {exc}")]
    errors = [f for f in findings if f.code in (engine.PARSE_ERROR, engine.INTERNAL_ERROR)]
    tools = observer.facts.tools if observer.facts is not None else []
    for tool in tools:
        for f in findings:
            if f.code in (engine.PARSE_ERROR, engine.INTERNAL_ERROR):
                continue
            if any(start <= f.line <= end for start, end in tool.spans):
                tool.findings[f.code] = tool.findings.get(f.code, 0) + 1
        tool.findings = dict(sorted(tool.findings.items()))
        if "TFH401" in tool.findings and "text" not in tool.failures:  # lint saw an exception turned into text
            tool.failures = [("text" if m == "raised" else m) for m in tool.failures]
            if "text" not in tool.failures:
                tool.failures.append("text")
    if observer.pending:
        return _FileResult(path, [], observer.classes, True, [])
    return _FileResult(path, tools, observer.classes, False, errors if observer.defs else [])


def _describe_file(path: str, config: "Config", tables: Tables, own_roots: frozenset[str], require_complete: bool) -> _FileResult:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return _FileResult(path, [], [], False, [])
    return describe_source(data, path, config, tables, own_roots, require_complete)


# --------------------------------------------------------------------------- the run

_CONFIG: "Config | None" = None


def _init(config: "Config") -> None:
    global _CONFIG
    from .runner import ignore_sigint

    _CONFIG = config
    ignore_sigint()


def _chunk(paths: list[str], tables: Tables, own_roots: frozenset[str], require_complete: bool) -> list[_FileResult]:
    assert _CONFIG is not None, "worker not initialised"
    return [_describe_file(p, _CONFIG, tables, own_roots, require_complete) for p in paths]


class _Runner:
    """Describes files in-process or on one process pool that both phases share (workers import
    libcst and the rules once)."""

    def __init__(self, config: "Config", jobs: int, n_files: int,
                 on_pool_error: Callable[[BaseException], None] | None) -> None:
        from .runner import pool_workers

        self.config = config
        self.on_pool_error = on_pool_error
        self.workers = pool_workers(jobs, n_files)
        self.pool: ProcessPoolExecutor | None = None
        if self.workers > 1:
            try:
                self.pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_init, initargs=(config,))
            except Exception as exc:  # no usable multiprocessing here
                self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        if self.on_pool_error is not None:
            self.on_pool_error(exc)
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None

    def map(self, paths: list[str], tables: Tables, own_roots: frozenset[str], require_complete: bool) -> list[_FileResult]:
        from .runner import chunk_size

        if self.pool is not None and len(paths) > 1:
            ordered = sorted(paths, key=lambda p: -(os.path.getsize(p) if os.path.exists(p) else 0))
            size = chunk_size(len(ordered), self.workers)
            chunks = [ordered[i : i + size] for i in range(0, len(ordered), size)]
            try:
                futures = [self.pool.submit(_chunk, c, tables, own_roots, require_complete) for c in chunks]
                out: list[_FileResult] = []
                for future in futures:
                    out.extend(future.result())
                return out
            except Exception as exc:  # a worker died, or the pool broke: describe in-process
                self._fail(exc)
        return [_describe_file(p, self.config, tables, own_roots, require_complete) for p in paths]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)


def _project_classes(
    classes: Iterable[tuple[str, list[str]]], tables: Tables
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every class of the run that derives, directly or through other classes of the run, from a tool base."""
    bases_of = dict(classes)
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
            same = [q for q in by_last.get(base.rsplit(".", 1)[-1], []) if q.split(".")[0] == base.split(".")[0]]
            if len(same) == 1 and same[0] in known:
                return known[same[0]]
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


def run(
    files: Sequence[str], config: "Config", *, jobs: int = 1,
    on_pool_error: Callable[[BaseException], None] | None = None,
) -> ToolRun:
    """Find and describe every tool in ``files`` (paths as discovery returns them)."""
    tables = Tables.build(config)
    own_roots = frozenset(filter(None, ((package_of(f) or "").split(".")[0] for f in files)))
    runner = _Runner(config, jobs, len(files), on_pool_error)
    try:
        first = runner.map(list(files), tables, own_roots, True)
        classes = [c for r in first for c in r.classes]
        project = _project_classes(classes, tables)
        later = [r.path for r in first if r.pending]
        done = [r for r in first if not r.pending]
        if later:
            done += runner.map(later, tables.with_classes(project), own_roots, False)
    finally:
        runner.close()
    result = ToolRun(files_checked=len(files))
    for r in done:
        if r.tools or r.errors:
            result.files_described += 1
        result.tools.extend(r.tools)
        result.errors.extend(r.errors)
    result.tools.sort(key=lambda t: (t.path, t.line, t.name))
    return result
