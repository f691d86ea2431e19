"""SDK client classes and what their methods do: the data ``smullyan tools`` classifies a call on a client object by.

A call on an object of one of these classes (built from its constructor, an attribute or parameter annotated with
it, a same-module helper annotated to return it, or the object one of its methods or subscripts gives:
``MongoClient(...)["db"]["coll"]``) is a call out of the process: its methods are listed as reads or writes (with
the write's class, ``knowledge.writes``' four), and the methods that give another client object name that class.
A method not listed is not classified (it stays unknown). Read by ``linter/tools/clients.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Mapping

from .writes import HTTP_CORE_CLIENTS, IDEMPOTENT_WRITE, IRREVERSIBLE, NON_IDEMPOTENT_WRITE, READ_SAFE, TELEGRAM_BOT_API

__all__ = ["HTTP_CLIENTS", "REQUESTS_COMPATIBLE_CLIENTS", "CLIENT_CHAIN_CALLS", "CLIENT_CHAIN_METHODS", "CLIENT_CLASSES", "CLIENT_FUNCTIONS",
           "CLIENT_MODULES", "ClientClass", "CLIENT_SUBSCRIPT",
           "SDK_CLIENT_CLASS_SUFFIXES", "SDK_CLIENT_CLASSES", "SDK_CLIENT_CONSTRUCTORS", "SDK_LOCAL_CLIENTS", "SDK_LOCAL_METHODS"]

#: the key of :attr:`ClientClass.gives` for ``obj[name]`` (``client["db"]``: a database)
CLIENT_SUBSCRIPT: Final[str] = "[]"


@dataclass(frozen=True)
class ClientClass:
    """What an SDK client class's methods do."""

    short: str  # how a row names it: "AdminClient"
    methods: Mapping[str, str]  # method -> one of the four classes
    gives: Mapping[str, str] = field(default_factory=dict)  # method (or CLIENT_SUBSCRIPT) -> the client class it returns
    # a remote-procedure proxy: every method not listed is a procedure on the server (a call out, its class unknown:
    # what ``execute_kw(model, method, ...)`` does depends on its arguments)
    any_method: bool = False
    # methods that reach outside but whose class the arguments decide (a socket's ``sendall``: what the bytes ask
    # the other end to do): listed as calls out, unclassified
    sends: frozenset[str] = frozenset()


def _reads(*names: str) -> dict[str, str]:
    return {n: READ_SAFE for n in names}


_TELEGRAM = ClientClass("TelegramClient", {
    **_reads("start", "connect", "get_me", "get_entity", "get_input_entity", "get_messages", "iter_messages",
             "get_dialogs", "iter_dialogs", "get_participants", "iter_participants", "download_media",
             "download_profile_photo", "is_user_authorized"),
    "send_message": NON_IDEMPOTENT_WRITE, "send_file": NON_IDEMPOTENT_WRITE, "forward_messages": NON_IDEMPOTENT_WRITE,
    "edit_message": IDEMPOTENT_WRITE, "delete_messages": IRREVERSIBLE,
})

_KAFKA_ADMIN = ClientClass("AdminClient", {
    **_reads("list_topics", "list_groups", "describe_configs", "list_consumer_groups", "describe_consumer_groups",
             "list_consumer_group_offsets", "describe_cluster", "describe_topics", "describe_acls", "list_offsets"),
    "create_topics": NON_IDEMPOTENT_WRITE, "create_partitions": NON_IDEMPOTENT_WRITE,
    "alter_configs": IDEMPOTENT_WRITE, "incremental_alter_configs": IDEMPOTENT_WRITE,
    "delete_topics": IRREVERSIBLE, "delete_consumer_groups": IRREVERSIBLE, "delete_records": IRREVERSIBLE,
})

_KAFKA_PRODUCER = ClientClass("Producer", {"produce": NON_IDEMPOTENT_WRITE, **_reads("list_topics")})

