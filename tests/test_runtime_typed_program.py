"""Issue 21, item 5: mypy --strict on a typed user program over the runtime's public API stays clean."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

PROGRAM = textwrap.dedent(
    '''
    from __future__ import annotations

    import asyncio
    import random

    from smullyan import runtime as tool


    @tool.read_safe
    def get_issue(n: int) -> str:
        return f"issue {n}"


    @tool.non_idempotent_write
    async def charge(card: str, cents: int) -> str:
        return f"charged {cents}"


    def lookup(key: str) -> tool.Result[str]:
        return tool.Err(tool.not_found(key))


    def on_event(event: tool.events.Event) -> None:
        print(event)


    clock = tool.with_clock(lambda ms: None)
    aclock = tool.asyncio_clock()
    fetch = tool.pipe(
        tool.calling_api(get_issue),
        clock.retrying(
            tool.while_transient, tool.up_to(4).attempts, tool.observing(on_event),
            tool.backing_off(tool.exponentially_from(tool.millis(100)).capped_at(tool.seconds(5))
                             .with_full_jitter(random.Random(1))),
            tool.trusting_server_advice_up_to(tool.seconds(30)),
        ),
        clock.giving_up_after(tool.seconds(10)),
        tool.falling_back_to(tool.the_value("cached")),
    )
    got: tool.Result[str] = fetch(7)
    match got:
        case tool.Ok(value):
            text: str = value
        case tool.Err(tool.RateLimited(retry_after_ms=ms)):
            wait: int | None = ms
        case tool.Err(error):
            print(tool.explain(error), tool.dump(error), tool.is_retryable(error))

    ledger = tool.ledger.SQLiteLedger(":memory:", now=tool.ledger.wall_now)
    pay = tool.keyed(tool.calling_api(charge), tool.reconciling_with(lambda key: _alookup(key)),
                     tool.recorded_in(ledger), key_from=lambda card, cents: f"order:{card}")


    async def _alookup(key: str) -> tool.Result[str]:
        return tool.Err(tool.not_found(key))


    retried_pay = tool.pipe(pay, aclock.retrying(tool.up_to(3).attempts), aclock.giving_up_after(tool.seconds(5)))
    breaker = tool.breaking_after(5).failures(within=tool.seconds(30)).for_(tool.seconds(60), now=tool.system_now)
    guarded = tool.pipe(tool.calling_api(get_issue), breaker, clock.retrying(tool.up_to(2).attempts))
    state: tool.events.CircuitState = breaker.state


    async def main() -> None:
        paid: tool.Result[str] = await retried_pay("card", 5)
        print(paid, tool.classification_of(charge), guarded(1))


    def ship() -> tool.Result[int]:
        return tool.Ok(3)


    def release(count: int) -> tool.Result[None]:
        return tool.Ok(None)


    shipping: tool.types.Step[int] = tool.step(ship, compensate=release)
    outcome = tool.saga(tool.step(lambda: tool.Ok("reserved"), compensate=lambda v: tool.Ok(None), name="reserve"),
                        shipping).run()
    ok: bool = outcome.ok
    shipped: int | None = outcome.value_of(shipping)
    proposals = tool.Proposals()
    proposal: tool.types.Proposal[str] = proposals.propose(lambda n: tool.Ok(str(n)), 5)
    committed: tool.Result[str] = proposals.commit(proposal)

    attempts = clock.attempts(tool.up_to(3).attempts)
    for attempt in attempts:
        with attempt:
            get_issue(1)
    final: tool.Result[object] | None = attempts.result
    limited: tool.ToolError = tool.from_http(429, {})
    parsed: tool.ToolError | None = tool.parse(tool.dump(limited))
    asyncio.run(main())
    '''
)


WRONG = textwrap.dedent(
    '''
    from smullyan import runtime as tool


    def ship() -> tool.Result[int]:
        return tool.Ok(3)


    def release(label: str) -> tool.Result[None]:
        return tool.Ok(None)


    tool.step(ship, compensate=release)
    outcome = tool.saga(tool.step(ship)).run()
    wrong: str | None = outcome.value_of(tool.step(ship))
    proposals = tool.Proposals()
    bad: tool.Result[str] = proposals.commit(proposals.propose(ship))
    '''
)


def test_mypy_sees_a_compensation_or_a_value_of_the_wrong_type(tmp_path: Path) -> None:
    program = tmp_path / "wrong.py"
    program.write_text(WRONG)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--show-error-codes", str(program)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    lines = {int(line.split(":")[1]) for line in proc.stdout.splitlines() if ": error:" in line}
    source = WRONG.splitlines()
    assert lines == {
        source.index("tool.step(ship, compensate=release)") + 1,
        source.index("wrong: str | None = outcome.value_of(tool.step(ship))") + 1,
        source.index("bad: tool.Result[str] = proposals.commit(proposals.propose(ship))") + 1,
    }, proc.stdout


def test_a_typed_program_over_the_public_api_is_mypy_strict_clean(tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--show-error-codes", str(program)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
