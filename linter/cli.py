"""The ``smullyan`` command: ``lint``, ``tools``, ``rules`` and ``explain``.

Exit status of ``smullyan lint``: 0 no findings, 1 findings (0 with
``--exit-zero``; after ``--fix``, findings left; with ``--diff``, a diff), 2 a
usage error, a configuration error, a path that does not exist, or an
internal error.  Bad input never prints a traceback (set
``SMULLYAN_DEBUG=1`` to see one for an internal error).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from . import discovery, output
from .findings import Finding

if TYPE_CHECKING:
    from .cache import Cache
    from .config import Config

__all__ = ["build_parser", "main"]

PROG = "smullyan"
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
STDIN = "-"


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit 2."""


#: What the linter imports beyond the standard library (the ``[lint]`` extra).
LINT_EXTRA = "smullyan[lint]"


def missing_linter_dependencies() -> list[str]:
    """The linter's dependencies that are not installed (``pip install smullyan`` is the runtime only)."""
    import importlib.util

    return [name for name in ("libcst",) if importlib.util.find_spec(name) is None]


def _require_linter() -> None:
    missing = missing_linter_dependencies()
    if missing:
        raise UsageError(
            f"the linter needs {', '.join(missing)}, which is not installed "
            f"(`pip install smullyan` installs only the runtime): pip install '{LINT_EXTRA}'"
        )


def _version() -> str:
    from .. import __version__

    return str(__version__)


# --------------------------------------------------------------------------- arguments


def _code_list(value: str) -> tuple[str, ...]:
    """Comma-separated selectors, as written: checked against the rules later (exit 2)."""
    return tuple(c.strip() for c in value.split(",") if c.strip())


def _glob_list(value: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in value.split(",") if c.strip())


