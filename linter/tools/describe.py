"""Describing files: one file through the lint (the :class:`~.observer._Observer`), and a run's two phases on one pool."""

from __future__ import annotations

import ast
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..packages import package_of
from ..project_tools import Provider, current_provider, has_provider, set_provider
from .ancestry import Shape, project_tool_bases, resolve, tool_classes
from .protocols import protocol_links
from .commands import Commands, served_commands
from .follow import Graph, Links, Resolver, Summary, is_summary, join, needed
from .adoption import adopted
from .remote import Remote
from .declared import declared_tools
from .demos import left_out, note as demo_note
from .entrypoints import entry_point_refs
from .passed_decorators import resolve_passed
from .unread import unread_by_ast
from .servers import built_instances, server_decorators, served_registries
from .hints import decorator_candidates
from .registries import Registry
from .model import Tables, Tool, ToolRun
from .method_helpers import inherited_helpers
from .verbs import by_name
from .observer import Adopt, Inject, _Observer

if TYPE_CHECKING:
    from ..config import Config
    from ..findings import Finding

__all__ = ["describe_source", "run"]


@dataclass
class _FileResult:
    path: str
    tools: list[Tool]
    classes: list[tuple[str, list[str]]]
    pending: bool
    errors: list["Finding"]
    dispatch: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # classes with text dispatchers
    shapes: list[Shape] = field(default_factory=list)  # classes a project's own tool base is found among
    registries: dict[str, Registry] = field(default_factory=dict)  # registry decorators defined here
    params: list[tuple[str, int | str, str]] = field(default_factory=list)  # servers handed to the run's functions
    wrapping: set[str] = field(default_factory=set)  # decorators defined here that only wrap
    exports: list[tuple[str, str]] = field(default_factory=list)  # module-level objects of a class (``servers.py``)
    markers: dict[str, frozenset[str]] = field(default_factory=dict)  # registries that only mark (``markers.py``)
    reads: set[str] = field(default_factory=set)  # attributes read off objects by name
    graph: Graph | None = None  # the file's functions and the run's functions each calls (``follow.py``)
    summaries: dict[str, Summary] = field(default_factory=dict)  # its helpers described: qualified name -> summary
    # per tool: the run's functions it calls and those whose value it returns; nothing of its own catches
    links: list[tuple[Links, bool, bool]] = field(default_factory=list)
    imported: frozenset[str] = frozenset()  # the data-file frameworks' packages it imports (``declared.py``)
    remotes: list[Remote] = field(default_factory=list)  # what its calls make tools of in other modules
    injected: dict[str, str] = field(default_factory=dict)  # names its loaders set on the modules they run -> class
    free: frozenset[str] = frozenset()  # its decorators' receivers nothing in it binds
    factories: list[tuple[str, str]] = field(default_factory=list)  # functions that build one class (``servers.py``)
    built: list[tuple[str, str]] = field(default_factory=list)  # names bound to an imported function's value
    decorated: dict[str, int] = field(default_factory=dict)  # its own decorators' uses (``own_decorators``)
    helpers: dict[str, tuple[str, str, int | None]] = field(default_factory=dict)  # its tool-making methods
    commands: Commands | None = None  # its Typer apps' commands, and whether it serves them as tools (``commands.py``)
    unserved: dict[str, Registry] = field(default_factory=dict)  # its ``served:`` registries without the server
    registry_text: dict[str, str] = field(default_factory=dict)  # its registries' framework text (``registry_text.py``)
    server_texts: frozenset[str] = frozenset()  # the text wrappers of the MCP servers it imports
    frameworks: frozenset[str] = frozenset()  # the agent/MCP frameworks it imports (``frameworks.py``)
    # s56: the capitalised names the file refers to (a class built or listed): a protocol's implementer no file names
    # is no tool of the run (``protocols.py``)
    refs: frozenset[str] = frozenset()


