"""Which calls write: the four call classes and the tables that classify a call into one.

The classes (``READ_SAFE`` ... ``IRREVERSIBLE``, ``CLASSES``: also the ``classify`` configuration's
values), HTTP methods and clients and their ``request(method, ...)`` form, POST URLs that only read,
LLM inference modules (not writes), known SDK calls that send or charge, the runtime's classification
decorators, MCP tool hints and idempotency keys. Read by ``linter/effects.py`` (what a call does),
the retry model (``rules/retries/``: TFH101), ``linter/config.py`` (``CLASSES``) and ``linter/tools/``.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Final, Mapping


READ_SAFE: Final[str] = "read-safe"
IDEMPOTENT_WRITE: Final[str] = "idempotent-write"
NON_IDEMPOTENT_WRITE: Final[str] = "non-idempotent-write"
IRREVERSIBLE: Final[str] = "irreversible"


# The classes a retry must not repeat blindly (TFH101), with how a message names them.
WRITE_CLASSES: Final[Mapping[str, str]] = {
    NON_IDEMPOTENT_WRITE: "a non-idempotent write",
    IRREVERSIBLE: "an irreversible call",
}

# HTTP: method name -> class; clients whose methods and ``request(method, ...)`` send.
HTTP_METHOD_CLASSES: Final[Mapping[str, str]] = {
    "get": READ_SAFE,
    "head": READ_SAFE,
    "options": READ_SAFE,
    "put": IDEMPOTENT_WRITE,
    "delete": IDEMPOTENT_WRITE,
    "post": NON_IDEMPOTENT_WRITE,
    "patch": NON_IDEMPOTENT_WRITE,
}
# (``knowledge.HTTP_CLIENTS`` is these and ``clients.REQUESTS_COMPATIBLE_CLIENTS``, the drop-ins)
HTTP_CORE_CLIENTS: Final[frozenset[str]] = frozenset(
    {
        "requests",
        "requests.Session",
        "httpx",
        "httpx.Client",
        "httpx.AsyncClient",
        "aiohttp",
        "aiohttp.ClientSession",
        "urllib3",
        "urllib3.PoolManager",
        "urllib3.HTTPConnectionPool",
        "urllib3.HTTPSConnectionPool",
        "urllib3.poolmanager.PoolManager",
        # curl_cffi's requests-like API (s40, batch 12 scrapling): ``curl_cffi.requests.get/post/request``
        # and its sessions send like requests'
        "curl_cffi.requests",
        "curl_cffi.requests.Session",
        "curl_cffi.requests.AsyncSession",
    }
)
# ``request`` methods taking the HTTP method first (or as ``method=``).
HTTP_REQUEST_METHODS: Final[frozenset[str]] = frozenset({"request", "stream", "urlopen"})
# A POST to a URL whose literal text holds one of these reads (search,
# embeddings, completions, token exchange, GraphQL): read-safe.
READ_POST_URL_PARTS: Final[tuple[str, ...]] = (
    "search", "query", "embed", "completions", "/chat", "generate", "/token", "oauth", "graphql",
    "/v1/messages", "rerank", "classify", "moderations", "/count", "/lookup", "/find", "/list", "/get",
    "fetch", "poll", "/responses", "/predict", "/infer", "/invoke", ":predict", ":generatecontent",
    ":streamgeneratecontent",
    # s45 (batch 17 ``login-token-post``): a login or credential exchange mints a session or a token; sent twice, it
    # mints another, and nothing the caller owns is created or sent twice (as ``/token`` and ``oauth`` above)
    "/login", "/signin", "/sign-in", "/sign_in", "/authenticate", "jwt",
)
# ... and a POST made in a function whose name (leading underscores aside) starts with one of these
# (``async def search(self, query)``, ``def _search()``): a search or model query sent as POST (issue 23).
# Not "complete": ``complete_order``/``complete_checkout`` are writes (a chat completion is caught by
# the LLM-inference tables below, by its module). "validate": a credential or token check sent as POST
# (``_validate_api_key``, an OAuth introspection) answers yes or no and creates nothing (s34, batch 5).
# "load", "fetch", "retrieve", "lookup": a function named for getting something that sends its request
# as POST (``load_app_card`` posting the key it looks up; s35 post, batch 7 read-via-post).
READ_POST_FUNCTION_PREFIXES: Final[tuple[str, ...]] = (
    "search", "embed", "infer", "rerank", "query", "validate", "load", "fetch", "retrieve", "lookup"
)


# LLM inference (issue 23): a POST from an LLM or embeddings integration module (a path part, or the
# file's stem holding ``llm``) creates nothing a retry could duplicate; its cost is money and rate
# limit (TFH103/TFH104), so TFH101 does not read it as a write, whatever its URL is called.
LLM_INFERENCE_MODULE_PARTS: Final[frozenset[str]] = frozenset(
    {"llms", "llm", "chat_models", "embeddings", "language_models", "models", "completions", "rerankers", "inference"}
)
LLM_INFERENCE_STEM_PARTS: Final[tuple[str, ...]] = ("llm", "embedding", "chat_model", "completion", "inference")
# ... and whole words of the file's stem (``lm.py``, ``openai_lm.py``: a language-model module; a word,
# not letters, so ``html.py`` is not one; issue 23, ``inference-post``)
LLM_INFERENCE_STEM_WORDS: Final[frozenset[str]] = frozenset({"lm", "lms"})
# ... and a module named for an LLM vendor (a word of its stem) inside a ``providers`` package
# (``providers/anthropic.py``, ``providers/openai_compat.py``): a model-provider adapter, whose POSTs
# are the vendor's inference calls (s36, batch 9 ``inference-post``). The package part is required:
# a vendor's name alone (``openai_files.py``) may be a module uploading files.
LLM_PROVIDER_PACKAGE_PARTS: Final[frozenset[str]] = frozenset({"providers", "provider", "llm_providers", "model_providers"})
# ... and a module named as a package's shared transport, whatever the package is called, when the package holds a
# module named for an LLM vendor (``lindwyrm/http.py`` beside ``lindwyrm/openai_client.py``): every word of its stem one
# of these. No label of batches 1-16 has a true TFH101 in a package holding a vendor-named module (s44).
LLM_TRANSPORT_STEM_WORDS: Final[frozenset[str]] = frozenset(
    {"http", "https", "httpx", "transport", "transports", "sse", "stream", "streaming", "net", "network", "request",
     "requests", "wire"}
)
LLM_VENDOR_WORDS: Final[frozenset[str]] = frozenset(
    {"openai", "anthropic", "claude", "gemini", "ollama", "mistral", "mistralai", "groq", "cohere", "bedrock",
     "deepseek", "openrouter", "litellm", "vllm", "llamacpp", "fireworks", "together", "cerebras", "perplexity", "xai"}
)


# ... a class deriving from an LLM or embeddings base (``class ApigeeLlm(BaseLlm)``), by the base's last
# name ending in one of these, and a request body with a ``messages`` or ``prompt`` key.
LLM_INFERENCE_BASE_SUFFIXES: Final[tuple[str, ...]] = ("Llm", "LLM", "ChatModel", "Embeddings", "Embedding", "LanguageModel", "Reranker")
LLM_INFERENCE_BODY_KEYS: Final[frozenset[str]] = frozenset({"messages", "prompt", "contents", "input_text"})
# ... and a body holding both of these (``{"model": m, "input": texts}``: an embeddings or responses call; s47).
LLM_INFERENCE_MODEL_INPUT_KEYS: Final[frozenset[str]] = frozenset({"model", "input"})


def llm_inference_module(path: str) -> bool:
    """Whether a module's path names an LLM or embeddings integration (``llms/cohere.py``, ``apigee_llm.py``)."""
    parts = path.replace("\\", "/").split("/")
    stem = parts[-1].rsplit(".", 1)[0].lower()
    return (
        any(p.lower() in LLM_INFERENCE_MODULE_PARTS for p in parts[:-1])
        or any(w in stem for w in LLM_INFERENCE_STEM_PARTS)
        or bool(set(stem.split("_")) & LLM_INFERENCE_STEM_WORDS)
        or (
            any(p.lower() in LLM_PROVIDER_PACKAGE_PARTS for p in parts[:-1])
            and bool(set(stem.split("_")) & LLM_VENDOR_WORDS)
        )
    )


