"""Classification decorators: they mark, they keep the function, and mypy sees the same type."""

from __future__ import annotations

import asyncio
import functools
import inspect
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from smullyan import runtime as tool
from smullyan.runtime import classification


def test_each_decorator_marks_and_returns_the_same_function() -> None:
    for decorator, name in [
        (tool.read_safe, "read_safe"),
        (tool.idempotent_write, "idempotent_write"),
        (tool.non_idempotent_write, "non_idempotent_write"),
        (tool.irreversible, "irreversible"),
    ]:
        def f(a: int, *, b: str = "x") -> str:
            return f"{a}{b}"

        assert decorator(f) is f
        assert tool.classification_of(f) == name
        assert f(1, b="y") == "1y"
    assert tool.types.CLASSIFICATIONS == ("read_safe", "idempotent_write", "non_idempotent_write", "irreversible")


def test_async_def_stays_async_and_keeps_its_signature() -> None:
    @tool.non_idempotent_write
    async def charge(card: str, cents: int) -> str:
        return f"{card}:{cents}"

    assert inspect.iscoroutinefunction(charge)
    assert str(inspect.signature(charge)) == "(card: 'str', cents: 'int') -> 'str'"
    assert asyncio.run(charge("c", 5)) == "c:5"
    assert tool.classification_of(charge) == "non_idempotent_write"


def test_unclassified_is_none_and_the_mark_is_seen_through_wrappers() -> None:
    def plain() -> None: ...

    assert tool.classification_of(plain) is None
    assert tool.classification_of(42) is None

    @tool.irreversible
    def send(to: str) -> None: ...

    assert tool.classification_of(functools.partial(send, "a")) == "irreversible"

    @functools.wraps(send)
    def wrapper(to: str) -> None: ...

    assert tool.classification_of(wrapper) == "irreversible"
    wrapped = tool.calling_api(send)
    assert tool.classification_of(wrapped) == "irreversible"
    clock = tool.with_clock(lambda ms: None)
    assert tool.classification_of(clock.giving_up_after(tool.seconds(1))(wrapped)) == "irreversible"


def test_conflicting_marks_and_unmarkable_things_are_clear_errors() -> None:
    @tool.read_safe
    def f() -> None: ...

    assert tool.read_safe(f) is f  # the same mark twice is harmless
    with pytest.raises(TypeError, match="already classified 'read_safe'"):
        tool.irreversible(f)
    with pytest.raises(TypeError, match="decorates a function"):
        tool.read_safe(3)  # type: ignore[type-var]
    with pytest.raises(TypeError, match="cannot mark"):
        tool.read_safe(len)


def test_the_names_the_linter_reads_exist() -> None:
    for name in ("read_safe", "idempotent_write", "non_idempotent_write", "irreversible"):
        assert getattr(tool, name) is getattr(classification, name)


SNIPPET = textwrap.dedent(
    '''
    from __future__ import annotations

    from smullyan import runtime as tool
    from smullyan.runtime.classification import irreversible


    @tool.non_idempotent_write
    def charge(card: str, cents: int) -> str:
        raise NotImplementedError


    @irreversible
    async def send(to: str, *, body: str = "") -> None:
        raise NotImplementedError


    class Payments:
        @tool.idempotent_write
        def refund(self, charge_id: str) -> bool:
            raise NotImplementedError


    reveal_type(charge)
    reveal_type(send)
    reveal_type(Payments().refund)
    reveal_type(tool.classification_of(charge))
    charge("c", "5")  # E
    send("a", body=3)  # E
    '''
)


@pytest.mark.slow  # a mypy --strict run
def test_mypy_sees_the_same_signature(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--show-error-codes",
         "--no-error-summary", str(snippet)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    lines = SNIPPET.splitlines()
    expected = {i + 1 for i, line in enumerate(lines) if line.rstrip().endswith("# E")}
    errors: set[int] = set()
    notes: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        m = re.match(r".*snippet\.py:(\d+): (error|note): (.*)", line)
        if m is None:
            continue
        number, kind, message = int(m.group(1)), m.group(2), m.group(3)
        if kind == "error":
            errors.add(number)
        elif message.startswith("Revealed type is"):
            notes[lines[number - 1].strip()] = message.replace("builtins.", "")
    assert errors == expected, proc.stdout + proc.stderr
    assert "def (card: str, cents: int) -> str" in notes["reveal_type(charge)"]
    assert "def (to: str, *, body: str =) -> typing.Coroutine[Any, Any, None]" in notes["reveal_type(send)"]
    assert "def (charge_id: str) -> bool" in notes["reveal_type(Payments().refund)"]
    revealed = notes["reveal_type(tool.classification_of(charge))"]
    for name in ("read_safe", "idempotent_write", "non_idempotent_write", "irreversible", "None"):
        assert name in revealed
