"""TFH201 call-without-timeout."""

from __future__ import annotations

import ast

import libcst as cst

from ...linter.api import (
    FileContext,
    Knowledge,
    NodeEdit,
    RawFix,
    Rule,
    Screen,
    add_keyword,
    argument,
    dotted,
    has_star,
    keyword_arg,
    last_name,
    markdown_calls,
    markdown_words,
    timeout_escapes_handler,
    walk_in_scope,
)
from .process import caught_names, command_words, segments, suppressed_names
from .screen import helper_lines, timeout_calls

_DEFAULTS = Knowledge.build()  # the library's own tables, for the docs
_KILLS = ("kill", "terminate")
_WAITS = ("communicate", "wait")
_RUNS = frozenset({"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"})


def _calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """The calls under ``node`` in its own scope (none under a nested ``def``/``class``/``lambda``; none
    at all when ``node`` is one). Walks the engine's field walk, not libcst's ``children`` (which
    re-creates every node it passes: this runs for every statement of every block)."""
    if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        return []
    return [n for n in walk_in_scope(node) if type(n) is cst.Call]


_PROCESS_RUNS = frozenset({"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"})
_POPEN_WAITS = frozenset({"subprocess.Popen.communicate", "subprocess.Popen.wait"})
_EXITS = frozenset({"sys.exit", "os._exit"})
_ENV_READS = frozenset({"os.environ.get", "os.getenv", "os.environ.__getitem__"})


_KILL_WORDS = ("kill", "terminate", "stop", "shutdown", "cleanup", "reap")


def _proc_names(node: cst.BaseExpression) -> set[str]:
    """``proc`` for ``proc``, ``proc.pid``, ``proc.kill`` (what a kill is handed)."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.attr.value in ("pid", *_KILLS):
        return {node.value.value}
    if isinstance(node, cst.Call):  # os.getpgid(proc.pid)
        return {n for a in node.args for n in _proc_names(a.value)}
    return set()


def _kills(call: cst.Call) -> set[str]:
    """The processes a call kills: ``proc.kill()``, ``proc.terminate()``, ``proc.send_signal(...)``, or a
    helper named for it handed the process or its pid (``_kill(proc)``, ``os.killpg(os.getpgid(proc.pid), 9)``,
    ``threading.Timer(t, proc.kill)``)."""
    f = call.func
    if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.attr.value in (*_KILLS, "send_signal"):
        return {f.value.value}
    name = (last_name(f) or "").lower()
    out: set[str] = set()
    if any(w in name for w in _KILL_WORDS) or name == "timer":
        for a in call.args:
            if name == "timer" and not (isinstance(a.value, cst.Attribute) and a.value.attr.value in _KILLS):
                continue
            out |= _proc_names(a.value)
    return out


def _statement_kills(stmt: cst.BaseStatement | cst.BaseSmallStatement) -> set[str]:
    """The processes a statement surely kills when it completes: a kill call on its own line, or
    inside a ``try:`` / ``with suppress(...):`` body, or under ``if proc.poll() is None:`` /
    ``if proc.returncode is None:`` (the process has exited otherwise); not a kill in a branch
    taken for another reason."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return {n for c in _calls_in(stmt) for n in _kills(c)}
    if isinstance(stmt, (cst.Try, cst.With, cst.If)) and isinstance(stmt.body, cst.IndentedBlock):
        out = {n for s in stmt.body.body for n in _statement_kills(s)}
        if isinstance(stmt, cst.If):
            # only a test about the process itself (`proc.poll() is None`, `proc.returncode is None`, `proc.pid`)
            asked = set(_names_in(stmt.test)) - {"None", "True", "False"}
            if not asked or not asked <= out:
                return set()
        return out
    return set()


def _names_in(node: cst.CSTNode) -> list[str]:
    """The names a test reads; ``proc.returncode``/``proc.poll()``/``proc.pid`` read ``proc``, any other
    attribute reads something else (``""``)."""
    out: list[str] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n.value)
        elif isinstance(n, cst.Attribute):
            if n.attr.value in ("returncode", "poll", "pid"):
                stack.append(n.value)
            else:
                out.append("")
        else:
            stack.extend(n.children)
    return out


def _keyword_note(qualname: str) -> str | None:
    keyword = _DEFAULTS.timeouts[qualname].keyword
    return f"`{keyword}`" if keyword != "timeout" else None