@functools.lru_cache(maxsize=256)
def _vendor_modules(directory: str) -> bool:
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return False
    return any(n.endswith(".py") and bool(set(n[:-3].lower().split("_")) & LLM_VENDOR_WORDS) for n in names)


def llm_provider_package(path: str) -> bool:
    """Whether a module is one of an LLM providers package (``providers/http.py``, ``providers/base.py``): a
    ``providers`` package (``LLM_PROVIDER_PACKAGE_PARTS``) holding a module named for an LLM vendor
    (``providers/anthropic.py``); or the shared transport module (:func:`_transport_module`: ``http.py``,
    ``sse.py``) of any package holding one (lindwyrm's ``http.py`` beside ``openai_client.py``: its ``stream_sse(url,
    headers, body)`` is what the package's Anthropic and OpenAI clients send their completions through; s44, batch
    16 ``inference-post``). Its vendor-free modules are the provider layer's shared transport (a
    ``checked_post(client, url, payload)`` every adapter calls): their POSTs are the vendors' inference calls
    (s43, batch 15 pari-cli ``inference-post``). Read from the file's directory (once per directory), only
    when a retried POST is about to be reported; a path that is not on disk (stdin) is not one."""
    parts = path.replace("\\", "/").split("/")
    if len(parts) < 2:
        return False
    if parts[-2].lower() not in LLM_PROVIDER_PACKAGE_PARTS and not _transport_module(parts[-1]):
        return False
    return _vendor_modules(os.path.dirname(path))


