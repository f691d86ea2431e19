"""TFH201's default for a process the code names (s43, issue 23): :func:`local_program`, read through
:class:`~smullyan.linter.knowledge.Knowledge` by ``rules/timeouts/process.py``. Split out of :mod:`.processes`."""

from __future__ import annotations

import re
from typing import Final, Iterable, Mapping

from .processes import (
    INTERACTIVE_PROCESSES, LONG_RUNNING_PROCESSES, LONG_RUNNING_SUBCOMMANDS, REMOTE_CLIS, REMOTE_SUBCOMMANDS, ProcessNote,
    _AGENT_CLIS, _GIT_PATCH_SUBCOMMANDS, _GIT_PERSON_FLAGS,
    _GIT_PERSON_SUBCOMMANDS, _PYTHONS, _RUNNERS, _SHELL_FLAGS, _SHELLS, _WRAPPERS, _git_given_message, _program_argv,
    interactive_process, process_fix_refusal, remote_cli, shell_commands, sudo_wrapped,
)


def silent_process(words: Iterable[str], whole: bool, confirmed: bool = False) -> bool:
    """Whether TFH201 stays silent on a process: it waits for a person or ends at once, or is a local program."""
    words = list(words)
    return interactive_process(words, confirmed) is not None or local_program(words, whole) is not None


# ---------------------------------------------------------------- TFH201: a program the code names (s43, issue 23)

