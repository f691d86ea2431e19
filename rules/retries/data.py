"""What a retry is, as data: :class:`Retry` and its parts (condition, stop, wait), or :data:`UNKNOWN`.

The model (``model.py``) fills these in; the rules read them. A part the
code does not write is the library's default, described as data; a part
that is not literal (held in a variable, built elsewhere, ``**kwargs``) is
:data:`UNKNOWN`, and a rule that needs it stays silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

import libcst as cst

from ...linter.api import Effect
from ...linter.api import knowledge as kb

# the two classes the runtime refuses to retry unkeyed (``keyed(...)`` makes the first one safe, never the second)
NON_IDEMPOTENT_WRITE = kb.NON_IDEMPOTENT_WRITE
IRREVERSIBLE = kb.IRREVERSIBLE


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
    # issue 23: calls in the handlers of same-module helpers that sleep / may raise (the helper decides
    # whether to go round and waits: the loop is delayed or bounded there)
    sleeping_calls: tuple[cst.Call, ...] = ()
    exiting_calls: tuple[cst.Call, ...] = ()
    mutating_calls: tuple[cst.Call, ...] = ()  # ... that change an argument the next attempt reads
    # ... that are handed the caught exception and re-raise it on some path: the helper decides which
    # failures go round (``except Exception as e: _handle_transient_error(e, attempt)``)
    deciding_calls: tuple[cst.Call, ...] = ()
    # issue 23 (changed-request): the attempt works in memory and draws a fresh value (a clock read, a
    # uuid) each time: every attempt is a different computation, not the same work again
    fresh_attempt: bool = False
    # s35 (model re-sample): the attempt only parses, in memory, a value the loop binds afresh outside the
    # ``try`` each round (``text = llm(prompt)`` before it): a failure is the value's, the next round reads
    # a new one. Not a retry of a failing call (TFH102/TFH103/TFH303)
    reparses: bool = False
    # issue 23 (attempt-waits): deadline scopes and wrappers in the attempt (``with anyio.fail_after(t)``,
    # ``asyncio.wait_for(aw, t)``): an attempt ending in their TimeoutError waited ``t`` first
    deadline_calls: tuple[cst.Call, ...] = ()
    # s35 (attempt-waits): every handler catches only timeouts the module defines itself
    # (``class _TurnIdleTimeout(Exception)``): its own watchdog raised them after waiting out its deadline
    own_timeouts: bool = False
    # s35 post (issue 23): ``for _ in range(n)`` whose ``try`` binds a name the code after the loop reads:
    # the last round's result is kept, so the loop retries (paths.keeps_last_result)
    kept_result: bool = False
    # s53 (batch 25 runinfra-cli ``execv-never-returns``): the attempt calls ``os.execv`` or a sibling
    # (``kb.PROCESS_REPLACING_CALLS``), which never returns when it works: the loop leaves on success
    replaces_process: bool = False
    # s57 (issue 23, ``delay-schedule-loop``): the literal delays a ``for`` goes over when its iterable names them
    # (``for delay in RETRY_DELAYS``, ``for attempt, delay in enumerate(backoff_delays)``: loops.loop_schedule)
    schedule: cst.BaseExpression | None = None


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
    # qualified names of the calls in the retried work that resolve (imports, unshadowed builtins)
    qualnames: set[str] = field(default_factory=set)
    in_process: bool = True  # every call in the retried work is an in-memory builtin (``tuple(dir(m))``)
    honours_retry_after: bool = False  # retries a 429 carrying Retry-After whatever its status list says (urllib3)
    factory: cst.Call | None = None  # built by a same-module factory: the retry call it returns (no fix at the use)
    # s42: built apart from where it is applied, held in a name (``_retry = retry(...)`` then ``_retry(self._run)``,
    # ``@_retry``, ``for a in _retry``): the call that builds it, where its condition is written or missing
    built: cst.Call | None = None
    keyed: bool = False  # a runtime retry over ``keyed(...)``: every attempt carries the same key (issue 21)

    @property
    def written(self) -> cst.CSTNode:
        """Where a finding on the retry's own parts (no condition, no stop, no wait: TFH103, TFH301, TFH303)
        goes: the call that builds it, the line a user edits to add ``retry=``/``stop=``/``wait=`` (s42,
        gwenflow: ``_retry = retry(stop=..., wait=...)`` applied as ``_retry(self._run)`` six lines below;
        a same-module factory's ``return retry(...)``), once for every use; else where it is applied (a
        decorator, ``retry(...)(fn)``, a loop). A finding on the retried work (TFH101) stays at the use."""
        return self.factory or self.built or self.anchor


#: s56 (issue 28; batch 29's flumine, blind: nine stream ``run()`` methods under ``@retry(wait=...)``): the names of a
#: long-running worker's entry, the body a supervisor restarts for as long as the process lives (a stream's or a
#: thread's ``run``, a server's ``serve_forever``). TFH301 stays, but its fix (``stop=stop_after_attempt(N)``) is not
#: offered on one that returns no value: after N quick failures the worker would stop for good (a network blip of a
#: few seconds ends a live trading daemon's market data), which is a decision, not a repair.
WORKER_ENTRY_NAMES = frozenset({
    "run", "run_forever", "serve", "serve_forever", "listen", "consume", "start_consuming", "watch", "stream",
    "main_loop", "event_loop", "worker", "keep_alive", "run_stream", "poll_forever",
})
