"""TFH202 infinite-timeout."""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import FileContext, Knowledge, NodeEdit, RawFix, Rule, Screen, argument, elements, expression, inference_body, is_none, keyword_arg, last_name, markdown_calls, markdown_words, positional, timeout_escapes_handler, walk_in_scope
from .killers import calls_in
from .process import POPEN_WAITS, PROCESS_RUNS, caught_names, command_words, segments, suppressed_names, unguessed_program
from .screen import helper_lines, timeout_calls
from .writes import http_write_refusal


_DEFAULTS = Knowledge.build()  # the library's own tables, for the docs
_HTTP_ROOTS = frozenset({"requests", "httpx", "aiohttp", "urllib", "http"})
_STREAM = (
    "on a stream the read timeout bounds the silence between chunks: pass the longest gap you expect "
    "(`timeout=(10, 300)`, `httpx.Timeout(10, read=300)`) (no automatic fix: how long a stream may idle is the author's call)"
)
_LLM = (
    "pass a bound above the longest generation you accept (the openai and anthropic SDKs default to 600 s) "
    "(no automatic fix: a default would cut long generations)"
)


def _keyword_note(qualname: str) -> str | None:
    spec = _DEFAULTS.timeouts[qualname]
    notes = [f"`{spec.keyword}`"] if spec.keyword != "timeout" else []
    if spec.position is not None:
        notes.append(f"positional argument {spec.position + 1}")
    return ", ".join(notes) or None


def _has_none(node: cst.BaseExpression | ast.expr) -> bool:
    """``None``, or a ``(connect, read)`` tuple with ``None`` in it (either tree: the screen and the check agree)."""
    if is_none(node):
        return True
    return isinstance(node, (ast.Tuple, cst.Tuple)) and any(is_none(e) for e in elements(node) or ())




#: a flag whose ``if`` test chooses the streaming branch
_STREAM_FLAGS = frozenset({"stream", "streaming", "is_stream", "use_stream"})


def _expressions(node: cst.CSTNode) -> "list[cst.CSTNode]":
    """``node`` and every node below it (a test expression is small)."""
    out: list[cst.CSTNode] = [node]
    for child in node.children:
        out.extend(_expressions(child))
    return out

