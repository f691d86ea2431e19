"""Waits for a person at the terminal (s46, issue 23): a sign-in or session a process runs for the person using it.

Read by TFH201 (``rules/timeouts/process.py``) through :class:`~smullyan.linter.knowledge.Knowledge`, only for a
process started attached to the terminal (nothing captured, stdin inherited): there the program talks to the person
(a device code, a browser page, a prompt) and they end it; a timeout would cut them off. Captured, the same command
has nobody to talk to and stays reported, as every form here that does not ask the person (a token handed in).
"""

from __future__ import annotations

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
