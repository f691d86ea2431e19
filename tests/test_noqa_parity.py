"""The CLI and the flake8 plugin report exactly the same findings on a corpus of
suppression comments and encodings: noqa is read in one place, as flake8 reads it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from smullyan.linter import noqa

CALL = "requests.get(u)"  # TFH201 at column 1
LINE = f"import requests\nu = 'x'\n{CALL}"

# name -> file bytes
CORPUS: dict[str, bytes] = {
    "plain": f"{LINE}\n".encode(),
    "blanket": f"{LINE}  # noqa\n".encode(),
    "blanket_upper": f"{LINE}  # NOQA\n".encode(),
    "no_space": f"{LINE}  #noqa\n".encode(),
    "no_space_codes": f"{LINE}  #noqa:TFH201\n".encode(),
    "code": f"{LINE}  # noqa: TFH201\n".encode(),
    "code_no_space": f"{LINE}  # noqa:TFH201\n".encode(),
    "code_lower": f"{LINE}  # NOQA: tfh201\n".encode(),
    "prefix": f"{LINE}  # noqa: TFH2\n".encode(),
    "other_code": f"{LINE}  # noqa: TFH202\n".encode(),
    "foreign_code": f"{LINE}  # noqa: E501\n".encode(),
    "foreign_and_ours": f"{LINE}  # noqa: E501,TFH201\n".encode(),
    "space_before_colon": f"{LINE}  # noqa : TFH202\n".encode(),
    "two_spaces_after_colon": f"{LINE}  # noqa:  TFH202\n".encode(),
    "with_reason": f"{LINE}  # noqa: TFH201 the server is local\n".encode(),
    "after_other_comment": f"{LINE}  # type: ignore # noqa: TFH201\n".encode(),
    "in_string": b"import requests\nu = 'x'\nrequests.get(u, headers={'a': '# noqa'})\n",
    "multiline_string": b"import requests\nrequests.get('''a\nb''')  # noqa: TFH201\n",
    "backslash": b"import requests\nx = \\\n    requests.get('a')  # noqa: TFH201\n",
    "file_flake8": f"# flake8: noqa\n{LINE}\n".encode(),
    "file_flake8_codes": f"# flake8: noqa: E501\n{LINE}\n".encode(),
    "file_flake8_on_code": f"x = 1  # flake8: noqa\n{LINE}\n".encode(),
    "file_smullyan": f"# smullyan: noqa\n{LINE}\n".encode(),
    "file_smullyan_code": f"# smullyan: noqa: TFH202\n{LINE}\nrequests.post(u, timeout=None)\n".encode(),
    "crlf": f"{LINE}  # noqa: TFH201\r\nrequests.get(u)\r\n".encode(),
    "bom": b"\xef\xbb\xbf" + f"{LINE}  # noqa: TFH202\n".encode(),
    "latin1_cookie": b"# -*- coding: latin-1 -*-\nimport requests\nu = '\xe9'\nrequests.get(u)\n",
    "utf8_text": "import requests\nu = 'caf\u00e9'\nrequests.get(u)  # noqa: TFH201\nrequests.get(u)\n".encode(),
    "invalid_utf8": b"import requests\nu = '\xe9\xff'\nrequests.get(u)\n",
    "unused": b"import requests\nrequests.get(u, timeout=3)  # noqa: TFH201\nrequests.get(u)  # noqa: TFH999, E501\n",
}

FINDING = re.compile(r"^(?:\./)?(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TFH\d+)")


def parse(out: str) -> set[tuple[str, int, int, str]]:
    found = set()
    for line in out.splitlines():
        m = FINDING.match(line)
        if m:
            found.add((m["path"], int(m["line"]), int(m["col"]), m["code"]))
    return found


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("noqa-corpus")
    for name, data in CORPUS.items():
        (root / f"{name}.py").write_bytes(data)
    return root


def run(cwd: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR",)}
    return subprocess.run([sys.executable, "-m", *cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


@pytest.mark.parametrize("extra", [[], ["--extend-select", "TFH003"]], ids=["default", "unused-noqa"])
def test_cli_and_flake8_agree_on_every_variant(corpus: Path, extra: list[str]) -> None:
    files = sorted(p.name for p in corpus.glob("*.py"))
    cli = run(corpus, "smullyan", "lint", "--no-cache", "--format", "concise", "-j1", *extra, *files)
    f8 = run(corpus, "flake8", "--isolated", "-j1", "--select", "TFH", *extra, *files)
    assert cli.returncode in (0, 1), cli.stderr
    assert "Traceback" not in f8.stderr + f8.stdout, f8.stdout + f8.stderr
    ours, theirs = parse(cli.stdout), parse(f8.stdout)
    assert ours == theirs, (sorted(ours - theirs), sorted(theirs - ours))
    by_file: dict[str, set[str]] = {}
    for path, line, _col, code in ours:
        by_file.setdefault(path, set()).add(f"{line}:{code}")
    # flake8's semantics, spelled out (the parity above would also hold if both were wrong)
    expected_suppressed = {
        "blanket", "blanket_upper", "code", "code_no_space", "prefix", "foreign_and_ours",
        "space_before_colon", "two_spaces_after_colon", "with_reason", "after_other_comment",
        "multiline_string", "backslash", "file_flake8", "file_flake8_codes", "file_smullyan",
        "in_string",  # flake8 searches the whole line, strings included
    }
    for name in expected_suppressed:
        assert not {c for c in by_file.get(f"{name}.py", set()) if c.endswith("TFH201")}, name
    for name in ("plain", "no_space", "no_space_codes", "code_lower", "other_code", "foreign_code",
                 "bom"):
        assert "3:TFH201" in by_file.get(f"{name}.py", set()), (name, by_file.get(f"{name}.py"))
    assert by_file["file_flake8_on_code.py"] == {"4:TFH201"}  # not on a line of its own: not honoured
    assert by_file["file_smullyan_code.py"] == {"4:TFH201"}
    assert by_file["crlf.py"] == {"4:TFH201"}
    assert by_file["latin1_cookie.py"] == {"4:TFH201"}
    assert by_file["utf8_text.py"] == {"4:TFH201"}
    assert {c.split(":")[1] for c in by_file["invalid_utf8.py"]} == {"TFH001"}
    if extra:
        assert "2:TFH003" in by_file["unused.py"] and "3:TFH003" in by_file["unused.py"]
        assert "3:TFH003" in by_file["other_code.py"]
        assert not any(c.endswith("TFH003") for c in by_file.get("foreign_code.py", set()))
    else:
        assert not any(c.endswith("TFH003") for codes in by_file.values() for c in codes)


def test_the_regexes_are_flake8s() -> None:
    from flake8 import defaults

    assert noqa.NOQA_INLINE_REGEXP.pattern == defaults.NOQA_INLINE_REGEXP.pattern
    assert noqa.NOQA_INLINE_REGEXP.flags == defaults.NOQA_INLINE_REGEXP.flags
    assert noqa.NOQA_FILE.pattern == defaults.NOQA_FILE.pattern
    assert noqa.NOQA_FILE.flags == defaults.NOQA_FILE.flags


def test_unused_noqa_message_names_each_kind() -> None:
    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_source

    src = "import requests\nrequests.get(u, timeout=3)  # noqa: TFH201, TFH999, TFH4, E501\n"
    cfg = Config.default().with_overrides(extend_select=["TFH003"], ignore=["TFH4"])
    [f] = lint_source(src, "m.py", cfg)
    assert f.code == "TFH003" and f.name == "unused-noqa" and (f.line, f.column) == (2, 29)
    assert "unused: TFH201" in f.message and "unknown: TFH999" in f.message and "non-enabled: TFH4" in f.message
    assert "E501" not in f.message
    # off by default: TFH selects every rule but this one
    assert lint_source(src, "m.py", Config.default()) == []