def _transport_module(filename: str) -> bool:
    """A module named as a package's shared HTTP transport (``http.py``, ``_http.py``, ``transport.py``, ``sse.py``:
    ``LLM_TRANSPORT_STEM_WORDS``, every word of its stem one of them)."""
    words = [w for w in filename.rsplit(".", 1)[0].lower().split("_") if w]
    return bool(words) and all(w in LLM_TRANSPORT_STEM_WORDS for w in words)


# Words of a class's name that say it reads (``WebSearchTool``, ``PaperRetriever``, ``MCPBrowseTool``): a POST
# or a remote tool run made in its methods is a query sent as POST, nothing a retry duplicates (s43, batch 15
# arbor ``search-post``, dr-agent ``read-only-mcp-tools``); with any word of ``WRITE_CLASS_WORDS`` it is not one
# (``SearchIndexWriter``, ``SearchUploader``), nor is a class defining a method named for a write (``post``,
# ``create_index``: its first word a non-idempotent or irreversible verb of ``TOOL_NAME_VERBS``). Not "fetcher",
# "scraper", "crawler": an HTTP client by another name (scrapling's ``Fetcher.post``). A base class or mixin whose every subclass in the module is named
# so (dr-agent's ``MCPMixin`` under ``MCPSearchTool`` and ``MCPBrowseTool``) is one too.
READ_CLASS_WORDS: Final[frozenset[str]] = frozenset(
    {"search", "searcher", "retriever", "retrieval", "lookup", "reranker", "browse", "embedder", "embedding", "embeddings"}
)
WRITE_CLASS_WORDS: Final[frozenset[str]] = frozenset(
    {"index", "indexer", "indexing", "ingest", "ingestion", "writer", "uploader", "upload", "sender", "publisher",
     "store", "sink", "create", "add", "send", "post", "submit", "publish", "delete", "remove", "write", "update",
     "insert", "push"}
)

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def identifier_words(name: str) -> list[str]:
    """The lower-cased words of a name, snake or camel case (``MCPSearchTool`` -> mcp, search, tool;
    ``get_best_run`` -> get, best, run)."""
    return [w.lower() for part in re.split(r"[^A-Za-z0-9]+", name) for w in _CAMEL.findall(part)]


# A helper named for signing in (``get_token``, ``_refresh_access_token``, ``authenticate``, ``login``, ``_ensure_auth``):
# the token request it sends before the tool's own request (an OAuth POST, a cached token file) is the session's, not
# the tool's effect; the tools table reads a tool's class and failures without what it reaches only through one
# (s49, batch 21 accelo: ``client.delete(path)`` -> ``_request`` -> ``self._auth.get_token()`` -> refresh POST).
SIGN_IN_WORDS: Final[frozenset[str]] = frozenset(
    {"token", "tokens", "auth", "oauth", "reauth", "login", "relogin", "signin", "authenticate", "reauthenticate",
     "authorize", "authorization", "credentials"})


