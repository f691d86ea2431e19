"""The engine: read -> screen -> parse -> rules -> findings.

1. Decide which rules are enabled for the path (config select/ignore/per-file-ignores; in a test
   module, ``test-modules``, only the rules whose class says ``applies_in_tests``).
2. Screen with ``ast`` (or the tree flake8 hands over): each enabled rule says
   which lines hold a candidate (or only whether the file can contain a
   finding). No candidate: done, no libcst.
3. Narrow: every ``def``/``class`` that holds no candidate line becomes a
   one-line stub (``narrow.py``), so libcst parses only what can hold a finding.
4. Parse once with libcst; run the name resolver and every candidate rule in
   ONE traversal (our own batched dispatch, so that a rule that raises is
   switched off for this file and reported as TFH002 while the others go on).
5. Only when something was reported, compute positions (one extra pass).
6. Apply ``# noqa`` and sort by (line, column, code).

Steps 2-3 are :func:`_plan`, 4 :func:`_parse` then :func:`_walk`, 5
:func:`_assemble` (positions are ``positions.py``); the source is decoded (once, lazily) by
``source.py``. :func:`lint_source` never raises.
"""

from __future__ import annotations

import ast
import gc
import sys
import warnings
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Protocol, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper

from .config import Config
from .findings import Finding
from .placing import resolve_fixes
from .imports_disk import remember
from .knowledge import Knowledge
from .names import Names
from .narrow import narrow
from .nodes import children as _children
from .packages import package_of
from .positions import Span, contains, find_positions
from . import noqa
from .registry import PSEUDO_RULES, enabled_rules
from .rule import FileContext, RawFinding, Rule, Screen
from .source import Text

PARSE_ERROR = "TFH001"
INTERNAL_ERROR = "TFH002"
_RECURSION_LIMIT = 10_000

VisitorFn = Callable[[cst.CSTNode], Any]


class Observer(Protocol):
    """Something that rides along one file's lint in the same parse and traversal (``smullyan tools``).

    ``region`` says which lines of the file it needs parsed (None: nothing of
    interest, the file is done without libcst and without rules); only the
    rules with a candidate line in that region run. ``visitor`` is built like a
    model (it may read ``ctx.models``, built from ``models``) and dispatched
    right after them.
    """

    models: tuple[type, ...]

    def region(self, screen: Screen, knowledge: Knowledge) -> Collection[int] | None: ...

    def visitor(self, ctx: FileContext) -> object: ...


def _pseudo(path: str, code: str, line: int, column: int, message: str) -> Finding:
    name = PSEUDO_RULES[code][0]
    return Finding(path, max(line, 1), max(column, 1), max(line, 1), max(column, 1) + 1, code, name, message)


