"""Tools declared in data files: a framework's YAML toolsets, each tool run by one runner class of the framework.

holmesgpt's users (and holmesgpt itself) write tools as YAML (``toolsets: <name>: tools: - name: ... command: ...``);
the model calls them by name and ``YAMLTool._invoke`` runs the command (``knowledge.TOOL_DATA_FILES``). A run gets
these rows only when one of its files defines the runner class or imports the framework's package, from the
``*.yaml``/``*.yml`` files in the directories that hold the run's Python files. Each row is placed at the tool's
``- name:`` line of its YAML file, carries the runner's facts (its own row's, when the runner is among the run's
files, which that row then gives way to; else the table's), and the class its command's program and verb say
(``knowledge.CLI_VERB_CLASSES``: ``kubectl get`` reads, ``kubectl delete`` writes; anything else: unknown).

Reading never raises and never runs anything: PyYAML's ``compose`` with the safe loader (nodes and their lines, no
object built), files over :data:`MAX_BYTES` or beyond :data:`MAX_FILES` skipped, any error: that file gives no row.
Without PyYAML there are no such rows, and the run says so once (:data:`NO_YAML_NOTE`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from .. import knowledge as kb
from .model import CallFact, Tool

__all__ = ["MAX_BYTES", "MAX_FILES", "NO_YAML_NOTE", "command_class", "declared_tools", "frameworks"]

#: a data file larger than this is not read
MAX_BYTES = 1_000_000
#: at most this many data files are read in one run
MAX_FILES = 400
NO_YAML_NOTE = "tools declared in YAML files are not listed: reading them needs pyyaml (pip install 'smullyan[lint]')"
_SUFFIXES = (".yaml", ".yml")


def frameworks(classes: Iterable[str], imported: Iterable[str]) -> list[str]:
    """The data-file frameworks that apply to a run: one of its files defines the runner class (the qualified
    names ``classes``) or imports the framework's top-level package (``imported``)."""
    defined, roots = set(classes), set(imported)
    return [fw for fw, (runner, _, root, *_rest) in kb.TOOL_DATA_FILES.items() if runner in defined or root in roots]


def declared_tools(files: Sequence[str], classes: Iterable[str], imported: Iterable[str],
                   tools: Sequence[Tool]) -> tuple[list[Tool], list[str]]:
    """``tools`` with the rows of the tools declared in the data files beside ``files`` (a runner's own row gives
    way to them), and the notes the run should say once."""
    applying = frameworks(classes, imported)
    if not applying:
        return list(tools), []
    try:
        import yaml
    except ImportError:
        return list(tools), [NO_YAML_NOTE]
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = list(tools)
    for fw in applying:
        runner, method, _, shape, form, calls, failures = kb.TOOL_DATA_FILES[fw]
        own = [t for t in tools if t.qualname == runner or t.qualname.startswith(runner + ".")]
        rows = [_row(fw, form, runner, method, path, line, toolset, name, text, own[0] if own else None, calls,
                     failures)
                for path in _data_files(files)
                for line, toolset, name, text in _declarations(path, shape, yaml, loader)]
        if rows:
            gone = {id(t) for t in own}
            out = [t for t in out if id(t) not in gone] + rows
    return out, []


def _data_files(files: Sequence[str]) -> list[str]:
    """The YAML files in the directories holding ``files``, spelled as those files are (at most :data:`MAX_FILES`)."""
    seen: dict[str, str] = {}
    for f in files:
        seen.setdefault(os.path.normcase(os.path.abspath(os.path.dirname(f) or ".")), os.path.dirname(f))
    out: list[str] = []
    for absolute, shown in sorted(seen.items()):
        try:
            names = sorted(e.name for e in os.scandir(absolute) if e.name.endswith(_SUFFIXES) and e.is_file())
        except OSError:
            continue
        out += [os.path.join(shown, n) for n in names]
    return out[:MAX_FILES]


def _declarations(path: str, shape: tuple[str, str, tuple[str, ...]], yaml: Any,
                  loader: Any) -> list[tuple[int, str, str, str]]:
    """(line of the tool's ``- name:``, toolset, name, the text it runs) of each tool ``path`` declares in the
    framework's shape; none for a file that is too large, not UTF-8, not YAML or of another shape."""
    root_key, list_key, run_keys = shape
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return []
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        root = yaml.compose(text, Loader=loader)  # nodes only: nothing is constructed
    except Exception:  # any failure to read or parse: no rows from this file, never a crash
        return []
    out: list[tuple[int, str, str, str]] = []
    for toolset, body in _items(_get(root, root_key)):
        for item in _seq(_get(body, list_key)):
            name = _scalar(_get(item, "name"))
            runs = next((t for k in run_keys if (t := _scalar(_get(item, k)))), None)
            if name and runs is not None:
                out.append((item.start_mark.line + 1, toolset, name, runs))
    return out


