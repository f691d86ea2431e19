"""Cost of ``smullyan tools`` against ``smullyan lint`` on the same files.

    python bench/bench_tools.py PATH [PATH ...] [--jobs N] [--repeats R]

Each PATH (a package directory, e.g. ``/work/corpus/site/agno``) is run with both
commands, each in its own process (wall time includes the process start, as a
user sees it), ``lint --no-cache`` (``tools`` keeps no cache), the same
``--jobs``, rounds interleaved so noise from other processes hits both; prints
every time, the median and the best of each, and the ratio tools / lint (the
goal: at most 1.0).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = [sys.executable, "-m", "smullyan"]


def _time(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=3600)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--jobs", "-j", default="2")
    parser.add_argument("--repeats", "-r", type=int, default=3)
    args = parser.parse_args(argv)
    for path in args.paths:
        lint = [*CLI, "lint", "--no-cache", "--exit-zero", "-q", "--format", "json", "-j", args.jobs, path]
        tools = [*CLI, "tools", "-q", "--format", "json", "-j", args.jobs, path]
        times: dict[str, list[float]] = {"lint": [], "tools": []}
        for _ in range(args.repeats):
            times["lint"].append(_time(lint))
            times["tools"].append(_time(tools))
        med = {k: statistics.median(v) for k, v in times.items()}
        best = {k: min(v) for k, v in times.items()}
        print(f"{path} (jobs {args.jobs}, {args.repeats} rounds)")
        for k, v in times.items():
            print(f"  {k:5}  median {med[k]:6.2f} s  best {best[k]:6.2f} s  [{', '.join(f'{t:.2f}' for t in v)}]")
        print(f"  tools / lint: median {med['tools'] / med['lint']:.2f}, best {best['tools'] / best['lint']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
