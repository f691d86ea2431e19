"""Output of ``smullyan tools``: the summary, ``--fail-on`` gates, text, Markdown and JSON."""

from __future__ import annotations

import difflib
import json
import shutil
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .. import knowledge as kb
from .model import SCHEMA_VERSION, Tool, ToolRun
from .verbs import BY_NAME

FORMATS = ("text", "markdown", "json")


def _unkeyed_write(t: Tool) -> bool:
    return t.key == "missing"


def _no_timeout(t: Tool) -> bool:
    return any(c.timeout in ("missing", "infinite") for c in t.calls)


_UNBOUNDED_CODES = ("TFH301", "TFH302")  # the budget rules' verdict on a retry the table cannot bound


def _unbounded_retry(t: Tool) -> bool:
    return any(r.bounded is False for r in t.retries) or any(c in t.findings for c in _UNBOUNDED_CODES)


def _text_errors(t: Tool) -> bool:
    return "text" in t.failures


def _unknown_classification(t: Tool) -> bool:
    return t.classification == "unknown"


def _swallowed(t: Tool) -> bool:
    return "swallowed" in t.failures


def _findings(t: Tool) -> bool:
    return bool(t.findings)


#: ``--fail-on`` terms: name -> (what it means, test on a tool).
FAIL_ON: dict[str, tuple[str, Callable[[Tool], bool]]] = {
    "unkeyed-write": ("a non-idempotent or irreversible tool without an idempotency key", _unkeyed_write),
    "no-timeout": ("a call out of the process with no timeout, or an infinite one", _no_timeout),
    "unbounded-retry": ("a retry that never stops", _unbounded_retry),
    "text-errors": ("failures reach the model as text", _text_errors),
    "swallowed-errors": ("a failure is swallowed (the model sees no error)", _swallowed),
    "unknown-classification": ("neither declared nor inferable", _unknown_classification),
    "findings": ("any lint finding inside the tool", _findings),
}


class FailOnError(ValueError):
    """An unknown ``--fail-on`` term."""


