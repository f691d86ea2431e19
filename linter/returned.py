"""The program a function returns, read from its ``ast`` (s43/s44, TFH201's local programs).

``def _git_executable(cwd): return shutil.which("git") or "git"`` names git; ``def _git_executable(cwd): return
_git._git_executable(_services(), cwd)`` delegates to another function. Taken once when a module is read
(``imports_disk``'s summaries, the linted module's own screen)."""

from __future__ import annotations

import ast

from .scope_ast import SCOPE_NODES_AST, STATEMENT_BLOCKS

__all__ = ["delegate", "function_program", "function_programs", "program_and_delegate"]


# A call returning its literal first argument's program: a look-up of it (``shutil.which("git")``,
# ``require_trusted_executable("git")``, ``find_program("git")``), not its output.
_LOOKUP_WORDS = ("which", "exec", "exe", "binary", "program", "path", "find", "resolve", "locate")


def _own_returns(node: ast.AST) -> list[ast.expr | None]:
    """The values of the function's own ``return`` statements (not those of a nested scope). s55: only statements
    are walked (a ``return`` is one, and no expression holds a statement), through their blocks, never into a
    nested ``def``/``class``: what the readers of every followed module's functions ask, at a fraction of a walk of
    every node."""
    out: list[ast.expr | None] = []
    stack: list[ast.AST] = [s for s in getattr(node, "body", ()) if isinstance(s, ast.stmt)]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return):
            out.append(n.value)
        elif not isinstance(n, SCOPE_NODES_AST):
            for field in STATEMENT_BLOCKS:
                block = getattr(n, field, None)
                if block:
                    stack.extend(block)
    return out


def _one(found: set[str | None]) -> str | None:
    """The one value every ``return`` gives, or None (none, or several)."""
    return found.pop() if len(found) == 1 else None


def _callee(value: ast.expr | None) -> str | None:
    return _dotted(value.func) if isinstance(value, ast.Call) else None


def program_and_delegate(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str | None, str | None]:
    """:func:`function_program` and :func:`delegate` from one reading of the function's ``return`` statements."""
    returns = _own_returns(node)
    return _one({_program(r) for r in returns}), _one({_callee(r) for r in returns})


def _program(value: ast.expr | None) -> str | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        word = value.value.replace("\\", "/").rsplit("/", 1)[-1]
        return word.removesuffix(".exe") if word and " " not in word else None
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):  # shutil.which("git") or "git"
        return _one({_program(v) for v in value.values})
    if isinstance(value, ast.Call) and value.args:
        f = value.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if any(w in name.lower() for w in _LOOKUP_WORDS):
            return _program(value.args[0])
    return None


def function_program(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """s43/s44: the one program every ``return`` of a function names (``return "git"``, ``return shutil.which("git") or
    "git"``, ``require_trusted_executable("git")`` on another path), or None."""
    return _one({_program(r) for r in _own_returns(node)})


def function_programs(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str] | None:
    """s47: every program the function's ``return``s name, one per ``return`` (``open_command()`` returning ``"open"``,
    ``"start"`` or ``"xdg-open"`` by platform), or None when a ``return`` names none."""
    found = {_program(r) for r in _own_returns(node)}
    if not found or None in found:
        return None
    return frozenset(p for p in found if p is not None)


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def delegate(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The one function every ``return`` of ``node`` returns a call of (``_git._git_executable``), or None."""
    return _one({_callee(r) for r in _own_returns(node)})
