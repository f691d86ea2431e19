"""Robustness: lint the whole standard library of the running Python.

Every ``.py`` under ``sysconfig.get_paths()["stdlib"]`` (site-packages excluded;
Lib/test included) is linted with :func:`lint_path` and every rule enabled
(``Config.default()``). A file that ``ast.parse`` accepts must give no TFH001
(could not parse) and no TFH002 (internal error); a file that ``ast.parse``
rejects (lib2to3's Python 2 test data, the tokenizer's bad-syntax samples)
must still lint without raising and be reported as TFH001.

The files are spread over a process pool so that the run stays within a couple
of minutes on two cores.
"""

from __future__ import annotations

import ast
import os
import sysconfig
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_path

PARSE_ERROR = "TFH001"
INTERNAL_ERROR = "TFH002"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
TOPICS = STDLIB / "pydoc_data" / "topics.py"

# (path, ast accepts it, offending findings rendered as text)
Outcome = tuple[str, bool, list[str]]


def stdlib_files() -> list[Path]:
    """Every .py file of the running Python's standard library, site-packages excluded."""
    files: list[Path] = []
    for root, dirs, names in os.walk(STDLIB):
        dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "dist-packages", "__pycache__"))
        files.extend(Path(root) / n for n in sorted(names) if n.endswith(".py"))
    return files


def _ast_accepts(data: bytes, path: str) -> bool:
    """Whether ``ast.parse`` accepts the file (asked of compile() first: cheaper, same parser)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences and the like
        try:
            compile(data, path, "exec", dont_inherit=True)
            return True
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass  # compile() also rejects what only the compiler checks: ask ast itself
        try:
            ast.parse(data, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def _check_chunk(paths: list[str]) -> list[Outcome]:
    config = Config.default()
    outcomes: list[Outcome] = []
    for path in paths:
        try:
            findings = lint_path(Path(path), config)
        except BaseException as exc:  # noqa: BLE001 - the engine must never raise
            accepted = _ast_accepts(Path(path).read_bytes(), path)
            outcomes.append((path, accepted, [f"lint_path raised {type(exc).__name__}: {exc}"]))
            continue
        accepted = _ast_accepts(Path(path).read_bytes(), path)
        if accepted:
            bad = [
                f"{f.code} {f.line}:{f.column} {f.message}"
                for f in findings
                if f.code in (PARSE_ERROR, INTERNAL_ERROR)
            ]
        else:
            codes = {f.code for f in findings}
            bad = [] if PARSE_ERROR in codes else ["no TFH001 for a file ast rejects"]
        outcomes.append((path, accepted, bad))
    return outcomes


def test_corpus_is_the_whole_stdlib() -> None:
    files = stdlib_files()
    names = {p.relative_to(STDLIB).as_posix() for p in files}
    # the corpus really is the whole library, tests and huge literals included
    assert len(files) > 1000
    assert {"os.py", "pydoc_data/topics.py", "asyncio/tasks.py", "test/test_grammar.py"} <= names
    assert not any("site-packages" in n for n in names)


def test_every_stdlib_file_lints_without_parse_or_internal_errors() -> None:
    files = [str(p) for p in stdlib_files()]
    workers = max(1, min(4, os.cpu_count() or 1))
    # many small chunks, largest files first, so that both workers finish together
    files.sort(key=lambda p: os.path.getsize(p), reverse=True)
    chunks = [files[i::64] for i in range(64)]
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for chunk_outcomes in pool.map(_check_chunk, chunks):
            outcomes.extend(chunk_outcomes)

    assert len(outcomes) == len(files)
    accepted = [o for o in outcomes if o[1]]
    rejected = [o for o in outcomes if not o[1]]
    # nearly all of the stdlib parses; the rejected ones are known test data
    assert len(accepted) > 0.99 * len(files)
    failures = [f"{path}: {'; '.join(bad)}" for path, _, bad in outcomes if bad]
    assert not failures, f"{len(failures)} stdlib files misbehaved:\n" + "\n".join(failures[:50])
    assert all(o[2] == [] for o in rejected)


@pytest.mark.skipif(not TOPICS.exists(), reason="this Python ships no pydoc_data/topics.py")
def test_pydoc_topics_lints_cleanly() -> None:
    """One huge literal (fixit dies on it with RecursionError): no finding at all."""
    findings = lint_path(TOPICS, Config.default())
    assert findings == []


def test_pydoc_topics_through_libcst_path_lints_cleanly(tmp_path: Path) -> None:
    """The same huge literal, next to a call that forces the libcst parse and the rules to run."""
    if not TOPICS.exists():
        pytest.skip("this Python ships no pydoc_data/topics.py")
    source = TOPICS.read_bytes() + b"\nimport requests\nrequests.get(URL)\n"
    target = tmp_path / "topics_plus.py"
    target.write_bytes(source)
    findings = lint_path(target, Config.default())
    assert [f.code for f in findings if f.code in (PARSE_ERROR, INTERNAL_ERROR)] == []
    # the trailing call has no timeout: the rules really ran on this file
    assert "TFH201" in {f.code for f in findings}