def _per_file_ignores(value: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """flake8's syntax: ``glob:CODE,CODE glob2:CODE`` (whitespace or commas between entries)."""
    pairs: list[tuple[str, list[str]]] = []
    for token in value.replace(",", " ").split():
        if ":" in token:
            glob, _, codes = token.rpartition(":")
            if not glob:
                raise argparse.ArgumentTypeError(f"expected \"glob:CODES\", got {token!r}")
            pairs.append((glob, [c for c in codes.split(",") if c]))
        elif pairs:
            pairs[-1][1].append(token)
        else:
            raise argparse.ArgumentTypeError(f"expected \"glob:CODES\" entries, got {value!r}")
    for glob, named in pairs:
        if not named:
            raise argparse.ArgumentTypeError(f"{glob!r} names no codes; expected \"glob:CODE,CODE\"")
    return tuple((g, tuple(c)) for g, c in pairs)


def _jobs(value: str) -> int:
    if value == "auto":
        return 0
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'auto', got {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'auto', got {value!r}")
    return jobs


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse's own behaviour (usage + message, exit 2), with our program name
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Find unsafe tool-failure handling in Python code for LLM agents.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lint = sub.add_parser(
        "lint",
        help="lint files and directories",
        description="Lint Python files. Directories are walked for *.py files, skipping "
        ".git, virtualenvs, build/dist and what .gitignore ignores.",
    )
    lint.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or directories to lint (default: .); '-' reads stdin",
    )
    sel = lint.add_argument_group("rule selection")
    sel.add_argument("--select", type=_code_list, metavar="CODES",
                     help="comma-separated codes or prefixes to enable (replaces the config's)")
    sel.add_argument("--extend-select", type=_code_list, metavar="CODES", action="append",
                     help="codes or prefixes to enable on top of the selection")
    sel.add_argument("--ignore", type=_code_list, metavar="CODES",
                     help="comma-separated codes or prefixes to disable (replaces the config's)")
    sel.add_argument("--extend-ignore", type=_code_list, metavar="CODES", action="append",
                     help="codes or prefixes to disable on top of the config's ignore")
    sel.add_argument("--per-file-ignores", type=_per_file_ignores, metavar="GLOB:CODES",
                     help="flake8's syntax, e.g. 'tests/*:TFH201 scripts/*:TFH2' (replaces the config's; "
                     "globs relative to the current directory)")
    files = lint.add_argument_group("file selection")
    files.add_argument("--exclude", type=_glob_list, metavar="GLOBS",
                       help="comma-separated globs of files/directories to skip (replaces the default list)")
    files.add_argument("--extend-exclude", type=_glob_list, metavar="GLOBS", action="append",
                       help="globs to skip on top of the default list and the config's")
    files.add_argument("--stdin-filename", metavar="NAME",
                       help="read the source from stdin and report it as NAME (also matched by "
                       "per-file-ignores and used to find the configuration)")
    lint.add_argument("--config", type=Path, metavar="FILE",
                      help="pyproject.toml or .smullyan.yaml to use instead of searching for one")
    out = lint.add_argument_group("output")
    out.add_argument("--format", "--output-format", dest="format", choices=output.FORMATS, default="text",
                     help="output format (default: text, also called full; concise: one line per finding)")
    out.add_argument("--no-show-source", dest="show_source", action="store_false", default=True,
                     help="text format without the source line, caret and help URL (same as --format concise)")
    out.add_argument("--output", "-o", type=Path, metavar="FILE",
                     help="write the report to FILE instead of stdout")
    out.add_argument("--statistics", action="store_true",
                     help="print the number of findings per code at the end")
    out.add_argument("--exit-zero", action="store_true",
                     help="exit 0 even when there are findings")
    out.add_argument("--quiet", "-q", action="store_true",
                     help="print the findings and nothing else")
    run = lint.add_argument_group("running")
    run.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                     help="worker processes: a number or 'auto' (default: auto = all cores; 1 lints in-process)")
    run.add_argument("--no-cache", action="store_true",
                     help="neither read nor write the cache")
    run.add_argument("--cache-dir", type=Path, metavar="DIR",
                     help="where the cache lives (default: $SMULLYAN_CACHE_DIR, else .smullyan_cache/ at "
                     "the project root: the config's directory, else the git root, else the current directory)")
    modes = lint.add_argument_group("other modes (print, change files, or lint nothing)")
    modes.add_argument("--fix", action="store_true",
                       help="apply the fixes of fixable findings (marked [*]; config: fixable/unfixable), "
                       "then report what is left; with stdin, print the fixed source")
    modes.add_argument("--diff", action="store_true",
                       help="print a unified diff of what --fix would change and write nothing "
                       "(exit 1 when there is a diff)")
    modes.add_argument("--add-noqa", action="store_true",
                       help="append '# noqa: CODE' to every line that has a finding (merging with an "
                       "existing '# noqa: ...'), then exit 0")
    modes.add_argument("--show-settings", action="store_true",
                       help="print the resolved configuration of each path and where it came from, then exit")
    modes.add_argument("--show-files", action="store_true",
                       help="print the files that would be linted, then exit")

    _add_tools_parser(sub)

    rules = sub.add_parser("rules", help="list every rule", description="List every rule: code, name, summary.")
    shape = rules.add_mutually_exclusive_group()
    shape.add_argument("--markdown", action="store_true",
                       help="print the whole catalogue with every rule's docs, as Markdown (docs/rules.md)")
    shape.add_argument("--json", action="store_true",
                       help="print the whole catalogue as JSON: code, name, summary, level, docs (Markdown)")

    explain = sub.add_parser("explain", help="show a rule's documentation",
                             description="Print a rule's documentation (Markdown).")
    explain.add_argument("code", metavar="CODE", help="a rule code (TFH201) or name (call-without-timeout)")

    clean = sub.add_parser("clean", help="delete the cache",
                           description="Delete the findings cache of the project around PATH "
                           "(default: the current directory), or the one --cache-dir names.")
    clean.add_argument("paths", nargs="*", metavar="PATH", help="a path in the project (default: .)")
    clean.add_argument("--cache-dir", type=Path, metavar="DIR", help="the cache directory to delete")
    clean.add_argument("--config", type=Path, metavar="FILE", help="the configuration that marks the project root")
    return parser


