"""The ``ast`` side of one file: its definitions, classes, names and instances (what the forms resolve against)."""

from __future__ import annotations

import ast
import builtins
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import knowledge as kb
from ..packages import package_of
from .model import Tables
from .reexports import reexports

if TYPE_CHECKING:
    from ..rule import Screen

__all__ = ["CALLED_NAME", "FUNCS", "class_like", "Def", "Index", "class_index", "default_name", "helpers_of", "literal_str", "lookups", "made_of", "module_name", "pending_classes",
           "span", "target_key", "tool_word", "pending_decorators", "EVENT_WORDS", "direct_calls", "own_nodes", "name_from_call"]


@dataclass(frozen=True)
class Def:
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
    caught_by: str | None = None  # a base method that runs it in a ``try`` turning its exceptions into text
    demo: bool = False  # defined in example or demo code (``demos.py``)


FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _namespace_portion(path: str) -> str | None:
    """The package of a file in a directory without ``__init__.py`` inside a regular package, as Python imports it
    (a namespace portion: ``pkg/src/utilities/decorators.py`` with ``pkg/src/__init__.py`` and no
    ``utilities/__init__.py`` is ``pkg.src.utilities.decorators``); None outside any regular package."""
    names: list[str] = []
    current = Path(os.path.abspath(path)).parent
    while current.name.isidentifier() and current.parent != current:
        names.append(current.name)
        if (current.parent / "__init__.py").is_file():
            outer = package_of(str(current.parent / "__init__.py"))
            return ".".join([outer, *reversed(names)]) if outer else None
        current = current.parent
    return None


#: the model's call's name as a handler spells it (``tool_name``, ``call.function.name``, ``function_call.name``): a
#: name or an attribute, not a call computing one; the subject of a ``match`` or the key of a lookup by it
CALLED_NAME = re.compile(r"^[\w.]*(tool|function)\w*(\.|_)name$", re.IGNORECASE)


_BUILTIN_NAMES = frozenset(dir(builtins))
_UNTYPED = frozenset({"typing", "typing_extensions"})  # ``x: Any``: no class of the run or a framework


def module_name(path: str) -> str:
    """The dotted module a file is (``pkg.sub.mod``; ``pkg.sub`` for its ``__init__.py``)."""
    stem = Path(path).stem
    package = package_of(path) or _namespace_portion(path)
    if stem == "__init__":
        return package or stem
    return f"{package}.{stem}" if package else stem


def span(node: ast.AST) -> tuple[int, int]:
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])  # type: ignore[attr-defined]
    return start, node.end_lineno or node.lineno  # type: ignore[attr-defined]


def class_like(name: str) -> bool:
    """A class's name by the convention the code follows (PEP 8's CapWords), a private one too: ``FastMCP``,
    ``_AnnotatingFastMCP`` (the leading underscore marks a non-public name, not a function)."""
    return name.lstrip("_")[:1].isupper()


def tool_word(name: str) -> bool:
    """A decorator's name that says it makes a tool: one of ``knowledge.TOOL_DECORATOR_WORDS``, or a snake-case
    name with the word ``tool``/``tools`` in it (``tool_api``, ``mcp_for_unity_tool``, ``register_tools``)."""
    words = set(name.lower().split("_"))
    return name in kb.TOOL_DECORATOR_WORDS or bool({"tool", "tools"} & words and not words & EVENT_WORDS)


#: words that make a tool-named decorator an event hook around tools, not a tool (``on_tool_start``, ``after_tool_call``)
EVENT_WORDS = frozenset({"on", "before", "after", "pre", "post", "hook", "hooks", "callback", "callbacks", "start",
                          "end", "error", "errors", "result", "results", "call", "calls", "use", "choice", "handler",
                          "listener", "event", "events"})


