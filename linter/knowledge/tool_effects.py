"""What a tool's body does, for the ``class`` column of ``smullyan tools``: the verbs of command-line programs a
declared tool runs (``kubectl get`` reads, ``helm install`` writes), and the calls, methods and programs that stay
on the machine (a pipe's ``jq``, ``git status``). Positive evidence only: what is not here leaves a tool
unclassified. Split out of :mod:`.tools` (the registration forms) in session 42.
"""

from __future__ import annotations

from typing import Final, Mapping

from .writes import IDEMPOTENT_WRITE, NON_IDEMPOTENT_WRITE, READ_SAFE


# What a command line a declared tool runs does, by program and verb (the first word after the program found here,
# among its first four words: ``az network nsg rule list``, ``argocd app get``, ``oc adm top``); positive evidence only: a
# program or verb not here leaves the tool unclassified. ``CLI_LOCAL_PROGRAMS``: programs that only shape text or
# the shell's own state (a pipe's ``jq``, ``grep``), which neither read nor write anything outside.
CLI_VERB_CLASSES: Final[Mapping[str, Mapping[str, str]]] = {
    **{p: {**{v: READ_SAFE for v in ("get", "describe", "logs", "top", "explain", "api-resources", "api-versions",
                                       "version", "cluster-info", "events", "view", "get-contexts", "current-context",
                                       "can-i", "who-can", "history", "status", "diff", "node-logs")},
           **{v: IDEMPOTENT_WRITE for v in ("apply", "delete", "scale", "label", "annotate", "patch", "cordon",
                                              "uncordon", "drain", "taint", "replace")},
           **{v: NON_IDEMPOTENT_WRITE for v in ("create", "run", "expose", "debug", "exec", "restart")}}
       for p in ("kubectl", "oc")},
    "helm": {**{v: READ_SAFE for v in ("get", "list", "ls", "status", "history", "show", "search", "version")},
             **{v: IDEMPOTENT_WRITE for v in ("upgrade", "uninstall", "delete", "rollback")},
             "install": NON_IDEMPOTENT_WRITE},
    "docker": {**{v: READ_SAFE for v in ("ps", "images", "inspect", "logs", "top", "events", "history", "diff",
                                           "stats", "version", "info", "port")},
               **{v: IDEMPOTENT_WRITE for v in ("stop", "kill", "rm", "rmi", "pause", "unpause")},
               **{v: NON_IDEMPOTENT_WRITE for v in ("run", "create", "exec", "start", "restart", "build", "push")}},
    **{p: {**{v: READ_SAFE for v in ("show", "list", "get", "get-versions", "query", "list-usages")},
           **{v: IDEMPOTENT_WRITE for v in ("delete", "update", "stop", "set")},
           **{v: NON_IDEMPOTENT_WRITE for v in ("create", "start", "restart", "invoke")}} for p in ("az",)},
    "argocd": {**{v: READ_SAFE for v in ("get", "list", "diff", "history", "resources", "manifests", "logs",
                                           "version")},
               **{v: IDEMPOTENT_WRITE for v in ("sync", "set", "delete", "rollback", "patch")},
               "create": NON_IDEMPOTENT_WRITE},
    "hubble": {v: READ_SAFE for v in ("observe", "status", "list", "version")},
    "cilium": {v: READ_SAFE for v in ("status", "version", "features", "view", "context", "list", "peers", "routes")},
    "vela": {**{v: READ_SAFE for v in ("ls", "list", "status", "logs", "components", "traits", "def", "dry-run",
                                         "live-diff", "show", "version")},
             **{v: IDEMPOTENT_WRITE for v in ("up", "delete", "suspend", "resume", "enable", "disable")}},
}
CLI_LOCAL_PROGRAMS: Final[frozenset[str]] = frozenset({
    "echo", "printf", "cat", "jq", "yq", "grep", "egrep", "awk", "sed", "head", "tail", "sort", "uniq", "wc", "cut",
    "tr", "column", "base64", "date", "true", "false", "test", "[", "[[", "]]", "]", "exit", "return", "local",
    "export", "set", "shift", "read", "xargs", "tee", "basename", "dirname", "seq", "expr", "let", "declare",
})

# ---------------------------------------------------------------- tools that stay on the machine (``tools/local.py``)
# ``smullyan tools`` answers ``local`` for a tool whose every call, and every call of the run's helpers it reaches,
# is known to stay on the machine (in-memory work, local files): positive evidence only, never an unknown call.
LOCAL_CLASS: Final = "local"
# Standard-library modules (and qualified-name prefixes) whose calls leave the machine, run another program, or run a
# callable they are handed: a call into one is no evidence of local work (``urllib.parse`` is; ``urllib.request`` not).
OUTSIDE_STDLIB_PREFIXES: Final[tuple[str, ...]] = (
    "socket.", "ssl.", "http.", "urllib.request.", "urllib.robotparser.", "ftplib.", "smtplib.", "imaplib.",
    "poplib.", "nntplib.", "telnetlib.", "xmlrpc.", "webbrowser.", "subprocess.", "asyncio.subprocess.",
    "multiprocessing.", "concurrent.", "threading.Thread", "ctypes.", "runpy.", "code.", "pty.", "signal.",
    "os.system", "os.popen", "os.exec", "os.spawn", "os.fork", "os.kill", "os.startfile", "os.posix_spawn",
    "asyncio.create_subprocess", "asyncio.open_connection", "asyncio.open_unix_connection", "asyncio.start_server",
    "asyncio.to_thread", "asyncio.run", "asyncio.get_event_loop", "asyncio.get_running_loop", "asyncio.new_event_loop",
    "importlib.", "sched.", "atexit.",
)
# Builtins that run code they are handed or wait for a person: no evidence of local work.
OUTSIDE_BUILTINS: Final[frozenset[str]] = frozenset({"exec", "eval", "compile", "__import__", "input", "breakpoint",
                                                      "help"})