_MONGO_CLIENT = ClientClass("MongoClient", {**_reads("list_database_names", "server_info"),
                                            "drop_database": IRREVERSIBLE},
                            {CLIENT_SUBSCRIPT: "pymongo.database.Database", "get_database": "pymongo.database.Database",
                             "get_default_database": "pymongo.database.Database"})

_MONGO_DATABASE = ClientClass("Database", {**_reads("list_collection_names", "list_collections", "command"),
                                           "create_collection": NON_IDEMPOTENT_WRITE, "drop_collection": IRREVERSIBLE},
                              {CLIENT_SUBSCRIPT: "pymongo.collection.Collection",
                               "get_collection": "pymongo.collection.Collection"})

_MONGO_COLLECTION = ClientClass("Collection", {
    **_reads("find", "find_one", "aggregate", "count_documents", "estimated_document_count", "distinct",
             "list_indexes", "index_information"),
    "insert_one": NON_IDEMPOTENT_WRITE, "insert_many": NON_IDEMPOTENT_WRITE, "find_one_and_update": NON_IDEMPOTENT_WRITE,
    "update_one": IDEMPOTENT_WRITE, "update_many": IDEMPOTENT_WRITE, "replace_one": IDEMPOTENT_WRITE,
    "create_index": IDEMPOTENT_WRITE,
    "delete_one": IRREVERSIBLE, "delete_many": IRREVERSIBLE, "find_one_and_delete": IRREVERSIBLE, "drop": IRREVERSIBLE,
})

_WEB_ELEMENT = "selenium.webdriver.remote.webelement.WebElement"
_WEBDRIVER = ClientClass("WebDriver", {
    # finding an element is not listed as a read: the tool that finds one usually clicks or types into it next
    **_reads("get", "get_screenshot_as_png", "get_screenshot_as_base64",
             "save_screenshot", "get_cookies", "back", "forward", "refresh"),
    "execute_script": NON_IDEMPOTENT_WRITE,
}, {"find_element": _WEB_ELEMENT})

_ELEMENT = ClientClass("WebElement", {
    **_reads("get_attribute", "get_property", "is_displayed", "is_enabled",
             "is_selected", "screenshot"),
    # an effect on a page: a click or key press may submit a form, follow a link, place an order
    "click": NON_IDEMPOTENT_WRITE, "send_keys": NON_IDEMPOTENT_WRITE, "submit": NON_IDEMPOTENT_WRITE,
    "clear": IDEMPOTENT_WRITE,
}, {"find_element": _WEB_ELEMENT})

_REDIS = ClientClass("Redis", {
    **_reads("get", "mget", "hget", "hgetall", "keys", "scan", "exists", "ttl", "lrange", "smembers", "zrange", "ping"),
    "set": IDEMPOTENT_WRITE, "hset": IDEMPOTENT_WRITE, "expire": IDEMPOTENT_WRITE, "delete": IDEMPOTENT_WRITE,
    "incr": NON_IDEMPOTENT_WRITE, "lpush": NON_IDEMPOTENT_WRITE, "rpush": NON_IDEMPOTENT_WRITE,
    "publish": NON_IDEMPOTENT_WRITE, "xadd": NON_IDEMPOTENT_WRITE,
})

