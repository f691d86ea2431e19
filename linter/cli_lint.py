"""``smullyan lint``: the run behind the command line (``linter/cli.py`` parses the arguments).

Paths are grouped by the configuration that applies to them; each group is linted
(``runner``), fixed (``--fix``/``--diff``: :class:`_Fixing`, ``linter/fixes.py``) and reported
in the chosen format (``linter/output.py``). Also the helpers ``smullyan tools`` and ``clean``
share: loading the configuration, grouping, discovering files, opening ``--output``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from . import discovery, output
from .findings import Finding

if TYPE_CHECKING:
    from .cache import Cache
    from .config import Config

__all__ = ["EXIT_ERROR", "EXIT_FINDINGS", "EXIT_OK", "PROG", "STDIN", "UsageError", "lint"]

PROG = "smullyan"
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
STDIN = "-"
#: ``--select ALL`` (and the other selector options): every rule, the off-by-default ones included
ALL = "ALL"


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit 2."""



@dataclass
class _Group:
    """Files that share one configuration (the nearest to each file: ``config_files.Resolver``)."""

    config: Config
    start: Path
    paths: list[str] = field(default_factory=list)  # the files found, and '-' for stdin
    named: list[str] = field(default_factory=list)  # the command-line paths that resolve to it


def _load_config(start: Path, explicit: Path | None) -> Config:
    from .config_files import load_config

    return load_config(start, explicit)


