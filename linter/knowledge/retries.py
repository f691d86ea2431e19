"""Retries: the retry libraries and policies, the statuses and exceptions they repeat, and loop budgets.

Retry constructs by qualified name (tenacity, backoff, stamina, urllib3, LangChain, pydantic-ai and
smullyan's own runtime), tenacity's conditions and stops, the HTTP statuses and exception names that
are permanent, rate limits or "every exception", re-prompts, message loops (TFH1xx), and what bounds a
hand-written retry loop (TFH3xx: sleeps, give-up calls, attempt counters, deterministic and
cancellation exceptions, server runs, file contention). Read by the retry model (``rules/retries/``,
through ``kb.X`` and :class:`~smullyan.linter.knowledge.Knowledge`; the TFH1xx/TFH3xx rules read only
that model and ``linter/effects.py``), by ``linter/config.py`` (``retry-decorators``) and ``linter/tools/``.
"""

from __future__ import annotations

from typing import Final, Mapping


# Retry constructs, by qualified name -> kind (see ``retries.Retry.kind``).
RETRY_DECORATORS: Final[Mapping[str, str]] = {
    "tenacity.retry": "tenacity",
    "tenacity.Retrying": "tenacity",
    "tenacity.AsyncRetrying": "tenacity",
    "tenacity.asyncio.AsyncRetrying": "tenacity",
    "tenacity.TornadoRetrying": "tenacity",
    "backoff.on_exception": "backoff",
    "backoff.on_predicate": "backoff",
    "backoff._decorator.on_exception": "backoff",
    "backoff._decorator.on_predicate": "backoff",
    "stamina.retry": "stamina",
    # LangChain's factory of a tenacity retry (error_types=, max_retries=): issue 23
    "langchain_core.language_models.llms.create_base_retry_decorator": "tenacity",
    "langchain_core.language_models.create_base_retry_decorator": "tenacity",
    "langchain.llms.base.create_base_retry_decorator": "tenacity",
}
LANGCHAIN_RETRY_FACTORY_NAME: Final[str] = "create_base_retry_decorator"
# Objects iterated as ``for attempt in X(...): with attempt: ...``.
RETRY_ITERATORS: Final[Mapping[str, str]] = {
    "tenacity.Retrying": "tenacity",
    "tenacity.AsyncRetrying": "tenacity",
    "tenacity.asyncio.AsyncRetrying": "tenacity",
    "stamina.retry_context": "stamina",
}
# smullyan's own runtime: ``tool.terse.retry(...)`` (terse) and ``clock.retrying(...)``.
RUNTIME_RETRY_CALLS: Final[frozenset[str]] = frozenset(
    {f"{m}.retry" for m in ("smullyan.runtime.terse", "smullyan.runtime._terse")}
)
RUNTIME_RETRY_METHOD: Final[str] = "retrying"
# ``for attempt in clock.attempts(...): with attempt: ...`` (the block form; issue 21)
RUNTIME_ATTEMPTS_METHOD: Final[str] = "attempts"
# ``keyed(tool, ...)``: a runtime retry over it repeats one logical call under one key (issue 21)
RUNTIME_KEYED: Final[frozenset[str]] = frozenset({"smullyan.runtime.keyed", "smullyan.runtime._keys.keyed"})
RUNTIME_PREFIX: Final[str] = "smullyan.runtime"
RUNTIME_PIPE: Final[frozenset[str]] = frozenset({"smullyan.runtime.pipe", "smullyan.runtime._tools.pipe"})
RUNTIME_CONDITIONS: Final[frozenset[str]] = frozenset(
    {"smullyan.runtime.retrying_when", "smullyan.runtime._retry.retrying_when"}
)
RUNTIME_DEFAULT_CONDITION: Final[frozenset[str]] = frozenset(
    {"smullyan.runtime.while_transient", "smullyan.runtime._retry.while_transient", "smullyan.runtime.is_retryable"}
)
# Framework policies that retry everything they wrap.
LANGCHAIN_WITH_RETRY_METHOD: Final[str] = "with_retry"
LANGCHAIN_ROOTS: Final[frozenset[str]] = frozenset({"langchain", "langchain_core", "langchain_community", "langgraph"})
TOOL_RETRY_MIDDLEWARE: Final[frozenset[str]] = frozenset(
    {
        "langchain.agents.middleware.ToolRetryMiddleware",
        "langchain.agents.middleware.tool_retry.ToolRetryMiddleware",
    }
)
RETRY_TRANSPORTS: Final[frozenset[str]] = frozenset(
    {
        "pydantic_ai.retries.TenacityTransport",
        "pydantic_ai.retries.AsyncTenacityTransport",
    }
)
URLLIB3_RETRY: Final[frozenset[str]] = frozenset(
    {
        "urllib3.Retry",
        "urllib3.util.Retry",
        "urllib3.util.retry.Retry",
        "requests.adapters.Retry",
        "requests.packages.urllib3.util.retry.Retry",
        "requests.packages.urllib3.Retry",
    }
)
# urllib3's default ``allowed_methods`` (no POST/PATCH).
URLLIB3_DEFAULT_METHODS: Final[frozenset[str]] = frozenset({"DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"})