def literal_str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class Index:
    """One file's definitions, names and tool forms, from its ``ast`` tree."""

    def __init__(self, tree: ast.Module, screen: "Screen", module: str,
                 passed: Mapping[str, Mapping[int | str, str]] | None = None) -> None:
        self.tree = tree
        self.passed = passed or {}  # what the run's calls pass to this file's functions (``Tables.params``)
        self.module = module
        self.call_names = screen.call_names
        self.screen = screen
        self.imports: dict[str, str] = {}
        stars: list[str] = []
        for local, full in screen.import_bindings:
            if local == "*":
                stars.append(full[:-2])
                continue
            self.imports[local] = full
        #: the one module this file star-imports (``from gentopia.tools.basetool import *``), else ""
        self.star = stars[0] if len(set(stars)) == 1 else ""
        self.instances: dict[str, str] = {}  # name (or ``self.attr``) -> class qualname of the object assigned to it
        self.lists: dict[str, list[ast.expr]] = {}  # name (or ``self.attr``) -> the elements of a list assigned to it
        self.defs: list[tuple[str, int, ast.AST, tuple[ast.AST, ...]]] = []  # (path, occurrence, node, parents)
        self.classes: list[tuple[str, ast.ClassDef]] = []  # (path, node)
        self._seen: dict[str, int] = {}
        self.handed: set[str] = set()  # the paths of the functions the run's calls hand an object of a known class
        self._factories = {s.name: s for s in tree.body if isinstance(s, FUNCS)}
        self.helpers_read: dict[tuple[int, str | None], tuple[ast.AST, list[tuple[str, int, ast.AST]]]] = {}  # ``helpers_of``'s
        self._walk(tree.body, (), ())
        self.local_classes = {path: node for path, node in self.classes}

    def _walk(self, body: Sequence[ast.stmt], path: tuple[str, ...], parents: tuple[ast.AST, ...]) -> None:
        for stmt in body:
            if isinstance(stmt, (*FUNCS, ast.ClassDef)):
                key = ".".join((*path, stmt.name))
                if isinstance(stmt, ast.ClassDef):
                    self.classes.append((key, stmt))
                else:
                    n = self._seen.get(key, 0)
                    self._seen[key] = n + 1
                    self.defs.append((key, n, stmt, parents))
                    self._annotated(stmt.args)
                    facts = self._facts(key) if self.passed else None
                    if facts:
                        self.handed.add(key)
                        self._passed(stmt.args, facts, bool(parents) and isinstance(parents[-1], ast.ClassDef))
                self._walk(stmt.body, (*path, stmt.name), (*parents, stmt))
                continue
            assigned = (stmt.targets if isinstance(stmt, ast.Assign)
                        else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else [])
            value = getattr(stmt, "value", None)
            if assigned and isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
                value = self._either(value)  # ``c = client or Client()``: the object either side gives
            if assigned and isinstance(value, ast.Call):
                func = value.func.value if isinstance(value.func, ast.Subscript) else value.func  # Registry[Ctx](...)
                qn = self.qualname(func) or self._built_by(func)
                qn = _constructed(qn)
                if qn is not None and class_like(qn.rsplit(".", 1)[-1]):
                    for target in assigned:
                        bound = target_key(target)
                        if bound is not None:
                            self.instances[bound] = qn
            elif assigned and isinstance(value, ast.Name) and value.id == "self" and len(parents) > 1 \
                    and isinstance(parents[-1], FUNCS) and isinstance(parents[-2], ast.ClassDef):  # mcp = self
                for target in assigned:
                    if isinstance(target, ast.Name):
                        self.instances.setdefault(target.id, f"{self.module}.{'.'.join(path[:-1])}")
            elif assigned and isinstance(value, ast.Name) and value.id in self.instances:  # self.mcp = mcp
                for target in assigned:
                    bound = target_key(target)
                    if bound is not None and bound != value.id:
                        self.instances.setdefault(bound, self.instances[value.id])
            elif assigned and isinstance(value, (ast.List, ast.Tuple)):
                for target in assigned:
                    bound = target_key(target)
                    if bound is not None:
                        self.lists.setdefault(bound, []).extend(value.elts)
                for target in assigned:  # ``self.board, self.sender = board, sender``: each its own value
                    pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and len(target.elts) == len(
                        value.elts) else ()
                    for t, v in pairs:
                        bound = target_key(t)
                        if bound is not None and isinstance(v, ast.Name) and v.id in self.instances and bound != v.id:
                            self.instances.setdefault(bound, self.instances[v.id])
            for name in ("body", "handlers", "cases", "orelse", "finalbody"):  # source order
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    for part in inner:
                        if isinstance(part, (ast.ExceptHandler, ast.match_case)):
                            self._walk(part.body, path, parents)
                    self._walk([s for s in inner if isinstance(s, ast.stmt)], path, parents)

    def _either(self, value: ast.BoolOp) -> ast.expr | None:
        """The side of ``client or Client()`` that says the object's class: a name the file types (a parameter
        annotated ``client: Rehearsal | None``: the class the code relies on, the default a stand-in for it), else
        the one constructor; None when names, or constructors, say two classes (each side a name or a call)."""
        named: dict[str, ast.expr] = {}
        built: dict[str, ast.expr] = {}
        for side in value.values:
            if isinstance(side, ast.Name) and side.id in self.instances:
                named.setdefault(self.instances[side.id], side)
            elif isinstance(side, ast.Call):
                func = side.func.value if isinstance(side.func, ast.Subscript) else side.func
                qn = _constructed(self.qualname(func))
                if qn is not None and class_like(qn.rsplit(".", 1)[-1]):
                    built.setdefault(qn, side)
            elif not isinstance(side, ast.Name):
                return None
        said = named or built
        return next(iter(said.values())) if len(said) == 1 else None

    def _built_by(self, func: ast.expr) -> str | None:
        """The class a module-level factory function of this file builds (``factory_class``)."""
        fn = self._factories.get(func.id) if isinstance(func, ast.Name) and func.id not in self.imports else None
        return None if fn is None else self.factory_class(fn)

    def factory_class(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        """The class a function builds: every ``return`` of ``create_server()`` is a call of the same class
        (``return MCPServer(...)``), or a name the function binds only to such a call (``server = MCPServer(...)``;
        ``...``; ``return server``)."""
        stack: list[ast.AST] = list(fn.body)
        built: set[str | None] = set()
        returned: set[str] = set()
        bound: dict[str, set[str | None]] = {}
        while stack:
            n = stack.pop()
            if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(n, ast.Return):
                if isinstance(n.value, ast.Name):
                    returned.add(n.value.id)
                elif isinstance(n.value, ast.Call):
                    built.add(self.qualname(n.value.func))
                else:
                    return None
            elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For, ast.AsyncFor)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                value = n.value if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) else None
                single = not isinstance(n, ast.Assign) or len(n.targets) == 1
                for t in targets:
                    if isinstance(t, ast.Name):  # anything but one call of a class spoils the name
                        bound.setdefault(t.id, set()).add(
                            self.qualname(value.func) if single and isinstance(value, ast.Call) else None)
            stack.extend(ast.iter_child_nodes(n))
        for name in returned:
            if name not in bound:
                return None
            built |= bound[name]
        qn = built.pop() if len(built) == 1 else None
        return qn if qn is not None and class_like(qn.rsplit(".", 1)[-1]) else None

    def _annotated(self, args: ast.arguments) -> None:
        """A parameter annotated with a class (``def register(mcp: FastMCP)``, ``"FastMCP"``) holds an
        instance of it, as an assignment from its constructor does; an assignment keeps precedence. A type of the
        typing modules (``mcp: Any``) says nothing: the run's callers may (``_passed``)."""
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            note = arg.annotation
            if isinstance(note, ast.Constant) and isinstance(note.value, str):  # a forward reference
                try:
                    note = ast.parse(note.value, mode="eval").body
                except SyntaxError:
                    continue
            if note is None or arg.arg in self.instances:
                continue
            qn = self.qualname(_optional(note, self.qualname))
            if qn is not None and class_like(qn.rsplit(".", 1)[-1]) and qn.split(".", 1)[0] not in _UNTYPED:
                self.instances[arg.arg] = qn

    def _facts(self, key: str) -> Mapping[int | str, str] | None:
        """What the run passes to this file's ``key`` function, named from the caller's imports: the same module,
        or one whose name ends with this one's (a directory without ``__init__.py`` names it from below)."""
        own = f"{self.module}.{key}"
        if own in self.passed:
            return self.passed[own]
        if own.endswith(".__init__") and own[:-len(".__init__")] in self.passed:  # K8sHandler(mcp): its __init__
            return self.passed[own[:-len(".__init__")]]
        hits = [v for k, v in self.passed.items() if k.endswith("." + own)]
        if not hits:  # imported through the package's re-export (``from tools import register_chart_tools``)
            last = own.rsplit(".", 1)[-1]
            hits = [v for k, v in self.passed.items() if "." in k and k.rsplit(".", 1)[1] == last
                    and own.startswith(k.rsplit(".", 1)[0] + ".")]
        return hits[0] if len(hits) == 1 else None

    def _passed(self, args: ast.arguments, facts: Mapping[int | str, str], method: bool) -> None:
        """An unannotated parameter the run's callers hand an object of a known class (``tools.register(mcp)`` in
        another file, ``mcp = FastMCP(...)`` there) holds an instance of it."""
        positional = [a.arg for a in (*args.posonlyargs, *args.args)]
        if method and positional and positional[0] in ("self", "cls"):
            positional = positional[1:]
        for where, cls in facts.items():
            name = positional[where] if isinstance(where, int) and where < len(positional) else where
            if isinstance(name, str) and name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}:
                self.instances.setdefault(name, cls)

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
            if qn is None and self.star and isinstance(b, ast.Name) and b.id not in _BUILTIN_NAMES:
                qn = f"{self.star}.{b.id}"  # ``class Calculator(BaseTool)`` under ``from ...basetool import *``
            if qn is not None:
                out.append(qn)
        return out