def describe_source(
    source: bytes | str, path: str, config: "Config", tables: Tables | None = None,
    own_roots: frozenset[str] = frozenset(), require_complete: bool = False,
    summarise: tuple[str, ...] | None = None, adopt: Adopt | None = None, inject: Inject = (), lint: bool = True,
) -> _FileResult:
    """Describe the tools of one module's source (never raises: a crash is a TFH002 error); with ``summarise``,
    only those helpers of it (paths ``f``, ``C.m``) for the tools of other files that call them. ``lint=False``
    (:func:`discover_spans`): the ``ast`` phase only, the rows bare (name, form, spans), no lint of the file."""
    from .. import engine

    tables = tables or Tables.build(config)
    observer = _Observer(path, tables, own_roots, require_complete, summarise, adopt, inject)
    if not lint:
        return _discovered(source, path, config, observer)
    observer.models = _lint_models()
    try:
        findings = engine.lint_source(source, path, config, observer=observer)
    except Exception as exc:  # pragma: no cover - lint_source never raises
        findings = [engine._pseudo(path, engine.INTERNAL_ERROR, 1, 1, f"internal error: {exc}")]
    errors = [f for f in findings if f.code in (engine.PARSE_ERROR, engine.INTERNAL_ERROR)]
    # s50: newer syntax than this Python's ``ast`` (PEP 701 on 3.11): say so, rather than list 0 tools in silence
    unread = unread_by_ast(source, path) if not observer.screened and not errors and summarise is None else []
    tools = observer.facts.tools if observer.facts is not None else []
    # a helper's summary reads its same-module helpers' calls (``follow.summary_defs``), but counts the findings of
    # its own body only: theirs reach a tool through their own summaries, as far as their text is passed on
    own_spans = {d.qualname: d.spans for d in observer.defs if is_summary(d)}
    sites: dict[str, list[tuple[str, int, str, bool]]] = {}  # a summary's findings: (file, line, code, in its own body)
    for tool in tools:
        spans = own_spans.get(tool.qualname, tool.spans) if is_summary(tool) else tool.spans
        for f in findings:
            if f.code in (engine.PARSE_ERROR, engine.INTERNAL_ERROR):
                continue
            if f.code == "TFH101" and observer.facts is not None and observer.facts.asked_elsewhere(f.message, tool.spans):
                continue  # a shared request helper's retry of a POST another caller asks for: not this row's
            own = any(start <= f.line <= end for start, end in spans)
            if own:
                tool.findings[f.code] = tool.findings.get(f.code, 0) + 1
            if is_summary(tool) and (own or any(start <= f.line <= end for start, end in tool.spans)):
                sites.setdefault(tool.qualname, []).append((path, f.line, f.code, own))
        tool.findings = dict(sorted(tool.findings.items()))
        tool.text_with_tfh401()  # lint saw an exception turned into text
    uncaught = observer.facts.uncaught if observer.facts is not None else set()
    summaries = {t.qualname: Summary([replace(c, helper=c.helper or t.name.rsplit(".", 1)[-1]) for c in t.calls], t.findings,
                                     t.failures, id(t) not in uncaught,
                                     [replace(r, helper=r.helper or t.name.rsplit(".", 1)[-1]) for r in t.retries],
                                     t.local is not None, tuple(sites.get(t.qualname, ())), t.raises, t.local or ())
                 for t in tools if is_summary(t)}
    rows = [t for t in tools if not is_summary(t)]
    fronts = observer.facts.fronts if observer.facts is not None else {}
    direct = observer.facts.direct if observer.facts is not None else set()
    links = [(observer.links.get(fronts.get(id(t), ("", -1)), ((), (), ())), id(t) in uncaught, id(t) in direct)
             for t in rows]
    if summarise is not None:
        return _FileResult(path, [], [], False, [], graph=observer.graph, summaries=summaries)
    if adopt is not None:
        return _FileResult(path, rows, [], False, [], graph=observer.graph, summaries=summaries, links=links)
    return _FileResult(path, [] if observer.pending else rows, observer.classes, observer.pending,
                       ([] if observer.pending or not observer.defs else errors) + unread, observer.dispatch, observer.shapes,
                       observer.registries, observer.params, observer.wrapping, observer.exports, observer.markers,
                       observer.reads, observer.graph,
                       {} if observer.pending else summaries, [] if observer.pending else links, observer.imported,
                       [] if observer.pending else observer.remotes, observer.injected, observer.free,
                       observer.factories, observer.built, observer.decorated, observer.helpers, observer.commands,
                       observer.unserved, observer.registry_text, observer.server_texts, observer.frameworks,
                       observer.refs)


