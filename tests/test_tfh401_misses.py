"""bench/tfh401_misses.py (s57): a TFH401 recall row is classed found / near / audience / other."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import tfh401_misses  # noqa: E402

ROW = {"half": "held-out", "package": "p", "path": "m/server.py", "line": "100", "code": "TFH401", "source": ""}


def _finding(line: int, relpath: str = "m/server.py") -> dict[str, object]:
    return {"package": "p", "relpath": relpath, "path": None, "line": line, "end_line": line, "code": "TFH401"}


def test_a_finding_on_the_row_is_found() -> None:
    assert tfh401_misses.classify(ROW, [_finding(100)], []) == "found"


def test_a_finding_a_few_lines_below_is_near() -> None:
    assert tfh401_misses.classify(ROW, [_finding(100 + tfh401_misses.NEAR)], []) == "near"
    assert tfh401_misses.classify(ROW, [_finding(100 + tfh401_misses.NEAR + 1)], []) == "other"


def test_another_file_is_not_near() -> None:
    assert tfh401_misses.classify(ROW, [_finding(101, "m/other.py")], []) == "other"


def test_found_only_under_a_tools_directory_is_the_audience_gate() -> None:
    assert tfh401_misses.classify(ROW, [], [104]) == "audience"
    assert tfh401_misses.classify(ROW, [], [140]) == "other"