class InfiniteTimeout(Rule):
    code = "TFH202"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "infinite-timeout"
    summary = "An explicit timeout=None turns the timeout off."
    message = "{call} gets {what}, which waits forever; pass a number of seconds"
    docs = f"""\
## What it does
Finds an explicit `None` where a timeout belongs (the calls come from
`linter/knowledge.py`): `timeout=None` (or `None` in the timeout's position)
on

{markdown_calls((q for q, spec in _DEFAULTS.timeouts.items() if spec.none_is_infinite), _keyword_note)}

a `(connect, None)` tuple where a `(connect, read)` pair is accepted
({markdown_words(sorted({q.split(".")[0] for q, spec in _DEFAULTS.timeouts.items() if spec.connect_read_tuple}))});
and timeout objects with every deadline off:
{markdown_words((f"{q}(None)" for q in _DEFAULTS.timeout_objects), "or")}
(or built with no deadline at all where omitted fields are None:
{markdown_words((f"{q}()" for q in sorted(_DEFAULTS.timeout_objects_omitted_none)), "or")})
(fields that are not deadlines, {markdown_words(_DEFAULTS.timeout_object_non_deadlines)}, do not count).

## Why is this bad?
`None` means "no deadline". httpx and aiohttp have safe defaults; passing
`None` throws them away, and a hung server then stalls the agent forever.

## Example
```python
import httpx

client = httpx.Client(timeout=None)
```

## Use instead
```python
import httpx

client = httpx.Client(timeout=httpx.Timeout(10.0, connect=3.0))
```

## Streams and LLM calls
A `None` on a stream (a `.stream(...)` call, `stream=True`, a client
built with it whose requests in the same function stream, as a streaming
proxy's `client = httpx.AsyncClient(timeout=None)` then `client.send(req,
stream=True)`,
{markdown_words(sorted(_DEFAULTS.stream_calls), "or")}, a timeout object
passed to one, or one built in the branch of an `if stream:` test) or on an LLM call (the SDK clients
{markdown_words(sorted(_DEFAULTS.llm_sdk_clients))} and their generation
methods, or an HTTP request from an LLM integration: a module under
`llms/`, `chat_models/` ..., a class deriving from `...Llm`/`...ChatModel`,
a body with `messages`/`prompt`) is usually deliberate: an event stream may
idle for minutes, a generation may run for minutes. It is still reported: a
peer that dies without closing the connection (a dropped NAT entry, a
half-open TCP connection) looks exactly like a quiet stream or a slow model,
and `None` then waits forever. The message says what to pass instead (a read
timeout longer than the longest silence the stream may have; a bound above
the longest generation accepted), and no fix is offered, since a default of
30 seconds would cut healthy streams and generations. A streaming proxy
that relays an idle stream for as long as its client keeps it open can say
so with `httpx.Timeout(10, read=None)` (connect, write and pool bounded,
the read open: not reported, one deadline is set) or `# noqa: TFH202`.

## Fix
`smullyan lint --fix` replaces the explicit `None` (alone, each `None` in a
`(connect, read)` pair, or the one `None` deadline of a timeout object) with
`default-timeout-seconds` (30 unless configured; by kind: `http`, `process`,
`network`, `default`). This changes what the
program does on purpose: a request that could wait forever now raises a
timeout error after that many seconds. A timeout object with several `None`
fields, or none written, gets no fix; nor do streams and LLM calls (above),
nor, as for TFH201, a process whose command is not a literal or that runs
long by nature (an editor or dev server with `timeout=None` is not reported
at all), `Popen.communicate()`/`wait()` (a timeout there needs the
kill-and-reap clean-up), and a call inside a `try` or
`contextlib.suppress(...)` whose handlers would not catch the timeout's
exception (`except requests.ConnectionError`, `except aiohttp.ClientError`
around `ClientTimeout(total=None)`); nor a `None` in an `if x is None:`
branch (a configured "no limit" passed on), on an upload (`files=`), or on a
non-idempotent HTTP write (POST, PATCH, a `request(method, ...)` whose
method is not a literal) with no idempotency key: a timeout
there makes a slow request one whose outcome is unknown (see TFH201).
Nor a client's default: a `None` given to a client (`httpx.Client`,
`httpx.AsyncClient`, `aiohttp.ClientSession`) or to a timeout object that
is not handed straight to one request on the same line
(`ClientTimeout(total=None)` kept as a session's setting) bounds every
request the client makes, streams and long calls included, which the line
does not show: one number cannot fit them all (on the survey's batch 9 a
30-second default cut an MCP client's event stream and a streaming chat).
The message says to give each kind its bound (`httpx.Timeout(10,
read=300)`, `ClientTimeout(sock_connect=10, sock_read=300)`).

## How to suppress
`# noqa: TFH202` on the line (say why: a long download that a caller bounds
some other way), or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        """\
import httpx, requests, asyncio
httpx.get("https://x", timeout=10)
requests.get("https://x", timeout=(3, 30))
async def f(aw):
    return await asyncio.wait_for(aw, 5)
""",
        """\
import aiohttp, httpx
t = aiohttp.ClientTimeout(total=None, sock_read=30)
u = httpx.Timeout(10.0, read=None)
aiohttp.ClientSession(timeout=None)  # None means the session default here
""",
        """\
import asyncio, aiohttp
async def f(aw, delay):
    async with asyncio.timeout(10):
        await aw
    async with asyncio.timeout(delay):  # a variable: unknown
        await aw
    t = aiohttp.ClientTimeout(total=60)
    u = aiohttp.ClientTimeout(sock_read=30, ceil_threshold=None)
    v = aiohttp.ClientTimeout(**{"total": 5})
    return t, u, v
""",
        """\
def call(client):
    return client.get("https://x", timeout=None)  # unknown client
""",
        # aliases, with a deadline
        """\
import subprocess as sp
from requests import get as fetch
from asyncio import wait_for as within
async def f(aw, url):
    fetch(url, timeout=5)
    sp.run(["make"], timeout=600)
    return await within(aw, 30)
""",
        # a None that is not the timeout
        """\
