"""s47: the HTTP routes a project serves itself, read from its modules on disk (TFH402: a loopback read of the tool's
own service is no remote read).

A route is a path a function of the project is registered for: a decorator call whose method is a web framework's
route registration (``@app.get("/info")``, ``@router.post("/sessions")``, ``@bp.route("/x")``: ``WEB_ROUTE_METHODS``)
with a path literal first, or a registration handed the path and a handler (``app.add_api_route("/x", f)``,
``app.router.add_get("/x", h)``, ``app.add_url_rule("/x", ...)``). Templates are compared with their placeholders
blanked (``/sessions/{session_id}/status`` and ``f"/sessions/{sid}/status"`` are one path). The project is the linted
file's top-level package (:mod:`.imports_disk`); its files are screened by bytes (``knowledge.ROUTE_SCREEN``), only those
parsed, once per process, and recorded for the cache: each file read by its sha256, and which files match the screen
(a ``defines:`` key named ``knowledge.ROUTES_KEY``, read afresh by ``imports_disk.dependency_digest``).
"""

from __future__ import annotations

import ast
import re

from . import imports_disk as disk
from . import knowledge as kb

__all__ = ["route_template", "serves_route"]

_PLACEHOLDER = re.compile(r"\{[^{}]*\}|<[^<>]*>")

_routes: dict[str, tuple[frozenset[str], list[str], str]] = {}  # package dir -> templates, files read, screen digest


def route_template(path: str) -> str:
    """A path with its placeholders blanked and no trailing slash: ``/sessions/{id}/`` -> ``/sessions/{}``."""
    return _PLACEHOLDER.sub("{}", path.split("?", 1)[0]).rstrip("/") or "/"


def _registered(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            calls = [d for d in node.decorator_list if isinstance(d, ast.Call)]
            methods = kb.WEB_ROUTE_METHODS
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            calls, methods = [node], kb.WEB_ROUTE_REGISTRATIONS
        else:
            continue
        for call in calls:
            func = call.func
            if (isinstance(func, ast.Attribute) and func.attr in methods and call.args
                    and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
                    and call.args[0].value.startswith("/")):
                out.add(route_template(call.args[0].value))
    return out


def serves_route(path: str, template: str) -> bool:
    """Whether the project of the file at ``path`` registers a route whose template is ``template``
    (:func:`route_template`)."""
    root = disk._root(path)
    if root is None:
        return False
    directory = root[1]
    if directory not in _routes:
        found: set[str] = set()
        read: list[str] = []
        files = disk._defining(disk._project_listing(directory), kb.ROUTES_KEY)
        for file in files:
            try:
                with open(file, "rb") as handle:
                    data = handle.read(disk.MAX_BYTES + 1)
                found |= _registered(ast.parse(data))
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            read.append(file)
        _routes[directory] = (frozenset(found), read, disk._files_digest(files))
    templates, read, which = _routes[directory]
    disk.record_reads(read, {disk._defines_key(directory, kb.ROUTES_KEY): which})
    return template in templates
