"""TFH101 retry-non-idempotent-write."""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from ...linter.api import Knowledge, Screen
from . import handlers
from .base import RetryRule
from .data import IRREVERSIBLE, Condition, Retry
from .model import RetryModel
from .screen import screen_lines
from .status_loops import status_retry_lines
from .writes import rate_limited_only, repeated_writes, urllib3_writes


class RetryNonIdempotentWrite(RetryRule):
    code = "TFH101"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "retry-non-idempotent-write"
    summary = "A retry repeats a write that is not safe to repeat."
    message = (
        "retried {what} (line {line}, {cls}) has no idempotency key: send an Idempotency-Key that stays "
        "the same across attempts, reconcile by reading before retrying, or, if it only reads, declare it "
        "read-safe (@smullyan.runtime.read_safe or `classify` in the config)"
    )
    docs = """\
## What it does
Finds a retry whose retried work performs a non-idempotent write (HTTP POST or
PATCH through requests, httpx, aiohttp or urllib3; a call declared
`non-idempotent-write`) or an irreversible call (sending mail, an SMS, a
Stripe charge, ...) with no idempotency key. The retry is any the retry model
knows: tenacity, backoff, stamina, this project's runtime retry, a
`retry-decorators` entry, a hand-written retry loop, a decorator of the same
module that loops around the function, urllib3 `Retry` (or a subclass of it
in the same module) allowing POST on a requests session. A client whose API
mirrors requests' or httpx's sends like them (`knowledge.REQUESTS_COMPATIBLE_CLIENTS`:
curl_cffi's `requests` and its `Session`/`AsyncSession`, from either module;
niquests, requests-cache's `CachedSession`, hishel, primp, tls-client,
cloudscraper, requests-futures, aiohttp-retry's `RetryClient`). The retried work is read one level deep: the body, and the
same-module functions and methods it calls. A retry wrapper that calls a
parameter of its own (`async def _retry_async(func, *args): for attempt in ...:
try: return await func(*args)`, a method `self._with_retry(fn, ...)`) retries
what the module's calls hand it (s55, batch 27 dashtro): a def nested in the
caller (`_retry_async(_do_request)`), a module function or method
(`self._with_retry(self._create, body)`), a lambda or a `partial`; a wrapper
nothing in the module hands a callable says nothing. The finding sits on the retry and
names the write and its line. A remote tool run is a write too: MCP's
`ClientSession.call_tool` (and fastmcp's `Client.call_tool`) runs a tool on a
server that may create, send or pay; re-sent after a timeout or a dropped
connection, it may run twice. A model call (chat, completions, embeddings) is
not a write: a retry of it costs money and rate limit, not a duplicate.
A model call is read from its body too (s47, batch 19), where the module
builds it: a dict literal in the call, a local name assigned one, the value a
same-class method or same-module function returns (`payload =
self._build_payload("ping")`), or a parameter every call of the function in
the module fills with such a body (`_make_request(self, payload)` called as
`self._make_request(self._build_payload_from_messages(msgs))`): a body with
`messages`, `prompt`, `contents` or `input_text`, or both `model` and `input`,
sent through a generic client (`self._client.post(self.api_path,
json=payload)`), is inference. A body the module does not build, or one
without those keys (`{"title": ..., "body": ...}`), stays a write.
A request helper whose HTTP method is a parameter (`client.request(method,
url, ...)` in the retry) sends what its callers ask: a call in the same module
that gives it a literal `"POST"` or `"PATCH"` makes its retry a write's
(s35); a helper that the module's calls give only `"GET"` is a read, private
(`_send`) or public, unless it tells methods apart itself (`json = None if
method == "GET" else data`: it carries writes from other modules). A public
helper no call of the module names a method for may be called from other
modules with any method (or by a model picking the method of an agent's HTTP
tool): its own retry is reported when nothing in it keeps the method to a
safe one, and unless (s45, batch 17) every call of it in the project (the
modules of its top-level package, read on disk) gives a literal GET, HEAD or
OPTIONS or leaves a GET default (a call with a method that is not a literal,
or with `**kwargs`, keeps the finding; so does a helper nothing calls) (no `if` on the method that raises, returns or leaves: `if method
not in ("GET", "HEAD"): return send_once(...)`): the per-file linter cannot
see the callers, and a `request(method, url)` that re-sends whatever it is
given, after a read timeout too, re-sends the POSTs among them (s36). A caller
that retries the helper is not reported for it (it passes its own method,
often a `GET`). A session or decorator defined in another module is not read, with one
exception (s39): a decorator imported from another module of the same package
(`from .utils import retry_decorator`), named as a retry (a word `retry`,
`retries` or `retrying`; not a rate limit or a connect phase) and given a
literal number of attempts (`retry_count=3`, `max_retries=`, `attempts=`), is
read as a retry of the function it decorates, its condition unknown. And
(s40) a `post`/`patch` method of the project's own client class defined in
another module (`api = Api(config)`, `api.post(route, payload)` with `Api`
from `pkg._network`), read from that module, that itself makes the same call
(`self._session().post(...)`) or a `request("POST", ...)`: a thin HTTP
wrapper whose write the retry re-sends.
The standard library sends too (s48, batch 20): `urllib.request.urlopen` of a
`Request` whose `method` is `"POST"` or `"PATCH"`, or that has a body and no
method (urllib then sends a POST), or `urlopen(url, data=body)`; the `Request`
is the one handed to `urlopen` or last assigned, in the same function, to the
name handed to it; a `method` that is a parameter is read from the module's
calls as for `client.request(method, ...)` above; a body that is a model
call's (`json.dumps({"model": m, "messages": msgs}).encode()`, directly or
through a local name, `payload = {...}` or, s49, `payload: Dict[str, Any] =
{...}`) is no write. A call that gives the write
method but turns the helper's retry off (`_api_request("POST", path, body,
retry_ambiguous=False)`, a parameter whose default is the other bool and that
a handler of the helper tests before it raises) is not one; a call leaving the
default is; so is (s54) a call giving 0 for a parameter named for the retry
count whose default is a positive number (`_request("POST", "sandboxes",
json=p, retries=0)` against `retries: int = 3`). And a hand-written MCP client's JSON-RPC message (a dict with a
`"jsonrpc"` key handed to `self._write(...)` or any call) whose `"method"` is
`"tools/call"`, literally or through a parameter a call in the module gives
`"tools/call"` (`def call_tool(self, name, args): return
self.request("tools/call", {...})`), is a remote tool run, as
`ClientSession.call_tool` is: re-sent after a reconnect, the tool may run
twice. Both are read in the retry and in the same-module helpers it calls.
Nor is a hand loop that makes one attempt unless the code's own flag says the
work is safe to repeat (`attempts = 2 if retry_safe else 1`, then `for attempt
in range(1, attempts + 1)`; s48): the POST that only its read callers flag is
sent once. The count may also be kept to one unless the HTTP method is one
that is not a write (`3 if method == "GET" else 1`, `... if method in
READ_ONLY_METHODS else 0`), or unless a local name bound to such tests joined
by `or` holds (`safe = idempotent or method == "GET"`, then `attempts = 2 if
safe else 1`; s54, batch 26 nexus-mcp-notion-supabase); a loop that goes round
on a status is read the same way. A model call's body handed through a local dict of keywords
(`requests.post(url, **request_kwargs)` with `request_kwargs = {"json":
{"model": m, "prompt": p}, ...}`) is read as if written in the call.
Nor is a write retried only after a 429 (a status test true for 429 alone,
`retry_if_exception(lambda e: e.response.status_code == 429)`, or a module's
`retry_if_exception` subclass whose `__init__` passes such a predicate): the
rate-limited request was refused before the server did anything (s36).

The runtime's own forms are read as the runtime reads them (issue 21):
`pipe(tool, clock.retrying(...))`, `clock.retrying(...)(tool)`, a stage held in
a name, `@clock.retrying(...)` over a def, and the block form
`for attempt in clock.attempts(...): with attempt: ...`; the tool is followed
through `calling_api`, `partial`, a wrapper without `functools.wraps`
(`logged(charge)`), a lambda, a name holding any of these, `Cls.method` (a mark
above `@staticmethod`/`@classmethod` marks the function inside) and an instance
of a class whose `__call__` is marked. A `@non_idempotent_write` retried there
is reported unless the retry is `clock.retrying(...)` over `keyed(tool)` (one
key for every attempt); an `@irreversible` one always. So is what slips past the
runtime: a mark written above the retry's own wrapper, and a `keyed(tool)`
without `key_from=` called inside a retry that is not the runtime's (each
attempt is a logical call of its own, with a new key). Names are resolved
through the imports (`import smullyan.runtime as sr`, `from smullyan.runtime
import non_idempotent_write as niw`): a module's own `pipe` or `keyed` is not
the runtime's.

Writes also include a Redis queue append or counter (`xadd`, `lpush`,
`rpush`, `incr`, ...), a message publish (Redis, Kafka, pika, Pub/Sub, NATS,
SNS/SQS): on a channel, producer or client from a factory the resolver does not
follow (`connection.channel().basic_publish(...)`, `producer.produce(...)`), by
the method's name in a module importing the broker's package.
LLM inference is not a write: a POST in an LLM or embeddings integration (a
module under `llms/`, `chat_models/`, `embeddings/`, `models/`, a file named
like `*_llm.py` or `lm.py`/`*_lm.py`, a vendor-named module in a `providers`
package such as `providers/anthropic.py`, a class deriving from a `...Llm`/`...ChatModel`/`...Embeddings`
base), a body with `messages` or `prompt`, or a URL naming completions, chat,
embeddings, responses, generate or predict creates nothing a retry could
duplicate (its cost, money and rate limit, is TFH103/TFH104's). So is any
module of a `providers` package that holds a vendor-named module (`providers/http.py`
beside `providers/anthropic.py`: the adapters' shared transport; s43), and the
shared transport module of any package holding one (`http.py`, `_http.py`,
`sse.py`, `transport.py` beside `openai_client.py`: what the package's model
clients send their completions through, the URL and body its parameters; s44).
Nor is a POST or a remote tool run a write in a class named as a read (`WebSearchTool`,
`PaperRetriever`: a word such as search, retriever, lookup, reranker, browse,
embedder, none such as index, writer, upload, and no public method named for a
write such as `post` or `create_x`), in a base or mixin whose every subclass in
the module is one (`MCPMixin` under `MCPSearchTool` and `MCPBrowseTool`), or a
tool run whose literal tool name is a read (`call_tool("search_papers", ...)`:
its first or last word a read verb, as `smullyan tools` reads a name).
Nor is a write retried only on failures raised before the request was sent
(a refused connection, a connect timeout, DNS, TLS: httpx `ConnectError`/
`ConnectTimeout`, aiohttp `ClientConnectorError`/`ConnectionTimeoutError`,
requests `ConnectTimeout`): nothing arrived, so nothing is sent twice. So is a Redis WATCH/MULTI
transaction retried on `WatchError` (s55, agno): EXEC applied none of it. A
condition with anything else in it (a read timeout, `TransportError`,
requests' `ConnectionError`, which also covers a reset after sending) is
reported. A handler that ends by calling a same-module helper whose last
statement is a `raise` (`except httpx.HTTPError as e: _raise_failed(e)`) never
goes round. Nor is a hand loop that goes round only when the code's own flag
says the work is safe to repeat: each `continue` under an `if` whose test
holds a name like `idempotent`, `retry_safe`, `safe_to_retry`, `read_only`
(`retry_safe = action in READ_ACTIONS`, then `if attempt == 0 and retry_safe:
continue`), or the handler first leaving unless it holds (`if not idempotent
or attempt == last: raise`), with no other way round. A name that negates
(`is_non_idempotent`) does not count. The same flag in a status test
(`if resp.status_code >= 500 and idempotent: continue`) sends only safe
requests round: with writes sent round only on a 429 (`idempotent = method in
("GET", "HEAD")`; s45, batch 17), nothing is re-sent that the server did. A hand loop's handler that goes round unless it is the last
attempt records the exception (`failure = (delay, type(e).__name__)`) without
deciding on it: its types are the condition.

A counted loop (`for attempt in range(n)`) that goes round on an answer's
status retries its request too, with no `try` of its own or past one (s43):
an `if` testing `r.status_code` or `r.status` (against literals, or a module's
or class's literal collection: `if r.status_code in self._RETRY_STATUSES:`)
whose body ends in `continue`, when a 5xx (or any status but 200) sends it
round: the whole loop body is the retried work. A 5xx after the server acted
re-sends the write. A loop going round only on a 429 is not reported.
The same loop may instead leave unless the status is one it retries (s52,
batch 24 vibops-mcp): an `if` at the body's own level testing the status,
with no `else`, whose every way returns or raises (`if r.status_code not in
_RETRY_STATUSES or attempt == last: return r.json()`), followed by statements
that wait (a call named like a sleep) and neither return, raise, break nor call
`raise_for_status()`: the statuses that make the test false go round by falling
off the body's end. Without the wait (a page walk's `if r.status_code == 404:
return []`), it is not read as a retry.

What counts as a retry is TFH103's (`smullyan explain TFH103`, "What counts
as a retry"): a bounded poll of a state, a message loop, a repair re-ask
(the model asked again with the last error), a walk over a work list and a
person re-asked at the terminal are not retries, and re-send nothing.

## Why is this bad?
A timeout does not say whether the request arrived. When the first attempt
charged the card and only the answer got lost, the retry charges it again.
Excluding timeouts from the retry condition does not help: a connection reset
after the request was sent is just as ambiguous.

## Example
```python
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter
import httpx

@retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(3),
       wait=wait_exponential_jitter(max=30))
def charge(customer, cents):
    return httpx.post("https://api.pay.example/charges", json={"customer": customer, "amount": cents})
```

## Use instead
```python
@retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(3),
       wait=wait_exponential_jitter(max=30))
def charge(customer, cents, key):   # key made once, before the first attempt
    return httpx.post(
        "https://api.pay.example/charges",
        json={"customer": customer, "amount": cents},
        headers={"Idempotency-Key": key},
    )
```
A POST made in a function whose name starts with `search`, `query`, `embed`,
`infer`, `rerank` or `validate` (leading underscores aside: `async def
search(self, q)`, `def _validate_key()`) is read as a query or a check sent as
POST, not reported.
A POST whose URL's literal text names a read (`/search`, `/oauth/token`,
`/graphql`, ...) is read-safe, and so is a login or credential exchange
(`/login`, `/signin`, `/authenticate`, a URL or the name it is built from
naming a JWT: s45, it mints another token, creates nothing the caller owns); but a GraphQL POST whose literal text names a
mutation (a `"mutation { ... }"` document, a Relay operation named
`...Mutation` in its headers or body) is a write (s43, batch 16).
Another POST that only reads (search, embeddings, token polling, GraphQL queries):
decorate the function with `@smullyan.runtime.read_safe`, or map it in the
configuration: `classify = {"myapp.search.query" = "read-safe"}`.

A delivery id header (`X-GitHub-Delivery`, any header named `...-Delivery` or
`...-Delivery-Id`, Standard Webhooks' `webhook-id`) is such a key: the
receiver drops a delivery it has seen (s39).

A telemetry exporter's POST is not reported (s46): in a class whose name, or a
base's name as written, has the word `exporter` and one of span, trace, log,
metric, telemetry, otel, otlp, siem, audit (`LlmOpsHttpExporter(SpanExporter)`,
`SIEMExporter`). It sends a record of what happened (spans, logs, metrics,
security events), delivered at least once by the protocols' design; a batch
sent twice is a duplicated record, not a second effect. An `EventExporter` or
`DataExporter` is not one (it may post to a calendar or a CRM).
Nor is a POST in a module named for telemetry (s48): a word of the file's
name (split at `_`) is telemetry, trace, traces, tracing, tracer, otel, otlp
or spans (`telemetry.py`, `core/common/trace.py`): usage events or spans sent
to a collector, the same records. Not a module named for logs, audit, metrics
or events (it may write a person's records).

How to label this rule's findings (s46, from batches 15-18's debatable rows):
- **The rule's target, `true`**: a write helper that nothing in the package
  calls yet (a library's helper is there to be called; the finding is where
  the fix goes: s45), and any retried POST/PATCH whose receiver creates
  something the caller owns (a run, a message, a record), however small the
  retry.
- **Not its target, `false`**: a telemetry or security-log export (above; the
  rule now stays silent on the `...Exporter` classes), a POST that only reads
  (a search, a login, a model call: the tables above), and a write retried only
  when it was refused before the server acted (a 429, a connect error).
- **Not reported (s50)**: a request helper whose method a caller gives as
  `"POST"`, when the loop never falls through to the next round and every
  `continue` sits under a test that requires a read method (`if method ==
  "GET" and ...:`, `method.upper() in ("GET", "HEAD")`, or a name bound from a
  function of the module whose every `return` requires it, `retryable =
  should_retry(method, status)`): a write is sent once (batch 22
  codex-chats-mcp-v2; the gate in the loop: mcp-argocd, mcp-gitlab).
- **Not reported (s51)**: the same when the gate lets a POST round only with an
  idempotency key: a helper of the module, or a method of the class
  (`self._may_resend(method, headers)`), whose every `return` is false, or
  requires an idempotent method (GET, HEAD, OPTIONS, PUT, DELETE; a literal or a
  module constant such as `_IDEMPOTENT_METHODS = frozenset({...})`), or requires
  an `Idempotency-Key` header (`"Idempotency-Key" in headers`, `any(k.lower() ==
  "idempotency-key" for k in headers)`), or lies under an `if` requiring an
  idempotent method; an `or` of such tests counts. The loop may also leave first
  unless the gate holds (`if not can_retry or attempt >= n: raise`) before it goes
  round (batch 23 miosa; agenthubx). Still reported: a gate that lets a POST
  through without a key (`return bool(headers)`, `method != "DELETE" or ...`).
- **Reported (s51)**: a verb chosen at run time, `getattr(self._http,
  method.lower())(url, ...)` (or a name bound to that `getattr`) on an HTTP client
  (httpx, requests, aiohttp, ...), is read as `client.request(method, ...)`: a
  call of the module passing `"POST"` for the parameter makes the retry a
  write's (batch 23 zspace-cli); s54: the name may be bound with an annotation,
  `send: Callable[..., Any] = getattr(self._session, method.lower())` (batch 26
  aisolate-client).

## How to suppress
Declare the call's class as above (one line for every call site), or
`# noqa: TFH101` on the retry's line.
"""
    VALID = [
        # s57: `enumerate` over the items to send walks data, it is no schedule of waits: each item is sent once
        """\
import httpx
def create_all(client: httpx.Client, items):
    for i, item in enumerate(items):
        try:
            client.post("/issues", json=item)
        except httpx.TransportError:
            continue
""",
        # s52: a leave-unless status test with no wait after it is a page walk, not a retry (a 404 ends it, any other
        # status reads the page and asks for the next)
        """\
import httpx
def all_items(client: httpx.Client, url):
    items = []
    for _page in range(50):
        r = client.post(url, json={"page": _page})
        if r.status_code == 404:
            return items
        items.extend(r.json()["items"])
    return items
""",
        # s52: the same leave-unless loop that goes round only on a 429 re-sends nothing the server acted on
        """\
import time, requests
def send(url, body):
    for attempt in range(5):
        r = requests.post(url, json=body, timeout=10)
        if r.status_code != 429 or attempt == 4:
            return r
        time.sleep(2 ** attempt)
""",
        # s46 (batches 12 and 18): a telemetry exporter re-POSTs a batch of spans or security events, records
        # delivered at least once by design (its class, or a base as written, is named ...Exporter with span/siem/...)
        """\
import asyncio, time, httpx
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
class LlmOpsHttpExporter(SpanExporter):
    def _send_with_retries(self, url, payload, max_retries=4):
        for attempt in range(max_retries):
            try:
                response = self.http_client.post(url, json=payload)
                if response.status_code == 200:
                    return SpanExportResult.SUCCESS
            except Exception as e:
                print(e)
            time.sleep(1.5 ** attempt)
        return SpanExportResult.FAILURE
class SIEMExporter:
    async def send(self, events):
        for attempt in range(3):
            try:
                async with httpx.AsyncClient(timeout=10) as client:
                    response = await client.post(self.url, json=events)
                    response.raise_for_status()
                    return True
            except httpx.HTTPError:
                await asyncio.sleep(2 ** attempt)
        return False
""",
        # s45 (batch 17): a status loop whose 5xx test also holds the code's idempotency flag (writes go round only
        # on a 429, refused before the server acted); a login/credential exchange (a JWT or /login POST) mints a token
        """\
import asyncio, time
import httpx
class Client:
    def __init__(self):
        self._http = httpx.AsyncClient(timeout=30)
    async def request(self, method, url, json=None):
        idempotent = method in ("GET", "HEAD")
        for attempt in range(4):
            try:
                resp = await self._http.request(method, url, json=json)
            except httpx.TransportError:
                if idempotent and attempt < 3:
                    await asyncio.sleep(1.5 * (attempt + 1))
                    continue
                raise
            if resp.status_code == 429 and attempt < 3:
                await asyncio.sleep(2)
                continue
            if resp.status_code >= 500 and idempotent and attempt < 3:
                await asyncio.sleep(1.5 * (attempt + 1))
                continue
            break
        return resp
    async def create(self, url, body):
        return await self.request("POST", url, json=body)
_JWT_PATH = "/auth"
def exchange(base, user, password):
    for attempt in range(3):
        try:
            resp = httpx.post(f"{base}{_JWT_PATH}", data={"username": user, "password": password}, timeout=30)
        except httpx.RequestError:
            time.sleep(2 ** attempt)
            continue
        if resp.status_code >= 500 and attempt < 2:
            time.sleep(2 ** attempt)
            continue
        return resp
def login(base, user, password):
    for attempt in range(3):
        r = httpx.post(base + "/api/login", json={"user": user, "password": password}, timeout=10)
        if r.status_code >= 500:
            time.sleep(2 ** attempt)
            continue
        return r
""",
        # s44 (batch 17): only the SSH connection retried, the remote command sent once
        """\
import paramiko
from tenacity import retry, retry_if_exception_type, stop_after_attempt
@retry(retry=retry_if_exception_type(paramiko.SSHException), stop=stop_after_attempt(3))
def connect(client: paramiko.SSHClient, host):
    client.connect(host, timeout=10)
def run_remote(client: paramiko.SSHClient, host, command):
    connect(client, host)
    return client.exec_command(command, timeout=30)
""",
        # s43 (batch 16, status retries): a counted loop that goes round on a status re-sends nothing harmful when
        # it sends a GET, when only a 429 sends it round (refused before the server acted), when it carries an
        # idempotency key; a loop over data skips to the next item (not a retry)
        """\
import time, requests
def fetch(url):
    for attempt in range(3):
        r = requests.get(url, timeout=30)
        if r.status_code >= 500:
            time.sleep(2 ** attempt)
            continue
        return r.json()
def create(url, body):
    for attempt in range(3):
        r = requests.post(url, json=body, timeout=30)
        if r.status_code == 429:
            time.sleep(int(r.headers.get("Retry-After", "1")))
            continue
        return r.json()
def charge(url, body, key):
    for attempt in range(3):
        r = requests.post(url, json=body, headers={"Idempotency-Key": key}, timeout=30)
        if r.status_code >= 500:
            time.sleep(2 ** attempt)
            continue
        return r.json()
def fetch_bounded(url, max_retries=3):
    for attempt in range(max_retries):
        r = requests.get(url, timeout=30)
        if r.status_code >= 500:
            if attempt < max_retries - 1:
                time.sleep(2 ** attempt)
                continue
        return r.json()
def upload_all(url, items):
    for i in range(len(items)):
        r = requests.post(url, json=items[i], timeout=30)
        if r.status_code >= 500:
            continue
def viewer(token):
    for attempt in range(3):
        r = requests.post("https://api.example.com/graphql", json={"query": "query { viewer { id } }"}, timeout=30)
        if r.status_code >= 500:
            time.sleep(2 ** attempt)
            continue
        return r.json()
""",
        # s43 (batch 15 search-post, read-only-mcp-tools): a POST or a tool run in a class named as a read, or in a
        # mixin whose every subclass in the module is; a tool run whose literal tool name is a read
        """\
import requests, time
from fastmcp import Client
from tenacity import retry, stop_after_attempt, retry_if_exception_type
class WebSearchTool:
    def _request_results(self, query):
        for attempt in range(3):
            try:
                return requests.post(self.endpoint_url, json=self._payload(query), timeout=30).json()
            except requests.RequestException:
                time.sleep(2 ** attempt)
class MCPMixin:
    @retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_attempt(3))
    async def _execute(self, tool_name, params):
        async with Client(self.url) as client:
            return await client.call_tool(tool_name, params)
class MCPSearchTool(MCPMixin):
    pass
class MCPBrowseTool(MCPMixin):
    pass
@retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_attempt(3))
async def papers(client: Client, q):
    return await client.call_tool("search_papers", {"query": q})
""",
        # s41 (issue 23, llm-inference-not-a-write): a POST to a chat/completions or embeddings URL is inference
        """\
import requests
from tenacity import retry, stop_after_attempt, wait_exponential
@retry(stop=stop_after_attempt(3), wait=wait_exponential())
def complete(base_url, key, messages):
    headers = {"Authorization": f"Bearer {key}"}
    body = {"model": "gpt-4o-mini", "messages": messages}
    return requests.post(f"{base_url}/v1/chat/completions", json=body, headers=headers, timeout=60).json()
@retry(stop=stop_after_attempt(3), wait=wait_exponential())
def embed(base_url, texts):
    return requests.post(base_url + "/v1/embeddings", json={"input": texts}, timeout=30).json()
""",
        # s39: a decorator of another package, or the project's rate-limit wait, is not read as a retry of the POST
        """\
import httpx
from somelib import retry_decorator
from .limits import retry_on_rate_limit
client = httpx.Client(timeout=10)
@retry_decorator(retry_count=3)
def send(url, body):
    return client.post(url, json=body)
@retry_on_rate_limit(max_retries=3)
def publish(url, body):
    return client.post(url, json=body)
""",
        # s39 (vulnhuntr webhook): a delivery id header made once before the loop is the receiver's dedup key
        """\
import time, uuid
import requests
def deliver(url, payload, max_retries=3):
    delivery_id = str(uuid.uuid4())
    headers = {"X-Hook-Delivery": delivery_id, "X-Hook-Event": "report"}
    for attempt in range(1, max_retries + 1):
        try:
            return requests.post(url, json=payload, headers=headers, timeout=10)
        except requests.exceptions.RequestException:
            time.sleep(2 ** attempt)
def notify(url, payload, key):
    for attempt in range(3):
        try:
            return requests.post(url, json=payload, headers={"webhook-id": key}, timeout=10)
        except requests.exceptions.Timeout:
            time.sleep(2 ** attempt)
""",
        # s39 (lightagent): attempts = configured reconnects + 1, the reconnects 0 by default: one call unless configured
        """\
import asyncio
from mcp import ClientSession
async def call_tool(sessions, config, name, arguments):
    max_attempts = max(1, int(config.get("reconnect_attempts", 0)) + 1)
    for attempt in range(max_attempts):
        try:
            session: ClientSession = sessions[name]
            return await session.call_tool(name, arguments)
        except Exception:
            if attempt + 1 >= max_attempts:
                raise
async def run(session: ClientSession, name, arguments, retries=0):
    for attempt in range(retries + 1):
        try:
            return await session.call_tool(name, arguments)
        except (ConnectionError, asyncio.TimeoutError):
            await asyncio.sleep(2 ** attempt)
""",
        # s36: retried only on a 429 (the server refused the request before acting on it)
        """\
import requests
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential
class ApiError(Exception):
    status_code = 0
class retry_if_rate_limited(retry_if_exception):
    def __init__(self):
        def is_429(exc):
            return isinstance(exc, ApiError) and exc.status_code == 429
        super().__init__(predicate=is_429)
@retry(retry=retry_if_rate_limited(), stop=stop_after_attempt(5), wait=wait_exponential())
def create_event(url, body):
    r = requests.post(url, json=body, timeout=10)
    if r.status_code >= 400:
        raise ApiError(r.status_code)
    return r.json()
@retry(retry=retry_if_exception(lambda e: e.response.status_code == 429), stop=stop_after_attempt(5), wait=wait_exponential())
def send(url, body):
    return requests.post(url, json=body, timeout=10).raise_for_status()
""",
        # s36: a method-parameter helper that keeps its retry to safe methods; a public one called with GET
        """\
import httpx, time
SAFE = ("GET", "HEAD", "OPTIONS")
def make_request(client: httpx.Client, method, url):
    for attempt in range(3):
        try:
            return client.request(method=method, url=url, timeout=10).json()
        except httpx.TransportError:
            time.sleep(2 ** attempt)
def nodes(client, base):
    return make_request(client, "GET", f"{base}/api/nodes")
def request(client: httpx.Client, method, url, **kw):
    if method.upper() not in SAFE:
        return client.request(method, url, **kw)
    for attempt in range(3):
        try:
            return client.request(method, url, **kw)
        except httpx.TransportError:
            time.sleep(2 ** attempt)
""",
        # s35 post (read-via-post): a function named for getting something sends its lookup as POST
        """\
import httpx
async def load_card(client: httpx.AsyncClient, base, key):
    for attempt in range(3):
        try:
            response = await client.post(f"{base}/cards", json={"key": key}, timeout=10)
            return response.json()["card"]
        except httpx.TransportError:
            continue
""",
        # s35 post (device-code-poll): the token endpoint's path is a literal handed to a URL helper
        """\
import time, httpx
def endpoint(base, path):
    return base.rstrip("/") + path
def poll_token(base, device_code, interval):
    while True:
        time.sleep(interval)
        try:
            return httpx.post(endpoint(base, "/device/token"), data={"device_code": device_code}, timeout=10).json()
        except httpx.HTTPStatusError:
            continue  # authorization_pending: ask again
""",
        # issue 23 (connect-only-retry): re-sent only when the connection was never made
        """\
import asyncio, httpx
async def upload_report(client: httpx.AsyncClient, url, report):
    for attempt in range(3):
        try:
            response = await client.post(url, json=report, timeout=30)
            response.raise_for_status()
            return
        except (httpx.ConnectError, httpx.ConnectTimeout):
            await asyncio.sleep(2 ** attempt)
    raise RuntimeError("report server unreachable")
""",
        # issue 23 (condition-never-raised): requests raises Timeout only when given a timeout; this
        # POST has none, so the handler never runs and the job is never submitted twice (TFH201's finding)
        """\
import requests
from requests.exceptions import RequestException, Timeout

def start_job(endpoint, payload):
    left = 3
    while left:
        left -= 1
        try:
            resp = requests.post(endpoint, json=payload)
            resp.raise_for_status()
            return resp.json()["job_id"]
        except Timeout:
            continue
        except RequestException as exc:
            raise RuntimeError(f"job not started: {exc}") from exc
    raise RuntimeError("job not started")
""",
        # PUT, DELETE and GET repeat safely
        """\
import httpx
from tenacity import retry, stop_after_attempt

@retry(stop=stop_after_attempt(3))
def save(doc):
    httpx.put("https://api.example/docs/1", json=doc)
    httpx.delete("https://api.example/docs/2")
    return httpx.get("https://api.example/docs/1").json()
""",
        # idempotency key as a keyword, in literal headers, in a headers variable
        """\
import stripe, requests, httpx
from tenacity import retry

@retry
def charge(key):
    stripe.Charge.create(amount=100, currency="usd", idempotency_key=key)

@retry
def post(key):
    requests.post("https://api.example/orders", json={}, headers={"idempotency-key": key}, timeout=5)

@retry
def post2(key):
    headers = {"Content-Type": "application/json", "X-Idempotency-Key": key}
    httpx.post("https://api.example/orders", json={}, headers=headers)
""",
        # a POST that only reads: search URL, and declared read-safe
        """\
import httpx
from smullyan.runtime import read_safe
from tenacity import retry

@retry
def search(q):
    return httpx.post("https://api.example/v1/search", json={"q": q})

@retry
@read_safe
def lookup(q):
    return httpx.post("https://api.example/v1/items", json={"q": q})
""",
        # the write is not in the retried work
        """\
import httpx
import backoff

@backoff.on_exception(backoff.expo, httpx.TransportError, max_tries=3)
def fetch(url):
    return httpx.get(url)

def submit(url):
    fetch(url)
    return httpx.post(url, json={})
""",
        # a hand loop that only reads; a for loop over items is not a retry
        """\
import requests

def poll(url, items):
    for attempt in range(3):
        try:
            return requests.get(url, timeout=5)
        except requests.Timeout:
            continue
    for item in items:
        try:
            requests.post(url, json=item, timeout=5)
        except requests.RequestException:
            continue
""",
        # urllib3 Retry with its default methods (no POST)
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

s = requests.Session()
s.mount("https://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[429, 503])))
""",
        # s40: a module's subclass of urllib3 Retry, its methods left to the idempotent default
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

class _Recoverable(Retry):
    def is_retry(self, method, status_code, has_retry_after=False):
        return 500 <= status_code <= 599

s = requests.Session()
s.mount("https://", HTTPAdapter(max_retries=_Recoverable(total=5, backoff_factor=1)))
""",
        # s55 (agno): a Redis WATCH/MULTI transaction retried on WatchError: EXEC applied none of its commands
        """\
import redis
from redis.exceptions import WatchError
r = redis.Redis()
def reopen(key, stream):
    for _ in range(10):
        try:
            with r.pipeline(transaction=True) as pipe:
                pipe.watch(key)
                pipe.multi()
                pipe.xadd(stream, {"reopen": "1"})
                pipe.execute()
                return True
        except WatchError:
            continue
    return False
""",
        # s55: a retry wrapper handed only a read
        """\
import time, requests
def call_with_retries(fn, *args):
    for attempt in range(3):
        try:
            return fn(*args)
        except requests.Timeout:
            time.sleep(2 ** attempt)
    raise RuntimeError("gave up")
def _fetch(url):
    return requests.get(url, timeout=10).json()
def fetch(url):
    return call_with_retries(_fetch, url)
""",
        # an unknown callee: nothing to say
        """\
from tenacity import Retrying, stop_after_attempt

def run(fn):
    return Retrying(stop=stop_after_attempt(3))(fn)
""",
        # MCP tool declared idempotent, retried
        """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations
from tenacity import retry

mcp = FastMCP("x")

@mcp.tool(annotations=ToolAnnotations(idempotentHint=True))
@retry
def upsert(doc):
    return httpx.post("https://api.example/upsert", json=doc)
""",
        # configured: classify marks the call read-safe (via the config in tests); here a stamina retry of a GET
        """\
import stamina, httpx

@stamina.retry(on=httpx.TransportError, attempts=3)
async def get(c: httpx.AsyncClient):
    async with httpx.AsyncClient() as client:
        return await client.get("https://api.example/x")
""",
        # runtime retry of a read; helper that only reads
        """\
import httpx
from smullyan import runtime as tool

def fetch():
    return httpx.get("https://api.example/x")

clock = tool.with_clock(lambda ms: None)
stage = tool.pipe(tool.calling_api(fetch, None), clock.retrying(tool.while_transient, tool.up_to(3).attempts))
""",
        # LangChain with_retry on a read
        """\
import requests
from langchain_core.runnables import RunnableLambda

def read(x):
    return requests.get("https://api.example/x", timeout=5).json()

chain = RunnableLambda(read).with_retry(retry_if_exception_type=(requests.Timeout,))
""",
        # LLM inference is not a write: a model call in an LLM class, a body with `messages`
        """\
import httpx, tenacity
class ApigeeLlm(BaseLlm):
    async def _post(self, url, payload):
        async for attempt in tenacity.AsyncRetrying(stop=tenacity.stop_after_attempt(3)):
            with attempt:
                return await self._client.post(url, json=payload)
@tenacity.retry(stop=tenacity.stop_after_attempt(3))
def chat(url, text):
    return httpx.post(url, json={"model": "m", "messages": [{"role": "user", "content": text}]})
""",
        # the runtime's keyed exemption: clock.retrying(...) over keyed(tool) repeats one logical call
        # under one key; a keyed tool with key_from= keeps its key under any retry; marked reads
        """\
import smullyan.runtime as sr
from tenacity import retry, stop_after_attempt

clock = sr.system_clock()

@sr.non_idempotent_write
def charge(card, cents):
    ...

class Catalogue:
    @sr.read_safe
    @staticmethod
    def find(q):
        ...

    @sr.read_safe
    def __call__(self, q):
        ...

once = sr.pipe(sr.keyed(sr.calling_api(charge)), clock.retrying(sr.while_transient, sr.up_to(3).attempts))
same = sr.keyed(sr.calling_api(charge), key_from=lambda card, cents: f"{card}:{cents}")
finds = sr.pipe(sr.calling_api(Catalogue.find), clock.retrying(sr.up_to(3).attempts))
reads = clock.retrying(sr.up_to(3).attempts)(sr.calling_api(Catalogue()))

@retry(stop=stop_after_attempt(3))
def checkout(card):
    return same(card, 100)

def poll():
    for attempt in clock.attempts(sr.up_to(3).attempts):
        with attempt:
            Catalogue.find("x")
""",
    # issue 23: a search query sent as POST (the function says it reads), retried on transport errors
    """\
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

class SearchProvider:
    def __init__(self, client, endpoint):
        self.client, self.endpoint = client, endpoint

    async def search(self, text):
        @retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(4),
               wait=wait_exponential_jitter())
        async def _send():
            response = await self.client.post(self.endpoint, json={"q": text}, timeout=20)
            response.raise_for_status()
            return response
        return (await _send()).json()
""",
        # issue 23: the loop goes round only when the code's own flag says the call only reads
        """\
import asyncio
from mcp import ClientSession
READS = {"snapshot", "find", "list"}
async def run(session: ClientSession, action, args, reconnect):
    retry_safe = action in READS
    for attempt in range(2):
        try:
            return await session.call_tool(action, args)
        except (ConnectionError, asyncio.TimeoutError):
            if attempt == 0 and retry_safe:
                await reconnect()
                continue
            raise
""",
        """\
import httpx, time
def send(client: httpx.Client, url, body, idempotent=False):
    for attempt in range(3):
        try:
            return client.post(url, json=body)
        except httpx.TransportError:
            if not idempotent or attempt == 2:
                raise
            time.sleep(2 ** attempt)
""",
        # issue 23: the handler always raises (through a same-module helper); the loop goes round only
        # on a 429, which the server rejected before doing anything
        """\
import httpx, time
def _raise_failed(what, exc):
    raise RuntimeError(f"{what} failed") from exc
def request_code(url):
    response = None
    for attempt in range(1, 5):
        try:
            response = httpx.post(url, json={"client_id": "x"}, timeout=5)
        except httpx.HTTPError as exc:
            _raise_failed("device code request", exc)
        if response.status_code != 429:
            break
        time.sleep(2 ** attempt)
    return response
""",
        # s35: a request helper whose method is a parameter, called in this module only with "GET"
        """\
import time
import httpx
def _send(client: httpx.Client, method, url):
    for attempt in range(3):
        try:
            return client.request(method, url, timeout=10)
        except httpx.TransportError:
            time.sleep(2 ** attempt)
def status(client: httpx.Client, job):
    return _send(client, "GET", f"/jobs/{job}")
""",
        # s41 (issue 23 D3): `publish`/`send`/`produce` read as a broker's only in a module importing that
        # broker: an in-process event bus's `publish` retried is no message sent twice
        """\
import time
def notify(bus, event):
    for attempt in range(3):
        try:
            bus.publish("done", event)
            return
        except ConnectionError:
            time.sleep(2 ** attempt)
""",
        # s47 (localforge b19, model-call-post): a model call through a generic client: the URL is an attribute, the
        # body is built by a method of the class (`self._build_payload(...)`) or handed in by every caller of the
        # method that posts it (`_make_request(payload)`): its `messages` say it is a model call, not a write
        """\
import asyncio, httpx
class CloudClient:
    def __init__(self, base_url):
        self._client = httpx.AsyncClient(base_url=base_url, timeout=60)
        self.api_path = "/api/v1/chat"
    def _build_payload(self, text, history=()):
        messages = [*history, {"role": "user", "content": text}]
        return {"messages": messages, "conversation_id": "", "system_purpose": "code"}
    async def health_check(self):
        for attempt in range(5):
            try:
                payload = self._build_payload("ping")
                payload["conversation_id"] = ""
                resp = await self._client.post(self.api_path, json=payload)
                return resp.status_code < 400
            except httpx.TransportError:
                await asyncio.sleep(2 ** attempt)
        return False
    async def _make_request(self, payload):
        for attempt in range(3):
            try:
                return (await self._client.post(self.api_path, json=payload)).text
            except httpx.TransportError:
                await asyncio.sleep(2 ** attempt)
    async def chat(self, text, history):
        return await self._make_request(self._build_payload(text, history))
    async def vectors(self, texts):
        body = {"model": "text-embedding-3-small", "input": texts}
        for attempt in range(3):
            try:
                return (await self._client.post("/v1/vectors", json=body)).json()
            except httpx.TransportError:
                await asyncio.sleep(2 ** attempt)
""",
        # s48 (batch 20 nyx-raccoonbot): one attempt unless the code's own flag says the POST only reads (`attempts = 2
        # if retry_safe else 1`); an image-generation body (`prompt`) handed through `**request_kwargs`; a urlopen
        # whose every POST caller in the module turns the helper's retry off (`retry_ambiguous=False`); a JSON-RPC
        # client whose module only lists tools
        """\
import json, time, requests, urllib.error, urllib.request
class Memory:
    def _http_session(self):
        return requests.Session()
    def _post(self, path, payload, *, retry_safe=False):
        attempts = 2 if retry_safe else 1
        for attempt in range(1, attempts + 1):
            try:
                return self._http_session().post("https://mem.example.com" + path, json=payload, timeout=10).json()
            except (requests.Timeout, requests.ConnectionError):
                if attempt >= attempts:
                    raise
                time.sleep(0.25)
def draw(prompt, key):
    request_kwargs = {"headers": {"Authorization": key}, "json": {"model": "img-1", "prompt": prompt}, "timeout": 180}
    for attempt in range(1, 4):
        try:
            response = requests.post("https://api.example.com/v1/images/generations", **request_kwargs)
            response.raise_for_status()
            return response.content
        except requests.RequestException:
            time.sleep(2 ** attempt)
def _api_request(method, path, payload=None, *, retry_ambiguous=True):
    mutating = method.upper() != "GET"
    while True:
        req = urllib.request.Request("https://api.example.com" + path, method=method,
                                     data=json.dumps(payload).encode() if payload is not None else None)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read() or b"{}")
        except urllib.error.URLError as exc:
            if mutating and not retry_ambiguous:
                raise RuntimeError("may have been applied") from exc
        time.sleep(2)
def submit(build_id):
    _api_request("POST", "/v1/submissions", {"build": build_id}, retry_ambiguous=False)
def builds():
    return _api_request("GET", "/v1/builds")
class StdioClient:
    def request(self, method, params=None):
        for _attempt in range(3):
            try:
                self._write({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}})
                return self._read_response(1)
            except (OSError, EOFError):
                self.close()
    def list_tools(self):
        return self.request("tools/list")
""",
        # s49 (batch 21 xdharness): a model call's body bound with an annotation (`payload: Dict[str, Any] = {...}`) is
        # read as `payload = {...}` is: a streamed chat completion through urllib, not a write
        """\
import json, time, urllib.error, urllib.request
from typing import Any, Dict
def stream_chat(base_url, model, messages):
    for attempt in range(1, 6):
        payload: Dict[str, Any] = {"model": model, "messages": messages, "stream": True}
        req = urllib.request.Request(base_url + "/v1/stream", data=json.dumps(payload).encode("utf-8"), method="POST")
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return [line for line in resp]
        except urllib.error.URLError:
            time.sleep(5 * attempt)
""",
        # s51 (batch 23 miosa's sync and async transports; agenthubx's `_retryable`, batches 1-18): the gate is a
        # helper of the module (or a method of the class) whose every `return` lets a POST round only with an
        # Idempotency-Key: an idempotent method (a literal or a module constant), or the key among the headers;
        # the loop goes round under it, or leaves first unless it holds (`if not can_retry or ...: raise`)
        """\
import time, httpx
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
def _is_retryable_call(method, headers):
    if method.upper() in _IDEMPOTENT_METHODS:
        return True
    if not headers:
        return False
    return any(key.lower() == "idempotency-key" for key in headers)
class Transport:
    def __init__(self):
        self._client = httpx.Client(timeout=10)
    def request(self, method, path, json_body=None, headers=None):
        may_retry = _is_retryable_call(method, headers)
        for attempt in range(4):
            try:
                response = self._client.request(method, path, json=json_body, headers=headers)
            except httpx.TimeoutException:
                if may_retry and attempt < 3:
                    time.sleep(2 ** attempt)
                    continue
                raise
            if response.status_code >= 500 and may_retry and attempt < 3:
                time.sleep(2 ** attempt)
                continue
            return response.json()
        raise RuntimeError("exhausted")
    def create(self, body):
        return self.request("POST", "/sandboxes", json_body=body)
def _retryable(method, request_headers):
    return method == "GET" or "Idempotency-Key" in request_headers
class Client:
    def __init__(self):
        self._client = httpx.Client(timeout=10)
    def _request(self, method, path, json=None, extra_headers=None):
        request_headers = dict(extra_headers or {})
        can_retry = _retryable(method, request_headers)
        attempt = 0
        while True:
            try:
                response = self._client.request(method, path, json=json, headers=request_headers)
            except httpx.TransportError as exc:
                if not can_retry or attempt >= 3:
                    raise RuntimeError("unreachable") from exc
                time.sleep(2 ** attempt)
                attempt += 1
                continue
            return response.json()
    def decide(self, body):
        return self._request("POST", "/decisions", json=body)
""",
        """\
import time, requests
class Api:
    def __init__(self):
        self.session = requests.Session()
    def _may_resend(self, method, headers):
        return method.upper() in ("GET", "PUT", "DELETE") or bool(headers.get("Idempotency-Key"))
    def _call(self, method, url, payload=None, headers=None):
        headers = headers or {}
        for attempt in range(3):
            try:
                return self.session.request(method, url, json=payload, headers=headers, timeout=10)
            except requests.ConnectionError:
                if self._may_resend(method, headers) and attempt < 2:
                    time.sleep(1)
                    continue
                raise
    def send(self, payload):
        return self._call("POST", "https://api.example.com/messages", payload)
""",
        # s51 (batch 23 session-peer's relay; the retry model's message loop, `messages.py`): a `for` over a request
        # budget receiving one request before its `try` and answering it: each round serves the next request, the
        # POST its handler sends is that request's, never the same one again
        """\
import json, httpx
class Relay:
    def __init__(self):
        self.http = httpx.AsyncClient(timeout=10)
    async def serve(self, channel, budget=100):
        for _ in range(budget):
            request = await channel.recv()
            try:
                result = await self.dispatch(request)
            except Exception:
                result = {"ok": False, "status": "unknown"}
            await channel.send(json.dumps(result))
    async def dispatch(self, request):
        return (await self.http.post("https://relay.example/v1/deliver", json=request)).json()
""",
        # s51 (batch 23 susatest-agent, agent.py and windows_agent.py): a long-poll loop; the endpoint the `try` first
        # asks is named `poll` (as `getUpdates`, `get_messages`: a fetch of the next item), so the loop is a message
        # loop: the POST is the result of the command this round received, sent once by the task it starts
        """\
import asyncio, httpx
async def poll_loop(client: httpx.AsyncClient, agent_id, executor):
    while True:
        try:
            resp = await client.get("/api/agent/poll", params={"agent_id": agent_id}, timeout=httpx.Timeout(45, connect=10))
            if resp.status_code == 404:
                return
            resp.raise_for_status()
            msg = resp.json()
            if msg.get("type") == "no_command":
                continue
            if msg.get("type") == "command":
                asyncio.create_task(_handle_command(client, agent_id, executor, msg))
        except httpx.ReadTimeout:
            continue
        except (httpx.ConnectError, httpx.ConnectTimeout):
            raise
async def _handle_command(client: httpx.AsyncClient, agent_id, executor, msg):
    result = await executor.execute(msg["method"], msg.get("args", {}))
    await client.post("/api/agent/result", json={"agent_id": agent_id, "id": msg["id"], "result": result})
""",
        # s51: a method chosen at run time (`getattr(client, method)`) whose callers here pass only GET; and a
        # getattr on an object that is not an HTTP client
        """\
import time, httpx
class Nas:
    def __init__(self):
        self._http = httpx.Client(timeout=60)
    def _send(self, method, url, **kwargs):
        call = getattr(self._http, method.lower())
        for attempt in range(3):
            try:
                return call(url, **kwargs).json()
            except httpx.TransportError:
                time.sleep(2 ** attempt)
        raise RuntimeError("unreachable")
    def listing(self, path):
        return self._send("GET", "/files", params={"path": path})
class Jobs:
    def __init__(self, runner):
        self.runner = runner
    def _do(self, method, job):
        for attempt in range(3):
            try:
                return getattr(self.runner, method)(job)
            except OSError:
                time.sleep(1)
    def start(self, job):
        return self._do("post", job)
""",
        # s50 (batch 22 codex-chats-mcp-v2 ``retry-get-only``; the same gate written in the loop in mcp-argocd's and
        # mcp-gitlab's `_send`): a caller passes "POST", but every way round the loop is under a test that requires a
        # read method, here through a module helper returning `method.upper() == "GET" and ...`: a POST is sent once
        """import json, time, urllib.error, urllib.request
def _should_retry(method, status):
    return method.upper() == "GET" and status in (502, 503, 504)
def _request(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request("https://api.example.com" + path, data=data, method=method)
    for attempt in range(1, 4):
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as e:
            retryable = _should_retry(method, e.code)
            if retryable and attempt < 3:
                time.sleep(2 ** attempt)
                continue
            return e.code, {}
        except urllib.error.URLError:
            return 0, {}
def archive(task_id):
    return _request("POST", f"/tasks/{task_id}/archive")
import httpx
client = httpx.Client(timeout=10)
def _send(method, path, **kwargs):
    for attempt in range(1, 3):
        try:
            resp = client.request(method, path, **kwargs)
        except OSError as e:
            raise RuntimeError("unreachable") from e
        if method in ("GET", "HEAD") and attempt < 2 and resp.status_code == 503:
            time.sleep(1)
            continue
        return resp
def create(body):
    return _send("POST", "/items", json=body)
""",
        # s54 (batch 26 nexus-mcp-notion-supabase): one attempt unless the request is safe to repeat, said by a
        # local name bound to a flag or a safe-method test (`safe = idempotent or method == "GET"`)
        """\
import asyncio, httpx
class Notion:
    def __init__(self):
        self._http = httpx.AsyncClient(timeout=10)
    async def request(self, method, path, *, json=None, idempotent=False):
        safe = idempotent or method == "GET"
        attempts = 2 if safe else 1
        for attempt in range(1, attempts + 1):
            try:
                resp = await self._http.request(method, path, json=json)
            except httpx.TransportError:
                if attempt < attempts:
                    await asyncio.sleep(0.2)
                    continue
                raise
            if resp.status_code in (429, 502, 503, 504) and attempt < attempts:
                await asyncio.sleep(0.5)
                continue
            return resp.json()
    async def create_page(self, body):
        return await self.request("POST", "/v1/pages", json=body)
""",
    ]
    INVALID = [
        # s57 (batch 7 arcade-github `_request_with_retry`): a loop over a schedule of waits the function names
        # (`enumerate(backoff_delays)`, a module's `RETRY_DELAYS`) is one attempt per delay, a retry like `range(3)`
        """\
import asyncio, httpx
async def request_with_retry(client: httpx.AsyncClient, method: str, url: str, json=None):
    backoff_delays = [0.3, 0.6, 1.2]
    for attempt, delay in enumerate(backoff_delays):  # error: TFH101
        try:
            response = await client.request(method, url, json=json)
            response.raise_for_status()
            return response
        except httpx.HTTPStatusError as e:
            if e.response.status_code < 500:
                raise
            await asyncio.sleep(delay)
    raise RuntimeError("gave up")
async def create_issue(client, data):
    return await request_with_retry(client, "POST", "/issues", json=data)
""",
        # s55 (batch 27 dashtro `_retry_async`): a wrapper retrying the callable it is handed, here a def nested in
        # the caller that POSTs
        """\
import asyncio, httpx
async def _retry_async(func, *args, max_retries=3):
    for attempt in range(max_retries + 1):  # error: TFH101
        try:
            return await func(*args)
        except (httpx.TimeoutException, httpx.NetworkError):
            if attempt == max_retries:
                raise
        await asyncio.sleep(2 ** attempt)
async def create_entry(url, data):
    async def _do_request():
        async with httpx.AsyncClient(timeout=30) as client:
            return (await client.post(url, json=data)).json()
    return await _retry_async(_do_request)
""",
        # s52 (batch 24 vibops-mcp `_request`): no `try` at all; the loop leaves unless the status is one it retries,
        # then waits and falls off the body's end: a 502 after the server acted re-sends the POST
        """\
import asyncio, httpx
_RETRY_STATUSES = {502, 503, 504}
async def _request(method, path, **kwargs):
    delay = 1.0
    for attempt in range(3):  # error: TFH101
        async with httpx.AsyncClient(timeout=10) as c:
            r = await c.request(method, path, **kwargs)
        if r.status_code not in _RETRY_STATUSES or attempt == 2:
            if r.status_code >= 400:
                raise RuntimeError(r.text)
            return r.json()
        await asyncio.sleep(delay)
        delay *= 2
async def post(path, body):
    return await _request("POST", path, json=body)
""",
        # s51: the same loop asking an endpoint not named for the next item (`/status`) is not a message loop
        """\
import asyncio, httpx
async def poll_loop(client: httpx.AsyncClient, agent_id, executor):
    while True:  # error: TFH101
        try:
            resp = await client.get("/api/agent/status", params={"agent_id": agent_id}, timeout=httpx.Timeout(45, connect=10))
            if resp.status_code == 404:
                return
            resp.raise_for_status()
            msg = resp.json()
            if msg.get("type") == "no_command":
                continue
            if msg.get("type") == "command":
                asyncio.create_task(_handle_command(client, agent_id, executor, msg))
        except httpx.ReadTimeout:
            continue
        except (httpx.ConnectError, httpx.ConnectTimeout):
            raise
async def _handle_command(client: httpx.AsyncClient, agent_id, executor, msg):
    result = await executor.execute(msg["method"], msg.get("args", {}))
    await client.post("/api/agent/result", json={"agent_id": agent_id, "id": msg["id"], "result": result})
""",
        # s51 (batch 23 zspace-cli `_send`): the verb is chosen at run time, `getattr(self._http, method.lower())`,
        # and a call of the module gives the helper "POST": read as `self._http.request(method, ...)` is
        """\
import time, httpx
class Nas:
    def __init__(self):
        self._http = httpx.Client(timeout=60)
    def _send(self, method, url, **kwargs):
        call = getattr(self._http, method.lower())
        for attempt in range(3):  # error: TFH101 "POST through getattr(httpx.Client, ...), as the call of _send() at line 14"
            try:
                return call(url, **kwargs).json()
            except httpx.TransportError:
                time.sleep(2 ** attempt)
        raise RuntimeError("unreachable")
    def copy(self, paths, dest):
        return self._send("POST", "/v2/file/copy", data={"paths": paths, "dest": dest})
""",
        # s51: a gate helper that lets a POST round without a key (any headers at all; a method test that lets
        # POST through) decides nothing: still reported
        """\
import time, httpx
_IDEMPOTENT = ("GET", "HEAD")
def _retryable(method, headers):
    if method in _IDEMPOTENT:
        return True
    return bool(headers)
class Transport:
    def __init__(self):
        self._client = httpx.Client(timeout=10)
    def request(self, method, path, json_body=None, headers=None):
        may_retry = _retryable(method, headers)
        for attempt in range(4):  # error: TFH101
            try:
                response = self._client.request(method, path, json=json_body, headers=headers)
            except httpx.TimeoutException:
                if may_retry and attempt < 3:
                    time.sleep(2 ** attempt)
                    continue
                raise
            return response.json()
        raise RuntimeError("exhausted")
    def create(self, body):
        return self.request("POST", "/sandboxes", json_body=body, headers={"Content-Type": "application/json"})
""",
        """\
import time, httpx
def _retryable(method, request_headers):
    return method != "DELETE" or "Idempotency-Key" in request_headers
class Client:
    def __init__(self):
        self._client = httpx.Client(timeout=10)
    def _request(self, method, path, json=None, extra_headers=None):
        request_headers = dict(extra_headers or {})
        can_retry = _retryable(method, request_headers)
        attempt = 0
        while True:  # error: TFH101
            try:
                response = self._client.request(method, path, json=json, headers=request_headers)
            except httpx.TransportError as exc:
                if not can_retry or attempt >= 3:
                    raise RuntimeError("unreachable") from exc
                time.sleep(2 ** attempt)
                attempt += 1
                continue
            return response.json()
    def decide(self, body):
        return self._request("POST", "/decisions", json=body)
""",
        # s47: a body the class builds for something else (an issue), or handed in by a caller that passes one
        # the module does not build, stays a write: only a model call's body (`messages`, `prompt`, `model` with
        # `input`) is read as inference
        """\
import asyncio, httpx
class TrackerClient:
    def __init__(self):
        self._client = httpx.AsyncClient(base_url="https://tracker.example", timeout=30)
        self.api_path = "/api/issues"
    def _build_payload(self, title, body):
        return {"title": title, "body": body, "model": "bug"}
    async def open_issue(self, title, body):
        for attempt in range(3):  # error: TFH101
            try:
                payload = self._build_payload(title, body)
                return await self._client.post(self.api_path, json=payload)
            except httpx.TransportError:
                await asyncio.sleep(2 ** attempt)
    async def _send(self, payload):
        for attempt in range(3):  # error: TFH101
            try:
                return await self._client.post(self.api_path, json=payload)
            except httpx.TransportError:
                await asyncio.sleep(2 ** attempt)
    async def chat(self, text):
        return await self._send({"messages": [{"role": "user", "content": text}]})
    async def comment(self, issue, text):
        return await self._send(self._comment(issue, text))
""",
        # s46: an exporter not named for telemetry (events may be a person's calendar entries) stays reported
        """\
import time, httpx
class EventExporter:
    def export(self, events):
        for attempt in range(3):  # error: TFH101
            try:
                return httpx.post("https://calendar.example/api/events", json=events, timeout=10)
            except httpx.HTTPError:
                time.sleep(2 ** attempt)
""",
        # s44 (batch 17 azure-devops-mcp-server, boards/git/pipelines/releases ``_api``): the status test's body goes
        # round under the loop's bound (``if attempt < max_retries - 1: sleep(...); continue``), every method
        # re-sent on a 5xx: the module's callers hand it a POST
        """\
import time, httpx
def _api(method, url, json_body=None):
    max_retries = 3
    with httpx.Client(timeout=30) as client:
        for attempt in range(max_retries):  # error: TFH101 "as the call of _api() at line 15 asks"
            resp = client.request(method, url, json=json_body)
            if resp.status_code == 429 or resp.status_code >= 500:
                if attempt < max_retries - 1:
                    time.sleep(2 ** attempt)
                    continue
            resp.raise_for_status()
            return resp.json()
    raise RuntimeError("failed")
def create_work_item(url, doc):
    return _api("POST", url, json_body=doc)
""",
        # s44 (batch 17 imbue-mngr host.py): a remote shell command re-run after a dropped SSH connection (the
        # command may have run): paramiko's exec_command, pyinfra's run_shell_command (also on a project wrapper's
        # property the resolver types as the project's own)
        """\
import paramiko
from pyinfra.api import Host
from tenacity import retry, retry_if_exception_type, stop_after_attempt
class Connector:
    host: Host
class Remote:
    connector: Connector
    @retry(retry=retry_if_exception_type((paramiko.SSHException, EOFError)), stop=stop_after_attempt(5))  # error: TFH101 "run_shell_command"
    def run(self, command):
        return self.connector.host.run_shell_command(command)
@retry(retry=retry_if_exception_type(paramiko.SSHException), stop=stop_after_attempt(3))  # error: TFH101 "exec_command"
def run_remote(client: paramiko.SSHClient, command):
    return client.exec_command(command, timeout=30)
""",
        # s43 (batch 16, status retries): a counted loop that re-sends its request on a 5xx or non-200 answer, with
        # no try of its own (ozon's _send: the statuses a class constant) or past its try (instamcp's send_dm_text:
        # a token fetch in the try, the POST after it): a 5xx after the server acted re-sends the write
        """\
import asyncio, time, httpx, requests
class SellerClient:
    _RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
    def __init__(self):
        self._http = httpx.AsyncClient(base_url="https://api.example", timeout=30.0)
    async def _send(self, method, path, body=None, max_retries=3):
        for attempt in range(max_retries + 1):  # error: TFH101 "as the call of _send() at line 15 asks"
            r = await self._http.request(method, path, json=body)
            if r.status_code in self._RETRY_STATUSES and attempt < max_retries:
                await asyncio.sleep(2 ** attempt)
                continue
            r.raise_for_status()
            return r.json()
    async def create_promo(self, title):
        return await self._send("POST", "/v1/promo/create", {"title": title})
def send_message(url, text, fetch_token):
    for attempt in range(3):  # error: TFH101 "POST"
        if attempt:
            time.sleep(4 * attempt)
        try:
            token = fetch_token()
        except Exception:
            continue
        resp = requests.post(url, data={"text": text, "token": token}, timeout=30)
        if resp.status_code != 200:
            continue
        return resp.json()
def send_dm(thread, text):
    for attempt in range(3):  # error: TFH101 "graphql"
        resp = requests.post("https://www.example.com/api/graphql", data={"thread": thread, "text": text},
                             headers={"x-fb-friendly-name": "DirectTextSendMutation"}, timeout=30)
        if resp.status_code != 200:
            continue
        return resp.json()
""",
        # s43: a class named for a write, a mixin with one subclass that is not a read, a tool named as a write
        """\
import requests, time
from fastmcp import Client
from tenacity import retry, stop_after_attempt, retry_if_exception_type
class SearchIndexWriter:
    def add(self, doc):
        for attempt in range(3):  # error: TFH101
            try:
                return requests.post(self.url, json=doc, timeout=30).json()
            except requests.RequestException:
                time.sleep(2 ** attempt)
class MCPMixin:
    @retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_attempt(3))  # error: TFH101
    async def _execute(self, tool_name, params):
        async with Client(self.url) as client:
            return await client.call_tool(tool_name, params)
class MCPSearchTool(MCPMixin):
    pass
class MCPTicketTool(MCPMixin):
    pass
@retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_attempt(3))  # error: TFH101
async def file_issue(client: Client, title):
    return await client.call_tool("create_issue", {"title": title})
""",
        # s40 (scrapling): curl_cffi's requests-like session sends like requests'; the helper is given "POST"
        """\
import time
from curl_cffi.curl import CurlError
from curl_cffi.requests import Session as CurlSession
class Fetcher:
    def __init__(self):
        self._session = CurlSession()
    def _make_request(self, method, url, retries=3, **kwargs):
        for attempt in range(retries):  # error: TFH101
            try:
                return self._session.request(method, url, **kwargs)
            except CurlError:
                time.sleep(1)
    def post(self, url, data):
        return self._make_request("POST", url, data=data)
""",
        # s44 (batch 16, instamcp): a requests-compatible drop-in sends like requests (curl_cffi's top-level
        # Session/AsyncSession, niquests, requests-cache): knowledge.REQUESTS_COMPATIBLE_CLIENTS
        """\
import time
import niquests
from curl_cffi import AsyncSession
from requests_cache import CachedSession
async def send_dm(url, text):
    async with AsyncSession() as session:
        for attempt in range(3):  # error: TFH101 "curl_cffi.AsyncSession.post"
            try:
                return await session.post(url, json={"text": text}, timeout=30)
            except Exception:
                time.sleep(2 ** attempt)
def create_order(url, order):
    for attempt in range(3):  # error: TFH101 "niquests.post"
        try:
            return niquests.post(url, json=order, timeout=30)
        except niquests.exceptions.Timeout:
            time.sleep(2 ** attempt)
def create_ticket(url, ticket):
    session = CachedSession()
    for attempt in range(3):  # error: TFH101 "CachedSession.post"
        try:
            return session.post(url, json=ticket, timeout=30)
        except ConnectionError:
            time.sleep(2 ** attempt)
""",
        # s39 (nekro-agent SSE client): the project's own retry decorator, imported from another module of the package
        """\
import httpx
from .utils import retry_decorator
class Client:
    def __init__(self):
        self.session = httpx.AsyncClient(timeout=30)
    @retry_decorator(retry_count=3, initial_delay=1.0)  # error: TFH101
    async def _post_command(self, url, payload):
        return await self.session.post(url, json=payload)
""",
        # s39 (nekro-agent, as written): the client is bound in another method by a helper, reset to None on stop;
        # the attribute holds what its methods assign it (the None aside), whichever order they run in
        """\
from typing import Optional
import httpx
from .utils import retry_decorator
class Client:
    def __init__(self):
        self.session: Optional[httpx.AsyncClient] = None
    async def stop(self):
        if self.session:
            await self.session.aclose()
            self.session = None
    @retry_decorator(retry_count=3, initial_delay=1.0)  # error: TFH101
    async def _post_command(self, url, payload):
        if not self.session:
            raise RuntimeError("not started")
        return await self.session.post(url, json=payload)
    def _create_session(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=30)
    async def start(self):
        self.session = self._create_session()
""",
        # s37: Slack's `chat.postMessage` posts a message; `/chat` there is the method's noun, not a chat completion
        """\
import time
import requests

def notify(token, channel, text):
    for attempt in range(3):  # error: TFH101
        try:
            return requests.post("https://slack.com/api/chat.postMessage", json={"channel": channel, "text": text},
                                 headers={"Authorization": f"Bearer {token}"}, timeout=10)
        except requests.Timeout:
            time.sleep(2 ** attempt)
""",
        # s35: the same helper given "POST" by a call in the module: its retry re-sends the write
        """\
import time
import httpx
class Platform:
    def __init__(self):
        self.client = httpx.Client(timeout=10)
    def _request(self, method, url, body=None):
        for attempt in range(3):  # error: TFH101 "as the call of _request() at line 13 asks"
            try:
                return self.client.request(method=method, url=url, json=body)
            except httpx.TransportError:
                time.sleep(2 ** attempt)
    def create_job(self, spec):
        return self._request("POST", "/jobs", spec)
""",
        # the same loop once the POST has a timeout: a read timeout re-sends a job the server may have started
        """\
import requests
from requests.exceptions import Timeout

def start_job(endpoint, payload):
    left = 3
    while left:  # error: TFH101
        left -= 1
        try:
            resp = requests.post(endpoint, json=payload, timeout=30)
            resp.raise_for_status()
            return resp.json()["job_id"]
        except Timeout:
            continue
    raise RuntimeError("job not started")
""",
        # a function named for a read (search, query, ...) excuses its POST; "complete" does not
        """\
import httpx
from tenacity import retry, stop_after_attempt

@retry(stop=stop_after_attempt(3))  # error: TFH101
def complete_order(order_id):
    httpx.post(f"https://shop.example/orders/{order_id}/complete", timeout=5)
""",
        # a client function imported under another name is still a POST
        """\
from requests import post as send
from tenacity import retry, stop_after_attempt

@retry(stop=stop_after_attempt(3))  # error: TFH101 "POST"
def open_pull_request(repo, title):
    return send(f"https://api.github.com/repos/{repo}/pulls", json={"title": title}, timeout=10).json()
""",
        # tenacity decorator, bare and with arguments; httpx client method
        """\
import httpx
from tenacity import retry, stop_after_attempt

@retry(stop=stop_after_attempt(5))  # error: TFH101
def charge(customer, cents):
    with httpx.Client() as client:
        return client.post("https://api.pay.example/charges", json={"amount": cents}).json()
""",
        # aliases; a timeout-only condition does not make the write safe
        """\
import requests as rq
import tenacity as t

@t.retry(retry=t.retry_if_exception_type(rq.Timeout), stop=t.stop_after_attempt(3))  # error: TFH101
def create_order(order):
    return rq.post("https://shop.example/orders", json=order, timeout=10)
""",
        # async: aiohttp session under async with, AsyncRetrying iterator
        """\
import aiohttp
from tenacity import AsyncRetrying, stop_after_attempt

async def notify(payload):
    async with aiohttp.ClientSession() as session:
        async for attempt in AsyncRetrying(stop=stop_after_attempt(3)):  # error: TFH101
            with attempt:
                async with session.post("https://hooks.example/x", json=payload) as r:
                    return await r.json()
""",
        # one level into a same-module helper; backoff
        """\
import backoff
import smtplib

def send_receipt(to, text):
    with smtplib.SMTP("mail.example.com", timeout=10) as smtp:
        smtp.sendmail("billing@example.com", [to], text)

@backoff.on_exception(backoff.expo, OSError, max_tries=3)  # error: TFH101
def finish(order):
    send_receipt(order.email, "thanks")
""",
        # hand-written loop, request("POST", ...)
        """\
import time
import httpx

def submit(doc):
    for attempt in range(4):  # error: TFH101
        try:
            return httpx.request("POST", "https://api.example/docs", json=doc)
        except httpx.TransportError:
            time.sleep(2 ** attempt)
""",
        # while loop with a method helper
        """\
import requests

class Client:
    def _create(self, body):
        return requests.post("https://api.example/items", json=body, timeout=5)

    def create(self, body):
        while True:  # error: TFH101
            try:
                return self._create(body)
            except requests.ConnectionError:
                continue
""",
        # a project's own retry decorator
        """\
import functools, time
import requests

def with_retries(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        for _ in range(3):
            try:
                return func(*args, **kwargs)
            except requests.RequestException:
                time.sleep(1)
    return wrapper

@with_retries  # error: TFH101
def publish(post):
    return requests.patch("https://blog.example/posts/1", json=post, timeout=5)
""",
        # stamina, runtime pipe, Retrying called with the function
        """\
import stamina, httpx
from smullyan import runtime as tool
from tenacity import Retrying, stop_after_attempt

def pay():
    return httpx.post("https://api.pay.example/charges", json={})

@stamina.retry(on=httpx.TransportError)  # error: TFH101
def pay_twice():
    return pay()

clock = tool.with_clock(lambda ms: None)
stage = tool.pipe(tool.calling_api(pay, None), clock.retrying(tool.up_to(3).attempts))  # error: TFH101
Retrying(stop=stop_after_attempt(2))(pay)  # error: TFH101
""",
        # urllib3 Retry allowing POST on a session; allowed_methods=None means every method
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

s = requests.Session()
s.mount("https://", HTTPAdapter(max_retries=Retry(total=3, allowed_methods=["GET", "POST"])))  # error: TFH101
t = requests.Session()
t.mount("https://", HTTPAdapter(max_retries=Retry(total=3, allowed_methods=None)))  # error: TFH101
""",
        # s40 (memorisdk): a module's subclass of urllib3 Retry (its own is_retry) allowing POST, in a session factory
        """\
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

class Api:
    def post(self, url, json):
        return self._session().post(url, json=json, timeout=10)

    def _session(self):
        adapter = HTTPAdapter(
            max_retries=_ApiRetryRecoverable(  # error: TFH101
                allowed_methods=["GET", "PATCH", "POST", "PUT", "DELETE"], backoff_factor=1, total=5,
            )
        )
        session = requests.Session()
        session.mount("https://", adapter)
        return session

class _ApiRetryRecoverable(Retry):
    def is_retry(self, method, status_code, has_retry_after=False):
        return 500 <= status_code <= 599
""",
        # declared by the code: runtime decorator and MCP annotations; SDKs
        """\
import boto3
from smullyan.runtime import irreversible
from tenacity import retry

ses = boto3.client("ses")

@irreversible
def refund(order):
    ...

@retry  # error: TFH101
def close(order):
    refund(order)

@retry  # error: TFH101
def mail(to):
    ses.send_email(Source="a@example.com", Destination={"ToAddresses": [to]}, Message={})
""",
        # pydantic-ai's retrying transport on an httpx client; LangChain's tool-retry middleware
        """\
import httpx
from pydantic_ai.retries import AsyncTenacityTransport, RetryConfig
from langchain.agents.middleware import ToolRetryMiddleware

client = httpx.AsyncClient(transport=AsyncTenacityTransport(config=RetryConfig()))  # error: TFH101

async def open_ticket(body):
    return await client.post("https://desk.example/tickets", json=body)

mw = ToolRetryMiddleware(tools=[open_ticket], retry_on=(httpx.TransportError,))  # error: TFH101
""",
        # LangChain with_retry over a write; tool.terse.retry terse dialect
        """\
import requests
from langchain_core.runnables import RunnableLambda
from smullyan import runtime as tool

def create(x):
    return requests.post("https://api.example/tickets", json=x, timeout=5)

chain = RunnableLambda(create).with_retry()  # error: TFH101
again = tool.terse.retry(times=3, sleep=lambda ms: None)(create)  # error: TFH101
""",
        # a queue append, a counter increment and a publish repeated are second entries
        """\
import redis
from tenacity import retry, stop_after_attempt
r = redis.Redis(host="h", socket_timeout=5)
@retry(stop=stop_after_attempt(3))  # error: TFH101 "redis.Redis.xadd"
def enqueue(event):
    r.xadd("events", event)
@retry(stop=stop_after_attempt(3))  # error: TFH101
def count(key):
    r.incr(key)
@retry(stop=stop_after_attempt(3))  # error: TFH101
def announce(channel, message):
    r.publish(channel, message)
""",
        # s41 (issue 23 D3): a broker publish on a channel or producer from a factory the resolver does not
        # follow, read by its method name in a module importing the broker's package
        """\
import time
import pika
from confluent_kafka import Producer
def publish(body):
    channel = pika.BlockingConnection(pika.ConnectionParameters("h")).channel()
    for attempt in range(3):  # error: TFH101 "channel.basic_publish()"
        try:
            channel.basic_publish(exchange="", routing_key="jobs", body=body)
            return
        except Exception:
            time.sleep(2 ** attempt)
def produce(producer: Producer, event):
    for attempt in range(3):  # error: TFH101 "producer.produce()"
        try:
            producer.produce("events", event)
            return
        except Exception:
            time.sleep(2 ** attempt)
""",
        # issue 21: the runtime's own forms over a marked write, names resolved through the imports
        """\
from smullyan import runtime as tool
from smullyan.runtime import non_idempotent_write as niw, irreversible, pipe as chain, calling_api, keyed

clock = tool.with_clock(lambda ms: None)

@niw
def charge(card, cents):
    ...

@irreversible
def wire(account, cents):
    ...

a = chain(calling_api(charge), clock.retrying(tool.up_to(3).attempts))  # error: TFH101 "charge() (declared)"
b = clock.retrying(tool.while_transient, tool.up_to(3).attempts)(calling_api(charge))  # error: TFH101
c = chain(keyed(calling_api(wire)), clock.retrying(tool.up_to(3).attempts))  # error: TFH101 "even keyed"
stage = clock.retrying(tool.up_to(3).attempts)  # error: TFH101
d = chain(calling_api(charge), stage)

@clock.retrying(tool.up_to(3).attempts)  # error: TFH101
def pay(card):
    return charge(card, 100)
""",
        # the block form: clock.attempts(...) written in the loop or held in a name, sync and async
        """\
import smullyan.runtime as sr

clock = sr.system_clock()

@sr.non_idempotent_write
def charge(card, cents):
    ...

def settle(card):
    for attempt in clock.attempts(sr.up_to(3).attempts):  # error: TFH101
        with attempt:
            charge(card, 100)

async def settle_async(card, aclock):
    attempts = aclock.attempts(sr.up_to(3).attempts, sr.while_transient)
    async for attempt in attempts:  # error: TFH101
        with attempt:
            charge(card, 100)
""",
        # the bypass shapes: a mark above @staticmethod/@classmethod, a marked __call__, a lambda,
        # a wrapper without functools.wraps (written there or held in a name)
        """\
from smullyan import runtime as tool

clock = tool.system_clock()

class Payments:
    @tool.non_idempotent_write
    @staticmethod
    def take(card):
        ...

    @tool.irreversible
    def __call__(self, card):
        ...

def logged(fn):
    def inner(*args):
        return fn(*args)
    return inner

payments = Payments()
wrapped = logged(Payments.take)
e = tool.pipe(tool.calling_api(Payments.take), clock.retrying(tool.up_to(3).attempts))  # error: TFH101 "Payments.take()"
f = clock.retrying(tool.up_to(3).attempts)(tool.calling_api(payments))  # error: TFH101 "Payments.__call__()"
g = tool.pipe(tool.calling_api(lambda: Payments.take("c")), clock.retrying(tool.up_to(3).attempts))  # error: TFH101
h = tool.pipe(tool.calling_api(wrapped), clock.retrying(tool.up_to(3).attempts))  # error: TFH101
""",
        # what slips past the runtime: a mark above the retry's wrapper; a keyed tool without key_from
        # under a retry that is not the runtime's (each attempt is a new logical call, a new key)
        """\
import smullyan.runtime as sr
from tenacity import retry, stop_after_attempt

clock = sr.system_clock()

@sr.non_idempotent_write
def charge(card, cents):
    ...

fresh = sr.keyed(sr.calling_api(charge))

@sr.non_idempotent_write
@clock.retrying(sr.up_to(3).attempts)  # error: TFH101
def refund(card):
    ...

@retry(stop=stop_after_attempt(3))  # error: TFH101 "a new key on every attempt"
def checkout(card):
    return fresh(card, 100)
""",
        # the flag tested says the opposite (a non-idempotent call goes round), or the handler falls
        # through into the next attempt whatever the flag says
        """\
import asyncio
from mcp import ClientSession
async def run(session: ClientSession, name, args, is_non_idempotent):
    for attempt in range(2):  # error: TFH101
        try:
            return await session.call_tool(name, args)
        except ConnectionError:
            if attempt == 0 and is_non_idempotent:
                continue
            raise
async def run2(session: ClientSession, name, args, idempotent):
    for attempt in range(2):  # error: TFH101
        try:
            return await session.call_tool(name, args)
        except ConnectionError:
            if idempotent:
                await asyncio.sleep(1)
""",
        # a remote tool run re-sent after a dropped connection: the tool may have run (issue 23)
        """\
import asyncio
from mcp import ClientSession
async def run_tool(session: ClientSession, name, arguments):
    for attempt in range(3):  # error: TFH101 "mcp.ClientSession.call_tool"
        try:
            return await session.call_tool(name, arguments)
        except (ConnectionError, asyncio.TimeoutError):
            await asyncio.sleep(2 ** attempt)
""",
        # s39 (spoon MCPTool.execute): a fastmcp session's tool run re-sent through a method of the same class
        """\
import asyncio
from fastmcp.client import Client
class McpTool:
    def __init__(self, transport):
        self.client = Client(transport)
    async def execute(self, name, **kwargs):
        retry_count = 0
        while retry_count < 3:  # error: TFH101 "session.call_tool() (line 17, in call_mcp_tool()"
            try:
                return await self.call_mcp_tool(name, **kwargs)
            except (asyncio.TimeoutError, ConnectionError):
                retry_count += 1
                await asyncio.sleep(2 ** retry_count)
        raise RuntimeError(name)
    async def call_mcp_tool(self, name, **kwargs):
        async with self.client as session:
            return await session.call_tool(name, arguments=kwargs)
""",
        # s36: a request helper whose method is a parameter, re-sent on a read timeout; its callers are elsewhere
        """\
import httpx, requests, time
from tenacity import retry, stop_after_attempt
class RequestBase:
    def __init__(self):
        self.session = requests.Session()
    def request(self, url, method="GET", json_data=None):
        for attempt in range(3):  # error: TFH101 "whose method is a parameter"
            try:
                return self.session.request(method=method.upper(), url=url, json=json_data, timeout=30)
            except requests.RequestException:
                time.sleep(2 ** attempt)
class Proxy:
    @retry(stop=stop_after_attempt(15))  # error: TFH101
    def call(self, name, path, method, data=None):
        client = httpx.Client()
        return client.request(method=method, url=f"http://{name}/{path}", json=data).status_code
""",
        # s48 (batch 20 cdt-release): a POST through the standard library's urlopen, its method a parameter a caller
        # in the module gives "POST" (that caller keeps the helper's default retry_ambiguous=True); the `while True`
        # builds its Request before the try and gives up on an attempt counter after it
        """\
import json, time, urllib.error, urllib.request
def _api_request(method, path, payload=None, *, retry_ambiguous=True):
    mutating = method.upper() != "GET"
    attempts = 0
    while True:  # error: TFH101 "POST through urllib.request.urlopen, as the call of _api_request() at line 21"
        req = urllib.request.Request("https://api.example.com" + path, method=method,
                                     data=json.dumps(payload).encode() if payload is not None else None)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read() or b"{}")
        except (urllib.error.URLError, TimeoutError) as exc:
            if mutating and not retry_ambiguous:
                raise RuntimeError("may have been applied") from exc
        attempts += 1
        if attempts >= 3:
            raise RuntimeError("gave up")
        time.sleep(2 ** attempts)
def submit(build_id):
    _api_request("POST", "/v1/submissions", {"build": build_id}, retry_ambiguous=False)
def set_notes(build_id, text):
    _api_request("POST", "/v1/localizations", {"build": build_id, "text": text})
def post_once(url, body):
    for attempt in range(3):  # error: TFH101 "POST through urllib.request.urlopen (a Request with a body)"
        try:
            return urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=10).read()
        except OSError:
            time.sleep(attempt)