class _Dispatch:
    """Runs many visitors in one traversal; a visitor that raises is switched off."""

    def __init__(self, owners: Sequence[tuple[str, object]], riders: dict[str, list[str]] | None = None) -> None:
        self.visit_table: dict[str, list[tuple[int, VisitorFn]]] = {}
        self.leave_table: dict[str, list[tuple[int, VisitorFn]]] = {}
        self.names = [name for name, _ in owners]
        # s53: the rules an owner's traversal reports for (``Rule.ride``): a crash of that owner stops them too
        self.riders = riders or {}
        self.dead: set[int] = set()
        self.crashes: list[tuple[str, cst.CSTNode, BaseException]] = []
        self.top: int | None = None  # index of the module-level statement being walked
        self.crash_tops: list[int | None] = []
        for index, (_, owner) in enumerate(owners):
            for attr, fn in _methods(owner):
                table = self.visit_table if attr.startswith("visit_") else self.leave_table
                table.setdefault(attr.split("_", 1)[1], []).append((index, fn))
        # the resolver (owner 0) binds on leave after the rules have seen the node
        for fns in self.leave_table.values():
            fns.sort(key=lambda item: (item[0] == 0, item[0]))

    def _run(self, fns: list[tuple[int, VisitorFn]] | None, node: cst.CSTNode) -> None:
        if not fns:
            return
        for index, fn in fns:
            if index in self.dead:
                continue
            try:
                fn(node)
            except Exception as exc:  # a rule bug must not lose other findings
                self.dead.add(index)
                for name in (self.names[index], *self.riders.get(self.names[index], ())):
                    self.crashes.append((name, node, exc))
                    self.crash_tops.append(self.top)

    def walk_module(self, module: cst.Module, sinks: Sequence[list[RawFinding]]) -> dict[int, int]:
        """Walk a module; return id(raw finding) -> index of its module-level statement."""
        tops: dict[int, int] = {}
        seen = [len(sink) for sink in sinks]
        self._run(self.visit_table.get("Module"), module)
        for i, stmt in enumerate(module.body):
            self.top = i
            self.walk(stmt)
            for k, sink in enumerate(sinks):
                for raw in sink[seen[k]:]:
                    tops[id(raw)] = i
                seen[k] = len(sink)
        self.top = None
        self._run(self.leave_table.get("Module"), module)
        # findings reported when the module is left (rules that decide once
        # everything is seen) belong to the statement that holds their node
        for k, sink in enumerate(sinks):
            for raw in sink[seen[k]:]:
                for i, stmt in enumerate(module.body):
                    if contains(stmt, raw.node):
                        tops[id(raw)] = i
                        break
        return tops

    def walk(self, node: cst.CSTNode) -> None:
        """Pre-order traversal over :func:`_children` (fields, not libcst's ``visit``)."""
        cls = type(node)
        name = cls.__name__
        fns = self.visit_table.get(name)
        if fns:
            self._run(fns, node)
        for child in _children(node):
            self.walk(child)
        fns = self.leave_table.get(name)
        if fns:
            self._run(fns, node)


_METHOD_CACHE: dict[type, list[str]] = {}


def _methods(owner: object) -> Iterable[tuple[str, VisitorFn]]:
    cls = type(owner)
    names = _METHOD_CACHE.get(cls)
    if names is None:
        names = []
        for attr in dir(cls):
            if not (attr.startswith("visit_") or attr.startswith("leave_")):
                continue
            fn = getattr(cls, attr, None)
            if callable(fn) and not getattr(fn, "_is_no_op", False):
                names.append(attr)
        _METHOD_CACHE[cls] = names
    return [(attr, getattr(owner, attr)) for attr in names]


def _no_validation(self: cst.CSTNode) -> None:
    return None


def _parse_module(text: str | bytes) -> cst.Module:
    """``libcst.parse_module`` without libcst's check of every node it builds (``CSTNode.__post_init__`` ->
    ``_validate``: about a seventh of the parse on the agent corpus; libcst's own comment there suggests skipping
    it on a parse). The parser builds only what its grammar accepts; the check guards trees built by hand (a
    fix's nodes are built afterwards and checked as ever). Restored even if the parse fails."""
    base = cst.CSTNode
    check = base.__dict__["__post_init__"]
    setattr(base, "__post_init__", _no_validation)
    try:
        return cst.parse_module(text)
    finally:
        setattr(base, "__post_init__", check)


def _parse_without_unreadable(
    text: str, tree: ast.Module, spots: "set[int] | None", binders: "list[ast.AST]", bad_line: int
) -> cst.Module | None:
    """Parse ``text`` with every definition that libcst cannot read stubbed, or None.

    ``ast`` accepted the file; libcst's grammar misses a few forms (``(x): int``
    in a function). The definition (module-level or a class member, the
    levels :func:`narrow` stubs) holding the line libcst stopped at is
    stubbed, and again for the next such line, a few times; findings in
    those definitions are lost, the rest of the file is linted.
    """
    n = text.count("\n") + 1
    wanted = set(range(1, n + 1)) if spots is None else set(spots)
    for _ in range(8):
        span = _narrowable_span(tree.body, bad_line)
        if span is None:
            return None
        wanted -= set(range(span[0], span[1] + 1))
        # its ``global`` statements and attribute bindings go with it: libcst cannot read them anyway
        binders = [b for b in binders if not span[0] <= getattr(b, "lineno", 0) <= span[1]]
        narrowed = narrow(text, tree, wanted, binders)
        if narrowed is None:
            return None
        try:
            return _parse_module(narrowed)
        except cst.ParserSyntaxError as exc:
            if span[0] <= exc.raw_line <= span[1]:
                return None  # stubbing did not remove it (kept for a binder)
            bad_line = exc.raw_line
        except Exception:
            return None
    return None


