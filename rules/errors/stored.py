"""TFH401's text stored on ``self`` and read later (s45, issue 24 item 2).

A handler of a method keeps the exception's text on the instance (``self.last_error = str(e)``,
``self.error = f"Failed: {e}"``, ``self.status = {"message": repr(e)}``) and a method of the same class returns
it (``return {"error": self.last_error}``, ``return self.error``). :func:`stored_text_attributes` is the
per-file pre-pass: for each class, the attributes some handler of its methods sets to the text, read from the
handlers the screen already collected (no walk of the whole tree), memoised on the screen; the ``ast`` screen
(``text_screen.screen_lines``) admits the methods returning such an attribute, and ``text.ExceptionText`` reads
the attribute as the text there, only where a tool's answer is built (see ``ExceptionText._stored_reader``).
"""

from __future__ import annotations

import ast

from ...linter.api import Knowledge, Screen
from .model import classes_of, words

__all__ = ["answers_tool", "stored_text_attributes", "stored_readers"]

_Def = (ast.FunctionDef, ast.AsyncFunctionDef)


def stored_text_attributes(screen: Screen) -> dict[str, frozenset[str]]:
    """Class name -> the attributes of ``self`` a handler in one of its methods sets to the exception's text."""
    return screen.memo("errors.stored_text_attributes", lambda: _stored(screen))


def stored_readers(screen: Screen) -> list[int]:
    """The first lines of the methods that return (or yield) an attribute :func:`stored_text_attributes` records."""
    stored = stored_text_attributes(screen)
    if not stored:
        return []
    out: list[int] = []
    for cls in classes_of(screen.tree):
        attrs = stored.get(cls.name)
        if not attrs:
            continue
        for m in cls.body:
            if isinstance(m, _Def) and any(
                isinstance(n, (ast.Return, ast.Yield)) and n.value is not None and _reads(n.value, attrs)
                for n in ast.walk(m)
            ):
                out.append(m.lineno)
    return out


def answers_tool(name: str, audience: str | None, knowledge: Knowledge) -> bool:
    """A method returning a stored attribute answers a tool's call: it is a tool (``audience == "tool"``), or the
    module names it for tools (``None``) and its name is not a status reader's (``STATUS_READER_WORDS``) nor a text
    producer's (``format_*``, ``_serialize_*``); nothing else ("unread", "report", "endpoint", "cli") is."""
    if audience == "tool":
        return True
    bare = name.lstrip("_").lower()
    return audience is None and not words(name) & knowledge.status_reader_words and not (
        any(p in bare for p in knowledge.text_producer_name_parts) or bare.startswith(knowledge.text_producer_name_prefixes))


def _stored(screen: Screen) -> dict[str, frozenset[str]]:
    found: list[tuple[int, str]] = []  # (the handler's line, an attribute it sets to the text)
    for h in screen.handlers:
        if h.name is None:
            continue
        for stmt in h.body:
            for n in ast.walk(stmt):
                if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and _holds_text(n.value, h.name):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    found += [(h.lineno, t.attr) for t in targets if isinstance(t, ast.Attribute) and _self_attribute(t)]
    if not found:
        return {}
    out: dict[str, frozenset[str]] = {}
    classes = classes_of(screen.tree)
    for line, attr in found:
        owner = _innermost(classes, line)
        if owner is not None:
            out[owner.name] = out.get(owner.name, frozenset()) | {attr}
    return out


def _innermost(classes: list[ast.ClassDef], line: int) -> ast.ClassDef | None:
    """The innermost class whose methods hold ``line`` (a method directly in its body)."""
    best: ast.ClassDef | None = None
    for c in classes:
        if any(isinstance(m, _Def) and m.lineno <= line <= (m.end_lineno or m.lineno) for m in c.body):
            if best is None or c.lineno > best.lineno:
                best = c
    return best



def _self_attribute(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _holds_text(value: ast.expr, name: str) -> bool:
    """``str(e)``, ``repr(e)``, an f-string formatting ``e``, or a dict/list/tuple holding one."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("str", "repr"):
        return len(value.args) == 1 and isinstance(value.args[0], ast.Name) and value.args[0].id == name
    if isinstance(value, ast.JoinedStr):
        return any(isinstance(p, ast.FormattedValue) and (
            (isinstance(p.value, ast.Name) and p.value.id == name) or _holds_text(p.value, name)) for p in value.values)
    if isinstance(value, ast.Dict):
        return any(v is not None and _holds_text(v, name) for v in value.values)
    if isinstance(value, (ast.List, ast.Tuple)):
        return any(_holds_text(v, name) for v in value.elts)
    return False


def _reads(value: ast.expr, attrs: frozenset[str]) -> bool:
    return any(isinstance(n, ast.Attribute) and _self_attribute(n) and n.attr in attrs for n in ast.walk(value))
