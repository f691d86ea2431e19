"""The engine: read -> screen -> parse -> rules -> findings.

1. Decide which rules are enabled for the path (config select/ignore/per-file-ignores).
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

:func:`lint_source` never raises.
"""

from __future__ import annotations

import ast
import gc
import io
import re
import sys
import tokenize
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Protocol, Sequence

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import MetadataWrapper, PositionProvider

from .config import Config
from .findings import Edit, Finding, Fix
from .knowledge import Knowledge
from .names import Names
from .narrow import narrow
from .nodes import children as _children
from .packages import package_of
from . import noqa
from .registry import PSEUDO_RULES, enabled_rules
from .rule import FileContext, RawFinding, Rule, Screen

PARSE_ERROR = "TFH001"
INTERNAL_ERROR = "TFH002"
_RECURSION_LIMIT = 10_000
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what ends a line for Python and libcst

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


def decode(source: bytes | str) -> str:
    """Source text as Python reads it: PEP 263 cookie or BOM, else UTF-8; BOM removed."""
    if isinstance(source, str):
        return source[1:] if source.startswith("\ufeff") else source
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        text = source.decode(encoding, errors="replace")
    except LookupError:
        text = source.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def _pseudo(path: str, code: str, line: int, column: int, message: str) -> Finding:
    name = PSEUDO_RULES[code][0]
    return Finding(path, max(line, 1), max(column, 1), max(line, 1), max(column, 1) + 1, code, name, message)


class _Dispatch:
    """Runs many visitors in one traversal; a visitor that raises is switched off."""

    def __init__(self, owners: Sequence[tuple[str, object]]) -> None:
        self.visit_table: dict[str, list[tuple[int, VisitorFn]]] = {}
        self.leave_table: dict[str, list[tuple[int, VisitorFn]]] = {}
        self.names = [name for name, _ in owners]
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
                self.crashes.append((self.names[index], node, exc))
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
                    if _contains(stmt, raw.node):
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
            return cst.parse_module(narrowed)
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
    try:
        findings = _lint(source, path, config, tree, codes, rules, observer)
    except Exception as exc:  # the engine itself failed: report, do not raise
        findings = [
            _pseudo(path, INTERNAL_ERROR, 1, 1, f"internal error in engine: {type(exc).__name__}: {exc}")
        ]
    findings = [f for f in findings if f.code not in PSEUDO_RULES or config.is_enabled(f.code, path)]
    # suppression comments (noqa.py): inline ones only when flake8 does not apply them itself
    findings = noqa.apply_to_source(findings, source, path, config, inline=apply_noqa, codes=codes)
    findings.sort(key=lambda f: (f.line, f.column, f.code, f.end_line, f.end_column, f.message))
    return findings


def _lint(
    source: bytes | str,
    path: str,
    config: Config,
    tree: ast.Module | None,
    codes: frozenset[str] | None,
    only: Sequence[type[Rule]] | None = None,
    observer: Observer | None = None,
) -> list[Finding]:
    pool = enabled_rules(config, path) if only is None else [r for r in only if config.is_enabled(r.code, path)]
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
        return _lint_rules(source, path, config, tree, rules, observer)
    finally:
        if collecting:
            gc.enable()
        if old_limit < _RECURSION_LIMIT:
            sys.setrecursionlimit(old_limit)


