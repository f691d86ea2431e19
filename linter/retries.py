"""The retry model: every retry in a file, described as data, found in the engine's one traversal.

Rules never re-discover retries. A rule that needs them lists
``RetryModel`` in its ``models`` (see ``Rule.models``); the engine makes one
model per file, runs it in the same traversal right after the name resolver
(so it has seen a node before any rule does), and hands it to the rules as
``self.ctx.models[RetryModel]``. A rule reads ``model.retries`` (complete
from ``leave_Module`` on: rules report there) or ``model.retry_at(node)``.

What counts as a retry (``Retry.kind``):

- ``tenacity``: ``@retry``, ``@retry(...)``, ``@Retrying(...)``/``AsyncRetrying``,
  ``Retrying(...)(fn, ...)``, ``for attempt in Retrying(...): with attempt: ...``;
- ``backoff``: ``@on_exception(...)``/``@on_predicate(...)``; ``stamina``:
  ``@retry(on=...)`` and ``for attempt in retry_context(on=...)``;
- ``runtime``: this project's ``clock.retrying(...)`` and ``tool.terse.retry(...)``,
  with the retried work read from ``pipe(calling_api(fn), ...)`` or ``stage(fn)``;
- ``configured``: a decorator named under ``retry-decorators``;
- ``loop``: ``for _ in range(n)`` or ``while`` around a ``try`` whose handler
  goes round again (the handlers that do are the condition);
- ``own-decorator``: a use of a decorator defined in this module whose wrapper
  loops around a ``try`` calling the wrapped function (the wrapper's handlers
  are the condition);
- ``with-retry`` (LangChain ``x.with_retry(...)``), ``tool-middleware``
  (``ToolRetryMiddleware(...)``), ``transport`` (pydantic-ai
  ``TenacityTransport``/``AsyncTenacityTransport``), ``urllib3`` (``Retry(...)``
  given to ``HTTPAdapter(max_retries=...)``): policies that retry whatever
  they wrap (``Retry.methods`` says which HTTP methods, ``None`` all).

Condition, stop and wait are literal data or :data:`UNKNOWN` (held in a
variable, built elsewhere, passed as ``**kwargs``); a rule that needs an
unknown part stays silent. A part the code does not write is the library's
default, described as data (tenacity without ``stop=`` never stops).

The retried work: ``Retry.function`` (a decorated ``def``), ``Retry.body``
(the statements a loop or an ``attempt`` block runs again), ``Retry.callee``
(the function passed to a controller). After the traversal,
``Retry.effects`` holds the calls with a known class (``linter/effects.py``)
in that work and, one level down, in same-module functions and methods it
calls; :func:`candidate_lines` gives the narrowing those lines.
"""

from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Sequence, Union

import libcst as cst

from . import knowledge as kb
from .effects import Effect, classify_call, declared_class, has_idempotency_key
from .names import Names, dotted
from .rule import Rule, keyword_arg, positional

if TYPE_CHECKING:
    from .rule import FileContext, Screen


class _Unknown:
    """Not literal: held in a variable, built elsewhere, or passed as ``**kwargs``."""

    _instance: "_Unknown | None" = None

    def __new__(cls) -> "_Unknown":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False


UNKNOWN = _Unknown()


@dataclass(frozen=True)
class Condition:
    """What a retry retries on.

    ``node``: where it is written (None: the library default applies).
    ``every_exception``: any ``Exception`` is retried (no condition, or
    ``Exception``/``BaseException`` named). ``exceptions``: the exception types
    named (qualified where imported, builtins bare). ``excluded``: types named
    as *not* retried (``retry_if_not_exception_type``). ``statuses``: which of
    ``knowledge.SAMPLE_STATUSES`` a literal status test retries (None: no
    status test). ``tags``: ToolError tags retried (the runtime).
    ``permanent_4xx``: a status test that treats the whole 4xx range,
    429 included, as not retryable (TFH104), when there is one.
    """

    node: cst.CSTNode | None = None
    every_exception: bool = False
    exceptions: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    statuses: frozenset[int] | None = None
    tags: frozenset[str] = frozenset()
    permanent_4xx: cst.CSTNode | None = None
    default: bool = False


@dataclass(frozen=True)
class Stop:
    """How a retry ends: ``attempts`` (calls, first included), ``seconds``; ``never``: it does not."""

    node: cst.CSTNode | None = None
    attempts: int | None = None
    seconds: float | None = None
    never: bool = False


@dataclass(frozen=True)
class Wait:
    """The wait between attempts; ``none``: none at all (tenacity without ``wait=``, ``wait_none()``)."""

    node: cst.CSTNode | None = None
    none: bool = False


@dataclass(frozen=True)
class Loop:
    """A hand-written retry loop: the loop, its ``try``, the handlers that go round, whether the ``try`` exits on success."""

    node: Union[cst.For, cst.While]
    try_node: cst.Try
    handlers: tuple[cst.ExceptHandler, ...]
    success_exit: bool


Part = Union[Condition, _Unknown]


@dataclass
class Retry:
    """One retry. ``anchor`` is the node findings report on (decorator, call, loop)."""

    kind: str
    anchor: cst.CSTNode
    condition: Union[Condition, _Unknown] = UNKNOWN
    stop: Union[Stop, _Unknown] = UNKNOWN
    wait: Union[Wait, _Unknown] = UNKNOWN
    function: cst.FunctionDef | None = None
    body: cst.BaseSuite | None = None
    callee: cst.BaseExpression | None = None
    loop: Loop | None = None
    methods: Union[frozenset[str], None, _Unknown] = UNKNOWN  # HTTP methods a transport retries; None: all
    decorator: str | None = None  # own-decorator / configured: the decorator's name
    effects: list[Effect] = field(default_factory=list)
    work_known: bool = False  # the retried work was found and read (effects are complete)
    calls: set[str] = field(default_factory=set)  # last names of every call in the retried work (not helpers)
    honours_retry_after: bool = False  # retries a 429 carrying Retry-After whatever its status list says (urllib3)


# ---------------------------------------------------------------- literal reading


def _int(node: cst.BaseExpression | None) -> int | None:
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(node, cst.Attribute) and node.attr.value.isupper():
        # HTTPStatus.TOO_MANY_REQUESTS, codes.too_many_requests
        import http

        try:
            return int(http.HTTPStatus[node.attr.value])
        except KeyError:
            return None
    return None


def _number(node: cst.BaseExpression | None) -> float | None:
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return float(ast.literal_eval(node.value))
        except (ValueError, SyntaxError):
            return None
    return None


def _ints(node: cst.BaseExpression) -> frozenset[int] | None:
    """A literal collection (or ``range``) of ints."""
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out = set()
        for el in node.elements:
            v = _int(el.value)
            if v is None:
                return None
            out.add(v)
        return frozenset(out)
    if isinstance(node, cst.Call) and dotted(node.func) in ("range", "frozenset", "set", "tuple", "list"):
        args = [a.value for a in node.args if a.keyword is None and not a.star]
        if dotted(node.func) == "range":
            nums = [_int(a) for a in args]
            if not nums or any(n is None for n in nums) or len(nums) > 3:
                return None
            return frozenset(range(*[n for n in nums if n is not None]))
        if len(args) == 1:
            return _ints(args[0])
    return None


_STATUS_WORDS = ("status", "code")


def _is_status(node: cst.BaseExpression) -> bool:
    """``resp.status_code``, ``e.response.status``, ``status``, ``code``, ``int(status)``."""
    if isinstance(node, cst.Call) and dotted(node.func) == "int" and len(node.args) == 1:
        return _is_status(node.args[0].value)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get":
        return _is_status(node.func.value) or any(
            isinstance(a.value, cst.SimpleString) and "status" in a.value.value for a in node.args
        )
    if isinstance(node, cst.Subscript):
        return any(
            isinstance(s.slice, cst.Index) and isinstance(s.slice.value, cst.SimpleString) and "status" in s.slice.value.value
            for s in node.slice
        )
    name = dotted(node)
    if name is None:
        return False
    last = name.rsplit(".", 1)[-1].lower()
    return any(w in last for w in _STATUS_WORDS) and "reason" not in last


