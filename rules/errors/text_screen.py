"""TFH401's ``ast`` screen: the handlers whose body returns, yields, assigns, fills a container with or puts
in a message the caught exception (or formats a traceback), and the same-module helpers the text goes
through (:func:`screen_lines`; the collector is ``text.py``'s :class:`~.text.ExceptionText`)."""

from __future__ import annotations

import ast
from typing import Callable

from ...linter.api import Knowledge, Screen, imported_by, last_name
from .evidence import (
    announces_tool_result_ast, may_serve_by_name, module_dirs, result_builders, runs_with_tool_args_ast, tool_named_module,
    tools_module_parts,
)
from .exc_params import exception_params_ast
from .jsonrpc import builders, dict_parts_ast, sends_ast, serves_mcp
from .model import classes_of, definitions, mentions, words
from .remote import runs_tool_ast
from .stored import stored_readers

__all__ = ["screen_lines"]



def _format_names(knowledge: Knowledge) -> frozenset[str]:
    """Last names of the traceback formatters (``format_exc``), for the screen."""
    return knowledge.memo(
        "tfh401.format_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.traceback_formatters)
    )


def _fills(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """``results.append(f"{e}")``: a container filled with something that mentions the exception."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in knowledge.container_filling_methods
        and any(mentions(a, name) for a in (*node.args, *(k.value for k in node.keywords)))
    )


def _hands_on(handler: ast.ExceptHandler, name: str, screen: Screen, knowledge: Knowledge) -> bool:
    """s46: a call of the handler is handed a tool's result object built with the exception, and its ``try`` body
    calls the same callee (``mailbox.deliver(...)``: the rule's ``_delivered``, here by the callee's last name)."""
    calls = [n for stmt in handler.body for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    if not any(_result_object(n, screen, knowledge) and mentions(n, name) for n in calls):
        return False
    statement = next((t for t in screen.tries if any(h is handler for h in getattr(t, "handlers", ()))), None)
    if statement is None:
        return False
    body = {last_name(n.func) for stmt in getattr(statement, "body", ()) for n in ast.walk(stmt)
            if isinstance(n, ast.Call) and n.args}
    return any(last_name(n.func) in body for n in calls)


def _result_object(node: ast.AST, screen: Screen, knowledge: Knowledge) -> bool:
    """A constructor named for a tool's result (``ToolOutcome(...)``), or the module's own builder of one."""
    if not isinstance(node, ast.Call):
        return False
    name = last_name(node.func)
    functions, methods = result_builders(screen, knowledge)
    return name is not None and ((name[:1].isupper() and bool(words(name) & knowledge.tool_evidence_words))
                                 or name in functions or name in methods)


def _message_ast(node: ast.AST, name: str, knowledge: Knowledge) -> bool:
    """A message the model reads built with the exception (``ToolMessage(content=str(e))``, ``{"role": "tool", ...}``)."""
    if isinstance(node, ast.Call):
        lasts = knowledge.memo(
            "tfh401.message_names", lambda: frozenset(q.rsplit(".", 1)[1] for q in knowledge.message_constructors)
        )
        return last_name(node.func) in lasts and mentions(node, name)
    if isinstance(node, ast.Dict):
        pairs = {
            (k.value, v.value)
            for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
        }
        flagged = any(
            isinstance(k, ast.Constant) and k.value in knowledge.message_dict_flags
            and isinstance(v, ast.Constant) and v.value is True
            for k, v in zip(node.keys, node.values)
        )
        return (flagged or bool(pairs & set(knowledge.message_dict_forms))) and mentions(node, name)
    return False


def _helpers_called(handler: ast.ExceptHandler, name: str) -> set[str]:
    """Names of functions or ``self``/``cls`` methods called with something that mentions the exception."""
    out: set[str] = set()
    for stmt in handler.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call) and any(mentions(a, name) for a in (*n.args, *(k.value for k in n.keywords))):
                callee = _helper_name(n)
                if callee is not None:
                    out.add(callee)
    return out


def _helper_name(call: ast.Call) -> str | None:
    """The name a same-module helper is defined under: ``f(...)``, and ``self.m(...)``/``Cls.m(...)`` (a factory's
    signature types a positional kind)."""
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f.attr
    return None


def _text_names(handler: ast.ExceptHandler, name: str) -> frozenset[str]:
    """Names the handler assigns something that mentions the exception (``msg = f"failed: {e}"``)."""
    return frozenset(
        t.id
        for stmt in handler.body
        for n in ast.walk(stmt)
        if isinstance(n, ast.Assign) and mentions(n.value, name)
        for t in n.targets
        if isinstance(t, ast.Name)
    )


def _returned_helpers(defs: list[ast.FunctionDef | ast.AsyncFunctionDef], helpers: set[str]) -> set[str]:
    """s56: the helpers a helper's ``return`` hands its value to (``return _json(payload)``, ``return _res({...})``):
    the rule follows the text two helpers deep (``taint.FOLLOW_DEPTH``), so their definitions are read too."""
    out: set[str] = set()
    for d in defs:
        if d.name in helpers:
            for n in ast.walk(d):
                if isinstance(n, ast.Return) and isinstance(n.value, ast.Call):
                    callee = _helper_name(n.value)
                    if callee is not None and callee not in helpers:
                        out.add(callee)
    return out


def _helpers_called_after(
    defs: list[ast.FunctionDef | ast.AsyncFunctionDef], line: int, held: frozenset[str]
) -> set[str]:
    """Names of functions or ``self``/``cls`` methods the definition holding the handler at ``line`` calls after it
    with a name in ``held``: the text is followed into them as into a helper the handler calls."""
    holder = min(
        (d for d in defs if d.lineno <= line <= (d.end_lineno or d.lineno)),
        key=lambda d: (d.end_lineno or d.lineno) - d.lineno,
        default=None,
    )
    out: set[str] = set()
    if holder is None:
        return out
    for n in ast.walk(holder):
        if isinstance(n, ast.Call) and n.lineno > line and any(
            isinstance(a, ast.Name) and a.id in held for a in (*n.args, *(k.value for k in n.keywords))
        ):
            callee = _helper_name(n)
            if callee is not None:
                out.add(callee)
    return out


def screen_lines(screen: Screen, knowledge: Knowledge) -> list[int]:
    """Handlers whose body returns, yields or assigns the exception (or formats anything), and the same-module
    helpers the text goes through (their definitions are read too)."""
    formats = bool(_format_names(knowledge) & screen.call_names)
    out: list[int] = []
    helpers: set[str] = set()
    reaches = _may_reach_model(screen, knowledge)
    holding: list[tuple[int, frozenset[str]]] = []  # a reported handler's line, the names it assigns the text to
    for h in screen.handlers:
        if h.name is None and not formats:
            continue
        if any(
            isinstance(n, (ast.Return, ast.Yield, ast.Assign, ast.AugAssign, ast.AnnAssign))
            and n.value is not None
            and (formats or (h.name is not None and mentions(n.value, h.name)))
            # `x = e` keeps the object for a later `str(x)`; `return e` is a tool's result the framework stringifies
            and (not isinstance(n.value, ast.Name) or isinstance(n, (ast.Assign, ast.Return)))
            for stmt in h.body
            for n in ast.walk(stmt)
        ) or (h.name is not None and any(
            _fills(n, h.name, knowledge) or _message_ast(n, h.name, knowledge) or sends_ast(n, h.name, screen, knowledge)
            for stmt in h.body for n in ast.walk(stmt)
        )) or (h.name is not None and _hands_on(h, h.name, screen, knowledge)):
            if _ends_without_sink(h, screen, knowledge) or not reaches(h.lineno):
                continue  # the rule cannot report this handler's text (s42: read only where a handler is admitted)
            out.append(h.lineno)
            if h.name is not None:
                helpers.update(_helpers_called(h, h.name))
                held = _text_names(h, h.name)
                if held:
                    holding.append((h.lineno, held))
    out += stored_readers(screen)  # s45: a method returning an attribute a handler set to the text
    for d in screen.defs:  # s49: a helper handed the exception (:mod:`.exc_params`), and the helpers it calls with it
        for name in exception_params_ast(d, knowledge):
            out.append(d.lineno)  # type: ignore[attr-defined]
            helpers.update(_helpers_called(d, name))  # type: ignore[arg-type]
    returning = _returning_exception(screen)
    defs = definitions(screen.tree) if helpers or returning or holding else []
    for line, held in holding:
        # `msg = f"failed: {e}"` in the handler, then `return _summary(result=msg)` after it: the helper's body
        helpers.update(_helpers_called_after(defs, line, held))
    if helpers:
        helpers |= _returned_helpers(defs, helpers)
        out += [d.lineno for d in defs if d.name in helpers]
        # a same-module class called with the text: its __init__'s signature types a positional kind
        out += [m.lineno for c in classes_of(screen.tree) if c.name in helpers for m in c.body
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == "__init__"]
    if returning:
        # callers of a helper that returns the exception it caught: `result = self._run()` ... `str(result)`
        out += [
            d.lineno
            for d in defs
            if d.name in returning or any(isinstance(n, ast.Call) and last_name(n.func) in returning for n in ast.walk(d))
        ]
    return out



def _returning_exception(screen: Screen) -> set[str]:
    """Names of the definitions with a handler that returns the exception object it caught (``return e``, or as an
    item of a tuple: ``return None, e``, s41 D5)."""
    lines = {
        h.lineno
        for h in screen.handlers
        if h.name is not None
        and any(isinstance(n, ast.Return) and _holds_name(n.value, h.name) for stmt in h.body for n in ast.walk(stmt))
    }
    if not lines:
        return set()
    return {
        d.name for d in definitions(screen.tree)
        if any(d.lineno <= line <= (d.end_lineno or d.lineno) for line in lines)
    }


def _holds_name(value: ast.expr | None, name: str) -> bool:
    """``e`` or a tuple with ``e`` as an item (``None, e``), or with its text beside a literal ``None`` (``None,
    f"request failed: {e}"``: :func:`~.evidence.text_positions`, s44)."""
    if isinstance(value, ast.Tuple):
        return any(isinstance(el, ast.Name) and el.id == name for el in value.elts) or (
            any(isinstance(el, ast.Constant) and el.value is None for el in value.elts)
            and any(_text_of(el, name) for el in value.elts)
        )
    return isinstance(value, ast.Name) and value.id == name


def _text_of(value: ast.expr, name: str) -> bool:
    """``str(e)``, ``repr(e)``, an f-string formatting ``e`` or ``str(e)`` (as :func:`~.evidence._text_of`)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("str", "repr"):
        return len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Name) \
            and value.args[0].id == name
    if isinstance(value, ast.JoinedStr):
        return any(
            isinstance(part, ast.FormattedValue)
            and ((isinstance(part.value, ast.Name) and part.value.id == name) or _text_of(part.value, name))
            for part in value.values
        )
    return False


