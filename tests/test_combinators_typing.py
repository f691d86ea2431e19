"""Static typing of the combinators, checked by running mypy --strict on a snippet.

A bare int where a Duration belongs must be a type error; the pipe must keep
the tool's Result type, and say "awaitable" exactly when the tool or the clock
is async. Lines marked ``# E`` must have an error; no other line may.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SNIPPET = textwrap.dedent(
    '''
    from __future__ import annotations

    from smullyan import runtime as tool


    def sleep(ms: int) -> None:
        raise NotImplementedError


    async def asleep(ms: int) -> None:
        raise NotImplementedError


    def get_issue(n: int) -> str:
        raise NotImplementedError


    async def aget_issue(n: int) -> str:
        raise NotImplementedError


    clock = tool.with_clock(sleep)
    aclock = tool.with_clock(asleep)

    clock.giving_up_after(10)  # E
    tool.exponentially_from(100)  # E
    tool.constant(250)  # E
    tool.exponentially_from(tool.millis(100)).capped_at(5000)  # E
    tool.trusting_server_advice_up_to(60)  # E
    clock.retrying(tool.up_to(3).attempts, 100)  # E
    tool.millis(1.5)  # E

    fetch_issue = tool.pipe(
        tool.calling_api(get_issue),
        clock.retrying(
            tool.while_transient,
            tool.up_to(4).attempts,
            tool.backing_off(tool.exponentially_from(tool.millis(100))),
        ),
        clock.giving_up_after(tool.seconds(10)),
        tool.falling_back_to(tool.the_value("cached")),
    )
    reveal_type(fetch_issue(3))
    fetch_issue("3")  # E

    afetch = tool.pipe(tool.calling_api(aget_issue), clock.retrying(tool.up_to(4).attempts))
    reveal_type(afetch)

    mixed = tool.pipe(tool.calling_api(get_issue), aclock.retrying(tool.up_to(4).attempts))
    reveal_type(mixed)

    wrong_fallback = tool.pipe(tool.calling_api(get_issue), tool.falling_back_to(tool.the_value(3)))  # E

    terse = tool.terse.retry(times=4, backoff=tool.terse.exponential(100), sleep=sleep, retry_on=tool.is_retryable)
    reveal_type(terse(tool.calling_api(get_issue))(1))
    '''
)


@pytest.mark.slow  # a mypy --strict run
def test_mypy_rejects_bare_ints_and_keeps_result_types(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--show-error-codes",
         "--no-error-summary", str(snippet)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    lines = SNIPPET.splitlines()
    expected = {i + 1 for i, line in enumerate(lines) if line.rstrip().endswith("# E")}
    errors: dict[int, list[str]] = {}
    notes: dict[int, str] = {}
    for line in proc.stdout.splitlines():
        m = re.match(r".*snippet\.py:(\d+): (error|note): (.*)", line)
        if m is None:
            continue
        number, kind, message = int(m.group(1)), m.group(2), m.group(3)
        if kind == "error":
            errors.setdefault(number, []).append(message)
        elif message.startswith("Revealed type is"):
            notes[number] = message.replace("builtins.", "").replace("smullyan.runtime._errors.", "")
    assert set(errors) == expected, proc.stdout + proc.stderr
    assert any("Duration" in m for m in errors[_line(lines, "clock.giving_up_after(10)")])
    assert any("Duration" in m for m in errors[_line(lines, "tool.exponentially_from(100)")])

    def revealed(text: str) -> str:
        return notes[_line(lines, text)]

    sync_result = revealed("reveal_type(fetch_issue(3))")
    assert "Coroutine" not in sync_result and "Ok[str]" in sync_result and "Err[" in sync_result
    for awaitable in ("reveal_type(afetch)", "reveal_type(mixed)"):
        assert "def (n: int) -> typing.Coroutine[Any, Any, Ok[str] | Err[" in (
            revealed(awaitable)
        )
    terse_result = revealed("reveal_type(terse(tool.calling_api(get_issue))(1))")
    assert "Coroutine" not in terse_result and "Ok[str]" in terse_result


def _line(lines: list[str], text: str) -> int:
    return next(i + 1 for i, line in enumerate(lines) if line.strip().startswith(text))