# tenacity's condition builders -> what they do.
TENACITY_CONDITIONS: Final[Mapping[str, str]] = {
    "retry_if_exception_type": "types",
    "retry_if_exception_cause_type": "types",
    "retry_if_not_exception_type": "not-types",
    "retry_unless_exception_type": "not-types",
    "retry_if_exception": "exception-predicate",
    "retry_if_result": "result-predicate",
    "retry_if_not_result": "not-result-predicate",
    "retry_if_exception_message": "message",
    "retry_if_not_exception_message": "message",
    "retry_any": "any",
    "retry_all": "all",
    "retry_always": "always",
    "retry_never": "never",
}
TENACITY_STOPS: Final[Mapping[str, str]] = {
    "stop_after_attempt": "attempts",
    "stop_after_delay": "seconds",
    "stop_before_delay": "seconds",
    "stop_never": "never",
    "stop_any": "any",
    "stop_all": "all",
    "stop_when_event_set": "event",
}
TENACITY_NO_WAIT: Final[frozenset[str]] = frozenset({"wait_none"})

# The catalogue's permanent failures (TFH102).
PERMANENT_STATUSES: Final[frozenset[int]] = frozenset({400, 401, 403, 404, 405, 409, 410, 422})
SERVER_ERROR_STATUSES: Final[frozenset[int]] = frozenset({500, 502, 503, 504})
RATE_LIMIT_STATUS: Final[int] = 429
# The statuses a literal status test is evaluated on.
SAMPLE_STATUSES: Final[tuple[int, ...]] = (
    200, 201, 204, 301, 304, 400, 401, 403, 404, 405, 408, 409, 410, 413, 422, 425, 429, 499,
    500, 501, 502, 503, 504, 529, 599,
)
PERMANENT_TAGS: Final[frozenset[str]] = frozenset({"InvalidArgs", "Denied", "NotFound"})
# Exception types whose retry repeats the same failure; exact names, so a
# parse failure (``JSONDecodeError``) that a re-asked model may fix is not one.
PERMANENT_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "AttributeError",
        "IndexError",
        "NotImplementedError",
        "PermissionError",
        "openai.BadRequestError",
        "openai.AuthenticationError",
        "openai.PermissionDeniedError",
        "openai.NotFoundError",
        "openai.UnprocessableEntityError",
        "anthropic.BadRequestError",
        "anthropic.AuthenticationError",
        "anthropic.PermissionDeniedError",
        "anthropic.NotFoundError",
        "anthropic.UnprocessableEntityError",
        # s36: click's errors of a command's own use (a bad option, a failed validation): the same
        # arguments fail the same way however often the command is run again
        *(f"{mod}.{name}" for mod in ("click", "click.exceptions") for name in (
            "ClickException", "UsageError", "BadParameter", "MissingParameter", "NoSuchOption",
            "BadOptionUsage", "BadArgumentUsage")),
    }
)
# s37: the status errors an SDK raises itself from its own call (no ``raise_for_status()`` in the
# attempt): a hand loop that catches one and goes round without testing the status retries a 401 or
# a 400 like a 503 (TFH102).
SDK_STATUS_ERROR_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "openai.APIStatusError",
        "openai.APIError",
        "anthropic.APIStatusError",
        "anthropic.APIError",
        # google-api-core's bases of every API error (InvalidArgument, PermissionDenied, NotFound among them)
        "google.api_core.exceptions.GoogleAPIError",
        "google.api_core.exceptions.GoogleAPICallError",
        "googleapiclient.errors.HttpError",
        # mistralai's SDKError, raised for every 4XX/5XX status the SDK does not model (401, 400, 404)
        "mistralai.models.SDKError",
        "mistralai.models.sdkerror.SDKError",
        # s40 (odoo-mcp): the standard library's XML-RPC transport raises ProtocolError for every HTTP error
        # status it gets back (errcode 401/403/404 as 502/503)
        "xmlrpc.client.ProtocolError",
    }
)
# Errors raised for every HTTP error status (``raise_for_status()``): a retry on the type alone
# retries 400/401/403/404 with the 5xx (TFH102), unless a predicate reads the status.
STATUS_ERROR_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "httpx.HTTPStatusError",
        "requests.HTTPError",
        "requests.exceptions.HTTPError",
        "aiohttp.ClientResponseError",
        "aiohttp.client_exceptions.ClientResponseError",
        "urllib.error.HTTPError",
    }
) | SDK_STATUS_ERROR_EXCEPTIONS
EVERY_EXCEPTION: Final[frozenset[str]] = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})
# SDKs that define their exception classes in a private module and re-export every one at the
# top (``openai._exceptions.APIStatusError`` is ``openai.APIStatusError``): a class named through
# the private module is read as the public one (issue 23).
REEXPORTED_EXCEPTION_MODULES: Final[frozenset[str]] = frozenset(
    {"openai._exceptions", "anthropic._exceptions", "httpx._exceptions", "groq._exceptions"}
)
# The builtins a bug raises: a deny-list retry that excludes one of them and a permanent request
# error (a 400, an auth failure) keeps the failures retrying cannot fix out (TFH103).
BUG_EXCEPTIONS: Final[frozenset[str]] = frozenset({"TypeError", "ValueError", "KeyError", "AttributeError", "IndexError"})
# Retries that honour a server's Retry-After on 429 even when 429 is not in
# their status list (urllib3's ``respect_retry_after_header``, on by default).
RETRIES_429_IMPLICITLY: Final[frozenset[str]] = frozenset({"urllib3"})
# A call whose name holds one of these words asks a model or a person again:
# a retry on a parse error there is a re-prompt, not a repeated permanent
# failure (TFH102 reads exception types only when the retried work has none).
REPROMPT_CALL_WORDS: Final[frozenset[str]] = frozenset(
    {
        "llm", "invoke", "ainvoke", "generate", "agenerate", "complete", "acomplete", "completion",
        "completions", "chat", "achat", "predict", "apredict", "input", "prompt", "ask", "run", "arun",
        "step", "astep", "model", "query", "aquery", "create", "acreate", "call", "acall", "parse",
    }
)

