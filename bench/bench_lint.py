"""Lint speed: smullyan (CLI and flake8 plugin) vs flake8 and fixit, on two corpora.

Run with ``make bench-lint`` (installs the ``bench`` extras, then this script).

Corpora (copied into one scratch directory outside any git repository, because
fixit skips files that a ``.gitignore`` ignores, and ``bench/.corpus/`` is
ignored):

* ``stdlib``: every ``.py`` of the running Python's standard library, without
  site-packages and without the test suites (``test/``, ``*/tests/``,
  ``idle_test/``), as in the issue's reference figures (834 files, 360k lines on
  3.11). ``--stdlib-tests`` adds the test suites (about 1,800 files); files that
  ``ast.parse`` rejects (lib2to3's Python 2 samples, bad-syntax fixtures) are
  left out either way and counted.
* ``agent``: the ``openai-agents`` package (pinned below), installed from PyPI
  with ``--no-deps`` into a scratch venv under ``bench/.corpus/``.

Every tool gets the same explicit list of files, runs in its own process (wall
time includes the process start, as a user sees it), and is timed best-of-N.
Rounds are interleaved (every tool once, then again) so that noise from other
work on the machine spreads over all tools. CPU time is the
``resource.getrusage(RUSAGE_CHILDREN)`` delta around each run (it includes
worker processes, e.g. fixit's pool).

Tools:

1. ``flake8 --select E9,F -j1`` in a scratch venv without smullyan: the baseline (1.0x);
2. ``smullyan lint -j1 --no-cache`` (every rule; cold);
3. ``smullyan lint -j1`` after removing the cache (fills it), then again (cached);
4. ``flake8 --select E9,F,TFH -j1`` with the plugin installed (this venv), and
   ``flake8 --select E9,F -j1`` with the plugin installed but not selected;
5. ``fixit lint`` (default rules; it has no -j: it runs a process pool over all cores);
6. informative: ``ast.parse`` and ``libcst.parse_module`` over the corpus, one process.

Targets (the issue): cold <= 1.0x baseline; the plugin adds <= 0.5x; a cached
re-run <= 0.1x of a cold one. Also: ``pydoc_data/topics.py`` lints cleanly.
"""

from __future__ import annotations

import argparse
import ast
import datetime as _dt
import importlib.metadata as md
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

HERE = Path(__file__).resolve().parent
CORPUS_ROOT = HERE / ".corpus"
BIN = Path(sys.executable).parent  # the venv that runs this script (smullyan installed); see --snapshot

AGENT_PACKAGES = ["openai-agents==0.24.0"]
AGENT_DISTRIBUTION = "openai-agents"
FIXIT_PACKAGES = ["fixit==2.2.1"]
TEST_DIRS = ("test", "tests", "idle_test")


# ---------------------------------------------------------------- set-up


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def ensure_venv(name: str, packages: Sequence[str], extra: Sequence[str] = ()) -> Path:
    """A scratch venv under bench/.corpus/ with exactly ``packages`` (pinned); reused when present."""
    venv = CORPUS_ROOT / name
    stamp = venv / ".bench-installed"
    want = " ".join([*packages, *extra])
    if stamp.exists() and stamp.read_text() == want:
        return venv
    log(f"creating {venv} with {want}")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *extra, *packages],
        check=True,
    )
    stamp.write_text(want)
    return venv


def snapshot_venv() -> Path:
    """A venv with a non-editable install of this checkout's HEAD, so that edits made while a
    long benchmark runs (the editable install follows the work tree) cannot change it midway."""
    repo = HERE.parent
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()
    venv = CORPUS_ROOT / "venv-snapshot"
    stamp = venv / ".bench-installed"
    if stamp.exists() and stamp.read_text() == head:
        return venv
    src = CORPUS_ROOT / "snapshot-src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", head], cwd=repo, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    shutil.rmtree(venv, ignore_errors=True)
    log(f"installing smullyan {head[:10]} (non-editable) into {venv}")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pins = [_same_version(d) for d in ("libcst", "flake8", "pyflakes", "pycodestyle", "pyyaml")]
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *pins, str(src)], check=True)
    stamp.write_text(head)
    return venv


