"""Waits for a person at the terminal (s46, issue 23): a sign-in or session a process runs for the person using it.

Read by TFH201 (``rules/timeouts/process.py``) through :class:`~smullyan.linter.knowledge.Knowledge`, only for a
process started attached to the terminal (nothing captured, stdin inherited): there the program talks to the person
(a device code, a browser page, a prompt) and they end it; a timeout would cut them off. Captured, the same command
has nobody to talk to and stays reported, as every form here that does not ask the person (a token handed in).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Iterable, Mapping

from .processes import _program_argv

# An interactive sign-in (batch 18: rootsight's cloud sign-ins, `az login`, `gcloud auth login`, `aws sso login`, run
# for the person, whose browser page and prompts are theirs). ``SIGN_IN_SUBCOMMANDS``: what a CLI's sign-in is called,
# whatever the program (`docker login`, `gh auth login`, `aws sso login`, `gcloud auth application-default login`):
# the sub-command words right after the program (its own flags skipped). ``SIGN_IN_COMMANDS``: a program's sign-in
# named otherwise (program first). ``NON_INTERACTIVE_SIGN_IN_WORDS``: a long flag holding one of these words hands the
# credential in (`--with-token`, `--password-stdin`, `--identity`, `--service-principal`, `--cred-file`,
# `--federated-token`, `--access-token`); ``NON_INTERACTIVE_SIGN_IN_FLAGS``: the short ones (`-p <password>`,
# `-t <token>`). With one, the sign-in asks nobody: an ordinary remote call.
SIGN_IN_SUBCOMMANDS: Final[frozenset[tuple[str, ...]]] = frozenset({
    ("login",), ("auth", "login"), ("sso", "login"), ("auth", "application-default", "login"), ("auth", "refresh"),
    ("configure", "sso"),
})
SIGN_IN_COMMANDS: Final[frozenset[tuple[str, ...]]] = frozenset({
    ("gcloud", "init"), ("doctl", "auth", "init"), ("npm", "adduser"),
})
# s48 (batch 20, portacode's `sudo -v`): a sign-in a program's flag asks for, with no command after it: ``sudo -v``
# (``--validate``) asks the person for their password to refresh sudo's cached credentials and runs nothing else.
SIGN_IN_FLAGS: Final[frozenset[tuple[str, str]]] = frozenset({("sudo", "-v"), ("sudo", "--validate")})
NON_INTERACTIVE_SIGN_IN_WORDS: Final[tuple[str, ...]] = (
    "token", "password", "identity", "principal", "cred", "secret", "key", "stdin", "federated", "non-interactive")
NON_INTERACTIVE_SIGN_IN_FLAGS: Final[frozenset[str]] = frozenset({"-p", "-t"})


def _non_interactive(words: list[str]) -> bool:
    return any(w in NON_INTERACTIVE_SIGN_IN_FLAGS or (w.startswith("--") and any(
        k in w.split("=", 1)[0] for k in NON_INTERACTIVE_SIGN_IN_WORDS)) for w in words)


def sign_in_subcommand(words: Iterable[str]) -> bool:
    """Whether ``words`` (a command's literal words after its program, which the code may not spell:
    ``[exe, "login"]``) start with a sign-in's sub-command and hand no credential in."""
    words = list(words)
    positional = [w for w in words if not w.startswith("-")]
    return any(tuple(positional[:len(key)]) == key for key in SIGN_IN_SUBCOMMANDS) and not _non_interactive(words)


def interactive_sign_in(words: Iterable[str]) -> bool:
    """Whether a process (its leading literal argv words) is an interactive sign-in: a program's sign-in sub-command
    (``SIGN_IN_SUBCOMMANDS``, ``SIGN_IN_COMMANDS``) given no flag that hands the credential in.
    ``gh auth login --with-token``, ``az login --identity``, ``gh auth status``: no."""
    argv = _program_argv(words)
    if not argv:
        return False
    positional = [w for w in argv if not w.startswith("-")]
    if positional == argv[:1] and any((argv[0], w) in SIGN_IN_FLAGS for w in argv[1:]) and "-n" not in argv:
        return True  # `sudo -v`: a flag, no command (`sudo -n -v` asks nobody)
    if any(tuple(positional[:len(key)]) == key for key in SIGN_IN_COMMANDS):
        return not _non_interactive(argv[1:])
    return sign_in_subcommand(argv[1:])


# s54 (issue 23): an interactive session a process opens for the person at the terminal: a shell in a pod or container
# (`kubectl exec -it POD -- bash`, `docker exec -it C sh`, `docker run -it IMAGE`, `kubectl attach -it POD`), a login on
# another host (`ssh -t host`, `ssh host` with no remote command), an attach to a running container (`docker attach C`).
# Started attached to the terminal it is the person's session: they type into it and end it; a timeout (the fix's 30 s
# above all) would kill it. Read as data, per program (:class:`SessionFlags`): the sub-commands that open one given a
# stdin flag and a tty flag (short letters, also combined as `-it`/`-ti`, or long names), the flags that detach it
# instead (`docker run -itd`), the program's own flags before the sub-command that take a value (`kubectl -n ns exec
# -it ...`), and the sub-commands that attach a terminal by default (`docker attach`). ``SSH_SESSION_LETTERS``: ssh's
# short flags that take a value, the one that asks for a terminal (`-t`), and those after which no session opens (a
# tunnel `-N`, `-f`, `-n`, `-T`, a query); with none of these and no remote command after the host, ssh opens a login.
@dataclass(frozen=True, slots=True)
class SessionFlags:
    """How a program's argv opens an interactive session (:data:`SESSION_FLAGS`)."""

    subcommands: frozenset[str]
    stdin: frozenset[str]
    tty: frozenset[str] = frozenset({"t", "--tty"})
    detach: frozenset[str] = frozenset()
    attach: frozenset[str] = frozenset()
    global_value_flags: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()


