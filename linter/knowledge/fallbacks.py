"""What a swallowed failure hides: tool-like work, benign fallbacks and compensation steps (TFH402, TFH403).

TFH402's scope: the modules, calls, methods and receivers that reach outside (``TOOL_MODULE_PREFIXES``,
``TOOL_CALLS``, ``TOOL_METHODS``, ``TOOL_RECEIVER_WORDS``), the libraries and calls that work in memory,
and the function names whose fallback is the design (caches, predicates, reachability checks, cleanup).
TFH403's scope: the calls that undo an outside effect, in-process cancellation, the errors that say
"already gone", and ``contextlib.suppress``. Read by the errors family (``rules/errors/``) through
:class:`~smullyan.linter.knowledge.Knowledge`, and by ``linter/effects.py`` (what a call does).
"""

from __future__ import annotations

from typing import Final, Mapping


# ---------------------------------------------------------------- TFH402 scope

# TFH402 fires only when the ``try`` body does tool-like work: a call below,
# a call the timeout tables know (``TIMEOUTS``, ``NEEDS_TIMEOUT_SCOPE``, and
# configured ``timeout-required``/``classify`` names), or an ``await``.
# Qualified-name prefixes of modules whose calls reach the outside world.
TOOL_MODULE_PREFIXES: Final[tuple[str, ...]] = (
    "requests.",
    "httpx.",
    "aiohttp.",
    "urllib.request.",
    "urllib3.",
    "http.client.",
    "socket.",
    "ssl.",
    "subprocess.",
    "smtplib.",
    "ftplib.",
    "websocket.",
    "websockets.",
    "redis.",
    "boto3.",
    "botocore.",
    "stripe.",
    "slack_sdk.",
    "sqlite3.",
    "psycopg.",
    "psycopg2.",
    "pymongo.",
    "paramiko.",
    "shutil.",
)
# Exact qualified names of file and process I/O (builtin ``open`` is spelled
# ``open``, as the resolver leaves builtins unqualified).
TOOL_CALLS: Final[frozenset[str]] = frozenset(
    {
        "open",
        "io.open",
        "os.open",
        "os.listdir",
        "os.scandir",
        "os.stat",
        "os.remove",
        "os.unlink",
        "os.rename",
        "os.replace",
        "os.makedirs",
        "os.mkdir",
        "os.rmdir",
        "os.system",
        "os.popen",
        "asyncio.create_subprocess_exec",
        "asyncio.create_subprocess_shell",
        "asyncio.open_connection",
    }
)
# Method names that do I/O whatever the receiver (``Path(p).read_text()``)
# or that send through an SDK client (the spec's send/charge calls).
TOOL_METHODS: Final[frozenset[str]] = frozenset(
    {
        "read_text",
        "read_bytes",
        "write_text",
        "write_bytes",
        "urlopen",
        "sendmail",
        "send_message",
        "send_email",
        "send_raw_email",
        "chat_postMessage",
    }
)
# A method call on a receiver whose name (last dotted part, leading
# underscores stripped, split on ``_``) contains one of these words is a call
# to an outside service (``client.delete(*ids)``, ``self._redis.get(k)``).
TOOL_RECEIVER_WORDS: Final[frozenset[str]] = frozenset(
    {"client", "conn", "connection", "redis", "cursor", "socket", "sock", "websocket", "ws", "s3", "sftp", "ftp", "smtp", "http",
     "db", "database", "store", "repo", "repository", "manager", "cluster", "bucket", "collection",
     "index", "container", "table", "blob"}
)
# TFH402 reports a fallback only after a *remote* read (a network service, a
# database, an RPC): what reaches outside the process but stays on the
# machine is local work, whose failure is the documented "nothing there" (no
# config file, not a repository, usage unknown). File I/O and local processes:
# qualified names, their prefixes, and methods whatever the receiver (a
# method of an object built by one of these, ``Popen(...).communicate()``,
# ``sqlite3.connect(p).execute(...)``, is local too).
LOCAL_IO_CALLS: Final[frozenset[str]] = frozenset(
    {"open", "io.open", "os.open", "os.listdir", "os.scandir", "os.stat", "os.remove", "os.unlink", "os.rename",
     "os.replace", "os.makedirs", "os.mkdir", "os.rmdir", "os.system", "os.popen", "os.walk", "os.path",
     "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"}
)
LOCAL_IO_PREFIXES: Final[tuple[str, ...]] = (
    "subprocess.", "asyncio.subprocess.", "shutil.", "sqlite3.", "pathlib.", "os.path.", "glob.", "tempfile.",
    # the Docker daemon is the machine's own (a local socket unless DOCKER_HOST says otherwise): an image or
    # container check reads local state (batches 4-11: 0 true of 4 labelled, nekro's image cache check false)
    "docker.", "aiodocker.",
    # s45 (batch 18): the OS's own secret store (macOS Keychain, Windows Credential Locker, the desktop's Secret
    # Service), keyring's documented purpose: `keyring.get_password(...)` in a `try` whose None reads "no saved
    # credential" asks this machine, not a server (awx's credential_exists; 3 unlabelled of batches 1-17 alike)
    "keyring.",
)
LOCAL_IO_METHODS: Final[frozenset[str]] = frozenset(
    {"read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "rglob", "is_file", "is_dir"}
)
# s48 (batch 20): a socket that stays on this machine is no remote read (``rules/errors/local_socket.py``): a
# Unix-domain socket (a path on this machine: a local daemon), or one whose every method the function calls is
# local-side: bound and asked its port, never connected (henosis' port picker, `s.bind((host, 0))`), or a
# datagram socket connected and never sent on (below).
LOCAL_SOCKET_FAMILIES: Final[frozenset[str]] = frozenset({"AF_UNIX"})
LOCAL_SOCKET_METHODS: Final[frozenset[str]] = frozenset(
    {"bind", "listen", "setsockopt", "getsockopt", "getsockname", "close", "settimeout", "setblocking", "fileno",
     "detach", "shutdown"}
)
# A datagram socket's ``connect`` sends nothing (it sets the default peer; the kernel picks the route): asked its
# own address after it, it answers "this machine's address" (inspect-ai's get_machine_ip, `s.connect(("8.8.8.8",
# 80)); s.getsockname()[0]`). A ``send``/``recv`` on it stays a network read.
LOCAL_DATAGRAM_SOCKET_TYPES: Final[frozenset[str]] = frozenset({"SOCK_DGRAM"})
LOCAL_DATAGRAM_SOCKET_METHODS: Final[frozenset[str]] = frozenset({"connect"})
# s48: a ``None`` every caller in the module reads as a failure (``rules/errors/none_callers.py``): on the branch
# the caller takes when the result is ``None`` (or falsy), a raise, a logging call at one of these levels, a call
# whose name has one of these parts (``_error_result(...)``, ``self._fail(...)``), or a text with one of these
# words (``"Error: could not read the balance"``).
FAILURE_LOG_LEVELS: Final[frozenset[str]] = frozenset({"warning", "warn", "error", "exception", "critical", "fatal"})
FAILURE_CALL_NAME_PARTS: Final[tuple[str, ...]] = ("error", "fail")
FAILURE_TEXT_WORDS: Final[tuple[str, ...]] = (
    "error", "errors", "failed", "fail", "fails", "failure", "unable", "could not", "couldn't", "cannot", "can't",
    "unavailable",
)
# An object opened on a filesystem path is local I/O whatever its class is
# named (``AuthProfileStore(AUTH_PROFILES_PATH).read_profile()``: a store of
# a local file): a constructor whose every argument is a name (or attribute)
# whose last ``_``-separated word is one of these, or a ``pathlib.Path``.
LOCAL_PATH_ARGUMENT_WORDS: Final[frozenset[str]] = frozenset(
    {"path", "file", "filename", "filepath", "dir", "directory", "folder"}
)
# A method of an object built from (or annotated with) a third-party class
# whose name has one of these words is a remote read (``Pinecone().Index(...)``,
# ``container: docker.models.containers.Container``, ``qdrant_client.QdrantClient``).
# A third-party object of any other class (a converter, a parser, a document)
# is not evidence of a remote read by itself.
CLIENT_CLASS_WORDS: Final[frozenset[str]] = frozenset(
    {"client", "connection", "conn", "session", "index", "collection", "container", "bucket", "table",
     "database", "db", "cluster", "cursor", "engine", "driver", "channel", "stub", "api", "service", "pool",
     "store", "repository", "queue", "topic", "blob", "namespace"}
)
# Remote clients whose class names carry none of the words above, by qualified name: a method of
# one, or of an API namespace under one (``es.indices.get(index=...)``, ``es.cluster.health()``), is
# a remote read, where the object is built or annotated (``self._es = es`` with ``es: AsyncElasticsearch``).
REMOTE_CLIENT_CLASSES: Final[frozenset[str]] = frozenset(
    {"elasticsearch.Elasticsearch", "elasticsearch.AsyncElasticsearch", "opensearchpy.OpenSearch",
     "opensearchpy.AsyncOpenSearch", "redis.StrictRedis", "redis.asyncio.Redis", "redis.asyncio.StrictRedis"}
)
# Stores embedded in the process or opened on local disk (s45, issue 24): an object one of these builds
# (``self.db = lancedb.connect("./data")``, ``async with aiosqlite.connect(path) as db``, ``Repo(root)``), and
# what it is asked later (``self.table = self.db.open_table(t)``; ``self.table.count_rows()``), is local work
# whatever the receiver is named (``db``, ``table``, ``collection``, ``repo``). Each: the keyword that names its
# location (the first positional argument too), the location prefixes that make it remote (LanceDB Cloud's
# ``db://``, an object store, MotherDuck's ``md:``), and the methods that still leave the machine (``fetch``).
# With remote prefixes, a location must show it is local: a literal without one, a name whose last word is a
# path word (``LOCAL_PATH_ARGUMENT_WORDS``), ``pathlib.Path``/``os.path`` (batches 1-17: logicore's LanceDB,
# academic-research-mcp's SQLite, gitdirector's repository, read false).
_OBJECT_STORES: Final[tuple[str, ...]] = ("s3://", "gs://", "gcs://", "az://", "abfs://", "http://", "https://")
_GIT_NETWORK: Final[frozenset[str]] = frozenset({"fetch", "pull", "push", "ls_remote", "clone_from", "clone"})
EMBEDDED_STORES: Final[Mapping[str, tuple[str, tuple[str, ...], frozenset[str]]]] = {
    "sqlite3.connect": ("database", (), frozenset()),
    "aiosqlite.connect": ("database", (), frozenset()),
    "duckdb.connect": ("database", ("md:", "motherduck:", *_OBJECT_STORES), frozenset()),
    "lancedb.connect": ("uri", ("db://", *_OBJECT_STORES), frozenset()),
    "lancedb.connect_async": ("uri", ("db://", *_OBJECT_STORES), frozenset()),
    "chromadb.PersistentClient": ("path", (), frozenset()),
    "chromadb.EphemeralClient": ("settings", (), frozenset()),
    "faiss.read_index": ("fname", (), frozenset()),
    "git.Repo": ("path", (), _GIT_NETWORK),
    "git.Repo.init": ("path", (), _GIT_NETWORK),
    "tinydb.TinyDB": ("path", (), frozenset()),
    "shelve.open": ("filename", (), frozenset()),
    "dbm.open": ("file", (), frozenset()),
}
# The classes of such stores' objects that are always local (a function annotated to return one, ``def get_db() ->
# sqlite3.Connection``, or a parameter annotated so): LanceDB's and DuckDB's connections are not here, they may be remote.
EMBEDDED_STORE_CLASSES: Final[frozenset[str]] = frozenset(
    {"sqlite3.Connection", "sqlite3.Cursor", "aiosqlite.Connection", "aiosqlite.Cursor", "git.Repo", "git.repo.base.Repo"}
)
# Receivers that name a remote API for TFH402 beyond ``TOOL_RECEIVER_WORDS``
# (``self.api.runs.cancel(id)``, ``self._rpc.call(...)``).
REMOTE_RECEIVER_WORDS: Final[frozenset[str]] = frozenset({"api", "sdk", "rpc", "grpc", "stub", "remote"})
# TFH402's receiver evidence of a remote read: the words above, less those that name no place
# (``manager``: a termination manager of a simulator, a tokenizer's artifact manager, a context
# manager are in the process as often as a remote service's; on batch 6 all three such findings
# were in-process or local reads, and no labelled true finding of batches 1-6 needed the word).
REMOTE_READ_RECEIVER_WORDS: Final[frozenset[str]] = (TOOL_RECEIVER_WORDS | REMOTE_RECEIVER_WORDS) - {"manager"}
# An argument that is a URL (its name, keyword or literal): a third-party
# call handed one fetches it (``arxiv_to_text(pdf_url)``).
URL_ARGUMENT_WORDS: Final[frozenset[str]] = frozenset({"url", "uri", "urls", "endpoint", "href"})
# A URL handed to a call that renders, parses, builds or checks it is read in memory, not fetched
# (``JinjaInterpolation().eval(url_base, config=c)``, ``normalize_url(base_url)``): a URL argument is no
# evidence of a remote read when the callee's last name has one of these words.
URL_IN_MEMORY_VERBS: Final[frozenset[str]] = frozenset(
    {"eval", "render", "format", "parse", "interpolate", "template", "join", "quote", "unquote", "normalize",
     "normalise", "validate", "encode", "decode", "split", "sanitize", "match", "compile", "expand", "substitute",
     "build", "canonicalize", "canonicalise"}
)
# A receiver whose own name ends in one of these words is a value named after a remote thing, not the
# thing: a string, an id or a settings mapping in memory (``connection_string.split(";")``,
# ``self.index_name.lower()``, ``db_config.get("host")``), whatever its other words say. (Batch 9: a
# connection string's ``split`` was read as a call on a connection.)
VALUE_NAME_WORDS: Final[frozenset[str]] = frozenset(
    {"string", "str", "name", "names", "id", "ids", "key", "keys", "text", "url", "uri", "urls", "template",
     "prefix", "suffix", "pattern", "config", "cfg", "settings", "options", "opts", "params", "kwargs", "args",
     "schema", "type", "kind", "version", "label", "labels", "mapping", "defaults"}
)
# A predicate over a remote resource (``has_index``, ``table_exists``,
# ``_check_queue``) whose ``try`` calls a method on a receiver named with one
# of the words above answers "absent" for an outage: reported, unless the
# predicate's whole point is reachability (the names below: a ping whose
# False means "not reachable" is the answer).
REACHABILITY_NAME_PARTS: Final[tuple[str, ...]] = (
    "ping", "alive", "health", "connected", "reachable", "available", "can_connect", "is_up", "is_ready",
    "check_connection", "test_connection", "verify_connection",
)
# A transport's base error: every failure of the library's call (connection, timeout, protocol; with ``httpx``,
# ``requests`` and ``aiohttp`` also a raised status error), caught in place of ``Exception`` (s46, issue 24). TFH402 counts
# such a handler as broad only where it hands back an empty collection (``except httpx.HTTPError: return []``): read on
# batches 1-14 those were 9 true, 0 false, 2 debatable (a search or a listing whose outage reads "no matches"), while the
# ``None`` of a fetch helper (``if r.status_code != 200: return None``) was 1 true, 5 false, 14 debatable.
TRANSPORT_BASE_ERRORS: Final[frozenset[str]] = frozenset(
    {
        "httpx.HTTPError", "httpx.RequestError", "httpx.TransportError",
        "requests.RequestException", "requests.exceptions.RequestException",
        "aiohttp.ClientError", "aiohttp.client_exceptions.ClientError",
        "urllib.error.URLError",
    }
)
# Probes: a function whose name has one of these parts asks "is a server there?" (a port scan for a
# plugin, a health endpoint, a liveness ping): ``None``/``{}``/``False`` on any error is its answer "no
# server here", by design, whatever value it hands back (batch 10: a Houdini plugin's port probe and its
# ``_query_health`` returned None for "nothing on this port").
PROBE_NAME_PARTS: Final[tuple[str, ...]] = ("probe", "health", "heartbeat", "ping", "alive", "liveness", "readiness")
# Writes that create or send (an upload, a post, a save): a failure handed back as ``None``/``False`` reads
# "it did not happen", never "there is nothing", so it is not TFH402's "nothing there" (batch 10: an upload
# that returns None for "not uploaded", an offload to a file that returns False). By the function's name; s47: a
# ``False`` after a ``try`` whose only calls out are writes (a delete, a cancel) is a status too, by the calls
# (``rules/errors/write_flag.py``), unless the contract says ``False`` is "not found". ``post``/``put`` stay out of
# this name list: HTTP verbs that as often read (a search or a token endpoint behind a POST).
WRITE_STATUS_VERBS: Final[frozenset[str]] = frozenset(
    {"upload", "send", "create", "save", "write", "publish", "insert", "upsert", "update", "store",
     "add", "submit", "register", "notify", "offload", "persist", "push", "append"}
)
# s47: calls that end a write's transaction (``conn.commit()``): neither a read nor a write of their own, so a ``try``
# of a ``DELETE`` and its ``commit`` still has writes only (``rules/errors/write_flag.py``).
WRITE_FLAG_NEUTRAL_METHODS: Final[frozenset[str]] = frozenset({"commit", "flush", "cursor"})
# Fallbacks that are the design, not a hidden outage: a cache whose None
# means "miss, recompute"; telemetry and device-id helpers whose value only
# feeds a metric; validators of an address or a format. A function (or the
# ``try``'s receiver, for caches) whose name has one of these parts.
BENIGN_FALLBACK_NAME_PARTS: Final[tuple[str, ...]] = (
    "cache", "cached", "telemetry", "metric", "analytics", "tracking", "tracer", "device_id", "machine_id",
    "distinct_id", "anonymous_id", "installation_id", "trace_id", "valid",
    # optional decoration for a person: an update notice, a changelog on a splash screen, a site's favicon;
    # its absence is fine, and nothing downstream reads "nothing there" into it (batches 5, 8, 10)
    "notice", "changelog", "splash", "banner", "announcement", "latest_version", "favicon",
    # a member's or a group's display name for a message: absent, the caller shows the id (batches 6, 10)
    "display_name",
    # a model's context length or window read from its server: absent (None), the caller uses its default
    # (oterm's two lookups, batch 11)
    "context_length", "context_window",
)
# Third-party calls count as tool calls (a document converter, an SDK helper),
# except libraries that only parse or build values in memory.
IN_MEMORY_LIBRARIES: Final[frozenset[str]] = frozenset(
    {"yaml", "orjson", "ujson", "json5", "toml", "tomli", "tomli_w", "dateutil", "packaging", "pydantic",
     "pydantic_core", "typing_extensions", "regex", "jinja2", "markdown", "markdownify", "bs4", "lxml", "numpy",
     "pandas", "PIL", "tiktoken", "jsonschema", "attr", "attrs", "dataclasses_json", "jmespath", "jsonpath_ng",
     "tenacity", "rich", "click", "typer", "tqdm", "docstring_parser", "griffe", "pytz", "tzlocal", "emoji",
     "chardet", "charset_normalizer", "filetype", "magic", "mimetypes", "validators", "email_validator",
     "sqlparse", "sqlglot", "nltk", "spacy", "torch", "transformers", "sklearn", "scipy",
     "psutil", "distro", "cpuinfo", "platformdirs", "appdirs", "importlib_metadata", "importlib_resources",
     "libcst", "parso", "tree_sitter"}
)
# Packages that mix I/O and pure helpers are decided per callable: these
# qualified names work in memory (a token count, a price table, a partial
# JSON parser, the host's own name, botocore's session and its bundled service models), and these methods are pydantic's model
# methods (``Response.model_validate(data)`` on an SDK's model class), in
# memory on any object. Any other call into a third-party package counts as I/O.
PURE_CALLS: Final[frozenset[str]] = frozenset(
    {"jiter.from_json", "socket.gethostname", "socket.getfqdn", "litellm.token_counter", "litellm.cost_per_token",
     "litellm.completion_cost", "litellm.get_model_info", "litellm.get_supported_openai_params",
     "litellm.supports_function_calling", "litellm.get_llm_provider", "litellm.utils.token_counter",
     "litellm.utils.get_model_info", "tokenizers.Tokenizer.from_str", "tokenizers.Tokenizer.from_file",
     # botocore's session object: building it sends nothing, and its service models (``get_service_model``)
     # are JSON files installed with botocore (``xform_name``: CamelCase to snake_case of an operation name);
     # a client the session creates (``create_client("s3")``) still reads remotely
     "botocore.session.get_session", "botocore.xform_name"}
)
PURE_METHODS: Final[frozenset[str]] = frozenset(
    {"model_validate", "model_validate_json", "model_validate_strings", "model_dump", "model_dump_json",
     "model_copy", "model_construct", "parse_obj", "parse_raw", "model_json_schema"}
)
# A response already received: ``r.json()``, ``r.text``, ``r.raise_for_status()``
# on an ``httpx.Response``/``requests.Response`` (a parameter annotated so, or
# what a client's call returned) parse a body in memory; the request that
# could fail was made before the ``try``. (aiohttp's ``ClientResponse`` still
# reads its body from the socket: not listed.)
IN_HAND_RESPONSE_CLASSES: Final[frozenset[str]] = frozenset(
    {"httpx.Response", "httpx._models.Response", "requests.Response", "requests.models.Response"}
)
# Existence checks over a remote store (``bucket_exists``, ``has_collection``,
# ``does_index_exist``): ``return False`` on any exception reads an outage as
# "absent" (the caller creates it again). Reported when the ``try`` reaches
# outside, whatever the receiver's name; a reachability predicate stays silent.
EXISTENCE_NAME_PREFIXES: Final[tuple[str, ...]] = ("has_", "does_", "exists")
EXISTENCE_NAME_SUFFIXES: Final[tuple[str, ...]] = ("_exists", "_exist")
# Predicates: "could not tell" means "no" (``return False`` is the answer).
# A function is a predicate when its name (leading underscores stripped)
# starts with one of these prefixes or is one of the names, or when it is
# annotated ``-> bool`` / every other return is bool-valued and its name is
# not an action below.
PREDICATE_PREFIXES: Final[tuple[str, ...]] = ("is_", "has_", "can_", "should_", "ping", "exists", "check_")
# Action verbs: ``delete() -> bool`` returning False on an outage says
# "nothing deleted", a status, not an answer (no predicate exemption).
ACTION_VERBS: Final[frozenset[str]] = frozenset(
    {
        "delete", "remove", "drop", "send", "post", "put", "create", "update", "upsert", "insert",
        "write", "save", "store", "upload", "publish", "add", "set", "clear", "purge", "execute", "run",
        "cancel", "stop", "kill", "terminate",
    }
)
# Best-effort cleanup: a function with one of these names (leading
# underscores stripped, or any ``_``-separated word of it) may swallow errors.
CLEANUP_FUNCTION_WORDS: Final[frozenset[str]] = frozenset(
    {"close", "aclose", "cleanup", "shutdown", "teardown", "__exit__", "__aexit__", "__del__"}
)
CLEANUP_FUNCTION_NAME_PARTS: Final[tuple[str, ...]] = ("best_effort",)


# ---------------------------------------------------------------- TFH403 scope

# A compensation step: a call whose name (split on ``_`` and camelCase,
# lower-cased) has one of these words. ``cleanup`` is not one: on real code it
# names local teardown (``tempdir.cleanup()``) or text cleaning
# (``_func_cleanup(resp)``), not the undoing of an outside effect.
COMPENSATION_WORDS: Final[frozenset[str]] = frozenset(
    {"compensate", "compensation", "rollback", "undo", "revert", "refund", "cancel", "release", "delete"}
)
# A function named with one of these words is itself a compensation: the
# first call in its swallowed ``try`` is the step (``def rollback(self): ...``).
# ``delete``/``cancel``/``release``/``cleanup`` functions are not enough: their
# first call is as often a lookup or a log line; their steps are found by name.
COMPENSATION_FUNCTION_WORDS: Final[frozenset[str]] = frozenset(
    {"compensate", "compensation", "rollback", "undo", "revert", "refund"}
)
# Functions whose whole job is best-effort cleanup of this object: a failure
# there has nowhere to go (a ``_``-separated word of the name, or the name).
COMPENSATION_EXEMPT_FUNCTIONS: Final[frozenset[str]] = frozenset(
    {"__del__", "__exit__", "__aexit__", "close", "aclose", "shutdown", "teardown", "dispose"}
)
# A tool run: a method below on a receiver whose names (camelCase split, the
# callee that built it included) have a word below (``self._find_plugin(tool)
# .run(tool_input)``, ``tool.invoke(args)``). A tool's failure (a search outage,
# a sub-agent's LLM error) that falls back to "no evidence found" reads to the
# model as the tool's answer (gentopia's ReWOO worker, batch 12's TFH402 miss).
TOOL_RUN_METHODS: Final[frozenset[str]] = frozenset(
    {"run", "arun", "_run", "_arun", "invoke", "ainvoke", "async_invoke", "call", "acall", "execute", "aexecute"}
)
TOOL_RUN_RECEIVER_WORDS: Final[frozenset[str]] = frozenset({"tool", "tools", "plugin", "plugins"})
# A transaction's connection closed on the failure path (the handler, or its
# ``try``'s ``finally``): closing discards the uncommitted work, so a swallowed
# failed rollback of it leaves nothing half-done (memorisdk's
# ``connection_context``: batch 12's one false TFH403).
TRANSACTION_DISCARDING_METHODS: Final[frozenset[str]] = frozenset({"close", "aclose", "dispose"})
# ``task.cancel()``, ``cancel_scope.cancel()``, ``timer.cancel()``, ``lock.release()``:
# in-process cancellation and synchronisation, not the undoing of an outside
# effect. A ``cancel``/``release`` call with no argument, or on a receiver
# with one of these words, is not a compensation step.
LOCAL_CANCEL_METHODS: Final[frozenset[str]] = frozenset({"cancel", "release"})
LOCAL_CANCEL_RECEIVER_WORDS: Final[frozenset[str]] = frozenset(
    {"task", "tasks", "future", "fut", "scope", "timer", "handle", "lock", "rlock", "sem", "semaphore",
     "mutex", "condition", "cond", "event", "watcher", "waiter", "loop", "thread", "group", "tg"}
)
# Exceptions that say "already gone / not held": swallowing them around a
# delete or a release is the idempotent answer, not a hidden failure.
# So are optimistic-concurrency failures (``WatchError``, DynamoDB's
# ``ConditionalCheckFailedException``, a ``...Conflict``): the state changed
# under us, and not deleting is the decision. Matched on the exception's last
# name: exactly, or containing one of the parts.
ALREADY_GONE_ERRORS: Final[frozenset[str]] = frozenset(
    {"FileNotFoundError", "KeyError", "LookupError", "ProcessLookupError", "CancelledError", "WatchError"}
)
ALREADY_GONE_ERROR_PARTS: Final[tuple[str, ...]] = (
    "NotFound", "DoesNotExist", "NoSuch", "Conflict", "ConditionalCheck", "PreconditionFailed"
)
# ``with contextlib.suppress(...)`` swallows like ``except ...: pass``.
SUPPRESSORS: Final[frozenset[str]] = frozenset({"contextlib.suppress"})
