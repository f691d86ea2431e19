"""What the linter knows about libraries: plain data, no rule logic.

Every qualified name here is spelled the way Python resolves it from the
module's imports (``requests.post``, ``requests.Session.post`` for a method
called on a ``requests.Session()`` instance). Rules read these tables through
:class:`Knowledge`, which user configuration (``timeout-required``,
``classify``, ``retry-decorators``) extends; rules never copy them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar, Final, Hashable, Iterable, Mapping, TypeVar, cast

from ..runtime import TAGS

_T = TypeVar("_T")


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
    and a ``None`` inside it disables that half (TFH202).
    """

    keyword: str = "timeout"
    position: int | None = None
    required: bool = True
    none_is_infinite: bool = True
    default: str = "none: blocks forever"
    advice: str = "pass {keyword}=<seconds> so a hung peer cannot stall the agent"
    connect_read_tuple: bool = False


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
    "websocket._core.create_connection": "websocket.create_connection",
    "asyncio.subprocess.create_subprocess_exec": "asyncio.create_subprocess_exec",
    "asyncio.subprocess.create_subprocess_shell": "asyncio.create_subprocess_shell",
    "docker.client.DockerClient": "docker.DockerClient",
    "docker.client.from_env": "docker.from_env",
    "docker.models.containers.ContainerCollection": "docker.DockerClient.containers",
}

# Calls whose result is an instance of a known class (a class's own
# constructor is implied: calling ``requests.Session`` gives a ``requests.Session``).
FACTORIES: Final[Mapping[str, str]] = {
    "requests.Session": "requests.Session",
    "requests.session": "requests.Session",
    "asyncio.create_subprocess_exec": "asyncio.subprocess.Process",
    "asyncio.create_subprocess_shell": "asyncio.subprocess.Process",
    "redis.from_url": "redis.Redis",
    "redis.Redis.from_url": "redis.Redis",
    # docker SDK: a client, and the containers it runs or finds
    "docker.from_env": "docker.DockerClient",
    "docker.DockerClient.from_env": "docker.DockerClient",
    **{f"docker.DockerClient.containers.{m}": "docker.models.containers.Container" for m in ("run", "get", "create")},
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
    }
)


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
    t["redis.Redis"] = TimeoutParam(keyword="socket_timeout", position=4)
    t["redis.from_url"] = TimeoutParam(keyword="socket_timeout")
    t["redis.Redis.from_url"] = TimeoutParam(keyword="socket_timeout")
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

# Processes with no timeout to give, one table for TFH201 and its fix: argv[0] (its basename, without
# ``.exe``; or its first words, ``"npm run dev"``, ``"python -i"``) -> a :class:`ProcessNote`: why,
# and whether TFH201 stays silent (``silent``: a program that waits for a person, an editor, a pager,
# a desktop opener, a dialog, a foreground dev server, or finishes at once) or reports the call and
# offers no fix (a program that may wait for a person at a prompt but may also hang: ``sudo``,
# ``ssh``). ``INTERACTIVE_SUBCOMMANDS`` adds programs that are instant only for some sub-commands
# (``git rev-parse``, not ``git clone``); ``INTERACTIVE_ENV`` the environment variables that name an
# editor or pager (``os.environ["EDITOR"]``). Read through :func:`interactive_process` (silence) and
# :func:`process_fix_refusal` (the fix).
@dataclass(frozen=True, slots=True)
class ProcessNote:
    """Why a process needs no timeout (``silent``: TFH201 does not report it) or gets no fix."""

    why: str
    silent: bool = True


_EDITOR = ProcessNote("an editor waits for a person")
_PAGER = ProcessNote("a pager waits for a person")
_OPENER = ProcessNote("a desktop opener returns at once")
_DIALOG = ProcessNote("a dialog or picker waits for a person")
_SHELL = ProcessNote("an interactive shell waits for a person")
_INSTANT = ProcessNote("an instant local command")
_DEV_SERVER = ProcessNote("a foreground dev server runs until the person stops it")
_TUI = ProcessNote("a terminal UI waits for a person")
_PROMPT = ProcessNote("may wait for a person at a password prompt", silent=False)
INTERACTIVE_PROCESSES: Final[Mapping[str, ProcessNote]] = {
    **dict.fromkeys(
        ("vi", "vim", "nvim", "view", "nano", "pico", "emacs", "emacsclient", "ed", "micro", "joe", "kak", "hx",
         "code", "subl", "gedit", "kate", "mate", "notepad", "editor", "sensible-editor",
         # IDEs and GUI editors: the launcher blocks until the person closes the window
         "code-insiders", "codium", "cursor", "windsurf", "zed", "atom", "sublime_text", "notepad++", "idea",
         "pycharm", "charm", "webstorm", "goland", "clion", "rider", "studio"),
        _EDITOR,
    ),
    **dict.fromkeys(("less", "more", "most", "bat", "jless", "man", "pager", "sensible-pager", "w3m", "lynx"), _PAGER),
    **dict.fromkeys(("open", "xdg-open", "explorer", "start", "gio", "wslview", "gnome-open", "kde-open"), _OPENER),
    **dict.fromkeys(("zenity", "kdialog", "osascript", "dialog", "whiptail", "fzf", "top", "htop"), _DIALOG),
    **dict.fromkeys(
        ("tig", "lazygit", "ranger", "nnn", "lf", "vd", "visidata", "btop", "glow", "k9s", "ncdu", "tmux attach",
         "tmux new", "screen -r"),
        _TUI,
    ),
    **dict.fromkeys(("python -i", "python3 -i", "ipython", "bash -i", "sh -i", "zsh -i", "su", "passwd", "pinentry"), _SHELL),
    **dict.fromkeys(
        ("which", "where", "whoami", "chmod", "chown", "mkdir", "touch", "ln", "uname", "hostname", "id", "pwd", "true", "false", "clear", "cls", "tput", "stty", "cd", "export", "echo", "pkill", "kill",
         # local reads and writes that return at once: the crontab, the clipboard, a desktop notification,
         # a local setting (found reading batches 1-3: `crontab -l`, `uv python pin`)
         "crontab", "pbcopy", "pbpaste", "xclip", "xsel", "wl-copy", "wl-paste", "clip", "notify-send",
         "terminal-notifier", "date", "nproc", "tty", "realpath", "readlink", "printenv", "sw_vers", "defaults read",
         "uv python pin", "uv python find", "uv python dir", "uv cache dir", "uv tool dir", "pip show", "pip list",
         "pip freeze", "pip3 show", "pip3 list", "pip3 freeze", "npm config get", "npm prefix", "npm root"),
        _INSTANT,
    ),
    **dict.fromkeys(
        ("npm run dev", "npm run start", "npm start", "npm run serve", "pnpm dev", "pnpm run dev", "yarn dev", "yarn start",
         "bun dev", "bun run dev", "next dev", "vite", "mintlify dev", "uvicorn", "gunicorn", "hypercorn", "streamlit run",
         "flask run", "manage.py runserver", "http.server", "jupyter lab", "jupyter notebook", "mkdocs serve",
         "hugo server", "ngrok",
         # more servers a CLI runs in the foreground for a person (a dev CLI's `serve`/`dev`/`ui` command)
         "fastmcp run", "fastmcp dev", "mcp dev", "mcp run", "langgraph dev", "adk web", "adk api_server",
         "chainlit run", "panel serve", "mlflow ui", "mlflow server", "tensorboard", "jupyter-lab", "voila",
         "marimo edit", "marimo run", "django-admin runserver", "rails server", "http-server", "npm run preview",
         "vite preview", "astro dev", "nuxt dev", "wrangler dev", "vercel dev", "netlify dev", "docusaurus start",
         "sphinx-autobuild", "jekyll serve", "ollama serve", "cloudflared tunnel", "php -S"),
        _DEV_SERVER,
    ),
    **dict.fromkeys(("sudo", "ssh", "gpg", "doas"), _PROMPT),
}
INTERACTIVE_SUBCOMMANDS: Final[Mapping[str, frozenset[str]]] = {
    "gcloud": frozenset({"config"}),  # reads or writes the local configuration
    "git": frozenset(
        {"check-ref-format", "rev-parse", "config", "status", "diff", "add", "init", "branch", "log", "show", "ls-files", "symbolic-ref", "var", "hash-object", "update-index",
         # local reads of the repository (no network, no hook, no editor; `git blame` on a long history is
         # slow but ends)
         "blame", "rev-list", "merge-base", "cat-file", "describe", "ls-tree", "name-rev", "for-each-ref", "show-ref",
         "grep", "shortlog", "count-objects", "check-ignore", "check-attr", "diff-tree", "diff-files", "diff-index"}
    ),
}
# A program asked only for its version or usage (``node --version``, ``git -h``): it prints and exits.
VERSION_QUERIES: Final[frozenset[str]] = frozenset({"--version", "-V", "--help", "-h"})
INTERACTIVE_ENV: Final[frozenset[str]] = frozenset({"EDITOR", "VISUAL", "PAGER", "GIT_EDITOR", "GIT_PAGER", "BROWSER"})
# A package install the person at a CLI asked for (``pip install --upgrade <self>``, ``uv add x``
# after a confirmation): silent when the command upgrades or a confirmation guards it.
INTERACTIVE_INSTALLS: Final[tuple[tuple[str, ...], ...]] = (
    ("pip", "install"), ("pip3", "install"), ("uv", "add"), ("uv", "pip", "install"), ("pipx", "install"),
    ("pipx", "upgrade"), ("npm", "install"), ("brew", "install"), ("brew", "upgrade"),
)
INTERACTIVE_CONFIRMS: Final[frozenset[str]] = frozenset({"confirm", "ask", "input", "prompt", "askyesno"})
# CLI frameworks: a process a command of theirs runs in the foreground (its output on the person's
# terminal, nothing captured) is the person's to stop (a dev server, a test run, an install they typed);
# TFH201 stays silent there. By the top-level module of the command decorator (``@app.command()`` on a
# ``typer.Typer()``, ``@click.command()``, ``@cli.command()`` on a ``@click.group()`` of the module).
CLI_FRAMEWORKS: Final[frozenset[str]] = frozenset({"click", "typer", "cyclopts", "asyncclick", "rich_click", "cloup"})
CLI_DECORATOR_WORDS: Final[frozenset[str]] = frozenset({"command", "group", "callback", "default"})


