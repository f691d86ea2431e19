"""Small node helpers every rule shares, for libcst nodes and (where a screen needs them) ``ast`` nodes.

One helper per question, so that a rule's ``ast`` screen and its libcst check
read the same answer the same way (the screen must admit everything the check
can report). ``smullyan.linter.api`` re-exports them; rules import from there.
"""

from __future__ import annotations

import ast
from typing import Iterator, Union, overload

import libcst as cst


AnyHandler = Union[cst.ExceptHandler, cst.ExceptStarHandler, ast.ExceptHandler]

# Nodes that open a scope of their own: code inside runs later (or elsewhere),
# not as part of the statement that holds them.
SCOPE_NODES_CST: tuple[type[cst.CSTNode], ...] = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


# ---------------------------------------------------------------- the field walk (the engine's traversal)


_SKIP_FIELDS = frozenset(
    {
        "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators",
        "header", "footer", "equal", "colon", "dot", "lbracket", "rbracket", "lbrace",
        "rbrace", "operator", "newline", "trailing_whitespace", "star_tok", "asynchronous",
    }
)
_FIELDS: dict[type, tuple[str, ...]] = {}
# source order where the dataclass field order differs and it matters for scopes
_ORDER: dict[str, tuple[str, ...]] = {
    "ListComp": ("for_in", "elt"),
    "SetComp": ("for_in", "elt"),
    "GeneratorExp": ("for_in", "elt"),
    "DictComp": ("for_in", "key", "value"),
    "CompFor": ("iter", "target", "ifs", "inner_for_in"),
    "For": ("iter", "target", "body", "orelse"),
    "IfExp": ("test", "body", "orelse"),
}


def _fields_of(cls: type) -> tuple[str, ...]:
    import dataclasses

    names = [
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in _SKIP_FIELDS and "whitespace" not in f.name
    ]
    order = _ORDER.get(cls.__name__)
    if order:
        names = [n for n in order if n in names] + [n for n in names if n not in order]
    result = tuple(names)
    _FIELDS[cls] = result
    return result


# ``isinstance`` against libcst's classes goes through ``ABCMeta.__instancecheck__`` (libcst's nodes are ABCs):
# the field walk asked it for every field value, a seventh of the plugin's profile on the agent corpus (s41).
# The answer depends on the type alone, so it is asked once per type.
_IS_NODE: dict[type, bool] = {}
_IS_SCOPE: dict[type, bool] = {}


def _learn_node(t: type) -> bool:
    answer = _IS_NODE[t] = issubclass(t, cst.CSTNode)
    return answer