def _flatten(values: list[tuple[str, ...]] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(v for group in values for v in group)


def _expand_all(codes: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """``ALL`` (ruff's selector): every rule, as the prefix ``TFH`` and the off-by-default codes (TFH003, TFH203),
    so that an ``--ignore`` prefix (``TFH4``) still takes rules out, as after ruff's ``ALL``."""
    if codes is None or ALL not in codes:
        return codes
    from .config import OFF_BY_DEFAULT

    out: list[str] = []
    for code in codes:
        out.extend(["TFH", *sorted(OFF_BY_DEFAULT)] if code == ALL else [code])
    return tuple(dict.fromkeys(out))


def _with_overrides(config: Config, args: argparse.Namespace) -> Config:
    return config.with_overrides(
        select=_expand_all(args.select),
        ignore=_expand_all(args.ignore),
        extend_select=_expand_all(_flatten(args.extend_select)),
        extend_ignore=_expand_all(_flatten(args.extend_ignore)),
        per_file_ignores=args.per_file_ignores,
        exclude=args.exclude,
        extend_exclude=_flatten(args.extend_exclude),
    )


def _config_key(config: Config) -> tuple[str | None, str, tuple[str, ...]]:
    return (config.source, config.fingerprint(), config.excludes())


def _group_paths(args: argparse.Namespace, paths: Sequence[str]) -> list[_Group]:
    """Find the files under ``paths`` and group them by the configuration that applies to each.

    One :class:`~smullyan.linter.config_files.Resolver` answers for every file, so
    ``smullyan lint pkg`` gives ``pkg/sub/x.py`` the configuration that ``smullyan lint
    pkg/sub/x.py`` (pre-commit) and flake8 give it; a nested configuration's ``exclude``
    applies below it. An invalid configuration anywhere raises ConfigError.
    """
    from .config_files import Resolver

    resolver = Resolver(args.config, lambda config: _with_overrides(config, args))
    groups: dict[tuple[str | None, str, tuple[str, ...]], _Group] = {}

    def group_of(config: Config, start: Path) -> _Group:
        return groups.setdefault(_config_key(config), _Group(config, start))

    def warn(message: str) -> None:
        if not args.quiet:
            print(f"{PROG}: warning: {message}", file=sys.stderr)

    files = [p for p in paths if p != STDIN]
    for arg in paths:
        if arg == STDIN:  # the configuration of --stdin-filename, else of the current directory
            group = group_of(resolver.for_file(args.stdin_filename) if args.stdin_filename
                             else resolver.for_path(STDIN), Path("."))
            group.paths.append(STDIN)
        else:
            group_of(resolver.for_path(arg), Path(os.path.abspath(arg))).named.append(arg)
    try:
        found = discovery.discover(files, excludes_for=resolver.excludes_for, warn=warn) if files else []
    except discovery.PathNotFound as exc:
        raise UsageError(str(exc)) from None
    for file in found:
        group_of(resolver.for_file(file), Path(os.path.dirname(os.path.abspath(file)))).paths.append(file)
    return [g for g in groups.values() if g.paths or g.named]


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
    if args.statistics and args.format == "json-v2":
        raise UsageError("--statistics prints text or ruff's statistics JSON (--format json), not json-v2")
    return paths


def _discover(group: _Group) -> list[str]:
    """The group's files (found by :func:`_group_paths`)."""
    return [p for p in group.paths if p != STDIN]


def _cache_for(args: argparse.Namespace, group: _Group) -> Cache | None:
    from . import cache as cache_mod

    if args.no_cache:
        return None
    directory = cache_mod.cache_directory(group.config.source, start=group.start, explicit=args.cache_dir)
    return cache_mod.Cache.for_config(directory, group.config.fingerprint())


def lint(args: argparse.Namespace) -> int:
    """Run ``smullyan lint`` with parsed arguments; returns the exit status."""
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
        status = fixing.report_diff(findings)
        return EXIT_OK if args.exit_zero else status
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
    """``--fix`` / ``--diff``: fix each group's files with its configuration (``linter/fixes.py``).

    A fix is *offered* when the configuration's ``fixable``/``unfixable`` allow it (JSON and SARIF
    show it, with its applicability), *applied* by ``--fix`` when it is also safe or unsafe fixes
    are on (``--unsafe-fixes``, config ``unsafe-fixes``): those are marked ``[*]``. The others
    are *hidden*: the summary says how many, and how to apply them.
    """

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.active = bool(args.fix or args.diff)
        self.fixed = 0
        self.fixed_findings: list[Finding] = []
        self.diffs: list[str] = []
        self.stdin_output: bytes | None = None
        self.offered_ids: set[int] = set()
        self.fixable_ids: set[int] = set()

    def unsafe(self, config: Config) -> bool:
        """Whether unsafe fixes apply for this configuration's files (the command line wins)."""
        flag: bool | None = self.args.unsafe_fixes
        return config.unsafe_fixes if flag is None else flag

    def mark(self, findings: list[Finding], config: Config) -> list[Finding]:
        """Remember which findings have a fix the configuration allows, and which ``--fix`` would apply."""
        from .findings import applies, offered

        unsafe = self.unsafe(config)
        for f in offered(findings, config):
            self.offered_ids.add(id(f))
            if applies(f.fix, unsafe):
                self.fixable_ids.add(id(f))
        return findings

    def is_offered(self, finding: Finding) -> bool:
        return id(finding) in self.offered_ids

    def is_fixable(self, finding: Finding) -> bool:
        return id(finding) in self.fixable_ids

    def is_hidden(self, finding: Finding) -> bool:
        return id(finding) in self.offered_ids and id(finding) not in self.fixable_ids

    def fix_stdin(self, data: bytes, display: str, config: Config, found: list[Finding]) -> list[Finding]:
        from . import fixes, source as source_mod

        try:
            source = source_mod.from_bytes(data)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            if self.args.fix and not self.args.diff:
                self.stdin_output = data
            return found
        result = fixes.fix_text(source.text, display, config, found, unsafe=self.unsafe(config))
        self.fixed += len(result.fixed)
        self.fixed_findings.extend(result.fixed)
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
            unsafe = self.unsafe(config)
            if not fixes.fixable(file_findings, config, unsafe=unsafe):
                out.extend(file_findings)
                continue
            outcome = fixes.fix_file(path, config, file_findings, write=False, unsafe=unsafe)
            if outcome is None or not outcome[1].changed:
                out.extend(file_findings)
                continue
            source, result = outcome
            self.fixed += len(result.fixed)
            self.fixed_findings.extend(result.fixed)
            if self.args.diff:
                self.diffs.append(fixes.diff(path, source.text, result.text))
                out.extend(file_findings)
                continue
            try:
                data = source.encode(result.text)
                source_mod.write_atomic(path, data)
            except (OSError, UnicodeEncodeError) as exc:
                self.fixed -= len(result.fixed)
                del self.fixed_findings[len(self.fixed_findings) - len(result.fixed):]
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

    def report_diff(self, findings: Sequence[Finding]) -> int:
        """The diffs on stdout; on stderr what they fix and, as ruff says it, the unsafe fixes left out."""
        for text in self.diffs:
            sys.stdout.write(text)
        if not self.args.quiet:
            n = self.fixed
            hidden = sum(1 for f in findings if self.is_hidden(f))
            more = f" ({hidden} additional fix{'es' if hidden != 1 else ''} available with `--unsafe-fixes`)" if hidden else ""
            if n:
                print(f"Would fix {n} finding{'s' if n != 1 else ''}{more}.", file=sys.stderr)
            elif hidden:
                print(f"No findings would be fixed{more}.", file=sys.stderr)
            else:
                print("No fixes available.", file=sys.stderr)
            if self.args.show_fixes:
                output.format_fix_summary(self.fixed_findings, sys.stderr, applied=False)
        return EXIT_FINDINGS if self.diffs else EXIT_OK


def _show_settings(args: argparse.Namespace, groups: Sequence[_Group]) -> None:
    """Each configuration that applies (the nearest to each file), its paths and files, and its
    resolved settings as TOML-ish lines, with where each came from."""
    import json

    from . import cache as cache_mod

    for i, group in enumerate(groups):
        config = group.config
        if i:
            print()
        files = _discover(group)
        named = set(group.named)
        shown = [*group.named, *(p for p in group.paths if p not in named)]
        more = f" (and {len(shown) - 8} more)" if len(shown) > 8 else ""
        print(f"# paths: {' '.join(shown[:8])}{more}")
        print(f"# files: {len(files)} linted with this configuration")
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
    text_formats = ("text", "full", "concise")
    with _open_output(args.output) if stream is None else contextlib.nullcontext(stream) as stream:
        fmt = args.format
        sources = output.SourceLines(stdin_sources)
        if fixing.stdin_output is not None:
            # the findings are those of the fixed source
            sources = output.SourceLines({path: fixing.stdin_output for path in stdin_sources})
        if args.statistics and fmt in (*text_formats, "json"):
            # ruff's --statistics: the counts instead of the findings
            if fmt == "json":
                output.format_statistics_json(findings, stream, fixable=fixable)
            else:
                output.format_statistics(findings, stream, fixable=fixable)
                _summary(args, findings, files_checked, stream, fixing)
            return
        if fmt in text_formats:
            output.format_text(
                findings,
                stream,
                sources=sources,
                color=output.use_color(stream, to_file=args.output is not None),
                show_source=args.show_source and fmt != "concise",
                fixable=fixable,
            )
        elif fmt == "json":
            output.format_json(findings, stream, sources=sources, fixable=fixing.is_offered)
        elif fmt == "json-v2":
            output.format_json_envelope(findings, stream, files_checked=files_checked, sources=sources,
                                        fixable=fixable, offered=fixing.is_offered, fixed=fixing.fixed)
        elif fmt == "sarif":
            output.format_sarif(findings, stream, fixable=fixing.is_offered)
        elif fmt == "gitlab":
            output.format_gitlab(findings, stream)
        elif fmt == "junit":
            output.format_junit(findings, stream)
        else:
            output.format_github(findings, stream)
        # Extra lines must not corrupt a machine-readable document on stdout.
        if fmt in (*text_formats, "github"):
            human: TextIO = stream
        elif args.output is not None:
            human = sys.stdout
        else:
            human = sys.stderr
        if args.statistics:
            output.format_statistics(findings, human, fixable=fixable)
        if fmt in text_formats:
            _summary(args, findings, files_checked, human, fixing)
        elif args.fix and not args.quiet:
            hidden = sum(1 for f in findings if fixing.is_hidden(f))
            if hidden:
                print(output.hidden_fixes_hint(hidden, fixing=True), file=sys.stderr)
        if args.show_fixes and not args.quiet:
            _show_fixes(args, findings, human, fixing)


def _summary(args: argparse.Namespace, findings: list[Finding], files_checked: int, stream: TextIO,
             fixing: _Fixing) -> None:
    if not args.quiet:
        output.format_summary(findings, files_checked, stream, fixable=fixing.is_fixable, fixed=fixing.fixed,
                              hidden=fixing.is_hidden, fixing=bool(args.fix))


def _show_fixes(args: argparse.Namespace, findings: list[Finding], stream: TextIO, fixing: _Fixing) -> None:
    """``--show-fixes``: after ``--fix`` what it fixed; without, what it would fix."""
    if args.fix:
        output.format_fix_summary(fixing.fixed_findings, stream, applied=True)
    else:
        output.format_fix_summary([f for f in findings if fixing.is_fixable(f)], stream, applied=False)