_PYTHONS: Final[frozenset[str]] = frozenset({"python", "python3", "py", "sys.executable"})
# ``uv run X``, ``poetry run X``: the program is X.
_RUNNERS: Final[frozenset[tuple[str, str]]] = frozenset(
    {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("pixi", "run")}
)


_SHELLS: Final[frozenset[str]] = frozenset({"bash", "sh", "zsh", "cmd", "powershell", "pwsh"})
_SHELL_FLAGS: Final[frozenset[str]] = frozenset({"-c", "-lc", "/c", "/C", "-Command", "-command"})


_SHELL_BREAKS: Final = re.compile(r"&&|\|\||[;\n]|\||(?<![>&<0-9])&(?![>&])")


def shell_commands(line: str) -> list[list[str]]:
    """A shell line's commands (``cd x && npm install 2>&1`` -> [cd, x], [npm, install, 2>&1])."""
    return [seg.split() for seg in _SHELL_BREAKS.split(line) if seg.strip()]


def _program_argv(words: Iterable[str]) -> list[str]:
    """The argv with its program as the tables spell it: a basename without ``.exe``, ``python -m X`` -> X,
    ``python script.py`` -> ``script.py`` (a literal script), ``python3.12`` -> ``python3``."""
    argv = [w.strip() for w in words]
    if not argv:
        return argv
    head = "python" if argv[0] == "sys.executable" else argv[0].rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    if head.lower().endswith(".exe"):
        head = head[:-4]
    if head.startswith("python3."):
        head = "python3"
    argv[0] = head
    while head == "git" and len(argv) > 2 and argv[1] in ("-C", "-c"):  # git -C <dir> clone ...
        argv = [head, *argv[3:]]
    if head in _PYTHONS and len(argv) > 1:
        if argv[1] == "-m" and len(argv) > 2:
            return _program_argv(argv[2:])
        if not argv[1].startswith("-"):
            return _program_argv(argv[1:])
    return argv


def _note(argv: list[str]) -> ProcessNote | None:
    for n in (3, 2, 1):
        if len(argv) >= n:
            note = INTERACTIVE_PROCESSES.get(" ".join(argv[:n]))
            if note is not None:
                return note
    return None


def interactive_process(words: Iterable[str], confirmed: bool = False) -> str | None:
    """Why a process (its leading argv words, literal ones; ``$EDITOR`` for an editor variable) needs
    no timeout at all (TFH201 stays silent), or None. ``confirmed``: a person asked for it (a
    confirmation guards the call)."""
    argv = _program_argv(words)
    if not argv:
        return None
    head = argv[0]
    if head.startswith("$") and head[1:] in INTERACTIVE_ENV:
        return "an editor or pager waits for a person"
    if head in ("cmd", "powershell") and "start" in argv[1:4]:
        return INTERACTIVE_PROCESSES["start"].why
    if head in _SHELLS and len(argv) > 2 and argv[1] in _SHELL_FLAGS:  # sh -c "pkill -f x || true"
        whys = [interactive_process(seg, confirmed) for seg in shell_commands(" ".join(argv[2:]))]
        return whys[0] if whys and all(whys) else None
    if len(argv) > 2 and (head, argv[1]) in _RUNNERS:  # uv run streamlit run app.py
        inner = interactive_process(argv[2:], confirmed)
        if inner is not None:
            return inner
    note = _note(argv)
    if note is not None and note.silent:
        return note.why
    if len(argv) == 2 and argv[1] in VERSION_QUERIES:  # `node --version`, `ffmpeg -h`: prints and exits
        return _INSTANT.why
    subs = INTERACTIVE_SUBCOMMANDS.get(head)
    if subs is not None and len(argv) > 1 and argv[1] in subs:
        return _INSTANT.why
    for prefix in INTERACTIVE_INSTALLS:
        if tuple(argv[: len(prefix)]) == prefix and (confirmed or "--upgrade" in argv or "-U" in argv):
            return "a package install the person asked for"
    return None


def _subcommand_programs() -> frozenset[str]:
    keys = [*INTERACTIVE_PROCESSES, *LONG_RUNNING_PROCESSES]
    return frozenset({k.split()[0] for k in keys if " " in k} | set(INTERACTIVE_SUBCOMMANDS) | _PYTHONS | {"python"}
                     | {"bash", "sh", "zsh", "cmd", "powershell", "pwsh", "node", "deno", "env", "nohup", "time"})


def process_fix_refusal(words: Iterable[str], whole: bool) -> str | None:
    """Why TFH201's fix must not add a timeout to a process (the finding stays), or None.

    ``words``: the command's leading literal words; ``whole``: every word of the command is
    literal. No fix when the program, or the sub-command that decides what it does (``git
    clone``, ``python -m X``, ``bash -c ...``), is not a literal the linter can read (a person-facing
    or long job the linter cannot see), for a program that may wait at a prompt (``sudo``), and for
    one that runs long by nature (``LONG_RUNNING_PROCESSES``: installs, pulls, builds, scans).
    """
    argv = _program_argv(words)
    unseen = ("so the linter cannot tell whether it waits for a person or runs long; choose a bound for what it "
              "runs, or `# noqa: TFH201` where a person waits on it")
    if not argv or argv[0].startswith("$"):
        return f"the command is built at run time, {unseen}"
    head = argv[0]
    if head in _SHELLS and len(argv) > 1 and argv[1] in _SHELL_FLAGS:  # bash -c "<line>"
        if len(argv) < 3:
            return f"what `{head}` runs is built at run time, {unseen}"
        for segment in shell_commands(" ".join(argv[2:])):
            why = process_fix_refusal(segment, True)
            if why is not None:
                return why
        return None
    if len(argv) < 2 and not whole and head in _SUBCOMMAND_PROGRAMS:
        return f"what `{head}` runs is built at run time, {unseen}"
    note = _note(argv)
    if note is not None and not note.silent:  # a silent one is a step that needs no bound
        return f"`{head}` {note.why}"
    inner = argv[2:] if len(argv) > 2 and (head, argv[1]) in _RUNNERS else None
    for key in (" ".join(argv[:2]), head):
        if key in LONG_RUNNING_PROCESSES:
            return f"`{key}` runs long by nature"
    if len(argv) > 1 and argv[1] in LONG_RUNNING_SUBCOMMANDS:
        return f"`{head} {argv[1]}` runs long by nature"
    if inner is not None:
        return process_fix_refusal(inner, whole)
    return None


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


# Module roots whose import makes a file a candidate for the timeout rules.
TIMEOUT_MODULE_ROOTS: Final[frozenset[str]] = frozenset(
    q.split(".")[0] for q in (*TIMEOUTS, *NEEDS_TIMEOUT_SCOPE, *NO_TIMEOUT_PARAMETER)
)

# Calls that block the thread they run on, and what to await instead inside
# an ``async def`` (the worked example of docs/writing-rules.md reads this).
BLOCKING_IN_ASYNC: Final[Mapping[str, str]] = {
    "time.sleep": "await asyncio.sleep(<seconds>)",
}

# ---------------------------------------------------------------- typed errors

RUNTIME_MODULES: Final[tuple[str, ...]] = ("smullyan.runtime", "smullyan.runtime._errors")
# The variants are the runtime's own list (one source of truth: an eighth
# variant reaches the rules without an edit here); each has a lower-case
# constructor of the same name in snake_case.
TOOL_ERROR_VARIANTS: Final[tuple[str, ...]] = TAGS
_TOOL_ERROR_FUNCS: Final[tuple[str, ...]] = (
    *(re.sub(r"(?<!^)(?=[A-Z])", "_", tag).lower() for tag in TAGS),
    "ToolFailure",
    "from_exception",
    "from_http",
)
# Calls that turn an exception into a typed ToolError (building one from the
# exception's text is fine: the type carries the decision, not the text).
TOOL_ERROR_CONSTRUCTORS: Final[frozenset[str]] = frozenset(
    f"{mod}.{name}"
    for mod in (*RUNTIME_MODULES, "smullyan.runtime._mapping")
    for name in (*TOOL_ERROR_VARIANTS, *_TOOL_ERROR_FUNCS)
)

# ---------------------------------------------------------------- TFH5xx: the closed union