# mlflow's tracking client (mlflow/tracking/client.py): each method one request to the tracking server's REST API
_MLFLOW = ClientClass("MlflowClient", {
    **_reads("get_run", "get_parent_run", "get_metric_history", "list_artifacts", "download_artifacts",
             "get_experiment", "get_experiment_by_name", "search_experiments", "search_runs", "get_registered_model",
             "search_registered_models", "get_model_version", "get_model_version_by_alias", "get_latest_versions",
             "search_model_versions", "get_logged_model", "search_logged_models", "get_trace", "search_traces"),
    **{m: IDEMPOTENT_WRITE for m in ("set_tag", "set_experiment_tag", "set_registered_model_tag",
                                     "set_registered_model_alias", "set_model_version_tag", "update_model_version",
                                     "update_registered_model", "rename_registered_model", "rename_experiment",
                                     "transition_model_version_stage", "log_param", "set_terminated",
                                     "restore_experiment", "restore_run")},
    **{m: NON_IDEMPOTENT_WRITE for m in ("create_run", "create_experiment", "create_registered_model",
                                         "create_model_version", "copy_model_version", "log_metric", "log_batch",
                                         "log_artifact", "log_artifacts", "log_dict", "log_text")},
    **{m: IRREVERSIBLE for m in ("delete_run", "delete_experiment", "delete_registered_model", "delete_model_version",
                                 "delete_registered_model_alias", "delete_tag", "delete_experiment_tag",
                                 "delete_registered_model_tag", "delete_model_version_tag")},
})

# slack_sdk's Web API client (slack_sdk/web/client.py, async_client.py): one method per Web API method
_SLACK = ClientClass("WebClient", {
    **_reads("auth_test", "conversations_info", "conversations_list", "conversations_members", "conversations_history",
             "conversations_replies", "users_info", "users_list", "users_lookupByEmail", "users_conversations",
             "users_getPresence", "users_profile_get", "team_info", "search_messages", "search_all", "files_info",
             "files_list", "channels_info", "bots_info", "reactions_get", "pins_list"),
    **{m: IDEMPOTENT_WRITE for m in ("chat_update", "conversations_open", "conversations_setTopic",
                                     "conversations_setPurpose", "conversations_rename", "conversations_archive",
                                     "conversations_invite", "conversations_join", "conversations_leave",
                                     "users_profile_set", "pins_add", "pins_remove")},
    **{m: NON_IDEMPOTENT_WRITE for m in ("chat_postMessage", "chat_postEphemeral", "chat_scheduleMessage",
                                         "chat_meMessage", "conversations_create", "files_upload", "files_upload_v2",
                                         "reactions_add")},
    **{m: IRREVERSIBLE for m in ("chat_delete", "files_delete", "chat_deleteScheduledMessage")},
})

# the standard library's XML-RPC proxy (xmlrpc/client.py ``ServerProxy.__getattr__``): each attribute is a remote
# procedure (Odoo's ``execute_kw``, Supervisor's ``getProcessInfo``); its timeout is its transport's
_XMLRPC = ClientClass("ServerProxy", {}, any_method=True)

# a stream socket (socket.py ``socket.socket``; asyncio's are other objects): a project's own protocol over it (a
# Remote Script's JSON commands, a game engine's port); ``settimeout``/``close`` are local and ``connect`` the setup
# (a failed one is its caller's reconnect, ``return False``): not listed
_SOCKET = ClientClass("socket", {}, sends=frozenset({"send", "sendall", "sendto", "recv", "recv_into",
                                                      "recvfrom", "makefile"}))
# pynng's request/reply and other scalability-protocol sockets (pynng/nng.py ``Socket.send``/``recv``, ``asend``/
# ``arecv``): each a message to the peer, its timeout the socket's ``send_timeout``/``recv_timeout``
_NNG = ClientClass("nng", {}, sends=frozenset({"send", "recv", "asend", "arecv", "dial"}))

# the arxiv package's query (arxiv/__init__.py ``Search.results``: pages through the arXiv API with a default
# ``Client``, 3 s between requests, 3 retries)
_ARXIV_SEARCH = ClientClass("arxiv.Search", _reads("results"))
_ARXIV_CLIENT = ClientClass("arxiv.Client", _reads("results"))

# DuckDuckGo's search client (duckduckgo_search, renamed ddgs: ``DDGS().text(query)``, ``with DDGS() as ddgs:``): every
# method a query to a search engine over HTTP, nothing changed there (s45, batch 17 vaultcat)
_DDGS = ClientClass("DDGS", _reads("text", "images", "news", "videos", "maps", "answers", "suggestions", "translate",
                                   "chat", "books"))

