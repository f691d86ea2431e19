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
``INVALID`` snippet that ends with ``# error: TFH201`` (optionally
``TFH201:12`` for the column and a quoted message fragment; several items
comma-separated) must produce exactly those findings, and no other line may
produce one (``linter/examples.py``). The walk-through is
``docs/writing-rules.md``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace as _replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Hashable, TypeVar, cast

import libcst as cst
from libcst import BatchableCSTVisitor

from .knowledge import Knowledge, canonical
from .nodes import dotted, last_name
from .packages import absolute_module

__all__ = ["FileContext", "NodeEdit", "RawFinding", "RawFix", "Rule", "Screen"]  # rules import these (and the node helpers) from ``api``

if TYPE_CHECKING:
    from .config import Config
    from .names import Names

_T = TypeVar("_T")


_LEAVES: frozenset[type] = frozenset(
    {ast.Name, ast.Constant}
    | {
        c
        for c in vars(ast).values()
        if isinstance(c, type) and issubclass(c, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context))
    }
)


class Screen:
    """Facts about a module from one ``ast`` walk, computed lazily."""

    def __init__(self, tree: ast.AST, package: str | None = None, path: str | None = None) -> None:
        self.tree = tree
        self.package = package  # resolves relative imports
        self.path = path  # the file's path as linted (None: not known; a screen then narrows less)

    def memo(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """``build()``, computed once per file for ``key`` (for screen facts several rules share)."""
        cache = self._memo_cache
        if key not in cache:
            cache[key] = build()
        return cast(_T, cache[key])

    @cached_property
    def _memo_cache(self) -> dict[Hashable, Any]:
        return {}

    def _from_module(self, node: ast.ImportFrom) -> str | None:
        """The absolute module a ``from`` import reads from, or None (relative, package unknown)."""
        return absolute_module(node.module, node.level, self.package)

    @cached_property
    def _nodes(
        self,
    ) -> tuple[list[ast.AST], list[ast.Call], list[ast.ExceptHandler], list[ast.stmt], list[ast.AST], list[ast.AST],
               list[ast.AST]]:
        # an explicit stack over ``_fields`` that never pushes leaves is about
        # three times faster than ``ast.walk``
        imports: list[ast.AST] = []
        calls: list[ast.Call] = []
        handlers: list[ast.ExceptHandler] = []
        tries: list[ast.stmt] = []
        binders: list[ast.AST] = []  # what can bind a name across definitions (see narrow.py)
        branching: list[ast.AST] = []  # match, if, compare, dict: where ToolError handling can be (TFH5xx)
        defs: list[ast.AST] = []  # every def and async def, at any depth
        Import, ImportFrom, Call, Handler = ast.Import, ast.ImportFrom, ast.Call, ast.ExceptHandler
        Try = ast.Try
        Def, AsyncDef = ast.FunctionDef, ast.AsyncFunctionDef
        TryStar = getattr(ast, "TryStar", ast.Try)
        binder_types = frozenset({ast.Assign, ast.AnnAssign, ast.withitem, ast.Global, ast.Nonlocal})
        branching_types = frozenset({ast.If, ast.Compare, ast.Dict} | ({ast.Match} if hasattr(ast, "Match") else set()))
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
            elif t is Def or t is AsyncDef:
                defs.append(node)
            elif t in binder_types:
                binders.append(node)
            elif t in branching_types:
                branching.append(node)
            for name in t._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for child in value:
                        if type(child) not in leaves and isinstance(child, AST):
                            push(child)
                elif type(value) not in leaves and isinstance(value, AST):
                    push(value)
        return imports, calls, handlers, tries, binders, branching, defs

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

    def calls_of(self, qualified: Collection[str]) -> list[ast.Call]:
        """Calls that may call one of ``qualified`` (e.g. ``{"time.sleep"}``), resolved as the rules resolve them.

        A callee whose first name an import binds is resolved through it
        (``import time as t; t.sleep()``, ``from time import sleep; sleep()``)
        and kept only if it names one of ``qualified``: ``from time import
        time; time()`` is not a call of ``time.sleep``. A callee the screen
        cannot resolve (a local alias, an object's method such as
        ``session.get`` for ``requests.Session.get``, a rebound import) is kept
        when its last name matches, so the screen never hides a call that
        ``self.names.qualname`` would resolve. Empty when the file imports
        none of the modules (a dotless name is a builtin: ``{"open"}`` keeps
        bare ``open(...)`` calls no import binds). Sorted by position.
        """
        wanted = {canonical(q) for q in qualified}
        if not wanted:
            return []
        roots = {q.split(".", 1)[0] for q in wanted if "." in q}
        builtins = {q for q in wanted if "." not in q}
        if not builtins and not roots & self._import_roots_bound:
            return []
        resolvable = bool(roots & self._import_roots_bound)
        imports, rebound = self._import_map, self._rebound
        by_last = self._calls_by_last
        out: list[ast.Call] = []
        lasts = {q.rsplit(".", 1)[-1] for q in wanted}
        lasts.update(
            local for local, fulls in imports.items() if any(canonical(full) in wanted for full in fulls)
        )  # `from time import sleep as nap; nap(1)`
        for last in lasts:
            for call in by_last.get(last, ()):
                name = dotted(call.func)
                if name is not None:
                    root, _, rest = name.partition(".")
                    fulls = imports.get(root)
                    if fulls and root not in rebound:
                        if any(canonical(f"{full}.{rest}" if rest else full) in wanted for full in fulls):
                            out.append(call)
                        continue  # resolved through an import, to something else
                    if name in builtins:
                        out.append(call)  # a builtin no import rebinds
                        continue
                if resolvable:
                    out.append(call)  # an alias or an object's method: the rule resolves it
        out.sort(key=lambda c: (c.lineno, c.col_offset))
        return out

    @cached_property
    def _calls_by_last(self) -> dict[str, list[ast.Call]]:
        out: dict[str, list[ast.Call]] = {}
        for call in self._nodes[1]:
            name = last_name(call.func)
            if name is not None:
                out.setdefault(name, []).append(call)
        return out

    @cached_property
    def _import_map(self) -> dict[str, frozenset[str]]:
        """Local name -> every qualified name an import binds to it."""
        out: dict[str, set[str]] = {}
        for local, full in self.import_bindings:
            out.setdefault(local, set()).add(full)
        return {k: frozenset(v) for k, v in out.items()}

    @cached_property
    def _import_roots_bound(self) -> frozenset[str]:
        return frozenset(full.split(".", 1)[0] for _, full in self.import_bindings)

    @cached_property
    def _rebound(self) -> frozenset[str]:
        """Names some assignment or ``with ... as`` binds (an import so rebound may mean something else).

        (A walrus rebinding an imported module's name is not seen.)
        """
        out: set[str] = set()
        for node in self._nodes[4]:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                targets = [node.optional_vars]
            for t in targets:
                out.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
        return frozenset(out)

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
        return frozenset(self._calls_by_last)

    @property
    def calls(self) -> list[ast.Call]:
        """Every call in the file (for a rule that needs more than :meth:`calls_of`)."""
        return self._nodes[1]

    @property
    def handlers(self) -> list[ast.ExceptHandler]:
        return self._nodes[2]

    @property
    def tries(self) -> list[ast.stmt]:
        """Every ``try`` statement (``ast.Try``, and ``ast.TryStar`` where it exists)."""
        return self._nodes[3]

    @property
    def defs(self) -> list[ast.AST]:
        """Every ``def`` and ``async def`` of the file, at any depth."""
        return self._nodes[6]

    @property
    def binders(self) -> list[ast.AST]:
        """Assignments, ``with`` items, ``global`` and ``nonlocal``: what can bind a name another definition reads."""
        return self._nodes[4]

    @property
    def branching(self) -> list[ast.AST]:
        """Every ``match`` statement, ``if`` statement, comparison and dict display, in walk order."""
        return self._nodes[5]


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
    # the parsed module (narrowed: definitions without candidates are stubs), for fixes that edit imports
    module: cst.Module | None = None


@dataclass(frozen=True)
class NodeEdit:
    """One edit of a fix, said in nodes; the engine turns it into a positioned ``findings.Edit``.

    ``where``: ``"replace"`` the node's text with ``content``; ``"line_before"``
    inserts ``content`` at the start of the node's first line, ``"line_after"``
    at the start of the line after its last one (whole lines: ``content`` ends
    with a line break). ``content`` is a replacement node (rendered with the
    module's line ending and indentation), text, or a function of the
    indentation of the node's first line that returns text (``"\n"`` in text
    becomes the module's line ending).
    """

    node: cst.CSTNode
    content: "cst.CSTNode | str | Callable[[str], str]"
    where: str = "replace"


@dataclass(frozen=True)
class RawFix:
    """A rule's fix for one finding: a message and edits (``linter/fixes.py`` has the helpers)."""

    message: str
    edits: tuple[NodeEdit, ...]
    #: "safe" or "unsafe" (``findings.Fix.applicability``); None: the rule's ``fix_applicability``
    applicability: str | None = None


@dataclass(frozen=True)
class RawFinding:
    node: cst.CSTNode
    code: str
    name: str
    message: str
    fix: RawFix | None = None


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
    #: The applicability of this rule's fixes, as ruff labels them: "unsafe" (the default) when applying
    #: one changes what the program does at run time, "safe" when it keeps the behaviour. ``--fix``
    #: applies safe fixes only; ``--unsafe-fixes`` (config ``unsafe-fixes``) the unsafe ones too.
    fix_applicability: ClassVar[str] = "unsafe"
    #: Whether the rule runs in test modules (``test-modules``: ``tests/`` directories, ``conftest.py``; see
    #: ``linter/testmodules.py``). ``False`` for a rule about what code does against the world in production
    #: (retries, timeouts, what a model reads): a test runs against fakes or a harness, under its runner's time
    #: limit, and what it returns reaches an assertion. The rule's docs say so (``catalogue.py``).
    applies_in_tests: ClassVar[bool] = True
    #: s53: the code of a rule whose traversal also makes this rule's findings (TFH203, split from TFH201 by the
    #: evidence a finding rests on, reads the same calls): when both run on a file, the engine hands this rule's
    #: instance to that one's :meth:`ride` and, if it takes it, does not walk it; its findings are still its own.
    shares_pass_of: ClassVar[str | None] = None

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

    def ride(self, rider: "Rule") -> bool:
        """Take ``rider`` (a rule whose ``shares_pass_of`` names this one) into this traversal: this rule then
        reports ``rider``'s findings through ``rider.report`` as it finds them, and the engine does not walk
        ``rider``. False (the default): ``rider`` walks on its own."""
        return False

    def report(
        self, node: cst.CSTNode, message: str | None = None, *, autofix: RawFix | None = None, **fields: Any
    ) -> None:
        """Flag ``node``; ``message`` defaults to the class message formatted with ``fields``.

        ``autofix``: the repair, when there is one obvious one (``smullyan lint --fix``).
        """
        text = message if message is not None else self.message.format(**fields)
        if autofix is not None and autofix.applicability is None:
            autofix = _replace(autofix, applicability=self.fix_applicability)
        self.findings.append(RawFinding(node, self.code, self.name, text, autofix))