# TFH201's default for a process: a program the code names literally (``["git", "status"]``, ``"ffprobe -i " + p``,
# ``python -m venv``, ``docker inspect x``) is the author's choice of a local program, whose run time the author knows;
# it is silent unless it leaves the machine (``remote_cli``, ``NETWORK_PROGRAMS``, a literal URL in its words), runs
# long by nature (``LONG_RUNNING_*``, ``NEVER_ENDING_PROCESSES``: the finding stays, with advice and no fix), may wait
# for a person (a prompt, ``git merge``, a commit with no message), or runs a command it is handed that the code does
# not spell (``bash -c <var>``, ``docker exec c <var>``, ``python -c <var>``, ``["git", *argv]``). A command from a
# parameter, the model or any non-literal is reported as before. Every blind batch brought the next local program
# (batch 15: 17 local git calls, 9 docker CLI calls, ffprobe, taskkill, ``python -m venv``), never one that hung.
# The docker CLI talks to the machine's own daemon: local, except what reaches a registry (``pull``/``push``/
# ``login``/``search``), builds or runs a container (long by nature), or never ends (``wait``, ``attach``, ``events``,
# ``logs -f``).
NETWORK_PROGRAMS: Final[frozenset[str]] = frozenset({
    # programs whose job is reaching another machine, read beside ``REMOTE_CLIS`` (TFH402's list, left as measured)
    "ping", "ping6", "nc", "ncat", "netcat", "telnet", "dig", "nslookup", "host", "whois", "traceroute", "tracepath",
    "mtr", "openssl", "ftp", "tftp", "mosh", "sshpass", "ldapsearch", "smbclient", "snmpwalk", "grpcurl", "websocat",
    "yt-dlp", "youtube-dl", "sam", "cdk", "serverless", "sls", "pulumi", "vercel", "netlify", "firebase", "supabase",
    "wrangler", "modal", "railway", "fly", "stripe", "oci", "ibmcloud", "linode-cli", "databricks", "snowsql",
    "sqlcmd", "clickhouse-client", "cqlsh", "etcdctl", "consul", "nomad", "ansible", "adb", "mosquitto_pub",
    "mosquitto_sub", "kcat", "kafkacat", "ipfs", "tailscale", "httpie", "aws-vault",
    # a headless browser, or a renderer that drives one, loads pages and their resources (batch 4: motleycrew's `mmdc`)
    "mmdc", "wkhtmltopdf", "wkhtmltoimage", "chromium", "chromium-browser", "chrome", "google-chrome", "firefox",
    "phantomjs", "puppeteer", "decktape",
})
# Programs (or "program sub-command") that run until something else happens: a container's exit, its events, a
# followed log. Reported like a long job (no fix).
NEVER_ENDING_PROCESSES: Final[frozenset[str]] = frozenset({
    "docker wait", "docker attach", "docker events", "podman wait", "podman attach", "podman events", "watch",
    "inotifywait", "entr", "docker stats", "podman stats",
})
_FOLLOWED = frozenset({"tail", "journalctl", "docker logs", "podman logs", "kubectl logs", "docker compose logs"})
_FOLLOW_FLAGS = frozenset({"-f", "-F", "--follow"})
# An interpreter's flags after which it runs the code given next (``python -c <code>``, ``node -e <code>``).
_INTERPRETERS = _PYTHONS | frozenset({"node", "deno", "bun", "ruby", "perl", "php", "lua", "Rscript", "julia", "osascript"})
_CODE_FLAGS = frozenset({"-c", "-e", "--eval", "-m", "-p", "--print"})
_CONTAINER_CLIS = frozenset({"docker", "podman", "nerdctl"})
_GIT_NETWORK = frozenset({"submodule", "lfs", "svn", "send-email", "request-pull", "archive"})
# s44 (batch 16, bello): ``git remote`` lists, adds, renames and removes the repository's own configuration; these of
# its sub-commands ask a server (``git remote show origin``, ``update``, ``prune``, ``set-head -a``), as does
# ``git remote add -f`` (it fetches)
_GIT_REMOTE_NETWORK = frozenset({"show", "update", "prune", "set-head"})
_GIT_CLEAN_PERSON_FLAGS = frozenset({"-i", "--interactive"})
_LOCAL_NOTE = ProcessNote("a local program the code names, whose run time its author knows")
# s49 (issue 23; labels of batches 14-21: afplay x3, aplay, say, a second afplay: 4 false, 2 debatable, 0 true): programs
# that play a local sound file or speak a text on this machine's audio device and end with it. Long by nature for the
# fix (``LONG_RUNNING_PROCESSES``: a default would cut the sound), but local and ending by themselves: TFH201 is silent.
# Not the players that also stream a URL they are handed (``ffplay``, ``mpv``, ``vlc``, ``mpg123``): they stay reported.
PLAYBACK_PROGRAMS: Final[frozenset[str]] = frozenset({"afplay", "aplay", "paplay", "say", "espeak", "espeak-ng"})
_PLAYBACK_NOTE = ProcessNote("plays a local sound or speaks a text on this machine and ends with it")


# s57 (issue 23; TFH201/TFH203 labels of batches 1-29 pooled by the command run): the sub-commands of a program the tables
# read as long or networked (``LONG_RUNNING_PROCESSES``: ``composer``, ``docker compose``; ``NETWORK_PROGRAMS``:
# ``openssl``) that only read or write this machine's state and return at once: ``docker compose config``/``ps``/
# ``images`` render the local compose file or ask the local daemon (batch 29 portmgr; not ``down``: it stops containers
# and waits for them), ``composer config`` edits composer.json (batch 29 aheadworks x3), ``openssl
# passwd`` hashes a password (batches 26 and 29), ``cargo clean`` empties the build directory (batch 28), ``poetry new``
# writes a project skeleton (batch 12). Program (or "program group") -> sub-commands (the first word after the program's
# flags); the program's other sub-commands keep their reading (``docker compose up``/``pull``, ``composer install``/``show
# -a``, ``openssl s_client``). A literal URL in the words still reports it (``local_program``).
LOCAL_ONLY_SUBCOMMANDS: Final[Mapping[str, frozenset[str]]] = {
    "docker compose": frozenset({"config", "convert", "ps", "images", "ls", "version", "top", "port"}),
    "docker-compose": frozenset({"config", "convert", "ps", "images", "ls", "version", "top", "port"}),
    "podman compose": frozenset({"config", "ps", "images", "version", "top", "port"}),
    "podman-compose": frozenset({"config", "ps", "images", "version", "top", "port"}),
    "composer": frozenset({"config", "validate", "dump-autoload", "dumpautoload", "licenses"}),
    "openssl": frozenset({"passwd", "rand", "dgst", "version"}),
    "cargo": frozenset({"clean", "locate-project", "version"}),
    "poetry": frozenset({"new", "version", "config", "check"}),
    "npm": frozenset({"root", "prefix", "config", "bin"}),
    "go": frozenset({"env", "version"}),
}