# Exception names that say "rate limited" (compared lower-cased, ``_`` removed).
RATE_LIMIT_WORDS: Final[tuple[str, ...]] = ("ratelimit", "toomanyrequests", "throttl")

# Exception names that say "the request is larger than the model's context window" (compared lower-cased, ``_``
# removed): litellm's ``ContextWindowExceededError``, ``ContextLengthExceeded``, a package's own ``ContextFull``.
# The same request fails the same way again; a smaller one is the answer, not a wait (TFH303, s48).
CONTEXT_WINDOW_WORDS: Final[tuple[str, ...]] = (
    "contextwindow", "contextlength", "contextfull", "contextoverflow", "contexttoolong", "contextexceeded",
    "prompttoolong", "toomanytokens", "tokenlimitexceeded",
)


# A message loop (issue 23): a ``while`` whose attempt starts by receiving one message (a websocket
# ``recv()``, a queue ``get()``, a consumer ``poll()``) handles one message per turn; a failure logged
# there is not the same work repeated, so it is no retry (TFH103/TFH302/TFH303). Methods that receive
# whatever their receiver, and methods that receive only on a receiver named like a channel.
MESSAGE_RECEIVE_METHODS: Final[frozenset[str]] = frozenset(
    {
        "recv", "receive", "receive_json", "receive_text", "receive_bytes", "recv_json", "recv_string",
        "recv_multipart", "read_message", "next_message", "get_message", "wait_for_message", "consume",
        "accept", "xread", "xreadgroup", "blpop", "brpop", "brpoplpush", "get_nowait", "listen", "serve_forever",
        "handle_request", "receive_message", "receive_messages", "pull", "__anext__", "anext", "readline",
    }
)
MESSAGE_CHANNEL_METHODS: Final[frozenset[str]] = frozenset({"get", "read", "poll", "next", "fetch", "pop", "wait"})
MESSAGE_CHANNEL_WORDS: Final[tuple[str, ...]] = (
    "queue", "inbox", "mailbox", "consumer", "subscriber", "pubsub", "stream", "socket", "sock", "ws",
    "websocket", "channel", "conn", "pipe", "events", "reader", "receiver", "_q", "input",
)


# ---------------------------------------------------------------- TFH3xx budgets (rules/retries/paths.py)