_OPS = {
    cst.Equal: lambda a, b: a == b,
    cst.NotEqual: lambda a, b: a != b,
    cst.LessThan: lambda a, b: a < b,
    cst.LessThanEqual: lambda a, b: a <= b,
    cst.GreaterThan: lambda a, b: a > b,
    cst.GreaterThanEqual: lambda a, b: a >= b,
}
_SAMPLE = frozenset(kb.SAMPLE_STATUSES)


def _operand(node: cst.BaseExpression) -> tuple[str, object] | None:
    """("status", divisor) for the status (or ``status // 100``), ("int", n), ("set", {...}), else None."""
    if _is_status(node):
        return ("status", 1)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.FloorDivide) and _is_status(node.left):
        d = _int(node.right)
        return ("status", d) if d else None
    if isinstance(node, cst.UnaryOperation):
        return None
    v = _int(node)
    if v is not None:
        return ("int", v)
    s = _ints(node)
    if s is not None:
        return ("set", s)
    return None


def _compare(node: cst.Comparison) -> frozenset[int] | None:
    left = _operand(node.left)
    if left is None:
        return None
    result = set(_SAMPLE)
    seen_status = left[0] == "status"
    for target in node.comparisons:
        right = _operand(target.comparator)
        if right is None:
            return None
        op = type(target.operator)
        if right[0] == "status":
            seen_status = True
        if left[0] == "status" and right[0] in ("int", "set") or right[0] == "status" and left[0] in ("int", "set"):
            status, other = (left, right) if left[0] == "status" else (right, left)
            flipped = status is right
            div = status[1]
            assert isinstance(div, int)
            keep = set()
            for s in _SAMPLE:
                v = s // div
                if op in (cst.In, cst.NotIn):
                    if other[0] != "set" or flipped:
                        return None
                    hit = v in other[1]  # type: ignore[operator]
                    if op is cst.NotIn:
                        hit = not hit
                elif op in _OPS and other[0] == "int":
                    a, b = (other[1], v) if flipped else (v, other[1])
                    hit = _OPS[op](a, b)
                else:
                    return None
                if hit:
                    keep.add(s)
            result &= keep
        else:
            return None
        left = right
    return frozenset(result) if seen_status else None


def status_set(node: cst.BaseExpression) -> frozenset[int] | None:
    """Which sample statuses make a literal status test true; None when it tests no status.

    ``and``/``or``/``not`` combine; a part that tests no status (``isinstance``)
    is neutral.
    """
    if isinstance(node, cst.Comparison):
        return _compare(node)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = status_set(node.expression)
        return None if inner is None else _SAMPLE - inner
    if isinstance(node, cst.BooleanOperation):
        left, right = status_set(node.left), status_set(node.right)
        if left is None:
            return right
        if right is None:
            return left
        return left & right if isinstance(node.operator, cst.And) else left | right
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "startswith":
        # str(status).startswith("5")
        obj = node.func.value
        if isinstance(obj, cst.Call) and dotted(obj.func) == "str" and obj.args and _is_status(obj.args[0].value):
            args = positional(node)
            if args and isinstance(args[0].value, cst.SimpleString):
                prefix = args[0].value.evaluated_value
                if isinstance(prefix, str):
                    return frozenset(s for s in _SAMPLE if str(s).startswith(prefix))
    return None


def _whole_4xx(statuses: frozenset[int] | None) -> bool:
    """A status set that is exactly the 4xx range (429 among them)."""
    if statuses is None:
        return False
    fours = {s for s in _SAMPLE if 400 <= s < 500}
    return statuses == fours


# ---------------------------------------------------------------- the model


def _exits(stmt: cst.CSTNode) -> bool:
    """A statement that leaves the loop: raise, return, break."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Raise, cst.Return, cst.Break)) for s in stmt.body)
    return False


def _body_stmts(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    if isinstance(suite, cst.IndentedBlock):
        return suite.body
    return [cst.SimpleStatementLine(body=list(suite.body))] if isinstance(suite, cst.SimpleStatementSuite) else []


def _goes_round(handler: cst.ExceptHandler) -> bool:
    """The handler's last statement does not leave the loop (``continue`` goes round)."""
    stmts = _body_stmts(handler.body)
    return bool(stmts) and not _exits(stmts[-1])


def _has_success_exit(suite: cst.BaseSuite, *, shallow: bool = False) -> bool:
    """A ``break``/``return`` in the ``try`` body; ``shallow``: at most one ``if``/``with`` down (a worker loop's exits sit deep)."""
    stack: list[tuple[cst.CSTNode, int]] = [(s, 0) for s in _body_stmts(suite)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (cst.Break, cst.Return)):
            return True
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.For, cst.While)):
            continue
        if isinstance(node, cst.BaseCompoundStatement):
            depth += 1
            if shallow and depth > 2:
                continue
        stack.extend((child, depth) for child in node.children)
    return False