def parse_fail_on(value: str) -> tuple[str, ...]:
    """``"unkeyed-write,no-timeout"`` -> the terms; an unknown one raises :class:`FailOnError` with a did-you-mean."""
    terms = tuple(t.strip() for t in value.split(",") if t.strip())
    if not terms:
        raise FailOnError(f"`--fail-on` is empty; expected some of: {', '.join(FAIL_ON)}")
    for term in terms:
        if term not in FAIL_ON:
            close = difflib.get_close_matches(term.lower().replace("_", "-"), list(FAIL_ON), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise FailOnError(f"`--fail-on`: unknown term '{term}'{hint}; expected some of: {', '.join(FAIL_ON)}")
    return terms


def failing(tools: Sequence[Tool], terms: Sequence[str]) -> dict[str, list[Tool]]:
    """term -> the tools that fail it (only terms some tool fails)."""
    out: dict[str, list[Tool]] = {}
    for term in terms:
        hit = [t for t in tools if FAIL_ON[term][1](t)]
        if hit:
            out[term] = hit
    return out


def summary(run: ToolRun) -> dict[str, Any]:
    tools = run.tools
    by_class = {cls: sum(1 for t in tools if t.classification == cls) for cls in (*kb.CLASSES, kb.LOCAL_CLASS, "unknown")}
    by_framework: dict[str, int] = {}
    for t in tools:
        by_framework[t.framework] = by_framework.get(t.framework, 0) + 1
    return {
        "tools": len(tools),
        "files_checked": run.files_checked,
        "files_with_tools": len({t.path for t in tools}),
        "by_classification": by_class,
        "by_framework": dict(sorted(by_framework.items())),
        "unkeyed_writes": sum(1 for t in tools if _unkeyed_write(t)),
        "calls_without_timeout": sum(1 for t in tools for c in t.calls if c.timeout in ("missing", "infinite")),
        "unbounded_retries": sum(
            max(sum(1 for r in t.retries if r.bounded is False), sum(t.findings.get(c, 0) for c in _UNBOUNDED_CODES))
            for t in tools
        ),
        "text_errors": sum(1 for t in tools if _text_errors(t)),
        "swallowed_errors": sum(1 for t in tools if _swallowed(t)),
    }


# --------------------------------------------------------------------------- cells

_SHORT_CLASS = {
    kb.READ_SAFE: "read-safe",
    kb.IDEMPOTENT_WRITE: "idem-write",
    kb.NON_IDEMPOTENT_WRITE: "NON-IDEM-WRITE",
    kb.IRREVERSIBLE: "IRREVERSIBLE",
    "unknown": "?",
}


def _class_cell(t: Tool) -> str:
    mark = {"declared": "", "configured": " (cfg)", "inferred": "*", "unknown": ""}[t.source]
    if t.source == "inferred" and t.evidence.startswith(BY_NAME):
        mark = " (by name)"  # a guess from the tool's name (``verbs.py``), not from what it calls
    return _SHORT_CLASS.get(t.classification, t.classification) + mark


def _calls_cell(t: Tool) -> str:
    if not t.calls:
        return "-"
    parts = []
    for c in t.calls:
        what = c.what.replace(" through ", " ")
        timeout = {"value": f"t={c.timeout_value}", "default": "t=default", "missing": "NO TIMEOUT",
                   "infinite": "t=INFINITE", "scope": "t=scope", "unknown": "t=?", "none-possible": "no timeout possible",
                   "n/a": ""}.get(c.timeout, c.timeout)
        parts.append(f"[{timeout}] {what}" if timeout else what)
    return "; ".join(parts)


def _retry_cell(t: Tool) -> str:
    if not t.retries:
        return "-"
    out = []
    for r in t.retries:
        stop = "UNBOUNDED" if r.bounded is False else r.stop
        out.append(f"{r.kind}: {stop}, wait {r.wait}, on {r.condition}")
    text = "; ".join(out)
    return text + (" +budget" if t.budget else "")


def _key_cell(t: Tool) -> str:
    return {"missing": "MISSING", "not-needed": "n/a", "unknown": "?"}.get(t.key, t.key)


def _findings_cell(t: Tool) -> str:
    return " ".join(f"{c}" + (f"x{n}" if n > 1 else "") for c, n in t.findings.items()) or "-"


def _where(t: Tool) -> str:
    return f"{t.path}:{t.line}"


def _framework_cell(t: Tool) -> str:
    """``langchain``; a tool declared in a data file names its form too: ``holmesgpt YAML toolset``."""
    return f"{t.framework} {t.form}" if t.runner else t.framework


def _failures_cell(t: Tool) -> str:
    """``raised+typed``; ``text (BaseTool.run)`` when a framework's base method turns the raised ones into text."""
    cell = "+".join(t.failures) or "-"
    if t.failures_by:
        cell += f" ({'.'.join(t.failures_by.split('.')[-2:])})"
    return cell


_COLUMNS: list[tuple[str, Callable[[Tool], str]]] = [
    ("tool", lambda t: t.name),
    ("where", _where),
    ("framework", _framework_cell),
    ("class", _class_cell),
    ("[timeout] calls out", _calls_cell),
    ("retry", _retry_cell),
    ("key", _key_cell),
    ("failures", _failures_cell),
    ("findings", _findings_cell),
]


# --------------------------------------------------------------------------- formats


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


#: below this many columns the text format prints one block per tool instead of the table
VERTICAL_BELOW = 120
NO_TOOLS_HINT = (
    "No tool found. If these files define tools in a form smullyan does not know, name it in the "
    "configuration: tool-decorators (the decorator that makes a tool), tool-base-classes (the base "
    "class of tool classes), tool-list-constructors (a call whose tools=[...] takes functions) or "
    "tool-registrars (a call that makes a tool of the function it is handed)."
)


def no_tools_hint(run: ToolRun) -> list[str]:
    """:data:`NO_TOOLS_HINT`, then the likeliest base class the run saw (many subclasses implementing a method it
    leaves to them) with the configuration line that makes its subclasses tools, and the project's own decorator
    applied most (not one that only wraps) with the line that makes what it decorates tools."""
    lines = [NO_TOOLS_HINT]
    if run.candidates:
        qn, method, n = run.candidates[0]
        lines.append(f"A likely tool base class: {qn} ({n} subclasses implement {method}()). If its subclasses are "
                     f"tools, add to [tool.smullyan] in pyproject.toml: tool-base-classes = [\"{qn}\"]")
        others = [c[0] for c in run.candidates[1:4]]
        if others:
            lines.append("Other base classes of that shape: " + ", ".join(others))
    if run.decorators:
        qn, n = run.decorators[0]
        lines.append(f"A likely tool decorator: {qn} ({n} functions). If the functions it decorates are tools, add to "
                     f"[tool.smullyan] in pyproject.toml: tool-decorators = [\"{qn}\"]")
        others = [c[0] for c in run.decorators[1:4]]
        if others:
            lines.append("Other decorators of the project used as often: " + ", ".join(others))
    return lines


def framework_hint(run: ToolRun) -> list[str]:
    """For a run that found no tool in files importing an agent or MCP framework (``run.frameworks``): which, then
    :func:`no_tools_hint`'s lines (the settings, the likeliest base class and decorator)."""
    return [f"these files import {', '.join(run.frameworks)} but no tool was found in them.", *no_tools_hint(run)]


def format_text(run: ToolRun, stream: TextIO, width: int | None = None, quiet: bool = False,
                wide: bool = False) -> None:
    """A table that fits the terminal: one line per call out and per retry (a row grows
    downwards), long cells cut with an ellipsis, ``where`` keeping its end (file and line).
    Below :data:`VERTICAL_BELOW` columns, one block per tool (every fact kept, lines wrapped);
    ``wide``: the table at its natural width, nothing cut."""
    width = width or shutil.get_terminal_size((160, 24)).columns
    if not run.tools:
        if not quiet:
            text = "\n".join(_wrap(line, width, "") if width < VERTICAL_BELOW else line
                             for line in [*_summary_text(run).splitlines(), *no_tools_hint(run)])
            stream.write(text + "\n")
        return
    if not wide and width < VERTICAL_BELOW:
        _format_vertical(run, stream, width)
        if not quiet:
            stream.write("\n" + "\n".join(_wrap(line, width, "") for line in _summary_text(run).splitlines()) + "\n")
        return
    if wide:
        width = 10_000
    rows = [[fn(t).split("; ") for _, fn in _COLUMNS] for t in run.tools]
    heads = [h for h, _ in _COLUMNS]
    natural = [max([len(h), *(len(line) for r in rows for line in r[i])]) for i, h in enumerate(heads)]
    caps = natural if wide else [28, 44, 22, 16, 56, 40, 8, 20, 24]
    widths = [min(n, c) for n, c in zip(natural, caps)]
    # until the table fits, cut columns down to a floor, least informative first: where (keeps
    # file:line), tool, findings, retry, calls out, failures
    for i, floor in ((1, 24), (0, 18), (8, 13), (5, 24), (4, 30), (1, 16), (7, 10), (5, 14), (4, 20)):
        excess = sum(widths) + 2 * (len(widths) - 1) - width
        if excess <= 0:
            break
        widths[i] = max(min(widths[i], floor), widths[i] - excess)
    while sum(widths) + 2 * (len(widths) - 1) > width and max(widths) > 8:
        widths[widths.index(max(widths))] -= 1  # a very narrow terminal: cut the widest

    def cell(i: int, text: str) -> str:
        if i == 1 and len(text) > widths[i]:  # keep the file name and line
            return ("…" + text[-(widths[i] - 1):]).ljust(widths[i])
        return _clip(text, widths[i]).ljust(widths[i])

    if run.tools:
        stream.write("  ".join(cell(i, h) for i, h in enumerate(heads)).rstrip() + "\n")
        stream.write("  ".join("-" * w for w in widths) + "\n")
        for r in rows:
            for k in range(max(len(c) for c in r)):
                line = "  ".join(cell(i, c[k] if k < len(c) else "") for i, c in enumerate(r))
                stream.write(line.rstrip() + "\n")
    if not quiet:
        stream.write(("\n" if run.tools else "") + _summary_text(run) + "\n")


def _wrap(text: str, width: int, indent: str) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, max(20, width), initial_indent=indent, subsequent_indent=indent + "  ",
                                   break_on_hyphens=False, break_long_words=True)) or indent.rstrip()


