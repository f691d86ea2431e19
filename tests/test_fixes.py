"""``smullyan lint --fix`` / ``--diff``: every fix lints, fixes and lints again.

For each fix: the fixed finding is gone, no new finding appears, the file
still parses with ``ast``, and a second ``--fix`` changes nothing. The form
of the file is kept (CRLF, tabs, comments inside the call, a call split over
lines, a BOM, a coding cookie, the mode).
"""

from __future__ import annotations

import ast
import collections
import io
import json
import os
import stat
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from smullyan.linter import fixes
from smullyan.linter.cli import main
from smullyan.linter.config import Config, ConfigError, from_mapping
from smullyan.linter.engine import lint_source
from smullyan.linter.findings import Edit, Finding, Fix
from smullyan.linter.registry import all_rules, get_rule
from smullyan.linter.rule import NodeEdit, RawFix, Rule

FIXABLE = ("TFH201", "TFH202", "TFH203", "TFH301", "TFH303", "TFH501", "TFH504")


def fix(src: str, config: Config | None = None, path: str = "m.py") -> str:
    return fixes.fix_text(src, path, config or Config()).text


def findings(src: str, config: Config | None = None) -> list[Finding]:
    return lint_source(src, "m.py", config or Config())


def assert_round_trip(src: str, config: Config | None = None) -> str:
    """Lint, fix, lint again: the fixes' findings gone, the others unchanged, parses, idempotent."""
    config = config or Config()
    before = findings(src, config)
    assert any(f.fix is not None for f in before), [f.as_flake8() for f in before]
    result = fixes.fix_text(src, "m.py", config)
    ast.parse(result.text)
    after = findings(result.text, config)
    assert not [f for f in after if f.fix is not None], [f.as_flake8() for f in after]
    unfixed = collections.Counter((f.code, f.message) for f in before if f.fix is None)
    assert collections.Counter((f.code, f.message) for f in after) == unfixed
    assert fixes.fix_text(result.text, "m.py", config).text == result.text
    return result.text


# --------------------------------------------------------------------------- every fixable rule's examples


def _examples() -> list[tuple[str, int, str]]:
    out = []
    for rule in all_rules():
        if rule.code in FIXABLE:
            out.extend((rule.code, i, src) for i, src in enumerate(rule.INVALID))
    return out


@pytest.mark.parametrize("code,index,src", _examples(), ids=[f"{c}-{i}" for c, i, _ in _examples()])
def test_every_invalid_example_round_trips(code: str, index: int, src: str) -> None:
    config = Config().with_overrides(select=[code])
    before = findings(src, config)
    if not any(f.fix is not None for f in before):
        pytest.skip("no obvious fix for this form (a decision for the author)")
    assert_round_trip(src, config)


@pytest.mark.parametrize("code", FIXABLE)
def test_each_fixable_rule_offers_a_fix_on_its_examples(code: str) -> None:
    rule = next(r for r in all_rules() if r.code == code)
    config = Config().with_overrides(select=[code])
    offered = [f for src in rule.INVALID for f in findings(src, config) if f.fix is not None]
    assert offered, f"{code} offers no fix on any INVALID example"


def test_rules_without_a_fix_offer_none() -> None:
    for rule in all_rules():
        if rule.code in FIXABLE:
            continue
        config = Config().with_overrides(select=[rule.code])
        assert not [f for src in rule.INVALID for f in findings(src, config) if f.fix is not None], rule.code


# --------------------------------------------------------------------------- TFH201 / TFH202


def test_tfh201_adds_the_default_timeout() -> None:
    src = 'import requests\nrequests.get("https://x")\n'
    assert assert_round_trip(src) == 'import requests\nrequests.get("https://x", timeout=30)\n'


def test_tfh201_uses_the_knowledge_keyword_and_the_configured_seconds() -> None:
    src = 'import redis\nr = redis.Redis(host="h")\n'
    config = from_mapping({"default-timeout-seconds": 2.5}, "pyproject.toml")
    assert assert_round_trip(src, config) == 'import redis\nr = redis.Redis(host="h", socket_timeout=2.5)\n'


def test_tfh201_call_split_over_lines_with_comments_and_trailing_comma() -> None:
    src = textwrap.dedent(
        """\
        import requests
        def f(url):
            if url:
                return requests.put(
                    url,  # where
                    json={},  # the body
                )
        """
    )
    assert assert_round_trip(src) == textwrap.dedent(
        """\
        import requests
        def f(url):
            if url:
                return requests.put(
                    url,  # where
                    json={},  # the body
                    timeout=30,
                )
        """
    )


def test_tfh201_comment_before_the_closing_paren_stays_on_its_line() -> None:
    src = 'import requests\nr = requests.get("u", headers={}  # c\n)\n'
    assert assert_round_trip(src) == 'import requests\nr = requests.get("u", headers={}, timeout=30  # c\n)\n'


def test_tfh201_one_argument_per_line_without_trailing_comma() -> None:
    src = 'import subprocess\nsubprocess.run(\n    ["kubectl", "get", "pods"],\n    check=True\n)\n'
    assert assert_round_trip(src) == 'import subprocess\nsubprocess.run(\n    ["kubectl", "get", "pods"],\n    check=True,\n    timeout=30\n)\n'


def test_tabs_and_crlf_keep_their_form() -> None:
    src = 'import requests\r\ndef f():\r\n\tif 1:\r\n\t\treturn requests.get(\r\n\t\t\t"x",  # the url\r\n\t\t)\r\n'
    out = assert_round_trip(src)
    assert out == 'import requests\r\ndef f():\r\n\tif 1:\r\n\t\treturn requests.get(\r\n\t\t\t"x",  # the url\r\n\t\t\ttimeout=30,\r\n\t\t)\r\n'


def test_tfh202_replaces_none_alone_and_in_a_pair() -> None:
    src = 'import httpx, requests\nhttpx.get("x", timeout=None)\nrequests.get("x", timeout=( 3, None ))\n'
    assert assert_round_trip(src) == 'import httpx, requests\nhttpx.get("x", timeout=30)\nrequests.get("x", timeout=( 3, 30 ))\n'


def test_tfh202_timeout_object_with_several_nones_has_no_fix() -> None:
    src = "import aiohttp\nt = aiohttp.ClientTimeout(total=None, connect=None)\nu = aiohttp.ClientTimeout()\n"
    found = findings(src)
    assert [f.code for f in found] == ["TFH202", "TFH202"]
    assert all(f.fix is None for f in found)


# --------------------------------------------------------------------------- TFH301 / TFH303: the file's import style


def test_tfh301_adds_to_the_from_import() -> None:
    src = "from tenacity import retry, wait_exponential\n\n@retry(wait=wait_exponential(max=30))\ndef fetch():\n    ...\n"
    assert assert_round_trip(src) == (
        "from tenacity import retry, wait_exponential, stop_after_attempt\n\n"
        "@retry(wait=wait_exponential(max=30), stop=stop_after_attempt(3))\ndef fetch():\n    ...\n"
    )


