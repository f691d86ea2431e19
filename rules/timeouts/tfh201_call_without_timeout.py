"""TFH201 call-without-timeout."""

from __future__ import annotations

from typing import cast

import libcst as cst

from ...linter.api import (
    Knowledge,
    NodeEdit,
    RawFix,
    Rule,
    TimeoutParam,
    Screen,
    add_keyword,
    argument,
    has_star,
    imported_global_member,
    imported_member,
    imported_member_default,
    client_default,
    family_paths,
    local_member,
    last_name,
    markdown_calls,
    markdown_words,
)
from .screen import field_lines, group_lines, helper_lines, timeout_calls
from .owned import stoppable_wait
from .decorated import decorator_bound
from .reaped import bounded_reads, exited_reaps, lookup_reaps, timer_killed
from .evidence import EvidenceShapes
from .process import PROCESS_RUNS
from .kwargs import caller_kwargs_keys, local_kwargs_keys
from .foreground import thread_polled
from .runner_params import runner_default, runner_lines
from .param_clients import Ref, inherited_member, init_member, param_method
from .families import dsn_may_carry, sdk_fix_refusal
from .socket_default import under_socket_default

_DEFAULTS = Knowledge.build()  # the library's own tables, for the docs
# s51: the process calls a runner parameter's default may name (`run=subprocess.run`), and their last words (the screen)
_RUNNER_WORDS = frozenset(q.rsplit(".", 1)[1] for q in PROCESS_RUNS)


def _keyword_note(qualname: str) -> str | None:
    keyword = _DEFAULTS.timeouts[qualname].keyword
    return f"`{keyword}`" if keyword != "timeout" else None


def _sdk_keyword_note(qualname: str) -> str | None:
    spec = _DEFAULTS.sdk_call_timeouts[qualname]
    return f"`{spec.keyword}`" + "".join(f" or `{k}`" for k in spec.carried_by)


def _family_docs() -> str:
    """s52: one line per SDK family of ``knowledge.API_FAMILIES``, from the data."""
    return "\n".join(
        f"- `{f.name}`: any `*{f.class_suffix}` class under {markdown_words(f.modules, 'or')}, its methods named "
        f"{markdown_words(sorted(v + '_...' for v in f.verbs), 'or')} (`{f.param.keyword}`"
        + ("; also bounded by a deadline scope it is awaited under" if f.param.scope_bounds else "") + ")"
        for f in _DEFAULTS.api_families
    )