def _same_version(dist: str) -> str:
    return f"{dist}=={md.version(dist)}"


def ast_accepts(path: Path) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


@dataclass
class Corpus:
    name: str
    source: str
    files: list[str]  # copies, absolute paths
    lines: int
    left_out: list[str] = field(default_factory=list)  # did not parse

    @property
    def count(self) -> int:
        return len(self.files)


def _walk_py(root: Path, skip_dirs: set[str]) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip_dirs)
        out.extend(Path(dirpath) / n for n in sorted(names) if n.endswith(".py"))
    return out


def _copy_corpus(name: str, source_root: Path, files: list[Path], work: Path) -> Corpus:
    dest_root = work / name
    copies: list[str] = []
    left_out: list[str] = []
    lines = 0
    for f in files:
        rel = f.relative_to(source_root)
        if not ast_accepts(f):
            left_out.append(rel.as_posix())
            continue
        dest = dest_root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = f.read_bytes()
        dest.write_bytes(data)
        lines += data.count(b"\n")
        copies.append(str(dest))
    return Corpus(name, str(source_root), copies, lines, left_out)


def stdlib_corpus(work: Path, with_tests: bool) -> Corpus:
    root = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "dist-packages", "__pycache__"}
    if not with_tests:
        skip |= set(TEST_DIRS)
    return _copy_corpus("stdlib-tests" if with_tests else "stdlib", root, _walk_py(root, skip), work)


