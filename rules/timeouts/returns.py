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

from ...linter.api import Knowledge, Screen, function_program, function_programs


def returned_program(screen: Screen, name: str) -> str | None:
    """The one program every ``return`` of the module's functions called ``name`` names, or None. s47 (spidy-agent,
    batch 19): a function returning one of several programs (``open_command()``: ``"open"``, ``"start"`` or
    ``"xdg-open"`` by platform) names the first of them when each is a program TFH201 leaves alone by its name
    alone (``Knowledge.interactive_process``: a desktop opener, an editor), whatever its arguments: every program
    it may return is local, so the call is read as any of them."""
    def build() -> str | None:
        defs = [d for d in screen.defs if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == name]
        found = {function_program(d) for d in defs}
        if len(found) == 1 and None not in found:
            return found.pop()
        many = [function_programs(d) for d in defs]
        programs = sorted(p for group in many if group is not None for p in group)
        if programs and None not in many and all(_silent_by_name(p) for p in programs):
            return programs[0]
        return None
    return screen.memo(("returned_program", name), build)


def _silent_by_name(program: str) -> bool:
    """TFH201 leaves ``program`` alone by its name alone: silent bare and with any argument (not a program whose
    sub-command decides, ``git``)."""
    return (Knowledge.interactive_process([program]) is not None
            and Knowledge.interactive_process([program, "x"]) is not None)