def _lint_models() -> tuple[type, ...]:  # imported at the first lint: the ast-only table imports neither them nor facts
    from ...rules.errors.model import ErrorModel
    from ...rules.errors.text import ExceptionText
    from ...rules.retries.model import RetryModel
    return (RetryModel, ErrorModel, ExceptionText)  # ExceptionText needs ErrorModel first


def _discovered(source: bytes | str, path: str, config: "Config", observer: _Observer) -> _FileResult:
    """s56 (issue 23): what :func:`describe_source` finds from the file's ``ast`` alone (:meth:`_Observer.region`, where
    every form is discovered), no lint: a bare row per tool (name, form, spans of its functions and helpers), no facts."""
    from ..rule import Screen

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes etc.
            tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _FileResult(path, [], [], False, [])
    observer.region(Screen(tree, package_of(path), path), config.knowledge())
    rows = [Tool(d.name, path, d.line, d.framework, d.form, d.qualname, "unknown", "unknown", "",
                 spans=[*d.spans, *d.helper_spans], demo=d.demo) for d in observer.defs if not is_summary(d)]
    if observer.summarise is not None:
        return _FileResult(path, [], [], False, [], graph=observer.graph)
    if observer.adopt is not None:
        return _FileResult(path, rows, [], False, [], graph=observer.graph)
    return _FileResult(path, [] if observer.pending else rows, observer.classes, observer.pending, [],
                       observer.dispatch, observer.shapes, observer.registries, observer.params, observer.wrapping,
                       observer.exports, observer.markers, observer.reads, observer.graph, {}, [], observer.imported,
                       [] if observer.pending else observer.remotes, observer.injected, observer.free,
                       observer.factories, observer.built, observer.decorated, observer.helpers, observer.commands,
                       observer.unserved, observer.registry_text, observer.server_texts, observer.frameworks)


def _describe_file(path: str, config: "Config", tables: Tables, own_roots: frozenset[str], require_complete: bool,
                   summarise: tuple[str, ...] | None = None, adopt: Adopt | None = None,
                   inject: Inject = (), lint: bool = True) -> _FileResult:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return _FileResult(path, [], [], False, [])
    return describe_source(data, path, config, tables, own_roots, require_complete, summarise, adopt, inject, lint)


_CONFIG: "Config | None" = None


def _init(config: "Config", provider: Provider | None = None) -> None:
    global _CONFIG
    from ..runner import ignore_sigint

    _CONFIG = config
    if provider is not None:  # a spawned worker starts without the parent's tool-table reader
        set_provider(provider)
    ignore_sigint()


def _chunk(paths: list[str], tables: Tables, own_roots: frozenset[str], require_complete: bool,
           summarise: Mapping[str, tuple[str, ...]] | None = None,
           adopt: Mapping[str, Adopt] | None = None,
           inject: Mapping[str, Inject] | None = None, lint: bool = True) -> list[_FileResult]:
    assert _CONFIG is not None, "worker not initialised"
    return [_describe_file(p, _CONFIG, tables, own_roots, require_complete,
                           summarise.get(p, ()) if summarise is not None else None,
                           adopt.get(p, ()) if adopt is not None else None,
                           (inject or {}).get(p, ()), lint) for p in paths]