def _narrowable_span(body: "list[ast.stmt]", line: int) -> tuple[int, int] | None:
    """(first, last) line of the module-level definition, or class member, holding ``line``."""
    for stmt in body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        start = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
        end = stmt.end_lineno or stmt.lineno
        if start <= line <= end:
            if isinstance(stmt, ast.ClassDef):
                inner = _narrowable_span(stmt.body, line)
                if inner is not None:
                    return inner
            return (start, end)
    return None


def _syntax_error_finding(path: str, exc: BaseException) -> Finding:
    line = getattr(exc, "lineno", None) or 1
    col = getattr(exc, "offset", None) or 1
    msg = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
    if isinstance(exc, RecursionError):
        msg = "too deeply nested"
    elif isinstance(exc, ValueError):  # e.g. source code string cannot contain null bytes
        msg = str(exc)
    return _pseudo(path, PARSE_ERROR, int(line), int(col), f"could not parse: {msg} (line {line})")


def lint_source(
    source: bytes | str,
    path: str,
    config: Config,
    *,
    apply_noqa: bool = True,
    tree: ast.Module | None = None,
    codes: frozenset[str] | None = None,
    rules: Sequence[type[Rule]] | None = None,
    observer: Observer | None = None,
) -> list[Finding]:
    """Lint one module's source; never raises.

    ``codes`` (optional) narrows the rules further, e.g. to what flake8 selected.
    ``rules`` (optional) replaces the registry's rules (a rule under test that
    is not in ``rules/``); the configuration still enables or disables them.
    ``observer`` (optional): see :class:`Observer`; only the rules that can
    report in its region run.
    """
    text = Text(source)  # decoded at most once for this lint (most files never are)
    try:
        findings = _lint(source, text, path, config, tree, codes, rules, observer)
    except Exception as exc:  # the engine itself failed: report, do not raise
        findings = [
            _pseudo(path, INTERNAL_ERROR, 1, 1, f"internal error in engine: {type(exc).__name__}: {exc}")
        ]
    findings = [f for f in findings if f.code not in PSEUDO_RULES or config.is_enabled(f.code, path)]
    # suppression comments (noqa.py): inline ones only when flake8 does not apply them itself
    findings = noqa.apply_to_source(findings, text, path, config, inline=apply_noqa, codes=codes)
    findings.sort(key=lambda f: (f.line, f.column, f.code, f.end_line, f.end_column, f.message))
    return findings


def _lint(
    source: bytes | str,
    text: Text,
    path: str,
    config: Config,
    tree: ast.Module | None,
    codes: frozenset[str] | None,
    only: Sequence[type[Rule]] | None = None,
    observer: Observer | None = None,
) -> list[Finding]:
    pool = enabled_rules(config, path) if only is None else [r for r in only if config.is_enabled(r.code, path)]
    if pool and config.is_test_module(path):  # the rules about production behaviour say so (``testmodules.py``)
        pool = [r for r in pool if r.applies_in_tests]
    rules = [r for r in pool if codes is None or r.code in codes]
    # With no rule enabled, a file is still parsed when TFH001 itself is selected.
    if not rules and observer is None and not (config.is_enabled(PARSE_ERROR, path) and (codes is None or PARSE_ERROR in codes)):
        return []
    old_limit = sys.getrecursionlimit()
    if old_limit < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    # libcst allocates hundreds of thousands of acyclic nodes per file; the cycle
    # collector's passes over them (and over flake8's heap, in the plugin) cost
    # ~15% and find nothing. Trees are freed by reference counting either way.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _lint_rules(source, text, path, config, tree, rules, observer)
    finally:
        if collecting:
            gc.enable()
        if old_limit < _RECURSION_LIMIT:
            sys.setrecursionlimit(old_limit)


