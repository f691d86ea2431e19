"""A retry written as recursion: a broad handler that calls its own function again (s38, issue 23).

``def upsert(self, row): try: ... except Exception: self.create_table(); return self.upsert(row)``
runs the same work again on every error, with no bound and no pause: an error the repair does
not fix (a bad value, a denied write, a lost connection) recurses until ``RecursionError``.

Read with positive evidence only, so a recursion that does other work is left alone:

- the handler catches everything (bare, ``Exception``, ``BaseException``);
- one of its own statements (not one under an ``if``, a loop or a nested ``try``) calls the
  function it is in: ``f(...)`` in a module function ``f``, ``self.m(...)``/``cls.m(...)`` in a
  method ``m`` (awaited or not, returned, assigned or bare);
- that call passes on the function's own parameters unchanged (``self.upsert(row)``,
  ``f(*args, **kwargs)``): the same request again. A call with a changed argument (``attempts -
  1``, ``retry=False``, a smaller input) is a bounded retry or a recursion over data, not this.

:func:`screen_lines` over-approximates it for the retry rules' screen (``ast``); :func:`recursive_retries`
finds it (libcst).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator
from typing import NamedTuple

import libcst as cst

from ...linter.api import Screen, children, walk_in_scope
from ...linter.api import every_node
from .steps import BOOKKEEPING_CALL_WORDS

_Names = Callable[[cst.BaseExpression], "tuple[str, ...] | None"]


def screen_lines(screen: Screen) -> list[int]:
    """Lines of the handlers (``ast``) that call a function they are in (any enclosing one), by its name: from
    the screen's one walk (its handlers and defs; a def holds a handler whose line is within its lines)."""
    defs: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for d in screen.defs:
        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.setdefault(d.name, []).append(d)
    out: list[int] = []
    if not defs:
        return out
    for h in screen.handlers:
        called = {
            f.id if isinstance(f, ast.Name) else f.attr
            for c in ast.walk(h)
            if isinstance(c, ast.Call) and isinstance(f := c.func, (ast.Name, ast.Attribute))
        }
        for name in called & defs.keys():
            out.extend(h.lineno for d in defs[name] if d.lineno <= h.lineno <= (d.end_lineno or d.lineno))
    return out


def _params(fn: cst.FunctionDef) -> tuple[list[str], str | None, str | None]:
    p = fn.params
    names = [x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)]
    star = p.star_arg.name.value if isinstance(p.star_arg, cst.Param) else None
    kwargs = p.star_kwarg.name.value if p.star_kwarg is not None else None
    return names, star, kwargs


def _own_statements(body: cst.BaseSuite) -> Iterator[cst.BaseSmallStatement]:
    if isinstance(body, cst.IndentedBlock):
        for stmt in body.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                yield from stmt.body
    elif isinstance(body, cst.SimpleStatementSuite):
        yield from body.body


def _call_of(stmt: cst.BaseSmallStatement) -> cst.Call | None:
    value: cst.BaseExpression | None = None
    if isinstance(stmt, (cst.Expr, cst.Return, cst.Assign, cst.AnnAssign)):
        value = stmt.value
    if isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(value, cst.Call) else None


def _calls_itself(call: cst.Call, fn: cst.FunctionDef, in_class: bool) -> bool:
    func = call.func
    name = fn.name.value
    if in_class:
        names, _, _ = _params(fn)
        receiver = names[0] if names else None
        return (
            receiver in ("self", "cls") and isinstance(func, cst.Attribute) and func.attr.value == name
            and isinstance(func.value, cst.Name) and func.value.value == receiver
        )
    return isinstance(func, cst.Name) and func.value == name


def _passes_on(call: cst.Call, fn: cst.FunctionDef, in_class: bool) -> bool:
    """Every argument is one of the function's own parameters, unchanged (``*args``/``**kwargs`` too)."""
    names, star, kwargs = _params(fn)
    own = set(names[1:] if in_class else names)
    for arg in call.args:
        value = arg.value
        if not isinstance(value, cst.Name):
            return False
        if arg.star == "*":
            ok = value.value == star
        elif arg.star == "**":
            ok = value.value == kwargs
        else:
            ok = value.value in own and (arg.keyword is None or arg.keyword.value == value.value)
        if not ok:
            return False
    return True


class _Function(NamedTuple):
    fn: cst.FunctionDef
    in_class: bool  # a member of a class (not of a function in it)
    handlers: list[cst.ExceptHandler]  # the except handlers that run in its body itself (nested scopes left out)
    tries: list[cst.Try]  # the ``try`` statements likewise