def _fail_on(value: str) -> tuple[str, ...]:
    from .tools.report import FailOnError, parse_fail_on

    try:
        return parse_fail_on(value)
    except FailOnError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_tools_parser(sub: "argparse._SubParsersAction[_Parser]") -> None:
    tools = sub.add_parser(
        "tools",
        help="list every tool an agent can call, with its failure design",
        description="Find every tool (LangChain, OpenAI Agents, MCP, pydantic-ai, CrewAI, smolagents, "
        "LlamaIndex, agno, camel, autogen, semantic-kernel, langroid, google-adk, browser-use, metagpt, "
        "agentscope, mirascope, tools= of any *Agent(...) constructor, activity-style toolkits, schema "
        "dispatch dicts, the runtime's classification decorators, and the configuration's "
        "tool-decorators/tool-base-classes/tool-list-constructors) and print one row each: classification, "
        "calls out and their timeouts, retries, idempotency key, how failures reach the model, "
        "findings inside it. When no tool is found, tell it your framework's forms: tool-decorators "
        "(qualified names of the decorators that make a tool), tool-base-classes (the base class whose "
        "subclasses are tools) or tool-list-constructors (calls whose tools=[...] list takes functions).",
    )
    tools.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    tools.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                       help="text (a table that fits the terminal), markdown, or json (schema in docs/cli.md)")
    tools.add_argument("--wide", action="store_true",
                       help="text: the full table at its natural width (default: a table that fits the "
                       "terminal, one block per tool below 120 columns)")
    tools.add_argument("--fail-on", type=_fail_on, metavar="TERMS", default=(),
                       help="exit 1 when a tool matches one of these comma-separated terms: unkeyed-write, "
                       "no-timeout, unbounded-retry, text-errors, swallowed-errors, unknown-classification, findings")
    tools.add_argument("--config", type=Path, metavar="FILE",
                       help="pyproject.toml or .smullyan.yaml to use instead of searching for one")
    tools.add_argument("--extend-exclude", type=_glob_list, metavar="GLOBS", action="append",
                       help="globs to skip on top of the default list and the config's")
    tools.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the report to FILE")
    tools.add_argument("--quiet", "-q", action="store_true", help="the table only, no summary")
    tools.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                       help="worker processes: a number or 'auto' (default: auto = all cores; 1 runs in-process)")
    tools.set_defaults(select=None, ignore=None, extend_select=None, extend_ignore=None,
                       per_file_ignores=None, exclude=None, stdin_filename=None)


def _tools(args: argparse.Namespace) -> int:
    from . import runner, tools
    from .tools import report as tools_report
    from .config import ConfigError

    paths = list(args.paths) or ["."]
    for p in paths:
        if p == STDIN:
            raise UsageError("`smullyan tools` reads files, not stdin")
        if not os.path.exists(p):
            raise UsageError(f"path not found: {p}")
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"config file not found: {args.config}")
    try:
        groups = _group_paths(args, paths)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    jobs = args.jobs or runner.default_jobs()
    result = tools.ToolRun()

    def pool_warning(exc: BaseException) -> None:
        if not args.quiet:
            print(f"{PROG}: warning: no process pool ({exc}); running in-process", file=sys.stderr)

    for group in groups:
        part = tools.run(_discover(group), group.config, jobs=jobs, on_pool_error=pool_warning)
        result.tools.extend(part.tools)
        result.errors.extend(part.errors)
        result.files_checked += part.files_checked
        result.files_described += part.files_described
    result.tools.sort(key=lambda t: (t.path, t.line, t.name))
    with _open_output(args.output) as stream:
        if args.format == "json":
            tools_report.format_json(result, stream, args.fail_on)
        elif args.format == "markdown":
            tools_report.format_markdown(result, stream)
        else:
            tools_report.format_text(result, stream, width=None if args.output is None else 200, quiet=args.quiet,
                                     wide=args.wide)
    for f in result.errors:
        if not args.quiet:
            print(f"{PROG}: warning: {f.path}:{f.line}: {f.code} {f.message}", file=sys.stderr)
    fails = tools_report.failing(result.tools, args.fail_on)
    if fails:
        if not args.quiet:
            for term, hit in fails.items():
                print(f"{PROG}: --fail-on {term}: {len(hit)} tool(s): "
                      + ", ".join(t.name for t in hit[:5]) + (", ..." if len(hit) > 5 else ""), file=sys.stderr)
        return EXIT_FINDINGS
    return EXIT_OK