def test_tfh301_module_import_is_spelled_through_the_module() -> None:
    src = "import tenacity as t\n\n@t.retry(stop=t.stop_never, wait=t.wait_fixed(2))\ndef fetch():\n    ...\n"
    assert assert_round_trip(src) == (
        "import tenacity as t\n\n@t.retry(stop=t.stop_after_attempt(3), wait=t.wait_fixed(2))\ndef fetch():\n    ...\n"
    )


def test_tfh301_an_existing_name_is_reused_and_attempts_configured() -> None:
    src = (
        "from tenacity import retry, stop_after_attempt as attempts, wait_fixed\n"
        "@retry(wait=wait_fixed(1))\ndef f():\n    ...\n"
    )
    config = from_mapping({"default-max-attempts": 5}, "pyproject.toml")
    assert assert_round_trip(src, config) == (
        "from tenacity import retry, stop_after_attempt as attempts, wait_fixed\n"
        "@retry(wait=wait_fixed(1), stop=attempts(5))\ndef f():\n    ...\n"
    )


def test_tfh301_new_import_line_after_the_leading_imports() -> None:
    # tenacity imported only inside the function: the new import goes after the module's leading imports
    src = '"""Doc."""\nimport os\n\ndef run(call):\n    from tenacity import Retrying, wait_fixed\n    for attempt in Retrying(wait=wait_fixed(1)):\n        with attempt:\n            call()\n'
    out = assert_round_trip(src)
    assert out == (
        '"""Doc."""\nimport os\nfrom tenacity import stop_after_attempt\n\ndef run(call):\n'
        "    from tenacity import Retrying, wait_fixed\n"
        "    for attempt in Retrying(wait=wait_fixed(1), stop=stop_after_attempt(3)):\n        with attempt:\n            call()\n"
    )


def test_tfh301_backoff_max_tries() -> None:
    src = "import backoff\n@backoff.on_exception(backoff.expo, ConnectionError)\ndef get(url):\n    ...\n"
    assert assert_round_trip(src) == (
        "import backoff\n@backoff.on_exception(backoff.expo, ConnectionError, max_tries=3)\ndef get(url):\n    ...\n"
    )


def test_bare_retry_gets_both_fixes_over_two_passes() -> None:
    src = "from tenacity import retry\n@retry\ndef f():\n    ...\n"
    before = findings(src)
    assert sorted(f.code for f in before if f.fix is not None) == ["TFH301", "TFH303"]
    # the two fixes replace the same node: one pass applies one of them
    one_pass, applied = fixes.apply_fixes(src, [f.fix for f in before if f.fix is not None])
    assert len(applied) == 1
    out = assert_round_trip(src)
    assert out == (
        "from tenacity import retry, stop_after_attempt, wait_exponential_jitter\n"
        "@retry(stop=stop_after_attempt(3), wait=wait_exponential_jitter(initial=1, max=30))\ndef f():\n    ...\n"
    ) or out == (
        "from tenacity import retry, wait_exponential_jitter, stop_after_attempt\n"
        "@retry(wait=wait_exponential_jitter(initial=1, max=30), stop=stop_after_attempt(3))\ndef f():\n    ...\n"
    )


def test_a_retry_through_a_name_bound_elsewhere_has_no_fix() -> None:
    src = "from tenacity import retry, wait_fixed\npolicy = retry(wait=wait_fixed(1))\n@policy\ndef f():\n    ...\n"
    found = [f for f in findings(src) if f.code == "TFH301"]
    assert found and all(f.fix is None for f in found)


def test_tfh303_replaces_wait_none() -> None:
    src = "import tenacity as t\n@t.retry(stop=t.stop_after_attempt(3), wait=t.wait_none())\ndef f():\n    ...\n"
    assert assert_round_trip(src) == (
        "import tenacity as t\n"
        "@t.retry(stop=t.stop_after_attempt(3), wait=t.wait_exponential_jitter(initial=1, max=30))\ndef f():\n    ...\n"
    )


# --------------------------------------------------------------------------- TFH501 / TFH504


def test_tfh501_arms_go_before_a_guarded_catch_all() -> None:
    src = textwrap.dedent(
        """\
        from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
        def f(e, verbose):
            match e:
                case RateLimited() | Timeout() | Unavailable():
                    return "retry"
                case InvalidArgs() | Denied() | NotFound():
                    return "stop"
                case _ if verbose:
                    return "?"
        """
    )
    assert assert_round_trip(src) == textwrap.dedent(
        """\
        from smullyan.runtime import RateLimited, Timeout, Unavailable, InvalidArgs, Denied, NotFound, Unknown
        def f(e, verbose):
            match e:
                case RateLimited() | Timeout() | Unavailable():
                    return "retry"
                case InvalidArgs() | Denied() | NotFound():
                    return "stop"
                case Unknown():
                    raise NotImplementedError("unhandled Unknown")
                case _ if verbose:
                    return "?"
        """
    )


def test_tfh501_at_the_end_of_a_file_without_a_final_newline() -> None:
    src = 'def f(e):\n    match e.tag:\n        case "RateLimited" | "Timeout" | "Unavailable" | "InvalidArgs" | "Denied" | "NotFound":\n            return 1'
    out = assert_round_trip(src)
    assert out.endswith('return 1\n        case "Unknown":\n            raise NotImplementedError("unhandled Unknown")\n')


def test_a_fix_inside_a_case_body_keeps_the_call_laid_out_at_its_depth() -> None:
    # a `match` indents its `case` lines as a block does its statements: the new keyword and the moved
    # closing parenthesis line up with the call's other lines (batch 13: re-laid one level short)
    src = (
        "import requests\n\n\ndef f(kind, url):\n    match kind:\n        case \"a\":\n"
        "            r = requests.get(\n                url,\n                headers={},\n            )\n"
        "            return r\n"
    )
    out = assert_round_trip(src)
    assert out.endswith(
        "            r = requests.get(\n                url,\n                headers={},\n"
        "                timeout=30,\n            )\n            return r\n"
    ), out


def test_tfh504_keeps_the_quotes() -> None:
    src = "def f(d):\n    return d['_tag'] == 'RateLimit' or d.get(\"_tag\") == \"Notfound\"\n"
    assert assert_round_trip(src) == "def f(d):\n    return d['_tag'] == 'RateLimited' or d.get(\"_tag\") == \"NotFound\"\n"


def test_tfh504_no_fix_when_it_is_no_near_miss() -> None:
    src = "from smullyan.runtime import ToolError\ndef f(e: ToolError):\n    return e.tag == 'Throttled'\n"
    found = findings(src)
    assert [f.code for f in found] == ["TFH504"] and found[0].fix is None


# --------------------------------------------------------------------------- the mechanism


def test_a_noqa_finding_is_never_fixed() -> None:
    src = 'import requests\nrequests.get("a")  # noqa: TFH201\nrequests.get("b")\n'
    assert fix(src) == 'import requests\nrequests.get("a")  # noqa: TFH201\nrequests.get("b", timeout=30)\n'