# aiogram's ``Bot`` (aiogram/client/bot.py): each method one Telegram Bot API request (``bot.send_photo(...)``), classed
# by ``writes.TELEGRAM_BOT_API``; any other public method is a request too (unclassified)
_AIOGRAM_BOT = ClientClass("Bot", dict(TELEGRAM_BOT_API), any_method=True)

#: the client classes by qualified name (each spelling a package exports it under)
CLIENT_CLASSES: Final[Mapping[str, ClientClass]] = {
    "telethon.TelegramClient": _TELEGRAM,
    "telethon.sync.TelegramClient": _TELEGRAM,
    "telethon.client.telegramclient.TelegramClient": _TELEGRAM,
    "confluent_kafka.admin.AdminClient": _KAFKA_ADMIN,
    "confluent_kafka.AdminClient": _KAFKA_ADMIN,
    "confluent_kafka.Producer": _KAFKA_PRODUCER,
    "pymongo.MongoClient": _MONGO_CLIENT,
    "pymongo.mongo_client.MongoClient": _MONGO_CLIENT,
    "motor.motor_asyncio.AsyncIOMotorClient": _MONGO_CLIENT,
    "pymongo.database.Database": _MONGO_DATABASE,
    "pymongo.collection.Collection": _MONGO_COLLECTION,
    "selenium.webdriver.Chrome": _WEBDRIVER,
    "selenium.webdriver.Firefox": _WEBDRIVER,
    "selenium.webdriver.Edge": _WEBDRIVER,
    "selenium.webdriver.Safari": _WEBDRIVER,
    "selenium.webdriver.Remote": _WEBDRIVER,
    "selenium.webdriver.remote.webdriver.WebDriver": _WEBDRIVER,
    _WEB_ELEMENT: _ELEMENT,
    "redis.Redis": _REDIS,
    "redis.StrictRedis": _REDIS,
    "redis.asyncio.Redis": _REDIS,
    "xmlrpc.client.ServerProxy": _XMLRPC,
    "socket.socket": _SOCKET,
    **{f"pynng.{c}": _NNG for c in ("Req0", "Rep0", "Pair0", "Pair1", "Pub0", "Sub0", "Push0", "Pull0", "Bus0",
                                     "Surveyor0", "Respondent0")},
    "xmlrpc.client.Server": _XMLRPC,
    "arxiv.Search": _ARXIV_SEARCH,
    **{f"{m}.DDGS": _DDGS for m in ("duckduckgo_search", "duckduckgo_search.duckduckgo_search", "ddgs", "ddgs.ddgs")},
    "duckduckgo_search.AsyncDDGS": _DDGS,
    **{f"{m}.Bot": _AIOGRAM_BOT for m in ("aiogram", "aiogram.client.bot")},
    "arxiv.Client": _ARXIV_CLIENT,
    **{f"{m}.MlflowClient": _MLFLOW for m in ("mlflow", "mlflow.tracking", "mlflow.client", "mlflow.tracking.client")},
    **{f"{m}.{c}": _SLACK for m in ("slack_sdk", "slack_sdk.web", "slack_sdk.web.client", "slack_sdk.web.async_client")
       for c in ("WebClient", "AsyncWebClient")},
}