# A call whose name (last component, lower case) holds one of these waits: the
# path from a retry loop's handler back to its head that calls one is not hot
# (``time.sleep``, ``asyncio.sleep``, an injected ``sleep``, ``self._backoff(n)``,
# ``event.wait(5)``, ``self.delay(attempt)``).
# "respawn": a worker process started again before the re-issue takes the time a wait would
# (issue 23, ``respawn-then-retry``); "reconnect", "restart", "recover": a connection or browser
# re-established before going round (``await self._recover_connection_after_loss()``) is the same (s34)
SLEEP_WORDS: Final[tuple[str, ...]] = (
    "sleep", "wait", "backoff", "back_off", "delay", "pause", "respawn", "reconnect", "restart", "recover"
)
# s35 post (issue 23, attempt-waits): calls that wait on a rate limiter before an attempt: a last name
# starting with one of the verbs and naming a rate limit (``apply_rate_limit``, ``wait_for_rate_limit``,
# ``enforce_ratelimit``), or a bare ``throttle``; ``is_rate_limited()`` / ``check_rate_limit()`` ask, not wait.
RATE_LIMIT_WAIT_VERBS: Final[tuple[str, ...]] = ("apply", "enforce", "wait", "respect", "honor", "honour", "await")
RATE_LIMIT_WAIT_NOUNS: Final[tuple[str, ...]] = ("rate_limit", "ratelimit", "throttl")
# Calls that compute a wait in memory (its jitter, its log line) before the sleep that leads an attempt.
WAIT_COMPUTING_ROOTS: Final[frozenset[str]] = frozenset({"random", "math"})
WAIT_COMPUTING_BUILTINS: Final[frozenset[str]] = frozenset({"min", "max", "round", "int", "float", "abs", "pow"})
# Methods that wait for a local future, thread or process's result with a timeout: a loop that only
# asks again after a timeout waits on it (it re-sends nothing).
LOCAL_RESULT_METHODS: Final[frozenset[str]] = frozenset({"result", "join", "wait", "exception", "communicate"})
# ... and what such a wait raises when its timeout passes (s50: ``subprocess.TimeoutExpired`` of a child's
# ``communicate(timeout=...)``/``wait(timeout=...)``, psutil's of the same name): the tick of the wait, no failure.
LOCAL_RESULT_TIMEOUTS: Final[frozenset[str]] = frozenset({"TimeoutError", "Timeout", "TimeoutExpired"})
# A call whose name (lower case) starts like this gives up (raises or exits):
# it bounds a retry loop as ``raise`` does.
GIVE_UP_CALL_PREFIXES: Final[tuple[str, ...]] = ("raise_", "give_up", "giveup", "fail", "abort", "bail")
# Words in a ``for`` loop's target or ``range`` bound that say it counts attempts.
RETRY_COUNTER_WORDS: Final[tuple[str, ...]] = ("attempt", "retr", "tries", "try")
# Names (word sequences of a variable, attribute, parameter or predicate) by which code says the
# work is safe to repeat: a retry loop that goes round only when such a flag holds (``if attempt == 0
# and retry_safe: continue``, ``if not idempotent or attempt == last: raise``) declares the repeat
# safe (TFH101, issue 23 ``retry-gated-on-idempotency``). A name with a negating word (``non``,
# ``not``: ``is_non_idempotent``) says the opposite and is not one.
IDEMPOTENCY_FLAG_WORDS: Final[tuple[tuple[str, ...], ...]] = (
    ("idempotent",), ("retry", "safe"), ("safe", "to", "retry"), ("replay", "safe"), ("safe", "to", "replay"),
    ("read", "only"), ("readonly",), ("read", "safe"),
)
IDEMPOTENCY_FLAG_NEGATIONS: Final[frozenset[str]] = frozenset({"non", "not", "no", "un", "unsafe", "nonidempotent"})
# Exception types that a re-run fails or fixes at once, not after a wait: a
# retry loop that only catches these (re-asking a model after a parse error)
# needs no backoff (TFH303). Last name, exact, or one of the suffixes.
DETERMINISTIC_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "ValueError", "TypeError", "KeyError", "IndexError", "AttributeError", "AssertionError",
        "JSONDecodeError", "UnicodeDecodeError", "StopIteration", "StopAsyncIteration", "SyntaxError",
        "NotImplementedError", "LookupError", "ValidationError", "OutputParserException",
        "ModelRetry", "UnexpectedModelBehavior", "YAMLError", "ParserError",
        # optimistic concurrency: re-read and retry at once is the documented idiom (redis WATCH); a
        # database constraint violation (a version or key race) is the same: a wait changes nothing
        "WatchError", "FileExistsError", "IntegrityError",
    }
)
# The runtime's retry clauses that bound it (besides ``up_to(n).attempts``): a
# ``retrying(...)`` call without one raises ConfigError when built (TFH301).
RUNTIME_BOUND_CLAUSES: Final[frozenset[str]] = frozenset({"within"})
DETERMINISTIC_EXCEPTION_SUFFIXES: Final[tuple[str, ...]] = (
    "ParseError", "ParsingError", "ParserError", "ValidationError", "DecodeError", "FormatError", "OutputParserException",
    "Conflict", "ConflictError",
)
# ... or a first word: a reply the caller could not read (``MalformedMessageError``: the model's tool
# call did not parse; an agent framework raises it for the next sample to fix, s35)
DETERMINISTIC_EXCEPTION_PREFIXES: Final[tuple[str, ...]] = ("Malformed",)
# A handler catching only these waits through a cancellation; it re-runs nothing.
CANCELLATION_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {"CancelledError", "KeyboardInterrupt", "GeneratorExit", "SystemExit", "Cancelled"}
)
# Timers a benchmark loop reads around each run (last names): a ``for`` that times every round and
# has no success exit repeats measurements, not a failed attempt (issue 23).
BENCHMARK_TIMER_CALLS: Final[frozenset[str]] = frozenset(
    {"perf_counter", "perf_counter_ns", "process_time", "default_timer", "thread_time", "timeit"}
)
# Calls that run a server in the foreground until a person stops it (last names; ``X.run()`` on a
# receiver named like these): a loop restarting it is a supervisor, not a retry (issue 23).
SERVER_RUN_CALLS: Final[frozenset[str]] = frozenset(
    {"serve_forever", "run_forever", "serve", "run_server", "runserver", "start_server", "run_app", "run_simple"}
)
SERVER_RUN_RECEIVERS: Final[frozenset[str]] = frozenset({"app", "server", "uvicorn", "hypercorn", "mcp", "web", "flask_app", "api"})
# Optimistic-concurrency conflicts: raised only because another client committed between this
# client's read and its write (redis ``WATCH``/``MULTI``/``EXEC``, redis-py's ``WatchError``). A loop
# going round on these alone re-reads and tries again, and every conflict means someone else's write
# went through: the system progresses, so it is not an unbounded retry of a failure (TFH302, issue
# 23 ``optimistic-concurrency-watch``). Not ``IntegrityError``: a constraint violation can be
# permanent (a duplicate key the loop sends again), and an unbounded loop on it spins for ever.
OPTIMISTIC_CONFLICT_EXCEPTIONS: Final[frozenset[str]] = frozenset({"WatchError"})
# A handler catching only these waits for a lock another holder has (``os.open(..., O_EXCL)``,
# ``fcntl.flock(..., LOCK_NB)``, filelock): a lock wait, not a failure retried (issue 23).
LOCK_BUSY_EXCEPTIONS: Final[frozenset[str]] = frozenset({"FileExistsError", "BlockingIOError", "Timeout", "LockException", "AlreadyLocked"})
# A non-blocking lock attempt (qualified names): a loop whose ``try`` makes only this call and goes round on
# an ``OSError`` (the lock another process holds: ``msvcrt.locking(fd, LK_NBLCK, 1)``, ``fcntl.flock(fd,
# LOCK_EX | LOCK_NB)``) waits for the lock, as a blocking lock would; nothing failed (s43, batch 15 lingtai
# ``lock-wait``). The handler may catch these (the errors a busy lock raises) and ``LOCK_BUSY_EXCEPTIONS``.
LOCK_ATTEMPT_CALLS: Final[frozenset[str]] = frozenset(
    {"msvcrt.locking", "fcntl.flock", "fcntl.lockf", "portalocker.lock"}
)
LOCK_ATTEMPT_EXCEPTIONS: Final[frozenset[str]] = frozenset({"OSError", "IOError", "PermissionError", "BlockingIOError"})
# A handler that asks a person before going round (s43, batch 15 yougile ``changed-request``): the prompt
# calls (``PERSON_PROMPT_CALLS``), an MCP elicitation (a call whose last name starts with ``elicit``:
# ``ctx.elicit(...)``), or a helper whose name pairs an asking verb with a person or a choice
# (``ask_choice``, ``ask_user``, ``prompt_human``, ``confirm_with_user``). The next attempt carries the
# person's answer: not the same work repeated, and the person ends it. ``ask_llm``/``ask_model`` are not.
PERSON_ASK_VERBS: Final[frozenset[str]] = frozenset({"ask", "prompt", "confirm", "choose", "pick", "elicit"})
PERSON_ASK_NOUNS: Final[frozenset[str]] = frozenset(
    {"user", "human", "person", "operator", "choice", "choices", "selection", "confirmation"}
)
# Message fetches by name (s43, batch 15 lingtai ``poll-not-retry``: WeChat's ``api.get_updates(...)``
# long-poll): a call whose name's first word fetches (``MESSAGE_FETCH_VERBS``) and whose words name a
# batch of messages (``MESSAGE_FETCH_NOUNS``: ``get_updates``, ``getUpdates``, ``fetch_new_messages``,
# ``poll_events``), on any receiver, receives like ``MESSAGE_RECEIVE_METHODS`` do.
MESSAGE_FETCH_VERBS: Final[frozenset[str]] = frozenset({"get", "fetch", "poll", "read", "pull", "receive", "recv", "long"})
MESSAGE_FETCH_NOUNS: Final[frozenset[str]] = frozenset({"updates", "messages", "events", "notifications", "mails", "emails"})
# A project's own exception class named as a request to go round, not as a failure (s42, issue 23
# ``user-requested-resend``): its name's words hold one of RETRY_SIGNAL_WORDS and none of
# RETRY_SIGNAL_FAILURE_WORDS (wizolt's ``ModelRequestRetry``, raised when the person asks to resend the
# in-flight request; pydantic-ai's ``RetryModelRequest``). The code that raises it decided to go round;
# a loop going round only on such signals retries no failure. ``RetryableHTTPError``,
# ``RetryException`` (a failure wrapped as retryable) and a library's ``RetryAfter`` (a rate limit) are
# failures.
RETRY_SIGNAL_WORDS: Final[frozenset[str]] = frozenset({"retry", "resend", "reask", "rerun"})
RETRY_SIGNAL_FAILURE_WORDS: Final[frozenset[str]] = frozenset(
    {"error", "exception", "exc", "failure", "failed", "fail", "timeout", "exhausted", "abandoned", "after", "limit",
     "limited", "retryable", "fault", "unavailable", "busy", "throttled", "expired", "lost", "dropped", "closed"}
)
# Builtins that reach outside the process (files, the person, code): a retried work of other
# builtins only (``tuple(dir(module))`` retried on "dictionary changed size") works in memory, and
# no wait between its attempts spares anyone (TFH303; issue 23, ``dict-resize-race``).
IO_BUILTINS: Final[frozenset[str]] = frozenset({"open", "input", "print", "exec", "eval", "compile", "__import__", "breakpoint", "help"})
# Calls that ask the person at the terminal: a loop around one asks again on a bad answer (the person
# ends it); not a retry (s40).
PERSON_PROMPT_CALLS: Final[frozenset[str]] = frozenset({"input", "getpass.getpass", "getpass"})
# Local file operations (qualified names; builtin ``open``): a ``PermissionError`` retried around them
# is a Windows sharing violation (another process, an editor, an antivirus scanner holds the file a
# moment), transient by nature; TFH102 does not read it as permanent there (issue 23, ``windows-file-lock``).
FILE_CONTENTION_CALLS: Final[frozenset[str]] = frozenset(
    {
        "open", "io.open", "os.open", "os.replace", "os.rename", "os.renames", "os.remove", "os.unlink",
        "os.rmdir", "os.removedirs", "os.mkdir", "os.makedirs", "os.chmod", "os.utime", "os.link", "os.symlink",
        "shutil.move", "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.rmtree",
        "tempfile.NamedTemporaryFile", "tempfile.mkstemp", "pathlib.Path",
    }
)
# ... and methods (last name) of a storage object that delete or move a file (``storage.remove(name)``)
FILE_CONTENTION_METHODS: Final[frozenset[str]] = frozenset({"remove", "unlink", "rename", "rmtree", "rmdir"})
# Calls that end the process: a retry loop's handler ending in one leaves the loop for good (s36,
# batch 9 ``exit-in-handler``: ``except Exception as e: print(e); sys.exit(1)`` retries nothing).
PROCESS_EXIT_CALLS: Final[frozenset[str]] = frozenset({"sys.exit", "exit", "quit", "os._exit", "os.abort"})
# Calls that replace the running process (qualified names): they never return when they work, so a loop
# around one leaves on success (the process is gone); only a failure comes back (s53, batch 25 runinfra-cli
# ``execv-never-returns``).
PROCESS_REPLACING_CALLS: Final[frozenset[str]] = frozenset(
    {"os.execv", "os.execve", "os.execvp", "os.execvpe", "os.execl", "os.execle", "os.execlp", "os.execlpe"}
)
# Exceptions that are a step of a protocol, not a failure (qualified names): a non-blocking TLS object on a
# memory BIO asking for more bytes (``SSLWantReadError``/``SSLWantWriteError``), a non-blocking call that
# would block (``BlockingIOError``, anyio's ``WouldBlock``, zmq's ``Again``), an in-process queue full or
# empty (``asyncio.QueueFull``/``QueueEmpty``, ``queue.Full``/``queue.Empty``). A loop going round on these
# alone drives a state machine or drains a queue; it re-sends nothing that failed (s53, batch 25 rmote
# ``nonblocking-tls-handshake-state-machine``, clauster ``local-queue-drain``). Also (s56) a system call a signal
# interrupted (``InterruptedError``, EINTR: ``while True: try: fcntl.flock(fd, LOCK_EX) except InterruptedError:
# continue``): the kernel asks for the call again, nothing failed (PEP 475 restarts most such calls itself; batch 27
# deepseek-team's flock, batch 28 hpc-sandbox's ``os.waitpid``).
PROTOCOL_STEP_EXCEPTIONS: Final[frozenset[str]] = frozenset({
    "InterruptedError", "builtins.InterruptedError",
    "ssl.SSLWantReadError", "ssl.SSLWantWriteError", "BlockingIOError", "builtins.BlockingIOError",
    "anyio.WouldBlock", "zmq.Again", "zmq.error.Again",
    "asyncio.QueueFull", "asyncio.QueueEmpty", "asyncio.queues.QueueFull", "asyncio.queues.QueueEmpty",
    "queue.Full", "queue.Empty", "multiprocessing.queues.Full", "multiprocessing.queues.Empty",
})
# Calls (last name, lower case, prefix) that only log: a message names the retried call, not these.
LOGGING_CALL_PREFIXES: Final[tuple[str, ...]] = ("log", "print", "debug", "info", "warn", "error", "exception", "critical")
# Words (of a call's last name split on ``_``) that say the call reports, not repairs (s36, issue 23): a
# project's own log helper (``abi_logging(f"... {e}")``, ``emit_event(...)``, ``notify_user(...)``) handed
# the error's text is no step that changes the next attempt, even when the attempt calls it too.
REPORTING_CALL_WORDS: Final[frozenset[str]] = frozenset(
    {"log", "logs", "logging", "logger", "print", "pprint", "echo", "emit", "notify", "notification", "trace",
     "tracing", "report", "alert", "warn", "warning", "debug", "telemetry", "metric", "metrics", "audit"}
)
# Exceptions a client raises only when its call was given a timeout (issue 23, ``condition-never-raised``):
# requests hands ``timeout=None`` to urllib3 as "block forever" (the socket module's default timeout does
# not apply), so an untimed ``requests.post(...)`` never raises its ``Timeout`` and ``except
# requests.Timeout: continue`` around it never runs: nothing is retried (the untimed call is TFH201's).
# The value: the calls of that client that time out only when passed ``timeout=`` (a ``Session``'s
# calls are left out: a mounted adapter may give them a default). httpx (5 s) and aiohttp (5 min)
# time out by default, so their timeout exceptions are not here: a handler of theirs can always run.
_REQUESTS_UNTIMED: Final[frozenset[str]] = frozenset(
    f"requests.{m}" for m in ("request", "get", "post", "put", "patch", "delete", "head", "options")
)
TIMEOUT_ONLY_EXCEPTIONS: Final[Mapping[str, frozenset[str]]] = {
    f"requests{sub}.{cls}": _REQUESTS_UNTIMED
    for sub in ("", ".exceptions")
    for cls in ("Timeout", "ReadTimeout", "ConnectTimeout")
}
# Standard-library modules whose functions run a callable or coroutine they are given (a timeout
# raised in it surfaces from the call): a call into any other standard module raises no client's error.
CALLABLE_RUNNING_MODULES: Final[frozenset[str]] = frozenset(
    {"asyncio", "concurrent", "threading", "multiprocessing", "functools", "contextlib", "sched", "atexit",
     "signal", "operator", "itertools", "inspect", "importlib", "runpy", "code", "unittest"}
)
# Builtins that iterate or run what they are given (``next(gen)``, ``list(stream)``): they raise what
# the iterated object raises; any other builtin raises no client's error.
ITERATING_BUILTINS: Final[frozenset[str]] = frozenset(
    {"next", "anext", "iter", "list", "tuple", "set", "frozenset", "dict", "sorted", "sum", "min", "max",
     "any", "all", "map", "filter", "zip", "enumerate", "reversed", "exec", "eval", "__import__", "getattr",
     "callable", "hasattr", "setattr", "delattr", "vars", "dir"}
)
# Calls that return a different value on every call (a clock, a random or unique id): an attempt
# that draws one works on a different input each time (issue 23, ``changed-request``).
FRESH_VALUE_CALLS: Final[frozenset[str]] = frozenset(
    {f"time.{f}" for f in ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns")}
    | {"uuid.uuid1", "uuid.uuid4", "os.urandom", "random.random", "random.getrandbits", "random.randint",
       "secrets.token_hex", "secrets.token_bytes", "secrets.token_urlsafe"}
)
# Standard-library modules that compute in memory (no file, socket, process or person): an attempt
# calling only these and builtins works in the process.
IN_MEMORY_MODULES: Final[frozenset[str]] = frozenset(
    {"heapq", "bisect", "collections", "time", "uuid", "random", "secrets", "math", "json", "re", "copy",
     "string", "dataclasses", "enum", "decimal", "fractions", "statistics", "hashlib", "base64", "struct",
     "array", "datetime"}
)
# Annotations of a builtin value (outer name, last part): a parameter annotated so holds a string, a
# container or a number, whose methods (``index``, ``split``, ``get``) compute in memory (s38).
VALUE_ANNOTATIONS: Final[frozenset[str]] = frozenset(
    {"str", "bytes", "int", "float", "list", "dict", "tuple", "set", "frozenset", "List", "Dict", "Tuple",
     "Set", "FrozenSet", "Sequence", "MutableSequence", "Mapping", "MutableMapping", "AbstractSet"}
)
# Last names of the deadline scopes of anyio and trio (``kb.TIMEOUT_SCOPES``), distinctive enough to read
# through a project's own re-export (``from mypkg.concurrency import fail_after``): an attempt run under
# one waited out its deadline before its TimeoutError (issue 23, ``attempt-waits``; TFH303 only).
DEADLINE_SCOPE_NAMES: Final[frozenset[str]] = frozenset({"fail_after", "fail_at"})
# Exceptions raised before a request was sent: the connection was never made (refused, DNS, a
# connect timeout, a TLS handshake), or (s55) nothing it asked was applied (Redis ``WatchError``). A retry on these only re-sends nothing that arrived, so a write
# retried on them alone is not duplicated (TFH101; issue 23, ``connect-only-retry``). requests'
# ``ConnectionError`` is not here: it also covers a connection reset after the request was sent.
CONNECT_PHASE_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "httpx.ConnectError", "httpx.ConnectTimeout",
        "requests.ConnectTimeout", "requests.exceptions.ConnectTimeout", "requests.exceptions.SSLError",
        "requests.exceptions.ProxyError",
        "aiohttp.ClientConnectorError", "aiohttp.client_exceptions.ClientConnectorError",
        "aiohttp.ConnectionTimeoutError", "aiohttp.client_exceptions.ConnectionTimeoutError",
        "aiohttp.ClientSSLError", "aiohttp.client_exceptions.ClientSSLError",
        "aiohttp.ClientConnectorCertificateError", "aiohttp.ClientConnectorSSLError",
        "urllib3.exceptions.NewConnectionError", "urllib3.exceptions.ConnectTimeoutError",
        "ConnectionRefusedError", "socket.gaierror",
        # s55: a Redis optimistic transaction whose WATCHed key changed: EXEC applied none of its commands
        "redis.exceptions.WatchError", "redis.WatchError",
    }
)
# A pooled keep-alive connection the server closed while it sat idle: the next request on it fails
# before any answer (httpx's "Server disconnected without sending a response"). A fresh connection is
# all the next attempt needs, so a retry on these alone needs no wait (TFH303, s36: ``reconnect-no-wait``).
STALE_CONNECTION_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "httpx.RemoteProtocolError", "httpcore.RemoteProtocolError", "http.client.RemoteDisconnected",
        "aiohttp.ServerDisconnectedError", "aiohttp.client_exceptions.ServerDisconnectedError",
    }
)
# The bases an HTTP client's status error derives from, by the library whose calls raise it (s38,
# issue 23 ``base-catches-status-error``): a hand loop whose attempt raises the status error
# (``raise_for_status()`` on that library's response, or the class built and raised) and whose handler
# catches the base (``except aiohttp.ClientError``) retries a 400/401/403/404 like a 503 (TFH102).
STATUS_ERROR_BASES: Final[dict[str, str]] = {
    "aiohttp.ClientError": "aiohttp",
    "aiohttp.client_exceptions.ClientError": "aiohttp",
    "requests.RequestException": "requests",
    "requests.exceptions.RequestException": "requests",
    "httpx.HTTPError": "httpx",
}

