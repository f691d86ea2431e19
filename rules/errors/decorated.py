"""What the decorators of a module's functions say the module defines, read on its ``ast`` tree.

``ExceptionText`` (:mod:`.text`) asks whether a module defines a web route (:func:`defines_web_route`: its other
functions hand their results to the routes, an HTTP client's JSON) or a command-line command
(:func:`defines_cli_command`: its functions report to the person at the terminal). Read on the ``ast`` tree (the
libcst module may be narrowed to the candidates), each decorator's receiver resolved by the module-level bindings."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from ...linter.api import Knowledge
from .model import definitions
from .placement import path_literal

__all__ = ["defines_cli_command", "defines_web_route"]

Scope = Mapping[str, "tuple[str, bool] | None"]


def defines_web_route(tree: ast.AST, scope: Scope, k: Knowledge) -> bool:
    """A decorator of the module's functions or methods defines a web route: ``@app.get("/x")`` with a path
    literal, a route decorator (``k.web_route_decorators``), or a route method on a web app class's module-level instance."""
    for d in definitions(tree):
        for dec in d.decorator_list:
            func = dec.func if isinstance(dec, ast.Call) else dec
            if isinstance(dec, ast.Call) and isinstance(func, ast.Attribute) and path_literal(dec.args):
                if func.attr in k.web_route_methods:
                    return True
            parts: list[str] = []
            while isinstance(func, ast.Attribute):
                parts.append(func.attr)
                func = func.value
            if not isinstance(func, ast.Name):
                continue
            ref = scope.get(func.id)
            if ref is None:
                continue
            qn = ".".join((k.canonical(ref[0]), *reversed(parts)))
            if qn in k.web_route_decorators:
                return True
            if parts and ref[1] and k.canonical(ref[0]) in k.web_app_classes and parts[0] in k.web_route_methods:
                return True
    return False


def defines_cli_command(tree: ast.AST, scope: Scope, k: Knowledge) -> bool:
    """A decorator of the module's functions or methods defines a command-line command (``@app.command()`` on a
    ``typer.Typer()``, ``@click.command()``): the receiver resolved by the module-level bindings ``scope``."""
    for d in definitions(tree):
        for dec in d.decorator_list:
            func = dec.func if isinstance(dec, ast.Call) else dec
            parts: list[str] = []
            while isinstance(func, ast.Attribute):
                parts.append(func.attr)
                func = func.value
            if not isinstance(func, ast.Name) or not parts:
                continue
            ref = scope.get(func.id)
            if ref is not None and ".".join((k.canonical(ref[0]), *reversed(parts))) in k.cli_command_decorators:
                return True
    return False
