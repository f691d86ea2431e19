"""The runtime's public names: a small front door and four public modules, each name listed once.

``smullyan.runtime`` lists what a program calls; ``smullyan.runtime.events``,
``.types``, ``.ledger`` and ``.terse`` list the rest. Every name the runtime
has ever exported at its top level (issue 25 narrowed it) has exactly one
public home, and the names the linter reads by qualified name resolve.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import types as pytypes
from collections import Counter
from collections.abc import Mapping

import pytest

from smullyan import runtime as tool
from smullyan.linter import knowledge
from smullyan.runtime import classification, events, ledger, terse, types

FRONT_DOOR = (tool, events, types, ledger, terse)

# What ``smullyan.runtime.__all__`` listed before issue 25: each must still be importable.
FORMER_TOP_LEVEL = """
TAGS Denied Err InvalidArgs NotFound Ok RateLimited Result Timeout ToolError ToolFailure Unavailable
Unknown assert_never denied dump dump_json explain from_exception from_http invalid_args is_retryable
not_found parse parse_json rate_limited timeout unavailable unknown Duration millis seconds minutes
SyncClock AsyncClock with_clock system_sleep asyncio_sleep system_now system_clock asyncio_clock
calling_api the_value pipe SyncStage AsyncStage SyncFallingBack AsyncFallingBack is_async_callable
Budget ConfigError Condition AttemptBound BudgetBound BackingOff Advice Observing RetryClause
while_transient retrying_when retrying_on_result ResultCondition Attempts Attempt up_to within
backing_off ignoring_server_advice trusting_server_advice_up_to observing DEFAULT_ADVICE_CAP
DEFAULT_SCHEDULE Schedule RandomSource exponentially_from constant DeadlineScope current_scope
falling_back_to Attempted Succeeded Failed Unsatisfied Waiting GaveUp GiveUpReason TimedOut Abandoned
FellBack Event Observer retry exponential fixed deadline fallback CLASSIFICATIONS Classification
classification_of idempotent_write irreversible non_idempotent_write read_safe CircuitBreaker
breaking_after circuit_breaker IDEMPOTENCY_HEADER MAX_KEY_LENGTH KeyedClause Reconciling Recording
current_key extend_lease idempotency_headers keyed reconciling_with recorded_in DEFAULT_LEASE
DEFAULT_TTL JSON_CODEC SCHEMA Begin Codec Done FailedEarlier InProgress Ledger Mismatch SQLiteLedger
Started fingerprint_of wall_now PostgresLedger Proposal Proposals Saga SagaOutcome Step saga step
CircuitChanged CircuitState LeaseLost Reconciled Replayed TakenOver WriteEvent
""".split()
ADDED_SINCE = ["wall_sleep"]  # public names added after issue 25 (issue 20: the ledger's heartbeat waits with it)


@pytest.mark.parametrize("module", FRONT_DOOR, ids=lambda m: m.__name__)
def test_every_listed_name_exists_once_and_is_public(module: pytypes.ModuleType) -> None:
    assert module.__all__, module.__name__
    repeated = [name for name, n in Counter(module.__all__).items() if n > 1]
    assert not repeated, f"{module.__name__}.__all__ lists {repeated} more than once"
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing, f"{module.__name__}.__all__ lists {missing}, which it does not define"
    assert not [name for name in module.__all__ if name.startswith("_")]
    assert not [name for name in module.__all__ if isinstance(getattr(module, name), pytypes.ModuleType)]


@pytest.mark.parametrize("module", FRONT_DOOR, ids=lambda m: m.__name__)
def test_nothing_public_is_left_unlisted(module: pytypes.ModuleType) -> None:
    """A public attribute not in ``__all__`` is a submodule: no name is reachable but unlisted."""
    unlisted = [
        name for name, value in vars(module).items()
        if not name.startswith("_") and name not in module.__all__ and not isinstance(value, pytypes.ModuleType)
    ]
    assert not unlisted, f"{module.__name__} has public names outside __all__: {unlisted}"


def test_the_modules_lists_are_disjoint() -> None:
    seen: dict[str, str] = {}
    for module in FRONT_DOOR:
        for name in module.__all__:
            assert name not in seen, f"{name} is listed by {seen[name]} and {module.__name__}"
            seen[name] = module.__name__


def test_the_front_door_is_small() -> None:
    assert len(tool.__all__) <= 69  # twelve groups of a few names each; 147 names before issue 25, then 74
    assert {"retry", "Event", "SQLiteLedger", "SyncStage", "Budget", "circuit_breaker", "Classification"}.isdisjoint(
        tool.__all__
    )


def test_every_former_top_level_name_has_one_public_home() -> None:
    homes = {name: [m.__name__ for m in FRONT_DOOR if name in m.__all__] for name in FORMER_TOP_LEVEL}
    assert {name: where for name, where in homes.items() if len(where) != 1} == {}
    assert sorted(name for m in FRONT_DOOR for name in m.__all__) == sorted(FORMER_TOP_LEVEL + ADDED_SINCE)


@pytest.mark.parametrize(
    ("module", "names"),
    [
        ("smullyan.runtime.events", ["Attempted", "GaveUp", "TakenOver", "CircuitChanged", "Event", "Observer"]),
        ("smullyan.runtime.types", ["SyncStage", "RetryClause", "Budget", "Attempts", "Saga", "CircuitBreaker"]),
        ("smullyan.runtime.types", ["is_async_callable", "current_scope", "Classification", "CLASSIFICATIONS"]),
        ("smullyan.runtime.ledger", ["Ledger", "SQLiteLedger", "PostgresLedger", "Started", "wall_now"]),
        ("smullyan.runtime.terse", ["retry", "exponential", "fixed", "deadline", "fallback", "circuit_breaker"]),
    ],
)
def test_moved_names_are_the_same_objects_in_their_new_home(module: str, names: list[str]) -> None:
    home = importlib.import_module(module)
    short = module.rsplit(".", 1)[-1]
    for name in names:
        assert getattr(getattr(tool, short), name) is getattr(home, name)
        assert not hasattr(tool, name), f"smullyan.runtime.{name} should have left the top level"


def test_classification_keeps_its_public_module() -> None:
    """Its decorators and ``classification_of`` are on the front door, its two types in ``types``."""
    for name in classification.__all__:
        assert getattr(classification, name) is getattr(tool if name in tool.__all__ else types, name)
    assert {"Classification", "CLASSIFICATIONS"} <= set(types.__all__)


def test_importing_the_front_door_imports_no_framework() -> None:
    code = (
        "import sys; import smullyan.runtime, smullyan.runtime.ledger, smullyan.runtime.types; "
        "print(sorted(m for m in ('psycopg', 'httpx', 'requests', 'libcst') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _runtime_names(value: object) -> set[str]:
    if isinstance(value, str):
        return {value} if value.startswith("smullyan.runtime.") else set()
    if isinstance(value, Mapping):
        return {n for k in value for n in _runtime_names(k)}
    if isinstance(value, (frozenset, set, tuple, list)):
        return {n for v in value for n in _runtime_names(v)}
    return set()


def _resolves(qualified: str) -> bool:
    parts = qualified.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_the_runtime_names_the_linter_reads_resolve() -> None:
    """The linter's tables name runtime objects by public qualified name; each must exist."""
    names = {
        n for value in vars(knowledge).values() for n in _runtime_names(value)
        if not any(part.startswith("_") for part in n.split("."))
    }
    assert "smullyan.runtime.non_idempotent_write" in names and "smullyan.runtime.terse.retry" in names
    assert sorted(n for n in names if not _resolves(n)) == []