# The failures worth retrying, by the library the retried work calls (the first dotted name of a call's
# qualified name): TFH103's message names them, so a small bounded retry of `except Exception` says what to
# catch instead (s41, issue 23). Checked in this order; a retry calling none of them gets the fallback.
TRANSIENT_ADVICE: Final[tuple[tuple[str, str], ...]] = (
    ("httpx", "`httpx.TransportError` (timeouts, connection errors) and a 429/5xx status"),
    ("requests", "`requests.ConnectionError`, `requests.Timeout` and a 429/5xx status"),
    ("aiohttp", "`aiohttp.ClientConnectionError`, `asyncio.TimeoutError` and a 429/5xx status"),
    ("openai", "`openai.APIConnectionError`, `openai.APITimeoutError`, `openai.RateLimitError`, `openai.InternalServerError`"),
    ("anthropic", "`anthropic.APIConnectionError`, `anthropic.APITimeoutError`, `anthropic.RateLimitError`, `anthropic.InternalServerError`"),
    ("socket", "`ConnectionError`, `TimeoutError` (the `OSError`s of a dial)"),
    ("websockets", "`ConnectionError`, `TimeoutError`, `websockets.ConnectionClosedError`"),
    ("redis", "`redis.ConnectionError`, `redis.TimeoutError`"),
)
TRANSIENT_ADVICE_DEFAULT: Final[str] = "`ConnectionError`, `TimeoutError`, the client's own timeout and connection errors, 429 and 5xx"

