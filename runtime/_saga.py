"""Sagas: run steps in order; when one fails, undo the completed ones in reverse.

::

    outcome = tool.saga(
        tool.step(lambda: charge(card, 500), compensate=lambda charge_id: refund(charge_id)),
        tool.step(lambda: reserve(sku), compensate=lambda hold: release(hold)),
        tool.step(lambda: ship(order)),
    ).run()              # or: await ....arun() when a step is async
    if not outcome.ok: ...

An action is a tool call of no arguments returning ``Ok``/``Err`` (an
exception becomes ``Err`` through ``from_exception``); a compensation takes
the action's ``Ok`` value. On the first ``Err``, every completed step's
compensation runs, last completed first, each exactly once; a compensation
that fails (``Err`` or an exception) is recorded in the outcome and the
others still run. Nothing is swallowed: :class:`SagaOutcome` says which steps
completed, which failed, and which compensations succeeded and failed.

The failed step itself is not compensated (it did not complete). If its
failure is ambiguous (a ``Timeout``), make it a keyed, reconciled tool so the
saga sees what really happened.

:class:`Proposals` is a propose / commit helper: ``propose(tool, *args)``
describes an effect and returns a token without running it; ``commit(token)``
runs it at most once per token (on a ledger when one is given, so a second
commit, from any worker, returns the first outcome).
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Generic, TypeVar, overload

from ._keys import keyed, recorded_in
from ._ledger import Ledger
from ._errors import Err, Ok, Result, ToolError, is_retryable, not_found, unavailable
from ._tools import is_async_callable

__all__ = ["Step", "step", "Saga", "saga", "SagaOutcome", "Proposal", "Proposals"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Step(Generic[T]):
    """One step: an action and, optionally, how to undo it (``T`` is the action's Ok value)."""

    name: str
    action: Callable[[], Any]
    compensate: Callable[[Any], Any] | None


@overload
def step(
    action: Callable[[], Awaitable[Result[T]]],
    compensate: Callable[[T], Any] | None = None,
    *,
    name: str | None = None,
) -> Step[T]: ...
@overload
def step(
    action: Callable[[], Result[T]], compensate: Callable[[T], Any] | None = None, *, name: str | None = None
) -> Step[T]: ...
def step(
    action: Callable[[], Any], compensate: Callable[[Any], Any] | None = None, *, name: str | None = None
) -> Step[Any]:
    """A saga step: ``action()`` returns a Result; ``compensate(value)`` undoes it (None: nothing to undo).

    The step's name (in the outcome) is ``name``, else the action's qualified
    name, else (a lambda) ``"step N"`` by its place in the saga.
    """
    if not callable(action):
        raise TypeError(f"step() takes an action (a function of no arguments), got {action!r}")
    if compensate is not None and not callable(compensate):
        raise TypeError(f"step(compensate=...) takes a function of the action's value, got {compensate!r}")
    if name is None:
        qualname = str(getattr(action, "__qualname__", ""))
        name = "" if "<lambda>" in qualname else qualname  # a lambda is named by its place in the saga
    return Step(name, action, compensate)


@dataclass(frozen=True, slots=True)
class SagaOutcome:
    """What a saga did.

    ``completed``: steps whose action returned Ok, in order. ``failed`` /
    ``error``: the step that failed and its error (None when all completed).
    ``compensated``: compensations that succeeded, in the order they ran
    (reverse of ``completed``). ``compensation_errors``: the ones that failed.
    ``values``: each completed step's Ok value by name.
    """

    completed: tuple[str, ...]
    failed: str | None = None
    error: ToolError | None = None
    compensated: tuple[str, ...] = ()
    compensation_errors: tuple[tuple[str, ToolError], ...] = ()
    values: dict[str, Any] = field(default_factory=dict)

    def value_of(self, which: Step[T]) -> T | None:
        """The Ok value of the step ``which`` (typed from its action), or None when it did not complete.

        The step must have a name of its own (``name=``, or a named function):
        a lambda's step is named only by its place in the saga.
        """
        if not isinstance(which, Step):
            raise TypeError(f"value_of() takes a step(...), got {which!r}")
        if not which.name:
            raise ValueError("value_of() needs a named step: give the lambda's step name=...")
        return self.values.get(which.name)

    @property
    def ok(self) -> bool:
        """True when every step completed."""
        return self.failed is None

    @property
    def fully_compensated(self) -> bool:
        """True when the saga failed and every compensation succeeded (nothing is left half-done)."""
        return self.failed is not None and not self.compensation_errors


def _as_result(value: object, where: str) -> Result[Any]:
    if isinstance(value, (Ok, Err)):
        return value
    raise TypeError(f"{where} must return Ok or Err, got {value!r}")


def _from_exception(exc: Exception) -> Err[ToolError]:
    from ._mapping import from_exception

    return Err(from_exception(exc))


class Saga:
    """Steps run in order with compensations in reverse; :meth:`run` (sync) or :meth:`arun` (async)."""

    __slots__ = ("steps",)

    def __init__(self, steps: tuple[Step[Any], ...]) -> None:
        for s in steps:
            if not isinstance(s, Step):
                raise TypeError(f"saga() takes step(...) values, got {s!r}")
        steps = tuple(s if s.name else Step(f"step {i + 1}", s.action, s.compensate) for i, s in enumerate(steps))
        names = [s.name for s in steps]
        if len(set(names)) != len(names):
            raise ValueError(f"saga() step names must differ (give name=...), got {names}")
        self.steps = steps

    def run(self) -> SagaOutcome:
        """Run a saga whose actions and compensations are all sync."""
        for s in self.steps:
            for fn in (s.action, s.compensate):
                if fn is not None and is_async_callable(fn):
                    raise TypeError(f"saga step {s.name!r} is async: use `await saga(...).arun()`")
        done: list[tuple[Step[Any], Any]] = []
        for s in self.steps:
            try:
                result = _as_result(s.action(), f"saga step {s.name!r}")
            except TypeError:
                raise
            except Exception as exc:
                result = _from_exception(exc)
            if isinstance(result, Err):
                return self._undo(done, s, result.error, None)
            done.append((s, result.value))
        return SagaOutcome(tuple(s.name for s, _ in done), values={s.name: v for s, v in done})

    def _undo(self, done: list[tuple[Step[Any], Any]], failed: Step[Any], error: ToolError, _: None) -> SagaOutcome:
        compensated: list[str] = []
        errors: list[tuple[str, ToolError]] = []
        for s, value in reversed(done):
            if s.compensate is None:
                continue
            try:
                result = _as_result(s.compensate(value), f"the compensation of {s.name!r}")
            except Exception as exc:
                result = _from_exception(exc)
            self._note(s, result, compensated, errors)
        return self._outcome(done, failed, error, compensated, errors)

    @staticmethod
    def _note(s: Step[Any], result: Result[Any], compensated: list[str], errors: list[tuple[str, ToolError]]) -> None:
        if isinstance(result, Ok):
            compensated.append(s.name)
        else:
            errors.append((s.name, result.error))

    @staticmethod
    def _outcome(
        done: list[tuple[Step[Any], Any]], failed: Step[Any], error: ToolError,
        compensated: list[str], errors: list[tuple[str, ToolError]],
    ) -> SagaOutcome:
        return SagaOutcome(
            tuple(s.name for s, _ in done), failed.name, error, tuple(compensated), tuple(errors),
            {s.name: v for s, v in done},
        )

    async def arun(self) -> SagaOutcome:
        """Run the saga, awaiting async actions and compensations (sync ones are called)."""
        done: list[tuple[Step[Any], Any]] = []
        for s in self.steps:
            try:
                value = s.action()
                if is_async_callable(s.action):
                    value = await value
                result = _as_result(value, f"saga step {s.name!r}")
            except TypeError:
                raise
            except Exception as exc:
                result = _from_exception(exc)
            if isinstance(result, Err):
                compensated: list[str] = []
                errors: list[tuple[str, ToolError]] = []
                for d, v in reversed(done):
                    if d.compensate is None:
                        continue
                    try:
                        undone = d.compensate(v)
                        if is_async_callable(d.compensate):
                            undone = await undone
                        back = _as_result(undone, f"the compensation of {d.name!r}")
                    except Exception as exc:
                        back = _from_exception(exc)
                    self._note(d, back, compensated, errors)
                return self._outcome(done, s, result.error, compensated, errors)
            done.append((s, result.value))
        return SagaOutcome(tuple(s.name for s, _ in done), values={s.name: v for s, v in done})

    def __repr__(self) -> str:
        return f"saga({', '.join(s.name for s in self.steps)})"


def saga(*steps: Step[Any]) -> Saga:
    """A saga of ``steps``; run it with ``.run()`` or ``await .arun()``."""
    return Saga(steps)


# ---------------------------------------------------------------- propose / commit


@dataclass(frozen=True, slots=True)
class Proposal(Generic[T]):
    """A proposed effect: ``token`` commits it; ``summary`` describes it (for a person or a model)."""

    token: str
    summary: str


class Proposals:
    """``propose(tool, *args, **kwargs)`` now, ``commit(token)`` later, at most once per token.

    ``tool`` is a sync Result-returning tool. With a ``ledger``, ``commit`` is a
    keyed call whose key is the token, recorded in the ledger; without one,
    outcomes are remembered in this object. Either way a second commit returns
    the first outcome (a transient failure, where nothing happened, can be
    committed again).
    """

    def __init__(self, ledger: Ledger | None = None) -> None:
        self.ledger = ledger
        self._pending: dict[str, tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = {}
        self._outcomes: dict[str, Result[Any] | None] = {}
        self._lock = threading.Lock()

    def propose(self, tool: Callable[..., Result[T]], *args: Any, **kwargs: Any) -> Proposal[T]:
        """Describe the call ``tool(*args, **kwargs)`` and return its token; nothing runs yet."""
        if not callable(tool) or is_async_callable(tool):
            raise TypeError(f"propose() takes a sync tool, got {tool!r}")
        token = str(uuid.uuid4())
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        with self._lock:
            self._pending[token] = (tool, args, kwargs)
        return Proposal(token, f"{getattr(tool, '__qualname__', tool)}({shown})")

    def cancel(self, token: str) -> bool:
        """Drop a proposal that was not committed; False when unknown or already committed."""
        with self._lock:
            if token in self._outcomes:
                return False
            return self._pending.pop(token, None) is not None

    @overload
    def commit(self, token: Proposal[T]) -> Result[T]: ...
    @overload
    def commit(self, token: str) -> Result[Any]: ...
    def commit(self, token: Proposal[Any] | str) -> Result[Any]:
        """Run the proposal (or its ``token``) once; later commits of it return the same outcome.

        Given the :class:`Proposal` itself, the result is typed as the proposed tool's.
        """
        if isinstance(token, Proposal):
            token = token.token
        with self._lock:
            if token in self._outcomes:
                known = self._outcomes[token]
                if known is None:
                    return Err(unavailable(f"in progress: proposal {token!r} is being committed"))
                return known
            pending = self._pending.get(token)
            if pending is None:
                return Err(not_found(f"proposal {token!r}"))
            self._outcomes[token] = None
        tool, args, kwargs = pending
        run: Callable[..., Any] = tool
        if self.ledger is not None:
            run = keyed(tool, recorded_in(self.ledger), key_from=lambda *a, **k: token)
        result = _as_result(run(*args, **kwargs), f"the proposal {token!r}")
        with self._lock:
            if isinstance(result, Err) and is_retryable(result.error):
                del self._outcomes[token]  # nothing happened: the proposal can be committed again
            else:
                self._outcomes[token] = result
                self._pending.pop(token, None)
        return result