# Qualified name -> tag, for every variant class (``smullyan.runtime.Denied`` -> ``Denied``).
TOOL_ERROR_CLASSES: Final[Mapping[str, str]] = {
    f"{mod}.{tag}": tag for mod in RUNTIME_MODULES for tag in TOOL_ERROR_VARIANTS
}
# The union itself, and ``Result`` (``Ok[T] | Err[ToolError]``): an annotation
# naming one of them makes a value a ToolError (or a Result).
TOOL_ERROR_UNION: Final[frozenset[str]] = frozenset(f"{mod}.ToolError" for mod in RUNTIME_MODULES)
RESULT_TYPES: Final[frozenset[str]] = frozenset(f"{mod}.{n}" for mod in RUNTIME_MODULES for n in ("Result", "Err"))
OK_CLASSES: Final[frozenset[str]] = frozenset(f"{mod}.Ok" for mod in RUNTIME_MODULES)
ERR_CLASSES: Final[frozenset[str]] = frozenset(f"{mod}.Err" for mod in RUNTIME_MODULES)
# ``Err``'s one field, by keyword (``case Err(error=NotFound())``).
ERR_FIELD: Final[str] = "error"
# Functions whose result is a ToolError (or None): the wire parsers.
TOOL_ERROR_PARSERS: Final[frozenset[str]] = frozenset(
    f"{mod}.{fn}" for mod in ("smullyan.runtime", "smullyan.runtime._wire") for fn in ("parse", "parse_json")
)
# ``assert_never`` under its three homes; a bare ``assert_never`` defined in
# the module itself (the usual backport for Python 3.10) counts too.
ASSERT_NEVER: Final[frozenset[str]] = frozenset(
    {"typing.assert_never", "typing_extensions.assert_never", *(f"{mod}.assert_never" for mod in RUNTIME_MODULES)}
)
# Where a ToolError's tag lives: the class attribute ``e.tag``, the wire
# form's key ``d["_tag"]`` (also ``d.get("_tag")``), and the class name
# (``type(e).__name__``).
TAG_ATTRIBUTE: Final[str] = "tag"
WIRE_TAG_KEY: Final[str] = "_tag"

# Attributes of an exception that hold its message text.
EXCEPTION_TEXT_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {"args", "message", "msg", "strerror"}
)
# Calls that format the exception currently being handled.
TRACEBACK_FORMATTERS: Final[frozenset[str]] = frozenset(
    {
        "traceback.format_exc",
        "traceback.format_exception",
        "traceback.format_exception_only",
        "traceback.format_tb",
        "traceback.format_stack",
    }
)

# Method names that record an error somewhere (a logger, a tracker, stderr).
RECORDING_METHODS: Final[frozenset[str]] = frozenset(
    {
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "fatal",
        "log",
        "print_exc",
        "print_exception",
        "capture_exception",
        "captureException",
        "capture_message",
        "record_exception",
        "set_status",
    }
)
RECORDING_FUNCTIONS: Final[frozenset[str]] = frozenset(
    {"print", "warnings.warn", "sys.exc_info", "sys.exception"}
)
# A callee whose name contains one of these hands the error to someone
# (``onerror(...)``, ``self.report_failure(...)``, ``notify_admin(...)``).
RECORDING_NAME_PARTS: Final[tuple[str, ...]] = ("error", "fail", "report", "warn", "log", "alert", "notify")

# ---------------------------------------------------------------- TFH401 scope

# The one attribute of an exception that *is* its text (``e.args[0]``).
# ``e.message``, ``e.status_code``, ``e.errors()`` are data the exception
# carries, not the exception turned into text (TFH401 stays silent on them).
EXCEPTION_ARGS_ATTRIBUTES: Final[frozenset[str]] = frozenset({"args"})
# Calls (qualified names) whose result is text built from their arguments, so
# the exception text flows through them (``json.dumps({"error": str(e)})``).
# Any other call's result is not the exception text: ``f(str(e))`` stops it.
TEXT_BUILDING_CALLS: Final[frozenset[str]] = frozenset(
    {"json.dumps", "textwrap.dedent", "textwrap.indent", "textwrap.shorten", "html.escape"}
)
# Builtins that build a container of their arguments (the text stays
# inside), and ``getattr(e, "message", str(e))`` whose default flows out.
TEXT_PASSING_BUILTINS: Final[frozenset[str]] = frozenset({"dict", "list", "tuple", "set", "frozenset", "getattr"})
# Methods whose result is text made of their arguments (``tmpl.format(error=str(e))``).
TEXT_PASSING_METHODS: Final[frozenset[str]] = frozenset({"format", "format_map", "join"})
# Keywords under which a constructor receives the exception object itself
# (``ToolOutput(content=str(e), exception=e)`` keeps the typed failure).
# Any keyword, or a positional argument, whose value is the bare exception
# counts; these names are documentation of the common spellings.
EXCEPTION_KEYWORDS: Final[frozenset[str]] = frozenset({"exception", "exc", "error", "err", "exc_info", "cause"})
# A function whose job is producing text for telemetry or serialisation
# (``_serialize_value``, ``safe_repr``, ``to_json``, ``format_attribute``):
# a name (lowercase, leading underscores stripped) containing one of these
# parts, or starting with one of the prefixes. TFH401 is silent inside it.
TEXT_PRODUCER_NAME_PARTS: Final[tuple[str, ...]] = ("serializ", "serialis", "repr", "to_json", "to_str")
TEXT_PRODUCER_NAME_PREFIXES: Final[tuple[str, ...]] = ("format_",)
# Exceptions an output parser raises. A handler that catches only these and
# feeds the text back to the model as a re-prompt (into an argument named
# like ``messages``/``retry_messages`` or a ``...Message(...)``) is the
# format-repair loop, not a tool failure: TFH401 is silent there.
PARSER_ERRORS: Final[frozenset[str]] = frozenset(
    {"ValueError", "JSONDecodeError", "ValidationError", "OutputParserException", "OutputParserError"}
)
REPROMPT_KEYWORD_PART: Final[str] = "messages"
REPROMPT_CALL_SUFFIX: Final[str] = "Message"
# Errors of a format, by qualified name (resolved through the module's imports):
# a handler that catches only these around a parse of data already in memory
# (the model's own tool-call arguments or output: no call in the ``try``
# reaches outside) hands back format-repair feedback, the text the model
# needs to fix its output. TFH401 is silent there, wherever the text goes.
FORMAT_ERRORS: Final[frozenset[str]] = frozenset(
    {
        "json.JSONDecodeError", "json.decoder.JSONDecodeError",
        "pydantic.ValidationError", "pydantic_core.ValidationError", "pydantic_core._pydantic_core.ValidationError",
        "pydantic.v1.ValidationError", "pydantic.error_wrappers.ValidationError", "jsonschema.ValidationError",
        "jsonschema.exceptions.ValidationError", "langchain_core.exceptions.OutputParserException",
        "yaml.YAMLError", "tomllib.TOMLDecodeError",
    }
)
# Builtin format errors: ``SyntaxError`` from ``ast.parse``/``compile`` of code the model wrote.
FORMAT_ERROR_BUILTINS: Final[frozenset[str]] = frozenset({"SyntaxError"})
# Errors an SDK raises while checking a call's arguments, before any request is
# sent (botocore's parameter validation): a handler catching only these hands
# the model the text about its own arguments, whatever else the ``try`` calls.
ARGUMENT_VALIDATION_ERRORS: Final[frozenset[str]] = frozenset(
    {"botocore.exceptions.ParamValidationError", "botocore.exceptions.ValidationError"}
)
# A typed error event: a dict (or keyword arguments) that already carries
# what kind of failure it is, so the exception text beside it is only the
# detail (``{"error_type": type(e).__name__, "message": str(e)}``, an
# OpenAI-style ``{"type": "server_error", ...}`` chunk). A key below, with any
# value that is not the text; ``type`` with a literal naming a kind of error
# (``..._error``, not the bare ``"error"``); or a value that is the exception's
# class name or code (``type(e).__name__``, ``e.status_code``).
ERROR_DISCRIMINATOR_KEYS: Final[frozenset[str]] = frozenset(
    {"error_type", "errortype", "error_code", "errorcode", "code", "exception_type", "exc_type", "error_class",
     "status_code", "retryable", "is_retryable", "recoverable", "is_recoverable", "transient"}
)
ERROR_DISCRIMINATOR_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {"code", "status_code", "error_code", "errno", "status"}
)
# Messages a model reads: a framework's tool-result and tool-message types, by
# qualified name (the module's imports resolve them), and the chat-dict forms
# (a key's literal value). Exception text put into one of these reaches the
# model wherever the construct goes (returned, appended to the history, sent).
MESSAGE_CONSTRUCTORS: Final[frozenset[str]] = frozenset(
    {
        *(f"{m}.ToolMessage" for m in ("langchain_core.messages", "langchain_core.messages.tool", "langchain.messages",
                                       "langchain.schema.messages")),
        *(f"{m}.FunctionMessage" for m in ("langchain_core.messages", "langchain_core.messages.function")),
        *(f"{m}.FunctionExecutionResult" for m in ("autogen_core.models", "autogen_core.models._types")),
        *(f"{m}.{c}" for m in ("mcp.types", "mcp.types._types") for c in ("TextContent", "CallToolResult")),
        *(f"{m}.ToolReturnPart" for m in ("pydantic_ai.messages", "pydantic_ai")),
        *(f"{m}.FunctionResultContent" for m in ("semantic_kernel.contents",
                                                 "semantic_kernel.contents.function_result_content")),
        *(f"{m}.FunctionResponse" for m in ("google.genai.types",)),
        "google.genai.types.Part.from_function_response",
        *(f"{m}.ToolOutput" for m in ("llama_index.core.tools", "llama_index.core.tools.types")),
    }
)
MESSAGE_DICT_FORMS: Final[tuple[tuple[str, str], ...]] = (
    ("role", "tool"), ("role", "function"), ("type", "function_call_output"), ("type", "tool_result"),
)

