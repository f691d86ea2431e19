"""One lint run: files -> (cache) -> engine, in-process or on a process pool.

- With a cache, each file is first ``stat``-ed in the main process; a file whose
  size and mtime match its cache entry is not read at all (see
  :mod:`smullyan.linter.cache`).  Everything else is linted: the worker reads the
  bytes, hashes them, and re-uses the cached findings if the hash matches.
- ``jobs == 1`` lints in this process, with no pool.  So does a run with fewer
  than :data:`POOL_MIN_FILES` files to lint: starting workers would cost more
  than it saves.  Otherwise a ``ProcessPoolExecutor`` gets the files in chunks,
  largest files first so that one big file does not finish last.
- A worker that dies (a segfault, ``os._exit``, the OOM killer) breaks the
  pool and fails every chunk still in flight.  Nothing is lost: the files of the
  failed chunks are re-run one per task on a fresh pool, and any that fail again
  are re-run each on its own single-worker pool.  Only a file that kills a
  worker on its own is reported, as ``TFH002 internal error``, and every other
  file's findings are kept.
- Findings come back sorted by (path, line, column, code), so ``-j1`` and
  ``-jN`` print the same thing in the same order.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING

from .cache import Cache, file_digest
from . import imports_disk
from .findings import Finding
from .packages import package_of
from .project_tools import Provider, current_provider, set_provider

if TYPE_CHECKING:
    from .config import Config

__all__ = [
    "POOL_MIN_FILES",
    "chunk_size",
    "ignore_sigint",
    "pool_workers",
    "FileOutcome",
    "RunResult",
    "default_jobs",
    "lint_stdin",
    "run",
    "sort_findings",
]

#: Below this many files to lint, a run stays in-process whatever ``--jobs`` says.
POOL_MIN_FILES = 8
#: Files handed to a worker at a time (at most).
MAX_CHUNK = 16


# --------------------------------------------------------------------------- the pool policy (lint and tools)


def pool_workers(jobs: int, n_files: int) -> int:
    """How many worker processes a run of ``n_files`` gets under ``--jobs`` (1: stay in-process).

    The one policy of ``smullyan lint`` and ``smullyan tools``: a pool only for
    :data:`POOL_MIN_FILES` files or more, and at least four files per worker.
    """
    if jobs <= 1 or n_files < POOL_MIN_FILES:
        return 1
    return max(1, min(jobs, n_files // 4))


def chunk_size(n_tasks: int, workers: int) -> int:
    """Files per task handed to a worker: about four tasks per worker, at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, n_tasks // (workers * 4)))


def ignore_sigint() -> None:
    """In a worker: Ctrl-C goes to the whole process group; let the main process handle it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_jobs() -> int:
    """All the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined,unused-ignore]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def sort_key(f: Finding) -> tuple[str, int, int, str, int, int, str, str]:
    return (f.path, f.line, f.column, f.code, f.end_line, f.end_column, f.name, f.message)


