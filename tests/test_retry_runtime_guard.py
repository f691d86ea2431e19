"""TFH101 sees the runtime's write guard (issue 21 item 4): the linter and the runtime read the same source.

Each case is a small module using smullyan.runtime's own retry forms over a
classified tool. The module is run (the runtime's build-time refusal, or the
block form's refusal when the marked write raises, is a ``ConfigError``) and
linted with TFH101. Where the runtime refuses, TFH101 reports; where it lets the
code through and the write is still repeated (``slips``), TFH101 reports too;
where the runtime allows the retry (a keyed write, a read), TFH101 is silent.
"""

from __future__ import annotations

import dataclasses
import textwrap

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source
from smullyan.runtime import ConfigError

HEAD = """\
import functools
import smullyan.runtime as sr
from smullyan import runtime as tool
from smullyan.runtime import non_idempotent_write as niw, irreversible, keyed, calling_api, pipe as chain
from tenacity import retry, stop_after_attempt

clock = tool.with_clock(lambda ms: None)

@niw
def charge(card, cents):
    raise TimeoutError("no answer")

@irreversible
def wire(account):
    raise TimeoutError("no answer")

@sr.read_safe
def look(q):
    raise TimeoutError("no answer")

class Payments:
    @niw
    @staticmethod
    def take(card):
        raise TimeoutError("no answer")

    @sr.non_idempotent_write
    @classmethod
    def hold(cls, card):
        raise TimeoutError("no answer")

    @niw
    def __call__(self, card):
        raise TimeoutError("no answer")

class Catalogue:
    @sr.read_safe
    def __call__(self, q):
        raise TimeoutError("no answer")

def logged(fn):
    def inner(*args):
        return fn(*args)
    return inner

"""

# (id, the statements that build (and, for the block form, run) the retry, what the runtime does)
CASES = [
    ("pipe", "s = chain(calling_api(charge), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("applied-stage", "s = clock.retrying(sr.while_transient, sr.up_to(3).attempts)(calling_api(charge))", "refuses"),
    ("held-stage", "stage = clock.retrying(tool.up_to(3).attempts)\ns = chain(calling_api(charge), stage)", "refuses"),
    ("irreversible-keyed", "s = chain(keyed(calling_api(wire)), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("staticmethod-mark", "s = chain(calling_api(Payments.take), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("classmethod-mark", "s = chain(calling_api(Payments.hold), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("marked-call", "p = Payments()\ns = clock.retrying(tool.up_to(3).attempts)(calling_api(p))", "refuses"),
    ("marked-call-inline", "s = chain(calling_api(Payments()), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("lambda", "s = chain(calling_api(lambda: charge('c', 1)), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("no-wraps", "s = chain(calling_api(logged(charge)), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    ("no-wraps-held", "w = logged(charge)\ns = chain(calling_api(w), clock.retrying(tool.up_to(3).attempts))", "refuses"),
    (
        "decorator",
        "@clock.retrying(tool.up_to(3).attempts)\ndef pay(card):\n    return charge(card, 1)",
        "refuses",
    ),
    (
        "block",
        "def settle():\n    for attempt in clock.attempts(tool.up_to(3).attempts):\n"
        "        with attempt:\n            charge('c', 1)\nsettle()",
        "refuses",
    ),
    (
        "block-held",
        "def settle():\n    attempts = clock.attempts(tool.up_to(3).attempts, tool.while_transient)\n"
        "    for attempt in attempts:\n        with attempt:\n            wire('a')\nsettle()",
        "refuses",
    ),
    # the runtime lets these through, and the write is repeated: the linter's to say
    (
        "mark-above-stage",
        "@niw\n@clock.retrying(tool.up_to(3).attempts)\ndef refund(card):\n    raise TimeoutError('x')",
        "slips",
    ),
    (
        "keyed-fresh-key",
        "fresh = keyed(calling_api(charge))\n@retry(stop=stop_after_attempt(3))\ndef checkout(card):\n"
        "    return fresh(card, 1)",
        "slips",
    ),
    # allowed by the runtime, and safe
    ("keyed", "s = chain(keyed(calling_api(charge)), clock.retrying(tool.up_to(3).attempts))", "allows"),
    ("keyed-held", "k = keyed(calling_api(charge))\ns = chain(k, clock.retrying(tool.up_to(3).attempts))", "allows"),
    (
        "keyed-key-from",
        "same = keyed(calling_api(charge), key_from=lambda card, cents: card)\n"
        "@retry(stop=stop_after_attempt(3))\ndef checkout(card):\n    return same(card, 1)",
        "allows",
    ),
    ("read", "s = chain(calling_api(look), clock.retrying(tool.up_to(3).attempts))", "allows"),
    ("read-call", "s = clock.retrying(tool.up_to(3).attempts)(calling_api(Catalogue()))", "allows"),
    ("read-lambda", "s = chain(calling_api(lambda: look('q')), clock.retrying(tool.up_to(3).attempts))", "allows"),
    (
        "block-read",
        "def poll():\n    for attempt in clock.attempts(tool.up_to(3).attempts):\n"
        "        with attempt:\n            look('q')\npoll()",
        "allows",
    ),
]


def _run(src: str) -> bool:
    """Whether the runtime refuses (a ConfigError while building or running the module)."""
    try:
        exec(compile(src, "case.py", "exec"), {"__name__": "case"})
    except ConfigError:
        return True
    return False


def _reported(src: str) -> list[int]:
    cfg = dataclasses.replace(Config.default()).only("TFH101")
    return [f.line for f in lint_source(src, "case.py", cfg) if f.code == "TFH101"]


@pytest.mark.parametrize(("body", "runtime"), [pytest.param(b, r, id=i) for i, b, r in CASES])
def test_tfh101_reports_what_the_runtime_refuses_or_misses(body: str, runtime: str) -> None:
    src = HEAD + textwrap.dedent(body) + "\n"
    refused = _run(src)
    assert refused == (runtime == "refuses"), f"the runtime {'refused' if refused else 'allowed'} it"
    lines = _reported(src)
    head_lines = HEAD.count("\n")
    if runtime == "allows":
        assert lines == [], lines
    else:
        assert len(lines) == 1 and lines[0] > head_lines, lines  # one finding, on the case's retry


def test_names_are_resolved_through_the_imports_not_read_as_text() -> None:
    # a module's own `retrying`/`attempts`/`keyed` that are not the runtime's are nothing to TFH101
    src = textwrap.dedent(
        """\
        from smullyan.runtime import non_idempotent_write

        @non_idempotent_write
        def charge(card):
            ...

        class Clock:
            def retrying(self, *clauses):
                return lambda f: f
            def attempts(self, *clauses):
                return [None]

        def keyed(tool):
            return tool

        clock = Clock()
        def pipe(*stages):
            return stages[0]

        s = pipe(charge, clock.retrying(3))
        t = clock.retrying(3)(keyed(charge))
        for attempt in clock.attempts(3):
            charge("c")
        """
    )
    assert _reported(src) == []
    # with the runtime's clauses, `clock.retrying(...)` is its retry whatever the clock is called: over
    # charge under the module's own `keyed` (not the runtime's: no key) it is reported; the module's own
    # `pipe` gives it no tool
    runtime = src.replace("import non_idempotent_write", "import non_idempotent_write, up_to")
    runtime = runtime.replace("clock.retrying(3)", "clock.retrying(up_to(3).attempts)")
    lines = runtime.splitlines()
    assert _reported(runtime) == [lines.index("t = clock.retrying(up_to(3).attempts)(keyed(charge))") + 1]