# Methods of the builtin value types (``str``, ``list``, ``dict``, ``set``, ``bytes``), of ``re`` matches, dates and
# ``pathlib`` paths, and of file objects: in memory or on local files whatever the receiver is named (a receiver named
# like a client, ``TOOL_RECEIVER_WORDS``/``CLIENT_CLASS_WORDS``, is still a call out). ``get`` is read as a dict's only
# with a key that is no URL path (``args.get("path")``, not ``client.get("/v1/items")``).
LOCAL_VALUE_METHODS: Final[frozenset[str]] = frozenset({
    "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "join", "lower", "upper", "title", "capitalize",
    "casefold", "replace", "startswith", "endswith", "format", "format_map", "encode", "decode", "isdigit", "isalpha",
    "isalnum", "isspace", "isupper", "islower", "isnumeric", "isdecimal", "isidentifier", "zfill", "ljust", "rjust",
    "center", "partition", "rpartition", "expandtabs", "removeprefix", "removesuffix", "translate", "count", "rfind",
    "rindex", "hex", "append", "extend", "insert", "remove", "pop", "popleft", "appendleft", "sort", "reverse", "copy",
    "clear", "items", "keys", "values", "setdefault", "update", "add", "discard", "union", "intersection",
    "difference", "issubset", "issuperset", "symmetric_difference", "most_common", "group", "groups", "groupdict",
    "span", "start", "end", "isoformat", "strftime", "timestamp", "total_seconds", "astimezone", "date", "time",
    "exists", "is_file", "is_dir", "iterdir", "glob", "rglob", "resolve", "absolute", "relative_to", "with_suffix",
    "with_name", "with_stem", "joinpath", "expanduser", "as_posix", "mkdir", "touch", "unlink", "rmdir", "stat",
    "read_text", "read_bytes", "write_text", "write_bytes", "readlines", "readline", "writelines", "seek", "tell",
    "flush", "is_relative_to", "samefile", "hexdigest", "digest", "is_absolute", "is_symlink", "is_mount", "lstat",
    "readlink",
})
# Of those, the methods read as local on an object the tool did not make itself (an attribute of ``self``, a parameter,
# a module global): text and mapping reads and list appends, never a name a store or a service also uses (``add``,
# ``update``, ``insert``, ``remove``, ``pop``, ``count``, ``exists``: ``self.memory.add(...)`` may be a remote store).
LOCAL_FOREIGN_METHODS: Final[frozenset[str]] = frozenset({
    "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "join", "lower", "upper", "title", "capitalize",
    "casefold", "replace", "startswith", "endswith", "format", "encode", "decode", "isdigit", "isalpha", "isalnum",
    "isspace", "zfill", "partition", "rpartition", "removeprefix", "removesuffix", "items", "keys", "values", "append",
    "isoformat", "strftime", "total_seconds", "hexdigest", "as_posix", "with_suffix", "with_name", "joinpath",
    "relative_to", "group", "groups", "groupdict",
})
# Processes that stay on the machine (a ``local`` tool may run them): programs that only read or change local files
# and text, and git's sub-commands that work on the local repository (not ``fetch``/``pull``/``push``/``clone``/
# ``ls-remote``/``submodule``/``remote``). The program and sub-command must be literal; a pipeline or a substitution
# in the command, or any other program, is no evidence.
LOCAL_PROGRAMS: Final[frozenset[str]] = CLI_LOCAL_PROGRAMS | frozenset({
    "ls", "find", "pwd", "diff", "stat", "file", "du", "df", "which", "uname", "whoami", "tree", "realpath", "readlink",
    "mkdir", "touch", "cp", "mv", "rm", "ln", "chmod", "rg", "fd", "md5sum", "sha256sum", "nl", "fold", "paste", "comm",
})
GIT_LOCAL_SUBCOMMANDS: Final[frozenset[str]] = frozenset({
    "status", "log", "diff", "show", "add", "commit", "branch", "checkout", "switch", "rev-parse", "reset", "stash",
    "tag", "blame", "ls-files", "restore", "merge", "rebase", "grep", "init", "mv", "rm", "describe", "shortlog",
    "cherry-pick", "revert", "clean", "apply", "rev-list", "cat-file", "show-ref", "symbolic-ref", "for-each-ref",
    "diff-tree", "reflog", "check-ignore", "merge-base", "name-rev", "ls-tree", "worktree",
})