# --------------------------------------------------------------------------- lint


@dataclass
class _Group:
    """Files that share one configuration."""

    config: Config
    start: Path
    paths: list[str] = field(default_factory=list)


def _load_config(start: Path, explicit: Path | None) -> Config:
    from .config import load_config

    return load_config(start, explicit)


def _flatten(values: list[tuple[str, ...]] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(v for group in values for v in group)


def _with_overrides(config: Config, args: argparse.Namespace) -> Config:
    return config.with_overrides(
        select=args.select,
        ignore=args.ignore,
        extend_select=_flatten(args.extend_select),
        extend_ignore=_flatten(args.extend_ignore),
        per_file_ignores=args.per_file_ignores,
        exclude=args.exclude,
        extend_exclude=_flatten(args.extend_exclude),
    )


def _config_key(config: Config) -> tuple[str | None, str, tuple[str, ...]]:
    return (config.source, config.fingerprint(), config.excludes())


def _group_paths(args: argparse.Namespace, paths: Sequence[str]) -> list[_Group]:
    """Load the configuration for each path argument (walking up from it) and group them."""
    groups: dict[tuple[str | None, str, tuple[str, ...]], _Group] = {}
    by_directory: dict[str, Config] = {}  # pre-commit passes many files from few directories
    for arg in paths:
        start = Path(args.stdin_filename or ".") if arg == STDIN else Path(arg)
        if arg == STDIN and not start.parent.exists():
            start = Path(".")
        directory = os.path.abspath(start if start.is_dir() else start.parent)
        config = by_directory.get(directory)
        if config is None:
            config = _with_overrides(_load_config(Path(directory), args.config), args)
            by_directory[directory] = config
        group = groups.setdefault(_config_key(config), _Group(config, Path(directory)))
        group.paths.append(arg)
    return list(groups.values())


@contextlib.contextmanager
def _open_output(target: Path | None) -> Iterator[TextIO]:
    if target is None:
        yield sys.stdout
        return
    try:
        stream = open(target, "w", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    with stream:
        yield stream


def _check_paths(args: argparse.Namespace) -> list[str]:
    paths: list[str] = list(args.paths)
    if args.stdin_filename is not None:
        if not paths:
            paths = [STDIN]  # --stdin-filename implies reading stdin, as in ruff
        elif STDIN not in paths:
            raise UsageError("--stdin-filename reads stdin: give '-' (or no path), not "
                             + ", ".join(paths))
    paths = paths or ["."]
    for p in paths:
        if p != STDIN and not os.path.exists(p):
            raise UsageError(f"path not found: {p}")
    if paths.count(STDIN) > 1:
        raise UsageError("'-' (stdin) can be given only once")
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"config file not found: {args.config}")
    if args.add_noqa and STDIN in paths:
        raise UsageError("--add-noqa changes files; it cannot read stdin")
    if args.add_noqa and (args.fix or args.diff):
        raise UsageError("--add-noqa cannot be combined with --fix or --diff")
    return paths


def _discover(group: _Group) -> list[str]:
    file_args = [p for p in group.paths if p != STDIN]
    if not file_args:
        return []
    try:
        return discovery.discover(file_args, excludes=group.config.excludes(), root=str(group.config.root))
    except discovery.PathNotFound as exc:
        raise UsageError(str(exc)) from None


def _cache_for(args: argparse.Namespace, group: _Group) -> Cache | None:
    from . import cache as cache_mod

    if args.no_cache:
        return None
    directory = cache_mod.cache_directory(group.config.source, start=group.start, explicit=args.cache_dir)
    return cache_mod.Cache.for_config(directory, group.config.fingerprint())


def _lint(args: argparse.Namespace) -> int:
    from . import runner
    from .config import ConfigError

    paths = _check_paths(args)
    try:
        groups = _group_paths(args, paths)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None

    if args.show_settings:
        _show_settings(args, groups)
        return EXIT_OK
    if args.show_files:
        for file in sorted({f for group in groups for f in _discover(group)}):
            print(file)
        return EXIT_OK

    jobs = args.jobs or runner.default_jobs()
    findings: list[Finding] = []
    files_checked = 0
    stdin_sources: dict[str, bytes] = {}
    fixing = _Fixing(args)

    def pool_warning(exc: BaseException) -> None:
        if not args.quiet:
            print(f"{PROG}: warning: no process pool ({exc}); linting in-process", file=sys.stderr)

    for group in groups:
        if STDIN in group.paths:
            data = sys.stdin.buffer.read() if sys.stdin is not None else b""
            display = discovery.display_path(args.stdin_filename) if args.stdin_filename else "stdin"
            stdin_sources[display] = data
            found = runner.lint_stdin(data, display, group.config)
            if fixing.active:
                found = fixing.fix_stdin(data, display, group.config, found)
            findings.extend(fixing.mark(found, group.config))
            files_checked += 1
        files = _discover(group)
        if not files:
            continue
        cache = _cache_for(args, group)
        result = runner.run(files, group.config, jobs=jobs, cache=cache, on_pool_error=pool_warning)
        found = result.findings
        if fixing.active:
            found = fixing.fix_files(found, group.config, cache)
        findings.extend(fixing.mark(found, group.config))
        files_checked += result.files_checked

    if files_checked == 0 and not args.quiet:
        print(f"{PROG}: warning: no Python files found under {', '.join(paths)}", file=sys.stderr)
    findings = runner.sort_findings(findings)
    if args.add_noqa:
        from . import noqa

        added, changed = noqa.add_noqa(findings)
        if not args.quiet:
            print(f"Added {added} noqa directive{'s' if added != 1 else ''} "
                  f"to {changed} file{'s' if changed != 1 else ''}.")
        return EXIT_OK
    if args.diff:
        return fixing.report_diff()
    from .source import decode

    if fixing.stdin_output is not None:
        # the fixed source goes to stdout (as ruff does); the findings left go to stderr
        _report(args, findings, files_checked, stdin_sources, fixing, stream=sys.stderr if args.output is None else None)
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is not None:
            buffer.write(fixing.stdin_output)  # the bytes as read: encoding and line endings kept
        else:
            sys.stdout.write(decode(fixing.stdin_output))
    else:
        _report(args, findings, files_checked, stdin_sources, fixing)
    if findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_OK


class _Fixing:
    """``--fix`` / ``--diff``: fix each group's files with its configuration (``linter/fixes.py``)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.active = bool(args.fix or args.diff)
        self.fixed = 0
        self.diffs: list[str] = []
        self.stdin_output: bytes | None = None
        self.fixable_ids: set[int] = set()

    def mark(self, findings: list[Finding], config: Config) -> list[Finding]:
        """Remember which findings ``--fix`` would fix (``[*]``, JSON and SARIF fixes)."""
        self.fixable_ids.update(id(f) for f in findings if f.fix is not None and config.is_fixable(f.code, f.path))
        return findings

    def is_fixable(self, finding: Finding) -> bool:
        return id(finding) in self.fixable_ids

    def fix_stdin(self, data: bytes, display: str, config: Config, found: list[Finding]) -> list[Finding]:
        from . import fixes, source as source_mod

        try:
            source = source_mod.from_bytes(data)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            if self.args.fix and not self.args.diff:
                self.stdin_output = data
            return found
        result = fixes.fix_text(source.text, display, config, found)
        self.fixed += len(result.fixed)
        if self.args.diff:
            if result.changed:
                self.diffs.append(fixes.diff(display, source.text, result.text))
            return found
        self.stdin_output = source.encode(result.text) if result.changed else data
        return result.remaining if result.changed else found

    def fix_files(self, found: list[Finding], config: Config, cache: Cache | None) -> list[Finding]:
        from . import fixes, source as source_mod
        from .cache import file_digest
        from .packages import package_of

        by_path: dict[str, list[Finding]] = {}
        for f in found:
            by_path.setdefault(f.path, []).append(f)
        out: list[Finding] = []
        written = False
        for path, file_findings in by_path.items():
            if not fixes.fixable(file_findings, config):
                out.extend(file_findings)
                continue
            outcome = fixes.fix_file(path, config, file_findings, write=False)
            if outcome is None or not outcome[1].changed:
                out.extend(file_findings)
                continue
            source, result = outcome
            self.fixed += len(result.fixed)
            if self.args.diff:
                self.diffs.append(fixes.diff(path, source.text, result.text))
                out.extend(file_findings)
                continue
            try:
                data = source.encode(result.text)
                source_mod.write_atomic(path, data)
            except (OSError, UnicodeEncodeError) as exc:
                self.fixed -= len(result.fixed)
                print(f"{PROG}: warning: cannot write the fixes to {path}: {getattr(exc, 'strerror', None) or exc}",
                      file=sys.stderr)
                out.extend(file_findings)
                continue
            out.extend(result.remaining)
            if cache is not None:
                # the fix's last pass linted the text just written: its findings are the file's
                # cache entry (the file is not linted a third time to refresh it)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                cache.record(path, path, st.st_size, st.st_mtime_ns, file_digest(data), result.remaining,
                             package=package_of(path) or "")
                written = True
        if written and cache is not None:
            cache.save()
        return out

    def report_diff(self) -> int:
        for text in self.diffs:
            sys.stdout.write(text)
        if not self.args.quiet:
            n = self.fixed
            print(f"Would fix {n} finding{'s' if n != 1 else ''}." if n else "No fixes available.", file=sys.stderr)
        return EXIT_FINDINGS if self.diffs else EXIT_OK


def _show_settings(args: argparse.Namespace, groups: Sequence[_Group]) -> None:
    """Each group's resolved settings, as TOML-ish lines, with where each came from."""
    import json

    from . import cache as cache_mod

    for i, group in enumerate(groups):
        config = group.config
        if i:
            print()
        print(f"# paths: {' '.join(group.paths)}")
        print(f"# configuration file: {config.source or '(none: defaults)'}")
        print(f"# globs relative to: {config.root}")
        cache_dir = cache_mod.cache_directory(config.source, start=group.start, explicit=args.cache_dir)
        print(f"# cache: {'(off: --no-cache)' if args.no_cache else cache_dir}")
        for key, value in config.settings().items():
            origin = config.origins.get(key, "default")
            print(f"{key} = {json.dumps(value)}  # {origin}")


def _report(
    args: argparse.Namespace,
    findings: list[Finding],
    files_checked: int,
    stdin_sources: dict[str, bytes],
    fixing: _Fixing,
    stream: TextIO | None = None,
) -> None:
    fixable = fixing.is_fixable
    with _open_output(args.output) if stream is None else contextlib.nullcontext(stream) as stream:
        fmt = args.format
        sources = output.SourceLines(stdin_sources)
        if fixing.stdin_output is not None:
            # the findings are those of the fixed source
            sources = output.SourceLines({path: fixing.stdin_output for path in stdin_sources})
        if fmt in ("text", "full", "concise"):
            output.format_text(
                findings,
                stream,
                sources=sources,
                color=output.use_color(stream, to_file=args.output is not None),
                show_source=args.show_source and fmt != "concise",
                fixable=fixable,
            )
        elif fmt == "json":
            output.format_json(findings, stream, sources=sources, fixable=fixable)
        elif fmt == "sarif":
            output.format_sarif(findings, stream, fixable=fixable)
        else:
            output.format_github(findings, stream)
        # Extra lines must not corrupt a machine-readable document on stdout.
        if fmt in ("text", "full", "concise", "github"):
            human: TextIO = stream
        elif args.output is not None:
            human = sys.stdout
        else:
            human = sys.stderr
        if args.statistics:
            output.format_statistics(findings, human)
        if not args.quiet and fmt in ("text", "full", "concise"):
            output.format_summary(findings, files_checked, human, fixable=fixable, fixed=fixing.fixed)


def _clean(args: argparse.Namespace) -> int:
    from . import cache as cache_mod
    from .config import ConfigError

    start = Path(args.paths[0]) if args.paths else Path(".")
    if not start.exists():
        raise UsageError(f"path not found: {start}")
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"config file not found: {args.config}")
    try:
        config = _load_config(start, args.config)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    directory = cache_mod.cache_directory(config.source, start=start, explicit=args.cache_dir)
    try:
        removed = cache_mod.clear(directory)
    except cache_mod.NotACache as exc:
        raise UsageError(str(exc)) from None
    print(f"Removed {directory}" if removed else f"No cache at {directory}")
    return EXIT_OK


