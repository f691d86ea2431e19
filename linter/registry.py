"""Rule discovery: every ``Rule`` subclass in a rule file (``tfhNNN_<name>.py``) at any depth under ``smullyan.rules``.

Adding a rule is adding a file (``rules/__init__.py``, and each family
package's ``__init__.py``, puts the source directory on the package path, so
a strict editable install sees a new file at once). :func:`all_rules` is sorted by code; :func:`describe` also knows the
engine's pseudo-codes TFH001 and TFH002. Codes ``TFH9xx`` are reserved for
tests' stand-in rules (a crashing rule, an unknown code) and never shipped.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import Config
    from .rule import Rule

_PARSE_DOCS = """\
## What it does
Reports a file that could not be parsed (a syntax error, an unreadable file,
or source the parser cannot decode). No other rule runs on that file.

It is reported whatever is selected, as ruff reports syntax errors:
`--select TFH2` on a file that does not parse prints this finding and exits 1.

## Why is this bad?
A file the linter cannot read is a file it cannot check: every other finding
in it is silently missing.

## Example
```python
def f(:
    pass
```

## Use instead
Fix the syntax error (the message gives the parser's reason and line).

## How to suppress
Name its full code: `ignore = ["TFH001"]` (or in `per-file-ignores`,
`--extend-ignore TFH001`); a prefix (`TFH`, `TFH0`) does not turn it off.
Or exclude the file.
"""

_INTERNAL_DOCS = """\
## What it does
Reports that a rule raised an exception on this file (a bug in smullyan).
The line is the one the rule was visiting; the other rules' findings for the
file are still reported.

## Why is this bad?
The crashing rule did not check the rest of the file.

## Example
Any file that triggers a rule bug.

## Use instead
Please report it with the file (or a reduced example) and the message.

## How to suppress
`ignore = ["TFH002"]` in the configuration, or `# noqa: TFH002` on the line.
"""

_UNUSED_NOQA_DOCS = """\
## What it does
Reports a `# noqa: TFH...` comment naming a smullyan code that suppressed
nothing on its line: the finding is gone (unused), the rule is not enabled
for the file (non-enabled), or no rule has that code (unknown). Off by
default: it runs only when selected by its full code
(`extend-select = ["TFH003"]`, `--extend-select TFH003`).

Only TFH codes are checked. Other tools' codes (`# noqa: E501`) and a bare
`# noqa` are never reported: they may be there for another linter.

## Why is this bad?
A stale suppression hides the next real finding on that line, and tells
the reader there is a problem where there is none.

## Example
```python
requests.get(url, timeout=10)  # noqa: TFH201
```

## Use instead
```python
requests.get(url, timeout=10)
```

## How to suppress
Leave it off (the default), or `ignore = ["TFH003"]`. Beside ruff, set
`lint.external = ["TFH"]` so ruff's own RUF100 leaves TFH codes to smullyan.
"""

# code -> (name, summary, docs)
PSEUDO_RULES: dict[str, tuple[str, str, str]] = {
    "TFH001": ("could-not-parse", "The file could not be parsed; nothing else was checked.", _PARSE_DOCS),
    "TFH002": ("internal-error", "A rule crashed on this file (a smullyan bug); other findings are kept.", _INTERNAL_DOCS),
    "TFH003": ("unused-noqa", "A `# noqa` names a TFH code that suppressed nothing (off by default).", _UNUSED_NOQA_DOCS),
}

# Codes starting with this are never a shipped rule: tests use them for stand-ins.
RESERVED_FOR_TESTS = "TFH9"

_RULES: list[type[Rule]] | None = None
_RULE_FILE = re.compile(r"^tfh(\d{3})_\w+$")


def rule_modules() -> list[str]:
    """The modules of the rule files: ``tfhNNN_<name>.py`` anywhere under ``smullyan.rules``, importing no rule.

    Walks the package and its subpackages (a family such as ``rules/retries/``
    holds its model beside its rules), importing only the packages'
    ``__init__`` files, which import nothing; sorted by name.
    """
    found: list[str] = []
    stack = [importlib.import_module("smullyan.rules")]
    while stack:
        package = stack.pop()
        for info in pkgutil.iter_modules(package.__path__):
            name = f"{package.__name__}.{info.name}"
            if info.ispkg and not info.name.startswith("_"):
                stack.append(importlib.import_module(name))
            elif _RULE_FILE.match(info.name) and name not in found:
                found.append(name)
    return sorted(found)


def all_rules() -> list[type[Rule]]:
    """Every rule class in ``smullyan.rules`` (a rule file at any depth), sorted by code."""
    global _RULES
    if _RULES is None:
        from .rule import Rule

        found: dict[str, type[Rule]] = {}
        for name in rule_modules():
            module = importlib.import_module(name)
            for _, obj in inspect.getmembers(module, inspect.isclass):
                if issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__:
                    if obj.code in found and found[obj.code] is not obj:
                        raise RuntimeError(f"two rules claim {obj.code}: {found[obj.code]} and {obj}")
                    found[obj.code] = obj
        _RULES = sorted(found.values(), key=lambda r: r.code)
    return list(_RULES)


def get_rule(code: str) -> type[Rule] | None:
    for r in all_rules():
        if r.code == code:
            return r
    return None


def all_codes() -> list[str]:
    """Every code, pseudo-codes included, sorted."""
    return sorted([*PSEUDO_RULES, *(r.code for r in all_rules())])


def codes_from_files() -> list[str]:
    """:func:`all_codes` from the rule files' names (``tfh201_call_without_timeout.py``), importing no rule.

    The flake8 plugin asks this when flake8 starts, so that a run that
    selects no TFH code never imports libcst. A test holds it equal to
    :func:`all_codes`.
    """
    found = {f"TFH{m.group(1)}" for name in rule_modules() if (m := _RULE_FILE.match(name.rsplit(".", 1)[1])) is not None}
    return sorted([*PSEUDO_RULES, *found])


def describe(code: str) -> tuple[str, str, str]:
    """``(name, summary, docs)`` for a rule or pseudo-code; KeyError when unknown.

    Also accepts a rule's kebab-case name.
    """
    key = code.upper()
    if key in PSEUDO_RULES:
        return PSEUDO_RULES[key]
    for r in all_rules():
        if r.code == key or r.name == code:
            return (r.name, r.summary, r.docs)
    for c, (name, summary, docs) in PSEUDO_RULES.items():
        if name == code:
            return (name, summary, docs)
    raise KeyError(code)


def enabled_rules(config: "Config", path: str | None = None) -> list[type[Rule]]:
    return [r for r in all_rules() if config.is_enabled(r.code, path)]
