"""What ``smullyan tools`` knows and gives: the tables that make a tool, and the rows of the table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .. import knowledge as kb

if TYPE_CHECKING:
    from ..config import Config
    from ..findings import Finding

__all__ = ["SCHEMA_VERSION", "NAMESPACE_ROOTS", "CallFact", "RetryFact", "Tables", "Tool", "ToolRun"]

#: Version of the JSON document ``smullyan tools --format json`` prints (docs/cli.md).
SCHEMA_VERSION = 1


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Tables:
    """What makes a tool: the library's tables extended by the configuration, plus the
    classes of this run known to be tools (qualified name -> framework, run methods)."""

    decorators: Mapping[str, str]
    bases: Mapping[str, tuple[str, tuple[str, ...]]]
    wrappers: Mapping[str, tuple[str, str, int | None]]
    lists: Mapping[str, str]
    project: frozenset[str] = frozenset()  # the run's own classes among ``bases``
    # the run's classes whose ancestors (through other files of the run) come from other top-level packages:
    # qualified name -> those packages (an activity-style decorator of one of them makes a tool of its methods)
    ancestor_roots: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # the run's classes that inherit (or define) a method turning their tools' exceptions into text:
    # qualified name -> {method it calls ("*": a callable it is given) -> "pkg.mod.Base.dispatcher"}; a key
    # ``"[attr]"``: the ``self.attr`` table a method indexes by the tool call's name (``ancestry.name_tables``)
    text_dispatch: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # the run's own registry decorators (``registries.registry_decorators``): qualified name -> (framework, position
    # of the parameter naming the tool or -1, that parameter's name)
    registries: Mapping[str, tuple[str, int, str]] = field(default_factory=dict)
    # what the run's calls pass to its functions: function qualified name -> {position or keyword -> class}
    params: Mapping[str, Mapping[int | str, str]] = field(default_factory=dict)
    # the run's decorators that only wrap the function they are given (``registries.wrapping_decorators``): their
    # name (``trace_tool``) does not make a tool of what they decorate
    wrapping: frozenset[str] = frozenset()
    # the run's spellings of a framework's tool decorator (``servers.server_decorators``) -> the framework's
    aliases: Mapping[str, str] = field(default_factory=dict)
    # the run's registry decorators whose tools reach a framework answering their raises with text
    # (``registry_text.py``): qualified name -> that framework's wrapper
    registry_text: Mapping[str, str] = field(default_factory=dict)
    # the wrapper answering raises with text that every MCP server class the run imports shares
    # (``knowledge.MCP_SERVER_TEXT``): a tool on a receiver the run cannot type (``@mcp.tool``, ``mcp`` a parameter)
    server_text: str | None = None
    # s56: the run's classes implementing one of its tool protocols without naming it as a base (``protocols.py``):
    # qualified name -> the protocol's
    protocols: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, config: "Config") -> "Tables":
        decorators = dict(kb.TOOL_DECORATORS)
        for name in config.tool_decorators:
            decorators.setdefault(name, "configured")
        bases = dict(kb.TOOL_BASE_CLASSES)
        for name in config.tool_base_classes:
            bases.setdefault(name, ("configured", kb.CONFIGURED_TOOL_METHODS))
        # a namespace package (``google/`` without ``__init__.py``) names its modules from the level
        # below when linted in place (``adk.tools.base_tool``): the tables hold both spellings
        for name in list(decorators):
            root, _, rest = name.partition(".")
            if root in NAMESPACE_ROOTS and rest:
                decorators.setdefault(rest, decorators[name])
        for name in list(bases):
            root, _, rest = name.partition(".")
            if root in NAMESPACE_ROOTS and rest:
                bases.setdefault(rest, bases[name])
        lists = dict(kb.TOOL_LIST_CONSTRUCTORS)
        for name in getattr(config, "tool_list_constructors", ()):
            lists.setdefault(name, "configured")
        wrappers = dict(kb.TOOL_WRAPPERS)
        for name, keyword, position in getattr(config, "tool_registrars", ()):  # ``registry.register(fn)``
            wrappers.setdefault(name, ("configured", keyword, position))
        for name in list(wrappers):
            root, _, rest = name.partition(".")
            if root in NAMESPACE_ROOTS and rest:
                wrappers.setdefault(rest, wrappers[name])
        return cls(decorators, bases, wrappers, lists)

    def with_classes(
        self, classes: Mapping[str, tuple[str, tuple[str, ...]]],
        ancestor_roots: Mapping[str, frozenset[str]] | None = None,
        text_dispatch: Mapping[str, Mapping[str, str]] | None = None,
        registries: Mapping[str, tuple[str, int, str]] | None = None,
        params: Mapping[str, Mapping[int | str, str]] | None = None,
        wrapping: frozenset[str] = frozenset(),
    ) -> "Tables":
        return Tables(self.decorators, {**classes, **self.bases}, self.wrappers, self.lists,
                      frozenset(c for c in classes if c not in self.bases),
                      dict(ancestor_roots or {}), dict(text_dispatch or {}), dict(registries or {}), dict(params or {}),
                      wrapping)

    def decorator_lasts(self) -> frozenset[str]:
        """The last names of the tool decorators (``tool``, ``call_tool``, ``function_tool``)."""
        return frozenset(q.rsplit(".", 1)[-1] for q in self.decorators)

    def servers(self) -> frozenset[str]:
        """The classes whose method is a tool decorator (``FastMCP`` for ``FastMCP.tool``)."""
        return frozenset(q.rsplit(".", 1)[0] for q in self.decorators if "." in q and q.rsplit(".", 2)[-2][:1].isupper())


#: top-level namespace packages (no ``__init__.py``) of the frameworks in the tables
NAMESPACE_ROOTS = frozenset({"google", "livekit"})


# --------------------------------------------------------------------------- results


@dataclass
class CallFact:
    """One call out of the process a tool makes (directly or in a helper)."""

    what: str  # "POST to 'https://...'", "requests.get", "subprocess.run"
    cls: str | None  # one of knowledge.CLASSES, None: not classified
    timeout: str  # value | default | missing | infinite | scope | unknown | none-possible | n/a
    timeout_value: str | None = None
    keyed: bool = False
    helper: str | None = None
    local: bool = False  # a process whose literal program stays on the machine (``local.py``); not in the JSON


@dataclass
class RetryFact:
    kind: str
    stop: str  # "3 attempts", "30 s", "never", "unknown"
    wait: str  # "backoff", "none", "unknown"
    condition: str
    bounded: bool | None  # None: unknown
    helper: str | None = None


@dataclass
class Tool:
    """One row of the table."""

    name: str
    path: str
    line: int
    framework: str
    form: str
    qualname: str
    classification: str  # one of knowledge.CLASSES, or "unknown"
    source: str  # declared | configured | inferred | unknown
    evidence: str  # what it was declared or inferred from
    calls: list[CallFact] = field(default_factory=list)
    retries: list[RetryFact] = field(default_factory=list)
    budget: bool = False
    key: str = "unknown"  # present | missing | not-needed | unknown
    failures: list[str] = field(default_factory=list)  # typed | text | fallback | raised | swallowed
    failures_by: str | None = None  # the framework method that turns the tool's raised failures into text
    findings: dict[str, int] = field(default_factory=dict)
    spans: list[tuple[int, int]] = field(default_factory=list)  # line ranges findings are attributed by
    # a tool declared in a data file (``declared.py``: its path and line are the data file's): the framework code that
    # runs it (``holmes.core.tools.YAMLTool._invoke``); None for a tool whose path and line are its own code
    runner: str | None = None
    # the run's own function the tool's MCP ``annotations=`` calls (``annotations.py``), qualified; not in the JSON
    annotated: str | None = None
    # ``local.py``: the run's functions in other modules it calls when its own and its same-module helpers' calls all
    # stay on the machine (the join decides the ``local`` class); None: a call may leave it. Not in the JSON
    local: tuple[str, ...] | None = None
    # defined in example or demo code (``demos.py``): left out of a run that finds other tools. Not in the JSON
    demo: bool = False
    # ``raising.py``: a summary's function never returns (``typed``/``raised``); a row's handlers handing the failure to
    # another module's helper (``raise_tool_error(e)``), each (that helper, the framework's text for a raise), settled at
    # the join. Not in the JSON
    raises: str | None = None
    raisers: list[tuple[str, str | None]] = field(default_factory=list)

    def text_with_tfh401(self) -> None:
        """``text`` whenever TFH401 is attributed to the tool (its own functions' findings or a helper's it reaches):
        the failures column and the rule agree on every tool (``tests/test_errors_tools_agree.py``); a ``raised``
        beside it is that text."""
        if "TFH401" in self.findings and "text" not in self.failures:
            self.failures = [("text" if m == "raised" else m) for m in self.failures]
            if "text" not in self.failures:
                self.failures.append("text")

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("spans")
        data.pop("annotated")
        data.pop("local")
        data.pop("demo")
        data.pop("raises")
        data.pop("raisers")
        data["calls"] = [{k: v for k, v in asdict(c).items() if k != "local"} for c in self.calls]
        data["retries"] = [asdict(r) for r in self.retries]
        return data


@dataclass
class ToolRun:
    tools: list[Tool] = field(default_factory=list)
    files_checked: int = 0
    files_described: int = 0
    errors: list["Finding"] = field(default_factory=list)  # TFH001/TFH002 in files that hold tools
    # classes (not tool bases) with many subclasses implementing a method they leave to them:
    # (class, method, subclasses), most first; a run that finds no tool names the first
    candidates: list[tuple[str, str, int]] = field(default_factory=list)
    # the run's own decorators (not in the tables, not only wrapping) applied to several functions: (decorator,
    # functions), most first; a run that finds no tool names the first
    decorators: list[tuple[str, int]] = field(default_factory=list)
    frameworks: list[str] = field(default_factory=list)  # the agent/MCP frameworks the run's files import
    notes: list[str] = field(default_factory=list)  # what the run could not do, to be said once (``declared.py``)
