"""Sagas: compensations of completed steps run in exact reverse order; failures are surfaced."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smullyan import runtime as tool


def build(spec: list[tuple[str, bool, str]], log: list[str], asynchronous: bool = False) -> tool.types.Saga:
    """spec: (action outcome 'ok'|'err'|'raise', has compensation, compensation outcome)."""
    steps = []
    for i, (outcome, compensable, undo) in enumerate(spec):
        def action(i: int = i, outcome: str = outcome) -> tool.Result[int]:
            log.append(f"do {i}")
            if outcome == "raise":
                raise ValueError("boom")
            return tool.Ok(i * 10) if outcome == "ok" else tool.Err(tool.unavailable(f"step {i}"))

        def compensate(value: int, i: int = i, undo: str = undo) -> tool.Result[None]:
            assert value == i * 10
            log.append(f"undo {i}")
            if undo == "raise":
                raise RuntimeError("undo failed")
            return tool.Ok(None) if undo == "ok" else tool.Err(tool.denied(f"undo {i}"))

        if asynchronous and i % 2:
            sync_action, sync_compensate = action, compensate

            async def action(sync_action: Any = sync_action) -> tool.Result[int]:  # type: ignore[misc]
                await asyncio.sleep(0)
                return sync_action()  # type: ignore[no-any-return]

            async def compensate(value: int, sync_compensate: Any = sync_compensate) -> tool.Result[None]:  # type: ignore[misc]
                await asyncio.sleep(0)
                return sync_compensate(value)  # type: ignore[no-any-return]

        steps.append(tool.step(action, compensate if compensable else None, name=f"s{i}"))
    return tool.saga(*steps)


specs = st.lists(
    st.tuples(st.sampled_from(["ok", "ok", "ok", "err", "raise"]), st.booleans(), st.sampled_from(["ok", "ok", "err", "raise"])),
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(spec=specs, asynchronous=st.booleans())
def test_compensations_run_in_exact_reverse_order_of_completed_steps(spec: list[tuple[str, bool, str]], asynchronous: bool) -> None:
    log: list[str] = []
    saga = build(spec, log, asynchronous)
    outcome = asyncio.run(saga.arun()) if asynchronous else saga.run()
    first_failure = next((i for i, (o, _, _) in enumerate(spec) if o != "ok"), None)
    ran = len(spec) if first_failure is None else first_failure + 1
    completed = list(range(ran if first_failure is None else first_failure))
    assert outcome.completed == tuple(f"s{i}" for i in completed)
    assert log[:ran] == [f"do {i}" for i in range(ran)]
    undone = [i for i in reversed(completed) if spec[i][1]] if first_failure is not None else []
    assert log[ran:] == [f"undo {i}" for i in undone]
    assert outcome.ok is (first_failure is None)
    if first_failure is not None:
        assert outcome.failed == f"s{first_failure}"
        expected_error = tool.Unavailable if spec[first_failure][0] == "err" else tool.Unknown
        assert isinstance(outcome.error, expected_error)
    assert outcome.compensated == tuple(f"s{i}" for i in undone if spec[i][2] == "ok")
    failed_undo = [(f"s{i}", spec[i][2]) for i in undone if spec[i][2] != "ok"]
    assert [name for name, _ in outcome.compensation_errors] == [name for name, _ in failed_undo]
    for (_, error), (_, how) in zip(outcome.compensation_errors, failed_undo):
        assert isinstance(error, tool.Denied if how == "err" else tool.Unknown)
    assert outcome.fully_compensated is (first_failure is not None and not failed_undo)
    assert outcome.values == {f"s{i}": i * 10 for i in completed}


def test_run_refuses_async_steps_and_bad_steps_are_clear_errors() -> None:
    async def act() -> tool.Result[int]:
        return tool.Ok(1)

    with pytest.raises(TypeError, match="arun"):
        tool.saga(tool.step(act)).run()
    with pytest.raises(TypeError, match="step\\(\\)"):
        tool.step(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names must differ"):
        tool.saga(tool.step(lambda: tool.Ok(1), name="a"), tool.step(lambda: tool.Ok(2), name="a"))
    with pytest.raises(TypeError, match="must return Ok or Err"):
        tool.saga(tool.step(lambda: 3)).run()

    def book() -> tool.Result[int]:
        return tool.Ok(1)

    named = tool.saga(tool.step(lambda: tool.Ok(1)), tool.step(book), tool.step(lambda: tool.Err(tool.timeout(1))))
    assert named.run().completed == ("step 1", "test_run_refuses_async_steps_and_bad_steps_are_clear_errors.<locals>.book")
    assert named.run().failed == "step 3"


def test_commit_is_idempotent_on_its_token(tmp_path: Any) -> None:
    for ledger in (None, tool.ledger.SQLiteLedger(tmp_path / "l.db", now=lambda: 0)):
        sent: list[str] = []

        def transfer(to: str, cents: int) -> tool.Result[str]:
            sent.append(to)
            return tool.Ok(f"tx-{len(sent)}")

        proposals = tool.Proposals(ledger)
        proposal = proposals.propose(transfer, "acct-9", cents=500)
        assert proposal.summary.endswith("transfer('acct-9', cents=500)")
        assert sent == []
        assert proposals.commit(proposal.token) == tool.Ok("tx-1")
        assert proposals.commit(proposal.token) == tool.Ok("tx-1")
        assert sent == ["acct-9"]
        unknown = proposals.commit("nope")
        assert isinstance(unknown, tool.Err) and isinstance(unknown.error, tool.NotFound)
        other = proposals.propose(transfer, "acct-1", cents=1)
        assert proposals.cancel(other.token)
        assert isinstance(proposals.commit(other.token), tool.Err)
        assert not proposals.cancel(proposal.token)


def test_a_transient_commit_failure_can_be_committed_again() -> None:
    answers = [tool.Err(tool.unavailable("503")), tool.Ok("tx")]
    proposals = tool.Proposals()
    p = proposals.propose(lambda: answers.pop(0))
    assert isinstance(proposals.commit(p.token), tool.Err)
    assert proposals.commit(p.token) == tool.Ok("tx")
    assert proposals.commit(p.token) == tool.Ok("tx")