def signs_in(name: str) -> bool:
    """A function named for signing in (:data:`SIGN_IN_WORDS`): ``get_token``, ``_refresh_oauth``, ``login``."""
    return bool(set(identifier_words(name)) & SIGN_IN_WORDS)


def read_class_name(name: str) -> bool:
    """A class named as a read (``READ_CLASS_WORDS``, none of ``WRITE_CLASS_WORDS``)."""
    words = set(identifier_words(name))
    return bool(words & READ_CLASS_WORDS) and not words & WRITE_CLASS_WORDS


# A telemetry exporter (s46, batches 12 and 18 ``telemetry-export-post``/``siem-event-export``): a class whose name, or a
# base's name as written, has the word ``exporter`` and one of these (``LlmOpsHttpExporter(SpanExporter)``,
# ``SIEMExporter``, ``OTLPLogExporter``). What it POSTs is a record of what happened (spans, logs, metrics, security
# events), delivered at least once by the protocols' design (OTLP exporters retry transient failures); a batch sent
# twice is a duplicated record, not a second effect, so a POST in its methods is no write TFH101 reports. Not
# "event(s)" or "data": an ``EventExporter`` may post to a person's calendar or a CRM.
TELEMETRY_EXPORT_WORDS: Final[frozenset[str]] = frozenset(
    {"span", "spans", "trace", "traces", "tracing", "tracer", "log", "logs", "logging", "metric", "metrics", "telemetry",
     "otel", "otlp", "siem", "audit"}
)


def telemetry_exporter_name(name: str) -> bool:
    """A class name that says it exports telemetry: the word ``exporter`` and one of ``TELEMETRY_EXPORT_WORDS``."""
    words = set(identifier_words(name))
    return "exporter" in words and bool(words & TELEMETRY_EXPORT_WORDS)


# A module named for telemetry (s48, batch 21 ``telemetry-export``: andromity ``telemetry.py``, stcode
# ``core/common/trace.py``): a word of the file's stem. Its POSTs send usage events or spans to a telemetry or trace
# collector, records delivered at least once like an ``...Exporter``'s (above); a record sent twice is a duplicated
# record, not a second effect. Not ``log``/``audit``/``metrics``/``events`` (a module of that name may write a
# person's records).
TELEMETRY_MODULE_WORDS: Final[frozenset[str]] = frozenset(
    {"telemetry", "trace", "traces", "tracing", "tracer", "otel", "otlp", "spans"}
)


def telemetry_module(path: str) -> bool:
    """Whether a module's file name says it sends telemetry (``telemetry.py``, ``trace.py``, ``otel_export.py``)."""
    stem = path.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    return bool(set(stem.split("_")) & TELEMETRY_MODULE_WORDS)


