"""Fakes shared by the combinator tests: scripted tools and fake clocks (no tests here)."""

from __future__ import annotations

import asyncio
from typing import Any

from smullyan import runtime as tool
from smullyan.runtime import Err, Ok, Result, ToolError

DONE = "done"


class Script:
    """A tool that returns the scripted outcomes in order, then ``Ok(DONE)`` for ever.

    An outcome is a ToolError (returned as Err) or any other value (returned as Ok).
    Each call may advance a fake clock by ``work_ms`` (the time the work "takes").
    """

    def __init__(self, outcomes: list[Any], clock: FakeClock | None = None, work_ms: int = 0) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0
        self.args: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self.clock = clock
        self.work_ms = work_ms

    def _next(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Result[Any]:
        self.args.append((args, kwargs))
        i = self.calls
        self.calls += 1
        if self.clock is not None:
            self.clock.t += self.work_ms
        outcome = self.outcomes[i] if i < len(self.outcomes) else DONE
        if isinstance(outcome, (tool.RateLimited, tool.InvalidArgs, tool.NotFound, tool.Timeout,
                                tool.Unavailable, tool.Denied, tool.Unknown)):
            return Err(outcome)
        return Ok(outcome)

    def sync(self, *args: Any, **kwargs: Any) -> Result[Any]:
        return self._next(args, kwargs)

    async def async_(self, *args: Any, **kwargs: Any) -> Result[Any]:
        await asyncio.sleep(0)  # really yield, like a real async tool
        return self._next(args, kwargs)


class FakeClock:
    """A fake clock: ``sleep`` records its argument and advances ``now`` at once."""

    def __init__(self) -> None:
        self.t = 0
        self.slept: list[int] = []

    def sleep(self, ms: int) -> None:
        self.slept.append(ms)
        self.t += ms

    async def asleep(self, ms: int) -> None:
        self.slept.append(ms)
        self.t += ms

    def now(self) -> int:
        return self.t


async def never(ms: int) -> None:
    """An async sleep that never resolves: a deadline on it never fires by itself."""
    await asyncio.Event().wait()


async def instant(ms: int) -> None:
    """An async sleep that resolves at once: right for retry, wrong for a deadline."""


def errors(result: Result[Any]) -> ToolError | None:
    return result.error if isinstance(result, Err) else None
