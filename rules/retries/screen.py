"""The retry rules' ``ast`` screen: which lines of a file may hold a retry, and which lines its work may reach.

:func:`screen_lines` over-approximates :class:`~.model.RetryModel` (a test
holds that the narrowing hides no finding), so a file with no retry-like
construct is never parsed for the retry rules.
"""

from __future__ import annotations

import ast
import weakref
from typing import Sequence, TYPE_CHECKING

from ...linter.api import knowledge as kb

if TYPE_CHECKING:
    from ...linter.api import Screen


_RETRY_CALL_NAMES = frozenset(
    {
        "retry", "Retrying", "AsyncRetrying", "on_exception", "on_predicate", "retry_context",
        kb.RUNTIME_RETRY_METHOD, kb.RUNTIME_ATTEMPTS_METHOD, kb.LANGCHAIN_WITH_RETRY_METHOD, "ToolRetryMiddleware",
        "TenacityTransport", "AsyncTenacityTransport", "Retry", kb.LANGCHAIN_RETRY_FACTORY_NAME,
    }
)
_SCREEN_CACHE: "weakref.WeakKeyDictionary[Screen, tuple[list[int], list[int]]]" = weakref.WeakKeyDictionary()


def _ast_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _ast_delays(node: ast.AST | None) -> bool:
    """A literal tuple or list of at least two numbers (``loops.delay_literal`` on the ``ast`` tree)."""
    return isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) >= 2 \
        and all(isinstance(e, ast.Constant) and type(e.value) in (int, float) for e in node.elts)


def schedule_names(screen: "Screen") -> frozenset[str]:
    """s57: the names the module binds anywhere to literal delays (``RETRY_DELAYS = (1, 2, 4)``,
    ``backoff_delays: list[float] = [0.3, 0.6]``), for :func:`_ast_may_retry` (over-approximates
    ``loops.loop_schedule``: the model resolves the name in scope)."""
    out: set[str] = set()
    for node in screen.binders:
        if isinstance(node, ast.Assign) and _ast_delays(node.value):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _ast_delays(node.value):
            out.add(node.target.id)
    return frozenset(out)


def _ast_may_retry(loop: ast.For | ast.While, schedules: frozenset[str] = frozenset()) -> bool:
    """``while ...``, or ``for _ in range(n)`` / ``range(1, n)``, or ``for delay in <literal delays>`` (a literal,
    a name ``schedules`` holds, ``enumerate`` of either) (what :func:`hand_loop` accepts, over-approximated)."""
    if isinstance(loop, ast.While):
        return True
    it = loop.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and it.args:
        it = it.args[0]
    if isinstance(it, ast.Name):
        return it.id in schedules
    if _ast_delays(it):  # for delay in (1, 2, 4)
        return True
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and len(it.args) <= 2


def _ast_goes_round(h: ast.ExceptHandler) -> bool:
    if not h.body:
        return False
    if not isinstance(h.body[-1], (ast.Raise, ast.Return, ast.Break)):
        return True
    return any(isinstance(n, ast.Continue) for n in ast.walk(h))  # a branch goes round (issue 23)


def _ast_grows(loop: ast.For | ast.While) -> bool:
    """``while idx >= len(out):`` whose body appends to ``out`` (s40: ``grows_to_success``, over-approximated)."""
    if not isinstance(loop, ast.While):
        return False
    grown = {
        n.args[0].id for n in ast.walk(loop.test)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"
        and len(n.args) == 1 and isinstance(n.args[0], ast.Name)
    }
    return bool(grown) and any(
        isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr in ("append", "extend")
        and isinstance(x.func.value, ast.Name) and x.func.value.id in grown
        for b in loop.body
        for x in ast.walk(b)
    )