""",
        # s49: an annotated body that is no model call's (an issue) stays a write
        """\
import json, time, urllib.error, urllib.request
from typing import Any, Dict
def open_issue(base_url, title, text):
    for attempt in range(1, 4):  # error: TFH101 "POST through urllib.request.urlopen"
        payload: Dict[str, Any] = {"title": title, "body": text}
        req = urllib.request.Request(base_url + "/issues", data=json.dumps(payload).encode("utf-8"), method="POST")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read())
        except urllib.error.URLError:
            time.sleep(2 ** attempt)
""",
        # s50: a gate that lets a write round too (`method != "DELETE"`), or a handler that goes round without the
        # gate, keeps the finding
        """\
import json, time, urllib.error, urllib.request
def _should_retry(method, status):
    return method.upper() != "DELETE" and status in (502, 503, 504)
def _request(method, path, body=None):
    req = urllib.request.Request("https://api.example.com" + path, data=json.dumps(body).encode(), method=method)
    for attempt in range(1, 4):  # error: TFH101 "POST through urllib.request.urlopen, as the call of _request() at line 16"
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as e:
            if _should_retry(method, e.code) and attempt < 3:
                time.sleep(2 ** attempt)
                continue
            return e.code, {}
def archive(task_id):
    return _request("POST", f"/tasks/{task_id}/archive")
