"""Shared pieces of the ledger tests: backends by name, a fake wall clock, effect files."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from smullyan import runtime as tool


class WallClock:
    """A settable wall clock in ms (a list cell, so it can be shared)."""

    def __init__(self, start: int = 1_000_000) -> None:
        self.ms = start

    def __call__(self) -> int:
        return self.ms


def make_ledger(backend: str, where: Any, now: Any, **options: Any) -> Any:
    """A fresh ledger: ``where`` is a directory (sqlite) or a DSN (postgres); a table of its own."""
    table = "t_" + uuid.uuid4().hex[:12]
    if backend == "sqlite":
        return tool.ledger.SQLiteLedger(Path(where) / f"{table}.db", now=now, table=table, **options)
    return tool.ledger.PostgresLedger(where, now=now, table=table, **options)


def append_effect(path: str | os.PathLike[str], line: str) -> None:
    """One atomic append (O_APPEND, one write), so concurrent processes never interleave lines."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
    finally:
        os.close(fd)


def effects(path: str | os.PathLike[str]) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except FileNotFoundError:
        return []


def shout(text: str) -> tool.Result[str]:
    """An importable tool (Proposals committed from another process find it by name)."""
    return tool.Ok(text.upper())