#: the block's lines, most important first; a line whose value is "-" is left out
_BLOCK = (
    ("class", _class_cell), ("calls", _calls_cell), ("failures", _failures_cell),
    ("findings", _findings_cell), ("retry", _retry_cell), ("key", _key_cell),
    ("runner", lambda t: t.runner or "-"),
)


def _format_vertical(run: ToolRun, stream: TextIO, width: int) -> None:
    """One block per tool: ``name  framework`` and ``where`` on the first lines, then one labelled line
    per fact (calls out one per line), wrapped to ``width``."""
    for n, t in enumerate(run.tools):
        if n:
            stream.write("\n")
        stream.write(_wrap(f"{t.name}  ({t.framework}, {t.form})", width, "") + "\n")
        stream.write(_wrap(_where(t), width, "  ") + "\n")
        for label, fn in _BLOCK:
            value = fn(t)
            if value == "-" and label in ("retry", "findings", "runner"):
                continue
            parts = value.split("; ") if label in ("calls", "retry") else [value]
            for i, part in enumerate(parts):
                head = f"  {label + ':' if i == 0 else '':<10}"
                stream.write(_wrap(head + part, width, "").replace("\n", "\n" + " " * 12) + "\n")


def _summary_text(run: ToolRun) -> str:
    s = summary(run)
    classes = ", ".join(f"{n} {cls}" for cls, n in s["by_classification"].items() if n)
    lines = [
        f"{s['tools']} tools in {s['files_with_tools']} of {s['files_checked']} files"
        + (f": {classes}" if classes else ""),
        f"writes without an idempotency key: {s['unkeyed_writes']}; calls without a timeout: "
        f"{s['calls_without_timeout']}; retries without a bound: {s['unbounded_retries']}; "
        f"tools whose failures reach the model as text: {s['text_errors']}; swallowed: {s['swallowed_errors']}",
        "class: declared, * inferred from the calls it makes, (cfg) from `classify`; "
        "t=: the call's timeout",
    ]
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def format_markdown(run: ToolRun, stream: TextIO) -> None:
    heads = [h for h, _ in _COLUMNS]
    stream.write("| " + " | ".join(heads) + " |\n")
    stream.write("|" + "---|" * len(heads) + "\n")
    for t in run.tools:
        cells = [fn(t) for _, fn in _COLUMNS]
        cells[0] = f"`{cells[0]}`"
        cells[1] = f"`{cells[1]}`"
        stream.write("| " + " | ".join(_md(c) for c in cells) + " |\n")
    lines = [*_summary_text(run).splitlines(), *([] if run.tools else no_tools_hint(run))]
    stream.write("\n" + "\n\n".join(_md(line) for line in lines) + "\n")


def as_document(run: ToolRun, fail_on: Sequence[str] = ()) -> dict[str, Any]:
    fails = failing(run.tools, fail_on)
    return {
        "version": SCHEMA_VERSION,
        "summary": summary(run),
        "tools": [t.as_json() for t in run.tools],
        "fail_on": {term: [f"{t.path}:{t.line}:{t.name}" for t in fails.get(term, [])] for term in fail_on},
        "errors": [
            {"path": f.path, "line": f.line, "code": f.code, "message": f.message} for f in run.errors
        ],
    }


def format_json(run: ToolRun, stream: TextIO, fail_on: Sequence[str] = ()) -> None:
    json.dump(as_document(run, fail_on), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