# ---------------------------------------------------------------- where a handler's text can go (s42)

_Def = ast.FunctionDef | ast.AsyncFunctionDef


class _Scope:
    """A function as :meth:`~.text.ExceptionText.audience` sees it: the names around it (enclosing classes and
    functions, its own), whether it is a method (directly in a class body) and of which class."""

    __slots__ = ("func", "names", "owner", "classes")

    def __init__(
        self, func: _Def | ast.ClassDef, names: list[str], owner: ast.ClassDef | None, classes: tuple[ast.ClassDef, ...]
    ) -> None:
        self.func, self.names, self.owner, self.classes = func, names, owner, classes


def _may_reach_model(screen: Screen, knowledge: Knowledge) -> Callable[[int], bool]:
    """Whether a handler at a line may be reported at all, as the rule follows its text: only in the function it
    is in (the taint is per function, and a function defined inside it does not run in the handler), only from the
    handler on (the traversal goes forward), and only at a ``return``/``yield`` of a value or a message construct;
    and a ``return`` only where :meth:`~.text.ExceptionText.audience` may say a model reads the result. So a handler
    is no candidate when its function has no such place at or after it, or when, in a module neither named for
    tools nor registering any, the function has no evidence of a model reading it (no tool decorator, no name of a
    tool around it, no tool run, no constructor named for a tool's result, no message construct, not imported by
    a tools module, not a method of a class whose base may be a tool base class or that may serve by name): it is
    ``"unread"`` (or a report's, a route's, a command's), whose returns are not reported. A handler outside a
    function, and every handler when the screen is not told the path, is kept."""
    path = screen.path
    tree = screen.tree
    if path is None or not isinstance(tree, ast.Module):
        return lambda line: True
    scopes: list[_Scope] | None = None
    read = False
    verdicts: dict[int, bool] = {}
    last_sinks: dict[int, int] = {}

    def reaches(line: int) -> bool:
        nonlocal scopes, read
        if scopes is None:  # read once a handler is admitted: nothing for a file without one
            scopes = _scopes(tree)
            read = _registers_tools(screen, knowledge) \
                or tool_named_module(path, module_dirs(path, knowledge.report_directory_depth), knowledge)
        lasts = _resolvable_lasts(screen, knowledge)
        inner = None
        for scope in scopes:  # outer scopes come before the scopes inside them
            if scope.func.lineno <= line <= (scope.func.end_lineno or scope.func.lineno):
                inner = scope
        if inner is None or isinstance(inner.func, ast.ClassDef):
            return True  # module level or a class body
        key = id(inner.func)
        assert not isinstance(inner.func, ast.ClassDef)
        if key not in last_sinks:
            last_sinks[key] = _last_sink(inner.func.body, lasts[0], knowledge)
        if last_sinks[key] < line:
            return False  # the text only goes forward: no return, yield or message at or after the handler
        if key not in verdicts:
            verdicts[key] = read or _scope_reaches(screen, knowledge, path, inner, lasts)
        return verdicts[key]
    return reaches