# s47 (issue 23, batch 19): a readiness poll of a server the code started itself. The calls that start a process
# and return while it runs (a child or a daemon the code then waits on), and the hosts that name this machine.
# TFH103 leaves a broad poll alone only when the code started what it polls (``rules/retries/started.py``):
# a loopback address alone is not enough (an Ollama server on ``localhost:11434`` the code did not start is
# a service whose 400, refused model or bad URL waits out the poll like an outage).
BACKGROUND_PROCESS_STARTS: Final[frozenset[str]] = frozenset(
    {"subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
     "asyncio.subprocess.create_subprocess_exec", "asyncio.subprocess.create_subprocess_shell"}
)
LOOPBACK_HOSTS: Final[tuple[str, ...]] = ("localhost", "127.0.0.1", "::1", "0.0.0.0")
# The words of a parameter named for a server's address (``host``, ``ssh_port``, ``base_url``): a poll handed one
# by callers that each start a process first polls what they started (``started.py``, case 3).
ADDRESS_WORDS: Final[frozenset[str]] = frozenset({"host", "hostname", "port", "url", "address", "addr", "endpoint"})
# The words of a call that asks whether a process (or thread) the code holds is still there (``proc.is_running()``,
# ``self._pid_alive(pid)``, ``thread.is_alive()``): a poll that leaves when that call says no watches a process the
# code runs, not a remote service (``started.py``, case 4; s56: batch 25 dulus, batch 27 djaploy).
PROCESS_LIVENESS_WORDS: Final[frozenset[str]] = frozenset({"alive", "running"})
