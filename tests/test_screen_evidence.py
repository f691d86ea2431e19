"""Session 51: the screens ask for the evidence the rules need before a file is parsed with libcst.

- TFH5xx: an ``if`` chain or a comparison of a tag expression (``e.tag``, ``d["_tag"]``, ``type(e).__name__``) with
  strings can only be read as a ToolError's when a compared string is a real tag or a near miss of one, or the file
  can name the runtime (only an import binds its names); ``type(session).__name__ == "DockerSession"`` alone is not
  a candidate.
- TFH403: a ``contextlib.suppress(...)`` is a candidate only when the ``with`` it opens may hold a compensation
  step (a call named like one in its body, or a compensation-named function), as a swallowing ``try`` already was.
- Narrowing: a ``nonlocal`` no longer keeps its definition whole (it binds in a function of that same definition).

Each "not parsed" case fails at 9fdf640 (the file was parsed); each negative case shows what stays parsed and found.
"""

from __future__ import annotations

import ast

import pytest

from smullyan.linter import engine
from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.linter.narrow import narrow
from smullyan.linter.registry import all_rules
from smullyan.linter.rule import Screen


def _lint(src: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """(the finding codes, how many times libcst parsed) for ``src`` with every rule."""
    parses: list[int] = []
    real = engine._parse_module

    def counting(text: str | bytes) -> object:
        parses.append(1)
        return real(text)

    monkeypatch.setattr(engine, "_parse_module", counting)
    findings = lint_source(src, "pkg/module.py", Config.default())
    return [f.code for f in findings], len(parses)


NOT_PARSED = {
    "class-name comparisons": """\
def check(session):
    if type(session).__name__ != "DockerSandboxSession":
        raise TypeError("wrong session")
    if session.__class__.__name__ in {"AbortError", "CancelledError"}:
        return None
    return session
""",
    "an element's tag": """\
def walk(el):
    if el.tag == "a" or el.tag in ("p", "div"):
        return 1
    elif el.tag == "span":
        return 2
    return 0
""",
    "suppress around a close": """\
import contextlib
async def call(connection, request):
    try:
        return await connection.send(request)
    except Exception:
        with contextlib.suppress(Exception):
            await connection.close()
        raise
""",
    "suppress around an unlink": """\
from contextlib import suppress
def persist(temp_path, path):
    try:
        temp_path.replace(path)
    except OSError:
        with suppress(OSError):
            temp_path.unlink()
        raise
""",
}


@pytest.mark.parametrize("name", sorted(NOT_PARSED))
def test_no_evidence_no_libcst_parse(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    codes, parses = _lint(NOT_PARSED[name], monkeypatch)
    assert codes == []
    assert parses == 0


STILL_PARSED = {
    # a near miss of a real tag, on any object
    "near miss": ("""\
def retry_after(e):
    if type(e).__name__ == "RateLimit":
        return 1
    return None
""", ["TFH504"]),
    # a chain that names a real tag reads its other strings as tags
    "real tag in the chain": ("""\
def f(e):
    if e.tag == "RateLimited":
        return "wait"
    elif e.tag == "Overloaded":
        return "retry"
""", ["TFH503", "TFH504"]),
    # the runtime imported: an annotated subject is known
    "runtime imported": ("""\
from smullyan.runtime import ToolError
def f(e: ToolError):
    return e.tag in ("Throttled", "Timeout")
""", ["TFH504"]),
    # the runtime named in a string the resolver reads (``importlib.import_module``, by keyword too)
    "runtime through import_module": ("""\
import importlib
rt = importlib.import_module(name="smullyan.runtime")
def f(e: rt.ToolError):
    return e.tag in ("Throttled", "Timeout")
""", ["TFH504"]),
    # suppress around a compensation step
    "suppress around a delete": ("""\
import contextlib
def create(client, spec):
    job = client.create_job(spec)
    try:
        client.start(job)
    except Exception:
        with contextlib.suppress(Exception):
            client.delete_job(job)
        raise
""", ["TFH403"]),
}


@pytest.mark.parametrize("name", sorted(STILL_PARSED))
def test_evidence_still_parsed_and_found(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    src, expected = STILL_PARSED[name]
    codes, parses = _lint(src, monkeypatch)
    assert parses == 1
    assert codes == expected


def test_screens_forced_open_find_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = {**NOT_PARSED, **{k: v[0] for k, v in STILL_PARSED.items()}}
    config = Config.default()
    screened = {name: lint_source(src, "pkg/module.py", config) for name, src in sources.items()}
    for rule in all_rules():
        monkeypatch.setattr(rule, "is_candidate", classmethod(lambda cls, screen, knowledge: True))
        monkeypatch.setattr(rule, "candidate_lines", classmethod(lambda cls, screen, knowledge: None))
    assert {name: lint_source(src, "pkg/module.py", config) for name, src in sources.items()} == screened


NONLOCAL = """\
def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    return bump

_cache = None
def cached():
    global _cache
    _cache = object()
    return _cache

def target():
    return 1
"""


def test_nonlocal_does_not_keep_its_definition_whole() -> None:
    tree = ast.parse(NONLOCAL)
    out = narrow(NONLOCAL, tree, {16}, Screen(tree).binders)
    assert out is not None
    lines = out.split("\n")
    # stubbed: its logical line runs on to the definition's last line by continuations (s56), the rest of it gone
    assert lines[0] == "def counter(): ...\\"
    assert lines[1:6] == ["\\"] * 5 and lines[6] == ""
    assert "nonlocal" not in "\n".join(lines[:7])
    assert "global _cache" in out  # a ``global`` still keeps its definition: it binds a module name
    assert len(lines) == len(NONLOCAL.split("\n"))