class _Runner:
    """Describes files in-process or on one process pool that both phases share (workers import
    libcst and the rules once)."""

    def __init__(self, config: "Config", jobs: int, n_files: int,
                 on_pool_error: Callable[[BaseException], None] | None, lint: bool = True) -> None:
        from ..runner import pool_workers

        self.config = config
        self.lint = lint  # False: the ``ast`` phase only (:func:`_discovered`)
        self.on_pool_error = on_pool_error
        self.workers = pool_workers(jobs, n_files)
        self.pool: ProcessPoolExecutor | None = None
        if self.workers > 1:
            try:
                self.pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_init,
                                                initargs=(config, current_provider()))
            except Exception as exc:  # no usable multiprocessing here
                self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        if self.on_pool_error is not None:
            self.on_pool_error(exc)
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None

    def map(self, paths: list[str], tables: Tables, own_roots: frozenset[str], require_complete: bool,
            summarise: Mapping[str, tuple[str, ...]] | None = None,
            adopt: Mapping[str, Adopt] | None = None,
            inject: Mapping[str, Inject] | None = None) -> list[_FileResult]:
        from ..runner import chunk_size

        if self.pool is not None and len(paths) > 1:
            ordered = sorted(paths, key=lambda p: -(os.path.getsize(p) if os.path.exists(p) else 0))
            size = chunk_size(len(ordered), self.workers)
            chunks = [ordered[i : i + size] for i in range(0, len(ordered), size)]
            try:
                futures = [self.pool.submit(_chunk, c, tables, own_roots, require_complete,
                                            {p: summarise[p] for p in c} if summarise is not None else None,
                                            {p: adopt[p] for p in c} if adopt is not None else None,
                                            {p: inject[p] for p in c} if inject is not None else None,
                                            self.lint)
                           for c in chunks]
                out: list[_FileResult] = []
                for future in futures:
                    out.extend(future.result())
                return out
            except Exception as exc:  # a worker died, or the pool broke: describe in-process
                self._fail(exc)
        return [_describe_file(p, self.config, tables, own_roots, require_complete,
                               summarise.get(p, ()) if summarise is not None else None,
                               adopt.get(p, ()) if adopt is not None else None,
                               (inject or {}).get(p, ()), self.lint) for p in paths]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)


def _namespace_roots(files: Sequence[str]) -> frozenset[str]:
    """The namespace packages holding the run's modules: the directory (a name, without ``__init__.py``) above a
    file's top-level package, or holding a module outside any package (``devon_agent/tool.py``, imported as
    ``devon_agent.tool``)."""
    out: set[str] = set()
    for f in files:
        package = package_of(f)
        up = Path(os.path.abspath(f)).parents[len(package.split(".")) if package else 0]
        if up.name.isidentifier() and not (up / "__init__.py").exists():
            out.add(up.name)
    return frozenset(out)


