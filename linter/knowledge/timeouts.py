"""Clients and their timeouts: which calls block, and how each takes its deadline.

How a client object is built and named (``ALIASES``, ``FACTORIES``, ``ENTER_RETURNS_SELF``: read by
``linter/names.py`` and :func:`smullyan.linter.knowledge.canonical`), the calls that take a timeout
and how (``TIMEOUTS``, :class:`TimeoutParam`; configuration's ``timeout-required`` extends it), the
calls that need an outside deadline (``NEEDS_TIMEOUT_SCOPE``, ``NO_TIMEOUT_PARAMETER``), the deadline
scopes and timeout objects, and what to await instead of a blocking call. Read by the timeouts family
(``rules/timeouts/``) through :class:`~smullyan.linter.knowledge.Knowledge`, by TFH402's scope (the calls
the timeout tables know count as tool-like work), ``linter/effects.py`` and ``linter/tools/facts.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Mapping

from .clients import HTTP_CLIENTS


@dataclass(frozen=True, slots=True)
class TimeoutParam:
    """How a call takes its timeout.

    ``keyword``: the parameter name. ``position``: its 0-based positional index
    when it can be passed positionally (``None``: keyword-only or the position
    differs between versions). ``required``: a call without it blocks forever
    (TFH201). ``none_is_infinite``: an explicit ``None`` disables the timeout
    (TFH202). ``default``: a human note for docs and messages. ``advice``:
    what TFH201's message tells the user to do (``{keyword}`` is filled in).
    ``connect_read_tuple``: the call also takes a ``(connect, read)`` tuple,
    and a ``None`` inside it disables that half (TFH202). ``carried_by``:
    keywords that hand over an object already holding the timeout (redis'
    ``connection_pool=``: the pool's connections carry ``socket_timeout``).
    """

    keyword: str = "timeout"
    position: int | None = None
    required: bool = True
    none_is_infinite: bool = True
    default: str = "none: blocks forever"
    advice: str = "pass {keyword}=<seconds> so a hung peer cannot stall the agent"
    connect_read_tuple: bool = False
    carried_by: tuple[str, ...] = ()
    # s52: the call returns an awaitable, so a deadline scope the caller awaits it under (``asyncio.wait_for``,
    # ``async with asyncio.timeout(...)``) bounds it as well as the keyword would (kubernetes_asyncio's API calls)
    scope_bounds: bool = False
    # s52: why TFH201 never writes a default here (a watch's length is the caller's decision), "" when it may
    no_fix: str = ""
    # s52: (keyword, position) of a connection string that may carry the timeout (psycopg2's ``dsn``): a literal
    # one carries it when it names ``keyword``; one the call does not spell may (TFH201 stays silent)
    dsn: tuple[str, int] | None = None


_REQ = TimeoutParam(
    advice="pass {keyword}=(connect, read) seconds so a hung server cannot stall the agent", connect_read_tuple=True
)
_PROCESS = TimeoutParam(advice="pass {keyword}=<seconds> so a hung process cannot stall the agent")
_HTTPX = TimeoutParam(required=False, default="5 seconds")
_AIOHTTP = TimeoutParam(required=False, default="5 minutes total (session default)")

HTTP_METHODS: Final[tuple[str, ...]] = ("get", "post", "put", "patch", "delete", "head", "options")

# LLM SDK clients and the calls that run a generation: a ``timeout=None`` there is usually deliberate
# (a long generation), so TFH202 reports it with no fix (the right bound is the longest generation
# the caller accepts, not a default).
_LLM_SDK = TimeoutParam(required=False, default="10 minutes (the SDK's)")
LLM_SDK_CLIENTS: Final[frozenset[str]] = frozenset(
    {
        "openai.OpenAI", "openai.AsyncOpenAI", "openai.AzureOpenAI", "openai.AsyncAzureOpenAI",
        "anthropic.Anthropic", "anthropic.AsyncAnthropic", "anthropic.AnthropicBedrock",
        "anthropic.AsyncAnthropicBedrock", "anthropic.AnthropicVertex", "anthropic.AsyncAnthropicVertex",
    }
)
LLM_SDK_METHODS: Final[Mapping[str, tuple[str, ...]]] = {
    "openai": ("chat.completions.create", "chat.completions.stream", "completions.create", "embeddings.create",
               "responses.create", "responses.stream", "beta.chat.completions.parse"),
    "anthropic": ("messages.create", "messages.stream", "completions.create", "beta.messages.create"),
}
# Calls that open a stream (TFH202 offers no fix for a None there: the read timeout bounds the
# silence between chunks, and only the author knows how long the stream may idle); besides these,
# any call with ``stream=True`` and any ``.stream(...)`` method.
STREAM_CALLS: Final[frozenset[str]] = frozenset(
    {"websocket.create_connection", "aiohttp.ClientSession.ws_connect", "httpx_sse.connect_sse", "httpx_sse.aconnect_sse"}
)

# Canonical spellings of classes that live in a submodule too.
ALIASES: Final[Mapping[str, str]] = {
    "requests.sessions.Session": "requests.Session",
    "requests.api": "requests",
    "requests.session": "requests.Session",  # factory: requests.session() -> Session
    "requests.sessions.session": "requests.Session",
    "httpx._client.Client": "httpx.Client",
    "httpx._client.AsyncClient": "httpx.AsyncClient",
    "aiohttp.client.ClientSession": "aiohttp.ClientSession",
    "redis.client.Redis": "redis.Redis",
    "redis.StrictRedis": "redis.Redis",
    "redis.client.StrictRedis": "redis.Redis",
    "redis.asyncio.client.Redis": "redis.asyncio.Redis",
    "redis.asyncio.StrictRedis": "redis.asyncio.Redis",
    "redis.asyncio.client.StrictRedis": "redis.asyncio.Redis",
    "redis.asyncio.utils.from_url": "redis.asyncio.from_url",
    "websocket._core.create_connection": "websocket.create_connection",
    "asyncio.subprocess.create_subprocess_exec": "asyncio.create_subprocess_exec",
    "asyncio.subprocess.create_subprocess_shell": "asyncio.create_subprocess_shell",
    "docker.client.DockerClient": "docker.DockerClient",
    "docker.client.from_env": "docker.from_env",
    "docker.models.containers.ContainerCollection": "docker.DockerClient.containers",
    # kubernetes (s52): the watch and the dynamic client, spelled from their submodules
    "kubernetes.watch.watch.Watch": "kubernetes.watch.Watch",
    "kubernetes_asyncio.watch.watch.Watch": "kubernetes_asyncio.watch.Watch",
    "kubernetes.dynamic.client.DynamicClient": "kubernetes.dynamic.DynamicClient",
    "kubernetes.dynamic.resource.Resource": "kubernetes.dynamic.Resource",
    "mysql.connector.pooling.connect": "mysql.connector.connect",
    "psycopg2._psycopg.connect": "psycopg2.connect",
}

# Calls whose result is an instance of a known class (a class's own
# constructor is implied: calling ``requests.Session`` gives a ``requests.Session``).
# Field declarations: a class field ``x: T = PrivateAttr(default_factory=requests.Session)`` holds the
# declaration's default, or what its factory builds (else what the annotation says), never the declaration.
FIELD_DECLARATIONS: Final[frozenset[str]] = frozenset({
    "pydantic.Field", "pydantic.PrivateAttr", "pydantic.fields.Field", "pydantic.fields.PrivateAttr",
    "pydantic.v1.Field", "pydantic.v1.PrivateAttr", "dataclasses.field", "attrs.field", "attr.ib", "attr.attrib",
    "attr.field", "sqlmodel.Field", "msgspec.field",
})
FACTORIES: Final[Mapping[str, str]] = {
    "requests.Session": "requests.Session",
    "requests.session": "requests.Session",
    "asyncio.create_subprocess_exec": "asyncio.subprocess.Process",
    "asyncio.create_subprocess_shell": "asyncio.subprocess.Process",
    "redis.from_url": "redis.Redis",
    "redis.Redis.from_url": "redis.Redis",
    "redis.asyncio.from_url": "redis.asyncio.Redis",
    "redis.asyncio.Redis.from_url": "redis.asyncio.Redis",
    # docker SDK: a client, and the containers it runs or finds
    "docker.from_env": "docker.DockerClient",
    "docker.DockerClient.from_env": "docker.DockerClient",
    **{f"docker.DockerClient.containers.{m}": "docker.models.containers.Container" for m in ("run", "get", "create")},
    # kubernetes' dynamic client (s52): ``dyn.resources.get(api_version=..., kind=...)`` gives the resource its
    # requests are made through (``Resource.__getattr__`` hands ``get``/``create``/... to the client)
    "kubernetes.dynamic.DynamicClient.resources.get": "kubernetes.dynamic.Resource",
}

# Classes whose ``__enter__``/``__aenter__`` returns the instance itself, so
# ``with X(...) as x`` binds an X.
ENTER_RETURNS_SELF: Final[frozenset[str]] = frozenset(
    {
        "requests.Session",
        "httpx.Client",
        "httpx.AsyncClient",
        "aiohttp.ClientSession",
        "smtplib.SMTP",
        "smtplib.SMTP_SSL",
        "smtplib.LMTP",
        "ftplib.FTP",
        "ftplib.FTP_TLS",
        "imaplib.IMAP4",
        "imaplib.IMAP4_SSL",
        "nntplib.NNTP",
        "nntplib.NNTP_SSL",
        "telnetlib.Telnet",
        "subprocess.Popen",
        "http.client.HTTPConnection",
        "http.client.HTTPSConnection",
        "socket.socket",
        "redis.Redis",
        "redis.asyncio.Redis",
    }
) | frozenset(
    q for q in HTTP_CLIENTS if q.rsplit(".", 1)[-1][:1].isupper()  # the drop-in clients' classes (s44)
)


# kubernetes (s52): ``kubernetes.client``'s REST layer hands urllib3 no timeout unless the call gives
# ``_request_timeout`` (rest.py: ``timeout = None``; ``Configuration`` has no request timeout and the pool manager
# is built with none), so a stalled API server hangs the call for ever; kubernetes_asyncio (rest.py, 33.x to
# 36.x) builds ``aiohttp.ClientTimeout()`` with every field None, which disables aiohttp's own default, unless a
# deadline scope bounds the await. ``kubernetes.aio`` (v37+) defaults to 5 minutes (``_request_timeout or 5 * 60``):
# bounded, not listed.
_K8S = TimeoutParam(
    keyword="_request_timeout",
    advice="pass {keyword}=<seconds> or (connect, read): the kubernetes client sets no request timeout, so a "
           "stalled API server hangs the call",
    connect_read_tuple=True,
)
_K8S_ASYNC = replace(_K8S, scope_bounds=True)
_K8S_WATCH_ADVICE = ("pass {keyword}=<seconds> (or _request_timeout=): without it the watch re-issues its request for "
                     "ever and a stalled API server hangs it")
_K8S_WATCH_NO_FIX = "how long a watch may run is the caller's decision: a default would end it before its event"
# s52: keyword values that make an SDK family's call a stream read for as long as it runs (``watch=True``, a log's
# ``follow=True``, ``_preload_content=False``): TFH201 still reports it, with no fix (a default would cut the stream)
API_STREAM_KEYWORDS: Final[Mapping[str, bool]] = {"watch": True, "follow": True, "_preload_content": False}


@dataclass(frozen=True, slots=True)
class ApiFamily:
    """Generated SDK classes whose every public method is one request taking the same timeout keyword.

    Too many methods to list (kubernetes' ``CoreV1Api`` alone has hundreds): a call is matched by where its class
    lives (``modules``: the packages, any submodule) and how the class is named (``class_suffix``), its method by
    the first word of its name (``verbs``: the generator's, ``list_namespaced_pod``; a class's ``close()`` is not a
    request). ``name``: how the docs name the family.
    """

    name: str
    modules: tuple[str, ...]
    class_suffix: str
    verbs: frozenset[str]
    param: TimeoutParam


# the first words of the generated kubernetes API methods (kubernetes 37's 2,364 public methods of its ``*Api``
# classes but their 66 ``close()``: ``delete``, ``replace``, ``patch``, ``read``, ``list``, ``create``, ``get``,
# ``connect``, ``log``)
_K8S_VERBS = frozenset({"delete", "replace", "patch", "read", "list", "create", "get", "connect", "log"})
API_FAMILIES: Final[tuple[ApiFamily, ...]] = (
    ApiFamily("kubernetes", ("kubernetes.client",), "Api", _K8S_VERBS, _K8S),
    ApiFamily("kubernetes_asyncio", ("kubernetes_asyncio.client",), "Api", _K8S_VERBS, _K8S_ASYNC),
)


def _sdk_calls() -> dict[str, TimeoutParam]:
    t: dict[str, TimeoutParam] = {}
    # kubernetes (s52, batch 24's k8s-agent-sandbox, batch 10's k8s-mcp, batch 6's awslabs-eks-mcp-server): the
    # watch re-issues its request for ever unless given ``timeout_seconds`` (watch.py: ``disable_retries =
    # 'timeout_seconds' in kwargs``), and a ``_request_timeout`` handed to it bounds each request's silence; the
    # dynamic client's requests take ``_request_timeout`` in their keywords (dynamic/client.py ``request``), none
    # by default
    for root, base in (("kubernetes", _K8S), ("kubernetes_asyncio", _K8S_ASYNC)):
        t[f"{root}.watch.Watch.stream"] = replace(
            base, keyword="timeout_seconds", carried_by=("_request_timeout",), connect_read_tuple=False,
            advice=_K8S_WATCH_ADVICE, no_fix=_K8S_WATCH_NO_FIX,
        )
    # s54 (issue 23; batch 26's opensandbox-server ``self.get_core_v1_api().api_client.call_api(...)``): the
    # generated ``ApiClient`` every API class holds as ``api_client``; ``call_api`` and ``request`` take
    # ``_request_timeout``, None by default (api_client.py)
    for root, base in (("kubernetes", _K8S), ("kubernetes_asyncio", _K8S_ASYNC)):
        for m in ("call_api", "request"):
            t[f"{root}.client.ApiClient.{m}"] = base
    for m in ("get", "create", "delete", "replace", "patch", "server_side_apply", "request"):
        t[f"kubernetes.dynamic.DynamicClient.{m}"] = _K8S
    for m in ("get", "create", "delete", "replace", "patch"):
        t[f"kubernetes.dynamic.Resource.{m}"] = _K8S
    # database drivers whose connect waits without bound by default: psycopg2 (libpq: ``connect_timeout`` unset
    # or 0 waits indefinitely; also in a literal DSN, ``"host=db connect_timeout=5"``, ``"...?connect_timeout=5"``),
    # mysql-connector (``connect_timeout``/``connection_timeout`` default None: the socket blocks). Bounded by
    # default, not listed: psycopg 3 (130 s), PyMySQL (10 s), aiomysql and asyncpg (60 s), pymongo (30 s server
    # selection)
    db = "pass {keyword}=<seconds> so an unreachable or stalled database server cannot stall the agent"
    t["psycopg2.connect"] = TimeoutParam(keyword="connect_timeout", dsn=("dsn", 0), advice=db)
    t["mysql.connector.connect"] = TimeoutParam(keyword="connect_timeout", carried_by=("connection_timeout",),
                                                advice=db)
    return t


# The SDK families' other calls that take a timeout: read by TFH201 only (through ``Knowledge.timeout_for``), so
# the timeout tables' other readers (TFH202, ``smullyan tools``, ``linter/effects.py``) are unchanged by them.
SDK_CALL_TIMEOUTS: Final[Mapping[str, TimeoutParam]] = _sdk_calls()


def family_timeout(qualname: str) -> TimeoutParam | None:
    """How a call of an SDK family takes its timeout: one of :data:`SDK_CALL_TIMEOUTS`, or a method of an
    :data:`API_FAMILIES` class (``kubernetes.client.CoreV1Api.list_namespaced_pod``: ``_request_timeout``); None
    when ``qualname`` is neither."""
    spec = SDK_CALL_TIMEOUTS.get(qualname)
    if spec is not None:
        return spec
    owner, _, method = qualname.rpartition(".")
    module, _, cls = owner.rpartition(".")
    if cls == "api_client":  # s54: ``core.api_client.call_api(...)``: the ``ApiClient`` an API class holds
        holder, _, held_cls = module.rpartition(".")
        family = _family_of(holder, held_cls)
        return SDK_CALL_TIMEOUTS.get(f"{family.modules[0]}.ApiClient.{method}") if family is not None else None
    if not module or not cls[:1].isupper():
        return None
    verb = method.split("_", 1)[0]
    for family in API_FAMILIES:
        if (
            verb in family.verbs
            and cls.endswith(family.class_suffix)
            and any(module == m or module.startswith(m + ".") for m in family.modules)
        ):
            return family.param
    return None


def _family_of(module: str, cls: str) -> ApiFamily | None:
    """The :data:`API_FAMILIES` family whose class ``module.cls`` is (``kubernetes.client``, ``CoreV1Api``)."""
    if not module or not cls[:1].isupper():
        return None
    return next((f for f in API_FAMILIES if cls.endswith(f.class_suffix)
                 and any(module == m or module.startswith(m + ".") for m in f.modules)), None)


def _build_timeouts() -> dict[str, TimeoutParam]:
    t: dict[str, TimeoutParam] = {}
    # requests: no default timeout at all.
    for m in (*HTTP_METHODS, "request"):
        t[f"requests.{m}"] = _REQ
        t[f"requests.Session.{m}"] = _REQ
    t["requests.Session.send"] = _REQ
    # httpx: 5 s default, so a missing timeout is fine; timeout=None is not.
    for m in (*HTTP_METHODS, "request", "stream"):
        t[f"httpx.{m}"] = _HTTPX
        t[f"httpx.Client.{m}"] = _HTTPX
        t[f"httpx.AsyncClient.{m}"] = _HTTPX
    t["httpx.Client"] = _HTTPX
    t["httpx.AsyncClient"] = _HTTPX
    # aiohttp: 5 min total by default; timeout=None on a request disables it.
    for m in (*HTTP_METHODS, "request", "ws_connect"):
        t[f"aiohttp.ClientSession.{m}"] = _AIOHTTP
    t["aiohttp.request"] = _AIOHTTP
    # standard library
    t["urllib.request.urlopen"] = TimeoutParam(position=2)
    t["http.client.HTTPConnection"] = TimeoutParam(position=2)
    t["http.client.HTTPSConnection"] = TimeoutParam()
    t["socket.create_connection"] = TimeoutParam(position=1)
    t["smtplib.SMTP"] = TimeoutParam(position=3)
    t["smtplib.SMTP_SSL"] = TimeoutParam()
    t["smtplib.LMTP"] = TimeoutParam()
    t["ftplib.FTP"] = TimeoutParam(position=4)
    t["ftplib.FTP_TLS"] = TimeoutParam()
    # mail, news and terminal clients: no timeout means the socket default (None: blocks forever);
    # positions only where every supported Python agrees (nntplib and telnetlib: gone in 3.13)
    t["imaplib.IMAP4"] = TimeoutParam(position=2)
    t["imaplib.IMAP4_SSL"] = TimeoutParam()
    t["poplib.POP3"] = TimeoutParam(position=2)
    t["poplib.POP3_SSL"] = TimeoutParam()
    t["nntplib.NNTP"] = TimeoutParam(position=6)
    t["nntplib.NNTP_SSL"] = TimeoutParam(position=7)
    t["telnetlib.Telnet"] = TimeoutParam(position=2)
    for f in ("run", "call", "check_call", "check_output"):
        t[f"subprocess.{f}"] = _PROCESS
    t["subprocess.Popen.communicate"] = replace(_PROCESS, position=1)
    t["subprocess.Popen.wait"] = replace(_PROCESS, position=0)
    # third party
    t["websocket.create_connection"] = TimeoutParam(position=1)
    t["redis.Redis"] = TimeoutParam(keyword="socket_timeout", position=4, carried_by=("connection_pool",))
    t["redis.from_url"] = TimeoutParam(keyword="socket_timeout")
    t["redis.Redis.from_url"] = TimeoutParam(keyword="socket_timeout")
    # redis.asyncio: the same client for asyncio, its parameters keyword-only; no socket_timeout
    # means a stalled server blocks the awaiting task for ever (no asyncio scope is implied)
    t["redis.asyncio.Redis"] = TimeoutParam(keyword="socket_timeout", carried_by=("connection_pool",))
    for name in ("redis.asyncio.from_url", "redis.asyncio.Redis.from_url"):
        t[name] = TimeoutParam(keyword="socket_timeout")
    # SDK clients that hand their own timeout (default None) to every requests call they make: a
    # client built without one makes every API call of the agent wait without bound (s41, batch 14:
    # mcp-hetzner; hcloud 2.x Client(..., timeout=None); its position has moved between versions)
    t["hcloud.Client"] = TimeoutParam(
        advice="pass {keyword}=(connect, read) seconds: the client hands it to every API request it makes",
        connect_read_tuple=True,
    )
    # CrowdStrike FalconPy's Uber classes: timeout=None by default, handed to every requests call (falconpy 1.x
    # FalconInterface; falcon-mcp, batch 14)
    for name in ("falconpy.APIHarnessV2", "falconpy.APIHarness"):
        t[name] = TimeoutParam(
            advice="pass {keyword}=(connect, read) seconds: the client hands it to every API request it makes",
            connect_read_tuple=True,
        )
    # python-gitlab's client (gitlab/client.py ``Gitlab(url, private_token, timeout=None)``): it hands its timeout
    # (default None) to every requests call of its session, so a client built without one lets every API call of the
    # agent wait without bound (s57, batch 30's gitlab-emulator; built so in 9 installed packages of batches 1-29)
    for name in ("gitlab.Gitlab", "gitlab.client.Gitlab"):
        t[name] = TimeoutParam(advice="pass {keyword}=<seconds>: the client hands it to every API request it makes")
    # docker SDK: waiting for a container to exit blocks as long as it runs
    t["docker.models.containers.Container.wait"] = TimeoutParam(
        advice="pass {keyword}=<seconds> (the longest the container may run) so a hung container cannot stall the agent"
    )
    # LLM SDK clients (10 minutes by default; timeout=None turns it off: TFH202 only, with no fix)
    for client in sorted(LLM_SDK_CLIENTS):
        t[client] = _LLM_SDK
        for m in ("with_options", *LLM_SDK_METHODS[client.split(".")[0]]):
            t[f"{client}.{m}"] = _LLM_SDK
    # server-sent events over httpx (the keywords go to Client.stream)
    t["httpx_sse.connect_sse"] = _HTTPX
    t["httpx_sse.aconnect_sse"] = _HTTPX
    # asyncio.wait_for(aw, timeout): None waits forever (TFH202 only)
    t["asyncio.wait_for"] = TimeoutParam(position=1, required=False)
    # timeout scopes whose delay or deadline may be None: no deadline at all (TFH202 only)
    _scope = TimeoutParam(position=0, required=False, default="required")
    t["asyncio.timeout"] = replace(_scope, keyword="delay")
    t["asyncio.timeout_at"] = replace(_scope, keyword="when")
    t["async_timeout.timeout"] = replace(_scope, keyword="timeout")
    t["async_timeout.timeout_at"] = replace(_scope, keyword="deadline")
    t["anyio.fail_after"] = replace(_scope, keyword="delay")
    t["anyio.move_on_after"] = replace(_scope, keyword="delay")
    return t


TIMEOUTS: Final[Mapping[str, TimeoutParam]] = _build_timeouts()

# Calls with no timeout parameter at all that block until something else
# happens; fine only inside a timeout scope (TFH201 otherwise).
# name -> what TFH201's message tells the user to do.
_WRAP_ASYNCIO = (
    "wrap it in asyncio.wait_for(..., timeout=<seconds>) or `async with asyncio.timeout(<seconds>)` "
    "so a hung process cannot stall the agent"
)
NEEDS_TIMEOUT_SCOPE: Final[Mapping[str, str]] = {
    "asyncio.subprocess.Process.communicate": _WRAP_ASYNCIO,
    "asyncio.subprocess.Process.wait": _WRAP_ASYNCIO,
}
# Blocking calls with no timeout parameter that no asyncio scope bounds either (they block the
# thread): TFH201 reports them, with no fix, unless they return at once (``detach=True``), run a
# literal instant command, or run in a worker thread (a lambda handed to ``run_in_executor`` /
# ``to_thread``, which the caller awaits under its deadline). name -> what to do.
NO_TIMEOUT_PARAMETER: Final[Mapping[str, str]] = {
    "docker.models.containers.Container.exec_run": (
        "the docker SDK has no timeout for it: run the command under `timeout <seconds> ...` in the container, "
        "or call it in a worker thread under a deadline (asyncio.wait_for(asyncio.to_thread(...), <seconds>))"
    ),
}
# Calls that run a function in a worker thread (the deadline is the awaiting caller's).
WORKER_THREAD_CALLS: Final[frozenset[str]] = frozenset({"run_in_executor", "to_thread", "run_sync", "submit"})
# Worker-thread calls that call their first argument with all the others, keywords too: a timeout the
# function takes is given there (``asyncio.to_thread(subprocess.run, cmd, timeout=60)``); TFH201 reads it.
FORWARDING_WORKER_CALLS: Final[frozenset[str]] = frozenset({"asyncio.to_thread", "asyncio.threads.to_thread"})


# Calls that put a deadline on what runs inside them (their arguments) ...
TIMEOUT_WRAPPERS: Final[frozenset[str]] = frozenset({"asyncio.wait_for"})
# ... and context managers that put a deadline on their block.
TIMEOUT_SCOPES: Final[frozenset[str]] = frozenset(
    {
        "asyncio.timeout",
        "asyncio.timeout_at",
        "async_timeout.timeout",
        "async_timeout.timeout_at",
        "anyio.fail_after",
        "anyio.move_on_after",
        "trio.fail_after",
        "trio.move_on_after",
    }
)

# s38 (batch 10, issue 23): decorators that bound every run of the function they decorate. At the deadline
# the decorated function raises (a signal's handler, or its caller stops waiting for the worker it runs in);
# a ``subprocess.run`` inside kills its child as the exception passes, a socket read is interrupted. A
# blocking call directly in such a function (not in a nested ``def`` or ``lambda``, which run later, nor in
# an ``async def``, whose decorator bounds only the creation of the coroutine) needs no timeout of its own
# (TFH201 stays silent), and a default added inside would raise another exception before the decorator's
# own, which the caller handles. name -> (the seconds parameter, its position); a decorator given no
# seconds, or a literal ``None``/``0``, runs the function unbounded.
TIMEOUT_DECORATORS: Final[Mapping[str, tuple[str, int]]] = {
    "timeout_decorator.timeout": ("seconds", 0),
    "timeout_decorator.timeout_decorator.timeout": ("seconds", 0),
    "wrapt_timeout_decorator.timeout": ("dec_timeout", 0),
    "wrapt_timeout_decorator.wrapt_timeout_decorator.timeout": ("dec_timeout", 0),
    "func_timeout.func_set_timeout": ("timeout", 0),
    "func_timeout.dafunc.func_set_timeout": ("timeout", 0),
    "pytest.mark.timeout": ("timeout", 0),
}

# Timeout objects whose every field may be None, which means "no timeout".
# name -> (names of its fields in positional order)
TIMEOUT_OBJECTS: Final[Mapping[str, tuple[str, ...]]] = {
    "aiohttp.ClientTimeout": ("total", "connect", "sock_read", "sock_connect", "ceil_threshold"),
    "httpx.Timeout": ("timeout", "connect", "read", "write", "pool"),
}
# Fields of those objects that are not deadlines (ignored when deciding "all None").
TIMEOUT_OBJECT_NON_DEADLINES: Final[frozenset[str]] = frozenset({"ceil_threshold"})
# Timeout objects whose omitted fields are None: ``aiohttp.ClientTimeout()`` has no deadline
# at all (``httpx.Timeout()`` refuses to be built without a default).
TIMEOUT_OBJECTS_OMITTED_NONE: Final[frozenset[str]] = frozenset({"aiohttp.ClientTimeout"})


# Clients whose timeout is the default of every request they make, and the timeout objects such a
# default is built from: an explicit None there serves requests the line does not show (streams, long
# jobs, a protocol's own long polls), so TFH202 reports it with advice and offers no number. A timeout
# object handed straight to one request in view is that request's own (the fix stays).
SESSION_DEFAULT_TIMEOUTS: Final[frozenset[str]] = frozenset(
    {"httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession", *TIMEOUT_OBJECTS}
)


# s56 (issue 23): a client's request path, where a project installs its default timeout (TFH201 is silent on a call
# of such a client: ``linter/client_defaults.py``). Per the qualified-name prefix of the calls: their timeout keyword,
# and the attribute paths, from the client object the project builds, that every one of those calls goes through, and whether a call
# that gives no timeout reaches that path with an explicit ``None`` for it (so a wrapper that fills only an *absent*
# keyword, ``kwargs.setdefault("timeout", 30)``, fills nothing there, and one that fills ``None`` too, ``timeout or
# 30``, bounds it): ``requests.Session.request`` receives the caller's own keywords, ``Session.send`` receives
# ``timeout=None`` from ``request``; a kubernetes API object's method hands ``_request_timeout=None`` to its
# ``ApiClient.call_api``, which hands it to ``request`` and to ``rest_client.request`` (api_client.py, rest.py).
# Seen installed by wrapping: batch 28's bexhoma (``api_client.rest_client.request = request_with_timeout`` in the
# factory of its API objects), batch 20's python-substack (``self._session.request = ...``, filling a configured
# timeout that defaults to None: the finding stays) and batch 5's arxiv-mcp-server (``session.get = ...`` on a
# library's session). The called method itself (``session.get = with_timeout`` then ``session.get(url)``) is also
# such a path, receiving the caller's keywords.
_K8S_PATHS: Final[tuple[tuple[str, bool], ...]] = tuple(
    (f"{pre}{m}", True) for pre in ("", "api_client.") for m in ("rest_client.request", "call_api", "request")
)
CLIENT_REQUEST_PATHS: Final[Mapping[str, tuple[str, tuple[tuple[str, bool], ...]]]] = {
    "requests.Session.": ("timeout", (("request", False), ("send", True))),
    "kubernetes.client.": ("_request_timeout", _K8S_PATHS),
    "kubernetes_asyncio.client.": ("_request_timeout", _K8S_PATHS),
}


# s56 (issue 23): the standard library's clients whose socket takes the process's default timeout when the call gives
# none (``socket._GLOBAL_DEFAULT_TIMEOUT``, or ``socket.create_connection(address)`` when ``timeout`` is None: imaplib,
# poplib): a ``socket.setdefaulttimeout(t)`` the function ran before the call, not yet undone, bounds it (batch 21's
# gigamail sets it around ``imaplib.IMAP4_SSL(...)`` and restores it in a ``finally``; installed so in batches 17, 19,
# 20, 21 and 28). requests, redis and websocket-client hand their socket an explicit None: not listed.
SOCKET_DEFAULT_TIMEOUT_CALLS: Final[frozenset[str]] = frozenset({
    "urllib.request.urlopen", "http.client.HTTPConnection", "http.client.HTTPSConnection", "socket.create_connection",
    "smtplib.SMTP", "smtplib.SMTP_SSL", "smtplib.LMTP", "ftplib.FTP", "ftplib.FTP_TLS", "imaplib.IMAP4",
    "imaplib.IMAP4_SSL", "poplib.POP3", "poplib.POP3_SSL", "nntplib.NNTP", "nntplib.NNTP_SSL", "telnetlib.Telnet",
})


# Module roots whose import makes a file a candidate for the timeout rules.
TIMEOUT_MODULE_ROOTS: Final[frozenset[str]] = frozenset(
    q.split(".")[0] for q in (*TIMEOUTS, *NEEDS_TIMEOUT_SCOPE, *NO_TIMEOUT_PARAMETER)
)

# Calls that block the thread they run on, and what to await instead inside
# an ``async def`` (the worked example of docs/writing-rules.md reads this).
BLOCKING_IN_ASYNC: Final[Mapping[str, str]] = {
    "time.sleep": "await asyncio.sleep(<seconds>)",
}


# The kinds of call a timeout fix bounds, for ``default-timeout-seconds`` given by kind (``[tool.smullyan.
# default-timeout-seconds] http = 30, process = 300``): an HTTP request, a child process, any other
# network peer (a socket, mail, FTP, redis, a websocket); ``default`` for the kinds not given.
TIMEOUT_KINDS: Final[tuple[str, ...]] = ("http", "process", "network", "default")
_HTTP_ROOTS: Final[frozenset[str]] = frozenset(
    {"requests", "httpx", "aiohttp", "urllib", "urllib3", "http", "kubernetes", "kubernetes_asyncio"}
)


def timeout_kind(qualname: str) -> str:
    """The kind of a call a timeout fix bounds (one of ``TIMEOUT_KINDS`` but ``default``)."""
    root = qualname.split(".")[0]
    if root in ("subprocess", "asyncio") or qualname.startswith("docker."):
        return "process"
    return "http" if root in _HTTP_ROOTS else "network"