def _lint_rules(
    source: bytes | str,
    path: str,
    config: Config,
    tree: ast.Module | None,
    rules: list[type[Rule]],
    observer: Observer | None = None,
) -> list[Finding]:
    knowledge = config.knowledge()
    ast_error: BaseException | None = None
    if tree is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes etc.
                tree = ast.parse(source, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            # Newer syntax than the running Python (PEP 695 on 3.11): libcst may
            # still parse it; then every enabled rule runs without the screen.
            ast_error = exc
    narrowed: str | None = None
    package = package_of(path)
    if tree is not None:
        screen = Screen(tree, package)
        candidates: list[type[Rule]] = []
        spots: set[int] | None = set()
        region: set[int] | None = None
        if observer is not None:
            wanted = observer.region(screen, knowledge)
            if wanted is None:
                return []
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
            return []
        if spots:
            narrowed = narrow(decode(source), tree, spots, screen.binders)
    else:
        if observer is not None:
            return []  # it reads the ``ast`` screen; the file is newer Python than this one
        screen = Screen(ast.Module(body=[], type_ignores=[]), package)
        candidates = rules

    module: cst.Module | None = None
    if narrowed is not None:
        try:
            module = cst.parse_module(narrowed)
        except Exception:  # parse the file as it is, and report what that says
            module = None
    try:
        if module is None:
            module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        if ast_error is not None:
            return [_syntax_error_finding(path, ast_error)]
        if tree is not None:
            # Python accepts it, libcst does not (``(x): int`` in a function): lint the file
            # without the definitions libcst cannot read rather than call valid code unparseable
            module = _parse_without_unreadable(decode(source), tree, spots, screen.binders, exc.raw_line)
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
        return [_syntax_error_finding(path, ast_error or exc)]

    names = Names(module, package)
    instances: list[Rule] = []
    owners: list[tuple[str, object]] = [("name-resolution", names)]
    out: list[Finding] = []
    models: dict[type, Any] = {}
    wanted_models = [m for rule_cls in candidates for m in rule_cls.models]
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
    for rule_cls in candidates:
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
        owners.append((rule_cls.name, inst))

    wrapper: MetadataWrapper | None = None
    providers = {p for inst in instances for p in inst.get_inherited_dependencies()}
    dispatch = _Dispatch(owners)
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

    raw: list[RawFinding] = [f for inst in instances for f in inst.findings]
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
            if own is not None and _contains(module.body[own], e.node):
                fix_tops[e.node] = own
            else:
                fix_tops[e.node] = next((i for i, stmt in enumerate(module.body) if _contains(stmt, e.node)), None)
            wanted.append((e.node, fix_tops[e.node]))
    positions = _positions(module, tree, wanted, wrapper)
    fixes = _resolve_fixes(module, fixed, source, positions, fix_tops) if fixed else {}
    for r in raw:
        line, col, end_line, end_col = positions.get(r.node, (1, 0, 1, 0))
        out.append(Finding(path, line, col + 1, end_line, end_col + 1, r.code, r.name, r.message, fixes.get(id(r))))
    for name, node, error in dispatch.crashes:
        line, col, _, _ = positions.get(node, (1, 0, 1, 0))
        out.append(
            _pseudo(path, INTERNAL_ERROR, line, col + 1, f"internal error in {name}: {type(error).__name__}: {error}")
        )
    return out  # noqa: TFH401  a TFH002 finding carries the crash text to the user by design


Span = tuple[int, int, int, int]  # line, column (0-based), end line, end column (exclusive)


def _block_indent(module: cst.Module, top: int, node: cst.CSTNode) -> str:
    """The indentation of the block whose statement holds ``node`` (what a line break inside it indents by)."""
    stack: list[tuple[cst.CSTNode, str]] = [(module.body[top], "")]
    while stack:
        current, indent = stack.pop()
        if current is node:
            return indent
        if isinstance(current, cst.IndentedBlock):
            indent += current.indent if current.indent is not None else module.default_indent
        stack.extend((child, indent) for child in _children(current))
    return ""


def _render(module: cst.Module, node: cst.CSTNode, indent: str) -> str:
    """``node``'s code as it reads inside a block indented by ``indent`` (``Module.code_for_node`` assumes none)."""
    state = CodegenState(
        default_indent=module.default_indent, default_newline=module.default_newline, indent_tokens=[indent] if indent else []
    )
    node._codegen(state)
    return "".join(state.tokens)


def _resolve_fixes(
    module: cst.Module,
    raw: list[RawFinding],
    source: bytes | str,
    positions: dict[cst.CSTNode, Span],
    tops: dict[cst.CSTNode, int | None],
) -> dict[int, Fix]:
    """Each fix's node edits as positioned text edits (``findings.Edit``), by ``id`` of its raw finding.

    The module may be the narrowed text (definitions without candidates are
    stubs), but every edited node lies in a kept part, whose lines are the
    file's own: the positions and the text hold for the file as it is. A fix
    that cannot be placed is dropped (the finding stays).
    """
    lines = _LINE_BREAK.split(decode(source)) if any(
        callable(e.content) for r in raw if r.fix is not None for e in r.fix.edits
    ) else []
    newline = module.default_newline
    out: dict[int, Fix] = {}
    for r in raw:
        if r.fix is None:
            continue
        edits: list[Edit] = []
        for e in r.fix.edits:
            span = positions.get(e.node)
            if span is None:
                break
            line, col, end_line, end_col = span
            content = e.content
            if callable(content):
                text = lines[line - 1] if 0 < line <= len(lines) else ""
                content = content(text[: len(text) - len(text.lstrip(" \t\f"))]).replace("\n", newline)
            elif isinstance(content, cst.CSTNode):
                if isinstance(content, cst.BaseExpression) and content.lpar and getattr(e.node, "lpar", None):
                    # a position leaves out the node's parentheses (and the space inside them): so does the text
                    content = content.with_changes(lpar=[], rpar=[])
                top = tops.get(e.node)
                content = _render(module, content, _block_indent(module, top, e.node) if top is not None else "")
            else:
                content = content.replace("\n", newline)
            if e.where == "replace":
                edits.append(Edit(line, col + 1, end_line, end_col + 1, content))
            elif e.where == "line_before":
                edits.append(Edit(line, 1, line, 1, content))
            else:  # line_after
                edits.append(Edit(end_line + 1, 1, end_line + 1, 1, content))
        else:
            out[id(r)] = Fix(r.fix.message, tuple(sorted(edits)))
    return out


def _positions(
    module: cst.Module,
    tree: ast.Module | None,
    wanted: list[tuple[cst.CSTNode, int | None]],
    wrapper: MetadataWrapper | None,
) -> dict[cst.CSTNode, Span]:
    """Positions of the reported nodes.

    libcst's PositionProvider re-generates the whole module's code (costlier
    than parsing it). When the ``ast`` tree is at hand, only the module-level
    statements that hold a finding are re-generated, each on its own, and the
    statement's line comes from ``ast``.
    """
    out: dict[cst.CSTNode, Span] = {}
    by_top: dict[int, list[cst.CSTNode]] = {}
    starts: list[int] = []
    if tree is not None and all(top is not None for _, top in wanted):
        j = 0
        for stmt in module.body:
            starts.append(j)
            j += len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        if j == len(tree.body):
            for node, top in wanted:
                assert top is not None
                by_top.setdefault(top, []).append(node)
    if not by_top:
        if wrapper is None:
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        for node, code_range in wrapper.resolve(PositionProvider).items():
            out[node] = (code_range.start.line, code_range.start.column, code_range.end.line, code_range.end.column)
        return out
    for top, nodes in by_top.items():
        assert tree is not None
        for node in nodes:
            if node in out:
                continue
            sub, anchor, line = _narrowest(module.body[top], tree.body[starts[top]], node)
            pos = MetadataWrapper(
                module.with_changes(body=[sub], header=(), footer=()), unsafe_skip_copy=True
            ).resolve(PositionProvider)
            offset = line - pos[anchor].start.line
            # every other wanted node under the same re-generated statement comes for free
            for other in nodes:
                p = pos.get(other)
                if p is not None and other not in out:
                    out[other] = (p.start.line + offset, p.start.column, p.end.line + offset, p.end.column)
    return out


def node_lines(module: cst.Module, tree: ast.Module | None, nodes: Sequence[cst.CSTNode]) -> dict[cst.CSTNode, int]:
    """The first line of each node (for a message that names another line), as findings get theirs."""
    wanted: list[tuple[cst.CSTNode, int | None]] = []
    for node in nodes:
        top = next((i for i, stmt in enumerate(module.body) if _contains(stmt, node)), None)
        wanted.append((node, top))
    return {node: span[0] for node, span in _positions(module, tree, wanted, None).items() if node in set(nodes)}


def _contains(root: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Whether ``node`` is under ``root``, by the traversal's own :func:`_children`.

    (libcst's ``children`` builds each list through its visitor machinery,
    several times slower.) A node the rules can report is always found.
    """
    stack = [root]
    while stack:
        current = stack.pop()
        if current is node:
            return True
        stack.extend(_children(current))
    return False


def _anchor(stmt: cst.CSTNode) -> cst.CSTNode:
    """The node of ``stmt`` that sits on the line ``ast`` gives as the statement's ``lineno``."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return stmt.body[0]
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return stmt.name
    return stmt


def _narrowest(stmt: cst.BaseStatement, node_ast: ast.stmt, node: cst.CSTNode) -> tuple[cst.BaseStatement, cst.CSTNode, int]:
    """The smallest re-generation of ``stmt`` that still places ``node`` exactly.

    Re-generating a whole module-level class to place one call in one method
    costs as much as the class. Inside a class body, only the member that holds
    the node is kept: the class is re-generated as a skeleton holding just that
    member, so indentation (and so every column) is as in the file, and the
    member's ``ast`` statement gives its line. Returns the statement to
    re-generate, the node whose line is known, and that line.
    """
    shell: list[cst.ClassDef] = []
    cur, cur_ast = stmt, node_ast
    while isinstance(cur, cst.ClassDef) and isinstance(cur.body, cst.IndentedBlock) and isinstance(cur_ast, ast.ClassDef):
        j, found = 0, None
        for child in cur.body.body:
            if _contains(child, node):
                found = child
                break
            j += len(child.body) if isinstance(child, cst.SimpleStatementLine) else 1
        if found is None or j >= len(cur_ast.body):
            break  # the node is in the class header (bases, decorators): keep the whole class
        shell.append(cur)
        cur, cur_ast = found, cur_ast.body[j]
    anchor, line = _anchor(cur), cur_ast.lineno
    for cls in reversed(shell):
        cur = cls.with_changes(body=cls.body.with_changes(body=[cur]), decorators=(), leading_lines=())
    return cur, anchor, line


def lint_path(path: Path, config: Config, *, apply_noqa: bool = True) -> list[Finding]:
    """Read a file's bytes and lint them; an unreadable file is a TFH001 finding."""
    display = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        finding = _pseudo(display, PARSE_ERROR, 1, 1, f"could not parse: cannot read file: {exc.strerror or exc}")
        return [finding] if config.is_enabled(PARSE_ERROR, display) else []
    return lint_source(data, display, config, apply_noqa=apply_noqa)
