"""TFH402 silent-fallback."""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import Knowledge, Screen, handler_types, last_name, markdown_words, outside_screen, walk_in_scope
from .fallback import default_value, documented_fallback, fallback_fix, filled_result, optional_bool
from .fallback_scope import documented_in_docstring, fills_negative_cache, head_only, probe, status_only, write_status
from .model import ErrorRule, catches_broadly, source_of, tool_like_ast
from .remote import may_read_remote_ast, module_constants, reads_remote, runs_tool, runs_tool_ast
from .none_callers import callers_read_failure
from .own_service import own_service_only
from .write_flag import false_reads_missing, only_writes

_DEFAULTS = Knowledge.build()  # the library's own tables, for the docs


class SilentFallback(ErrorRule):
    code = "TFH402"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "silent-fallback"
    summary = "A broad except around a remote read returns an empty or default value and records nothing."
    message = (
        "`{handler}` around a remote read returns {value} and records nothing: an outage looks like "
        "\"nothing there\"; log it, re-raise, or {fix}"
    )
    docs = f"""\
## What it does
Finds a broad handler (`except:`, `except Exception`, `except BaseException`,
or a tuple naming one of them) around a *remote read* that returns an empty or
default value (`None`, `[]`, `{{}}`, `()`, `""`, `0`, `False`, `list()`, a bare
`return`; a record of empty values, `{{"items": [], "total": 0}}`, string keys
whose values are all such values or names echoed back, `False` aside: a status
flag), or a text that starts by saying nothing was found (`"No results,
try another search"`, `"Nothing found"`: the model reads it as the answer),
or whose whole body puts such a text into a slot of the value the function
returns (`result["evidence"] = "No evidence found."` ... `return result`),
or whose whole body is `pass` where the function's next statement after the
`try` (one of its body whose own body returns) returns such a value
(`except Exception: pass`, then `return {{"current_task": None, "queued_tasks":
[]}}`: only a failure or a miss gets there), with no re-raise and no record of the error: no logging call
(`log.warning(...)`, `logger.exception(...)`, `print(...)`,
`warnings.warn(...)`, `sentry_sdk.capture_exception(...)`) and no use of the
exception object.

The scope is "a remote read that fails and reads as nothing there": the
`try` must show positive evidence that it reads from outside the machine
(a network service, a database, an RPC; `rules/errors/remote.py`, the lists
in `linter/knowledge/fallbacks.py`):
- a network call the timeout or effect tables know (an HTTP client's
  method, a known SDK call such as `stripe.Charge.create`, an SDK method by
  name with its package imported), a configured `timeout-required`/`classify`
  name, {markdown_words(sorted(_DEFAULTS.tool_calls - _DEFAULTS.local_io_calls))}, or a call into
  {markdown_words(m.rstrip(".") for m in _DEFAULTS.tool_module_prefixes if m not in _DEFAULTS.local_io_prefixes)};
- a method that sends: {markdown_words(sorted(_DEFAULTS.tool_methods - _DEFAULTS.local_io_methods), "or")};
- a method of an object whose name (any part of the receiver, camelCase
  split) has one of the words
  {markdown_words(sorted(_DEFAULTS.remote_read_receiver_words), "or")}
  (`client.delete(*ids)`, `self._redis.get(k)`, `self.api.runs.cancel(id)`),
  when the object is known to be a third-party package's (s49, issue 24: the name
  alone is no evidence): annotated with a class of a package that is neither the
  standard library, an in-memory library nor the project's own (`client:
  QdrantClient`), or built by a call into one, followed through the file: a local
  the function (or its parent) binds (`s3 = boto3.client("s3")`, `client, user =
  _client()`), `self.<attr>` as the methods of the class assign it
  (`self._client = Pinecone(api_key=k)`, an import inside the method included:
  `import aioboto3` in `__aenter__`, `boto3 = importlib.import_module("boto3")`), what a
  method of the class or a function of the module returns
  (`self._get_bucket().blob(k).exists()`), and what such an object hands out
  (`self._collection = client.get_collection(n)`). A parameter with no
  annotation, an object handed in (`self.store = store`), a registry filled at
  run time, and a value the file does not show the origin of name a place without saying
  where it is, and stay silent: on batches 19-21 such receivers were a local
  sqlite database, a keychain, a job store or the local Docker daemon as often
  as a service (9 of their 20 false findings). A class of the project's own
  package (`repo: GitRepo`) stays evidence, decided by what the project
  implements its method as (below). Not `manager` either, which names
  no place (a simulator's termination manager, a tokenizer's artifact cache);
- a method of an object built from or annotated with a third-party class
  named for a client ({markdown_words(sorted(_DEFAULTS.client_class_words)[:10])}, ...:
  `Pinecone().Index("docs").query(...)`, `container: Container`), or a method
  of a known remote client or of an API namespace under one
  ({markdown_words(sorted(_DEFAULTS.remote_client_classes)[:2])}, ...: `self._es.indices.get(...)` where
  `self._es` is assigned a parameter annotated `AsyncElasticsearch`);
- a program run as a process whose job is a remote service (argv[0]
  {markdown_words(sorted(_DEFAULTS.remote_clis)[:8])}, ..., or `git ls-remote`/`git fetch`...:
  `subprocess.run(["kubectl", "get", "crds"], timeout=30)`), unless the sub-command only reads its local
  setup ({markdown_words(sorted(_DEFAULTS.remote_cli_local_subcommands)[:4], "or")}, ...: `kubectl config`);
- any of the above handed by reference to a worker thread
  (`await asyncio.to_thread(self._client.get_collection, name=n)`,
  `loop.run_in_executor(None, client.get, k)`): the thread calls it;
- a URL handed to a third-party call or to an HTTP verb
  (`fetch_text(pdf_url)`, `session.get(url)`: an argument named with
  {markdown_words(sorted(_DEFAULTS.url_argument_words), "or")}, or an `http(s)://` literal);
- a tool run: a method {markdown_words(sorted(_DEFAULTS.tool_run_methods), "or")} of a receiver named
  (the callee that built it included) with {markdown_words(sorted(_DEFAULTS.tool_run_receiver_words), "or")}
  (`self._find_plugin(tool).run(tool_input)`, `self.tools[name].invoke(x)`): what the tool reads
  is the tool's, a search API or a sub-agent's model, and its failure is read as its answer;
- in an existence check ({markdown_words((p + "*" for p in _DEFAULTS.existence_name_prefixes), "or")},
  {markdown_words(("*" + p for p in _DEFAULTS.existence_name_suffixes), "or")}), also any `await` or call out of the
  process that is not local work.

A method of an object built in place from a constructor handed only
filesystem paths (`ProfileStore(PROFILES_PATH).read_section("keys")`, an
argument whose last word is
{markdown_words(sorted(_DEFAULTS.local_path_argument_words), "or")}, or a `pathlib.Path`) is local work
too, whatever the class is named, and so is a method of an object whose own
name ends in one of those words (`index_file.relative_to(root)`: a path,
though `index` names a remote store elsewhere). So is reading a response
already received: a method of a parameter or a value annotated or built as
{markdown_words(sorted(_DEFAULTS.in_hand_response_classes)[:2], "or")}, ... (`r.json()`, `r.text`): the
request that could fail was made before the `try`, and the handler catches
a body that does not parse.

An embedded store is local work too (s45): a method of an object that
{markdown_words(sorted(_DEFAULTS.embedded_stores)[:6])}, ... built on a
local location, or of what that object hands out, whatever the receiver is
named (`self.db = lancedb.connect(db_path)`; `self.table =
self.db.open_table(t)`; `self.table.count_rows()`; `async with
aiosqlite.connect(p) as db`; `chromadb.PersistentClient(path=d)`'s
collections; a GitPython `Repo(root)`, its `fetch`/`pull`/`push` aside). The
object is followed to what built it: a local name the function (or, in a
closure, its parent) binds, `self.<attr>` as every method of the class
assigns it (`None` aside; `connection or lancedb.connect(...)` read as the
object built), a function annotated to return
{markdown_words(sorted(_DEFAULTS.embedded_store_classes)[:2], "or")}, ... (`with _connect() as
conn` where `def _connect() -> sqlite3.Connection`; s48: whether or not the helper
holds a finding of its own; a helper that returns a connection without saying so,
or a parameter handed one, is not followed), or a
class of the project built from paths only (`Repository(self.repo_path)`).
Where the store can also be remote (LanceDB's `db://`, an object store,
MotherDuck's `md:`), the location must show it is local: a literal without
such a prefix, a path-named value, `pathlib.Path`/`os.path`; an unknown
`lancedb.connect(uri)` stays remote. The constructors and prefixes are data
(`EMBEDDED_STORES` in `linter/knowledge/fallbacks.py`).

A name that only sounds remote is no evidence either (s37: five of the eight
false findings of batches 7-9 were local work read as remote by a name): a
receiver whose own name ends in a value word
({markdown_words((w for w in ("string", "name", "id", "key", "config", "url") if w in _DEFAULTS.value_name_words), "or")}, ...:
`connection_string.split(";")` parses a string, `db_config.get("host")` reads
a mapping); a module-level name bound only to a literal (`_API_METHODS =
{{...}}`: `_API_METHODS.items()` is a table in memory); a local name bound in
the function to local I/O, and what its methods return
(`conn = sqlite3.connect(p)`, `conn.execute(sql).fetchall()`,
`db_path.resolve().as_uri()`); a receiver rooted in a local name bound to an entry of data parsed
in memory (`reduced = json.loads(text)`, `bucket = reduced.get("pipeline")`: `bucket.pop(k)` edits a
dict); in an existence check, a method of an object of a known class that names no client (`node:
SceneNode`, `node.errors()`: the object in hand); a URL handed to a call that renders, parses or
builds it (a callee named with
{markdown_words((w for w in ("render", "eval", "parse", "format", "join", "build") if w in _DEFAULTS.url_in_memory_verbs), "or")}, ...:
`Interpolation().render(url_template, values)`); and, in an existence check,
a call handed only filesystem paths or one that computes a path
(`load_settings(settings_path=settings_file_path())`). Nor is a receiver
named for the project's own classes (s43): its last name has two words or
more (`agent._notification_store.snapshot(...)`, or a local name bound to
it, `store = agent._notification_store`), or one word when the method's
name has two or more (`self.ports.store.get_bello_config()`: the
project's own API, not an SDK's `get` or `snapshot`; s44), or a new object
of a class (`GenerationStore(home).active()`, s44) or what a function of the
module named for it hands out (`_event_store(config, sid).head(sid)`, s46), the linted file's top-level
package defines the method in a class whose name has all of them
(`PosixNotificationStoreAdapter.snapshot`), and every class that
implements it (an abstract one aside) is in a module importing nothing
that leaves the machine (the project's own modules, the standard library
less its network, process and thread parts, in-memory libraries): the
project says what the store is, local files. s48: `subprocess` too, for a
method that runs a program and whose every program (run by the method, or by
a wrapper of its class or module it hands literal arguments:
`self._run("merge-base", a, b)` with `_run` running `["git", *args]`) is a
local program by the tables TFH201 reads (not a remote CLI, a network
program, `git fetch`/`push`): a program or sub-command from the caller
(`repo.run_git_command(*argv)`) is unknown and stays reported. Each project is read once
per process, and only for a `try` no other evidence decided.

Local work is not a remote read, even though it leaves the process: file
I/O and local processes (any other program: `git rev-parse`, `ps`, `kind version`; {markdown_words(sorted(_DEFAULTS.local_io_calls))}; anything of
{markdown_words(m.rstrip(".") for m in _DEFAULTS.local_io_prefixes)};
the methods {markdown_words(sorted(_DEFAULTS.local_io_methods))}: `git rev-parse` with a timeout, a
config file, an embedded `sqlite3` database; the Docker daemon through `docker`/`aiodocker`, the
machine's own unless `DOCKER_HOST` says otherwise: `await docker.images.get(image)` asks the local image
cache; the OS's secret store through `keyring`: `keyring.get_password(service, user)` asks this
machine's keychain; s48: a socket that stays on this machine, one only bound and asked its port (a
free-port picker, `s.bind((host, 0))`), a Unix-domain one (`socket.AF_UNIX`: a local daemon's path), or a
datagram socket connected and never sent on (`s.connect(("8.8.8.8", 80)); s.getsockname()[0]`: the kernel
picks the route, nothing is sent); `socket.create_connection` and a socket that connects over TCP or sends
stay remote); nor is a call into a third-party package
on no such object (a converter of a local path, a parser), nor an `await`
alone (`await ctx.get_state(k)`: request state in memory). On the code read
in the survey (batches 1-5), such fallbacks were the documented answer ("no
config file", "not a repository", "usage unknown"), and 31 of the 34 true
findings had a network or database client in the `try`; the three others (a
storage backend's `list_dir`, a browser page's `evaluate`, an agent's run)
name nothing that says where the work happens, and are not reported.

A handler that logs (or prints, warns, or uses the exception) is not
reported, in a tool as anywhere else: the spec's "records nothing". On
batch 7, three of the four drawn misses were searches that log a failed
request and return `[]`, which a tool then hands the model as "no papers";
the log is for a person and the model reads a false answer. The scope stays
as it is: a logged empty fallback is a common, deliberate best-effort form
in library code, a linter that reported every one would be noisy, and in
those three the fallback sits in a searcher class of another module than the
tool, which a per-file lint cannot connect to the tool (a logged fallback in
the tool function itself would be the case worth reporting: not done yet).

Not reported, because "could not tell" or "could not clean up" is the
intended answer there:
- a `try` body without a remote read (parsing, introspection, formatting),
  and optional-import probes (a `try` that imports a package outside the
  standard library);
- `return False` in a predicate: a function whose name starts with
  {markdown_words((p + "*" for p in _DEFAULTS.predicate_prefixes), "or")}, or annotated `-> bool`, or whose
  other returns are all bool-valued, unless its name starts with an action
  verb that is not a write that creates or sends
  ({markdown_words(sorted(_DEFAULTS.action_verbs - _DEFAULTS.write_status_verbs), "or")}, also with the async
  `a` prefix, `acancel_run`: the name alone does not make `False` an
  answer to a question; whether a write's `False` is reported is decided by
  its calls, below), and unless it asks about a
  remote resource (`has_index`, `table_exists`: the `try` calls a method of
  an object named like a client, db, store, manager, cluster, bucket...;
  an outage then reads as "absent" and the caller creates it again), which is
  reported too, as is an existence check whose `try` reaches outside
  whatever the receiver's name ({markdown_words((p + "*" for p in _DEFAULTS.existence_name_prefixes), "or")},
  {markdown_words(("*" + p for p in _DEFAULTS.existence_name_suffixes), "or")}: `bucket_exists`, `does_index_exist`);
  a predicate about reachability stays silent (a name with
  {markdown_words(_DEFAULTS.reachability_name_parts, "or")}, or a
  predicate whose `try` calls a health or liveness probe of the service,
  `await client.health()`, `redis.ping()`: the boolean is the point);
- fallbacks that are the design: a function named with
  {markdown_words(_DEFAULTS.benign_fallback_name_parts, "or")} (a cache miss that
  means "recompute", a telemetry or device id that only feeds a metric, a
  format validator), or a `try` that reads a cache (`self._cache.get(k)`);
- (s44, the policy for probes, from the labels of batches 1-16) a probe is
  silent when its name or its `try` says what it asks is whether the
  service answers (the reachability, probe and health names above, a
  `client.health()`/`ping()` in the `try`): readers labelled every such
  finding false (fxhoudinimcp's port scan, continuedev's MeiliSearch check,
  mcpforunity's `check_connection`). A function that asks the service for
  something else stays reported, because its caller reads the default as
  that answer: a predicate about the remote state (MotherDuck's read-scaling
  token, `kubectl get crds`: true), an existence check (`_endpoint_exists`:
  "missing"), a listing of a local model server (`fetch_local_models`: "no
  models"), an update check (`_fetch_latest`: "no update"), a deep-health
  listing (`[]`: "no checks"); the last four were labelled debatable, none
  false. Name the function for the probe, or `# noqa: TFH402`, where "does not
  answer" is the question;
- (s45, the debatable findings of batches 1-17, decided by what the caller
  reads when the read fails) **reported**: a fetch whose `None` also answers
  a non-200 (an outage reads "not found"); a model call that answers `""`
  or `None` (a summary, a judgement, a routing reply: "the model said
  nothing"); a `None` the success path never returns (an account, a
  history, an indicator: the caller tells them apart only by testing for
  `None`, `if not data` reads it as empty, and the reason is lost); a
  question to the service other than "do you answer" (`_supports_vision`,
  `get_me`, `has_upstream`, `_endpoint_exists`, `running()`); a service
  process on the machine reached through a client (a local Ollama's model
  list, a daemon's list for a picker, an LSP server, a browser page: it is
  another process that can be down, and the code cannot know it is local);
  a token check or refresh whose outage reads "invalid" or "signed out";
  a broad handler after typed handlers that raise the timeout and connection
  errors (the broad one still turns a server error into "nothing"); an
  enrichment or decoration beside a primary result (a total count, a PDF
  link, a version notice, a display name): the function cannot tell that
  its caller treats the value as optional, so say it (a docstring's
  "best-effort", below) or `# noqa: TFH402`; a rationale in other words
  ("a failed enrichment beats a crashed run") is not read. **Not
  reported**: the probes above, the embedded stores and the Docker daemon
  (local work), and a soft failure the docstring states in the phrases
  below;
- (s46, local services and update checks, decided on the labels of batches 1-18) the address
  does not decide: a read from `localhost`/`127.0.0.1`/a unix socket (a local Ollama's
  `/api/tags`, a local daemon) is a service process that can be down, like any other, and its
  listing's `[]` reads "no models" (labelled debatable 6 times, false never, true never): still
  reported, except the status-only check above, which is silent wherever the service runs, and
  (s47) the tool's own service: a `try` whose every URL is a loopback address
  (`127.0.0.1`, `localhost`, `[::1]`) with a path the linted file's project registers as a route
  of its own web app (`@app.get("/info")`, `router.add_get("/x", h)`: read from the project's
  modules on disk, `linter/project_routes.py`) asks the package's own server, which it runs on this
  machine (batch 19's claw-forge state client, labelled false 3 times); a path handed in as a
  parameter (`f"http://127.0.0.1:{{port}}{{path}}"`) counts when every call of the function in its
  parent passes such a path. A third-party server merely addressed on localhost (a local Ollama's
  `/api/tags`, which the project does not serve) stays reported, as does a loopback path the
  project does not register. An
  update check (a PyPI or GitHub "latest version" GET answering None) stays reported unless its
  name or docstring says it (`latest_version`, `notice`, "best-effort"): labelled debatable twice,
  none false among those reported;
- a default that is the answer the function was asked for (s38; on batch 10's blind run, 8 of the
  12 false findings were of these kinds): a probe for a server (a name with
  {markdown_words(_DEFAULTS.probe_name_parts, "or")}: a port scan's `None` is "no server on this
  port"); a write that creates or sends (the name's first word is
  {markdown_words(sorted(_DEFAULTS.write_status_verbs), "or")}, also with the async `a` prefix:
  `None`/`False` says "not done", never "nothing there"; `post`/`put` are not among these names, HTTP
  verbs that as often read); (s47) a write's status flag, decided by the calls: a `return False`
  after a `try` whose every call out is a write (what the classifier knows, an HTTP `DELETE`/`PUT`/`PATCH`
  or an SDK's write; else a method whose name's first word is a write verb, `delete_object`,
  `index.delete`, `runs.cancel`, `upsert`; else `execute` of SQL text that writes, `DELETE FROM ...`,
  also through a name bound to it; `commit` is neither) says "it did not happen" (batch 19's
  souschef DELETEs, batch 10's agentica index clear: labelled false 4 times), unless the contract
  says `False` is "not found" (the function's docstring, an enclosing function's, or the same
  method's in a base class, of the module or imported from the project: vanna's
  `AgentMemory.delete_by_id`, "Returns True if deleted, False if not found", whose UI shows the
  `False` as "Memory Not Found": 16 true), where an outage reads "nothing to delete" and stays
  reported; a `try` that also reads (`collection.get(ids)` before the delete) stays reported too,
  its `False` also answers "not there", and so does a read that answers `False`, `None` or `[]`; a handler that stores the miss in a cache (`self._name_negative_cache[k] = deadline`:
  the failure is remembered on purpose); a docstring that says the soft failure is the design
  ("intentionally soft", "best-effort", "never raises", "falls back", "graceful error handling", "fails open",
  "returns None on any failure", "defensive"; not "optional", which
  docstrings use for arguments); and a `return False` whose only remote call is an HTTP `HEAD`
  (`requests.head(url)`: whether the address answers is the question), or whose function's every
  other return is a success test of a response's status (`return response.status_code == 200`,
  `return r.ok`) and which never reads the response's content (`.json()`, `.text`, `.content`,
  `.headers`): whether the service answers is the question, by the code's shape whatever the name
  (s46, harombe's `check_ollama_running`, labelled false); an existence check by status
  (`_endpoint_exists`) stays reported, its False reads "missing", and so does a check that reads the
  answer (`model in r.json()["models"]`);
- `return None` in a function annotated `-> Optional[bool]` (`bool | None`):
  None is the "could not tell" answer, distinct from the `False` a caller
  would read as "absent";
- `return None` (or a bare `return`) from a function every caller of which in the module
  reads the `None` as a failure (s48): each call's result is bound and the first statement
  that reads it is an `if` testing it for `None` or falsiness (or the call is the test,
  `if fetch(u) is None:`), and the branch taken on `None` raises, logs at warning level or
  above, calls an error or failure helper (`_error_result(...)`), or answers with a text
  saying it failed (`"Error: could not read the balance"`): the module itself tells the
  `None` from "nothing there". A function no caller in the module calls, a caller that hands
  the value on or uses it untested, and one whose `None` branch only carries on (`if avail is
  not None: budget = min(avail, budget)`) or says "nothing" (`"No items found"`) keep the
  finding. (Counting any `None` test as enough lost 2 true findings of batch 17, price reads
  whose callers skip a symbol on `None`; tried and dropped.)
- a bare `return` in a procedure (annotated `-> None`, or with no
  `return <value>` anywhere), or `return None` in one annotated `-> None`
  (s56): nothing is handed back that could pass for an empty result;
- best-effort cleanup: functions named {markdown_words(_DEFAULTS.cleanup_function_words, "or")}
  (or with one of these as a `_`-separated word), or with
  {markdown_words(_DEFAULTS.cleanup_function_name_parts, "or")} in the name;
- a handler for `Exception` when the module defines its own `Exception`
  (only the builtins are broad);
- a fallback the code says is the design: a comment in the handler (on the
  `except` line or in its body) that says it falls back, is best-effort,
  optional, non-fatal or intentional (`# the caller falls back to the full
  sign-in flow`): the reader is told where the caller goes next. A comment
  that only restates the code (`# return [] on any error`), a linter pragma
  (`# noqa: BLE001`) or a to-do (`# TODO: ...`) is no such evidence. (On
  batch 8, an OAuth2 token refresh whose handler said "we'll fall back to
  the full auth flow" was read as the design.)

A transport's base error ({markdown_words(sorted(_DEFAULTS.transport_base_errors))})
catches every failure of the remote call, and `except httpx.HTTPError: return []` hides an
outage just as `except Exception` does. Read on batches 1-14 (s42, issue 24), the 36
findings it added when counted as broad were 11 true, 6 false, 19 debatable, below the
rule's precision bar; split by what the handler hands back (s46) they are two shapes. An
empty collection (`[]`, `{{}}`): 9 true, 0 false, 2 debatable, a search, a listing or a
catalog whose outage (and, with `raise_for_status`, a 401 or a 429) reads "no matches":
**reported**, as for `except Exception`. `None`, `""` or `False`: 2 true, 6 false, 17
debatable, mostly fetch helpers whose `None` also answers every non-200 status by design
(`if resp.status_code != 200: return None`), an optional decoration or a token check: not
reported. A reader labels such a handler as a broad one, by what the caller reads (the s45
decisions above): a listing's `[]` true, a fetch helper's `None` that the function also
returns for a non-200 debatable (the author merged "could not get" with "not there" for
every answer, and the transport error joins it), an optional decoration or a write's status
false.

## Why is this bad?
When a tool call fails, an empty result says "there is nothing": the agent
cannot tell "the search found nothing" from "the search service is down",
so it tells the user there is nothing, or plans on a falsehood. Nobody sees
the outage, so nobody fixes it.

## Example
```python
import requests

def search(q):
    try:
        return requests.get(URL, params={{"q": q}}, timeout=10).json()["hits"]
    except Exception:
        return []
```

## Use instead
```python
import requests
from smullyan.runtime import Err, Ok, from_exception

def search(q):
    try:
        return Ok(requests.get(URL, params={{"q": q}}, timeout=10).json()["hits"])
    except Exception as e:
        return Err(from_exception(e))
```

## How to suppress
`# noqa: TFH402` on the `except` line (for a deliberate best-effort probe),
or `ignore`/`per-file-ignores` in the configuration.
"""
    VALID = [
        # s49 (issue 24): a receiver only named like a remote thing, whose object the file does not show to be a
        # third-party package's: an unannotated parameter, an attribute handed in, the project's own store class
        # (batches 19-21: a local job store, a keychain wrapper, a sqlite database class, an in-process API)
        """\
from .db import open_database


class Jobs:
    def __init__(self, store, settings):
        self.store = store
        self.db = open_database(settings)

    def jobs(self):
        try:
            return self.store.list()
        except Exception:
            return []

    def goal_text(self, key):
        try:
            return self.db.get_autopilot(key)
        except Exception:
            return ""


def tradable(client):
    try:
        return sorted(m["symbol"] for m in client.get_markets())
    except Exception:
        return []
""",
        # s49: what a finding of earlier sessions rested on the name alone and now stays silent: a registry filled at
        # run time with clients of unknown origin
        """\
_API_CLIENTS = {}
def search_in(region, q):
    try:
        return _API_CLIENTS[region].search(q).hits
    except Exception:
        return []
""",
        # s48: a module helper annotated to return a sqlite3 connection (``def _connect() -> sqlite3.Connection``):
        # its connection is the local database, though the helper holds no finding (batch 21's oblivion-agent)
        """\
import sqlite3


def _connect() -> sqlite3.Connection:
    conn = sqlite3.connect(str(DB_PATH))
    conn.row_factory = sqlite3.Row
    return conn


def clear_file(workspace: str, file: str) -> int:
    try:
        with _connect() as conn:
            cur = conn.execute("DELETE FROM symbols WHERE workspace=?", (workspace,))
            conn.commit()
            return cur.rowcount or 0
    except Exception:
        return 0


def find_symbol(workspace: str) -> list[dict]:
    try:
        with _connect() as conn:
            cur = conn.execute("SELECT * FROM symbols WHERE workspace=?", (workspace,))
            return [dict(r) for r in cur.fetchall()]
    except Exception:
        return []
""",
        # s47: a write's status flag: a try whose only calls out are writes (a SQL DELETE and its commit, an S3
        # delete_object, a cancel) answers False for "it did not happen", not "nothing there" (batch 19's souschef)
        """\
class Store:
    def delete_analysis(self, analysis_id: int) -> bool:
        \"\"\"Delete an analysis. Returns: True if successful, False otherwise.\"\"\"
        try:
            with self._connect() as conn:
                sql = self._prepare_sql("DELETE FROM analysis_results WHERE id = ?")
                cursor = conn.execute(sql, (analysis_id,))
                conn.commit()
                return bool(cursor.rowcount)
        except Exception:
            return False
    def delete(self, storage_key: str) -> bool:
        try:
            self.s3_client.delete_object(Bucket=self.bucket_name, Key=storage_key)
            return True
        except Exception:
            return False
async def acancel_run(self, run_id) -> bool:
    try:
        await self.api.runs.cancel(run_id)
        return True
    except Exception:
        return False
""",
        # s46: whether the service answers, read from the status alone (harombe's local Ollama check); a transport's
        # base error whose handler hands back None (a fetch helper's "could not get", as for a non-200)
        """\
import httpx
import requests
async def check_ollama_running(base_url: str = "http://localhost:11434") -> bool:
    try:
        async with httpx.AsyncClient(timeout=5.0) as client:
            response = await client.get(f"{base_url}/api/tags")
            return response.status_code == 200
    except Exception:
        return False
def server_up(url):
    try:
        r = requests.get(url, timeout=3)
    except Exception:
        return False
    return r.ok
def get_json(url):
    try:
        resp = httpx.get(url, timeout=20)
        if resp.status_code != 200:
            return None
        return resp.json()
    except httpx.HTTPError:
        return None
""",
        # s45: embedded stores on a local location, whatever the receiver is named: LanceDB imported in
        # ``__init__``, an aiosqlite connection opened in a ``with``, Chroma's persistent collections, a project
        # class built from a path read in a closure
        """\
import aiosqlite
import chromadb
from app.repo import Repository
class VectorStore:
    def __init__(self, db_path="./lancedb"):
        import lancedb
        self._db = lancedb.connect(db_path)
        self._table = None
    def open(self, name):
        self._table = self._db.open_table(name)
    def count_rows(self) -> int:
        try:
            return self._table.count_rows()
        except Exception:
            return 0
async def active_review(db_path):
    try:
        async with aiosqlite.connect(db_path) as db:
            return await (await db.execute("SELECT value FROM settings")).fetchone()
    except Exception:
        return None
class Memory:
    def __init__(self, persist_dir):
        self.client = chromadb.PersistentClient(path=persist_dir)
        self.collection = self.client.get_or_create_collection("memories")
    def search(self, q):
        try:
            return self.collection.query(query_texts=[q])
        except Exception:
            return []
def show_diff(repo_path, build):
    repo = Repository(repo_path)
    def lookup(rel):
        try:
            return repo.read_file_text(rel)
        except Exception:
            return None
    return build(lookup)
""",
        # s40: a tool run whose failure is recorded, or whose fallback says it failed; a slot filled with a
        # nothing-found text in a result the function does not return
        """\
import logging
log = logging.getLogger(__name__)
def worker(self, tool, tool_input):
    result = {"evidence": ""}
    try:
        result["evidence"] = self._find_plugin(tool).run(tool_input)
    except Exception:
        log.exception("tool %s failed", tool)
        result["evidence"] = "No evidence found."
    return result
def other(self, tool, x):
    try:
        return self.tools[tool].invoke(x)
    except Exception:
        return "Tool failed; try another tool"
def shown(self, tool, x, panel):
    try:
        panel.text = self._find_plugin(tool).run(x)
    except Exception:
        panel.text = "No evidence found."
""",
        # a store opened on a local file path: file I/O, whatever the class is named
        """\
from app.profiles import ProfileStore
PROFILES_PATH = "~/.app/profiles.json"
def saved_keys():
    try:
        return ProfileStore(PROFILES_PATH).read_section("keys")
    except Exception:
        return {}
""",
        # `Exception` is this module's own class here, not the builtin: the handler is narrow
        """\
import requests
class Exception(BaseException):
    pass
def f():
    try:
        return requests.get(URL, timeout=5).json()
    except Exception:
        return None
""",
        """\
import logging
import requests
log = logging.getLogger(__name__)
def f():
    try:
        return requests.get(URL, timeout=5).json()
    except Exception:
        log.exception("g failed")
        return None
""",
        """\
def f():
    try:
        return int(open(p).read())
    except ValueError:
        return 0
""",
        """\
def f():
    try:
        return client.get(k)
    except Exception as e:
        errors.append(e)
        return []
""",
        """\
import sys
async def f():
    try:
        return await g()
    except Exception:
        return fallback_value()
    try:
        return await h()
    except Exception:
        onerror(h, sys.exc_info())
        return None
    try:
        return await k()
    except BaseException:
        self.report_failure()
        return []
""",
        # no tool call in the try body: parsing, introspection, formatting
        """\
from urllib.parse import urlparse
def parse(value):
    try:
        return urlparse(value).netloc
    except Exception:
        return None
def hints(typ):
    try:
        return get_type_hints(typ)
    except Exception:
        return {}
""",
        # a package that mixes I/O and pure helpers, decided per callable: a price lookup, an SDK model's validation
        """\
import litellm
from mcp import types
def price(model, tokens):
    try:
        return litellm.cost_per_token(model=model, prompt_tokens=tokens)
    except Exception:
        return 0
def as_tool(data):
    try:
        return types.Tool.model_validate(data)
    except Exception:
        return None
""",
        # botocore's bundled service model: a JSON file installed with the SDK, read offline
        """\
import botocore.session
from botocore import xform_name
def enum_values(shape):
    try:
        model = botocore.session.get_session().get_service_model("compute-optimizer")
        return list(model.shape_for(shape).enum)
    except Exception:
        return []
def operations():
    try:
        model = botocore.session.get_session().get_service_model("compute-optimizer")
        return {xform_name(n): n for n in model.operation_names}
    except Exception:
        return {}
""",
        # optional import probe
        """\
def has_v1():
    try:
        from pydantic.v1 import BaseModel
    except Exception:
        return False
    return True
""",
        # predicates: the name, the annotation, or bool-valued returns
        """\
import os
async def ping(self):
    try:
        await self._redis.ping()
        return True
    except Exception:
        return False
def _is_dir(p) -> bool:
    try:
        return os.stat(p).st_mode & 0o040000 != 0
    except Exception:
        return False
def reachable(url):
    try:
        r = requests.head(url, timeout=2)
        return r.status_code < 400
    except Exception:
        return False
""",
        # a tri-state answer: None is "could not tell", not "absent"
        """\
from typing import Optional
class Store:
    def _index_has_field(self, field) -> Optional[bool]:
        try:
            return field in self.index.info()["attributes"]
        except Exception:
            return None
""",
        # a procedure: a bare return hands nothing back
        """\
import asyncio
async def _refresh_exit_code(self, entry) -> None:
    try:
        result = await asyncio.to_thread(self.api.inspect, entry.id)
    except Exception:
        return
    entry.exit_code = result.get("ExitCode")
""",
        # s56 (issue 24; batch 29's hedgetech): a procedure annotated `-> None` says `return None`: still nothing handed
        # back (an order edit that sets the object's attributes, or leaves them, on any failure)
        """import requests
class Order:
    def edit(self, price: float) -> None:
        try:
            status = requests.get(self.url, timeout=5).json()
            self.price = status["price"]
            return None
        except: return None
""",
        # best-effort cleanup
        """\
import inspect
async def _close_dependency(close):
    try:
        result = close()
        if inspect.isawaitable(result):
            await result
    except Exception:
        return
class Conn:
    def __exit__(self, *exc):
        try:
            self.sock.close()
        except Exception:
            return None
    def shutdown_best_effort(self):
        try:
            self.client.shutdown()
        except BaseException:
            return
""",
        # design fallbacks: a cache miss, a telemetry id, a reachability ping, a format validator, an optional import
        """\
import uuid
import requests
class Store:
    def _get_cached(self, key):
        try:
            return self.client.get(key)
        except Exception:
            return None
    def lookup(self, key):
        try:
            return self._cache.get(key)
        except Exception:
            return None
def get_device_id(client):
    try:
        return client.fetch_id()
    except Exception:
        return ""
async def is_alive(self) -> bool:
    try:
        await self.client.ping()
        return True
    except Exception:
        return False
def is_valid_url(url):
    try:
        return requests.head(url, timeout=2).ok
    except Exception:
        return False
def gpu_count():
    try:
        import torch
        return torch.cuda.device_count()
    except Exception:
        return 0
""",
        # a module's function is not a client's method; building a third-party object is in memory
        """\
import socket
from mcp.types import ResourceLink
def _is_ip_address(host) -> bool:
    try:
        socket.inet_aton(host)
        return True
    except Exception:
        return False
def _link_block(url):
    try:
        return ResourceLink(type="resource_link", uri=url, name="x")
    except Exception:
        return None
""",
        # local work: a file, a local process, a third-party converter of a local path, request-scoped state in
        # memory; the empty answer is "no such file", "not a repository", "nothing set" (the scope is a remote read)
        """\
import asyncio
import subprocess
from pathlib import Path
from markitdown import MarkItDown
def head(path, n):
    try:
        with open(path) as f:
            return [line for line in f][:n]
    except Exception:
        return []
def first_readable(paths):
    for p in paths:
        try:
            return Path(p).read_text()
        except Exception:
            return ""
def repo_root():
    try:
        return subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, timeout=5).stdout
    except Exception:
        return None
def kube_context():
    try:
        return subprocess.run(["kubectl", "config", "current-context"], capture_output=True, timeout=5).stdout
    except Exception:
        return None
async def parsed(self, path):
    try:
        return await asyncio.to_thread(self._parse, path)
    except Exception:
        return None
def as_markdown(path):
    try:
        return MarkItDown().convert(path).text_content
    except Exception:
        return ""
async def user_of(ctx):
    try:
        return await ctx.get_state("user")
    except Exception:
        return None
""",
        # a "manager" names no place: a simulator's termination terms and a tokenizer's artifact cache are in
        # the process or on the disk, and None is their "not reported"
        """\
class Episode:
    def success_flags(self):
        try:
            return self.env.termination_manager.get_term("success")
        except Exception:
            return None
    def artifact(self, spec):
        try:
            return self.manager.resolve(spec)
        except Exception:
            return None
""",
        # a text that says the search failed is not "nothing there"
        """\
import requests
def search(q):
    try:
        return requests.get(URL, params={"q": q}, timeout=10).text
    except Exception:
        return "Search failed: the service did not answer"
""",
        # a response already received: the handler catches a body that does not parse
        """\
import httpx
def listed_items(resp: httpx.Response):
    try:
        return resp.json()["items"]
    except Exception:
        return []
""",
        # a path named like an index is still a path
        """\
def module_names(index_file, root):
    try:
        return [str(index_file.relative_to(root))]
    except Exception:
        return []
""",
        # s37: names that only sound remote: a connection string parsed, a module-level literal table named like an API,
        # a URL template rendered in memory
        """\
from templating import Interpolation
_API_ROUTES = {"list": "ListItems", "get": "GetItem"}
def parse_dsn(connection_string):
    try:
        return dict(part.split("=", 1) for part in connection_string.split(";"))
    except Exception:
        return None
def route_names():
    try:
        return {op: name.lower() for op, name in _API_ROUTES.items()}
    except Exception:
        return {}
def rendered(url_template, values):
    try:
        return Interpolation().render(url_template, values)
    except Exception:
        return None
""",
        # s37: a connection the function opened on a local SQLite file (its cursor's rows, its close in a finally),
        # a path's own methods; an existence check whose only call out loads a settings file from a computed path
        """\
import sqlite3
from myapp.settings import load_settings, settings_file_path
def build_stamp(db_path):
    try:
        connection = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=1)
        try:
            rows = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        finally:
            connection.close()
        return rows or None
    except Exception:
        return None
def has_api_key() -> bool:
    try:
        settings = load_settings(settings_path=settings_file_path())
    except Exception:
        return False
    return bool(settings.get("api_key"))
""",
        # the handler's comment says the fallback is the design, and where the caller goes next
        """\
class Session:
    def refreshed_token(self, refresh_token):
        try:
            return self.client.refresh_token(self.token_url, refresh_token=refresh_token)
        except Exception:
            # no refreshed token: the caller falls back to the full sign-in flow
            return None
""",
        # a connection check: False is the answer asked for
        """\
import httpx
async def check_connection(base) -> bool:
    try:
        async with httpx.AsyncClient() as client:
            return (await client.get(base + "/health", timeout=5)).status_code == 200
    except Exception:
        return False
""",
        # s38: the default is the answer asked for. A probe for a server (a port scan for a plugin, a health
        # query): None is "no server on this port"
        """\
import httpx
import urllib.request
async def find_plugins(host, ports):
    async def probe(client, port):
        try:
            return (await client.post(f"http://{host}:{port}/rpc", json={"method": "status"})).json()
        except Exception:
            return None
    async with httpx.AsyncClient(timeout=1) as client:
        return [await probe(client, p) for p in ports]
def query_health(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=0.5) as r:
            return r.read()
    except Exception:
        return None
""",
        # s38: a write that creates or sends: None/False says "not done", never "nothing there"
        """\
async def upload_attachment(api, local_file):
    try:
        return (await api.upload_file(local_file))["id"]
    except Exception:
        return None
def save_snapshot(self, doc) -> bool:
    try:
        self.client.index(index="snapshots", document=doc)
        return True
    except Exception:
        return False
""",
        # s38: a miss remembered in a negative cache on purpose: an optional title answered empty until the entry
        # expires; a display name is decoration (absent, the caller shows the id)
        """\
import asyncio
class Groups:
    async def group_title(self, bot, group_id, now):
        try:
            info = await asyncio.wait_for(bot.get_group_info(group_id=group_id), timeout=2)
        except Exception:
            self._name_negative_cache[group_id] = now + 60
            return ""
        return info.get("group_name", "")
    async def lookup_display_name(self, db, member):
        try:
            return (await db.members.get(member)).display_name
        except Exception:
            return None
""",
        # s38: the docstring says the soft failure is the design; an update notice for a person is an optional extra
        """\
import json
import urllib.request
def newest_release(timeout=5.0):
    \"\"\"The newest published version, or None when the index cannot be reached.

    The failure is intentionally soft: the caller says it could not check.
    \"\"\"
    try:
        with urllib.request.urlopen("https://pypi.org/pypi/example/json", timeout=timeout) as r:
            return json.loads(r.read())["info"]["version"]
    except Exception:
        return None
async def fetch_release_notice(session):
    try:
        async with session.get("https://example.org/notice.json", timeout=2) as r:
            return (await r.json())["text"]
    except Exception:
        return ""
""",
        # s39: decoration whose absence the caller expects (batch 11): a docstring saying the handling is graceful
        # (a who-am-i summary's first spaces), a model's context-length lookup (None: the default is used), and
        # the local Docker daemon's image cache (False: pull it)
        """\
import aiodocker
import httpx
async def _fetch_workspace_spaces(api_client, workspace_id):
    \"\"\"Fetch and map spaces for a workspace with graceful error handling.\"\"\"
    try:
        return (await api_client.get_spaces(workspace_id=workspace_id))["spaces"][:3]
    except Exception:
        return []
def running_context_length(client, model) -> int | None:
    try:
        loaded = client.ps().models
    except Exception:
        return None
    return next((m.context_length for m in loaded if m.model == model), None)
async def _check_sandbox_image_exists(image: str) -> bool:
    docker = aiodocker.Docker()
    try:
        await docker.images.get(image)
        return True
    except Exception:
        return False
    finally:
        await docker.close()
""",
        # s45 (batch 18): the OS's keychain through keyring is this machine's secret store: None is "no saved
        # credential", not an outage
        """\
import keyring
def credential_exists(service, key):
    try:
        return keyring.get_password(service, f"{key}:token") is not None
    except Exception:
        return False
def load_token(service, url):
    try:
        return keyring.get_password(service, url)
    except Exception:
        return None
""",
        # s39: `pass`, then a value after the `try` that the success path reaches too (the `try` returns nothing): not
        # a fallback; a status flag is no empty record
        """\
import httpx
def sync(client):
    try:
        client.post("/sync")
    except Exception:
        pass
    return {}
def fetch_status(url):
    try:
        return httpx.get(url, timeout=5).json()
    except Exception:
        return {"ok": False, "items": []}
""",
        # s38: a HEAD request asks whether the address answers, and False is that answer
        """\
import requests
def page_exists(url):
    try:
        return requests.head(url, timeout=3, allow_redirects=True).status_code == 200
    except Exception:
        return False
""",
        # s38: a mapping parsed in memory named like a remote thing; an existence check asking an object in hand of a
        # class that names no client (a scene node's own error list)
        """\
import json
from scene_app import SceneNode
def trimmed(payload):
    try:
        reduced = json.loads(payload)
        bucket = reduced.get("pipeline")
        bucket.pop("tools", None)
        return reduced
    except Exception:
        return None
def has_errors(node: SceneNode) -> bool:
    try:
        return bool(node.errors())
    except Exception:
        return False
""",
        # s42 (batch 14, continuedev): a predicate whose `try` asks the service's health endpoint: "not running" is
        # the answer (the caller starts the server); a transport's base error around a write that says "not done",
        # and a narrower error (the server answered with an error status)
        """import httpx, requests
from meilisearch_python_async import Client
async def check_meilisearch_running() -> bool:
    try:
        async with Client(URL) as client:
            try:
                resp = await client.health()
                return resp.status == "available"
            except Exception:
                return False
    except Exception:
        return False
def save_note(note):
    try:
        httpx.post(URL, json=note, timeout=5)
        return True
    except httpx.HTTPError:
        return False
def lookup(q):
    try:
        return requests.get(URL, params={"q": q}, timeout=5).json()
    except requests.HTTPError:
        return None
def fetch_upn(client: httpx.Client, token):
    '''Who the token belongs to. Returns None on any failure: the status is useful without it.'''
    try:
        return client.get("/me", headers={"Authorization": token}).json()["upn"]
    except (httpx.HTTPError, ValueError):
        return None
""",
        # s42 (issue 24): a transport's base error is not counted as broad (see the docs: measured below the bar);
        # s46: unless the handler hands back an empty collection (INVALID), so a text or a None stays silent
        """import aiohttp, httpx, requests
from requests.exceptions import RequestException
async def calendar_view(client: httpx.AsyncClient, start, end):
    try:
        r = await client.get("/me/calendarView", params={"start": start, "end": end})
        r.raise_for_status()
        return r.json()["value"]
    except httpx.HTTPError:
        return None
def search(q):
    try:
        return requests.get(URL, params={"q": q}, timeout=5).json()["hits"]
    except RequestException:
        return False
async def fetch(session: aiohttp.ClientSession, url):
    try:
        async with session.get(url) as r:
            return await r.text()
    except aiohttp.ClientError:
        return ""
""",
        # s48: a socket that stays on this machine: bound and asked its port (a free-port picker), a Unix-domain
        # socket (a local daemon), a datagram socket connected and never sent on (the kernel picks the route)
        """\
import socket
def pick_port(host):
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind((host, 0))
            return s.getsockname()[1]
    except Exception:
        return 0
def daemon_status(path):
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(path)
            s.sendall(b"status")
            return s.recv(4096)
    except Exception:
        return None
def machine_ip():
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(("8.8.8.8", 80))
        ip = s.getsockname()[0]
        s.close()
        return ip
    except Exception:
        return None
""",
        # s48: a None every caller in the module reads as a failure: the tool says the read failed, the report logs
        # an error, the method's caller raises
        """\
import logging
import requests
log = logging.getLogger(__name__)
def fetch_balance(url):
    try:
        return requests.get(url, timeout=5).json()["balance"]
    except Exception:
        return None
def balance_tool(url):
    balance = fetch_balance(url)
    if balance is None:
        return "Error: could not read the balance"
    return f"balance: {balance}"
def report(url):
    if (b := fetch_balance(url)) is None:
        log.error("balance read failed")
        return
    print(b)
class Account:
    def _get(self, url):
        try:
            return requests.get(url, timeout=5).json()
        except Exception:
            return None
    def run(self, url):
        got = self._get(url)
        if got is None:
            raise RuntimeError("account read failed")
        return got
""",
    ]
    INVALID = [
        # s49 (issue 24): the receiver followed to a third-party package's object: a client a method of the class
        # builds (an import inside it, or ``importlib.import_module`` of a literal), reached from a closure through
        # the class's getters; a helper of the module that returns one in a tuple
        """\
import importlib


class Blob:
    def __init__(self, region):
        boto3 = importlib.import_module("boto3")
        self.s3 = boto3.client("s3", region_name=region)

    def list_keys(self, prefix):
        try:
            return [o["Key"] for o in self.s3.list_objects_v2(Bucket="b", Prefix=prefix).get("Contents", [])]
        except Exception:  # error: TFH402
            return []


class Memory:
    def __init__(self):
        self._client = None
        self._collection = None

    def _get_client(self):
        if self._client is None:
            import chromadb
            self._client = chromadb.HttpClient(host="memory.internal")
        return self._client

    def _get_collection(self):
        if self._collection is None:
            self._collection = self._get_client().get_or_create_collection("memories")
        return self._collection

    async def recall(self, memory_id):
        def _get():
            collection = self._get_collection()
            try:
                return collection.get(ids=[memory_id])["documents"]
            except Exception:  # error: TFH402
                return []
        return await run_sync(_get)


def _client():
    from composio import Composio
    return Composio(api_key=KEY), USER


def list_connected():
    try:
        client, user_id = _client()
        resp = client.connected_accounts.list(user_ids=[user_id])
    except Exception:  # error: TFH402
        return set()
    return {a.toolkit for a in resp.items}
""",
        # s48: a helper annotated to return a connection to a database server stays remote (psycopg)
        """\
import psycopg


def _connect() -> psycopg.Connection:
    return psycopg.connect(DSN)


def find_symbol(workspace: str) -> list[dict]:
    try:
        with _connect() as conn:
            cur = conn.execute("SELECT * FROM symbols WHERE workspace=%s", (workspace,))
            return [dict(r) for r in cur.fetchall()]
    except Exception:  # error: TFH402
        return []
""",
        # s48: a socket that talks to a peer over the network stays a remote read (a connection, a datagram sent);
        # so does a None one caller reads as "nothing there" ("No items found"), or carries on past (a default
        # budget), or one no caller in the module tests
        """\
import socket
import requests
def read_greeting(host, port):
    try:
        s = socket.create_connection((host, port), timeout=3)
        return s.recv(100)
    except Exception:  # error: TFH402 "returns None"
        return None
def dns_query(host):
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect((host, 53))
        s.send(b"q")
        return s.recv(512)
    except Exception:  # error: TFH402 "returns None"
        return None
def fetch_items(url):
    try:
        return requests.get(url, timeout=5).json()["items"]
    except Exception:  # error: TFH402 "returns None"
        return None
def items_tool(url):
    items = fetch_items(url)
    if items is None:
        return "No items found"
    return items
def available(url):
    try:
        return requests.get(url, timeout=5).json()["available"]
    except Exception:  # error: TFH402 "returns None"
        return None
def budget(url, cap):
    avail = available(url)
    if avail is not None:
        cap = min(avail, cap)
    return cap
def price(url):
    try:
        return requests.get(url, timeout=5).json()["price"]
    except Exception:  # error: TFH402 "returns None"
        return None
def quote(url):
    if price(url) is None:
        log_failure("price read failed")
    return price(url)
""",
        # s46: a check that reads the answer's content (is the model pulled?), an existence check by status, and a
        # transport's base error around a search whose [] reads "no matches"
        """\
import httpx
import requests
from httpx import HTTPError
async def check_model_pulled(base_url: str, model: str) -> bool:
    try:
        async with httpx.AsyncClient(timeout=5.0) as client:
            response = await client.get(f"{base_url}/api/tags")
            return model in [m["name"] for m in response.json()["models"]]
    except Exception:  # error: TFH402
        return False
def endpoint_exists(client, url):
    try:
        return client.get(url).status_code == 200
    except Exception:  # error: TFH402
        return False
def search(q):
    try:
        resp = httpx.get("https://example.com/search", params={"q": q}, timeout=10)
        if resp.status_code != 200:
            return []
        return resp.json()["hits"]
    except HTTPError:  # error: TFH402
        return []
def panel(q):
    try:
        resp = requests.get("https://example.com/panel", params={"q": q}, timeout=10)
        resp.raise_for_status()
        return resp.json()
    except (requests.exceptions.RequestException, ValueError):  # error: TFH402
        return {}
""",
        # s45 (batch 18): a keychain read beside a server's read: the server's outage still reads "no profile"
        """\
import httpx
import keyring
def fetch_profile(service, url):
    try:
        token = keyring.get_password(service, url)
        return httpx.get(url, headers={"Authorization": token}, timeout=5).json()
    except Exception:  # error: TFH402
        return None
""",
        # s45: a store whose location may be remote (LanceDB Cloud, or a location that does not say)
        """\
import lancedb
class Cloud:
    def __init__(self, uri):
        self.db = lancedb.connect("db://my-project")
        self.other = lancedb.connect(uri)
    def names(self):
        try:
            return self.db.table_names()
        except Exception:  # error: TFH402
            return []
    def rows(self):
        try:
            return self.other.open_table("t").count_rows()
        except Exception:  # error: TFH402
            return 0
""",
        # s40: a tool run (a method run/invoke/... of a receiver named for a tool or a plugin) whose failure
        # reads as "no evidence": a slot of the returned result filled with a nothing-found text (gentopia's
        # ReWOO worker), or the text returned
        """\
def worker(self, tool, tool_input):
    result = dict(evidence="")
    try:
        result["evidence"] = self._find_plugin(tool).run(tool_input)
    except:  # error: TFH402
        result["evidence"] = "No evidence found."
    return result
async def other(self, name, x):
    try:
        return await self.tools[name].ainvoke(x)
    except Exception:  # error: TFH402
        return "No relevant results found."
""",
        # s39: `pass`, then a default after the `try` that only a failure (or no data) reaches; a record of empty
        # values says "nothing there" field by field (nekro-agent's workspace queue, batch 11)
        """\
import httpx
class SandboxClient:
    async def get_workspace_queue(self, workspace_id="default") -> dict:
        try:
            async with httpx.AsyncClient(timeout=10.0) as client:
                resp = await client.get(f"{self._base_url}/queue/{workspace_id}")
                if resp.status_code == 200:
                    return dict(resp.json())
        except Exception:  # error: TFH402
            pass
        return {"workspace_id": workspace_id, "current_task": None, "queued_tasks": [], "queue_length": 0}
    async def get_pending_results(self):
        try:
            async with httpx.AsyncClient(timeout=10.0) as client:
                return list((await client.get(f"{self._base_url}/pending")).json()["results"])
        except Exception:  # error: TFH402
            return {"results": [], "total": 0}
""",
        """\
import requests
def post(payload):
    try:
        return requests.post(URL, json=payload, timeout=10).json()
    except:  # error: TFH402:5 "returns None and records nothing"
        return
    try:
        return requests.post(URL, json=payload, timeout=10).json()
    except (ValueError, BaseException) as e:  # error: TFH402 "return a typed ToolError (Err(from_exception(e)))"
        return {}
""",
        # a client a botocore session creates reads remotely: the session's own model lookups are local, not its clients
        """\
import botocore.session
def buckets():
    try:
        return botocore.session.get_session().create_client("s3").list_buckets()["Buckets"]
    except Exception:  # error: TFH402 "around a remote read returns []"
        return []
""",
        # the advice never names an exception the handler does not bind
        """\
import requests
def get(url):
    try:
        return requests.get(url, timeout=10).json()
    except:  # error: TFH402 "catch it as `except Exception as e:` and return a typed ToolError"
        return None
def head(url):
    try:
        return requests.head(url, timeout=10).headers
    except BaseException:  # error: TFH402 "catch it as `except BaseException as e:`"
        return {}
def put(url, err):
    try:
        return requests.put(url, timeout=10).json()
    except Exception as exc:  # error: TFH402 "Err(from_exception(exc))"
        return {}
""",
        # a status flag of an action is not a predicate (s47: here the try also reads, so its False also answers
        # "none of them there"; a delete alone is a write's status flag, VALID; s49: a client typed by annotation)
        """\
import redis
def delete(self, ids=None) -> bool:
    client: redis.Redis = self.client
    try:
        if ids and client.exists(*ids):
            client.delete(*ids)
        return True
    except:  # error: TFH402
        return False
""",
        """\
async def fetch(session, url):
    try:
        async with session.get(url) as r:
            return await r.json()
    except Exception:  # error: TFH402
        pass
        return {}
""",
        # predicates over a remote resource: an outage reads as "absent"
        """\
class VectorStore:
    def has_index(self, name) -> bool:
        try:
            self.client.indices.get(index=name)
            return True
        except Exception:  # error: TFH402
            return False
    def table_exists(self, table):
        try:
            return self.db.open_table(table) is not None
        except Exception:  # error: TFH402
            return False
""",
        # a tool method handing a URL to a third-party converter, and the sync twin through a db receiver
        """\
import redis
from markitdown import MarkItDown
class ConvertTool:
    def __init__(self):
        self.db = redis.Redis(host="sessions")
    def _run(self, page_url):
        try:
            return MarkItDown().convert(page_url).text_content
        except Exception:  # error: TFH402
            return ""
    def get_session(self, sid):
        try:
            return self.db.get_session(sid)
        except Exception:  # error: TFH402
            return None
""",
        # SDK handles not named like a client: an index built from a known constructor, a container typed by an
        # annotation; and a bare `return` after a failed fetch in a method whose result means "the items"
        """\
import chromadb
from docker.models.containers import Container
from pinecone import Pinecone
index = Pinecone().Index("docs")
def similar(vector):
    try:
        return index.query(vector=vector, top_k=5).matches
    except Exception:  # error: TFH402
        return []
def container_logs(container: Container):
    try:
        return container.logs().decode()
    except Exception:  # error: TFH402
        return ""
class Memory:
    def __init__(self, client: chromadb.HttpClient):
        self.collection = client.get_collection("memories")
    def list_items(self, user):
        try:
            items = self.collection.get(where={"user": user})
        except Exception:  # error: TFH402
            return
        return items["documents"]
""",
        # positive evidence of a remote read: a third-party helper handed a URL, an existence check whose lookup runs in a worker thread
        """\
import asyncio
from pdf2text_lib import fetch_text
def paper_text(pdf_url):
    try:
        return fetch_text(pdf_url)
    except Exception:  # error: TFH402
        return None
class Vectors:
    async def _index_exists(self, name) -> bool:
        try:
            return await asyncio.to_thread(self._lookup, name)
        except Exception:  # error: TFH402
            return False
""",
        # an API namespace of a known remote client the class was handed, a client method run in a worker
        # thread, a program whose job is a remote cluster (its argv built in a local name)
        """\
import asyncio
import subprocess
import chromadb
from elasticsearch import AsyncElasticsearch
class Search:
    def __init__(self, es: AsyncElasticsearch):
        self._es = es
        self._client = chromadb.HttpClient(host="vectors")
    async def list_collection_names(self):
        try:
            return list(await self._es.indices.get(index="docs__*"))
        except Exception:  # error: TFH402
            return []
    async def collection(self, name):
        try:
            return await asyncio.to_thread(self._client.get_collection, name=name)
        except Exception:  # error: TFH402
            return None
def installed_crds(context_args):
    try:
        cmd = ["kubectl"] + context_args + ["get", "crds", "-o", "name"]
        return set(subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.split())
    except Exception:  # error: TFH402
        return set()
""",
        # a search tool's "nothing found" text after a failed call on a third-party API wrapper (an acronym in a
        # class name is a word: SearchAPIWrapper)
        """\
import os
from searchkit import SearchAPIWrapper
def web_search(keywords):
    try:
        return SearchAPIWrapper(api_key=os.getenv("SEARCH_KEY")).run(keywords)
    except:  # error: TFH402 "try another search"
        return "No results, try another search"
""",
        # a comment that only restates the code, or a to-do, does not say the fallback is the design
        """\
import requests
def search(q):
    try:
        return requests.get(URL, params={"q": q}, timeout=10).json()["hits"]
    except Exception:  # error: TFH402
        # return an empty list on any error
        return []
def lookup(q):
    try:
        return requests.get(URL, params={"q": q}, timeout=10).json()["hits"]
    except Exception:  # error: TFH402
        return []  # TODO: fall back less quietly
""",
        # s37: a module-level client (not a literal) named in capitals, and a database connection to a server, read through its cursor's rows: still remote
        """\
import psycopg
from searchkit import SearchClient
API_CLIENT = SearchClient(timeout=10)
def search(q):
    try:
        return API_CLIENT.search(q).hits
    except Exception:  # error: TFH402
        return []
def rows(dsn):
    try:
        conn = psycopg.connect(dsn)
        return conn.execute("SELECT id FROM items").fetchall()
    except Exception:  # error: TFH402
        return []
""",
        # an async action's status flag is not a predicate answer; s47: a cancel that also reads the run first
        # answers "not there" with its False too
        """\
from langgraph_sdk import get_client
class Runs:
    def __init__(self, url):
        self.api = get_client(url=url)
    async def acancel_run(self, run_id) -> bool:
        try:
            run = await self.api.runs.get(run_id)
            await self.api.runs.cancel(run.id)
            return True
        except Exception:  # error: TFH402
            return False
""",
        # s38: deleting by id: False on an outage reads "nothing to delete" (an HTTP POST helper, `post`, stays
        # reported too: the first example); "optional" in a docstring's argument list says nothing of the design.
        # s47: a delete alone is a write's status flag, unless the contract says False is "not found": here the
        # method's docstring, and below the base class's (vanna's AgentMemory.delete_by_id, batch 4)
        """\
from pinecone import Pinecone
class Memory:
    def __init__(self):
        self.index = Pinecone().Index("memories")
    def delete_memory(self, memory_id: str) -> bool:
        \"\"\"Delete one memory. Returns True if deleted, False if not found.

        Args:
            memory_id (str, optional): the memory to delete.
        \"\"\"
        try:
            self.index.delete(ids=[memory_id])
            return True
        except Exception:  # error: TFH402
            return False
""",
        # s38: a client typed by a parameter's annotation, and a handle taken from a registry of buckets (not parsed
        # data): still remote reads
        """\
from qdrant_client import QdrantClient
def has_collection(client: QdrantClient, name) -> bool:
    try:
        client.get_collection(name)
        return True
    except Exception:  # error: TFH402
        return False
import boto3
class Objects:
    def __init__(self, names):
        self.buckets = {n: boto3.resource("s3").Bucket(n) for n in names}
    def object_names(self, name):
        bucket = self.buckets.get(name)
        try:
            return [o.key for o in bucket.list_objects()]
        except Exception:  # error: TFH402
            return []
""",
        # s47: the contract in a base class of the module says False is "not found": an outage reads "nothing to
        # delete" for every implementation
        """\
from pinecone import Pinecone
class AgentMemory:
    async def delete_by_id(self, memory_id: str) -> bool:
        \"\"\"Delete a memory by its ID. Returns True if deleted, False if not found.\"\"\"
class PineconeMemory(AgentMemory):
    async def delete_by_id(self, memory_id: str) -> bool:
        \"\"\"Delete a memory by its ID.\"\"\"
        def _delete():
            try:
                Pinecone().Index("memories").delete(ids=[memory_id])
                return True
            except Exception:  # error: TFH402
                return False
        return await self.run(_delete)
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        """``try`` statements with a broad handler returning a default and a tool-like call (or await) in the body."""
        transports = frozenset(t.rsplit(".", 1)[-1] for t in knowledge.transport_base_errors)
        cands = {
            id(h)
            for h in screen.handlers
            if (catches_broadly(h, None)
                and (any(isinstance(s, ast.Return) and default_value(s.value) for s in h.body) or filled_result(h.body)))
            or (any(last_name(t) in transports for t in handler_types(h))
                and any(isinstance(s, ast.Return) and default_value(s.value) in _SCREEN_EMPTY for s in h.body))
        }
        if any(_passes(h) for h in screen.handlers):
            cands |= {id(h) for t in _tries_then_default(screen.defs) for h in t.handlers if _passes(h)}
        if not cands:
            return []
        outside = outside_screen(screen, knowledge)
        return [
            node.lineno
            for node in screen.tries
            if any(id(h) in cands for h in node.handlers)  # type: ignore[attr-defined]
            and (tool_like_ast(node.body, outside, knowledge) or may_read_remote_ast(node.body, knowledge)  # type: ignore[attr-defined]
                 or runs_tool_ast(node.body, knowledge))  # type: ignore[attr-defined]
        ]

    # ------------------------------------------------------------ the check

    _constants: frozenset[str] | None = None  # the module's literal-bound names, read once per file

    def _benign(self, body: cst.BaseSuite) -> bool:
        """A cache, telemetry or validator helper, or a ``try`` that reads a cache: the fallback is the design."""
        parts = self.knowledge.benign_fallback_name_parts
        func = self.names.function
        if isinstance(func, cst.FunctionDef) and any(p in func.name.value.lower() for p in parts):
            return True
        return self.model.reads_cache(body)

    def _remote(self, body: cst.BaseSuite) -> bool:
        """The ``try`` reads from outside the machine (:func:`~.remote.reads_remote`); in an existence check
        (``index_exists``, ``has_bucket``) an ``await`` or any call out that is not local I/O is enough."""
        func = self.names.function
        name = func.name.value.lstrip("_").lower() if isinstance(func, cst.FunctionDef) else ""
        k = self.knowledge
        exists = bool(name) and (name.startswith(k.existence_name_prefixes) or name.endswith(k.existence_name_suffixes))
        if self._constants is None:
            self._constants = module_constants(self.ctx.module, self.names)
        return reads_remote(body, self.names, k, self.ctx.screen.import_roots, awaits=exists,
                            constants=self._constants, path=self.ctx.path, tree=self._tree()) or runs_tool(body, k)

    def _tree(self) -> ast.Module | None:
        """The whole file's ``ast`` (the screen's): what a helper the engine stubbed returns (s49)."""
        tree = self.ctx.screen.tree
        return tree if isinstance(tree, ast.Module) else None

    def _exempt_function(self, returned: str, body: cst.BaseSuite) -> bool:
        """Best-effort cleanup, or ``return False`` in a predicate (not one about a remote resource)."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return False
        k = self.knowledge
        raw = func.name.value
        name = raw.lstrip("_").lower()
        words = set(name.split("_"))
        if raw in k.cleanup_function_words or words & k.cleanup_function_words:
            return True
        if any(part in name for part in k.cleanup_function_name_parts):
            return True
        ann = func.returns.annotation if func.returns is not None else None
        if returned in ("None(bare)", "None") and isinstance(ann, cst.Name) and ann.value == "None":
            # a procedure (`-> None`): nothing is handed back that could pass for an empty result, whether the
            # handler says `return` or `return None` (s56: batch 29's hedgetech order edits and deletes, 8 false)
            return True
        if returned == "None(bare)":
            return all(r.value is None for r in self.model.returns(func))
        if returned == "None" and optional_bool(func.returns):
            return True  # `-> Optional[bool]`: None is "could not tell", an answer distinct from False
        if returned != "False":
            return False
        first = name.split("_")[0]
        if first in k.action_verbs or (first.startswith("a") and first[1:] in k.action_verbs):
            return False  # an action's status flag (acancel_run: the async twin)
        if any(p in name for p in k.reachability_name_parts):
            return True
        if name.startswith(k.existence_name_prefixes) or name.endswith(k.existence_name_suffixes):
            return False  # bucket_exists / has_collection: the try reaches outside, an outage reads as "absent"
        if name.startswith(k.predicate_prefixes) and self._asks_health(body):
            return True  # s42: `check_meilisearch_running`: `client.health()` in the `try`, reachability is the question
        if self.model.remote_receiver(body):
            return False  # has_index / table_exists: an outage reads as "absent"
        if name.startswith(k.predicate_prefixes):
            return True
        ann = func.returns.annotation if func.returns is not None else None
        if isinstance(ann, cst.Name) and ann.value == "bool":
            return True
        others = [r for r in self.model.returns(func) if not (isinstance(r.value, cst.Name) and r.value.value == "False")]
        return bool(others) and all(r.value is not None and self.model.bool_valued(r.value) for r in others)

    def _asks_health(self, body: cst.BaseSuite) -> bool:
        """The ``try`` calls a health or liveness probe of the service (``await client.health()``,
        ``self._redis.ping()``, ``api.is_available()``): a predicate around it asks whether the service
        answers, and its ``False`` ("not running") is the answer, not "nothing there"."""
        parts = (*self.knowledge.probe_name_parts, *self.knowledge.reachability_name_parts)
        for n in walk_in_scope(body):
            if type(n) is cst.Call and isinstance(n.func, cst.Attribute):
                method = n.func.attr.value.lstrip("_").lower()
                if any(p in method for p in parts):
                    return True
        return False

    def _default_after(self, statement: cst.CSTNode) -> cst.Return | None:
        """``try: ... return data`` / ``except Exception: pass`` / ``return <default>``: the ``return`` right after
        a ``try`` of the function's body whose own body returns, which only a failure (or no data) reaches."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef) or not isinstance(func.body, cst.IndentedBlock):
            return None
        stmts = list(func.body.body)
        for i, stmt in enumerate(stmts[:-1]):
            if stmt is not statement:
                continue
            nxt = stmts[i + 1]
            if not (isinstance(nxt, cst.SimpleStatementLine) and len(nxt.body) == 1 and isinstance(nxt.body[0], cst.Return)):
                return None
            if not isinstance(stmt, cst.Try) or not any(isinstance(n, cst.Return) for n in walk_in_scope(stmt.body)):
                return None
            return nxt.body[0]
        return None

    def _returns_name(self, name: str) -> bool:
        """The function returns the value bound to ``name`` (``return result``)."""
        func = self.names.function
        return isinstance(func, cst.FunctionDef) and any(
            isinstance(r.value, cst.Name) and r.value.value == name for r in self.model.returns(func))

    def _catches_transport(self, node: cst.ExceptHandler) -> bool:
        """The handler catches a transport's base error (``except httpx.HTTPError``, ``except (requests.RequestException,
        ValueError)``): every failure of the call, as ``Exception`` would (s46)."""
        k = self.knowledge
        for t in handler_types(node):
            raw = self.names.qualname(t)  # type: ignore[arg-type]
            if raw is not None and k.canonical(raw) in k.transport_base_errors:
                return True
        return False

    def _answer_asked_for(self, node: cst.ExceptHandler, returned: str, body: cst.BaseSuite) -> bool:
        """The default is the answer the function was asked for (:mod:`.fallback_scope`): a probe's "no server",
        a write's "not done", a remembered miss, a documented soft failure, a ``HEAD``'s "does not answer"."""
        func = self.names.function
        k = self.knowledge
        if probe(func, k) or write_status(func, k) or fills_negative_cache(node) or documented_in_docstring(func):
            return True
        if returned != "False":
            return False
        if head_only(body, self.names, k, self.ctx.screen.import_roots):
            return True
        # s47: a write's status flag (souschef's DELETE answering False): "it did not happen", not "nothing there",
        # unless the contract says False is "not found" (vanna's AgentMemory.delete_by_id)
        if only_writes(body, self.names, k, self.ctx.screen.import_roots, self._constants or frozenset(),
                       self.ctx.path) and not false_reads_missing(self.names, self.ctx.path, self.ctx.screen.tree):
            return True
        # s46: every other return tests the response's status and nothing reads its content (harombe's
        # `check_ollama_running`: `return response.status_code == 200`): "does it answer" is the question asked.
        # An existence check (`_endpoint_exists`) stays reported: its False reads "missing".
        if not isinstance(func, cst.FunctionDef):
            return False
        name = func.name.value.lstrip("_").lower()
        return status_only(func, self.model.returns(func)) and not (
            name.startswith(k.existence_name_prefixes) or name.endswith(k.existence_name_suffixes))

    def _callers_read_failure(self) -> bool:
        """s48: every caller in the module tests the ``None`` and takes a failure path (:mod:`.none_callers`)."""
        func = self.names.function
        if not isinstance(func, cst.FunctionDef):
            return False
        scopes = [s for s in self.names.stack if s.kind in ("function", "class")]
        method = len(scopes) >= 2 and scopes[-1].node is func and scopes[-2].kind == "class"
        return callers_read_failure(func.name.value, method, self.ctx.screen.tree, self.knowledge)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        handler = self.names.handler
        broad = self.model.catches_broadly(node)
        if handler is None or not (broad or self._catches_transport(node)):
            return
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            stmts: list[cst.BaseSmallStatement] = [b for b in body.body if isinstance(b, cst.BaseSmallStatement)]
        else:
            stmts = []
            for stmt in body.body:
                if isinstance(stmt, cst.SimpleStatementLine):
                    stmts.extend(stmt.body)
        returned = None
        bare = False
        for small in stmts:
            if isinstance(small, cst.Return):
                returned = default_value(small.value)
                bare = small.value is None
                break
        filled = filled_result(stmts)
        if filled is not None and self._returns_name(filled[0]):
            returned = filled[1]  # result["evidence"] = "No evidence found.", then return result
        if len(stmts) == 1 and isinstance(stmts[0], cst.Pass):
            after = self._default_after(handler.statement)
            if after is not None:
                returned = default_value(after.value)
                bare = after.value is None
        if returned is None or (not broad and returned not in _EMPTY_COLLECTIONS) or self.model.records(handler):
            return
        body = handler.statement.body
        if self.model.probes(body) or not self._remote(body):
            return
        if self._exempt_function("None(bare)" if bare else returned, body):
            return
        if self._benign(body) or documented_fallback(node):
            return
        if self._answer_asked_for(node, returned, body) or own_service_only(body, self.names, self.ctx.path, self.ctx.module):
            return
        if returned == "None" and self._callers_read_failure():
            return
        text = "except:" if node.type is None else "except " + source_of(node.type)
        self.report(node, handler=text, value=returned, fix=fallback_fix(node))


# The empty collections a transport-base handler must hand back to be reported (s46): on the check's tree, and as the
# screen's ``default_value`` shows them (an empty list, tuple or set display reads "()" there).
_EMPTY_COLLECTIONS = frozenset({"[]", "{}", "()", "set()", "list()", "dict()", "tuple()", "frozenset()"})
_SCREEN_EMPTY = frozenset({"()", "{}", "list()", "dict()", "set()", "tuple()", "frozenset()"})


def _passes(handler: ast.ExceptHandler) -> bool:
    """A broad handler whose whole body is ``pass``."""
    return len(handler.body) == 1 and isinstance(handler.body[0], ast.Pass) and catches_broadly(handler, None)


def _tries_then_default(defs: list[ast.AST]) -> list[ast.Try]:
    """The ``try`` statements of a function's body followed by a ``return`` of a default (``return {"items":
    []}`` after ``except Exception: pass``) whose own body returns: the screen's side of
    :meth:`SilentFallback._default_after`."""
    out: list[ast.Try] = []
    for d in defs:
        body: list[ast.stmt] = getattr(d, "body", [])
        for stmt, nxt in zip(body, body[1:]):
            if (isinstance(stmt, ast.Try) and isinstance(nxt, ast.Return) and default_value(nxt.value) is not None
                    and any(isinstance(n, ast.Return) for s in stmt.body for n in ast.walk(s))):
                out.append(stmt)
    return out