# compose's own flags that take a value (`docker compose -f stack.yml -p name config`)
_COMPOSE_VALUE_FLAGS = frozenset({"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory",
                                  "--ansi", "--parallel", "--progress"})


def local_only(argv: list[str]) -> bool:
    """Whether ``argv`` (as :func:`_program_argv` spells it) runs a sub-command of ``LOCAL_ONLY_SUBCOMMANDS``: a program
    read as long or networked, asked only to read or write this machine's state (``docker compose config``)."""
    if not argv:
        return False
    head, rest = argv[0], argv[1:]
    if rest and f"{head} {rest[0]}" in LOCAL_ONLY_SUBCOMMANDS:  # a program group: `docker compose <sub>`
        head, rest = f"{head} {rest[0]}", rest[1:]
    subs = LOCAL_ONLY_SUBCOMMANDS.get(head)
    if subs is None:
        return False
    valued = _COMPOSE_VALUE_FLAGS if "compose" in head else frozenset()
    for i, w in enumerate(rest):  # the first word that is neither a flag nor a flag's value
        if not w.startswith("-") and not (i and rest[i - 1] in valued):
            return w in subs
    return False


# s45 (batch 17, dobby's `git merge <branch> --no-edit -m <msg>`, `git merge --abort`): a merge, rebase, cherry-pick or
# revert that cannot open an editor: it is ended or undone (`--abort`, `--quit`, `--skip`), it makes no commit of its own
# (`--ff-only`, `--squash`, `--no-commit`/`-n`), or its message is given (`--no-edit`, `-m`/`-F`/`-C`; not a rebase's:
# `git rebase -m` is its merge backend). A conflict ends it with a non-zero status; it does not wait.
_GIT_SETTLED_FLAGS = frozenset({"--abort", "--quit", "--skip"})
_GIT_NO_COMMIT_FLAGS = frozenset({"--ff-only", "--squash", "--no-commit", "-n", "--no-edit"})


def _git_settled(sub: str, args: list[str]) -> bool:
    """Whether ``git <sub> <args>`` (a merge, a rebase, a cherry-pick, a revert) cannot wait for a person in an editor."""
    if any(a in _GIT_SETTLED_FLAGS for a in args):
        return True
    if sub == "rebase" or any(a in _GIT_PERSON_FLAGS for a in args):
        return False
    return any(a in _GIT_NO_COMMIT_FLAGS for a in args) or _git_given_message(args)


def _git_person(rest: list[str]) -> bool:
    """Whether ``git <rest>`` can wait for a person: a merge, a rebase, a patch asked interactively, a commit with
    no message."""
    if not rest:
        return True
    sub = rest[0]
    if sub in _GIT_PERSON_SUBCOMMANDS:
        return not _git_settled(sub, rest[1:])
    # s44 (batch 17, codeprobe): `git clean -e <pattern>` excludes; only `-i`/`--interactive` asks the person there
    flags = _GIT_CLEAN_PERSON_FLAGS if sub == "clean" else _GIT_PERSON_FLAGS
    if sub in _GIT_PATCH_SUBCOMMANDS and any(a in flags for a in rest[1:]):
        return True
    if sub == "commit" or (sub == "tag" and any(a in ("-a", "-s", "--annotate", "--sign") for a in rest[1:])):
        return not _git_given_message(rest[1:])
    return False


