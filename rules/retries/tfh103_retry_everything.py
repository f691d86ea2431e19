"""TFH103 retry-everything."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Sequence

import libcst as cst

from . import paths, recursion
from .polls import observes_condition
from .base import RetryRule
from .deny import deny_why, excludes_permanent
from .data import Loop, Retry
from .model import Condition, RetryModel
from .screen import screen_lines
from ...linter.api import every_node, last_name, node_lines
from .started import liveness_name, polls_own_server
from .worklist import draws_next_item

if TYPE_CHECKING:
    from ...linter.api import Knowledge, Screen

# kinds whose condition is about exceptions (a runtime retry decides on typed
# results; urllib3 on statuses; an own decorator's loop is reported where it is written)
_KINDS = frozenset({"tenacity", "backoff", "stamina", "loop", "with-retry", "tool-middleware", "transport"})
_DEFAULTS = {
    "tenacity": "tenacity retries every exception when no retry= is given",
    "with-retry": "with_retry() retries every Exception unless retry_if_exception_type= says otherwise",
    "tool-middleware": "ToolRetryMiddleware retries every Exception unless retry_on= says otherwise",
    "transport": "the transport's tenacity config has no retry=, so every exception is retried",
}


def _advice(retry: Retry, knowledge: "Knowledge") -> str:
    """The failures worth retrying for the library the retried work calls (``knowledge.TRANSIENT_ADVICE``)."""
    roots = {q.split(".", 1)[0] for q in retry.qualnames}
    for root, advice in knowledge.transient_advice:
        if root in roots:
            return advice
    return knowledge.transient_advice_default


class RetryEverything(RetryRule):
    code = "TFH103"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "retry-everything"
    summary = "A retry retries every exception, bugs and permanent failures included."
    message = (
        "{why}: a bug (TypeError, KeyError) or a permanent failure is retried like an outage, however few the "
        "attempts; catch only the transient failures: {transient}"
    )
    docs = """\
## What it does
Finds a retry with no condition at all (tenacity's `@retry`, `@retry(stop=...)`
without `retry=`, `Retrying(...)`; LangChain `with_retry()` and
`ToolRetryMiddleware()` without a condition), and one whose literal
condition names `Exception` or `BaseException`: tenacity
`retry_if_exception_type(Exception)`, backoff's exception tuple, stamina
`on=Exception`, a hand-written loop's or a same-module retry decorator's
`except Exception:` (or bare `except:`) that goes round again, and a retry
written as recursion: an `except Exception:` (or bare) handler that calls its
own function again with the same arguments (`return self.save(row)` in
`save`, `f(*args, **kwargs)` in `f`), not under an `if` and with no branch
of the handler that raises or returns: every error, a bug included, runs the
same work again until `RecursionError`. A call with a changed argument
(`attempts - 1`, a parent node) is a bound or a walk, not reported. A condition
held in a variable of the module is read (`cond = retry_if_exception_type(...)`,
then `retry(retry=cond)`; `A if ... else B` retries on either). backoff `on_predicate` retries on results, not
exceptions, and stamina cannot be used without `on=`: neither fires unless
it names `Exception`. `retry_if_not_exception_type(())` excludes nothing, so
it retries everything too.

A deny-list retries everything but what it names, so it is reported too:
tenacity `retry_if_not_exception_type((A, B))`, and `retry_if_exception(pred)`
where `pred` is `lambda e: not isinstance(e, A)` or a same-module function of
one argument whose `if` tests (an `isinstance` of it among them) return `False`
and whose last line returns `True` or `not ...`. Not reported: a deny-list that
keeps out both a bug's builtin (`TypeError`, `ValueError`, `KeyError`,
`AttributeError`, `IndexError`) and a permanent request error (an SDK's
`BadRequestError`, `AuthenticationError`, ...). Limit: a condition or predicate
imported from another module is not read (the linter reads one module at a
time), so `retry=shared_condition` imported from a package's config module is
not reported.