# Known SDK calls that send or charge, by qualified name.
SDK_CALLS: Final[Mapping[str, str]] = {
    "smtplib.SMTP.sendmail": IRREVERSIBLE,
    "smtplib.SMTP.send_message": IRREVERSIBLE,
    "smtplib.SMTP_SSL.sendmail": IRREVERSIBLE,
    "smtplib.SMTP_SSL.send_message": IRREVERSIBLE,
    "smtplib.LMTP.sendmail": IRREVERSIBLE,
    "slack_sdk.WebClient.chat_postMessage": NON_IDEMPOTENT_WRITE,
    "slack_sdk.web.WebClient.chat_postMessage": NON_IDEMPOTENT_WRITE,
    "slack_sdk.web.async_client.AsyncWebClient.chat_postMessage": NON_IDEMPOTENT_WRITE,
    "slack_sdk.AsyncWebClient.chat_postMessage": NON_IDEMPOTENT_WRITE,
    "twilio.rest.Client.messages.create": IRREVERSIBLE,
    "twilio.rest.Client.calls.create": IRREVERSIBLE,
    # queues and counters: an append or an increment repeated is a second entry (issue 23)
    **{
        f"{cls}.{m}": NON_IDEMPOTENT_WRITE
        for cls in ("redis.Redis", "redis.StrictRedis", "redis.asyncio.Redis", "redis.asyncio.StrictRedis")
        for m in ("xadd", "lpush", "rpush", "lpushx", "rpushx", "incr", "incrby", "incrbyfloat", "hincrby", "decr", "decrby", "publish")
    },
    "kafka.KafkaProducer.send": NON_IDEMPOTENT_WRITE,
    "aiokafka.AIOKafkaProducer.send": NON_IDEMPOTENT_WRITE,
    "aiokafka.AIOKafkaProducer.send_and_wait": NON_IDEMPOTENT_WRITE,
    "pika.channel.Channel.basic_publish": NON_IDEMPOTENT_WRITE,
    "google.cloud.pubsub_v1.PublisherClient.publish": NON_IDEMPOTENT_WRITE,
    # a remote tool run: the server's tool may write (create, send, pay); re-sent after a timeout or a
    # dropped connection, it may run twice (issue 23, ``tool-run-resent``)
    **{
        f"{cls}.call_tool": NON_IDEMPOTENT_WRITE
        for cls in ("mcp.ClientSession", "mcp.client.session.ClientSession", "fastmcp.Client", "fastmcp.client.Client")
    },
}
# Qualified-name prefix and last name: ``stripe.Charge.create`` (any resource).
SDK_PREFIX_CALLS: Final[tuple[tuple[str, str, str], ...]] = (
    ("stripe.", "create", NON_IDEMPOTENT_WRITE),
    ("stripe.", "capture", IRREVERSIBLE),
    ("stripe.", "pay", IRREVERSIBLE),
)
# The Telegram Bot API's methods as aiogram's ``Bot`` and python-telegram-bot's ``telegram.Bot`` name them
# (``send_photo``): the verbs say what each does there: a ``send_*``/``forward_*``/``copy_*`` posts a new message (sent
# again, a second message), ``edit_*``/``set_*``/``pin_*``/``ban_*`` set a state, ``delete_*`` removes it, ``get_*``
# reads. (s45, batch 17 aiogram-mcp: the bot is a field of a context object another module builds)
_BOT_API_SENDS = ("send_message", "send_photo", "send_document", "send_voice", "send_video", "send_animation",
                  "send_audio", "send_sticker", "send_video_note", "send_contact", "send_location", "send_poll",
                  "send_media_group", "send_dice", "send_venue", "send_invoice", "forward_message", "forward_messages",
                  "copy_message", "copy_messages", "create_chat_invite_link")
_BOT_API_SETS = ("edit_message_text", "edit_message_caption", "edit_message_media", "edit_message_reply_markup",
                 "set_chat_title", "set_chat_description", "set_chat_photo", "set_my_commands", "set_webhook",
                 "pin_chat_message", "unpin_chat_message", "unpin_all_chat_messages", "ban_chat_member",
                 "unban_chat_member", "restrict_chat_member", "promote_chat_member", "set_message_reaction")
_BOT_API_DELETES = ("delete_message", "delete_messages", "delete_chat_photo", "leave_chat")
_BOT_API_READS = ("get_chat", "get_chat_member", "get_chat_member_count", "get_chat_administrators",
                  "get_user_profile_photos")
