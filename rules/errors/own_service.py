"""TFH402: a read of the tool's own local service is no remote read (s47, the lead's decision on batch 19's labels).

A loopback address alone is not local work: a local Ollama or a daemon the code did not start is another process
that can be down, and its listing's ``[]`` still reads "no models". But a service the package itself serves, asked
on ``127.0.0.1``/``localhost``, is the tool's own state (claw-forge's state service: its client asks
``http://127.0.0.1:{port}/info``, a path the package's FastAPI app registers, ``@app.get("/info")``). So a ``try``
whose every URL is a loopback address with a path the linted file's project registers as a route
(:func:`~smullyan.linter.project_routes.serves_route`) is not a remote read. A path handed in through a parameter
(``f"http://127.0.0.1:{port}{path}"`` in a nested ``_get(path)``) is read from every call of the function in its
parent (``_get("/sessions")``, ``_get(f"/sessions/{sid}/status")``): each must be such a route.
"""

from __future__ import annotations

import re

import libcst as cst

from ...linter.api import Knowledge, Names, route_template, serves_route, walk_in_scope

__all__ = ["own_service_only"]

_URL = re.compile(r"^(?:https?|wss?)://(?P<host>\[[^\]]*\]|[^/:{]*)(?::(?:\d+)?)?", re.IGNORECASE)
# the loopback hosts TFH103 reads too (``knowledge.LOOPBACK_HOSTS``), as a URL writes them (``::1`` in brackets)
_LOOPBACK = frozenset(f"[{h}]" if ":" in h else h for h in Knowledge.loopback_hosts)


def _template(node: cst.BaseExpression) -> list[tuple[str, str | None]] | None:
    """A string or f-string as (literal text, placeholder name) pieces; None for anything else."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return [(value, None)] if isinstance(value, str) else None
    if isinstance(node, cst.FormattedString):
        out: list[tuple[str, str | None]] = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                out.append((part.value, None))
            elif isinstance(part, cst.FormattedStringExpression):
                name = part.expression.value if isinstance(part.expression, cst.Name) else ""
                out.append(("{}", name))
        return out
    return None


def _path_of(pieces: list[tuple[str, str | None]]) -> tuple[str, str | None] | None:
    """(the path template after a loopback ``scheme://host[:port]``, the parameter the path starts with, if any);
    None when the string is no loopback URL. The port may be a placeholder (``:{port}``)."""
    text = "".join(t for t, _ in pieces)
    m = _URL.match(text)
    if m is None or m.group("host").lower() not in _LOOPBACK:
        return None
    rest = text[m.end():]
    names = [n for _, n in pieces if n is not None]
    if text[:m.end()].endswith(":") and rest.startswith("{}"):
        rest, names = rest[2:], names[1:]  # the port: `127.0.0.1:{port}`
    if rest.startswith("{}") and names and names[0]:
        return rest[2:], names[0]
    return rest, None


def _callers_paths(names: Names, parameter: str, module: cst.Module | None) -> list[str] | None:
    """The path templates every call of the current function passes for ``parameter`` (positional, first, or by
    keyword), read in the function's parent: a closure's enclosing ``def``, else the module. None when a call passes
    anything but a literal path, or there is no call."""
    func = names.function
    parent: cst.CSTNode | None = names.enclosing_function
    if parent is None:
        parent = module
    if not isinstance(func, cst.FunctionDef) or parent is None:
        return None
    params = [p.name.value for p in func.params.params]
    if parameter not in params:
        return None
    index = params.index(parameter)
    out: list[str] = []
    for n in walk_in_scope(parent) if isinstance(parent, cst.FunctionDef) else _module_calls(parent):
        if not (type(n) is cst.Call and isinstance(n.func, cst.Name) and n.func.value == func.name.value):
            continue
        arg = next((a for a in n.args if a.keyword is not None and a.keyword.value == parameter), None)
        if arg is None:
            positional = [a for a in n.args if a.keyword is None and not a.star]
            arg = positional[index] if index < len(positional) else None
        pieces = _template(arg.value) if arg is not None else None
        if pieces is None:
            return None
        out.append("".join(t for t, _ in pieces))
    return out or None


def _module_calls(module: cst.CSTNode) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            out.append(node)

    module.visit(_Calls())
    return out


def own_service_only(body: cst.BaseSuite, names: Names, path: str | None, module: cst.Module | None) -> bool:
    """Every URL in the ``try`` is a loopback address with a path the project serves itself, and there is one."""
    if not path:
        return False
    found = 0
    for n in walk_in_scope(body):
        if not isinstance(n, (cst.SimpleString, cst.FormattedString)):
            continue
        pieces = _template(n)
        if pieces is None or not re.match(r"(?:https?|wss?)://", "".join(t for t, _ in pieces), re.IGNORECASE):
            continue
        split = _path_of(pieces)
        if split is None:
            return False
        rest, parameter = split
        paths = [rest] if parameter is None else [p + rest for p in (_callers_paths(names, parameter, module) or [])]
        if not paths or not all(serves_route(path, route_template(p)) for p in paths):
            return False
        found += 1
    return found > 0