## What counts as a retry
- a retry library's construct (tenacity, backoff, stamina, LangChain
  `with_retry`, this project's runtime), also when a same-module factory builds
  it: a function or method returning `retry(...)`/`Retrying(...)` applied as
  `@retry_decorator`, `retry_decorator(fn)`, or iterated as
  `for attempt in self._retrying():`. A factory that nothing in its module
  applies (a base class's or a utility module's, used by other modules of the
  package) is read where it builds the retry: its condition, stop and wait
  are reported there. A retry with no condition is reported where it is
  built, the call a user adds `retry=` to: the factory's `retry(...)`, or
  `_retry = retry(...)` when a name holds it and `_retry(self._run)`,
  `@_retry` or `for attempt in _retry` applies it (once for every use); TFH301
  and TFH303 report a missing `stop=`/`wait=` there too. LangChain's `create_base_retry_decorator(error_types=...,
  max_retries=...)` is such a factory (a tenacity retry on those types);
- a hand-written loop around a `try` whose handler goes round again: `for _ in
  range(n)`, `for delay in (1, 2, 4)` (a literal list of numbers), `while
  attempt < n` (the counter may change in the handler, logging or an `if`
  may come before the `try`), `while True`, and `while not ok` ending on a
  success flag (`ok = True`) instead of `break`; in functions, methods and
  `async` code alike. A `while` counting attempts (`while attempt < limit`,
  the handler adding to `attempt`) is a retry however long its attempt is
  (a page load with a scroll loop inside), and whatever it does before the
  `try` (a key rotation, a model call whose stream the `try` reads) when its
  counter is named for attempts (`retries`, `max_num_retries`, `n_tries`) or
  only the handlers advance it (`while call_count < 20 and not ok`, a failure
  count); the success flag may be set in a branch (`if bad: ... else: ok = True`).
  So is a `while True` that, after its `try`, adds to an attempt counter and
  leaves under a test of it (`attempts += 1`, `if attempts >= MAX: raise`),
  whatever it builds before the `try` (`req = Request(url, data=...)`; s48).
  A handler goes round when it ends in `continue`, a log or a sleep, or when a
  branch of it does (`if attempt < limit: sleep(...); continue`, then `return []`).

Not a retry (s41): a bounded poll, which waits every round and reads a state
until it passes a test, a failed read counting as "not yet" (`for _ in range(9):
try: txt = page.evaluate(js) except Exception: txt = ""`, then `if len(txt) >
500: break` and `sleep(0.8)`): the handler binds the placeholder the loop's test
reads and falls through, and a read that succeeds goes round too; a person
re-asked (`input()`, `getpass()` in the `try`: the person ends it, s40); a repair
re-ask written as recursion (the handler rebuilds an argument from the error,
`message = prompt.render(error=str(e))`, and calls its function with it).
This rule reports retries of work that leaves the process (a request, a model
or tool call, a process, a remote store): an attempt of local file operations
only (`shutil.rmtree`, `os.replace`, `path.unlink()`, `open`) retried on any
error is not reported (s41), since a file another process holds a moment is the
usual failure there and nothing remote is loaded.

Small bounded retries are still reported (3 attempts with a wait, a local
connect): a bug or a refused credential waits out every attempt and shows up
late. The message names what to catch instead for the library the attempt
calls (`httpx.TransportError`, `requests.ConnectionError`/`Timeout`, the SDK's
connection, timeout, rate-limit and server errors; `knowledge.TRANSIENT_ADVICE`).

Not reported either: a hand loop whose attempt calls only in-memory builtins
(`record = next(records)` over a result already downloaded: nothing is sent
again; s39), and a repair re-ask (the model is asked before the `try`, the
`try` only parses its answer, by in-memory calls or a function named for
parsing such as `parse_segment_output(res)` or for taking JSON out of a text
such as `extract_json(reply)`, and the next round asks again). Nor (s40) a
tenacity retry around a function whose body (a docstring and local
assignments aside) is one `try` whose broad handler raises nothing (logs,
sleeps, returns `None`): no exception reaches tenacity, the retry never fires;
nor a loop that draws the next item of a work list before its `try` (`node =
pending.pop()`, `next(it)`): a failure's `continue` moves on to another item.

Not a retry: a loop that runs once unless retries are configured (`for
attempt in range(retries + 1)` where `retries` is a parameter `= 0` or
`config.get("reconnect_attempts", 0)`, through `int(...)`/`max(1, ...)` or a
local name: s39), a benchmark loop (a `for` with no success exit that reads a
timer such as `time.perf_counter()` every round), a loop that restarts a
server run in the foreground (`uvicorn.run(app)`, `server.serve_forever()`,
`app.run()`: a person stops it), a message loop (a `while` whose `try` starts by receiving one
message: `ws.recv()`, `queue.get()`, `self.queues["llm"].get()`, `consumer.poll()`,
a call named for fetching the next messages on any receiver (`api.get_updates(...)`,
`bot.getUpdates()`, `fetch_new_messages()`, `poll_events()`: s43; s51: a call whose first argument names
the endpoint by a literal named the same way, or `poll` alone, `client.get("/api/agent/poll")`,
`self._api("getUpdates", ...)`), ...; a guard that skips the round first, `if not connected: sleep(...); continue`,
may come before it; a failure is logged and the next message read: nothing is
sent again; s51: also a `for` with no success exit whose body receives the message before its `try` and the
`try` reads it, `for _ in range(budget): request = await channel.recv(); try: result = await dispatch(request)`),
a worker or polling loop that does its work
before the `try`, a `for` that walks data (its target read in the attempt),
a step loop (s44: a counted `for` with no success exit whose `try` is one step
of a round doing other work before and after it, and whose handler passes the
failure over without going to the next round, `except Exception: pass`: an
agent's step loop showing a loader; the next round does the next step, not
the failed work again; s49: also with no work before it, when the `try`
binds nothing and its handler binds nothing, `try: self.refresh_prompt(msg)
except Exception: pass` then the round's model call: it leaves no result the
round reads, and the round's work runs whether it failed or not).

Not a retry either (s36): tenacity's `@retry` or backoff's `@on_exception`
on a generator function, sync or async (its body has a `yield`). Calling the
function only builds the generator, which cannot fail; the request inside runs
later, as the caller iterates, outside the decorator. Nothing is retried, so
no retry rule reports it (a message about the condition would be wrong); to
retry the request, decorate a plain function that makes it and call that from
the generator.

Reported (s43, decided): a retry helper defined and never applied in the
package (a client class no module imports, a method nobody calls). Each file is
linted alone (flake8 runs the rules file by file), so "unused" is not known
where the rule runs, and a library's helper is there to be called: the finding
is where the fix goes, before the first caller. Labels count it debatable.

Reported, though debatable (s36, for labellers and users alike): a readiness
poll (`@retry(stop=stop_after_attempt(200), wait=wait_fixed(2))` around a
health check of a service just started) and a WebSocket connect retried a few
times with a wait, when they catch `Exception`. What makes them debatable is
that their errors are mostly "not up yet"; what makes them findings is that a
bad URL, a refused credential or a bug waits out the whole budget too. Catch
the connection errors (and test the status) instead.

Decided for batches 15-17's debatable labels (s45): reported, as above, a small
bounded broad retry of a model call or a read (3 attempts with a wait: the
model's 400/401 or a bug waits out the budget), a poll of a price, a remote
run's status or a local file settling that catches `Exception` each round, a
bounded reconnect of a session or stream, a test runner's user-configured
re-run of a failed case, an agent's plan step re-run on an error, and a re-ask
whose next request changes (a lower reasoning effort: what it catches is this
rule's question). TFH101 reports an unused write helper too (a library's helper
is there to be called; the finding is where the fix goes). TFH303 reports a
proxy rotation going round at once (another proxy is no wait for a rate limit).
Each stays labelled debatable: a finding, not a defect proved.

How to label (s46, batches 15-18's debatable rows decided by a property, for
labellers of the next batches; the existing labels are not changed):
- **The rule's target, `true`**: a retry catching `Exception` (or with no
  condition) around a call that leaves the machine, bounded or not, small or
  large, with or without waits, used in the package or not: a model call, a
  read (a page, a search, a health check, a token fetch), a tool or plan step
  that calls out, the reconnect of a remote session or stream, a re-ask whose
  next request changes (a lower effort is no answer to a bug or a 401). Also a
  poll of a remote state (a run appearing, a price, a resource becoming ready,
  a remote run's status) whose handler catches `Exception` each round, and a
  daemon's poll loop restarted on any exception: a bad URL, a refused
  credential or a bug waits out the whole budget (or loops for ever) looking
  like "not ready yet".
- **Not its target, `false`**: an attempt that stays on the machine (a local
  file re-read while another process writes it, a local parse, a local child
  process restarted), and a poll in a project's own tests or e2e scripts
  waiting for test infrastructure (nothing an agent runs).
- **Still `debatable`**: a test runner's re-run of the cases under test, when
  its user sets the count (the re-run is the product's feature, and what it
  sends is the user's test).

A readiness poll of a server the code started itself (s47, batch 19; not
reported, labelled `false`): the loop waits for a child process or daemon the
same code started (`subprocess.Popen`, `asyncio.create_subprocess_exec`/`_shell`,
or a function of the module that calls one, at any depth), so its failure is
"not listening yet" and the attempt stays on the machine. "Started here" is
read from the code, one of:
1. the loop's function starts the process before the loop, and the attempt
   names a loopback host (`localhost`, `127.0.0.1`, `::1`, `0.0.0.0`: in the
   attempt, a local name it reads, or a parameter default):
   `Popen(cmd)`, then `sock.connect_ex(("localhost", port))`;
2. the attempt names a loopback host and reads a module-level name that the
   module hands to a process it starts (`s.connect(("127.0.0.1", CONTROL_PORT))`,
   the daemon started with `"--control-port", str(CONTROL_PORT)`);
3. the attempt reads a parameter named for an address (`host`, `port`, `url`,
   `address`, `endpoint`: `def _wait_for_server(host, port)`), and every call
   of its function in the module starts a process first and hands it no
   literal remote host;
4. (s56) the loop gives up when what it polls stopped running: `if not
   server.is_running(): return`, `if not self._pid_alive(pid): break`
   (batch 25 dulus's webchat server, batch 27 djaploy's new gunicorn
   master); a `while worker.is_alive():` alone is not (a daemon's loop).
A loopback address alone is not "started here": a local server the code did
not start (an Ollama preload on `http://localhost:11434`) answers a bad
request, a missing model or a refused key like a remote one: reported,
`true`. So is a remote URL polled after a start (`gcloud run deploy`, then
the service's public URL), and a function handed no address by its callers.

Not a retry either: a loop none of whose going-round handlers can catch what
the attempt raises. requests raises `Timeout`/`ReadTimeout`/`ConnectTimeout`
only when the call was given a timeout, so `except requests.Timeout: continue`
around an untimed `requests.post(...)` never runs and nothing is re-sent (the
untimed call is TFH201's). The attempt is read for positive evidence: its calls,
and those of the same-module functions and methods it calls, are that client's
untimed functions, builtins, standard-library functions, or methods of what
they returned; a `Session`'s call, a call into another module or a `**kwargs`
that may hold a timeout keeps the retry, as does any handler that catches
something else (httpx's and aiohttp's timeouts: they have default timeouts).

Not a retry either: a `for _ in range(n)` that never leaves on success and
does not say it retries (no counter-like name, no wait or "retry" in its
handler): `for _ in range(2): try: send(req) except Exception: log(...)`
makes both requests by design (a flush, a warm-up), tolerating failures.

Not retrying everything, though it catches `Exception`: a handler that decides
from the exception which failures go round: it tests the exception and
raises, returns or breaks for the rest (`if not is_transient(e): raise`), or
hands it to a same-module function that re-raises it on some path
(`except Exception as e: _handle_transient_error(e, attempt)`, the helper
raising `e`, or a new error `from e`, unless it is a 5xx, a 429 or a dropped
connection). A helper that only logs, or raises something else, decides
nothing. A handler that changes the next request (a smaller context, an
assistant prefill) is still reported here if it catches everything: what it
catches, not what it sends next, is this rule's question (TFH303 reads the
change). Not reported (s36): a repair loop, whose handler hands the
exception's text (`e`, `str(e)`, a name bound from it) to the same step the
attempt calls on its other failures (`except Exception as e: await
patch_fn(f"Exception: {e}")`, the `try` calling `patch_fn(lint_errors)` when a
check fails): each round is a new attempt built from the last error, an
agent fixing its own work, not the same call sent again. A step that only
reports (a name made of log, print, emit, notify, trace or report words: a
project's `app_logging(f"failed: {e}")` called in the `try` too) repairs
nothing: that loop is still reported.

Asking a model again after its answer did not parse (s35). When the model is
called before the `try` and the `try` only parses its answer in memory
(builtins, `json`, `re`, methods of what they returned), even `except
Exception:` can only catch the answer's fault: the next round asks again and
parses a new answer. That is a re-sample, not a retry of a failing call, and
it is not reported. A handler that catches only parse or validation errors
(`json.JSONDecodeError`, pydantic's `ValidationError`) around the call is a
re-sample too: not this rule's, and TFH303 asks no wait of it. When the model
call is inside the `try` under `except Exception:`, a 401, a 400 (context too
long) or a bug in the prompt goes round with the parse errors: reported (the
usual fix is two handlers, the parse error going round and the call's
transient errors retried apart, or the SDK's own retry). A stream read inside
the `try` (`"".join(llm.stream(...))`) is the call's failure too.

Not a retry either (one attempt unless the caller turns retries on): `for
attempt in range(retries + 1)` where `retries` defaults to 0: a parameter `=
0`, `config.get("retries", 0)`, a field `max_retries: int = 0` of a module class
read through a local holding it (`cfg = config or BatchConfig()`), or `n if
cfg.retry_failed else 0` with the switch `False` by default.

Not a retry on exceptions either: a loop that does its work before the `try`
and leaves on a test of the result (`result = run(prompt)`, `if "error" not in
str(result): break`); the `try` after that exit (a `dispose()` whose failure is
logged) is cleanup between attempts.

## Why is this bad?
Every exception includes the ones retrying cannot fix: a `TypeError` from a
bug, a `KeyError` from a changed response shape, a 401. They are retried
until the stop, the caller waits for nothing, and the real error shows up late
(or as `RetryError`), after the load has been multiplied.

## Example
```python
import httpx
from tenacity import retry, stop_after_attempt, wait_exponential_jitter

@retry(stop=stop_after_attempt(5), wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url, timeout=10).raise_for_status().json()
```

## Use instead
```python
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

@retry(retry=retry_if_exception_type((httpx.TransportError,)), stop=stop_after_attempt(5),
       wait=wait_exponential_jitter(max=30))
def fetch(url):
    return httpx.get(url, timeout=10).raise_for_status().json()
```

## How to suppress
`# noqa: TFH103` on the reported line, when every exception really is
transient for this call (say why).
"""
    VALID = [
        # s56 (batch 25 dulus, batch 27 djaploy): a readiness poll that leaves when the process it watches is gone
        # (started.py case 4): the poll waits for that process, whatever URL it is handed
        """\
import subprocess, time, urllib.request
class Herder:
    def __init__(self, cmd, health_url):
        self.cmd, self.health_url = cmd, health_url
    def reload(self):
        proc = subprocess.Popen(self.cmd)
        return self._healthy(proc)
    def _healthy(self, proc):
        for _ in range(10):
            if not self._alive(proc):
                return False
            try:
                urllib.request.urlopen(self.health_url, timeout=5)
                return True
            except Exception:
                pass
            time.sleep(1)
        return False
    @staticmethod
    def _alive(proc):
        return proc.poll() is None
def wait_webchat(server, url):
    for _ in range(20):
        time.sleep(0.25)
        try:
            urllib.request.urlopen(url, timeout=0.4).read(1)
            return True
        except Exception:
            if not server.is_running():
                return False
    return False
""",
        # s53 (batch 25 dulus_mcp): a reader of a local process's stdout skips a line it cannot parse (the receive follows an alias and a guard)
        """\
import json
class StdioClient:
    def _read_loop(self):
        while self._running and self._process:
            try:
                out = self._process.stdout
                if out is None:
                    break
                raw = out.readline()
                if not raw:
                    break
                msg = json.loads(raw)
            except Exception:
                continue
            self._dispatch(msg)
""",
        # s47 (batch 19: vibecheck-agent, golden-agent): a readiness poll of a server the code started itself: the
        # dev server started in the same function and polled on localhost; a daemon whose control port the module
        # hands to the process it starts; a health check whose every caller started a process first
        """\
import json, socket, subprocess, sys, time
import http.client
CONTROL_PORT = 2012
def screenshot(cmd, port, timeout=30):
    process = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE)
    start = time.time()
    while time.time() - start < timeout:
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if sock.connect_ex(("localhost", port)) == 0:
                break
        except:
            pass
        time.sleep(1)
    return process
def _spawn(args):
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
def _ensure_daemon():
    _spawn([sys.executable, "daemon.py", "--control-port", str(CONTROL_PORT)])
def _send_to_daemon(payload, retries=25):
    for _ in range(retries):
        try:
            with socket.create_connection(("127.0.0.1", CONTROL_PORT), timeout=2) as s:
                s.sendall(json.dumps(payload).encode())
                return json.loads(s.recv(65536))
        except Exception:
            time.sleep(0.2)
    raise RuntimeError("daemon unreachable")
def _wait_for_server(host, port, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(host, port, timeout=2)
            conn.request("GET", "/health")
            if conn.getresponse().status == 200:
                return True
        except Exception:
            pass
        time.sleep(0.5)
    return False
def start_server(args, host="127.0.0.1", port=8080):
    _ensure_daemon()
    _send_to_daemon({"cmd": "START", "host": host, "port": port, "args": args})
    return _wait_for_server(host, port)
""",
        # s44 (batch 16 hazzel agent-step-loop): a best-effort UI call in the middle of the agent's step loop; the
        # failure is passed over and the round goes on with its step: nothing is re-done
        """\
def run_agent(provider, ui, messages, tools):
    for _ in range(MAX_ITERATIONS):
        calls = plan_tools(messages)
        execute(calls, messages)
        try:
            ui.show_loader("Working...")
        except Exception:
            pass
        enforce_budget(messages)
        response = provider.chat(messages, tools)
        if not response.tool_calls:
            return response.content
""",
        # s49 (batch 21 oblivion-agent): the same step first in its round, with only a print before it: the `try`
        # binds nothing and the handler binds nothing, the round's model call runs whether it failed or not
        """\
def run_agent(self, provider, user_message):
    for i in range(MAX_ITERATIONS):
        print(f"step {i + 1}")
        try:
            self.refresh_prompt(user_message)
        except Exception:
            pass
        response = provider.chat([{"role": "system", "content": self.system_prompt}] + self.conversation)
        if not response.tool_calls:
            return response.content
""",
        # s43 (batch 15 poll-not-retry): a long-poll loop fetching the next messages by name (`get_updates`)
        """\
import asyncio, logging
async def poll_loop(self):
    while self._running:
        try:
            resp = await api.get_updates(self._base_url, self._token, self._cursor)
            if resp.expired:
                self._running = False
                return
            for msg in resp.msgs:
                await self._on_incoming(msg)
        except Exception as e:
            logging.error("poll error: %s", e)
        await asyncio.sleep(self._poll_interval)
""",
        # s41 (mcp-stealth-chrome): bounded polls of a rendered page: each round waits and reads, a failed read is
        # "not yet" (the handler binds the placeholder the loop's test reads), and a read that succeeds goes round too
        """\
import asyncio, json
async def search_results(tab, js):
    for _ in range(18):
        await asyncio.sleep(0.5)
        try:
            raw = await tab.evaluate(js, return_by_value=True)
            data = json.loads(raw)
        except Exception:
            data = None
        if isinstance(data, list) and data:
            out = [r for r in data if r.get("url")]
            if out:
                return out
    return []
async def page_text(tab):
    txt = ""
    for _ in range(9):
        try:
            txt = str(await tab.evaluate("document.body.innerText"))
        except Exception:
            txt = ""
        if len(txt) > 500:
            break
        await asyncio.sleep(0.8)
    return txt
""",
        # s41 (mcp-stealth-chrome): a local directory removed again after a short wait (Chrome's helpers still
        # writing, a Windows lock): only local file operations, nothing leaves the machine; and a repair re-ask
        # written as recursion (the prompt rebuilt from the error: eidolon-ai-sdk's SQL agent)
        """\
import asyncio, shutil
async def remove_profile(target):
    for delay in (0.1, 0.25, 0.5):
        try:
            shutil.rmtree(target)
        except FileNotFoundError:
            pass
        except Exception:
            await asyncio.sleep(delay)
            continue
        await asyncio.sleep(delay)
        if not target.exists():
            return True
    return not target.exists()
class SqlAgent:
    def cycle(self, thread, message):
        response = thread.ask(message)
        try:
            return list(self._client.execute(response.query))
        except Exception as e:
            message = self._error_prompt.render(error=str(e), query=response.query)
            return self.cycle(thread, message)
""",
        # s40 (agentkit): the model is asked before the try, the try only takes the JSON out of its reply, the
        # handler feeds the failure back as a follow-up: a repair re-ask, not a retry of a failing call
        """\
import logging
from .utils import extract_json
async def step(brain, max_iterations=6):
    followup = ""
    for iteration in range(max_iterations):
        response = await brain.generate_chat_response(extra_system_prompt=followup)
        try:
            data = extract_json(response.content)
        except Exception as exc:
            logging.warning("could not parse: %s", exc)
            followup = "I could not parse your previous reply as JSON"
            continue
        return data
""",
        # s40 (code-puppy): a bounded walk over a tree; each round pops the next node, a failure moves on
        """\
def find_hint(exc, limit=50):
    pending, seen = [exc], set()
    for _ in range(limit):
        if not pending:
            break
        node = pending.pop()
        try:
            if isinstance(node, str) and "unsupported image" in node.lower():
                return translate("hint.multimodal")
            pending.extend(getattr(node, "args", ()))
        except Exception:
            continue
    return None
""",
        # s40 (swebench call_anthropic): the decorated function catches every exception and returns None, so
        # tenacity never sees one: the retry never fires
        """\
import logging, time
from tenacity import retry, stop_after_attempt, wait_random_exponential
@retry(wait=wait_random_exponential(min=60, max=600), stop=stop_after_attempt(6))
def call_model(client, prompt):
    \"\"\"Calls the model.\"\"\"
    system, user = prompt.split("\\n", 1)
    try:
        return client.completions.create(prompt=prompt)
    except Exception as e:
        logging.error(e)
        time.sleep(20)
        return None
""",
        # s39 (biomni BLAST): the loop only draws the next record of a result already downloaded (a local parse), and
        # (dendrite) the model is asked before the try, the try only parses and the handler feeds the error back
        """\
import time
from Bio.Blast import NCBIWWW, NCBIXML
from .parsing import parse_segment_output
def blast(sequence, max_runtime=600):
    start = time.time()
    records = NCBIXML.parse(NCBIWWW.qblast("blastn", "nt", sequence))
    record = None
    while time.time() - start < max_runtime:
        try:
            record = next(records)
            break
        except StopIteration:
            return "no results"
        except Exception:
            time.sleep(1)
    return record
async def extract(agent, message, index):
    for attempt in range(3):
        res = await agent.add_message(message)
        try:
            return parse_segment_output(res, index)
        except Exception as e:
            message = f"An exception occurred in your output: {e}. Please correct it."
""",
        # s39 (lightagent): range(retries + 1) with retries 0 by default runs the call once unless configured
        """\
import httpx
def fetch(url, retries=0):
    for attempt in range(retries + 1):
        try:
            return httpx.get(url, timeout=10)
        except Exception:
            if attempt == retries:
                raise
""",
        # s41 (batch 14, deepworm): the retries a config dataclass turns off by default (`retry_failed: bool = False`,
        # `max_retries: int = 0`), read through a local holding the caller's config or the defaults
        """\
from dataclasses import dataclass
from typing import Optional
@dataclass
class BatchConfig:
    retry_failed: bool = False
    max_retries: int = 2
    extra_attempts: int = 0
def run_batch(topics, fn, config: Optional[BatchConfig] = None):
    cfg = config or BatchConfig()
    attempts = 1 + (cfg.max_retries if cfg.retry_failed else 0)
    for attempt in range(attempts):
        try:
            return fn(topics)
        except Exception:
            if attempt >= attempts - 1:
                raise
def run_one(topic, fn, cfg: BatchConfig):
    for attempt in range(cfg.extra_attempts + 1):
        try:
            return fn(topic)
        except Exception:
            if attempt >= cfg.extra_attempts:
                raise
""",
        # s38: a readiness poll until a deadline: the exit sits under a test of the answer inside the `with`s
        """\
import asyncio
import httpx
async def wait_healthy(endpoint, deadline):
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        try:
            async with httpx.AsyncClient(timeout=3.0) as client:
                resp = await client.get(f"{endpoint}/health")
                if resp.status_code == 200:
                    return True
        except Exception:
            pass
        await asyncio.sleep(2)
    return False
""",
        # s38: recursions that are not the same work again: a bound counted down and checked, a
        # narrow exception, another function, a different argument (a walk up a tree)
        """\
class Store:
    def save(self, row, attempts=3):
        try:
            self.db.insert(row)
        except Exception:
            if attempts <= 1:
                raise
            self.create_table()
            return self.save(row, attempts - 1)

    def upsert(self, row):
        try:
            self.db.insert(row)
        except self.db.MissingTable:
            self.create_table()
            return self.upsert(row)

    def put(self, row):
        try:
            self.db.insert(row)
        except Exception:
            return self.put_later(row)

def resolve(node, name):
    try:
        return node.scope[name]
    except Exception:
        return resolve(node.parent, name)
""",
        # a benchmark loop times every round (no success exit); a foreground server restarted by its supervisor loop
        """\
import time, uvicorn
def bench(fn, runs=20):
    times, failures = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        try:
            fn()
        except Exception:
            failures += 1
        times.append(time.perf_counter() - start)
    return times, failures
def serve(app):
    while True:
        try:
            uvicorn.run(app, host="127.0.0.1", port=8000)
            break
        except KeyboardInterrupt:
            break
        except Exception as e:
            print("server crashed, restarting:", e)
            time.sleep(1)
""",
        # a narrow condition held in a variable; a factory applied elsewhere, retrying transient errors only
        """\
import httpx
from tenacity import Retrying, retry, retry_if_exception_type, stop_after_attempt, wait_exponential
transient = retry_if_exception_type((httpx.TransportError, httpx.TimeoutException))
@retry(retry=transient, stop=stop_after_attempt(3), wait=wait_exponential())
def fetch(url):
    return httpx.get(url)
class BaseDriver:
    def _retrying(self):
        return Retrying(retry=transient, stop=stop_after_attempt(3), wait=wait_exponential())
""",
        """\
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt

@retry(retry=retry_if_exception_type(httpx.TransportError), stop=stop_after_attempt(3))
def fetch(url):
    return httpx.get(url)
""",
        """\
import backoff, requests

@backoff.on_exception(backoff.expo, (requests.Timeout, requests.ConnectionError), max_tries=4)
def fetch(url):
    return requests.get(url, timeout=5)
""",
        """\
import backoff

@backoff.on_predicate(backoff.fibo, max_tries=5)
def poll(job):
    return job.done()
""",
        """\
import stamina, httpx

@stamina.retry(on=httpx.HTTPError, attempts=3)
def fetch(url):
    return httpx.get(url)
""",
        # a condition in a variable is unknown
        """\
from tenacity import retry, stop_after_attempt

RETRYABLE = make_condition()

@retry(retry=RETRYABLE, stop=stop_after_attempt(3))
def fetch(url):
    return url
""",
        """\
import time, requests

def fetch(url):
    for attempt in range(3):
        try:
            return requests.get(url, timeout=5)
        except (requests.Timeout, requests.ConnectionError):
            time.sleep(2 ** attempt)
""",
        # except Exception that re-raises does not go round; a worker loop is not a retry
        """\
import requests

def fetch(url, queue):
    for attempt in range(3):
        try:
            return requests.get(url, timeout=5)
        except requests.Timeout:
            continue
        except Exception:
            raise
    while True:
        try:
            handle(queue.get())
        except Exception:
            log()
""",
        """\
from langchain_core.runnables import RunnableLambda
import httpx

chain = RunnableLambda(lambda x: x).with_retry(retry_if_exception_type=(httpx.TransportError,), stop_after_attempt=3)
""",
        """\
from langchain.agents.middleware import ToolRetryMiddleware
import httpx

mw = ToolRetryMiddleware(max_retries=2, retry_on=(httpx.TransportError, TimeoutError))
""",
        # iterating items with a try is not a retry; **kwargs hide the condition
        """\
from tenacity import retry

def each(items):
    for item in items:
        try:
            item.send()
        except Exception:
            continue

def make(**opts):
    return retry(**opts)
""",
        """\
from smullyan import runtime as tool

clock = tool.with_clock(lambda ms: None)
stage = clock.retrying(tool.while_transient, tool.up_to(3).attempts)
""",
        # found in real code: a batch loop and a worker loop are not retries
        """\
async def embed_all(self, texts):
    out = []
    for i in range(0, len(texts), self.batch_size):
        try:
            out.extend(await self.embed(texts[i : i + self.batch_size]))
        except Exception:
            continue
    while True:
        task = await self.queue.get()
        if task is None:
            return out
        try:
            if task.ok:
                if task.done:
                    if task.final:
                        return task
        except Exception:
            continue
""",
        # found in real code: a handler that decides from the exception; a periodic daemon; a queue worker
        """\
import asyncio

async def connect(ws, retries):
    for attempt in range(retries):
        try:
            return await ws.connect()
        except Exception as e:
            if attempt < retries - 1 and "timed out" in str(e).lower():
                await asyncio.sleep(1)
            else:
                raise

async def cleanup(pool):
    while True:
        try:
            if pool:
                await asyncio.sleep(60)
                await pool.cleanup()
            else:
                break
        except Exception:
            continue

async def worker(queue):
    while True:
        item = await queue.get()
        try:
            if item is None:
                return
            await item.run()
        except Exception:
            continue
""",
        # s51 (batch 23 session-peer's relay): a `for` over a request budget that receives one request before its `try`
        # and answers it (an error becomes a refused result, sent back): each round serves the next request
        """\
import json
async def serve(channel, dispatch, budget=100):
    for _ in range(budget):
        request = await channel.recv()
        try:
            result = await dispatch(request)
        except Exception:
            result = {"ok": False, "status": "unknown"}
        await channel.send(json.dumps(result))
""",
        # a message loop is not a retry: one message per turn, a failure is logged and the next one read
        """\
import logging
log = logging.getLogger(__name__)
async def serve(ws, handle):
    while True:
        try:
            msg = await ws.recv()
            if msg == "close":
                break
            await handle(msg)
        except Exception:
            log.exception("message failed")
            continue
def consume(work_queue, handle):
    while True:
        try:
            item = work_queue.get(timeout=1)
            if item is None:
                return
            handle(item)
        except Exception as e:
            log.warning("failed: %s", e)
""",
        # the handler hands the exception to a helper that re-raises all but the transient failures
        # (and waits): the helper decides what goes round
        """\
import time
import openai

def _handle_transient_error(e, attempt, attempts):
    if not isinstance(e, (openai.APIConnectionError, openai.RateLimitError)) or attempt == attempts - 1:
        raise e
    time.sleep(2 ** attempt)

def chat(client, messages, attempts=4):
    for attempt in range(attempts):
        try:
            return client.chat.completions.create(model="m", messages=messages)
        except Exception as e:
            _handle_transient_error(e, attempt, attempts)
""",
        # two requests both needed (the second forces a server-side scan), failures tolerated: not a retry
        """\
import logging
log = logging.getLogger(__name__)
def flush(server, params):
    flushed = False
    for _ in range(2):
        try:
            server.send.completion(params)
            flushed = True
        except Exception as e:
            log.debug("flush request failed: %s", e)
    return flushed
""",
    # issue 23: a deny-list that keeps the bugs and the bad requests out; an allow-list predicate
    """\
import httpx, openai
from tenacity import retry, retry_if_exception, retry_if_not_exception_type, stop_after_attempt

@retry(retry=retry_if_not_exception_type((TypeError, ValueError, openai.BadRequestError, openai.AuthenticationError)),
       stop=stop_after_attempt(4))
def ask(client, messages):
    return client.chat.completions.create(model="gpt-4o", messages=messages)

def is_transient(exc):
    if isinstance(exc, (httpx.TransportError, openai.RateLimitError)):
        return True
    return False

@retry(retry=retry_if_exception(is_transient), stop=stop_after_attempt(4))
def summarise(client, text):
    return client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}])
""",
    # s35: a re-sample (the model asked before the try, only its answer parsed inside); a loop that retries
    # on a result and cleans up in a try after its exit
    """\
import json, logging
log = logging.getLogger(__name__)
def classify(llm, prompt, attempts=5):
    for attempt in range(attempts):
        answer = llm.invoke(prompt)
        try:
            data = json.loads(answer)
            return data["label"]
        except Exception as exc:
            log.warning("unparsable answer (attempt %d): %s", attempt + 1, exc)
    return None
async def review(build, prompt):
    for attempt in range(3):
        worker = build()
        result = await worker.run(prompt)
        if "overloaded" not in str(result):
            break
        try:
            await worker.dispose()
        except Exception:
            log.debug("dispose failed")
    return result
""",
        # s36: @retry over a generator retries only building the generator (the request runs on iteration);
        # a receiver that skips a round while disconnected, then reads one message; a queue held in a dict
        """\
import asyncio, json, logging, requests
from tenacity import retry, stop_after_attempt
log = logging.getLogger(__name__)
@retry(stop=stop_after_attempt(5))
def stream_tokens(url, prompt):
    with requests.post(url, json={"prompt": prompt}, stream=True, timeout=30) as r:
        for line in r.iter_lines():
            yield json.loads(line)
class Receiver:
    async def receive(self):
        while True:
            try:
                if not self.connected():
                    await asyncio.sleep(0.1)
                    continue
                chunk = json.loads(await self.websocket.recv())
                yield chunk["audio"]
            except Exception as e:
                log.error("receiver: %s", e)
    async def serve(self):
        failures = 0
        while True:
            try:
                packet = await self.queues["llm"].get()
                await self.answer(packet)
                failures = 0
            except Exception:
                failures += 1
                if failures > 3:
                    break
""",
        # s36: the handler ends the process: the poll stops at the first failure, nothing is retried
        """\
import sys, time
def wait_for_import(operations, name):
    for _ in range(60):
        time.sleep(10)
        try:
            status = operations.get(name=name).execute()
        except Exception as e:
            print(f"polling failed: {e}", file=sys.stderr)
            sys.exit(1)
        if status.get("done"):
            return status
    return None
""",
        # s36: a repair loop: the error goes to the step that fixes the work, as the lint failures do
        """\
async def render_with_fixes(write, lint, render, patch, rounds=3):
    await write()
    for attempt in range(rounds):
        try:
            problems = await lint()
            if problems:
                await patch(f"lint: {problems}")
                continue
            return await render()
        except Exception as e:
            await patch(f"exception: {e}")
    return None
""",
        # s37: the handler decides from the error through a tuple it unpacks (`model, why = classify(e)`)
        """\
def answer(llm, fallback_for, classify, prompt):
    current = llm
    while True:
        try:
            return current.get_response(prompt)
        except Exception as e:
            next_model, why = classify(e, current)
            if next_model is None:
                raise
            current = fallback_for(next_model)
""",
        # s41 (issue 23 D1): a spread factory naming transient errors; a spread of what the module cannot read
        # (a parameter, a factory with arguments) keeps every part unknown
        """\
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential
def _retry_kwargs():
    return dict(stop=stop_after_attempt(3), wait=wait_exponential(), retry=retry_if_exception_type(ConnectionError))
@retry(**_retry_kwargs())
def call(client):
    return client.get("x")
def make(options):
    @retry(**options)
    def fetch(client):
        return client.get("x")
    return fetch
"""
,
    ]
    INVALID = [
        # s56: beside the poll that leaves when its process is gone (started.py case 4), a liveness test that only
        # logs leaves nothing: the URL is polled on whatever it answers
        """\
import logging, subprocess, time, urllib.request
def healthy(cmd, health_url, proc_alive):
    proc = subprocess.Popen(cmd)
    for _ in range(10):
        if not proc_alive(proc):
            logging.warning("not running")
        try:
            urllib.request.urlopen(health_url, timeout=5)
            return True
        except Exception:  # error: TFH103
            pass
        time.sleep(1)
    return False
""",
        # s51: a receive before the `try` whose message the `try` never reads does not make a receive loop: the same
        # fetch is sent again after any failure
        """\
import requests
async def sync(channel, url):
    for attempt in range(3):
        tick = await channel.recv()
        try:
            return requests.get(url, timeout=10).json()
        except Exception:  # error: TFH103
            continue
""",
        # s48 (batch 20 cdt-release): a `while True` that builds its request before the `try` and gives up on an attempt
        # counter after it (`attempts += 1`, `if attempts >= 3: raise`, then a wait) is a retry
        """\
import time, requests
def fetch(session, url, payload):
    attempts = 0
    while True:
        body = dict(payload, sent=time.time())
        try:
            return session.post(url, json=body, timeout=10).json()
        except Exception as exc:  # error: TFH103
            print(exc)
        attempts += 1
        if attempts >= 3:
            raise RuntimeError("gave up")
        time.sleep(2 ** attempts)
""",
        # s47: loopback alone is not "started here": a local server the code did not start (an Ollama preload), a
        # remote URL polled after a start, a health check one of whose callers starts nothing, and a remote call
        # handed no address (dooers-cli's tunnel reallocation after its dev server's Popen), stay reported
        """\
import subprocess, time
import httpx, requests
class Ollama:
    def __init__(self, model):
        self.model = model
        self._client = httpx.Client(base_url="http://localhost:11434", timeout=30)
    def preload(self):
        for attempt in range(2):
            try:
                self._client.post("/api/generate", json={"model": self.model, "keep_alive": "30m"})
                return
            except Exception:  # error: TFH103
                time.sleep(1)
def deploy(service):
    subprocess.Popen(["gcloud", "run", "deploy", service])
    for _ in range(60):
        try:
            if requests.get(f"https://{service}.run.app/health", timeout=5).ok:
                return True
        except Exception:  # error: TFH103
            pass
        time.sleep(5)
def wait_healthy(host, port):
    for _ in range(30):
        try:
            return requests.get(f"http://{host}:{port}/health", timeout=2).ok
        except Exception:  # error: TFH103
            time.sleep(1)
def start(cmd, port):
    subprocess.Popen(cmd)
    return wait_healthy("127.0.0.1", port)
def check(host, port):
    return wait_healthy(host, port)
def reallocate(settings, token):
    while True:
        try:
            return requests.post(settings.api + "/tunnels", headers={"Authorization": token}, timeout=10).json()
        except Exception:  # error: TFH103
            time.sleep(2)
def run(cmd, settings, token):
    subprocess.Popen(cmd)
    return reallocate(settings, token)
""",
        # s49: a `try` first in its round that keeps its result (`response = ...`) for the round is an attempt, and a
        # handler passing over its failure leaves the round to go again: still a retry
        """\
def run_agent(provider, messages):
    for i in range(MAX_ITERATIONS):
        print(f"step {i + 1}")
        response = None
        try:
            response = provider.chat(messages)
        except Exception:  # error: TFH103
            pass
        enforce_budget(messages)
        if response is not None:
            return response.content
""",
        # s44: the same loop whose handler goes to the next round re-runs the failed step: a retry
        """\
def run_agent(provider, ui, messages, tools):
    for _ in range(MAX_ITERATIONS):
        calls = plan_tools(messages)
        try:
            response = provider.chat(messages, tools)
        except Exception:  # error: TFH103
            continue
        enforce_budget(messages)
        if not response.tool_calls:
            return response.content
""",
        # s43: a counted loop around a fetch of updates is a retry, not a message loop
        """\
import asyncio
async def first_updates(api):
    attempts = 0
    while attempts < 3:
        try:
            return await api.get_updates()
        except Exception:  # error: TFH103
            attempts += 1
            await asyncio.sleep(1)
""",
        # s42 (gwenflow): a retry held in a name and applied below is reported where it is built, the call a
        # user adds `retry=` to
        """\
import asyncio
from tenacity import retry, stop_after_attempt, wait_exponential
class BaseTool:
    def run(self, **kwargs):
        _retry = retry(  # error: TFH103
            stop=stop_after_attempt(3),
            wait=wait_exponential(multiplier=1, min=1, max=10),
            reraise=True,
        )
        return _retry(self._run)(**kwargs)
    async def arun(self, **kwargs):
        _retry = retry(stop=stop_after_attempt(3), wait=wait_exponential())  # error: TFH103
        return await asyncio.to_thread(_retry(self._run), **kwargs)
""",
        # s41 (issue 23 D1): the keywords built by a factory or held in a module dict, spread with `**`, are read
        # (the finding is where the condition is written)
        """\
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential
RETRY_KWARGS = {"stop": stop_after_attempt(3), "wait": wait_exponential()}
def _retry_kwargs():
    return dict(stop=stop_after_attempt(3), wait=wait_exponential(), retry=retry_if_exception_type(Exception))  # error: TFH103
@retry(**_retry_kwargs())
def call(client):
    return client.get("x")
class Client:
    def _retry_kwargs(self):
        return {"stop": stop_after_attempt(3), "wait": wait_exponential()}
    @retry(**RETRY_KWARGS)  # error: TFH103
    def fetch(self):
        return self.client.get("x")
""",
        # issue 23 (agent-step-retry): the core agent step re-runs the model call and its tools on any exception
        """\
import asyncio, logging
logger = logging.getLogger(__name__)
class Agent:
    async def run_turn(self, messages, max_attempts=3):
        for attempt in range(max_attempts):
            try:
                reply = await self.llm.chat(messages, tools=self.tools)
                for call in reply.tool_calls:
                    messages.append(await self.execute_tool(call))
                return reply
            except Exception as e:  # error: TFH103
                logger.warning("turn failed: %s", e)
                await asyncio.sleep(1)
""",
        # s41: not polls: the attempt's own success exit under a test (a status retry waiting every round), and a
        # request beside the local cleanup (not local file work only)
        """\
import shutil, time
import requests
def fetch(url):
    for attempt in range(5):
        try:
            resp = requests.get(url, timeout=10)
            if resp.ok:
                return resp.json()
        except Exception:  # error: TFH103
            resp = None
        time.sleep(2 ** attempt)
def upload_and_clean(url, path):
    for delay in (1, 2, 4):
        try:
            requests.post(url, data=open(path, "rb"), timeout=10)
            shutil.rmtree(path)
            return
        except Exception:  # error: TFH103
            time.sleep(delay)
""",
        # s40: the same, but the handler raises again (or catches only some errors): the retry fires on everything
        """\
import logging
from tenacity import retry, stop_after_attempt, wait_random_exponential
@retry(wait=wait_random_exponential(min=60, max=600), stop=stop_after_attempt(6))  # error: TFH103
def call_model(client, prompt):
    try:
        return client.completions.create(prompt=prompt)
    except Exception as e:
        logging.error(e)
        raise
@retry(stop=stop_after_attempt(3))  # error: TFH103
def call_model2(client, prompt):
    try:
        return client.completions.create(prompt=prompt)
    except KeyError:
        return None
""",
        # s39: range(retries + 1) whose default is not 0 retries by default
        """\
import time
import httpx
def fetch(url, retries=2):
    for attempt in range(retries + 1):
        try:
            return httpx.get(url, timeout=10)
        except Exception:  # error: TFH103
            if attempt == retries:
                raise
            time.sleep(2 ** attempt)
""",
        # s41: a config class's retry switch on by default, or its count above 0 by default: retried by default
        """\
import time
from dataclasses import dataclass
@dataclass
class Config:
    retry_failed: bool = True
    max_retries: int = 2
def run(fn, config=None):
    cfg = config or Config()
    attempts = 1 + (cfg.max_retries if cfg.retry_failed else 0)
    for attempt in range(attempts):
        try:
            return fn()
        except Exception:  # error: TFH103
            time.sleep(1)
def run_one(fn, cfg: Config):
    for attempt in range(cfg.max_retries + 1):
        try:
            return fn()
        except Exception:  # error: TFH103
            time.sleep(1)
""",
        # s38: a retry written as recursion: every error runs the same insert again, with no bound
        """\
class Store:
    def save(self, row):
        try:
            with self.engine.begin() as conn:
                conn.execute(self.table.insert().values(**row))
        except Exception as e:  # error: TFH103 "calls its own function again"
            self.log.debug(f"save failed: {e}")
            self.create_table()
            return self.save(row)
        return row

async def connect(url, **options):
    try:
        return await open_socket(url, **options)
    except:  # error: TFH103 "calls its own function again"
        return await connect(url, **options)
""",
        # s36: the handler hands the error to a log helper the attempt also calls: a report, not a repair step
        """\
import asyncio
from .diagnostics import app_logging
async def run_step(step, tools, attempts=3):
    for attempt in range(attempts):
        try:
            result = await tools.call(step.name, **step.args)
            app_logging(f"step {step.name} done")
            return result
        except Exception as e:  # error: TFH103
            app_logging(f"step {step.name} failed: {e}")
            await asyncio.sleep(1)
    return None
""",
        # s35: the model call inside the try under except Exception: a 401 or a 400 goes round with the parse errors
        """\
import json, logging
log = logging.getLogger(__name__)
async def classify(llm, prompt, attempts=5):
    for attempt in range(attempts):
        try:
            answer = await llm.agenerate(prompt)
            return json.loads(answer)["label"]
        except Exception as exc:  # error: TFH103
            log.warning("attempt %d failed: %s", attempt + 1, exc)
    return None
""",
        # issue 23: the handler gives up on its last attempt, but goes round on every other, whatever failed
        """\
import asyncio
async def run_query(logs, query, retries=3):
    for attempt in range(retries + 1):
        try:
            return await logs.start_query(query)
        except Exception as exc:  # error: TFH103
            if attempt < retries:
                await asyncio.sleep(2 ** attempt)
                continue
            return []
""",
        # issue 23: a failure counter beside a success flag, the model called before the try
        """\
import time
def write_code(llm, messages):
    failures, done, code = 0, False, ""
    while failures < 10 and not done:
        stream = llm.stream(messages)
        try:
            code = extract_code("".join(stream))
            done = True
        except Exception as exc:  # error: TFH103
            failures += 1
            time.sleep(5)
    return code
""",
        """\
from tenacity import retry

@retry  # error: TFH103
def fetch(url):
    return url
""",
        """\
import tenacity as t

@t.retry(stop=t.stop_after_attempt(3), wait=t.wait_fixed(1))  # error: TFH103
def fetch(url):
    return url
""",
        """\
from tenacity import retry, retry_if_exception_type, stop_after_attempt

@retry(retry=retry_if_exception_type(Exception), stop=stop_after_attempt(3))  # error: TFH103
def fetch(url):
    return url
""",
        """\
import backoff

@backoff.on_exception(backoff.expo, Exception, max_tries=3)  # error: TFH103
def fetch(url):
    return url
""",
        """\
import stamina

@stamina.retry(on=(OSError, BaseException), attempts=3)  # error: TFH103
async def fetch(url):
    return url
""",
        """\
import time

def fetch(client, url):
    for _ in range(3):
        try:
            return client.get(url)
        except Exception:  # error: TFH103
            time.sleep(1)
""",
        """\
import asyncio

async def fetch(client, url):
    while True:
        try:
            return await client.get(url)
        except:  # error: TFH103
            await asyncio.sleep(1)
""",
        # the own decorator's loop is reported where it is written, once
        """\
import functools

def retrying(func):
    @functools.wraps(func)
    def wrapper(*a, **k):
        for _ in range(3):
            try:
                return func(*a, **k)
            except Exception:  # error: TFH103
                pass
    return wrapper

@retrying
def fetch(url):
    return url
""",
        """\
from tenacity import AsyncRetrying, Retrying, stop_after_attempt

def run(fn):
    for attempt in Retrying(stop=stop_after_attempt(3)):  # error: TFH103
        with attempt:
            fn()
    return AsyncRetrying(stop=stop_after_attempt(2))(fn)  # error: TFH103
""",
        """\
from langchain_core.runnables import RunnableLambda
from langchain.agents.middleware import ToolRetryMiddleware

chain = RunnableLambda(lambda x: x).with_retry(stop_after_attempt=3)  # error: TFH103
mw = ToolRetryMiddleware(max_retries=2)  # error: TFH103
""",
        """\
from tenacity import retry, retry_always, retry_if_exception_type, stop_after_attempt

# s42: reported where it is built, not at `@my_retry`
my_retry = retry(stop=stop_after_attempt(3))  # error: TFH103

@my_retry
def fetch(url):
    return url

@retry(retry=retry_if_exception_type(), stop=stop_after_attempt(3))  # error: TFH103
def fetch2(url):
    return url
""",
        # the shapes hand loops take (issue 23): a literal list of delays, a counter updated in the
        # handler with logging and an `if` before the try, a success flag, an async method
        """\
import asyncio, logging, time
import requests
log = logging.getLogger(__name__)
def fetch(url):
    for delay in (1, 2, 4):
        try:
            return requests.get(url, timeout=5).json()
        except Exception:  # error: TFH103
            time.sleep(delay)
def counted(url, n=3):
    attempt = 0
    while attempt < n:
        log.info("attempt %d", attempt)
        if attempt:
            print("again")
        try:
            return requests.get(url, timeout=5)
        except Exception:  # error: TFH103
            attempt += 1
            time.sleep(2 ** attempt)
class Agent:
    async def step(self, client, url):
        ok, tries = False, 0
        while not ok and tries < 3:
            try:
                r = await client.get(url)
                ok = True
            except Exception:  # error: TFH103
                tries += 1
                await asyncio.sleep(1)
        return r
""",
        # retry_if_not_exception_type(()) excludes nothing: every exception is retried
        """\
from tenacity import retry, retry_if_not_exception_type, stop_after_attempt, wait_exponential
@retry(retry=retry_if_not_exception_type(()), stop=stop_after_attempt(3), wait=wait_exponential())  # error: TFH103
def call(client):
    return client.get("x")
""",
        # retries built by a factory of the module: applied as a decorator, called on a function,
        # or a method returning Retrying that the class iterates
        """\
from tenacity import Retrying, retry, retry_if_exception_type, stop_after_attempt, wait_exponential
def _create_retry_decorator(llm):
    return retry(
        stop=stop_after_attempt(llm.max_retries),
        wait=wait_exponential(min=4, max=10),
        retry=retry_if_exception_type(Exception),  # error: TFH103
    )
def completion_with_retry(llm, **kwargs):
    retry_decorator = _create_retry_decorator(llm)
    @retry_decorator
    def _completion(**kwargs):
        return llm.client.create(**kwargs)
    return _completion(**kwargs)
def embed_with_retry(llm, texts):
    return _create_retry_decorator(llm)(llm.client.embed)(texts)
class Driver:
    def _retrying(self):
        return Retrying(stop=stop_after_attempt(3), wait=wait_exponential(), retry=retry_if_exception_type(BaseException))  # error: TFH103
    def run(self, query):
        for attempt in self._retrying():
            with attempt:
                return self.session.run(query)
""",
        # a condition held in a variable (either branch of a conditional); a factory applied in another module
        """\
import cohere
from tenacity import Retrying, retry, retry_if_exception_type, stop_after_attempt, wait_exponential
def _create_retry_decorator(max_retries):
    conditions = (
        retry_if_exception_type(cohere.error.CohereError)  # error: TFH103
        if hasattr(cohere, "error")
        else retry_if_exception_type(Exception)
    )
    return retry(stop=stop_after_attempt(max_retries), wait=wait_exponential(), retry=conditions)
class BaseDriver:
    def _retrying(self):
        policy = Retrying(stop=stop_after_attempt(3), wait=wait_exponential())  # error: TFH103
        return policy
""",
        # a counted loop around a fetch of one message is a retry, not a message loop
        """\
import asyncio
async def get_message(client, message_id):
    count = 0
    while count < 3:
        try:
            return await client.agents.messages.get(message_id=message_id)
        except Exception:  # error: TFH103
            count += 1
            await asyncio.sleep(2 ** count)
""",
    # issue 23: a deny-list retries every exception but the few it names (a 400, a TypeError too)
    """\
import asyncio, openai
from tenacity import retry, retry_if_exception, retry_if_not_exception_type, stop_after_attempt

class BudgetExceeded(Exception):
    pass

@retry(retry=retry_if_not_exception_type((openai.AuthenticationError, asyncio.CancelledError)),  # error: TFH103
       stop=stop_after_attempt(5))
async def complete(client, messages):
    return await client.chat.completions.create(model="gpt-4o", messages=messages)

def worth_retrying(error):
    \"\"\"Everything is worth another try but a spent budget or a missing model.\"\"\"
    terminal = (BudgetExceeded, openai.NotFoundError)
    if isinstance(error, terminal):
        return False
    return not str(error).startswith("insufficient_quota")

@retry(retry=retry_if_exception(worth_retrying), stop=stop_after_attempt(5))  # error: TFH103
async def extract(client, text):
    return await client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}])