def _lint_rules(
    source: bytes | str,
    text: Text,
    path: str,
    config: Config,
    tree: ast.Module | None,
    rules: list[type[Rule]],
    observer: Observer | None = None,
) -> list[Finding]:
    """One file through the four steps: plan (the screen), parse, walk (the rules), assemble (the findings)."""
    knowledge = config.knowledge()
    tree, ast_error = _ast_tree(source, path, tree)
    try:
        plan = _plan(text, path, tree, ast_error, rules, observer, knowledge)
        if plan is None:
            return []
        parsed = _parse(source, text, path, plan)
        if not isinstance(parsed, cst.Module):
            return parsed
        walked = _walk(path, config, knowledge, plan, parsed, observer)
        try:
            return _assemble(path, text, parsed, plan.tree, walked)
        finally:
            # each model holds the file's context, whose ``models`` holds the models: a cycle that would keep the
            # whole tree (libcst nodes, the resolver, the screen) alive for the cycle collector. Emptied here, the
            # file's objects are freed by reference counting when the last finding is built.
            walked.models.clear()
    finally:
        if tree is not None:
            remember(path, source, tree)  # s56: a project question asked later does not parse this file again


@dataclass
class _Plan:
    """What the screen decided for one file: the candidate rules, and the text to parse."""

    tree: ast.Module | None  # None: ``ast`` could not parse the file (newer syntax); every rule is a candidate
    ast_error: BaseException | None
    package: str | None
    screen: Screen
    candidates: list[type[Rule]]
    spots: set[int] | None  # the candidate lines (None: a rule could not say; every definition is kept)
    narrowed: str | None  # the file with the definitions that hold no candidate stubbed out


def _ast_tree(source: bytes | str, path: str, tree: ast.Module | None) -> tuple[ast.Module | None, BaseException | None]:
    """The file's ``ast`` tree (the one given, flake8's, or parsed here), or None and why ``ast`` refused it."""
    if tree is not None:
        return tree, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes etc.
            return ast.parse(source, filename=path), None
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        # Newer syntax than the running Python (PEP 695 on 3.11): libcst may
        # still parse it; then every enabled rule runs without the screen.
        return None, exc


def _plan(
    text: Text,
    path: str,
    tree: ast.Module | None,
    ast_error: BaseException | None,
    rules: list[type[Rule]],
    observer: Observer | None,
    knowledge: Knowledge,
) -> _Plan | None:
    """Screen the file with ``ast``: which rules can report where; None when none can (no libcst then)."""
    narrowed: str | None = None
    package = package_of(path)
    spots: set[int] | None = set()
    if tree is not None:
        screen = Screen(tree, package, path)
        candidates: list[type[Rule]] = []
        region: set[int] | None = None
        if observer is not None:
            wanted = observer.region(screen, knowledge)
            if wanted is None:
                return None
            region = set(wanted)
            spots = set(region)
        for rule in rules:
            lines = rule.candidate_lines(screen, knowledge)
            if lines is None:
                if rule.is_candidate(screen, knowledge):
                    candidates.append(rule)
                    spots = None  # this rule cannot say where: parse every definition
            elif lines and (region is None or not region.isdisjoint(lines)):
                candidates.append(rule)
                if spots is not None:
                    spots.update(lines)
        if not candidates and observer is None:
            return None
        if spots:
            narrowed = narrow(text.get(), tree, spots, screen.binders)
    else:
        if observer is not None:
            return None  # it reads the ``ast`` screen; the file is newer Python than this one
        screen = Screen(ast.Module(body=[], type_ignores=[]), package)
        candidates = rules
    return _Plan(tree, ast_error, package, screen, candidates, spots, narrowed)


