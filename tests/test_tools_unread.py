"""Session 50 (batch 23, peil): a file libcst reads but the running Python's ``ast`` cannot (a PEP 701 f-string on 3.11)
was listed with 0 tools and no word; `smullyan tools` now names the file and line as a TFH001 warning."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = '''from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
d = {"a": 1}
@mcp.tool()
def t(x: str) -> str:
    """Doc."""
    return f"{d["a"]}"
'''


def _ast_reads(source: str) -> bool:
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


def _tools_json(path: Path) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-m", "smullyan", "tools", "--format", "json", str(path)],
                         capture_output=True, text=True, timeout=120)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(_ast_reads(SOURCE), reason="this Python's ast reads PEP 701 f-strings: the tool is listed")
def test_a_file_this_pythons_ast_cannot_read_is_named_not_listed_with_no_tools(tmp_path: Path) -> None:
    f = tmp_path / "server.py"
    f.write_text(SOURCE)
    report = _tools_json(f)
    errors = report["errors"]
    assert isinstance(errors, list) and len(errors) == 1
    assert errors[0]["code"] == "TFH001" and errors[0]["line"] == 7
    assert "cannot read this file" in errors[0]["message"]


def test_a_file_both_parsers_read_gets_no_such_warning(tmp_path: Path) -> None:
    f = tmp_path / "server.py"
    f.write_text(SOURCE.replace('f"{d["a"]}"', "f\"{d['a']}\""))
    report = _tools_json(f)
    assert report["errors"] == []
    assert report["summary"]["tools"] == 1  # type: ignore[index]
