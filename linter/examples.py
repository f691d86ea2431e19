"""Checking a rule's ``VALID`` / ``INVALID`` examples (the tests, and ``docs/writing-rules.md``, use this).

An example is Python source; it may be indented (it is dedented first). In an
``INVALID`` example, a line that ends with a marker expects findings there::

    requests.get(url)  # error: TFH201
    requests.get(url)  # error: TFH201:1
    requests.get(url)  # error: TFH201 "has no timeout"
    f(requests.get(a), requests.get(b))  # error: TFH201:3, TFH201:19 "requests.get"

Each item is a code, optionally ``:column`` (1-based, as reported) and a
quoted fragment the message must contain; several items are comma-separated.
The line's findings of the rule must be exactly the items (as a multiset), and
no unmarked line may hold one. A ``VALID`` example must produce no finding.

When an expected finding is missing, the example is linted again with the
rule's screen forced open and no narrowing; if the finding then appears, the
problem says so (``line 7 was not among TFH201's candidate lines [3, 5]``)
rather than leaving a bare difference to decode.
"""

from __future__ import annotations

import ast
import os
import re
import tempfile
import textwrap
from dataclasses import dataclass
from typing import Sequence

from .config import Config
from .findings import Finding
from .rule import Rule, Screen

#: where an example is linted "from": a file in no package, so no reading of a project on disk sees anything
EXAMPLE_PATH = os.path.join(tempfile.gettempdir(), "smullyan-examples", "example.py")

_ITEM = r"""[A-Z]+[0-9]+(?::[0-9]+)?(?:\s+(?:"[^"]*"|'[^']*'))?"""
MARKER = re.compile(rf"#\s*error:\s*(?P<items>{_ITEM}(?:\s*,\s*{_ITEM})*)\s*$")
_ITEM_PARTS = re.compile(r"""(?P<code>[A-Z]+[0-9]+)(?::(?P<column>[0-9]+))?(?:\s+(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'))?""")
PSEUDO = ("TFH001", "TFH002")


@dataclass(frozen=True)
class Expected:
    """One marker item: a finding of ``code`` on ``line`` (at ``column``, with ``fragment`` in its message)."""

    line: int
    code: str
    column: int | None = None
    fragment: str | None = None

    def matches(self, finding: Finding) -> bool:
        return (
            finding.line == self.line
            and finding.code == self.code
            and (self.column is None or finding.column == self.column)
            and (self.fragment is None or self.fragment in finding.message)
        )

    def __str__(self) -> str:
        col = f":{self.column}" if self.column is not None else ""
        frag = f' "{self.fragment}"' if self.fragment is not None else ""
        return f"line {self.line}: {self.code}{col}{frag}"


def expected_findings(src: str) -> list[Expected]:
    """The marker items of an example, in line order (the source as given: dedent it first)."""
    out: list[Expected] = []
    for n, line in enumerate(src.splitlines(), 1):
        m = MARKER.search(line)
        if m is None:
            continue
        for item in _ITEM_PARTS.finditer(m.group("items")):
            column = item.group("column")
            fragment = item.group("dq") if item.group("dq") is not None else item.group("sq")
            out.append(Expected(n, item.group("code"), int(column) if column else None, fragment))
    return out


def _show(f: Finding) -> str:
    return f"line {f.line}: {f.code}:{f.column} {f.message!r}"


def _unscreened(rule: type[Rule]) -> type[Rule]:
    """The same rule with its screen forced open (every file, every definition parsed)."""
    return type(
        rule.__name__,
        (rule,),
        {
            "candidate_lines": classmethod(lambda cls, screen, knowledge: None),
            "is_candidate": classmethod(lambda cls, screen, knowledge: True),
            "__module__": rule.__module__,
        },
    )


def _why_hidden(rule: type[Rule], src: str, config: Config, missing: Sequence[Expected]) -> list[str]:
    """For expected findings that appear only with the screen open: which screen answer hid them."""
    from .engine import lint_source

    found = lint_source(src, EXAMPLE_PATH, config, rules=[_unscreened(rule)])
    hidden = [e for e in missing if any(e.matches(f) for f in found)]
    if not hidden:
        return []
    try:
        screen = Screen(ast.parse(src))
    except SyntaxError:
        return []
    knowledge = config.knowledge()
    lines = rule.candidate_lines(screen, knowledge)
    out = []
    for e in hidden:
        if lines is None:
            out.append(
                f"line {e.line}: {e.code} is found only with the screen open: "
                f"{rule.__name__}.is_candidate said this file cannot hold a finding"
            )
        elif e.line not in lines:
            shown = sorted(set(lines))
            out.append(
                f"line {e.line} was not among {rule.code}'s candidate lines {shown}: "
                "the screen (candidate_lines) hid the finding"
            )
        else:
            out.append(
                f"line {e.line}: {e.code} is found only without the narrowing: the finding lies outside the "
                f"definition that holds its candidate line (candidate_lines {sorted(set(lines))})"
            )
    return out


def check_example(rule: type[Rule], src: str, kind: str, config: Config | None = None) -> list[str]:
    """Problems with one example of ``rule`` (``kind`` is ``"valid"`` or ``"invalid"``); empty when it passes.

    Only ``rule`` (and the engine's TFH001/TFH002) is enabled: other rules may
    legitimately fire on the same snippet. The rule need not be registered.
    """
    from .engine import lint_source

    src = textwrap.dedent(src)
    config = (config or Config.default()).only(rule.code, *PSEUDO)
    # a path in no package: "example.py" relative to a checkout whose root is a package (this repository's is:
    # /work/main/__init__.py) made the project-wide readings (callers, importers) read the checkout itself
    findings = lint_source(src, EXAMPLE_PATH, config, rules=[rule])
    problems = [f"{_show(f)} (the engine could not run the rule)" for f in findings if f.code in PSEUDO]
    findings = [f for f in findings if f.code not in PSEUDO]
    if kind == "valid":
        return problems + [f"VALID example produced {_show(f)}" for f in findings]
    # s52: a marker naming another rule (TFH201's examples mark the lines TFH203 reports) documents that rule; this
    # rule must stay silent there (any finding of its own that no marker of its code expects is unexpected)
    expected = [e for e in expected_findings(src) if e.code in (rule.code, *PSEUDO)]
    if not expected and not expected_findings(src):
        return problems + ["INVALID example has no `# error: CODE` marker"]
    left = list(findings)
    missing: list[Expected] = []
    for e in expected:
        hit = next((f for f in left if e.matches(f)), None)
        if hit is None:
            missing.append(e)
        else:
            left.remove(hit)
    mentioned: list[Finding] = []
    for e in missing:
        near = [f for f in left if f.line == e.line and f.code == e.code]
        if near:
            mentioned += near
            problems.append(f"expected {e}, got {', '.join(_show(f) for f in near)}")
        else:
            problems.append(f"expected {e}, got no {e.code} on that line")
    problems += _why_hidden(
        rule, src, config, [e for e in missing if not any(f.line == e.line and f.code == e.code for f in left)]
    )
    problems += [f"unexpected {_show(f)}" for f in left if f not in mentioned]
    return problems