def local_program(words: Iterable[str], whole: bool) -> str | None:
    """Why a process needs no timeout by TFH201's default (a program the code names that stays on the machine,
    ends by itself and runs nothing it is handed), or None (report it). ``words``: the command's leading literal
    words (``"{}"`` in a word marks a placeholder); ``whole``: every word is literal."""
    argv = _program_argv(words)
    cut = next((i for i, w in enumerate(argv) if "{}" in w), None)
    if cut is not None:  # the command's text after a placeholder is not read
        argv, whole = argv[:cut], False
    if not argv or argv[0].startswith("$") or not argv[0]:
        return None
    head = argv[0]
    why = interactive_process(argv)
    if why is not None:
        return why
    if head in _SHELLS and len(argv) > 1 and argv[1] in _SHELL_FLAGS:  # bash -c "<line>": each of its commands
        if len(argv) < 3:
            return None
        line = " ".join(argv[2:]).strip()
        if len(line) > 1 and line[0] == line[-1] and line[0] in "'\"":
            line = line[1:-1]
        segs = shell_commands(line)
        return _LOCAL_NOTE.why if segs and all(local_program(s, whole) for s in segs) else None
    if head == "script" or any("://" in w and not w.startswith("file://") for w in argv):
        return None  # a session recorder (its own reading above), a literal URL: it reaches another machine
    if head in PLAYBACK_PROGRAMS:
        return _PLAYBACK_NOTE.why
    if head in _WRAPPERS:  # nohup/env/nice <command>: the wrapped command decides
        wrapped = list(argv[1:])
        while wrapped and (wrapped[0].startswith("-") or (head == "env" and "=" in wrapped[0])):
            wrapped.pop(0)
        return local_program(wrapped, whole) if wrapped else None
    if (run_as := sudo_wrapped(argv)) is not None:  # s48: `sudo -n systemctl daemon-reload`: no prompt
        return local_program(run_as, whole)
    if len(argv) > 1 and (head, argv[1]) in _RUNNERS:  # uv run <program>
        return local_program(argv[2:], whole) if len(argv) > 2 else None
    sub = next((w for w in argv[1:] if not w.startswith("-")), None)
    if head in _CONTAINER_CLIS and sub == "exec":  # the command run in the container decides; the code must spell it
        if not whole:
            return None
        rest = argv[argv.index("exec") + 1:]
        while rest and rest[0].startswith("-"):
            rest.pop(0)
        return local_program(rest[1:], whole) if len(rest) > 1 else None
    if not whole and head in _INTERPRETERS and argv[-1] in _CODE_FLAGS:  # python -c <code>: not the author's text
        return None
    if (head in _SHELLS or head in _INTERPRETERS) and all(w.startswith("-") for w in argv[1:]):
        return None  # `bash` or `python` with no script: it runs what it is handed on stdin (batch 14: continuedev)
    if local_only(argv):  # s57: `docker compose config`, `composer config`, `openssl passwd`: local, at once
        return _LOCAL_NOTE.why
    if process_fix_refusal(argv, whole) is not None:  # long by nature, a prompt, a sub-command built at run time
        return None
    if remote_cli(argv) or head in NETWORK_PROGRAMS:
        return None
    if sub is not None and any(sub.startswith(f"{w}-") for w in LONG_RUNNING_SUBCOMMANDS):
        return None  # `playwright install-deps`, `foo build-image`: an install or a build, long by nature
    pair = f"{head} {sub}" if sub is not None else head
    if head in NEVER_ENDING_PROCESSES or pair in NEVER_ENDING_PROCESSES:
        return None
    if (head in _FOLLOWED or pair in _FOLLOWED) and any(a in _FOLLOW_FLAGS for a in argv[1:]):
        return None
    if head == "git":
        rest = argv[1:]
        if _git_person(rest) or rest[0] in _GIT_NETWORK or rest[0] in REMOTE_SUBCOMMANDS["git"]:
            return None
        if rest[0] == "remote" and (len(rest) == 1 and not whole or len(rest) > 1 and (
                rest[1] in _GIT_REMOTE_NETWORK or rest[1] == "add" and any(a in ("-f", "--fetch") for a in rest[2:]))):
            return None
    return _LOCAL_NOTE.why


