"""The rule base class, and the cheap ``ast`` screen every rule consults first.

A rule is one class in one file under ``rules/`` named ``tfhNNN_<name>.py``
(the flake8 plugin reads the codes from those names). It declares its
metadata as class attributes, says from the :class:`Screen` (one cheap
``ast`` walk of the file) on which lines a finding could start
(:meth:`Rule.candidate_lines`; or only whether the file can contain one,
:meth:`Rule.is_candidate`), and otherwise is a libcst
``BatchableCSTVisitor``: its ``visit_<Node>``/``leave_<Node>`` methods run in
the single traversal the engine makes for all enabled rules, and it calls
:meth:`Rule.report` with the node to flag.

Examples: ``VALID`` snippets must produce no finding; every line of an
``INVALID`` snippet that ends with ``# error: TFH201`` (several codes
comma-separated when a line has several findings) must produce exactly those
findings, and no other line may produce one.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Mapping

import libcst as cst
from libcst import BatchableCSTVisitor

from .knowledge import Knowledge, canonical
from .packages import absolute_module

if TYPE_CHECKING:
    from .config import Config
    from .names import Names


_LEAVES: frozenset[type] = frozenset(
    {ast.Name, ast.Constant}
    | {
        c
        for c in vars(ast).values()
        if isinstance(c, type) and issubclass(c, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context))
    }
)


def _last_name(func: ast.expr) -> str | None:
    """``post`` for ``requests.post`` or ``post``; None for any other callee."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


class Screen:
    """Facts about a module from one ``ast`` walk, computed lazily."""

    def __init__(self, tree: ast.AST, package: str | None = None) -> None:
        self.tree = tree
        self.package = package  # resolves relative imports

    def _from_module(self, node: ast.ImportFrom) -> str | None:
        """The absolute module a ``from`` import reads from, or None (relative, package unknown)."""
        return absolute_module(node.module, node.level, self.package)

    @cached_property
    def _nodes(self) -> tuple[list[ast.AST], list[ast.Call], list[ast.ExceptHandler], list[ast.stmt], list[ast.AST]]:
        # an explicit stack over ``_fields`` that never pushes leaves is about
        # three times faster than ``ast.walk``
        imports: list[ast.AST] = []
        calls: list[ast.Call] = []
        handlers: list[ast.ExceptHandler] = []
        tries: list[ast.stmt] = []
        binders: list[ast.AST] = []  # what can bind a name across definitions (see narrow.py)
        Import, ImportFrom, Call, Handler = ast.Import, ast.ImportFrom, ast.Call, ast.ExceptHandler
        Try = ast.Try
        TryStar = getattr(ast, "TryStar", ast.Try)
        binder_types = frozenset({ast.Assign, ast.AnnAssign, ast.withitem, ast.Global, ast.Nonlocal})
        AST, leaves = ast.AST, _LEAVES
        stack: list[ast.AST] = [self.tree]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            t = type(node)
            if t is Call:
                calls.append(node)  # type: ignore[arg-type]
            elif t is Handler:
                handlers.append(node)  # type: ignore[arg-type]
            elif t is Import or t is ImportFrom:
                imports.append(node)
                continue
            elif t is Try or t is TryStar:
                tries.append(node)  # type: ignore[arg-type]
            elif t in binder_types:
                binders.append(node)
            for name in t._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for child in value:
                        if type(child) not in leaves and isinstance(child, AST):
                            push(child)
                elif type(value) not in leaves and isinstance(value, AST):
                    push(value)
        return imports, calls, handlers, tries, binders

    @cached_property
    def imports(self) -> frozenset[str]:
        """Every dotted name imported, and each of its prefixes (relative ones start with '.')."""
        out: set[str] = set()
        for node in self._nodes[0]:
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                assert isinstance(node, ast.ImportFrom)
                resolved = self._from_module(node)
                if resolved is not None:
                    names = [f"{resolved}.{a.name}" for a in node.names] + [resolved]
                else:
                    mod = "." * node.level + (node.module or "")
                    names = [f"{mod}.{a.name}" if node.module else f"{mod}{a.name}" for a in node.names]
                    if node.module:
                        names.append(mod)
            for name in names:
                parts = name.split(".")
                for i in range(1, len(parts) + 1):
                    out.add(".".join(parts[:i]))
        return frozenset(out)

    @cached_property
    def import_roots(self) -> frozenset[str]:
        return frozenset(n.split(".")[0] for n in self.imports if n and not n.startswith("."))

    @cached_property
    def imported_locals(self) -> frozenset[str]:
        """Names that imports bind in the module."""
        out: set[str] = set()
        for node in self._nodes[0]:
            for a in node.names:  # type: ignore[attr-defined]
                out.add(a.asname or a.name.split(".")[0])
        return frozenset(out)

    @cached_property
    def imported_locals_by_root(self) -> dict[str, frozenset[str]]:
        """Top-level module -> the local names its imports bind (``send`` for ``from requests import post as send``)."""
        out: dict[str, set[str]] = {}
        for local, full in self.import_bindings:
            out.setdefault(full.split(".")[0], set()).add(local)
        return {k: frozenset(v) for k, v in out.items()}

    def calls_any(self, relevant: "Mapping[str, frozenset[str]]") -> bool:
        """Whether, for some imported module, a call names something relevant to it."""
        calls = self.call_names
        for root, local_names in self.imported_locals_by_root.items():
            names = relevant.get(root)
            if names is not None and (calls & names or calls & local_names):
                return True
        return False

    def calls_to(
        self, relevant: "Mapping[str, frozenset[str]]", qualified: "Callable[[str], bool] | None" = None
    ) -> list[ast.Call]:
        """Calls whose last name is relevant to an imported module (``post`` once ``requests`` is imported).

        A bare call of a name an import binds (``send(...)`` after ``from
        requests import post as send``) counts when the import's qualified
        name passes ``qualified`` (every such name when it is None).
        """
        wanted: set[str] = set()
        for root, local_names in self.imported_locals_by_root.items():
            names = relevant.get(root)
            if names is not None:
                wanted |= names
        for local, full in self.import_bindings:
            if full.split(".")[0] in relevant and (qualified is None or qualified(full)):
                wanted.add(local)
        return [call for call in self._nodes[1] if _last_name(call.func) in wanted]

    def timeout_calls(self, knowledge: Knowledge, kind: str) -> list[ast.Call]:
        """The calls the timeout rules look at: TFH201 (``kind="missing"``) or TFH202 (``"none"``).

        Empty when the file-level screen (:meth:`calls_any` on
        ``Knowledge.screen_names``) rules the file out; else every call of a
        known function, class, factory or method (``Knowledge.spot_names``),
        bare calls counting only through an import of a known name.
        """
        if not self.calls_any(knowledge.screen_names(kind)):
            return []
        qualified = knowledge.spot_imports(kind)
        return self.calls_to(knowledge.spot_names(kind), lambda q: canonical(q) in qualified)

    @cached_property
    def import_bindings(self) -> list[tuple[str, str]]:
        """(local name, qualified name) for every import: ``("send", "requests.post")`` (relative ones when the package is known)."""
        out: list[tuple[str, str]] = []
        for node in self._nodes[0]:
            if isinstance(node, ast.ImportFrom):
                module = self._from_module(node)
                if not module:
                    continue
                out.extend((a.asname or a.name, f"{module}.{a.name}") for a in node.names)
            else:
                assert isinstance(node, ast.Import)
                for a in node.names:
                    out.append((a.asname, a.name) if a.asname else (a.name.split(".")[0], a.name.split(".")[0]))
        return out

    @cached_property
    def call_names(self) -> frozenset[str]:
        """The last component of every callee (``post`` for ``requests.post(...)``)."""
        return frozenset(name for call in self._nodes[1] if (name := _last_name(call.func)) is not None)

    @property
    def handlers(self) -> list[ast.ExceptHandler]:
        return self._nodes[2]

    @property
    def tries(self) -> list[ast.stmt]:
        """Every ``try`` statement (``ast.Try``, and ``ast.TryStar`` where it exists)."""
        return self._nodes[3]

    @property
    def binders(self) -> list[ast.AST]:
        """Assignments, ``with`` items, ``global`` and ``nonlocal``: what can bind a name another definition reads."""
        return self._nodes[4]


