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