def lookups(fn: ast.AST) -> Iterator[tuple[ast.expr, ast.expr]]:
    """(table, key) of each ``table[key]`` read and ``table.get(key, ...)`` call under ``fn``."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load):
            yield n.value, n.slice
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" and n.args:
            yield n.func.value, n.args[0]


def target_key(target: ast.AST) -> str | None:
    """``name`` or ``self.attr``: the assignment targets an instance or a tool list is followed through."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return f"self.{target.attr}"
    return None


def class_index(index: Index) -> list[tuple[str, list[str]]]:
    """(qualified class name, qualified bases) of every class the file defines, and the names it re-exports
    (``reexports.py``: resolved by ``reexports.dealias`` once the run is known)."""
    return [(f"{index.module}.{path}", index.bases(node)) for path, node in index.classes] + reexports(index)


def pending_classes(index: Index, tables: Tables, own_roots: frozenset[str]) -> bool:
    """Whether a class here derives from one this file cannot judge alone (a class of the same project, or of a
    package this file sits in below its top-level one: imported as a top-level package from a ``sys.path`` entry)."""
    local = {f"{index.module}.{path}" for path, _ in index.classes}
    inner = index.module.split(".")[1:-1]
    for _, node in index.classes:
        for base in index.bases(node):
            if base in tables.bases or base in local:
                continue
            if base.split(".")[0] in own_roots or base.split(".")[0] in inner:
                return True
    return False