class CallWithoutTimeout(Rule):
    code = "TFH201"
    name = "call-without-timeout"
    summary = "A blocking network or process call has no timeout."
    message = "{call} has no {keyword}; {fix}"
    docs = f"""\
## What it does
Finds blocking network and process calls made without a timeout. The calls
it knows (from `linter/knowledge.py`; the keyword it looks for is `timeout`
unless another is named):

{markdown_calls((q for q, spec in _DEFAULTS.timeouts.items() if spec.required), _keyword_note)}

and, with no timeout parameter at all, these outside a timeout scope
({markdown_words(_DEFAULTS.timeout_wrappers | _DEFAULTS.timeout_scopes, "or")}):

{markdown_calls(_DEFAULTS.needs_timeout_scope)}

and, with no timeout parameter at all and no scope that bounds them (no fix;
the message says what to do):

{markdown_calls(_DEFAULTS.no_timeout_parameter)}

Names are resolved from the module's imports (`import requests as rq`,
`from requests import post as send`, `s = requests.Session()`,
`with smtplib.SMTP(...) as smtp`, an optional import `try: import redis
except ImportError: redis = None` in a module or a function,
`importlib.import_module("redis")`), from what an assignment builds
(`self.session = session or requests.Session()`, `s if s else
requests.Session()`, a pydantic validator's `values["session"] =
requests.Session()` for the field `self.session`, `docker.from_env()
.containers.run(...)`), from annotations (`session: requests.Session`,
`Optional[Session]`, a class field `session: requests.Session`), and from
helpers of the same module (`_get_session()`, `self._session()`, a
`@property`) by their return annotation or what they return; the
`timeout-required` setting adds your own.

Not reported: httpx (5 s default) and aiohttp (5 min default) calls without a
timeout; a timeout passed through `**kwargs`, `*args` or a variable; the
documented clean-up `proc.kill()` followed by `proc.communicate()` (also
when a helper does the kill, `_kill_tree(proc)`, `os.killpg(...proc.pid...)`,
or a `threading.Timer(t, proc.kill)` was started before); a docker
`exec_run` with `detach=True`, of a literal instant command, or in a lambda
handed to `run_in_executor`/`to_thread`; a `wait()` right after a `while proc.poll() is None:` loop
(it reaps a process that exited or was killed); processes with no timeout to
give (`linter/knowledge.py`: `INTERACTIVE_PROCESSES`, by program or first
words): an editor (`$EDITOR`, `$VISUAL`, `vim`, ...), a pager (`less`,
`jless`, `man`, ...), a desktop opener (`open`, `xdg-open`, `explorer`,
`start`), an IDE (`cursor`, `pycharm`, ...), a dialog, picker or terminal
UI (`zenity`, `fzf`, `lazygit`), an interactive shell, a foreground dev
server run for a person (`npm run dev`, `uvicorn`, `streamlit run`,
`fastmcp dev`, `python -m http.server`, ...), an instant local command or
read (`which`, `chmod`, `crontab -l`, `pbcopy`, `git rev-parse`, `git blame`,
`uv python pin`, a program asked only for `--version`/`--help`, ...), and a
package install the person asked for (`pip install --upgrade`, or an install
under `if click.confirm(...)`); a process a CLI command runs in the
foreground (in a function decorated as a `click`/`typer`/`cyclopts`
command, a script's `main()` that reads its command line with
`parse_args()`, or its `if __name__ == "__main__":` block; nothing captured:
its output is on the person's terminal and the person stops it); a process
whose exit code becomes the
program's (`r = subprocess.run(...)` then `sys.exit(r.returncode)`, `raise
SystemExit(subprocess.call(...))`): a CLI handing the terminal to a
foreground child. A `shell=True` line is silent only when each of its
commands is.

## Why is this bad?
These calls wait forever by default. One hung server or child process stalls
the agent's whole turn, and no retry or budget ever runs because nothing fails.

## Example
```python
import requests

def fetch(url):
    return requests.get(url).json()
```

## Use instead
```python
import requests

def fetch(url):
    return requests.get(url, timeout=(3.05, 30)).json()
```

## Fix
`smullyan lint --fix` adds the timeout keyword the call takes (`timeout=`,
`socket_timeout=` for redis) set to `default-timeout-seconds` (30 unless
configured): `requests.get(url)` becomes `requests.get(url, timeout=30)`.
This changes what the program does on purpose: a call that waited forever
now raises (`requests.Timeout`, `subprocess.TimeoutExpired`,
`socket.timeout`) after that many seconds, so the caller's handling of that
error starts to matter. No fix (the finding stays, and says why) where a
default would hurt:
- a process whose command is not a literal the linter can read (a variable,
  `[binary, ...]`, `["git", *args]`, `[sys.executable, script]`, `bash -c
  line`, a shell line that goes on past its literal text): it may be an
  editor, a dev server or a long job the linter cannot see; a local name
  assigned one literal command (`cmd = ["ruff", "check", path]`) is read
  through;
- a process that may wait at a password prompt (`sudo`, `ssh`, `gpg`) or
  runs long by nature (`LONG_RUNNING_PROCESSES`: installs, model pulls and
  downloads, builds, scans, `git clone`), also as one step of a shell line;
- `Popen.communicate()`/`wait()` (a timeout there needs the kill-and-reap
  clean-up); a call inside a `try` (or a `contextlib.suppress(...)` block)
  whose handlers catch its other failures but not the new timeout exception
  (`subprocess.TimeoutExpired`, `requests.Timeout`, `socket.timeout`,
  redis' `TimeoutError`): the fix would let it escape the handler;
- an HTTP request that runs an LLM generation (from an LLM integration's
  module, a class deriving from `...LLM`/`...ChatModel`, a body with
  `messages`/`prompt`): a default would cut long generations, as TFH202 says;
- the calls that need a timeout scope (`asyncio` subprocess waits): where
  the deadline goes is a decision.

## How to suppress
`# noqa: TFH201` on the line, or `ignore`/`per-file-ignores` in the
configuration. To teach it another client, add the call's qualified name to
`timeout-required` (`"mylib.fetch"` or `"mylib.fetch:request_timeout"`).
"""
    VALID = [
        """\
import requests
requests.get("https://x", timeout=5)
requests.post("https://x", json={}, timeout=(3, 10))
""",
        """\
import httpx
httpx.get("https://x")
with httpx.Client() as c:
    c.post("https://x")
""",
        """\
import requests
def call(url, **kwargs):
    return requests.get(url, **kwargs)
def call2(url, t):
    return requests.get(url, timeout=t)
""",
        """\
class Api:
    def post(self, url):
        return url
    def run(self):
        return self.post("x")
""",
        """\
import requests
def f(requests):
    return requests.get("x")
""",
        """\
import subprocess
proc = subprocess.Popen(["ls"])
try:
    out, err = proc.communicate(timeout=15)
except subprocess.TimeoutExpired:
    proc.kill()
    out, err = proc.communicate()
subprocess.run(["ls"], timeout=10, check=True)
""",
        """\
import asyncio
async def main():
    proc = await asyncio.create_subprocess_exec("ls")
    await asyncio.wait_for(proc.communicate(), timeout=10)
    async with asyncio.timeout(5):
        await proc.wait()
""",
        """\
import asyncio
async def main():
    proc = await asyncio.create_subprocess_exec("ls")
    async with asyncio.timeout(5):
        class Reader:
            data = proc.communicate()  # a class body runs in the block
""",
        """\
import aiohttp
async def main():
    async with aiohttp.ClientSession() as s:
        async with s.get("https://x") as r:
            return await r.text()
""",
        """\
import my_module
my_module.get("x")
from urllib.request import urlopen
urlopen("https://x", None, 10)
""",
        """\
import redis
r = redis.Redis(host="h", socket_timeout=5)
""",
        """\
import imaplib, poplib, requests
def mail(host, session: requests.Session):
    imaplib.IMAP4_SSL(host, timeout=10)
    imaplib.IMAP4(host, 143, 10)
    poplib.POP3(host, 110, 10)
    return session.get("https://x", timeout=5)
def helper() -> "Session":  # not requests': unknown
    ...
def use():
    return helper().get("https://x")
""",
        # processes with no timeout to give: a person waits on them, or they finish at once
        """\
import os, subprocess, sys
import click
def edit(path):
    editor = os.environ.get("EDITOR", "vi")
    subprocess.run([editor, path])
    subprocess.call([os.environ["VISUAL"], path])
    subprocess.run(["xdg-open", path])
    subprocess.run(["cmd", "/c", "start", "", path])
    subprocess.run("open " + path, shell=True)
    with subprocess.Popen(["less", path]) as pager:
        pager.wait()
def find_chrome():
    return subprocess.run(["which", "google-chrome"], capture_output=True)
def check_branch(name):
    subprocess.run(["git", "check-ref-format", f"refs/heads/{name}"], check=True)
def upgrade():
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--upgrade", "mytool"])
def install():
    if click.confirm("Install patronus?"):
        subprocess.run(["uv", "add", "patronus"], check=True)
""",
        # the wait reaps a process the poll loop saw exit or killed at its deadline
        """\
import subprocess, time
def run(argv, deadline):
    proc = subprocess.Popen(argv)
    while proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            break
        time.sleep(0.05)
    proc.wait()
""",
        # foreground dev servers and pagers run for a person; a shell line of such steps
        """\
import subprocess, sys
def serve(path):
    subprocess.run(["npm", "run", "dev"], cwd=path)
    subprocess.run([sys.executable, "-m", "uvicorn", "app:app", "--reload"])
    subprocess.run("cd docs && mintlify dev", shell=True)
    subprocess.run(["jless", path])
""",
        # a CLI handing the terminal to a foreground child: its exit code is the CLI's
        """\
import subprocess, sys
def test(path, args):
    result = subprocess.run([sys.executable, "-m", "pytest", path, *args])
    sys.exit(result.returncode)
def inspect(cmd):
    raise SystemExit(subprocess.call(cmd))
def later(path):
    import os
    import subprocess
    os._exit(subprocess.call(["npx", "@modelcontextprotocol/inspector", path]))
""",
        # a kill done by a helper (or a timer), then the reaping wait
        """\
import os, signal, subprocess, threading
def _kill_tree(p):
    os.killpg(os.getpgid(p.pid), signal.SIGKILL)
def run(argv, t):
    proc = subprocess.Popen(argv, start_new_session=True)
    try:
        return proc.communicate(timeout=t)
    except subprocess.TimeoutExpired:
        _kill_tree(proc)
        return proc.communicate()
def timed(argv):
    proc = subprocess.Popen(argv)
    threading.Timer(10, proc.kill).start()
    return proc.communicate()
""",
        # docker exec that returns at once, runs an instant command, or runs in a worker thread
        """\
import asyncio
import docker
def prepare():
    container = docker.from_env().containers.run("img", detach=True)
    container.exec_run(["mkdir", "-p", "/work"])
    container.exec_run("sleep 100", detach=True)
    return container
async def run(container, cmd):
    loop = asyncio.get_running_loop()
    job = loop.run_in_executor(None, lambda: container.exec_run(cmd))
    return await asyncio.wait_for(job, 30)
""",
        # a CLI command's foreground process: its output is on the person's terminal, they stop it
        """\
import argparse
import subprocess
import click
import typer
app = typer.Typer()
@click.group()
def cli():
    pass
@cli.command()
def dev(port):
    subprocess.run(["acme-server", "--port", str(port), "--reload"])
@app.command()
def test(path):
    subprocess.run(["pytest", path], check=True)
@click.command()
def upgrade():
    subprocess.check_call(["pip", "install", "-U", "acme"])
def main():
    args = argparse.ArgumentParser().parse_args()
    subprocess.run(["acme-server", args.config])
if __name__ == "__main__":
    subprocess.call(["acme-docs", "serve"])
""",
        # instant local commands and reads: the crontab, the clipboard, a version query, a local git read,
        # a local setting; IDEs and terminal UIs wait for a person
        """\
import subprocess
def crontab():
    return subprocess.run(["crontab", "-l"], capture_output=True, text=True).stdout
def copy(text):
    subprocess.run(["pbcopy"], input=text.encode())
def version():
    return subprocess.check_output(["node", "--version"], text=True)
def blame(path, root):
    return subprocess.check_output(["git", "blame", "--line-porcelain", path], cwd=root, text=True)
def pin():
    subprocess.run(["uv", "python", "pin", "3.12"], check=True)
def ide(path):
    subprocess.run(["cursor", path])
    subprocess.run(["lazygit"])
""",
    ]
    INVALID = [
        """\
import requests
requests.post("https://x", json={})  # error: TFH201:1 "pass timeout=(connect, read) seconds so a hung server"
""",
        """\
import requests as rq
rq.get("https://x")  # error: TFH201
from requests import post as send
send("https://x")  # error: TFH201
""",
        """\
import requests
s = requests.Session()
s.get("https://x")  # error: TFH201
with requests.Session() as session:
    session.put("https://x", data=b"")  # error: TFH201
""",
        """\
import requests
class Client:
    def __init__(self):
        self.session = requests.Session()
    def fetch(self):
        return self.session.get("https://x")  # error: TFH201
""",
        """\
import urllib.request
urllib.request.urlopen("https://x")  # error: TFH201
from urllib import request
request.urlopen("https://x")  # error: TFH201
""",
        """\
import smtplib, socket, ftplib, http.client
with smtplib.SMTP("mail") as smtp:  # error: TFH201
    smtp.sendmail("a", ["b"], "m")
socket.create_connection(("h", 80))  # error: TFH201
ftplib.FTP("h")  # error: TFH201
http.client.HTTPSConnection("h")  # error: TFH201
http.client.HTTPConnection("h", 80)  # error: TFH201
""",
        """\
import subprocess
subprocess.run(["ls"], check=True)  # error: TFH201 "pass timeout=<seconds> so a hung process"
subprocess.check_output(["ls"])  # error: TFH201
with subprocess.Popen(["ls"]) as proc:
    proc.wait()  # error: TFH201
""",
        # a network command is not instant, an install nobody confirmed is not asked for
        """\
import subprocess
def sync(repo):
    subprocess.run(["git", "clone", repo], check=True)  # error: TFH201
    subprocess.run(["pip", "install", "requests"], check=True)  # error: TFH201
    proc = subprocess.Popen(["npx", "server"])
    proc.wait()  # error: TFH201
""",
        """\
import asyncio
async def main():
    proc = await asyncio.create_subprocess_exec("ls")
    out, err = await proc.communicate()  # error: TFH201 "wrap it in asyncio.wait_for"
""",
        # a function defined under a deadline runs later, without it
        """\
import asyncio
async def main():
    proc = await asyncio.create_subprocess_exec("ls")
    async with asyncio.timeout(5):
        async def later():
            await proc.wait()  # error: TFH201
        finish = lambda: proc.communicate()  # error: TFH201
        await asyncio.wait_for(later(), 1)
""",
        """\
import websocket, redis
ws = websocket.create_connection("ws://x")  # error: TFH201
r = redis.Redis(host="h")  # error: TFH201:5 "redis.Redis has no socket_timeout; pass socket_timeout=<seconds>"
""",
        """\
import requests
def _get_session() -> requests.Session:
    return make_session()
class Tool:
    def _session(self) -> requests.Session:
        return requests.Session()
    @property
    def http(self) -> "requests.Session":
        return self._session()
    def run(self, url):
        self._session().get(url)  # error: TFH201 "requests.Session.get"
        return self.http.post(url, json={})  # error: TFH201
def fetch(url):
    s = _get_session()
    return s.get(url)  # error: TFH201
""",
        """\
from typing import Optional
import requests
from requests import Session
def fetch(session: requests.Session, url):
    return session.get(url)  # error: TFH201
async def afetch(url, session: Optional[Session] = None):
    return session.get(url)  # error: TFH201
class Client:
    session: requests.Session
    def get(self, url):
        return self.session.get(url)  # error: TFH201
""",
        """\
import imaplib, poplib, ftplib
def mail(host):
    with imaplib.IMAP4_SSL(host) as m:  # error: TFH201 "imaplib.IMAP4_SSL"
        m.noop()
    poplib.POP3(host)  # error: TFH201
    poplib.POP3_SSL(host, 995)  # error: TFH201
    ftplib.FTP_TLS(host)  # error: TFH201
""",
        # a command the linter cannot read is reported with no fix (it may be a person-facing or long job)
        """\
import subprocess
def run(cmd, args):
    subprocess.run(cmd, check=True)  # error: TFH201 "built at run time"
    subprocess.run(["git", *args])  # error: TFH201 "what `git` runs is built at run time"
""",
        # indirect clients: `session or Session()`, a pydantic validator's field, an optional import
        """\
import importlib
from typing import Any
import requests
from pydantic import BaseModel, model_validator
class Search:
    def __init__(self, session=None):
        self.session = session or requests.Session()
    def run(self, q):
        return self.session.get("https://x", params={"q": q})  # error: TFH201 "requests.Session.get"
class Rerank(BaseModel):
    session: Any = None
    @model_validator(mode="before")
    @classmethod
    def setup(cls, values: dict) -> Any:
        values["session"] = requests.Session()
        return values
    def rerank(self, docs):
        return self.session.post("https://x", json=docs)  # error: TFH201
def cache(url):
    try:
        import redis
    except ImportError:
        redis = None
    return redis.Redis.from_url(url)  # error: TFH201 "socket_timeout"
def cache2(url):
    return importlib.import_module("redis").Redis(host=url)  # error: TFH201
""",
        # a CLI's captured run, or a command's helper outside the command, is no foreground process
        """\
import subprocess
import typer
app = typer.Typer()
@app.command()
def status():
    out = subprocess.run(["acme", "status"], capture_output=True)  # error: TFH201
    return out
def helper():
    subprocess.run(["acme", "sync"])  # error: TFH201
""",
        # the docker SDK: a container's wait and exec_run block as long as the container's job
        """\
import docker
from docker.models.containers import Container
def job(image):
    container = docker.from_env().containers.run(image, detach=True)
    container.wait()  # error: TFH201 "the longest the container may run"
    return container.exec_run(["python", "job.py"])  # error: TFH201 "the docker SDK has no timeout for it"
def typed(container: Container, cmd):
    return container.exec_run(cmd)  # error: TFH201
""",
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # open deadlines (asyncio.wait_for(...)'s arguments, `async with asyncio.timeout(...)` blocks)
        # per function: id of the def or lambda (0: module level). A nested function runs later,
        # so the deadline around its definition does not apply to it.
        self.deadlines: dict[int, int] = {}
        self.wrapper_calls: set[int] = set()
        self.scope_blocks: dict[int, int] = {}
        self.exempt: set[int] = set()
        self.try_handlers: dict[int, list[list[str]]] = {}  # id(call) -> caught names of the trys around it, outer first
        self.popen_argv: dict[str, list[str]] = {}  # name bound to subprocess.Popen(...) -> its argv words
        self.confirmed = 0  # open `if click.confirm(...):` blocks
        self.main_block = 0  # open `if __name__ == "__main__":` blocks
        self.classes: list[cst.ClassDef] = []
        self.confirm_ifs: set[int] = set()
        self.module: cst.Module | None = None
        self.worker_lambdas: set[int] = set()  # lambdas handed to run_in_executor / to_thread
        self.bindings: dict[int, dict[str, list[cst.BaseExpression | None]]] = {}  # id(scope) -> name -> values

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        spots = [c.lineno for c in timeout_calls(screen, knowledge, "missing")]
        if not spots:
            return spots
        # and the helpers that say what a client is (``def _session(self) -> requests.Session``), and
        # the module's CLI groups (``@click.group() def cli``: ``@cli.command()`` reads its decorator)
        groups = [
            d.lineno
            for d in (screen.tree.body if isinstance(screen.tree, ast.Module) else [])
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr == "group" for x in d.decorator_list)
        ]
        return spots + helper_lines(screen, knowledge) + groups

    def _function(self) -> int:
        func = self.names.function
        return id(func) if func is not None else 0

    def _open(self, n: int) -> None:
        key = self._function()
        self.deadlines[key] = self.deadlines.get(key, 0) + n

    def visit_With(self, node: cst.With) -> None:
        n = 0
        for item in node.items:
            expr = item.item
            if isinstance(expr, cst.Call) and self.names.qualname(expr.func) in self.knowledge.timeout_scopes:
                n += 1
        if n:
            self.scope_blocks[id(node)] = n
            self._open(n)
        suppressed = suppressed_names(self.names, node)  # `with suppress(CalledProcessError):` is a handler too
        if suppressed is not None:
            for c in _calls_in(node.body):
                self.try_handlers.setdefault(id(c), []).append(suppressed)

    def leave_With(self, node: cst.With) -> None:
        self._open(-self.scope_blocks.pop(id(node), 0))

    def visit_Try(self, node: cst.Try) -> None:
        caught = caught_names(self.names, node)
        if caught is None:
            return
        for n in _calls_in(node.body):
            self.try_handlers.setdefault(id(n), []).append(caught)

    def _timeout_fix_refusal(self, node: cst.Call, qn: str) -> str | None:
        """Why adding a timeout here would hurt (the finding stays; the fix is not offered)."""
        last = qn.rsplit(".", 1)[-1]
        if qn.startswith("docker."):
            return "how long the container may run is the caller's call"
        if qn.startswith("subprocess.Popen.") or last in _WAITS:
            return "a timeout on communicate()/wait() needs the kill-and-reap clean-up"
        if qn.startswith("subprocess.") and last in _RUNS:
            words, whole = self._command_words(node)
            for seg in segments(node, words, whole):
                why = self.knowledge.process_fix_refusal(seg, whole)
                if why is not None:
                    return why
        if timeout_escapes_handler(qn, list(reversed(self.try_handlers.get(id(node), [])))):
            return "the timeout's exception would escape the handler around the call"
        if self._llm_request(node, qn):
            return "an LLM generation may run longer than any default; pass a bound above the longest generation you accept"
        return None

    def _llm_request(self, node: cst.Call, qn: str) -> bool:
        """An HTTP request that runs an LLM generation: from an LLM integration's module (``llms/``,
        ``chat_models/``), a class deriving from ``...LLM``/``...ChatModel``, or with a ``messages``/``prompt`` body."""
        if qn.split(".")[0] not in ("requests", "httpx", "aiohttp", "urllib", "http"):
            return False
        k = self.knowledge
        if k.llm_inference_module(self.ctx.path):
            return True
        for cls in self.classes:
            if any((last_name(b.value) or "").endswith(k.llm_inference_base_suffixes) for b in cls.bases):
                return True
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in ("json", "data", "content") and isinstance(arg.value, cst.Dict):
                for el in arg.value.elements:
                    key = getattr(el, "key", None)
                    if isinstance(key, cst.SimpleString) and key.evaluated_value in k.llm_inference_body_keys:
                        return True
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        killed: str | None = None
        for stmt in node.body.body:
            smalls = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [None]
            for small in smalls:
                value = getattr(small, "value", None)
                if isinstance(value, cst.Await):
                    value = value.expression
                if killed is not None and isinstance(value, cst.Call):
                    f = value.func
                    if (
                        isinstance(f, cst.Attribute)
                        and f.attr.value in _WAITS
                        and isinstance(f.value, cst.Name)
                        and f.value.value == killed
                    ):
                        self.exempt.add(id(value))
                killed = None
                if isinstance(small, cst.Expr) and isinstance(value, cst.Call):
                    f = value.func
                    if isinstance(f, cst.Attribute) and f.attr.value in _KILLS and isinstance(f.value, cst.Name):
                        killed = f.value.value

    def _command(self, node: cst.Call) -> cst.BaseExpression | None:
        arg = argument(node, "args", 0)
        return arg.value if arg is not None else None

    def _command_words(self, node: cst.Call) -> tuple[list[str], bool]:
        """The command's literal words (a local name assigned one literal command is read through)."""
        cmd = self._command(node)
        if cmd is None:
            return [], False
        if isinstance(cmd, cst.Name):
            value = self._literal_binding(cmd.value)
            if value is not None:
                return command_words(value)
        return command_words(cmd)

    def _literal_binding(self, name: str) -> cst.BaseExpression | None:
        """The one value a name is bound to in the enclosing function (or module), when it is bound
        once and never changed in place (``cmd += [...]``, ``cmd.insert(...)``); else None."""
        func = self.names.function
        scope: cst.CSTNode | None = func if func is not None else self.module
        if scope is None:
            return None
        table = self.bindings.get(id(scope))
        if table is None:
            table = {}
            for n in walk_in_scope(scope):
                if isinstance(n, cst.Assign):
                    for t in n.targets:
                        if isinstance(t.target, cst.Name):
                            table.setdefault(t.target.value, []).append(n.value if len(n.targets) == 1 else None)
                elif isinstance(n, (cst.AugAssign, cst.AnnAssign)) and isinstance(n.target, cst.Name):
                    table.setdefault(n.target.value, []).append(n.value if isinstance(n, cst.AnnAssign) else None)
                elif isinstance(n, (cst.For, cst.CompFor)) and isinstance(n.target, cst.Name):
                    table.setdefault(n.target.value, []).append(None)
                elif isinstance(n, cst.Param):
                    table.setdefault(n.name.value, []).append(None)
                elif (
                    isinstance(n, cst.Call)
                    and isinstance(n.func, cst.Attribute)
                    and isinstance(n.func.value, cst.Name)
                    and n.func.attr.value in ("insert", "clear", "pop", "remove", "reverse", "sort")
                ):
                    table.setdefault(n.func.value.value, []).append(None)
            self.bindings[id(scope)] = table
        values = table.get(name, [])
        return values[0] if len(values) == 1 else None

    def _popen_bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name) and isinstance(value, cst.Call) and self.names.qualname(value.func) == "subprocess.Popen":
            self.popen_argv[target.value] = self._command_words(value)[0]

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            self._popen_bind(node.targets[0].target, node.value)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._popen_bind(node.asname.name, node.item)

    @staticmethod
    def _is_main_test(test: cst.BaseExpression) -> bool:
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return False
        sides = {dotted(test.left), dotted(test.comparisons[0].comparator)}
        strings = [x for x in (test.left, test.comparisons[0].comparator) if isinstance(x, cst.SimpleString)]
        return "__name__" in sides and any(x.evaluated_value == "__main__" for x in strings)

    def visit_If(self, node: cst.If) -> None:
        if self.names.function is None and self._is_main_test(node.test):
            self.main_block += 1
        for sub in _calls_in(node.test):
            f = sub.func
            last = last_name(f) or ""
            if last in self.knowledge.interactive_confirms:
                self.confirm_ifs.add(id(node))
                self.confirmed += 1
                return

    def leave_If(self, original_node: cst.If) -> None:
        if self.names.function is None and self._is_main_test(original_node.test):
            self.main_block -= 1
        if id(original_node) in self.confirm_ifs:
            self.confirm_ifs.discard(id(original_node))
            self.confirmed -= 1

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        # `while proc.poll() is None: ... kill at the deadline ...` then `proc.wait()`: the wait reaps
        # a process that has exited or was killed; it cannot block
        body = node.body
        for i, stmt in enumerate(body[:-1]):
            if not isinstance(stmt, cst.While):
                continue
            polled = {
                c.func.value.value
                for c in _calls_in(stmt.test)
                if isinstance(c.func, cst.Attribute) and c.func.attr.value == "poll" and isinstance(c.func.value, cst.Name)
            }
            nxt = body[i + 1]
            if polled and isinstance(nxt, cst.SimpleStatementLine):
                for small in nxt.body:
                    value = getattr(small, "value", None)
                    if (
                        isinstance(value, cst.Call)
                        and isinstance(value.func, cst.Attribute)
                        and value.func.attr.value in _WAITS
                        and isinstance(value.func.value, cst.Name)
                        and value.func.value.value in polled
                    ):
                        self.exempt.add(id(value))
        # a kill, direct or done by a helper (`_kill(proc)`, `os.killpg(proc.pid, ...)`, a
        # `threading.Timer(t, proc.kill)` started before), then `proc.wait()`/`communicate()` later in
        # the same block: the wait reaps a killed process (or one the timer will kill)
        # `result = subprocess.run(...)` then `sys.exit(result.returncode)`: a CLI handing the terminal
        # to a foreground child (a dev server, a test run, an inspector) the person stops
        runs: dict[str, cst.Call] = {}
        for stmt in body:
            for c in _calls_in(stmt):
                if self._exits(c):
                    for name in _names_in(c):
                        if name in runs:
                            self.exempt.add(id(runs.pop(name)))
                    for arg in c.args:  # sys.exit(subprocess.call([...]))
                        if isinstance(arg.value, cst.Call) and self._ahead_qualname(arg.value.func, _PROCESS_RUNS) in _PROCESS_RUNS:
                            self.exempt.add(id(arg.value))
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if (
                        isinstance(small, cst.Assign)
                        and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name)
                        and isinstance(small.value, cst.Call)
                        and self._ahead_qualname(small.value.func, _PROCESS_RUNS) in _PROCESS_RUNS
                    ):
                        runs[small.targets[0].target.value] = small.value
        killed: set[str] = set()
        for stmt in body:
            calls = _calls_in(stmt)
            for c in reversed(calls):  # source order
                f = c.func
                if (
                    killed
                    and isinstance(f, cst.Attribute)
                    and f.attr.value in _WAITS
                    and isinstance(f.value, cst.Name)
                    and f.value.value in killed
                ):
                    self.exempt.add(id(c))
            killed |= _statement_kills(stmt)

    def _ahead_qualname(self, func: cst.BaseExpression, wanted: frozenset[str] | None = None) -> str | None:
        """A callee's qualified name read ahead of the traversal: also through an ``import x`` of the
        enclosing function that the traversal has not reached yet. With ``wanted``, the caller only asks
        whether the name is one of those: the function's imports are read only for such a name."""
        qn = self.names.qualname(func)
        if qn is not None:
            return qn
        text = dotted(func)
        scope = self.names.function
        if text is None or "." not in text or scope is None or (wanted is not None and text not in wanted):
            return None
        root = text.split(".")[0]
        for n in walk_in_scope(scope):
            if isinstance(n, cst.Import) and any(dotted(a.name) == root and a.asname is None for a in n.names):
                return text
        return None

    def _exits(self, call: cst.Call) -> bool:
        qn = self._ahead_qualname(call.func, _EXITS)
        if qn in _EXITS:
            return True
        return isinstance(call.func, cst.Name) and call.func.value in ("exit", "quit", "SystemExit") and self.names.is_builtin(call.func.value)

    def _cli_decorator(self, dec: cst.BaseExpression) -> bool:
        """``@app.command()`` (typer, cyclopts), ``@click.command()``, ``@cli.command()`` on a click group
        of this module: a command a person runs from their terminal."""
        target = dec.func if isinstance(dec, cst.Call) else dec
        ref = self.names.qualify(target)
        if ref is not None:
            parts = ref[0].split(".")
            if parts[0] in self.knowledge.cli_frameworks and parts[-1] in self.knowledge.cli_decorator_words:
                return True
        if (
            isinstance(target, cst.Attribute)
            and target.attr.value in self.knowledge.cli_decorator_words
            and isinstance(target.value, cst.Name)
            and self.module is not None
        ):
            group = target.value.value  # `@cli.command()` where `@click.group() def cli(): ...`
            return any(
                isinstance(stmt, cst.FunctionDef) and stmt.name.value == group and any(self._cli_decorator(d.decorator) for d in stmt.decorators)
                for stmt in self.module.body
            )
        return False

    def _foreground_cli_process(self, node: cst.Call, qn: str) -> bool:
        """A process a CLI command runs in the foreground: its output goes to the person's terminal
        (nothing captured) and the person stops it (Ctrl-C) when it runs too long."""
        if qn not in ("subprocess.run", "subprocess.call", "subprocess.check_call"):
            return False
        for a in node.args:
            if a.keyword is not None and a.keyword.value in ("capture_output", "stdout", "stderr", "input", "stdin"):
                if not (isinstance(a.value, cst.Name) and a.value.value in ("None", "False")):
                    return False
        func = self.names.function
        if func is None:
            return self.main_block > 0  # `if __name__ == "__main__":` of a script a person runs
        if not isinstance(func, cst.FunctionDef):
            return False
        if any(self._cli_decorator(d.decorator) for d in func.decorators):
            return True
        # a script's `main()` that reads its own command line (`args = parser.parse_args()`)
        return any(
            isinstance(c.func, cst.Attribute) and c.func.attr.value in ("parse_args", "parse_known_args")
            for c in _calls_in(func.body)
        )

    def _interactive(self, node: cst.Call, qn: str) -> bool:
        if self._foreground_cli_process(node, qn):
            return True
        if qn in _PROCESS_RUNS:
            words, whole = self._command_words(node)
            confirmed = self.confirmed > 0
            return all(self.knowledge.interactive_process(seg, confirmed=confirmed) is not None for seg in segments(node, words, whole))
        if qn in _POPEN_WAITS and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            words = self.popen_argv.get(node.func.value.value, [])
            return self.knowledge.interactive_process(words, confirmed=self.confirmed > 0) is not None
        return False

    def visit_Call(self, node: cst.Call) -> None:
        k = self.knowledge
        if (last_name(node.func) or "") in k.worker_thread_calls:
            self.worker_lambdas.update(id(a.value) for a in node.args if isinstance(a.value, cst.Lambda))
        qn = self.names.qualname(node.func)
        if qn is None:
            return
        if qn in k.timeout_wrappers:
            self.wrapper_calls.add(id(node))
            self._open(1)
        spec = k.timeouts.get(qn)
        if spec is not None:
            if spec.required and not has_star(node) and argument(node, spec.keyword, spec.position) is None:
                if id(node) not in self.exempt and not self._interactive(node, qn):
                    seconds = self.ctx.config.timeout_text
                    refusal = self._timeout_fix_refusal(node, qn)
                    autofix = None if refusal is not None else RawFix(
                        f"Add `{spec.keyword}={seconds}`",
                        (NodeEdit(node, add_keyword(node, spec.keyword, seconds)),),
                    )
                    advice = spec.advice.format(keyword=spec.keyword)
                    if refusal is not None:
                        advice += f" (no automatic fix: {refusal})"
                    self.report(node, call=qn, keyword=spec.keyword, fix=advice, autofix=autofix)
        elif qn in k.needs_timeout_scope and not self.deadlines.get(self._function()) and id(node) not in self.exempt:
            self.report(node, f"{qn} has no timeout; {k.needs_timeout_scope[qn]}")
        elif qn in k.no_timeout_parameter and not self._unbounded_is_fine(node):
            self.report(node, f"{qn} has no timeout; {k.no_timeout_parameter[qn]}")

    def _unbounded_is_fine(self, node: cst.Call) -> bool:
        """A call with no timeout parameter that cannot stall: it returns at once (``detach=True``),
        runs a literal instant command, or runs in a worker thread the caller awaits."""
        detach = keyword_arg(node, "detach")
        if detach is not None and isinstance(detach.value, cst.Name) and detach.value.value == "True":
            return True
        func = self.names.function
        if func is not None and id(func) in self.worker_lambdas:
            return True
        arg = argument(node, "cmd", 0)
        if arg is None:
            return False
        cmd = arg.value
        if isinstance(cmd, cst.Name):
            cmd = self._literal_binding(cmd.value) or cmd
        return self.knowledge.interactive_process(command_words(cmd)[0]) is not None

    def leave_Call(self, node: cst.Call) -> None:
        if id(node) in self.wrapper_calls:
            self.wrapper_calls.discard(id(node))
            self._open(-1)