_INDEX: list[tuple[cst.Module, list[_Function]]] = []  # the last module's functions (the module kept: no id reuse)


def _functions(module: cst.Module) -> list[_Function]:
    """Every function of ``module`` (nested ones too) with its own handlers and ``try`` statements, in the order
    both reads below always walked them: one walk per module for the two (TFH103's and TFH303's, s41)."""
    if _INDEX and _INDEX[0][0] is module:
        return _INDEX[0][1]
    out: list[_Function] = []
    stack: list[tuple[cst.CSTNode, bool]] = [(module, False)]
    while stack:
        node, in_class = stack.pop()
        for child in children(node):  # the engine's field walk: libcst's ``children`` re-creates each node (s40)
            if isinstance(child, cst.ClassDef):
                stack.append((child, True))
            elif isinstance(child, cst.FunctionDef):
                stack.append((child, False))
                own = list(walk_in_scope(child.body))
                out.append(_Function(
                    child, in_class,
                    [n for n in own if isinstance(n, cst.ExceptHandler)], [n for n in own if isinstance(n, cst.Try)],
                ))
            else:
                stack.append((child, in_class))
    _INDEX[:] = [(module, out)]
    return out


def recursive_retries(module: cst.Module, exception_names: _Names, every: frozenset[str]) -> list[cst.ExceptHandler]:
    """The broad handlers that run their own function again with the same arguments."""
    out: list[cst.ExceptHandler] = []
    for f in _functions(module):
        out.extend(_recursing(f, exception_names, every))
    return out


def _recursing(f: _Function, exception_names: _Names, every: frozenset[str]) -> list[cst.ExceptHandler]:
    fn, in_class = f.fn, f.in_class
    out = []
    for handler in f.handlers:
        if handler.type is not None and not set(exception_names(handler.type) or ()) & every:
            continue
        if _stops(handler):
            continue  # `if self._retried: raise` (a bound kept elsewhere): not unbounded
        for stmt in _own_statements(handler.body):
            call = _call_of(stmt)
            if call is not None and _calls_itself(call, fn, in_class) and _passes_on(call, fn, in_class):
                if _reasks_with_error(handler, call):
                    continue  # s41: a repair re-ask (the prompt rebuilt from the error), not the same work again
                out.append(handler)
                break
    return out


def _stops(handler: cst.ExceptHandler) -> bool:
    """The handler holds a branch that leaves (``if ...: raise``/``return``): a stop check."""
    return any(
        isinstance(n, cst.If) and any(isinstance(m, (cst.Raise, cst.Return)) for m in every_node(n))
        for n in walk_in_scope(handler.body)
    )


def _reasks_with_error(handler: cst.ExceptHandler, call: cst.Call) -> bool:
    """The handler rebinds a name the call passes on from the caught exception before calling (``message =
    Prompt(error=str(e), query=q)`` then ``self.cycle(thread, message, n - 1)``): the next call carries the
    failure back (a repair re-ask, as a loop's ``except Exception as e: prompt = f"fix: {e}"``), not the same
    request again (s41, eidolon-ai-sdk's SQL agent)."""
    if not (handler.name is not None and isinstance(handler.name.name, cst.Name)):
        return False
    derived = {handler.name.name.value}
    assigns = [
        ({m.value for m in every_node(n.value) if isinstance(m, cst.Name)}, {t.target.value for t in n.targets if isinstance(t.target, cst.Name)})
        for n in walk_in_scope(handler.body) if isinstance(n, cst.Assign)
    ]
    grown = True
    while grown:  # a name bound from one bound from the error carries it on too
        grown = False
        for reads, bound in assigns:
            if reads & derived and not bound <= derived:
                derived |= bound
                grown = True
    derived.discard(handler.name.name.value)
    passed = {a.value.value for a in call.args if isinstance(a.value, cst.Name)}
    return bool(passed & derived)