def _learn_scope(t: type) -> bool:
    answer = _IS_SCOPE[t] = issubclass(t, SCOPE_NODES_CST)
    return answer


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes the traversal visits, in source order, read from the dataclass fields.

    libcst's own ``visit`` re-creates every node it passes (validation
    included) even for a read-only visitor; reading the fields directly is
    several times cheaper. Whitespace and punctuation fields are skipped: no
    rule looks at them.
    """
    cls = type(node)
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _fields_of(cls)
    is_node = _IS_NODE
    out: list[cst.CSTNode] = []
    for field in fields:
        value = getattr(node, field)
        t = type(value)
        if t is tuple or t is list:
            for child in value:
                known = is_node.get(type(child))
                if known or (known is None and _learn_node(type(child))):
                    out.append(child)
        else:
            known = is_node.get(t)
            if known or (known is None and _learn_node(t)):
                out.append(value)
    return out


# ---------------------------------------------------------------- names


def last_name(node: cst.BaseExpression | ast.expr | None) -> str | None:
    """The last name of a callee or dotted expression, on either tree.

    ``post`` for ``requests.post`` or ``post``; None for anything else
    (``f()()``, ``x[0]``, ``"sep".join``'s receiver).
    """
    # exact types, ast first: libcst's classes are ABCs, and isinstance() on them is slow
    t = type(node)
    if t is ast.Attribute:
        return node.attr  # type: ignore[union-attr, no-any-return]
    if t is ast.Name:
        return node.id  # type: ignore[union-attr, no-any-return]
    if t is cst.Attribute:
        return node.attr.value  # type: ignore[union-attr, no-any-return]
    if t is cst.Name:
        return node.value  # type: ignore[union-attr, no-any-return]
    return None


@overload
def chain_root(node: cst.BaseExpression) -> cst.BaseExpression: ...
@overload
def chain_root(node: ast.expr) -> ast.expr: ...
def chain_root(node: cst.BaseExpression | ast.expr) -> cst.BaseExpression | ast.expr:
    """The root of a call chain, on either tree: ``client`` of ``client.api(x)["items"].get()``, the callee of a call,
    the value of an attribute or a subscript followed until neither (``f`` of ``f()()``; a literal stays itself)."""
    while True:
        t = type(node)
        if t is cst.Call or t is ast.Call:
            node = node.func  # type: ignore[union-attr]
        elif t is cst.Attribute or t is cst.Subscript or t is ast.Attribute or t is ast.Subscript:
            node = node.value  # type: ignore[union-attr]
        else:
            return node


def assignment_targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """What an assignment statement binds: each target of ``a = b = v``, the one of ``a: T = v`` and ``a += v``;
    ``[]`` for any other node (tuple targets are left whole, for the caller to unpack or not)."""
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        return [node.target]
    return []


def dotted(node: cst.BaseExpression | ast.expr | None) -> str | None:
    """``a.b.c`` for a Name/Attribute chain on either tree, else None."""
    parts: list[str] = []
    while True:
        t = type(node)
        if t is ast.Attribute:
            parts.append(node.attr)  # type: ignore[union-attr]
        elif t is cst.Attribute:
            parts.append(node.attr.value)  # type: ignore[union-attr]
        else:
            break
        node = node.value  # type: ignore[union-attr]
    if t is ast.Name:
        parts.append(node.id)  # type: ignore[union-attr]
    elif t is cst.Name:
        parts.append(node.value)  # type: ignore[union-attr]
    else:
        return None
    return ".".join(reversed(parts))


def receiver_name(call_func: cst.BaseExpression | ast.expr) -> str | None:
    """The last name of a method call's receiver: ``_redis`` for ``self._redis.get``, ``client`` for ``client.get``."""
    t = type(call_func)
    if t is ast.Attribute or t is cst.Attribute:
        return last_name(call_func.value)  # type: ignore[union-attr]
    return None


def is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"``, either side first: the test of a script's ``if __name__ == "__main__":`` block
    (its operator is not read; one comparison, not a chain). TFH201's foreground callers and the tools report's
    demo code both ask it of a module-level ``if``."""
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1:
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)


# ---------------------------------------------------------------- string literals


def string_literal(node: cst.CSTNode | None, *, concatenated: bool = False, pieces: bool = False) -> str | None:
    """The text of a string literal (``"a"``, ``r'a'``, a triple-quoted one), else None: bytes and f-strings are
    not text literals.

    ``concatenated``: an implicit concatenation of literals too (``"a" "b"`` -> ``"ab"``; None when a part
    is an f-string or bytes). ``pieces``: the literal text of a message however it is built, for a reader of
    what it says: the literal parts of an f-string (None if it has none), implicit and ``+`` concatenations
    joined (``+`` leaves ``"{}"`` where the other operand was; None when neither side has literal text).
    """
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - libcst evaluates every valid literal
            return None
        return value if isinstance(value, str) else None
    if pieces:
        if isinstance(node, cst.ConcatenatedString):
            left, right = string_literal(node.left, pieces=True), string_literal(node.right, pieces=True)
            return None if left is None and right is None else (left or "") + (right or "")
        if isinstance(node, cst.FormattedString):
            return "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText)) or None
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            left, right = string_literal(node.left, pieces=True), string_literal(node.right, pieces=True)
            return None if left is None and right is None else (left or "") + "{}" + (right or "")
        return None
    if concatenated and isinstance(node, cst.ConcatenatedString):
        joined = node.evaluated_value
        return joined if isinstance(joined, str) else None
    return None


# ---------------------------------------------------------------- except handlers


def handler_name(handler: AnyHandler) -> str | None:
    """The name an ``except ... as name`` binds, or None."""
    if isinstance(handler, ast.ExceptHandler):
        return handler.name
    if handler.name is not None and isinstance(handler.name.name, cst.Name):
        return handler.name.name.value
    return None


def handler_types(handler: AnyHandler) -> list[cst.BaseExpression] | list[ast.expr]:
    """The exception type expressions a handler names (a tuple's elements); empty for a bare ``except:``."""
    if isinstance(handler, ast.ExceptHandler):
        t = handler.type
        if t is None:
            return []
        return list(t.elts) if isinstance(t, ast.Tuple) else [t]
    ct = handler.type
    if ct is None:
        return []
    return [el.value for el in ct.elements] if isinstance(ct, cst.Tuple) else [ct]


# ---------------------------------------------------------------- walking


def every_node(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every node under it, by the engine's field walk (no whitespace or punctuation nodes), in no
    order to rely on: for sets and any/all tests. libcst's ``children`` re-creates each node it passes: walking
    a long function's loops that way was a fifth of the time on hermes-agent's ``conversation_loop.py``."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


def walk_in_scope(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``root`` and every node under it, not entering nested ``def``/``class``/``lambda`` (which are yielded, not entered).

    Walks :func:`children` (the engine's field walk: no whitespace or punctuation nodes).
    """
    stack: list[cst.CSTNode] = [root]
    while stack:
        n = stack.pop()
        yield n
        if n is not root:
            scope = _IS_SCOPE.get(type(n))
            if scope or (scope is None and _learn_scope(type(n))):
                continue
        stack.extend(children(n))


# ---------------------------------------------------------------- call arguments (libcst)


def keyword_arg(call: cst.Call, keyword: str) -> cst.Arg | None:
    """The ``keyword=`` argument of a call, if passed."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    return None


def has_star(call: cst.Call) -> bool:
    """Whether ``*args`` or ``**kwargs`` is passed (any parameter may hide in it)."""
    return any(arg.star for arg in call.args)


def positional(call: cst.Call) -> list[cst.Arg]:
    """The positional arguments, in order (``*args`` excluded)."""
    return [arg for arg in call.args if arg.keyword is None and not arg.star]


def argument(call: cst.Call, keyword: str, position: int | None) -> cst.Arg | None:
    """The argument bound to a parameter, by keyword or by position."""
    arg = keyword_arg(call, keyword)
    if arg is None and position is not None:
        pos = positional(call)
        if len(pos) > position:
            arg = pos[position]
    return arg


def is_none(node: cst.BaseExpression | ast.expr) -> bool:
    """Whether the expression is the literal ``None`` (either tree)."""
    t = type(node)
    if t is ast.Constant:
        return node.value is None  # type: ignore[union-attr]
    return t is cst.Name and node.value == "None"  # type: ignore[union-attr]


def elements(node: cst.BaseExpression | ast.expr) -> list[cst.BaseExpression] | list[ast.expr] | None:
    """The items of a tuple/list/set display on either tree (``(3, None)`` gives ``[3, None]``); None for anything else."""
    if isinstance(node, ast.AST):
        return list(node.elts) if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else None
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return [el.value for el in node.elements]
    return None