class CallWithoutTimeout(EvidenceShapes):
    code = "TFH201"
    applies_in_tests = False  # about production behaviour: not run in test modules (linter/testmodules.py)
    name = "call-without-timeout"
    summary = "A blocking network or process call has no timeout."
    message = "{call} has no {keyword}; {fix}"
    #: s52: the processes whose command names no network, long job or prompt, outside a tool, are TFH203's (a subclass)
    unread_only = False
    unread_note = ""  # what TFH203 adds after "<call> has no timeout"
    rider: CallWithoutTimeout | None = None  # s53: TFH203, when this TFH201 pass reports its findings too (``ride``)
    docs = f"""\
## What it does
Finds blocking network and process calls made without a timeout. The calls
it knows (from `linter/knowledge.py`; the keyword it looks for is `timeout`
unless another is named):

{markdown_calls((q for q, spec in _DEFAULTS.timeouts.items() if spec.required), _keyword_note)}

and (s52) every method of a generated SDK API class, called on an object built
from it (`client.CoreV1Api(api_client)`, `self.core = client.CoreV1Api()`,
`from kubernetes.client.api.apps_v1_api import AppsV1Api`; s54: one a property
or helper returns, `@property def core(self) -> CoreV1Api`, `return
client.BatchV1Api()`, one an attribute is set to, `api or self._connect()`, or
one a module-level instance of another module of the project holds,
`from pkg.k8s_api import kube` then `kube.core_v1.list_node()`, where
`kube = KubeApi()` and `core_v1` is its property or cached descriptor, or
an unannotated (or `Any`) parameter of a module-level function that every
call of it in the project hands such an object, `def list_pods(k8s_v1, ns)`
called only as `list_pods(kube.core_v1, ns)` or with its callers' own such
parameter, or (s55) an attribute of its class that a base class of another
module sets; also a client such a parameter holds, `k8s_helper.core_v1_api
.read_namespaced_pod(...)` (a use that is no call, `f(*args)`, an unknown
argument, an annotated parameter other than `Any`: not read);
`linter/knowledge/timeouts.py`: `API_FAMILIES`), a class named `*<suffix>` anywhere under the
package whose method's first word is one of the generator's verbs (a class's
`close()` is not a request):

{_family_docs()}

and these calls (`SDK_CALL_TIMEOUTS`: those SDKs' other calls, and database
drivers whose connect waits without bound by default; a connection string the
call does not spell, `psycopg2.connect(os.environ["DATABASE_URL"])`, may carry
`connect_timeout` and is not reported, a literal one naming it has it; bounded by
default and not listed: psycopg 3, PyMySQL, aiomysql, asyncpg, pymongo):

{markdown_calls(_DEFAULTS.sdk_call_timeouts, _sdk_keyword_note)}

A watch's length is the caller's decision (no fix); a call with `watch=True`,
`follow=True` or `_preload_content=False` streams its response (reported, no
fix). An `async` family (kubernetes_asyncio) is also bounded by a deadline scope
its call is awaited under (`asyncio.wait_for(api.list_namespaced_pod(ns), 30)`).
Not listed, since bounded by default: `kubernetes.aio` (v37+, 5 minutes).

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
`importlib.import_module("redis")`, s52: a module global whose object falls back
to `None` in an `except` clause (`try: core = client.CoreV1Api() except
Exception: core = None`: the functions reading it later read the client), the module's own import helper
`optional_import("redis")` when every `return` of it imports its parameter
or is `None`), from what an assignment builds
(`self.session = session or requests.Session()`, `s if s else
requests.Session()`, a pydantic validator's `values["session"] =
requests.Session()` for the field `self.session`, `docker.from_env()
.containers.run(...)`), from annotations (`session: requests.Session`,
`Optional[Session]`, a class field `session: requests.Session`), from a
declared field's default or factory (`_session: requests.Session =
PrivateAttr(default_factory=requests.Session)`, pydantic `Field(...)`, a
dataclass `field(default_factory=...)`), through an attribute declared an
instance of another class of the module (`self.toolset._session.get(...)`
with `toolset: MyToolset`; fields of base classes of the module are
inherited), s54: through what an instance of a project class holds, reached
from outside the class (`Http().session.post(...)`, `h = Http(); h.session
.get(...)`, where `class Http` in this module or another of the project
declares `session: Session` or assigns `self.session = Session()`; s55: also
`self.helper.api...` in a subclass that neither assigns nor declares `helper`,
which a base class of another module of the project sets), and from
helpers of the same module (`_get_session()`, `self._session()`, a
`@property`) by their return annotation or what they return; the
`timeout-required` setting adds your own. A function handed to
`asyncio.to_thread` with its arguments (`await asyncio.to_thread(
subprocess.run, cmd, shell=True)`) is read as its call: the thread passes it
the keywords too, so the timeout goes there (not under a caller's deadline,
`asyncio.wait_for(asyncio.to_thread(...), t)`).

Not reported: httpx (5 s default) and aiohttp (5 min default) calls without a
timeout; s56: a call of a client the project has given a default timeout on
its request path (`linter/knowledge/timeouts.py`: `CLIENT_REQUEST_PATHS`): a
function assigned over `requests.Session.request` or `send`, or over a
kubernetes `ApiClient`'s `rest_client.request`, `call_api` or `request` (or
over the called method itself) that fills the keyword the call did not give
(`_request_timeout or (5, 60)`, `kwargs.setdefault("timeout", 30)`,
`functools.partial(s.request, timeout=10)`), installed on the receiver where
it lives (`self._session.request = fill` in the class, a base class of the
module included; `s.request = ...` in the function) or by the helper of the
module or class that builds it (`self.core = CoreV1Api(api_client=
self._new_api_client())`, whose body assigns `api_client.rest_client.request
= with_timeout` and returns `api_client`); a fill of a missing keyword only
(`setdefault`, `if "timeout" not in kwargs`) does not bound a path that
receives an explicit `None` (`send`, `call_api`, `rest_client.request`), and
a fill under another condition (`and self.timeout is not None`) is no
default (reported); s56: a standard-library client that takes the process's
default socket timeout (`SOCKET_DEFAULT_TIMEOUT_CALLS`: `imaplib.IMAP4_SSL`,
`smtplib.SMTP`, `urlopen`, ...) called after a `socket.setdefaulttimeout(t)`
of the same function and before the next one (not `None`, not the value
`socket.getdefaulttimeout()` returned: a restore); a timeout passed through `**kwargs`, `*args` or a variable (but a
`**params` dict the function builds in place, `params = {{"client_id": c}}`
then only `params["proxy"] = ...` with literal keys, is read: no key names
the timeout, so the call has none; s54: so is the function's own `**kw` when
every call of the function in the project is seen, spreads nothing and passes
no `timeout`, `def run(cmd, **kw): subprocess.run(cmd, **kw)` called only as
`run(["gh", "api", ...], quiet=True)`); the
documented clean-up `proc.kill()` followed by `proc.communicate()` or `proc.wait()` (also
of a process kept on `self`, `self.process.kill()` then `self.process.wait()`;
when a helper does the kill, `_kill_tree(proc)`, `os.killpg(...proc.pid...)`,
a function of the module whose body kills the parameter it is handed (`_abort_and_recover(process, ...)`:
`process.kill()` inside, whatever its name), a `taskkill /PID <pid>` or `kill <pid>` process handed its pid,
or a `threading.Timer(t, proc.kill)` was started before; the same kills end a deadline loop's process); a docker
`exec_run` with `detach=True`, of a literal instant command, or in a lambda
handed to `run_in_executor`/`to_thread`; an `asyncio` process wait in a
closure whose every use runs under its caller's deadline (`await
asyncio.wait_for(_drain(), t)`, awaited in an `async with asyncio.timeout(...)`
block, or from another such closure), or in a private module-level `async def`
(`_communicate`) every use of which in the module is such a call (a public one may
be called unbounded from another module); a `wait()` right after a `while proc.poll() is None:` loop
(s48: or `while proc.returncode is None:`, `await proc.wait()` of an asyncio process after it; it reaps a process
that exited or was killed); a `wait()` in the `else` of `if proc.poll() is None:`
(or under `if proc.returncode is not None:`: the process exited, the wait reaps it), or after an `if`
chain whose every branch, `else` included, kills the process (`if os.name == "nt": taskkill /F ... else:
os.killpg(pid, SIGKILL)`; a kill on one branch only stays reported), or after a call of a module
function that hands its parameter to `os.kill`/`os.killpg` (`_signal(proc.pid, signal.SIGKILL)`; not
handed the literal `0`, a liveness probe; s48: the names read through the module's imports, `from os import killpg
as kp`, `import os as _os`); a `wait()` run as a task
(`waiter = asyncio.create_task(proc.wait())`) that the function hands, or a set
holding it, to `asyncio.wait(..., timeout=t)` or `asyncio.wait_for(..., t)` and
that kills `proc` (a deadline loop); the `wait()` of a process an
object keeps on `self` when the class can end it (a `terminate`/`kill`
method, or one that calls `proc.kill()`, `os.killpg(...)`): a training run,
a process wrapper's own `wait()`, whose holder bounds it; a call directly in a
plain `def` that a timeout decorator bounds ({markdown_words(_DEFAULTS.timeout_decorators, "or")}, given
its seconds: not `timeout(None)`, not in a nested `def`, not on an `async def`,
whose decorator bounds only making the coroutine): the decorator ends the run,
and its own exception is the one the caller handles; a `wait()` in an `except
ProcessLookupError:` handler of a `try` that signalled the same process (it
is gone); a `wait()` on a process that a started `threading.Timer(seconds, f)` of
the same function kills (`f`: `proc.kill`, or a nested `def` that kills it); processes with no timeout to
give (`linter/knowledge.py`: `INTERACTIVE_PROCESSES`, by program or first
words): an editor (`$EDITOR`, `$VISUAL`, `vim`, ...), a pager (`less`,
`jless`, `man`, ...), a desktop opener (`open`, `xdg-open`, `explorer`,
`start`), an IDE (`cursor`, `pycharm`, ...), a dialog, picker or terminal
UI (`zenity`, `fzf`, `lazygit`), an interactive shell (also a session
recorder `script` with no `-c` command), a foreground dev
server run for a person (`npm run dev`, `uvicorn`, `streamlit run`,
`fastmcp dev`, `python -m http.server`, ...), an interactive sign-in started on
the person's terminal (`SIGN_IN_SUBCOMMANDS`, `SIGN_IN_COMMANDS`: a CLI's `login`,
`auth login`, `sso login`, as `gh auth login`, `az login`, `gcloud auth login`,
`aws sso login`, also `[exe, "login"]` of a program found at run time; s48: `sudo -v`, which only asks for the
password; nothing captured or
redirected: its prompts, device code and browser page are theirs; captured, or
given a token or identity, `--with-token`, `--identity`, `--service-principal`,
`--password-stdin`, it is an ordinary remote call and stays reported, and a
captured sign-in gets no fix), an interactive session started on the person's
terminal (s54, issue 23: `SESSION_FLAGS`, `SSH_SESSION_LETTERS`, read as flags per program: `kubectl exec -it POD
-- bash`, `kubectl attach -it`, `docker exec -it`, `docker run -it` (not `-itd`), `podman exec --interactive
--tty`, `docker attach`, `ssh -t host`, `ssh host` with no remote command, also a command built in the code and read
through its names and the class's methods, `[*self.ssh_base(), "-t", "--", line]`: the person types into it and ends it;
the same program captured or without `-i`/`-t` (`kubectl exec POD -- ls`) stays reported, and no fix is offered on
a `-it` or `ssh -t` process even captured: a timeout would end a person's session), an instant local command or
read (`which`, `command -v`, `chmod`, `crontab -l`, `pbcopy`, `git rev-parse`, `git blame`,
`uv python pin`, `type <file>`, `git apply`, `git -C <dir> add`, `poetry new`, `cat`,
`security find-generic-password`, `pdffonts`, `pgrep`, `getconf`, `git remote get-url`, `tasklist`,
`taskkill`; git on the local repository (`GIT_LOCAL_SUBCOMMANDS`: `git checkout`, `git stash`, `git reset`, a
`git commit -m`), except where it can wait for a person: `git merge`/`rebase`/`cherry-pick`/`revert` (a
conflict, an editor), `-p`/`-i`/`-e` on a work-tree change (`git add -p`), a `commit` or an annotated `tag`
with no message (an editor); a commit's hooks are the repository's own local programs; a helper forwarding its
arguments to such a program, `def git(cwd, *argv): run(["git", *argv])` (s46: or a copy of them added,
`["tmux"] + list(args)`, `tuple(args)`), where every call of it in the module
starts with a literal local sub-command (also a module function called through the object it takes first,
`def _run_git(ops, /, cwd, args)` called as `ops._run_git(root, ["config", ...])`, and a call handed a loop
variable over literal sub-commands, `for args, label in ((["prune"], "..."), ...): run(args)`; s51: a word passed
as a module's string constant, bound once and never declared `global`, is read as its literal: `_run(TMUX_BIN,
"list-sessions")` with `TMUX_BIN = "tmux"`); a
`bash -c "compgen -c"` line, any program asked only for `--version`/`--help` or to print
where it is installed, `--print-prefix`, `-print-search-dirs`, ...; each
command of a loop over a literal list of commands (or of literal tuples: `for label, args in (("head",
["rev-parse", "HEAD"]), ...): run([git, *args])`); the command a wrapper such
as `unshare`, `nohup`, `nice` or `env` runs after its flags (s48: and `sudo -n`/`doas -n`, which never prompts;
sudo without `-n` may wait at a password prompt and stays reported, with no fix); the wait of an
`asyncio.create_subprocess_exec` process started on such a command; a program
named by a parameter, read through the literals it can hold: every call of the
function in the module passes one, `run_poppler("pdffonts", pdf)`, or omits it for its
literal default, `def __init__(self, executable="fzf")` then
`[self.executable, ...]`, a constructor call passing another value keeps the finding; s51: a process runner handed in as a parameter whose
default is a process call, `def clone(url, run=subprocess.run)` then `run([git, "fetch", url])`, or `self._run` that
`__init__` sets from such a parameter, is that call, reported with no fix, since a caller may hand a runner taking no
`timeout`: `rules/timeouts/runner_params.py`; s50: also `executable or "tmux"`,
and a command a method of the class builds, `self._args("has-session", "-t", s)` with `def _args(self, *args): return
[self.executable, *args]`, read as that program plus the literal words passed; s57: also a function of the
project or method of the class that puts its program and options before the words it is handed, `return ["tmux", "-L",
sock, *args]` or `base + list(args)`: `rules/timeouts/builders.py`; and a sub-command of a program read as long or
networked that only reads or writes this machine's state, `docker compose config`, `composer config`, `openssl passwd`:
`knowledge.LOCAL_ONLY_SUBCOMMANDS`), and a
package install the person asked for (`pip install --upgrade`, or an install
under `if click.confirm(...)`); a process a CLI command runs in the
foreground (`subprocess.run(...)`, or the `wait()` of a `subprocess.Popen(...)`; in a function decorated as a `click`/`typer`/`cyclopts`
command, a script's `main()` that reads its command line with
`parse_args()`, or its `if __name__ == "__main__":` block; nothing captured:
its output is on the person's terminal and the person stops it; s50: also sent to the program's own
`stdout=sys.stderr`, and in an argparse sub-command's handler, `sub.set_defaults(func=cmd_doctor)`; s51: also
a handler in a dict of sub-commands of a function reading its command line, `{{"setup": cmd_setup}}`, a `main()` calling
the project's own `parse_args(argv)` or reading `sys.argv`, and a helper every caller of which, across the project's
modules, is such a command or another such helper, three deep: `linter/foreground_callers.py`; one caller that is a
tool, a route, a worker or module-level code, a use other than a call (a thread's target, a registry), or an import
under another name keeps the helper on the agent path, and a call `other.f()` on an import of another module is
that module's `f`); a long job
the person asked for in that foreground, captured or not (s50, the lead's decision: `knowledge.FOREGROUND_JOBS`, an
install, a self-upgrade, a build, a test run: `uv tool upgrade x`, `pip install -e .`, `npm run build`, `pytest`;
s54: a download or image build, `ollama pull m`, `playwright install chromium`, `nvm install`, `brew update`,
`docker build`; also under a confirmation); s54: a process left on the person's terminal in a `try` whose handler
names `KeyboardInterrupt` (`except KeyboardInterrupt: return 130`), outside a tool: the person stops it with Ctrl-C; a command that bounds itself (s50: `curl --max-time 30`/`-m 30`,
`knowledge.SELF_BOUNDING_FLAGS`; a leading `timeout 30 cmd` already was); a `communicate()`/`wait()` run on a
thread (`threading.Thread(target=lambda: box.update(out=p.communicate()))`) that the function polls (`t.join(0.1)`,
`while t.is_alive():`) and whose process it kills (s50: the deadline is enforced by the kill); a process
whose exit code becomes the
program's (`r = subprocess.run(...)` then `sys.exit(r.returncode)`, `raise
SystemExit(subprocess.call(...))`, `sys.exit(child.wait())`, also through
the functions that return it: `return await child.wait()` in a worker that
`main()` returns through `asyncio.run(...)`, with `raise SystemExit(main())`):
a CLI handing the terminal to a foreground child. A program found with `shutil.which("git")`
is read as that program (also as `asyncio.create_subprocess_exec`'s first argument, and in a caller that hands it
to the function's parameter: `tmux = shutil.which("tmux")`, `send(tmux, ...)`), and so is the one program a function of the module
returns (`return "git"`, `return shutil.which("git") or "git"`), called by its
name or as a method of that name (`ops._git_executable(root)`); and the one program a function of another
module of the project returns (`from .ops import _git_executable`, `ops._git_executable(root)` with `ops` an
imported module, a function that returns a call of another, `return _ops._git_executable(cwd)`), read from what
the module's summary took when it was parsed, or, for a method of a protocol or abstract class
(`ops: SnapshotServices`), the one program every implementation of that name in the project returns
(implementations that disagree name none). A function of the module returning one of several programs
(`open_command()` returning `"open"`, `"start"` or `"xdg-open"` by platform: s47) is read as them all: silent
when every one is a program left alone by its name whatever its arguments (a desktop opener, an editor), and
reported otherwise (one `curl` among them). A bare annotation (`cmd: List[str]`, no value) binds nothing, so
`cmd = [open_command(), path]` after it is still the one value `cmd` holds. A `shell=True` line is silent only when each of its
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
configured; by kind as a table: `http`, `process`, `network`, `default`):
`requests.get(url)` becomes `requests.get(url, timeout=30)`.
This changes what the program does on purpose: a call that waited forever
now raises (`requests.Timeout`, `subprocess.TimeoutExpired`,
`socket.timeout`) after that many seconds, so the caller's handling of that
error starts to matter. No fix (the finding stays, and says why) where a
default would hurt:
- a stream opened without a timeout (`websocket.create_connection(url)`, s50): websocket-client keeps the timeout
  given there as the socket's for every later `recv()`, so a written 30 s would end an idle session;
- a process whose command is not a literal the linter can read (a variable,
  `[binary, ...]`, `["git", *args]`, `[sys.executable, script]`, `bash -c
  line`, a shell line that goes on past its literal text, a remote CLI
  whose sub-command is not spelled: `cmd = ["helm"]` then `cmd.extend(args)`
  may be `helm upgrade --wait --timeout 5m`): it may be an
  editor, a dev server or a long job the linter cannot see; a local name
  assigned literal commands (`cmd = ["ruff", "check", path]`) is read
  through (each of them, when it is bound more than once);
- a process that may wait for a person (a session recorder `script`
  with no `-c` command starts a shell for them), may wait at a password
  prompt (`sudo`, `ssh`, `gpg`), or
  runs long by nature (`LONG_RUNNING_PROCESSES`: installs, model pulls and
  downloads, uploads (`aws s3 cp`, `gsutil`, `rclone`), builds, scans of a
  project or its dependencies (`depscan`, `trivy`, `pip-audit`), whole-project
  linters and type checkers (`pylint`, `mypy`), test runners (`pytest`,
  `jest`), load tests (`locust`, `k6`), `git clone`), also as one step of a
  shell line;
  What decides is the program the command names: its first literal words
  (a list's literal items, a string's words, an f-string's or a
  concatenation's text before the first placeholder, each command of a
  `shell=True` line), read against the tables of `linter/knowledge/processes.py`
  (waits for a person, prompts, runs long by nature, and the sub-commands
  that decide what a program does); the text after a placeholder (`f"script -q {{log}}"`:
  the log's path) is not read. Where a program is interactive or long by
  design and the tables miss it, it belongs there (one row serves every
  project); until then write the timeout yourself or `# noqa: TFH201`;
- a process whose program is not known to finish in moments
  (`QUICK_PROCESSES`: `ls`, `cat`, `uname`, `ruff`, `git status`/`diff`/
  `commit`, `docker ps`/`stop`, a `--version` query, ...): how long
  `Rscript`, a motif search or a tree builder runs depends on its work,
  and a guessed default cuts healthy runs (every harmful fix read on the
  survey's blind batches 10 and 11 was one; every remote-call fix was
  harmless). Set `default-timeout-seconds = {{process = N}}` and the fix
  writes N on every process the lists above do not refuse;
- `Popen.communicate()`/`wait()` (a timeout there needs the kill-and-reap
  clean-up); a call inside a `try` (or a `contextlib.suppress(...)` block)
  whose handlers catch its other failures but not the new timeout exception
  (`subprocess.TimeoutExpired`, `requests.Timeout`, `socket.timeout`,
  redis' `TimeoutError`): the fix would let it escape the handler;
- an HTTP request that runs an LLM generation (from an LLM integration's
  module, a class deriving from `...LLM`/`...ChatModel`, a body with
  `messages`/`prompt`, written in the call or assigned to a local name the
  call sends): a default would cut long generations, as TFH202 says;
- a non-idempotent HTTP write (POST, PATCH, a GraphQL `mutation`, `urlopen(url,
  data)`, a `classify`d write, a generic `request(method, ...)` whose method is
  not a literal, `method=self.method`: it may be a POST) with no idempotency
  key: a timeout there turns "slow" into "unknown whether it acted"; reads,
  PUT, DELETE keep the fix;
- the calls that need a timeout scope (`asyncio` subprocess waits): where
  the deadline goes is a decision.

## Processes: what is reported and why
A process whose program the code names (a list's first items, a command
string's words, each command of a `shell=True` line: `["git", "commit",
"-m", msg]`, `f"ffprobe {{video}}"`, `python -m venv`, `docker inspect x`,
the project's own tool) is the author's choice of a local program, whose run
time the author knows: it is silent unless it reaches another machine (a
remote CLI: `kubectl`, `gh`, `ssh`, `curl`, `git fetch`/`clone`, `docker
pull`; a network program: `ping`, `nc`, `dig`; a headless browser or a
renderer driving one: `mmdc`, `wkhtmltopdf`; a literal URL among its words), runs long by nature (installs, pulls, builds, scans, test runners,
a coding agent's CLI running a session: `claude -p`, `codex exec`, `gemini`, `aider`, not its `mcp`/`config`/`login` sub-commands,
`ffmpeg`, `docker run`/`build`: reported with advice, no fix) or until
something else happens (`docker wait`/`attach`/`events`, `tail -f`,
`docker logs -f`, `watch`), may wait for a person (`sudo`, `gpg`, `git
merge`/`rebase`, a commit with no message), or runs a command the code does
not spell (`bash -c <var>`, `python -c <var>`, `[sys.executable, script]`,
`docker exec c <var>`, `["git", *argv]`, a shell line's placeholder
`f"cd {{d}} && {{cmd}}"`). A command the call does not spell is read the same
way round (s49): when the code builds it and no parameter of the running function
chooses its program or sub-command (`[git_binary(), "show", spec]`, `[self._binary,
"schema"]`, `[*_GIT, "commit", "-m", m]`, a list assigned in the
function or the module, the wait of a process started on one), it is silent unless
one of its literal words names a program or sub-command the tables know to reach
another machine, run long or prompt (`[self._git, "clone", url]`, `[sys.executable,
"-m", "pytest"]`: `knowledge.network_or_long_words`). A command a caller hands in (a
parameter in the program's or sub-command's place: the model's command in a shell
tool, `run(command)`, `shlex.split(command)`, `["git"] + command`, `[sys.executable,
file]`, `request.binary`, `step["cmd"]` of a loop over a parameter; `subprocess.run(cmd,
shell=True)`, a `bash` or `python` fed its commands on stdin) is reported: that is where an agent's hung process comes
from (on the survey's labels of batches 1-15 this default silences no true
finding, and 4 false and 27 debatable ones: local git, the docker CLI,
`ffprobe`, `python -m venv`, local conversions). The docker CLI
talks to the machine's own daemon: its local verbs (`ps`, `inspect`, `logs`,
`rm`, `stop`, `info`) are silent. So is a local sound or speech (s49,
`knowledge.PLAYBACK_PROGRAMS`: `afplay`, `aplay`, `paplay`, `say`, `espeak`; not
`ffplay`/`mpv`/`vlc`, which also stream a URL they are handed). So are a local instant's sub-commands
(`knowledge.LOCAL_INSTANT_SUBCOMMANDS`: a local daemon's, a multiplexer's or
the desktop's client asked only about or to set this machine's state:
`ollama show`/`list`, `adb start-server`/`devices`, `tmux send-keys`/
`capture-pane`/`new-session -d`), though the program's other sub-commands run
long (`ollama pull`) or reach a device (`adb shell`). Silent also where a person runs it and
can stop it: an upgrade they asked for (`--upgrade`, a confirmation), or a
process a CLI command runs in the foreground (s50: on their terminal, or a long job
they asked for there, an install, self-upgrade, build or test run, captured or not). The tables:
`linter/knowledge/processes.py` (`REMOTE_CLIS`,
`LONG_RUNNING_PROCESSES`) and `local_programs.py` (`NETWORK_PROGRAMS`,
`NEVER_ENDING_PROCESSES`, `local_program`).

**TFH201 and TFH203 (s52).** Of the processes reported by the paragraph above,
TFH201 keeps those whose evidence the linter reads: a literal word of the
command (in any position, through the names, helpers, class attributes and
callers' literal commands read above) names a program or sub-command that
reaches another machine, runs long or may prompt, or a tool runs the process
(a function a framework registers as a tool, or one nested in it: the model's
command, `@tool def shell(command): subprocess.run(command, shell=True)`). A
process whose command says none of that (`subprocess.run(cmd)` in a helper,
`[self._binary, "status"]`, `bash -c <var>` outside a tool), and a
`wait()`/`communicate()` on one or on a process the function did not start, is
**TFH203** (unread-process-without-timeout), off by default: on the survey's
1,047 labelled findings such findings were right 29-53% of the time, the rest
88-100%. Select TFH203 for the wider net; the lines TFH203 reports are marked
`# error: TFH203` in this rule's examples.

**A helper's callers (s53).** A helper handed its command stays TFH201 when one
of its callers hands it a command that reaches another machine (a remote CLI's
remote sub-command, a network program, an `https://` URL:
`knowledge.network_command`), read where the parameter chooses the program
(`run(cmd)`, `shlex.split(command)`, `["git", *args]`): each call in the module
(`_run(["git", "push"])`; a name the caller assigns, `cmd = f"curl -X POST
{{url}}"` then `self.run_command(cmd)`; a parameter the caller hands on, through
its own callers), and each literal call across the project of a module function
other modules import. Also a command the class's own method builds
(`argv = self._build_argv(command)`, which returns `["ssh", "-A", host,
command]`), or a module function builds in a name it returns (s57:
`cmd = ["aws"] + args; return cmd`). All only when the code reads the process's output: a child on the
person's terminal is theirs to watch (the s50 foreground decision), and a caller
handing a long job or a prompt (an install in a setup helper) is not counted.

## What stays reported on purpose
Read on the survey's labels of batches 1-16, the findings left that a reader may
call debatable fall in classes each decided by a property, not by a package:
- **A network CLI with no deadline: the rule's target** (s45, the decision for
  labellers). A process whose program talks to another machine or a server
  (`git push`/`fetch`/`clone`/`ls-remote`, `gh`, `kubectl`, `aws`, `gcloud`,
  `curl`, `ssh`, `docker pull`, a package install or model download from an
  index), run with no timeout by code an agent runs (a tool, a handler of an
  MCP or HTTP request, the agent's own loop, a worker or daemon: no person
  watching its output), is what TFH201 is for: a connection that accepts and
  never answers, a credential prompt with no terminal, a stalled transfer hang
  the agent with it. Label it `true`, whether or not a person could have
  chosen the program, and whatever the command's usual speed. In the
  foreground (a CLI command's own step, an installer or setup script they
  start, a `__main__` they type; s50, the lead's decision) it is `true` too
  when its output is captured (`capture_output=True`, `check_output`,
  `communicate()`, `urlopen`): deploy and release CLIs run in CI jobs, cron and
  coding agents' shells, where a hung `ssh` waits until the job is killed; on
  the person's terminal (nothing captured) it is silent, and so is a long job
  the person asked for there (an install, self-upgrade, build or test run,
  captured or not); never `false` for being remote. A helper is in that foreground when every caller of it
  across the project's modules is such a command (s51: or another such helper, three deep); one caller of any other
  kind, or a use other than a call, keeps it on the agent path. Where the code does not say who runs it
  (library code whose callers are not in the project, a helper no project code
  calls), read it as the agent path (s46): an agent's user imports it into one.
  The checklist labellers apply: `bench/survey/README.md`, "Labelling TFH201".
  A local program (this machine's repository,
  a local daemon's instant sub-command, `LOCAL_INSTANT_SUBCOMMANDS`) is not
  covered: it is silent, and a finding left on one is `false`.
- **Long by nature** (installs, downloads, builds, clones, transfers, conversions,
  test runs): reported, never fixed. Their run time grows with the network or
  the work, a stalled transfer waits forever, and only the author can choose
  the bound (or write `# noqa: TFH201` for a person watching it).
- **A server behind a local-looking CLI or address** (`kubectl` against a kind
  cluster, `adb` to an emulator, `docker compose up`, a GET of a server on
  `localhost`): reported. The program talks to a server, which can accept and
  never answer; that the server runs on this machine is configuration the code
  does not show.
- **A dry run** (`kubectl create --dry-run=client`, `playwright install
  --dry-run`, `pip install --dry-run`): reported like the command it previews,
  which may still ask a server (`--dry-run=server`, a package index).
- **A helper handed its whole command** (`def _run(cmd): check_output(cmd)`):
  read through the module's own calls of it (s45: each call's literal list,
  `_run(["git", "worktree", "remove", p])`, is the command it runs; s46: so are the words of each call
  of a helper handed it as `*args`, `_run_exec("xclip", "-o")`, a script in a variable, `_run_exec(
  "powershell", "-Command", script)`, unread; and, one level up, a private helper of the module that
  hands its own parameter on, `def _git_names(self, args): self._git(args)`: each list its callers
  pass, `self._git_names(["diff", "--name-only"])`; s48: a module function other modules of the project
  import, `run_checked(cmd)`, through every call of that name in the project, each module that mentions it
  only calling it or importing it unrenamed: `run_checked(["systemctl", "daemon-reload"])` in another module is a
  local command, one `run_checked(["curl", ...])`, `run_checked(argv)`, a callback `hooks = [run_checked]` or
  `import run_checked as rc` keeps it reported); a helper called with a command built at run time (`[*identity, "commit", ...]`
  with `identity` a list of flags, `args` grown before the call), may be handed
  anything: reported.
- **A wait after the output was read to EOF** (`for line in proc.stdout:`
  then `proc.wait()`): reported. The wait itself returns once the process
  exits, but the read before it is where the process waits, unbounded, and it
  takes no timeout; silencing the wait would leave the whole process
  unreported (on the survey's labels such loops stream installs, clones,
  model downloads, agent CLIs). A process whose program the code names and
  that stays local is silent anyway, and so is the wait after a `while` loop
  whose every read of the output is `asyncio.wait_for(proc.stdout.readline(),
  timeout=t)` with no `try` inside it and `if not line: break` (s44): the read
  was bounded, a stalled process raised out of it.
- **A session whose `request` the class wraps** (s48, batch 20's python-substack: `self._session.request =
  _request_with_timeout`, a nested function that fills `kwargs["timeout"]` from the object's configured
  `Api(timeout=...)` when the call passes none): `self._session.post(...)` stays reported (the default
  `timeout=None` leaves it unbounded), with no fix: a literal `timeout=30` would override the configured one.
  (s56: a wrapper that fills a default of its own, whatever the object was given, makes the call silent.)
- **A deadline another process owns** (batch 20's brindle: the catalog runs in a child process whose parent kills
  its group at a wall timeout): reported; what bounds the call is in another process's code, not provable here.

## How to suppress
`# noqa: TFH201` on the line, or `ignore`/`per-file-ignores` in the
configuration. To teach it another client, add the call's qualified name to
`timeout-required` (`"mylib.fetch"` or `"mylib.fetch:request_timeout"`).
"""
    VALID = [
        # s56 (issue 23): the same readings (a method's own import, a factory handing `__init__` its client) given a
        # request timeout
        """\
from typing import Any
class Config:
    def service(self, ns):
        return self.K8S_CORE_API.read_namespaced_service("wg", ns, _request_timeout=10)
    def _init_kubeapi(self):
        from kubernetes.client import CoreV1Api
        self.K8S_CORE_API = CoreV1Api()
class Kube:
    def __init__(self, core_api: Any) -> None:
        self.core = core_api
    @classmethod
    def from_context(cls, context):
        from kubernetes import client, config
        return cls(client.CoreV1Api(config.new_client_from_config(context=context)))
    def pods(self, ns):
        return self.core.list_namespaced_pod(ns, _request_timeout=(3, 30))
""",
        # s54: the same held client given a timeout; a held attribute no method assigns a known client
        """\
from dataclasses import dataclass, field
from requests import Session
@dataclass
class Http:
    session: Session = field(init=False)
    other: object = None
    def __post_init__(self):
        self.session = Session()
def trigger(url):
    with Http().session.post(url, json={}, timeout=30) as response:
        return response.json()
def other(url):
    return Http().other.post(url)
""",
        # s52: a database connect given its timeout (a keyword, in a literal DSN), a DSN the call does not spell (it
        # may carry `connect_timeout`), drivers bounded by default (psycopg 3: 130 s; PyMySQL: 10 s; asyncpg: 60 s)
        """\
import os
import asyncpg, psycopg, psycopg2, pymysql
import mysql.connector
async def connect_all(host):
    a = psycopg2.connect(host=host, dbname="app", connect_timeout=5)
    b = psycopg2.connect("host=db dbname=app connect_timeout=5")
    c = psycopg2.connect(os.environ["DATABASE_URL"])
    d = mysql.connector.connect(host=host, connection_timeout=5)
    e = psycopg.connect(host=host)
    f = pymysql.connect(host=host)
    g = await asyncpg.connect(host=host)
    return a, b, c, d, e, f, g
""",
        # s52: a module global set to None outside an `except` clause is no fallback: not the client any more
        """\
import requests
session = requests.Session()
session = None
def fetch(url):
    return session.get(url)
""",
        # s52 (issue 23): a kubernetes API call given `_request_timeout`, a watch given `timeout_seconds`, an API
        # object's `close()` (no request), kubernetes_asyncio under a deadline the caller awaits it in, and
        # kubernetes.aio (v37+: 5 minutes when no `_request_timeout` is given)
        """\
import asyncio
from kubernetes import client, watch
from kubernetes.aio import client as aio_client
from kubernetes_asyncio import client as async_client
def pod(name):
    core = client.CoreV1Api()
    core.close()
    return core.read_namespaced_pod(name, "default", _request_timeout=(3, 30))
def events(ns):
    w = watch.Watch()
    return list(w.stream(client.CoreV1Api().list_namespaced_event, ns, timeout_seconds=60))
async def bounded(ns):
    api = async_client.CoreV1Api()
    first = await asyncio.wait_for(api.list_namespaced_pod(ns), 30)
    async with asyncio.timeout(30):
        second = await api.list_namespaced_pod(ns)
    return first, second, await aio_client.CoreV1Api().list_namespaced_pod(ns)
""",
        # s49 (batch 21's andromity, batch 19's cdt-release): a local notification sound or speech ends with the media
        """\
import subprocess
def chime(path_str, text):
    subprocess.run(["afplay", path_str], check=False)
    subprocess.run(["aplay", "-q", path_str], check=False, stderr=subprocess.DEVNULL)
    subprocess.run(["say", text])
""",
        # s49 (issue 23; batch 21's ao-orchestrator, korgex, kaniscope): a command built in the code, whose program or
        # sub-command no parameter chooses and none of whose literal words reaches another machine, runs long or
        # prompts: the object's own binary, a module constant spread before a local verb, a wait on such a process
        """\
import asyncio, subprocess
_GIT = ["git", "-c", "user.name=checkpoint"]
class Reviewer:
    def schema(self):
        return subprocess.run([self._binary, "schema"], capture_output=True, text=True)
def checkpoint(worktree, message):
    subprocess.run([*_GIT, "commit", "--allow-empty", "-q", "-m", message])
async def search(pattern, root):
    proc = await asyncio.create_subprocess_exec(self_rg(), "--json", pattern, root, stdout=asyncio.subprocess.PIPE)
    return await proc.communicate()
def self_rg():
    return find_binary()
""",
        # s47 (spidy-agent b19, local-open): a function returning one of several desktop openers by platform; every
        # program it may return is local, so `[open_command(), path]` runs a local opener (the bare annotation
        # `cmd: List[str]` binds nothing)
        """\
import platform, subprocess
from typing import List
def open_command() -> str:
    if platform.system() == "Darwin":
        return "open"
    if platform.system() == "Windows":
        return "start"
    return "xdg-open"
def open_file(path):
    cmd: List[str]
    cmd = [open_command(), str(path)]
    subprocess.run(cmd, check=True)
""",
        """\
from hcloud import Client
client = Client(token=token, timeout=(5, 60))
""",
        # a **dict that may hold the timeout: filled in place with it, updated, handed in, or filled by key
        """\
from falconpy import APIHarnessV2
def make(cid, extra, key, options):
    a = {"client_id": cid, "timeout": 30}
    b = {"client_id": cid}
    b.update(extra)
    c = {"client_id": cid}
    c[key] = 30
    d = {"client_id": cid}
    d["timeout"] = (5, 60)
    return APIHarnessV2(**a), APIHarnessV2(**b), APIHarnessV2(**c), APIHarnessV2(**d), APIHarnessV2(**options)
""",
        """\
import requests
def get(url, cid):
    kw = {"params": {"id": cid}}
    def later():
        kw["timeout"] = 10
    later()
    return requests.get(url, **kw)
""",
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
from redis import asyncio as aioredis
async def store(url):
    return aioredis.Redis(host="h", socket_timeout=5), aioredis.from_url(url, socket_timeout=5)
def shared(pool):
    return aioredis.Redis(connection_pool=pool)  # the pool's connections carry the timeout
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
def record_shell(log):
    # `script` with no `-c` command: a recorded interactive shell, the person types `exit`
    subprocess.run(f"script -q {log}", shell=True)
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
def foreground(argv):
    sys.exit(subprocess.Popen(argv).wait())
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
        # s43: TFH201's default: a program the code names that stays on the machine and ends by itself (git on the
        # local repository, the docker CLI's local verbs, a media probe, a Windows kill, a venv, the project's own tool)
        """\
import subprocess, sys
def work(root, msg, cid, video, pid, path):
    subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True)
    subprocess.run(["git", "commit", "-m", msg], cwd=root, check=True)
    subprocess.run(["git", "checkout", "-b", "feature"], cwd=root, check=True)
    subprocess.run(["docker", "inspect", cid], capture_output=True)
    subprocess.run(["docker", "rm", "-f", cid], capture_output=True)
    subprocess.run(["ffprobe", "-v", "quiet", "-show_format", video], capture_output=True)
    subprocess.run(f"ffprobe -v quiet {video}", shell=True, capture_output=True)
    subprocess.run(["taskkill", "/F", "/PID", str(pid)])
    subprocess.run([sys.executable, "-m", "venv", path], check=True)
    subprocess.run(["mytool", "--input", path], check=True)
    subprocess.run(["ls", "-l", path])
    proc = subprocess.Popen(["ffprobe", video])
    proc.wait()
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
import shutil, subprocess
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
def head():
    git = shutil.which("git")
    return subprocess.run([git, "rev-parse", "--short", "HEAD"], capture_output=True)
def ide(path):
    subprocess.run(["cursor", path])
    subprocess.run(["lazygit"])
def toolchain(exe):
    subprocess.run([exe, "--version"], capture_output=True)
    for probe in (["rustc", "--print=sysroot"], ["gcc", "-print-libgcc-file-name"]):
        subprocess.run(probe, capture_output=True)
""",
        # s36: a wrapped instant command (a user-namespace probe), the wait of an async version query
        """\
import asyncio, subprocess
def namespaces_work():
    return subprocess.run(["unshare", "--user", "--map-root-user", "true"], stdout=subprocess.DEVNULL).returncode == 0
async def has_git():
    proc = await asyncio.create_subprocess_exec("git", "--version", stdout=asyncio.subprocess.PIPE)
    await proc.wait()
    return proc.returncode == 0
""",
        # s44 (batch 17, codeprobe): a local command list grown at its end (`+=`) keeps its program and sub-command;
        # `git clean -e <pattern>` excludes a path (not `git add -e`'s editor)
        """\
import subprocess
def reset(workdir, excludes):
    clean_cmd = ["git", "clean", "-fd", "-e", ".cache"]
    for pattern in excludes:
        clean_cmd += ["-e", pattern]
    subprocess.run(clean_cmd, cwd=workdir, check=True, capture_output=True)
""",
        # s44 (batch 17, dobby): the wait after a loop that read the output to its end, each read under wait_for
        """\
import asyncio
async def task(argv, limit):
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    lines = []
    try:
        while True:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=limit)
            if not line:
                break
            lines.append(line)
    except TimeoutError:
        proc.kill()
        raise
    await proc.wait()
    return lines
""",
        # s44 (batch 17, dobby): create_subprocess_exec's program found with `shutil.which`, in the function or in
        # the caller that hands it to a helper's parameter: read as that program (a local tmux command)
        """\
import asyncio, shutil
async def restart(session):
    tmux = shutil.which("tmux")
    kill = await asyncio.create_subprocess_exec(tmux, "kill-session", "-t", session)
    await kill.wait()
    await send(tmux, session, "y")
async def send(tmux: str, session: str, keys: str) -> None:
    proc = await asyncio.create_subprocess_exec(tmux, "send-keys", "-t", session, keys, "Enter")
    await proc.wait()
""",
        # s45 (batch 17): local instants, a sub-command of a daemon's or a multiplexer's client that only reads or sets
        # the machine's own state (`knowledge.LOCAL_INSTANT_SUBCOMMANDS`); PowerShell's clipboard
        """\
import subprocess
def instants(model, session, text):
    subprocess.run(["ollama", "show", model, "--modelfile"], capture_output=True)
    subprocess.run(["adb", "start-server"], capture_output=True)
    subprocess.run(["adb", "devices"], capture_output=True, text=True)
    subprocess.run(["tmux", "new-session", "-d", "-s", session])
    subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True)
    subprocess.run(["powershell", "-NoProfile", "-Command", "Set-Clipboard"], input=text, text=True)
""",
        # s46 (batch 18, rootsight): an interactive sign-in started on the person's terminal (nothing captured): its
        # prompts and browser page are theirs (`knowledge.SIGN_IN_SUBCOMMANDS`), also of a program the code does not spell
        """\
import subprocess
def sign_in(provider, tenant):
    if provider == "azure":
        return subprocess.run(["az", "login", "--tenant", tenant]).returncode == 0
    if provider == "gcp":
        return subprocess.run(["gcloud", "auth", "application-default", "login"], stdout=None).returncode == 0
    subprocess.check_call(["gh", "auth", "login", "--web"])
    return subprocess.call(["aws", "sso", "login", "--profile", provider]) == 0
""",
        # s54 (issue 23): an interactive session on the person's terminal (nothing captured): a shell in a pod or a
        # container, a login on a host; the person types into it and ends it (`knowledge.SESSION_FLAGS`)
        """\
import subprocess
def shell(pod, container, image, host):
    subprocess.run(["kubectl", "exec", "-it", "-n", "prod", pod, "--", "/bin/bash"])
    subprocess.run(["kubectl", "attach", "--stdin", "--tty", pod])
    subprocess.run(["docker", "exec", "-it", container, "sh"])
    subprocess.call(["docker", "run", "--rm", "-it", image])
    subprocess.run(["podman", "exec", "--interactive", "--tty", container, "bash"])
    subprocess.run(["ssh", "-t", host, "tmux attach"])
    subprocess.run(["ssh", "-F", "ssh_config", host])
    subprocess.run(f"kubectl exec -ti {pod} -- sh", shell=True)
class Remote:
    def ssh_base(self):
        return ["ssh", "-o", "BatchMode=yes", self.host]
    def run_interactive(self, line):
        full = [*self.ssh_base(), "-t", "--", line]
        return subprocess.run(full).returncode
""",
        # s46 (batch 18, kolega-code): a helper handed its command as `*args`, every call of it in the module a literal
        # local program (the clipboard's readers): each call's words are the command it runs
        """\
import asyncio
async def _run_exec(*args):
    proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE)
    stdout, _ = await proc.communicate()
    return stdout
async def paste():
    return await _run_exec("pbpaste") or await _run_exec("xclip", "-selection", "clipboard", "-o")
""",
        # s46 (batch 18, kolega-code): a git helper handed its sub-command by a private helper of the module, which is
        # handed it in turn: read through one more level of callers, each of them a literal local sub-command
        """\
import subprocess
class SessionDiff:
    def _git(self, args):
        return subprocess.run(["git", *args], cwd=self.root, stdout=subprocess.PIPE)
    def _git_names(self, args):
        return set(self._git(args).stdout.split(b"\\0"))
    def changed(self, old, new):
        return self._git_names(["diff", "--name-only", "-z", old, new]), self._git(["rev-parse", "HEAD"])
""",
        # s45 (batch 17, pp-coding-agent): the person's editor command held in a field of an object whose class says
        # it, split into the command's first words
        """\
import subprocess
from dataclasses import dataclass
@dataclass
class ExternalEditorOptions:
    command: str
def edit(options: ExternalEditorOptions, path):
    argv = options.command.split(" ")
    return subprocess.run([*argv, path], check=False).returncode
""",
        # s45 (batch 17, dobby): a helper handed its whole command, every call of it in the module a literal list of a
        # local program
        """\
import subprocess
def _run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True)
def cleanup(root, path, branch):
    _run(["git", "worktree", "remove", "--force", path], root)
    _run(["git", "branch", "-D", branch], root)
""",
        # a one-shot worker whose exit code is its child's, handed back through the functions that return it
        """\
import asyncio
import sys
async def _run_child(argv):
    child = await asyncio.create_subprocess_exec(*argv)
    return await child.wait()
def main():
    return asyncio.run(_run_child(sys.argv[1:]))
if __name__ == "__main__":
    raise SystemExit(main())
""",
        # a closure run only under its caller's deadline: the deadline cancels the awaits inside it
        """\
import asyncio
async def run(argv, seconds):
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    async def drain_then_reap():
        data = await proc.stdout.read()
        await proc.wait()
        return data
    async def reap_only():
        await proc.wait()
    async with asyncio.timeout(seconds):
        await reap_only()
    return await asyncio.wait_for(drain_then_reap(), timeout=seconds)
""",
        # a process the object keeps and can stop: waiting for it is the object's job, and the holder ends it
        """\
import asyncio, os, signal, subprocess
class Job:
    def run(self, argv):
        proc = subprocess.Popen(argv, start_new_session=True)
        self._proc = proc
        return proc.wait()
    def request_stop(self):
        os.killpg(self._proc.pid, signal.SIGTERM)
class Child:
    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc
    async def wait(self):
        return await self.proc.wait()
    async def terminate(self):
        self.proc.terminate()
""",
        # s38: a timeout decorator bounds every run of the function (its caller's deadline); a wait after
        # the signal found no process; `command -v`
        """\
import os, signal, subprocess
from timeout_decorator import timeout
import wrapt_timeout_decorator
@timeout(60, timeout_exception=StopIteration)
def lint(path):
    return subprocess.run(["pylint", path], capture_output=True, check=True)
@wrapt_timeout_decorator.timeout(dec_timeout=20)
def run_script(path):
    return subprocess.run(["python3", path], capture_output=True)
def stop(argv):
    proc = subprocess.Popen(argv, start_new_session=True)
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except ProcessLookupError:
        proc.wait()  # the group is gone: nothing is left to wait for
def has_brew():
    return subprocess.check_output("command -v brew", shell=True)
""",
        # s39 (batch 12): a name bound to several instant commands, each read; `git -C <dir> add`; a `bash -c`
        # line quoted in a shell=True string; a heredoc `cat` in a container; the person's editor split or resolved;
        # a wait bounded by a started threading.Timer that kills the process
        """\
import subprocess, threading
def user_info():
    try:
        cmd = ["git", "config", "user.name"]
        name = subprocess.check_output(cmd, encoding="utf-8").strip()
    except Exception:
        name = "?"
    cmd = ["git", "config", "user.email"]
    return name, subprocess.check_output(cmd, encoding="utf-8").strip()
def scaffold(root, name):
    subprocess.run(["poetry", "new", f"{root}/{name}"])
    subprocess.run(["git", "-C", f"{root}/{name}", "add", "-A"])
    cmd = ["git", "apply", "x.patch", "--reject"]
    subprocess.run(cmd, check=True)
def shell_commands():
    return subprocess.check_output('/bin/bash -c "compgen -c"', shell=True)
def write(container, dst, data):
    command = f"cat <<'EOF' > {dst}\\n{data}\\nEOF"
    container.exec_run(command)
def edit(editor, path):
    subprocess.call([*editor.split(), path])
    subprocess.call(resolve_editor_command() + [path])
def list_files(rg, root, seconds):
    proc = subprocess.Popen([rg, "--files"], cwd=root, stdout=subprocess.PIPE)
    def stop():
        proc.kill()
    timer = threading.Timer(seconds, stop)
    timer.start()
    try:
        return proc.wait()
    finally:
        timer.cancel()
def list_other(argv, seconds):
    proc = subprocess.Popen(argv)
    killer = threading.Timer(seconds, proc.terminate)
    killer.start()
    proc.wait()
""",
        # s39: a CLI command runs a server in the foreground and waits on it until the person stops it
        """\
import subprocess
import click
@click.command()
def serve(port):
    with subprocess.Popen(["mcp-proxy", f"http://localhost:{port}/sse"]) as proxy:
        proxy.wait()
""",
        # s41 (issue 23 D4): a helper is read as an import only when every return of it imports its parameter
        """\
import importlib
def plugin(name):
    module = importlib.import_module(name)
    return module.Plugin()
def optional_import(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
def cache(url, backend):
    redis = plugin("redis")
    other = optional_import(backend)
    return redis.Redis(host=url).get("k"), other.Redis(host=url).get("k")
""",
        # s41 (batch 14): a clipboard command a loop over literal commands starts, fed with `communicate()`;
        # a program looked up with `shutil.which` and a literal path as its fallback; a literal dict of --version checks
        """\
import shutil
import subprocess
def copy(text):
    for cmd in [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        proc.communicate(text.encode())
def keychain(account, service):
    exe = shutil.which("security")
    if exe is None:
        exe = "/usr/bin/security"
    return subprocess.run([exe, "find-generic-password", "-a", account, "-s", service, "-w"], capture_output=True)
def check_dependencies():
    dependencies = {"pandoc": "pandoc --version", "xelatex": "xelatex --version"}
    for name, cmd in dependencies.items():
        subprocess.run(cmd.split(), capture_output=True, check=True)
""",
        # s42 (batch 14, lovia): a private module-level coroutine every caller in the module runs under a deadline
        # (`asyncio.wait_for(...)`, a timeout scope); instant commands an agent tool asks the machine
        """\
import asyncio, subprocess
async def run(argv, seconds):
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    try:
        return await asyncio.wait_for(_communicate(proc), timeout=seconds)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise
async def run_again(proc, seconds):
    async with asyncio.timeout(seconds):
        return await _communicate(proc)
async def _communicate(proc: asyncio.subprocess.Process):
    out = await proc.stdout.read()
    await proc.wait()
    return out
def run_poppler(command, pdf):  # s42: every call in the module passes an instant program
    return subprocess.run([command, str(pdf)], capture_output=True)
def fonts(pdf):
    return run_poppler("pdffonts", pdf), run_poppler(command="pdfinfo", pdf=pdf)
class Picker:  # the program is the constructor's literal default, no call in the module says otherwise
    def __init__(self, mentions, executable="fzf"):
        self.executable = executable
    def pick(self):
        return subprocess.run([self.executable, "--multi"])
def show(command="crontab -l"):
    return subprocess.run(command, shell=True, capture_output=True)
def where(root):
    url = subprocess.run(["git", "-C", root, "remote", "get-url", "origin"], capture_output=True)
    procs = subprocess.run(["pgrep", "-f", "ollama"], capture_output=True)
    return url, procs, subprocess.run(["getconf", "PAGESIZE"], capture_output=True)
""",
        # s57 (batches 25, 26, 29: leashd, thalamus-console, adrs4ai-pneumatic; not blind): the project's argv builder,
        # `base = ["tmux"]; base += ["-L", socket]; return base + list(args)`, read as its program plus the words passed;
        # a sub-command of a program read as long or networked that stays on the machine (`LOCAL_ONLY_SUBCOMMANDS`)
        """\
import shutil
import subprocess
def _tmux_argv(*args, socket=None):
    base = ["tmux"]
    if socket:
        base += ["-L", socket]
    return base + list(args)
def has(name, socket):
    return subprocess.run(_tmux_argv("has-session", "-t", name, socket=socket), capture_output=True)
class Pane:
    def _argv(self, *args):
        socket_args = ["-S", str(self.path)] if self.path else []
        tmux_bin = self.tmux_bin or shutil.which("tmux") or "tmux"
        return [tmux_bin, *socket_args, *args]
    def load(self, name):
        return subprocess.run(self._argv("load-buffer", "-b", name, "-"), capture_output=True)
def services():
    subprocess.run(["composer", "config", "audit.block-insecure", "false"])
    subprocess.run(["openssl", "passwd", "-6", "-stdin"], input="pw", capture_output=True, text=True)
    return subprocess.check_output(["docker", "compose", "-f", "stack.yml", "config", "--format", "json"])
""",
        # s50 (batch 23, doeff-agents; not blind): a command built by a method of the class, `[self.executable, *args]`,
        # read as that program (the constructor's default, `executable or "tmux"`) plus the literal words passed
        """\
import os
import subprocess
class Tmux:
    def __init__(self, executable: str | os.PathLike[str] | None = None) -> None:
        self.executable = str(executable or "tmux")
    def _args(self, *args: str) -> list[str]:
        return [self.executable, *args]
    def has_session(self, name):
        return subprocess.run(self._args("has-session", "-t", name), check=False, capture_output=True)
    def new_session(self, name, work_dir):
        args = self._args("new-session", "-d", "-s", name)
        args.extend(["-c", work_dir])
        return subprocess.run(args, capture_output=True, text=True, check=True)
    def attach(self, name):
        subprocess.run(self._args("attach-session", "-t", name), check=True)
def default_backend() -> Tmux:
    return Tmux()
""",
        # s42 (batch 15): git on the local repository, given its message where it would open an editor; a helper
        # forwarding its arguments to git, every call in the module giving a local sub-command
        """\
import subprocess
def save(root, msg):
    subprocess.check_call(["git", "checkout", "main"], cwd=root)
    subprocess.check_call(["git", "-c", "user.name=bot", "commit", "-m", msg], cwd=root)
    subprocess.run(["git", "stash"], cwd=root)
    return subprocess.run(["git", "tag", "-a", "v1", "-m", msg], cwd=root)
def git(cwd, *argv):
    return subprocess.run(["git", *argv], cwd=cwd, capture_output=True)
def _run_git(root, args):
    return subprocess.run(["git", *args], capture_output=True, cwd=root)
def state(cwd, path):
    return git(cwd, "status", "--porcelain"), git(cwd, "rev-parse", "HEAD"), _run_git(cwd, ["blame", path])
def running(name):  # Windows' process table and kill, as `ps` and `kill`
    out = subprocess.check_output(("TASKLIST", "/FI", "imagename eq %s" % name))
    return out, subprocess.run("taskkill.exe /IM AskUI*")
class Service:  # a process killed is reaped at once, an attribute of self as a local name
    def __init__(self, argv):
        self.process = subprocess.Popen(argv)
    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
""",
        # s46 (batch 19, openocto; hermes-agent, praisonaiagents): a helper adding a copy of its arguments to the
        # program (`["tmux"] + list(args)`, `tuple(args)`) forwards them as `["tmux", *args]` does
        """\
import subprocess
def _tmux(*args, capture=False):
    cmd = ["tmux"] + list(args)
    return subprocess.run(cmd, capture_output=capture, text=True)
class Shadow:
    def _run_git(self, *args, cwd=None):
        return subprocess.run(("git",) + tuple(args), cwd=cwd, capture_output=True)
    def save(self, msg):
        self._run_git("add", "-A")
        return self._run_git("commit", "-m", msg), _tmux("send-keys", "-t", "s", "Enter"), _tmux("has-session", "-t", "s")
""",
        # s43 (batch 16, bello): the program a module function returns (`"git"`, or a look-up of `"git"`), called
        # directly, as a method of the same name, or bound to a name a forwarding closure reads
        """\
import shutil, subprocess
def _git_executable(ops, cwd):
    if not ops.windows:
        return "git"
    return ops.require_trusted_executable("git", cwd=cwd)
def find_git():
    return shutil.which("git") or "git"
def probe(ops, root):
    top = subprocess.run([ops._git_executable(root), "rev-parse", "--show-toplevel"], cwd=root, capture_output=True)
    git = _git_executable(ops, root)
    def run(arguments):
        return subprocess.run([git, *arguments], cwd=root, capture_output=True)
    return top, run(["log", "-1"]), run(["ls-files", "-z"]), subprocess.run([find_git(), "status"], cwd=root)
""",
        # s43 (batch 16, bello): the wait's task watched by `asyncio.wait(..., timeout=)` (through a set holding it) or
        # `asyncio.wait_for(..., t)`, in a function that kills the process on expiry
        """\
import asyncio
async def watch(argv, deadline):
    process = await asyncio.create_subprocess_exec(*argv)
    waiter = asyncio.create_task(process.wait())
    while True:
        watched: set[asyncio.Task] = {waiter}
        done, _ = await asyncio.wait(watched, timeout=deadline, return_when=asyncio.FIRST_COMPLETED)
        if not done:
            await _terminate_process_tree(process)
            return None
        if waiter in done:
            return waiter.result()
async def recover(argv, control):
    process = await asyncio.create_subprocess_exec(*argv)
    waiter = asyncio.create_task(process.wait())
    try:
        await asyncio.wait_for(asyncio.gather(asyncio.shield(waiter), asyncio.shield(control)), 5)
    except asyncio.TimeoutError:
        process.kill()
""",
        # s47 (batch 20): every branch of an `if` chain kills the process (whatever it tests), then the reaping wait;
        # the `else` of `if proc.poll() is None:` (the process exited) and `if proc.returncode is not None:` only reap
        """\
import asyncio, os, signal, subprocess, sys
from contextlib import suppress
async def stop(argv):
    process = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
    if os.name == "nt":
        killer = await asyncio.create_subprocess_exec("taskkill", "/PID", str(process.pid), "/T", "/F")
        await killer.wait()
    else:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    await process.wait()
async def hard_stop(argv):
    proc = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
    with suppress(ProcessLookupError, OSError):
        if sys.platform != "win32":
            os.killpg(os.getpgid(proc.pid), signal.SIGKILL)
        else:
            proc.kill()
    with suppress(ProcessLookupError, OSError):
        await proc.wait()
def close(argv, grace):
    proc = subprocess.Popen(argv, start_new_session=True)
    if proc.poll() is None:
        os.killpg(os.getpgid(proc.pid), signal.SIGTERM)
        proc.wait(timeout=grace)
    else:
        proc.wait()  # reap, or the pid keeps answering kill(pid, 0)
async def collect(argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    if proc.returncode is not None:
        await proc.wait()
def _signal(group, sig):
    with suppress(ProcessLookupError):
        os.killpg(group, sig)
async def grace_stop(argv):
    proc = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
    _signal(proc.pid, signal.SIGKILL)  # a module function handing its parameter to os.killpg
    await proc.wait()
""",
        # s48: `os.kill`/`os.killpg`/`os.getpgid` read through the module's imports, as the rest of the rule reads names
        """\
import asyncio, signal
import os as _os
from os import killpg as kp, getpgid
def _to_group(group, sig):
    kp(getpgid(group), sig)
def _to_one(pid):
    _os.kill(pid, signal.SIGKILL)
async def grace_stop(argv):
    proc = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
    _to_group(proc.pid, signal.SIGKILL)
    await proc.wait()
async def hard_stop(argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    _to_one(proc.pid)
    await proc.wait()
""",
        # s48 (portacode b20): `sudo -n` never prompts (the command it runs decides: `true`, a local `systemctl
        # daemon-reload`); `sudo -v` on the person's terminal asks them for their password and runs nothing else
        """\
import subprocess
def authorize():
    if subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode != 0:
        subprocess.run(["sudo", "-v"], text=True)
    subprocess.run(["sudo", "-n", "-u", "root", "systemctl", "daemon-reload"], check=False)
""",
        # s48 (cacli b20, deadline-enforced-by-poll-loop): an asyncio process's `while proc.returncode is None:` loop
        # that stops it at the deadline, then `await proc.wait()`: the process exited or was stopped; the wait reaps
        """\
import asyncio, time
async def run(argv, timeout):
    proc = await asyncio.create_subprocess_exec(*argv)
    started = time.monotonic()
    while proc.returncode is None:
        if time.monotonic() - started >= timeout:
            proc.kill()
            break
        await asyncio.sleep(0.1)
    await proc.wait()
""",
        # s50 (the lead's decisions): a long job the person asked for in the foreground, captured or not (a
        # self-upgrade, a build, an install in an argparse sub-command's handler); a foreground process whose output
        # goes to the program's own stderr; a command bounding itself (`curl --max-time`); a communicate() on a thread
        # the function polls against its deadline and kills
        """\
import argparse, subprocess, sys, threading, time
import typer
app = typer.Typer()
@app.command("update")
def update_tool():
    return subprocess.run(["uv", "tool", "upgrade", "mytool"], capture_output=True, text=True)
@app.command()
def build():
    subprocess.check_output(["npm", "run", "build"])
def cmd_doctor(args):
    subprocess.run(["winget", "install", "--id", "Git.Git", "-e"])
def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_subparsers().add_parser("doctor").set_defaults(func=cmd_doctor)
    args = parser.parse_args(argv)
    subprocess.run(["ssh", args.host, "uptime"], stdout=sys.stderr)
def fetch(url):
    return subprocess.run(["curl", "-sS", "--max-time", "30", url], capture_output=True).stdout
def drain(argv, timeout):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE)
    box = {}
    t = threading.Thread(target=lambda: box.update(out=p.communicate()[0]), daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    while t.is_alive():
        if time.monotonic() > deadline:
            p.kill()
            t.join(2)
            break
        t.join(0.1)
    return box.get("out")
""",
        # s54 (issue 23, batches 15-26's labels): a download or image build the person asks for in the foreground is a
        # long job like an install (`knowledge.FOREGROUND_JOBS`): a model pull, a browser download, `brew update`,
        # `docker build`, captured or not
        """\
import subprocess
import typer
app = typer.Typer()
@app.command()
def setup(model: str):
    subprocess.run(["ollama", "pull", model])
    subprocess.run(["python", "-m", "playwright", "install", "chromium"], capture_output=True)
    subprocess.run(["brew", "update"], capture_output=True)
    subprocess.run(["docker", "build", "-t", "agent", "."], check=True)
""",
        # s54 (batches 20-25: conning, oblivion-agent, crossweave, dulus): a process left on the person's terminal in a
        # `try` whose handler names KeyboardInterrupt, outside a tool: the code expects the person to stop it (Ctrl-C)
        """\
import subprocess
def run_interactive(cmd, cwd):
    try:
        return subprocess.call(cmd, cwd=cwd)
    except KeyboardInterrupt:
        return 130
""",
        # s51 (the lead's session-50 foreground decision, through helpers): a helper that only the person's commands
        # call, directly or through another such helper, runs in their foreground: a long job it runs, and a process
        # it leaves on their terminal, are as silent as in the command's own body
        """\
import argparse, subprocess
import click
def _install(pkg):
    subprocess.run(["pip", "install", pkg], capture_output=True)
def _setup():
    _install("mytool")
def _push(remote):
    subprocess.run(["git", "push", remote])
@click.command()
def upgrade():
    _setup()
def cmd_deploy(args):
    _push(args.remote)
def main():
    parser = argparse.ArgumentParser()
    parser.add_subparsers().add_parser("deploy").set_defaults(func=cmd_deploy)
    args = parser.parse_args()
    args.func(args)
""",
        # s51: a runner parameter defaulting to a process call runs a local command, is rebound, or defaults to
        # something else
        """\
import subprocess
def status(run=subprocess.run):
    return run(["git", "status"], capture_output=True)
def rebound(run=subprocess.run):
    run = print
    run(["git", "fetch"])
def other(run=print):
    run(["git", "fetch"])
""",
        # s51 (batch 23, sh-agent): a helper forwarding `*argv`, every call of which names the program by a module's
        # string constant (`TMUX_BIN = "tmux"`) and a local sub-command: read as the literal
        """\
import asyncio
TMUX_BIN = "tmux"
async def _run(*argv: str) -> str:
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return out.decode()
async def sessions():
    return await _run(TMUX_BIN, "list-sessions")
async def kill(name):
    return await _run(TMUX_BIN, "kill-session", "-t", name)
""",
        # s56 (issue 23; batch 28's bexhoma, batch 20's python-substack, batch 5's arxiv-mcp-server): a client the
        # project has given a default timeout on its request path: a factory of the class wrapping its ApiClient's
        # `rest_client.request` (also for a subclass), a session whose `request` is a `functools.partial` with one,
        # a class's wrapper filling a missing timeout, a module-level session a helper builds with one
        """\
import functools
import requests
from kubernetes import client
TIMEOUT = (5, 60)
class Cluster:
    def __init__(self):
        self.core = None
    def connect(self):
        self.core = client.CoreV1Api(api_client=self._new_api_client())
    def _new_api_client(self):
        api_client = client.ApiClient()
        request = api_client.rest_client.request
        def with_timeout(*args, _request_timeout=None, **kwargs):
            return request(*args, _request_timeout=_request_timeout or TIMEOUT, **kwargs)
        api_client.rest_client.request = with_timeout
        return api_client
    def pods(self, ns):
        return self.core.list_namespaced_pod(ns)
class Aws(Cluster):
    def nodes(self):
        return self.core.list_node()
def fetch(url):
    s = requests.Session()
    s.request = functools.partial(s.request, timeout=10)
    return s.get(url)
class Api:
    def __init__(self):
        self._session = requests.Session()
        orig = self._session.request
        def _request(method, url, **kwargs):
            if "timeout" not in kwargs:
                kwargs["timeout"] = 30
            return orig(method, url, **kwargs)
        self._session.request = _request
    def get(self, url):
        return self._session.get(url)
def make_session():
    s = requests.Session()
    s.request = lambda method, url, **kw: requests.Session.request(s, method, url, timeout=kw.pop("timeout", 30), **kw)
    return s
SESSION = make_session()
def read(url):
    return SESSION.get(url)
""",
        # s56 (issue 23; batch 21's gigamail): a standard-library client opened while the default socket timeout the
        # function set holds (restored in a `finally` after it)
        """\
import imaplib
def connect(host, timeout=30):
    import socket as _socket
    old_timeout = _socket.getdefaulttimeout()
    _socket.setdefaulttimeout(timeout)
    try:
        conn = imaplib.IMAP4_SSL(host)
    finally:
        _socket.setdefaulttimeout(old_timeout)
    return conn
""",
    ]
    # s52: a line marked `# error: TFH203` is a process whose command the linter cannot read: TFH201 is silent there
    # and TFH203 (off by default) reports it; TFH203's examples include every such example of this list
    INVALID = [
        # s56 (issue 23): the same clients without the default: an API object built on a plain ApiClient, a
        # `setdefault` on `call_api` (the API method hands it `_request_timeout=None`: nothing is missing to fill),
        # a partial over `send` (`request` hands it `timeout=None`), a plain session, a wrapper filling only a
        # configured timeout that may be None (no fix: a literal would override it)
        """\
import functools
import requests
from kubernetes import client
class Cluster:
    def connect(self):
        self.core = client.CoreV1Api()
    def pods(self, ns):
        return self.core.list_namespaced_pod(ns)  # error: TFH201
def _client():
    api_client = client.ApiClient()
    orig = api_client.call_api
    def wrap(*a, **kw):
        kw.setdefault("_request_timeout", 30)
        return orig(*a, **kw)
    api_client.call_api = wrap
    return api_client
def nodes():
    v1 = client.CoreV1Api(_client())
    return v1.list_node()  # error: TFH201
def fetch(url):
    s = requests.Session()
    s.send = functools.partial(s.send, timeout=10)
    return s.get(url)  # error: TFH201
def plain(url):
    s = requests.Session()
    return s.get(url)  # error: TFH201
class Api:
    def __init__(self, timeout=None):
        self.timeout = timeout
        self._session = requests.Session()
        def _request_with_timeout(*args, **kwargs):
            if kwargs.get("timeout") is None and self.timeout is not None:
                kwargs["timeout"] = self.timeout
            return requests.Session.request(self._session, *args, **kwargs)
        self._session.request = _request_with_timeout
    def get(self, url):
        return self._session.get(url)  # error: TFH201 "no automatic fix: the class replaces"
""",
        # s56: the same client with no default socket timeout set, set to None, or after the restore
        """\
import imaplib
import smtplib
import socket
def connect(host):
    return imaplib.IMAP4_SSL(host)  # error: TFH201
def unbounded(host):
    socket.setdefaulttimeout(None)
    return imaplib.IMAP4_SSL(host)  # error: TFH201
def after_restore(host):
    old = socket.getdefaulttimeout()
    socket.setdefaulttimeout(10)
    try:
        conn = imaplib.IMAP4_SSL(host)
    finally:
        socket.setdefaulttimeout(old)
    return conn, smtplib.SMTP(host)  # error: TFH201
""",

        # s52 (issue 23; batch 24's k8s-agent-sandbox, batch 10's k8s-mcp, batch 6's awslabs-eks-mcp-server): every
        # method of a generated kubernetes API class takes `_request_timeout` and has none by default; a watch
        # re-issues its request for ever without `timeout_seconds` (no fix: its length is the caller's); a log
        # followed as a stream gets no fix; kubernetes_asyncio sets no timeout either
        """\
from kubernetes import client, watch
from kubernetes.client.api.apps_v1_api import AppsV1Api
from kubernetes_asyncio import client as async_client
class Sandbox:
    def __init__(self, api_client=None):
        self.core = client.CoreV1Api(api_client)
    def pod(self, name):
        return self.core.read_namespaced_pod(name, "default")  # error: TFH201 "kubernetes.client.CoreV1Api.read_namespaced_pod has no _request_timeout"
    def tail(self, name):
        return self.core.read_namespaced_pod_log(name, "default", follow=True, _preload_content=False)  # error: TFH201 "no automatic fix: `follow=True` streams"
def deployments(ns):
    return AppsV1Api().list_namespaced_deployment(ns)  # error: TFH201 "has no _request_timeout"
def wait_ready(ns):
    w = watch.Watch()
    for event in w.stream(client.CoreV1Api().list_namespaced_pod, ns):  # error: TFH201 "has no timeout_seconds"
        if event["object"].status.phase == "Running":
            w.stop()
async def pods(ns):
    return await async_client.CoreV1Api().list_namespaced_pod(ns)  # error: TFH201 "kubernetes_asyncio.client.CoreV1Api.list_namespaced_pod"
""",
        # s54 (issue 23; batch 27's samco-job-lifecycle and seekr-chain, batch 24's k8s-agent-sandbox): an API object
        # reached through a property or method whose return annotation names its class or whose return builds one
        # (a `from kubernetes import client` inside it too), and an attribute set to `api or self._connect()` (an
        # `Any` parameter says nothing of its class: the other side is the client); batch 26's opensandbox-server: the
        # `ApiClient` an API object holds, whose `call_api` takes `_request_timeout` too
        """\
from typing import Any
from kubernetes import client as k8s
class Runtime:
    def __init__(self, ns: str, *, batch_api: Any | None = None):
        self.ns = ns
        self._batch = batch_api or self._connect()
    @staticmethod
    def _connect():
        from kubernetes import client, config
        config.load_kube_config()
        return client.BatchV1Api()
    @property
    def core(self) -> k8s.CoreV1Api:
        return k8s.CoreV1Api()
    def apps(self):
        return k8s.AppsV1Api()
    def jobs(self):
        return self._batch.list_namespaced_job(self.ns)  # error: TFH201 "kubernetes.client.BatchV1Api.list_namespaced_job has no _request_timeout"
    def pods(self):
        return self.core.list_namespaced_pod(self.ns)  # error: TFH201 "kubernetes.client.CoreV1Api.list_namespaced_pod has no _request_timeout"
    def deployments(self):
        return self.apps().list_namespaced_deployment(self.ns)  # error: TFH201 "kubernetes.client.AppsV1Api.list_namespaced_deployment"
    def resize(self, name, body):
        return self.core.api_client.call_api(f"/api/v1/namespaces/{self.ns}/persistentvolumeclaims/{name}", "PATCH", body=body)  # error: TFH201 "api_client.call_api has no _request_timeout"
""",
        # s56 (issue 23; batch 28's gefyra and multihull): an API object a method assigns `self` after importing its
        # class inside the method (`from kubernetes.client import CoreV1Api` in `_init_kubeapi`), and an untyped
        # `__init__` parameter stored on `self` that the class's own factory hands a client built in place
        """\
from typing import Any
class Config:
    def service(self, ns):  # used before the method below sets the attribute: read from the class's assignments
        return self.K8S_CORE_API.read_namespaced_service("wg", ns)  # error: TFH201 "kubernetes.client.CoreV1Api.read_namespaced_service has no _request_timeout"
    def _init_kubeapi(self):
        from kubernetes.client import CoreV1Api
        from kubernetes.config import load_kube_config
        load_kube_config()
        self.K8S_CORE_API = CoreV1Api()
class Kube:
    def __init__(self, api_client: Any, core_api: Any) -> None:
        self.api_client = api_client
        self.core = core_api
    @classmethod
    def from_context(cls, context):
        from kubernetes import client, config
        api_client = config.new_client_from_config(context=context)
        return cls(api_client, core_api=client.CoreV1Api(api_client))
    def pods(self, ns):
        return self.core.list_namespaced_pod(ns)  # error: TFH201 "kubernetes.client.CoreV1Api.list_namespaced_pod has no _request_timeout"
""",
        # s52: database drivers whose connect waits without bound: psycopg2 (libpq) given its parameters or a
        # literal DSN naming no `connect_timeout`, mysql-connector with neither `connect_timeout` nor
        # `connection_timeout`
        """\
import psycopg2
import mysql.connector
from psycopg2 import connect
def pg(host, user, password):
    return psycopg2.connect(host=host, user=user, password=password, dbname="app")  # error: TFH201 "psycopg2.connect has no connect_timeout"
def pg_literal():
    return connect("host=db dbname=app")  # error: TFH201 "psycopg2.connect has no connect_timeout"
def my(host):
    return mysql.connector.connect(host=host, user="agent")  # error: TFH201 "mysql.connector.connect has no connect_timeout"
""",
        # s52 (batch 18's lumino-mcp-server): a module global whose client could not be built falls back to None in
        # the handler; the functions that use it later use the client
        """\
import requests
from kubernetes import client
try:
    core = client.CoreV1Api()
    session = requests.Session()
except Exception:
    core = None
    session = None
def namespaces():
    return core.list_namespace()  # error: TFH201 "kubernetes.client.CoreV1Api.list_namespace has no _request_timeout"
def fetch(url):
    return session.get(url)  # error: TFH201 "requests.Session.get has no timeout"
""",
        # s52: a `**` dict built in place with `dict(k=v, ...)`: its keys are literal, none the timeout
        """\
import requests
def fetch(url, token):
    options = dict(headers={"Authorization": token}, params={"page": 1})
    return requests.get(url, **options)  # error: TFH201
""",
        # s51: the same read keeps a remote sub-command reported, and a name bound twice is no constant
        """\
import asyncio, subprocess
GIT = "git"
TMUX = "tmux"
TMUX = "/usr/local/bin/tmux"
async def _run(*argv: str) -> str:
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()  # error: TFH201
    return out.decode()
async def pull():
    return await _run(GIT, "pull")
def _exec(*argv):
    return subprocess.run(argv, capture_output=True)  # error: TFH203
def sessions():
    return _exec(TMUX, "list-sessions")
""",
        # s51 (batch 23, labagent): a process runner handed in as a parameter whose default is `subprocess.run` (or
        # `self._run` set from one) is that call; no fix: a caller may hand a runner that takes no `timeout`
        """\
import subprocess
from typing import Callable
def clone(url, dest, run: Callable = subprocess.run):
    def g(*args):
        return run(["git", *args], capture_output=True, text=True)  # error: TFH201 "the runner is a parameter"
    g("clone", url, dest)
class Terraform:
    def __init__(self, cfg, run=subprocess.run):
        self._run = run
    def apply(self):
        return self._run(["terraform", "apply", "-auto-approve"], capture_output=True)  # error: TFH201
""",
        # s51: a helper that a tool, a worker or module-level code also calls, or that is handed on (a thread, a
        # registry), is on the agent path; a remote command it captures stays reported in the foreground too
        """\
import subprocess, threading
import click
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
def _install(pkg):
    subprocess.run(["pip", "install", pkg])  # error: TFH201
def _push(remote):
    subprocess.run(["git", "push", remote])  # error: TFH201
def _fetch(remote):
    return subprocess.run(["git", "fetch", remote], capture_output=True)  # error: TFH201
@click.command()
def upgrade():
    _install("mytool")
    _push("origin")
    _fetch("origin")
@mcp.tool()
def install(pkg: str) -> str:
    _install(pkg)
    return "ok"
threading.Thread(target=_push, args=("origin",)).start()
""",
        # s49: a player that also streams what it is handed, or a sound fetched from a URL: reported
        """\
import subprocess
def play(path, url):
    subprocess.run(["ffplay", "-nodisp", "-autoexit", path])  # error: TFH201
    subprocess.run(["afplay", "https://example.com/chime.wav"])  # error: TFH201
""",
        # s49: built in the code but a literal word reaches another machine or runs long (`clone`, `-m pytest`), or a
        # parameter chooses the program (the model's or the caller's command): reported
        """\
import shlex, subprocess, sys
class Repo:
    def clone(self, url):
        return subprocess.run([self._git, "clone", url], capture_output=True)  # error: TFH201
def tests(root):
    cmd = [sys.executable, "-m", "pytest", "-q"]
    return subprocess.run(cmd, cwd=root)  # error: TFH201
def shell_tool(command: str):
    return subprocess.run(shlex.split(command), capture_output=True)  # error: TFH203
def run_request(request):
    return subprocess.run([request.binary, "status"], capture_output=True)  # error: TFH203
""",
        # s48: sudo without `-n` may wait at a password prompt; with `-n` the command it runs decides (`curl` leaves the
        # machine); a captured `sudo -v` has nobody to ask: reported
        """\
import subprocess
def restart(url):
    subprocess.run(["sudo", "systemctl", "restart", "app"])  # error: TFH201
    subprocess.run(["sudo", "-n", "curl", "-fsSL", url])  # error: TFH201
    subprocess.run(["sudo", "-v"], capture_output=True)  # error: TFH201
""",
        # s48: a loop that waits while the process has exited (`is not None`), or on another process's status, proves
        # nothing about the one waited on: reported
        """\
import asyncio
async def run(argv, other):
    proc = await asyncio.create_subprocess_exec(*argv)
    while other.returncode is None:
        await asyncio.sleep(0.1)
    await proc.wait()  # error: TFH203
async def run_again(argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    while proc.returncode is not None:
        await asyncio.sleep(0.1)
    await proc.wait()  # error: TFH203
""",
        # s48: a `kill` that no import binds to `os` (another module's `kill`, a local name): not a kill of the pid
        """\
import asyncio, signal
import signals
from os import kill as os_kill
def _signal(group, sig):
    signals.kill(group, sig)
def _other(pid, sig):
    os_kill = print
    os_kill(pid, sig)
async def stop(argv):
    proc = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
    _signal(proc.pid, signal.SIGKILL)
    await proc.wait()  # error: TFH203
async def stop_other(argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    _other(proc.pid, signal.SIGKILL)
    await proc.wait()  # error: TFH203
""",
        # s47: a kill on one branch only (no `else`, or an `else` that kills nothing), a wait on a process the poll
        # found running, or on another process than the one polled: reported
        """\
import asyncio, os, signal, subprocess
async def stop(argv, force):
    process = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
    if force:
        os.killpg(process.pid, signal.SIGKILL)
    await process.wait()  # error: TFH203
async def stop_nt(argv):
    process = await asyncio.create_subprocess_exec(*argv)
    if os.name == "nt":
        process.kill()
    else:
        print("left running")
    await process.wait()  # error: TFH203
def close(argv):
    proc = subprocess.Popen(argv)
    other = subprocess.Popen(argv)
    if proc.poll() is None:
        proc.wait()  # error: TFH203
    else:
        other.wait()  # error: TFH203
def _probe(group, sig):
    os.killpg(group, sig)
def check(argv):
    proc = subprocess.Popen(argv)
    _probe(proc.pid, 0)  # signal 0 only asks whether the group lives
    proc.wait()  # error: TFH203
""",
        # s47 (batch 20, nyx-raccoonbot's installer): a program looked up with `shutil.which` of a value the code does
        # not hold (`args.python`) is no program the rule can name: reported, and no crash building a literal of it
        """\
import shutil, subprocess
def install(args):
    python = shutil.which(args.python)
    probe = subprocess.run([python, "-c", "import sys"])  # error: TFH203
""",
        # s47: one of the programs the function may return is not local (`curl` fetches): the call stays reported
        """\
import shutil, subprocess
def fetcher() -> str:
    if shutil.which("xdg-open"):
        return "xdg-open"
    return "curl"
def fetch(url):
    subprocess.run([fetcher(), url], check=True)  # error: TFH201
""",
        # s46: the same helpers, one caller a network sub-command (`git fetch`), or a public helper (any module may
        # call it with anything)
        """\
import subprocess
class SessionDiff:
    def _git(self, args):
        return subprocess.run(["git", *args], cwd=self.root, stdout=subprocess.PIPE)  # error: TFH201
    def _git_names(self, args):
        return self._git(args)
    def changed(self, old):
        return self._git_names(["diff", "--name-only", old]), self._git_names(["fetch", "origin"])
def _run(cmd):
    return subprocess.run(cmd, capture_output=True)  # error: TFH203
def step(cmd):
    return _run(cmd)
def use():
    step(["git", "status"])
""",
        # s46: a `*args` helper one caller hands a script the code does not spell (PowerShell's `-Command <var>`)
        """\
import asyncio
async def _run_exec(*args):
    proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE)
    stdout, _ = await proc.communicate()  # error: TFH203
    return stdout
async def paste(script):
    return await _run_exec("wl-paste") or await _run_exec("powershell", "-NoProfile", "-Command", script)
""",
        # s54: the same programs captured, without `-i` and `-t`, detached, or given a remote command: an ordinary
        # remote call (the fix bounds `kubectl exec POD -- ls`; it is not offered on a `-it` process even captured)
        """\
import subprocess
def remote(pod, container, host):
    subprocess.run(["kubectl", "exec", pod, "--", "ls"], capture_output=True)  # error: TFH201
    subprocess.run(["kubectl", "exec", "-it", pod, "--", "ls"], capture_output=True)  # error: TFH201 "no automatic fix"
    subprocess.run(["ssh", host, "uptime"])  # error: TFH201
    subprocess.run(["ssh", "-N", "-L", "8080:localhost:80", host])  # error: TFH201
    subprocess.run(["docker", "run", "-itd", "redis"])  # error: TFH201
""",
        # s46: a sign-in whose output is captured has nobody to talk to, and a non-interactive sign-in (a token or a
        # managed identity handed in) is an ordinary remote call: reported
        """\
import subprocess
def sign_in(tenant, token):
    subprocess.run(["az", "login", "--tenant", tenant], capture_output=True)  # error: TFH201
    subprocess.run(["az", "login", "--identity"])  # error: TFH201
    subprocess.run(["gh", "auth", "login", "--with-token"], input=token, text=True)  # error: TFH201
    subprocess.run(["gh", "auth", "status"])  # error: TFH201
""",
        # s45: a local instant's program with another sub-command keeps its reading (a pull runs long, `adb shell`
        # runs on the device, a tmux session not detached is the person's); a `_run(cmd)` helper one caller hands a
        # command it built
        """\
import subprocess
def models(model, argv, session):
    subprocess.run(["ollama", "pull", model], capture_output=True)  # error: TFH201
    subprocess.run(["adb", "shell", *argv], capture_output=True)  # error: TFH201
def _run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)  # error: TFH203
def use(root, argv):
    _run(["git", "status"])
    _run(["git", *argv])
class RunOptions:
    command: str
def launch(options: RunOptions, path):
    subprocess.run([*options.command.split(" "), path])  # error: TFH203
""",
        # s44: a grown list still runs what it is handed after `-c`, or what leaves the machine; `git clean -i` asks
        """\
import subprocess
def run(extra, remote):
    cmd = ["bash", "-c"]
    cmd += [extra]
    subprocess.run(cmd)  # error: TFH203
    push = ["git", "push"]
    push += [remote]
    subprocess.run(push)  # error: TFH201
    subprocess.run(["git", "clean", "-i"])  # error: TFH203
""",
        # s44: a read loop that swallows its timeouts (the run itself is unbounded), or leaves at a marker, not at EOF
        """\
import asyncio
async def agent(argv):
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    while True:
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=2)
        except TimeoutError:
            continue
        if not line:
            break
    await proc.wait()  # error: TFH203
async def server(argv):
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
    while True:
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
        if b"ready" in line:
            break
    await proc.wait()  # error: TFH203
""",
        # s44: a program found with `shutil.which` still runs what the code hands it, or what runs long
        """\
import asyncio, shutil
async def run(argv, url):
    bash = shutil.which("bash")
    proc = await asyncio.create_subprocess_exec(bash, *argv)
    await proc.wait()  # error: TFH203
    git = shutil.which("git")
    clone = await asyncio.create_subprocess_exec(git, "clone", url)
    await clone.wait()  # error: TFH201
""",
        # s44 (batch 17 dobby-orchestrator daemon.py): a coding agent's CLI runs an LLM agent session (model calls
        # over the network): awaited with no deadline, a stalled session hangs its caller; the bounded one is silent
        """\
import asyncio, subprocess
async def parse_log(prompt):
    proc = await asyncio.create_subprocess_exec(
        "claude", "-p", prompt, "--max-turns", "5", stdout=asyncio.subprocess.PIPE)
    stdout, _ = await proc.communicate()  # error: TFH201
    return stdout
async def parse_log_bounded(prompt):
    proc = await asyncio.create_subprocess_exec("claude", "-p", prompt, stdout=asyncio.subprocess.PIPE)
    stdout, _ = await asyncio.wait_for(proc.communicate(), timeout=300)
    return stdout
def review(diff):
    return subprocess.run(["codex", "exec", diff], capture_output=True)  # error: TFH201 "`codex` runs an LLM agent session"
def register():
    subprocess.run(["claude", "mcp", "add", "my-server", "uvx", "my-server"], capture_output=True, check=True)
""",
        # s43: a module function returning more than one program, or a remote one, names no local program
        """\
import os, subprocess
def tool(kind):
    if kind:
        return "git"
    return os.environ["TOOL"]
def remote():
    return "kubectl"
def probe(root):
    subprocess.run([tool(root), "status"], cwd=root)  # error: TFH203
    return subprocess.run([remote(), "get", "pods"])  # error: TFH201
""",
        # s43: a wait's task watched with no timeout, or under a deadline that never kills the process
        """\
import asyncio
async def watch(argv, other):
    process = await asyncio.create_subprocess_exec(*argv)
    waiter = asyncio.create_task(process.wait())  # error: TFH203
    done, _ = await asyncio.wait({waiter, other}, timeout=None)
    process.kill()
async def quiet(argv, deadline):
    process = await asyncio.create_subprocess_exec(*argv)
    waiter = asyncio.create_task(process.wait())  # error: TFH203
    done, _ = await asyncio.wait({waiter}, timeout=deadline)
    return done
""",
        # s42: git that can wait for a person (an editor for the message, a merge's conflicts, `add -p`), or ask the
        # server; a helper one call of which forwards a remote sub-command or a name
        """\
import subprocess
def save(root, branch):
    subprocess.check_call(["git", "commit"], cwd=root)  # error: TFH201
    subprocess.check_call(["git", "merge", branch], cwd=root)  # error: TFH203
    subprocess.check_call(["git", "add", "-p"], cwd=root)  # error: TFH203
    return subprocess.run(["git", "tag", "-a", "v1"], cwd=root)  # error: TFH203
def git(cwd, *argv):
    return subprocess.run(["git", *argv], cwd=cwd, capture_output=True)  # error: TFH201
def _run_git(root, args):
    return subprocess.run(["git", *args], capture_output=True, cwd=root)  # error: TFH203
def sync(cwd, sub):
    return git(cwd, "status"), git(cwd, "pull"), _run_git(cwd, [sub])
""",
        # s46: a copy of the arguments is read as the arguments: a call giving a sub-command that leaves the machine
        # keeps the helper reported; so does a `list` that is not the builtin
        """\
import subprocess
def git(*args):
    return subprocess.run(["git"] + list(args), capture_output=True)  # error: TFH201
def list(items):
    return ["fetch", *items]
def tmux(*args):
    return subprocess.run(["tmux"] + list(args), capture_output=True)  # error: TFH201
def sync():
    return git("status"), git("pull"), tmux("send-keys", "Enter")
""",
        # s42: a module-level coroutine a caller also awaits without a deadline, or a public one (other modules may
        # call it unbounded): its wait is reported; `git remote show` asks the server
        """\
import asyncio, subprocess
async def run(proc, seconds):
    first = await asyncio.wait_for(_communicate(proc), timeout=seconds)
    return first, await _communicate(proc)
async def _communicate(proc: asyncio.subprocess.Process):
    await proc.wait()  # error: TFH203
async def communicate(proc: asyncio.subprocess.Process):
    await proc.wait()  # error: TFH203
async def caller(proc, seconds):
    return await asyncio.wait_for(communicate(proc), seconds)
def remote(root):
    return subprocess.run(["git", "remote", "show", "origin"], cwd=root)  # error: TFH203
def run_tool(command, path):  # one call passes a program that runs long
    return subprocess.run([command, path])  # error: TFH201
def lint(path):
    return run_tool("pylint", path), run_tool("pdffonts", path)
def run_any(command):  # a call passes a name
    return subprocess.run([command])  # error: TFH203
def go(c):
    return run_any(c)
class Picker:  # a constructor call passes another program
    def __init__(self, executable="fzf"):
        self.executable = executable
    def pick(self):
        return subprocess.run([self.executable])  # error: TFH203
def make(chosen):
    return Picker(executable=chosen)
""",
        # s50: a method's `[self.executable, *args]` with a remote program, or a constructor call passing another
        # program, keeps the finding
        """\
import subprocess
class Remote:
    def __init__(self, executable=None):
        self.executable = executable or "ssh"
    def _args(self, *args):
        return [self.executable, *args]
    def uptime(self, host):
        return subprocess.run(self._args(host, "uptime"), capture_output=True)  # error: TFH201
class Mux:
    def __init__(self, executable=None):
        self.executable = executable or "tmux"
    def _args(self, *args):
        return [self.executable, *args]
    def has(self, name):
        return subprocess.run(self._args("has-session", "-t", name), capture_output=True)  # error: TFH203
def make(chosen):
    return Mux(executable=chosen)
""",
        # s57: an argv builder's program with a sub-command that leaves the machine or runs long; the local-only table
        # names sub-commands only (`docker compose up`, `composer show -a` keep their reading)
        """\
import subprocess
def _git(*args):
    return ["git", *args]
def push():
    return subprocess.run(_git("push", "origin"), capture_output=True)  # error: TFH201
def up():
    subprocess.run(["docker", "compose", "-f", "stack.yml", "up", "-d"], capture_output=True)  # error: TFH201
    subprocess.run(["composer", "show", "-a", "vendor/pkg"], capture_output=True)  # error: TFH201
""",
        """\
from hcloud import Client
client = Client(token=token)  # error: TFH201 "hands it to every API request"
""",
        # s41 (batch 14, falcon-mcp): a **dict the function builds in place with literal keys holds no timeout
        """\
from falconpy import APIHarnessV2
class FalconClient:
    def __init__(self, cid, secret, proxy=None):
        params: dict = {"client_id": cid, "client_secret": secret}
        if proxy:
            params["proxy"] = {"https": proxy}
        self.client = APIHarnessV2(**params)  # error: TFH201
""",
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
        # s54 (chainedci): the client an instance of a project class holds, reached from outside the class (a class
        # of another module of the project is read from its module: linter/imports_members.py)
        """\
from dataclasses import dataclass, field
from requests import Session
@dataclass
class Http:
    session: Session = field(init=False)
    def __post_init__(self):
        self.session = Session()
def trigger(url):
    with Http().session.post(url, json={}) as response:  # error: TFH201
        return response.json()
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
def run(cmd, host, url):
    subprocess.run(cmd, check=True)  # error: TFH203 "pass timeout=<seconds> so a hung process"
    subprocess.check_output(cmd)  # error: TFH203
    with subprocess.Popen(cmd) as proc:
        proc.wait()  # error: TFH203
""",
        # s43: what TFH201's default reports of a process: the model's command (a shell tool), a program that reaches
        # another machine, one that runs long by nature or never ends, one that waits for a person, and any command
        # the code does not spell (a shell line's placeholder, `bash -c <var>`, `python -c <var>`, `docker exec c <var>`)
        """\
import subprocess, sys
def shell_tool(command: str) -> str:
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout  # error: TFH203
def remote(host, url, repo, path, code, cid, cmd):
    subprocess.run(["ssh", host, "uptime"])  # error: TFH201
    subprocess.run(["curl", "-s", url])  # error: TFH201
    subprocess.run(["ping", host])  # error: TFH201
    subprocess.run(["mytool", "--source", "https://example.com/data.csv"])  # error: TFH201
    subprocess.run(["git", "clone", repo])  # error: TFH201
    subprocess.run(["pip", "install", "requests"])  # error: TFH201
    subprocess.run(["docker", "wait", cid])  # error: TFH201
    subprocess.run(["tail", "-f", path])  # error: TFH203
    subprocess.run(["git", "rebase", "main"])  # error: TFH203
    subprocess.run(f"cd {path} && {cmd}", shell=True)  # error: TFH203
    subprocess.run("cd " + path + " && " + cmd, shell=True)  # error: TFH203
    subprocess.run(["bash", "-lc", cmd])  # error: TFH203
    subprocess.run([sys.executable, "-c", code])  # error: TFH203
    subprocess.run([sys.executable, path])  # error: TFH203
    subprocess.run(["docker", "exec", cid, "sh", "-c", cmd])  # error: TFH203
    subprocess.run(f"mmdc -i {path} -o out.png", shell=True)  # error: TFH201
    shell = subprocess.Popen(["bash"], stdin=subprocess.PIPE)
    shell.communicate(cmd.encode())  # error: TFH203
""",
        # s36: a wrapper runs what follows its flags (a fetch is no instant command), an async install's wait
        """\
import asyncio, subprocess
def fetch_quietly(url):
    subprocess.run(["nohup", "curl", "-sSLO", url])  # error: TFH201
async def install(package):
    proc = await asyncio.create_subprocess_exec("npm", "install", package)
    await proc.wait()  # error: TFH201
""",
        # a network command is not instant, an install nobody confirmed is not asked for; a loop over
        # commands is as slow as its slowest
        """\
import subprocess
def probe(exe):
    candidates = [["cc", "--version"]]
    candidates.append([exe, "build"])
    for cmd in candidates:
        subprocess.run(cmd)  # error: TFH201
def sync(repo):
    subprocess.run(["git", "clone", repo], check=True)  # error: TFH201
    subprocess.run(["pip", "install", "requests"], check=True)  # error: TFH201
    for name, cmd in {"pandoc": "pandoc --version", "build": "make all"}.items():
        subprocess.run(cmd.split(), check=True)  # error: TFH203
    # s41: a compile is not instant in general (its time follows the source), even of one small file
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", "x.so", "x.c"], check=True)  # error: TFH201
    # s43: a container that is waited for runs until its command exits
    subprocess.run(["docker", "wait", "job"], check=True, capture_output=True)  # error: TFH201
    proc = subprocess.Popen(["npx", "server"])
    proc.wait()  # error: TFH201
""",
        """\
import asyncio
async def main(argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    out, err = await proc.communicate()  # error: TFH203 "wrap it in asyncio.wait_for"
""",
        # a function defined under a deadline runs later, without it; a closure also run as a task escapes
        """\
import asyncio
async def main(argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    async with asyncio.timeout(5):
        async def later():
            await proc.wait()  # error: TFH203
        finish = lambda: proc.communicate()  # error: TFH203
        await asyncio.wait_for(later(), 1)
        asyncio.get_running_loop().create_task(later())
""",
        """\
import websocket, redis
ws = websocket.create_connection("ws://x")  # error: TFH201
r = redis.Redis(host="h")  # error: TFH201:5 "redis.Redis has no socket_timeout; pass socket_timeout=<seconds>"
""",
        """\
from redis.asyncio import Redis
import redis.asyncio
def store(url):
    conn = Redis(host="h", decode_responses=True)  # error: TFH201 "redis.asyncio.Redis has no socket_timeout"
    return conn, redis.asyncio.from_url(url)  # error: TFH201 "socket_timeout"
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
    subprocess.run(cmd, check=True)  # error: TFH203 "built at run time"
    subprocess.run(["git", *args])  # error: TFH203 "what `git` runs is built at run time"
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
        # s41 (issue 23 D4): the project's own optional-import helper, called with the module's name
        """\
import importlib
def optional_import(name, extra=None):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
def cache(url):
    redis = optional_import("redis", extra="cache")
    return redis.Redis(host=url).get("k")  # error: TFH201 "socket_timeout"
""",
        # a client held in a declared field (pydantic PrivateAttr/Field, dataclass field: its default or
        # what its default_factory builds), reached through another object whose class the field names
        """\
from dataclasses import dataclass, field
import requests
from pydantic import BaseModel, PrivateAttr
class Atlas(BaseModel):
    _session: requests.Session = PrivateAttr(default_factory=requests.Session)
class AtlasTool(BaseModel):
    toolset: "Atlas"
class Alerts(AtlasTool):
    def run(self, url):
        return self.toolset._session.get(url=url)  # error: TFH201 "requests.Session.get"
@dataclass
class Crawler:
    http: requests.Session = field(default_factory=requests.Session)
    def fetch(self, url):
        return self.http.get(url)  # error: TFH201
""",
        # s39: a name bound to several commands is silent only when each is; a `-C` directory does not hide a
        # clone; a starred argv that is no editor; a Timer never started, or killing another process, bounds nothing;
        # a CLI command's process whose output is captured is no foreground one
        """\
import subprocess, threading
import click
def sync(url, root, argv):
    cmd = ["git", "status"]  # the bindings are not followed by flow: either command may run here
    subprocess.run(cmd)  # error: TFH201
    cmd = ["git", "clone", url]
    subprocess.run(cmd)  # error: TFH201
    subprocess.run(["git", "-C", f"{root}/x", "clone", url])  # error: TFH201
    subprocess.run([*argv.split(), root])  # error: TFH203
def not_started(argv, seconds):
    proc = subprocess.Popen(argv)
    def stop():
        proc.kill()
    timer = threading.Timer(seconds, stop)
    proc.wait()  # error: TFH203
@click.command()
def captured(argv):
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
    proc.wait()  # error: TFH203
def kills_another(argv, seconds, other):
    proc = subprocess.Popen(argv)
    timer = threading.Timer(seconds, other.kill)
    timer.start()
    proc.wait()  # error: TFH203
""",
        # the recorded session runs a command: that command decides (a long install keeps no fix)
        """\
import subprocess
def record(cmd, log):
    subprocess.run(["script", "-q", "-c", "pip install -r requirements.txt", log])  # error: TFH201 "`pip` runs long by nature"
""",
        # a CLI's captured run, or a command's helper outside the command, is no foreground process
        """\
import subprocess
import typer
app = typer.Typer()
@app.command()
def status():
    out = subprocess.run(["gh", "pr", "status"], capture_output=True)  # error: TFH201
    return out
def helper():
    subprocess.run(["gh", "repo", "sync"])  # error: TFH201
""",
        # the docker SDK: a container's wait and exec_run block as long as the container's job
        """\
import docker
from docker.models.containers import Container
def job(image):
    container = docker.from_env().containers.run(image, detach=True)
    container.wait()  # error: TFH201 "the longest the container may run"
    return container.exec_run(["python", image])  # error: TFH201 "the docker SDK has no timeout for it"
def typed(container: Container, cmd):
    return container.exec_run(cmd)  # error: TFH201
""",
        # a process kept on the object with no way to end it, or a local one the object never keeps
        """\
import subprocess
class Runner:
    def run(self, argv):
        self._proc = subprocess.Popen(argv)
        return self._proc.wait()  # error: TFH203
class Once:
    def run(self, argv):
        proc = subprocess.Popen(argv)
        return proc.wait()  # error: TFH203
    def kill(self):
        pass
""",
        # s38: a decorator that runs the function unbounded, a nested def (it runs later), an async def (the
        # decorator bounds only making the coroutine); a wait after streaming the output (the stream is
        # unbounded), a signal to another process;
        # a scanner is reported and gets no default (it runs for minutes)
        """\
import os, subprocess
from timeout_decorator import timeout
@timeout(None)
def unbounded(path):
    subprocess.run(["pylint", path])  # error: TFH201
@timeout(60)
def later(path):
    def inner():
        subprocess.run(["pylint", path])  # error: TFH201
    return inner
@timeout(60)
async def coro(path):
    subprocess.run(["pylint", path])  # error: TFH201
def streamed(argv):
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
    for line in proc.stdout:  # the read is where it waits, and it takes no timeout
        print(line)
    proc.wait()  # error: TFH203
def stop_other(argv, other):
    proc = subprocess.Popen(argv)
    try:
        os.killpg(other.pid, 9)
    except ProcessLookupError:
        proc.wait()  # error: TFH203
def scan(path):
    subprocess.run(["depscan", "--src", path])  # error: TFH201 "`depscan` runs long by nature"
""",
        # s40: a worker thread calling the function with the call's arguments (keywords too): its timeout is read
        # there; a caller's deadline around it (wait_for) is the caller's bound, as for any call in it
        """\
import asyncio, subprocess
async def step(cmd):
    proc = await asyncio.to_thread(  # error: TFH203 "subprocess.run has no timeout"
        subprocess.run,
        cmd, shell=True, capture_output=True, text=True, check=False,
    )
    done = await asyncio.to_thread(subprocess.run, cmd, shell=True, timeout=60)
    bounded = await asyncio.wait_for(asyncio.to_thread(subprocess.run, cmd, shell=True), 60)
    return proc, done, bounded
""",
        # s50: what the decisions keep: remote with captured output in the foreground, a long job on the agent path,
        # a curl bounded only while connecting, a thread joined with no deadline and no kill
        """\
import subprocess, threading
import typer
app = typer.Typer()
@app.command()
def deploy(remote):
    subprocess.run(["git", "push", remote], capture_output=True)  # error: TFH201
def agent_install(pkg):
    return subprocess.run(["pip", "install", pkg], capture_output=True)  # error: TFH201
def fetch(url):
    return subprocess.run(["curl", "--connect-timeout", "5", url], capture_output=True)  # error: TFH201
def drain(argv):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE)
    t = threading.Thread(target=lambda: p.communicate())  # error: TFH203
    t.start()
    t.join()
