"""Each call of a module by the name it calls, as :func:`~.imports_disk.project_call_arguments` gives it (split out of
``imports_disk.py``, s48), and whether a module's text uses a name only by calling it (:func:`only_called`)."""

from __future__ import annotations

import ast
import re

#: per call: keyword -> literal text or None, the positional literals, whether called on an attribute, whether it
#: spreads ``*``/``**``, and (s48) each positional's :func:`list_words` (the command a project's helper is handed,
#: ``run_checked(["systemctl", "daemon-reload"])``)
Call = tuple[dict[str, "str | None"], tuple["str | None", ...], bool, bool, tuple["tuple[tuple[str, ...], bool] | None", ...]]


def literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def list_words(node: ast.expr) -> tuple[tuple[str, ...], bool] | None:
    """``(("git", "add"), False)`` for ``["git", "add", path]``; None when ``node`` is not a list or tuple."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    words: list[str] = []
    for item in node.elts:
        text = literal(item)
        if text is None:
            return tuple(words), False
        words.append(text)
    return tuple(words), True


def calls_by_name(tree: ast.Module) -> dict[str, list[Call]]:
    """Every call in the module, by the name it calls (``f(...)``/``x.f(...)``: ``f``)."""
    out: dict[str, list[Call]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None:
                spread = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
                out.setdefault(name, []).append((
                    {k.arg: literal(k.value) for k in node.keywords if k.arg}, tuple(literal(a) for a in node.args),
                    isinstance(func, ast.Attribute), spread, tuple(list_words(a) for a in node.args)))
    return out


_IMPORT_LINE = re.compile(rb"^\s*(from\s+\S+\s+)?import\s")


def only_called(data: bytes, name: str) -> bool:
    """s48: whether every mention of the word ``name`` in a module's text is a call or a ``def`` (``name(``), or is
    on an import line that does not rename it (``import name as other`` would hide its calls under another name).
    A mention of any other kind (a callback handed on, a continued import line, a comment) answers False."""
    word = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b(\s*\()?")
    renamed = re.compile(rb"\b" + re.escape(name.encode()) + rb"\s+as\b")
    for line in data.splitlines():
        hits = list(word.finditer(line))
        if not hits:
            continue
        if _IMPORT_LINE.match(line) and not line.rstrip().endswith((b"(", b"\\")):
            if renamed.search(line):
                return False
            continue
        if any(m.group(1) is None for m in hits):
            return False
    return True