# --------------------------------------------------------------------------- rules / explain


def _rules(args: argparse.Namespace) -> int:
    catalogue = output.rule_catalogue()
    if args.markdown:
        print(_markdown_catalogue(catalogue), end="")
        return EXIT_OK
    if args.json:
        print(output.catalogue_json(catalogue), end="")
        return EXIT_OK
    code_w = max((len(m.code) for m in catalogue), default=6)
    name_w = max((len(m.name) for m in catalogue), default=4)
    for meta in catalogue:
        print(f"{meta.code:<{code_w}}  {meta.name:<{name_w}}  {meta.summary}")
    return EXIT_OK


def _rule_docs(meta: output.RuleMeta) -> str:
    """A rule's docs with a ``# CODE name`` title and its summary."""
    docs = meta.docs.strip()
    if docs.startswith("# "):
        return docs + "\n"
    return f"# {meta.code} {meta.name}\n\n{meta.summary}\n" + (f"\n{docs}\n" if docs else "")


def _markdown_catalogue(catalogue: Sequence[output.RuleMeta]) -> str:
    """Every rule's docs in one Markdown page, titles one level down, with an index."""
    parts = [
        "# Rules\n",
        "Every rule smullyan ships, with its docs. Generated by `smullyan rules --markdown`;\n"
        "a test keeps this page in step with the code. `smullyan explain CODE` prints one entry.\n",
        "| code | name | summary |\n|---|---|---|\n"
        + "".join(f"| [{m.code}](#{m.code.lower()}-{m.name}) | `{m.name}` | {m.summary} |\n" for m in catalogue),
    ]
    for meta in catalogue:
        lines, fenced = [], False
        for line in _rule_docs(meta).splitlines():
            if line.startswith("```"):
                fenced = not fenced
            lines.append("#" + line if line.startswith("#") and not fenced else line)
        parts.append("\n".join(lines).rstrip() + "\n")
    return "\n".join(parts)


def _explain(args: argparse.Namespace) -> int:
    meta = output.find_rule(args.code)
    if meta is None:
        raise UsageError(f"unknown rule: {args.code} (`{PROG} rules` lists them)")
    print(_rule_docs(meta), end="")
    return EXIT_OK


# --------------------------------------------------------------------------- main


def _reconfigure_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    _reconfigure_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        if args.command in ("lint", "tools"):  # `rules` and `explain` read the shipped catalogue without it
            _require_linter()
        if args.command == "lint":
            status = _lint(args)
        elif args.command == "tools":
            status = _tools(args)
        elif args.command == "rules":
            status = _rules(args)
        elif args.command == "clean":
            status = _clean(args)
        else:
            status = _explain(args)
        sys.stdout.flush()  # a closed pipe shows up here, not at interpreter exit
        return status
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`smullyan lint | head`): stop quietly, as cat does.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except Exception as exc:  # a bug in smullyan: one line, not a traceback, unless asked
        if os.environ.get("SMULLYAN_DEBUG"):
            traceback.print_exc()
        print(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            f"(set SMULLYAN_DEBUG=1 for a traceback; please report it)",
            file=sys.stderr,
        )
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