import requests, subprocess
def f(url):
    requests.get(url, params=None, auth=None, timeout=10)
    subprocess.run(["ls"], input=None, stdin=None, timeout=30)
""",
        # the timeout comes from elsewhere: unknown, so silent
        """\
import httpx, requests
def f(url, settings, **opts):
    requests.get(url, timeout=settings.TIMEOUT)
    httpx.post(url, **opts)
    def inner(t=None):
        return httpx.get(url, timeout=t)
    return inner
""",
        # a process with no timeout to give: None is right for an editor or a dev server
        """\
import subprocess
def edit(path):
    subprocess.run(["vim", path], timeout=None)
    subprocess.run(["npm", "run", "dev"], timeout=None)
""",
        # a local function that shadows the imported name
        """\
import asyncio
from asyncio import wait_for
async def f(aw):
    def wait_for(aw, timeout):
        return aw
    return await wait_for(aw, None)
""",
    ]
    INVALID = [
        """\
import httpx
httpx.get("https://x", timeout=None)  # error: TFH202
client = httpx.Client(timeout=None)  # error: TFH202
async def f():
    async with httpx.AsyncClient() as c:
        await c.post("https://x", timeout=None)  # error: TFH202
""",
        """\
import requests, subprocess
requests.get("https://x", timeout=None)  # error: TFH202
requests.get("https://x", timeout=(3, None))  # error: TFH202
subprocess.run(["ls"], timeout=None)  # error: TFH202
""",
        """\
import asyncio
async def f(aw):
    return await asyncio.wait_for(aw, None)  # error: TFH202
async def g(aw):
    return await asyncio.wait_for(aw, timeout=None)  # error: TFH202
""",
        """\
import aiohttp, httpx
t = aiohttp.ClientTimeout(total=None)  # error: TFH202
u = httpx.Timeout(None)  # error: TFH202
async def f(session: aiohttp.ClientSession):
    async with aiohttp.ClientSession() as s:
        await s.get("https://x", timeout=None)  # error: TFH202
""",
        """\
import httpx
def download(url):
    with httpx.stream("GET", url, timeout=None) as r:  # error: TFH202:35 "httpx.stream"
        return r.read()
def upload(url, data):
    client = httpx.Client()
    with client.stream("POST", url, content=data, timeout=None) as r:  # error: TFH202 "httpx.Client.stream"
        return r.status_code
""",
        """\
import asyncio, anyio
import async_timeout as at
async def f(aw):
    async with asyncio.timeout(None):  # error: TFH202 "delay=None"
        await aw
    async with asyncio.timeout_at(None):  # error: TFH202
        await aw
    async with at.timeout(None):  # error: TFH202
        await aw
    with anyio.fail_after(None):  # error: TFH202
        await aw
""",
        """\
from aiohttp import ClientSession, ClientTimeout
async def f(url):
    async with ClientSession(timeout=ClientTimeout()) as s:  # error: TFH202:38 "default to None"
        return await s.get(url)
""",
        # streams and LLM calls: reported, with advice and no fix
        """\
import openai, requests
from anthropic import AsyncAnthropic
client = openai.OpenAI(timeout=None)  # error: TFH202 "longest generation you accept"
def events(url):
    return requests.get(url, stream=True, timeout=None)  # error: TFH202 "silence between chunks"
async def research(url, stream):
    from aiohttp import ClientTimeout
    if stream is True:
        timeout = ClientTimeout(total=None)  # error: TFH202 "silence between chunks"
        return timeout
async def ask(a: AsyncAnthropic):
    return await a.messages.create(model="m", max_tokens=9, messages=[], timeout=None)  # error: TFH202 "anthropic.AsyncAnthropic.messages.create"
async def proxy(request, upstream_url):
    import httpx
    # a streaming proxy: the client's request streams the upstream's response through
    client = httpx.AsyncClient(timeout=None)  # error: TFH202 "silence between chunks"
    req = client.build_request(request.method, upstream_url, content=request.stream())
    return await client.send(req, stream=True)
""",
        # reported with no fix: a long or unreadable process, a Popen wait (kill-and-reap), a handler the
        # new timeout would escape
        """\
