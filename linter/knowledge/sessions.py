"""Waits for a person at the terminal (s46, issue 23): a sign-in or session a process runs for the person using it.

Read by TFH201 (``rules/timeouts/process.py``) through :class:`~smullyan.linter.knowledge.Knowledge`, only for a
process started attached to the terminal (nothing captured, stdin inherited): there the program talks to the person
(a device code, a browser page, a prompt) and they end it; a timeout would cut them off. Captured, the same command
has nobody to talk to and stays reported, as every form here that does not ask the person (a token handed in).
"""

from __future__ import annotations

from typing import Final, Iterable, Mapping

from .processes import _program_argv

# An interactive sign-in: the program's leading words (the program, then its sub-commands, flags skipped) -> the
# flags that make it non-interactive (a token, a service principal, a managed identity, a password handed in), with
# which it is an ordinary remote call. Batch 18 (rootsight's cloud sign-ins: `az login`, `gcloud auth login`,
# `aws sso login`, run for the person, whose browser page and prompts are theirs).
INTERACTIVE_SIGN_INS: Final[Mapping[tuple[str, ...], frozenset[str]]] = {
    ("gh", "auth", "login"): frozenset({"--with-token"}),
    ("gh", "auth", "refresh"): frozenset(),
    ("glab", "auth", "login"): frozenset({"--token", "-t", "--stdin"}),
    ("az", "login"): frozenset(
        {"--service-principal", "--identity", "--federated-token", "--username", "-u", "--password", "-p"}),
    ("gcloud", "auth", "login"): frozenset({"--cred-file", "--access-token-file"}),
    ("gcloud", "auth", "application-default", "login"): frozenset({"--cred-file", "--access-token-file"}),
    ("gcloud", "init"): frozenset(),
    ("aws", "sso", "login"): frozenset(),
    ("aws", "configure", "sso"): frozenset(),
    ("docker", "login"): frozenset({"--password-stdin", "--password", "-p"}),
    ("oc", "login"): frozenset({"--token", "--username", "-u", "--password", "-p"}),
    ("doctl", "auth", "init"): frozenset({"--access-token", "-t"}),
    ("huggingface-cli", "login"): frozenset({"--token"}),
    ("hf", "auth", "login"): frozenset({"--token"}),
    ("heroku", "login"): frozenset(),
    ("fly", "auth", "login"): frozenset(), ("flyctl", "auth", "login"): frozenset(),
    ("vercel", "login"): frozenset(), ("netlify", "login"): frozenset(), ("firebase", "login"): frozenset(),
    ("wrangler", "login"): frozenset(), ("railway", "login"): frozenset(), ("supabase", "login"): frozenset({"--token"}),
    ("npm", "login"): frozenset(), ("npm", "adduser"): frozenset(),
}


def interactive_sign_in(words: Iterable[str]) -> bool:
    """Whether a process (its leading literal argv words) is an interactive sign-in: one of ``INTERACTIVE_SIGN_INS``'
    commands (its words in order, flags between them skipped) given none of its non-interactive flags
    (``--flag`` or ``--flag=value``). ``gh auth login --with-token``, ``az login --identity``: no."""
    argv = _program_argv(words)
    positional = [w for w in argv if not w.startswith("-")]
    for key, flags in INTERACTIVE_SIGN_INS.items():
        if tuple(positional[:len(key)]) == key:
            return not any(w.split("=", 1)[0] in flags for w in argv[1:])
    return False