TELEGRAM_BOT_API: Final[Mapping[str, str]] = {
    **{m: READ_SAFE for m in _BOT_API_READS}, **{m: NON_IDEMPOTENT_WRITE for m in _BOT_API_SENDS},
    **{m: IDEMPOTENT_WRITE for m in _BOT_API_SETS}, **{m: IRREVERSIBLE for m in _BOT_API_DELETES},
}
# Methods of SDK clients built by factories the resolver cannot follow
# (``boto3.client("ses")``): method name -> (modules the file must import one of, class).
SDK_METHODS: Final[Mapping[str, tuple[tuple[str, ...], str]]] = {
    "send_email": (("boto3",), IRREVERSIBLE),
    "send_raw_email": (("boto3",), IRREVERSIBLE),
    "send_templated_email": (("boto3",), IRREVERSIBLE),
    "send_message": (("boto3", "aioboto3", "aiogram", "telegram"), NON_IDEMPOTENT_WRITE),
    "send_message_batch": (("boto3", "aioboto3"), NON_IDEMPOTENT_WRITE),
    # message brokers (s41, issue 23 D3): a publish re-sent after a dropped connection is a second message. The
    # channel, producer or client comes from a factory the resolver does not follow (``connection.channel()``,
    # ``redis.from_url(...)``, ``await nats.connect()``), so the method is read by name in a module importing the
    # broker's package: pika's ``basic_publish``, Kafka's ``produce``/``send``, Redis streams, lists and pub/sub,
    # NATS (and JetStream) ``publish``, SNS/SQS through boto3.
    "publish": (("boto3", "aioboto3", "redis", "nats"), NON_IDEMPOTENT_WRITE),
    "basic_publish": (("pika",), NON_IDEMPOTENT_WRITE),
    "produce": (("confluent_kafka",), NON_IDEMPOTENT_WRITE),
    "send": (("kafka", "aiokafka"), NON_IDEMPOTENT_WRITE),
    "send_and_wait": (("aiokafka",), NON_IDEMPOTENT_WRITE),
    **{m: (("redis",), NON_IDEMPOTENT_WRITE) for m in ("xadd", "lpush", "rpush", "lpushx", "rpushx")},
    "chat_postMessage": (("slack_sdk",), NON_IDEMPOTENT_WRITE),
    # a session handed in: ``session.call_tool(name, args)``; fastmcp's ``Client`` is the same tool run (s39: spoon's
    # ``async with self.get_session() as session`` in a module importing only ``fastmcp``)
    "call_tool": (("mcp", "fastmcp"), NON_IDEMPOTENT_WRITE),
    # a remote shell command (s44, batch 17 imbue-mngr): re-run after a dropped SSH connection (SSHException,
    # EOFError), the command may have run already; paramiko's client and pyinfra's host come from factories
    "exec_command": (("paramiko",), NON_IDEMPOTENT_WRITE),
    "run_shell_command": (("pyinfra",), NON_IDEMPOTENT_WRITE),
    # the Telegram Bot API in a module importing aiogram or python-telegram-bot: the bot object comes from a context
    # another module builds (aiogram-mcp's ``ctx.bot.send_photo(...)``, ``ctx: BotContext`` with ``bot: Bot``)
    **{m: (("aiogram", "telegram"), cls) for m, cls in TELEGRAM_BOT_API.items() if m != "send_message"},
}
# SDK_METHODS names no other package uses: read on any receiver in a module importing the package, also one the
# resolver types as the project's own (imbue-mngr's ``self.connector.host``: a project wrapper's property holding
# pyinfra's ``Host``, its type in another module)
SDK_METHODS_ANY_RECEIVER: Final[frozenset[str]] = frozenset({"exec_command", "run_shell_command"}) | frozenset(
    m for m in TELEGRAM_BOT_API if m != "send_message")  # the bot typed as the project's context field (``ctx.bot``)
# The runtime's classification decorators, read statically.
CLASSIFICATION_DECORATORS: Final[Mapping[str, str]] = {
    f"{m}.{name}": cls
    for m in ("smullyan.runtime", "smullyan.runtime.classification")
    for name, cls in (
        ("read_safe", READ_SAFE),
        ("idempotent_write", IDEMPOTENT_WRITE),
        ("non_idempotent_write", NON_IDEMPOTENT_WRITE),
        ("irreversible", IRREVERSIBLE),
    )
}
# MCP tool annotations (1.x camelCase, 2.x snake_case): hint -> (value, class).
MCP_HINTS: Final[tuple[tuple[str, bool, str], ...]] = (
    ("readOnlyHint", True, READ_SAFE),
    ("read_only_hint", True, READ_SAFE),
    ("destructiveHint", True, IRREVERSIBLE),
    ("destructive_hint", True, IRREVERSIBLE),
    ("idempotentHint", True, IDEMPOTENT_WRITE),
    ("idempotent_hint", True, IDEMPOTENT_WRITE),
    ("idempotentHint", False, NON_IDEMPOTENT_WRITE),
    ("idempotent_hint", False, NON_IDEMPOTENT_WRITE),
)
MCP_TOOL_DECORATOR_METHOD: Final[str] = "tool"
# Spellings of an idempotency key: keyword names and header names, compared
# lower-cased with ``_`` and ``-`` removed.
IDEMPOTENCY_KEYWORDS: Final[frozenset[str]] = frozenset({"idempotencykey"})
IDEMPOTENCY_HEADERS: Final[frozenset[str]] = frozenset({"idempotencykey", "xidempotencykey", "webhookid"})
# Endings of a header naming one delivery of a message (GitHub's ``X-GitHub-Delivery``, a project's
# ``X-Vulnhuntr-Delivery``): the same id on every attempt lets the receiver drop a duplicate, which is
# what an idempotency key does (s39); Standard Webhooks' ``webhook-id`` above is the same id.
IDEMPOTENCY_HEADER_SUFFIXES: Final[tuple[str, ...]] = ("delivery", "deliveryid")