def _direct_exit(suite: cst.BaseSuite, flags: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """A ``break``/``return`` as a statement of the suite, in a ``with`` there, or in the body (not the ``else``) of an ``if`` there.

    A retry's attempt exits when it worked; a daemon's exit sits in an
    ``else`` (``if self.pool: ... else: break``), deeper in its program, or
    under a test of the loop's own flag (``while self._running: ... if not
    self._running: break``): ``flags`` are the names the loop's test reads.
    """
    for stmt in _body_stmts(suite):
        if _exits_cleanly(stmt):
            return True
        if isinstance(stmt, cst.If) and flags and _names_in(stmt.test) & flags:
            continue
        if isinstance(stmt, (cst.If, cst.With)) and any(_exits_cleanly(s) for s in _body_stmts(stmt.body)):
            return True
    return False


def _exits_cleanly(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(s, (cst.Return, cst.Break)) for s in stmt.body)


def _narrows(handler: cst.ExceptHandler) -> bool:
    """The handler decides from the exception whether to go round (``if "timed out" in str(e): ... else: raise``)."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return False
    bound = handler.name.name.value
    for n in _walk(handler.body):
        if isinstance(n, cst.If) and bound in _names_in(n.test):
            branches: list[cst.CSTNode] = [n.body]
            if n.orelse is not None:
                branches.append(n.orelse)
            if any(isinstance(m, (cst.Raise, cst.Return, cst.Break)) for b in branches for m in _walk(b)):
                return True
        if isinstance(n, cst.Assign) and bound in _names_in(n.value) and not _mere_record(n.value, bound):
            # stop = self._should_stop(e) ... if stop: raise
            if any(isinstance(m, cst.Raise) for m in _walk(handler.body)):
                return True
    return False


def _mere_record(value: cst.BaseExpression, bound: str) -> bool:
    """``last = e``, ``msg = str(e)``, ``text = f"...{e}"``: keeping the exception, not deciding on it."""
    if isinstance(value, cst.Name):
        return True
    if isinstance(value, (cst.FormattedString, cst.ConcatenatedString, cst.SimpleString)):
        return True
    if isinstance(value, cst.Call) and dotted(value.func) in ("str", "repr", "type", "format_exc", "traceback.format_exc"):
        return True
    return False


_BOOKKEEPING_CALL_WORDS = ("log", "print", "debug", "info", "warn", "sleep", "time", "monotonic")
_MAX_WHILE_ATTEMPT_STATEMENTS = 30


def _subscripts(suite: cst.BaseSuite, name: str) -> bool:
    """Whether ``name`` indexes or slices something in the suite (``texts[i : i + n]``)."""
    for n in _walk(suite):
        if isinstance(n, cst.SubscriptElement) and name in _names_in(n):
            return True
    return False


def _success_after_try(loop: Union[cst.For, cst.While], trynode: cst.Try) -> bool:
    """A ``break``/``return`` right after the ``try``, in the loop body or in a ``with`` around it
    (``try: x = f() / except E: continue / break``: the handler skips it, success reaches it)."""
    blocks = [_body_stmts(loop.body)] + [_body_stmts(s.body) for s in _body_stmts(loop.body) if isinstance(s, cst.With)]
    for stmts in blocks:
        for i, stmt in enumerate(stmts):
            if stmt is trynode and i + 1 < len(stmts):
                nxt = stmts[i + 1]
                return isinstance(nxt, cst.SimpleStatementLine) and any(isinstance(x, (cst.Break, cst.Return)) for x in nxt.body)
    return False


def _names_in(node: cst.CSTNode) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.add(n.value)
        stack.extend(n.children)
    return out


def _loop_try(loop: Union[cst.For, cst.While]) -> cst.Try | None:
    """The ``try`` a retry loop goes round (directly in the loop, or under one ``with``)."""
    for stmt in _body_stmts(loop.body):
        if isinstance(stmt, cst.Try):
            return stmt
        if isinstance(stmt, cst.With):
            for inner in _body_stmts(stmt.body):
                if isinstance(inner, cst.Try):
                    return inner
    return None


_COUNTER_WORDS = ("attempt", "retr", "tries", "try")


def hand_loop(loop: Union[cst.For, cst.While]) -> Loop | None:
    """A hand-written retry loop, or None.

    ``for x in range(...)`` where ``x`` is ``_``-like, named like a counter, or
    unused in the ``try``; or any ``while``. The loop must hold a ``try`` with
    a handler that goes round again; a ``while`` whose ``try`` has no success
    exit (``break``/``return``) is a worker or polling loop, not a retry.
    """
    if isinstance(loop, cst.For):
        it = loop.iter
        if not (isinstance(it, cst.Call) and dotted(it.func) == "range"):
            return None
        # range(n), range(1, n + 1); a start elsewhere or a step walks over data (batches)
        if len(it.args) > 2 or any(a.star or a.keyword for a in it.args):
            return None
        if len(it.args) == 2 and _int(it.args[0].value) not in (0, 1):
            return None
    trynode = _loop_try(loop)
    if trynode is None:
        return None
    if isinstance(loop, cst.For):
        target = loop.target
        if not isinstance(target, cst.Name):
            return None
        name = target.value
        if not (name.startswith("_") or any(w in name.lower() for w in _COUNTER_WORDS)):
            if name in _names_in(trynode.body) or _subscripts(loop.body, name):
                return None
    else:
        # a worker loop does work before its try (``item = await queue.get()``); a retry loop
        # goes straight to it (counting and logging at most)
        for stmt in _body_stmts(loop.body):
            if stmt is trynode or (isinstance(stmt, cst.With) and trynode in _body_stmts(stmt.body)):
                break
            if not isinstance(stmt, cst.SimpleStatementLine):
                return None
            for n in _walk(stmt):
                if isinstance(n, cst.Await):
                    return None
                if isinstance(n, cst.Call):
                    callee = (dotted(n.func) or "").rsplit(".", 1)[-1].lower()
                    if not any(w in callee for w in _BOOKKEEPING_CALL_WORDS):
                        return None
        # a daemon's try body is a program; a retry's is an attempt
        if sum(1 for n in _walk(trynode.body) if isinstance(n, cst.BaseStatement)) > _MAX_WHILE_ATTEMPT_STATEMENTS:
            return None
    handlers = tuple(h for h in trynode.handlers if _goes_round(h))
    if not handlers:
        return None
    if isinstance(loop, cst.While):
        flags = _names_in(loop.test) - {"True", "self", "not"}
        success = _direct_exit(trynode.body, flags) or (
            trynode.orelse is not None and _direct_exit(trynode.orelse.body, flags)
        )
    else:
        success = _has_success_exit(trynode.body) or (trynode.orelse is not None and _has_success_exit(trynode.orelse.body))
    success = success or _success_after_try(loop, trynode)  # issue 11: `except: continue` then `break`
    if isinstance(loop, cst.While) and not success:
        return None
    return Loop(loop, trynode, handlers, success)


class RetryModel:
    """Per-file collector (an engine model: one instance per file, dispatched right after the resolver)."""

    def __init__(self, ctx: "FileContext") -> None:
        self.ctx = ctx
        self.names: Names = ctx.names
        self.knowledge = ctx.knowledge
        self.retries: list[Retry] = []
        self._by_anchor: dict[int, Retry] = {}
        self._scopes: dict[int, list[Retry]] = {}  # id(node whose subtree is retried work) -> retries
        self._active: list[list[Retry]] = []
        self._functions: list[cst.FunctionDef] = []
        self._classes: list[cst.ClassDef] = []
        self._effects_of: dict[int, list[Effect]] = {}  # id(def) -> direct effects
        self._helper_calls: dict[int, list[tuple[str, str | None]]] = {}  # id(retry) -> (name, class)
        self._calls_from: dict[int, list[tuple[str, str | None]]] = {}  # id(def) -> same-module helpers it calls
        self._module_defs: dict[str, cst.FunctionDef] = {}
        self._methods: dict[tuple[str, str], cst.FunctionDef] = {}
        self._local_classes: dict[str, str] = {}
        self._own_decorators: dict[str, tuple[Loop, Condition | _Unknown]] = {}
        self._aliases: dict[str, cst.Call] = {}  # name -> retry factory call assigned to it
        self._clients: dict[str, cst.Call] = {}  # receiver text -> the retrying transport mounted on it
        self._client_effects: list[tuple[str, Effect]] = []
        self._imports: frozenset[str] = frozenset()
        self.finished = False

    # ------------------------------------------------------------ queries

    def retry_at(self, node: cst.CSTNode) -> Retry | None:
        return self._by_anchor.get(id(node))

    def exception_names(self, node: cst.BaseExpression) -> tuple[str, ...] | None:
        """The exception types a type or tuple names, as the model reads them (None: not literal)."""
        return self._exception_names(node)

    def function_effects(self, fn: cst.FunctionDef) -> list[Effect]:
        """The classified calls a function makes: its own, then one level into the same-module
        functions and methods it calls (``helper`` set), skipping helpers declared read-safe or
        idempotent. Complete once the module has been left."""
        out = list(self._effects_of.get(id(fn), []))
        seen = {id(e.node) for e in out}
        for name, cls_name in self._calls_from.get(id(fn), []):
            helper = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
            if helper is None or helper is fn:
                continue
            if declared_class(helper, self.names) in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                continue
            for effect in self._effects_of.get(id(helper), []):
                if id(effect.node) not in seen:
                    seen.add(id(effect.node))
                    out.append(Effect(effect.node, effect.cls, effect.what, effect.keyed, helper=helper.name.value))
        return out

    def retried_functions(self, retry: Retry) -> list[cst.FunctionDef]:
        """The same-module functions a retry runs: the decorated one, or the callee a controller is
        given (``Retrying(...)(fetch)``, ``pipe(calling_api(fetch), clock.retrying(...))``)."""
        if retry.function is not None:
            return [retry.function]
        if retry.callee is None:
            return []
        out = []
        for name, cls_name in self._callee_targets(retry.callee):
            fn = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
            if fn is not None:
                out.append(fn)
        return out

    def helpers_called(self, fn: cst.FunctionDef) -> list[cst.FunctionDef]:
        """The same-module functions and methods ``fn`` calls (one level), in call order, once each."""
        out: list[cst.FunctionDef] = []
        for name, cls_name in self._calls_from.get(id(fn), []):
            helper = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
            if helper is not None and helper is not fn and all(h is not helper for h in out):
                out.append(helper)
        return out

    # ------------------------------------------------------------ traversal

    def visit_Module(self, node: cst.Module) -> None:
        self._imports = self.ctx.screen.import_roots
        for stmt in node.body:
            if isinstance(stmt, cst.FunctionDef):
                self._module_defs[stmt.name.value] = stmt
                self._index_own_decorator(stmt)
            elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
                for member in stmt.body.body:
                    if isinstance(member, cst.FunctionDef):
                        self._methods[(stmt.name.value, member.name.value)] = member
        for fn in self._module_defs.values():
            cls = declared_class(fn, self.names)
            if cls is not None:
                self._local_classes[fn.name.value] = cls

    def leave_Module(self, node: cst.Module) -> None:
        self._finish()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)
        self._effects_of[id(node)] = []
        for dec in node.decorators:
            retry = self._decorator_retry(dec.decorator, node)
            if retry is not None:
                self._add(retry, scope=node)
        self._enter(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._leave(node)
        self._functions.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._enter(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._leave(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._enter(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._leave(node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._enter(node)

    def leave_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._leave(node)

    def visit_For(self, node: cst.For) -> None:
        retry = self._iterator_retry(node)
        if retry is None:
            retry = self._loop_retry(node)
        if retry is not None:
            self._add(retry, scope=retry.body)

    def visit_While(self, node: cst.While) -> None:
        retry = self._loop_retry(node)
        if retry is not None:
            self._add(retry, scope=retry.body)

    def visit_Assign(self, node: cst.Assign) -> None:
        # my_retry = retry(stop=...), later @my_retry / for a in my_retry
        if isinstance(node.value, cst.Call) and self._factory_kind(node.value.func) is not None:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    self._aliases[t.target.value] = node.value
        for t in node.targets:
            self._bind_client(t.target, node.value)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_client(node.asname.name, node.item)

    def _bind_client(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """``client = httpx.AsyncClient(transport=TenacityTransport(...))``: requests on ``client`` are retried."""
        if not isinstance(value, cst.Call):
            return
        transport = keyword_arg(value, "transport")
        name = dotted(target)
        if transport is None or name is None or not isinstance(transport.value, cst.Call):
            return
        if self.names.qualname(transport.value.func) in kb.RETRY_TRANSPORTS:
            self._clients[name] = transport.value

    def visit_Call(self, node: cst.Call) -> None:
        retry = self._call_retry(node)
        if retry is not None:
            scope: cst.CSTNode | None = retry.callee if isinstance(retry.callee, cst.Lambda) else None
            self._add(retry, scope=scope)
        self._record_effect(node)

    # ------------------------------------------------------------ scopes and effects

    def _add(self, retry: Retry, scope: cst.CSTNode | None) -> None:
        if id(retry.anchor) in self._by_anchor:
            return
        self.retries.append(retry)
        self._by_anchor[id(retry.anchor)] = retry
        self._helper_calls[id(retry)] = []
        if scope is not None:
            self._scopes.setdefault(id(scope), []).append(retry)
            retry.work_known = True

    def _enter(self, node: cst.CSTNode) -> None:
        found = self._scopes.get(id(node))
        if found:
            self._active.append(found)

    def _leave(self, node: cst.CSTNode) -> None:
        found = self._scopes.get(id(node))
        if found and self._active and self._active[-1] is found:
            self._active.pop()

    def _scope_statements(self) -> Sequence[cst.BaseStatement]:
        if self._functions:
            return _body_stmts(self._functions[-1].body)
        return []

    def _record_effect(self, node: cst.Call) -> None:
        if self._active:
            func = node.func
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
            if last is not None:
                for group in self._active:
                    for retry in group:
                        retry.calls.add(last)
        found = classify_call(node, self.names, self.knowledge, self._local_classes, self._imports)
        if found is not None:
            cls, what = found
            effect = Effect(node, cls, what, has_idempotency_key(node, self._scope_statements()))
            if self._functions:
                self._effects_of[id(self._functions[-1])].append(effect)
            if isinstance(node.func, cst.Attribute):
                receiver = dotted(node.func.value)
                if receiver is not None:
                    self._client_effects.append((receiver, effect))
            for group in self._active:
                for retry in group:
                    retry.effects.append(effect)
            return
        if not self._active and not self._functions:
            return
        helper = self._helper_of(node.func)
        if helper is not None and self._functions:
            self._calls_from.setdefault(id(self._functions[-1]), []).append(helper)
        if helper is not None:
            for group in self._active:
                for retry in group:
                    self._helper_calls[id(retry)].append(helper)

    def _helper_of(self, func: cst.BaseExpression) -> tuple[str, str | None] | None:
        """A same-module function or method (name, class name) that a call reaches, or None."""
        if isinstance(func, cst.Name):
            if func.value in self._module_defs and self.names.lookup(func.value) is None:
                return (func.value, None)
            return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and self._classes:
            if func.value.value in ("self", "cls"):
                cls_name = self._classes[-1].name.value
                if (cls_name, func.attr.value) in self._methods:
                    return (func.attr.value, cls_name)
        return None

    def _finish(self) -> None:
        by_transport = {id(call): name for name, call in self._clients.items()}
        for retry in self.retries:
            if retry.kind == "transport":
                name = by_transport.get(id(retry.anchor))
                if name is not None:
                    retry.work_known = True
                    retry.effects.extend(e for receiver, e in self._client_effects if receiver == name)
                continue
            helpers = list(self._helper_calls.get(id(retry), []))
            own = retry.function
            if own is None and retry.callee is not None:
                targets = self._callee_targets(retry.callee)
                if targets:
                    helpers.extend(targets)
                    retry.work_known = True
            if own is not None:
                declared = declared_class(own, self.names)
                if declared in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                    retry.effects = []
                    continue
                if declared is not None:
                    where: cst.CSTNode = own.decorators[0] if own.decorators else own
                    retry.effects.insert(0, Effect(where, declared, f"{own.name.value}() (declared)", False))
            seen: set[int] = {id(e.node) for e in retry.effects}
            for name, cls_name in helpers:
                fn = self._methods.get((cls_name, name)) if cls_name else self._module_defs.get(name)
                if fn is None or fn is own:
                    continue
                declared = declared_class(fn, self.names)
                if declared in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
                    continue
                for effect in self._effects_of.get(id(fn), []):
                    if id(effect.node) not in seen:
                        seen.add(id(effect.node))
                        retry.effects.append(
                            Effect(effect.node, effect.cls, effect.what, effect.keyed, helper=fn.name.value)
                        )
        self.finished = True

    def _callee_targets(self, callee: cst.BaseExpression) -> list[tuple[str, str | None]]:
        """Same-module functions a callee reaches; a list (``tools=[f, g]``) reaches each."""
        if isinstance(callee, (cst.List, cst.Tuple)):
            out = []
            for el in callee.elements:
                found = self._callee_target(el.value)
                if found is not None:
                    out.append(found)
            return out
        found = self._callee_target(callee)
        return [found] if found is not None else []

    def _callee_target(self, callee: cst.BaseExpression) -> tuple[str, str | None] | None:
        if isinstance(callee, cst.Call):
            # RunnableLambda(fn), partial(fn, ...), calling_api(fn, ...)
            pos = positional(callee)
            return self._callee_target(pos[0].value) if pos else None
        return self._helper_of(callee) if isinstance(callee, (cst.Name, cst.Attribute)) else None

    # ------------------------------------------------------------ recognising retries

    def _factory_kind(self, func: cst.BaseExpression) -> str | None:
        qn = self.names.qualname(func)
        if qn is None:
            return None
        if qn in kb.RETRY_DECORATORS:
            return kb.RETRY_DECORATORS[qn]
        if qn in self.knowledge.retry_decorators:
            return "configured"
        return None

    def _decorator_retry(self, expr: cst.BaseExpression, fn: cst.FunctionDef) -> Retry | None:
        call = expr if isinstance(expr, cst.Call) else None
        head = call.func if call is not None else expr
        kind = self._factory_kind(head)
        if kind is None and isinstance(head, cst.Name) and call is None and head.value in self._aliases:
            call = self._aliases[head.value]
            kind = self._factory_kind(call.func)
        if kind is not None:
            retry = Retry(kind, expr, function=fn, body=fn.body)
            self._read_parts(retry, kind, call, self.names.qualname(call.func if call else head) or "")
            return retry
        name = head.value if isinstance(head, cst.Name) else None
        if name is not None and name in self._own_decorators and self.names.lookup(name) is None:
            loop, cond = self._own_decorators[name]
            retry = Retry("own-decorator", expr, condition=cond, function=fn, body=fn.body, decorator=name, loop=loop)
            stop = _range_stop(loop.node)
            retry.stop = stop
            return retry
        return None

    def _iterator_retry(self, node: cst.For) -> Retry | None:
        it = node.iter
        call: cst.Call | None = None
        if isinstance(it, cst.Call):
            call = it
        elif isinstance(it, cst.Name) and it.value in self._aliases:
            call = self._aliases[it.value]
        if call is None:
            return None
        qn = self.names.qualname(call.func)
        if qn is None or qn not in kb.RETRY_ITERATORS:
            return None
        kind = kb.RETRY_ITERATORS[qn]
        body = node.body
        # for attempt in Retrying(...): with attempt: <work>
        for stmt in _body_stmts(node.body):
            if isinstance(stmt, cst.With):
                body = stmt.body
                break
        retry = Retry(kind, node, body=body)
        self._read_parts(retry, kind, call, qn)
        return retry

    def _loop_retry(self, node: Union[cst.For, cst.While]) -> Retry | None:
        loop = hand_loop(node)
        if loop is None:
            return None
        retry = Retry("loop", node, body=loop.try_node.body, loop=loop)
        retry.condition = self._handlers_condition(loop)
        retry.stop = _range_stop(node)
        return retry

    def _call_retry(self, node: cst.Call) -> Retry | None:
        func = node.func
        # Retrying(...)(fn, ...) / retry(...)(fn) / on_exception(...)(fn) / clock.retrying(...)(fn)
        if isinstance(func, cst.Call):
            pos = positional(node)
            kind = self._factory_kind(func.func)
            if kind is not None:
                retry = Retry(kind, node, callee=pos[0].value if pos else None)
                self._read_parts(retry, kind, func, self.names.qualname(func.func) or "")
                return retry
            inner = self._call_retry(func)
            if inner is not None and inner.kind == "runtime" and pos:
                inner.callee = pos[0].value
                return inner
        qn = self.names.qualname(func)
        if qn in kb.RUNTIME_PIPE:
            # pipe(calling_api(fn), clock.retrying(...), ...): the work is the first stage
            args = positional(node)
            for arg in args[1:]:
                if isinstance(arg.value, cst.Call):
                    stage = self._call_retry(arg.value)
                    if stage is not None and stage.kind == "runtime":
                        stage.callee = args[0].value
                        return stage
            return None
        if qn is not None:
            if qn in kb.RUNTIME_RETRY_CALLS:
                return self._runtime_retry(node, terse=True)
            if qn in kb.TOOL_RETRY_MIDDLEWARE:
                return self._middleware_retry(node)
            if qn in kb.RETRY_TRANSPORTS:
                retry = Retry("transport", node, methods=None)
                config = keyword_arg(node, "config") or (positional(node)[0] if positional(node) else None)
                if config is not None and isinstance(config.value, cst.Call) and dotted(config.value.func) in ("RetryConfig", "dict"):
                    self._read_tenacity(retry, config.value)
                elif config is not None and isinstance(config.value, cst.Dict):
                    self._read_tenacity(retry, _dict_as_call(config.value))
                return retry
            if qn in kb.URLLIB3_RETRY:
                return self._urllib3_retry(node)
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr == kb.RUNTIME_RETRY_METHOD and self._runtime_clauses(node):
                return self._runtime_retry(node, terse=False)
            if attr == kb.LANGCHAIN_WITH_RETRY_METHOD and self._imports & kb.LANGCHAIN_ROOTS:
                return self._with_retry(node)
        return None

    # ------------------------------------------------------------ reading the parts

    def _read_parts(self, retry: Retry, kind: str, call: cst.Call | None, qn: str) -> None:
        if call is not None and any(a.star for a in call.args):
            # **kwargs: every part may hide there
            if any(a.star == "**" for a in call.args):
                return
        if kind == "tenacity":
            self._read_tenacity(retry, call)
        elif kind == "backoff":
            self._read_backoff(retry, call, predicate=qn.endswith("on_predicate"))
        elif kind == "stamina":
            self._read_stamina(retry, call)
        # configured: nothing is known about its parts

    def _exception_names(self, node: cst.BaseExpression) -> tuple[str, ...] | None:
        """Exception types in a type or tuple of types, or None when not literal."""
        if isinstance(node, (cst.Tuple, cst.List)):
            out: list[str] = []
            for el in node.elements:
                if isinstance(el, cst.StarredElement):
                    return None
                inner = self._exception_names(el.value)
                if inner is None:
                    return None
                out.extend(inner)
            return tuple(out)
        if isinstance(node, (cst.Name, cst.Attribute)):
            qn = self.names.qualname(node)
            if qn is not None:
                return (qn,)
            text = dotted(node)
            if text is None:
                return None
            if isinstance(node, cst.Name) and not (text[:1].isupper() or text.endswith("Error")):
                return None  # a variable holding types: not literal
            return (text,)
        return None

    def _types_condition(self, node: cst.CSTNode, types: tuple[str, ...]) -> Condition:
        every = any(t in kb.EVERY_EXCEPTION for t in types)
        return Condition(node=node, every_exception=every, exceptions=types)

    def _predicate_statuses(self, node: cst.BaseExpression) -> tuple[frozenset[int] | None, cst.CSTNode | None]:
        """Statuses a predicate (lambda or small same-module function) is true for."""
        if isinstance(node, cst.Lambda):
            return status_set(node.body), node.body
        if isinstance(node, cst.Name) and node.value in self._module_defs:
            fn = self._module_defs[node.value]
            return _function_statuses(fn)
        return None, None

    def _read_tenacity_condition(self, node: cst.BaseExpression) -> Part:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitOr, cst.BitAnd)):
            left, right = self._read_tenacity_condition(node.left), self._read_tenacity_condition(node.right)
            return _combine(node, left, right, any_of=isinstance(node.operator, cst.BitOr))
        if not isinstance(node, cst.Call):
            if isinstance(node, (cst.Name, cst.Attribute)):
                qn = self.names.qualname(node) or ""
                what = kb.TENACITY_CONDITIONS.get(qn.rsplit(".", 1)[-1]) if qn.startswith("tenacity") else None
                if what == "always":
                    return Condition(node=node, every_exception=True)
                if what == "never":
                    return Condition(node=node)
            return UNKNOWN
        qn = self.names.qualname(node.func) or ""
        if not qn.startswith("tenacity"):
            return UNKNOWN
        what = kb.TENACITY_CONDITIONS.get(qn.rsplit(".", 1)[-1])
        args = [a for a in node.args if not a.star]
        if any(a.star for a in node.args):
            return UNKNOWN
        first = args[0].value if args else None
        if what == "types":
            if first is None:
                return Condition(node=node, every_exception=True, exceptions=("Exception",))
            types = self._exception_names(first)
            return UNKNOWN if types is None else self._types_condition(node, types)
        if what == "not-types":
            types = self._exception_names(first) if first is not None else ("Exception",)
            return UNKNOWN if types is None else Condition(node=node, excluded=types)
        if what in ("exception-predicate", "result-predicate", "not-result-predicate"):
            if first is None:
                return UNKNOWN
            statuses, where = self._predicate_statuses(first)
            if statuses is not None and what == "not-result-predicate":
                statuses = _SAMPLE - statuses
            exc: tuple[str, ...] = ()
            if isinstance(first, cst.Lambda):
                exc = self._isinstance_types(first.body)
            if statuses is None and not exc:
                return UNKNOWN
            return Condition(node=node, exceptions=exc, statuses=statuses, permanent_4xx=None)
        if what == "message":
            return Condition(node=node)
        if what in ("any", "all"):
            parts = [self._read_tenacity_condition(a.value) for a in args]
            out: Part = parts[0] if parts else UNKNOWN
            for p in parts[1:]:
                out = _combine(node, out, p, any_of=what == "any")
            return out
        if what == "always":
            return Condition(node=node, every_exception=True)
        if what == "never":
            return Condition(node=node)
        return UNKNOWN

    def _isinstance_types(self, node: cst.BaseExpression) -> tuple[str, ...]:
        out: list[str] = []
        stack: list[cst.CSTNode] = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Call) and dotted(n.func) == "isinstance" and len(n.args) == 2:
                types = self._exception_names(n.args[1].value)
                if types:
                    out.extend(types)
            stack.extend(n.children)
        return tuple(out)

    def _read_tenacity(self, retry: Retry, call: cst.Call | None) -> None:
        # bare @retry or no retry=: every exception; no stop=: never stops; no wait=: no wait
        if call is None:
            retry.condition = Condition(every_exception=True, default=True)
            retry.stop = Stop(never=True)
            retry.wait = Wait(none=True)
            return
        cond = keyword_arg(call, "retry")
        retry.condition = Condition(every_exception=True, default=True) if cond is None else self._read_tenacity_condition(cond.value)
        stop = keyword_arg(call, "stop")
        retry.stop = Stop(never=True) if stop is None else self._read_tenacity_stop(stop.value)
        wait = keyword_arg(call, "wait")
        if wait is None:
            retry.wait = Wait(none=True)
        else:
            qn = self.names.qualname(wait.value.func if isinstance(wait.value, cst.Call) else wait.value) or ""
            if qn.startswith("tenacity"):
                retry.wait = Wait(node=wait.value, none=qn.rsplit(".", 1)[-1] in kb.TENACITY_NO_WAIT)
            elif _number(wait.value) is not None:
                retry.wait = Wait(node=wait.value, none=_number(wait.value) == 0)
            else:
                retry.wait = UNKNOWN

    def _read_tenacity_stop(self, node: cst.BaseExpression) -> Union[Stop, _Unknown]:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitOr, cst.BitAnd)):
            left, right = self._read_tenacity_stop(node.left), self._read_tenacity_stop(node.right)
            if isinstance(left, Stop) and isinstance(right, Stop):
                if isinstance(node.operator, cst.BitOr):  # stops at the first
                    never = left.never and right.never
                    return Stop(node, left.attempts or right.attempts, left.seconds or right.seconds, never)
                return Stop(node, left.attempts, left.seconds, left.never or right.never)
            return UNKNOWN
        head = node.func if isinstance(node, cst.Call) else node
        qn = self.names.qualname(head) or ""
        if not qn.startswith("tenacity"):
            return UNKNOWN
        what = kb.TENACITY_STOPS.get(qn.rsplit(".", 1)[-1])
        arg = positional(node)[0].value if isinstance(node, cst.Call) and positional(node) else None
        if what == "never":
            return Stop(node, never=True)
        if what == "attempts":
            n = _int(arg)
            return Stop(node, attempts=n) if n is not None else UNKNOWN
        if what == "seconds":
            s = _number(arg)
            return Stop(node, seconds=s) if s is not None else UNKNOWN
        return UNKNOWN

    def _read_backoff(self, retry: Retry, call: cst.Call | None, *, predicate: bool) -> None:
        if call is None:
            return
        if predicate:
            pred = keyword_arg(call, "predicate") or (positional(call)[1] if len(positional(call)) > 1 else None)
            if pred is None:
                retry.condition = Condition(default=True)  # operator.not_: retries falsy results
            else:
                statuses, _ = self._predicate_statuses(pred.value)
                retry.condition = Condition(node=pred.value, statuses=statuses) if statuses is not None else UNKNOWN
        else:
            exc = keyword_arg(call, "exception") or (positional(call)[1] if len(positional(call)) > 1 else None)
            types = self._exception_names(exc.value) if exc is not None else None
            if types is None:
                retry.condition = UNKNOWN
            else:
                cond = self._types_condition(exc.value if exc else call, types)
                giveup = keyword_arg(call, "giveup")
                if giveup is not None:
                    statuses, where = self._predicate_statuses(giveup.value)
                    if statuses is None:
                        # an unknown giveup narrows the condition: only the types are known
                        cond = Condition(node=cond.node, exceptions=cond.exceptions)
                    else:
                        cond = Condition(
                            node=cond.node,
                            every_exception=cond.every_exception,
                            exceptions=cond.exceptions,
                            statuses=_SAMPLE - statuses,
                            permanent_4xx=where if _whole_4xx(statuses) else None,
                        )
                retry.condition = cond
        tries, time = keyword_arg(call, "max_tries"), keyword_arg(call, "max_time")
        if tries is None and time is None:
            retry.stop = Stop(never=True)
        else:
            n = _int(tries.value) if tries is not None else None
            s = _number(time.value) if time is not None else None
            known = (tries is None or n is not None) and (time is None or s is not None)
            retry.stop = Stop(tries.value if tries else time.value if time else None, n, s) if known else UNKNOWN
        wait_gen = keyword_arg(call, "wait_gen") or (positional(call)[0] if positional(call) else None)
        retry.wait = Wait(node=wait_gen.value) if wait_gen is not None else UNKNOWN

    def _read_stamina(self, retry: Retry, call: cst.Call | None) -> None:
        if call is None:
            return
        on = keyword_arg(call, "on")
        if on is None:
            retry.condition = UNKNOWN
        else:
            types = self._exception_names(on.value)
            if types is not None:
                retry.condition = self._types_condition(on.value, types)
            else:
                statuses, _ = self._predicate_statuses(on.value)
                retry.condition = Condition(node=on.value, statuses=statuses) if statuses is not None else UNKNOWN
        attempts, timeout = keyword_arg(call, "attempts"), keyword_arg(call, "timeout")
        a_val: int | None | _Unknown = 10
        t_val: float | None | _Unknown = 45.0
        if attempts is not None:
            a_val = None if dotted(attempts.value) == "None" else (_int(attempts.value) if _int(attempts.value) is not None else UNKNOWN)
        if timeout is not None:
            t_val = None if dotted(timeout.value) == "None" else (_number(timeout.value) if _number(timeout.value) is not None else UNKNOWN)
        if isinstance(a_val, _Unknown) or isinstance(t_val, _Unknown):
            retry.stop = UNKNOWN
        else:
            retry.stop = Stop(attempts.value if attempts else None, a_val, t_val, never=a_val is None and t_val is None)
        retry.wait = Wait(node=keyword_arg(call, "wait_initial").value if keyword_arg(call, "wait_initial") else None)

    def _handlers_condition(self, loop: Loop) -> Part:
        types: list[str] = []
        node: cst.CSTNode | None = None
        for h in loop.handlers:
            node = node or h
            if _narrows(h):
                return UNKNOWN
            if h.type is None:
                types.append("BaseException")
                continue
            found = self._exception_names(h.type)
            if found is None:
                return UNKNOWN
            types.extend(found)
        cond = self._types_condition(loop.handlers[0], tuple(types))
        four = _permanent_4xx_test(loop)
        if four is not None:
            cond = Condition(cond.node, cond.every_exception, cond.exceptions, permanent_4xx=four)
        return cond

    def _index_own_decorator(self, fn: cst.FunctionDef) -> None:
        """``def deco(func): def wrapper(...): for/while ...: try: return func(...)``, possibly under a factory."""
        params = {p.name.value for p in (*fn.params.params, *fn.params.posonly_params)}
        stack: list[cst.CSTNode] = list(_body_stmts(fn.body))
        while stack:
            node = stack.pop()
            if isinstance(node, cst.FunctionDef):
                params |= {p.name.value for p in (*node.params.params, *node.params.posonly_params)}
            if isinstance(node, (cst.For, cst.While)):
                loop = hand_loop(node)
                if loop is not None and _calls_any(loop.try_node.body, params):
                    self._own_decorators[fn.name.value] = (loop, self._handlers_condition(loop))
                    return
            stack.extend(node.children)

    def _runtime_clauses(self, call: cst.Call) -> bool:
        """Whether a ``.retrying(...)`` call's arguments are this runtime's clauses."""
        if not call.args:
            return False
        for arg in call.args:
            value = arg.value
            head = value
            while isinstance(head, (cst.Call, cst.Attribute)):
                head = head.func if isinstance(head, cst.Call) else head.value
            qn = self.names.qualname(value.func if isinstance(value, cst.Call) else value)
            if qn is None and isinstance(value, cst.Attribute):
                qn = self.names.qualname(value.value) if isinstance(value.value, cst.Call) else None
                if qn is None and isinstance(value.value, cst.Call):
                    qn = self.names.qualname(value.value.func)
            if qn is not None and qn.startswith(kb.RUNTIME_PREFIX):
                return True
        return False

    def _runtime_retry(self, node: cst.Call, *, terse: bool) -> Retry:
        retry = Retry("runtime", node)
        cond: Part = Condition(default=True, tags=frozenset({"RateLimited", "Timeout", "Unavailable"}))
        attempts: int | None | _Unknown = None
        if any(a.star for a in node.args):
            cond, attempts = UNKNOWN, UNKNOWN
        elif terse:
            on = keyword_arg(node, "retry_on")
            if on is not None:
                cond = self._runtime_condition(on.value)
            times = keyword_arg(node, "times")
            attempts = (_int(times.value) if _int(times.value) is not None else UNKNOWN) if times is not None else None
        else:
            for arg in node.args:
                v = arg.value
                qn = self.names.qualname(v.func if isinstance(v, cst.Call) else v) or ""
                if qn in kb.RUNTIME_CONDITIONS and isinstance(v, cst.Call) and v.args:
                    cond = self._runtime_condition(v.args[0].value)
                elif isinstance(v, cst.Attribute) and v.attr.value == "attempts" and isinstance(v.value, cst.Call):
                    n = _int(v.value.args[0].value) if v.value.args else None
                    attempts = n if n is not None else UNKNOWN
        retry.condition = cond
        retry.stop = UNKNOWN if isinstance(attempts, _Unknown) else Stop(attempts=attempts, never=attempts is None)
        return retry

    def _runtime_condition(self, node: cst.BaseExpression) -> Part:
        qn = self.names.qualname(node)
        if qn in kb.RUNTIME_DEFAULT_CONDITION:
            return Condition(node=node, tags=frozenset({"RateLimited", "Timeout", "Unavailable"}))
        if isinstance(node, cst.Lambda):
            body = node.body
            if isinstance(body, cst.Name) and body.value == "True":
                return Condition(node=node, every_exception=True, tags=frozenset(kb.TOOL_ERROR_VARIANTS))
            tags: set[str] = set()
            for name in _names_in(body):
                if name in kb.TOOL_ERROR_VARIANTS:
                    tags.add(name)
            stack: list[cst.CSTNode] = [body]
            while stack:
                n = stack.pop()
                if isinstance(n, cst.SimpleString) and isinstance(n.evaluated_value, str) and n.evaluated_value in kb.TOOL_ERROR_VARIANTS:
                    tags.add(n.evaluated_value)
                stack.extend(n.children)
            code = cst.Module([]).code_for_node(body)
            negated = any(isinstance(n, cst.Not) for n in _walk(body)) or "!=" in code or " not " in code
            if tags and not negated:
                return Condition(node=node, tags=frozenset(tags))
        return UNKNOWN

    def _middleware_retry(self, node: cst.Call) -> Retry:
        tools = keyword_arg(node, "tools")
        retry = Retry("tool-middleware", node, callee=tools.value if tools is not None else None)
        if any(a.star == "**" for a in node.args):
            return retry
        on = keyword_arg(node, "retry_on")
        if on is None:
            retry.condition = Condition(every_exception=True, default=True)
        else:
            types = self._exception_names(on.value)
            retry.condition = self._types_condition(on.value, types) if types is not None else UNKNOWN
        n = keyword_arg(node, "max_retries")
        if n is None:
            retry.stop = Stop(attempts=3)
        else:
            v = _int(n.value)
            retry.stop = Stop(n.value, attempts=v + 1) if v is not None else UNKNOWN
        retry.wait = Wait(node=keyword_arg(node, "backoff_factor").value if keyword_arg(node, "backoff_factor") else None)
        return retry

    def _with_retry(self, node: cst.Call) -> Retry:
        func = node.func
        assert isinstance(func, cst.Attribute)
        retry = Retry("with-retry", node, callee=func.value)
        if any(a.star == "**" for a in node.args):
            return retry
        on = keyword_arg(node, "retry_if_exception_type")
        if on is None:
            retry.condition = Condition(every_exception=True, default=True)
        else:
            types = self._exception_names(on.value)
            retry.condition = self._types_condition(on.value, types) if types is not None else UNKNOWN
        n = keyword_arg(node, "stop_after_attempt")
        if n is None:
            retry.stop = Stop(attempts=3)
        else:
            v = _int(n.value)
            retry.stop = Stop(n.value, attempts=v) if v is not None else UNKNOWN
        jitter = keyword_arg(node, "wait_exponential_jitter")
        retry.wait = Wait(none=jitter is not None and dotted(jitter.value) == "False")
        return retry

    def _urllib3_retry(self, node: cst.Call) -> Retry:
        retry = Retry("urllib3", node)
        if any(a.star == "**" for a in node.args):
            return retry
        methods = keyword_arg(node, "allowed_methods") or keyword_arg(node, "method_whitelist")
        if methods is None:
            retry.methods = kb.URLLIB3_DEFAULT_METHODS
        elif dotted(methods.value) in ("None", "False"):
            retry.methods = None
        elif isinstance(methods.value, (cst.List, cst.Tuple, cst.Set)) or (
            isinstance(methods.value, cst.Call) and dotted(methods.value.func) in ("frozenset", "set", "list", "tuple")
        ):
            elems = methods.value.elements if not isinstance(methods.value, cst.Call) else (
                methods.value.args[0].value.elements if methods.value.args and isinstance(methods.value.args[0].value, (cst.List, cst.Tuple, cst.Set)) else None
            )
            texts = [el.value.evaluated_value for el in elems or () if isinstance(el.value, cst.SimpleString)]
            retry.methods = frozenset(str(t).upper() for t in texts) if elems is not None and len(texts) == len(elems) else UNKNOWN
        forcelist = keyword_arg(node, "status_forcelist")
        if forcelist is None:
            retry.condition = Condition(default=True, statuses=frozenset())
        else:
            statuses = _ints(forcelist.value)
            retry.condition = Condition(node=forcelist.value, statuses=statuses & _SAMPLE) if statuses is not None else UNKNOWN
        total = keyword_arg(node, "total") or (positional(node)[0] if positional(node) else None)
        if total is None:
            retry.stop = Stop(attempts=11)
        else:
            v = _int(total.value)
            retry.stop = Stop(total.value, attempts=v + 1) if v is not None else (Stop(total.value, never=True) if dotted(total.value) in ("None", "False") else UNKNOWN)
        respect = keyword_arg(node, "respect_retry_after_header")
        retry.honours_retry_after = respect is None or dotted(respect.value) != "False"
        return retry


def _walk(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def _calls_any(suite: cst.BaseSuite, names: set[str]) -> bool:
    for n in _walk(suite):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in names:
            return True
    return False


def _range_stop(node: cst.CSTNode) -> Union[Stop, _Unknown]:
    if isinstance(node, cst.For) and isinstance(node.iter, cst.Call):
        args = [a.value for a in node.iter.args]
        nums = [_int(a) for a in args]
        if args and all(n is not None for n in nums):
            vals = [n for n in nums if n is not None]
            return Stop(node.iter, attempts=len(range(*vals)))
    return UNKNOWN


def _function_statuses(fn: cst.FunctionDef) -> tuple[frozenset[int] | None, cst.CSTNode | None]:
    """Statuses a small predicate function returns true for: ``return <test>`` or ``if <test>: return True/False`` chains."""
    stmts = [s for s in _body_stmts(fn.body) if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Expr))]
    if len(stmts) > 6:
        return None, None
    decided: set[int] = set()
    true: set[int] = set()
    where: cst.CSTNode | None = None
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Return):
            value = stmt.body[0].value
            if value is None:
                return None, None
            if isinstance(value, cst.Name) and value.value in ("True", "False"):
                if value.value == "True":
                    true |= set(_SAMPLE) - decided
                return (frozenset(true), where) if where is not None else (None, None)
            s = status_set(value)
            if s is None:
                return None, None
            true |= set(s) - decided
            return frozenset(true), where or value
        if isinstance(stmt, cst.If) and stmt.orelse is None:
            s = status_set(stmt.test)
            inner = _body_stmts(stmt.body)
            if s is None or len(inner) != 1 or not isinstance(inner[0], cst.SimpleStatementLine):
                return None, None
            ret = inner[0].body[0]
            if not isinstance(ret, cst.Return) or not (isinstance(ret.value, cst.Name) and ret.value.value in ("True", "False")):
                return None, None
            if ret.value.value == "True":
                true |= set(s) - decided
            decided |= set(s)
            where = where or stmt.test
            continue
        return None, None
    return None, None


def _permanent_4xx_test(loop: Loop) -> cst.CSTNode | None:
    """In a hand loop: ``if <whole 4xx range>: raise/return/break``, with no 429 handled anywhere in the loop."""
    code = cst.Module([]).code_for_node(loop.node)
    if "429" in code or "TOO_MANY_REQUESTS" in code or "RateLimit" in code or "rate_limit" in code.lower():
        return None
    elifs = {id(n.orelse) for n in _walk(loop.node) if isinstance(n, cst.If) and isinstance(n.orelse, cst.If)}
    for n in _walk(loop.node):
        if isinstance(n, cst.If) and id(n) not in elifs and _whole_4xx(status_set(n.test)):
            stmts = _body_stmts(n.body)
            if stmts and _exits(stmts[-1]):
                return n.test
    return None


def _combine(node: cst.CSTNode, left: Part, right: Part, *, any_of: bool) -> Part:
    if not isinstance(left, Condition) or not isinstance(right, Condition):
        return UNKNOWN
    if not any_of:
        return UNKNOWN  # an intersection: what it retries is not a plain list
    statuses = None
    if left.statuses is not None or right.statuses is not None:
        statuses = (left.statuses or frozenset()) | (right.statuses or frozenset())
    return Condition(
        node=node,
        every_exception=left.every_exception or right.every_exception,
        exceptions=left.exceptions + right.exceptions,
        statuses=statuses,
        tags=left.tags | right.tags,
        permanent_4xx=left.permanent_4xx or right.permanent_4xx,
    )


def _dict_as_call(node: cst.Dict) -> cst.Call:
    """``{"retry": x, "stop": y}`` read as ``f(retry=x, stop=y)``."""
    args = []
    for el in node.elements:
        if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString):
            key = el.key.evaluated_value
            if isinstance(key, str) and key.isidentifier():
                args.append(cst.Arg(value=el.value, keyword=cst.Name(key)))
                continue
        args.append(cst.Arg(value=cst.Name("_"), star="**"))
    return cst.Call(func=cst.Name("dict"), args=args)


# ---------------------------------------------------------------- the ast screen


_RETRY_CALL_NAMES = frozenset(
    {
        "retry", "Retrying", "AsyncRetrying", "on_exception", "on_predicate", "retry_context",
        kb.RUNTIME_RETRY_METHOD, kb.LANGCHAIN_WITH_RETRY_METHOD, "ToolRetryMiddleware",
        "TenacityTransport", "AsyncTenacityTransport", "Retry",
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


def _ast_may_retry(loop: ast.For | ast.While) -> bool:
    """``while ...``, or ``for _ in range(n)`` / ``range(1, n)`` (what :func:`hand_loop` accepts, over-approximated)."""
    if isinstance(loop, ast.While):
        return True
    it = loop.iter
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and len(it.args) <= 2


def _ast_goes_round(h: ast.ExceptHandler) -> bool:
    return bool(h.body) and not isinstance(h.body[-1], (ast.Raise, ast.Return, ast.Break))


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
    retry_lines: list[int] = []
    predicates: set[str] = set()  # functions passed to a retry or a condition builder (read as predicates)
    for call in screen._nodes[1]:
        name = _ast_name(call.func)
        if name in retry_names:
            retry_lines.append(call.lineno)
        if name in retry_names or name in kb.TENACITY_CONDITIONS or name in _RUNTIME_CONDITION_NAMES:
            for arg in (*call.args, *(k.value for k in call.keywords)):
                if isinstance(arg, ast.Name):
                    predicates.add(arg.id)
    # loops around a try, and every decorator (own decorators are defined in the module)
    defs: set[str] = set()
    decorated: list[tuple[int, str]] = []
    def_lines: list[tuple[int, str]] = []
    spans: list[tuple[int, int, str]] = []
    loop_lines: list[int] = []
    stack: list[ast.AST] = [screen.tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.For, ast.While)) and _ast_may_retry(node):
            for stmt in node.body:
                inner = stmt.body if isinstance(stmt, (ast.With, ast.AsyncWith)) else [stmt]
                for s in inner:
                    if isinstance(s, ast.Try) and any(_ast_goes_round(h) for h in s.handlers):
                        # issue 11: the success exit may follow the try (`except: continue` / `break`)
                        if isinstance(node, ast.For) or any(isinstance(x, (ast.Return, ast.Break)) for b in node.body for x in ast.walk(b)):
                            retry_lines.append(node.lineno)
                            loop_lines.append(node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            def_lines.append((node.lineno, node.name))
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.end_lineno or node.lineno, node.name))
            for d in node.decorator_list:
                name = _ast_name(d)
                if name is not None:
                    decorated.append((d.lineno, name))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.stmt, ast.excepthandler)):
                stack.append(child)
            elif isinstance(child, ast.arguments):
                continue
    # a same-module decorator can retry only if a retry loop lies inside it
    defs = {name for start, end, name in spans if any(start <= line <= end for line in loop_lines)}
    for line, name in decorated:
        if name in retry_names or name in defs:
            retry_lines.append(line)
    aliases = {
        t.id
        for b in screen.binders
        if isinstance(b, ast.Assign) and isinstance(b.value, ast.Call) and _ast_name(b.value.func) in retry_names
        for t in b.targets
        if isinstance(t, ast.Name)
    }
    retry_lines.extend(line for line, name in decorated if name in aliases)
    retry_lines.extend(line for line, name in def_lines if name in predicates)
    write_lines: list[int] = []
    if retry_lines:
        write_lines = _reached_lines(screen, knowledge, retry_lines, spans)
    result = (retry_lines, write_lines)
    _SCREEN_CACHE[screen] = result
    return result


def _reached_lines(
    screen: "Screen", knowledge: kb.Knowledge, retry_lines: list[int], spans: list[tuple[int, int, str]]
) -> list[int]:
    """Lines of what the retried work may reach: the same-module functions it calls or passes on.

    A retry's region is the innermost function holding its line (or, at
    module level, the calls starting on that line); every function named
    in a call or as an argument there is kept whole (its writes, its
    declarations). A retrying transport reaches every write on its client, anywhere.
    """
    regions: list[tuple[int, int]] = []
    calls = screen._nodes[1]
    for line in retry_lines:
        holding = [(a, b) for a, b, _ in spans if a <= line <= b]
        if holding:
            regions.append(max(holding))
        else:
            ends = [c.end_lineno or c.lineno for c in calls if c.lineno == line]
            regions.append((line, max([line, *ends])))
    called: set[str] = set()
    transport = False
    for call in calls:
        if not any(a <= call.lineno <= b for a, b in regions):
            continue
        func = call.func
        if isinstance(func, ast.Name):
            called.add(func.id)
            transport = transport or func.id in _TRANSPORT_NAMES
        elif isinstance(func, ast.Attribute):
            transport = transport or func.attr in _TRANSPORT_NAMES
            if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
                called.add(func.attr)
        for arg in (*call.args, *(k.value for k in call.keywords)):
            for el in arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]:
                if isinstance(el, ast.Name):
                    called.add(el.id)
                elif isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name) and el.value.id in ("self", "cls"):
                    called.add(el.attr)
    out = [a for a, _, name in spans if name in called]
    if transport:
        write_names = set(kb.HTTP_METHOD_CLASSES) | kb.HTTP_REQUEST_METHODS
        out.extend(c.lineno for c in calls if _ast_name(c.func) in write_names)
    return out


_TRANSPORT_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in kb.RETRY_TRANSPORTS)
_RUNTIME_CONDITION_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in kb.RUNTIME_CONDITIONS)
_CLASSIFICATION_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in kb.CLASSIFICATION_DECORATORS)


# ---------------------------------------------------------------- the base of the retry rules


class RetryRule(Rule):
    """Base class of the rules that read the retry model (TFH101-TFH104, TFH301-TFH304).

    Not a rule itself (it has no code). It asks for :class:`RetryModel`, screens
    with :func:`screen_lines` (files with no retry-like construct are never
    parsed for it), and calls :meth:`check` once the model has seen the whole
    module: a subclass reads ``model.retries`` there and reports. A rule that also
    needs the lines a retry's work reaches (TFH101) overrides ``candidate_lines``.
    """

    models = (RetryModel,)

    @classmethod
    def candidate_lines(cls, screen: "Screen", knowledge: kb.Knowledge) -> Sequence[int]:
        return screen_lines(screen, knowledge)[0]

    def leave_Module(self, original_node: cst.Module) -> None:
        model: RetryModel = self.ctx.models[RetryModel]
        if model.finished:
            self.check(model)

    def check(self, model: RetryModel) -> None:
        """Report on the module's retries (``model.retries``); called from ``leave_Module``."""
        raise NotImplementedError
