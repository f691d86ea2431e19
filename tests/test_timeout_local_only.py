"""TFH201/TFH203 (s57, issue 23): a local-only sub-command of a long or networked program; a project's argv builder."""

from __future__ import annotations

import ast
import textwrap

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.knowledge import Knowledge
from smullyan.rules.timeouts.builders import builder_program


def _lines(src: str) -> list[int]:
    findings = lint_source(textwrap.dedent(src), "mod.py", Config.default().with_overrides(select=["TFH201", "TFH203"]))
    return [f.line for f in findings]


def test_local_only_subcommands_are_silent_and_their_siblings_are_not() -> None:
    k = Knowledge.build()
    assert k.local_program(["docker", "compose", "config", "--format", "json"], True) is not None
    assert k.local_program(["docker", "compose", "-f", "stack.yml", "-p", "x", "ps"], True) is not None
    assert k.local_program(["docker-compose", "images"], True) is not None
    assert k.local_program(["composer", "config", "audit.block-insecure", "false"], True) is not None
    assert k.local_program(["openssl", "passwd", "-6", "-stdin"], True) is not None
    assert k.local_program(["docker", "compose", "-f", "stack.yml", "up"], True) is None
    assert k.local_program(["docker", "compose", "pull"], True) is None
    assert k.local_program(["composer", "install"], True) is None
    assert k.local_program(["composer", "show", "-a", "x"], True) is None
    assert k.local_program(["openssl", "s_client", "-connect", "h:443"], True) is None
    # a literal URL still leaves the machine
    assert k.local_program(["composer", "config", "repositories.x", "composer", "https://example.com"], True) is None
    assert k.network_or_long_words(["{}", "docker", "compose", "config"]) is None
    assert k.network_or_long_words(["{}", "docker", "compose", "up"]) == "docker"


def _builder(src: str, method: bool = False) -> str | None:
    tree = ast.parse(textwrap.dedent(src))
    func = tree.body[0]
    if method:
        assert isinstance(func, ast.ClassDef)
        func = func.body[0]
    assert isinstance(func, ast.FunctionDef)
    return builder_program(func, method)


def test_builder_program_reads_only_a_program_its_options_and_the_handed_words() -> None:
    assert _builder("def f(*args, socket=None):\n base = ['tmux']\n if socket:\n  base += ['-L', socket]\n"
                    " return base + list(args)\n") == "tmux"
    assert _builder("def f(*args):\n return ['tmux', '-L', sock(), *args]\n") == "tmux"
    assert _builder("class C:\n def f(self, *args):\n  extra = ['-S', str(self.p)] if self.p else []\n"
                    "  b = self.b or shutil.which('tmux') or 'tmux'\n  return [b, *extra, *args]\n", True) is None
    assert _builder("class C:\n def f(self, *args):\n  extra = []\n  if self.p:\n   extra = ['-S', str(self.p)]\n"
                    "  b = self.b or shutil.which('tmux') or 'tmux'\n  return [b, *extra, *args]\n", True) == "tmux"
    assert _builder("def f(*args):\n return ['git', 'log', *args]\n") is None  # its own sub-command
    assert _builder("def f(cmd, *args):\n return [cmd, *args]\n") is None  # a parameter chooses the program
    assert _builder("def f(*args):\n return ['tmux', *args, '-t', 'x']\n") is None  # words after the handed ones
    assert _builder("def f(*args):\n if x:\n  return ['ssh', *args]\n return ['tmux', *args]\n") is None  # two programs


def test_a_builders_program_and_passed_words_decide() -> None:
    src = """
    import subprocess
    def _tmux(*args, socket=None):
        base = ["tmux"]
        if socket:
            base += ["-L", socket]
        return base + list(args)
    def _git(*args):
        return ["git", *args]
    def has(name):
        return subprocess.run(_tmux("has-session", "-t", name, socket="s"), capture_output=True)
    def push():
        return subprocess.run(_git("push", "origin"), capture_output=True)
    def run(cmd):
        return subprocess.run(_tmux(*cmd), capture_output=True)
    """
    assert _lines(src) == [13, 15]


def test_a_spread_passed_to_a_builder_leaves_the_words_before_it_to_decide() -> None:
    src = """
    import subprocess
    def argv(*args):
        return ["tmux", "-L", "sock", *args]
    def start(session, flags):
        return subprocess.run(argv("new-session", "-d", "-s", session, *flags), capture_output=True)
    def attach(flags):
        return subprocess.run(argv(*flags), capture_output=True)
    """
    assert _lines(src) == [8]
