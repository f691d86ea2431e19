"""The terse dialect: keyword-argument spellings of the readable combinators.

Each function only renames: it builds the very clauses of the readable
dialect and returns what the readable call returns, so both dialects behave
identically (``tests/test_combinators_properties.py`` checks it)::

    from smullyan import runtime as tool
    from smullyan.runtime import terse

    terse.retry(times=4, backoff=terse.exponential(100), sleep=sleep, retry_on=tool.is_retryable)
    # is
    tool.with_clock(sleep).retrying(
        tool.retrying_when(tool.is_retryable),
        tool.up_to(4).attempts,
        tool.backing_off(tool.exponentially_from(tool.millis(100))),
    )
    terse.circuit_breaker(failures=5, within_ms=30_000, cool_down_ms=60_000, now=now)
    # is
    tool.breaking_after(5).failures(within=tool.seconds(30)).for_(tool.seconds(60), now=now)

Numbers named ``*_ms`` (and the arguments of :func:`exponential`,
:func:`fixed` and :func:`deadline`) are milliseconds.
"""

from ._breaker import circuit_breaker
from ._terse import deadline, exponential, fallback, fixed, retry

__all__ = ["retry", "exponential", "fixed", "deadline", "fallback", "circuit_breaker"]
