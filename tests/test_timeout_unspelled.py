"""TFH201 (s49): a process command built in the code is reported only on evidence in its literal words."""

from __future__ import annotations

from smullyan.linter.knowledge import Knowledge


def test_network_or_long_words_reads_every_literal_word() -> None:
    k = Knowledge.build()
    assert k.network_or_long_words(["{}", "-m", "pytest", "-q"]) == "pytest"
    assert k.network_or_long_words(["{}", "clone", "{}"]) == "clone"
    assert k.network_or_long_words(["{}", "--source", "https://example.com/x"]) == "https://example.com/x"
    assert k.network_or_long_words(["sudo", "{}"]) == "sudo"  # may wait at a password prompt
    assert k.network_or_long_words(["{}", "show", "{}"]) is None  # a local git verb
    assert k.network_or_long_words(["{}", "schema"]) is None
    assert k.network_or_long_words(["{}", "commit", "-q", "-m", "{}"]) is None


def test_local_playback_is_silent_but_not_a_stream() -> None:
    k = Knowledge.build()
    assert k.local_program(["afplay", "{}"], False) is not None
    assert k.local_program(["say", "hello"], True) is not None
    assert k.local_program(["afplay", "https://example.com/a.wav"], True) is None  # a literal URL
    assert k.local_program(["ffplay", "-autoexit", "{}"], False) is None  # may stream what it is handed
    assert k.network_or_long_words(["{}", "afplay", "{}"]) is None


def _tfh201_lines(src: str) -> list[int]:
    import textwrap

    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_source
    # s52: TFH201 was split by evidence; TFH203 reports the commands the linter cannot read (these tests ask whether
    # a call is reported at all, so they select both)
    findings = lint_source(textwrap.dedent(src), "mod.py", Config.default().with_overrides(select=["TFH201", "TFH203"]))
    return [f.line for f in findings]


def test_a_field_the_builder_fills_is_the_caller_s_command_and_a_class_constant_is_read() -> None:
    # `command: str = ""` that no method assigns is a field (pydantic, dataclass) whoever builds the tool fills:
    # the command is the caller's, reported (holmesgpt's YAML tools run `kubectl ...` through it)
    field = """\
    import subprocess
    class YAMLTool:
        command: str = ""
        def _invoke(self, params):
            return subprocess.run(self.command, shell=True, capture_output=True).stdout
    """
    assert _tfh201_lines(field) == [5]
    # a class constant naming a local program is read like an assignment in a method: silent
    constant = """\
    import subprocess
    class Search:
        _binary = "rg"
        def run(self, pattern):
            return subprocess.run([self._binary, "--json", pattern], capture_output=True).stdout
    """
    assert _tfh201_lines(constant) == []
