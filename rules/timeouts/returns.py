"""The program a function of the module returns (s43, batch 16's false TFH201: bello's ``ops._git_executable(root)``).

``def _git_executable(...)`` returning ``"git"`` on one path and ``require_trusted_executable("git", ...)`` on another,
or ``return shutil.which("git") or "git"``: a call of it (``_git_executable(root)``, ``ops._git_executable(root)``,
the method read by the name of the module's function) names git. Read from the screen's defs, only when a process's
program is such a call (no walk otherwise)."""

from __future__ import annotations

import ast

from ...linter.api import Screen

# A call returning its literal first argument's program: a look-up of it (``shutil.which("git")``,
# ``require_trusted_executable("git")``, ``find_program("git")``), not its output.
_LOOKUP_WORDS = ("which", "exec", "exe", "binary", "program", "path", "find", "resolve", "locate")


def _own_returns(node: ast.AST) -> list[ast.expr | None]:
    out: list[ast.expr | None] = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Return):
            out.append(n.value)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _program(value: ast.expr | None) -> str | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        word = value.value.replace("\\", "/").rsplit("/", 1)[-1]
        return word.removesuffix(".exe") if word and " " not in word else None
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):  # shutil.which("git") or "git"
        found = {_program(v) for v in value.values}
        return found.pop() if len(found) == 1 else None
    if isinstance(value, ast.Call) and value.args:
        f = value.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if any(w in name.lower() for w in _LOOKUP_WORDS):
            return _program(value.args[0])
    return None


def returned_program(screen: Screen, name: str) -> str | None:
    """The one program every ``return`` of the module's functions called ``name`` names, or None."""
    def build() -> str | None:
        returns = [r for d in screen.defs if getattr(d, "name", None) == name for r in _own_returns(d)]
        found = {_program(r) for r in returns}
        return found.pop() if len(found) == 1 else None
    return screen.memo(("returned_program", name), build)
