"""Real-code survey: lint agent frameworks from PyPI and sample the findings.

Run: ``.venv/bin/python bench/real_code.py`` (``--sample 25`` per rule by default).

1. Installs the pinned packages below with ``--no-deps`` (only their source is
   needed) into a scratch venv ``bench/.corpus/venv-survey``.
2. Copies each distribution's ``.py`` files into a scratch directory outside
   the repository (so no ``.gitignore``, cache or ``[tool.smullyan]`` of this
   checkout applies), and lints each with the CLI:
   ``smullyan lint --no-cache --format json --exit-zero`` (every rule, default
   configuration).
3. Prints per package: files, lines, findings per code; writes every finding
   to ``bench/.corpus/survey/findings.json``.
4. Draws a reproducible sample of findings per rule (``--sample`` per code,
   spread over the packages, fixed seed) and writes each with its source
   context to ``bench/.corpus/survey/sample-<CODE>.txt`` for a person to read
   and classify (true positive / false positive / debatable). The verdicts
   live in ``docs/real-code-survey.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Sequence

HERE = Path(__file__).resolve().parent
CORPUS_ROOT = HERE / ".corpus"
OUT = CORPUS_ROOT / "survey"
BIN = Path(sys.executable).parent

PACKAGES = {
    "langchain": "1.5.0",
    "langchain-core": "1.8.1",
    "langchain-community": "0.4.2",
    "langgraph": "1.2.22",
    "openai-agents": "0.24.0",
    "llama-index-core": "0.14.25",
    "crewai": "1.15.30",
    "autogen-agentchat": "0.7.5",
    "autogen-core": "0.7.5",
    "smolagents": "1.26.0",
    "composio": "0.30.0",
    "pydantic-ai-slim": "2.68.0",
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def ensure_venv() -> Path:
    venv = CORPUS_ROOT / "venv-survey"
    stamp = venv / ".survey-installed"
    pins = [f"{name}=={version}" for name, version in PACKAGES.items()]
    if stamp.exists() and stamp.read_text() == " ".join(pins):
        return venv
    log(f"installing {len(pins)} packages into {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", *pins],
        check=True,
    )
    stamp.write_text(" ".join(pins))
    return venv


def distribution_files(venv: Path, dist: str) -> list[Path]:
    prog = (
        "import importlib.metadata as m, sys\n"
        "for f in m.files(sys.argv[1]) or ():\n"
        "    if str(f).endswith('.py') and '..' not in str(f): print(f.locate())"
    )
    out = subprocess.run([str(venv / "bin" / "python"), "-c", prog, dist], check=True, capture_output=True, text=True)
    return sorted(Path(p).resolve() for p in out.stdout.split())


def copy_files(files: list[Path], site: Path, dest: Path) -> tuple[list[str], int]:
    copies: list[str] = []
    lines = 0
    for f in files:
        target = dest / f.relative_to(site)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = f.read_bytes()
        target.write_bytes(data)
        lines += data.count(b"\n")
        copies.append(str(target))
    return copies, lines


def lint(files: list[str], cwd: Path, jobs: int) -> list[dict[str, Any]]:
    cmd = [str(BIN / "smullyan"), "lint", "--no-cache", "--format", "json", "--exit-zero", "-j", str(jobs), *files]
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"smullyan lint exited {proc.returncode}: {proc.stderr[-2000:]}")
    findings: list[dict[str, Any]] = json.loads(proc.stdout or "[]")
    return findings


def context(path: str, line: int, end_line: int, before: int = 6, after: int = 3) -> str:
    text = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    lo, hi = max(1, line - before), min(len(text), max(line, end_line) + after)
    return "\n".join(f"{'>' if line <= n <= end_line else ' '}{n:6d}  {text[n - 1]}" for n in range(lo, hi + 1))


def sample(findings: list[dict[str, Any]], per_code: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    """Up to ``per_code`` findings per code, round-robin over packages so no package dominates."""
    rng = random.Random(seed)
    by_code: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for f in findings:
        by_code[f["code"]][f["package"]].append(f)
    picked: dict[str, list[dict[str, Any]]] = {}
    for code, by_pkg in sorted(by_code.items()):
        pools = {pkg: rng.sample(items, len(items)) for pkg, items in sorted(by_pkg.items())}
        chosen: list[dict[str, Any]] = []
        while len(chosen) < per_code and any(pools.values()):
            for pkg in sorted(pools):
                if pools[pkg] and len(chosen) < per_code:
                    chosen.append(pools[pkg].pop())
        picked[code] = chosen
    return picked


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=25, help="findings per rule to sample (default 25)")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--work", type=Path, default=None, help="scratch directory for the copies")
    args = ap.parse_args(argv)

    CORPUS_ROOT.mkdir(parents=True, exist_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    venv = ensure_venv()
    work = args.work or Path(tempfile.mkdtemp(prefix="smullyan-survey-"))
    all_findings: list[dict[str, Any]] = []
    rows: list[tuple[str, int, int, Counter[str]]] = []
    codes: set[str] = set()
    for dist, version in PACKAGES.items():
        files = distribution_files(venv, dist)
        if not files:
            log(f"{dist}: no .py files")
            continue
        site = next(p for p in files[0].parents if p.name == "site-packages")
        copies, lines = copy_files(files, site, work / dist)
        findings = lint(copies, work, args.jobs)
        for f in findings:
            f["package"] = dist
            f["relpath"] = os.path.relpath(f["path"], work / dist)
        counts = Counter(f["code"] for f in findings)
        codes |= set(counts)
        rows.append((f"{dist} {version}", len(copies), lines, counts))
        all_findings.extend(findings)
        log(f"{dist}: {len(copies)} files, {lines} lines, {dict(sorted(counts.items()))}")

    ordered = sorted(codes)
    header = "| package | files | lines | " + " | ".join(ordered) + " | total |"
    table = [header, "|---|---:|---:|" + "---:|" * (len(ordered) + 1)]
    total_files = total_lines = 0
    total: Counter[str] = Counter()
    for name, nfiles, nlines, counts in rows:
        table.append(f"| {name} | {nfiles} | {nlines:,} | " + " | ".join(str(counts.get(c, 0)) for c in ordered)
                     + f" | {sum(counts.values())} |")
        total_files += nfiles
        total_lines += nlines
        total += counts
    table.append(f"| **all** | {total_files} | {total_lines:,} | " + " | ".join(str(total.get(c, 0)) for c in ordered)
                 + f" | {sum(total.values())} |")
    print("\n".join(table))

    (OUT / "findings.json").write_text(json.dumps(all_findings, indent=1))
    (OUT / "table.md").write_text("\n".join(table) + "\n")
    for old in OUT.glob("sample-*.txt"):
        old.unlink()
    for code, chosen in sample(all_findings, args.sample, args.seed).items():
        parts = []
        for i, f in enumerate(chosen, 1):
            parts.append(
                f"#{i} {f['package']} {f['relpath']}:{f['line']}:{f['column']} {f['code']} {f['message']}\n"
                + context(f["path"], f["line"], f["end_line"])
            )
        (OUT / f"sample-{code}.txt").write_text("\n\n".join(parts) + "\n")
    log(f"findings: {OUT / 'findings.json'}; samples: {OUT}/sample-*.txt; copies: {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