""",
        # s53 (batch 25: overkill, arc-deploy, trobz-deploy): a helper handed its command whose output the code reads,
        # when one caller hands it words naming the network (`git push`, `curl`, `ssh` built by the class's own method);
        # the same helper on the person's terminal stays TFH203 (the s50 foreground decision)
        """\
import subprocess
def _run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)  # error: TFH201
def _show(cmd):
    return subprocess.run(cmd)  # error: TFH203
def publish(cwd):
    _run(["git", "add", "-A"], cwd)
    _run(["git", "push"], cwd)
    push = ["git", "push"]
    _show(push)
class Deployer:
    def run_command(self, cmd, show_output=False):
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout  # error: TFH201
    def notify(self, url):
        cmd = f"curl -X POST {url}/api/webhooks/deploy"
        return self.run_command(cmd)
class Executor:
    def __init__(self, host):
        self.host = host
    def _argv(self, command):
        argv = ["ssh", "-A"]
        argv += [self.host, command]
        return argv
    def capture(self, command):
        argv = self._argv(command)
        return subprocess.run(argv, capture_output=True, text=True).stdout  # error: TFH201
""",
        # s57 (issue 23; to-do-fixer b25, toast-cli b26, ccherd b28): a command a module function builds in a name it
        # returns (`cmd = ["aws"] + args; return cmd`), when the code reads the process's output; the same command on
        # the person's terminal stays TFH203 (the s50 foreground decision)
        """\
