"""The classes behind :mod:`.clients`' objects, read from the tables (``knowledge``) and the file's imports: a third-party
SDK's client class (``sdk_client_class``: ``hcloud.Client``), another package's class not named like a client
(``third_party_class``: ``opensandbox.Sandbox``), the timeout a call through a client has from its constructor
(``timeout_status``), and the lines of the file's SDK client constructors and the functions wrapping a client's method
where it is built (``sdk_constructor_lines``, ``sdk_wrappers``: read by :mod:`.observer`)."""

from __future__ import annotations

import ast
import sys

from .. import knowledge as kb
from ..rule import Screen

__all__ = ["sdk_client_class", "sdk_constructor_lines", "sdk_wrappers", "third_party_class", "timeout_status"]


def timeout_status(cls: str, keywords: list[tuple[str | None, bool]], positional: list[bool]) -> str:
    """A call through the client: its constructor's timeout when the tables know the class, else unknown
    (``keywords``: each keyword's name, None for ``**kwargs``, and whether it is ``None``; ``positional`` alike)."""
    spec = kb.TIMEOUTS.get(cls)
    if spec is None:
        # a class the tables do not know, built with an explicit ``timeout=`` that is not None (``httpx2.AsyncClient(
        # timeout=httpx2.Timeout(90, connect=5))``, ``Client(timeout=30)``): the constructor sets one, whatever its default
        return "value" if any(name == "timeout" and not is_none for name, is_none in keywords) else "unknown"
    given = next((is_none for name, is_none in keywords if name == spec.keyword), None)
    if given is None and spec.position is not None and len(positional) > spec.position:
        given = positional[spec.position]
    if given is None:
        return "unknown" if any(name is None for name, _ in keywords) else "missing" if spec.required else "default"
    return "infinite" if given and spec.none_is_infinite else "value"


def sdk_client_class(qualname: str, own: frozenset[str]) -> bool:
    """A third-party SDK client class (``hcloud.Client``): not the run's own, the standard library's, one the client
    or timeout tables already read (``httpx.Client.get``), a web app (``FastAPI``) or a local embedded store."""
    root, _, _ = qualname.partition(".")
    last = qualname.rsplit(".", 1)[-1]
    return bool(root and root not in own and root not in sys.stdlib_module_names and last[:1].isupper()
                and (last.endswith(kb.SDK_CLIENT_CLASS_SUFFIXES) or qualname in kb.SDK_CLIENT_CLASSES)
                and qualname not in kb.CLIENT_CLASSES
                and qualname not in kb.WEB_APP_CLASSES and qualname not in kb.SDK_LOCAL_CLIENTS
                and not any(k.startswith(qualname + ".") for k in kb.TIMEOUTS))


#: the classes whose methods ``knowledge.SDK_CALLS`` classifies (``aiokafka.AIOKafkaProducer``)
_CLASSIFIED_CLASSES: frozenset[str] = frozenset(k.rsplit(".", 1)[0] for k in kb.SDK_CALLS)


def third_party_class(qualname: str, roots: frozenset[str], own: frozenset[str]) -> str | None:
    """The class of another installed package a constructor or classmethod factory names (``opensandbox.Sandbox``
    for ``opensandbox.Sandbox`` or ``opensandbox.Sandbox.connect``; ``agent_jupyter_toolkit.actions.NotebookActions``):
    imported by the file (``roots``), not the run's own, the standard library's, one the client tables read (an SDK
    client, a web app, a local store), a class whose methods the call tables classify (``aiokafka.AIOKafkaProducer``:
    its ``send_and_wait`` is a known write, read as such elsewhere) or a class under a module the timeout tables know
    (``httpx.Response``)."""
    parts = qualname.split(".")
    if parts[0] not in roots or parts[0] in own or parts[0] in sys.stdlib_module_names:
        return None
    at = next((i for i, p in enumerate(parts) if i and p[:1].isupper()), None)
    if at is None or at < len(parts) - 2:
        return None
    cls = ".".join(parts[:at + 1])
    module = ".".join(parts[:at])
    if sdk_client_class(cls, own) or cls in kb.CLIENT_CLASSES or cls in kb.WEB_APP_CLASSES \
            or cls in kb.SDK_LOCAL_CLIENTS or cls in kb.SDK_CLIENT_CONSTRUCTORS or cls in _CLASSIFIED_CLASSES \
            or any(k == module or k.startswith(module + ".") for k in kb.TIMEOUTS):
        return None
    return cls


def sdk_constructor_lines(screen: Screen, own: frozenset[str]) -> set[int]:
    """The lines of the file's calls of a third-party SDK client's constructor, from the screen's imports and calls
    (no walk): linted with the tools, so that a finding there (TFH201: built without a timeout) reaches the tools
    calling through the client."""
    lasts = {n for n in screen.call_names if n.endswith(kb.SDK_CLIENT_CLASS_SUFFIXES)}
    if not lasts:
        return set()
    wanted = {q for _, full in screen.import_bindings for q in (full, *(f"{full}.{last}" for last in lasts))
              if sdk_client_class(kb.canonical(q), own)}
    return {line for c in screen.calls_of(wanted) for line in range(c.lineno, (c.end_lineno or c.lineno) + 1)}


def sdk_wrappers(tree: ast.Module, lines: set[int]) -> tuple[dict[int, tuple[str, ...]], set[int]]:
    """The module functions a function building an SDK client wraps one of its methods with, where it builds it
    (``client.request = _with_rate_limit_retry(client.request)``: a retry around every request the client sends):
    each constructor line (of ``lines``) -> their names, and the lines of their ``def``s. Reads the module's top
    level and the functions holding a constructor only."""
    funcs = (ast.FunctionDef, ast.AsyncFunctionDef)
    defs = {s.name: s for s in tree.body if isinstance(s, funcs)}
    by_line: dict[int, tuple[str, ...]] = {}
    region: set[int] = set()
    for fn in defs.values():
        inside = [line for line in lines if fn.lineno <= line <= (fn.end_lineno or fn.lineno)]
        if not inside:
            continue
        names: list[str] = []
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                    and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name) \
                    and n.value.func.id in defs and n.value.args and isinstance(n.value.args[0], ast.Attribute) \
                    and n.value.args[0].attr == n.targets[0].attr and n.value.func.id not in names:
                names.append(n.value.func.id)
        for name in names:
            region.update(range(defs[name].lineno, (defs[name].end_lineno or defs[name].lineno) + 1))
        for line in inside:
            by_line[line] = tuple(names)
    return by_line, region