def _get(node: Any, key: str) -> Any:
    if type(node).__name__ != "MappingNode":
        return None
    return next((v for k, v in node.value if type(k).__name__ == "ScalarNode" and k.value == key), None)


def _items(node: Any) -> list[tuple[str, Any]]:
    if type(node).__name__ != "MappingNode":
        return []
    return [(k.value, v) for k, v in node.value if type(k).__name__ == "ScalarNode" and isinstance(k.value, str)]


def _seq(node: Any) -> list[Any]:
    return list(node.value) if type(node).__name__ == "SequenceNode" else []


def _scalar(node: Any) -> str | None:
    if type(node).__name__ != "ScalarNode" or not isinstance(node.value, str):
        return None
    return node.value.strip() or None


def _row(fw: str, form: str, runner: str, method: str, path: str, line: int, toolset: str, name: str, text: str,
         own: Tool | None, calls: tuple[tuple[str, str], ...], failures: tuple[str, ...]) -> Tool:
    runs = f"{runner}.{method}"
    cls, evidence = command_class(text)
    tool = Tool(name=name, path=path, line=line, framework=fw, form=form, qualname=f"{toolset}.{name}",
                classification=cls or "unknown", source="inferred" if cls else "unknown", evidence=evidence,
                runner=runs)
    if own is not None:
        tool.calls = [replace(c) for c in own.calls]
        tool.retries = [replace(r) for r in own.retries]
        tool.failures, tool.failures_by = list(own.failures), own.failures_by
        tool.findings, tool.budget = dict(own.findings), own.budget
    else:
        tool.calls = [CallFact(what, None, timeout, helper=".".join(runs.split(".")[-2:])) for what, timeout in calls]
        tool.failures = list(failures)
    if cls in (kb.READ_SAFE, kb.IDEMPOTENT_WRITE):
        tool.key = "not-needed"
    elif cls in (kb.NON_IDEMPOTENT_WRITE, kb.IRREVERSIBLE):
        tool.key = "missing"  # a command line carries no idempotency key
    return tool


# --------------------------------------------------------------------------- what the command does

_TEMPLATE_BLOCK = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.S)  # Jinja statements and comments
_TEMPLATE_VALUE = re.compile(r"\{\{.*?\}\}", re.S)  # Jinja values: a word the model gives
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"", re.S)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_VALUE = "\x00"  # what a template value becomes: never a verb
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time", "(", "exec"})
_SKIP = frozenset({"fi", "done", "esac", "for", "case", ";;", "function", "in"})
_WRAPPERS = frozenset({"timeout", "nohup", "command", "env"})


def command_class(text: str) -> tuple[str | None, str]:
    """The class of what a declared command or script runs, and the evidence (```kubectl get```): the strongest
    class among its commands when every command is a known program with a known verb or a local text filter;
    ``(None, "")`` otherwise (a program or verb not in the table, a command the model's value names, a command
    inside a quoted string)."""
    text = _TEMPLATE_BLOCK.sub(" ", text.replace("\\\n", " "))
    text = _TEMPLATE_VALUE.sub(_VALUE, text)  # ``X={{ x }}`` stays an assignment
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    if any("$(" in q or "`" in q for q in _QUOTED.findall(text)):
        return None, ""
    text = _QUOTED.sub(" q ", text).replace("$(", "\n").replace("`", "\n").replace(")", " ").replace("(", " ")
    found: list[tuple[str, str]] = []
    for words in kb.shell_commands(text):
        while words and (words[0] in _KEYWORDS or _ASSIGNMENT.match(words[0])):
            words = words[1:]
        if not words or words[0] in _SKIP:
            continue
        if words[0] in _WRAPPERS:
            words = [w for w in words[1:] if not w.startswith("-")]
            words = words[1:] if words and (words[0][:1].isdigit() or words[0] == _VALUE) else words  # a duration
            if not words:
                return None, ""
        program = words[0].rsplit("/", 1)[-1]
        if program in kb.CLI_LOCAL_PROGRAMS:
            continue
        verbs = kb.CLI_VERB_CLASSES.get(program)
        if verbs is None:
            return None, ""
        verb = None
        for word in [w for w in words[1:] if not w.startswith("-")][:4]:
            if word == _VALUE:
                break
            if word in verbs:
                verb = word
                break
        if verb is None:
            return None, ""
        found.append((verbs[verb], f"{program} {verb}"))
    if not found:
        return None, ""
    cls, what = max(found, key=lambda f: kb.CLASSES.index(f[0]))
    return cls, f"`{what}` in its command"