def test_narrowed_definitions_are_never_written_as_stubs(monkeypatch: pytest.MonkeyPatch) -> None:
    # the engine parses a narrowed text (definitions without candidates are stubs): the fix edits the file as it is
    src = textwrap.dedent(
        """\
        import requests

        class Big:
            def other(self):
                x = 1
                return x + 2

            def fetch(self):
                return requests.get("x")

        def helper(a, b):
            '''Doc.'''
            return a * b
        """
    )
    from smullyan.linter import engine

    narrowed: list[str | None] = []
    real = engine.narrow
    monkeypatch.setattr(engine, "narrow", lambda *a: narrowed.append(real(*a)) or narrowed[-1])
    out = assert_round_trip(src)
    assert narrowed and narrowed[0] is not None and "def helper(): ..." in narrowed[0]  # the engine did stub it
    assert out == src.replace('requests.get("x")', 'requests.get("x", timeout=30)')


def test_overlapping_edits_wait_for_the_next_pass() -> None:
    a = Fix("a", (Edit(1, 1, 1, 4, "AAA"),))
    b = Fix("b", (Edit(1, 3, 1, 6, "BBB"),))
    c = Fix("c", (Edit(2, 1, 2, 1, "new\n"),))
    text, applied = fixes.apply_fixes("abcdef\nx\n", [b, a, c])
    assert text == "AAAdef\nnew\nx\n" and sorted(applied) == [1, 2]


def test_identical_edits_of_two_fixes_are_applied_once() -> None:
    imp = Edit(1, 1, 1, 1, "import x\n")
    a = Fix("a", (imp, Edit(2, 1, 2, 2, "A")))
    b = Fix("b", (imp, Edit(3, 1, 3, 2, "B")))
    text, applied = fixes.apply_fixes("\na\nb\n", [a, b])
    assert text == "import x\n\nA\nB\n" and applied == [0, 1]


def test_a_fix_whose_result_does_not_parse_is_not_applied(monkeypatch: pytest.MonkeyPatch) -> None:
    src = 'import requests\nrequests.get("x")\n'
    broken = Fix("broken", (Edit(2, 1, 2, 1, "(("),))
    found = [Finding("m.py", 2, 1, 2, 18, "TFH201", "call-without-timeout", "m", broken)]
    result = fixes.fix_text(src, "m.py", Config(), found)
    assert result.text == src and not result.changed


def test_config_keys_are_validated() -> None:
    cfg = from_mapping({"fixable": ["TFH2"], "unfixable": ["TFH202"], "default-max-attempts": 4}, "p.toml")
    assert cfg.is_fixable("TFH201") and not cfg.is_fixable("TFH202") and not cfg.is_fixable("TFH301")
    for key, value, expected in [
        ("fixable", ["TFH9999"], "unknown rule selector"),
        ("unfixable", "tfh2", "upper case"),
        ("default-timeout-seconds", 0, "positive number"),
        ("default-timeout-seconds", "30", "positive number"),
        ("default-max-attempts", 2.5, "whole number"),
        ("default-max-attempts", 0, "whole number"),
    ]:
        with pytest.raises(ConfigError) as err:
            from_mapping({key: value}, "p.toml")
        assert f"`{key}`" in str(err.value) and expected in str(err.value) and "\n" not in str(err.value)


# --------------------------------------------------------------------------- the command line

DIRTY = 'import requests\nrequests.get("x")\nrequests.get("y", timeout=None)  # noqa: TFH202\n'


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_marks_fixable_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text('import requests\nrequests.get("x")\nimport tenacity\n@tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_fixed(1), retry=tenacity.retry_if_exception_type(Exception))\ndef g(): ...\n')
    code, out, _ = run(["lint", "--no-cache", str(f)], capsys)
    assert code == 1
    # every fix changes run-time behaviour: unsafe, so --fix alone would not apply it (no mark)
    assert f"{f}:2:1: TFH201 requests.get has no timeout" in out
    assert "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in out
    code, out, _ = run(["lint", "--no-cache", "--unsafe-fixes", str(f)], capsys)
    assert f"{f}:2:1: TFH201 [*] requests.get has no timeout" in out
    assert "[*] 1 fixable with the `--fix` option." in out and "hidden" not in out
    assert any(" TFH103 " in line for line in out.splitlines())  # no fix: no mark


def test_diff_prints_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text(DIRTY)
    code, out, err = run(["lint", "--no-cache", "--diff", str(f)], capsys)
    assert (code, out) == (0, "")  # the only fix is unsafe: no diff without --unsafe-fixes
    assert "No findings would be fixed (1 additional fix available with `--unsafe-fixes`)." in err
    code, out, err = run(["lint", "--no-cache", "--diff", "--unsafe-fixes", str(f)], capsys)
    assert code == 1
    assert out == (
        f"--- {f}\n+++ {f}\n@@ -1,3 +1,3 @@\n import requests\n"
        '-requests.get("x")\n+requests.get("x", timeout=30)\n'
        ' requests.get("y", timeout=None)  # noqa: TFH202\n'
    )
    assert "Would fix 1 finding." in err
    assert f.read_text() == DIRTY
    clean = tmp_path / "b.py"
    clean.write_text("x = 1\n")
    assert run(["lint", "--no-cache", "--diff", "--unsafe-fixes", str(clean)], capsys)[0] == 0
    # --exit-zero holds with --diff too, as in ruff
    assert run(["lint", "--no-cache", "--diff", "--unsafe-fixes", "--exit-zero", str(f)], capsys)[0] == 0


def test_fix_writes_keeps_mode_and_reports_what_is_left(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text(DIRTY + "import subprocess\nproc = subprocess.Popen(['x'])\n")
    os.chmod(f, 0o751)
    code, out, _ = run(["lint", "--no-cache", "--fix", "--select", "TFH201", str(f)], capsys)
    assert code == 1 and f.read_text().startswith(DIRTY)  # unsafe: not applied, and the summary says how
    assert "1 unsafe fix not applied (they change run-time behaviour): add `--unsafe-fixes` to apply them." in out
    code, out, _ = run(["lint", "--no-cache", "--fix", "--unsafe-fixes", "--select", "TFH201", str(f)], capsys)
    assert code == 0, out
    assert f.read_text().splitlines()[1] == 'requests.get("x", timeout=30)'
    assert stat.S_IMODE(f.stat().st_mode) == 0o751
    assert "Fixed 1 finding; no findings (1 file checked)." in out
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]  # no temporary file left
    # a second --fix changes nothing
    before = f.read_bytes()
    assert run(["lint", "--no-cache", "--fix", "--unsafe-fixes", "--select", "TFH201", str(f)], capsys)[0] == 0
    assert f.read_bytes() == before