CLASSES: Final[tuple[str, ...]] = (
    "read-safe",
    "idempotent-write",
    "non-idempotent-write",
    "irreversible",
)


# A tool's class by the verb of its name (``smullyan tools``, s39), used only when neither a declaration nor the
# tool's calls decide: a tool reading or writing through an SDK client or a project helper the facts do not follow
# (``get_users_in_conversation``, ``shutdown_guest``, ``create_wallet``). Shown as a guess ("by name"). The verb is
# the name's first word, else its last, else the first word between (``helm_repo_list``, ``tempo_fetch_traces``).
# Not here: verbs whose effect depends on what they act on (``run``, ``execute``, ``call``, ``edit``, ``save``,
# ``write``, ``load``, ``emit``, ``deploy``, ``start``, ``restart``, ``click``): a guess there is worse than ``?``.
TOOL_NAME_VERBS: Final[Mapping[str, str]] = {
    **{v: READ_SAFE for v in ("get", "list", "search", "read", "fetch", "find", "query", "lookup", "describe", "show",
                              "view", "retrieve", "count", "check", "inspect", "browse", "download", "explain",
                              "validate", "verify", "ping", "probe", "status", "stats", "summarize", "analyze",
                              "diff", "preview", "estimate", "ls", "cat", "grep", "head", "tail", "lint")},
    **{v: IDEMPOTENT_WRITE for v in ("set", "update", "put", "rename", "enable", "disable", "modify", "configure",
                                     "assign", "unassign", "move", "archive", "unarchive", "mark", "pin", "unpin",
                                     "resize", "stop", "shutdown", "halt", "cancel", "pause", "resume", "suspend",
                                     "lock", "unlock", "approve", "reject", "close", "reopen", "replace", "upsert",
                                     "patch", "toggle", "attach", "detach", "subscribe", "unsubscribe", "rollback",
                                     # a state the account holds toward an item: set twice, it is set once
                                     "like", "unlike", "block", "unblock", "mute", "unmute", "follow", "unfollow",
                                     "bookmark", "unbookmark", "favorite", "unfavorite", "star", "unstar", "hide",
                                     "unhide")},
    **{v: NON_IDEMPOTENT_WRITE for v in ("create", "add", "send", "post", "upload", "duplicate", "insert", "append",
                                         "submit", "publish", "invite", "reply", "forward", "copy", "clone",
                                         "register", "schedule", "launch", "trigger", "enqueue", "push", "book",
                                         "order", "buy", "transfer", "pay", "mint", "comment", "notify",
                                         "tweet", "provision", "spawn")},
    **{v: IRREVERSIBLE for v in ("delete", "remove", "destroy", "purge", "drop", "erase", "wipe", "revoke",
                                 "terminate")},
}

# s53: verbs ``smullyan tools`` alone reads from a tool's name (a row nothing else classes), not the rules' write verbs
# (TFH402's write flag reads ``TOOL_NAME_VERBS``: a token refresh answering ``False`` stays a read there): done again,
# the same state (a library re-scanned, a snapshot or an archived item restored: plex's ``library_refresh``, vicsia's
# ``restore_agent``, sprites' ``restore_sprite_checkpoint``)
TOOL_ROW_NAME_VERBS: Final[Mapping[str, str]] = {**TOOL_NAME_VERBS, "refresh": IDEMPOTENT_WRITE, "restore": IDEMPOTENT_WRITE}

# Verbs of a write that repeating leaves as it was (a delete, a set or an update by id or name): the tool needs no
# idempotency key however its calls are classed (``delete_model_alias`` declared destructive, s39).
NATURALLY_IDEMPOTENT_VERBS: Final[frozenset[str]] = frozenset(
    {v for v, c in TOOL_ROW_NAME_VERBS.items() if c in (IDEMPOTENT_WRITE, IRREVERSIBLE)} - {"terminate"}
)