import subprocess
def _aws(profile, args):
    cmd = ["aws"] + args + ["--profile", profile]
    return cmd
def get_object(profile, key):
    return subprocess.run(_aws(profile, ["s3api", "get-object", key]), capture_output=True)  # error: TFH201
def shown(profile, key):
    argv = _aws(profile, ["s3api", "get-object", key])
    return subprocess.run(argv)  # error: TFH203
""",
    ]

    @classmethod
    def candidate_lines(cls, screen: Screen, knowledge: Knowledge) -> list[int]:
        spots = [c.lineno for c in timeout_calls(screen, knowledge, "missing")]
        if not spots:
            return spots
        # and the helpers that say what a client is (``def _session(self) -> requests.Session``), and
        # the module's CLI groups (``@click.group() def cli``: ``@cli.command()`` reads its decorator)
        return spots + helper_lines(screen, knowledge) + group_lines(screen) + field_lines(screen, knowledge) + runner_lines(
            screen, _RUNNER_WORDS)  # s51: `run=subprocess.run` then `run([...])`

    def visit_Call(self, node: cst.Call) -> None:
        k = self.knowledge
        if (last_name(node.func) or "") in k.worker_thread_calls:
            self.worker_lambdas.update(id(a.value) for a in node.args if isinstance(a.value, cst.Lambda))
        qn = self.names.qualname(node.func)
        held_asked = qn is None
        if qn is None:  # s54: `Http().session.post(...)`, a client an instance of a class of this module holds
            qn = self._held_method(node.func)
        if qn is None and isinstance(node.func, cst.Attribute) and self._known_method(node.func.attr.value):
            qn = param_method(self.names, node.func, self.ctx.path, self.ctx.screen, self.held_owners)  # s54: `def f(k8s_v1, ns)`
        if qn is None:  # s51: a parameter (or `self._run` set from one) whose default is a process call
            qn = runner_default(self.names, node.func, self.classes[-1] if self.classes else None, PROCESS_RUNS)
            if qn is None:
                return
            self.runner_calls.add(id(node))
        if qn in k.timeout_wrappers:
            self.wrapper_calls.add(id(node))
            self._open(1)
        if k.canonical(qn) in k.forwarding_worker_calls:
            self._forwarded(node)
            return
        spec = k.timeout_for(qn)  # s52: also a method of a generated SDK API class (`CoreV1Api.read_namespaced_pod`)
        if spec is None and not held_asked and isinstance(node.func, cst.Attribute) and self._known_method(node.func.attr.value) \
                and (held := self._held_method(node.func)) is not None and (spec := k.timeout_for(held)) is not None:
            qn = held  # s54: `Http().session.post(...)`, a client a project class's instance holds (asked once per call,
            # and only of a method the tables can give a timeout: `timeout_for` answers nothing else)
        if spec is None and (held := self._global_held(qn)) is not None and (spec := k.timeout_for(held)) is not None:
            qn = held  # s54: `kube.core_v1.list_node()`, `v1 = kube.core_v1`: a project module's instance holds it
        if spec is not None:
            self._check_spec(node, node, qn, spec)
            return
        rule: CallWithoutTimeout | None = None
        if (
            qn in k.needs_timeout_scope
            and not self.deadlines.get(self._function())
            and id(node) not in self.exempt
            and not self._caller_bounds()
            and not self._owned_wait(node)
            and not self._interactive(node, qn)  # s36: `await proc.wait()` of `git --version`
            and not self._timer_bounded(node)
        ):
            rule = self._reporter(self.unread_process(node, qn))
            if rule is not None:
                rule.report(node, f"{qn} has no timeout{rule.unread_note}; {k.needs_timeout_scope[qn]}")
        if (
            rule is not self
            and qn in k.no_timeout_parameter
            and not self.unread_only
            and not self._unbounded_is_fine(node)
            and not decorator_bound(self.names.function, self.names, k)
        ):
            self.report(node, f"{qn} has no timeout; {k.no_timeout_parameter[qn]}")

    def _held_method(self, func: cst.BaseExpression) -> str | None:
        """s54 (issue 23, chainedci): the method of the object an instance of a project class holds, by Python's own
        semantics: ``Http().session.post``, ``h = Http(); h.session.get``, ``self.http.session.get`` (``self.http =
        Http()``), where ``class Http`` (this module's, or another module's of the project: ``imported_member``)
        declares or assigns ``self.session`` a ``requests.Session``; None when that is not known."""
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Attribute):
            return None
        holder, attr = func.value.value, func.value.attr.value
        cls = self.classes[-1] if self.classes else None
        held = local_member(self.names, holder, attr)  # `Http()`, a class of this module
        if held is None and self._known_method(func.attr.value):  # s55: `self.container`, set by a base class
            held = self._self_member(cls, holder, attr)
        if held is None:
            owner = self.names.qualify(holder)
            if (owner is None or not owner[1]) and isinstance(holder, cst.Attribute) and self._known_method(func.attr.value):
                owner = self._self_member(cls, holder.value, holder.attr.value)  # `self.k8s_helper.core.m()`
            if owner is None or not owner[1] or self.ctx.path is None:
                return None
            path = self.ctx.path
            held = self.ctx.screen.memo(("tfh201.held", owner[0], attr), lambda: imported_member(path, owner[0], attr))
            if held is not None and held[1]:
                self.held_owners[id(func)] = (owner[0], attr)  # s56: where the client was read from
        if held is None or not held[1]:
            return None
        return self.knowledge.canonical(f"{held[0]}.{func.attr.value}")

    def _self_member(self, cls: cst.ClassDef | None, holder: cst.BaseExpression, attr: str) -> Ref:
        """``<holder>.<attr>`` as a base class of another module sets it (s55), else as ``__init__`` stores it from a
        parameter the constructor's callers type (s56: ``self.core = core_api``); None when neither is known."""
        path, screen = self.ctx.path, self.ctx.screen
        return inherited_member(self.names, cls, holder, attr, path, screen) or init_member(
            self.names, cls, holder, attr, path, screen)

    def _global_held(self, qn: str) -> str | None:
        """s54 (issue 23; batch 27's seekr-chain): the method of the client that an attribute of a project module's
        module-level instance holds, by Python's own semantics: ``kube.core_v1.list_node`` (``from pkg.k8s_api import
        kube``; ``kube = _KubeApi()`` there, whose ``core_v1`` property or cached descriptor returns a
        ``CoreV1Api``), also through a local (``v1 = kube.core_v1``); None when that is not known. Asked only of a
        method named like one the timeout tables know (an SDK family's verb, ``get``, ``post``)."""
        parts = qn.split(".")
        if len(parts) < 4 or self.ctx.path is None or not self._known_method(parts[-1]):
            return None
        path, holder, attr = self.ctx.path, ".".join(parts[:-2]), parts[-2]
        held = self.ctx.screen.memo(("tfh201.global", holder, attr), lambda: imported_global_member(path, holder, attr))
        if held is None or not held[1]:
            return None
        return self.knowledge.canonical(f"{held[0]}.{parts[-1]}")

    def _known_method(self, name: str) -> bool:
        """Whether a method is named like a call the timeout tables know: an SDK family's request (its first word one
        of the family's verbs) or the last name of a listed call (``get``, ``post``, ``stream``)."""
        k = self.knowledge

        def build() -> frozenset[str]:
            verbs = frozenset().union(*(f.verbs for f in k.api_families))
            return frozenset(q.rsplit(".", 1)[-1] for q in (*k.timeouts, *k.sdk_call_timeouts)) | verbs

        names: frozenset[str] = self.ctx.screen.memo("tfh201.method_names", build)
        return name in names or name.split("_", 1)[0] in names

    def ride(self, rider: Rule) -> bool:
        """s53 (issue 23): TFH203's findings made in this TFH201 pass when both rules run on a file: the same calls
        under the same conditions, split by :meth:`unread_process`, which the one pass asks once per call."""
        # by code and flag, not by class: a reloaded rules module (a plugin loader, a test) makes a second class
        if self.unread_only or rider.shares_pass_of != self.code or not getattr(rider, "unread_only", False):
            return False
        self.rider = cast("CallWithoutTimeout", rider)
        return True

    def _reporter(self, unread: bool) -> CallWithoutTimeout | None:
        """Which rule a finding is: TFH201 the calls whose evidence the linter reads, TFH203 the others (this rule,
        or TFH203 riding this TFH201 pass); None: neither runs here."""
        if unread == self.unread_only:
            return self
        return self.rider if unread else None

    def _kwargs_lack(self, node: cst.Call, spec: TimeoutParam) -> bool:
        """Every ``**`` of ``node`` is a dict built in place whose literal keys name neither the timeout nor
        an object carrying it (:func:`.kwargs.local_kwargs_keys`)."""
        keys = local_kwargs_keys(self.names.function, node)
        if keys is None:  # s54: the function's own `**kw`, every caller seen (epsiloneridani-review, patchwork-cli)
            method = len(self.names.stack) > 1 and self.names.stack[-2].kind == "class"
            keys = caller_kwargs_keys(self.names.function, node, self.ctx.path, method, self.ctx.screen.tree)
        return keys is not None and spec.keyword not in keys and not any(kw in keys for kw in spec.carried_by)

    def _check_spec(self, node: cst.Call, at: cst.Call, qn: str, spec: TimeoutParam) -> None:
        """``node`` calls ``qn`` (whose timeout argument ``spec`` says) with no timeout: report it at ``at`` (the
        call itself, or the worker-thread call that forwards its arguments)."""
        k = self.knowledge
        if (
            spec.required
            and (not has_star(node) or self._kwargs_lack(node, spec))
            and argument(node, spec.keyword, spec.position) is None
            and not any(argument(node, kw, None) is not None for kw in spec.carried_by)
            and not dsn_may_carry(node, spec)
        ):
            if (
                id(node) not in self.exempt
                and not (spec.scope_bounds and (self.deadlines.get(self._function()) or self._caller_bounds()))
                and not self._interactive(node, qn)
                and not self._owned_wait(node)
                and not decorator_bound(self.names.function, self.names, k)
                and not self._timer_bounded(node)
                and not self._client_default(node, qn, spec)
                and not self._socket_default(node, qn)
                and (rule := self._reporter(self.unread_process(node, qn))) is not None
            ):
                seconds = self.ctx.config.timeout_text_for(qn)
                refusal = self._timeout_fix_refusal(node, qn) or sdk_fix_refusal(node, qn, spec, k)
                autofix = None if refusal is not None else RawFix(
                    f"Add `{spec.keyword}={seconds}`",
                    (NodeEdit(at, add_keyword(at, spec.keyword, seconds)),),
                )
                advice = spec.advice.format(keyword=spec.keyword)
                if refusal is not None:
                    advice += f" (no automatic fix: {refusal})"
                rule.report(at, call=qn, keyword=spec.keyword, fix=advice, autofix=autofix)

    def _client_default(self, node: cst.Call, qn: str, spec: TimeoutParam) -> bool:
        """s56 (issue 23): the client the call is made on carries a default timeout the project installed on its
        request path (``client_defaults.py``; asked only of a call the tables' request paths name)."""
        paths = self.knowledge.client_request_paths
        if family_paths(qn, paths) is None or not isinstance(node.func, cst.Attribute):  # client_default's own gate
            return False
        cls = self.classes[-1] if self.classes else None
        func = self.names.function
        key = ("tfh201.client_default", id(cls), id(func), qn.rsplit(".", 1)[0], node.func.attr.value,
               cst.Module([]).code_for_node(node.func.value), spec.keyword)
        if self.ctx.screen.memo(key, lambda: client_default(node, qn, spec.keyword, paths, cls, func, self.module)):
            return True
        owner = self.held_owners.get(id(node.func))  # a client a project class of another module holds
        path = self.ctx.path
        if owner is None or path is None:
            return False
        return self.ctx.screen.memo(("tfh201.held_default", *owner), lambda: imported_member_default(path, *owner))

    def _socket_default(self, node: cst.Call, qn: str) -> bool:
        """s56 (issue 23): a standard-library client opened while a ``socket.setdefaulttimeout(t)`` the function ran
        holds (``socket_default.py``; asked only of a call taking the process's default)."""
        func = self.names.function
        if qn not in self.knowledge.socket_default_timeout_calls or not isinstance(func, cst.FunctionDef):
            return False
        names = self.names
        return id(node) in self.ctx.screen.memo(("tfh201.socket_default", id(func)),
                                                lambda: under_socket_default(func, names))

    def _forwarded(self, node: cst.Call) -> None:
        """``asyncio.to_thread(subprocess.run, cmd, shell=True)``: the worker thread calls the function with the
        call's other arguments (keywords too), so the function's timeout is read from them; the thread blocks as
        long as the call does (s40: devmcp's run_ci_pipeline). Not under a deadline of the caller
        (``asyncio.wait_for(asyncio.to_thread(...), t)``, a timeout scope): the caller stops waiting then."""
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return
        qn = self.names.qualname(node.args[0].value)
        spec = self.knowledge.timeout_for(qn) if qn is not None else None
        if qn is None or spec is None or self.deadlines.get(self._function()) or self._caller_bounds():
            return
        self._check_spec(node.with_changes(func=node.args[0].value, args=node.args[1:]), node, qn, spec)

    def visit_Try(self, node: cst.Try) -> None:
        super().visit_Try(node)
        # s38: `except ProcessLookupError: proc.wait()` after signalling proc: nothing is left to wait for
        self.exempt.update(id(c) for c in lookup_reaps(node, self.names))

    def visit_If(self, node: cst.If) -> None:
        super().visit_If(node)
        # s47: `if proc.poll() is None: ... else: proc.wait()`: the process has exited, the wait reaps it
        self.exempt.update(id(c) for c in exited_reaps(node))

    def _timer_bounded(self, node: cst.Call) -> bool:
        """``proc.wait()`` where a started ``threading.Timer`` of the function kills ``proc`` at its deadline."""
        func = self.names.function
        f = node.func
        if thread_polled(node, func, self.names.enclosing_function, self.names, self.ctx.screen):
            return True  # s50: a communicate() on a thread the function joins with a timeout, killing the process
        if not isinstance(func, cst.FunctionDef) or not (isinstance(f, cst.Attribute) and f.attr.value in ("wait", "communicate") and isinstance(f.value, cst.Name)):
            return False
        if f.value.value in self.ctx.screen.memo(("timer_killed", id(func)), lambda: timer_killed(func, self.names)):
            return True
        # s44 (batch 17): a wait after a loop that read the process's output to its end under asyncio.wait_for
        loops = self.ctx.screen.memo(("bounded_reads", id(func)), lambda: bounded_reads(func, self.names))
        return f.attr.value == "wait" and f.value.value in loops and id(node) not in loops[f.value.value]

    def _owned_wait(self, node: cst.Call) -> bool:
        """A process the object keeps and can stop: its ``wait()`` is the object's contract (``owned.py``)."""
        return stoppable_wait(node, self.classes[-1] if self.classes else None, self.names.function, self.ctx.screen)

    def leave_Call(self, node: cst.Call) -> None:
        if id(node) in self.wrapper_calls:
            self.wrapper_calls.discard(id(node))
            self._open(-1)