def test_fix_keeps_bom_crlf_and_a_coding_cookie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfimport requests\r\nrequests.get('\xc3\xa9')\r\n")
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\nimport requests\nrequests.get('\xe9')\n")
    assert run(["lint", "--no-cache", "--fix", "--unsafe-fixes", str(bom), str(latin)], capsys)[0] == 0
    assert bom.read_bytes() == b"\xef\xbb\xbfimport requests\r\nrequests.get('\xc3\xa9', timeout=30)\r\n"
    assert latin.read_bytes() == b"# -*- coding: latin-1 -*-\nimport requests\nrequests.get('\xe9', timeout=30)\n"


def test_fix_refreshes_the_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text('import requests\nrequests.get("x")\nrequests.get("y", timeout=None)\n')
    cache = tmp_path / "cache"
    (tmp_path / ".smullyan.yaml").write_text("unfixable: [TFH202]\nunsafe-fixes: true\n")  # the config key
    code, out, _ = run(["lint", "--cache-dir", str(cache), "--fix", "--format", "json", str(f)], capsys)
    assert code == 1
    left = json.loads(out)
    assert [(x["code"], x["fix"]) for x in left] == [("TFH202", None)]  # unfixable: no fix object either
    code, out2, _ = run(["lint", "--cache-dir", str(cache), "--format", "json", str(f)], capsys)
    assert json.loads(out2) == left


def test_fix_with_stdin_prints_the_fixed_source(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = b'import requests\nrequests.get("x")\nrequests.get("y", timeout=None)  # noqa: TFH202\n'

    class Stdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin())
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stdout)
    code = main(["lint", "--no-cache", "--fix", "--unsafe-fixes", "-"])
    stdout.flush()
    written = stdout.buffer.getvalue()  # type: ignore[attr-defined]
    assert code == 0
    assert written == data.replace(b'get("x")', b'get("x", timeout=30)')
    assert "Fixed 1 finding" in capsys.readouterr().err


def test_json_and_sarif_carry_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text('import requests\nrequests.get("x")\n')
    _, out, _ = run(["lint", "--no-cache", "--format", "json", str(f)], capsys)
    [item] = json.loads(out)
    assert item["fix"] == {
        "applicability": "unsafe",  # the true label, shown whether or not --unsafe-fixes is given
        "message": "Add `timeout=30`",
        "edits": [
            {
                "content": 'requests.get("x", timeout=30)',
                "location": {"row": 2, "column": 1},
                "end_location": {"row": 2, "column": 18},
            }
        ],
    }
    _, out, _ = run(["lint", "--no-cache", "--format", "sarif", str(f)], capsys)
    [result] = json.loads(out)["runs"][0]["results"]
    [change] = result["fixes"][0]["artifactChanges"]
    assert result["fixes"][0]["description"]["text"] == "Add `timeout=30`"
    assert result["fixes"][0]["properties"] == {"applicability": "unsafe"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 18},
            "insertedContent": {"text": 'requests.get("x", timeout=30)'},
        }
    ]


def test_sarif_with_fixes_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
    if not schema_path.exists():
        pytest.skip("no SARIF schema in tests/data")
    f = tmp_path / "a.py"
    f.write_text("from tenacity import retry\n@retry\ndef f(): ...\n")
    _, out, _ = run(["lint", "--no-cache", "--format", "sarif", str(f)], capsys)
    jsonschema.validate(json.loads(out), json.loads(schema_path.read_text()))


def test_fix_and_add_noqa_do_not_mix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text(DIRTY)
    code, _, err = run(["lint", "--no-cache", "--fix", "--add-noqa", str(f)], capsys)
    assert code == 2 and "--add-noqa cannot be combined" in err
    assert f.read_text() == DIRTY


def test_bad_fix_config_is_exit_2_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".smullyan.yaml").write_text("default-timeout-seconds: -1\n")
    f = tmp_path / "a.py"
    f.write_text(DIRTY)
    code, _, err = run(["lint", "--no-cache", "--fix", str(f)], capsys)
    assert code == 2
    assert err.strip().count("\n") == 0 and "`default-timeout-seconds`" in err
    assert f.read_text() == DIRTY


def test_flake8_plugin_reports_and_never_writes(tmp_path: Path) -> None:
    import subprocess

    f = tmp_path / "a.py"
    f.write_text(DIRTY)
    out = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TFH", str(f)], capture_output=True, text=True, timeout=120
    )
    assert "TFH201" in out.stdout and "[*]" not in out.stdout
    assert f.read_text() == DIRTY


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_a_rule_documents_its_fix_exactly_when_it_has_one(rule: type, capsys: pytest.CaptureFixture[str]) -> None:
    docs: str = rule.docs  # type: ignore[attr-defined]
    code: str = rule.code  # type: ignore[attr-defined]
    assert ("## Fix" in docs) == (code in FIXABLE)
    if code in FIXABLE:
        fix_section = docs.split("## Fix", 1)[1].split("\n## ", 1)[0]
        assert "--fix" in fix_section and "on purpose" in fix_section  # what it changes at run time
        assert main(["explain", code]) == 0
        assert "## Fix" in capsys.readouterr().out


def test_diff_with_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Stdin:
        buffer = io.BytesIO(b'import requests\nrequests.get("x")\n')

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, out, err = run(["lint", "--no-cache", "--diff", "--unsafe-fixes", "--stdin-filename", "pkg/m.py"], capsys)
    assert code == 1
    assert '+requests.get("x", timeout=30)' in out and out.startswith("--- pkg/m.py\n+++ pkg/m.py\n")
    assert "Would fix 1 finding." in err


# --------------------------------------------------------------------------- TFH201 fixes that would hurt (issue 28)


@pytest.mark.parametrize("call", [
    'subprocess.run(["vim", path])',
    'subprocess.call([os.environ.get("EDITOR", "vi"), path])',
    'subprocess.run(["xdg-open", path])',
    'subprocess.run(["fzf"])',
    'subprocess.run(["jless", path])',
    'subprocess.run(["npm", "run", "dev"], cwd=path)',
    'subprocess.run([sys.executable, "-m", "uvicorn", "app:app", "--reload"])',
    'subprocess.run(["uv", "run", "streamlit", "run", path])',
    'subprocess.run("cd docs && mintlify dev", shell=True)',
    # s49: local playback plays on this machine and ends with the sound (t201: its labels 4 false / 2 debatable / 0 true)
    'subprocess.run(["say", path], check=True)',
    'subprocess.run(["afplay", path], check=True)',
])
def test_tfh201_is_silent_on_an_editor_or_opener_so_nothing_is_fixed(call: str) -> None:
    src = f"import os, subprocess, sys\ndef f(path):\n    {call}\n"
    assert [f for f in findings(src) if f.code == "TFH201"] == []  # issue 23: no timeout to give a person
    assert fix(src) == src


