"""Keyed calls: one key per logical call, reconciliation, the ledger's outcomes, and the retry's refusals."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from ledger_support import WallClock

from smullyan import runtime as tool

clock = tool.with_clock(lambda ms: None)


def no_sleep(ms: int) -> None:
    pass


async def ano_sleep(ms: int) -> None:
    pass


class Card:
    """A payment API with a timeout knob: ``plan`` is what each call does, in order."""

    def __init__(self, *plan: str) -> None:
        self.plan = list(plan)
        self.charges: dict[str, str] = {}  # idempotency key -> charge id (the service's own record)
        self.keys_seen: list[str] = []
        self.effects = 0

    def charge(self, card: str, cents: int) -> str:
        key = tool.current_key()
        self.keys_seen.append(key)
        step = self.plan.pop(0) if self.plan else "ok"
        if step == "unavailable":
            raise tool.ToolFailure(tool.unavailable("503", 503))
        if step == "timeout-before":
            raise tool.ToolFailure(tool.timeout(1000))
        self.effects += 1
        self.charges[key] = f"ch_{self.effects}"
        if step == "timeout-after":
            raise tool.ToolFailure(tool.timeout(1000))
        return self.charges[key]

    def find(self, key: str) -> tool.Result[str]:
        if key in self.charges:
            return tool.Ok(self.charges[key])
        return tool.Err(tool.not_found(f"charge with key {key}"))


def retry(n: int = 4, *more: Any) -> tool.types.SyncStage:
    return clock.retrying(tool.while_transient, tool.up_to(n).attempts, *more)


def test_one_random_key_per_logical_call_the_same_across_its_retries() -> None:
    card = Card("unavailable", "unavailable", "ok", "unavailable", "ok")
    pay = tool.pipe(tool.keyed(tool.calling_api(card.charge)), retry())
    assert pay("c", 5) == tool.Ok("ch_1")
    first = card.keys_seen[:]
    assert len(first) == 3 and len(set(first)) == 1
    assert pay("c", 5) == tool.Ok("ch_2")
    second = card.keys_seen[3:]
    assert len(second) == 2 and len(set(second)) == 1 and second[0] != first[0]
    assert len(first[0]) == 36  # a UUID 4


def test_key_from_gives_a_deterministic_key_and_pass_key_as_hands_it_over() -> None:
    seen = []

    def post(order: str, *, idempotency_key: str) -> dict[str, str]:
        seen.append(idempotency_key)
        return tool.idempotency_headers(idempotency_key)

    send = tool.keyed(tool.calling_api(post), key_from=lambda order: f"task-7:{order}", pass_key_as="idempotency_key")
    assert send("o1") == tool.Ok({"Idempotency-Key": "task-7:o1"})
    assert seen == ["task-7:o1"]
    with pytest.raises(LookupError, match="inside a tool wrapped by keyed"):
        tool.current_key()


def test_a_bad_key_is_invalid_args_and_bad_configuration_is_refused() -> None:
    bad = tool.keyed(tool.calling_api(lambda x: x), key_from=lambda x: x)
    for key in ("", 3, "k" * 256):
        result = bad(key)
        assert isinstance(result, tool.Err) and isinstance(result.error, tool.InvalidArgs)
        assert result.error.path == "idempotency key"
    with pytest.raises(tool.ConfigError, match="key_from"):
        tool.keyed(tool.calling_api(len), key_from="task")  # type: ignore[arg-type]
    with pytest.raises(tool.ConfigError, match="pass_key_as"):
        tool.keyed(tool.calling_api(len), pass_key_as="not a name")
    with pytest.raises(tool.ConfigError, match="does not understand"):
        tool.keyed(tool.calling_api(len), tool.up_to(3).attempts)  # type: ignore[arg-type]
    with pytest.raises(tool.ConfigError, match="Ledger"):
        tool.recorded_in(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tool.idempotency_headers("")


def test_after_a_timeout_the_lookup_runs_before_any_retry_and_the_write_is_not_repeated() -> None:
    card = Card("timeout-after")
    events: list[object] = []
    pay = tool.pipe(
        tool.keyed(tool.calling_api(card.charge), tool.reconciling_with(card.find), tool.observing(events.append)),
        retry(),
    )
    assert pay("c", 5) == tool.Ok("ch_1")
    assert card.effects == 1 and len(card.keys_seen) == 1
    assert tool.events.Reconciled(card.keys_seen[0], True) in events


def test_when_the_lookup_finds_nothing_the_write_runs_again_with_the_same_key() -> None:
    card = Card("timeout-before", "ok")
    pay = tool.pipe(tool.keyed(tool.calling_api(card.charge), tool.reconciling_with(card.find)), retry())
    assert pay("c", 5) == tool.Ok("ch_1")
    assert card.effects == 1 and len(card.keys_seen) == 2 and len(set(card.keys_seen)) == 1


def test_a_lookup_that_cannot_tell_returns_its_error_and_is_asked_again() -> None:
    card = Card("timeout-after")
    answers = [tool.Err(tool.unavailable("lookup down")), None]

    def find(key: str) -> tool.Result[str]:
        answer = answers.pop(0)
        return answer if answer is not None else card.find(key)

    pay = tool.pipe(tool.keyed(tool.calling_api(card.charge), tool.reconciling_with(find)), retry())
    assert pay("c", 5) == tool.Ok("ch_1")
    assert card.effects == 1 and answers == []


def test_without_a_retry_a_timeout_is_returned_and_nothing_is_looked_up() -> None:
    card = Card("timeout-after")
    looked: list[str] = []
    pay = tool.keyed(tool.calling_api(card.charge), tool.reconciling_with(lambda k: looked.append(k) or card.find(k)))
    result = pay("c", 5)
    assert isinstance(result, tool.Err) and isinstance(result.error, tool.Timeout)
    assert looked == []


def test_retrying_refuses_unkeyed_non_idempotent_writes_and_irreversible_ones_when_built() -> None:
    @tool.non_idempotent_write
    def charge(card: str) -> str:
        return "ch"

    @tool.irreversible
    def send_email(to: str) -> None:
        pass

    with pytest.raises(tool.ConfigError, match="non_idempotent_write without an idempotency key.*Key it"):
        tool.pipe(tool.calling_api(charge), retry())
    with pytest.raises(tool.ConfigError, match="non_idempotent_write"):  # through another stage
        tool.pipe(tool.calling_api(charge), clock.giving_up_after(tool.seconds(1)), retry())
    with pytest.raises(tool.ConfigError, match="non_idempotent_write"):  # the terse dialect too
        tool.terse.retry(times=3, sleep=no_sleep)(tool.calling_api(charge))
    with pytest.raises(tool.ConfigError, match="non_idempotent_write"):  # and an async clock
        tool.with_clock(ano_sleep).retrying(tool.up_to(2).attempts)(tool.calling_api(charge))
    for wrapped in (tool.calling_api(send_email), tool.keyed(tool.calling_api(send_email))):
        with pytest.raises(tool.ConfigError, match="irreversible.*never retried automatically.*Reconcile"):
            tool.pipe(wrapped, retry())
    keyed_charge = tool.pipe(tool.keyed(tool.calling_api(charge)), retry())
    assert keyed_charge("c") == tool.Ok("ch")
    assert tool.classification_of(keyed_charge) == "non_idempotent_write"
    # once, without a retry, is always allowed; unclassified tools keep their behaviour
    assert tool.calling_api(send_email)("a") == tool.Ok(None)
    assert tool.pipe(tool.calling_api(len), retry())("abc") == tool.Ok(3)


def test_an_idempotent_write_may_be_retried_unkeyed() -> None:
    calls = []

    @tool.idempotent_write
    def put(x: int) -> int:
        calls.append(x)
        if len(calls) < 2:
            raise tool.ToolFailure(tool.timeout(5))
        return x

    assert tool.pipe(tool.calling_api(put), retry())(4) == tool.Ok(4)
    assert calls == [4, 4]


def _ledger(tmp_path: Any, now: WallClock, **options: Any) -> tool.ledger.SQLiteLedger:
    return tool.ledger.SQLiteLedger(tmp_path / "ledger.db", now=now, **options)


def test_with_a_ledger_a_second_caller_gets_the_stored_outcome(tmp_path: Any) -> None:
    card = Card()
    ledger = _ledger(tmp_path, WallClock())
    events: list[object] = []
    pay = tool.keyed(
        tool.calling_api(card.charge), tool.recorded_in(ledger), tool.observing(events.append),
        key_from=lambda card_, cents: f"order-9:{card_}",
    )
    assert pay("c", 5) == tool.Ok("ch_1")
    assert pay("c", 5) == tool.Ok("ch_1")
    assert card.effects == 1 and events == [tool.events.Replayed("order-9:c")]


def test_a_definite_failure_is_stored_a_transient_one_is_not(tmp_path: Any) -> None:
    ledger = _ledger(tmp_path, WallClock())
    outcomes = [tool.Err(tool.unavailable("503")), tool.Ok("x"), tool.Err(tool.denied("no")), tool.Ok("y")]
    calls = []

    def write(k: str) -> tool.Result[str]:
        calls.append(k)
        return outcomes.pop(0)

    w = tool.keyed(write, tool.recorded_in(ledger), key_from=lambda k: k)
    assert w("a") == tool.Err(tool.unavailable("503"))
    assert ledger.state_of("a") is None  # released: nothing happened
    assert w("a") == tool.Ok("x")
    assert w("b") == tool.Err(tool.denied("no"))
    assert w("b") == tool.Err(tool.denied("no"))  # stored, replayed
    assert calls == ["a", "a", "b"]


def test_while_the_first_caller_runs_a_second_gets_unavailable_in_progress(tmp_path: Any) -> None:
    ledger = _ledger(tmp_path, WallClock())
    inner: list[tool.Result[Any]] = []

    def write(k: str) -> tool.Result[str]:
        inner.append(w(k))  # another worker with the same key, while this one runs
        return tool.Ok("done")

    w = tool.keyed(write, tool.recorded_in(ledger), key_from=lambda k: k)
    assert w("a") == tool.Ok("done")
    [second] = inner
    assert isinstance(second, tool.Err) and isinstance(second.error, tool.Unavailable)
    assert second.error.reason.startswith("in progress")


def test_a_takeover_without_a_lookup_is_reported_and_with_one_is_reconciled(tmp_path: Any) -> None:
    now = WallClock()
    ledger = _ledger(tmp_path, now, lease=tool.seconds(30))
    ledger.begin("k", tool.ledger.fingerprint_of(("c", 5), {}), "dead-worker")
    now.ms += 30_000
    card = Card()
    events: list[object] = []
    blind = tool.keyed(tool.calling_api(card.charge), tool.recorded_in(ledger), tool.observing(events.append),
                       key_from=lambda c, n: "k")
    assert blind("c", 5) == tool.Ok("ch_1")
    assert events == [tool.events.TakenOver("k", reconciling=False)]

    ledger.begin("k2", tool.ledger.fingerprint_of(("c", 5), {}), "dead-worker")
    card.charges["k2"] = "ch_dead"  # the dead worker's charge did go through
    now.ms += 30_000
    events.clear()
    careful = tool.keyed(tool.calling_api(card.charge), tool.recorded_in(ledger), tool.reconciling_with(card.find),
                         tool.observing(events.append), key_from=lambda c, n: "k2")
    assert careful("c", 5) == tool.Ok("ch_dead")
    assert events == [tool.events.TakenOver("k2", reconciling=True), tool.events.Reconciled("k2", True)]
    assert card.effects == 1
    assert ledger.begin("k2", tool.ledger.fingerprint_of(("c", 5), {}), "x") == tool.ledger.Done("ch_dead")


def test_a_lookup_answering_in_progress_keeps_the_key_for_reconciliation_across_callers(tmp_path: Any) -> None:
    # A dead worker's request is still in flight at the API: the lookup says "in progress" (Stripe's
    # 409), not "absent". The caller that took the key over gets that Err and runs nothing; the key
    # stays abandoned (never released, never done), so the next caller asks again instead of charging.
    now = WallClock()
    ledger = _ledger(tmp_path, now, lease=tool.seconds(30))
    fp = tool.ledger.fingerprint_of(("c", 5), {})
    ledger.begin("k", fp, "dead-worker")
    now.ms += 30_000
    card = Card()
    in_flight = {"k"}

    def find(key: str) -> tool.Result[str]:
        if key in in_flight:
            return tool.Err(tool.unavailable("a charge with this key is in progress", 409))
        return card.find(key)

    events: list[object] = []
    pay = tool.keyed(tool.calling_api(card.charge), tool.recorded_in(ledger), tool.reconciling_with(find),
                     tool.observing(events.append), key_from=lambda c, n: "k")
    first = pay("c", 5)
    assert isinstance(first, tool.Err) and isinstance(first.error, tool.Unavailable) and first.error.status == 409
    assert card.effects == 0 and ledger.state_of("k") == "in_progress"
    assert events == [tool.events.TakenOver("k", reconciling=True)]
    assert isinstance(ledger.begin("k", fp, "someone"), tool.ledger.Started)  # abandoned: anyone may take it
    now.ms += 30_000

    in_flight.clear()
    card.charges["k"] = "ch_dead"  # the in-flight request landed
    events.clear()
    assert pay("c", 5) == tool.Ok("ch_dead")
    assert card.effects == 0 and ledger.state_of("k") == "done"
    assert events == [tool.events.TakenOver("k", reconciling=True), tool.events.Reconciled("k", True)]


def test_a_long_call_extends_its_lease(tmp_path: Any) -> None:
    now = WallClock()
    ledger = _ledger(tmp_path, now, lease=tool.seconds(10))
    other: list[tool.Result[Any]] = []

    def slow(k: str) -> tool.Result[str]:
        now.ms += 8_000
        assert tool.extend_lease()
        now.ms += 8_000
        other.append(w(k))  # 16 s in: still ours thanks to the heartbeat
        return tool.Ok("x")

    w = tool.keyed(slow, tool.recorded_in(ledger), key_from=lambda k: k)
    assert w("a") == tool.Ok("x")
    assert isinstance(other[0], tool.Err) and isinstance(other[0].error, tool.Unavailable)
    assert tool.extend_lease()  # outside a keyed call: nothing to extend


def test_async_keyed_with_an_async_lookup_and_an_async_clock(tmp_path: Any) -> None:
    card = Card("timeout-after")

    async def charge(card_: str, cents: int) -> str:
        await asyncio.sleep(0)
        return card.charge(card_, cents)

    async def find(key: str) -> tool.Result[str]:
        return card.find(key)

    ledger = _ledger(tmp_path, WallClock())
    pay = tool.pipe(
        tool.keyed(tool.calling_api(charge), tool.reconciling_with(find), tool.recorded_in(ledger)),
        tool.with_clock(ano_sleep).retrying(tool.up_to(3).attempts),
    )
    assert asyncio.run(pay("c", 5)) == tool.Ok("ch_1")
    assert card.effects == 1 and len(card.keys_seen) == 1
    with pytest.raises(tool.ConfigError, match="async reconcile lookup needs an async tool"):
        tool.keyed(tool.calling_api(card.charge), tool.reconciling_with(find))


def test_a_cancelled_call_hands_its_key_over_at_once(tmp_path: Any) -> None:
    ledger = _ledger(tmp_path, WallClock())

    async def hang(k: str) -> str:
        await asyncio.sleep(10)
        return "never"

    w = tool.keyed(tool.calling_api(hang), tool.recorded_in(ledger), key_from=lambda k: k)

    async def main() -> None:
        task = asyncio.create_task(w("a"))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert ledger.begin("a", tool.ledger.fingerprint_of(("a",), {}), "next") == tool.ledger.Started(takeover=True)


KEYED_SNIPPET = '''
from smullyan import runtime as tool

@tool.non_idempotent_write
def charge(card: str, cents: int) -> str: raise NotImplementedError
async def acharge(card: str, cents: int) -> str: raise NotImplementedError

clock = tool.with_clock(lambda ms: None)
k = tool.keyed(tool.calling_api(charge), key_from=lambda card, cents: card)
reveal_type(tool.pipe(k, clock.retrying(tool.up_to(3).attempts)))
reveal_type(tool.keyed(tool.calling_api(acharge)))
k("c", "x")  # E
tool.keyed(tool.calling_api(charge), key_from=lambda order: order)  # E
'''


@pytest.mark.slow  # a mypy --strict run
def test_mypy_keeps_the_keyed_tools_signature(tmp_path: Any) -> None:
    import re
    import subprocess
    import sys

    (tmp_path / "snippet.py").write_text(KEYED_SNIPPET)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "snippet.py"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    lines = KEYED_SNIPPET.splitlines()
    errors = {int(m.group(1)) for m in re.finditer(r"snippet\.py:(\d+): error", proc.stdout)}
    assert errors == {i + 1 for i, line in enumerate(lines) if line.endswith("# E")}, proc.stdout
    notes = re.findall(r'Revealed type is "(.*)"', proc.stdout)
    assert notes[0].startswith("def (card: str, cents: int) -> smullyan.runtime._errors.Ok[str]")
    assert notes[1].startswith("def (card: str, cents: int) -> typing.Coroutine[")


def test_a_sync_keyed_tool_under_an_async_clock_keeps_one_key_across_attempts(tmp_path: Any) -> None:
    card = Card("unavailable", "timeout-after")
    ledger = _ledger(tmp_path, WallClock())
    pay = tool.pipe(
        tool.keyed(tool.calling_api(card.charge), tool.reconciling_with(card.find), tool.recorded_in(ledger)),
        tool.with_clock(ano_sleep).retrying(tool.up_to(4).attempts),
    )
    assert asyncio.run(pay("c", 5)) == tool.Ok("ch_1")
    assert card.effects == 1 and len(card.keys_seen) == 2 and len(set(card.keys_seen)) == 1