def _scopes(tree: ast.Module) -> list[_Scope]:
    """Every function and class of the module, each before the functions and classes inside it."""
    out: list[_Scope] = []
    _visit_scopes(tree, [], None, (), out)
    return out


def _visit_scopes(
    node: ast.AST, names: list[str], owner: ast.ClassDef | None, classes: tuple[ast.ClassDef, ...], out: list[_Scope]
) -> None:
    """:func:`_scopes` below ``node`` (a module-level function: a nested one calling itself would be a cycle keeping
    the scopes, and the tree they hold, for the cycle collector)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own = owner if owner is not None and any(s is child for s in owner.body) else None
            scope = _Scope(child, [*names, child.name], own, classes)
            out.append(scope)
            _visit_scopes(child, scope.names, None, classes, out)
        elif isinstance(child, ast.ClassDef):
            out.append(_Scope(child, names, None, classes))  # a class body: its handlers are kept
            _visit_scopes(child, [*names, child.name], child, (*classes, child), out)
        elif isinstance(child, ast.stmt) or isinstance(child, ast.ExceptHandler) \
                or type(child).__name__ == "match_case":
            _visit_scopes(child, names, None, classes, out)


def _ends_without_sink(handler: ast.ExceptHandler, screen: Screen, knowledge: Knowledge) -> bool:
    """The handler ends in ``raise``/``return`` (its names' text goes no further: ``leave_ExceptHandler``) and
    returns, yields and builds no message in its body: its text is reported nowhere. A body on the ``except``
    line is kept (the rule does not end such a handler's taint)."""
    body = handler.body
    if not body or not isinstance(body[-1], (ast.Raise, ast.Return)) or body[0].lineno == handler.lineno:
        return False
    return _last_sink(body, _resolvable_lasts(screen, knowledge)[0], knowledge) < 0


def _last_sink(body: list[ast.stmt], messages: frozenset[str], knowledge: Knowledge) -> int:
    """The line of the last place in the statements (not in the functions or classes defined in them) where TFH401
    can report: a ``return`` or ``yield`` of a value (not ``None``: a bare ``return``, ``return None``, a bare
    ``yield`` are none) or a message construct; -1 when there is none."""
    last = -1
    for n in _own_nodes(body):
        sink = False
        if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)):
            value = n.value
            sink = value is not None and not (isinstance(value, ast.Constant) and value.value is None)
        elif isinstance(n, ast.Call):  # a message, or (s46) a tool's result object a runner hands on
            name = last_name(n.func)
            sink = name in messages or (name is not None and name[:1].isupper() and bool(words(name) & knowledge.tool_evidence_words))
        elif isinstance(n, ast.Dict):
            sink = _message_dict(n, knowledge)
        if sink:
            assert isinstance(n, (ast.expr, ast.stmt))
            last = max(last, n.end_lineno or n.lineno)
    return last