@pytest.mark.parametrize("call, why", [
    ('subprocess.run(["sudo", "reboot"])', "`sudo` may wait for a person"),
    ('subprocess.run(["ssh", path, "uptime"])', "`ssh` may wait for a person"),
    ('subprocess.run([sys.executable, "-m", "pip", "install", "x"], check=True)', "runs long"),
    ('subprocess.run("npm install", shell=True)', "runs long"),
    ('subprocess.check_call(["apt-get", "install", "-y", "git"])', "runs long"),
    ('subprocess.run(["ollama", "pull", "llama3"])', "runs long"),
    ('subprocess.run(["docker", "build", "."])', "runs long"),
    ('subprocess.run(["trivy", "fs", "."])', "runs long"),
])
def test_tfh201_no_fix_for_a_process_that_waits_for_a_person_or_runs_long(call: str, why: str) -> None:
    src = f"import os, subprocess, sys\ndef f(path):\n    {call}\n"
    found = [f for f in findings(src) if f.code == "TFH201"]
    assert len(found) == 1 and found[0].fix is None and why in found[0].message
    assert fix(src) == src


@pytest.mark.parametrize("call", [
    "subprocess.run(cmd)",
    "subprocess.call(command_str, shell=True)",
    'subprocess.run([binary, "--serve"])',
    'subprocess.run(["git", *args], check=True)',
    'subprocess.run(["git"] + args)',
    "subprocess.run([sys.executable, script])",
    'subprocess.run(f"{tool} inspect")',
    'subprocess.run(["bash", "-c", line])',
    'subprocess.run("cd x && " + line, shell=True)',
])
def test_tfh201_no_fix_when_the_command_is_not_a_literal(call: str) -> None:
    src = f"import os, subprocess, sys\ndef f(cmd, command_str, binary, args, script, tool, line):\n    {call}\n"
    # s52: a command the linter cannot read is TFH203's (off by default, selected here), with TFH201's refusal
    both = Config().with_overrides(extend_select=["TFH203"])
    found = [f for f in findings(src, both) if f.code in ("TFH201", "TFH203")]
    assert len(found) == 1 and found[0].fix is None, [f.message for f in found]
    assert "built at run time" in found[0].message and f"noqa: {found[0].code}" in found[0].message
    assert fix(src, both) == src


def test_tfh201_a_local_literal_command_is_read_through_its_name() -> None:
    src = textwrap.dedent('''\
        import subprocess
        def lint(path):
            cmd = ["kubectl", "get", "pods", "-n", path]
            return subprocess.run(cmd)
        def build():
            cmd = ["ffmpeg", "-i", "in.mp4", "out.webm"]
            subprocess.run(cmd, check=True)
        def view(path):
            pager = ["less", path]
            subprocess.run(pager)
        def rebound(flag):
            cmd = ["kubectl", "get", "pods"]
            if flag:
                cmd = ["npx", "serve"]
            subprocess.run(cmd)
        ''')
    found = {f.line: f for f in findings(src) if f.code == "TFH201"}
    assert sorted(found) == [4, 7, 15]  # the pager is silent
    assert found[4].fix is not None
    assert found[7].fix is None and "`ffmpeg` runs long" in found[7].message
    assert found[15].fix is None and "built at run time" in found[15].message  # bound twice: not read


def test_tfh201_shell_line_with_a_long_step_gets_no_fix() -> None:
    src = 'import subprocess\nsubprocess.run("cd web && npm install && npm run build", shell=True)\n'
    found = [f for f in findings(src) if f.code == "TFH201"]
    assert len(found) == 1 and found[0].fix is None and "`npm` runs long" in found[0].message


def test_tfh201_other_commands_keep_the_fix() -> None:
    src = 'import subprocess\nsubprocess.run(["kubectl", "get", "pods"])\n'
    assert assert_round_trip(src) == 'import subprocess\nsubprocess.run(["kubectl", "get", "pods"], timeout=30)\n'


def test_tfh201_popen_communicate_gets_no_fix_without_kill_and_reap() -> None:
    src = 'import subprocess\np = subprocess.Popen(["kubectl", "get", "pods"])\nout, err = p.communicate()\np.wait()\n'
    found = [f for f in findings(src) if f.code == "TFH201"]
    assert len(found) == 2 and all(f.fix is None for f in found)
    assert fix(src) == src


def test_tfh201_no_fix_when_the_timeout_would_escape_the_handler() -> None:
    src = textwrap.dedent('''\
        import subprocess, requests
        try:
            subprocess.run(["kubectl", "get", "pods"], check=True)
        except subprocess.CalledProcessError:
            pass
        try:
            requests.get("https://x")
        except requests.ConnectionError:
            pass
        ''')
    assert all(f.fix is None for f in findings(src) if f.code == "TFH201")
    assert fix(src) == src


def test_tfh201_fix_kept_when_the_handler_catches_the_timeout() -> None:
    src = textwrap.dedent('''\
        import subprocess, requests
        try:
            subprocess.run(["kubectl", "get", "pods"], check=True)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        try:
            requests.get("https://x")
        except requests.RequestException:
            pass
        try:
            requests.get("https://x")
        except Exception:
            pass
        ''')
    out = assert_round_trip(src)
    assert out.count("timeout=30") == 3


def test_tfh504_and_tfh501_in_one_pass_add_no_duplicate_arm() -> None:
    src = ('def f(e):\n    match e.tag:\n'
           '        case "RateLimit" | "Timeout" | "Unavailable" | "InvalidArgs" | "Denied" | "NotFound":\n'
           '            return 1\n')
    assert {f.code for f in findings(src) if f.fix is not None} == {"TFH501", "TFH504"}
    out = assert_round_trip(src)
    assert out.count('"RateLimited"') == 1 and out.count('case "Unknown":') == 1
    assert 'unhandled RateLimited' not in out


def test_tfh501_fixes_alone_when_the_misspelt_tag_was_its_only_missing_arm() -> None:
    src = ('def f(e):\n    match e.tag:\n'
           '        case "RateLimit" | "Timeout" | "Unavailable" | "InvalidArgs" | "Denied" | "NotFound" | "Unknown":\n'
           '            return 1\n')
    tfh501 = [f for f in findings(src) if f.code == "TFH501"]
    assert len(tfh501) == 1 and tfh501[0].fix is None  # TFH504's fix completes the match
    out = fix(src)
    ast.parse(out)
    assert "NotImplementedError" not in out and '"RateLimited"' in out
    assert [f.code for f in findings(out)] == [] and fix(out) == out


# --------------------------------------------------------------------------- applicability (issue 26)


def test_every_shipped_fix_is_labelled_unsafe() -> None:
    """Each fixable rule's fixes change run-time behaviour (its docs say so): ruff's label is unsafe."""
    for code in FIXABLE:
        rule = get_rule(code)
        assert rule is not None and rule.fix_applicability == "unsafe", code
        for src in rule.INVALID:
            for f in lint_source(src, "m.py", Config.default().only(code)):
                if f.fix is not None:
                    assert f.fix.applicability == "unsafe", (code, f.fix)