def _parse(source: bytes | str, text: Text, path: str, plan: _Plan) -> cst.Module | list[Finding]:
    """Parse once with libcst (the narrowed text when there is one); a file that does not parse is a TFH001."""
    module: cst.Module | None = None
    if plan.narrowed is not None:
        try:
            module = _parse_module(plan.narrowed)
        except Exception:  # parse the file as it is, and report what that says
            module = None
    try:
        if module is None:
            module = _parse_module(source)
    except cst.ParserSyntaxError as exc:
        if plan.ast_error is not None:
            return [_syntax_error_finding(path, plan.ast_error)]
        if plan.tree is not None:
            # Python accepts it, libcst does not (``(x): int`` in a function): lint the file
            # without the definitions libcst cannot read rather than call valid code unparseable
            module = _parse_without_unreadable(text.get(), plan.tree, plan.spots, plan.screen.binders, exc.raw_line)
        if module is None:
            return [
                _pseudo(
                    path,
                    PARSE_ERROR,
                    exc.raw_line,
                    exc.raw_column + 1,
                    f"could not parse: {exc.message} (line {exc.raw_line})",
                )
            ]
    except (RecursionError, MemoryError, ValueError, SyntaxError, LookupError) as exc:
        return [_syntax_error_finding(path, plan.ast_error or exc)]
    return module


@dataclass
class _Walked:
    """What one traversal left: the rules' instances (their findings), the crashes, each finding's statement."""

    instances: list[Rule]
    dispatch: _Dispatch
    tops: dict[int, int]  # id(raw finding) -> index of its module-level statement
    wrapper: MetadataWrapper | None
    out: list[Finding]  # the TFH002 findings of models and rules that could not be built
    models: dict[type, Any]  # the file's models (``FileContext.models``), emptied once the findings are built


def _walk(
    path: str,
    config: Config,
    knowledge: Knowledge,
    plan: _Plan,
    module: cst.Module,
    observer: Observer | None,
) -> _Walked:
    """Build the resolver, the models and the candidate rules, and run them all in one traversal."""
    names = Names(module, plan.package, config.clients)
    instances: list[Rule] = []
    owners: list[tuple[str, object]] = [("name-resolution", names)]
    out: list[Finding] = []
    models: dict[type, Any] = {}
    screen = plan.screen
    wanted_models = [m for rule_cls in plan.candidates for m in rule_cls.models]
    if observer is not None:
        wanted_models[:0] = observer.models
    for model_cls in wanted_models:
        if model_cls not in models:
            try:
                models[model_cls] = model_cls(FileContext(path, config, knowledge, names, screen, models, module))
            except Exception as exc:
                out.append(_pseudo(path, INTERNAL_ERROR, 1, 1, f"internal error in {model_cls.__name__}: {type(exc).__name__}: {exc}"))
                continue
            owners.append((model_cls.__name__, models[model_cls]))
    if observer is not None and all(m in models for m in observer.models):
        try:
            owners.append(("tools", observer.visitor(FileContext(path, config, knowledge, names, screen, models, module))))
        except Exception as exc:
            out.append(_pseudo(path, INTERNAL_ERROR, 1, 1, f"internal error in tools: {type(exc).__name__}: {exc}"))
    for rule_cls in plan.candidates:
        if any(m not in models for m in rule_cls.models):
            continue  # its model failed to build (reported above)
        try:
            ctx = FileContext(path, config, knowledge, names, screen, models, module)
            inst = rule_cls(ctx)
        except Exception as exc:
            out.append(
                _pseudo(path, INTERNAL_ERROR, 1, 1, f"internal error in {rule_cls.name}: {type(exc).__name__}: {exc}")
            )
            continue
        instances.append(inst)
    # s53: a rule another candidate's traversal also reports for (``Rule.shares_pass_of``, TFH203 in TFH201's pass)
    # is not walked: one pass makes both rules' findings, each in its own instance's list
    by_code = {inst.code: inst for inst in instances}
    riders: dict[str, list[str]] = {}
    for inst in instances:
        host = by_code.get(inst.shares_pass_of) if inst.shares_pass_of is not None else None
        if host is not None and host is not inst and host.shares_pass_of is None and host.ride(inst):
            riders.setdefault(host.name, []).append(inst.name)
        else:
            owners.append((inst.name, inst))

    wrapper: MetadataWrapper | None = None
    providers = {p for inst in instances for p in inst.get_inherited_dependencies()}
    dispatch = _Dispatch(owners, riders)
    tops: dict[int, int] = {}
    with ExitStack() as stack:
        if providers:
            # one wrapper per file; it caches, so each provider is computed once
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
            for inst in instances:
                stack.enter_context(inst.resolve(wrapper))
        try:
            tops = dispatch.walk_module(module, [inst.findings for inst in instances])
        except RecursionError:
            out.append(_pseudo(path, INTERNAL_ERROR, 1, 1, "internal error in engine: module too deeply nested"))
    return _Walked(instances, dispatch, tops, wrapper, out, models)