def _registers_tools(screen: Screen, knowledge: Knowledge) -> bool:
    """A decorator of a tool registration verb anywhere (``@mcp.tool()``, ``@agent.tool``): the module may register
    tools (:attr:`~.text.ExceptionText._registers_tools`, read here without resolving the receiver)."""
    verbs = knowledge.tool_registration_verbs
    for d in screen.defs:
        assert isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
        for dec in d.decorator_list:
            func = dec.func if isinstance(dec, ast.Call) else dec
            if isinstance(func, ast.Attribute) and func.attr in verbs:
                return True
    return False


def _resolvable_lasts(screen: Screen, knowledge: Knowledge) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """:func:`_lasts`, once per file."""
    return screen.memo("tfh401.resolvable_lasts", lambda: _lasts(screen, knowledge))


def _lasts(screen: Screen, knowledge: Knowledge) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The last names a message constructor, a tool base class and a tool decorator may be called by here: their
    own, and the local names an import (``as``) or an assignment (``TM = ToolMessage``, ``t = mcp.tool()``) binds to
    one of them."""
    def local_names(wanted: frozenset[str]) -> frozenset[str]:
        out = set(wanted)
        for local, full in screen.import_bindings:
            if full.rsplit(".", 1)[-1] in wanted:
                out.add(local)
        for node in screen.binders:
            if isinstance(node, ast.Assign):
                value = node.value.func if isinstance(node.value, ast.Call) else node.value
                if last_name(value) in wanted:
                    out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        return frozenset(out)
    jsonrpc = frozenset(builders(screen)) if serves_mcp(screen, knowledge) else frozenset()  # s49: :mod:`.jsonrpc`
    return (
        local_names(frozenset(q.rsplit(".", 1)[-1] for q in knowledge.message_constructors)) | jsonrpc,
        local_names(frozenset(q.rsplit(".", 1)[-1] for q in knowledge.tool_base_classes)),
        local_names(frozenset(q.rsplit(".", 1)[-1] for q in knowledge.tool_decorators)),
    )


def _scope_reaches(
    screen: Screen, knowledge: Knowledge, path: str, scope: _Scope,
    lasts: tuple[frozenset[str], frozenset[str], frozenset[str]],
) -> bool:
    """Evidence that what the function returns or builds may reach a model, as
    :meth:`~.text.ExceptionText.audience` reads it (see :func:`_may_reach_model`): its decorators, the names around
    it, its class, a tools module importing it, and in its own body (not the functions or classes defined in it: the
    handler's text does not reach them) a tool run, a tool's result or error built, a message construct."""
    k = knowledge
    tool_words = k.tool_evidence_words
    messages, bases, decorators = lasts

    builders, builder_methods = result_builders(screen, k)
    imported = {local for local, _ in screen.import_bindings}

    def tool_result(node: ast.AST | None) -> bool:
        """A constructor named for a tool's or an action's result (``ActionResult(...)``: ``tool_result``), or a
        call of the module's own function or method building one (``_failure(...)``, ``self._error_result(...)``)."""
        if isinstance(node, ast.Await):
            node = node.value
        if not isinstance(node, ast.Call):
            return False
        f = node.func
        if isinstance(f, ast.Name) and f.id in builders and f.id not in imported:
            return True
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls") \
                and f.attr in builder_methods:
            return True
        name = last_name(f)
        return name is not None and name[:1].isupper() and bool(words(name) & tool_words)

    func = scope.func
    if any(last_name(d.func if isinstance(d, ast.Call) else d) in decorators for d in func.decorator_list):
        return True  # a tool decorator (``@tool``, ``@mcp.tool()``, resolved by the rule)
    if any(words(name) & tool_words for name in scope.names):
        return True
    for n in _own_nodes(func.body):
        t = type(n)
        if t is ast.Call:
            assert isinstance(n, ast.Call)
            if last_name(n.func) in messages:
                return True  # a message construct
        elif t is ast.Dict:
            assert isinstance(n, ast.Dict)
            if _message_dict(n, k):
                return True
        elif t is ast.Return or t is ast.Yield or t is ast.YieldFrom:
            if tool_result(getattr(n, "value", None)):
                return True  # returns a tool's result
        elif t is ast.ExceptHandler:
            assert isinstance(n, ast.ExceptHandler)
            if any(tool_result(c) for stmt in n.body for c in ast.walk(stmt)) or announces_tool_result_ast(n, k):
                return True  # a handler builds a tool's result or error, or announces one (``dispatches_tool``)
        elif isinstance(n, ast.Try) or type(n).__name__ == "TryStar":
            if getattr(n, "handlers", None) and (runs_tool_ast(getattr(n, "body", []), k)
                                                 or runs_with_tool_args_ast(getattr(n, "body", []), k)):
                return True  # runs a tool in a try it handles (``dispatches_tool``)
    if scope.owner is not None:
        return may_serve_by_name(screen) or any(_base_last(b) in bases for b in scope.owner.bases)
    return func.name in imported_by(path, tools_module_parts(k), "tools")


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of statements in their own scope: not the functions and classes defined in them (their own
    scopes); lambdas and comprehensions included."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        out.append(n)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def _base_last(base: ast.expr) -> str | None:
    """The last name of a base class (``BaseTool``, ``tools.BaseTool``, ``BaseTool[Args]``)."""
    while isinstance(base, ast.Subscript):
        base = base.value
    return last_name(base)


def _message_dict(node: ast.Dict, knowledge: Knowledge) -> bool:
    """A chat dict a model reads (``{"role": "tool", ...}``, ``{"isError": True, ...}``), as
    :meth:`~.text.ExceptionText.message_construct` reads it."""
    forms, flags = knowledge.message_dict_forms, knowledge.message_dict_flags
    if dict_parts_ast(node) is not None:
        return True  # s49: a JSON-RPC error response (an MCP server's: the rule reads the module, :mod:`.jsonrpc`)
    for key, value in zip(node.keys, node.values):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and (key.value, value.value) in forms:
                return True
            if key.value in flags and isinstance(value, ast.Constant) and value.value is True:
                return True
    return False