class _SafeStandIn(Rule):
    code = "TFH998"  # reserved for tests
    name = "safe-stand-in"
    summary = "test rule"
    message = "{name} called"
    docs = ""
    fix_applicability = "safe"

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in ("boom", "bang"):
            fix = RawFix("rename", (NodeEdit(node.func, cst.Name("ok")),))
            if node.func.value == "bang":  # a fix may say otherwise than its rule
                fix = RawFix("rename", (NodeEdit(node.func, cst.Name("ok")),), applicability="unsafe")
            self.report(node, name=node.func.value, autofix=fix)


def test_a_rule_declares_its_fixes_safe_and_a_fix_may_override_it() -> None:
    found = lint_source("boom()\nbang()\n", "m.py", Config.default().only("TFH998"), rules=[_SafeStandIn])
    assert [(f.line, f.fix.applicability if f.fix else None) for f in found] == [(1, "safe"), (2, "unsafe")]


def test_fix_applies_safe_fixes_only_unless_asked_for_unsafe_ones() -> None:
    from dataclasses import replace

    from smullyan.linter.fixes import applies, fix_text, fixable

    text = 'import requests\nrequests.get("x")\nrequests.put("y")\n'
    config = Config.default().only("TFH201")
    first, second = lint_source(text, "m.py", config)
    assert first.fix is not None and second.fix is not None
    findings = [replace(first, fix=replace(first.fix, applicability="safe")), second]
    assert [applies(f.fix, unsafe=False) for f in findings] == [True, False]
    assert fixable(findings, config, unsafe=False) == [findings[0]]
    safe_only = fix_text(text, "m.py", config, findings, unsafe=False)
    assert safe_only.text == 'import requests\nrequests.get("x", timeout=30)\nrequests.put("y")\n'
    assert [f.line for f in safe_only.fixed] == [2]
    assert fix_text(text, "m.py", config, findings, unsafe=True).text.count("timeout=30") == 2


def test_unsafe_fixes_config_key_and_the_flags_that_override_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text(DIRTY)
    (tmp_path / ".smullyan.yaml").write_text("unsafe-fixes: true\n")
    code, out, _ = run(["lint", "--no-cache", "--no-unsafe-fixes", "--fix", str(f)], capsys)
    assert code == 1 and f.read_text() == DIRTY and "add `--unsafe-fixes`" in out
    code, out, _ = run(["lint", "--no-cache", "--fix", str(f)], capsys)
    assert code == 0 and 'requests.get("x", timeout=30)' in f.read_text()
    (tmp_path / ".smullyan.yaml").write_text("unsafe-fixes: 'yes'\n")
    code, _, err = run(["lint", "--no-cache", str(f)], capsys)
    assert code == 2 and "`unsafe-fixes` must be true or false" in err


def test_show_fixes_lists_what_was_or_would_be_fixed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.py"
    f.write_text('import requests\nrequests.get("x")\nrequests.put("y")\n')
    code, out, _ = run(["lint", "--no-cache", "--unsafe-fixes", "--show-fixes", str(f)], capsys)
    assert code == 1 and f.read_text().count("timeout") == 0
    assert f"Would fix 2 findings:\n- {f}:\n    2 \u00d7 TFH201 (call-without-timeout)\n" in out
    code, out, _ = run(["lint", "--no-cache", "--show-fixes", str(f)], capsys)
    assert "Would fix" not in out  # nothing --fix would apply without --unsafe-fixes
    code, out, _ = run(["lint", "--no-cache", "--fix", "--unsafe-fixes", "--show-fixes", str(f)], capsys)
    assert code == 0 and f"Fixed 2 findings:\n- {f}:\n    2 \u00d7 TFH201 (call-without-timeout)\n" in out


# --------------------------------------------------------------------------- TFH202: a None on a stream or an LLM call (issue 28)


@pytest.mark.parametrize("line, why", [
    ('httpx.stream("GET", url, timeout=None)', "silence between chunks"),
    ('requests.get(url, stream=True, timeout=(3, None))', "silence between chunks"),
    ('httpx.Client().stream("POST", url, timeout=httpx.Timeout(None))', "silence between chunks"),
    ('connect_sse(httpx.Client(), "GET", url, timeout=None)', "silence between chunks"),
    ('openai.OpenAI(timeout=None)', "longest generation"),
    ('openai.AsyncOpenAI().chat.completions.create(model="m", messages=[], timeout=None)', "longest generation"),
    ('anthropic.Anthropic().with_options(timeout=None)', "longest generation"),
    ('requests.post(url, json={"messages": [], "model": "m"}, timeout=None)', "longest generation"),
])
def test_tfh202_reports_a_none_on_a_stream_or_llm_call_without_a_fix(line: str, why: str) -> None:
    src = f"import anthropic, httpx, openai, requests\nfrom httpx_sse import connect_sse\ndef f(url):\n    return {line}\n"
    found = [f for f in findings(src) if f.code == "TFH202"]
    assert len(found) == 1 and found[0].fix is None and why in found[0].message, [f.message for f in found]
    assert fix(src) == src


def test_tfh202_a_request_from_an_llm_module_gets_no_fix() -> None:
    src = 'import httpx\nasync def generate(c: httpx.AsyncClient, url, data):\n    return await c.post(url, json=data, timeout=None)\n'
    assert [f.fix is None for f in lint_source(src, "pkg/chat_models/acme.py", Config()) if f.code == "TFH202"] == [True]
    read = src.replace("c.post(url, json=data", "c.get(url, params=data")  # a POST gets no fix anywhere (a write)
    assert [f.fix is None for f in lint_source(read, "pkg/chat_models/acme.py", Config()) if f.code == "TFH202"] == [True]
    assert [f.fix is not None for f in lint_source(read, "pkg/tools/acme.py", Config()) if f.code == "TFH202"] == [True]


def test_tfh202_keeps_the_fix_on_a_plain_request() -> None:
    src = 'import httpx\nhttpx.get("https://x", timeout=None)\n'
    assert assert_round_trip(src) == 'import httpx\nhttpx.get("https://x", timeout=30)\n'


def test_tfh201_docker_wait_and_exec_run_get_no_fix() -> None:
    src = textwrap.dedent('''\
        import docker
        def job(image, script):
            container = docker.from_env().containers.run(image, detach=True)
            container.wait()
            return container.exec_run(["python", script])
        ''')
    found = [f for f in findings(src) if f.code == "TFH201"]
    assert [f.line for f in found] == [4, 5] and all(f.fix is None for f in found)
    assert "how long the container may run" in found[0].message
    assert fix(src) == src


def test_tfh201_indirect_session_gets_the_usual_fix() -> None:
    src = textwrap.dedent('''\
        import requests
        class Search:
            def __init__(self, session=None):
                self.session = session or requests.Session()
            def run(self, q):
                return self.session.get("https://x", params={"q": q})
        ''')
    out = assert_round_trip(src)
    assert 'self.session.get("https://x", params={"q": q}, timeout=30)' in out


