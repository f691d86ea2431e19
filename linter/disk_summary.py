"""What ``imports_disk`` keeps of a followed module: the summary taken from its ``ast`` tree.

A followed module's module-level names (its functions with their lines, its classes with their methods, its
``from`` imports), its classes in order, its imports at any depth and the attributes its classes' instances may
hold, taken once from the tree (:func:`_summary`), which is then dropped: no ``ast`` or libcst node is kept."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .class_processes import abstract as _abstract, process_local_methods, runner_names
from .returned import program_and_delegate
from .held_names import attribute_names
from .scope_ast import STATEMENT_BLOCKS


@dataclass(frozen=True, slots=True)
class _Func:
    """A ``def`` as the readers need it: its name and its lines (decorators included), 1-based, inclusive; s44: the
    one program its ``return``s name (:func:`function_program`), or the one function they all return a call of
    (``return _git._git_executable(_services(), cwd)``: ``_git._git_executable``), taken at parse time."""
    name: str
    first: int
    last: int
    program: str | None = None
    delegate: str | None = None


@dataclass(frozen=True, slots=True)
class _Class:
    """A module-level ``class``: its methods (the last ``def`` of a name, as at run time) and, for each name, whether
    each ``def`` of that name in its body is abstract (:func:`_abstract`), in order."""
    name: str
    methods: dict[str, _Func]
    abstract: dict[str, tuple[bool, ...]]
    runs_local: frozenset[str] = frozenset()  # s48: methods whose every program is local (:mod:`.class_processes`)


@dataclass(frozen=True, slots=True)
class _From:
    """A module-level name bound by ``from <module> import <name>`` (module, level, the name imported)."""
    module: str | None
    level: int
    name: str


#: an import statement as written: ``import m`` -> (``m``, 0, None), one an alias; ``from m import a as b`` -> (``m``,
#: its level, ((``a``, ``b``), ...)); :mod:`.project_tools` reads a project's imports of each other from them
ImportStatement = tuple[str | None, int, tuple[tuple[str, str], ...] | None]


def import_statements(nodes: list[ast.Import | ast.ImportFrom]) -> tuple[ImportStatement, ...]:
    """The statements ``nodes`` (any order) are, in the order of the file."""
    out: list[ImportStatement] = []
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(node, ast.Import):
            out += [(a.name, 0, None) for a in node.names]
        else:
            out.append((node.module, node.level, tuple((a.name, a.asname or a.name) for a in node.names)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Summary:
    """What the readers ask of a followed module, taken once from its ``ast`` tree (which is then dropped: s43,
    the trees of the followed modules were most of the objects the plugin kept for the process's life, each
    full collection walking them). No ``ast`` or libcst node is kept."""
    top: dict[str, _Func | _Class | _From]  # module-level name -> its last binding by def/class/from-import
    classes: tuple[_Class, ...]  # the module-level classes, in order
    imports_from: tuple[tuple[str | None, int, tuple[str, ...]], ...]  # every ``from m import a, b`` (any depth)
    imported: tuple[tuple[str, str | None], ...]  # every absolute ``import m`` (m, None) / ``from m import a`` (m, a)
    attrs: frozenset[str] = frozenset()  # s55: what its classes' instances may hold objects under (:mod:`.held_names`)
    #: s57: every import statement (any depth), in the order of the file (:func:`import_statements`)
    statements: tuple[ImportStatement, ...] = ()


def _span(node: ast.FunctionDef | ast.AsyncFunctionDef) -> _Func:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return _Func(node.name, first, node.end_lineno or node.lineno, *program_and_delegate(node))


def _summary(tree: ast.Module) -> _Summary:
    """The module's :class:`_Summary` (its statements only are walked: an import is always a statement)."""
    top: dict[str, _Func | _Class | _From] = {}
    classes: list[_Class] = []
    runners = runner_names(tree)
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            top[stmt.name] = _span(stmt)  # the last binding wins, as at run time
        elif isinstance(stmt, ast.ClassDef):
            methods: dict[str, _Func] = {}
            abstract: dict[str, tuple[bool, ...]] = {}
            for fn in stmt.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods[fn.name] = _span(fn)
                    abstract[fn.name] = (*abstract.get(fn.name, ()), _abstract(fn))
            cls = _Class(stmt.name, methods, abstract, process_local_methods(tree, stmt, runners))
            classes.append(cls)
            top[stmt.name] = cls
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name != "*":
                    top[alias.asname or alias.name] = _From(stmt.module, stmt.level, alias.name)
    imports_from: list[tuple[str | None, int, tuple[str, ...]]] = []
    imported: list[tuple[str, str | None]] = []
    statements: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            statements.append(node)
        if isinstance(node, ast.Import):
            imported.extend((a.name, None) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imports_from.append((node.module, node.level, tuple(a.name for a in node.names)))
            if not node.level:
                imported.extend((node.module or "", a.name) for a in node.names)
        for name in STATEMENT_BLOCKS:
            children = getattr(node, name, None)
            if isinstance(children, list):
                stack.extend(children)
    return _Summary(top, tuple(classes), tuple(imports_from), tuple(imported), attribute_names(tree),
                    import_statements(statements))