@retry(retry=retry_if_exception(lambda e: not isinstance(e, BudgetExceeded)), stop=stop_after_attempt(3))  # error: TFH103
def embed(client, text):
    return client.embeddings.create(model="text-embedding-3-small", input=text)

class _Rejected(Exception):  # s36: a private class name is still a class: every exception but it is retried
    pass

@retry(retry=retry_if_not_exception_type(_Rejected), stop=stop_after_attempt(3))  # error: TFH103
def post_result(client, row):
    return client.rpc("post_result", row).execute()
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: "Screen", knowledge: "Knowledge") -> Sequence[int]:
        return [*screen_lines(screen, knowledge)[0], *recursion.screen_lines(screen)]

    def leave_Module(self, original_node: cst.Module) -> None:
        self._module = original_node
        model: RetryModel = self.ctx.models[RetryModel]
        if model.finished:
            # s38: a broad handler that runs its own function again (recursion.py)
            for handler in recursion.recursive_retries(original_node, model.exception_names, self.knowledge.every_exception):
                self.report(
                    handler, why="the handler calls its own function again on every exception, with no bound",
                    transient=self.knowledge.transient_advice_default,
                )
        super().leave_Module(original_node)

    def _swallows_everything(self, model: RetryModel, fn: cst.FunctionDef) -> bool:
        """``fn``'s body (a docstring and local assignments aside) is one ``try`` with no ``else``/``finally`` whose broad handler
        (bare, ``Exception``, ``BaseException``) raises nothing: no exception leaves ``fn`` (swebench's
        ``call_anthropic``: logs, sleeps, returns None)."""
        body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
        stmts = [
            s for s in body
            if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr)
                    and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))
        ]
        while len(stmts) > 1 and isinstance(stmts[0], cst.SimpleStatementLine) and all(
            isinstance(b, (cst.Assign, cst.AnnAssign)) for b in stmts[0].body
        ) and not any(isinstance(n, cst.Await) for n in every_node(stmts[0])):
            stmts = stmts[1:]  # local preparation before the try (`user = inputs.split("\\n", 1)[1]`)
        if len(stmts) != 1 or not isinstance(stmts[0], cst.Try):
            return False
        node = stmts[0]
        if node.orelse is not None or node.finalbody is not None:
            return False
        for handler in node.handlers:
            broad = handler.type is None or bool(
                set(model.exception_names(handler.type) or ()) & self.knowledge.every_exception
            )
            if broad:
                return not any(isinstance(n, cst.Raise) for n in every_node(handler))
        return False

    def _local_files_only(self, model: RetryModel, loop: "Loop") -> bool:
        """The attempt (the loop's ``try`` body) only works on local files (``shutil.rmtree``, ``os.replace``,
        ``path.unlink()``, ``open``; ``knowledge.FILE_CONTENTION_CALLS``/``_METHODS``) and in-memory builtins: a file
        another process holds a moment is the failure retried, and nothing leaves the machine (s41)."""
        found = False
        for call in (n for n in every_node(loop.try_node.body) if isinstance(n, cst.Call)):
            func = call.func
            qn = model.names.qualname(func)
            if qn in self.knowledge.file_contention_calls or (
                isinstance(func, cst.Attribute) and func.attr.value in self.knowledge.file_contention_methods
            ):
                found = True
            elif not (
                isinstance(func, cst.Name) and qn == func.value and model.names.is_builtin(func.value)
                and func.value not in self.knowledge.io_builtins
            ):
                return False
        return found

    def _tests_liveness(self, loop: "Loop") -> bool:
        """A cheap gate for started.py's case 4: the loop holds ``if not <call>:`` whose name says alive/running."""
        for n in every_node(loop.node):
            if isinstance(n, cst.If) and isinstance(n.test, cst.UnaryOperation) and isinstance(n.test.operator, cst.Not):
                call = n.test.expression
                if isinstance(call, cst.Call):
                    if liveness_name(last_name(call.func) or "", self.knowledge):
                        return True
        return False

    def _polls_own_server(self, loop: "Loop") -> bool:
        """The loop waits for a server the code started itself (``started.py``); positions only when the file starts a process."""
        screen = self.ctx.screen
        if not screen.calls_of(self.knowledge.background_process_starts) and not self._tests_liveness(loop):
            return False
        tree = screen.tree if isinstance(screen.tree, ast.Module) and screen.tree.body else None
        line = node_lines(self._module, tree, [loop.node]).get(loop.node)
        return line is not None and polls_own_server(screen, self.knowledge, line)

    def check(self, model: RetryModel) -> None:
        for retry in model.retries:
            cond = retry.condition
            if retry.kind not in _KINDS or not isinstance(cond, Condition):
                continue
            if cond.excluded and not cond.every_exception:
                if not excludes_permanent(cond.excluded, self.knowledge):
                    self.report(retry.written, why=deny_why(cond.excluded), transient=_advice(retry, self.knowledge))  # where the retry is written, as for no condition
                continue
            if not cond.every_exception:
                continue
            if retry.loop is None and retry.function is not None and self._swallows_everything(model, retry.function):
                continue  # s40: the decorated function catches every exception and returns: the retry never fires
            loop = retry.loop
            if loop is not None and loop.reparses:
                continue  # s35: a model's output parsed afresh each round (the call outside the try): a re-sample
            if loop is not None and draws_next_item(loop):
                continue  # s40: each round draws the next item of a work list (`node = pending.pop()`): a walk
            if loop is not None and retry.in_process:
                continue  # s39: the attempt calls only in-memory builtins (`next(records)` on a local parse): nothing sent again
            if loop is not None and self._local_files_only(model, loop):
                continue  # s41: `shutil.rmtree(d)` retried with a wait: a local file held a moment, nothing remote
            if loop is not None and observes_condition(loop):
                continue  # s41: a bounded poll: a failed read is "not yet", as a read whose value fails the loop's test
            if loop is not None and isinstance(loop.node, cst.For) and not paths.leaves_on_success(loop):
                if paths.iterates(loop) or not paths.looks_like_retry(loop):
                    continue  # `for _ in range(2): try: request() except Exception: log()`: n requests by design
            if loop is not None and self._polls_own_server(loop):
                continue  # s47: a readiness poll of a child or daemon the code started itself (started.py)
            if cond.default:
                why = _DEFAULTS.get(retry.kind, "this retry has no condition, so it retries every exception")
                self.report(retry.written, why=why, transient=_advice(retry, self.knowledge))
            else:
                where: cst.CSTNode = cond.node if cond.node is not None else retry.anchor
                named = ", ".join(t for t in cond.exceptions if t in self.knowledge.every_exception) or "everything"
                if retry.loop is not None:
                    for handler in retry.loop.handlers:
                        if handler.type is None:
                            where, named = handler, "everything (a bare except)"
                            break
                        if set(model.exception_names(handler.type) or ()) & self.knowledge.every_exception:
                            where = handler
                            break
                self.report(where, why=f"the retry condition names {named}", transient=_advice(retry, self.knowledge))