def agent_corpus(work: Path) -> Corpus:
    venv = ensure_venv("venv-agent", AGENT_PACKAGES, extra=["--no-deps"])
    py = venv / "bin" / "python"
    listing = subprocess.run(
        [str(py), "-c", (
            "import importlib.metadata as m\n"
            f"for f in m.files({AGENT_DISTRIBUTION!r}):\n"
            "    if str(f).endswith('.py'): print(f.locate())"
        )],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    files = sorted(Path(p).resolve() for p in listing)
    site = Path(os.path.commonpath([str(p) for p in files]))
    return _copy_corpus("agent", site.parent, files, work)


# ---------------------------------------------------------------- measuring


@dataclass
class Run:
    wall: float
    cpu: float
    returncode: int


def run_timed(cmd: Sequence[str], cwd: Path, stdout_path: Path | None = None) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(stdout_path or os.devnull, "wb") as out:
        proc = subprocess.run(list(cmd), cwd=cwd, stdout=out, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        log(f"  ! {cmd[0]} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-600:]}")
    return Run(wall, cpu, proc.returncode)


@dataclass
class Tool:
    key: str
    label: str
    command: Callable[[Corpus, Path], list[str]]
    before: Callable[[Corpus, Path], None] | None = None  # untimed preparation
    repeat: int | None = None  # None: the global --repeat
    runs: list[Run] = field(default_factory=list)

    def best(self) -> Run:
        return min(self.runs, key=lambda r: r.wall)


def _clear_cache(_: Corpus, cwd: Path) -> None:
    shutil.rmtree(cwd / ".smullyan_cache", ignore_errors=True)


def make_tools(flake8_venv: Path, fixit_venv: Path, filelist: Path, with_fixit: bool) -> list[Tool]:
    f8_base = str(flake8_venv / "bin" / "flake8")
    f8_plug = str(BIN / "flake8")
    smullyan = str(BIN / "smullyan")
    py = str(BIN / "python")
    ast_prog = (
        "import ast, sys, warnings\nwarnings.simplefilter('ignore')\n"
        "for p in open(sys.argv[1]).read().split('\\n'):\n"
        "    ast.parse(open(p, 'rb').read(), filename=p)\n"
    )
    cst_prog = (
        "import libcst, sys\n"
        "for p in open(sys.argv[1]).read().split('\\n'):\n"
        "    libcst.parse_module(open(p, 'rb').read())\n"
    )
    tools = [
        Tool("flake8", "flake8 --select E9,F -j1 (baseline)",
             lambda c, w: [f8_base, "--select", "E9,F", "-j1", *c.files]),
        Tool("cold", "smullyan lint -j1 --no-cache (cold)",
             lambda c, w: [smullyan, "lint", "-j1", "--no-cache", "--format", "json", *c.files]),
        Tool("fill", "smullyan lint -j1 (cache empty: fills it)",
             lambda c, w: [smullyan, "lint", "-j1", "--format", "json", *c.files], before=_clear_cache),
        Tool("cached", "smullyan lint -j1 (cached re-run)",
             lambda c, w: [smullyan, "lint", "-j1", "--format", "json", *c.files]),
        Tool("plugin", "flake8 --select E9,F,TFH -j1 (plugin)",
             lambda c, w: [f8_plug, "--select", "E9,F,TFH", "-j1", *c.files]),
        Tool("plugin-off", "flake8 --select E9,F -j1 (plugin installed, TFH off)",
             lambda c, w: [f8_plug, "--select", "E9,F", "-j1", *c.files]),
        Tool("ast", "python: ast.parse every file",
             lambda c, w: [py, "-c", ast_prog, str(filelist)]),
        Tool("libcst", "python: libcst.parse_module every file",
             lambda c, w: [py, "-c", cst_prog, str(filelist)]),
    ]
    if with_fixit:
        tools.append(Tool("fixit", "fixit lint (default rules, 2 workers)",
                          lambda c, w: [str(fixit_venv / "bin" / "fixit"), "lint", *c.files]))
    return tools


def bench_corpus(corpus: Corpus, tools: list[Tool], repeat: int, fixit_repeat: int, cwd: Path) -> None:
    rounds = max(repeat, fixit_repeat)
    for r in range(rounds):
        for tool in tools:
            n = fixit_repeat if tool.key == "fixit" else repeat
            if r >= n:
                continue
            if tool.before:
                tool.before(corpus, cwd)
            out = cwd / f".out-{tool.key}.txt"
            run = run_timed(tool.command(corpus, cwd), cwd, out)
            tool.runs.append(run)
            log(f"  [{corpus.name} round {r + 1}] {tool.key:10s} {run.wall:7.2f} s wall {run.cpu:7.2f} s cpu rc={run.returncode}")


def smullyan_findings(cwd: Path) -> Counter[str]:
    try:
        data = json.loads((cwd / ".out-cold.txt").read_text() or "[]")
    except (OSError, ValueError):
        return Counter()
    return Counter(f["code"] for f in data)


def flake8_findings(cwd: Path, key: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    try:
        text = (cwd / f".out-{key}.txt").read_text(errors="replace")
    except OSError:
        return counts
    for line in text.splitlines():
        parts = line.split(": ", 1)
        if len(parts) == 2 and parts[1][:1].isalpha():
            counts[parts[1].split(" ", 1)[0]] += 1
    return counts


# ---------------------------------------------------------------- topics.py


def check_topics(fixit_venv: Path | None, work: Path) -> dict[str, str]:
    """Lint pydoc_data/topics.py (one huge literal) with smullyan (CLI and plugin) and fixit."""
    src = Path(sysconfig.get_paths()["stdlib"]) / "pydoc_data" / "topics.py"
    if not src.exists():
        return {"smullyan": "no topics.py in this Python"}
    target = work / "topics" / "topics.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, target)
    result: dict[str, str] = {}
    p = subprocess.run([str(BIN / "smullyan"), "lint", "-j1", "--no-cache", "--format", "json", str(target)],
                       capture_output=True, text=True, cwd=target.parent)
    findings = json.loads(p.stdout or "[]") if p.returncode in (0, 1) else None
    ok = p.returncode == 0 and findings == [] and "Traceback" not in p.stderr
    result["smullyan lint"] = "clean (exit 0, no finding)" if ok else f"FAIL exit {p.returncode}: {p.stdout[:300]} {p.stderr[-300:]}"
    p = subprocess.run([str(BIN / "flake8"), "--select", "E9,F,TFH", "-j1", str(target)],
                       capture_output=True, text=True, cwd=target.parent)
    ok = p.returncode == 0 and "TFH" not in p.stdout and "Traceback" not in p.stderr
    result["flake8 + plugin"] = "clean (exit 0)" if ok else f"FAIL exit {p.returncode}: {p.stdout[:300]} {p.stderr[-300:]}"
    if fixit_venv is not None:
        p = subprocess.run([str(fixit_venv / "bin" / "fixit"), "lint", str(target)],
                           capture_output=True, text=True, cwd=target.parent)
        both = p.stdout + p.stderr
        result["fixit lint"] = ("RecursionError (file not linted)" if "RecursionError" in both
                                else f"exit {p.returncode}: {both.strip()[-200:]}")
    return result


# ---------------------------------------------------------------- report


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report(corpus: Corpus, tools: list[Tool], cwd: Path) -> tuple[list[str], dict[str, object]]:
    by = {t.key: t for t in tools}
    base = by["flake8"].best().wall
    rows = [
        f"### {corpus.name}: {corpus.count} files, {corpus.lines:,} lines"
        + (f" ({len(corpus.left_out)} files left out: ast.parse rejects them)" if corpus.left_out else ""),
        "",
        "| tool | files/s | wall s (best of n) | CPU s | ratio to baseline (wall) | n |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for t in tools:
        b = t.best()
        rows.append(
            f"| {t.label} | {corpus.count / b.wall:,.1f} | {b.wall:.2f} | {b.cpu:.2f} | {b.wall / base:.2f}x | {len(t.runs)} |"
        )
    cold = by["cold"].best().wall
    cached = by["cached"].best().wall
    plugin = by["plugin"].best().wall
    plugin_off = by["plugin-off"].best().wall
    targets = [
        ("smullyan cold <= 1.0x flake8", cold / base, cold / base <= 1.0),
        ("plugin adds <= +0.5x to flake8", (plugin - base) / base, (plugin - base) / base <= 0.5),
        ("plugin not selected ~ 1.0x (<= 1.1x)", plugin_off / base, plugin_off / base <= 1.1),
        ("cached re-run <= 0.1x of cold", cached / cold, cached / cold <= 0.1),
    ]
    rows += ["", "| target | measured | verdict |", "|---|---:|---|"]
    rows += [f"| {name} | {value:+.2f}x |  {verdict(ok)} |" if "adds" in name else f"| {name} | {value:.2f}x | {verdict(ok)} |"
             for name, value, ok in targets]
    if "fixit" in by:
        fx = by["fixit"].best()
        rows += ["", f"fixit: {fx.wall / base:.2f}x wall (2 workers), {fx.cpu / by['flake8'].best().cpu:.2f}x CPU of the "
                 f"baseline's CPU; smullyan cold is {fx.wall / cold:.1f}x faster in wall, {fx.cpu / by['cold'].best().cpu:.1f}x in CPU."]
    counts = smullyan_findings(cwd)
    plug_counts = {k: v for k, v in flake8_findings(cwd, "plugin").items() if k.startswith("TFH")}
    rows += ["", "smullyan findings (cold run): " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"),
             "flake8 plugin TFH findings: " + (", ".join(f"{k} {v}" for k, v in sorted(plug_counts.items())) or "none")]
    data: dict[str, object] = {
        "corpus": {k: v for k, v in asdict(corpus).items() if k != "files"} | {"count": corpus.count},
        "tools": {t.key: {"label": t.label, "runs": [asdict(r) for r in t.runs]} for t in tools},
        "targets": {name: {"value": value, "pass": ok} for name, value, ok in targets},
        "smullyan_findings": dict(counts),
        "plugin_findings": plug_counts,
    }
    return rows, data


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per tool, best taken (default 3)")
    ap.add_argument("--fixit-repeat", type=int, default=1, help="runs of fixit (slow; default 1)")
    ap.add_argument("--corpus", choices=["stdlib", "agent", "all"], default="all")
    ap.add_argument("--stdlib-tests", action="store_true", help="include the stdlib's test suites (~1,800 files)")
    ap.add_argument("--no-fixit", action="store_true", help="skip fixit")
    ap.add_argument("--work", type=Path, default=None, help="scratch directory for the corpus copies (default: a new temp dir)")
    ap.add_argument("--snapshot", action="store_true",
                    help="measure a non-editable install of git HEAD (bench/.corpus/venv-snapshot) instead of this venv")
    ap.add_argument("--json", type=Path, default=CORPUS_ROOT / "bench_lint_results.json", help="where to write raw results")
    args = ap.parse_args(argv)

    CORPUS_ROOT.mkdir(parents=True, exist_ok=True)
    global BIN
    if args.snapshot:
        BIN = snapshot_venv() / "bin"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent, capture_output=True, text=True).stdout.strip()
    rules = subprocess.run([str(BIN / "smullyan"), "rules"], capture_output=True, text=True).stdout.split("\n")
    rule_codes = [r.split()[0] for r in rules if r.strip()]
    flake8_venv = ensure_venv("venv-flake8", [_same_version(d) for d in ("flake8", "pyflakes", "pycodestyle")])
    fixit_venv = None if args.no_fixit else ensure_venv("venv-fixit", FIXIT_PACKAGES)
    plugin_listed = "smullyan" in subprocess.run([str(BIN / "flake8"), "--version"], capture_output=True, text=True).stdout
    if not plugin_listed:
        log("! the smullyan flake8 plugin is not registered in this venv (flake8 --version does not list it)")

    work = args.work or Path(tempfile.mkdtemp(prefix="smullyan-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    corpora: list[Corpus] = []
    if args.corpus in ("stdlib", "all"):
        corpora.append(stdlib_corpus(work, args.stdlib_tests))
    if args.corpus in ("agent", "all"):
        corpora.append(agent_corpus(work))

    header = [
        f"date: {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC; machine: {os.cpu_count()} cores, "
        f"{platform.machine()}, {platform.system()}; Python {platform.python_version()}; "
        f"smullyan {md.version('smullyan')} at {commit}{' (snapshot)' if args.snapshot else ' (this venv)'} "
        f"with {len(rule_codes)} rules ({', '.join(rule_codes)}), flake8 {md.version('flake8')}, libcst {md.version('libcst')}, "
        f"fixit {FIXIT_PACKAGES[0].split('==')[1] if fixit_venv else '-'}; best of {args.repeat} "
        f"(fixit: {0 if args.no_fixit else args.fixit_repeat}); plugin registered: {plugin_listed}",
        "",
    ]
    lines = list(header)
    print("\n".join(header), flush=True)
    results: dict[str, object] = {"header": header[0], "corpora": {}}
    for corpus in corpora:
        cwd = work / corpus.name
        filelist = work / f"{corpus.name}.files"
        filelist.write_text("\n".join(corpus.files))
        log(f"corpus {corpus.name}: {corpus.count} files, {corpus.lines} lines, {len(corpus.left_out)} left out; cwd {cwd}")
        tools = make_tools(flake8_venv, fixit_venv or Path("/nonexistent"), filelist, fixit_venv is not None)
        bench_corpus(corpus, tools, args.repeat, args.fixit_repeat, cwd)
        rows, data = report(corpus, tools, cwd)
        lines += rows + [""]
        results["corpora"][corpus.name] = data  # type: ignore[index]
        print("\n".join(rows) + "\n", flush=True)

    topics = check_topics(fixit_venv, work)
    rows = ["### pydoc_data/topics.py", ""] + [f"- {k}: {v}" for k, v in topics.items()]
    lines += rows
    results["topics"] = topics
    print("\n".join(rows), flush=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2))
    args.json.with_suffix(".md").write_text("\n".join(lines) + "\n")
    log(f"raw results: {args.json} (+ .md); corpus copies: {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