# ---------------------------------------------------------------- TFH201: a command built where the call cannot spell it (s49)

# s49 (issue 23, batches 1-21's labels): a process whose program the call does not spell (``[git_binary(), "show", spec]``,
# ``[self._binary, "schema"]``, ``[*_GIT, "commit", ...]``, a command list built in the function) and
# that no caller hands in is reported only on evidence in its literal words: a word naming a program or sub-command
# that reaches another machine or runs long by nature (the tables above: ``REMOTE_CLIS``, ``NETWORK_PROGRAMS``,
# ``LONG_RUNNING_PROCESSES``, ``LONG_RUNNING_SUBCOMMANDS``, git's network verbs, a coding agent's CLI, a never-ending
# program, a prompt: ``sudo``, ``gpg``) or a literal URL. Read by ``rules/timeouts/unspelled.py``.
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+-]*://")  # a word that starts with a scheme


def network_or_long_words(words: Iterable[str]) -> str | None:
    """The first literal word of a command (any position) that says the process reaches another machine or runs long,
    or None: ``["{}", "-m", "pytest"]`` -> ``pytest``; ``["{}", "pr", "create"]`` -> None (``gh`` unseen)."""
    flat = [w for word in words for w in word.split()]
    for i, word in enumerate(flat):
        if _URL.match(word) and not word.startswith("file://"):  # s52: a URL, not a key naming one (`credential.https://...`)
            return word
        name = word.rsplit("/", 1)[-1].removesuffix(".exe")
        if not name or name.startswith("-") or name in PLAYBACK_PROGRAMS:
            continue
        pair = f"{name} {flat[i + 1]}" if i + 1 < len(flat) else name
        if local_only(flat[i:]):  # s57: `docker compose config`, `composer config`: a local-only sub-command
            continue
        if (name in REMOTE_CLIS or name in NETWORK_PROGRAMS or name in LONG_RUNNING_PROCESSES or name in _AGENT_CLIS
                or name in LONG_RUNNING_SUBCOMMANDS or name in REMOTE_SUBCOMMANDS["git"] or name in _GIT_NETWORK
                or name in NEVER_ENDING_PROCESSES or pair in LONG_RUNNING_PROCESSES or pair in NEVER_ENDING_PROCESSES
                or not INTERACTIVE_PROCESSES.get(name, _LOCAL_NOTE).silent):  # sudo, gpg: may wait at a prompt
            return name
    return None


_NETWORK_URL: Final = re.compile(r"(https?|wss?|ssh|git|ftps?|sftp)://")


def network_command(words: Iterable[str]) -> str | None:
    """s53 (TFH201's evidence through a helper's callers, ``rules/timeouts/callers.py``): the program or URL by which
    one command (its literal leading words) reaches another machine, or None: a remote CLI on a remote sub-command
    (``remote_cli``: ``git push``, ``gh pr create``, ``ssh host``, ``curl``), a network program (``NETWORK_PROGRAMS``),
    a network URL among its words; ``sudo -n`` and ``python -m`` read through. Never a long job or a prompt alone:
    those a person runs in their foreground (the s50 decision) and a helper's caller hands them in setup code."""
    argv = _program_argv(words)
    if argv and argv[0] == "sudo":
        argv = sudo_wrapped(argv) or argv
    if not argv:
        return None
    if remote_cli(argv) or argv[0] in NETWORK_PROGRAMS:
        return argv[0]
    return next((w for w in argv if _NETWORK_URL.match(w)), None)


# ---------------------------------------------------------------- TFH201: the lead's session-50 decisions (s50, issue 23)