import httpx
client = httpx.Client(timeout=10)
def _send(method, path, **kwargs):
    for attempt in range(1, 3):  # error: TFH101
        try:
            resp = client.request(method, path, **kwargs)
        except OSError:
            time.sleep(1)
            continue
        if method == "GET" and resp.status_code == 503:
            time.sleep(1)
            continue
        return resp
def create(body):
    return _send("POST", "/items", json=body)
""",
        # s48 (batch 20 agent47): a hand-written MCP stdio client re-sends the JSON-RPC request after reconnecting; a
        # call in the module gives its method "tools/call" (a remote tool run, as ClientSession.call_tool)
        """\
import json, time
class StdioClient:
    def request(self, method, params=None, *, reconnect=True):
        for _attempt in range(3):  # error: TFH101 "an MCP tools/call request (a remote tool run), as the call of request() at line 16"
            try:
                if self.process is None:
                    self.connect()
                self._request_id += 1
                self._write({"jsonrpc": "2.0", "id": self._request_id, "method": method, "params": params or {}})
                return self._read_response(self._request_id)
            except (OSError, EOFError):
                self.close()
                time.sleep(0.1)
        raise RuntimeError(method)
    def call_tool(self, name, arguments):
        return self.request("tools/call", {"name": name, "arguments": arguments})
    def _write(self, message):
        self.process.stdin.write(json.dumps(message) + "\\n")