import subprocess, requests
from contextlib import suppress
def build(cmd, url):
    subprocess.run(["make", "all"], timeout=None)  # error: TFH202 "`make` runs long"
    subprocess.run(cmd, timeout=None)  # error: TFH202 "noqa: TFH202"
    p = subprocess.Popen(["ls"])
    p.communicate(timeout=None)  # error: TFH202 "kill-and-reap"
    try:
        requests.get(url, timeout=None)  # error: TFH202 "escape the handler"
    except requests.ConnectionError:
        pass
    with suppress(subprocess.CalledProcessError):
        subprocess.run(["ls"], check=True, timeout=None)  # error: TFH202 "escape the handler"
""",
        # aliases, in nested and async functions
        """\
import requests as rq
from subprocess import run as sh
from asyncio import wait_for as within
def outer():
    def inner(url):
        return rq.post(url, timeout=None)  # error: TFH202 "requests.post"
    return inner
async def g(aw):
    sh(["make"], timeout=None)  # error: TFH202 "subprocess.run"
    return await within(aw, None)  # error: TFH202 "asyncio.wait_for"
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        spots = timeout_calls(screen, knowledge, "none")
        # every finding is a None (alone, or in a (connect, read) tuple) passed to the call, or a
        # timeout object whose omitted fields are None built with no deadline argument
        omitted = {q.rsplit(".", 1)[-1] for q in knowledge.timeout_objects_omitted_none}
        lines = [
            c.lineno
            for c in spots
            if any(_has_none(a) for a in (*c.args, *(k.value for k in c.keywords)))
            or (last_name(c.func) in omitted and not c.args)
        ]
        # and the helpers that say what a client is (``def _session(self) -> requests.Session``)
        return lines + helper_lines(screen, knowledge) if lines else lines

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.calls: list[tuple[cst.Call, str | None]] = []  # the calls around the visited node, outer first
        self.classes: list[cst.ClassDef] = []
        self.stream_branches = 0  # ``if`` statements around the node whose test reads a ``stream`` flag
        self.configured_none = 0  # `if x is None:` branches around the node
        self.try_handlers: dict[int, list[list[str]]] = {}  # id(call) -> caught names of the handlers around it, outer first

    def _handled(self, body: cst.CSTNode, caught: list[str] | None) -> None:
        if caught is not None:
            for c in calls_in(body):  # s53: the field walk (libcst's `children` re-creates the nodes it passes)
                self.try_handlers.setdefault(id(c), []).append(caught)

    def visit_Try(self, node: cst.Try) -> None:
        self._handled(node.body, caught_names(self.names, node))

    def visit_With(self, node: cst.With) -> None:
        self._handled(node.body, suppressed_names(self.names, node))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    @staticmethod
    def _reads_stream_flag(test: cst.BaseExpression) -> bool:
        """``if stream:``, ``if stream is True:``, ``if self.streaming:``: the branch sets up a stream
        (or its twin that does not: either way, the author chose the timeout per branch)."""
        return any(isinstance(sub, (cst.Name, cst.Attribute)) and last_name(sub) in _STREAM_FLAGS
                   for sub in _expressions(test))

    @staticmethod
    def _none_test(test: cst.BaseExpression) -> bool:
        """``if timeout is None:``: the branch passes a configured "no limit" on (the None is the caller's)."""
        return isinstance(test, cst.Comparison) and any(
            isinstance(c.operator, cst.Is) and isinstance(c.comparator, cst.Name) and c.comparator.value == "None"
            for c in test.comparisons
        )

    def visit_If(self, node: cst.If) -> None:
        if self._reads_stream_flag(node.test):
            self.stream_branches += 1
        if self._none_test(node.test):
            self.configured_none += 1

    def leave_If(self, original_node: cst.If) -> None:
        if self._reads_stream_flag(original_node.test):
            self.stream_branches -= 1
        if self._none_test(original_node.test):
            self.configured_none -= 1

    def leave_Call(self, original_node: cst.Call) -> None:
        if self.calls and self.calls[-1][0] is original_node:
            self.calls.pop()

    def _stream(self, node: cst.Call, qn: str | None) -> bool:
        """A call that opens a stream: a known one, a ``.stream(...)`` method, or ``stream=True``."""
        if qn is not None and (qn in self.knowledge.stream_calls or qn.rsplit(".", 1)[-1] == "stream"):
            return True
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "stream":
            return True
        kw = keyword_arg(node, "stream")
        return kw is not None and isinstance(kw.value, cst.Name) and kw.value.value == "True"

    def _streaming_client(self, node: cst.Call) -> bool:
        """A client built here (``client = httpx.AsyncClient(timeout=None)``) whose requests in the same
        function stream (``client.send(req, stream=True)``, ``client.stream(...)``): a streaming proxy or
        reader, where the ``None`` is the silence the stream may keep."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return False
        below = calls_in(func.body)
        targets: set[str] = set()
        for n in walk_in_scope(func.body):
            if isinstance(n, cst.Assign) and n.value is node:
                targets.update(t.target.value for t in n.targets if isinstance(t.target, cst.Name))
            elif isinstance(n, cst.WithItem) and n.item is node and n.asname is not None and isinstance(n.asname.name, cst.Name):
                targets.add(n.asname.name.value)
        return bool(targets) and any(
            isinstance(c.func, cst.Attribute) and isinstance(c.func.value, cst.Name) and c.func.value.value in targets
            and self._stream(c, None)
            for c in below
        )

    def _llm(self, node: cst.Call, qn: str) -> bool:
        """An LLM call: an SDK client's, or a request from an LLM integration (its module, its
        class's base, or a body with ``messages``/``prompt``)."""
        if any(qn == c or qn.startswith(c + ".") for c in self.knowledge.llm_sdk_clients):
            return True
        if qn.split(".")[0] not in _HTTP_ROOTS:
            return False
        if self.knowledge.llm_inference_module(self.ctx.path):
            return True
        for cls in self.classes:
            for base in cls.bases:
                if (last_name(base.value) or "").endswith(self.knowledge.llm_inference_base_suffixes):
                    return True
        return inference_body(node, self.knowledge.llm_inference_body_keys, self.names.function)

    def _deliberate(self, node: cst.Call, qn: str) -> str | None:
        """Why a None here is likely deliberate, so that no default number fits (the fix is not
        offered): the call, or a call it is an argument of, opens a stream or runs an LLM generation."""
        if self.stream_branches or self._streaming_client(node):
            return _STREAM
        for call, cqn in [*self.calls, (node, qn)]:
            if self._stream(call, cqn):
                return _STREAM
        for call, cqn in [*self.calls, (node, qn)]:
            if cqn is not None and self._llm(call, cqn):
                return _LLM
        return None

    def _session_default(self, node: cst.Call, qn: str) -> bool:
        """The None is a client's default (or a timeout object's not handed straight to one request in
        view): the requests it will bound are not on this line, so no number fits them all."""
        if qn not in self.knowledge.session_default_timeouts:
            return False
        if qn not in self.knowledge.timeout_objects:
            return True
        return not any(
            cqn is not None and cqn in self.knowledge.timeouts and cqn not in self.knowledge.session_default_timeouts
            for call, cqn in self.calls
            if call is not node
        )

    def _process(self, node: cst.Call, qn: str) -> tuple[bool, str | None]:
        """For a process call: whether it has no timeout to give (an editor, a pager, a dev server:
        the ``None`` is right, nothing to report), and why a number would hurt (no fix), as TFH201 reads it."""
        if qn in POPEN_WAITS:
            return False, "a timeout on communicate()/wait() needs the kill-and-reap clean-up"
        if qn not in PROCESS_RUNS:
            return False, None
        arg = argument(node, "args", 0)
        words, whole = command_words(arg.value) if arg is not None else ([], False)
        segs = segments(node, words, whole)
        if all(self.knowledge.interactive_process(seg) is not None for seg in segs):
            return True, None
        for seg in segs:
            why = self.knowledge.process_fix_refusal(seg, whole)
            if why is not None:
                return False, why
        program = unguessed_program(segs, self.knowledge, self.ctx.config.default_timeout_by_kind)
        if program is not None:
            return False, (f"how long `{program}` runs depends on its work, so no default is guessed: pass a "
                           "bound above its longest healthy run, or set `default-timeout-seconds = {process = N}`")
        return False, None

    def _report(self, anchor: cst.CSTNode, node: cst.Call, qn: str, what: str, value: cst.BaseExpression | None) -> None:
        why = self._deliberate(node, qn)
        if why is not None:
            self.report(anchor, f"{qn} gets {what}, which waits forever on a dead peer; {why}")
            return
        silent, refusal = self._process(node, qn)
        if silent:
            return
        if refusal is None and self.configured_none:
            refusal = "the branch passes a configured \"no limit\" (`if ... is None:`) on; bound it where it is configured"
        if refusal is None and keyword_arg(node, "files") is not None:
            refusal = "an upload's processing may run long; choose the bound for the longest job"
        if refusal is None and timeout_escapes_handler(qn, list(reversed(self.try_handlers.get(id(node), [])))):
            refusal = "the timeout's exception would escape the handler around the call"
        if refusal is None:
            refusal = http_write_refusal(node, qn, self.names, self.knowledge)
        if refusal is None and self._session_default(node, qn):
            refusal = (
                "a client's default serves every request it makes, streams and long calls included, which this "
                "line does not show; give each kind its bound (`httpx.Timeout(10, read=300)`, "
                "`ClientTimeout(sock_connect=10, sock_read=300)`)"
            )
        if refusal is not None:
            refusal = refusal.replace("noqa: TFH201", "noqa: TFH202")
            self.report(anchor, f"{qn} gets {what}, which waits forever; pass a number of seconds (no automatic fix: {refusal})")
            return
        self.report(anchor, call=qn, what=what, autofix=self._fix(value, qn) if value is not None else None)

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.names.qualname(node.func)
        self.calls.append((node, qn))
        if qn is None:
            return
        spec = self.knowledge.timeouts.get(qn)
        if spec is not None and spec.none_is_infinite:
            arg = argument(node, spec.keyword, spec.position)
            if arg is None:
                return
            if is_none(arg.value):
                self._report(arg, node, qn, f"{spec.keyword}=None", arg.value)
            elif spec.connect_read_tuple and _has_none(arg.value):
                self._report(arg, node, qn, "a (connect, read) timeout with None in it", arg.value)
            return
        fields = self.knowledge.timeout_objects.get(qn)
        if fields is None or any(a.star for a in node.args):
            return
        given: dict[str, cst.BaseExpression] = {}
        for i, arg in enumerate(positional(node)):
            if i < len(fields):
                given[fields[i]] = arg.value
        for name in fields:
            kw = keyword_arg(node, name)
            if kw is not None:
                given[name] = kw.value
        deadlines = {k: v for k, v in given.items() if k not in self.knowledge.timeout_object_non_deadlines}
        # one explicit None: that is the deadline to give; several, or none written: no obvious fix
        value = next(iter(deadlines.values())) if len(deadlines) == 1 else None
        if qn in self.knowledge.timeout_objects_omitted_none:
            if all(is_none(v) for v in deadlines.values()):  # omitted fields are None too
                what = "no deadline at all (every field None)" if deadlines else "no deadline at all (its fields default to None)"
                self._report(node, node, qn, what, value)
        elif deadlines and all(is_none(v) for v in deadlines.values()):
            self._report(node, node, qn, "no deadline at all (every field None)", value)

    def _fix(self, value: cst.BaseExpression, qn: str) -> RawFix | None:
        """``None`` (alone, or each ``None`` in a ``(connect, read)`` tuple) replaced by ``default-timeout-seconds``
        (the call's kind's, when given by kind)."""
        seconds = self.ctx.config.timeout_text_for(qn)
        if is_none(value):
            return RawFix(f"Replace `None` with `{seconds}`", (NodeEdit(value, expression(seconds)),))
        if isinstance(value, cst.Tuple):
            elements = [
                e.with_changes(value=expression(seconds)) if isinstance(e, cst.Element) and is_none(e.value) else e
                for e in value.elements
            ]
            return RawFix(f"Replace `None` with `{seconds}`", (NodeEdit(value, value.with_changes(elements=elements)),))
        return None