_KUBE = SessionFlags(frozenset({"exec", "attach", "run", "debug"}), frozenset({"i", "--stdin"}), global_value_flags=frozenset(
    {"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--as", "--token"}))
_CONTAINER = SessionFlags(
    frozenset({"exec", "run", "start"}), frozenset({"i", "--interactive"}), detach=frozenset({"d", "--detach"}),
    attach=frozenset({"attach"}), groups=frozenset({"container"}), global_value_flags=frozenset(
        {"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--url", "--connection", "--namespace"}))
SESSION_FLAGS: Final[Mapping[str, SessionFlags]] = {
    **dict.fromkeys(("kubectl", "oc"), _KUBE), **dict.fromkeys(("docker", "podman", "nerdctl"), _CONTAINER)}
SSH_SESSION_LETTERS: Final[Mapping[str, frozenset[str]]] = {
    "value": frozenset("BbcDEeFIiJLlmOoPpQRSWw"), "tty": frozenset("t"), "none": frozenset("NfnTsWOGVQ")}


def _flags(words: list[str | None]) -> tuple[set[str], set[str]]:
    """The short letters (`-it` -> i, t) and long names (`--tty=true` -> --tty) of ``words``' flags (not `=false`)."""
    letters: set[str] = set()
    names: set[str] = set()
    for w in words:
        if w is None or not w.startswith("-") or w == "-" or w == "--":
            continue
        if w.startswith("--"):
            name, _, value = w.partition("=")
            if value.lower() != "false":
                names.add(name)
        elif w[1:].isalpha():
            letters.update(w[1:])
    return letters, names


def _container_session(flags: SessionFlags, words: list[str | None]) -> bool:
    """``kubectl``/``docker``-like ``words`` after the program: a sub-command that opens a session given stdin and tty."""
    i = 0
    while i < len(words) and words[i] is not None and str(words[i]).startswith("-"):  # the program's own flags
        i += 2 if words[i] in flags.global_value_flags else 1
    if i < len(words) and words[i] in flags.groups:
        i += 1
    sub = words[i] if i < len(words) else None
    if sub is None:
        return False
    scanned: list[str | None] = []
    for prev, word in zip(words[i:], words[i + 1:]):  # its flags, up to `--` or a positional no flag can own
        owned = prev == sub or (prev is not None and prev.startswith("-"))  # a flag's value may follow it
        if word == "--" or ((word is None or not word.startswith("-")) and not owned):
            break
        scanned.append(word)
    letters, names = _flags(scanned)
    held = letters | names
    if held & flags.detach:
        return False
    if sub in flags.attach:
        return "--no-stdin" not in names
    return sub in flags.subcommands and bool(held & flags.stdin) and bool(held & flags.tty)


def _ssh_session(words: list[str | None], complete: bool) -> bool:
    """``ssh`` ``words`` (after the program): `-t` asks for a terminal; no remote command after the host is a login."""
    positional, tty, i = 0, False, 0
    while i < len(words):
        w = words[i]
        if w is not None and w.startswith("-") and len(w) > 1 and w != "--":
            letters = w[1:]
            for j, c in enumerate(letters):
                if c in SSH_SESSION_LETTERS["none"]:
                    return False
                tty = tty or c in SSH_SESSION_LETTERS["tty"]
                if c in SSH_SESSION_LETTERS["value"]:
                    i += 1 if j == len(letters) - 1 else 0  # `-p 22` takes the next word; `-p22` holds it
                    break
        elif w != "--":
            positional += 1
        i += 1
    return positional >= 1 and (tty or (complete and positional == 1))


def interactive_session(words: Iterable[str | None], complete: bool) -> str | None:
    """Why a process opens an interactive session for the person (``kubectl exec -it``, ``docker run -it``,
    ``ssh -t host``, ``ssh host`` with no command, ``docker attach``), or None. ``words``: its argv words, ``None`` for
    a word the code does not spell (one word each); ``complete``: no word follows them (`ssh host` ends there)."""
    argv = list(words)
    if not argv or argv[0] is None:
        return None
    head = _program_argv([argv[0]])[0] if argv[0] else ""
    flags = SESSION_FLAGS.get(head)
    if flags is not None:
        if _container_session(flags, argv[1:]):
            return f"`{head}` opens an interactive session (a terminal attached to stdin) for the person, who ends it"
    elif head == "ssh" and _ssh_session(argv[1:], complete):
        return "`ssh` opens an interactive session (a terminal on the host) for the person, who ends it"
    return None