def pending_decorators(index: Index, tables: Tables, own_roots: frozenset[str]) -> bool:
    """Whether a definition here is decorated by a decorator another file of the same project defines (it may be
    the project's own tool registry: ``registries.registry_decorators``, known once the run is), or a function is
    handed to a tool-decorator-named method of an object another file defines (``get_link = mcp_server.tool()(
    get_link)``, ``mcp_server`` imported: a server of the run, known once the run is)."""
    def pending(qn: str | None) -> bool:
        return qn is not None and qn.split(".")[0] in own_roots and qn not in tables.decorators \
            and not qn.startswith(index.module + ".")

    for _path, _n, node, _parents in index.defs:
        for dec in node.decorator_list:  # type: ignore[attr-defined]
            if pending(index.qualname(dec.func if isinstance(dec, ast.Call) else dec)):
                return True
    for call in index.screen.calls:  # ``audited_tool(mcp, "x")(self.x)``: a registry of the run applied by a call
        if isinstance(call.func, ast.Call) and isinstance(call.func.func, ast.Name) and len(call.args) == 1 \
                and tool_word(call.func.func.id) and pending(index.qualname(call.func.func)):
            return True
    lasts = tables.decorator_lasts()
    if index.call_names & lasts:
        for call in index.screen.calls:
            head = call.func.func if isinstance(call.func, ast.Call) else None
            if isinstance(head, ast.Attribute) and head.attr in lasts and call.args and pending(index.qualname(head)):
                return True
    return False


def helpers_of(fn: ast.AST, index: Index, cls_path: str | None) -> list[tuple[str, int, ast.AST]]:
    """The same-module functions (module level) and methods of the enclosing class that ``fn`` calls (read once per
    function and class: the rows one dispatcher runs by name, 189 branches of a ``tools/call`` answer, share them)."""
    read = index.helpers_read.get((id(fn), cls_path))
    if read is not None and read[0] is fn:
        return list(read[1])
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
    index.helpers_read[(id(fn), cls_path)] = (fn, out)
    return list(out)


