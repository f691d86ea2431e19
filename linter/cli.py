"""The ``smullyan`` command: ``lint``, ``tools``, ``rules``, ``explain`` and ``clean``: the arguments,
and the commands but ``lint``, whose run lives in ``linter/cli_lint.py``.

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
from collections.abc import Sequence
from pathlib import Path

from . import output
from .cli_lint import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    PROG,
    STDIN,
    UsageError,
    _discover,
    _group_paths,
    _load_config,
    _open_output,
    lint,
)

__all__ = ["build_parser", "main"]

#: ``--target-version`` values (ruff's spelling)
TARGET_VERSIONS = tuple(f"py3{minor}" for minor in range(7, 15))

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
    lint.add_argument("--target-version", choices=TARGET_VERSIONS, metavar="VERSION",
                      help="the oldest Python the code runs on (py37 ... py314), as in ruff; checked, and "
                      "changes nothing today: the rules and fixes are the same on every Python 3")
    out = lint.add_argument_group("output")
    out.add_argument("--format", "--output-format", dest="format", choices=output.FORMATS, default="text",
                     help="output format (default: text, also called full; concise: one line per finding)")
    out.add_argument("--no-show-source", dest="show_source", action="store_false", default=True,
                     help="text format without the source line, caret and help URL (same as --format concise)")
    out.add_argument("--output", "--output-file", "-o", dest="output", type=Path, metavar="FILE",
                     help="write the report to FILE instead of stdout")
    out.add_argument("--statistics", action="store_true",
                     help="print the number of findings per code instead of the findings, as ruff does "
                     "(text and json; with other formats, after the report on stderr)")
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
    modes.add_argument("--unsafe-fixes", dest="unsafe_fixes", action="store_true", default=None,
                       help="with --fix/--diff, apply the unsafe fixes too (those that change what the "
                       "program does at run time; config: unsafe-fixes); without, show them as fixable")
    modes.add_argument("--no-unsafe-fixes", dest="unsafe_fixes", action="store_false",
                       help="apply (and mark [*]) safe fixes only, whatever the configuration says")
    modes.add_argument("--show-fixes", action="store_true",
                       help="list what --fix fixed (or, without --fix, would fix), per file and code")
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
        "agentscope, mirascope, inspect-ai tool factories, tools= of any *Agent(...) constructor, activity-style "
        "toolkits, name -> function tables a model is handed (beside the tools' schemas, or the table its tools= is "
        "built from), a low-level MCP server's call_tool table of other modules' handlers, methods, if chains and "
        "match cases dispatched by the called tool name, a project's "
        "registry decorator on a tool class or function (a decorator of the run that stores the function in a "
        "tool registry or hands it to a framework's tool decorator), tool decorators applied by a call "
        "(mcp.tool(name=...)(self.method), once per row of a literal table), servers handed to a registering function by another file, tool classes "
        "built around a callable (Tool(func=f), or the function a factory of the module returns), functions of one module made tools by another (FunctionTool(imported_f), "
        "a loop over another module's tuple or __all__, a decorator a loader's injected object applies), a project's own tool base class (named Tool/BaseTool/Skill..., leaving a method "
        "such as apply() to at least two subclasses), the runtime's classification decorators, and the configuration's "
        "tool-decorators/tool-base-classes/tool-list-constructors/tool-registrars) and print one row each: classification, "
        "calls out and their timeouts, retries, idempotency key, how failures reach the model, "
        "findings inside it. When no tool is found, tell it your framework's forms: tool-decorators "
        "(qualified names of the decorators that make a tool), tool-base-classes (the base class whose "
        "subclasses are tools; the methods it leaves to them run the tool), tool-list-constructors (calls "
        "whose tools=[...] list takes functions) or tool-registrars (calls that make a tool of the function they are "
        "handed: registry.register(fn), Command(run=fn)); it also names the likeliest base class it saw (many subclasses "
        "implementing a method the base leaves to them) with the exact tool-base-classes line to add.",
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
        result.candidates.extend(part.candidates)
        result.decorators.extend(part.decorators)
        result.notes.extend(n for n in part.notes if n not in result.notes)
        result.frameworks = sorted({*result.frameworks, *part.frameworks})
    result.candidates.sort(key=lambda c: (-c[2], c[0]))
    result.decorators.sort(key=lambda c: (-c[1], c[0]))
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
    for note in result.notes:
        if not args.quiet:
            print(f"{PROG}: warning: {note}", file=sys.stderr)
    if args.format == "json" and not result.tools and result.frameworks and not args.quiet:
        # the text and markdown reports carry the hint themselves; a JSON document stays data
        for line in tools_report.framework_hint(result):
            print(f"{PROG}: hint: {line}", file=sys.stderr)
    fails = tools_report.failing(result.tools, args.fail_on)
    if fails:
        if not args.quiet:
            for term, hit in fails.items():
                print(f"{PROG}: --fail-on {term}: {len(hit)} tool(s): "
                      + ", ".join(t.name for t in hit[:5]) + (", ..." if len(hit) > 5 else ""), file=sys.stderr)
        return EXIT_FINDINGS
    return EXIT_OK


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
            from .project_tools import set_provider
            from .tools_provider import tool_spans

            set_provider(tool_spans)  # TFH201/TFH203's split asks the project's tool table (issue 23)
            status = lint(args)
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
