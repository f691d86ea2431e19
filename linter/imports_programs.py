"""s44 (batch 16, bello): the program a project function returns, read from the modules ``imports_disk`` follows.

``from .ops import _git_executable``, ``ops._git_executable(root)`` with ``ops`` an imported module, or a protocol's
method the project implements elsewhere: what the function's ``return``s name, taken from its module's summary
(``_Func.program``/``delegate``, :mod:`.returned`) when the module was read; no tree is kept."""

from __future__ import annotations

import os

from .disk_summary import _Class, _From, _Func
from .imports_disk import _defining, _lookup, _module, _module_file, _project_listing, _root
from .packages import absolute_module

__all__ = ["project_program"]


#: how many delegating functions (``def _git_executable(cwd): return _git._git_executable(_services(), cwd)``) are followed
_DELEGATE_DEPTH = 3
# (package root, function name) -> (the programs the project's concrete functions of that name return, the files read)
_programs: dict[tuple[str, str], tuple[list[str | None], list[str]]] = {}


def _module_parts(directory: str, file: str) -> tuple[list[str], bool]:
    """A project file's module parts below the package root (``a/b.py`` -> [a, b]) and whether it is an ``__init__.py``."""
    rel = os.path.relpath(file, directory)[: -len(".py")].split(os.sep)
    return (rel[:-1], True) if rel[-1] == "__init__" else (rel, False)


def _func_program(root: tuple[str, str], parts: list[str], is_init: bool, fn: _Func, depth: int) -> str | None:
    """The program ``fn`` (a function of module ``top.<parts>``) returns: its own literal, or its delegate's, followed
    through the module's ``from`` imports (``from supervisor import snapshot_git as _git``) or its own functions."""
    if fn.program is not None or fn.delegate is None or depth <= 0:
        return fn.program
    located = _module_file(root, parts)
    parsed = _module(located[0]) if located is not None else None
    if parsed is None or parsed.summary is None:
        return None
    head, _, rest = fn.delegate.partition(".")
    bound = parsed.summary.top.get(head)
    if not rest:  # return _helper(...): a function of the same module, or one it imports by name
        if isinstance(bound, _Func):
            return _func_program(root, parts, is_init, bound, depth - 1)
        if isinstance(bound, _From):
            return _program_of(root, bound, is_init, parts, depth - 1)
        return None
    if not isinstance(bound, _From) or "." in rest:  # return _git._git_executable(...): `from pkg import snapshot_git as _git`
        return None
    package = ".".join([root[0], *parts]) if is_init else ".".join([root[0], *parts[:-1]])
    source = absolute_module(bound.module, bound.level, package)
    if source is None or source.split(".")[0] != root[0]:
        return None
    target = [*source.split(".")[1:], bound.name]
    found = _lookup(root, target, rest, True)
    if found is None or not isinstance(found[1], _Func):
        return None
    target_file = _module_file(root, target)
    return _func_program(root, target, bool(target_file and target_file[1]), found[1], depth - 1)


def _program_of(root: tuple[str, str], bound: _From, is_init: bool, parts: list[str], depth: int) -> str | None:
    """The program of a function a module imports by name (``from .ops import _git_executable``)."""
    package = ".".join([root[0], *parts]) if is_init else ".".join([root[0], *parts[:-1]])
    source = absolute_module(bound.module, bound.level, package)
    if source is None or source.split(".")[0] != root[0]:
        return None
    target = source.split(".")[1:]
    found = _lookup(root, target, bound.name, True)
    if found is None or not isinstance(found[1], _Func):
        return None
    located = _module_file(root, target)
    return _func_program(root, target, bool(located and located[1]), found[1], depth)


def project_program(path: str, qualname: str | None, name: str) -> str | None:
    """s44 (batch 16, bello): the one program a call of a project function returns (``[_git_executable(root), "log"]``
    after ``from .ops import _git_executable``, ``[ops._git_executable(root), ...]`` with ``ops`` an imported module):
    ``qualname`` (the resolver's) names the function, read with what its module's summary took at parse time
    (:func:`function_program`; a function returning a call of another, ``return _git._git_executable(_services(),
    cwd)``, followed up to :data:`_DELEGATE_DEPTH` steps). A method called on a receiver the resolver cannot name
    (``ops: SnapshotServices``, a protocol the project implements elsewhere), ``qualname`` None: every function or
    method called ``name`` that the project implements (not abstract, not a protocol's stub) returns that one
    program (the files' bytes are screened for ``def <name>`` and only those parsed, once per project and name)."""
    if qualname is not None:
        root = _root(path, qualname.split(".")[0])
        parts = qualname.split(".")
        if root is None or len(parts) < 2 or parts[0] != root[0]:
            return None
        try:
            found = _lookup(root, parts[1:-1], parts[-1], True)
            if found is not None and isinstance(found[1], _Func):
                located = _module_file(root, parts[1:-1])
                return _func_program(root, parts[1:-1], bool(located and located[1]), found[1], _DELEGATE_DEPTH)
            owner = _lookup(root, parts[1:-2], parts[-2], True) if len(parts) > 2 else None
            if owner is None or not isinstance(owner[1], _Class) or name not in owner[1].methods:
                return None
            if not all(owner[1].abstract.get(name, ())):
                return owner[1].methods[name].program  # a method of a project class
        except (OSError, ValueError, RecursionError):
            return None
        # a protocol's or an abstract class's method: what the project's implementations return
    root = _root(path)
    if root is None or not name.isidentifier():
        return None
    directory = root[1]
    files = _project_listing(directory)
    key = (directory, name)
    if key not in _programs:
        programs: list[str | None] = []
        read: list[str] = []
        for file in _defining(files, name):
            parsed = _module(file)
            if parsed is None or parsed.summary is None:
                continue
            read.append(file)
            parts, is_init = _module_parts(directory, file)
            fn = parsed.summary.top.get(name)
            if isinstance(fn, _Func):
                try:
                    programs.append(_func_program(root, parts, is_init, fn, _DELEGATE_DEPTH))
                except (OSError, ValueError, RecursionError):
                    programs.append(None)
            for cls in parsed.summary.classes:
                method = cls.methods.get(name)
                if method is not None and not all(cls.abstract.get(name, ())):
                    programs.append(method.program)
        _programs[key] = (programs, read)
    programs, files = _programs[key]
    for file in files:
        _module(file)  # recorded: the finding depends on those functions
    found_programs = set(programs)
    return found_programs.pop() if len(found_programs) == 1 else None