# Where the text goes to a person, not a model (TFH401 is silent there). A web
# endpoint: a function decorated with a route of an app or router object built
# from one of these classes (``@app.get(...)``, ``@self._app.route(...)``, by the
# module's imports), or with one of the route decorators below; and a web
# response built from the text (``JSONResponse({"error": str(e)})``), wherever it
# is built: the text goes to a browser or an HTTP client.
WEB_APP_CLASSES: Final[frozenset[str]] = frozenset(
    {
        "flask.Flask", "flask.Blueprint", "flask.app.Flask", "flask.blueprints.Blueprint",
        "quart.Quart", "quart.Blueprint",
        "fastapi.FastAPI", "fastapi.APIRouter", "fastapi.applications.FastAPI", "fastapi.routing.APIRouter",
        "starlette.applications.Starlette", "starlette.routing.Router",
        "aiohttp.web.RouteTableDef", "aiohttp.web_routedef.RouteTableDef",
        "sanic.Sanic", "sanic.Blueprint", "litestar.Router", "bottle.Bottle",
        "ninja.NinjaAPI", "ninja.Router",
    }
)
WEB_ROUTE_METHODS: Final[frozenset[str]] = frozenset(
    {"route", "get", "post", "put", "patch", "delete", "head", "options", "websocket", "api_route", "view"}
)
WEB_ROUTE_DECORATORS: Final[frozenset[str]] = frozenset(
    {
        *(f"django.views.decorators.http.{d}" for d in ("require_http_methods", "require_GET", "require_POST",
                                                       "require_safe")),
        "rest_framework.decorators.api_view",
        *(f"litestar.{d}" for d in ("get", "post", "put", "patch", "delete", "route", "websocket")),
        *(f"bottle.{d}" for d in ("route", "get", "post", "put", "delete")),
    }
)
WEB_RESPONSE_CALLS: Final[frozenset[str]] = frozenset(
    {
        "flask.jsonify", "flask.make_response", "flask.Response", "quart.jsonify", "quart.make_response",
        *(f"{m}.{c}" for m in ("starlette.responses", "fastapi.responses")
          for c in ("JSONResponse", "Response", "PlainTextResponse", "HTMLResponse", "ORJSONResponse",
                    "UJSONResponse")),
        "fastapi.Response",
        *(f"{m}.{c}" for m in ("aiohttp.web", "aiohttp.web_response")
          for c in ("json_response", "Response")),
        *(f"django.http.{c}" for c in ("JsonResponse", "HttpResponse", "HttpResponseBadRequest",
                                       "HttpResponseServerError")),
        "rest_framework.response.Response", "sanic.response.json", "sanic.response.text",
    }
)
# A command-line program: a module that defines a command of one of these CLI
# frameworks (``@app.command()`` where ``app = typer.Typer()``, ``@click.command()``,
# ``@cli.command()`` on a ``click.Group``) writes its results for a person at a
# terminal: TFH401 is silent in its functions that are not tools.
CLI_COMMAND_DECORATORS: Final[frozenset[str]] = frozenset(
    {
        *(f"{m}.{d}" for m in ("click", "asyncclick", "rich_click", "cloup") for d in ("command", "group")),
        *(f"{m}.{c}.{d}" for m in ("click", "asyncclick", "rich_click", "cloup", "click.core")
          for c in ("Group", "Command") for d in ("command", "group")),
        *(f"typer.Typer.{d}" for d in ("command", "callback")),
        *(f"typer.main.Typer.{d}" for d in ("command", "callback")),
        *(f"cyclopts.App.{d}" for d in ("command", "default")),
    }
)