def sort_findings(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=sort_key)


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What linting one file produced.

    ``findings is None`` means "the bytes hash to the known sha: re-use the cache".
    ``sha is None`` means "not cacheable" (unreadable file, internal error).
    """

    display: str
    findings: list[Finding] | None
    size: int = 0
    mtime_ns: int = 0
    sha: str | None = None
    deps: tuple[tuple[str, str], ...] = ()  # project modules the findings read (``imports_disk.recording``)


@dataclass
class RunResult:
    findings: list[Finding] = field(default_factory=list)
    files_checked: int = 0
    files_from_cache: int = 0
    files_linted: int = 0
    workers: int = 0  # 0: in-process


def _internal_error(display: str, what: str) -> Finding:
    return Finding(display, 1, 1, 1, 1, "TFH002", "internal-error", f"internal error in {what}")


# --------------------------------------------------------------------------- one file


def lint_file(display: str, config: Config, known_sha: str | None = None) -> FileOutcome:
    """Lint one file on disk; never raises."""
    from . import engine

    try:
        st = os.stat(display)  # before the read: a later edit changes mtime, so re-hash next time
        with open(display, "rb") as f:
            data = f.read()
    except OSError as exc:  # reported from this one read, never read a second way
        return FileOutcome(display, engine.unreadable(display, exc, config))
    sha = file_digest(data)
    if known_sha is not None and sha == known_sha:
        return FileOutcome(display, None, st.st_size, st.st_mtime_ns, sha)
    try:
        with imports_disk.recording() as deps:
            findings = engine.lint_source(data, display, config)
    except Exception as exc:
        return FileOutcome(display, [_internal_error(display, f"engine: {type(exc).__name__}: {exc}")])  # noqa: TFH401  a TFH002 finding carries the crash text to the user by design
    return FileOutcome(display, list(findings), st.st_size, st.st_mtime_ns, sha, tuple(sorted(deps.items())))


def lint_stdin(data: bytes, display: str, config: Config) -> list[Finding]:
    """Lint source read from stdin, reported under ``display``; never raises."""
    from . import engine

    try:
        return sort_findings(engine.lint_source(data, display, config))
    except Exception as exc:
        return [_internal_error(display, f"engine: {type(exc).__name__}: {exc}")]  # noqa: TFH401  a TFH002 finding carries the crash text to the user by design


# --------------------------------------------------------------------------- the pool

_WORKER_CONFIG: Config | None = None

Task = tuple[str, "str | None"]  # (display path, known sha)


def _init_worker(config: Config, provider: Provider | None = None) -> None:
    global _WORKER_CONFIG
    _WORKER_CONFIG = config
    if provider is not None:  # a spawned worker (macOS, Windows) starts without the parent's tool-table reader
        set_provider(provider)
    ignore_sigint()


def _lint_chunk(chunk: list[Task]) -> list[FileOutcome]:
    config = _WORKER_CONFIG
    assert config is not None, "worker not initialised"
    return [lint_file(display, config, known) for display, known in chunk]


def _chunks(tasks: list[Task], workers: int) -> list[list[Task]]:
    size = chunk_size(len(tasks), workers)
    return [tasks[i : i + size] for i in range(0, len(tasks), size)]


def _run_chunks(
    chunks: list[list[Task]],
    config: Config,
    workers: int,
    mp_context: BaseContext | None,
) -> tuple[list[FileOutcome], list[list[Task]]]:
    """Run chunks on one pool; returns the outcomes and the chunks that failed."""
    outcomes: list[FileOutcome] = []
    failed: list[list[Task]] = []
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(workers, len(chunks))),
        mp_context=mp_context,
        initializer=_init_worker,
        initargs=(config, current_provider()),
    )
    try:
        futures: list[tuple[Future[list[FileOutcome]], list[Task]]] = []
        for chunk in chunks:
            try:
                futures.append((pool.submit(_lint_chunk, chunk), chunk))
            except BrokenProcessPool:
                failed.append(chunk)
        for future, chunk in futures:
            try:
                outcomes.extend(future.result())
            except Exception:  # BrokenProcessPool, or a result that could not be pickled
                failed.append(chunk)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return outcomes, failed


def _lint_pool(
    tasks: list[Task],
    config: Config,
    workers: int,
    mp_context: BaseContext | None,
) -> list[FileOutcome]:
    outcomes, failed = _run_chunks(_chunks(tasks, workers), config, workers, mp_context)
    if not failed:
        return outcomes
    # Some worker died. Re-run the files it took down with it, one per task ...
    retry = [[task] for chunk in failed for task in chunk]
    more, failed = _run_chunks(retry, config, workers, mp_context)
    outcomes.extend(more)
    # ... and whatever failed again, each alone, so an innocent file is never blamed.
    for chunk in failed:
        alone, still_failed = _run_chunks([chunk], config, 1, mp_context)
        outcomes.extend(alone)
        for lost in still_failed:
            for display, _known in lost:
                message = "worker process: it died while linting this file"
                outcomes.append(FileOutcome(display, [_internal_error(display, message)]))
    return outcomes


# --------------------------------------------------------------------------- the run


def run(
    files: Sequence[str],
    config: Config,
    *,
    jobs: int = 1,
    cache: Cache | None = None,
    mp_context: BaseContext | None = None,
    on_pool_error: Callable[[BaseException], None] | None = None,
) -> RunResult:
    """Lint ``files`` (paths as :func:`~smullyan.linter.discovery.discover` returns them)."""
    result = RunResult(files_checked=len(files))
    tasks: list[tuple[int, Task]] = []  # (size for scheduling, task)
    for display in files:
        try:
            st = os.stat(display)
        except OSError:
            tasks.append((0, (display, None)))
            continue
        known: str | None = None
        if cache is not None:
            package = package_of(display) or ""
            hit = cache.lookup_stat(display, display, st.st_size, st.st_mtime_ns, package)
            if hit is not None:
                result.findings.extend(hit)
                result.files_from_cache += 1
                continue
            entry = cache.entry(display)
            if entry is not None and entry.display == display and entry.package == package and cache.deps_current(entry):
                known = entry.sha
        tasks.append((st.st_size, (display, known)))

    ordered = [task for _size, task in sorted(tasks, key=lambda t: -t[0])]
    outcomes: list[FileOutcome] | None = None
    if jobs > 1:
        workers = pool_workers(jobs, len(ordered))
        if workers > 1:
            try:
                outcomes = _lint_pool(ordered, config, workers, mp_context)
                result.workers = workers
            except (OSError, NotImplementedError, ImportError, RuntimeError) as exc:
                # no usable multiprocessing here (a sandbox without semaphores, ...)
                if on_pool_error is not None:
                    on_pool_error(exc)
                outcomes = None
    if outcomes is None:
        outcomes = [lint_file(display, config, known) for display, known in ordered]

    for outcome in outcomes:
        findings = outcome.findings
        deps = outcome.deps
        package = (package_of(outcome.display) or "") if cache is not None else ""
        if findings is None:
            reused = (
                cache.lookup_sha(outcome.display, outcome.display, outcome.sha or "", package)
                if cache is not None
                else None
            )
            if reused is None:  # cannot happen: the sha came from this cache
                fresh = lint_file(outcome.display, config)
                reused, deps = fresh.findings or [], fresh.deps
            else:
                result.files_from_cache += 1
                entry = cache.entry(outcome.display) if cache is not None else None
                deps = entry.deps if entry is not None else ()
            findings = reused
        else:
            result.files_linted += 1
        if cache is not None and outcome.sha is not None:
            cache.record(
                outcome.display,
                outcome.display,
                outcome.size,
                outcome.mtime_ns,
                outcome.sha,
                findings,
                package=package,
                deps=deps,
            )
        result.findings.extend(findings)

    if cache is not None:
        cache.save()
    result.findings = sort_findings(result.findings)
    return result