@pytest.mark.parametrize("words, whole, silent, refusal", [
    (["less", "f"], True, "a pager waits for a person", None),
    (["sh", "-c", "pkill -f -- 'x' >/dev/null 2>&1 || true"], True, "an instant local command", None),
    (["bash", "-c", "make all 2>&1 | tee log"], True, None, "`make` runs long"),
    (["bash", "-c"], False, None, "built at run time"),
    (["git", "-C", "repo", "clone", "u"], True, None, "`git clone` runs long"),
    (["git", "-C", "repo", "rev-parse", "HEAD"], True, "an instant local command", None),
    (["modal", "deploy", "app.py"], True, None, "`modal deploy` runs long"),
    (["python3.12", "-m", "http.server"], True, "a foreground dev server runs until the person stops it", None),
    (["ruff", "check", "."], True, None, None),
])
def test_the_process_table_reads_the_command(words: list[str], whole: bool, silent: str | None, refusal: str | None) -> None:
    from smullyan.linter.knowledge import interactive_process, process_fix_refusal

    assert interactive_process(words) == silent
    if silent is None:
        got = process_fix_refusal(words, whole)
        assert (got is None) if refusal is None else (got is not None and refusal in got), got


# --------------------------------------------------------------------------- session 32: fixes that never hurt (issue 28)


@pytest.mark.parametrize("line, why", [
    ('subprocess.run(["make", "all"], timeout=None)', "`make` runs long"),
    ('subprocess.run(["ollama", "pull", "llama3"], timeout=None)', "`ollama` runs long"),
    ("subprocess.run(cmd, timeout=None)", "noqa: TFH202"),
    ('subprocess.run(["bash", "-c", cmd], timeout=None)', "built at run time"),
    ('subprocess.Popen(["ls"]).communicate(timeout=None)', "kill-and-reap"),
    ('subprocess.Popen(["ls"]).wait(None)', "kill-and-reap"),
])
def test_tfh202_no_fix_on_a_long_or_unreadable_process_or_a_popen_wait(line: str, why: str) -> None:
    src = f"import subprocess\ndef f(cmd):\n    {line}\n"
    found = [f for f in findings(src) if f.code == "TFH202"]
    assert len(found) == 1 and found[0].fix is None and why in found[0].message, [f.message for f in found]
    assert fix(src) == src


@pytest.mark.parametrize("call", ['["vim", path]', '["npm", "run", "dev"]', '[os.environ["EDITOR"], path]', '["less", path]'])
def test_tfh202_silent_when_the_process_has_no_timeout_to_give(call: str) -> None:
    src = f"import os, subprocess\ndef f(path):\n    subprocess.run({call}, timeout=None)\n"
    assert [f for f in findings(src) if f.code == "TFH202"] == []


@pytest.mark.parametrize("handler", [
    "except requests.ConnectionError:",
    "except (requests.HTTPError, ValueError):",
])
def test_tfh202_no_fix_when_the_timeout_would_escape_the_handler(handler: str) -> None:
    src = f"import requests\ndef f(url):\n    try:\n        return requests.get(url, timeout=None)\n    {handler}\n        return None\n"
    found = [f for f in findings(src) if f.code == "TFH202"]
    assert len(found) == 1 and found[0].fix is None and "escape the handler" in found[0].message
    assert fix(src) == src


def test_tfh202_no_fix_on_an_aiohttp_total_under_a_client_error_handler() -> None:
    # `ClientTimeout(total=30)` raises asyncio.TimeoutError, which `except aiohttp.ClientError` does not catch
    src = textwrap.dedent('''\
        import aiohttp
        async def f(url):
            try:
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as s:
                    return await (await s.get(url)).text()
            except aiohttp.ClientError:
                return None
        ''')
    found = [f for f in findings(src) if f.code == "TFH202"]
    assert len(found) == 1 and found[0].fix is None
    assert fix(src) == src


def test_tfh202_fix_kept_when_the_handler_catches_the_timeout() -> None:
    src = textwrap.dedent('''\
        import asyncio, requests, subprocess
        async def f(aw, url):
            try:
                return await asyncio.wait_for(aw, None)
            except asyncio.TimeoutError:
                return None
        def g(url):
            try:
                return requests.get(url, timeout=None)
            except requests.RequestException:
                return None
        def h():
            try:
                subprocess.run(["ruff", "check", "."], timeout=None)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pass
        ''')
    out = assert_round_trip(src)
    assert out.count("30") == 3 and "None)" not in out


@pytest.mark.parametrize("block, keeps", [
    ("with suppress(subprocess.CalledProcessError):", False),
    ("with contextlib.suppress(FileNotFoundError):", False),
    ("with suppress(subprocess.SubprocessError):", True),
    ("with suppress(Exception):", True),
])
def test_tfh201_a_suppress_block_is_a_handler_the_timeout_must_not_escape(block: str, keeps: bool) -> None:
    src = f"import contextlib, subprocess\nfrom contextlib import suppress\ndef f():\n    {block}\n        subprocess.run([\"kubectl\", \"get\", \"pods\"], check=True)\n"
    found = [f for f in findings(src) if f.code == "TFH201"]
    assert len(found) == 1 and (found[0].fix is not None) is keeps, found[0].message
    if keeps:
        assert "timeout=30" in assert_round_trip(src)
    else:
        assert "escape the handler" in found[0].message and fix(src) == src


@pytest.mark.parametrize("call, handler, keeps", [
    ('smtplib.SMTP("mail")', "smtplib.SMTPException", False),  # socket.timeout is no SMTPException
    ('smtplib.SMTP("mail")', "OSError", True),
    ('imaplib.IMAP4_SSL("mail")', "imaplib.IMAP4.error", False),  # IMAP4.error is not socket.error
    ('socket.create_connection(("h", 80))', "socket.error", True),
    ('socket.create_connection(("h", 80))', "socket.timeout", True),
    ('urllib.request.urlopen("https://x")', "urllib.error.URLError", False),  # a read timeout is raw
    ('redis.Redis(host="h")', "TimeoutError", False),  # the builtin is not redis' TimeoutError
    ('redis.Redis(host="h")', "redis.RedisError", True),
    ('redis.Redis(host="h")', "redis.exceptions.TimeoutError", True),
])
def test_tfh201_the_timeout_exception_of_each_client_is_known(call: str, handler: str, keeps: bool) -> None:
    src = (f"import imaplib, smtplib, socket, urllib.request, urllib.error, redis, redis.exceptions\ndef f():\n"
           f"    try:\n        return {call}\n    except {handler}:\n        return None\n")
    found = [f for f in findings(src) if f.code == "TFH201"]
    assert len(found) == 1 and (found[0].fix is not None) is keeps, (call, handler, found[0].message)
    if keeps:
        ast.parse(assert_round_trip(src))
    else:
        assert fix(src) == src