# A long job the person asked for that is not a network peer's reply: an install, a self-upgrade, a build, a test run.
# Run in the foreground (a CLI command's own step, a script's `main()` or `__main__`, under a confirmation) it is silent
# whether or not its output is captured: it ends by itself, no timeout value fits it, and the installers bound their
# own network reads. On the agent path it stays reported (the decision: `bench/survey/README.md`, "Labelling TFH201").
# By the program's leading words as `_program_argv` spells them (`sys.executable -m pip install` -> `pip install`).
FOREGROUND_JOBS: Final[frozenset[tuple[str, ...]]] = frozenset({
    # installs and self-upgrades from a package index
    ("pip", "install"), ("pip3", "install"), ("uv", "pip", "install"), ("uv", "sync"), ("uv", "add"),
    ("uv", "tool", "install"), ("uv", "tool", "upgrade"), ("pipx", "install"), ("pipx", "upgrade"),
    ("pipx", "reinstall"), ("poetry", "install"), ("poetry", "update"), ("pdm", "install"), ("conda", "install"),
    ("mamba", "install"), ("npm", "install"), ("npm", "i"), ("npm", "ci"), ("npm", "update"), ("yarn", "install"),
    ("pnpm", "install"), ("bun", "install"), ("apt-get", "install"), ("apt-get", "update"), ("apt-get", "upgrade"),
    ("apt", "install"), ("apt", "update"), ("dnf", "install"), ("yum", "install"), ("brew", "install"),
    ("brew", "upgrade"), ("winget", "install"), ("winget", "upgrade"), ("choco", "install"), ("choco", "upgrade"),
    ("cargo", "install"), ("go", "install"), ("gem", "install"), ("bundle", "install"),
    # s54 (issue 23, batches 15-26's labels: a download the person asked for in the foreground is false, as an
    # install is): a model pull, a browser download, a runtime or an index's dependencies fetched, Homebrew's own update
    ("ollama", "pull"), ("playwright", "install"), ("npx", "playwright", "install"), ("nvm", "install"),
    ("brew", "update"), ("brew", "reinstall"), ("mvn", "dependency:resolve"),
    # builds
    ("poetry", "build"), ("uv", "build"), ("build",), ("npm", "run", "build"), ("yarn", "build"), ("pnpm", "build"),
    ("bun", "run", "build"), ("cargo", "build"), ("go", "build"), ("make",), ("cmake",), ("ninja",), ("tsc",),
    ("docker", "build"), ("docker", "buildx", "build"), ("podman", "build"),  # s54: an image the person builds
    # test runs
    ("pytest",), ("tox",), ("nox",), ("unittest",), ("npm", "test"), ("npm", "run", "test"), ("jest",), ("vitest",),
    ("cargo", "test"), ("go", "test"),
})


def foreground_job(words: Iterable[str]) -> bool:
    """Whether a process (its leading literal words) is a long job the person asks for in the foreground
    (``FOREGROUND_JOBS``: an install, self-upgrade, build or test run), not a network peer's reply."""
    argv = _program_argv(words)
    if argv and argv[0] == "sudo" and len(argv) > 1 and argv[1] == "-n":
        argv = _program_argv(argv[2:])
    return any(tuple(argv[: len(job)]) == job for job in FOREGROUND_JOBS)


# A command that bounds itself (s50, the lead's decision): the program's own flag ends the whole run at a deadline.
# `curl --max-time 30 url`, `curl -m 30 url`, `--max-time=30`. (A leading `timeout 30 cmd` is read by `local_program`.)
SELF_BOUNDING_FLAGS: Final[dict[str, frozenset[str]]] = {"curl": frozenset({"--max-time", "-m"})}


def self_bounded(program: str, flags: Iterable[str]) -> bool:
    """Whether ``program`` run with these literal ``flags`` (any position) ends itself at a deadline of its own."""
    head = _program_argv([program])[0] if program else ""
    bounding = SELF_BOUNDING_FLAGS.get(head)
    return bounding is not None and any(f in bounding or f.split("=", 1)[0] in bounding for f in flags)