def _optional(note: ast.expr, qualname: Callable[[ast.AST], str | None]) -> ast.expr:
    """The class an optional annotation names (``Client | None``, ``Optional[Client]``, ``Union[Client, None]``):
    the parameter holds an instance of it when it holds one at all."""
    if isinstance(note, ast.BinOp) and isinstance(note.op, ast.BitOr):
        sides = [s for s in (note.left, note.right) if not (isinstance(s, ast.Constant) and s.value is None)]
        return sides[0] if len(sides) == 1 else note
    if isinstance(note, ast.Subscript):
        head = qualname(note.value) or ""
        inner = note.slice.elts if isinstance(note.slice, ast.Tuple) else [note.slice]
        sides = [s for s in inner if not (isinstance(s, ast.Constant) and s.value is None)]
        if head in ("typing.Optional", "typing.Union", "typing_extensions.Optional") and len(sides) == 1:
            return sides[0]
    return note


def _constructed(qn: str | None) -> str | None:
    """The class a call builds an instance of: the class called, or the class whose alternative constructor is called
    (a ``from_*`` classmethod, by Python's convention: ``FastMCP.from_openapi(...)``, ``Tool.from_function(f)``)."""
    if qn is None:
        return None
    owner, _, last = qn.rpartition(".")
    if last.startswith("from_") and class_like(owner.rsplit(".", 1)[-1]):
        return owner
    return qn


def name_from_call(call: ast.Call, positional: bool = True) -> str | None:
    for kw in call.keywords:
        if kw.arg in _NAME_KEYWORDS:
            return literal_str(kw.value)
    return literal_str(call.args[0]) if call.args and positional else None


# the keywords that name a tool: ``name=``, openai-agents ``@function_tool(name_override=...)`` (agents/tool.py)
_NAME_KEYWORDS = frozenset({"name", "name_override"})


def tool_list_arg(call: ast.Call, qualname: str) -> ast.expr | None:
    """The argument holding the tool list of a tool-list constructor call: ``tools=``, or the keyword and position
    ``knowledge.TOOL_LIST_ARGUMENTS`` gives it (langgraph ``ToolNode([f])``, swarm ``Agent(functions=[f])``)."""
    method = kb.TOOL_LIST_METHODS.get(qualname.rsplit(".", 1)[-1])
    keyword, position = kb.TOOL_LIST_ARGUMENTS[qualname] if qualname in kb.TOOL_LIST_ARGUMENTS \
        else (method[1], method[2]) if method else ("tools", None)
    arg = next((k.value for k in call.keywords if k.arg == keyword), None)
    if arg is None and position is not None and len(call.args) > position:
        arg = call.args[position]
    return arg


def default_name(call: ast.Call, parents: tuple[ast.AST, ...]) -> str | None:
    """A tool factory's name parameter handed to the decorator (``def web_search(impl, *, name: str = "web_search"):
    @tool(name=name) ...``, lovia): the literal default of the enclosing function's parameter ``name=`` names."""
    value = next((k.value for k in call.keywords if k.arg == "name"), None)
    fn = next((p for p in reversed(parents) if isinstance(p, FUNCS)), None)
    if not isinstance(value, ast.Name) or fn is None:
        return None
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[tuple[ast.arg, ast.expr | None]] = [
        *zip(positional[len(positional) - len(args.defaults):], args.defaults),
        *zip(args.kwonlyargs, args.kw_defaults)]
    return next((literal_str(d) for a, d in defaults if a.arg == value.id and d is not None), None)


def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions, classes and lambdas nested in it."""
    stack = list(getattr(fn, "body", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def made_of(fn: ast.AST, param: str) -> set[str]:
    """Names ``fn`` binds to a call handed its function parameter alone (``timed = _timed(func)``): a wrapper a
    function of the module makes of it, registered in the function's place (``mcp.tool()(timed)``)."""
    return {t.id for a in own_nodes(fn) if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
            and isinstance(a.value.func, ast.Name) and not a.value.keywords
            and [ast.unparse(x) for x in a.value.args] == [param] for t in a.targets if isinstance(t, ast.Name)}


def direct_calls(node: ast.AST) -> Iterable[ast.Call]:
    """Calls in a body, not descending into nested definitions (they are walked on their own)."""
    out: list[ast.Call] = []
    stack = list(getattr(node, "body", [])) + list(getattr(node, "decorator_list", []))
    while stack:
        n = stack.pop()
        if isinstance(n, (*FUNCS, ast.ClassDef, ast.Lambda)):
            if isinstance(n, ast.ClassDef):
                stack.extend(n.decorator_list)
            continue
        if isinstance(n, ast.Call):
            out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    out.sort(key=lambda c: (c.lineno, c.col_offset))  # the first wrapping of a function names its row
    return out
