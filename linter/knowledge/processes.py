"""Processes and command-line programs: which need no timeout, and which a fix must not bound.

Programs that wait for a person or finish at once (``INTERACTIVE_PROCESSES``, :class:`ProcessNote`,
``INTERACTIVE_SUBCOMMANDS``, ``INTERACTIVE_ENV``, ``INTERACTIVE_INSTALLS``), the CLI frameworks whose
commands run a process in the person's foreground (``CLI_FRAMEWORKS``, ``CLI_DECORATOR_WORDS``), the
programs that run long by nature (``LONG_RUNNING_PROCESSES``, ``LONG_RUNNING_SUBCOMMANDS``), and the
functions that read them (:func:`interactive_process`, :func:`process_fix_refusal`,
:func:`shell_commands`). Read by TFH201 and its fix (``rules/timeouts/``) through
:class:`~smullyan.linter.knowledge.Knowledge`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Iterable, Mapping

from .tool_effects import GIT_LOCAL_SUBCOMMANDS


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
         "pip freeze", "pip3 show", "pip3 list", "pip3 freeze", "npm config get", "npm prefix", "npm root",
         # s36 (batch 9): `type <file>` prints a local file (Windows; the POSIX builtin names a command)
         "type",
         # s38 (batch 10): the shell's own lookup of a program on the PATH (`command -v brew`), as `which`
         "command -v", "command -V",
         # s39 (batch 12): a scaffold of a new local package, bash's list of its commands, a file's text (`cat`
         # of a file or a heredoc), a grep of the local Exploit-DB copy
         "poetry new", "compgen", "cat", "searchsploit",
         # s41 (batch 14): a macOS keychain read (a keychain prompt is the person's answer), a local PDF's fonts
         # or metadata (poppler). Not a compile (`gcc x.c`): how long it takes depends on the source, so it
         # stays reported; nor `docker info`/`docker version`: they ask the daemon, which may hang
         "security find-generic-password", "security find-internet-password", "pdffonts", "pdfinfo",
         # s42 (issue 23, the table's coverage): what an agent tool asks the machine for an instant answer, reading
         # only local state (the process table, the kernel, the repository's config): who and where it runs, a
         # path, the remote's configured URL (`git remote get-url`, not `git remote show`, which asks the server)
         "arch", "logname", "groups", "getconf", "locale", "basename", "dirname", "whereis", "lsb_release", "ps",
         "pgrep", "sysctl", "lscpu", "uptime", "free", "xcode-select -p", "brew --prefix", "git remote get-url",
         "git remote -v", "git stash list", "git worktree list",
         # s42 (batch 15): Windows' process table and kill, as `ps` and `kill` (`TASKLIST /FI ...`: a Windows
         # program's name in any case)
         "tasklist", "taskkill",
         # s45 (batch 17): PowerShell's clipboard cmdlets, as `pbcopy`/`clip` (`powershell -Command Set-Clipboard`)
         "Set-Clipboard", "Get-Clipboard"),
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
         "grep", "shortlog", "count-objects", "check-ignore", "check-attr", "diff-tree", "diff-files", "diff-index",
         # s39: a local patch applied to the work tree (`git apply x.patch`)
         "apply"}
    ),
}
# s45 (issue 23, batches 16-17): a local instant. A program that is the client of a daemon on this machine, a
# terminal multiplexer or the desktop, whose listed sub-commands only read or set that local state and return at
# once: ``ollama show``/``list`` ask the local model server for its catalogue, ``adb start-server``/``devices`` start
# or ask the local adb daemon, ``tmux send-keys``/``capture-pane``/``kill-session`` act on a session without attaching
# to it. Program -> sub-commands (the first word after the program's own flags), read like ``INTERACTIVE_SUBCOMMANDS``
# by :func:`interactive_process` (silent) and by the fix's ``QUICK_PROCESSES`` reading. The program's other
# sub-commands keep their reading (``ollama pull``/``run``: long; ``adb shell``/``push``: the device; ``tmux attach``/
# ``new-session`` without ``-d``: a terminal UI). ``LOCAL_INSTANT_FLAGS``: a sub-command that is instant only with
# a flag (``tmux new-session -d``: detached).
LOCAL_INSTANT_SUBCOMMANDS: Final[Mapping[str, frozenset[str]]] = {
    "ollama": frozenset({"show", "list", "ls", "ps", "stop", "rm", "cp"}),
    "adb": frozenset({"start-server", "kill-server", "devices", "version"}),
    "tmux": frozenset(
        {"send-keys", "send", "capture-pane", "capturep", "kill-session", "kill-server", "kill-window", "kill-pane",
         "has-session", "has", "list-sessions", "ls", "list-windows", "lsw", "list-panes", "lsp", "display-message",
         "display", "set-option", "set", "show-options", "set-environment", "show-environment", "rename-session",
         "rename-window", "select-window", "select-pane", "resize-pane", "resize-window", "set-buffer", "load-buffer",
         "paste-buffer", "pipe-pane", "source-file", "respawn-pane", "new-window", "split-window"}),
}
LOCAL_INSTANT_FLAGS: Final[Mapping[tuple[str, str], frozenset[str]]] = {
    ("tmux", "new-session"): frozenset({"-d"}), ("tmux", "new"): frozenset({"-d"}),
}


def local_instant(argv: list[str]) -> bool:
    """Whether ``argv`` (as :func:`_program_argv` spells it) is a local instant: a sub-command of
    ``LOCAL_INSTANT_SUBCOMMANDS``, or one of ``LOCAL_INSTANT_FLAGS`` given its flag (also in a combined ``-dP``)."""
    subs = LOCAL_INSTANT_SUBCOMMANDS.get(argv[0]) if argv else None
    if subs is None:
        return False
    sub = next((w for w in argv[1:] if not w.startswith("-")), None)
    if sub is None:
        return False
    if sub in subs:
        return True
    flags = LOCAL_INSTANT_FLAGS.get((argv[0], sub))
    rest = argv[argv.index(sub) + 1:]
    return flags is not None and any(
        w in flags or (w.startswith("-") and not w.startswith("--") and any(f"-{c}" in flags for c in w[1:]))
        for w in rest)


# s42 (batch 15, issue 23): git's sub-commands on the local repository (``GIT_LOCAL_SUBCOMMANDS``, the tools'
# class column: one list) end at once, but not those that can wait for a person in an editor or a conflict:
# ``merge``/``rebase``/``cherry-pick``/``revert`` (``_GIT_PERSON_SUBCOMMANDS``), a work-tree change asked
# ``--interactive``/``--patch``/``--edit`` (``_GIT_PERSON_FLAGS``: ``git add -p``; ``git log -p`` prints a patch), ``commit`` with no message given
# (``-m``/``-F``/``-C``/``--no-edit``) and an annotated or signed ``tag`` with none. A ``commit`` runs the
# repository's own hooks: local programs the repository chose, as ``make`` would run (batch 5 kept ``git commit``
# long-running for the fix, which a commit given its message no longer needs: it is silent).
_GIT_PERSON_SUBCOMMANDS: Final[frozenset[str]] = frozenset({"merge", "rebase", "cherry-pick", "revert"})
_GIT_PERSON_FLAGS: Final[frozenset[str]] = frozenset({"-i", "--interactive", "-p", "--patch", "-e", "--edit"})
_GIT_PATCH_SUBCOMMANDS: Final[frozenset[str]] = frozenset({"add", "checkout", "reset", "restore", "stash", "commit", "clean"})
_GIT_MESSAGE_FLAGS: Final[tuple[str, ...]] = ("-m", "-F", "-C", "--message", "--file", "--reuse-message", "--no-edit")


def _git_given_message(args: list[str]) -> bool:
    return any(a.startswith(_GIT_MESSAGE_FLAGS) or (a.startswith("-") and not a.startswith("--") and a[-1:] in "mFC")
               for a in args)


def _git_local(rest: list[str]) -> bool:
    """Whether ``git <rest>`` (git's own ``-C``/``-c`` options read already) works on the local repository and
    cannot wait for a person."""
    local = GIT_LOCAL_SUBCOMMANDS | INTERACTIVE_SUBCOMMANDS["git"]
    if not rest or rest[0] not in local or rest[0] in _GIT_PERSON_SUBCOMMANDS:
        return False
    if rest[0] in _GIT_PATCH_SUBCOMMANDS and any(a in _GIT_PERSON_FLAGS for a in rest[1:]):
        return False
    if rest[0] == "commit" or (rest[0] == "tag" and any(a in ("-a", "-s", "--annotate", "--sign") for a in rest[1:])):
        return _git_given_message(rest[1:])
    return True


# A program asked only for its version or usage (``node --version``, ``git -h``), or to print where it
# is installed or how it was built (``lean --print-prefix``, ``gcc -print-search-dirs``, ``rustc
# --print=sysroot``): it prints and exits, whatever the program.
VERSION_QUERIES: Final[frozenset[str]] = frozenset({"--version", "-V", "--help", "-h"})
INFO_QUERY_PREFIXES: Final[tuple[str, ...]] = ("--print-", "-print-", "--print=")


def info_query(word: str) -> bool:
    """Whether ``word``, a program's only argument, asks it to print a fact about itself and exit."""
    return word in VERSION_QUERIES or (word.startswith(INFO_QUERY_PREFIXES) and word not in INFO_QUERY_PREFIXES)
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


# Programs that run the command after their own flags in a changed setting (a namespace, a priority,
# a session): the command decides (s36, batch 9 ``unshare --user --map-root-user true``). A flag's
# separate value (``nice -n 10 cmd``) is read as the program: unknown, so the call stays reported.
_WRAPPERS: Final[frozenset[str]] = frozenset({"unshare", "nohup", "setsid", "nice", "env", "stdbuf", "ionice"})
# s48 (issue 23, batch 20: portacode's `sudo -n true`, `sudo -n systemctl daemon-reload`): ``sudo -n`` (or ``doas -n``)
# never prompts: it fails at once where a password is needed, so the command it runs decides, as after ``nohup``.
# Without ``-n`` sudo may wait at a prompt and keeps its ``_PROMPT`` reading. ``SUDO_VALUE_FLAGS``: its flags that take
# the next word (``-u <user>``), skipped to find the command.
SUDO_NON_INTERACTIVE_FLAGS: Final[frozenset[str]] = frozenset({"-n", "--non-interactive"})
SUDO_VALUE_FLAGS: Final[frozenset[str]] = frozenset({
    "-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "--user", "--group", "--close-from", "--chdir",
    "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user"})


def sudo_wrapped(argv: list[str]) -> list[str] | None:
    """The command ``sudo -n [flags] <command>`` (or ``doas -n``) runs, or None: not such a sudo, no ``-n``, no
    command (``sudo -n -v``), or ``--`` ``-s``/``-i`` (a shell: what it runs is not the code's words)."""
    if not argv or argv[0] not in ("sudo", "doas"):
        return None
    i, quiet = 1, False
    while i < len(argv) and argv[i].startswith("-"):
        flag = argv[i]
        if flag == "--":
            i += 1
            break
        if flag in SUDO_NON_INTERACTIVE_FLAGS:
            quiet = True
        elif flag in ("-s", "-i", "--shell", "--login", "-e", "--edit", "-v", "--validate", "-l", "--list"):
            return None
        i += 2 if flag in SUDO_VALUE_FLAGS else 1
    return argv[i:] if quiet and argv[i:] else None
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


# ``script`` records a terminal session: with ``-c``/``--command`` (or, in the BSD form, a command after
# the log file) it runs that command, which decides; without one it starts an interactive shell for the
# person (``script -q session.log``), and only they end it.
_RECORDER_COMMAND_FLAGS: Final[frozenset[str]] = frozenset({"-c", "--command"})


def _recorded_command(argv: list[str]) -> list[str] | None:
    """What ``script`` runs: the words after ``-c``/``--command`` (a shell line), or the BSD form's
    ``script [opts] file cmd ...``; ``[]`` when no command is written (an interactive shell)."""
    argv = [w.strip("'\"") for w in argv]  # `script -c 'make test' log`: the shell's quotes
    positional: list[str] = []
    for i, word in enumerate(argv[1:], start=1):
        if word in _RECORDER_COMMAND_FLAGS:
            return argv[i + 1:] or ["$COMMAND"]
        if word.startswith("--command="):
            return [word.split("=", 1)[1], *argv[i + 1:]]
        if not word.startswith("-"):
            positional.append(word)
    return positional[1:]


def _note(argv: list[str]) -> ProcessNote | None:
    for n in (3, 2, 1):
        if len(argv) >= n:
            key = " ".join(argv[:n])
            note = INTERACTIVE_PROCESSES.get(key) or (INTERACTIVE_PROCESSES.get(key.lower()) if argv[0].isupper() else None)
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
        line = " ".join(argv[2:]).strip()
        if len(line) > 1 and line[0] == line[-1] and line[0] in "'\"":  # a shell=True line's `bash -c "compgen -c"`
            line = line[1:-1]
        whys = [interactive_process(seg, confirmed) for seg in shell_commands(line)]
        return whys[0] if whys and all(whys) else None
    if head == "script":  # `script -q log`: a shell for the person; `script -c "make test" log`: that command
        recorded = _recorded_command(argv)
        if not recorded:
            return _SHELL.why
        return interactive_process(["sh", "-c", *recorded], confirmed)
    if head in _WRAPPERS:  # `unshare --user --map-root-user true`: the wrapped command decides
        wrapped = list(argv[1:])
        while wrapped and (wrapped[0].startswith("-") or (head == "env" and "=" in wrapped[0])):
            wrapped.pop(0)
        return interactive_process(wrapped, confirmed) if wrapped else None
    if (run_as := sudo_wrapped(argv)) is not None:  # s48: `sudo -n true`: no prompt, the command decides
        return interactive_process(run_as, confirmed)
    if len(argv) > 2 and (head, argv[1]) in _RUNNERS:  # uv run streamlit run app.py
        inner = interactive_process(argv[2:], confirmed)
        if inner is not None:
            return inner
    note = _note(argv)
    if note is not None and note.silent:
        return note.why
    if len(argv) == 2 and info_query(argv[1]):  # `node --version`, `lean --print-prefix`: prints and exits
        return _INSTANT.why
    if local_instant(argv):  # s45: `ollama show m`, `adb start-server`, `tmux send-keys -t s ...`
        return _INSTANT.why
    if head == "git":  # s42: the local sub-commands that cannot wait for a person (`git add -p` can)
        return _INSTANT.why if _git_local(argv[1:]) else None
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


_LONG_ADVICE = ": a default would cut a healthy run; choose a bound above its longest healthy run"


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
    if head == "script":  # a session recorder: no command written is a shell for the person
        recorded = _recorded_command(argv)
        if not recorded:
            return "`script` without a `-c` command starts an interactive shell for the person"
        return process_fix_refusal(["sh", "-c", *recorded], whole)
    if len(argv) < 2 and not whole and head in _SUBCOMMAND_PROGRAMS:
        return f"what `{head}` runs is built at run time, {unseen}"
    note = _note(argv)
    if note is not None and not note.silent:  # a silent one is a step that needs no bound
        return f"`{head}` {note.why}"
    inner = argv[2:] if len(argv) > 2 and (head, argv[1]) in _RUNNERS else None
    for key in (" ".join(argv[:2]), head):
        if key in LONG_RUNNING_PROCESSES:
            return f"`{key}` runs long by nature{_LONG_ADVICE}"
    if head in _AGENT_CLIS and not set(argv[1:3]) & _AGENT_CLI_LOCAL_SUBCOMMANDS:
        return f"`{head}` runs an LLM agent session, as long as its task{_LONG_ADVICE}"
    # the sub-command, or a group's sub-command (``docker buildx build``, ``docker image pull``)
    subs = [w for w in argv[1:3] if not w.startswith("-")]
    for depth, word in enumerate(subs):
        if word in LONG_RUNNING_SUBCOMMANDS:
            return f"`{' '.join([head, *subs[:depth + 1]])}` runs long by nature{_LONG_ADVICE}"
    if inner is not None:
        return process_fix_refusal(inner, whole)
    return None



# ---------------------------------------------------------------- TFH402: programs that talk to a remote service

# Programs whose job is talking to a remote service (a cluster, a cloud API, a code host, a URL, a database
# server): a process running one reads from outside the machine, and its failure is as often an outage as an
# answer (TFH402). A local program (``git rev-parse``, ``ps``, a linter, ``kind version``) is not one. By
# argv[0] (as :func:`interactive_process` spells it); ``REMOTE_SUBCOMMANDS``: programs that reach a remote only
# for some sub-commands (``git ls-remote``, not ``git remote get-url``); ``REMOTE_CLI_LOCAL_SUBCOMMANDS``: the
# sub-commands of a remote program that read or write only its local setup (``kubectl config``, ``helm
# template``). A program asked for its version or usage (``kubectl --version``) stays local too.
REMOTE_CLIS: Final[frozenset[str]] = frozenset({
    "kubectl", "oc", "helm", "istioctl", "argocd", "eksctl", "gh", "glab", "aws", "gcloud", "gsutil", "bq", "az",
    "doctl", "flyctl", "heroku", "curl", "wget", "http", "https", "xh", "ssh", "scp", "psql", "mysql", "redis-cli",
    "mongosh", "vault",
})
REMOTE_SUBCOMMANDS: Final[Mapping[str, frozenset[str]]] = {
    "git": frozenset({"ls-remote", "fetch", "pull", "clone", "push"}),
    "docker": frozenset({"pull", "push", "search", "login"}),
    "npm": frozenset({"view", "info", "show", "search"}),
}
REMOTE_CLI_LOCAL_SUBCOMMANDS: Final[frozenset[str]] = frozenset(
    {"config", "configure", "version", "completion", "help", "plugin", "plugins", "env", "template", "lint"}
)


def remote_cli(words: Iterable[str]) -> bool:
    """Whether a process (its leading literal argv words) runs a program that talks to a remote service
    (``kubectl get crds``, ``gh api ...``, ``git ls-remote``), not one that works on the machine."""
    argv = _program_argv(words)
    if not argv or interactive_process(argv) is not None:
        return False
    head = argv[0]
    sub = next((w for w in argv[1:] if not w.startswith("-")), None)
    if head in REMOTE_CLIS:
        return sub not in REMOTE_CLI_LOCAL_SUBCOMMANDS
    subs = REMOTE_SUBCOMMANDS.get(head)
    return subs is not None and sub in subs

# ---------------------------------------------------------------- TFH201 fixes: programs that finish in moments

# Programs (or "program sub-command") whose run on a literal command is over in moments: a default timeout
# bounds a hang, never a healthy run, so TFH201's fix may add it. Any other program keeps its finding but
# gets no default: how long it runs depends on its work (a bioinformatics pipeline, an R script, a tree
# search, a scan), and a guessed 30 s cut healthy runs in every harmful fix read on the survey's blind
# batches 10 and 11 (every remote-call fix was harmless). A user who wants a bound for processes anyway sets
# ``default-timeout-seconds = {process = N}``, and the fix writes N on any process the tables do not refuse.
QUICK_PROCESSES: Final[frozenset[str]] = frozenset({
    "cd", "ls", "cat", "echo", "printf", "pwd", "uname", "whoami", "hostname", "id", "date", "env", "printenv", "which",
    "type", "true", "false", "test", "ps", "pgrep", "kill", "pkill", "killall", "df", "free", "uptime", "stat",
    "file", "head", "wc", "basename", "dirname", "realpath", "readlink", "mkdir", "rmdir", "touch", "chmod",
    "chown", "ln", "mv", "nproc", "lsof", "sysctl", "sw_vers", "getconf", "locale", "tty", "stty", "tput",
    "ruff", "black", "isort", "shellcheck", "xclip", "xsel", "pbcopy", "pbpaste", "wl-copy", "wl-paste",
    "osascript", "defaults", "launchctl", "systemctl", "service", "crontab", "nvidia-smi", "lscpu", "lsblk",
    "ip", "ifconfig", "netstat", "ss", "iptables", "ffprobe",
    "git status", "git rev-parse", "git branch", "git log", "git show", "git config", "git diff", "git add",
    "git commit", "git tag", "git describe", "git remote", "git stash", "git checkout", "git switch",
    "git reset", "git rm", "git mv", "git ls-files", "git blame", "git symbolic-ref", "git worktree",
    "git init", "git merge-base", "git cat-file", "git hash-object", "git apply", "git restore",
    "docker ps", "docker inspect", "docker stop", "docker rm", "docker kill", "docker logs", "docker images",
    "docker version", "docker info", "docker start", "docker restart", "docker tag",
})


def process_length_unknown(words: Iterable[str]) -> str | None:
    """The program of a literal command whose run time the tables do not know (not in ``QUICK_PROCESSES``, not
    asked for its version or usage), or None: TFH201's fix writes no guessed default on it."""
    argv = _program_argv(words)
    if not argv:
        return None
    head = argv[0]
    if head in _SHELLS and len(argv) > 2 and argv[1] in _SHELL_FLAGS:  # bash -c "<line>": each of its commands
        return next((p for seg in shell_commands(" ".join(argv[2:])) if (p := process_length_unknown(seg))), None)
    recorded = _recorded_command(argv) if head == "script" else None
    if recorded:  # a session recorder: the command it records
        return process_length_unknown(["sh", "-c", *recorded])
    if remote_cli(argv):
        # a query of a remote service: bounded like any remote call (the long ones are refused above); but only when
        # its sub-command is literal: `["helm"] + args` may be `helm upgrade --install --wait --timeout 5m` (s43,
        # batch 16's harmful fix: autosre-ai's `_helm(*args)` wrapper)
        return None if any(not w.startswith("-") for w in argv[1:]) else head
    rest = argv[1:]
    while head == "git" and rest and rest[0] in ("-C", "-c") and len(rest) > 1:
        rest = rest[2:]  # `git -C <dir> checkout`: the sub-command after git's own options
    if head in QUICK_PROCESSES or (rest and f"{head} {rest[0]}" in QUICK_PROCESSES):
        return None
    if len(argv) == 2 and info_query(argv[1]):
        return None  # `tool --version`
    return head


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
    # transfers: an upload or sync lasts as long as the data and the link (found reading batch 4's
    # held-out fixes: `aws s3 cp`); `rsync`, `scp`, `curl`, `wget` are above
    "aws s3", "aws s3api", "gsutil", "gcloud storage", "az storage", "azcopy", "rclone", "s3cmd", "sftp",
    "lftp", "mc cp", "mc mirror", "b2", "hf upload", "huggingface-cli upload", "dvc push", "dvc pull",
    "git lfs", "restic", "borg", "duplicity",
    # a whole-tree copy lasts as long as the tree (batch 6: `robocopy` of a case workspace)
    "robocopy", "xcopy",
    # benchmarks and load tests run for their configured duration or workload (batch 4: `locust
    # --run-time 5min`)
    "locust", "k6", "wrk", "wrk2", "ab", "hey", "vegeta", "jmeter", "artillery", "siege", "hyperfine",
    "asv", "pyperf", "pytest-benchmark", "ghz", "oha", "bombardier", "sysbench", "fio", "iperf", "iperf3",
    # a hook runner installs each hook's environment on its first run, then runs every hook; a
    # `git commit` runs the repository's hooks (batch 5's held-out fixes: `git commit -m ...`)
    "pre-commit", "prek", "lefthook", "git commit",
    # s38 (batch 10's held-out fixes: `depscan` of a whole project, which also downloads its vulnerability
    # database on a first run): scanners of a project, its dependencies or an image, the slow whole-project
    # linters and type checkers, and test runners last as long as the project is large
    "depscan", "cdxgen", "pip-audit", "safety", "osv-scanner", "syft", "checkov", "tfsec", "terrascan", "kics",
    "gitleaks", "trufflehog", "detect-secrets", "dependency-check", "scancode", "codeql", "sonar-scanner",
    "zap", "zap.sh", "nikto", "wpscan", "pylint", "mypy", "pyright", "eslint", "unittest", "jest", "vitest",
    "mocha", "behave", "robot", "cypress", "playwright test",
})
# s44 (batch 17 dobby-orchestrator's `claude -p <prompt> --max-turns 5`): a coding agent's CLI runs an LLM agent
# session (model calls over the network, tool runs) as long as its task: a stalled session hangs its caller. Its
# configuration sub-commands (`claude mcp add ...`, batch 13 singlestore) end at once; a login waits for the person.
_AGENT_CLIS: Final[frozenset[str]] = frozenset(
    {"claude", "codex", "gemini", "aider", "opencode", "cursor-agent", "goose", "qwen", "crush"})
_AGENT_CLI_LOCAL_SUBCOMMANDS: Final[frozenset[str]] = frozenset(
    {"mcp", "config", "configure", "setup-token", "login", "logout", "auth", "doctor", "update", "upgrade", "install",
     "version", "help", "models", "completion", "--version", "-v", "-V", "--help", "-h"})
# Sub-commands that install, fetch, build or deploy, whatever the program (``beam deploy``,
# ``modal deploy``, ``foo install``): long by nature too.
LONG_RUNNING_SUBCOMMANDS: Final[frozenset[str]] = frozenset(
    {"install", "deploy", "build", "pull", "push", "clone", "fetch", "upgrade", "download", "compile", "publish",
     "upload", "sync", "benchmark", "bench", "loadtest", "load-test"}
)
# Programs whose sub-command (or script, or ``-c`` text) decides what they do: the fix needs it literal.
_SUBCOMMAND_PROGRAMS: Final[frozenset[str]] = _subcommand_programs()