def run(
    files: Sequence[str], config: "Config", *, jobs: int = 1,
    on_pool_error: Callable[[BaseException], None] | None = None, lint: bool = True,
) -> ToolRun:
    """Find and describe every tool in ``files`` (paths as discovery returns them); ``lint=False``: find them
    only, from each file's ``ast`` (bare rows: name, form, spans; no facts, no findings; :func:`discover_spans`)."""
    tables = Tables.build(config)
    own_roots = frozenset(filter(None, ((package_of(f) or "").split(".")[0] for f in files))) | _namespace_roots(files)
    # s56: the lint of the tools asks the project's tool table as `smullyan lint` does (TFH201/TFH203's split), with
    # or without a caller that installed it: the findings column is the lint's, whatever ran before in the process
    installs = lint and not has_provider()
    if installs:
        set_provider(discover_spans)
    runner = _Runner(config, jobs, len(files), on_pool_error, lint)
    try:
        first = runner.map(list(files), tables, own_roots, True)
        classes = [c for r in first for c in r.classes]
        shapes = [s for r in first for s in r.shapes]
        # s56: the classes implementing a tool protocol of the run without naming it: the protocol read as their base
        refs = frozenset().union(*(r.refs for r in first))
        links = {c: p for c, p in protocol_links(classes, shapes).items() if c.rsplit(".", 1)[-1] in refs}
        if links:
            classes = [(qn, [*bases, links[qn]]) if qn in links else (qn, bases) for qn, bases in classes]
        # the project's own tool base classes, by their shape (and the configured ones' template methods)
        own_bases, candidates = project_tool_bases(classes, shapes, tables)
        links = {qn: p for qn, p in links.items() if p in own_bases}
        # their files described again once the run's tool classes are known
        relinked = {r.path for r in first if not r.pending and any(qn in links for qn, _ in r.classes)}
        if own_bases:
            tables = replace(tables, bases={**tables.bases, **own_bases})
        project = tool_classes(classes, tables)
        dispatch: dict[str, dict[str, str]] = {}  # a class's own dispatchers; a runner elsewhere calling its objects'
        for qn, found in (c for r in first for c in r.dispatch):
            dispatch[qn] = {**found, **dispatch.get(qn, {})}
        roots, texts = resolve(classes, dispatch.items())
        registries = {q: r for res in first for q, r in res.registries.items()}
        # a registry that only marks what it decorates, with an attribute no file of the run reads: no registry
        reads = {k for res in first for k in res.reads}
        registries = {q: r for q, r in registries.items()
                      if not any(q in res.markers and not res.markers[q] & reads for res in first)}
        # the servers, and the run's registry decorators, handed to the run's functions (``passed_decorators.py``)
        params = resolve_passed((p for res in first for p in res.params), registries)
        # a server object or class of the run (``from pkg.core import mcp_app``, ``class JenkinsMCP(FastMCP)``)
        exports = [e for r in first for e in r.exports]
        exports += built_instances((b for r in first for b in r.built), (f for r in first for f in r.factories))
        served = server_decorators(tables.decorators, classes, exports)
        registries = served_registries(registries, served, tables.decorators,
                                       {q: r for res in first for q, r in res.unserved.items()})
        # a registry method of a module-level object imported elsewhere (``registry = Registry()``; ``from pkg.registry
        # import registry``; ``@registry.tool("web_fetch", ...)``): the method under the object's name
        registries |= {f"{obj}.{q[len(cls) + 1:]}": r for obj, cls in exports for q, r in list(registries.items())
                       if q.startswith(cls + ".") and "." not in q[len(cls) + 1:]}
        later = [r.path for r in first if r.pending or r.path in relinked]
        done = [r for r in first if not r.pending and r.path not in relinked]
        later_tables = tables
        if later:
            wrapping = frozenset(q for res in first for q in res.wrapping) - registries.keys()
            later_tables = tables.with_classes(project, roots, texts, registries, params, wrapping)
            if links:
                later_tables = replace(later_tables, protocols=links)
            servers = {t for r in first for t in r.server_texts}  # one MCP server wrapper: an untyped ``mcp``'s
            texts_of = {q: t for r in first for q, t in r.registry_text.items()}  # ``<module>.*``: a list mounted elsewhere
            later_tables = replace(later_tables, registry_text={q: t for q in registries if (t := texts_of.get(q) or texts_of.get(
                                                                    f"{q.rpartition('.')[0]}.*")) is not None},
                                   server_text=next(iter(servers)) if len(servers) == 1 else None)
            # a base class's method making a tool of what it is handed, called by subclasses in other files
            # (falcon-mcp's ``self._add_tool(server=server, method=self.search_cases, name=...)``): a wrapper
            helpers = {q: h for res in first for q, h in res.helpers.items() if q not in tables.wrappers}
            inherited_helpers(helpers, classes)
            if helpers:
                later_tables = replace(later_tables, wrappers={**helpers, **later_tables.wrappers})
            if served:
                later_tables = replace(later_tables, aliases=served, decorators={
                    **later_tables.decorators, **{k: later_tables.decorators[v] for k, v in served.items()}})
            done += runner.map(later, later_tables, own_roots, False)
        # the names the run's loaders set on the modules they run (``module.func = self``): the modules using one
        # unbound as a decorator's receiver described again with it bound to an object of the loader's class
        injected = {k: v for r in first for k, v in r.injected.items()}
        redo = {r.path: tuple((n, injected[n]) for n in sorted(r.free) if n in injected) for r in done
                if r.free & injected.keys()}
        if redo:
            done = [r for r in done if r.path not in redo] + runner.map(sorted(redo), later_tables, own_roots, False,
                                                                        inject=redo)
        graphs = {r.path: r.graph for r in [*first, *done] if r.graph is not None}
        # the functions one module's calls make tools of in another (``remote.py``): described in their own files
        remotes = [x for r in done for x in r.remotes] + entry_point_refs(files)  # and the tool entry points
        remotes += served_commands(r.commands for r in first if r.commands is not None)  # a CLI served as tools
        if remotes:
            wanted = adopted(remotes, {k: v for g in graphs.values() for k, v in g.sequences.items()},
                             Resolver(graphs.values()), (t.qualname for r in done for t in r.tools))
            if wanted:
                done += runner.map(sorted(wanted), tables, own_roots, False, adopt={p: tuple(v) for p, v in wanted.items()})
        # the run's own helpers the tools call in other modules: described where a worker has not yet, then joined
        summaries = {q: s for r in done for q, s in r.summaries.items()}
        # and the run's runners that answer what a tool raises with text (``failures_by``): their findings are the rows'
        runners = [((t.failures_by,), (), ()) for r in done for t in r.tools if t.failures_by is not None]
        missing = needed([*(w for r in done for w, _, _ in r.links), *runners], graphs.values(), summaries) if lint else {}
        if missing:
            for r in runner.map(sorted(missing), tables, own_roots, False, {p: tuple(v) for p, v in missing.items()}):
                summaries.update(r.summaries)
        join(((t, w, u, d) for r in done for t, (w, u, d) in zip(r.tools, r.links)), graphs.values(), summaries)
    finally:
        runner.close()
        if installs:
            set_provider(None)
    result = ToolRun(files_checked=len(files), candidates=candidates,
                     frameworks=sorted({f for r in first for f in r.frameworks}))
    if not any(r.tools for r in done):  # the run's own decorators a tool decorator may be: named by a run finding none
        result.decorators = decorator_candidates((r.decorated for r in first),
                                                 frozenset(q for res in first for q in res.wrapping))
    described: set[str] = set()
    for r in done:
        if (r.tools or r.errors) and r.path not in described:
            described.add(r.path)
            result.files_described += 1
        result.tools.extend(r.tools)
        result.errors.extend(r.errors)
    # tools declared in data files beside the run's files, run by a framework's runner (a runner's row gives way)
    result.tools, result.notes = declared_tools(files, (qn for qn, _ in classes), (r for res in first for r in res.imported),
                                                result.tools)
    # tools of example or demo code: left out of a run over more than that code (``demos.py``)
    gone = left_out(result.tools, files)
    if gone:
        result.tools = [t for t in result.tools if id(t) not in gone]
        result.notes.append(demo_note(len(gone)))
    # a name -> function table beside the schemas that another form (a returned handler table) already gave a row
    rows = {(t.path, t.qualname, t.name) for t in result.tools if t.form != "dispatch dict"}
    result.tools = [t for t in result.tools if t.form != "dispatch dict" or (t.path, t.qualname, t.name) not in rows]
    # a proxy is one row per source in the run (``proxies.py``): the sessions of several transports forwarding the same
    # way (an SSE, a stdio and a streamable-HTTP client module) are one forwarding form, as the reading tables count it
    firsts: dict[str, Tool] = {}
    for row in sorted((r for r in result.tools if r.framework == "proxy"), key=lambda r: (r.path, r.line)):
        firsts.setdefault(row.name, row)
    result.tools = [r for r in result.tools if r.framework != "proxy" or firsts[r.name] is r]
    for tool in result.tools:
        by_name(tool)  # nothing declared or inferred: the name's verb, shown as a guess
    result.tools.sort(key=lambda t: (t.path, t.line, t.name))
    return result


def discover_spans(files: Sequence[str], config: "Config") -> dict[str, list[tuple[int, int]]]:
    """{absolute path: the line spans of each tool's functions and same-module helpers} over ``files`` (one
    project), found from the files' ``ast`` only, in process (:mod:`.table`; :mod:`..project_tools`' provider)."""
    out: dict[str, list[tuple[int, int]]] = {}
    for tool in run(list(files), config, jobs=1, lint=False).tools:
        if tool.spans and tool.path.endswith(".py"):
            out.setdefault(os.path.abspath(tool.path), []).extend(tool.spans)
    return out