def screen_lines(screen: "Screen", knowledge: kb.Knowledge) -> tuple[list[int], list[int]]:
    """(lines of possible retries, lines of possible writes and declarations) from the ``ast`` tree.

    Over-approximates :class:`RetryModel` (a test holds the narrowing
    hides no finding): every call named like a retry construct or a
    configured decorator, every decorator, every loop holding a ``try`` whose
    handler goes round; and every call named like a write, every call of a
    method (it may be a same-module helper), every classified definition.
    """
    cached = _SCREEN_CACHE.get(screen)
    if cached is not None:
        return cached
    retry_names = set(_RETRY_CALL_NAMES) | {q.rsplit(".", 1)[-1] for q in knowledge.retry_decorators}
    # issue 11: ``from backoff import on_exception as retry_on`` (an import alias)
    retry_names |= {local for local, full in screen.import_bindings if full.rsplit(".", 1)[-1] in _RETRY_CALL_NAMES}
    # s40: a module's subclass of urllib3's ``Retry`` (``class _ApiRetry(Retry)``) is made like it
    top = screen.tree.body if isinstance(screen.tree, ast.Module) else []
    retry_subclasses = [c for c in top if isinstance(c, ast.ClassDef) and any(_ast_name(b) == "Retry" for b in c.bases)]
    retry_names |= {c.name for c in retry_subclasses}
    retry_lines: list[int] = [c.lineno for c in retry_subclasses]
    retry_lines.extend(m.lineno for c in retry_subclasses for m in c.body if isinstance(m, ast.FunctionDef))
    predicates: set[str] = set()  # functions passed to a retry or a condition builder (read as predicates)
    for call in screen.calls:
        name = _ast_name(call.func)
        if name in retry_names:
            retry_lines.append(call.lineno)
        if name in retry_names or name in kb.TENACITY_CONDITIONS or name in _RUNTIME_CONDITION_NAMES:
            for arg in (*call.args, *(k.value for k in call.keywords)):
                if isinstance(arg, ast.Name):
                    predicates.add(arg.id)
                elif isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):
                    predicates.add(arg.func.id)  # s36: retry=own_condition(), a module's condition class
    # loops around a try, and every decorator (own decorators are defined in the module)
    defs: set[str] = set()
    decorated: list[tuple[int, str]] = []
    def_lines: list[tuple[int, str]] = []
    spans: list[tuple[int, int, str]] = []
    span_defs: list[ast.FunctionDef | ast.AsyncFunctionDef] = []  # the def of each span (s55)
    loop_lines: list[int] = []
    returned: list[int] = []  # lines of `return retry(...)`: a factory (issue 23)
    returned_names: list[tuple[int, str]] = []
    handler_helpers: set[str] = set()  # names called in the handlers of possible retry loops
    schedules = schedule_names(screen)
    stack: list[ast.AST] = [screen.tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and _ast_name(node.value.func) in retry_names:
            returned.append(node.lineno)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
            returned_names.append((node.lineno, node.value.id))  # `return decorator` (a name bound to a retry)
        if isinstance(node, (ast.For, ast.While)) and _ast_may_retry(node, schedules):
            for stmt in node.body:
                inner = stmt.body if isinstance(stmt, (ast.With, ast.AsyncWith)) else [stmt]
                for s in inner:
                    if isinstance(s, ast.Try) and any(_ast_goes_round(h) for h in s.handlers):
                        # issue 11: the success exit may follow the try (`except: continue` / `break`)
                        # issue 23: or a flag (`while not ok: ... ok = True`)
                        if isinstance(node, ast.For) or any(
                            isinstance(x, (ast.Return, ast.Break))
                            or (isinstance(x, ast.Assign) and isinstance(x.value, ast.Constant) and x.value.value is True)
                            for b in node.body
                            for x in ast.walk(b)
                        ) or _ast_grows(node):
                            retry_lines.append(node.lineno)
                            loop_lines.append(node.lineno)
                            # issue 23: a helper called in a handler may sleep or give up: keep it
                            for h in s.handlers:
                                for c in ast.walk(h):
                                    if isinstance(c, ast.Call):
                                        f = c.func
                                        if isinstance(f, ast.Name):
                                            handler_helpers.add(f.id)
                                        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                                            handler_helpers.add(f.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            def_lines.append((node.lineno, node.name))
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.end_lineno or node.lineno, node.name))
            span_defs.append(node)
            for d in node.decorator_list:
                name = _ast_name(d)
                if name is not None:
                    decorated.append((d.lineno, name))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.stmt, ast.excepthandler)):
                stack.append(child)
            elif isinstance(child, ast.arguments):
                continue
    # retry factories: the innermost function holding a `return retry(...)`; their calls are retries
    if returned_names:
        held = {
            t.id
            for b in screen.binders
            if isinstance(b, ast.Assign) and isinstance(b.value, ast.Call) and _ast_name(b.value.func) in retry_names
            for t in b.targets
            if isinstance(t, ast.Name)
        }
        returned.extend(line for line, name in returned_names if name in held)
    factories: set[str] = set()
    retry_lines.extend(returned)  # a factory not applied here (another module applies it) is read where it is
    for line in returned:
        holders = [(start, name) for start, end, name in spans if start <= line <= end]
        if holders:
            factories.add(max(holders)[1])
    if factories:
        retry_names = retry_names | factories
        for call in screen.calls:
            if _ast_name(call.func) in factories:
                retry_lines.append(call.lineno)
    # a same-module decorator can retry only if a retry loop lies inside it
    defs = {name for start, end, name in spans if any(start <= line <= end for line in loop_lines)}
    for line, name in decorated:
        # s39: or a project's own retry decorator imported from another module (`@retry_decorator(retry_count=3)`)
        if name in retry_names or name in defs or "retr" in name.lower():
            retry_lines.append(line)
    aliases = {
        t.id
        for b in screen.binders
        if isinstance(b, ast.Assign) and isinstance(b.value, ast.Call) and _ast_name(b.value.func) in retry_names
        for t in b.targets
        if isinstance(t, ast.Name)
    }
    retry_lines.extend(line for line, name in decorated if name in aliases)
    if aliases:
        # issue 21: a held stage or attempts block used elsewhere: `stage(tool)`, `pipe(tool, stage)`,
        # `for attempt in attempts:`
        for call in screen.calls:
            if any(isinstance(a, ast.Name) and a.id in aliases for a in (call.func, *call.args)):
                retry_lines.append(call.lineno)
        for node in ast.walk(screen.tree):
            if isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.iter, ast.Name) and node.iter.id in aliases:
                retry_lines.append(node.lineno)
    if factories and aliases:
        # retry_decorator = _create_retry_decorator(llm); retry_decorator(fn)
        retry_lines.extend(call.lineno for call in screen.calls if isinstance(call.func, ast.Name) and call.func.id in aliases)
    retry_lines.extend(line for line, name in def_lines if name in predicates or name in handler_helpers)
    body = screen.tree.body if isinstance(screen.tree, ast.Module) else []
    for cls in body:
        # s36: a module's subclass of a tenacity condition, used as `retry=cls()`: its __init__ holds the predicate
        if isinstance(cls, ast.ClassDef) and cls.name in predicates and any(_ast_name(b) in kb.TENACITY_CONDITIONS for b in cls.bases):
            retry_lines.extend(m.lineno for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__")
    write_lines: list[int] = []
    if retry_lines:
        write_lines = _reached_lines(screen, knowledge, retry_lines, spans, span_defs)
    result = (retry_lines, write_lines)
    _SCREEN_CACHE[screen] = result
    return result


def _reached_lines(
    screen: "Screen",
    knowledge: kb.Knowledge,
    retry_lines: list[int],
    spans: list[tuple[int, int, str]],
    span_defs: Sequence[ast.FunctionDef | ast.AsyncFunctionDef] = (),
) -> list[int]:
    """Lines of what the retried work may reach: the same-module functions it calls or passes on.

    A retry's region is the innermost function holding its line (or, at
    module level, the calls starting on that line); every function named
    in a call or as an argument there is kept whole (its writes, its
    declarations). A retrying transport reaches every write on its client, anywhere.
    """
    regions: list[tuple[int, int]] = []
    calls = screen.calls
    params: dict[tuple[int, int], set[str]] = {}  # s55: a region's def -> its parameters, for `func(*args)` in it
    named: dict[tuple[int, int], str] = {}
    for line in retry_lines:
        holding = [(a, b) for a, b, _ in spans if a <= line <= b]
        if holding:
            regions.append(max(holding))
        else:
            ends = [c.end_lineno or c.lineno for c in calls if c.lineno == line]
            regions.append((line, max([line, *ends])))
    called: set[str] = set()
    transport = False
    # what names hold (issue 21: `wrapped = logged(charge)`, `pay = Payments()`, `k = keyed(calling_api(f))`)
    held: dict[str, set[str]] = {}
    for b in screen.binders:
        if isinstance(b, ast.Assign) and isinstance(b.value, (ast.Call, ast.Lambda, ast.Name, ast.Attribute)):
            inner: set[str] = set()
            for n in ast.walk(b.value):  # one walk for both (s41)
                if isinstance(n, ast.Name):
                    inner.add(n.id)
                elif isinstance(n, ast.Attribute):
                    inner.add(n.attr)
            for t in b.targets:
                if isinstance(t, ast.Name):
                    held.setdefault(t.id, set()).update(inner)
    region_set = set(regions)
    for (start, end, name), fn in zip(spans, span_defs):
        if (start, end) in region_set:
            named[(start, end)] = name
            params[(start, end)] = {p.arg for p in (*fn.args.posonlyargs, *fn.args.args)}
    any_param: set[str] = set().union(*params.values()) if params else set()
    wrappers: set[str] = set()  # s55: regions' defs whose retried work calls a parameter (`_retry_async(func)`)
    for call in calls:
        if not any(a <= call.lineno <= b for a, b in regions):
            continue
        func = call.func
        if isinstance(func, ast.Name):
            called.add(func.id)
            if func.id in any_param:
                for region in regions:
                    if region[0] <= call.lineno <= region[1] and func.id in params.get(region, ()):
                        wrappers.add(named[region])
            transport = transport or func.id in _TRANSPORT_NAMES
        elif isinstance(func, ast.Attribute):
            transport = transport or func.attr in _TRANSPORT_NAMES
            if isinstance(func.value, ast.Name):
                called.add(func.attr)  # self.m(), Cls.m() (a mark above @staticmethod), pay.m()
                called.add(func.value.id)
        for arg in (*call.args, *(k.value for k in call.keywords)):
            for el in arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]:
                if isinstance(el, ast.Name):
                    called.add(el.id)
                elif isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name):
                    called.add(el.attr)
                    called.add(el.value.id)
                elif isinstance(el, (ast.Call, ast.Lambda)):
                    # calling_api(lambda: charge(1)), keyed(calling_api(charge)), logged(charge)
                    for n in ast.walk(el):
                        if isinstance(n, ast.Name):
                            called.add(n.id)
                        elif isinstance(n, ast.Attribute):
                            called.add(n.attr)
    handed_in: list[int] = []
    if wrappers:
        # s55: the defs calling such a wrapper hand it the callable it retries (a def nested in them, a lambda,
        # a module function, `self._create`, `partial(send, body)`)
        for call in calls:
            if (call.args or call.keywords) and _ast_name(call.func) in wrappers:
                handed_in.extend(a for a, b, _ in spans if a <= call.lineno <= b)
                for arg in (*call.args, *(k.value for k in call.keywords)):
                    for n in ast.walk(arg):
                        if isinstance(n, ast.Name):
                            called.add(n.id)
                        elif isinstance(n, ast.Attribute):
                            called.add(n.attr)
    for _ in range(2):
        called |= {name for held_name in list(called) for name in held.get(held_name, ())}
    if called & module_classes(screen):
        called.add("__call__")  # an instance of a module class: its __call__ is the tool
    out = [a for a, _, name in spans if name in called] + handed_in
    if transport:
        write_names = set(kb.HTTP_METHOD_CLASSES) | kb.HTTP_REQUEST_METHODS
        out.extend(c.lineno for c in calls if _ast_name(c.func) in write_names)
    return out


def module_classes(screen: "Screen") -> set[str]:
    """The names of the classes defined at the top of the module."""
    tree = screen.tree
    body = tree.body if isinstance(tree, ast.Module) else []
    return {node.name for node in body if isinstance(node, ast.ClassDef)}


def module_class_fields(screen: "Screen") -> dict[str, dict[str, object]]:
    """The literal defaults of the fields declared at the top of the module's classes (s41: a config dataclass's
    ``retry_failed: bool = False``, ``max_retries: int = 0``): class name -> field -> value."""
    tree = screen.tree
    body = tree.body if isinstance(tree, ast.Module) else []
    return {
        node.name: {
            s.target.id: s.value.value
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and isinstance(s.value, ast.Constant)
        }
        for node in body
        if isinstance(node, ast.ClassDef)
    }


_TRANSPORT_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in kb.RETRY_TRANSPORTS)
_RUNTIME_CONDITION_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in kb.RUNTIME_CONDITIONS)
