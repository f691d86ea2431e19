"""Issue 28 (session 41 audit): the `--fix` refusals the issue lists that no test covered: a dialog
waits for a person (no finding, nothing to fix) and a download runs long by nature (the finding stays
with its advice, no timeout is written)."""

from __future__ import annotations

import pytest

from smullyan.linter import fixes
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def tfh201(src: str) -> list[tuple[int, bool, str]]:
    return [(f.line, f.fix is not None, f.message) for f in lint_source(src, "m.py", Config()) if f.code == "TFH201"]


def fixed(src: str) -> str:
    return fixes.fix_text(src, "m.py", Config()).text


@pytest.mark.parametrize("command", [
    '["zenity", "--question", "--text", "Continue?"]',
    '["osascript", "-e", \'display dialog "Continue?"\']',
])
def test_a_dialog_waits_for_a_person_so_nothing_is_reported_or_fixed(command: str) -> None:
    src = f"import subprocess\ndef ask():\n    return subprocess.run({command}).returncode\n"
    assert tfh201(src) == []
    assert fixed(src) == src


@pytest.mark.parametrize(("command", "program"), [
    ('["wget", url]', "`wget`"),
    ('["curl", "-L", "-O", url]', "`curl`"),
    ('["huggingface-cli", "download", "gpt2"]', "`huggingface-cli`"),
    ('["brew", "install", "jq"]', "`brew`"),
])
def test_a_download_or_a_package_install_runs_long_so_the_finding_stays_without_a_fix(command: str, program: str) -> None:
    src = f"import subprocess\ndef fetch(url):\n    subprocess.run({command}, check=True)\n"
    (found,) = tfh201(src)
    assert found[0] == 3 and not found[1] and f"{program} runs long by nature" in found[2]
    assert fixed(src) == src


def test_a_websocket_opened_without_a_timeout_is_reported_but_not_fixed() -> None:
    """s50, batch 23's harmful fix (dejima-sdk): websocket-client's `create_connection(url, timeout=30)` keeps 30 s as the
    socket's timeout for the connection's life, so an idle PTY session's next `recv()` would raise after 30 s."""
    src = "import websocket\ndef open_pty(url):\n    return websocket.create_connection(url)\n"
    (found,) = tfh201(src)
    assert found[0] == 3 and found[1] is False
    assert fixed(src) == src