@dataclass
class FileContext:
    """What a rule instance gets for one file."""

    path: str
    config: "Config"
    knowledge: Knowledge
    names: "Names"
    screen: Screen
    # per-file models the rules asked for (``Rule.models``), shared by every rule of the file
    models: dict[type, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RawFinding:
    node: cst.CSTNode
    code: str
    name: str
    message: str


class Rule(BatchableCSTVisitor):
    """Base class of every rule (see the module docstring for the contract)."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    message: ClassVar[str]
    docs: ClassVar[str]
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[str]] = []
    # Per-file collectors this rule reads (e.g. ``retries.RetryModel``): the
    # engine builds each once per file from a FileContext, runs it in the same
    # traversal right after the name resolver, and puts it in ``ctx.models``.
    models: ClassVar[tuple[type, ...]] = ()

    def __init__(self, ctx: FileContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.names = ctx.names
        self.knowledge = ctx.knowledge
        self.findings: list[RawFinding] = []

    @classmethod
    def is_candidate(cls, screen: Screen, knowledge: Knowledge) -> bool:
        """Whether this file may contain a finding (cheap; default: always).

        Used only when :meth:`candidate_lines` says ``None``.
        """
        return True

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> Collection[int] | None:
        """Lines of the ``ast`` nodes a finding would grow from; ``None``: cannot say.

        A rule that can say makes the file cheaper twice: no line means no
        candidate (as :meth:`is_candidate` returning False), and the engine
        parses with libcst only the definitions that hold a candidate line
        (every other ``def``/``class`` becomes a one-line stub, see
        ``linter/narrow.py``). The promise: every finding lies inside the
        innermost top-level or class-member definition that holds one of
        these lines (or outside every definition), and the rule needs no other
        definition to make it (module-level statements, and methods that bind
        ``self.<attr>``, are always kept for the name resolver).
        """
        return None

    def report(self, node: cst.CSTNode, message: str | None = None, **fields: Any) -> None:
        """Flag ``node``; ``message`` defaults to the class message formatted with ``fields``."""
        text = message if message is not None else self.message.format(**fields)
        self.findings.append(RawFinding(node, self.code, self.name, text))


# ---------------------------------------------------------------- call helpers


def keyword_arg(call: cst.Call, keyword: str) -> cst.Arg | None:
    """The ``keyword=`` argument of a call, if passed."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    return None


def has_star(call: cst.Call) -> bool:
    """Whether ``*args`` or ``**kwargs`` is passed (any parameter may hide in it)."""
    return any(arg.star for arg in call.args)


def positional(call: cst.Call) -> list[cst.Arg]:
    return [arg for arg in call.args if arg.keyword is None and not arg.star]


def argument(call: cst.Call, keyword: str, position: int | None) -> cst.Arg | None:
    """The argument bound to a parameter, by keyword or by position."""
    arg = keyword_arg(call, keyword)
    if arg is None and position is not None:
        pos = positional(call)
        if len(pos) > position:
            arg = pos[position]
    return arg


def is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"