@pytest.mark.parametrize("src", [
    # the misspelt arm respelt would shadow the later, right one
    'def f(e):\n    match e.tag:\n        case "RateLimit":\n            return 1\n        case "RateLimited":\n            return 2\n',
    # the same in one arm's alternatives
    'def f(e):\n    match e.tag:\n        case "RateLimit" | "RateLimited":\n            return 1\n',
    # an if/elif chain: the respelt branch would make the later one unreachable
    'from smullyan.runtime import ToolError\ndef f(e: ToolError):\n    if e.tag == "Notfound":\n        return 1\n    elif e.tag == "NotFound":\n        return 2\n',
    # a table: the respelt key would duplicate another
    'def f(d):\n    return {"_tag": d}, {"Notfound": 1, "NotFound": 2, "RateLimited": 3, "Timeout": 4}\n',
])
def test_tfh504_no_fix_to_a_tag_the_same_match_chain_or_table_already_spells(src: str) -> None:
    tfh504 = [f for f in findings(src) if f.code == "TFH504"]
    assert len(tfh504) == 1 and tfh504[0].fix is None, [f.message for f in tfh504]
    out = fix(src)
    ast.parse(out)
    assert fix(out) == out
    # no arm added or respelt for a tag already spelt: it is spelt as often as before (TFH501 adds only missing ones)
    for tag in ("RateLimited", "NotFound"):
        if f'"{tag}"' in src:
            assert out.count(f'"{tag}"') == src.count(f'"{tag}"'), tag


def test_tfh504_and_tfh501_one_pass_with_a_tag_already_handled_adds_no_duplicate_arm() -> None:
    src = ('from smullyan.runtime import ToolError\ndef f(e: ToolError):\n    match e.tag:\n'
           '        case "RateLimit":\n            return 1\n        case "Timeout" | "Unavailable":\n            return 2\n'
           '        case "RateLimited":\n            return 5\n')
    out = fix(src)
    ast.parse(out)
    assert out.count('"RateLimited"') == 1 and '"RateLimit"' in out  # neither respelt nor added again
    assert fix(out) == out


def test_every_timeout_fix_in_a_mixed_file_compiles_and_a_second_pass_is_a_no_op() -> None:
    """The shapes of issues 23 and 28 together: what is fixed compiles, what is refused is left as written."""
    src = textwrap.dedent('''\
        import asyncio, os, subprocess, sys
        from contextlib import suppress
        import click
        import requests

        @click.command()
        def dev():
            subprocess.run(["acme", "serve"])

        def tool(url, cmd, path):
            requests.get(url)
            subprocess.run(["kubectl", "get", "pods", "-n", path])
            subprocess.run(cmd)
            subprocess.run(["pip", "install", "x"])
            subprocess.run(["crontab", "-l"], capture_output=True)
            subprocess.run([os.environ.get("EDITOR", "vi"), path])
            p = subprocess.Popen(["kubectl", "get", "pods"])
            p.communicate()
            with suppress(subprocess.CalledProcessError):
                subprocess.run(["gh", "pr", "view", path], check=True)
            try:
                requests.post(url, json={}, timeout=None)
            except requests.ConnectionError:
                pass
            return requests.get(url, timeout=(3, None))
        ''')
    out = fix(src)
    compile(out, "m.py", "exec")
    assert fix(out) == out
    assert 'requests.get(url, timeout=30)' in out and 'subprocess.run(["kubectl", "get", "pods", "-n", path], timeout=30)' in out
    assert "timeout=(3, 30)" in out
    for kept in ('subprocess.run(["acme", "serve"])', "subprocess.run(cmd)", 'subprocess.run(["pip", "install", "x"])',
                 "p.communicate()", 'subprocess.run(["gh", "pr", "view", path], check=True)',
                 "requests.post(url, json={}, timeout=None)", 'subprocess.run(["crontab", "-l"], capture_output=True)'):
        assert kept in out, kept


def test_tfh201_no_fix_on_an_llm_generation_request() -> None:
    # a 30 s default would cut a long generation (read in the session-32 fix sample: SambaNova's
    # non-streaming completion POST in langchain-community's llms/)
    src = textwrap.dedent('''\
        import requests
        class SambaLLM(LLM):
            def _call(self, url, data):
                return requests.post(url, json=data)
        def chat(url):
            return requests.post(url, json={"model": "m", "messages": []})
        def plain(url):
            return requests.get(url)
        ''')
    found = {f.line: f for f in findings(src) if f.code == "TFH201"}
    assert sorted(found) == [4, 6, 8]
    assert found[4].fix is None and found[6].fix is None and "longest generation" in found[4].message
    assert found[8].fix is not None
    assert [f.fix is None for f in lint_source('import requests\ndef f(u, d):\n    return requests.post(u, json=d)\n', "pkg/llms/acme.py", Config()) if f.code == "TFH201"] == [True]


def test_tfh202_no_fix_on_a_configured_none_or_an_upload() -> None:
    # read in the session-32 fix sample: mcp-agent maps a configured None to `httpx.Timeout(None)`;
    # agentic-doc posts a document for parsing with `files=..., timeout=None`
    src = textwrap.dedent('''\
        import httpx
        def client(t):
            if t is None:
                timeout = httpx.Timeout(None)
            else:
                timeout = t
            return httpx.AsyncClient(timeout=timeout)
        def parse(url, files):
            return httpx.post(url, files=files, timeout=None)
        def plain(url):
            return httpx.get(url, timeout=None)
        ''')
    found = {f.line: f for f in findings(src) if f.code == "TFH202"}
    assert sorted(found) == [4, 9, 11]
    assert found[4].fix is None and "configured" in found[4].message
    assert found[9].fix is None and "upload" in found[9].message
    assert found[11].fix is not None


# --------------------------------------------------------------------------- TFH301: no stop for a worker's restart
WORKER_RETRIES = '''\
from tenacity import retry, wait_exponential

RETRY_WAIT = wait_exponential(multiplier=1, min=2, max=60)


class MarketStream:
    @retry(wait=RETRY_WAIT)
    def run(self) -> None:
        self._stream = self.client.create_stream(listener=self._listener)
        self._stream.start()


class Poller:
    @retry(wait=RETRY_WAIT)
    def poll(self) -> None:
        while self.is_alive():
            self.queue.put(self.client.prices())


@retry(wait=RETRY_WAIT)
def fetch(client):
    return client.prices()


@retry(wait=RETRY_WAIT)
def drain(client):
    while client.pending() > 0:
        client.ack()
'''


def test_tfh301_offers_no_stop_for_a_long_running_workers_restart() -> None:
    """s56 (issue 28; batch 29's flumine, blind: 9 harmful fixes): a stream's ``run()`` or a polling body under
    ``@retry(wait=...)`` is restarted for as long as the process lives; ``stop=stop_after_attempt(3)`` would end it
    after a few seconds' outage. The finding stays, with no fix; a function that returns a value, or loops to a
    counted bound, still gets one."""
    found = sorted((f.line, f.fix is not None) for f in findings(WORKER_RETRIES) if f.code == "TFH301")
    assert found == [(7, False), (14, False), (20, True), (25, True)]
