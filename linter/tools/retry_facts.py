"""A retry of the retry model as a ``smullyan tools`` row shows it: kind, stop, wait, condition (``facts.py``)."""

from __future__ import annotations

import libcst as cst

from ...rules.retries import paths as retry_paths
from ...rules.retries import waits as retry_waits
from ...rules.retries.model import Condition, Retry, Stop, Wait
from .model import RetryFact

__all__ = ["retry_fact"]


def retry_fact(retry: Retry, helper: str | None) -> RetryFact:
    stop = retry.stop
    if isinstance(stop, Stop):
        if stop.never:
            stop_text, bounded = "never", False
        elif stop.attempts is not None:
            stop_text, bounded = f"{stop.attempts} attempts", True
        elif stop.seconds is not None:
            stop_text, bounded = f"{stop.seconds:g} s", True
        else:
            stop_text, bounded = "bounded", True
    elif retry.loop is not None and isinstance(retry.loop.node, cst.For):
        stop_text, bounded = "for loop", True  # as many attempts as the loop has items
    elif retry.loop is not None and retry_paths.bound(retry.loop) is not None:
        stop_text, bounded = "exit in loop", True
    else:
        stop_text, bounded = "unknown", None
    wait = retry.wait
    wait_text = ("none" if wait.none else "yes") if isinstance(wait, Wait) else "unknown"
    if wait_text == "unknown" and retry.loop is not None and retry.loop.handlers and all(
            retry_waits.sleeps_on_failure_path(retry.loop, h) for h in retry.loop.handlers):
        wait_text = "yes"  # a loop sleeping before each next attempt (``time.sleep(base * 2 ** attempt)``)
    cond = retry.condition
    if isinstance(cond, Condition):
        if cond.every_exception:
            cond_text = "any exception"
        elif cond.exceptions:
            cond_text = ", ".join(e.rsplit(".", 1)[-1] for e in cond.exceptions)
        elif cond.tags:
            cond_text = ", ".join(sorted(cond.tags))
        elif cond.statuses is not None:
            cond_text = "status " + ",".join(str(s) for s in sorted(cond.statuses))
        else:
            cond_text = "default"
    else:
        cond_text = "unknown"
    return RetryFact(retry.kind, stop_text, wait_text, cond_text, bounded, helper)
