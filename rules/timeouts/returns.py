"""The program a function returns (s43, batch 16's false TFH201: bello's ``ops._git_executable(root)``).

``def _git_executable(...)`` returning ``"git"`` on one path and ``require_trusted_executable("git", ...)`` on another,
or ``return shutil.which("git") or "git"``: a call of it (``_git_executable(root)``, ``ops._git_executable(root)``,
the method read by the name of the module's function) names git. Read from the screen's defs, only when a process's
program is such a call (no walk otherwise). s44: a function of another module of the project (``from .ops import
_git_executable``, ``ops._git_executable(root)`` with ``ops`` an imported module, or a method the project implements
elsewhere, ``ops: SnapshotServices``) is read from its module's summary (``linter/imports_disk.py``:
:func:`~linter.imports_disk.project_program`)."""

from __future__ import annotations

import ast

from ...linter.api import Screen, function_program


def returned_program(screen: Screen, name: str) -> str | None:
    """The one program every ``return`` of the module's functions called ``name`` names, or None."""
    def build() -> str | None:
        found = {function_program(d) for d in screen.defs
                 if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == name}
        return found.pop() if len(found) == 1 else None
    return screen.memo(("returned_program", name), build)