# mlflow's fluent API (mlflow/tracking/fluent.py, mlflow/__init__.py): module functions on the active run, each a
# request to the tracking server through the same ``MlflowClient`` (``mlflow.set_tags`` -> ``log_batch``). Not listed:
# the run's bookkeeping around what a tool logs (``active_run`` reads the process's run stack, ``start_run``/``end_run``
# open and close the run the logging goes to; a best-effort ``end_run`` in ``try/except: pass`` is no tool failure)
_MLFLOW_FLUENT = ClientClass("mlflow", {
    **_reads("get_run", "search_runs", "search_experiments", "get_experiment", "get_experiment_by_name"),
    **{m: IDEMPOTENT_WRITE for m in ("set_tag", "set_tags", "log_param", "log_params", "set_experiment_tag",
                                     "set_experiment_tags")},
    **{m: NON_IDEMPOTENT_WRITE for m in ("create_experiment", "log_metric", "log_metrics",
                                         "log_artifact", "log_artifacts", "log_dict", "log_text", "log_figure",
                                         "log_image", "log_table", "log_input", "register_model")},
    **{m: IRREVERSIBLE for m in ("delete_run", "delete_experiment", "delete_tag")},
})

#: modules whose functions are calls on a client the module holds (``mlflow.set_tags(...)``): module -> its methods
CLIENT_MODULES: Final[Mapping[str, ClientClass]] = {"mlflow": _MLFLOW_FLUENT}

#: a method ending a chain of calls that sends the request the chain built, in a module importing one of these
#: packages: googleapiclient's discovery resources (``service.users().drafts().send(...).execute()``,
#: googleapiclient/http.py ``HttpRequest.execute``), the service object built by ``build(...)`` out of sight (a
#: property, a helper annotated ``-> Any``); listed as ``<method>().execute``, classed by
#: :data:`CLIENT_CHAIN_METHODS` where the method is a standard one
CLIENT_CHAIN_CALLS: Final[Mapping[str, tuple[str, ...]]] = {"execute": ("googleapiclient",)}

#: the standard methods of a discovery resource and the HTTP method each sends (Google's API design guide: List and
#: Get a GET, ``insert`` a POST, ``update`` a PUT, ``patch`` a PATCH, ``delete`` a DELETE), classed as that HTTP
#: method is (``writes.HTTP_METHOD_CLASSES``): ``youtube.videos().list(...).execute()`` reads; a custom method
#: (``drafts().send``, ``watch``, ``batchModify``) stays unclassified
CLIENT_CHAIN_METHODS: Final[Mapping[str, str]] = {
    "list": READ_SAFE, "get": READ_SAFE, "insert": NON_IDEMPOTENT_WRITE, "update": IDEMPOTENT_WRITE,
    "patch": NON_IDEMPOTENT_WRITE, "delete": IDEMPOTENT_WRITE,
}

#: functions that reach outside and change nothing there: a TCP connect or a name lookup (a reachability probe)
CLIENT_FUNCTIONS: Final[Mapping[str, str]] = {
    "socket.create_connection": READ_SAFE,
    "socket.getaddrinfo": READ_SAFE,
    "socket.gethostbyname": READ_SAFE,
}

#: a third-party package's class whose name ends with one of these (``hcloud.Client``, ``tavily.TavilyClient``,
#: ``arxiv.Client``) builds an SDK client: a method called on its object, or on an API namespace under it
#: (``client.servers.get_by_id(...)``), is a call out of the process, listed unclassified with an unknown timeout
#: (what it does and how long it may wait are the SDK's). Not the standard library's, the run's own, nor a package
#: the timeout tables know (``httpx.Client``: read with its timeout)
SDK_CLIENT_CLASS_SUFFIXES: Final[tuple[str, ...]] = ("Client", "API", "Api")