# Methods that put their argument into the container they are called on
# (``out["error"] = str(e)`` is the subscript form): the container then
# carries the exception text, and returning it hands the text back.
CONTAINER_FILLING_METHODS: Final[frozenset[str]] = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft"}
)
# A tool whose job is to run code the model wrote returns that code's error
# so the model can fix it: the text is the product. The ``try`` calls one of
# these builtins, or a callee (or the enclosing function) whose name has one
# of these parts.
CODE_RUNNING_BUILTINS: Final[frozenset[str]] = frozenset({"exec", "eval", "compile"})
# The standard library's in-process runs of a program file or module, by qualified name.
CODE_RUNNING_CALLS: Final[frozenset[str]] = frozenset({"runpy.run_path", "runpy.run_module"})
# Matched on whole ``_``-separated words (``repl`` is not ``reply``; a
# sandbox's file tools are not code runs, so ``sandbox`` is not one).
CODE_RUNNING_NAME_PARTS: Final[tuple[str, ...]] = (
    "run_code", "execute_code", "exec_code", "run_python", "execute_python", "python_repl", "repl",
    "run_cell", "execute_cell", "code_interpreter", "evaluate_code", "run_python_code", "execute_python_code",
)

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
# A predicate over a remote resource (``has_index``, ``table_exists``,
# ``_check_queue``) whose ``try`` calls a method on a receiver named with one
# of the words above answers "absent" for an outage: reported, unless the
# predicate's whole point is reachability (the names below: a ping whose
# False means "not reachable" is the answer).
REACHABILITY_NAME_PARTS: Final[tuple[str, ...]] = (
    "ping", "alive", "health", "connected", "reachable", "available", "can_connect", "is_up", "is_ready",
)
# Fallbacks that are the design, not a hidden outage: a cache whose None
# means "miss, recompute"; telemetry and device-id helpers whose value only
# feeds a metric; validators of an address or a format. A function (or the
# ``try``'s receiver, for caches) whose name has one of these parts.
BENIGN_FALLBACK_NAME_PARTS: Final[tuple[str, ...]] = (
    "cache", "cached", "telemetry", "metric", "analytics", "tracking", "tracer", "device_id", "machine_id",
    "distinct_id", "anonymous_id", "installation_id", "trace_id", "valid",
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
# JSON parser, the host's own name), and these methods are pydantic's model
# methods (``Response.model_validate(data)`` on an SDK's model class), in
# memory on any object. Any other call into a third-party package counts as I/O.
PURE_CALLS: Final[frozenset[str]] = frozenset(
    {"jiter.from_json", "socket.gethostname", "socket.getfqdn", "litellm.token_counter", "litellm.cost_per_token",
     "litellm.completion_cost", "litellm.get_model_info", "litellm.get_supported_openai_params",
     "litellm.supports_function_calling", "litellm.get_llm_provider", "litellm.utils.token_counter",
     "litellm.utils.get_model_info", "tokenizers.Tokenizer.from_str", "tokenizers.Tokenizer.from_file"}
)
PURE_METHODS: Final[frozenset[str]] = frozenset(
    {"model_validate", "model_validate_json", "model_validate_strings", "model_dump", "model_dump_json",
     "model_copy", "model_construct", "parse_obj", "parse_raw", "model_json_schema"}
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


# ---------------------------------------------------------------- TFH1xx retry safety
# Read by ``rules/retries/`` (the retry model) and ``linter/effects.py``
# (what a call does); the TFH1xx rules read only those two modules.

READ_SAFE: Final[str] = "read-safe"
IDEMPOTENT_WRITE: Final[str] = "idempotent-write"
NON_IDEMPOTENT_WRITE: Final[str] = "non-idempotent-write"
IRREVERSIBLE: Final[str] = "irreversible"

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
        "openai.APIStatusError",
        "openai.APIError",
        "anthropic.APIStatusError",
        "anthropic.APIError",
        # google-api-core's bases of every API error (InvalidArgument, PermissionDenied, NotFound among them)
        "google.api_core.exceptions.GoogleAPIError",
        "google.api_core.exceptions.GoogleAPICallError",
        "googleapiclient.errors.HttpError",
    }
)
EVERY_EXCEPTION: Final[frozenset[str]] = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})
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
HTTP_CLIENTS: Final[frozenset[str]] = frozenset(
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


# LLM inference (issue 23): a POST from an LLM or embeddings integration module (a path part, or the
# file's stem holding ``llm``) creates nothing a retry could duplicate; its cost is money and rate
# limit (TFH103/TFH104), so TFH101 does not read it as a write, whatever its URL is called.
LLM_INFERENCE_MODULE_PARTS: Final[frozenset[str]] = frozenset(
    {"llms", "llm", "chat_models", "embeddings", "language_models", "models", "completions", "rerankers", "inference"}
)
LLM_INFERENCE_STEM_PARTS: Final[tuple[str, ...]] = ("llm", "embedding", "chat_model", "completion", "inference")


# ... a class deriving from an LLM or embeddings base (``class ApigeeLlm(BaseLlm)``), by the base's last
# name ending in one of these, and a request body with a ``messages`` or ``prompt`` key.
LLM_INFERENCE_BASE_SUFFIXES: Final[tuple[str, ...]] = ("Llm", "LLM", "ChatModel", "Embeddings", "Embedding", "LanguageModel", "Reranker")
LLM_INFERENCE_BODY_KEYS: Final[frozenset[str]] = frozenset({"messages", "prompt", "contents", "input_text"})


def llm_inference_module(path: str) -> bool:
    """Whether a module's path names an LLM or embeddings integration (``llms/cohere.py``, ``apigee_llm.py``)."""
    parts = path.replace("\\", "/").split("/")
    stem = parts[-1].rsplit(".", 1)[0].lower()
    return any(p.lower() in LLM_INFERENCE_MODULE_PARTS for p in parts[:-1]) or any(w in stem for w in LLM_INFERENCE_STEM_PARTS)


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
# Methods of SDK clients built by factories the resolver cannot follow
# (``boto3.client("ses")``): method name -> (module the file must import, class).
SDK_METHODS: Final[Mapping[str, tuple[str, str]]] = {
    "send_email": ("boto3", IRREVERSIBLE),
    "send_raw_email": ("boto3", IRREVERSIBLE),
    "send_templated_email": ("boto3", IRREVERSIBLE),
    "publish": ("boto3", NON_IDEMPOTENT_WRITE),
    "send_message": ("boto3", NON_IDEMPOTENT_WRITE),
    "send_message_batch": ("boto3", NON_IDEMPOTENT_WRITE),
    "chat_postMessage": ("slack_sdk", NON_IDEMPOTENT_WRITE),
    "call_tool": ("mcp", NON_IDEMPOTENT_WRITE),  # a session handed in: ``session.call_tool(name, args)``
}
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
IDEMPOTENCY_HEADERS: Final[frozenset[str]] = frozenset({"idempotencykey", "xidempotencykey"})


# ---------------------------------------------------------------- tools (`smullyan tools`, linter/tools/)

# What makes a function a tool an agent can call, by qualified name -> framework.
# Decorators (``@tool``, ``@tool(...)``, ``@mcp.tool()`` where ``mcp = FastMCP(...)``:
# a method of an instance is spelled ``Class.method``). The configuration's
# ``tool-decorators`` adds to it (framework "configured").
TOOL_DECORATORS: Final[Mapping[str, str]] = {
    **{f"{m}.tool": "langchain" for m in ("langchain_core.tools", "langchain_core.tools.convert",
                                          "langchain.tools", "langchain.agents", "langchain.tools.convert")},
    **{f"{m}.function_tool": "openai-agents" for m in ("agents", "agents.tool")},
    **{f"{m}.tool": "mcp" for m in ("mcp.server.fastmcp.FastMCP", "mcp.server.fastmcp.server.FastMCP",
                                    "fastmcp.FastMCP", "fastmcp.server.FastMCP", "fastmcp.server.server.FastMCP",
                                    "mcp.server.MCPServer", "mcp.server.mcpserver.MCPServer",
                                    "mcp.server.mcpserver.server.MCPServer")},
    # the low-level server: one ``@server.call_tool()`` dispatcher serves the tools ``@server.list_tools()``
    # names (``types.Tool(name=...)``): one row per name, all run by the dispatcher
    **{f"{m}.call_tool": "mcp" for m in ("mcp.server.Server", "mcp.server.lowlevel.Server",
                                         "mcp.server.lowlevel.server.Server")},
    **{f"{m}.kernel_function": "semantic-kernel" for m in ("semantic_kernel.functions",
                                                           "semantic_kernel.functions.kernel_function_decorator")},
    **{f"{m}.Registry.action": "browser-use" for m in ("browser_use.tools.registry.service",
                                                       "browser_use.controller.registry.service")},
    **{f"{m}.{d}": "pydantic-ai" for m in ("pydantic_ai.Agent", "pydantic_ai.agent.Agent",
                                           "pydantic_ai.FunctionToolset", "pydantic_ai.toolsets.FunctionToolset",
                                           "pydantic_ai.toolsets.function.FunctionToolset")
       for d in ("tool", "tool_plain")},
    **{f"{m}.tool": "crewai" for m in ("crewai.tools", "crewai.tools.base_tool", "crewai_tools")},
    **{f"{m}.tool": "smolagents" for m in ("smolagents", "smolagents.tools")},
    **{f"{m}.tool": "agno" for m in ("agno.tools", "agno.tools.decorator")},
    **{f"{m}.tool": "mirascope" for m in ("mirascope.llm", "mirascope.llm.tools", "mirascope.llm.tools.decorator")},
    # metagpt: on a function, or on a class (its public methods are the tool's)
    **{f"{m}.register_tool": "metagpt" for m in ("metagpt.tools.tool_registry",)},
    # strands-agents: ``@tool``, ``@tool(name=..., description=...)`` (the name by keyword only: the first
    # positional parameter is the function), on a function or a method (strands/tools/decorator.py)
    **{f"{m}.tool": "strands" for m in ("strands", "strands.tools", "strands.tools.decorator")},
    **{f"{m}.{d}": "runtime" for m in ("smullyan.runtime", "smullyan.runtime.classification")
       for d in ("read_safe", "idempotent_write", "non_idempotent_write", "irreversible")},
}
# Tool decorators whose framework runs the tool inside a ``try`` that hands the model its failure as an error
# result (text) instead of letting the exception end the agent's turn: decorator qualified name -> (the
# wrapper's method, shown as ``failures_by``; a keyword of the decorator call that turns it off when given
# ``None``, or ""). Each checked against the framework's code:
# strands ``DecoratedFunctionTool.stream`` (strands/tools/decorator.py: ``except Exception as e`` yields a
# ``{"status": "error", "content": [{"text": f"Error: ..."}]}`` result); openai-agents ``@function_tool``
# (agents/tool.py: ``failure_error_function`` defaults to ``default_tool_error_function``, a fixed message;
# ``failure_error_function=None`` re-raises); MCP ``FastMCP``/``MCPServer`` ``@tool`` (the server's
# ``_handle_call_tool`` returns ``CallToolResult(content=[TextContent(text=str(exc))], is_error=True)``).
# Not here: langchain (``BaseTool.run`` turns only ``ToolException`` into text, and only with
# ``handle_tool_error``: a raised ``ToolException`` is already "typed"; any other exception propagates).
TOOL_DECORATOR_TEXT: Final[Mapping[str, tuple[str, str]]] = {
    **{f"{m}.tool": ("strands.tools.decorator.DecoratedFunctionTool.stream", "")
       for m in ("strands", "strands.tools", "strands.tools.decorator")},
    **{f"{m}.function_tool": ("agents.tool._FailureHandlingFunctionToolInvoker.__call__", "failure_error_function")
       for m in ("agents", "agents.tool")},
    **{f"{m}.tool": ("mcp.server.mcpserver.server.MCPServer._handle_call_tool", "")
       for m in ("mcp.server.fastmcp.FastMCP", "mcp.server.fastmcp.server.FastMCP", "mcp.server.MCPServer",
                 "mcp.server.mcpserver.MCPServer", "mcp.server.mcpserver.server.MCPServer")},
}
# Base classes whose subclasses are tools, by qualified name -> (framework, the
# methods that run the tool). "*register" instead of method names: the methods
# the subclass registers by referring to ``self.<method>`` in ``__init__``
# (agno's ``Toolkit(tools=[self.search])``). Subclasses of subclasses count,
# across the files of one run. The configuration's ``tool-base-classes`` adds
# to it (methods ``_run``, ``_arun``, ``run``, ``forward``).
TOOL_BASE_CLASSES: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    **{f"{m}.{c}": ("langchain", ("_run", "_arun")) for m in ("langchain_core.tools", "langchain_core.tools.base",
                                                             "langchain_core.tools.simple",
                                                             "langchain_core.tools.structured", "langchain.tools")
       for c in ("BaseTool", "Tool", "StructuredTool")},
    **{f"{m}.BaseTool": ("crewai", ("_run", "_arun")) for m in ("crewai.tools", "crewai.tools.base_tool")},
    **{f"{m}.{c}": ("smolagents", ("forward",)) for m in ("smolagents", "smolagents.tools")
       for c in ("Tool", "PipelineTool")},
    **{f"{m}.{c}": ("autogen", ("run",)) for m in ("autogen_core.tools", "autogen_core.tools._base")
       for c in ("BaseTool", "BaseToolWithState")},
    **{f"{m}.Toolkit": ("agno", ("*register",)) for m in ("agno.tools", "agno.tools.toolkit")},
    **{f"{m}.BaseTool": ("google-adk", ("run_async",)) for m in ("google.adk.tools", "google.adk.tools.base_tool")},
    **{f"{m}.ToolBase": ("agentscope", ("call",)) for m in ("agentscope.tool", "agentscope.tool._base")},
    **{f"{m}.ToolMessage": ("langroid", ("handle", "handle_async", "response", "response_async"))
       for m in ("langroid", "langroid.agent", "langroid.agent.tool_message")},
    # strands-agents: the ``AgentTool`` interface (strands/types/tools.py, re-imported by strands/tools/tools.py)
    # and ``PythonAgentTool``; the agent's executor runs ``stream``
    **{f"{m}.{c}": ("strands", ("stream",)) for m, c in (("strands.types.tools", "AgentTool"),
                                                         ("strands.tools.tools", "AgentTool"),
                                                         ("strands.tools", "PythonAgentTool"),
                                                         ("strands.tools.tools", "PythonAgentTool"))},
}
# Calls that make a tool of a function passed to them: qualified name ->
# (framework, keyword, position) of the function argument (``FunctionTool.from_defaults(fn=search)``,
# ``FunctionTool(self.search)``); only a function of the same module (or a
# method of the enclosing class) becomes a row.
TOOL_WRAPPERS: Final[Mapping[str, tuple[str, str, int | None]]] = {
    **{f"{m}.FunctionTool.from_defaults": ("llamaindex", "fn", 0)
       for m in ("llama_index.core.tools", "llama_index.core.tools.function_tool")},
    **{f"{m}.{c}.from_function": ("langchain", "func", 0) for m in ("langchain_core.tools", "langchain.tools",
                                                                   "langchain_core.tools.structured",
                                                                   "langchain_core.tools.simple")
       for c in ("StructuredTool", "Tool")},
    **{f"{m}.Tool": ("pydantic-ai", "function", 0) for m in ("pydantic_ai", "pydantic_ai.tools")},
    **{f"{m}.FunctionTool": ("camel", "func", 0) for m in ("camel.toolkits", "camel.toolkits.function_tool")},
    **{f"{m}.FunctionTool": ("autogen", "func", 0) for m in ("autogen_core.tools", "autogen_core.tools._function_tool")},
    **{f"{m}.FunctionTool": ("google-adk", "func", 0) for m in ("google.adk.tools", "google.adk.tools.function_tool")},
    **{f"{m}.PythonAgentTool": ("strands", "tool_func", 2) for m in ("strands.tools", "strands.tools.tools")},
}
# Module-based tools: a module whose top level assigns this name a dict literal holding these keys, and
# defines a function named after the module itself (its file's stem; a package's name for its
# ``__init__.py``), is one tool run by that function, named by the dict's literal "name"; not when the module
# holds a decorated tool of the same framework (they come first). strands-agents: strands/tools/loader.py
# ``load_tools_from_module`` (the function), strands/tools/registry.py ``validate_tool_spec`` (the keys).
TOOL_MODULE_SPECS: Final[Mapping[str, tuple[str, frozenset[str]]]] = {
    "TOOL_SPEC": ("strands", frozenset({"name", "description", "inputSchema"})),
}
# Constructors whose ``tools=[f, g]`` list takes plain functions (pydantic-ai ``Agent(tools=[...])``).
# Besides these, any call whose callee's last name ends in ``Agent`` (``Agent``, ``ChatAgent``,
# ``AssistantAgent``: linter/tools/forms.py ``_AGENT_SUFFIX``) and the configuration's
# ``tool-list-constructors`` (framework "configured").
TOOL_LIST_CONSTRUCTORS: Final[Mapping[str, str]] = {
    **{f"{m}.Agent": "pydantic-ai" for m in ("pydantic_ai", "pydantic_ai.agent")},
    **{f"{m}.FunctionToolset": "pydantic-ai" for m in ("pydantic_ai", "pydantic_ai.toolsets",
                                                       "pydantic_ai.toolsets.function")},
}
# Calls in the timeout tables that are not a call out of the process: they build a
# client (whose timeout its requests inherit) or bound other work; a tool's row
# does not list them as external calls.
TOOL_NOT_EXTERNAL: Final[frozenset[str]] = frozenset(
    {"httpx.Client", "httpx.AsyncClient", "redis.Redis", "redis.from_url", "redis.Redis.from_url",
     "asyncio.wait_for", "asyncio.timeout", "asyncio.timeout_at", "async_timeout.timeout",
     "async_timeout.timeout_at", "anyio.fail_after", "anyio.move_on_after"}
)
# Process calls with no timeout parameter at all (a row lists them, timeout "none possible").
TOOL_PROCESS_CALLS: Final[frozenset[str]] = frozenset(
    {"os.system", "os.popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "subprocess.Popen"}
)
# Activity-style frameworks: a decorator whose last name is one of these, imported from the
# same top-level package as a base class of the class whose method (or a function nested in one) it
# decorates (at any depth: the class's ancestors through the files of the run), makes a tool
# (``from upsonic.tools import ToolKit, tool``; ``@tool`` on ``ToolKit``
# subclass methods) without configuration.
TOOL_DECORATOR_WORDS: Final[frozenset[str]] = frozenset(
    {"tool", "function_tool", "tool_method", "action", "activity", "kernel_function", "register_tool", "toolkit_tool"}
)
# Methods a configured ``tool-base-classes`` subclass runs.
CONFIGURED_TOOL_METHODS: Final[tuple[str, ...]] = ("_run", "_arun", "run", "arun", "forward", "__call__")


# ---------------------------------------------------------------- TFH3xx budgets (rules/retries/paths.py)

# A call whose name (last component, lower case) holds one of these waits: the
# path from a retry loop's handler back to its head that calls one is not hot
# (``time.sleep``, ``asyncio.sleep``, an injected ``sleep``, ``self._backoff(n)``,
# ``event.wait(5)``, ``self.delay(attempt)``).
SLEEP_WORDS: Final[tuple[str, ...]] = ("sleep", "wait", "backoff", "back_off", "delay", "pause")
# A call whose name (lower case) starts like this gives up (raises or exits):
# it bounds a retry loop as ``raise`` does.
GIVE_UP_CALL_PREFIXES: Final[tuple[str, ...]] = ("raise_", "give_up", "giveup", "fail", "abort", "bail")
# Words in a ``for`` loop's target or ``range`` bound that say it counts attempts.
RETRY_COUNTER_WORDS: Final[tuple[str, ...]] = ("attempt", "retr", "tries", "try")
# Exception types that a re-run fails or fixes at once, not after a wait: a
# retry loop that only catches these (re-asking a model after a parse error)
# needs no backoff (TFH303). Last name, exact, or one of the suffixes.
DETERMINISTIC_EXCEPTIONS: Final[frozenset[str]] = frozenset(
    {
        "ValueError", "TypeError", "KeyError", "IndexError", "AttributeError", "AssertionError",
        "JSONDecodeError", "UnicodeDecodeError", "StopIteration", "StopAsyncIteration", "SyntaxError",
        "NotImplementedError", "LookupError", "ValidationError", "OutputParserException",
        "ModelRetry", "UnexpectedModelBehavior", "YAMLError", "ParserError",
        # optimistic concurrency: re-read and retry at once is the documented idiom (redis WATCH)
        "WatchError", "FileExistsError",
    }
)
# The runtime's retry clauses that bound it (besides ``up_to(n).attempts``): a
# ``retrying(...)`` call without one raises ConfigError when built (TFH301).
RUNTIME_BOUND_CLAUSES: Final[frozenset[str]] = frozenset({"within"})
DETERMINISTIC_EXCEPTION_SUFFIXES: Final[tuple[str, ...]] = (
    "ParseError", "ParsingError", "ParserError", "ValidationError", "DecodeError", "FormatError", "OutputParserException",
    "Conflict", "ConflictError",
)
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
# A handler catching only these waits for a lock another holder has (``os.open(..., O_EXCL)``,
# ``fcntl.flock(..., LOCK_NB)``, filelock): a lock wait, not a failure retried (issue 23).
LOCK_BUSY_EXCEPTIONS: Final[frozenset[str]] = frozenset({"FileExistsError", "BlockingIOError", "Timeout", "LockException", "AlreadyLocked"})
# Builtins that reach outside the process (files, the person, code): a retried work of other
# builtins only (``tuple(dir(module))`` retried on "dictionary changed size") works in memory, and
# no wait between its attempts spares anyone (TFH303; issue 23, ``dict-resize-race``).
IO_BUILTINS: Final[frozenset[str]] = frozenset({"open", "input", "print", "exec", "eval", "compile", "__import__", "breakpoint", "help"})
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
# Calls (last name, lower case, prefix) that only log: a message names the retried call, not these.
LOGGING_CALL_PREFIXES: Final[tuple[str, ...]] = ("log", "print", "debug", "info", "warn", "error", "exception", "critical")


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

CLASSES: Final[tuple[str, ...]] = (
    "read-safe",
    "idempotent-write",
    "non-idempotent-write",
    "irreversible",
)


# ---------------------------------------------------------------- TFH201 fixes that would hurt

# Processes that run long by nature (package installs, model pulls and downloads, builds, scans):
# any default timeout would cut a healthy run. The finding stays; the fix is not offered. By program
# name, or (program, subcommand) where only some subcommands run long (``docker pull``, ``git clone``).
LONG_RUNNING_PROCESSES: Final[frozenset[str]] = frozenset({
    "pip", "pip3", "pipx", "uv", "poetry", "pdm", "conda", "mamba", "micromamba", "apt", "apt-get", "aptitude",
    "dnf", "yum", "zypper", "pacman", "apk", "brew", "port", "choco", "winget", "snap", "flatpak", "npm",
    "npx", "yarn", "pnpm", "bun", "cargo", "rustup", "gem", "bundle", "composer", "mvn", "gradle", "gradlew",
    "ant", "sbt", "make", "cmake", "ninja", "bazel", "buck", "msbuild", "dotnet", "gcc", "g++", "clang",
    "go", "tsc", "webpack", "ollama", "huggingface-cli", "hf", "wget", "curl", "aria2c", "rsync", "scp",
    "ffmpeg", "trivy", "semgrep", "bandit", "nmap", "nuclei", "sqlmap", "grype", "snyk", "docker build",
    "docker pull", "docker push", "docker compose", "docker-compose", "podman build", "podman pull",
    "git clone", "git fetch", "git pull", "git push", "kubectl apply", "helm install", "terraform",
    "ansible-playbook", "pytest", "tox", "nox", "uvx", "pipx run", "ensurepip", "docker run", "podman run",
    "playwright install",
    # media playback and speech last as long as the media (found reading batch 3's held-out fixes)
    "say", "espeak", "espeak-ng", "afplay", "aplay", "paplay", "mpg123", "mpv", "vlc", "cvlc", "ffplay",
})
# Sub-commands that install, fetch, build or deploy, whatever the program (``beam deploy``,
# ``modal deploy``, ``foo install``): long by nature too.
LONG_RUNNING_SUBCOMMANDS: Final[frozenset[str]] = frozenset(
    {"install", "deploy", "build", "pull", "push", "clone", "fetch", "upgrade", "download", "compile", "publish"}
)
# Programs whose sub-command (or script, or ``-c`` text) decides what they do: the fix needs it literal.
_SUBCOMMAND_PROGRAMS: Final[frozenset[str]] = _subcommand_programs()


@dataclass(frozen=True)
class Knowledge:
    """The tables above, extended by one configuration.

    Rules read every table through this object (``self.knowledge`` in a
    visitor, the ``knowledge`` argument of a screen), never through this
    module's globals: the three fields are what configuration extends, the
    class attributes below are the library's own tables under lower-case
    names, so a table that configuration later extends needs no rule edit.
    """

    timeouts: Mapping[str, TimeoutParam]
    classify: Mapping[str, str]
    retry_decorators: frozenset[str]

    http_methods: ClassVar[tuple[str, ...]] = HTTP_METHODS
    aliases: ClassVar[Mapping[str, str]] = ALIASES
    factories: ClassVar[Mapping[str, str]] = FACTORIES
    enter_returns_self: ClassVar[frozenset[str]] = ENTER_RETURNS_SELF
    needs_timeout_scope: ClassVar[Mapping[str, str]] = NEEDS_TIMEOUT_SCOPE
    no_timeout_parameter: ClassVar[Mapping[str, str]] = NO_TIMEOUT_PARAMETER
    worker_thread_calls: ClassVar[frozenset[str]] = WORKER_THREAD_CALLS
    timeout_wrappers: ClassVar[frozenset[str]] = TIMEOUT_WRAPPERS
    long_running_processes: ClassVar[frozenset[str]] = LONG_RUNNING_PROCESSES
    cli_frameworks: ClassVar[frozenset[str]] = CLI_FRAMEWORKS
    cli_decorator_words: ClassVar[frozenset[str]] = CLI_DECORATOR_WORDS
    timeout_scopes: ClassVar[frozenset[str]] = TIMEOUT_SCOPES
    timeout_objects: ClassVar[Mapping[str, tuple[str, ...]]] = TIMEOUT_OBJECTS
    timeout_object_non_deadlines: ClassVar[frozenset[str]] = TIMEOUT_OBJECT_NON_DEADLINES
    timeout_objects_omitted_none: ClassVar[frozenset[str]] = TIMEOUT_OBJECTS_OMITTED_NONE
    blocking_in_async: ClassVar[Mapping[str, str]] = BLOCKING_IN_ASYNC
    runtime_modules: ClassVar[tuple[str, ...]] = RUNTIME_MODULES
    tool_error_constructors: ClassVar[frozenset[str]] = TOOL_ERROR_CONSTRUCTORS
    exception_text_attributes: ClassVar[frozenset[str]] = EXCEPTION_TEXT_ATTRIBUTES
    traceback_formatters: ClassVar[frozenset[str]] = TRACEBACK_FORMATTERS
    recording_methods: ClassVar[frozenset[str]] = RECORDING_METHODS
    recording_functions: ClassVar[frozenset[str]] = RECORDING_FUNCTIONS
    recording_name_parts: ClassVar[tuple[str, ...]] = RECORDING_NAME_PARTS
    exception_args_attributes: ClassVar[frozenset[str]] = EXCEPTION_ARGS_ATTRIBUTES
    text_building_calls: ClassVar[frozenset[str]] = TEXT_BUILDING_CALLS
    text_passing_builtins: ClassVar[frozenset[str]] = TEXT_PASSING_BUILTINS
    text_passing_methods: ClassVar[frozenset[str]] = TEXT_PASSING_METHODS
    exception_keywords: ClassVar[frozenset[str]] = EXCEPTION_KEYWORDS
    text_producer_name_parts: ClassVar[tuple[str, ...]] = TEXT_PRODUCER_NAME_PARTS
    text_producer_name_prefixes: ClassVar[tuple[str, ...]] = TEXT_PRODUCER_NAME_PREFIXES
    parser_errors: ClassVar[frozenset[str]] = PARSER_ERRORS
    reprompt_keyword_part: ClassVar[str] = REPROMPT_KEYWORD_PART
    reprompt_call_suffix: ClassVar[str] = REPROMPT_CALL_SUFFIX
    format_errors: ClassVar[frozenset[str]] = FORMAT_ERRORS
    error_discriminator_keys: ClassVar[frozenset[str]] = ERROR_DISCRIMINATOR_KEYS
    error_discriminator_attributes: ClassVar[frozenset[str]] = ERROR_DISCRIMINATOR_ATTRIBUTES
    message_constructors: ClassVar[frozenset[str]] = MESSAGE_CONSTRUCTORS
    web_app_classes: ClassVar[frozenset[str]] = WEB_APP_CLASSES
    format_error_builtins: ClassVar[frozenset[str]] = FORMAT_ERROR_BUILTINS
    argument_validation_errors: ClassVar[frozenset[str]] = ARGUMENT_VALIDATION_ERRORS
    web_route_methods: ClassVar[frozenset[str]] = WEB_ROUTE_METHODS
    web_route_decorators: ClassVar[frozenset[str]] = WEB_ROUTE_DECORATORS
    web_response_calls: ClassVar[frozenset[str]] = WEB_RESPONSE_CALLS
    cli_command_decorators: ClassVar[frozenset[str]] = CLI_COMMAND_DECORATORS
    tool_decorators: ClassVar[Mapping[str, str]] = TOOL_DECORATORS
    tool_base_classes: ClassVar[Mapping[str, tuple[str, tuple[str, ...]]]] = TOOL_BASE_CLASSES
    message_dict_forms: ClassVar[tuple[tuple[str, str], ...]] = MESSAGE_DICT_FORMS
    container_filling_methods: ClassVar[frozenset[str]] = CONTAINER_FILLING_METHODS
    code_running_builtins: ClassVar[frozenset[str]] = CODE_RUNNING_BUILTINS
    code_running_calls: ClassVar[frozenset[str]] = CODE_RUNNING_CALLS
    code_running_name_parts: ClassVar[tuple[str, ...]] = CODE_RUNNING_NAME_PARTS
    tool_module_prefixes: ClassVar[tuple[str, ...]] = TOOL_MODULE_PREFIXES
    tool_calls: ClassVar[frozenset[str]] = TOOL_CALLS
    tool_methods: ClassVar[frozenset[str]] = TOOL_METHODS
    tool_receiver_words: ClassVar[frozenset[str]] = TOOL_RECEIVER_WORDS
    reachability_name_parts: ClassVar[tuple[str, ...]] = REACHABILITY_NAME_PARTS
    benign_fallback_name_parts: ClassVar[tuple[str, ...]] = BENIGN_FALLBACK_NAME_PARTS
    in_memory_libraries: ClassVar[frozenset[str]] = IN_MEMORY_LIBRARIES
    pure_calls: ClassVar[frozenset[str]] = PURE_CALLS
    pure_methods: ClassVar[frozenset[str]] = PURE_METHODS
    existence_name_prefixes: ClassVar[tuple[str, ...]] = EXISTENCE_NAME_PREFIXES
    existence_name_suffixes: ClassVar[tuple[str, ...]] = EXISTENCE_NAME_SUFFIXES
    predicate_prefixes: ClassVar[tuple[str, ...]] = PREDICATE_PREFIXES
    action_verbs: ClassVar[frozenset[str]] = ACTION_VERBS
    cleanup_function_words: ClassVar[frozenset[str]] = CLEANUP_FUNCTION_WORDS
    cleanup_function_name_parts: ClassVar[tuple[str, ...]] = CLEANUP_FUNCTION_NAME_PARTS
    # TFH1xx retry safety (the retry model and effects read the module's tables directly)
    write_classes: ClassVar[Mapping[str, str]] = WRITE_CLASSES
    permanent_statuses: ClassVar[frozenset[int]] = PERMANENT_STATUSES
    permanent_tags: ClassVar[frozenset[str]] = PERMANENT_TAGS
    permanent_exceptions: ClassVar[frozenset[str]] = PERMANENT_EXCEPTIONS
    every_exception: ClassVar[frozenset[str]] = EVERY_EXCEPTION
    server_error_statuses: ClassVar[frozenset[int]] = SERVER_ERROR_STATUSES
    rate_limit_status: ClassVar[int] = RATE_LIMIT_STATUS
    rate_limit_words: ClassVar[tuple[str, ...]] = RATE_LIMIT_WORDS
    retries_429_implicitly: ClassVar[frozenset[str]] = RETRIES_429_IMPLICITLY
    reprompt_call_words: ClassVar[frozenset[str]] = REPROMPT_CALL_WORDS
    compensation_words: ClassVar[frozenset[str]] = COMPENSATION_WORDS
    compensation_function_words: ClassVar[frozenset[str]] = COMPENSATION_FUNCTION_WORDS
    compensation_exempt_functions: ClassVar[frozenset[str]] = COMPENSATION_EXEMPT_FUNCTIONS
    local_cancel_methods: ClassVar[frozenset[str]] = LOCAL_CANCEL_METHODS
    local_cancel_receiver_words: ClassVar[frozenset[str]] = LOCAL_CANCEL_RECEIVER_WORDS
    already_gone_errors: ClassVar[frozenset[str]] = ALREADY_GONE_ERRORS
    already_gone_error_parts: ClassVar[tuple[str, ...]] = ALREADY_GONE_ERROR_PARTS
    # issue 23
    status_error_exceptions: ClassVar[frozenset[str]] = STATUS_ERROR_EXCEPTIONS
    io_builtins: ClassVar[frozenset[str]] = IO_BUILTINS
    file_contention_calls: ClassVar[frozenset[str]] = FILE_CONTENTION_CALLS
    llm_inference_base_suffixes: ClassVar[tuple[str, ...]] = LLM_INFERENCE_BASE_SUFFIXES
    llm_inference_body_keys: ClassVar[frozenset[str]] = LLM_INFERENCE_BODY_KEYS
    interactive_processes: ClassVar[Mapping[str, ProcessNote]] = INTERACTIVE_PROCESSES
    interactive_confirms: ClassVar[frozenset[str]] = INTERACTIVE_CONFIRMS
    interactive_process = staticmethod(interactive_process)
    llm_sdk_clients: ClassVar[frozenset[str]] = LLM_SDK_CLIENTS
    stream_calls: ClassVar[frozenset[str]] = STREAM_CALLS
    process_fix_refusal = staticmethod(process_fix_refusal)
    shell_commands = staticmethod(shell_commands)
    llm_inference_module = staticmethod(llm_inference_module)
    suppressors: ClassVar[frozenset[str]] = SUPPRESSORS
    tool_error_variants: ClassVar[tuple[str, ...]] = TOOL_ERROR_VARIANTS
    tool_error_classes: ClassVar[Mapping[str, str]] = TOOL_ERROR_CLASSES
    tool_error_union: ClassVar[frozenset[str]] = TOOL_ERROR_UNION
    result_types: ClassVar[frozenset[str]] = RESULT_TYPES
    ok_classes: ClassVar[frozenset[str]] = OK_CLASSES
    err_classes: ClassVar[frozenset[str]] = ERR_CLASSES
    err_field: ClassVar[str] = ERR_FIELD
    tool_error_parsers: ClassVar[frozenset[str]] = TOOL_ERROR_PARSERS
    assert_never: ClassVar[frozenset[str]] = ASSERT_NEVER
    tag_attribute: ClassVar[str] = TAG_ATTRIBUTE
    wire_tag_key: ClassVar[str] = WIRE_TAG_KEY

    @staticmethod
    def canonical(qualname: str) -> str:
        """Map a submodule spelling to the canonical one (see :func:`canonical`)."""
        return canonical(qualname)

    @classmethod
    def build(
        cls,
        timeout_required: tuple[str, ...] = (),
        classify: Mapping[str, str] | None = None,
        retry_decorators: tuple[str, ...] = (),
    ) -> "Knowledge":
        timeouts = dict(TIMEOUTS)
        for entry in timeout_required:
            name, _, keyword = entry.partition(":")
            timeouts[name] = TimeoutParam(keyword=keyword or "timeout", default="none configured")
        return cls(timeouts, dict(classify or {}), frozenset(retry_decorators))

    def memo(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """``build()``, computed once per ``key`` for this (frozen) Knowledge.

        For what a rule derives from the tables (``{q.rsplit(".", 1)[1] for q in
        knowledge.traceback_formatters}``): computed once per configuration,
        not once per file, and still following what configuration adds.
        """
        cache: dict[Hashable, Any] = self.__dict__.setdefault("_memo_cache", {})
        if key not in cache:
            cache[key] = build()
        return cast(_T, cache[key])

    def _memo(self, table: str, kind: str, build: Callable[[], _T]) -> _T:
        return self.memo((table, kind), build)

    def _timeout_names(self, kind: str) -> list[str]:
        if kind == "missing":
            return [q for q, spec in self.timeouts.items() if spec.required] + sorted(NEEDS_TIMEOUT_SCOPE) + sorted(NO_TIMEOUT_PARAMETER)
        return [q for q, spec in self.timeouts.items() if spec.none_is_infinite] + list(TIMEOUT_OBJECTS)

    def screen_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        """Module root -> callee names whose presence makes a file a candidate.

        ``kind`` is ``"missing"`` (TFH201: calls that need a timeout) or
        ``"none"`` (TFH202: calls where ``None`` disables it). For a method of
        a class, the object has to be built in the module for the call to
        resolve at all, so the class (or its factory) is what to look for:
        ``asyncio.subprocess.Process.wait`` screens on
        ``create_subprocess_exec``, not on every ``.wait()``.
        """
        return self._memo("screen_names", kind, lambda: self._build_screen_names(kind))

    def _build_screen_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        names = self._timeout_names(kind)
        producers: dict[str, set[str]] = {}
        for factory, cls in FACTORIES.items():
            producers.setdefault(cls, set()).add(factory.rsplit(".", 1)[1])
        out: dict[str, set[str]] = {}
        for q in names:
            parts = q.split(".")
            target = out.setdefault(parts[0], set())
            cls_idx = [i for i in range(1, len(parts) - 1) if parts[i][:1].isupper()]
            if not cls_idx:
                target.add(parts[-1])
            else:
                i = cls_idx[-1]
                target.add(parts[i])
                target |= producers.get(".".join(parts[: i + 1]), set())
        return {root: frozenset(v) for root, v in out.items()}

    def spot_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        """:meth:`screen_names` plus the method names themselves (``post``, ``wait``).

        The screen looks for the class or its factory; the finding sits on the
        method call, possibly in another method than the one that built the
        object (``self.s = requests.Session()`` in ``__init__``), so the
        definitions to parse are those that call either.
        """
        return self._memo("spot_names", kind, lambda: self._build_spot_names(kind))

    def _build_spot_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        out = {root: set(v) for root, v in self.screen_names(kind).items()}
        for q in self._timeout_names(kind):
            out.setdefault(q.split(".")[0], set()).add(q.rsplit(".", 1)[-1])
        return {root: frozenset(v) for root, v in out.items()}

    def spot_imports(self, kind: str) -> frozenset[str]:
        """Qualified names an import must bind for a bare call of it to be a spot.

        Every name of :meth:`spot_names`'s kind, its factories, and each of
        their prefixes: ``from requests import Session`` is one,
        ``from urllib.parse import quote`` is not (``urllib`` is a root only
        for ``urllib.request.urlopen``).
        """
        return self._memo("spot_imports", kind, lambda: self._build_spot_imports(kind))

    def _build_spot_imports(self, kind: str) -> frozenset[str]:
        out: set[str] = set()
        for q in (*self._timeout_names(kind), *FACTORIES):
            parts = q.split(".")
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return frozenset(out)

    def module_roots(self) -> frozenset[str]:
        """Top-level module names whose import makes a file a timeout candidate."""
        return TIMEOUT_MODULE_ROOTS | frozenset(q.split(".")[0] for q in self.timeouts)

    def call_names(self) -> frozenset[str]:
        """Last components of every call the timeout rules know."""
        names = {q.rsplit(".", 1)[-1] for q in (*self.timeouts, *NEEDS_TIMEOUT_SCOPE, *NO_TIMEOUT_PARAMETER)}
        names |= {q.rsplit(".", 1)[-1] for q in TIMEOUT_OBJECTS}
        return frozenset(names)


def canonical(qualname: str) -> str:
    """Map a submodule spelling to the canonical one (``requests.sessions.Session`` ...)."""
    if qualname in ALIASES:
        return ALIASES[qualname]
    head, _, tail = qualname.rpartition(".")
    while head:
        if head in ALIASES:
            return f"{ALIASES[head]}.{qualname[len(head) + 1:]}"
        head, _, _ = head.rpartition(".")
    return qualname


def markdown_calls(names: Iterable[str], note: Callable[[str], str | None] | None = None) -> str:
    """A Markdown list of qualified names grouped by owner, for rule docs generated from the tables.

    ``["requests.get", "requests.post", "requests.Session.get"]`` becomes
    ``- `requests`: `get`, `post``` and ``- `requests.Session`: `get```, in
    the order the owners first appear.
    """
    groups: dict[str, list[str]] = {}
    for q in names:
        owner, _, last = q.rpartition(".")
        members = groups.setdefault(owner, [])
        extra = note(q) if note is not None else None
        entry = f"`{last}`" + (f" ({extra})" if extra else "")
        if entry not in members:
            members.append(entry)
    lines = []
    for owner, members in groups.items():
        listed = ", ".join(members)
        lines.append(f"- `{owner}`: {listed}" if owner else f"- {listed}")
    return "\n".join(lines)


def markdown_words(words: Iterable[str], last: str = "and") -> str:
    """```a`, `b` and `c``` for docs (``last="or"``: ``... or `c```): the given order, or sorted for a set."""
    items = sorted(words) if isinstance(words, (set, frozenset)) else list(words)
    quoted = [f"`{w}`" for w in items]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + f" {last} " + quoted[-1]