""",
        # s54 (batch 26 aisolate-client): the verb chosen by `getattr`, bound with an annotation; the call passing
        # `retries=0` turns the retry off, the one leaving the default does not
        """\
import asyncio, httpx
from typing import Any, Callable
class Gateway:
    def __init__(self):
        self._session = httpx.AsyncClient(timeout=30)
    async def _request(self, method, endpoint, json=None, retries: int = 3):
        send: Callable[..., Any] = getattr(self._session, method.lower())
        attempt = 0
        while True:  # error: TFH101 "as the call of _request() at line 22 asks"
            try:
                resp = await send(endpoint, json=json)
                resp.raise_for_status()
                return resp.json()
            except httpx.TimeoutException:
                if attempt == retries:
                    raise
                attempt += 1
                await asyncio.sleep(2 ** attempt)
    async def create_sandbox(self, payload):
        return await self._request("POST", "sandboxes", json=payload, retries=0)
    async def create_context(self, sandbox_id, payload):
        return await self._request("POST", f"sandboxes/{sandbox_id}/contexts", json=payload)
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> Sequence[int]:
        retries, writes = screen_lines(screen, knowledge)
        # s43 (batch 16): a counted loop that goes round on a status (status_loops.status_retry)
        retries = [*retries, *screen.memo("retries.status_retry_lines", lambda: status_retry_lines(screen))]
        return [*retries, *writes] if retries else []

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def check(self, model: RetryModel) -> None:
        # an LLM or embeddings integration's POSTs are inference: nothing a retry could duplicate
        inference = self.knowledge.llm_inference_module(self.ctx.path)
        if not inference and model.retries and self.knowledge.llm_provider_package(self.ctx.path):
            inference = True  # the shared transport of an LLM providers package (s43, batch 15 pari-cli)
        if not inference and self.knowledge.telemetry_module(self.ctx.path):
            inference = True  # s48: a module named for telemetry: its POSTs send records delivered at least once
        for retry, allowed in urllib3_writes(model, inference):
            self.report(
                retry.anchor,
                f"urllib3 Retry allows {allowed}: every POST/PATCH on the session it is mounted on is "
                "retried without an idempotency key; keep allowed_methods to idempotent methods",
            )
        found = repeated_writes(model, self.knowledge, inference, self._module, self.ctx.screen.tree)
        if model.status_retries:
            # s43 (batch 16): a counted loop re-sending its request on a 5xx or non-200 answer (a loop that is a
            # try-based retry too is reported once: ``report`` keeps one finding per node)
            found += repeated_writes(model, self.knowledge, inference, self._module, self.ctx.screen.tree, model.status_retries)
        for retry, effect, where in found:
            if retry.kind != "runtime" and _connect_only(retry, self.knowledge):
                continue  # re-sent only when the connection was never made: nothing arrived twice (issue 23)
            if retry.kind != "runtime" and rate_limited_only(retry):
                continue  # re-sent only after a 429: the server refused the request before doing it (s36)
            if retry.kind == "loop" and retry.loop is not None and handlers.gated_on_idempotency(retry.loop):
                continue  # goes round only when the code's own flag says the call is safe to repeat (issue 23)
            if retry.kind == "loop" and retry.loop is not None and handlers.counted_on_idempotency(retry.loop, self._module):
                continue  # one attempt unless the code's own flag says the call is safe to repeat (s48)
            if retry.kind == "status-loop" and handlers.counted_loop_on_idempotency(retry.anchor, self._module):
                continue  # s54: the same count read for a loop that goes round on a status
            if effect.cls == IRREVERSIBLE and retry.kind == "runtime":
                even = ", even keyed" if retry.keyed else ""
                self.report(
                    retry.anchor,
                    f"retried {effect.what} (line {where}, an irreversible call) is never safe to repeat{even}: "
                    "call it once and reconcile (the runtime refuses to retry it)",
                )
                continue
            if retry.kind == "runtime":
                self.report(
                    retry.anchor,
                    f"retried {effect.what} (line {where}, {self.knowledge.write_classes[effect.cls]}) has no "
                    "idempotency key: retry keyed(tool) under clock.retrying(...) (one key for every attempt), "
                    "reconcile instead, or, if it only reads, mark it @read_safe",
                )
                continue
            self.report(retry.anchor, what=effect.what, line=where, cls=self.knowledge.write_classes[effect.cls])


def _connect_only(retry: Retry, knowledge: Knowledge) -> bool:
    """The retry's known condition names only failures before the request was sent (a refused
    connection, a connect timeout, DNS, TLS): ``knowledge.connect_phase_exceptions``."""
    cond = retry.condition
    return (
        isinstance(cond, Condition)
        and not cond.every_exception
        and cond.statuses is None
        and not cond.tags
        and bool(cond.exceptions)
        and all(e in knowledge.connect_phase_exceptions for e in cond.exceptions)
    )