#: third-party SDK client classes not named like one: read as those above (s46, batch 18). The DevHelm SDK's
#: ``Devhelm(token=...)`` (its resources as attributes: ``client.status_pages.domains.remove(...)``), atlassian-python-api's
#: REST clients (``ServiceDesk(url=...)``, ``Jira``, ``Confluence``, ``Bitbucket``: each method one request)
SDK_CLIENT_CLASSES: Final[frozenset[str]] = frozenset({
    "devhelm.Devhelm",
    # openstacksdk's cloud connection (openstack/connection.py ``Connection(timeout=...)``, ``openstack.connect()``
    # builds one): its services as attributes, each method one or more REST requests (``conn.compute.servers()``)
    "openstack.connection.Connection", "openstack.Connection",
    # python-plexapi's server (``PlexServer(baseurl, token, timeout=30)``): its libraries, items and playlists as
    # objects whose methods each send one or more requests to the Plex server (``plex.library.section(n).refresh()``)
    "plexapi.server.PlexServer",
    # E2B's cloud sandboxes (``SDK_CLIENT_CONSTRUCTORS``)
    *(f"{m}.{c}" for m in ("e2b", "e2b_code_interpreter", "e2b_desktop") for c in ("Sandbox", "AsyncSandbox")),
    *(f"atlassian.{c}" for c in ("Jira", "Confluence", "ServiceDesk", "Bitbucket", "Bamboo", "Crowd", "Xray",
                                 "Insight", "Assets")),
})

#: SDK client classes built by a class method rather than called (``Sandbox.create(...)``): the method's qualified name
#: -> the class, whose object it gives (E2B's cloud sandboxes, ``e2b`` and ``e2b_code_interpreter``: every method of
#: a sandbox, its ``files``/``commands`` namespaces too, is a request to the E2B API or the sandbox's envd; s56, batch
#: 28's e2b-adk and ~20 installed packages of batches 1-28 build one with ``Sandbox.create``/``connect``)
SDK_CLIENT_CONSTRUCTORS: Final[Mapping[str, str]] = {
    f"{m}.{c}.{how}": f"{m}.{c}" for m in ("e2b", "e2b_code_interpreter", "e2b_desktop")
    for c in ("Sandbox", "AsyncSandbox") for how in ("create", "connect")}

#: classes named like a client that stay on the machine: embedded databases in memory or on local disk
SDK_LOCAL_CLIENTS: Final[frozenset[str]] = frozenset({"chromadb.Client", "chromadb.PersistentClient",
                                                      "chromadb.EphemeralClient"})

#: methods of an SDK client object that reach nothing outside (closing it, its context manager)
SDK_LOCAL_METHODS: Final[frozenset[str]] = frozenset({"close", "aclose"})

#: HTTP clients whose API mirrors requests' or httpx's (``Session().post(url, json=...)``, ``request(method, url)``,
#: module functions ``post(url)``): a call on one sends like ``requests``'/``httpx``'s (``knowledge.HTTP_CLIENTS``
#: is ``writes``' table and these). Drop-ins of batch 16's kind (instamcp's curl_cffi ``AsyncSession``, imported
#: from the package's top level; s44): curl_cffi (``curl_cffi.Session``), niquests, requests-cache, hishel (httpx
#: with a cache), primp and rnet (Rust clients with requests' verbs), tls-client, cloudscraper, requests-futures,
#: aiohttp-retry (aiohttp's ``ClientSession`` with retries).
REQUESTS_COMPATIBLE_CLIENTS: Final[frozenset[str]] = frozenset({
    "curl_cffi", "curl_cffi.Session", "curl_cffi.AsyncSession",
    "curl_cffi.requests.session.Session", "curl_cffi.requests.session.AsyncSession",
    "niquests", "niquests.Session", "niquests.AsyncSession", "niquests.sessions.Session",
    "requests_cache.CachedSession", "requests_cache.session.CachedSession",
    "hishel.CacheClient", "hishel.AsyncCacheClient",
    "primp", "primp.Client", "primp.AsyncClient",
    "rnet", "rnet.Client",
    "tls_client.Session", "tls_client.sessions.Session",
    "cloudscraper.CloudScraper",
    "requests_futures.sessions.FuturesSession",
    "aiohttp_retry.RetryClient",
})

#: the HTTP clients a call sends through: ``writes.HTTP_CORE_CLIENTS`` and the drop-ins
HTTP_CLIENTS: Final[frozenset[str]] = HTTP_CORE_CLIENTS | REQUESTS_COMPATIBLE_CLIENTS