def _assemble(path: str, text: Text, module: cst.Module, tree: ast.Module | None, walked: _Walked) -> list[Finding]:
    """The findings: positions (computed only when something was reported) and fixes of what the rules reported."""
    out, dispatch, tops = walked.out, walked.dispatch, walked.tops
    raw: list[RawFinding] = [f for inst in walked.instances for f in inst.findings]
    if not raw and not dispatch.crashes:
        return out  # noqa: TFH401  a TFH002 finding carries the crash text to the user by design
    wanted: list[tuple[cst.CSTNode, int | None]] = [(r.node, tops.get(id(r))) for r in raw]
    wanted += [(node, top) for (_, node, _), top in zip(dispatch.crashes, dispatch.crash_tops)]
    fixed = [r for r in raw if r.fix is not None]
    fix_tops: dict[cst.CSTNode, int | None] = {}
    for r in fixed:
        assert r.fix is not None
        own = tops.get(id(r))
        for e in r.fix.edits:
            # a fix's node lies in its finding's statement, or is a module-level statement (an import)
            if own is not None and contains(module.body[own], e.node):
                fix_tops[e.node] = own
            else:
                fix_tops[e.node] = next((i for i, stmt in enumerate(module.body) if contains(stmt, e.node)), None)
            wanted.append((e.node, fix_tops[e.node]))
    positions = find_positions(module, tree, wanted, walked.wrapper)
    fixes = resolve_fixes(module, fixed, text, positions, fix_tops) if fixed else {}
    for r in raw:
        line, col, end_line, end_col = positions.get(r.node, (1, 0, 1, 0))
        out.append(Finding(path, line, col + 1, end_line, end_col + 1, r.code, r.name, r.message, fixes.get(id(r))))
    for name, node, error in dispatch.crashes:
        line, col, _, _ = positions.get(node, (1, 0, 1, 0))
        out.append(
            _pseudo(path, INTERNAL_ERROR, line, col + 1, f"internal error in {name}: {type(error).__name__}: {error}")
        )
    return out  # noqa: TFH401  a TFH002 finding carries the crash text to the user by design


def lint_path(path: Path, config: Config, *, apply_noqa: bool = True) -> list[Finding]:
    """Read a file's bytes and lint them; an unreadable file is a TFH001 finding."""
    display = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return unreadable(display, exc, config)
    return lint_source(data, display, config, apply_noqa=apply_noqa)


def unreadable(display: str, exc: OSError, config: Config) -> list[Finding]:
    """The TFH001 finding of a file that cannot be read (a parse error is reported whatever is selected)."""
    finding = _pseudo(display, PARSE_ERROR, 1, 1, f"could not parse: cannot read file: {exc.strerror or exc}")
    return [finding] if config.is_enabled(PARSE_ERROR, display) else []