def _counts_down(call: cst.Call, fn: cst.FunctionDef, in_class: bool) -> bool:
    """Every argument passes on the function's own parameters unchanged but one, ``p - 1`` for a parameter
    ``p`` (``retry_count=retry_count - 1``): the same request again with one attempt fewer."""
    names, _, _ = _params(fn)
    own = set(names[1:] if in_class else names)
    rest, counted = [], 0
    for arg in call.args:
        value = arg.value
        if (
            not arg.star
            and isinstance(value, cst.BinaryOperation)
            and isinstance(value.operator, cst.Subtract)
            and isinstance(value.left, cst.Name)
            and value.left.value in own
            and isinstance(value.right, cst.Integer)
            and value.right.value == "1"
            and (arg.keyword is None or arg.keyword.value == value.left.value)
        ):
            counted += 1
        else:
            rest.append(arg)
    return counted == 1 and _passes_on(call.with_changes(args=rest), fn, in_class)


def _repairs_once(handler: cst.ExceptHandler, call: cst.Call, fn: cst.FunctionDef) -> bool:
    """The handler changes state the next call reads before it (a store into an attribute or an item,
    ``self._client.headers["Authorization"] = f"Bearer {token}"``, or a call that is not bookkeeping,
    ``self._reset_session()``; anywhere in the handler but the call itself), and the count the call lowers defaults to 1: the failure is answered and the
    call made once more (s53, batch 25 virtualdojo ``resend-after-token-refresh``): not a hot retry."""
    counted = next((a.value.left.value for a in call.args if isinstance(a.value, cst.BinaryOperation)
                    and isinstance(a.value.left, cst.Name)), None)
    p = fn.params
    param = next((x for x in (*p.posonly_params, *p.params, *p.kwonly_params) if x.name.value == counted), None)
    if param is None or not (isinstance(param.default, cst.Integer) and param.default.value == "1"):
        return False
    inside = {id(n) for n in every_node(call)}
    for n in every_node(handler.body):
        if id(n) in inside:
            continue
        if isinstance(n, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            if any(isinstance(t, (cst.Attribute, cst.Subscript)) for t in targets):
                return True
        if isinstance(n, cst.Call) and not _calls_itself_anyhow(n, fn) and not _bookkeeping(n):
            return True
    return False


def _calls_itself_anyhow(call: cst.Call, fn: cst.FunctionDef) -> bool:
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    return name == fn.name.value


def _bookkeeping(call: cst.Call) -> bool:
    """A log line, a clock read or a builtin (``str(e)``, ``len(x)``): no state the next call reads."""
    func = call.func
    if isinstance(func, cst.Name) and hasattr(builtins, func.value):
        return True
    name = (func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else "").lower()
    return any(w in name for w in BOOKKEEPING_CALL_WORDS)


def _reaches_out(body: cst.BaseSuite) -> bool:
    """The attempt awaits or calls a method (``await client.get(url)``): not in-memory work only."""
    return any(isinstance(n, cst.Await) or (isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)) for n in every_node(body))


def counted_recursions(
    module: cst.Module, transient: Callable[[cst.ExceptHandler], bool], sleeps: Callable[[cst.CSTNode], bool]
) -> list[tuple[cst.ExceptHandler, str]]:
    """Handlers that may catch a transient failure and run their own function again with a retry count one lower
    (``except Exception: if retry_count > 0: return await download_file(url, retry_count=retry_count - 1)``),
    with no wait: the function's name beside each (s39, nekro-agent). A sleep in the handler, or anywhere in the
    function outside the attempt, spaces the attempts."""
    out: list[tuple[cst.ExceptHandler, str]] = []
    for f in _functions(module):
        out.extend((h, f.fn.name.value) for h in _counting(f, transient, sleeps))
    return out


def _counting(
    f: _Function, transient: Callable[[cst.ExceptHandler], bool], sleeps: Callable[[cst.CSTNode], bool]
) -> list[cst.ExceptHandler]:
    fn, in_class = f.fn, f.in_class
    out = []
    for trynode in f.tries:
        for handler in trynode.handlers:
            if not transient(handler):
                continue
            calls = [n for n in every_node(handler.body) if isinstance(n, cst.Call)]
            again = [c for c in calls if _calls_itself(c, fn, in_class) and _counts_down(c, fn, in_class)]
            if not again or all(_reasks_with_error(handler, c) for c in again):
                continue  # s41: none, or a repair re-ask: the argument rebuilt from the error (eidolon's SQL agent)
            if all(_repairs_once(handler, c, fn) for c in again):
                continue  # s53: the handler sets up what the one more call needs (a new token), once (virtualdojo)
            if not _reaches_out(trynode.body):
                continue
            attempt = {id(n) for n in every_node(trynode.body)}
            if any(sleeps(n) for n in every_node(fn.body) if id(n) not in attempt):
                continue
            out.append(handler)
    return out
